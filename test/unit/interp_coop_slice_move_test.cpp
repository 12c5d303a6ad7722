// CoopSliceMove (interp/coop/coop_slice_move.hpp), the whole-slice form of cooperative-matrix
// loads and stores, against the definition: element e of invocation j is the matrix element
// CoopLayout::ElementCoord(e, j) (the device layer's mapping), stored at offset row * Stride +
// column (RowMajor), column * Stride + row (ColumnMajor) or (row / VF) * Stride + column * VF +
// row % VF (PackedINTEL), in components. Every shape the mapping defines at subgroup sizes 8
// and 16, for strides that pad, are exact, negative or (for loads) overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "interp/coop/coop_slice_move.hpp"

namespace xmx::interp {
namespace {

using device::CoopLayout;
using device::CoopUse;

int64_t Offset(CoopMemoryLayout memory, int64_t row, int64_t column, int64_t stride, int64_t vnni) {
  switch (memory) {
    case CoopMemoryLayout::kRowMajor:
      return row * stride + column;
    case CoopMemoryLayout::kColumnMajor:
      return column * stride + row;
    case CoopMemoryLayout::kPacked:
      return row / vnni * stride + column * vnni + row % vnni;
  }
  return 0;
}

struct Case {
  CoopLayout layout;
  CoopMemoryLayout memory;
  int64_t stride;
  int64_t exact;  // the least stride at which the rows (columns) do not overlap
  std::string Name() const {
    return std::to_string(layout.rows()) + "x" + std::to_string(layout.columns()) + " " +
           std::to_string(layout.element_bits()) + "-bit use " +
           std::to_string(static_cast<int>(layout.use())) + " SG" +
           std::to_string(layout.subgroup_size()) + " memory layout " +
           std::to_string(static_cast<int>(memory)) + " stride " + std::to_string(stride);
  }
};

// The offsets, in components, of every element: the least, and each (lane, element)'s.
struct Offsets {
  int64_t low = 0, high = 0;
  std::vector<int64_t> at;  // lane * length + element
};

Offsets AllOffsets(const Case& c) {
  const CoopLayout& l = c.layout;
  const int64_t vnni = 4 / l.element_bytes();
  Offsets o;
  for (uint32_t lane = 0; lane < l.subgroup_size(); ++lane) {
    for (uint32_t e = 0; e < l.length(); ++e) {
      const device::CoopCoord coord = l.ElementCoord(e, lane);
      const int64_t off = Offset(c.memory, coord.row, coord.column, c.stride, vnni);
      o.at.push_back(off);
      o.low = std::min(o.low, off);
      o.high = std::max(o.high, off);
    }
  }
  return o;
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  const uint32_t sides[] = {1, 2, 3, 4, 5, 8, 12, 16, 24, 32, 64};
  for (uint32_t sg : {8u, 16u}) {
    for (uint32_t bits : {8u, 16u, 32u}) {
      for (CoopUse use : {CoopUse::kA, CoopUse::kB, CoopUse::kAccumulator}) {
        for (uint32_t rows : sides) {
          for (uint32_t columns : sides) {
            std::string why;
            const std::optional<CoopLayout> layout =
                CoopLayout::Make(use, rows, columns, bits, sg, &why);
            if (!layout) continue;
            for (CoopMemoryLayout memory :
                 {CoopMemoryLayout::kRowMajor, CoopMemoryLayout::kColumnMajor,
                  CoopMemoryLayout::kPacked}) {
              if (memory == CoopMemoryLayout::kPacked && use != CoopUse::kB) continue;
              const int64_t vnni = 32 / bits;
              const int64_t exact = memory == CoopMemoryLayout::kRowMajor      ? columns
                                    : memory == CoopMemoryLayout::kColumnMajor ? rows
                                                                               : columns * vnni;
              for (int64_t stride : {exact, exact + 3, exact + 16, -exact, -exact - 5, exact - 1,
                                     int64_t{1}, int64_t{0}}) {
                cases.push_back({*layout, memory, stride, exact});
              }
              // A Stride that never steps (one row, one VNNI group) may be anything.
              if ((memory == CoopMemoryLayout::kRowMajor && rows == 1) ||
                  (memory == CoopMemoryLayout::kPacked && rows <= vnni)) {
                cases.push_back({*layout, memory, int64_t{1} << 62, exact});
                cases.push_back({*layout, memory, -(int64_t{1} << 62), exact});
              }
            }
          }
        }
      }
    }
  }
  return cases;
}

TEST(CoopSliceMove, LoadsEveryElementFromItsOffset) {
  std::mt19937 rng(13);
  size_t planned = 0;
  for (const Case& c : Cases()) {
    const std::optional<CoopSliceMove> move = CoopSliceMove::Make(c.layout, c.memory);
    if (!move) continue;
    ++planned;
    const Offsets o = AllOffsets(c);
    const uint32_t eb = c.layout.element_bytes();
    std::vector<uint8_t> memory(static_cast<size_t>(o.high - o.low + 1) * eb);
    for (uint8_t& b : memory) b = static_cast<uint8_t>(rng());
    const uint8_t* origin = memory.data() - o.low * eb;
    const size_t slot_bytes = size_t{c.layout.subgroup_size()} * c.layout.length() * eb;
    std::vector<uint8_t> want(slot_bytes), got(slot_bytes, 0xA5);
    for (size_t i = 0; i < o.at.size(); ++i) {
      std::memcpy(want.data() + i * eb, origin + o.at[i] * eb, eb);
    }
    move->Load(origin, c.stride, got.data());
    ASSERT_EQ(got, want) << c.Name();
  }
  // The plan covers row-major data of every use and the usual B and accumulator layouts.
  EXPECT_GT(planned, 1000u);
}

TEST(CoopSliceMove, StoresEveryElementToItsOffsetAndNothingElse) {
  std::mt19937 rng(31);
  size_t stored = 0;
  for (const Case& c : Cases()) {
    const std::optional<CoopSliceMove> move = CoopSliceMove::Make(c.layout, c.memory);
    if (!move) continue;
    const Offsets o = AllOffsets(c);
    std::vector<int64_t> sorted = o.at;
    std::sort(sorted.begin(), sorted.end());
    const bool distinct = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    // CanStore promises distinct locations, and allows every stride at least a row apart.
    if (move->CanStore(c.stride)) {
      ASSERT_TRUE(distinct) << c.Name();
    } else {
      ASSERT_LT(std::abs(c.stride), c.exact) << c.Name();
      continue;
    }
    ++stored;
    const uint32_t eb = c.layout.element_bytes();
    const size_t slot_bytes = size_t{c.layout.subgroup_size()} * c.layout.length() * eb;
    std::vector<uint8_t> slot(slot_bytes);
    for (uint8_t& b : slot) b = static_cast<uint8_t>(rng());
    // Guard bytes around the span must stay as they were.
    const size_t guard = 64;
    std::vector<uint8_t> want(static_cast<size_t>(o.high - o.low + 1) * eb + 2 * guard);
    for (uint8_t& b : want) b = static_cast<uint8_t>(rng());
    std::vector<uint8_t> got = want;
    const int64_t origin = static_cast<int64_t>(guard) - o.low * eb;
    for (size_t i = 0; i < o.at.size(); ++i) {
      std::memcpy(want.data() + origin + o.at[i] * eb, slot.data() + i * eb, eb);
    }
    move->Store(got.data() + origin, c.stride, slot.data());
    ASSERT_EQ(got, want) << c.Name();
  }
  EXPECT_GT(stored, 500u);
}

// Which pairs have a whole-slice form: row-major always; column-major with one column per
// invocation in one row phase; PackedINTEL when the VNNI groups fill the rows.
TEST(CoopSliceMove, PlansTheLayoutsItCanMoveWhole) {
  std::string why;
  const CoopLayout a_int8 = *CoopLayout::Make(CoopUse::kA, 8, 32, 8, 16, &why);
  const CoopLayout b_int8 = *CoopLayout::Make(CoopUse::kB, 32, 16, 8, 16, &why);
  const CoopLayout b_odd = *CoopLayout::Make(CoopUse::kB, 5, 16, 8, 16, &why);
  const CoopLayout a_tf32 = *CoopLayout::Make(CoopUse::kA, 8, 8, 32, 16, &why);
  EXPECT_TRUE(CoopSliceMove::Make(a_int8, CoopMemoryLayout::kRowMajor));
  EXPECT_FALSE(CoopSliceMove::Make(a_int8, CoopMemoryLayout::kColumnMajor));
  EXPECT_TRUE(CoopSliceMove::Make(b_int8, CoopMemoryLayout::kColumnMajor));
  EXPECT_TRUE(CoopSliceMove::Make(b_int8, CoopMemoryLayout::kPacked));
  EXPECT_FALSE(CoopSliceMove::Make(b_odd, CoopMemoryLayout::kPacked));
  EXPECT_TRUE(CoopSliceMove::Make(a_tf32, CoopMemoryLayout::kRowMajor));
  EXPECT_FALSE(CoopSliceMove::Make(a_tf32, CoopMemoryLayout::kColumnMajor));
}

}  // namespace
}  // namespace xmx::interp
