// The cooperative-matrix element mapping (source/device/coop_layout.hpp) against the facts
// COOPERATIVE-MATRIX.md A4 states one by one: Length per shape, the get-coord examples of the
// table, the large accumulator slices, and the shapes that have no mapping; and against a model
// written here, slice by slice, on every shape of a sweep.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "device/coop_layout.hpp"

namespace xmx::device {
namespace {

CoopLayout Make(CoopUse use, uint32_t rows, uint32_t cols, uint32_t bits, uint32_t sg) {
  std::string why;
  std::optional<CoopLayout> l = CoopLayout::Make(use, rows, cols, bits, sg, &why);
  EXPECT_TRUE(l.has_value()) << why;
  return l.value_or(CoopLayout{});
}

std::pair<uint32_t, uint32_t> At(const CoopLayout& l, uint32_t e, uint32_t lane) {
  const CoopCoord c = l.ElementCoord(e, lane);
  return {c.row, c.column};
}

// Every matrix element is held exactly once.
void ExpectBijection(const CoopLayout& l) {
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (uint32_t lane = 0; lane < l.subgroup_size(); ++lane) {
    for (uint32_t e = 0; e < l.length(); ++e) {
      const auto rc = At(l, e, lane);
      EXPECT_LT(rc.first, l.rows());
      EXPECT_LT(rc.second, l.columns());
      seen.insert(rc);
    }
  }
  EXPECT_EQ(seen.size(), size_t{l.rows()} * l.columns());
}

TEST(CoopLayout, LengthIsRowsPerInvocationTimesPack) {
  EXPECT_EQ(Make(CoopUse::kA, 8, 16, 16, 16).length(), 8u);    // bf16 A 8x16 at SG16
  EXPECT_EQ(Make(CoopUse::kA, 8, 32, 8, 16).length(), 16u);    // int8 A 8x32
  EXPECT_EQ(Make(CoopUse::kB, 16, 16, 16, 16).length(), 16u);  // 8 i32 of two bf16 each
  EXPECT_EQ(Make(CoopUse::kB, 32, 16, 8, 16).length(), 32u);   // 8 i32 of four int8 each
  EXPECT_EQ(Make(CoopUse::kAccumulator, 8, 16, 32, 16).length(), 8u);
  EXPECT_EQ(Make(CoopUse::kAccumulator, 32, 64, 32, 16).length(), 128u);  // {<64 x T>, <64 x T>}
  EXPECT_EQ(Make(CoopUse::kAccumulator, 1, 64, 32, 16).length(), 4u);
}

TEST(CoopLayout, ATableOfA4) {
  const CoopLayout a16 = Make(CoopUse::kA, 8, 16, 16, 16);     // 16-bit at SIMD16: A[i][j]
  const CoopLayout a8 = Make(CoopUse::kA, 8, 32, 8, 16);       // 8-bit: A[i/2][2j + i%2]
  const CoopLayout a16_sg8 = Make(CoopUse::kA, 8, 16, 16, 8);  // SIMD8 16-bit: A[i/2][2j + i%2]
  const CoopLayout a8_sg8 = Make(CoopUse::kA, 8, 32, 8, 8);    // SIMD8 8-bit: A[i/4][4j + i%4]
  for (uint32_t j = 0; j < 16; ++j) {
    for (uint32_t i = 0; i < a16.length(); ++i) EXPECT_EQ(At(a16, i, j), std::make_pair(i, j));
    for (uint32_t i = 0; i < a8.length(); ++i) {
      EXPECT_EQ(At(a8, i, j), std::make_pair(i / 2, 2 * j + i % 2));
    }
  }
  for (uint32_t j = 0; j < 8; ++j) {
    for (uint32_t i = 0; i < a16_sg8.length(); ++i) {
      EXPECT_EQ(At(a16_sg8, i, j), std::make_pair(i / 2, 2 * j + i % 2));
    }
    for (uint32_t i = 0; i < a8_sg8.length(); ++i) {
      EXPECT_EQ(At(a8_sg8, i, j), std::make_pair(i / 4, 4 * j + i % 4));
    }
  }
  for (const CoopLayout* l : {&a16, &a8, &a16_sg8, &a8_sg8}) ExpectBijection(*l);
}

TEST(CoopLayout, Tf32AtSubgroup16TakesRowsInTwoPhases) {
  // sg_cols = 8, skip = 2 in DEFINE_GET_COORD: row = lane / 8 + 2 i, column = lane % 8.
  const CoopLayout l = Make(CoopUse::kA, 8, 8, 32, 16);
  EXPECT_EQ(l.length(), 4u);
  for (uint32_t j = 0; j < 16; ++j) {
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(At(l, i, j), std::make_pair(2 * i + j / 8, j % 8));
  }
  ExpectBijection(l);
}

TEST(CoopLayout, BAndAccumulatorHoldOneColumnPerInvocation) {
  const CoopLayout b = Make(CoopUse::kB, 16, 16, 16, 16);
  const CoopLayout c = Make(CoopUse::kAccumulator, 8, 16, 32, 16);
  for (uint32_t j = 0; j < 16; ++j) {
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(At(b, i, j), std::make_pair(i, j));
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(At(c, i, j), std::make_pair(i, j));
  }
}

TEST(CoopLayout, LargeAccumulatorSlicesOfA4) {
  const CoopLayout big = Make(CoopUse::kAccumulator, 32, 64, 32, 16);
  const CoopLayout row = Make(CoopUse::kAccumulator, 1, 64, 32, 16);
  const CoopLayout sg8 = Make(CoopUse::kAccumulator, 32, 32, 32, 8);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t e = 0; e < 128; ++e) {  // C[e % 32][(e / 32) * 16 + lane]
      EXPECT_EQ(At(big, e, lane), std::make_pair(e % 32, (e / 32) * 16 + lane));
    }
    for (uint32_t e = 0; e < 4; ++e) {  // C[0][16 e + lane]
      EXPECT_EQ(At(row, e, lane), std::make_pair(0u, 16 * e + lane));
    }
  }
  ExpectBijection(big);
  ExpectBijection(row);
  ExpectBijection(sg8);
  ExpectBijection(Make(CoopUse::kA, 32, 16, 16, 16));
  ExpectBijection(Make(CoopUse::kA, 1, 32, 16, 16));
  ExpectBijection(Make(CoopUse::kA, 32, 16, 16, 8));
  ExpectBijection(Make(CoopUse::kB, 32, 64, 16, 16));
  ExpectBijection(Make(CoopUse::kB, 16, 32, 16, 8));
}

