// The bridge between our grammar and the installed SPIRV-Tools, which predates the extensions.
//
// Lift turns a module into one SPIRV-Tools can read: every instruction whose opcode is `extended`
// in the grammar becomes an OpFunctionCall of an imported declaration (its id operands become
// arguments, its one-word literal operands 32-bit integer constants), and extended capabilities,
// extension strings, decorations and execution modes are set aside. Operands our grammar appends
// to a core module-level instruction (OpTypeFloat's FPEncoding) are set aside too: a bfloat16 type
// becomes a plain OpTypeFloat 16 when that stays a distinct type. Lower undoes it, also on a
// lifted module that SPIRV-Tools' optimizer has rewritten. Lift followed by Lower gives back the
// same words. Everything is driven by the grammar's origin flags, never by a list of opcodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/diagnostic.hpp"
#include "xmx/module.hpp"

namespace xmx::bridge {

// How one lifted instruction's operands map onto the call's arguments.
struct LiftedOperand {
  grammar::OperandKindId kind;
  bool is_id;  // an id operand passed as is; otherwise a one-word literal passed as a constant
};

// One imported declaration the bridge added: which instruction shape it stands for.
struct LiftedSignature {
  spv::Op opcode;
  bool has_result;
  std::vector<LiftedOperand> operands;
};

// Something set aside from a section of the module, with its position there.
struct SetAside {
  size_t position;
  ir::Instruction inst;
};

// Operands set aside from the end of a core instruction with a result id (e.g. the FPEncoding of
// OpTypeFloat 16 BFloat16KHR), restored by Lower.
struct SetAsideOperands {
  uint32_t result_id;
  std::vector<std::pair<grammar::OperandKindId, std::vector<uint32_t>>> operands;
};

// What Lower needs to restore the original module.
struct LiftRecord {
  std::unordered_map<uint32_t, LiftedSignature> declarations;  // function id -> shape
  std::vector<SetAside> capabilities;
  std::vector<SetAside> extensions;
  std::vector<SetAside> execution_modes;
  std::vector<SetAside> annotations;
  std::vector<SetAsideOperands> operands;
  bool added_linkage = false;
  bool added_float16 = false;  // for a bfloat16 type seen as a half by SPIRV-Tools
  // Ids of the types and constants the bridge added to the globals (removed again if unused).
  std::vector<uint32_t> added_globals;
  uint32_t original_bound = 0;
  uint32_t lifted_bound = 0;  // if still the bound when lowering, the original is restored
};

struct LiftedModule {
  ir::Module module;
  LiftRecord record;
  bool changed = false;  // false when the module had nothing extended (Lift was the identity)
};

// Whether Lift would change anything: an extended instruction, capability, extension string,
// execution mode, decoration or operand. A cheap test that spares the copy Lift makes.
bool HasExtendedContent(const ir::Module& module);

// Lifts a copy of `module`. Fails (with a diagnostic naming the instruction) only for an
// extended instruction that cannot be expressed as a call, e.g. one with a string operand or an
// extended type declaration, and for a type SPIRV-Tools cannot hold: a bfloat16 next to a half
// (they would be one type), a 4-bit integer (SPV_INTEL_int4).
std::optional<LiftedModule> Lift(const ir::Module& module, Diagnostic* error);

// Restores the extended instructions and everything set aside. Fails when the lifted module was
// changed in a way that cannot be undone (a literal argument that is no longer a constant).
bool Lower(ir::Module& lifted, const LiftRecord& record, Diagnostic* error);

// For each instruction of `lifted` in binary order (OpLine included): the index of the
// instruction it came from in the original module, or nullopt for an instruction the bridge
// added. Lets diagnostics from SPIRV-Tools point at the original instruction.
std::vector<std::optional<size_t>> OriginalIndices(const ir::Module& lifted);

// The name prefix of the declarations the bridge adds (LinkageAttributes ... Import).
inline constexpr const char* kDeclarationPrefix = "__xmx_bridge.";

}  // namespace xmx::bridge
