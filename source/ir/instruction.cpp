#include <algorithm>
#include <cassert>
#include <cstring>

#include "binary/parser.hpp"
#include "grammar/grammar.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {

Instruction::Instruction(spv::Op opcode, uint32_t result_type_id, uint32_t result_id)
    : opcode_(opcode), result_type_id_(result_type_id), result_id_(result_id) {
  if (const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(opcode))) {
    has_result_type_ = desc->has_result_type;
    has_result_id_ = desc->has_result;
  } else {
    has_result_type_ = result_type_id != 0;
    has_result_id_ = result_id != 0;
  }
}

OperandView Instruction::operand(size_t index) const {
  const OperandSlot& slot = operands_[index];
  return {slot.kind, std::span<const uint32_t>(words_.data() + slot.offset, slot.num_words)};
}

std::string Instruction::StringOperand(size_t index) const {
  return binary::DecodeString(operand(index).words);
}

void Instruction::AddOperand(grammar::OperandKindId kind, std::span<const uint32_t> words) {
  operands_.push_back(
      {static_cast<uint16_t>(words_.size()), static_cast<uint16_t>(words.size()), kind});
  words_.append(words.data(), words.size());
}

void Instruction::AddStringOperand(std::string_view text) {
  std::vector<uint32_t> words;
  binary::EncodeString(text, &words);
  AddOperand(grammar::OperandKindId::kLiteralString, words);
}

void Instruction::SetOperand(size_t index, grammar::OperandKindId kind,
                             std::span<const uint32_t> words) {
  OperandSlot& slot = operands_[index];
  const size_t old_size = slot.num_words;
  if (words.size() == old_size) {
    // memmove: `words` may be this instruction's own.
    std::memmove(words_.data() + slot.offset, words.data(), words.size() * sizeof(uint32_t));
  } else {
    // A copy first: `words` may be this instruction's own, which the erase below moves.
    InlineVector<uint32_t, 8> replacement;
    replacement.append(words.data(), words.size());
    words_.erase(slot.offset, old_size);
    words_.insert(slot.offset, replacement.data(), replacement.size());
    const int delta = static_cast<int>(words.size()) - static_cast<int>(old_size);
    for (size_t i = index + 1; i < operands_.size(); ++i) {
      operands_[i].offset = static_cast<uint16_t>(operands_[i].offset + delta);
    }
  }
  slot.kind = kind;
  slot.num_words = static_cast<uint16_t>(words.size());
}

void Instruction::RemoveOperands(size_t first, size_t count) {
  if (count == 0) return;
  assert(first + count <= operands_.size());
  const size_t word_begin = operands_[first].offset;
  const size_t word_end =
      first + count < operands_.size() ? operands_[first + count].offset : words_.size();
  words_.erase(word_begin, word_end - word_begin);
  operands_.erase(first, count);
  const auto removed = static_cast<uint16_t>(word_end - word_begin);
  for (size_t i = first; i < operands_.size(); ++i) operands_[i].offset -= removed;
}

size_t Instruction::WordCount() const {
  return 1 + (has_result_type_ ? 1 : 0) + (has_result_id_ ? 1 : 0) + words_.size();
}

void Instruction::AppendWords(std::vector<uint32_t>* out, bool with_debug_lines) const {
  if (with_debug_lines) {
    for (const Instruction& line : debug_lines_) line.AppendWords(out);
  }
  const size_t count = WordCount();
  assert(count <= 0xFFFF && "instruction too long for SPIR-V's 16-bit word count");
  out->push_back(static_cast<uint32_t>(count) << 16 | static_cast<uint32_t>(opcode_));
  if (has_result_type_) out->push_back(result_type_id_);
  if (has_result_id_) out->push_back(result_id_);
  out->insert(out->end(), words_.begin(), words_.end());
}

bool IsBlockTerminator(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpBranch:
    case spv::Op::OpBranchConditional:
    case spv::Op::OpSwitch:
    case spv::Op::OpReturn:
    case spv::Op::OpReturnValue:
    case spv::Op::OpKill:
    case spv::Op::OpUnreachable:
    case spv::Op::OpTerminateInvocation:
    case spv::Op::OpIgnoreIntersectionKHR:
    case spv::Op::OpTerminateRayKHR:
    case spv::Op::OpEmitMeshTasksEXT:
      return true;
    default:
      return false;
  }
}

Instruction* BasicBlock::terminator() {
  if (instructions.empty() || !IsBlockTerminator(instructions.back().opcode())) return nullptr;
  return &instructions.back();
}

const Instruction* BasicBlock::terminator() const {
  return const_cast<BasicBlock*>(this)->terminator();
}

}  // namespace xmx::ir
