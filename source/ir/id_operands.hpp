// The id operands of an instruction, by the grammar's operand kinds: what the def-use analysis
// and the interpreter's load-time analyses walk.
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

}  // namespace xmx::ir
