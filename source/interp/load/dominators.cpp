#include "interp/load/dominators.hpp"

#include <algorithm>
#include <utility>

namespace xmx::interp {

// Cooper, Harvey and Kennedy's iterative algorithm ("A Simple, Fast Dominance Algorithm") over
// a reverse postorder from the entry, then the frontiers as in their paper: a join block b is in
// the frontier of every block on the dominator-tree path from each predecessor up to idom(b).
DominatorTree ComputeDominators(const std::vector<std::vector<uint32_t>>& successors) {
  const uint32_t n = static_cast<uint32_t>(successors.size());
  DominatorTree tree;
  tree.idom.assign(n, kNoBlock);
  tree.children.resize(n);
  tree.frontier.resize(n);
  tree.reachable.assign(n, 0);
  if (n == 0) return tree;
  // Postorder from the entry, iteratively (a kernel may have thousands of blocks).
  std::vector<uint32_t> postorder;
  std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
  tree.reachable[0] = 1;
  while (!stack.empty()) {
    auto& [block, next] = stack.back();
    if (next < successors[block].size()) {
      const uint32_t s = successors[block][next++];
      if (s < n && !tree.reachable[s]) {
        tree.reachable[s] = 1;
        stack.emplace_back(s, 0);
      }
    } else {
      postorder.push_back(block);
      stack.pop_back();
    }
  }
  std::vector<uint32_t> position(n, 0);
  for (uint32_t i = 0; i < postorder.size(); ++i) position[postorder[i]] = i;
  std::vector<std::vector<uint32_t>> predecessors(n);
  for (uint32_t b = 0; b < n; ++b) {
    if (!tree.reachable[b]) continue;
    for (uint32_t s : successors[b]) {
      if (s < n) predecessors[s].push_back(b);
    }
  }
  std::vector<uint32_t> idom(n, kNoBlock);
  idom[0] = 0;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (position[a] < position[b]) a = idom[a];
      while (position[b] < position[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = postorder.rbegin(); it != postorder.rend(); ++it) {
      const uint32_t b = *it;
      if (b == 0) continue;
      uint32_t new_idom = kNoBlock;
      for (uint32_t p : predecessors[b]) {
        if (idom[p] == kNoBlock) continue;
        new_idom = new_idom == kNoBlock ? p : intersect(p, new_idom);
      }
      if (new_idom != kNoBlock && idom[b] != new_idom) {
        idom[b] = new_idom;
        changed = true;
      }
    }
  }
  for (uint32_t b = 1; b < n; ++b) {
    if (!tree.reachable[b]) continue;
    tree.idom[b] = idom[b];
    tree.children[idom[b]].push_back(b);
  }
  for (uint32_t b = 0; b < n; ++b) {
    if (!tree.reachable[b]) continue;
    std::vector<uint32_t> distinct = predecessors[b];
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() < 2) continue;
    for (uint32_t p : distinct) {
      for (uint32_t runner = p; runner != idom[b]; runner = idom[runner]) {
        std::vector<uint32_t>& f = tree.frontier[runner];
        if (f.empty() || f.back() != b) f.push_back(b);
        if (runner == 0) break;  // the entry dominates everything: idom[b] was passed
      }
    }
  }
  return tree;
}

std::vector<uint32_t> DominatorTree::Preorder() const {
  std::vector<uint32_t> order;
  if (idom.empty()) return order;
  std::vector<uint32_t> stack{0};
  while (!stack.empty()) {
    const uint32_t b = stack.back();
    stack.pop_back();
    order.push_back(b);
    for (auto it = children[b].rbegin(); it != children[b].rend(); ++it) stack.push_back(*it);
  }
  return order;
}

}  // namespace xmx::interp
