// Merging of straight-line blocks at load time (loop_unrolling.hpp says why it is safe): a block
// whose only way in is an unconditional branch from one other block becomes the end of that
// block, which saves the branch's dispatch each time it runs.
#pragma once

#include <cstdint>
#include <unordered_set>

#include "xmx/module.hpp"

namespace xmx::interp {

// Merges, in `function`, each block B into its predecessor A when A ends in `OpBranch B`, no
// other branch, merge instruction or decoration names B, A has no merge instruction, and B is
// not the entry. B's phis (one incoming value each) are replaced by their value, and the phis of
// B's successors name A instead. `decorated`: ids with a decoration (a decorated phi keeps its
// block). Returns the number of blocks merged.
uint32_t MergeStraightLineBlocks(ir::Function& function,
                                 const std::unordered_set<uint32_t>& decorated);

}  // namespace xmx::interp
