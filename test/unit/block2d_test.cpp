// source/interp/block2d against the reference model of block2d_test_support.hpp: payload sizes
// and hand-written expectations for the cases SPEC-NOTES A.5 spells out.
#include "interp/block2d/block2d.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "block2d_test_support.hpp"

namespace xmx::interp {
namespace {

using namespace block2d_testing;

// ---------------------------------------------------------------------------------------------
// Payload sizes.

// The per-invocation payload table of A.5 at SG16, literally: {op, E, W, Count, H, bytes}.
TEST(Block2dPayloadTable, MatchesSpecNotesA5AtSubgroup16) {
  struct Entry {
    Block2dOp op;
    uint32_t e, w, c, h, bytes;
  };
  std::vector<Entry> entries;
  for (uint32_t h : {1, 2, 4, 8, 16, 32}) {
    entries.push_back({O::kLoad, 1, 32, 1, h, 2 * h});  // H ushorts
    entries.push_back({O::kLoad, 1, 32, 2, h, 4 * h});  // 2H ushorts
    entries.push_back({O::kLoad, 2, 16, 1, h, 2 * h});
    entries.push_back({O::kLoad, 2, 16, 2, h, 4 * h});
    entries.push_back({O::kLoad, 4, 16, 1, h, 4 * h});  // H uints
  }
  for (auto [h, uints] : {std::pair{1u, 1u}, {2, 1}, {4, 2}, {8, 4}, {16, 8}, {32, 16}}) {
    entries.push_back({O::kLoad, 4, 8, 1, h, 4 * uints});
    entries.push_back({O::kLoad, 4, 8, 2, h, 8 * uints});
  }
  entries.insert(entries.end(), {
                                    {O::kLoad, 1, 16, 4, 8, 32},  // uchars
                                    {O::kLoad, 1, 16, 4, 16, 64},
                                    {O::kLoad, 1, 16, 4, 32, 128},
                                    {O::kLoadTransform, 1, 16, 1, 32, 4 * 8},
                                    {O::kLoadTransform, 1, 16, 2, 32, 4 * 16},
                                    {O::kLoadTransform, 1, 16, 4, 32, 4 * 32},
                                    {O::kLoadTransform, 2, 16, 1, 16, 4 * 8},
                                    {O::kLoadTransform, 2, 16, 1, 32, 4 * 16},
                                    {O::kLoadTransform, 2, 16, 2, 16, 4 * 16},
                                    {O::kLoadTransform, 2, 16, 2, 32, 4 * 32},
                                    {O::kLoadTranspose, 4, 8, 1, 16, 4 * 8},
                                    {O::kLoadTranspose, 4, 8, 1, 32, 4 * 16},
                                });
  for (uint32_t h : {1, 2, 4, 8}) {
    entries.push_back({O::kStore, 1, 16, 1, h, h});  // uchars
    entries.push_back({O::kStore, 1, 32, 1, h, 2 * h});
    entries.push_back({O::kStore, 2, 16, 1, h, 2 * h});
    entries.push_back({O::kStore, 4, 16, 1, h, 4 * h});
  }
  for (const Entry& entry : entries) {
    const RefShape s{entry.op, entry.e, entry.w, entry.h, entry.c, 16};
    EXPECT_EQ(Prepared(s).payload_bytes_per_lane(), entry.bytes) << Describe(s);
    EXPECT_EQ(RefLaneBytes(s), entry.bytes) << Describe(s) << " (reference model)";
  }
}

TEST(Block2dPayloadTable, NamedExamples) {
  EXPECT_EQ(Prepared({O::kLoad, 4, 8, 1, 1, 16}).payload_bytes_per_lane(), 4u);   // one uint
  EXPECT_EQ(Prepared({O::kLoad, 4, 8, 2, 1, 16}).payload_bytes_per_lane(), 4u);   // one uint
  EXPECT_EQ(Prepared({O::kLoad, 4, 8, 1, 2, 16}).payload_bytes_per_lane(), 8u);   // two uints
  EXPECT_EQ(Prepared({O::kLoad, 1, 32, 1, 1, 16}).payload_bytes_per_lane(), 2u);  // one ushort
  EXPECT_EQ(Prepared({O::kStore, 1, 32, 1, 1, 16}).payload_bytes_per_lane(), 2u);
  EXPECT_EQ(Prepared({O::kLoadTranspose, 4, 8, 32, 1, 16}).payload_bytes_per_lane(), 64u);
  const Block2dPayloadLayout prefetch = Prepared({O::kPrefetch, 2, 16, 32, 2, 16});
  EXPECT_EQ(prefetch.payload_bytes_per_lane(), 0u);
  EXPECT_EQ(prefetch.payload_bytes(), 0u);
}

TEST(Block2dPayloadTable, ProcessedBlockGeometry) {
  const Block2dPayloadLayout transform = Prepared({O::kLoadTransform, 1, 16, 32, 2, 16});
  EXPECT_EQ(transform.processed_rows(), 8u);  // 32 byte rows fold into 8 dword rows
  EXPECT_EQ(transform.processed_row_units(), 16u);
  EXPECT_EQ(transform.unit_bytes(), 4u);
  const Block2dPayloadLayout transpose = Prepared({O::kLoadTranspose, 4, 8, 12, 1, 16});
  EXPECT_EQ(transpose.processed_rows(), 8u);        // one per memory column
  EXPECT_EQ(transpose.processed_row_units(), 16u);  // 12 memory rows padded to 16
  EXPECT_EQ(transpose.unit_bytes(), 4u);
  const Block2dPayloadLayout padded = Prepared({O::kLoad, 2, 6, 3, 1, 16});
  EXPECT_EQ(padded.processed_rows(), 3u);
  EXPECT_EQ(padded.processed_row_units(), 8u);
}

// The model itself: every element of the block gets its own private bytes, inside the lane.
TEST(Block2dPayloadTable, ReferenceModelPlacesEveryElementOnce) {
  std::vector<RefShape> shapes;
  for (uint32_t sg : {8, 16, 32}) {
    for (const RefShape& s : IgcShapes(sg)) shapes.push_back(s);
  }
  for (const RefShape& s : shapes) {
    if (s.op == O::kPrefetch) continue;
    const uint32_t lane_bytes = RefLaneBytes(s);
    std::vector<int> used(size_t{lane_bytes} * s.sg, 0);
    for (uint32_t b = 0; b < s.c; ++b) {
      for (uint32_t row = 0; row < s.h; ++row) {
        for (uint32_t column = 0; column < s.w; ++column) {
          const RefPlace place = RefPlaceOf(s, b, row, column);
          ASSERT_LT(place.lane, s.sg) << Describe(s);
          ASSERT_LE(place.byte + s.e, lane_bytes) << Describe(s);
          for (uint32_t i = 0; i < s.e; ++i) ++used[place.lane * lane_bytes + place.byte + i];
        }
      }
    }
    EXPECT_EQ(*std::max_element(used.begin(), used.end()), 1) << Describe(s);
    // Power-of-two shapes of at least one unit per invocation leave no slot unused.
    const uint32_t units = s.w * s.h * (s.op == O::kLoadTransform ? s.e : 4) / 4;
    if (units >= s.sg) EXPECT_EQ(*std::min_element(used.begin(), used.end()), 1) << Describe(s);
  }
}

// ---------------------------------------------------------------------------------------------
// Hand-written expectations for the cases A.5 spells out; they pin down the reference model too.

TEST(Block2dMapping, Width8Dwords_LowerHalfTakesEvenRowsUpperHalfOddRows) {
  RefMemory m = PatternSurface(Value32);
  const std::vector<uint32_t> v = LoadAs<uint32_t>({O::kLoad, 4, 8, 4, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 2);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t j = 0; j < 2; ++j) {
      EXPECT_EQ(v[lane * 2 + j], Value32(2 * j + lane / 8, lane % 8)) << lane << " " << j;
    }
  }
}

TEST(Block2dMapping, Width8DwordsOneRow_UpperHalfReadsZero) {
  RefMemory m = PatternSurface(Value32);
  m.x = 4;
  const std::vector<uint32_t> v = LoadAs<uint32_t>({O::kLoad, 4, 8, 1, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    EXPECT_EQ(v[lane], lane < 8 ? Value32(0, 4 + lane) : 0u) << lane;
  }
}

TEST(Block2dMapping, Bytes32Wide_OneUshortPerRowLowByteEvenColumn) {
  RefMemory m = PatternSurface(Value8);
  const std::vector<uint16_t> v = LoadAs<uint16_t>({O::kLoad, 1, 32, 2, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 2);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t row = 0; row < 2; ++row) {
      EXPECT_EQ(v[lane * 2 + row], Value8(row, 2 * lane) | Value8(row, 2 * lane + 1) << 8);
    }
  }
}

TEST(Block2dMapping, TwoBlocks_Block0ThenBlock1) {
  RefMemory m = PatternSurface(Value16);
  m.x = 2;
  m.y = 3;
  const std::vector<uint16_t> v = LoadAs<uint16_t>({O::kLoad, 2, 16, 8, 2, 16}, m);
  ASSERT_EQ(v.size(), 16u * 16);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t j = 0; j < 16; ++j) {
      const uint32_t block = j / 8;
      EXPECT_EQ(v[lane * 16 + j], Value16(3 + j % 8, 2 + block * 16 + lane)) << lane << " " << j;
    }
  }
}

