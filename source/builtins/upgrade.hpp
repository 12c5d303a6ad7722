// Rewriting the built-in calls of a module as the instructions they stand for (what Intel's
// driver does by name): each OpFunctionCall of a recognised import (recognise.hpp) becomes the
// entry's instruction, with the entry's operand order, OpConstants for what the name encodes
// (and the Subgroup scope), and literals for the constant arguments that are literal operands.
// The replacement keeps the call's place in the original binary (set_source), so whatever is
// said about it lands on the call. The validator checks the rewritten copy with our rules, the
// interpreter runs it, and xmx-opt's --upgrade-builtin-calls writes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <utility>
#include <vector>

#include "xmx/diagnostic.hpp"
#include "xmx/module.hpp"

namespace xmx::builtins {

struct UpgradeOptions {
  // Add the capabilities and extension strings each new instruction needs (the validator does
  // not: a call needs none, and its rules must see the user's own declarations).
  bool declare_requirements = true;
};

// One call that became an instruction.
struct Replacement {
  size_t source_index = ir::Instruction::kNotFromBinary;  // the call in the original binary
  std::string name;  // the built-in, e.g. intel_sub_..._8r16x1c
  std::string linkage_name;
  spv::Op opcode = spv::Op::OpNop;
  std::string call_prefix;  // "call of 'NAME' (as OpX): "
};

struct UpgradeResult {
  ir::Module module;
  std::vector<Replacement> replacements;
  // Declarations that fit no form of their built-in (rule builtin.signature) and calls whose
  // literal argument is not a constant (builtin.literal-argument); those calls stay calls.
  std::vector<Diagnostic> errors;
  bool ok() const { return errors.empty(); }
};

// What an upgrade in place changed, for RestoreBuiltinCalls.
struct UpgradeUndo {
  // Elements taken out of a list, each with the element it went before.
  template <typename T>
  struct TakenOut {
    std::list<T> elements;
    std::vector<typename std::list<T>::iterator> before;
  };
  std::vector<std::pair<ir::Instruction*, ir::Instruction>> calls;  // replacement, its call
  TakenOut<ir::Function> functions;
  TakenOut<ir::Instruction> debug;
  TakenOut<ir::Instruction> annotations;
  // What the module had before (the upgrade appends constants and requirements).
  uint32_t bound = 0;
  size_t globals = 0;
  size_t capabilities = 0;
  size_t extensions = 0;
};

// Whether the module imports any built-in of the table (cheap; no copy).
bool HasBuiltinImports(const ir::Module& module);

// A copy of `module` with every call of a recognised built-in replaced. Declarations left
// without calls are removed with their names and decorations.
UpgradeResult UpgradeBuiltinCalls(const ir::Module& module, const UpgradeOptions& options = {});
// The same on a module the caller no longer needs: the calls are replaced in `module` itself
// instead of a copy (the validator of xmx-opt's output, whose module is dropped after).
UpgradeResult UpgradeBuiltinCalls(ir::Module&& module, const UpgradeOptions& options = {});
// The same in `module` itself (result.module is left empty), with what changed in *undo, so that
// RestoreBuiltinCalls(module, *undo) makes `module` what it was, instruction for instruction: the
// validator of xmx-opt's input, whose module the passes read next, checks it without a copy.
UpgradeResult UpgradeBuiltinCallsInPlace(ir::Module& module, const UpgradeOptions& options,
                                         UpgradeUndo* undo);
void RestoreBuiltinCalls(ir::Module& module, UpgradeUndo& undo);

}  // namespace xmx::builtins
