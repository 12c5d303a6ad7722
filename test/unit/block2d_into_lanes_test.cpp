// LoadBlock2dIntoLanes, the load that writes each invocation's private bytes directly, against
// LoadBlock2d followed by a copy of each invocation's payload (the general path, itself held to
// the reference model by block2d_moves_test.cpp): every load shape of A.4, IGC's rows and the
// padded shapes at every subgroup size, at the scene's placements inside, across every edge and
// outside the surface and the allocation. Where the fast path declines it must write nothing;
// where it runs, every invocation's bytes must be the general path's and the bytes between
// invocations untouched.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "block2d_test_support.hpp"
#include "interp/block2d/block2d.hpp"

namespace xmx::interp {
namespace {

using namespace block2d_testing;

constexpr uint8_t kUntouched = 0xA5;

// Runs both paths for `s` at every placement of its scene, with invocations `gap` bytes further
// apart than their payload. Returns how many placements took the fast path.
int ExpectIntoLanesMatchesGeneralPath(const RefShape& s, uint32_t gap, int64_t truncate = -1) {
  std::mt19937 rng(s.e * 31 + s.w * 7 + s.h * 3 + s.c + s.sg * 101 + gap);
  const Block2dPayloadLayout layout = Prepared(s);
  const size_t per_lane = layout.payload_bytes_per_lane();
  const size_t stride = per_lane + gap;
  Scene scene = MakeScene(s, rng, truncate);
  int fast = 0;
  for (const auto& [x, y] : scene.coordinates) {
    scene.memory.x = x;
    scene.memory.y = y;
    const Block2dSurface surface = SurfaceOf<const uint8_t>(scene.memory);
    std::vector<uint8_t> payload(layout.payload_bytes(), 0xCD);
    LoadBlock2d(layout, surface, payload.data());
    std::vector<uint8_t> lanes(stride * s.sg, kUntouched);
    const std::string where = Describe(s) + " at (" + std::to_string(x) + ", " + std::to_string(y) +
                              "), gap " + std::to_string(gap);
    if (!LoadBlock2dIntoLanes(layout, surface, lanes.data(), stride)) {
      EXPECT_EQ(lanes, std::vector<uint8_t>(stride * s.sg, kUntouched))
          << where << ": declined but wrote";
      continue;
    }
    ++fast;
    for (uint32_t lane = 0; lane < s.sg; ++lane) {
      const uint8_t* got = lanes.data() + lane * stride;
      const uint8_t* want = payload.data() + lane * per_lane;
      EXPECT_EQ(std::vector<uint8_t>(got, got + per_lane),
                std::vector<uint8_t>(want, want + per_lane))
          << where << ", invocation " << lane;
      EXPECT_EQ(std::vector<uint8_t>(got + per_lane, got + stride),
                std::vector<uint8_t>(gap, kUntouched))
          << where << ", bytes after invocation " << lane;
    }
  }
  return fast;
}

void ExpectAllPlacements(const RefShape& s) {
  for (uint32_t gap : {0u, 8u, 40u}) ExpectIntoLanesMatchesGeneralPath(s, gap);
}

TEST(Block2dIntoLanes, EveryA4LoadMatchesGeneralPath) {
  for (const TableRow& row : A4Table()) {
    if (!IsLoad(row.op)) continue;
    for (uint32_t h : row.heights) {
      for (uint32_t c : row.counts) ExpectAllPlacements({row.op, row.e, row.w, h, c, 16});
    }
  }
}

TEST(Block2dIntoLanes, IgcLoadsMatchGeneralPathAtSubgroups8To32) {
  for (uint32_t sg : {8, 16, 32}) {
    for (const RefShape& s : IgcShapes(sg)) {
      if (IsLoad(s.op)) ExpectAllPlacements(s);
    }
  }
}

TEST(Block2dIntoLanes, PaddedAndNarrowShapesMatchGeneralPathAtEverySubgroupSize) {
  const std::vector<RefShape> shapes = {
      {O::kLoad, 1, 12, 3, 1, 0},
      {O::kLoad, 2, 6, 5, 3, 0},
      {O::kLoad, 4, 3, 7, 2, 0},
      {O::kLoad, 8, 5, 3, 1, 0},
      {O::kLoad, 1, 64, 8, 1, 0},
      {O::kLoad, 2, 32, 4, 2, 0},
      {O::kLoad, 1, 4, 8, 1, 0},
      {O::kLoad, 4, 1, 8, 2, 0},
      {O::kLoadTransform, 1, 12, 6, 2, 0},
      {O::kLoadTransform, 2, 10, 3, 1, 0},
      {O::kLoadTransform, 1, 32, 32, 1, 0},
      {O::kLoadTranspose, 4, 3, 12, 1, 0},
      {O::kLoadTranspose, 8, 2, 5, 1, 0},
      {O::kLoadTranspose, 1, 4, 12, 1, 0},
  };
  for (uint32_t sg : {1, 2, 4, 8, 16, 32, 64}) {
    for (RefShape s : shapes) {
      s.sg = sg;
      ExpectAllPlacements(s);
    }
  }
}

// An allocation shorter than the surface claims: blocks that reach past its end must decline
// (the general path reads those elements as zero).
TEST(Block2dIntoLanes, TruncatedAllocationsMatchGeneralPath) {
  const RefShape shapes[] = {{O::kLoad, 1, 32, 32, 1, 16},
                             {O::kLoadTransform, 1, 16, 32, 2, 16},
                             {O::kLoad, 2, 16, 8, 2, 16}};
  for (const RefShape& s : shapes) {
    for (int64_t truncate : {0, 100, 1000, 3000}) ExpectIntoLanesMatchesGeneralPath(s, 8, truncate);
  }
}

// The int8 GEMM's loads (A: E1 W32 H32, two columns per invocation; B: E1 W16 H32 x2 VNNI) and
// the bf16 ones (A: E2 W16 H32; B: E2 W16 H16 x2 VNNI) take the fast path whenever the block is
// inside, and only then: the test above would pass if it never ran.
TEST(Block2dIntoLanes, GemmLoadsTakeTheFastPathOnlyInside) {
  const RefShape shapes[] = {{O::kLoad, 1, 32, 32, 1, 16},
                             {O::kLoadTransform, 1, 16, 32, 2, 16},
                             {O::kLoad, 2, 16, 32, 1, 16},
                             {O::kLoadTransform, 2, 16, 16, 2, 16}};
  for (const RefShape& s : shapes) {
    const Block2dPayloadLayout layout = Prepared(s);
    std::mt19937 rng(7);
    Scene scene = MakeScene(s, rng);
    std::vector<uint8_t> lanes(layout.payload_bytes() * 2);
    int inside = 0, outside = 0;
    for (const auto& [x, y] : scene.coordinates) {
      scene.memory.x = x;
      scene.memory.y = y;
      const bool whole = x >= 0 && y >= 0 && x + int64_t{s.w} * s.c <= scene.memory.width / s.e &&
                         y + s.h <= scene.memory.height;  // a misaligned X too (UB, runs)
      const bool fast = LoadBlock2dIntoLanes(layout, SurfaceOf<const uint8_t>(scene.memory),
                                             lanes.data(), layout.payload_bytes_per_lane() * 2);
      EXPECT_EQ(fast, whole) << Describe(s) << " at (" << x << ", " << y << ")";
      (whole ? inside : outside) += 1;
    }
    EXPECT_GE(inside, 3) << Describe(s);
    EXPECT_GE(outside, 8) << Describe(s);
  }
}

// A lane stride shorter than the payload would make invocations overlap: declined.
TEST(Block2dIntoLanes, DeclinesOverlappingInvocations) {
  const RefShape s{O::kLoad, 1, 32, 32, 1, 16};
  const Block2dPayloadLayout layout = Prepared(s);
  std::mt19937 rng(3);
  Scene scene = MakeScene(s, rng);
  scene.memory.x = 0;
  scene.memory.y = 0;
  std::vector<uint8_t> lanes(layout.payload_bytes(), kUntouched);
  EXPECT_FALSE(LoadBlock2dIntoLanes(layout, SurfaceOf<const uint8_t>(scene.memory), lanes.data(),
                                    layout.payload_bytes_per_lane() - 1));
  EXPECT_EQ(lanes, std::vector<uint8_t>(layout.payload_bytes(), kUntouched));
}

}  // namespace
}  // namespace xmx::interp
