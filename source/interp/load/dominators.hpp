// Dominators of a function's control-flow graph, from its entry block: what the promotion of
// private variables to registers (variable_promotion.hpp) needs to place phis (dominance
// frontiers) and to rename values in an order where every definition comes before its uses (a
// preorder of the dominator tree). Blocks are numbers 0..n-1, the entry is block 0.
#pragma once

#include <cstdint>
#include <vector>

namespace xmx::interp {

inline constexpr uint32_t kNoBlock = UINT32_MAX;

struct DominatorTree {
  // Immediate dominator of each block: kNoBlock for the entry and for blocks the entry cannot
  // reach (which have no dominators and take part in nothing below).
  std::vector<uint32_t> idom;
  std::vector<std::vector<uint32_t>> children;  // the tree: blocks each block immediately dominates
  std::vector<std::vector<uint32_t>> frontier;  // dominance frontier of each reachable block
  std::vector<uint8_t> reachable;               // from the entry

  // Reachable blocks, each after its immediate dominator (a preorder of the tree).
  std::vector<uint32_t> Preorder() const;
};

// `successors[b]` lists the blocks b may branch to (a block twice when it is named twice).
DominatorTree ComputeDominators(const std::vector<std::vector<uint32_t>>& successors);

}  // namespace xmx::interp
