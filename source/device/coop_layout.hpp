// Where the elements of a cooperative matrix live (DECISIONS.md 15; COOPERATIVE-MATRIX.md A4):
// Intel's mapping, the one IGC implements, which is the operand layout of
// OpSubgroupMatrixMultiplyAccumulateINTEL. A matrix value is held by each invocation as its slice,
// `length` elements of the component type; element e of invocation j is the matrix element
// ElementCoord(e, j), which is also what OpCooperativeMatrixGetElementCoordINTEL returns. It is a
// fact of the device family, stated once here: xmx-run executes cooperative matrices with it and
// --lower-cooperative-matrix writes the native code with it, so the two cannot drift apart.
//
// The mapping (IGC's DEFINE_GET_COORD, extended to the large shapes of A4). An invocation holds
// `fields` consecutive columns of one row together (its contribution unit): for A, 16 bits at
// subgroup size 16 (32 for 32-bit elements) and 32 bits at subgroup size 8; for B and the
// accumulator one element (B's VNNI packing is along the rows, which follow each other in the
// slice). A column block of `block_columns` columns is spread over the invocations, `fields` per
// invocation; when it is narrower than the subgroup (tf32 A at subgroup size 16), the invocations
// form `row_phases` groups that take the rows in turn. With t = e / fields,
// rows_per_block = rows / row_phases, lanes_per_row = block_columns / fields:
//   row    = (t mod rows_per_block) * row_phases + j / lanes_per_row
//   column = (t / rows_per_block) * block_columns + fields * (j mod lanes_per_row) + e mod fields
// For B and the accumulator this is element e = (e mod rows, (e / rows) * SG + j): rows in order
// per column block of SG columns, e.g. C 32x64 at SG16: C[e % 32][(e / 32) * 16 + j].
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace xmx::device {

enum class CoopUse : uint8_t { kA = 0, kB = 1, kAccumulator = 2 };

struct CoopCoord {
  uint32_t row = 0, column = 0;
  bool operator==(const CoopCoord&) const = default;
  bool operator<(const CoopCoord& o) const {
    return row != o.row ? row < o.row : column < o.column;
  }
};

class CoopLayout {
 public:
  // The layout of a `rows` x `columns` matrix of `element_bits`-bit components with this use at
  // this subgroup size, or nullopt with *why_not saying what has no mapping.
  static std::optional<CoopLayout> Make(CoopUse use, uint32_t rows, uint32_t columns,
                                        uint32_t element_bits, uint32_t subgroup_size,
                                        std::string* why_not);

  // OpCooperativeMatrixLengthKHR: elements per invocation.
  uint32_t length() const { return length_; }
  uint32_t rows() const { return rows_; }
  uint32_t columns() const { return columns_; }
  uint32_t element_bits() const { return element_bits_; }
  uint32_t element_bytes() const { return element_bits_ / 8; }
  uint32_t subgroup_size() const { return subgroup_size_; }
  CoopUse use() const { return use_; }
  // The terms of the formula above, for code that computes ElementCoord at run time (per lane):
  // consecutive columns an invocation holds together, invocations per row of a column block,
  // columns of a column block, row phases.
  uint32_t fields() const { return fields_; }
  uint32_t lanes_per_row() const { return lanes_per_row_; }
  uint32_t block_columns() const { return block_columns_; }
  uint32_t row_phases() const { return row_phases_; }

  // The matrix element that element `element` (< length) of invocation `lane` holds.
  CoopCoord ElementCoord(uint32_t element, uint32_t lane) const {
    const uint32_t t = element / fields_;
    const uint32_t rows_per_block = rows_ / row_phases_;
    return {(t % rows_per_block) * row_phases_ + lane / lanes_per_row_,
            (t / rows_per_block) * block_columns_ + fields_ * (lane % lanes_per_row_) +
                element % fields_};
  }

 private:
  CoopUse use_ = CoopUse::kA;
  uint32_t rows_ = 0, columns_ = 0, element_bits_ = 0, subgroup_size_ = 0;
  uint32_t fields_ = 1, block_columns_ = 0, lanes_per_row_ = 0, row_phases_ = 1, length_ = 0;
};

}  // namespace xmx::device
