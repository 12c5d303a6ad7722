// The AVX-512 exact-model routine for SG16 M8 K16 bf16 / fp16 (matrix_mad_fast_avx512_float16.cpp)
// bit for bit against the portable routine and the AVX2 one, and against the reference model:
// random patterns over the whole format (NaN, Inf, subnormals, -0), GEMM-like small integers
// (sums the bound proves exact), values spread over the exponent range and cancelling sums
// (sums only the refinement gets right), for every C / Result format, with Result apart from C
// and written over it. Skipped on CPUs without AVX-512.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "interp/matrix_mad/matrix_mad.hpp"
#include "matrix_mad_test_support.hpp"

namespace xmx::interp {
namespace {

using namespace mma_reference;

const char* FormatName(Fmt f) { return f == Fmt::kF32 ? "fp32" : f == Fmt::kF16 ? "fp16" : "bf16"; }

// Every A / B / C / Result combination the routine takes: bf16 or fp16 elements, C and Result
// each fp32, fp16 or bf16.
std::vector<Case> Rows() {
  std::vector<Case> rows;
  for (Fmt element : {Fmt::kBF16, Fmt::kF16}) {
    for (Fmt c : {Fmt::kF32, Fmt::kF16, Fmt::kBF16}) {
      for (Fmt result : {Fmt::kF32, Fmt::kF16, Fmt::kBF16}) {
        Case t;
        t.name =
            std::string(FormatName(element)) + ", C " + FormatName(c) + " -> " + FormatName(result);
        t.sg = 16;
        t.k = 16;
        // The operand bits: A and B as bf16 or fp16, and the bf16 C / Result bits.
        t.mask = (element == Fmt::kBF16 ? 0x3000u : 0xC00u) | (c == Fmt::kBF16 ? 0x4u : 0u) |
                 (result == Fmt::kBF16 ? 0x8u : 0u);
        t.a = t.b = element;
        t.c = c;
        t.result = result;
        t.a_bytes = 2;
        t.a_float_type = false;
        t.c_float_type = true;
        t.m = 8;
        rows.push_back(t);
      }
    }
  }
  return rows;
}

bool CpuRunsAvx512() {
  std::string why;
  const auto kernel =
      MatrixMadKernel::Prepare(ShapeOf(Rows()[0]), MmaFloatModel::kExact, &why, MmaIsa::kAvx512);
  return kernel && kernel->isa() == MmaIsa::kAvx512;
}

#define SKIP_WITHOUT_AVX512() \
  if (!CpuRunsAvx512()) GTEST_SKIP() << "the CPU lacks AVX-512 (F, BW, DQ, VL)"

// `slot` (lanes of lane_bytes each) copied lane by lane `stride` bytes apart, the bytes between
// the lanes garbage that must not be read: an operand as the interpreter's private copies hold it.
std::vector<uint8_t> Spread(const std::vector<uint8_t>& slot, size_t lane_bytes, size_t stride,
                            std::mt19937& rng) {
  const size_t lanes = slot.size() / lane_bytes;
  std::vector<uint8_t> spread(stride * lanes);
  for (uint8_t& byte : spread) byte = static_cast<uint8_t>(rng());
  for (size_t l = 0; l < lanes; ++l) {
    std::copy_n(&slot[l * lane_bytes], lane_bytes, &spread[l * stride]);
  }
  return spread;
}

// `memory` with `lanes` (lane_bytes each) written `stride` bytes apart, the rest kept.
std::vector<uint8_t> WithLanes(std::vector<uint8_t> memory, const std::vector<uint8_t>& lanes,
                               size_t lane_bytes, size_t stride) {
  for (size_t l = 0; l < lanes.size() / lane_bytes; ++l) {
    std::copy_n(&lanes[l * lane_bytes], lane_bytes, &memory[l * stride]);
  }
  return memory;
}

// RunInPlace with the operands spread `stride` bytes a lane apart (at least their lane bytes):
// A, B and C spread and Result in a slot; A alone spread; Result spread too, and over C when it
// is as wide (the interpreter's folded store of an accumulator), every Result lane where it
// belongs and the bytes between the lanes untouched.
int CompareInPlace(const Case& t, const MatrixMadKernel& kernel, const Slots& slots,
                   const std::vector<uint8_t>& want, size_t stride, std::mt19937& rng) {
  const MatrixMadShape shape = ShapeOf(t);
  const size_t a_bytes = shape.a.lane_bytes(), b_bytes = shape.b.lane_bytes(),
               c_bytes = shape.c.lane_bytes(), result_bytes = shape.result.lane_bytes();
  const size_t a_stride = std::max(stride, a_bytes), b_stride = std::max(stride, b_bytes),
               c_stride = std::max(stride, c_bytes), result_stride = std::max(stride, result_bytes);
  const std::vector<uint8_t> a = Spread(slots.a, a_bytes, a_stride, rng);
  const std::vector<uint8_t> b = Spread(slots.b, b_bytes, b_stride, rng);
  const std::vector<uint8_t> c = Spread(slots.c, c_bytes, c_stride, rng);
  int differences = 0;
  auto expect = [&](const std::vector<uint8_t>& got, const std::vector<uint8_t>& expected,
                    const char* what) {
    if (got == expected) return;
    ++differences;
    ADD_FAILURE() << t.name << ": " << what << ", stride " << stride << ", differs";
  };
  std::vector<uint8_t> got(want.size(), 0xCD);
  kernel.RunInPlace(a.data(), a_stride, b.data(), b_stride, c.data(), c_stride, got.data(),
                    result_bytes);
  expect(got, want, "in place");
  std::fill(got.begin(), got.end(), 0xCD);
  kernel.RunInPlace(a.data(), a_stride, slots.b.data(), b_bytes, slots.c.data(), c_bytes,
                    got.data(), result_bytes);
  expect(got, want, "A alone in place");
  std::vector<uint8_t> spread =
      Spread(std::vector<uint8_t>(want.size(), 0), result_bytes, result_stride, rng);
  const std::vector<uint8_t> expected = WithLanes(spread, want, result_bytes, result_stride);
  kernel.RunInPlace(a.data(), a_stride, b.data(), b_stride, c.data(), c_stride, spread.data(),
                    result_stride);
  expect(spread, expected, "Result in place");
  if (result_bytes == c_bytes) {
    std::vector<uint8_t> over_c = c;
    kernel.RunInPlace(a.data(), a_stride, b.data(), b_stride, over_c.data(), c_stride,
                      over_c.data(), c_stride);
    expect(over_c, WithLanes(c, want, result_bytes, c_stride), "Result in place over C");
  }
  return differences;
}

// Runs `x` through the AVX-512 routine, the AVX2 routine and the portable one, with Result apart
// from C and over C; every Result slot must be the portable one byte for byte, and the portable
// one must match the reference model. Returns the number of differing runs.
int CompareRoutines(const Case& t, const Matrices& x, uint32_t seed) {
  std::mt19937 rng(seed);
  const MatrixMadShape shape = ShapeOf(t);
  const Slots slots = Pack(t, x, rng);
  std::string why;
  const auto avx512 = MatrixMadKernel::Prepare(shape, MmaFloatModel::kExact, &why, MmaIsa::kAvx512);
  const auto avx2 = MatrixMadKernel::Prepare(shape, MmaFloatModel::kExact, &why, MmaIsa::kAvx2);
  const auto portable =
      MatrixMadKernel::Prepare(shape, MmaFloatModel::kExact, &why, MmaIsa::kPortable);
  if (!avx512 || !avx2 || !portable) {
    ADD_FAILURE() << t.name << ": rejected: " << why;
    return 1;
  }
  const size_t result_bytes = shape.result.lane_bytes() * t.sg;
  std::vector<uint8_t> want(result_bytes), got(result_bytes, 0xCD), got_avx2(result_bytes, 0xCD);
  portable->Run(slots.a.data(), slots.b.data(), slots.c.data(), want.data());
  avx512->Run(slots.a.data(), slots.b.data(), slots.c.data(), got.data());
  avx2->Run(slots.a.data(), slots.b.data(), slots.c.data(), got_avx2.data());
  int differences = 0;
  if (got != want) {
    ++differences;
    ADD_FAILURE() << t.name << ", seed " << seed << ": AVX-512 differs from portable";
  }
  if (got_avx2 != want) {
    ++differences;
    ADD_FAILURE() << t.name << ", seed " << seed << ": AVX2 differs from portable";
  }
  if (shape.result.lane_bytes() == shape.c.lane_bytes()) {
    std::vector<uint8_t> in_place = slots.c;
    avx512->Run(slots.a.data(), slots.b.data(), in_place.data(), in_place.data());
    if (in_place != want) {
      ++differences;
      ADD_FAILURE() << t.name << ", seed " << seed << ": AVX-512 over C differs";
    }
  }
  // The in-place form, which the interpreter uses for operands in private memory.
  if (!avx512->runs_in_place()) {
    ++differences;
    ADD_FAILURE() << t.name << ": the AVX-512 routine has no in-place form";
  } else {
    for (const size_t stride : {size_t{16}, size_t{48}, size_t{4096 + 20}}) {
      differences += CompareInPlace(t, *avx512, slots, want, stride, rng);
    }
  }
  // The reference model, element by element (the same check as the other matrix tests).
  differences += CheckCase(t, x, MmaFloatModel::kExact, MmaIsa::kAvx512, seed);
  return differences;
}

TEST(MatrixMadAvx512Float16, ChosenForItsShapeOnAvx512Only) {
  SKIP_WITHOUT_AVX512();
  for (const Case& t : Rows()) {
    std::string why;
    for (MmaIsa isa : {MmaIsa::kAvx512, MmaIsa::kAvx2, MmaIsa::kBest}) {
      const auto kernel = MatrixMadKernel::Prepare(ShapeOf(t), MmaFloatModel::kExact, &why, isa);
      ASSERT_TRUE(kernel) << why;
      EXPECT_TRUE(kernel->hand_vectorized()) << t.name;
      EXPECT_EQ(kernel->isa(), isa == MmaIsa::kAvx2 ? MmaIsa::kAvx2 : MmaIsa::kAvx512) << t.name;
    }
  }
  // Other shapes keep the generic templates.
  Case m4 = Rows()[0];
  m4.m = 4;
  Case k8 = Rows()[0];
  k8.k = 8;
  for (const Case& t : {m4, k8}) {
    std::string why;
    const auto kernel =
        MatrixMadKernel::Prepare(ShapeOf(t), MmaFloatModel::kExact, &why, MmaIsa::kAvx512);
    ASSERT_TRUE(kernel) << why;
    EXPECT_FALSE(kernel->hand_vectorized()) << t.name;
  }
}

// Register slots of random bits: NaNs of any sign and payload, infinities, subnormals and zeros
// of both signs all come up, so most runs take the refinement.
TEST(MatrixMadAvx512Float16, RandomPatternsMatchPortable) {
  SKIP_WITHOUT_AVX512();
  uint32_t seed = 100;
  for (const Case& t : Rows()) {
    for (int rep = 0; rep < 40; ++rep) {
      std::mt19937 rng(++seed);
      Matrices x = WideRandom(t, rng, /*specials=*/true);
      ASSERT_EQ(CompareRoutines(t, x, seed), 0);
    }
  }
}

// Small integers, as GEMM tests use: every sum is proved exact by the bound.
TEST(MatrixMadAvx512Float16, GemmLikeSmallIntegersMatchPortable) {
  SKIP_WITHOUT_AVX512();
  uint32_t seed = 2000;
  for (const Case& t : Rows()) {
    for (int rep = 0; rep < 20; ++rep) {
      std::mt19937 rng(++seed);
      ASSERT_EQ(CompareRoutines(t, SmallValued(t, rng), seed), 0);
    }
  }
}

// Values of magnitude 2^-8 .. 2^8 with random mantissas (the benchmark's data): the bound holds
// just, and the Results need rounding.
TEST(MatrixMadAvx512Float16, TypicalValuesMatchPortable) {
  SKIP_WITHOUT_AVX512();
  uint32_t seed = 3000;
  for (const Case& t : Rows()) {
    const bool bf16 = t.a == Fmt::kBF16;
    for (int rep = 0; rep < 20; ++rep) {
      std::mt19937 rng(++seed);
      auto element = [&] {
        // bf16: exponent field 119 .. 135 over 7 mantissa bits; fp16: 7 .. 23 over 10.
        return bf16 ? ((rng() & 1) << 15) | ((119 + rng() % 17) << 7) | (rng() & 0x7F)
                    : ((rng() & 1) << 15) | ((7 + rng() % 17) << 10) | (rng() & 0x3FF);
      };
      Matrices x = SmallValued(t, rng);  // C: small integers of C's format
      for (auto& row : x.a) {
        for (uint32_t& e : row) e = element();
      }
      for (auto& row : x.b) {
        for (uint32_t& e : row) e = element();
      }
      ASSERT_EQ(CompareRoutines(t, x, seed), 0);
    }
  }
}

// Finite values over the whole exponent range (sums the bound declares inexact, subnormals,
// overflow), and sums whose products cancel exactly (zero results take their sign from the
// terms: +0 unless every term is -0).
TEST(MatrixMadAvx512Float16, RefinedSumsMatchPortable) {
  SKIP_WITHOUT_AVX512();
  uint32_t seed = 4000;
  for (const Case& t : Rows()) {
    for (int rep = 0; rep < 16; ++rep) {
      std::mt19937 rng(++seed);
      Matrices x = WideRandom(t, rng, /*specials=*/false);
      if (rep % 2 == 1) {  // a[r][k+1] b[k+1][n] = -(a[r][k] b[k][n])
        for (uint32_t k = 0; k < 16; k += 2) {
          for (uint32_t r = 0; r < 8; ++r) x.a[r][k + 1] = x.a[r][k] ^ 0x8000u;
          for (uint32_t n = 0; n < 16; ++n) x.b[k + 1][n] = x.b[k][n];
        }
      }
      if (rep % 4 == 3) {  // C of zeros of both signs
        const uint32_t negative_zero = BitsOf(t.c) == 32 ? 0x80000000u : 0x8000u;
        for (auto& row : x.c) {
          for (uint32_t& e : row) e = (rng() & 1) != 0 ? negative_zero : 0;
        }
      }
      ASSERT_EQ(CompareRoutines(t, x, seed), 0);
    }
  }
}

// One special or extreme value among otherwise exact data: a single NaN, infinity, largest
// value or subnormal must not change any other element, and the exactness decision covers all
// three operands (the odd value sits in A, B or C in turn).
TEST(MatrixMadAvx512Float16, OneOddValueAmongExactData) {
  SKIP_WITHOUT_AVX512();
  uint32_t seed = 5000;
  for (const Case& t : Rows()) {
    const bool bf16 = t.a == Fmt::kBF16;
    const std::vector<uint32_t> odd =
        bf16 ? std::vector<uint32_t>{0x7FC0, 0xFF80, 0x7F7F, 0x0001, 0x8000, 0x7F81}
             : std::vector<uint32_t>{0x7E00, 0xFC00, 0x7BFF, 0x0001, 0x8000, 0x7C01};
    for (uint32_t value : odd) {
      for (uint32_t operand = 0; operand < 3; ++operand) {
        std::mt19937 rng(++seed);
        Matrices x = SmallValued(t, rng);
        const uint32_t r = rng() % 8, n = rng() % 16, k = rng() % 16;
        if (operand == 0) x.a[r][k] = value;
        if (operand == 1) x.b[k][n] = value;
        if (operand == 2) {
          // The same value in C's format (fp32 C: widened exactly; bf16 / fp16 C: the pattern
          // when C shares the elements' format, else a subnormal or the sign of zero only).
          if (t.c == t.a) {
            x.c[r][n] = value;
          } else if (t.c == Fmt::kF32) {
            x.c[r][n] = bf16 ? value << 16 : 0x00000001u;
          } else {
            x.c[r][n] = value & 0x8001u;
          }
        }
        ASSERT_EQ(CompareRoutines(t, x, seed), 0) << "odd value 0x" << std::hex << value;
      }
    }
  }
}

}  // namespace
}  // namespace xmx::interp
