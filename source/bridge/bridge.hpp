// The bridge between our grammar and the installed SPIRV-Tools, which predates the extensions.
//
// Lift turns a module into one SPIRV-Tools can read: every instruction whose opcode is `extended`
// in the grammar becomes an OpFunctionCall of an imported declaration (its value operands become
// arguments, its one-word literal operands 32-bit integer constants, a type or function operand
// is held by the declaration), and extended capabilities, extension strings, decorations and
// execution modes are set aside. Operands our grammar appends to a core module-level instruction
// (OpTypeFloat's FPEncoding) are set aside too: a bfloat16 type becomes a plain OpTypeFloat 16.
// Types SPIRV-Tools cannot hold get stand-ins: a cooperative matrix a one-member struct of its
// component type, a 4-bit integer an integer of a width the module does not use. A core
// instruction that computes on cooperative matrices becomes a call too (its validity on a struct
// would say nothing), preceded by the same instruction on element 0 so that SPIRV-Tools still
// checks the types: arithmetic and conversions whose operands are all matrices on the element 0
// of each, element accesses past element 0 as the access of element 0. Those that only move a
// value (phi, select, load, store, copy, call, construct from one constituent, element 0) stay.
// Lower undoes it, also on a lifted module that SPIRV-Tools' optimizer has rewritten. Lift followed
// by Lower gives back the same words. Everything is driven by the grammar's origin flags and the
// operands' types, never by a list of extended opcodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "xmx/diagnostic.hpp"
#include "xmx/module.hpp"

namespace xmx::bridge {

// How one lifted instruction's operands map onto the call's arguments.
struct LiftedOperand {
  grammar::OperandKindId kind;
  bool is_id;  // an id operand passed as is; otherwise a one-word literal passed as a constant
  // Nonzero for an id that is no value (a type, as in OpCooperativeMatrixLengthKHR, a function,
  // an OpExtInstImport): the declaration stands for it and the call passes nothing.
  uint32_t fixed_id = 0;
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

// A type declaration replaced by a stand-in with the same result id, restored by Lower.
struct ReplacedType {
  uint32_t result_id;
  ir::Instruction original;
};

// What Lower needs to restore the original module.
struct LiftRecord {
  std::unordered_map<uint32_t, LiftedSignature> declarations;  // function id -> shape
  std::vector<SetAside> capabilities;
  std::vector<SetAside> extensions;
  std::vector<SetAside> execution_modes;
  std::vector<SetAside> annotations;
  std::vector<SetAsideOperands> operands;
  std::vector<ReplacedType> types;
  // Core instructions that became calls because they compute with cooperative matrices (result
  // ids), and the instructions Lift added in functions to let SPIRV-Tools check their component
  // types (removed by Lower).
  std::vector<uint32_t> matrix_computations;
  std::vector<uint32_t> added_instructions;
  // Stand-in types the bridge gave an OpName (for SPIRV-Tools' messages), removed by Lower.
  std::vector<uint32_t> named_types;
  bool added_linkage = false;
  // Capabilities the stand-in types need (Float16 for a bfloat16 seen as a half, the integer
  // width standing in for a 4-bit integer), each added once after the module's own.
  std::vector<spv::Capability> added_capabilities;
  // OpExtension "SPV_VALIDATOR_ignore_type_decl_unique", added when a stand-in equals another
  // type of the module (a bfloat16 next to a half): SPIRV-Tools then checks no type for
  // uniqueness, and the validator does it on the original module instead.
  bool allowed_duplicate_types = false;
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
// extended module-level instruction other than a cooperative-matrix type, and for a type
// SPIRV-Tools cannot hold: a BFloat16KHR encoding on a width other than 16, a 4-bit integer
// (SPV_INTEL_int4) in a module that uses integers of every width SPIRV-Tools knows.
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

// The extension string that turns off SPIRV-Tools' type uniqueness check.
inline constexpr const char* kIgnoreTypeUniquenessExtension =
    "SPV_VALIDATOR_ignore_type_decl_unique";

}  // namespace xmx::bridge