TEST(CoopLayout, ShapesWithoutAMappingAreRefusedWithTheReason) {
  std::string why;
  EXPECT_FALSE(CoopLayout::Make(CoopUse::kAccumulator, 8, 16, 32, 32, &why));
  EXPECT_NE(why.find("subgroup sizes 8 and 16"), std::string::npos) << why;
  EXPECT_FALSE(CoopLayout::Make(CoopUse::kAccumulator, 8, 12, 32, 16, &why));
  EXPECT_NE(why.find("multiple of 16"), std::string::npos) << why;
  EXPECT_FALSE(CoopLayout::Make(CoopUse::kA, 3, 8, 32, 16, &why));  // tf32: two row phases
  EXPECT_NE(why.find("multiple of 2"), std::string::npos) << why;
  EXPECT_FALSE(CoopLayout::Make(CoopUse::kB, 16, 16, 64, 16, &why));
  EXPECT_NE(why.find("8, 16 or 32 bits"), std::string::npos) << why;
  EXPECT_FALSE(CoopLayout::Make(CoopUse::kA, 0, 16, 16, 16, &why));
}

// The model: an invocation's slice written out in order. A holds its elements in contribution
// units (16 bits at subgroup size 16, 32 at 8; tf32 one element), B and the accumulator one
// element per invocation and row. A column block is the columns one row of units spans over the
// subgroup (A: at most the matrix's columns; B, accumulator: the subgroup size); when a row
// needs fewer invocations than the subgroup has, the invocations take the rows in turn. The
// slice is column block after column block, and within one, the rows the invocation takes in
// increasing order, each row's unit element by element.
std::optional<std::vector<std::pair<uint32_t, uint32_t>>> ModelSlice(CoopUse use, uint32_t rows,
                                                                     uint32_t cols, uint32_t bits,
                                                                     uint32_t sg, uint32_t lane) {
  if ((sg != 8 && sg != 16) || (bits != 8 && bits != 16 && bits != 32) || rows == 0 || cols == 0 ||
      rows > 256 || cols > 256) {
    return std::nullopt;
  }
  uint32_t per_unit = 1, block = sg;
  if (use == CoopUse::kA) {
    const uint32_t unit_bits = bits > (sg == 8 ? 32u : 16u) ? bits : (sg == 8 ? 32u : 16u);
    per_unit = unit_bits / bits;
    block = cols < sg * per_unit ? cols : sg * per_unit;
  }
  if (cols % block != 0 || block % per_unit != 0) return std::nullopt;
  const uint32_t lanes_in_row = block / per_unit;
  if (sg % lanes_in_row != 0) return std::nullopt;
  const uint32_t turns = sg / lanes_in_row;
  if (rows % turns != 0) return std::nullopt;
  std::vector<std::pair<uint32_t, uint32_t>> slice;
  for (uint32_t first_column = 0; first_column < cols; first_column += block) {
    for (uint32_t r = 0; r < rows; ++r) {
      if (r % turns != lane / lanes_in_row) continue;
      for (uint32_t f = 0; f < per_unit; ++f) {
        slice.emplace_back(r, first_column + (lane % lanes_in_row) * per_unit + f);
      }
    }
  }
  return slice;
}

TEST(CoopLayout, AgreesWithTheModelOnEveryShapeOfTheSweep) {
  int compared = 0;
  for (CoopUse use : {CoopUse::kA, CoopUse::kB, CoopUse::kAccumulator}) {
    for (uint32_t sg : {8u, 16u, 32u}) {
      for (uint32_t bits : {4u, 8u, 16u, 32u}) {
        for (uint32_t rows : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 16u, 32u, 64u}) {
          for (uint32_t cols : {4u, 8u, 16u, 24u, 32u, 64u}) {
            std::string why;
            const std::optional<CoopLayout> l = CoopLayout::Make(use, rows, cols, bits, sg, &why);
            const auto lane0 = ModelSlice(use, rows, cols, bits, sg, 0);
            ASSERT_EQ(l.has_value(), lane0.has_value())
                << static_cast<int>(use) << " " << rows << "x" << cols << " " << bits << "-bit SG"
                << sg << ": " << why;
            if (!l) continue;
            for (uint32_t lane = 0; lane < sg; ++lane) {
              const auto slice = *ModelSlice(use, rows, cols, bits, sg, lane);
              ASSERT_EQ(l->length(), slice.size());
              for (uint32_t e = 0; e < l->length(); ++e) {
                ASSERT_EQ(At(*l, e, lane), slice[e])
                    << static_cast<int>(use) << " " << rows << "x" << cols << " " << bits
                    << "-bit SG" << sg << " element " << e << " lane " << lane;
              }
            }
            ++compared;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 100);
}

}  // namespace
}  // namespace xmx::device
