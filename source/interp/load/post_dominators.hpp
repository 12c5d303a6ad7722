// Immediate post-dominators of a function's blocks: where lanes that diverged at a branch meet
// again. Computed from the control-flow graph only, so the order of blocks in the module does
// not matter (llvm-spirv-15 -O2 places blocks before their dominators).
#pragma once

#include <cstdint>
#include <vector>

namespace xmx::interp {

inline constexpr uint32_t kExitBlock = UINT32_MAX;

// `successors[b]` lists the blocks b may branch to; a block that returns (or ends the
// invocation) lists kExitBlock. Returns, for each block, its immediate post-dominator, or
// kExitBlock when only the function's exit post-dominates it (also for blocks from which the
// exit cannot be reached, such as infinite loops).
std::vector<uint32_t> ImmediatePostDominators(const std::vector<std::vector<uint32_t>>& successors);

}  // namespace xmx::interp
