// TransposeElements (the vector tile path and the element-wise edges) against an element-by-
// element model: every element size, sizes around the tile sizes, negative and padded strides,
// and no byte written outside the elements.
#include "interp/block2d/block2d_transpose.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace xmx::interp {
namespace {

struct Case {
  uint32_t element_bytes, rows, columns;
  ptrdiff_t src_row_stride, dst_column_stride;  // in elements; negative runs backwards
};

void ExpectTransposes(const Case& c) {
  SCOPED_TRACE(testing::Message() << "E" << c.element_bytes << " " << c.rows << "x" << c.columns
                                  << " strides " << c.src_row_stride << "/" << c.dst_column_stride);
  const size_t e = c.element_bytes;
  const size_t src_extent = (c.rows + 1) * std::abs(c.src_row_stride) * e + c.columns * e;
  const size_t dst_extent = (c.columns + 1) * std::abs(c.dst_column_stride) * e + c.rows * e;
  std::vector<uint8_t> src(src_extent), dst(dst_extent, 0xa5), expected(dst_extent, 0xa5);
  std::mt19937 rng(c.rows * 131 + c.columns * 7 + c.element_bytes);
  for (uint8_t& b : src) b = static_cast<uint8_t>(rng());
  // Negative strides start from the far end so every address stays inside the buffers.
  uint8_t* src0 = src.data() + (c.src_row_stride < 0 ? c.rows * -c.src_row_stride * e : 0);
  uint8_t* dst0 = dst.data() + (c.dst_column_stride < 0 ? c.columns * -c.dst_column_stride * e : 0);
  uint8_t* exp0 =
      expected.data() + (c.dst_column_stride < 0 ? c.columns * -c.dst_column_stride * e : 0);
  for (uint32_t r = 0; r < c.rows; ++r) {
    for (uint32_t col = 0; col < c.columns; ++col) {
      std::memcpy(exp0 + col * c.dst_column_stride * ptrdiff_t(e) + r * e,
                  src0 + r * c.src_row_stride * ptrdiff_t(e) + col * e, e);
    }
  }
  TransposeElements(src0, c.src_row_stride * ptrdiff_t(e), dst0, c.dst_column_stride * ptrdiff_t(e),
                    c.rows, c.columns, c.element_bytes);
  EXPECT_EQ(dst, expected);
}

TEST(Block2dTranspose, MatchesElementModelForEverySizeAndShape) {
  for (uint32_t e : {1u, 2u, 4u, 8u}) {
    const uint32_t tile = 16 / e;
    // 2, 3 and 4 tiles of rows: pairs of tiles move together on AVX2 CPUs, an odd tile alone.
    for (uint32_t rows :
         {1u, tile - 1, tile, tile + 1, 2 * tile, 2 * tile + 1, 3 * tile, 4 * tile + 2, 32u, 33u}) {
      for (uint32_t columns : {1u, tile - 1, tile, tile + 3, 2 * tile, 16u}) {
        if (rows == 0 || columns == 0) continue;
        // Tight strides, padded strides, and a payload-like layout (lane stride 64 bytes).
        ExpectTransposes({e, rows, columns, ptrdiff_t(columns), ptrdiff_t(rows)});
        ExpectTransposes({e, rows, columns, ptrdiff_t(columns + 5), ptrdiff_t(rows + 3)});
        ExpectTransposes({e, rows, columns, ptrdiff_t(columns + 2), ptrdiff_t(2 * rows + 64)});
      }
    }
  }
}

TEST(Block2dTranspose, NegativeStrides) {
  for (uint32_t e : {1u, 2u, 4u, 8u}) {
    ExpectTransposes({e, 16, 16, -16, 16});
    ExpectTransposes({e, 16, 16, 20, -17});
    ExpectTransposes({e, 9, 17, -19, -11});
  }
}

}  // namespace
}  // namespace xmx::interp
