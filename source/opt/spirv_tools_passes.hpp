// Running the installed SPIRV-Tools optimizer's passes on an ir::Module through the bridge:
// lift, give every function declaration a placeholder body (the installed passes that walk the
// call graph dereference a declaration's missing entry block), run spvtools::Optimizer in
// process, take the placeholders out again and lower. The safety checks (installed_pass_safety)
// run first: a pass that would crash, hang or miscompile on the module never starts.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "opt/pass.hpp"
#include "spirv-tools/libspirv.h"

namespace xmx::opt {

// Whether SPIRV-Tools' optimizer registers a pass for `flag` ("--ccp", "--scalar-replacement=7").
// Fills *error with its complaint when not.
bool IsInstalledPassFlag(const std::string& flag, std::string* error);

// The pass names (as flags) one flag registers: itself for a single pass, the recipe of -O, -Os
// and --legalize-hlsl. Asked once per flag and kept for the life of the program.
const std::vector<std::string>& InstalledPassNames(const std::string& flag);

struct InstalledRunOptions {
  spv_target_env target_env = SPV_ENV_UNIVERSAL_1_5;
  bool preserve_bindings = false;
  bool preserve_spec_constants = false;
  std::optional<uint32_t> max_id_bound;
  std::ostream* time_report = nullptr;
};

// The words of a module, when the caller has them, so that they need not be emitted again.
struct EncodedModule {
  // module.ToWords(), or empty when not known.
  std::span<const uint32_t> words;
  // Set by RunInstalledPasses when it changes the module: the optimizer's output when that is the
  // new module word for word (nothing was lifted and no declaration needed a placeholder body;
  // the module was read from these words, so its instructions know their places in them), else
  // empty. `words` may point into it.
  std::vector<uint32_t> optimized_words;
};

// Runs the passes `flags` (each accepted by IsInstalledPassFlag and judged safe by the caller) on
// `module` in one optimizer run. `extended` is bridge::HasExtendedContent(module) (the caller's
// safety facts have it). On failure the module is left as it was and `diagnostics` says why (the
// pass names in `what`).
PassStatus RunInstalledPasses(ir::Module& module, bool extended, EncodedModule& encoded,
                              std::span<const std::string> flags, const std::string& what,
                              const InstalledRunOptions& options,
                              std::vector<Diagnostic>& diagnostics);
// The same, finding `extended` itself.
PassStatus RunInstalledPasses(ir::Module& module, EncodedModule& encoded,
                              std::span<const std::string> flags, const std::string& what,
                              const InstalledRunOptions& options,
                              std::vector<Diagnostic>& diagnostics);

}  // namespace xmx::opt
