#include "ir/block2d_operands.hpp"

#include <vector>

namespace xmx::ir {
namespace {

using grammar::OperandRole;

// The positions of every instruction of the grammar's block2d family, built once. An instruction
// of the family that lacks one of the roles is not a 2D block instruction to anyone (the grammar
// test catches such an entry).
std::vector<Block2dOperandPositions> BuildPositions() {
  std::vector<Block2dOperandPositions> all;
  for (const grammar::OpcodeClassInfo& c : grammar::ClassesOf(grammar::OpcodeFamily::kBlock2d)) {
    const grammar::Instruction* inst = grammar::FindInstruction(c.id);
    if (inst == nullptr) continue;
    auto at = [&](OperandRole role) { return grammar::OperandIndex(*inst, role); };
    Block2dOperandPositions p;
    p.instruction = inst;
    p.op_class = c.id;
    const std::optional<uint32_t> element_size = at(OperandRole::kElementSize),
                                  block_width = at(OperandRole::kBlockWidth),
                                  block_height = at(OperandRole::kBlockHeight),
                                  block_count = at(OperandRole::kBlockCount),
                                  memory_width = at(OperandRole::kMemoryWidth),
                                  memory_height = at(OperandRole::kMemoryHeight),
                                  memory_pitch = at(OperandRole::kMemoryPitch),
                                  coordinate = at(OperandRole::kCoordinate);
    const std::optional<uint32_t> src_base = at(OperandRole::kSrcBasePointer),
                                  dst_base = at(OperandRole::kDstBasePointer),
                                  dst_private = at(OperandRole::kDstPointer),
                                  src_private = at(OperandRole::kSrcPointer);
    if (!element_size || !block_width || !block_height || !block_count || !memory_width ||
        !memory_height || !memory_pitch || !coordinate ||
        src_base.has_value() == dst_base.has_value() || (dst_private && src_private)) {
      continue;
    }
    p.element_size = *element_size;
    p.block_width = *block_width;
    p.block_height = *block_height;
    p.block_count = *block_count;
    p.base_pointer = src_base ? *src_base : *dst_base;
    p.private_pointer = dst_private ? dst_private : src_private;
    p.private_pointer_is_source = src_private.has_value();
    p.memory_width = *memory_width;
    p.memory_height = *memory_height;
    p.memory_pitch = *memory_pitch;
    p.coordinate = *coordinate;
    for (const grammar::Operand& operand : inst->operands) {
      if (operand.kind != grammar::OperandKindId::kIdResultType &&
          operand.kind != grammar::OperandKindId::kIdResult) {
        ++p.operand_count;
      }
    }
    all.push_back(p);
  }
  return all;
}

const std::vector<Block2dOperandPositions>& AllPositions() {
  static const std::vector<Block2dOperandPositions> all = BuildPositions();
  return all;
}

std::string_view NameOf(const grammar::Instruction& inst, OperandRole role) {
  for (const grammar::Operand& operand : inst.operands) {
    if (operand.role == role) return grammar::OperandName(operand);
  }
  return {};
}

}  // namespace

std::string_view Block2dOperandPositions::base_pointer_name() const {
  return private_pointer_is_source ? NameOf(*instruction, OperandRole::kDstBasePointer)
                                   : NameOf(*instruction, OperandRole::kSrcBasePointer);
}

std::string_view Block2dOperandPositions::private_pointer_name() const {
  if (!private_pointer) return {};
  return private_pointer_is_source ? NameOf(*instruction, OperandRole::kSrcPointer)
                                   : NameOf(*instruction, OperandRole::kDstPointer);
}

const Block2dOperandPositions* FindBlock2dOperandPositions(spv::Op opcode) {
  const grammar::OpcodeClass op_class = grammar::ClassOf(static_cast<uint32_t>(opcode));
  if (grammar::GetOpcodeClass(op_class).family != grammar::OpcodeFamily::kBlock2d) return nullptr;
  for (const Block2dOperandPositions& p : AllPositions()) {
    if (p.op_class == op_class) return &p;
  }
  return nullptr;
}

std::optional<Block2dOperands> DecodeBlock2dOperands(const Instruction& inst) {
  const Block2dOperandPositions* p = FindBlock2dOperandPositions(inst.opcode());
  if (p == nullptr || inst.num_operands() < p->operand_count) return std::nullopt;
  Block2dOperands out;
  out.positions = p;
  out.element_size = inst.word(p->element_size);
  out.block_width = inst.word(p->block_width);
  out.block_height = inst.word(p->block_height);
  out.block_count = inst.word(p->block_count);
  out.base_pointer = inst.word(p->base_pointer);
  if (p->private_pointer) out.private_pointer = inst.word(*p->private_pointer);
  out.memory_width = inst.word(p->memory_width);
  out.memory_height = inst.word(p->memory_height);
  out.memory_pitch = inst.word(p->memory_pitch);
  out.coordinate = inst.word(p->coordinate);
  return out;
}

}  // namespace xmx::ir
