// Pointer arithmetic that a loop repeats with the same result: compilers cast pointers to
// private arrays and step into them at every use ((short8 *)&a[i] with a constant i, inside the
// K loop of a GEMM), and each such bitcast or access chain moved 8 bytes per lane on every
// iteration: about a tenth of a tiled GEMM's time.
//
// A value is invariant when it is written once per function activation and never again: a
// function parameter, the result of an entry-block instruction (the entry block runs once per
// activation: nothing may branch to it), an id defined outside the function (constants, module
// variables), or the result of a pure instruction whose id operands are all invariant. The pure
// instructions are those that compute a pointer from pointers and integers and can neither fail
// nor report: OpBitcast, the four access chains, OpPtrCastToGeneric and OpGenericCastToPtr.
//
// Such an instruction is hoisted: it runs once at the end of the entry block instead of where it
// stands. That is sound because it has no effects and its operands are final by then; it runs
// for every lane of the activation, a superset of those that would have reached it. A copy among
// them (a bitcast or generic cast) needs no instruction at all when its result shares its
// operand's register slot, which is safe for the same reason: the operand's slot holds the same
// bytes for the rest of the activation.
#pragma once

#include <cstdint>
#include <unordered_set>
#include <utility>
#include <vector>

#include "xmx/module.hpp"

namespace xmx::interp {

struct InvariantCode {
  // Pure instructions outside the entry block with invariant operands, in an order in which each
  // comes after the hoisted instructions it reads.
  std::vector<const ir::Instruction*> hoisted;
  // (result, operand) of the hoisted copies, before the sizes are checked (the loader shares a
  // slot only between values of equal register size).
  std::vector<std::pair<uint32_t, uint32_t>> copies;
};

// The invariant code of `function`. `excluded` ids (values sharing a slot with a phi: their slot
// is also written on a loop edge) are never treated as invariant. A function whose entry block
// is a branch target (never in a validated module) has none.
InvariantCode FindInvariantCode(const ir::Function& function,
                                const std::unordered_set<uint32_t>& excluded);

}  // namespace xmx::interp
