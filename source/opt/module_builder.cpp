#include "opt/module_builder.hpp"

#include <cstdint>

namespace xmx::opt {
namespace {

using grammar::OperandKindId;

bool IsPlainIntType(const ir::Instruction& inst) {
  return inst.opcode() == spv::Op::OpTypeInt && inst.num_operands() == 2 && inst.word(1) == 0;
}

}  // namespace

ModuleBuilder::ModuleBuilder(ir::Module& module) : module_(module) {
  std::map<uint32_t, uint32_t> int_width;  // int type id -> width
  for (const ir::Instruction& inst : module.globals()) {
    const uint32_t id = inst.result_id();
    switch (inst.opcode()) {
      case spv::Op::OpTypeVoid:
        if (void_type_ == 0) void_type_ = id;
        break;
      case spv::Op::OpTypeBool:
        if (bool_type_ == 0) bool_type_ = id;
        break;
      case spv::Op::OpTypeInt:
        if (IsPlainIntType(inst)) {
          int_types_.emplace(inst.word(0), id);
          int_width.emplace(id, inst.word(0));
        }
        break;
      case spv::Op::OpTypeFloat:
        if (inst.num_operands() == 1) float_types_.emplace(inst.word(0), id);
        break;
      case spv::Op::OpTypeVector:
        vector_types_.emplace(std::pair{inst.word(0), inst.word(1)}, id);
        break;
      case spv::Op::OpTypeArray:
        if (auto it = constant_values_.find(inst.word(1)); it != constant_values_.end()) {
          array_types_.emplace(std::pair{inst.word(0), it->second}, id);
        }
        break;
      case spv::Op::OpTypePointer:
        pointer_types_.emplace(std::pair{inst.word(0), inst.word(1)}, id);
        break;
      case spv::Op::OpTypeFunction: {
        std::vector<uint32_t> key;
        for (size_t i = 0; i < inst.num_operands(); ++i) key.push_back(inst.word(i));
        function_types_.emplace(std::move(key), id);
        break;
      }
      case spv::Op::OpConstantTrue:
        if (inst.result_type_id() == bool_type_ && true_ == 0) true_ = id;
        break;
      case spv::Op::OpConstantFalse:
        if (inst.result_type_id() == bool_type_ && false_ == 0) false_ = id;
        break;
      case spv::Op::OpConstant: {
        auto width = int_width.find(inst.result_type_id());
        if (width == int_width.end() || inst.num_operands() != 1) break;
        uint64_t value = 0;
        const auto words = inst.operand(0).words;
        for (size_t i = 0; i < words.size() && i < 2; ++i) value |= uint64_t{words[i]} << (32 * i);
        int_constants_.emplace(std::pair{inst.result_type_id(), value}, id);
        constant_values_.emplace(id, value);
        break;
      }
      default:
        break;
    }
  }
}

uint32_t ModuleBuilder::NewId() {
  if (module_.header().bound >= UINT32_MAX - 1) {
    out_of_ids_ = true;
    return 0;
  }
  return module_.TakeNextId();
}

uint32_t ModuleBuilder::AddGlobal(spv::Op opcode, uint32_t result_type,
                                  std::vector<uint32_t> operands,
                                  std::vector<OperandKindId> kinds) {
  const uint32_t id = NewId();
  if (id == 0) return 0;
  ir::Instruction inst(opcode, result_type, id);
  for (size_t i = 0; i < operands.size(); ++i) inst.AddOperand(kinds[i], {operands[i]});
  module_.globals().push_back(std::move(inst));
  return id;
}

uint32_t ModuleBuilder::VoidType() {
  if (void_type_ == 0) void_type_ = AddGlobal(spv::Op::OpTypeVoid, 0, {}, {});
  return void_type_;
}

uint32_t ModuleBuilder::BoolType() {
  if (bool_type_ == 0) bool_type_ = AddGlobal(spv::Op::OpTypeBool, 0, {}, {});
  return bool_type_;
}

uint32_t ModuleBuilder::IntType(uint32_t width) {
  if (auto it = int_types_.find(width); it != int_types_.end()) return it->second;
  if (width == 8) RequireCapability(spv::Capability::Int8);
  if (width == 16) RequireCapability(spv::Capability::Int16);
  if (width == 64) RequireCapability(spv::Capability::Int64);
  const uint32_t id = AddGlobal(spv::Op::OpTypeInt, 0, {width, 0},
                                {OperandKindId::kLiteralInteger, OperandKindId::kLiteralInteger});
  if (id != 0) int_types_.emplace(width, id);
  return id;
}

uint32_t ModuleBuilder::FloatType(uint32_t width) {
  if (auto it = float_types_.find(width); it != float_types_.end()) return it->second;
  if (width == 16) RequireCapability(spv::Capability::Float16);
  if (width == 64) RequireCapability(spv::Capability::Float64);
  const uint32_t id = AddGlobal(spv::Op::OpTypeFloat, 0, {width}, {OperandKindId::kLiteralInteger});
  if (id != 0) float_types_.emplace(width, id);
  return id;
}

uint32_t ModuleBuilder::VectorType(uint32_t component_type, uint32_t count) {
  const std::pair key{component_type, count};
  if (auto it = vector_types_.find(key); it != vector_types_.end()) return it->second;
  const uint32_t id = AddGlobal(spv::Op::OpTypeVector, 0, {component_type, count},
                                {OperandKindId::kIdRef, OperandKindId::kLiteralInteger});
  if (id != 0) vector_types_.emplace(key, id);
  return id;
}

uint32_t ModuleBuilder::ArrayType(uint32_t element_type, uint32_t length) {
  const std::pair key{element_type, uint64_t{length}};
  if (auto it = array_types_.find(key); it != array_types_.end()) return it->second;
  const uint32_t length_id = IntConstant(32, length);
  if (length_id == 0) return 0;
  const uint32_t id = AddGlobal(spv::Op::OpTypeArray, 0, {element_type, length_id},
                                {OperandKindId::kIdRef, OperandKindId::kIdRef});
  if (id != 0) array_types_.emplace(key, id);
  return id;
}

uint32_t ModuleBuilder::PointerType(spv::StorageClass storage_class, uint32_t pointee) {
  const std::pair key{static_cast<uint32_t>(storage_class), pointee};
  if (auto it = pointer_types_.find(key); it != pointer_types_.end()) return it->second;
  const uint32_t id =
      AddGlobal(spv::Op::OpTypePointer, 0, {static_cast<uint32_t>(storage_class), pointee},
                {OperandKindId::kStorageClass, OperandKindId::kIdRef});
  if (id != 0) pointer_types_.emplace(key, id);
  return id;
}

uint32_t ModuleBuilder::FunctionType(uint32_t return_type,
                                     const std::vector<uint32_t>& parameter_types) {
  std::vector<uint32_t> key{return_type};
  key.insert(key.end(), parameter_types.begin(), parameter_types.end());
  if (auto it = function_types_.find(key); it != function_types_.end()) return it->second;
  const uint32_t id = NewId();
  if (id == 0) return 0;
  ir::Instruction inst(spv::Op::OpTypeFunction, 0, id);
  for (uint32_t type : key) inst.AddIdOperand(type);
  module_.globals().push_back(std::move(inst));
  function_types_.emplace(std::move(key), id);
  return id;
}

uint32_t ModuleBuilder::SplatConstant(uint32_t vector_type, uint32_t count, uint32_t component) {
  const std::pair key{vector_type, component};
  if (auto it = splats_.find(key); it != splats_.end()) return it->second;
  const uint32_t id = NewId();
  if (id == 0) return 0;
  ir::Instruction inst(spv::Op::OpConstantComposite, vector_type, id);
  for (uint32_t i = 0; i < count; ++i) inst.AddIdOperand(component);
  module_.globals().push_back(std::move(inst));
  splats_.emplace(key, id);
  return id;
}

uint32_t ModuleBuilder::IntConstant(uint32_t width, uint64_t value) {
  const uint32_t type = IntType(width);
  if (type == 0) return 0;
  if (width < 64) value &= (uint64_t{1} << width) - 1;
  const std::pair key{type, value};
  if (auto it = int_constants_.find(key); it != int_constants_.end()) return it->second;
  const uint32_t id = NewId();
  if (id == 0) return 0;
  ir::Instruction inst(spv::Op::OpConstant, type, id);
  if (width == 64) {
    inst.AddOperand(OperandKindId::kLiteralContextDependentNumber,
                    {static_cast<uint32_t>(value), static_cast<uint32_t>(value >> 32)});
  } else {
    inst.AddOperand(OperandKindId::kLiteralContextDependentNumber, {static_cast<uint32_t>(value)});
  }
  module_.globals().push_back(std::move(inst));
  int_constants_.emplace(key, id);
  constant_values_.emplace(id, value);
  return id;
}

uint32_t ModuleBuilder::BoolConstant(bool value) {
  uint32_t& slot = value ? true_ : false_;
  if (slot == 0) {
    const uint32_t type = BoolType();
    if (type == 0) return 0;
    slot = AddGlobal(value ? spv::Op::OpConstantTrue : spv::Op::OpConstantFalse, type, {}, {});
  }
  return slot;
}

void ModuleBuilder::RequireCapability(spv::Capability capability) {
  if (module_.HasCapability(capability)) return;
  ir::Instruction inst(spv::Op::OpCapability);
  inst.AddOperand(OperandKindId::kCapability, {static_cast<uint32_t>(capability)});
  module_.capabilities().push_back(std::move(inst));
}

uint32_t ModuleBuilder::AddFunctionVariable(ir::Function& function, uint32_t pointee) {
  const uint32_t pointer = PointerType(spv::StorageClass::Function, pointee);
  const uint32_t id = pointer == 0 ? 0 : NewId();
  if (id == 0 || function.blocks.empty()) return 0;
  ir::Instruction variable(spv::Op::OpVariable, pointer, id);
  variable.AddOperand(OperandKindId::kStorageClass,
                      {static_cast<uint32_t>(spv::StorageClass::Function)});
  ir::InstructionList& entry = function.blocks.front().instructions;
  auto it = entry.begin();
  while (it != entry.end() && it->opcode() == spv::Op::OpVariable) ++it;
  entry.insert(it, std::move(variable));
  return id;
}

}  // namespace xmx::opt
