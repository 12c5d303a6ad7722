// Whole-matrix moves between memory and the invocations' slices (exec_coop_memory.cpp's fast
// path). In Intel's mapping (coop_layout.hpp) an invocation holds, per column block, a `fields`
// wide unit of consecutive columns of each of its rows, the rows in order; the units of one row
// go to consecutive invocations. With the matrix row-major in memory, each unit is contiguous
// there too and a column block is a transposition of units: memory rows become the invocations'
// consecutive units (block2d_transpose.hpp moves tiles of them through vector registers instead
// of one element at a time). PackedINTEL B is the same transposition of the 32-bit VNNI groups,
// and a column-major matrix with one column per invocation (B, accumulators) is one contiguous
// run of memory per invocation and column block.
//
// The element moved to or from each slice position is exactly the one the per-element path
// (CoopMemoryData::parts) moves; what differs is only the order of the copies, which matters
// to a store whose elements overlap in memory (a Stride shorter than a row): CanStore says when
// they cannot.
#pragma once

#include <cstdint>
#include <optional>

#include "device/coop_layout.hpp"

namespace xmx::interp {

// The MemoryLayout operand of cooperative-matrix loads and stores.
enum class CoopMemoryLayout : uint8_t { kRowMajor = 0, kColumnMajor = 1, kPacked = 2 };

class CoopSliceMove {
 public:
  // The plan for matrices of `layout` held in memory as `memory`, or nullopt when that pair has
  // no whole-slice form (column-major A with several columns per unit or several row phases,
  // PackedINTEL with rows not a multiple of the VNNI factor): those move element by element.
  static std::optional<CoopSliceMove> Make(const device::CoopLayout& layout,
                                           CoopMemoryLayout memory);

  // `origin` is the host address of matrix element (0, 0); element (row, column) lies at origin
  // + offset * (component bytes) with the offset of the memory layout for `stride` (components,
  // possibly negative). `slot` is the subgroup's register slot, lane-major. The caller has checked
  // that every element lies in one allocation, which also bounds the stride: |stride| times
  // the rows (row-major) or columns (column-major) it spans is below 2^56.
  void Load(const uint8_t* origin, int64_t stride, uint8_t* slot) const;
  void Store(uint8_t* origin, int64_t stride, const uint8_t* slot) const;
  // Whether no two elements share a memory location at `stride`, so that the order of a store's
  // copies cannot change what memory holds.
  bool CanStore(int64_t stride) const;

 private:
  CoopSliceMove() = default;
  template <bool kLoad>
  void Move(uint8_t* memory, int64_t stride, uint8_t* slot) const;

  device::CoopLayout layout_;
  CoopMemoryLayout memory_ = CoopMemoryLayout::kRowMajor;
  uint32_t unit_bytes_ = 0;     // bytes of one unit, the element of the transposition
  uint32_t unit_rows_ = 0;      // units per invocation and column block (transposed rows)
  uint32_t rows_per_unit_ = 1;  // matrix rows one unit spans (PackedINTEL: the VNNI factor)
  uint32_t column_blocks_ = 0;
};

}  // namespace xmx::interp