TEST(Block2dMapping, Transform16Bit_LowerRowInLowHalf) {
  RefMemory m = PatternSurface(Value16);
  const std::vector<uint32_t> v = LoadAs<uint32_t>({O::kLoadTransform, 2, 16, 16, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 8);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t j = 0; j < 8; ++j) {
      EXPECT_EQ(v[lane * 8 + j], Value16(2 * j, lane) | uint32_t{Value16(2 * j + 1, lane)} << 16);
    }
  }
}

TEST(Block2dMapping, Transform8Bit_FourRowsPerDword) {
  RefMemory m = PatternSurface(Value8);
  const std::vector<uint32_t> v = LoadAs<uint32_t>({O::kLoadTransform, 1, 16, 32, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 8);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t j = 0; j < 8; ++j) {
      uint32_t expected = 0;
      for (uint32_t t = 0; t < 4; ++t) expected |= uint32_t{Value8(4 * j + t, lane)} << (8 * t);
      EXPECT_EQ(v[lane * 8 + j], expected);
    }
  }
}

TEST(Block2dMapping, Transpose32Rows_EachLaneTakesMemoryRows2iAnd2iPlus1) {
  RefMemory m = PatternSurface(Value32);
  const std::vector<uint32_t> v = LoadAs<uint32_t>({O::kLoadTranspose, 4, 8, 32, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 16);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t column = 0; column < 8; ++column) {
      EXPECT_EQ(v[lane * 16 + 2 * column], Value32(2 * lane, column));
      EXPECT_EQ(v[lane * 16 + 2 * column + 1], Value32(2 * lane + 1, column));
    }
  }
}

