#include "interp/load/post_dominators.hpp"

#include <algorithm>

namespace xmx::interp {

// Cooper, Harvey and Kennedy's iterative algorithm ("A Simple, Fast Dominance Algorithm") run on
// the reversed graph, rooted at a virtual exit node.
std::vector<uint32_t> ImmediatePostDominators(
    const std::vector<std::vector<uint32_t>>& successors) {
  const uint32_t n = static_cast<uint32_t>(successors.size());
  const uint32_t exit = n;  // the virtual exit node
  // Predecessors in the reversed graph = successors in the original one; the reversed graph's
  // edges run from a block's successors to the block.
  std::vector<std::vector<uint32_t>> reverse_succ(n + 1);  // reversed-graph successors
  for (uint32_t b = 0; b < n; ++b) {
    for (uint32_t s : successors[b]) {
      const uint32_t target = s == kExitBlock ? exit : s;
      if (target <= n) reverse_succ[target].push_back(b);
    }
  }
  // Postorder of the reversed graph from the exit, iteratively.
  std::vector<uint32_t> order;
  std::vector<uint8_t> seen(n + 1, 0);
  std::vector<std::pair<uint32_t, size_t>> stack{{exit, 0}};
  seen[exit] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < reverse_succ[node].size()) {
      const uint32_t child = reverse_succ[node][next++];
      if (!seen[child]) {
        seen[child] = 1;
        stack.emplace_back(child, 0);
      }
    } else {
      order.push_back(node);
      stack.pop_back();
    }
  }
  std::vector<uint32_t> position(n + 1, UINT32_MAX);
  for (uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  // Predecessors in the reversed graph = original successors.
  std::vector<uint32_t> idom(n + 1, UINT32_MAX);
  idom[exit] = exit;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (position[a] < position[b]) a = idom[a];
      while (position[b] < position[a]) b = idom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const uint32_t b = *it;
      if (b == exit) continue;
      uint32_t new_idom = UINT32_MAX;
      for (uint32_t s : successors[b]) {
        const uint32_t p = s == kExitBlock ? exit : s;
        if (p > n || idom[p] == UINT32_MAX) continue;
        new_idom = new_idom == UINT32_MAX ? p : intersect(p, new_idom);
      }
      if (new_idom != UINT32_MAX && idom[b] != new_idom) {
        idom[b] = new_idom;
        changed = true;
      }
    }
  }
  std::vector<uint32_t> result(n, kExitBlock);
  for (uint32_t b = 0; b < n; ++b) {
    if (idom[b] != UINT32_MAX && idom[b] != exit) result[b] = idom[b];
  }
  return result;
}

}  // namespace xmx::interp
