#include "interp/coop/coop_slice_move.hpp"

#include <cstddef>
#include <cstring>

#include "interp/block2d/block2d_transpose.hpp"

namespace xmx::interp {

std::optional<CoopSliceMove> CoopSliceMove::Make(const device::CoopLayout& layout,
                                                 CoopMemoryLayout memory) {
  CoopSliceMove m;
  m.layout_ = layout;
  m.memory_ = memory;
  const uint32_t eb = layout.element_bytes();
  const uint32_t rows_per_block = layout.rows() / layout.row_phases();
  m.column_blocks_ = layout.columns() / layout.block_columns();
  switch (memory) {
    case CoopMemoryLayout::kRowMajor:
      m.unit_bytes_ = layout.fields() * eb;
      m.unit_rows_ = rows_per_block;
      break;
    case CoopMemoryLayout::kPacked: {
      // Only B is packed; its rows pack in VNNI groups of 4 / eb, which must not straddle the
      // slice's column blocks.
      const uint32_t vnni = 4 / eb;
      if (layout.fields() != 1 || layout.row_phases() != 1 || rows_per_block % vnni != 0) {
        return std::nullopt;
      }
      m.unit_bytes_ = 4;
      m.unit_rows_ = rows_per_block / vnni;
      m.rows_per_unit_ = vnni;
      break;
    }
    case CoopMemoryLayout::kColumnMajor:
      if (layout.fields() != 1 || layout.row_phases() != 1) return std::nullopt;
      m.unit_bytes_ = eb;
      m.unit_rows_ = rows_per_block;
      break;
  }
  if (m.unit_bytes_ != 1 && m.unit_bytes_ != 2 && m.unit_bytes_ != 4 && m.unit_bytes_ != 8) {
    return std::nullopt;
  }
  return m;
}

bool CoopSliceMove::CanStore(int64_t stride) const {
  const uint64_t magnitude = stride < 0 ? 0 - static_cast<uint64_t>(stride) : stride;
  switch (memory_) {
    case CoopMemoryLayout::kRowMajor:  // row r at r * Stride, Columns wide
      return layout_.rows() == 1 || magnitude >= layout_.columns();
    case CoopMemoryLayout::kColumnMajor:
      return layout_.columns() == 1 || magnitude >= layout_.rows();
    case CoopMemoryLayout::kPacked:  // packed row at (r / VF) * Stride, Columns * VF wide
      return layout_.rows() <= rows_per_unit_ ||
             magnitude >= uint64_t{layout_.columns()} * rows_per_unit_;
  }
  return false;
}

template <bool kLoad>
void CoopSliceMove::Move(uint8_t* memory, int64_t stride, uint8_t* slot) const {
  const uint32_t eb = layout_.element_bytes();
  const ptrdiff_t lane_bytes = ptrdiff_t{layout_.length()} * eb;
  const uint32_t lanes_per_row = layout_.lanes_per_row();
  const uint32_t phases = layout_.row_phases();
  // Wrapping: a Stride that never steps (one row) may be anything; one that does is bounded.
  const ptrdiff_t stride_bytes = static_cast<ptrdiff_t>(static_cast<uint64_t>(stride) * eb);
  // Bytes from a column block's first unit to the next column block's, in the slice and in
  // memory; what one step along the slice's units (one transposed row) moves in memory.
  const ptrdiff_t slot_block = ptrdiff_t{unit_rows_} * unit_bytes_;
  if (memory_ == CoopMemoryLayout::kColumnMajor) {
    // One column per invocation: its rows are one run of memory.
    for (uint32_t cb = 0; cb < column_blocks_; ++cb) {
      for (uint32_t j = 0; j < lanes_per_row; ++j) {
        uint8_t* mem = memory + ptrdiff_t{cb * layout_.block_columns() + j} * stride_bytes;
        uint8_t* lane = slot + j * lane_bytes + cb * slot_block;
        if constexpr (kLoad) {
          std::memcpy(lane, mem, slot_block);
        } else {
          std::memcpy(mem, lane, slot_block);
        }
      }
    }
    return;
  }
  // Row-major: a transposed row is `phases` matrix rows; PackedINTEL: one packed row. A
  // single transposed row never steps (the stride may then be anything).
  const ptrdiff_t row_step = unit_rows_ > 1 ? stride_bytes * phases : 0;
  const ptrdiff_t memory_block = ptrdiff_t{layout_.block_columns()} * rows_per_unit_ * eb;
  for (uint32_t p = 0; p < phases; ++p) {
    for (uint32_t cb = 0; cb < column_blocks_; ++cb) {
      uint8_t* mem = memory + (p == 0 ? 0 : p * stride_bytes) + cb * memory_block;
      uint8_t* lanes = slot + p * lanes_per_row * lane_bytes + cb * slot_block;
      if constexpr (kLoad) {
        TransposeElements(mem, row_step, lanes, lane_bytes, unit_rows_, lanes_per_row, unit_bytes_);
      } else {
        TransposeElements(lanes, lane_bytes, mem, row_step, lanes_per_row, unit_rows_, unit_bytes_);
      }
    }
  }
}

void CoopSliceMove::Load(const uint8_t* origin, int64_t stride, uint8_t* slot) const {
  // Move only reads through `memory` when loading.
  Move<true>(const_cast<uint8_t*>(origin), stride, slot);
}

void CoopSliceMove::Store(uint8_t* origin, int64_t stride, const uint8_t* slot) const {
  // Move only reads through `slot` when storing.
  Move<false>(origin, stride, const_cast<uint8_t*>(slot));
}

}  // namespace xmx::interp