TEST(Block2dMapping, PaddedWidth_LanesPastTheWidthReadZero) {
  RefMemory m = PatternSurface(Value16);
  const std::vector<uint16_t> v = LoadAs<uint16_t>({O::kLoad, 2, 12, 2, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 2);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t row = 0; row < 2; ++row) {
      EXPECT_EQ(v[lane * 2 + row], lane < 12 ? Value16(row, lane) : 0) << lane;
    }
  }
}

TEST(Block2dMapping, StoreBytes16Wide_OneUcharPerRow) {
  RefMemory m;
  m.width = m.pitch = 64;
  m.height = 4;
  m.bytes.assign(64 * 4, 0xEE);
  m.x = 8;
  m.y = 1;
  const Block2dPayloadLayout layout = Prepared({O::kStore, 1, 16, 2, 1, 16});
  std::vector<uint8_t> payload(32);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    payload[lane * 2] = static_cast<uint8_t>(lane);
    payload[lane * 2 + 1] = static_cast<uint8_t>(0x80 + lane);
  }
  StoreBlock2d(layout, SurfaceOf<uint8_t>(m), payload.data());
  for (uint32_t row = 0; row < 4; ++row) {
    for (uint32_t column = 0; column < 64; ++column) {
      uint8_t expected = 0xEE;
      if (row == 1 && column >= 8 && column < 24) expected = static_cast<uint8_t>(column - 8);
      if (row == 2 && column >= 8 && column < 24)
        expected = static_cast<uint8_t>(0x80 + column - 8);
      EXPECT_EQ(m.bytes[row * 64 + column], expected) << row << " " << column;
    }
  }
}

}  // namespace
}  // namespace xmx::interp
