// Execution of the 2D block instructions: the undefined-behaviour check, and loads and stores
// that follow the row copy plan of a Block2dPayloadLayout.
#include "interp/block2d/block2d.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <type_traits>

#include "interp/block2d/block2d_transpose.hpp"

namespace xmx::interp {
namespace {

// Wide enough for every product of the 64-bit operands (row * pitch, column * element size) and
// their sums, so no address computation can wrap, whatever the (possibly lying) surface says.
using Wide = __int128;

std::string Num(Wide value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  std::string digits;
  for (; value != 0; value /= 10) {
    const int digit = static_cast<int>(value % 10);
    digits.push_back(static_cast<char>('0' + (digit < 0 ? -digit : digit)));
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

Wide FloorDivide(Wide a, Wide b) {  // b > 0
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// Columns [first, end) of one memory row of the block (all blocks side by side, in elements)
// that are in bounds and inside the allocation, and the allocation byte offset of `first`.
struct RowWindow {
  uint32_t first = 0;
  uint32_t end = 0;
  uint64_t first_byte = 0;
};

// Where the block's rows fall in memory for one execution.
class BlockPlacement {
 public:
  BlockPlacement(const Block2dShape& shape, uint64_t allocation_size, uint64_t base_offset,
                 int64_t width, int64_t height, int64_t pitch, int64_t x, int64_t y)
      : e_(shape.element_size),
        e_shift_(std::countr_zero(shape.element_size)),
        rows_(shape.block_height),
        row_elements_(shape.block_count * shape.block_width),
        allocation_size_(allocation_size),
        width_elements_(width > 0 ? width >> e_shift_ : 0),
        height_(height),
        pitch_(pitch),
        x_(x),
        y_(y),
        row0_byte_(Wide{base_offset} + Wide{y} * pitch + Wide{x} * shape.element_size) {
    wholly_inside_ = ComputeWhollyInside();
  }

  // The whole block is in bounds and inside the allocation: row r is one copy of row_bytes()
  // bytes at RowByte(r).
  bool WhollyInside() const { return wholly_inside_; }
  // Only when WhollyInside(): then every row start lies inside the allocation.
  uint64_t RowByte(uint32_t r) const {
    return static_cast<uint64_t>(static_cast<int64_t>(row0_byte_) + int64_t{r} * pitch_);
  }
  int64_t pitch() const { return pitch_; }
  size_t row_bytes() const { return size_t{row_elements_} * e_; }

  RowWindow Row(uint32_t r) const {
    const Wide row = Wide{y_} + r;
    if (row < 0 || row >= height_) return {};
    Wide first = std::max<Wide>(0, -Wide{x_});
    Wide end = std::min<Wide>(row_elements_, Wide{width_elements_} - x_);
    // Element c occupies bytes [start + c*e, start + (c+1)*e) of the allocation.
    const Wide start = row0_byte_ + Wide{r} * pitch_;
    if (start < 0) first = std::max<Wide>(first, (-start + e_ - 1) >> e_shift_);
    const Wide room = Wide{allocation_size_} - start;
    end = std::min<Wide>(end, room > 0 ? room >> e_shift_ : 0);
    if (first >= end) return {};
    return {static_cast<uint32_t>(first), static_cast<uint32_t>(end),
            static_cast<uint64_t>(start + first * e_)};
  }

 private:
  // Element Size and its log2: divisions by it are shifts (a 64- or 128-bit division would cost
  // more than copying a small block).
  uint32_t e_;
  int e_shift_;
  uint32_t rows_;
  uint32_t row_elements_;
  uint64_t allocation_size_;
  int64_t width_elements_;
  int64_t height_;
  int64_t pitch_;
  int64_t x_;
  int64_t y_;
  Wide row0_byte_;  // allocation byte offset of the block's first element
  bool wholly_inside_;

  bool ComputeWhollyInside() const {
    if (x_ < 0 || y_ < 0 || x_ + Wide{row_elements_} > width_elements_ ||
        y_ + Wide{rows_} > height_) {
      return false;
    }
    const Wide last_row_byte = row0_byte_ + Wide{rows_ - 1} * pitch_;
    const Wide lowest = std::min(row0_byte_, last_row_byte);
    const Wide highest = std::max(row0_byte_, last_row_byte);
    return lowest >= 0 && highest + row_bytes() <= Wide{allocation_size_};
  }
};

template <typename Byte>
BlockPlacement PlacementOf(const Block2dShape& shape, const Block2dSurfaceOf<Byte>& surface) {
  return BlockPlacement(shape, surface.allocation_size, surface.base_offset, surface.width,
                        surface.height, surface.pitch, surface.x, surface.y);
}

using ColumnSteps = Block2dPayloadLayout::ColumnSteps;

// What the copy loops need of a layout's row copy plan.
struct RowPlan {
  const uint32_t* row_start;  // [row * count + block]
  ColumnSteps steps;
  uint32_t rows, count, width, element_size;
  uint32_t lane_unit;  // Block2dPayloadLayout::lane_unit_
};

RowPlan PlanOf(const Block2dShape& shape, const std::vector<uint32_t>& row_start,
               const ColumnSteps& steps, uint32_t lane_unit) {
  return {.row_start = row_start.data(),
          .steps = steps,
          .rows = shape.block_height,
          .count = shape.block_count,
          .width = shape.block_width,
          .element_size = shape.element_size,
          .lane_unit = lane_unit};
}

// The payload's pointer type: written by loads (MemoryByte const), read by stores.
template <typename MemoryByte>
using PayloadPointer = std::conditional_t<std::is_const_v<MemoryByte>, uint8_t*, const uint8_t*>;

// Moves units [first, end) of one block row between memory (`memory` points at unit `first`) and
// the payload (`payload` points at the row's element 0), a unit being kUnit bytes (0: the
// run-time steps.unit_bytes, for odd merged runs). Loads when MemoryByte is const, else stores.
template <size_t kUnit, typename MemoryByte>
inline void MoveRow(MemoryByte* memory, uint32_t first, uint32_t end, const ColumnSteps& steps,
                    PayloadPointer<MemoryByte> payload) {
  const size_t unit = kUnit != 0 ? kUnit : steps.unit_bytes;
  auto move = [&](size_t offset, size_t i) {
    if constexpr (std::is_const_v<MemoryByte>) {
      std::memcpy(payload + offset, memory + i * unit, unit);
    } else {
      std::memcpy(memory + i * unit, payload + offset, unit);
    }
  };
  const size_t count = end - first;
  const size_t inner_stride = steps.inner_stride;
  if (steps.run_mask == 0x7fffffff) {  // one progression: the common case
    payload += first * inner_stride;
    for (size_t i = 0; i < count; ++i) move(i * inner_stride, i);
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    const uint32_t v = first + static_cast<uint32_t>(i);
    move(
        size_t{v >> steps.run_shift} * steps.run_stride + size_t{v & steps.run_mask} * inner_stride,
        i);
  }
}

// A block wholly in bounds that is one transposition (plan.lane_unit): unit u of memory row r
// <-> unit r of invocation u, the invocations `lane_stride` bytes apart.
template <typename MemoryByte>
void TransposeWholeBlock(const RowPlan& plan, MemoryByte* first_row, int64_t pitch,
                         PayloadPointer<MemoryByte> payload, ptrdiff_t lane_stride) {
  const uint32_t unit = plan.lane_unit;
  const size_t block_bytes = size_t{plan.width} * plan.element_size;
  const uint32_t units = static_cast<uint32_t>(block_bytes / unit);
  for (uint32_t b = 0; b < plan.count; ++b) {
    MemoryByte* block = first_row + b * block_bytes;
    const PayloadPointer<MemoryByte> lanes = payload + plan.row_start[b];
    if constexpr (std::is_const_v<MemoryByte>) {  // memory row r -> unit r of each lane
      TransposeElements(block, pitch, lanes, lane_stride, plan.rows, units, unit);
    } else {  // unit r of lane c -> unit c of memory row r
      TransposeElements(lanes, lane_stride, block, pitch, units, plan.rows, unit);
    }
  }
}

// A block wholly in bounds: every row of every block in one go, `plan.steps` being the
// whole-row steps.
template <size_t kUnit, typename MemoryByte>
void MoveWholeBlock(const RowPlan& plan, MemoryByte* first_row, int64_t pitch,
                    PayloadPointer<MemoryByte> payload) {
  const ColumnSteps steps = plan.steps;  // a local: the byte copies cannot clobber it
  const size_t block_bytes = size_t{plan.width} * plan.element_size;
  const uint32_t units = static_cast<uint32_t>(block_bytes / steps.unit_bytes);
  const uint32_t* row_start = plan.row_start;
  for (uint32_t r = 0; r < plan.rows; ++r) {
    MemoryByte* row = first_row + int64_t{r} * pitch;
    for (uint32_t b = 0; b < plan.count; ++b, ++row_start) {
      MoveRow<kUnit>(row + b * block_bytes, 0, units, steps, payload + *row_start);
    }
  }
}

// Any other block: each row clipped to its window, element by element.
template <size_t kUnit, typename MemoryByte>
void MoveClippedBlock(const RowPlan& plan, const BlockPlacement& placement, MemoryByte* data,
                      PayloadPointer<MemoryByte> payload) {
  const ColumnSteps steps = plan.steps;
  const uint32_t width = plan.width;
  for (uint32_t r = 0; r < plan.rows; ++r) {
    const RowWindow window = placement.Row(r);
    for (uint32_t b = 0; b < plan.count; ++b) {
      const uint32_t first = std::max(window.first, b * width);
      const uint32_t end = std::min(window.end, (b + 1) * width);
      if (first >= end) continue;
      MoveRow<kUnit>(data + window.first_byte + size_t{first - window.first} * plan.element_size,
                     first - b * width, end - b * width, steps,
                     payload + plan.row_start[r * plan.count + b]);
    }
  }
}

// Runs the copy for one execution: whole rows when the block is wholly inside, else clipped.
template <typename MemoryByte>
void MoveBlock(const RowPlan& whole_rows, const RowPlan& elements, const BlockPlacement& placement,
               MemoryByte* data, PayloadPointer<MemoryByte> payload) {
  if (placement.WhollyInside()) {
    MemoryByte* first_row = data + placement.RowByte(0);
    const int64_t pitch = placement.pitch();
    if (whole_rows.lane_unit != 0) {
      return TransposeWholeBlock(whole_rows, first_row, pitch, payload,
                                 whole_rows.steps.inner_stride);
    }
    switch (whole_rows.steps.unit_bytes) {
      case 1:
        return MoveWholeBlock<1>(whole_rows, first_row, pitch, payload);
      case 2:
        return MoveWholeBlock<2>(whole_rows, first_row, pitch, payload);
      case 4:
        return MoveWholeBlock<4>(whole_rows, first_row, pitch, payload);
      case 8:
        return MoveWholeBlock<8>(whole_rows, first_row, pitch, payload);
      case 16:
        return MoveWholeBlock<16>(whole_rows, first_row, pitch, payload);
      default:
        return MoveWholeBlock<0>(whole_rows, first_row, pitch, payload);
    }
  }
  switch (elements.steps.unit_bytes) {
    case 1:
      return MoveClippedBlock<1>(elements, placement, data, payload);
    case 2:
      return MoveClippedBlock<2>(elements, placement, data, payload);
    case 4:
      return MoveClippedBlock<4>(elements, placement, data, payload);
    default:
      return MoveClippedBlock<8>(elements, placement, data, payload);
  }
}

}  // namespace

std::optional<std::string> CheckBlock2d(const Block2dPayloadLayout& layout,
                                        const Block2dSurface& surface) {
  const Block2dShape& shape = layout.shape();
  const uint32_t e = shape.element_size;
  // Not a std::string: this runs for every 2D block instruction, and a name past the short
  // string buffer would cost an allocation each time.
  const char* const base_name =
      shape.op == Block2dOp::kStore ? "Dst Base Pointer" : "Src Base Pointer";
  constexpr int64_t kMaxExtent = int64_t{1} << 24;
  if (surface.base_offset % 64 != 0) {
    return std::string(base_name) + " is not 64-byte aligned: it points to byte " +
           Num(surface.base_offset) + " of its allocation";
  }
  if (surface.width < 64) return "Memory Width " + Num(surface.width) + " is less than 64 bytes";
  if (surface.width > kMaxExtent) {
    return "Memory Width " + Num(surface.width) + " exceeds 2^24 bytes";
  }
  const uint32_t width_multiple = e <= 2 ? 4 : e;
  if (surface.width % width_multiple != 0) {
    return "Memory Width " + Num(surface.width) + " is not a multiple of " + Num(width_multiple) +
           " for " + Num(e) + "-byte elements";
  }
  if (surface.height <= 0) return "Memory Height " + Num(surface.height) + " is not positive";
  if (surface.height > kMaxExtent) {
    return "Memory Height " + Num(surface.height) + " exceeds 2^24 rows";
  }
  if (surface.pitch < surface.width) {
    return "Memory Pitch " + Num(surface.pitch) + " is less than Memory Width " +
           Num(surface.width);
  }
  if (surface.pitch % 16 != 0) {
    return "Memory Pitch " + Num(surface.pitch) + " is not a multiple of 16";
  }
  if (e <= 2 && surface.x % (4 / e) != 0) {
    return "Coordinate X " + Num(surface.x) + " is not a multiple of " + Num(4 / e) + " for " +
           Num(e) + "-byte elements";
  }

  // The in-bounds part of the block: rows [row_first, row_end), columns [col_first, col_end).
  // From here on 0 < width <= pitch, so addresses grow with rows and columns.
  const Wide row_first = std::max<Wide>(surface.y, 0);
  const Wide row_end = std::min<Wide>(Wide{surface.y} + shape.block_height, surface.height);
  const Wide col_first = std::max<Wide>(surface.x, 0);
  const Wide col_end = std::min<Wide>(Wide{surface.x} + Wide{shape.block_count} * shape.block_width,
                                      surface.width / e);
  if (row_first >= row_end || col_first >= col_end) return std::nullopt;
  const Wide base = surface.base_offset;
  const Wide size = surface.allocation_size;
  if (base + (row_end - 1) * surface.pitch + col_end * e <= size) return std::nullopt;
  // Report the first element (row-major) whose bytes end beyond the allocation.
  const Wide row = std::max(row_first, FloorDivide(size - base - col_end * e, surface.pitch) + 1);
  const Wide row_start = base + row * surface.pitch;
  const Wide column = std::max(col_first, FloorDivide(size - row_start, e));
  const Wide byte = row_start + column * e;
  return "Memory Width " + Num(surface.width) + ", Memory Height " + Num(surface.height) +
         " and Memory Pitch " + Num(surface.pitch) + " put the in-bounds element at row " +
         Num(row) + ", column " + Num(column) + " at bytes " + Num(byte) + ".." +
         Num(byte + e - 1) + ", beyond the " + Num(size) + "-byte allocation of the " + base_name;
}

void LoadBlock2d(const Block2dPayloadLayout& layout, const Block2dSurface& surface,
                 uint8_t* payload) {
  const Block2dShape& shape = layout.shape();
  assert(shape.op != Block2dOp::kStore);
  if (shape.op == Block2dOp::kPrefetch || shape.op == Block2dOp::kStore) return;
  const BlockPlacement placement = PlacementOf(shape, surface);
  // Bytes no element reaches read as zero.
  if (!layout.payload_covered_ || !placement.WhollyInside()) {
    std::memset(payload, 0, layout.payload_bytes());
  }
  MoveBlock(PlanOf(shape, layout.row_start_, layout.row_steps_, layout.lane_unit_),
            PlanOf(shape, layout.row_start_, layout.element_steps_, layout.lane_unit_), placement,
            surface.data, payload);
}

bool LoadBlock2dIntoLanes(const Block2dPayloadLayout& layout, const Block2dSurface& surface,
                          uint8_t* lanes, size_t lane_stride) {
  const Block2dShape& shape = layout.shape();
  if (shape.op == Block2dOp::kPrefetch || shape.op == Block2dOp::kStore || layout.lane_unit_ == 0 ||
      !layout.payload_covered_ || lane_stride < layout.payload_bytes_per_lane_) {
    return false;
  }
  const BlockPlacement placement = PlacementOf(shape, surface);
  if (!placement.WhollyInside()) return false;
  // Every invocation's bytes receive a unit (payload_covered_): nothing to clear first.
  TransposeWholeBlock(PlanOf(shape, layout.row_start_, layout.row_steps_, layout.lane_unit_),
                      surface.data + placement.RowByte(0), placement.pitch(), lanes,
                      static_cast<ptrdiff_t>(lane_stride));
  return true;
}

bool PlainBlock2d(const Block2dPayloadLayout& layout, const Block2dSurface& surface,
                  uint64_t* first_row_byte) {
  const Block2dShape& shape = layout.shape();
  const int64_t e = shape.element_size;
  const int e_shift = std::countr_zero(shape.element_size);
  constexpr int64_t kMaxExtent = int64_t{1} << 24;
  // CheckBlock2d's checks, in its order.
  if (surface.base_offset % 64 != 0 || surface.width < 64 || surface.width > kMaxExtent) {
    return false;
  }
  if ((surface.width & ((e <= 2 ? 4 : e) - 1)) != 0) return false;  // 4 or e: powers of two
  if (surface.height <= 0 || surface.height > kMaxExtent) return false;
  if (surface.pitch < surface.width || surface.pitch % 16 != 0) return false;
  if (e <= 2 && (surface.x & ((4 >> e_shift) - 1)) != 0) return false;
  // The block wholly inside: the bounds hold width, height and the coordinates below 2^24 (no
  // product below can overflow once the pitch and the base offset are bounded too).
  constexpr int64_t kMaxPitch = int64_t{1} << 32;
  constexpr uint64_t kMaxBase = uint64_t{1} << 48;
  const int64_t row_elements = int64_t{shape.block_count} * shape.block_width;
  if (surface.x < 0 || surface.y < 0 || surface.pitch > kMaxPitch ||
      surface.base_offset > kMaxBase || surface.x + row_elements > (surface.width >> e_shift) ||
      surface.y + int64_t{shape.block_height} > surface.height) {
    return false;
  }
  const uint64_t first =
      surface.base_offset + static_cast<uint64_t>(surface.y * surface.pitch + surface.x * e);
  const uint64_t end =
      first + static_cast<uint64_t>((shape.block_height - 1) * surface.pitch + row_elements * e);
  if (end > surface.allocation_size) return false;
  *first_row_byte = first;
  return true;
}

// TransposeWholeBlock with the layout's routines, chosen for the block's dimensions.
void TransposeBlockIntoLanes(const Block2dPayloadLayout& layout, const uint8_t* first_row,
                             int64_t pitch, uint8_t* lanes, size_t lane_stride) {
  const Block2dShape& shape = layout.shape();
  const size_t block_bytes = size_t{shape.block_width} * shape.element_size;
  const uint32_t units = static_cast<uint32_t>(block_bytes / layout.lane_unit_);
  for (uint32_t b = 0; b < shape.block_count; ++b) {
    layout.load_transpose_(first_row + b * block_bytes, pitch, lanes + layout.row_start_[b],
                           static_cast<ptrdiff_t>(lane_stride), shape.block_height, units);
  }
}

void TransposeBlockFromLanes(const Block2dPayloadLayout& layout, const uint8_t* lanes,
                             size_t lane_stride, uint8_t* first_row, int64_t pitch) {
  const Block2dShape& shape = layout.shape();
  const size_t block_bytes = size_t{shape.block_width} * shape.element_size;
  const uint32_t units = static_cast<uint32_t>(block_bytes / layout.lane_unit_);
  for (uint32_t b = 0; b < shape.block_count; ++b) {
    layout.store_transpose_(lanes + layout.row_start_[b], static_cast<ptrdiff_t>(lane_stride),
                            first_row + b * block_bytes, pitch, units, shape.block_height);
  }
}

void StoreBlock2d(const Block2dPayloadLayout& layout, const Block2dMutableSurface& surface,
                  const uint8_t* payload) {
  const Block2dShape& shape = layout.shape();
  assert(shape.op == Block2dOp::kStore);
  if (shape.op != Block2dOp::kStore) return;
  // Only elements are visited, so padding and unmapped payload bytes are never written.
  MoveBlock(PlanOf(shape, layout.row_start_, layout.row_steps_, layout.lane_unit_),
            PlanOf(shape, layout.row_start_, layout.element_steps_, layout.lane_unit_),
            PlacementOf(shape, surface), surface.data, payload);
}

}  // namespace xmx::interp
