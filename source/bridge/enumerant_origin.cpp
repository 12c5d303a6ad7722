#include "bridge/enumerant_origin.hpp"

#include "grammar/grammar.hpp"

namespace xmx::bridge {

bool UsesExtendedEnumerant(const ir::Instruction& inst) {
  using grammar::OperandCategory;
  auto extended = [](const grammar::Enumerant* e) {
    return e && e->origin == grammar::Origin::kExtended;
  };
  for (size_t i = 0; i < inst.num_operands(); ++i) {
    const ir::OperandView op = inst.operand(i);
    const grammar::OperandKind& kind = grammar::GetOperandKind(op.kind);
    if (kind.origin == grammar::Origin::kExtended) return true;
    if (kind.category == OperandCategory::kValueEnum) {
      if (extended(grammar::FindEnumerant(op.kind, op.word()))) return true;
    } else if (kind.category == OperandCategory::kBitEnum) {
      for (uint32_t rest = op.word(); rest; rest &= rest - 1) {
        if (extended(grammar::FindEnumerant(op.kind, rest & (~rest + 1)))) return true;
      }
    }
  }
  return false;
}

}  // namespace xmx::bridge
