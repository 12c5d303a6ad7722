#include "opt/lower_cooperative_matrix_builder.hpp"

#include "grammar/grammar.hpp"
#include "ir/id_operands.hpp"

namespace xmx::opt::lower_coop {
namespace {

using grammar::OperandKindId;

bool IsTypeOpcode(spv::Op op) {
  switch (op) {
    case spv::Op::OpTypeVoid:
    case spv::Op::OpTypeBool:
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat:
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeArray:
    case spv::Op::OpTypePointer:
      return true;
    default:
      return false;
  }
}

}  // namespace

Builder::Builder(ir::Module& module) : module_(module) {
  for (const ir::Instruction& inst : module.globals()) {
    if (inst.has_result_id()) {
      type_defs_[inst.result_id()] = &inst;
      if (inst.has_result_type()) value_types_[inst.result_id()] = inst.result_type_id();
    }
    if (IsTypeOpcode(inst.opcode())) {
      std::vector<uint32_t> words(inst.operand_words().begin(), inst.operand_words().end());
      types_.emplace(std::make_pair(inst.opcode(), std::move(words)), inst.result_id());
    }
    if (inst.opcode() == spv::Op::OpConstant && inst.num_operands() == 1) {
      const ir::Instruction* type = type_defs_[inst.result_type_id()];
      if (type && type->opcode() == spv::Op::OpTypeInt && type->word(1) == 0) {
        uint_constants_.emplace(std::make_tuple(type->word(0), uint64_t{inst.word(0)}),
                                inst.result_id());
      }
    }
    if (inst.opcode() == spv::Op::OpVariable && inst.num_operands() >= 1 &&
        inst.word(0) == static_cast<uint32_t>(spv::StorageClass::Input)) {
      for (const ir::Instruction& a : module.annotations()) {
        if (a.opcode() == spv::Op::OpDecorate && a.num_operands() == 3 &&
            a.word(0) == inst.result_id() &&
            a.word(1) == static_cast<uint32_t>(spv::Decoration::BuiltIn) &&
            a.word(2) == static_cast<uint32_t>(spv::BuiltIn::SubgroupLocalInvocationId)) {
          lane_variable_ = inst.result_id();
        }
      }
    }
  }
  for (ir::Function& f : module.functions()) {
    for (const ir::Instruction& p : f.parameters) value_types_[p.result_id()] = p.result_type_id();
    for (const ir::BasicBlock& b : f.blocks) {
      for (const ir::Instruction& inst : b.instructions) {
        if (inst.has_result_id() && inst.has_result_type()) {
          value_types_[inst.result_id()] = inst.result_type_id();
        }
      }
    }
  }
}

uint32_t Builder::AddGlobal(ir::Instruction inst) {
  if (inst.has_result_id() && inst.result_id() == 0) inst.set_result_id(module_.TakeNextId());
  const uint32_t id = inst.result_id();
  if (inst.has_result_type()) value_types_[id] = inst.result_type_id();
  module_.globals().push_back(std::move(inst));
  type_defs_[id] = &module_.globals().back();
  return id;
}

uint32_t Builder::FindOrAddType(spv::Op opcode, std::vector<uint32_t> words,
                                std::vector<OperandKindId> kinds) {
  auto key = std::make_pair(opcode, words);
  if (auto it = types_.find(key); it != types_.end()) return it->second;
  ir::Instruction inst(opcode, 0, module_.TakeNextId());
  for (size_t i = 0; i < words.size(); ++i) inst.AddOperand(kinds[i], {words[i]});
  const uint32_t id = AddGlobal(std::move(inst));
  types_.emplace(std::move(key), id);
  return id;
}

uint32_t Builder::VoidType() { return FindOrAddType(spv::Op::OpTypeVoid, {}, {}); }
uint32_t Builder::BoolType() { return FindOrAddType(spv::Op::OpTypeBool, {}, {}); }
uint32_t Builder::IntType(uint32_t bits) {
  return FindOrAddType(spv::Op::OpTypeInt, {bits, 0},
                       {OperandKindId::kLiteralInteger, OperandKindId::kLiteralInteger});
}
uint32_t Builder::FloatType(uint32_t bits) {
  return FindOrAddType(spv::Op::OpTypeFloat, {bits}, {OperandKindId::kLiteralInteger});
}
uint32_t Builder::VectorType(uint32_t component, uint32_t count) {
  return FindOrAddType(spv::Op::OpTypeVector, {component, count},
                       {OperandKindId::kIdRef, OperandKindId::kLiteralInteger});
}
uint32_t Builder::ArrayType(uint32_t element, uint32_t count) {
  const uint32_t length = UIntConstant(32, count);
  return FindOrAddType(spv::Op::OpTypeArray, {element, length},
                       {OperandKindId::kIdRef, OperandKindId::kIdRef});
}
uint32_t Builder::PointerType(spv::StorageClass storage, uint32_t pointee) {
  return FindOrAddType(spv::Op::OpTypePointer, {static_cast<uint32_t>(storage), pointee},
                       {OperandKindId::kStorageClass, OperandKindId::kIdRef});
}

uint32_t Builder::UIntConstant(uint32_t bits, uint64_t value) {
  auto key = std::make_tuple(bits, value);
  if (auto it = uint_constants_.find(key); it != uint_constants_.end()) return it->second;
  ir::Instruction inst(spv::Op::OpConstant, IntType(bits), module_.TakeNextId());
  if (bits == 64) {
    inst.AddOperand(OperandKindId::kLiteralContextDependentNumber,
                    {static_cast<uint32_t>(value), static_cast<uint32_t>(value >> 32)});
  } else {
    const uint64_t mask = bits >= 32 ? 0xFFFFFFFFu : ((uint64_t{1} << bits) - 1);
    inst.AddOperand(OperandKindId::kLiteralContextDependentNumber,
                    {static_cast<uint32_t>(value & mask)});
  }
  const uint32_t id = AddGlobal(std::move(inst));
  uint_constants_.emplace(key, id);
  return id;
}

uint32_t Builder::NullConstant(uint32_t type) {
  if (auto it = null_constants_.find(type); it != null_constants_.end()) return it->second;
  const uint32_t id = AddGlobal(ir::Instruction(spv::Op::OpConstantNull, type, 0));
  null_constants_.emplace(type, id);
  return id;
}

const ir::Instruction* Builder::TypeInstruction(uint32_t type) const {
  auto it = type_defs_.find(type);
  return it == type_defs_.end() ? nullptr : it->second;
}

uint32_t Builder::TypeBits(uint32_t type) const {
  const ir::Instruction* t = TypeInstruction(type);
  if (!t) return 0;
  if (t->opcode() == spv::Op::OpTypeInt || t->opcode() == spv::Op::OpTypeFloat) return t->word(0);
  return 0;
}

bool Builder::IsFloatType(uint32_t type) const {
  const ir::Instruction* t = TypeInstruction(type);
  return t && t->opcode() == spv::Op::OpTypeFloat;
}

uint32_t Builder::PointerSizeBits() const {
  return module_.addressing_model() == spv::AddressingModel::Physical32 ? 32 : 64;
}

uint32_t Builder::ValueType(uint32_t value) const {
  auto it = value_types_.find(value);
  return it == value_types_.end() ? 0 : it->second;
}

void Builder::SetInsertPoint(ir::Function* function, std::list<ir::BasicBlock>::iterator block,
                             ir::InstructionList::iterator position) {
  function_ = function;
  block_ = block;
  position_ = position;
}

uint32_t Builder::Insert(ir::Instruction inst) {
  if (inst.has_result_id() && inst.result_id() == 0) inst.set_result_id(module_.TakeNextId());
  const uint32_t id = inst.result_id();
  if (inst.has_result_type()) value_types_[id] = inst.result_type_id();
  emitted_.insert(inst.opcode());
  block_->instructions.insert(position_, std::move(inst));
  return id;
}

uint32_t Builder::Op(spv::Op opcode, uint32_t type, std::initializer_list<uint32_t> ids) {
  return OpSpan(opcode, type, std::span<const uint32_t>(ids.begin(), ids.size()));
}

uint32_t Builder::OpSpan(spv::Op opcode, uint32_t type, std::span<const uint32_t> ids) {
  ir::Instruction inst(opcode, type, type != 0 ? module_.TakeNextId() : 0);
  for (uint32_t id : ids) inst.AddIdOperand(id);
  return Insert(std::move(inst));
}

uint32_t Builder::Extract(uint32_t type, uint32_t composite, std::span<const uint32_t> indices) {
  ir::Instruction inst(spv::Op::OpCompositeExtract, type, module_.TakeNextId());
  inst.AddIdOperand(composite);
  for (uint32_t i : indices) inst.AddOperand(OperandKindId::kLiteralInteger, {i});
  return Insert(std::move(inst));
}

uint32_t Builder::Insert(uint32_t type, uint32_t object, uint32_t composite,
                         std::span<const uint32_t> indices) {
  ir::Instruction inst(spv::Op::OpCompositeInsert, type, module_.TakeNextId());
  inst.AddIdOperand(object);
  inst.AddIdOperand(composite);
  for (uint32_t i : indices) inst.AddOperand(OperandKindId::kLiteralInteger, {i});
  return Insert(std::move(inst));
}

uint32_t Builder::FunctionVariable(uint32_t pointee) {
  ir::Instruction inst(spv::Op::OpVariable, PointerType(spv::StorageClass::Function, pointee),
                       module_.TakeNextId());
  inst.AddOperand(OperandKindId::kStorageClass,
                  {static_cast<uint32_t>(spv::StorageClass::Function)});
  const uint32_t id = inst.result_id();
  value_types_[id] = inst.result_type_id();
  ir::BasicBlock& entry = function_->blocks.front();
  entry.instructions.insert(entry.instructions.begin(), std::move(inst));
  return id;
}

uint32_t Builder::LaneId() {
  if (auto it = lane_ids_.find(function_); it != lane_ids_.end()) return it->second;
  const uint32_t uint_type = IntType(32);
  const uint32_t pointer = PointerType(spv::StorageClass::Input, uint_type);
  if (lane_variable_ == 0) {
    ir::Instruction var(spv::Op::OpVariable, pointer, 0);
    var.AddOperand(OperandKindId::kStorageClass, {static_cast<uint32_t>(spv::StorageClass::Input)});
    lane_variable_ = AddGlobal(std::move(var));
    ir::Instruction decorate(spv::Op::OpDecorate);
    decorate.AddIdOperand(lane_variable_);
    decorate.AddOperand(OperandKindId::kDecoration,
                        {static_cast<uint32_t>(spv::Decoration::BuiltIn)});
    decorate.AddOperand(OperandKindId::kBuiltIn,
                        {static_cast<uint32_t>(spv::BuiltIn::SubgroupLocalInvocationId)});
    module_.annotations().push_back(std::move(decorate));
    for (ir::Instruction& entry : module_.entry_points()) entry.AddIdOperand(lane_variable_);
  }
  // Loaded after the entry block's variables, so that it dominates every use.
  ir::BasicBlock& entry = function_->blocks.front();
  auto at = entry.instructions.begin();
  while (at != entry.instructions.end() && at->opcode() == spv::Op::OpVariable) ++at;
  ir::Instruction load(spv::Op::OpLoad, uint_type, module_.TakeNextId());
  load.AddIdOperand(lane_variable_);
  const uint32_t id = load.result_id();
  value_types_[id] = uint_type;
  entry.instructions.insert(at, std::move(load));
  lane_ids_[function_] = id;
  return id;
}

std::list<ir::BasicBlock>::iterator Builder::NewBlockAfter(
    std::list<ir::BasicBlock>::iterator after) {
  auto block = function_->blocks.insert(std::next(after), ir::BasicBlock{});
  block->label = ir::Instruction(spv::Op::OpLabel, 0, module_.TakeNextId());
  return block;
}

std::list<ir::BasicBlock>::iterator Builder::SplitBlock() {
  const uint32_t old_label = block_->id();
  auto rest = NewBlockAfter(block_);
  rest->instructions.splice(rest->instructions.end(), block_->instructions, position_,
                            block_->instructions.end());
  if (const ir::Instruction* terminator = rest->terminator()) {
    ir::ForEachBranchTarget(*terminator, [&](uint32_t target) {
      for (ir::BasicBlock& b : function_->blocks) {
        if (b.id() != target) continue;
        for (ir::Instruction& phi : b.instructions) {
          if (phi.opcode() != spv::Op::OpPhi) break;
          for (size_t i = 1; i < phi.num_operands(); i += 2) {
            if (phi.word(i) == old_label) phi.SetWord(i, rest->id());
          }
        }
      }
    });
  }
  position_ = block_->instructions.end();
  return rest;
}

void Builder::MoveToEnd(std::list<ir::BasicBlock>::iterator block) {
  block_ = block;
  position_ = block->instructions.end();
}

}  // namespace xmx::opt::lower_coop
