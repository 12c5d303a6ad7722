// Semantics of the SPV_INTEL_2d_block_io instructions (SPEC-NOTES A.3-A.7, DECISIONS 4-6): which
// bytes of a 2D block in global memory end up in which invocation's private data, and back.
//
// A shape (the constant operands) is decoded once into a Block2dPayloadLayout, which precomputes
// the mapping as a row copy plan: for each row of each block, where its first element goes in the
// payload and the (two-level) stride of the following ones. One execution clips each memory row
// of the block against the surface and the allocation (one decision per row) and copies the
// surviving elements straight between memory and payload; a block wholly in bounds copies whole
// rows, merging elements that stay contiguous. Loads clear the payload first when some of its
// bytes receive no element (padding, out-of-bounds elements, slots no block row maps to).
//
// The payload is the private data of all invocations of the subgroup, lane-major (lane i holds
// bytes [i*P, (i+1)*P) with P = payload_bytes_per_lane()), each lane's bytes in the packed layout
// of A.5: all of block 0's data, then block 1's, and so on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "interp/block2d/block2d_transpose.hpp"
#include "xmx/device.hpp"

namespace xmx::interp {

// The five instructions, as the device tables name them (xmx/device.hpp; their instruction
// names: device::Block2dInstructionName).
using Block2dOp = ::xmx::device::Block2dOp;

// The constant operands of one instruction, plus the subgroup size it runs at.
struct Block2dShape {
  Block2dOp op = Block2dOp::kLoad;
  uint32_t element_size = 0;  // bytes: 1, 2, 4 or 8
  uint32_t block_width = 0;   // elements
  uint32_t block_height = 0;  // rows
  uint32_t block_count = 0;
  uint32_t subgroup_size = 0;
};

// The memory operands of one execution. `Byte` is `const uint8_t` for loads and prefetches and
// `uint8_t` for stores.
//
// Memory Width / Height / Pitch and the Coordinate components are the operand values read as
// signed integers of their own bit width and sign-extended (OpenCL passes them as `int`), so a
// negative value stays visible to CheckBlock2d. The allocation is assumed to start on a 64-byte
// boundary: base alignment is checked on base_offset.
template <typename Byte>
struct Block2dSurfaceOf {
  Byte* data = nullptr;          // first byte of the allocation the base pointer points into
  uint64_t allocation_size = 0;  // bytes
  uint64_t base_offset = 0;      // the base pointer's byte offset inside the allocation
  int64_t width = 0;             // Memory Width, bytes
  int64_t height = 0;            // Memory Height, rows
  int64_t pitch = 0;             // Memory Pitch, bytes
  int64_t x = 0;                 // Coordinate component 0, elements
  int64_t y = 0;                 // Coordinate component 1, rows

  // A store's surface is checked like a load's.
  operator Block2dSurfaceOf<const uint8_t>() const requires(!std::is_const_v<Byte>) {
    return {data, allocation_size, base_offset, width, height, pitch, x, y};
  }
};
using Block2dSurface = Block2dSurfaceOf<const uint8_t>;
using Block2dMutableSurface = Block2dSurfaceOf<uint8_t>;

// A validated shape with its precomputed mapping (A.5). Immutable, so one layout may serve
// several threads at once.
class Block2dPayloadLayout {
 public:
  // Checks what the rules say about the constant operands alone (Element Size 1/2/4/8, Block
  // Width a multiple of 4 / 2 for 1- / 2-byte elements, positive dimensions, a power-of-two
  // subgroup size, LoadTransform only on 1- and 2-byte elements) plus the interpreter's size
  // limits, and builds the mapping. On failure returns nullopt and, when `why_not` is given, a
  // message naming the operand ("Block Width 6 is not a multiple of 4 for 1-byte elements").
  // Widths (heights for LoadTranspose) that are not powers of two are accepted: A.5 pads them.
  static std::optional<Block2dPayloadLayout> Prepare(const Block2dShape& shape,
                                                     std::string* why_not);

