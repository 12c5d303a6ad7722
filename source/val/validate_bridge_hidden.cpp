// What the lifted form makes legal that the original is not, reported as SPIRV-Tools would:
// - Lift may add the Linkage capability for its imported declarations, which makes a missing
//   entry point and LinkageAttributes legal;
// - a cooperative matrix reaches SPIRV-Tools as a struct, which is exempt from the uniqueness
//   rule that upstream applies to cooperative-matrix types;
// - when a stand-in equals another type (a bfloat16 seen as a half next to the module's half),
//   Lift turns SPIRV-Tools' uniqueness check off altogether;
// - a core instruction that computes with matrices becomes a call, whose arguments SPIRV-Tools
//   matches only against the declaration Lift made from them (Lift adds the same instruction on
//   element 0 for the component types; whether the matrices agree is checked here).
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "grammar/grammar.hpp"
#include "ir/type_table.hpp"
#include "val/rules.hpp"

namespace xmx::val {
namespace {

void CheckLinkage(const ir::Module& module, std::vector<Diagnostic>* out) {
  if (module.entry_points().empty()) {
    Diagnostic d;
    d.rule = "bridge.entry-point";
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
    d.rule = "bridge.linkage";
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
    d.rule = "bridge.unique-type";
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
// without remainders, scaling, and conversions. Any other (OpFRem, a comparison, OpExtInst, ...)
// is rejected there, but the call the bridge makes of it is not.
bool TakesCooperativeMatrices(spv::Op opcode) {
  switch (opcode) {
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

// Upstream SPIRV-Tools requires the matrix operands of an arithmetic instruction on cooperative
// matrices to be of its Result Type. A matrix operand of another component type makes a
// conversion (its shape is the coop rules' concern); one of the same component type but another
// matrix type (another Use, shape or scope) is the error.
void CheckMatrixComputations(const ir::Module& module, const bridge::LiftRecord& record,
                             std::vector<Diagnostic>* out) {
  const std::unordered_set<uint32_t> lifted(record.matrix_computations.begin(),
                                            record.matrix_computations.end());
  const ir::TypeTable types(module);
  std::unordered_map<uint32_t, uint32_t> type_of;
  module.ForEachInstruction([&type_of](const ir::Instruction& inst) {
    if (inst.has_result_type() && inst.result_id())
      type_of[inst.result_id()] = inst.result_type_id();
  });
  const auto matrix = [&types](uint32_t type_id) -> const ir::Type* {
    const ir::Type* type = types.GetType(type_id);
    return type && type->kind == ir::TypeKind::kCooperativeMatrix ? type : nullptr;
  };
  for (const ir::Function& function : module.functions()) {
    for (const ir::BasicBlock& block : function.blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        if (!inst.has_result_id() || !lifted.count(inst.result_id())) continue;
        const grammar::Instruction* desc =
            grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
        const std::string name = desc ? desc->name : "the instruction";
        if (!TakesCooperativeMatrices(inst.opcode())) {
          out->push_back(OnInstruction(
              inst, "bridge.matrix-operation",
              name + " does not take cooperative matrices (only element-wise arithmetic without "
                     "remainders, OpMatrixTimesScalar and conversions do, as in upstream "
                     "SPIRV-Tools)"));
          continue;
        }
        const ir::Type* result = matrix(inst.result_type_id());
        if (!result) continue;
        for (size_t i = 0; i < inst.num_operands(); ++i) {
          const ir::OperandView op = inst.operand(i);
          if (grammar::GetOperandKind(op.kind).category != grammar::OperandCategory::kId) continue;
          auto type_id = type_of.find(op.word());
          if (type_id == type_of.end() || type_id->second == result->id) continue;
          const ir::Type* operand = matrix(type_id->second);
          if (!operand || operand->element != result->element) continue;
          out->push_back(
              OnInstruction(inst, "bridge.matrix-operand",
                            name + " operand %" + std::to_string(op.word()) +
                                " is a cooperative matrix of type %" + std::to_string(operand->id) +
                                ", not of the Result Type %" + std::to_string(result->id) +
                                " (matrix operands of arithmetic must be of the Result Type)"));
        }
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
