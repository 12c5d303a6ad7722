// The int8 routine of matrix_mad_fast_avx2.cpp picks, per instruction, how many byte products
// it sums in 16-bit lanes from the largest magnitudes of A and B (amax, bmax): eight quads of k
// when amax bmax <= 2047, two when <= 8191, one when <= 16383, and the 16-bit widening routine
// otherwise or when some |b| is 128 (or an unsigned b above 127). These tests put the operands
// exactly on each side of every bound, with every product of the largest size and one sign (the
// largest 16-bit sums the routine can form), mixed signs, zeros and -128, for the four
// signedness combinations, and compare with the reference model and the portable routines.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "interp/matrix_mad/matrix_mad.hpp"
#include "matrix_mad_test_support.hpp"

namespace xmx::interp {
namespace {

using namespace mma_reference;

Case Int8Case(bool a_signed, bool b_signed) {
  Case t = IntRow(16, 32, 0x30 | (a_signed ? 1u : 0u) | (b_signed ? 2u : 0u), 2, false);
  t.m = 8;
  return t;
}

// An element of magnitude at most `limit` (signed: -limit .. limit, unsigned: 0 .. limit), as its
// 8-bit pattern; half of them at the limit.
uint32_t Element(bool is_signed, uint32_t limit, std::mt19937& rng) {
  int v = rng() % 2 == 0 ? static_cast<int>(limit) : static_cast<int>(rng() % (limit + 1));
  if (is_signed && rng() % 2 == 0) v = -v;
  return static_cast<uint32_t>(v) & 0xFF;
}

// (amax, bmax) pairs on both sides of each bound, per signedness of A and B.
struct Magnitudes {
  uint32_t a, b;
};
std::vector<Magnitudes> BoundPairs(bool a_signed, bool b_signed) {
  std::vector<Magnitudes> pairs = {
      {8, 8},      // the GEMM benchmarks' data: eight quads
      {23, 89},    // 2047: still eight quads
      {32, 64},    // 2048: two quads
      {127, 64},   // 8128: two quads
      {128, 64},   // 8192: one quad (a signed A of -128)
      {128, 127},  // 16256: one quad
      {1, 127},    // the largest |b| the moved sign allows
  };
  if (b_signed) pairs.push_back({1, 128});   // a -128 in B: the widening routine
  if (!b_signed) pairs.push_back({3, 200});  // an unsigned b above 127: the widening routine
  if (!a_signed) {
    pairs.push_back({255, 64});  // 16320: one quad
    pairs.push_back({255, 65});  // 16575: the widening routine
    pairs.push_back({255, 8});   // 4080: two quads
  }
  std::vector<Magnitudes> valid;
  for (const Magnitudes& m : pairs) {
    if ((a_signed ? 128u : 255u) >= m.a && (b_signed ? 128u : 255u) >= m.b) valid.push_back(m);
  }
  return valid;
}

TEST(MatrixMadInt8Bounds, LargestSumsOnEachSideOfEveryBound) {
  const std::vector<uint32_t> accumulators = {0x80000000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0, 12345};
  uint32_t seed = 7000;
  for (uint32_t signs = 0; signs < 4; ++signs) {
    const bool a_signed = (signs & 1) != 0, b_signed = (signs & 2) != 0;
    const Case t = Int8Case(a_signed, b_signed);
    for (const Magnitudes& m : BoundPairs(a_signed, b_signed)) {
      // Every product amax x bmax with one sign: each 16-bit lane reaches its bound. Signed
      // operands also take the negative extremes (-amax x -bmax, and mixed signs).
      std::vector<std::pair<int, int>> extremes = {{static_cast<int>(m.a), static_cast<int>(m.b)}};
      if (a_signed) extremes.emplace_back(-static_cast<int>(m.a), static_cast<int>(m.b));
      if (b_signed) extremes.emplace_back(static_cast<int>(m.a), -static_cast<int>(m.b));
      if (a_signed && b_signed)
        extremes.emplace_back(-static_cast<int>(m.a), -static_cast<int>(m.b));
      for (const auto& [av, bv] : extremes) {
        for (uint32_t c : accumulators) {
          Matrices x;
          x.a.assign(8, std::vector<uint32_t>(32, static_cast<uint32_t>(av) & 0xFF));
          x.b.assign(32, std::vector<uint32_t>(16, static_cast<uint32_t>(bv) & 0xFF));
          x.c.assign(8, std::vector<uint32_t>(16, c));
          for (MmaIsa isa : kIsas) {
            EXPECT_EQ(CheckCase(t, x, MmaFloatModel::kExact, isa, ++seed), 0)
                << "a " << av << " b " << bv << " c " << c;
          }
        }
      }
      // Random elements within the magnitudes, half of them at the limit.
      for (int rep = 0; rep < 6; ++rep) {
        std::mt19937 rng(++seed);
        Matrices x;
        x.a.assign(8, std::vector<uint32_t>(32));
        x.b.assign(32, std::vector<uint32_t>(16));
        x.c.assign(8, std::vector<uint32_t>(16));
        for (auto& row : x.a) {
          for (uint32_t& e : row) e = Element(a_signed, m.a, rng);
        }
        for (auto& row : x.b) {
          for (uint32_t& e : row) e = Element(b_signed, m.b, rng);
        }
        for (auto& row : x.c) {
          for (uint32_t& e : row) e = rep % 2 == 0 ? accumulators[rng() % 5] : rng();
        }
        for (MmaIsa isa : kIsas) {
          EXPECT_EQ(CheckCase(t, x, MmaFloatModel::kExact, isa, seed), 0)
              << "amax " << m.a << " bmax " << m.b;
        }
      }
    }
  }
}

// Zeros in A (vpsignb zeroes the B byte) next to -128 and 127, with one B element changed from
// within the bound to past it (the routine chosen changes, the results must not).
TEST(MatrixMadInt8Bounds, ZerosAndOneElementPastTheBound) {
  uint32_t seed = 7500;
  for (uint32_t signs = 0; signs < 4; ++signs) {
    const bool a_signed = (signs & 1) != 0, b_signed = (signs & 2) != 0;
    const Case t = Int8Case(a_signed, b_signed);
    const std::vector<uint32_t> a_pool = a_signed ? std::vector<uint32_t>{0x00, 0x80, 0x7F, 0x01}
                                                  : std::vector<uint32_t>{0x00, 0xFF, 0x80, 0x01};
    for (uint32_t past : {0x80u, 0x81u, 0xFFu}) {
      std::mt19937 rng(++seed);
      Matrices x;
      x.a.assign(8, std::vector<uint32_t>(32));
      x.b.assign(32, std::vector<uint32_t>(16));
      x.c.assign(8, std::vector<uint32_t>(16));
      for (auto& row : x.a) {
        for (uint32_t& e : row) e = a_pool[rng() % a_pool.size()];
      }
      for (auto& row : x.b) {
        for (uint32_t& e : row) e = Element(b_signed, 3, rng);
      }
      for (auto& row : x.c) {
        for (uint32_t& e : row) e = rng();
      }
      for (MmaIsa isa : kIsas) EXPECT_EQ(CheckCase(t, x, MmaFloatModel::kExact, isa, seed), 0);
      x.b[rng() % 32][rng() % 16] = past;
      for (MmaIsa isa : kIsas) EXPECT_EQ(CheckCase(t, x, MmaFloatModel::kExact, isa, seed), 0);
    }
  }
}

}  // namespace
}  // namespace xmx::interp
