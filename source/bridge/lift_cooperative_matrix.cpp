// Cooperative matrices for SPIRV-Tools 2023.1, which knows neither the type nor its
// instructions. Each OpTypeCooperativeMatrixKHR becomes a one-member OpTypeStruct of its
// component type with the same result id (structs are exempt from the uniqueness rule, so two
// matrix types of one component stay apart). What only moves a matrix around is valid on the
// struct exactly when it is valid on the matrix and stays as it is; what computes with one
// becomes a call (see bridge.hpp). Which core instructions compute with a matrix is decided by
// their operands' types, not by a list of arithmetic opcodes.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "bridge/lifter.hpp"
#include "grammar/grammar.hpp"

namespace xmx::bridge {

using spv::Op;

bool Lifter::IsMatrixType(uint32_t type_id) const {
  const ir::Type* type = types_.GetType(type_id);
  return type && type->kind == ir::TypeKind::kCooperativeMatrix;
}

namespace {

bool HasName(const ir::Module& module, uint32_t id) {
  for (const ir::Instruction& inst : module.debug()) {
    if (inst.opcode() == Op::OpName && inst.word(0) == id) return true;
  }
  return false;
}

}  // namespace

// SPIRV-Tools names an unnamed struct "_struct_<id>" in its messages; a name that says what the
// struct stands for keeps them readable ("'17[%CooperativeMatrixKHR_f32_8x16_Accumulator]'").
void Lifter::NameMatrixStandIn(const ir::Type& type) {
  if (HasName(original_, type.id)) return;
  const auto value = [this](uint32_t id) {
    const std::optional<uint32_t> v = types_.GetConstantUInt32(id);
    return v ? std::to_string(*v) : "%" + std::to_string(id);
  };
  static const char* const kUses[] = {"A", "B", "Accumulator"};
  const std::optional<uint32_t> use = types_.GetConstantUInt32(type.use_id);
  std::string component;
  if (const ir::Type* element = types_.GetType(type.element)) {
    if (element->kind == ir::TypeKind::kFloat) {
      component = element->float_encoding ? "bf" : "f";
    } else if (element->kind == ir::TypeKind::kInt) {
      component = "i";
    }
    if (!component.empty()) component += std::to_string(element->width) + "_";
  }
  std::string name = "CooperativeMatrixKHR_" + component + value(type.rows_id) + "x" +
                     value(type.columns_id) + "_" +
                     (use && *use < 3 ? std::string(kUses[*use]) : "Use" + value(type.use_id));
  ir::Instruction op_name(Op::OpName);
  op_name.AddIdOperand(type.id);
  op_name.AddStringOperand(name);
  // Names come before OpModuleProcessed in the debug section.
  auto& debug = module_.debug();
  auto at = std::find_if(debug.begin(), debug.end(), [](const ir::Instruction& inst) {
    return inst.opcode() == Op::OpModuleProcessed;
  });
  debug.insert(at, std::move(op_name));
  record_.named_types.push_back(type.id);
}

void Lifter::LiftMatrixType(ir::Instruction& inst) {
  const ir::Type* type = types_.GetType(inst.result_id());
  NameMatrixStandIn(*type);
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
    if (IsMatrixType(type_of_.TypeId(op.word()))) return true;
  }
  return false;
}

// Walks the indices of a composite or access-chain instruction from its base type: the operands
// that select an element of a cooperative matrix.
std::vector<size_t> Lifter::MatrixElementOperands(const ir::Instruction& inst) const {
  const auto type_of = [this](uint32_t id) -> uint32_t { return type_of_.TypeId(id); };
  const auto pointee = [this](uint32_t pointer_type) -> uint32_t {
    const ir::Type* type = types_.GetType(pointer_type);
    return type && type->kind == ir::TypeKind::kPointer ? type->element : 0;
  };
  uint32_t type_id = 0;
  size_t first_index = 0;
  switch (inst.opcode()) {
    case Op::OpCompositeExtract:
      type_id = type_of(inst.word(0));
      first_index = 1;
      break;
    case Op::OpCompositeInsert:
      type_id = type_of(inst.word(1));
      first_index = 2;
      break;
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      type_id = pointee(type_of(inst.word(0)));
      first_index = 1;
      break;
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
      // The Element operand steps over the base, not into it.
      type_id = pointee(type_of(inst.word(0)));
      first_index = 2;
      break;
    default:
      return {};
  }
  std::vector<size_t> positions;
  for (size_t i = first_index; i < inst.num_operands(); ++i) {
    const ir::Type* type = types_.GetType(type_id);
    if (!type) break;
    switch (type->kind) {
      case ir::TypeKind::kCooperativeMatrix:
        positions.push_back(i);
        type_id = type->element;
        break;
      case ir::TypeKind::kStruct: {
        const std::optional<uint64_t> index = ConstantIndex(inst, i);
        if (!index || *index >= type->members.size()) return positions;  // SPIRV-Tools reports it
        type_id = type->members[*index];
        break;
      }
      case ir::TypeKind::kVector:
      case ir::TypeKind::kMatrix:
      case ir::TypeKind::kArray:
      case ir::TypeKind::kRuntimeArray:
        type_id = type->element;
        break;
      default:
        return positions;
    }
  }
  return positions;
}

