// xmx::TargetEnv over SPIRV-Tools' own table of environments: the parse is SPIRV-Tools' (same
// names, same prefix matching as spirv-val), so the two tools never disagree on a name.
#include "xmx/target_env.hpp"

#include <string>

#include "spirv-tools/libspirv.h"

namespace xmx {

TargetEnv TargetEnv::Spv16() { return TargetEnv(SPV_ENV_UNIVERSAL_1_6); }

TargetEnv TargetEnv::Spv15() { return TargetEnv(SPV_ENV_UNIVERSAL_1_5); }

std::optional<TargetEnv> TargetEnv::Parse(std::string_view name) {
  const std::string terminated(name);  // spvParseTargetEnv reads a C string
  spv_target_env env{};
  if (!spvParseTargetEnv(terminated.c_str(), &env)) return std::nullopt;
  return TargetEnv(static_cast<int>(env));
}

}  // namespace xmx
