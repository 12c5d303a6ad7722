// --upgrade-builtin-calls: the calls of imported built-ins that stand for an instruction become
// that instruction (builtins::UpgradeBuiltinCalls, the rewriting the validator and the
// interpreter already apply to a copy), this time written out, with the capabilities and
// extension strings the new instructions need. Producers that do not know the extensions leave
// such calls (clang-15 + llvm-spirv-15: every 2D block and matrix built-in; llc-22: some Intel
// subgroup built-ins); Intel's driver resolves them by name, every other consumer needs the
// instructions.
#include "builtins/upgrade.hpp"
#include "opt/passes.hpp"

namespace xmx::opt {

PassStatus UpgradeBuiltinCallsPass(ir::Module& module, PassContext& context) {
  if (!builtins::HasBuiltinImports(module)) return PassStatus::kUnchanged;
  builtins::UpgradeOptions options;
  options.declare_requirements = true;
  builtins::UpgradeResult upgraded = builtins::UpgradeBuiltinCalls(module, options);
  if (!upgraded.ok()) {
    // A declaration that fits none of its built-in's forms, or a literal argument that is not a
    // constant: writing a partly upgraded module would hide the problem, so change nothing.
    for (Diagnostic& error : upgraded.errors) context.diagnostics.push_back(std::move(error));
    return PassStatus::kFailed;
  }
  if (upgraded.replacements.empty()) return PassStatus::kUnchanged;
  module = std::move(upgraded.module);
  return PassStatus::kChanged;
}

}  // namespace xmx::opt