// The value of index operand `i` as SPIRV-Tools can index a struct with it: a literal, or an
// OpConstant (not a null or spec constant).
std::optional<uint64_t> Lifter::ConstantIndex(const ir::Instruction& inst, size_t i) const {
  const bool literal =
      grammar::GetOperandKind(inst.operand(i).kind).category != grammar::OperandCategory::kId;
  if (literal) return inst.word(i);
  const ir::Constant* c = types_.GetConstant(inst.word(i));
  if (!c || c->kind != ir::ConstantKind::kScalar || c->is_spec) return std::nullopt;
  return types_.GetConstantUInt(inst.word(i));
}

bool Lifter::IndexesPastMatrixElementZero(const ir::Instruction& inst) const {
  return std::ranges::any_of(MatrixElementOperands(inst),
                             [&](size_t i) { return ConstantIndex(inst, i) != 0u; });
}

// The call that stands for an element access hides what SPIRV-Tools checks on it: the Result
// Type against the component type (and, for a pointer, the storage class), the inserted object's
// type. The same access of element 0 checks exactly that; it is added next to the call.
void Lifter::AddElementZeroShadow(ir::InstructionList& list, ir::InstructionList::iterator at) {
  ir::Instruction shadow = *at;
  shadow.set_result_id(module_.TakeNextId());
  shadow.debug_lines().clear();
  for (size_t i : MatrixElementOperands(*at)) {
    const bool literal =
        grammar::GetOperandKind(at->operand(i).kind).category != grammar::OperandCategory::kId;
    shadow.SetWord(i, literal ? 0 : globals_.Constant(0));
  }
  record_.added_instructions.push_back(shadow.result_id());
  list.insert(at, std::move(shadow));
}

// The call that stands for `at` hides what SPIRV-Tools checks on the operation itself: an FAdd
// on integer matrices, an SConvert that keeps the width. The operation on one component checks
// exactly that, so it is added next to the call (its result is unused), on element 0 of each
// operand. Only when every value operand is a matrix: an operation that mixes a matrix with a
// scalar (OpMatrixTimesScalar) has no component form.
void Lifter::AddComponentShadow(ir::InstructionList& list, ir::InstructionList::iterator at) {
  const ir::Instruction& inst = *at;
  if (!inst.has_result_type() || !IsMatrixType(inst.result_type_id())) return;
  const auto component = [this](uint32_t matrix_type) {
    return types_.GetType(matrix_type)->element;
  };
  std::vector<uint32_t> matrix_operands;
  for (size_t i = 0; i < inst.num_operands(); ++i) {
    const ir::OperandView op = inst.operand(i);
    if (grammar::GetOperandKind(op.kind).category != grammar::OperandCategory::kId) continue;
    if (!IsMatrixType(type_of_.TypeId(op.word()))) return;
    matrix_operands.push_back(op.word());
  }
  if (matrix_operands.empty()) return;

  ir::Instruction shadow(inst.opcode(), component(inst.result_type_id()), module_.TakeNextId());
  for (size_t i = 0; i < inst.num_operands(); ++i) {
    const ir::OperandView op = inst.operand(i);
    if (grammar::GetOperandKind(op.kind).category != grammar::OperandCategory::kId) {
      shadow.AddOperand(op.kind, op.words);
      continue;
    }
    ir::Instruction element(Op::OpCompositeExtract, component(type_of_.TypeId(op.word())),
                            module_.TakeNextId());
    element.AddIdOperand(op.word());
    element.AddOperand(grammar::OperandKindId::kLiteralInteger, {0});
    element.set_source(inst.source_index(), inst.source_word_offset());
    shadow.AddOperand(op.kind, {element.result_id()});
    record_.added_instructions.push_back(element.result_id());
    list.insert(at, std::move(element));
  }
  shadow.set_source(inst.source_index(), inst.source_word_offset());
  record_.added_instructions.push_back(shadow.result_id());
  list.insert(at, std::move(shadow));
}

}  // namespace xmx::bridge
