#include "ir/matrix_mad_operands.hpp"

namespace xmx::ir {

std::optional<MatrixMadOperands> DecodeMatrixMadOperands(const Instruction& inst) {
  using grammar::OperandRole;
  const uint32_t opcode = static_cast<uint32_t>(inst.opcode());
  const grammar::OpcodeClass op_class = grammar::ClassOf(opcode);
  if (grammar::GetOpcodeClass(op_class).family != grammar::OpcodeFamily::kMatrixMad) {
    return std::nullopt;
  }
  const grammar::Instruction& entry = *grammar::FindInstruction(op_class);
  // The id of the operand with `role`, when the grammar has it and the instruction is long enough.
  auto id = [&](OperandRole role) -> std::optional<uint32_t> {
    const std::optional<uint32_t> index = grammar::OperandIndex(entry, role);
    if (!index || *index >= inst.num_operands()) return std::nullopt;
    return inst.word(*index);
  };
  const std::optional<uint32_t> k_dim = id(OperandRole::kKDim), a = id(OperandRole::kMatrixA),
                                b = id(OperandRole::kMatrixB), c = id(OperandRole::kMatrixC);
  if (!k_dim || !a || !b || !c) return std::nullopt;
  MatrixMadOperands out;
  out.op_class = op_class;
  out.k_dim = *k_dim;
  out.a = *a;
  out.b = *b;
  out.c = *c;
  const bool scaled = grammar::OperandIndex(entry, OperandRole::kScaleA).has_value();
  if (scaled) {
    out.scale_a = id(OperandRole::kScaleA);
    out.scale_b = id(OperandRole::kScaleB);
    if (!out.scale_a || !out.scale_b) return std::nullopt;
  }
  out.operands = id(OperandRole::kMatrixMultiplyAccumulateOperands).value_or(0);
  return out;
}

}  // namespace xmx::ir
