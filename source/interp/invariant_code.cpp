#include "interp/invariant_bitcasts.hpp"

#include <unordered_set>

namespace xmx::interp {
namespace {

// Whether any branch of `function` targets `label`.
bool IsBranchTarget(const ir::Function& function, uint32_t label) {
  for (const ir::BasicBlock& block : function.blocks) {
    if (block.instructions.empty()) continue;
    const ir::Instruction& last = block.instructions.back();
    switch (last.opcode()) {
      case spv::Op::OpBranch:
        if (last.word(0) == label) return true;
        break;
      case spv::Op::OpBranchConditional:
        if (last.word(1) == label || last.word(2) == label) return true;
        break;
      case spv::Op::OpSwitch:
        // Operands: selector, default label, then (literal, label) pairs.
        for (size_t i = 1; i < last.num_operands(); i += 2) {
          if (last.word(i) == label) return true;
        }
        break;
      default:
        break;
    }
  }
  return false;
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> InvariantBitcasts(const ir::Function& function) {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  if (function.blocks.empty()) return pairs;
  const ir::BasicBlock& entry = function.blocks.front();
  // A validated module never branches to its entry block; an unvalidated one that does would
  // run the entry block again and rewrite its values, so nothing is shared then.
  if (IsBranchTarget(function, entry.id())) return pairs;
  std::unordered_set<uint32_t> once;  // ids written once per activation
  for (const ir::Instruction& p : function.parameters) once.insert(p.result_id());
  for (const ir::Instruction& inst : entry.instructions) {
    if (inst.has_result_id()) once.insert(inst.result_id());
  }
  for (const ir::BasicBlock& block : function.blocks) {
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.opcode() != spv::Op::OpBitcast || !once.count(inst.word(0))) continue;
      pairs.emplace_back(inst.result_id(), inst.word(0));
      once.insert(inst.result_id());
    }
  }
  return pairs;
}

}  // namespace xmx::interp
