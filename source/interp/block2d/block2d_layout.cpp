// Block2dPayloadLayout: validation of the constant operands, and the row copy plan that maps a 2D
// block's elements onto the invocations' private bytes (A.5).
#include <algorithm>
#include <bit>
#include <string>

#include "interp/block2d/block2d.hpp"
#include "interp/model/value_layout.hpp"

namespace xmx::interp {
namespace {

// Limits of the interpreter, not of the spec: they keep every payload offset in 32 bits and the
// plan small. The largest shape IGC accepts moves 2 KiB.
constexpr uint32_t kMaxBlockDimension = 1u << 16;
constexpr uint64_t kMaxBlockBytes = 1u << 20;

std::string Num(uint64_t value) { return std::to_string(value); }

uint32_t DivideRoundingUp(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

}  // namespace

std::optional<Block2dPayloadLayout> Block2dPayloadLayout::Prepare(const Block2dShape& shape,
                                                                  std::string* why_not) {
  auto reject = [why_not](std::string message) -> std::optional<Block2dPayloadLayout> {
    if (why_not != nullptr) *why_not = std::move(message);
    return std::nullopt;
  };
  const uint32_t e = shape.element_size;
  const uint32_t sg = shape.subgroup_size;
  if (e != 1 && e != 2 && e != 4 && e != 8) {
    return reject("Element Size " + Num(e) + " is not 1, 2, 4 or 8");
  }
  const std::pair<const char*, uint32_t> dimensions[] = {{"Block Width", shape.block_width},
                                                         {"Block Height", shape.block_height},
                                                         {"Block Count", shape.block_count}};
  for (const auto& [name, value] : dimensions) {
    if (value == 0) return reject(std::string(name) + " 0 is not positive");
    if (value > kMaxBlockDimension) {
      return reject(std::string(name) + " " + Num(value) + " exceeds the interpreter's limit of " +
                    Num(kMaxBlockDimension));
    }
  }
  // A.3 rev-2 restriction: a block row is a whole number of dwords.
  if (e <= 2 && shape.block_width % (4 / e) != 0) {
    return reject("Block Width " + Num(shape.block_width) + " is not a multiple of " + Num(4 / e) +
                  " for " + Num(e) + "-byte elements");
  }
  if (!std::has_single_bit(sg) || sg > kMaxSubgroupSize) {
    return reject("subgroup size " + Num(sg) + " is not a power of two no larger than " +
                  Num(kMaxSubgroupSize));
  }
  if (shape.op == Block2dOp::kLoadTransform && e > 2) {
    return reject("Element Size " + Num(e) +
                  " cannot be transformed: LoadTransform packs 1- or 2-byte elements into "
                  "32-bit words");
  }

  Block2dPayloadLayout layout;
  layout.shape_ = shape;
  // A.5 steps 1 and 2: the pre-processed block of one block.
  switch (shape.op) {
    case Block2dOp::kLoadTransform:
      // Rows are padded to a multiple of 4 / E, then folded into 32-bit words.
      layout.processed_rows_ = DivideRoundingUp(shape.block_height, 4 / e);
      layout.processed_row_units_ = std::bit_ceil(shape.block_width);
      layout.unit_bytes_ = 4;
      break;
    case Block2dOp::kLoadTranspose:
      layout.processed_rows_ = shape.block_width;
      layout.processed_row_units_ = std::bit_ceil(shape.block_height);
      layout.unit_bytes_ = e;
      break;
    default:
      layout.processed_rows_ = shape.block_height;
      layout.processed_row_units_ = std::bit_ceil(shape.block_width);
      layout.unit_bytes_ = e;
      break;
  }
  // A.5 step 3: each row spreads over min(RW, SG) invocations; a slot holds SG / RW rows.
  const uint32_t units_per_lane_row = std::max(layout.processed_row_units_ / sg, 1u);
  const uint32_t rows_per_slot = std::max(sg / layout.processed_row_units_, 1u);
  const uint64_t slots = DivideRoundingUp(layout.processed_rows_, rows_per_slot);
  const uint64_t lane_bytes =
      uint64_t{shape.block_count} * slots * units_per_lane_row * layout.unit_bytes_;
  const uint64_t block_bytes =
      uint64_t{shape.block_height} * shape.block_count * shape.block_width * e;
  if (block_bytes > kMaxBlockBytes || lane_bytes * sg > kMaxBlockBytes) {
    return reject("the block (Block Height " + Num(shape.block_height) + " x Block Count " +
                  Num(shape.block_count) + " x Block Width " + Num(shape.block_width) +
                  " x Element Size " + Num(e) + ") exceeds the interpreter's limit of " +
                  Num(kMaxBlockBytes) + " bytes");
  }
  if (shape.op != Block2dOp::kPrefetch) {
    layout.payload_bytes_per_lane_ = static_cast<uint32_t>(lane_bytes);
    // Cannot fail for any shape that got here; the tests run every shape through it.
    if (!layout.BuildRowPlan()) return reject("internal error: no row copy plan for this shape");
  }
  return layout;
}

// Walks every (lane, block, slot, unit) of the payload and finds the memory element each
// element-sized piece holds (A.5 step 3 backwards, then step 2 backwards). Inverted, that gives
// each element its payload byte; the row copy plan is that map written as a start per block row
// plus column steps, which are read off row 0 and then confirmed for every element.
bool Block2dPayloadLayout::BuildRowPlan() {
  const uint32_t e = shape_.element_size;
  const uint32_t sg = shape_.subgroup_size;
  const uint32_t width = shape_.block_width;
  const uint32_t height = shape_.block_height;
  const uint32_t count = shape_.block_count;
  const uint32_t rw = processed_row_units_;
  const uint32_t units_per_lane_row = std::max(rw / sg, 1u);
  const uint32_t rows_per_slot = std::max(sg / rw, 1u);
  const uint32_t slots = DivideRoundingUp(processed_rows_, rows_per_slot);
  const uint32_t block_lane_bytes = payload_bytes_per_lane_ / count;

  // destination[(row * count + b) * width + column]: payload byte of that element of block b.
  constexpr uint32_t kUnset = ~0u;
  std::vector<uint32_t> destination(size_t{height} * count * width, kUnset);
  uint64_t placed_bytes = 0;
  auto place = [&](uint32_t b, uint32_t row, uint32_t column, uint32_t byte) {
    if (row >= height || column >= width) return;  // padding: read as zero, never stored
    destination[(size_t{row} * count + b) * width + column] = byte;
    placed_bytes += e;
  };
  for (uint32_t lane = 0; lane < sg; ++lane) {
    for (uint32_t b = 0; b < count; ++b) {
      for (uint32_t slot = 0; slot < slots; ++slot) {
        for (uint32_t q = 0; q < units_per_lane_row; ++q) {
          uint32_t row;     // of the pre-processed block
          uint32_t column;  // in units
          if (rw >= sg) {
            row = slot;
            column = lane * units_per_lane_row + q;
          } else {
            row = slot * rows_per_slot + lane / rw;
            column = lane % rw;
            if (row >= processed_rows_) continue;  // a slot no block row maps to
          }
          const uint32_t byte = lane * payload_bytes_per_lane_ + b * block_lane_bytes +
                                (slot * units_per_lane_row + q) * unit_bytes_;
          switch (shape_.op) {
            case Block2dOp::kLoadTransform:
              // VNNI: word `row` of a column holds memory rows row*k .. row*k+k-1, lowest first.
              for (uint32_t t = 0; t < 4 / e; ++t)
                place(b, row * (4 / e) + t, column, byte + t * e);
              break;
            case Block2dOp::kLoadTranspose:
              place(b, column, row, byte);  // transposed row = memory column
              break;
            default:
              place(b, row, column, byte);
              break;
          }
        }
      }
    }
  }
  if (std::find(destination.begin(), destination.end(), kUnset) != destination.end()) return false;
  payload_covered_ = placed_bytes == payload_bytes();

  auto at = [&](uint32_t row, uint32_t b, uint32_t column) {
    return destination[(size_t{row} * count + b) * width + column];
  };
  ColumnSteps steps;
  steps.unit_bytes = e;
  uint32_t run = width;  // columns per run
  if (width > 1) {
    if (at(0, 0, 1) < at(0, 0, 0)) return false;
    steps.inner_stride = at(0, 0, 1) - at(0, 0, 0);
    for (uint32_t column = 2; column < width && run == width; ++column) {
      if (at(0, 0, column) != at(0, 0, 0) + column * steps.inner_stride) run = column;
    }
    if (run < width) {
      if (!std::has_single_bit(run) || at(0, 0, run) < at(0, 0, 0)) return false;
      steps.run_shift = static_cast<uint32_t>(std::countr_zero(run));
      steps.run_mask = run - 1;
      steps.run_stride = at(0, 0, run) - at(0, 0, 0);
    }
  }
  row_start_.clear();
  for (uint32_t row = 0; row < height; ++row) {
    for (uint32_t b = 0; b < count; ++b) {
      const uint32_t start = at(row, b, 0);
      row_start_.push_back(start);
      for (uint32_t column = 0; column < width; ++column) {
        const uint64_t offset = uint64_t{column >> steps.run_shift} * steps.run_stride +
                                uint64_t{column & steps.run_mask} * steps.inner_stride;
        if (at(row, b, column) != start + offset) return false;
      }
    }
  }
  element_steps_ = steps;
  // Runs whose elements are adjacent in the payload are adjacent in memory too: whole rows move
  // them as single units.
  row_steps_ = steps;
  if (width > 1 && steps.inner_stride == e) {
    if (run == width) {
      row_steps_ = {width * e, 31, 0x7fffffff, 0, 0};  // the whole row is one unit
    } else if (width % run == 0) {
      row_steps_ = {run * e, 31, 0x7fffffff, steps.run_stride, 0};
    }
  }
  lane_unit_ = TransposedUnit();
  if (lane_unit_ != 0) {
    const uint32_t units = shape_.block_width * shape_.element_size / lane_unit_;
    load_transpose_ = TransposeRoutineFor(shape_.block_height, units, lane_unit_);
    store_transpose_ = TransposeRoutineFor(units, shape_.block_height, lane_unit_);
  }
  return true;
}

// The unit of the transposition a whole block is (lane_unit_), or 0: row_steps_ sends the units
// of a block row to consecutive invocations, unit u to invocation u (so no more units than
// invocations), and block row r lands r units after row 0 in each of them.
uint32_t Block2dPayloadLayout::TransposedUnit() const {
  const uint32_t unit = row_steps_.unit_bytes;
  const uint32_t lane = payload_bytes_per_lane_;
  const uint32_t units = shape_.block_width * shape_.element_size / unit;
  if ((unit != 1 && unit != 2 && unit != 4 && unit != 8) || row_steps_.run_mask != 0x7fffffff ||
      units < 2 || units > shape_.subgroup_size || row_steps_.inner_stride != lane) {
    return 0;
  }
  const uint32_t count = shape_.block_count;
  for (uint32_t b = 0; b < count; ++b) {
    if (uint64_t{row_start_[b]} + uint64_t{shape_.block_height} * unit > lane) return 0;
    for (uint32_t row = 0; row < shape_.block_height; ++row) {
      if (row_start_[row * count + b] != row_start_[b] + row * unit) return 0;
    }
  }
  return unit;
}

}  // namespace xmx::interp
