// Phi coalescing: a loop-carried value and the phi that carries it may share one register slot,
// so that taking the back edge copies nothing. A kernel's accumulators (C of the matrix
// instruction, 512 bytes per subgroup for float8 at SIMD16) are otherwise copied on every
// iteration.
//
// Only a narrow, provably safe shape is coalesced. For P = OpPhi in block H with the incoming
// pair (V, L):
//   1. V is the result of a non-phi instruction of block L;
//   2. every use of P is a non-phi instruction of block L that comes before V's definition, or
//      V's definition itself when that instruction reads all its operands before writing its
//      result (the matrix instruction; see InPlaceSafe in the .cpp);
//   3. every use of V is a non-phi instruction of block L after its definition, or a phi of a
//      successor of L taking V on its edge from L;
//   4. neither P nor V is already paired.
// Then P is dead from V's definition on, V is dead outside L and the edges leaving it, and the
// copy P := V on the back edge becomes a copy of a slot onto itself, which is dropped. The
// reasoning is per work-item, so it holds in SIMT execution too: lanes that leave the loop keep
// their slot untouched while the others go on (every handler writes active lanes only).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "xmx/module.hpp"

namespace xmx::interp {

// The (phi, value) pairs of `function` that may share a slot.
std::vector<std::pair<uint32_t, uint32_t>> CoalescablePhis(const ir::Function& function);

}  // namespace xmx::interp
