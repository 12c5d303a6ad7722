// --fuse-2d-block-loads[=DEVICE]: 2D block loads and prefetches of one surface whose blocks lie
// side by side in one row of blocks become one instruction with Block Count 2 or 4, where the
// device's 2D block table has that row.
//
// Two instructions fuse when they are in the same basic block, have the same opcode, Element
// Size, Block Width, Block Height and Block Count, the same base pointer, Memory Width, Height and
// Pitch, the same Coordinate Y, and Coordinate X values that differ by exactly Block Width x
// Block Count (so the fused instruction's block b is exactly what member b loaded: SPEC-NOTES
// A.5 step 4, DECISIONS 5), and nothing between the first and the last of them may write memory
// other than the invocation's private variables or synchronise (a store to global or local
// memory, an atomic, a barrier, a call). Coordinates are compared symbolically: a component is a
// value plus a constant offset, seen through OpIAdd / OpISub of constants, an OpBitwiseOr whose
// constant only sets bits the value has clear, and the composite instructions that build the
// vector.
//
// The fused load takes the place of the first member in program order and writes all blocks to a
// new private variable; each member becomes, where it stood, an OpCopyMemorySized of its block's
// bytes from that variable to its own destination, so every private byte changes at the same
// point as before. An invocation's payload of a Block Count n load is the payloads of the n
// single blocks one after another (A.5 step 4), so block b's bytes are [b x P, (b + 1) x P) with
// P the payload of one member, which depends on the subgroup size: loads are fused only in
// functions whose callers all fix it with an OpExecutionMode SubgroupSize (prefetches, which
// have no payload, anywhere).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/def_use.hpp"
#include "ir/type_table.hpp"
#include "opt/pass.hpp"

namespace xmx::opt {

// The pass itself: Fuse2dBlockLoads in passes.hpp.
namespace fuse_detail {

// A 32- or 64-bit integer seen as symbol + offset. symbol 0 is a constant (the value is
// `offset`); otherwise the symbol is an id, or component `component` of a vector id.
struct AffineValue {
  static constexpr uint32_t kWhole = ~0u;
  uint32_t symbol = 0;
  uint32_t component = kWhole;
  int64_t offset = 0;

  bool SameSymbol(const AffineValue& other) const {
    return symbol == other.symbol && component == other.component;
  }
  bool operator==(const AffineValue&) const = default;
};

// Symbolic values of integers and of the components of integer vectors, read from the
// instructions that define them.
class AffineValues {
 public:
  AffineValues(const ir::DefUse& def_use, const ir::TypeTable& types)
      : def_use_(def_use), types_(types) {}

  AffineValue Scalar(uint32_t id) const { return ScalarAt(id, 0); }
  AffineValue Component(uint32_t vector_id, uint32_t component) const {
    return ComponentAt(vector_id, component, 0);
  }
  // How many low bits of the integer `id` are known to be zero (at most 64).
  uint32_t TrailingZeros(uint32_t id) const { return TrailingZerosAt(id, 0); }

 private:
  AffineValue ScalarAt(uint32_t id, int depth) const;
  AffineValue ComponentAt(uint32_t vector_id, uint32_t component, int depth) const;
  uint32_t TrailingZerosAt(uint32_t id, int depth) const;
  std::optional<int64_t> ConstantInt(uint32_t id) const;

  const ir::DefUse& def_use_;
  const ir::TypeTable& types_;
};

// What an instruction between two fusion candidates may do to memory.
enum class MemoryEffect {
  kNone,            // reads at most, or writes only private (Function) memory
  kMayWriteShared,  // may write memory a 2D block load reads, or synchronise: fusion stops here
};
MemoryEffect ClassifyMemoryEffect(const ir::Instruction& inst, const ir::DefUse& def_use,
                                  const ir::TypeTable& types);

// Bytes of private data one invocation receives from a 2D block load (all blocks), SPEC-NOTES
// A.5: the block after padding and transform / transpose, spread over the subgroup.
struct Block2dPayloadShape {
  device::Block2dOp op = device::Block2dOp::kLoad;
  uint32_t element_size = 0, block_width = 0, block_height = 0, block_count = 0;
};
uint64_t PayloadBytesPerInvocation(const Block2dPayloadShape& shape, uint32_t subgroup_size);

}  // namespace fuse_detail
}  // namespace xmx::opt
