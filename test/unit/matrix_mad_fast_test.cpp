// The hand-vectorized routines of matrix_mad_fast_avx2.cpp (SG16 M8 int8 K32, bf16 / fp16 K16)
// against the reference model and bit for bit against the portable routines: int8 extremes
// (-128 x -128 sums, 255 x 255, C at the ends of int32 so the sums wrap), the float formats'
// specials (NaN of either sign and any payload, infinities, subnormals, the largest values
// whose products overflow fp32, exact cancellation), and random register contents.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "interp/matrix_mad/matrix_mad.hpp"
#include "matrix_mad_test_support.hpp"

namespace xmx::interp {
namespace {

using namespace mma_reference;

std::vector<Case> Int8Rows() {
  std::vector<Case> rows;
  for (uint32_t signs = 0; signs < 4; ++signs) {
    Case t = IntRow(16, 32, 0x30 | signs, 2, false);
    t.m = 8;
    rows.push_back(t);
  }
  return rows;
}

// Every C / Result combination the routines take, for bf16 and fp16 elements.
std::vector<Case> FloatRows() {
  using F = Fmt;
  // name, sg, k, mask, a, b, c, result, a_bytes, a float type, c/result float type, m
  return {
      {"bf16 -> fp32", 16, 16, 0x3000, F::kBF16, F::kBF16, F::kF32, F::kF32, 2, false, true, 8},
      {"fp16 -> fp32", 16, 16, 0xC00, F::kF16, F::kF16, F::kF32, F::kF32, 2, false, true, 8},
      {"bf16 -> bf16", 16, 16, 0x300C, F::kBF16, F::kBF16, F::kBF16, F::kBF16, 2, false, false, 8},
      {"fp16 -> fp16", 16, 16, 0xC00, F::kF16, F::kF16, F::kF16, F::kF16, 2, false, true, 8},
      {"fp16, fp16 C -> fp32", 16, 16, 0xC00, F::kF16, F::kF16, F::kF16, F::kF32, 2, false, true,
       8},
      {"bf16, fp16 C -> fp32", 16, 16, 0x3000, F::kBF16, F::kBF16, F::kF16, F::kF32, 2, false, true,
       8},
      {"bf16, fp32 C -> fp16", 16, 16, 0x3000, F::kBF16, F::kBF16, F::kF32, F::kF16, 2, false, true,
       8},
  };
}

std::vector<Case> AllRows() {
  std::vector<Case> rows = Int8Rows();
  for (const Case& t : FloatRows()) rows.push_back(t);
  return rows;
}

bool CpuRunsAvx2() {
  std::string why;
  const auto kernel =
      MatrixMadKernel::Prepare(ShapeOf(Int8Rows()[0]), MmaFloatModel::kExact, &why, MmaIsa::kAvx2);
  return kernel && kernel->isa() != MmaIsa::kPortable;
}

// The routines are chosen exactly for their shapes and instruction sets; other shapes and the
// portable family keep the generic templates.
TEST(MatrixMadFastPaths, ChosenForTheirShapesOnly) {
  for (const Case& t : AllRows()) {
    for (MmaFloatModel model : kModels) {
      std::string why;
      const auto portable = MatrixMadKernel::Prepare(ShapeOf(t), model, &why, MmaIsa::kPortable);
      ASSERT_TRUE(portable) << why;
      EXPECT_FALSE(portable->hand_vectorized()) << t.name;
      const auto avx2 = MatrixMadKernel::Prepare(ShapeOf(t), model, &why, MmaIsa::kAvx2);
      ASSERT_TRUE(avx2) << why;
      EXPECT_EQ(avx2->hand_vectorized(), CpuRunsAvx2()) << t.name;
    }
  }
  Case m4 = FloatRows()[0];
  m4.m = 4;
  Case sg8 = FloatRows()[0];
  sg8.sg = 8;
  sg8.a_bytes = 4;
  Case paired = Int8Rows()[3];
  paired.sg = 32;
  for (const Case& t : {m4, sg8, paired}) {
    std::string why;
    const auto kernel = MatrixMadKernel::Prepare(ShapeOf(t), MmaFloatModel::kExact, &why);
    ASSERT_TRUE(kernel) << why;
    EXPECT_FALSE(kernel->hand_vectorized()) << t.name;
  }
}

// Every element drawn from `pool` with probability `share`, else a random pattern of `bits`.
std::vector<std::vector<uint32_t>> Draw(uint32_t rows, uint32_t columns,
                                        const std::vector<uint32_t>& pool, uint32_t bits,
                                        double share, std::mt19937& rng) {
  std::uniform_real_distribution<double> coin(0, 1);
  std::vector<std::vector<uint32_t>> v(rows, std::vector<uint32_t>(columns));
  for (auto& row : v) {
    for (uint32_t& e : row) {
      e = coin(rng) < share ? pool[rng() % pool.size()] : static_cast<uint32_t>(rng());
      if (bits < 32) e &= (1u << bits) - 1;
    }
  }
  return v;
}

TEST(MatrixMadFastPaths, Int8ExtremesWrapAround) {
  const std::vector<uint32_t> elements = {0x80, 0x81, 0xFF, 0x00, 0x01, 0x7F, 0xFE};
  const std::vector<uint32_t> accumulators = {0x80000000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0, 1};
  uint32_t seed = 4000;
  for (const Case& t : Int8Rows()) {
    // All elements at one extreme: 32 products of -128 x -128 (or 255 x 255) on C's extremes.
    for (uint32_t e : {0x80u, 0xFFu, 0x7Fu}) {
      for (uint32_t c : accumulators) {
        Matrices x;
        x.a.assign(8, std::vector<uint32_t>(32, e));
        x.b.assign(32, std::vector<uint32_t>(16, e));
        x.c.assign(8, std::vector<uint32_t>(16, c));
        for (MmaIsa isa : kIsas) EXPECT_EQ(CheckCase(t, x, MmaFloatModel::kExact, isa, ++seed), 0);
      }
    }
    for (int rep = 0; rep < 20; ++rep) {
      std::mt19937 rng(++seed);
      Matrices x;
      x.a = Draw(8, 32, elements, 8, 0.8, rng);
      x.b = Draw(32, 16, elements, 8, 0.8, rng);
      x.c = Draw(8, 16, accumulators, 32, 0.5, rng);
      for (MmaIsa isa : kIsas) EXPECT_EQ(CheckCase(t, x, MmaFloatModel::kExact, isa, seed), 0);
    }
  }
}

// Patterns worth having many of: zeros, infinities, NaNs (quiet, signalling, negative), the
// smallest and largest subnormals, the smallest normal, the largest value, and values near 1.
std::vector<uint32_t> Specials(Fmt f) {
  switch (f) {
    case Fmt::kBF16:
      return {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0xFFFF, 0x0001, 0x807F,
              0x0080, 0x7F7F, 0xFF7F, 0x3F80, 0xBF80, 0x3F81, 0x4000, 0x0100, 0x8080};
    case Fmt::kF16:
      return {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFFFF, 0x0001, 0x83FF,
              0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00, 0x3C01, 0x4000, 0x0200, 0x8400};
    default:
      return {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
              0xFFFFFFFF, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
              0x3F800000, 0xBF800000, 0x3F800001, 0x33800000, 0x4B800000};
  }
}

TEST(MatrixMadFastPaths, FloatSpecialsAndExtremes) {
  uint32_t seed = 5000;
  for (const Case& t : FloatRows()) {
    for (double share : {1.0, 0.5, 0.1}) {
      for (int rep = 0; rep < 6; ++rep) {
        std::mt19937 rng(++seed);
        Matrices x;
        x.a = Draw(8, 16, Specials(t.a), 16, share, rng);
        x.b = Draw(16, 16, Specials(t.b), 16, share, rng);
        x.c = Draw(8, 16, Specials(t.c), BitsOf(t.c), share, rng);
        for (MmaIsa isa : kIsas) {
          for (MmaFloatModel model : kModels) EXPECT_EQ(CheckCase(t, x, model, isa, seed), 0);
        }
      }
    }
  }
}

// Finite values only, with every product of a row and column cancelling: the exact sum is C,
// and zero sums take their sign from the terms (+0 unless every term is -0).
TEST(MatrixMadFastPaths, FloatExactCancellation) {
  uint32_t seed = 6000;
  for (const Case& t : FloatRows()) {
    const uint32_t sign = 0x8000;
    for (int rep = 0; rep < 4; ++rep) {
      std::mt19937 rng(++seed);
      Matrices x = WideRandom(t, rng, /*specials=*/false);
      for (uint32_t k = 0; k < 16; k += 2) {  // a[r][k+1] b[k+1][n] = -(a[r][k] b[k][n])
        for (uint32_t r = 0; r < 8; ++r) x.a[r][k + 1] = x.a[r][k] ^ sign;
        for (uint32_t n = 0; n < 16; ++n) x.b[k + 1][n] = x.b[k][n];
      }
      if (rep % 2 == 1) {  // C of zeros of both signs
        for (auto& row : x.c) {
          for (uint32_t& e : row)
            e = (rng() & 1) != 0 ? (BitsOf(t.c) == 32 ? 0x80000000u : sign) : 0;
        }
      }
      for (MmaIsa isa : kIsas) {
        for (MmaFloatModel model : kModels) EXPECT_EQ(CheckCase(t, x, model, isa, seed), 0);
      }
    }
  }
}

// Random register contents, every byte: the routines' Result slots equal the portable
// family's byte for byte, also when Result is written over C.
TEST(MatrixMadFastPaths, RandomSlotsMatchPortable) {
  std::mt19937 rng(77);
  for (const Case& t : AllRows()) {
    const MatrixMadShape shape = ShapeOf(t);
    for (MmaFloatModel model : kModels) {
      if (IsInt(t.a) && model == MmaFloatModel::kOrdered) continue;
      std::string why;
      const auto fast = MatrixMadKernel::Prepare(shape, model, &why, MmaIsa::kBest);
      const auto portable = MatrixMadKernel::Prepare(shape, model, &why, MmaIsa::kPortable);
      ASSERT_TRUE(fast && portable) << why;
      auto random_slot = [&](const ValueType& type) {
        std::vector<uint8_t> v(type.lane_bytes() * t.sg);
        for (uint8_t& byte : v) byte = static_cast<uint8_t>(rng());
        return v;
      };
      for (int rep = 0; rep < 200; ++rep) {
        const std::vector<uint8_t> a = random_slot(shape.a), b = random_slot(shape.b);
        const std::vector<uint8_t> c = random_slot(shape.c);
        std::vector<uint8_t> want(shape.result.lane_bytes() * t.sg);
        std::vector<uint8_t> got(want.size());
        portable->Run(a.data(), b.data(), c.data(), want.data());
        fast->Run(a.data(), b.data(), c.data(), got.data());
        ASSERT_EQ(got, want) << t.name << " model " << static_cast<int>(model) << " rep " << rep;
        if (shape.result.lane_bytes() == shape.c.lane_bytes()) {
          std::vector<uint8_t> in_place = c;
          fast->Run(a.data(), b.data(), in_place.data(), in_place.data());
          ASSERT_EQ(in_place, want) << t.name << " in place, rep " << rep;
        }
      }
    }
  }
}

}  // namespace
}  // namespace xmx::interp
