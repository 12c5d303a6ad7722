#include "interp/load/phi_coalescing.hpp"

#include <unordered_map>
#include <unordered_set>

#include "ir/id_operands.hpp"

namespace xmx::interp {
namespace {

// Where an instruction is: its block and its position in the block.
struct Place {
  uint32_t block = 0;
  uint32_t index = 0;
  const ir::Instruction* inst = nullptr;
};

// Instructions whose handler reads every operand before it writes its result, so the result
// slot may be an operand's slot.
bool InPlaceSafe(const ir::Instruction& inst) {
  return inst.opcode() == spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL;
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> CoalescablePhis(const ir::Function& function) {
  std::unordered_map<uint32_t, Place> defs;
  // Uses of each id: the using instruction's place, and for a phi operand the edge's source.
  struct Use {
    Place at;
    uint32_t phi_edge_from = 0;  // nonzero for a phi operand
  };
  std::unordered_map<uint32_t, std::vector<Use>> uses;
  for (const ir::BasicBlock& block : function.blocks) {
    uint32_t index = 0;
    for (const ir::Instruction& inst : block.instructions) {
      const Place here{block.id(), index++, &inst};
      if (inst.has_result_id()) defs[inst.result_id()] = here;
      const bool phi = inst.opcode() == spv::Op::OpPhi;
      ir::ForEachIdOperand(inst, [&](uint32_t id, size_t i) {
        if (phi && i % 2 == 1) return;  // the parent block label
        uses[id].push_back({here, phi ? inst.word(i + 1) : 0});
      });
    }
  }
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::unordered_set<uint32_t> paired;
  for (const ir::BasicBlock& block : function.blocks) {
    for (const ir::Instruction& phi : block.instructions) {
      if (phi.opcode() != spv::Op::OpPhi) break;
      const uint32_t p = phi.result_id();
      for (size_t i = 0; i + 1 < phi.num_operands(); i += 2) {
        const uint32_t v = phi.word(i), latch = phi.word(i + 1);
        auto def = defs.find(v);
        if (def == defs.end() || def->second.block != latch ||
            def->second.inst->opcode() == spv::Op::OpPhi || paired.count(p) || paired.count(v)) {
          continue;
        }
        const Place& v_def = def->second;
        bool ok = true;
        for (const Use& u : uses[p]) {  // rule 2
          const bool before =
              u.at.block == latch && u.phi_edge_from == 0 && u.at.index < v_def.index;
          const bool in_place = u.at.inst == v_def.inst && InPlaceSafe(*v_def.inst);
          ok &= before || in_place;
        }
        for (const Use& u : uses[v]) {  // rule 3
          const bool after =
              u.at.block == latch && u.phi_edge_from == 0 && u.at.index > v_def.index;
          ok &= after || u.phi_edge_from == latch;
        }
        if (!ok) continue;
        pairs.emplace_back(p, v);
        paired.insert(p);
        paired.insert(v);
        break;
      }
    }
  }
  return pairs;
}

}  // namespace xmx::interp
