#include "interp/load/block_merging.hpp"

#include <iterator>
#include <unordered_map>

#include "ir/id_operands.hpp"

namespace xmx::interp {

uint32_t MergeStraightLineBlocks(ir::Function& function,
                                 const std::unordered_set<uint32_t>& decorated) {
  if (function.blocks.empty()) return 0;
  // References to each label other than as a phi's incoming block: branches and merges.
  std::unordered_map<uint32_t, uint32_t> references;
  std::unordered_map<uint32_t, ir::BasicBlock*> block_of;
  for (ir::BasicBlock& block : function.blocks) {
    block_of[block.id()] = &block;
    references.emplace(block.id(), 0);
  }
  for (ir::BasicBlock& block : function.blocks) {
    for (const ir::Instruction& inst : block.instructions) {
      const bool phi = inst.opcode() == spv::Op::OpPhi;
      ir::ForEachIdOperand(inst, [&](uint32_t id, size_t operand) {
        if (phi && operand % 2 == 1) return;
        auto it = references.find(id);
        if (it != references.end()) ++it->second;
      });
    }
  }
  const uint32_t entry = function.blocks.front().id();
  std::unordered_map<uint32_t, uint32_t> replaced;  // merged phi -> its value
  uint32_t merged = 0;
  for (ir::BasicBlock& a : function.blocks) {
    for (;;) {
      ir::Instruction* branch = a.terminator();
      if (branch == nullptr || branch->opcode() != spv::Op::OpBranch) break;
      const uint32_t target = branch->word(0);
      if (target == a.id() || target == entry || references[target] != 1 ||
          decorated.count(target)) {
        break;
      }
      if (a.instructions.size() >= 2) {
        const spv::Op before = std::prev(a.instructions.end(), 2)->opcode();
        if (before == spv::Op::OpLoopMerge || before == spv::Op::OpSelectionMerge) break;
      }
      auto found = block_of.find(target);
      if (found == block_of.end()) break;
      ir::BasicBlock& b = *found->second;
      bool phi_ok = true;
      for (const ir::Instruction& inst : b.instructions) {
        if (inst.opcode() != spv::Op::OpPhi) break;
        phi_ok &= inst.num_operands() == 2 && inst.word(1) == a.id() &&
                  !decorated.count(inst.result_id());
      }
      if (!phi_ok || b.terminator() == nullptr) break;
      // B's phis become their values; B's code follows A's; B's successors' phis name A.
      a.instructions.pop_back();
      while (!b.instructions.empty()) {
        ir::Instruction& inst = b.instructions.front();
        if (inst.opcode() == spv::Op::OpPhi) {
          replaced[inst.result_id()] = inst.word(0);
          b.instructions.pop_front();
          continue;
        }
        a.instructions.splice(a.instructions.end(), b.instructions, b.instructions.begin());
      }
      ir::ForEachBranchTarget(*a.terminator(), [&](uint32_t label) {
        auto next = block_of.find(label);
        if (next == block_of.end()) return;
        for (ir::Instruction& inst : next->second->instructions) {
          if (inst.opcode() != spv::Op::OpPhi) break;
          for (size_t i = 1; i < inst.num_operands(); i += 2) {
            if (inst.word(i) == target) inst.SetWord(i, a.id());
          }
        }
      });
      block_of.erase(target);
      references.erase(target);
      ++merged;
    }
  }
  if (merged == 0) return 0;
  function.blocks.remove_if([&](const ir::BasicBlock& block) {
    return block_of.find(block.id()) == block_of.end() || block_of[block.id()] != &block;
  });
  auto resolve = [&](uint32_t id) {
    for (auto it = replaced.find(id); it != replaced.end(); it = replaced.find(id)) id = it->second;
    return id;
  };
  for (ir::BasicBlock& block : function.blocks) {
    for (ir::Instruction& inst : block.instructions) {
      ir::ForEachIdOperand(inst, [&](uint32_t id, size_t operand) {
        const uint32_t to = resolve(id);
        if (to != id) inst.SetWord(operand, to);
      });
    }
  }
  return merged;
}

}  // namespace xmx::interp
