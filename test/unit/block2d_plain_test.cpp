// PlainBlock2d, the 64-bit test for the common execution (nothing to report, the block wholly
// inside), against CheckBlock2d and the surface's bounds; and TransposeBlockIntoLanes /
// TransposeBlockFromLanes, the moves ExecBlock2d then makes between memory and the work-items'
// private bytes, against LoadBlock2d and StoreBlock2d (the general path, held to the reference
// model by block2d_moves_test.cpp). Every shape of A.4 and IGC's rows, at the scene's placements
// and on surfaces that break each rule of A.3 in turn.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "block2d_test_support.hpp"
#include "interp/block2d/block2d.hpp"

namespace xmx::interp {
namespace {

using namespace block2d_testing;

// The surface mutations: each breaks (or strains) one rule, the first changes nothing.
const std::vector<std::pair<std::string, std::function<void(RefMemory&)>>>& Mutations() {
  static const std::vector<std::pair<std::string, std::function<void(RefMemory&)>>> mutations = {
      {"as made", [](RefMemory&) {}},
      {"base not 64-byte aligned", [](RefMemory& m) { m.base += 16; }},
      {"width below 64", [](RefMemory& m) { m.width = 60; }},
      {"width not a multiple", [](RefMemory& m) { m.width += 2; }},
      {"width over 2^24", [](RefMemory& m) { m.width = (int64_t{1} << 24) + 64; }},
      {"height zero", [](RefMemory& m) { m.height = 0; }},
      {"height over 2^24", [](RefMemory& m) { m.height = (int64_t{1} << 24) + 1; }},
      {"pitch below width", [](RefMemory& m) { m.pitch = m.width - 16; }},
      {"pitch not a multiple of 16", [](RefMemory& m) { m.pitch += 8; }},
      {"pitch past the allocation", [](RefMemory& m) { m.pitch = int64_t{1} << 40; }},
      {"allocation one byte short",
       [](RefMemory& m) { m.bytes.resize(m.base + (m.height - 1) * m.pitch + m.width - 1); }},
  };
  return mutations;
}

struct Counts {
  int plain = 0, not_plain = 0;
};

// For every placement and mutation: PlainBlock2d says yes exactly when CheckBlock2d finds nothing
// and the block lies wholly inside the surface (pitch at most 2^32), and then gives the first
// element's byte; for a covering transposition the direct moves then match the general path.
Counts ExpectPlainMatchesChecks(const RefShape& s) {
  Counts counts;
  std::mt19937 rng(s.e * 7 + s.w * 13 + s.h * 17 + s.c * 19 + s.sg);
  const Block2dPayloadLayout layout = Prepared(s);
  const Scene scene = MakeScene(s, rng);
  for (const auto& [name, mutate] : Mutations()) {
    for (const auto& [x, y] : scene.coordinates) {
      RefMemory m = scene.memory;
      mutate(m);
      m.x = x;
      m.y = y;
      const std::string where =
          Describe(s) + ", " + name + ", at (" + std::to_string(x) + ", " + std::to_string(y) + ")";
      const Block2dSurface surface = SurfaceOf<const uint8_t>(m);
      const bool clean = !CheckBlock2d(layout, surface).has_value();
      const bool whole = x >= 0 && y >= 0 && x + int64_t{s.w} * s.c <= m.width / s.e &&
                         y + int64_t{s.h} <= m.height;
      uint64_t first = 0;
      const bool plain = PlainBlock2d(layout, surface, &first);
      // A pitch beyond 2^32 is declined even where it does not matter (a one-row block): the
      // general path then decides, exactly.
      EXPECT_EQ(plain, clean && whole && m.pitch <= (int64_t{1} << 32)) << where;
      (plain ? counts.plain : counts.not_plain) += 1;
      if (!plain) continue;
      EXPECT_EQ(first, m.base + y * m.pitch + x * s.e) << where;
      if (!layout.is_covering_transposition()) continue;
      const size_t per_lane = layout.payload_bytes_per_lane(), stride = per_lane + 24;
      if (s.op == O::kStore) {
        const std::vector<uint8_t> payload = RandomBytes(rng, layout.payload_bytes());
        std::vector<uint8_t> lanes(stride * s.sg, 0xA5);
        for (uint32_t lane = 0; lane < s.sg; ++lane) {
          std::copy_n(payload.begin() + lane * per_lane, per_lane, lanes.begin() + lane * stride);
        }
        RefMemory general = m, direct = m;
        StoreBlock2d(layout, SurfaceOf<uint8_t>(general), payload.data());
        TransposeBlockFromLanes(layout, lanes.data(), stride, direct.bytes.data() + first, m.pitch);
        EXPECT_EQ(direct.bytes, general.bytes) << where;
      } else if (s.op != O::kPrefetch) {
        std::vector<uint8_t> payload(layout.payload_bytes(), 0xCD);
        LoadBlock2d(layout, surface, payload.data());
        std::vector<uint8_t> lanes(stride * s.sg, 0xA5);
        TransposeBlockIntoLanes(layout, m.bytes.data() + first, m.pitch, lanes.data(), stride);
        for (uint32_t lane = 0; lane < s.sg; ++lane) {
          const auto got = lanes.begin() + lane * stride;
          EXPECT_TRUE(std::equal(got, got + per_lane, payload.begin() + lane * per_lane))
              << where << ", invocation " << lane;
          EXPECT_TRUE(
              std::all_of(got + per_lane, got + stride, [](uint8_t b) { return b == 0xA5; }))
              << where << ", bytes after invocation " << lane;
        }
      }
    }
  }
  return counts;
}

TEST(Block2dPlain, EveryA4ShapeAgreesWithTheChecks) {
  for (const TableRow& row : A4Table()) {
    for (uint32_t h : row.heights) {
      for (uint32_t c : row.counts) {
        const Counts counts = ExpectPlainMatchesChecks({row.op, row.e, row.w, h, c, 16});
        // Both answers occur: the test would pass if PlainBlock2d always said no.
        EXPECT_GE(counts.plain, 3) << Describe({row.op, row.e, row.w, h, c, 16});
        EXPECT_GE(counts.not_plain, 50) << Describe({row.op, row.e, row.w, h, c, 16});
      }
    }
  }
}

TEST(Block2dPlain, IgcShapesAgreeWithTheChecksAtSubgroups8To32) {
  for (uint32_t sg : {8, 16, 32}) {
    for (const RefShape& s : IgcShapes(sg)) {
      const Counts counts = ExpectPlainMatchesChecks(s);
      EXPECT_GE(counts.plain, 3) << Describe(s);
    }
  }
}

// The int8 and bf16 GEMMs' loads and stores are covering transpositions: the direct moves run
// for them (and the comparisons above are not vacuous).
TEST(Block2dPlain, GemmShapesAreCoveringTranspositions) {
  const RefShape shapes[] = {{O::kLoad, 1, 32, 32, 1, 16},
                             {O::kLoadTransform, 1, 16, 32, 2, 16},
                             {O::kLoad, 2, 16, 32, 1, 16},
                             {O::kLoadTransform, 2, 16, 16, 2, 16},
                             {O::kStore, 4, 16, 8, 1, 16}};
  for (const RefShape& s : shapes) {
    EXPECT_TRUE(Prepared(s).is_covering_transposition()) << Describe(s);
  }
}

}  // namespace
}  // namespace xmx::interp
