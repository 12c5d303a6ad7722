// Full unrolling of loops with a constant trip count, at load time (issue 13). Code built at -O0
// keeps the small loops of a tiled kernel (`for (i = 0; i < 4; ++i) for (j = 0; j < 2; ++j)
// acc[i][j] = mad(...)`) as loops: every matrix instruction then costs a compare, a branch, the
// phi copies and an increment of each counter, resizes of the counters to 64 bits and access
// chains into private arrays with an index known only at run time, where the -O2 build of the
// same source runs the eight matrix instructions straight, on constant addresses. Once the
// variables are promoted (variable_promotion.hpp) the counters are SSA values; a loop whose
// exit test depends only on constants is then replaced by one copy of its body per iteration,
// with the counter a constant in each copy and the arithmetic on it folded
// (constant_folding.hpp), so the access chains get constant indices and the loader resolves them
// once (invariant_code.hpp, Loader::RecordPrivateAddress).
//
// Nothing a lane computes and no report changes: each copy runs exactly the instructions one
// iteration ran, in the same order and with the same lanes (the exit test is the same for every
// lane, so the loop never diverged), and each cloned instruction keeps its place in the binary
// (source_index), so a report names the instruction it named before. A loop is unrolled only when
//  - it is a natural loop with one back edge, entered from one block outside it, and left only
//    from its header (no other exit, return or kill inside);
//  - the header's conditional branch decides, from values that fold to constants, to stay for
//    at most kMaxUnrolledTrips iterations, and the copies stay within an instruction budget;
//  - it contains no barrier, group operation or function call (a barrier's identity is what the
//    scheduler compares across subgroups), and no loop of its own (inner loops go first);
//  - no value or label of its body is referenced outside it, and no decoration group names one.
// Only the counts of dispatched instructions (`--stats`, `--max-instructions`) change, as with
// promotion.
//
// After unrolling, blocks whose only predecessor ends in an unconditional branch to them are
// merged into it (the copies are straight-line code; -O0 code has many such blocks, e.g. a loop's
// exit block that only branches on), which removes a branch dispatch each: a block reached by
// one unconditional branch starts no reconvergence (the branch is never divergent and such a
// block is never a divergent branch's immediate post-dominator: its predecessor comes first).
#pragma once

#include <cstdint>

#include "xmx/module.hpp"

namespace xmx::interp {

inline constexpr uint32_t kMaxUnrolledTrips = 16;
// Instructions one unrolled loop may grow to, and all unrolling may add to a module.
inline constexpr uint32_t kMaxUnrolledLoopInstructions = 2048;
inline constexpr uint32_t kMaxUnrolledModuleInstructions = 32768;

struct UnrollSummary {
  uint32_t loops = 0;          // loops unrolled
  uint32_t iterations = 0;     // body copies made
  uint32_t folded = 0;         // cloned instructions folded to constants
  uint32_t merged_blocks = 0;  // blocks merged into their predecessor
};

// Whether some function of `module` has a branch to a block at or before the branch's own (every
// loop has one): a quick scan that spares modules without loops.
bool MayUnrollLoops(const ir::Module& module);

// Unrolls the loops of `module` that qualify (above), then merges straight-line blocks, in place.
// Returns whether the module changed.
bool UnrollConstantTripLoops(ir::Module& module, UnrollSummary* summary = nullptr);

}  // namespace xmx::interp
