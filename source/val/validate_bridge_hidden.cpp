// What the lifted form makes legal that the original is not, reported as SPIRV-Tools would:
// - Lift may add the Linkage capability for its imported declarations, which makes a missing
//   entry point and LinkageAttributes legal;
// - a cooperative matrix reaches SPIRV-Tools as a struct, which is exempt from the uniqueness
//   rule that upstream applies to cooperative-matrix types;
// - when a stand-in equals another type (a bfloat16 seen as a half next to the module's half),
//   Lift turns SPIRV-Tools' uniqueness check off altogether;
// - a core instruction that computes with matrices becomes a call, which SPIRV-Tools accepts
//   whatever the opcode (Lift adds the same instruction on element 0 for the types; whether the
//   matrices of arithmetic agree, and the remainders, are the coop.arith.* rules'; any other
//   operation on a matrix is reported here).
#include <map>
#include <string>
#include <string_view>
#include <unordered_set>

#include "common/rule_ids.hpp"
#include "grammar/grammar.hpp"
#include "val/rules.hpp"

namespace xmx::val {
namespace {

void CheckLinkage(const ir::Module& module, std::vector<Diagnostic>* out) {
  if (module.entry_points().empty()) {
    Diagnostic d;
    d.rule = rules::kBridgeEntryPoint;
    d.message =
        "No OpEntryPoint instruction was found. This is only allowed if the Linkage capability "
        "is being used.";
    out->push_back(std::move(d));
  }
  for (const ir::Instruction& inst : module.annotations()) {
    const bool decorate =
        inst.opcode() == spv::Op::OpDecorate || inst.opcode() == spv::Op::OpMemberDecorate;
    if (!decorate) continue;
    const size_t which = inst.opcode() == spv::Op::OpDecorate ? 1 : 2;
    if (inst.num_operands() <= which ||
        inst.word(which) != static_cast<uint32_t>(spv::Decoration::LinkageAttributes)) {
      continue;
    }
    Diagnostic d;
    d.rule = rules::kBridgeLinkage;
    d.message = "Operand " + std::to_string(which + 1) +
                " of Decorate requires one of these capabilities: Linkage";
    d.opcode = static_cast<uint32_t>(inst.opcode());
    if (inst.source_index() != ir::Instruction::kNotFromBinary) {
      d.instruction_index = inst.source_index();
      d.word_offset = inst.source_word_offset();
    }
    out->push_back(std::move(d));
  }
}

// SPIRV-Tools' uniqueness rule (SPIR-V 2.8): two declarations of one non-aggregate type are an
// error; arrays, structs and pointers may repeat. `hidden` says which duplicates SPIRV-Tools did
// not see.
template <typename Hidden>
void CheckTypeUniqueness(const ir::Module& module, Hidden&& hidden, std::vector<Diagnostic>* out) {
  std::map<std::vector<uint32_t>, uint32_t> first_declaration;
  for (const ir::Instruction& inst : module.globals()) {
    const grammar::Instruction* desc =
        grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
    const std::string_view name = desc ? desc->name : "";
    if (!inst.has_result_id() || inst.has_result_type() || !name.starts_with("OpType")) continue;
    switch (inst.opcode()) {
      case spv::Op::OpTypeArray:
      case spv::Op::OpTypeRuntimeArray:
      case spv::Op::OpTypeStruct:
      case spv::Op::OpTypePointer:
        continue;
      default:
        break;
    }
    std::vector<uint32_t> key{static_cast<uint32_t>(inst.opcode())};
    key.insert(key.end(), inst.operand_words().begin(), inst.operand_words().end());
    auto [first, inserted] = first_declaration.emplace(std::move(key), inst.result_id());
    if (inserted || !hidden(inst)) continue;
    Diagnostic d;
    d.rule = rules::kBridgeUniqueType;
    d.message = "Duplicate non-aggregate type declarations are not allowed. Opcode: " +
                std::string(name.substr(2)) + " id: " + std::to_string(inst.result_id()) +
                " (the same type as %" + std::to_string(first->second) + ")";
    d.opcode = static_cast<uint32_t>(inst.opcode());
    if (inst.source_index() != ir::Instruction::kNotFromBinary) {
      d.instruction_index = inst.source_index();
      d.word_offset = inst.source_word_offset();
    }
    out->push_back(std::move(d));
  }
}

// The core operations upstream SPIRV-Tools accepts on cooperative matrices besides those that
// only move them (validate_arithmetics.cpp, validate_conversion.cpp): element-wise arithmetic
// without remainders, scaling, and conversions. Any other (a comparison, a bitwise operation,
// OpExtInst, ...) is rejected there, but the call the bridge makes of it is not. The remainders
// (FRem, FMod, SRem, SMod, UMod) are left to coop.arith.opcode, which names them.
bool TakesCooperativeMatrices(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpFRem:
    case spv::Op::OpFMod:
    case spv::Op::OpSRem:
    case spv::Op::OpSMod:
    case spv::Op::OpUMod:
    case spv::Op::OpFAdd:
    case spv::Op::OpFSub:
    case spv::Op::OpFMul:
    case spv::Op::OpFDiv:
    case spv::Op::OpFNegate:
    case spv::Op::OpIAdd:
    case spv::Op::OpISub:
    case spv::Op::OpIMul:
    case spv::Op::OpSDiv:
    case spv::Op::OpUDiv:
    case spv::Op::OpSNegate:
    case spv::Op::OpMatrixTimesScalar:
    case spv::Op::OpConvertFToU:
    case spv::Op::OpConvertFToS:
    case spv::Op::OpConvertSToF:
    case spv::Op::OpConvertUToF:
    case spv::Op::OpUConvert:
    case spv::Op::OpSConvert:
    case spv::Op::OpFConvert:
    case spv::Op::OpBitcast:
    // Element access, lifted when it names an element other than 0.
    case spv::Op::OpCompositeExtract:
    case spv::Op::OpCompositeInsert:
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain:
      return true;
    default:
      return false;
  }
}

Diagnostic OnInstruction(const ir::Instruction& inst, std::string rule, std::string message) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.message = std::move(message);
  d.opcode = static_cast<uint32_t>(inst.opcode());
  if (inst.source_index() != ir::Instruction::kNotFromBinary) {
    d.instruction_index = inst.source_index();
    d.word_offset = inst.source_word_offset();
  }
  return d;
}

