// The SPIR-V environment a module is validated or optimized for, as spirv-val's and spirv-opt's
// --target-env name it ("spv1.6", "opencl2.2", "vulkan1.3", ...). The public headers hold it as
// a small value of their own rather than SPIRV-Tools' spv_target_env, so that a user of the
// library needs no SPIRV-Tools headers; the library converts at its edge.
#pragma once

#include <optional>
#include <string_view>

namespace xmx {

class TargetEnv {
 public:
  // SPIR-V 1.6 with no client API: spirv-val's default.
  static TargetEnv Spv16();
  // SPIR-V 1.5 with no client API: spirv-opt's default.
  static TargetEnv Spv15();
  // The environment `name` denotes, spelled as SPIRV-Tools' --target-env accepts it; nullopt for
  // a name it does not know.
  static std::optional<TargetEnv> Parse(std::string_view name);

  // SPIRV-Tools' enumerator (spv_target_env) for this environment, for code that calls
  // SPIRV-Tools itself.
  int spirv_tools_value() const { return value_; }

  friend bool operator==(TargetEnv, TargetEnv) = default;

 private:
  explicit TargetEnv(int value) : value_(value) {}
  int value_;
};

}  // namespace xmx
