#include "opt/compact_ids.hpp"

#include <unordered_map>

#include "grammar/grammar.hpp"

namespace xmx::opt {

bool CompactIds(ir::Module& module) {
  std::unordered_map<uint32_t, uint32_t> renumbered;
  bool changed = false;
  auto map = [&renumbered, &changed](uint32_t id) {
    auto [it, added] = renumbered.emplace(id, static_cast<uint32_t>(renumbered.size()) + 1);
    changed |= it->second != id;
    return it->second;
  };
  module.ForEachInstruction([&map](ir::Instruction& inst) {
    if (inst.has_result_type()) inst.set_result_type_id(map(inst.result_type_id()));
    if (inst.has_result_id()) inst.set_result_id(map(inst.result_id()));
    for (size_t i = 0; i < inst.num_operands(); ++i) {
      const ir::OperandView op = inst.operand(i);
      if (grammar::GetOperandKind(op.kind).category == grammar::OperandCategory::kId) {
        inst.SetWord(i, map(op.word()));
      }
    }
  });
  const uint32_t bound = static_cast<uint32_t>(renumbered.size()) + 1;
  changed |= module.header().bound != bound;
  module.header().bound = bound;
  return changed;
}

}  // namespace xmx::opt