// Reports the operations on cooperative matrices that upstream SPIRV-Tools refuses and that the
// call standing for them would let pass.
void CheckMatrixComputations(const ir::Module& module, const bridge::LiftRecord& record,
                             std::vector<Diagnostic>* out) {
  const std::unordered_set<uint32_t> lifted(record.matrix_computations.begin(),
                                            record.matrix_computations.end());
  for (const ir::Function& function : module.functions()) {
    for (const ir::BasicBlock& block : function.blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        if (!inst.has_result_id() || !lifted.count(inst.result_id())) continue;
        if (TakesCooperativeMatrices(inst.opcode())) continue;
        const grammar::Instruction* desc =
            grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
        out->push_back(OnInstruction(
            inst, rules::kBridgeMatrixOperation,
            std::string(desc ? desc->name : "the instruction") +
                " does not take cooperative matrices (only element-wise arithmetic, "
                "OpMatrixTimesScalar and conversions do, as in upstream SPIRV-Tools)"));
      }
    }
  }
}

}  // namespace

void CheckWhatTheBridgeHides(const ir::Module& module, const bridge::LiftRecord& record,
                             std::vector<Diagnostic>* out) {
  if (record.added_linkage) CheckLinkage(module, out);
  if (!record.matrix_computations.empty()) CheckMatrixComputations(module, record, out);
  // Types that reach SPIRV-Tools as structs: those the bridge replaced with an extended opcode
  // (a cooperative matrix), whose stand-in is a struct.
  std::unordered_set<uint32_t> as_struct;
  for (const bridge::ReplacedType& replaced : record.types) {
    const grammar::Instruction* desc =
        grammar::FindInstruction(static_cast<uint32_t>(replaced.original.opcode()));
    if (desc && desc->origin == grammar::Origin::kExtended) as_struct.insert(replaced.result_id);
  }
  if (!record.allowed_duplicate_types && as_struct.empty()) return;
  CheckTypeUniqueness(
      module,
      [&](const ir::Instruction& inst) {
        return record.allowed_duplicate_types || as_struct.count(inst.result_id()) != 0;
      },
      out);
}

}  // namespace xmx::val
