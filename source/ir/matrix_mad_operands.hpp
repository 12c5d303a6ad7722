// Which operand of a subgroup matrix multiply-accumulate instruction
// (OpSubgroupMatrixMultiplyAccumulateINTEL and its scaled form, SPEC-NOTES B.2) is which, found by
// the operands' roles in the grammar: the one decoder the validator and the interpreter use.
#pragma once

#include <cstdint>
#include <optional>

#include "grammar/grammar.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {

struct MatrixMadOperands {
  grammar::OpcodeClass op_class = grammar::OpcodeClass::kNone;
  uint32_t k_dim = 0, a = 0, b = 0, c = 0;   // ids
  std::optional<uint32_t> scale_a, scale_b;  // ids; the scaled form only
  // The Matrix Multiply Accumulate Operands literal; 0 (None) when the operand is absent.
  uint32_t operands = 0;
};

// nullopt when `inst` is not of the grammar's matrix_mad family, or lacks one of its required
// operands (a structural error reported elsewhere).
std::optional<MatrixMadOperands> DecodeMatrixMadOperands(const Instruction& inst);

}  // namespace xmx::ir
