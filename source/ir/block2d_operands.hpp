// Which operand of a 2D block instruction (SPV_INTEL_2d_block_io, SPEC-NOTES A.2) is which: the
// one decoder the validator, the interpreter and the optimizer read these instructions with.
//
// Nothing here is written per opcode: the family is the grammar's "block2d" opcode classes, and
// each operand is found by its role (its name in the grammar), so a new 2D block instruction with
// the same operand names is decoded without a change here.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "grammar/grammar.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {

// Operand indices of one 2D block opcode, after Result Type and Result (as Instruction::word takes
// them).
struct Block2dOperandPositions {
  const grammar::Instruction* instruction = nullptr;  // its name and operand names
  grammar::OpcodeClass op_class = grammar::OpcodeClass::kNone;
  uint32_t element_size = 0, block_width = 0, block_height = 0, block_count = 0;
  uint32_t base_pointer = 0;  // Src Base Pointer, or a store's Dst Base Pointer
  // Dst Pointer (loads: the block goes to private memory) or Src Pointer (stores); none for
  // Prefetch.
  std::optional<uint32_t> private_pointer;
  bool private_pointer_is_source = false;  // a store: the private data is read
  uint32_t memory_width = 0, memory_height = 0, memory_pitch = 0, coordinate = 0;
  uint32_t operand_count = 0;  // operands the encoding has

  // The grammar's names of the two pointers ("Src Base Pointer", "Dst Pointer", ...).
  std::string_view base_pointer_name() const;
  std::string_view private_pointer_name() const;  // empty when there is none
};

// The positions for a 2D block opcode, or nullptr for any other opcode.
const Block2dOperandPositions* FindBlock2dOperandPositions(spv::Op opcode);
inline bool IsBlock2dOpcode(spv::Op opcode) {
  return FindBlock2dOperandPositions(opcode) != nullptr;
}

// The operand ids of one 2D block instruction.
struct Block2dOperands {
  const Block2dOperandPositions* positions = nullptr;
  uint32_t element_size = 0, block_width = 0, block_height = 0, block_count = 0;
  uint32_t base_pointer = 0;
  uint32_t private_pointer = 0;  // 0 for Prefetch
  uint32_t memory_width = 0, memory_height = 0, memory_pitch = 0, coordinate = 0;
};

// nullopt when `inst` is not a 2D block instruction, or has fewer operands than its encoding (a
// structural error the parser's callers report; nothing about its operands can be trusted).
std::optional<Block2dOperands> DecodeBlock2dOperands(const Instruction& inst);

}  // namespace xmx::ir
