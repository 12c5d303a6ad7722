// Bitcasts that need no instruction: a bitcast result may share its operand's register slot when
// the operand is written once per function activation and never again. Compilers emit such
// bitcasts inside loops, mostly of pointers to private variables (`(short8 *)a` for every use of
// an array), and copying them costs a register move per lane on every iteration.
//
// An operand qualifies when it is a function parameter or the result of an entry-block
// instruction (the entry block runs once per activation: nothing may branch to it), or a
// bitcast of such an operand (whether or not it shares a slot: each run writes the same bytes). Its
// slot then holds the same bytes from its definition to the end of the activation, in every lane
// that defined it, so the result can read them in place. Any lane that reaches the bitcast has
// passed the operand's definition (it dominates the bitcast), so the lanes that use the result are
// among those that wrote the slot.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "xmx/module.hpp"

namespace xmx::interp {

// The (result, operand) pairs of `function`'s OpBitcast instructions that may share a slot,
// before the sizes are checked (the loader keeps only equal-sized, non-Physical32 pairs). A pair
// whose operand is itself a shared result names that result; the loader resolves chains in
// order.
std::vector<std::pair<uint32_t, uint32_t>> InvariantBitcasts(const ir::Function& function);

}  // namespace xmx::interp