  const Block2dShape& shape() const { return shape_; }
  // A load whose block is one transposition that fills every payload byte: a block wholly
  // inside its surface goes straight into the invocations' bytes (LoadBlock2dIntoLanes,
  // TransposeBlockIntoLanes). A store of such a shape goes straight out of them.
  bool is_covering_transposition() const { return lane_unit_ != 0 && payload_covered_; }
  // Bytes of private data each invocation reads or writes over all blocks; 0 for Prefetch.
  uint32_t payload_bytes_per_lane() const { return payload_bytes_per_lane_; }
  uint32_t payload_bytes() const { return payload_bytes_per_lane_ * shape_.subgroup_size; }

  // The block after the pre-processing of A.5 step 2 (padding, then VNNI folding or
  // transposition), per block: rows, units per row (RW, a power of two) and bytes per unit.
  uint32_t processed_rows() const { return processed_rows_; }
  uint32_t processed_row_units() const { return processed_row_units_; }
  uint32_t unit_bytes() const { return unit_bytes_; }

  // How consecutive elements of one block row spread over the payload: element (or merged run
  // of elements) v of the row goes to byte  (v >> run_shift) * run_stride + (v & run_mask) *
  // inner_stride  after the row's start. A.5 always has this form: an element stride within a
  // run of columns that one invocation (or one slot of consecutive invocations) takes, and a
  // stride between runs.
  struct ColumnSteps {
    uint32_t unit_bytes = 0;  // bytes moved per step: one element, or a merged contiguous run
    uint32_t run_shift = 31;  // 31 with run_mask 0x7fffffff: a single arithmetic progression
    uint32_t run_mask = 0x7fffffff;
    uint32_t inner_stride = 0;
    uint32_t run_stride = 0;
  };

 private:
  friend void LoadBlock2d(const Block2dPayloadLayout&, const Block2dSurface&, uint8_t*);
  friend bool LoadBlock2dIntoLanes(const Block2dPayloadLayout&, const Block2dSurface&, uint8_t*,
                                   size_t);
  friend void StoreBlock2d(const Block2dPayloadLayout&, const Block2dMutableSurface&,
                           const uint8_t*);
  friend void TransposeBlockIntoLanes(const Block2dPayloadLayout&, const uint8_t*, int64_t,
                                      uint8_t*, size_t);
  friend void TransposeBlockFromLanes(const Block2dPayloadLayout&, const uint8_t*, size_t, uint8_t*,
                                      int64_t);

  Block2dPayloadLayout() = default;
  bool BuildRowPlan();
  uint32_t TransposedUnit() const;

  Block2dShape shape_;
  uint32_t processed_rows_ = 0;
  uint32_t processed_row_units_ = 0;
  uint32_t unit_bytes_ = 0;
  uint32_t payload_bytes_per_lane_ = 0;

