// Cooperative matrices for SPIRV-Tools 2023.1, which knows neither the type nor its
// instructions. Each OpTypeCooperativeMatrixKHR becomes a one-member OpTypeStruct of its
// component type with the same result id (structs are exempt from the uniqueness rule, so two
// matrix types of one component stay apart). What only moves a matrix around is valid on the
// struct exactly when it is valid on the matrix and stays as it is; what computes with one
// becomes a call (see bridge.hpp). Which core instructions compute with a matrix is decided by
// their operands' types, not by a list of arithmetic opcodes.
#include "bridge/lifter.hpp"
#include "grammar/grammar.hpp"

namespace xmx::bridge {

using spv::Op;

bool Lifter::IsMatrixType(uint32_t type_id) const {
  const ir::Type* type = types_.GetType(type_id);
  return type && type->kind == ir::TypeKind::kCooperativeMatrix;
}

void Lifter::LiftMatrixType(ir::Instruction& inst) {
  const ir::Type* type = types_.GetType(inst.result_id());
  record_.types.push_back({inst.result_id(), inst});
  ir::Instruction stand_in(Op::OpTypeStruct, 0, inst.result_id());
  stand_in.AddIdOperand(type->element);
  stand_in.set_source(inst.source_index(), inst.source_word_offset());
  stand_in.debug_lines() = std::move(inst.debug_lines());
  inst = std::move(stand_in);
}

bool Lifter::NeedsMatrixCall(const ir::Instruction& inst) const {
  switch (inst.opcode()) {
    // These pass a value on without looking into it, or build a matrix from one constituent:
    // SPIRV-Tools checks on the struct what upstream checks on the matrix (the types agree; one
    // constituent of the component type).
    case Op::OpPhi:
    case Op::OpSelect:
    case Op::OpCopyObject:
    case Op::OpLoad:
    case Op::OpStore:
    case Op::OpVariable:
    case Op::OpFunctionCall:
    case Op::OpReturnValue:
    case Op::OpUndef:
    case Op::OpCompositeConstruct:
      return false;
    // Element 0 of a matrix is member 0 of its struct; any other element is not.
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
      return IndexesPastMatrixElementZero(inst);
    default:
      break;
  }
  if (inst.has_result_type() && IsMatrixType(inst.result_type_id())) return true;
  for (size_t i = 0; i < inst.num_operands(); ++i) {
    const ir::OperandView op = inst.operand(i);
    if (grammar::GetOperandKind(op.kind).category != grammar::OperandCategory::kId) continue;
    auto type = type_of_.find(op.word());
    if (type != type_of_.end() && IsMatrixType(type->second)) return true;
  }
  return false;
}

// Walks the indices of a composite or access-chain instruction from its base type; true when
// one of them selects an element of a cooperative matrix other than a constant 0.
bool Lifter::IndexesPastMatrixElementZero(const ir::Instruction& inst) const {
  const auto type_of = [this](uint32_t id) -> uint32_t {
    auto it = type_of_.find(id);
    return it == type_of_.end() ? 0 : it->second;
  };
  const auto pointee = [this](uint32_t pointer_type) -> uint32_t {
    const ir::Type* type = types_.GetType(pointer_type);
    return type && type->kind == ir::TypeKind::kPointer ? type->element : 0;
  };
  uint32_t type_id = 0;
  size_t first_index = 0;
  bool literal_indices = false;
  switch (inst.opcode()) {
    case Op::OpCompositeExtract:
      type_id = type_of(inst.word(0));
      first_index = 1;
      literal_indices = true;
      break;
    case Op::OpCompositeInsert:
      type_id = type_of(inst.word(1));
      first_index = 2;
      literal_indices = true;
      break;
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      type_id = pointee(type_of(inst.word(0)));
      first_index = 1;
      break;
    default:  // the pointer access chains: the Element operand steps over the base, not into it
      type_id = pointee(type_of(inst.word(0)));
      first_index = 2;
      break;
  }
  for (size_t i = first_index; i < inst.num_operands(); ++i) {
    const ir::Type* type = types_.GetType(type_id);
    if (!type) return false;
    std::optional<uint64_t> index;
    if (literal_indices) {
      index = inst.word(i);
    } else if (const ir::Constant* c = types_.GetConstant(inst.word(i));
               c && c->kind == ir::ConstantKind::kScalar && !c->is_spec) {
      // SPIRV-Tools indexes a struct only with an OpConstant (not a null or spec constant).
      index = types_.GetConstantUInt(inst.word(i));
    }
    switch (type->kind) {
      case ir::TypeKind::kCooperativeMatrix:
        if (index != 0u) return true;
        type_id = type->element;
        break;
      case ir::TypeKind::kStruct:
        if (!index || *index >= type->members.size()) return false;  // SPIRV-Tools reports it
        type_id = type->members[*index];
        break;
      case ir::TypeKind::kVector:
      case ir::TypeKind::kMatrix:
      case ir::TypeKind::kArray:
      case ir::TypeKind::kRuntimeArray:
        type_id = type->element;
        break;
      default:
        return false;
    }
  }
  return false;
}

}  // namespace xmx::bridge
