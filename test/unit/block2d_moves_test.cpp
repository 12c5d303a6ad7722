// source/interp/block2d against the reference model of block2d_test_support.hpp: every A.4 and
// IGC shape loaded and stored at every subgroup size, out-of-bounds and allocation edges,
// Prepare's static rules and CheckBlock2d's undefined-behaviour rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "block2d_test_support.hpp"
#include "interp/block2d/block2d.hpp"

namespace xmx::interp {
namespace {

using namespace block2d_testing;

// ---------------------------------------------------------------------------------------------
// The library against the reference model.

TEST(Block2dLoad, EveryA4RowMatchesReference) {
  for (const TableRow& row : A4Table()) {
    if (!IsLoad(row.op)) continue;
    for (uint32_t h : row.heights) {
      for (uint32_t c : row.counts) ExpectLoadMatchesReference({row.op, row.e, row.w, h, c, 16});
    }
  }
}

TEST(Block2dStore, EveryA4RowMatchesReference) {
  for (const TableRow& row : A4Table()) {
    if (row.op != O::kStore) continue;
    for (uint32_t h : row.heights) {
      for (uint32_t c : row.counts) ExpectStoreMatchesReference({row.op, row.e, row.w, h, c, 16});
    }
  }
}

TEST(Block2dLoad, IgcRowsMatchReferenceAtSubgroups8To32) {
  for (uint32_t sg : {8, 16, 32}) {
    for (const RefShape& s : IgcShapes(sg)) {
      if (IsLoad(s.op)) ExpectLoadMatchesReference(s);
    }
  }
}

TEST(Block2dStore, IgcRowsMatchReferenceAtSubgroups8To32) {
  for (uint32_t sg : {8, 16, 32}) {
    for (const RefShape& s : IgcShapes(sg)) {
      if (s.op == O::kStore) ExpectStoreMatchesReference(s);
    }
  }
}

// Shapes A.5 pads (width not a power of two; transform heights not a multiple of 4 / 2;
// transpose heights not a power of two; a count of 3), at every subgroup size.
const std::vector<RefShape> kOddShapes = {
    {O::kLoad, 1, 12, 3, 1, 0},          {O::kLoad, 2, 6, 5, 3, 0},
    {O::kLoad, 4, 3, 7, 2, 0},           {O::kLoad, 8, 5, 3, 1, 0},
    {O::kLoadTransform, 1, 12, 6, 2, 0}, {O::kLoadTransform, 2, 10, 3, 1, 0},
    {O::kLoadTranspose, 4, 3, 12, 1, 0}, {O::kLoadTranspose, 8, 2, 5, 1, 0},
    {O::kLoadTranspose, 1, 4, 12, 1, 0}, {O::kLoadTranspose, 2, 6, 10, 1, 0},
    {O::kStore, 1, 20, 3, 1, 0},         {O::kStore, 2, 6, 5, 3, 0},
    {O::kStore, 4, 3, 7, 2, 0},          {O::kStore, 8, 24, 2, 1, 0},
};

TEST(Block2dLoad, PaddedShapesMatchReferenceAtEverySubgroupSize) {
  for (uint32_t sg : {1, 2, 4, 8, 16, 32, 64}) {
    for (RefShape s : kOddShapes) {
      s.sg = sg;
      if (IsLoad(s.op)) ExpectLoadMatchesReference(s);
    }
  }
}

TEST(Block2dStore, PaddedShapesMatchReferenceAtEverySubgroupSize) {
  for (uint32_t sg : {1, 2, 4, 8, 16, 32, 64}) {
    for (RefShape s : kOddShapes) {
      s.sg = sg;
      if (s.op == O::kStore) ExpectStoreMatchesReference(s);
    }
  }
}

// A surface that claims more rows than the allocation holds: elements past its end read as zero
// and are never written.
TEST(Block2dLoad, ElementsOutsideTheAllocationReadZero) {
  for (const RefShape& s : {RefShape{O::kLoad, 2, 16, 8, 2, 16},
                            {O::kLoad, 1, 32, 32, 2, 16},
                            {O::kLoadTransform, 2, 16, 16, 2, 16},
                            {O::kLoadTranspose, 4, 8, 32, 1, 16},
                            {O::kLoad, 8, 4, 5, 1, 8}}) {
    for (int64_t truncate : {0, 1, 77, 1000, 2345, 5001}) ExpectLoadMatchesReference(s, truncate);
  }
}

TEST(Block2dStore, NeverWritesOutsideTheAllocation) {
  for (const RefShape& s : {RefShape{O::kStore, 2, 16, 8, 1, 16},
                            {O::kStore, 1, 32, 8, 1, 16},
                            {O::kStore, 4, 16, 8, 1, 32},
                            {O::kStore, 8, 4, 5, 1, 8}}) {
    for (int64_t truncate : {0, 1, 77, 1000, 2345, 5001}) ExpectStoreMatchesReference(s, truncate);
  }
}

TEST(Block2dLoad, PrefetchTouchesNothing) {
  const Block2dPayloadLayout layout = Prepared({O::kPrefetch, 1, 32, 8, 2, 16});
  RefMemory m = PatternSurface(Value8);
  LoadBlock2d(layout, SurfaceOf<const uint8_t>(m), nullptr);
}

// Hostile surfaces: extreme coordinates and sizes must neither crash nor touch memory outside
// the allocation (the sanitizer build would catch a stray access).
TEST(Block2dLoad, ExtremeOperandsStayInsideTheAllocation) {
  const RefShape s{O::kLoad, 4, 8, 4, 2, 16};
  const Block2dPayloadLayout layout = Prepared(s);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  std::mt19937 rng(5);
  RefMemory m;
  m.bytes = RandomBytes(rng, 4096);
  for (int64_t width : {kMin, int64_t{-64}, int64_t{256}, kMax}) {
    for (int64_t pitch : {kMin, int64_t{-1024}, int64_t{-256}, int64_t{256}, kMax}) {
      for (int64_t x : {kMin, int64_t{-3}, int64_t{5}, kMax}) {
        for (int64_t y : {kMin, int64_t{-2}, int64_t{3}, kMax}) {
          m.width = width;
          m.height = kMax;
          m.pitch = pitch;
          m.x = x;
          m.y = y;
          m.base = 2048;
          std::vector<uint8_t> payload(layout.payload_bytes());
          LoadBlock2d(layout, SurfaceOf<const uint8_t>(m), payload.data());
          if (width > 0 && pitch > -4096 && pitch < 4096 && x > -100 && x < 100 && y > -100 &&
              y < 100) {
            EXPECT_EQ(payload, RefLoad(s, m)) << width << " " << pitch << " " << x << " " << y;
          }
          RefMemory copy = m;
          const Block2dPayloadLayout store = Prepared({O::kStore, 4, 8, 4, 1, 16});
          StoreBlock2d(store, SurfaceOf<uint8_t>(copy), payload.data());
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Prepare: the static rules on the constant operands.

std::string WhyNot(const Block2dShape& shape) {
  std::string why;
  EXPECT_FALSE(Block2dPayloadLayout::Prepare(shape, &why).has_value());
  return why;
}

TEST(Block2dPrepare, RejectsWhatTheRulesForbid) {
  EXPECT_EQ(WhyNot({O::kLoad, 3, 16, 8, 1, 16}), "Element Size 3 is not 1, 2, 4 or 8");
  EXPECT_EQ(WhyNot({O::kLoad, 16, 16, 8, 1, 16}), "Element Size 16 is not 1, 2, 4 or 8");
  EXPECT_EQ(WhyNot({O::kLoad, 2, 0, 8, 1, 16}), "Block Width 0 is not positive");
  EXPECT_EQ(WhyNot({O::kLoad, 2, 16, 0, 1, 16}), "Block Height 0 is not positive");
  EXPECT_EQ(WhyNot({O::kLoad, 2, 16, 8, 0, 16}), "Block Count 0 is not positive");
  EXPECT_EQ(WhyNot({O::kLoad, 1, 6, 8, 1, 16}),
            "Block Width 6 is not a multiple of 4 for 1-byte elements");
  EXPECT_EQ(WhyNot({O::kStore, 2, 7, 8, 1, 16}),
            "Block Width 7 is not a multiple of 2 for 2-byte elements");
  EXPECT_EQ(WhyNot({O::kLoad, 2, 16, 8, 1, 12}),
            "subgroup size 12 is not a power of two no larger than 64");
  EXPECT_EQ(WhyNot({O::kLoad, 2, 16, 8, 1, 128}),
            "subgroup size 128 is not a power of two no larger than 64");
  EXPECT_EQ(WhyNot({O::kLoadTransform, 4, 16, 8, 1, 16}),
            "Element Size 4 cannot be transformed: LoadTransform packs 1- or 2-byte elements into "
            "32-bit words");
  EXPECT_EQ(WhyNot({O::kLoad, 4, 70000, 8, 1, 16}),
            "Block Width 70000 exceeds the interpreter's limit of 65536");
  EXPECT_EQ(WhyNot({O::kLoad, 8, 65536, 65536, 1, 16}),
            "the block (Block Height 65536 x Block Count 1 x Block Width 65536 x Element Size 8) "
            "exceeds the interpreter's limit of 1048576 bytes");
  EXPECT_TRUE(Block2dPayloadLayout::Prepare({O::kLoad, 2, 16, 8, 1, 16}, nullptr).has_value());
  EXPECT_FALSE(Block2dPayloadLayout::Prepare({O::kLoad, 3, 16, 8, 1, 16}, nullptr).has_value());
}

TEST(Block2dPrepare, AcceptsEveryA4AndIgcShape) {
  for (const TableRow& row : A4Table()) {
    for (uint32_t h : row.heights) {
      for (uint32_t c : row.counts) Prepared({row.op, row.e, row.w, h, c, 16});
    }
  }
  for (uint32_t sg : {8, 16, 32}) {
    for (const RefShape& s : IgcShapes(sg)) Prepared(s);
  }
}

// ---------------------------------------------------------------------------------------------
// CheckBlock2d: each undefined-behaviour rule of A.3, violated and respected.

class Block2dCheck : public ::testing::Test {
 protected:
  // A valid surface for E2 W16 H8 x2: 256 bytes wide, 64 rows, pitch 320, in a buffer that fits.
  Block2dCheck() : layout_(Prepared({O::kLoad, 2, 16, 8, 2, 16})) {
    memory_.assign(64 + 64 * 320, 0);
    surface_ = {memory_.data(), memory_.size(), 64, 256, 64, 320, 8, 4};
  }
  std::optional<std::string> Check() const { return CheckBlock2d(layout_, surface_); }
  std::optional<std::string> CheckAs(const RefShape& s) const {
    return CheckBlock2d(Prepared(s), surface_);
  }

  Block2dPayloadLayout layout_;
  std::vector<uint8_t> memory_;
  Block2dSurface surface_;
};

TEST_F(Block2dCheck, ValidSurfacePasses) { EXPECT_EQ(Check(), std::nullopt); }

TEST_F(Block2dCheck, BasePointerAlignment) {
  surface_.base_offset = 32;
  EXPECT_EQ(Check(),
            "Src Base Pointer is not 64-byte aligned: it points to byte 32 of its "
            "allocation");
  EXPECT_EQ(CheckAs({O::kStore, 2, 16, 8, 1, 16}),
            "Dst Base Pointer is not 64-byte aligned: it points to byte 32 of its allocation");
  surface_.base_offset = 0;
  EXPECT_EQ(Check(), std::nullopt);
}

TEST_F(Block2dCheck, MemoryWidthRange) {
  surface_.width = 60;
  EXPECT_EQ(Check(), "Memory Width 60 is less than 64 bytes");
  surface_.width = -64;
  EXPECT_EQ(Check(), "Memory Width -64 is less than 64 bytes");
  surface_.width = 64;
  EXPECT_EQ(Check(), std::nullopt);
  surface_.width = surface_.pitch = (1 << 24) + 16;
  EXPECT_EQ(Check(), "Memory Width 16777232 exceeds 2^24 bytes");
  surface_.width = surface_.pitch = 1 << 24;
  surface_.height = 1;
  surface_.y = 0;
  memory_.resize(64 + (1 << 24));
  surface_.data = memory_.data();
  surface_.allocation_size = memory_.size();
  EXPECT_EQ(Check(), std::nullopt);
}

TEST_F(Block2dCheck, MemoryWidthMultiple) {
  surface_.width = 258;
  EXPECT_EQ(Check(), "Memory Width 258 is not a multiple of 4 for 2-byte elements");
  EXPECT_EQ(CheckAs({O::kLoad, 1, 32, 8, 1, 16}),
            "Memory Width 258 is not a multiple of 4 for 1-byte elements");
  surface_.width = 260;
  EXPECT_EQ(Check(), std::nullopt);
  EXPECT_EQ(CheckAs({O::kLoad, 4, 8, 8, 1, 16}), std::nullopt);
  EXPECT_EQ(CheckAs({O::kLoad, 8, 8, 8, 1, 16}),
            "Memory Width 260 is not a multiple of 8 for 8-byte elements");
  surface_.width = 264;
  EXPECT_EQ(CheckAs({O::kLoad, 8, 8, 8, 1, 16}), std::nullopt);
}

TEST_F(Block2dCheck, MemoryHeightRange) {
  surface_.height = 0;
  EXPECT_EQ(Check(), "Memory Height 0 is not positive");
  surface_.height = -3;
  EXPECT_EQ(Check(), "Memory Height -3 is not positive");
  surface_.height = (1 << 24) + 1;
  EXPECT_EQ(Check(), "Memory Height 16777217 exceeds 2^24 rows");
  surface_.height = 1 << 24;  // the block itself stays inside the buffer
  EXPECT_EQ(Check(), std::nullopt);
  surface_.height = 1;
  surface_.y = 0;
  EXPECT_EQ(Check(), std::nullopt);
}

TEST_F(Block2dCheck, MemoryPitch) {
  surface_.pitch = 240;
  EXPECT_EQ(Check(), "Memory Pitch 240 is less than Memory Width 256");
  surface_.pitch = 264;
  EXPECT_EQ(Check(), "Memory Pitch 264 is not a multiple of 16");
  surface_.pitch = 256;
  EXPECT_EQ(Check(), std::nullopt);
  surface_.pitch = 272;
  EXPECT_EQ(Check(), std::nullopt);
}

TEST_F(Block2dCheck, CoordinateXAlignment) {
  surface_.x = 3;
  EXPECT_EQ(Check(), "Coordinate X 3 is not a multiple of 2 for 2-byte elements");
  EXPECT_EQ(CheckAs({O::kLoad, 4, 8, 8, 1, 16}), std::nullopt);
  surface_.x = -6;
  EXPECT_EQ(Check(), std::nullopt);
  EXPECT_EQ(CheckAs({O::kLoad, 1, 32, 8, 1, 16}),
            "Coordinate X -6 is not a multiple of 4 for 1-byte elements");
  surface_.x = -8;
  EXPECT_EQ(CheckAs({O::kLoad, 1, 32, 8, 1, 16}), std::nullopt);
  surface_.x = 1;  // Y has no alignment rule
  surface_.y = 3;
  EXPECT_EQ(CheckAs({O::kLoad, 8, 4, 8, 1, 16}), std::nullopt);
}

TEST_F(Block2dCheck, InBoundsElementsOutsideTheAllocation) {
  // 64 rows of pitch 320 after byte 64 fill the buffer exactly; one more row does not fit, but
  // only matters when the block reaches it.
  surface_.height = 65;
  EXPECT_EQ(Check(), std::nullopt);
  surface_.y = 60;  // rows 60..64 are in bounds, row 64 is past the buffer
  EXPECT_EQ(Check(),
            "Memory Width 256, Memory Height 65 and Memory Pitch 320 put the in-bounds element at "
            "row 64, column 8 at bytes 20560..20561, beyond the 20544-byte allocation of the Src "
            "Base Pointer");
  surface_.y = 65;  // wholly out of bounds: nothing is read
  EXPECT_EQ(Check(), std::nullopt);
  // A buffer that ends inside a row: the first element that does not fit is named.
  surface_.height = 64;
  surface_.y = 56;
  surface_.allocation_size -= 320 - 40;  // row 63 keeps 40 bytes = columns 0..19
  EXPECT_EQ(Check(),
            "Memory Width 256, Memory Height 64 and Memory Pitch 320 put the in-bounds element at "
            "row 63, column 20 at bytes 20264..20265, beyond the 20264-byte allocation of the Src "
            "Base Pointer");
  surface_.x = -32;  // the block covers columns 0..-1 only: out of bounds, nothing read
  EXPECT_EQ(Check(), std::nullopt);
  surface_.x = -16;  // columns 0..15 in bounds, all within the 40 bytes
  EXPECT_EQ(Check(), std::nullopt);
  surface_.base_offset = 1 << 20;  // base pointer past the end of its buffer
  EXPECT_NE(Check(), std::nullopt);
}

TEST_F(Block2dCheck, StoreAndPrefetchFollowTheSameRules) {
  surface_.pitch = 264;
  EXPECT_EQ(CheckAs({O::kStore, 2, 16, 8, 1, 16}), "Memory Pitch 264 is not a multiple of 16");
  EXPECT_EQ(CheckAs({O::kPrefetch, 2, 16, 8, 1, 16}), "Memory Pitch 264 is not a multiple of 16");
  surface_.pitch = 320;
  EXPECT_EQ(CheckAs({O::kPrefetch, 2, 16, 8, 1, 16}), std::nullopt);
  std::vector<uint8_t> writable(memory_.size());
  const Block2dMutableSurface store{writable.data(), writable.size(), 64, 256, 64, 320, 8, 4};
  EXPECT_EQ(CheckBlock2d(Prepared({O::kStore, 2, 16, 8, 1, 16}), store), std::nullopt);
}

}  // namespace
}  // namespace xmx::interp
