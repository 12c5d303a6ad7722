// The id operands of an instruction, by the grammar's operand kinds, and the labels a block's
// terminator branches to: what the def-use analysis and the interpreter's load-time analyses
// walk.
#pragma once

#include <cstddef>
#include <cstdint>

#include "grammar/grammar.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {

// Calls visit(id, operand index) for every operand of `inst` whose kind is an id. The result
// type is not an operand and is not visited.
template <typename Visit>
void ForEachIdOperand(const Instruction& inst, Visit&& visit) {
  for (size_t i = 0; i < inst.num_operands(); ++i) {
    const OperandView operand = inst.operand(i);
    if (grammar::IsIdKind(operand.kind)) visit(operand.word(), i);
  }
}

// Calls visit(label) for each block that `terminator` may branch to (OpBranch,
// OpBranchConditional, OpSwitch; a label twice if it is named twice). Other instructions have
// none.
template <typename Visit>
void ForEachBranchTarget(const Instruction& terminator, Visit&& visit) {
  switch (terminator.opcode()) {
    case spv::Op::OpBranch:
      visit(terminator.word(0));
      break;
    case spv::Op::OpBranchConditional:
      visit(terminator.word(1));
      visit(terminator.word(2));
      break;
    case spv::Op::OpSwitch:
      // Operands: selector, default label, then (literal, label) pairs.
      for (size_t i = 1; i < terminator.num_operands(); i += 2) visit(terminator.word(i));
      break;
    default:
      break;
  }
}

}  // namespace xmx::ir