  // The row copy plan. row_start_[r * block_count + b]: payload byte (lane included) of element 0
  // of block b in block row r; the other elements follow element_steps_. Whole rows may use
  // row_steps_ instead, which merges runs that are contiguous in both memory and payload.
  std::vector<uint32_t> row_start_;
  ColumnSteps element_steps_;
  ColumnSteps row_steps_;
  // Nonzero when a whole block is one transposition of units of lane_unit_ bytes (1, 2, 4 or
  // 8): unit u of each block row (row_steps_, one progression of the lane stride) goes to
  // invocation u, and the block's rows to consecutive units of each invocation's bytes
  // (row_start_ growing by lane_unit_ per row). Plain loads give each invocation one column
  // (the unit is the element) or, when the block is wider than the subgroup, a few adjacent
  // columns (a 1-byte 32-wide block at 16 invocations: 2-byte units); VNNI transforms at one
  // column per invocation put four 1-byte or two 2-byte rows in each 32-bit word, which is
  // the same transposition of the memory rows.
  uint32_t lane_unit_ = 0;
  // For lane_unit_ != 0: the transposition of one block, memory rows to invocations (loads)
  // and back (stores), chosen for its dimensions once (block2d_transpose.hpp).
  TransposeRoutine load_transpose_ = nullptr;
  TransposeRoutine store_transpose_ = nullptr;
  // Every payload byte receives an element when the block is wholly in bounds (no padding, no
  // slot without a row), so a load need not clear the payload first.
  bool payload_covered_ = false;
};

// Undefined behaviour of one execution, for any of the five instructions (A.3 restrictions):
// base pointer 64-byte aligned, 64 <= Memory Width <= 2^24 and a multiple of 4 (1-/2-byte
// elements) or of Element Size, 0 < Memory Height <= 2^24, Memory Pitch >= Memory Width and a
// multiple of 16, Coordinate X a multiple of 4 (1-byte) / 2 (2-byte elements); and an in-bounds
// element (with respect to Memory Width / Height) lying outside the allocation, i.e. a surface
// that claims more memory than the buffer has. Returns the first violation as a message naming
// the operand and its value ("Memory Pitch 100 is not a multiple of 16"), or nullopt.
// The per-invocation private pointer's alignment is the caller's to check.
std::optional<std::string> CheckBlock2d(const Block2dPayloadLayout& layout,
                                        const Block2dSurface& surface);

// The plain execution, decided in 64-bit arithmetic without building a message: every check of
// CheckBlock2d passes and the whole block lies inside the surface and the allocation. Then sets
// *first_row_byte to the allocation byte offset of the block's first element (memory row r of
// the block starts Memory Pitch * r bytes after it). False means only "not shown plain": the
// caller takes the general path, which checks and clips exactly. 2D block instructions run at
// every K step of a GEMM; this keeps their fixed cost small.
bool PlainBlock2d(const Block2dPayloadLayout& layout, const Block2dSurface& surface,
                  uint64_t* first_row_byte);

// For a layout with is_covering_transposition() and a block that PlainBlock2d accepted: moves
// the block whose first memory row is at `first_row` (rows `pitch` bytes apart) into the
// invocations' bytes, invocation i's at lanes + i * lane_stride (lane_stride >=
// payload_bytes_per_lane()), as LoadBlock2dIntoLanes would; and back for a store.
void TransposeBlockIntoLanes(const Block2dPayloadLayout& layout, const uint8_t* first_row,
                             int64_t pitch, uint8_t* lanes, size_t lane_stride);
void TransposeBlockFromLanes(const Block2dPayloadLayout& layout, const uint8_t* lanes,
                             size_t lane_stride, uint8_t* first_row, int64_t pitch);

// Load, LoadTransform, LoadTranspose: fills `payload` (layout.payload_bytes() bytes). Elements
// out of bounds, padded elements and slots no block row maps to read as zero (DECISIONS 4), and
// so do elements outside the allocation (which CheckBlock2d reports). Prefetch: does nothing.
void LoadBlock2d(const Block2dPayloadLayout& layout, const Block2dSurface& surface,
                 uint8_t* payload);

// Load, LoadTransform, LoadTranspose straight into the invocations' private bytes: invocation
// i's payload goes to lanes + i * lane_stride (lane_stride >= payload_bytes_per_lane()), as
// LoadBlock2d followed by a copy of each invocation's bytes would put it. Only for the common
// case, a shape whose block is one transposition (no padding) wholly inside the surface and
// the allocation; returns false, having written nothing, for anything else (the caller then
// loads into a payload and copies).
bool LoadBlock2dIntoLanes(const Block2dPayloadLayout& layout, const Block2dSurface& surface,
                          uint8_t* lanes, size_t lane_stride);

// Store: writes the in-bounds elements of `payload` (layout.payload_bytes() bytes) to memory.
// Out-of-bounds and padded elements are dropped; nothing is ever written outside the allocation.
void StoreBlock2d(const Block2dPayloadLayout& layout, const Block2dMutableSurface& surface,
                  const uint8_t* payload);

}  // namespace xmx::interp
