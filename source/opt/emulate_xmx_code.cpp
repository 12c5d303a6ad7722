#include "opt/emulate_xmx_code.hpp"

#include "grammar/grammar.hpp"

namespace xmx::opt::emulate_detail {
namespace {

// The kind of operand `index` (counted after the result type and id): the grammar's, the last
// one repeating for variable-length lists.
grammar::OperandKindId KindOf(spv::Op opcode, size_t index) {
  const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(opcode));
  if (desc == nullptr) return grammar::OperandKindId::kIdRef;
  const size_t skip = (desc->has_result_type ? 1 : 0) + (desc->has_result ? 1 : 0);
  if (desc->operands.size() <= skip) return grammar::OperandKindId::kIdRef;
  const size_t position = std::min(skip + index, desc->operands.size() - 1);
  return desc->operands[position].kind;
}

}  // namespace

CodeBuilder::CodeBuilder(ModuleBuilder& module, ir::Function& function, ir::BasicBlock& block)
    : module_(module), function_(function), block_(&block), appending_(true) {}

CodeBuilder::CodeBuilder(ModuleBuilder& module, ir::Function& function, ir::BasicBlock& block,
                         ir::InstructionList::iterator before)
    : module_(module), function_(function), block_(&block), appending_(false), before_(before) {}

void CodeBuilder::Emit(ir::Instruction inst) {
  if (appending_) {
    block_->instructions.push_back(std::move(inst));
  } else {
    block_->instructions.insert(before_, std::move(inst));
  }
}

uint32_t CodeBuilder::Op(spv::Op opcode, uint32_t result_type,
                         std::initializer_list<uint32_t> operands) {
  return Op(opcode, result_type, std::vector<uint32_t>(operands));
}

uint32_t CodeBuilder::Op(spv::Op opcode, uint32_t result_type,
                         const std::vector<uint32_t>& operands) {
  const uint32_t id = module_.NewId();
  if (id == 0) return 0;
  ir::Instruction inst(opcode, result_type, id);
  for (size_t i = 0; i < operands.size(); ++i) inst.AddOperand(KindOf(opcode, i), {operands[i]});
  Emit(std::move(inst));
  return id;
}

void CodeBuilder::Do(spv::Op opcode, std::initializer_list<uint32_t> operands) {
  ir::Instruction inst(opcode);
  size_t i = 0;
  for (uint32_t word : operands) inst.AddOperand(KindOf(opcode, i++), {word});
  Emit(std::move(inst));
}

uint32_t CodeBuilder::StartBlock() {
  ir::BasicBlock block;
  const uint32_t label = module_.NewId();
  block.label = ir::Instruction(spv::Op::OpLabel, 0, label);
  function_.blocks.push_back(std::move(block));
  block_ = &function_.blocks.back();
  return label;
}

void CodeBuilder::For(uint32_t begin, uint32_t end, const std::function<void(uint32_t)>& body) {
  const uint32_t i32 = module_.IntType(32);
  const uint32_t counter = Variable(i32);
  Store(counter, begin);
  // Labels are taken before the blocks exist so that branches can name them.
  ir::BasicBlock* from = block_;
  const uint32_t header = StartBlock();
  ir::BasicBlock* header_block = block_;
  block_ = from;
  Do(spv::Op::OpBranch, {header});
  block_ = header_block;
  const uint32_t value = Load(i32, counter);
  const uint32_t more = Op(spv::Op::OpSLessThan, module_.BoolType(), {value, end});
  ir::BasicBlock* test_block = block_;
  const uint32_t body_label = StartBlock();
  body(value);
  const uint32_t next = Op(spv::Op::OpIAdd, i32, {Load(i32, counter), I32(1)});
  Store(counter, next);
  Do(spv::Op::OpBranch, {header});
  const uint32_t exit = StartBlock();
  ir::BasicBlock* exit_block = block_;
  block_ = test_block;
  Do(spv::Op::OpBranchConditional, {more, body_label, exit});
  block_ = exit_block;
}

void CodeBuilder::If(uint32_t condition, const std::function<void()>& then) {
  ir::BasicBlock* from = block_;
  const uint32_t then_label = StartBlock();
  then();
  ir::BasicBlock* then_end = block_;
  const uint32_t merge = StartBlock();
  ir::BasicBlock* merge_block = block_;
  block_ = then_end;
  Do(spv::Op::OpBranch, {merge});
  block_ = from;
  Do(spv::Op::OpBranchConditional, {condition, then_label, merge});
  block_ = merge_block;
}

}  // namespace xmx::opt::emulate_detail
