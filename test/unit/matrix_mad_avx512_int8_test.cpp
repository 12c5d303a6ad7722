// The AVX-512 VNNI int8 routine (matrix_mad_fast_avx512_int8.cpp, SG16 M8 K32) bit for bit
// against the portable routines and the reference model: random full-range bytes, every
// signedness of A and B (each takes its own correction of the unsigned x signed products),
// the extremes (-128, 127, 255, 0, with C at the ends of int32 so the sums wrap), and Result
// written over C, B or A. The routine is also called directly through SelectFastAvx512Int8Kernel,
// so these tests run it whatever Prepare chooses; they skip on CPUs without AVX512-VNNI, where
// the AVX2 routine stays (matrix_mad_fast_test.cpp covers it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "interp/matrix_mad/matrix_mad.hpp"
#include "interp/matrix_mad/matrix_mad_internal.hpp"
#include "matrix_mad_test_support.hpp"

namespace xmx::interp {
namespace {

#if XMX_MMA_X86

using namespace mma_reference;
using matrix_mad_detail::Element;
using matrix_mad_detail::Plan;

bool CpuRunsAvx512Vnni() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512vnni") != 0 &&
         matrix_mad_detail::BestIsa() == MmaIsa::kAvx512;
}

Case Int8Case(bool a_signed, bool b_signed) {
  Case t = IntRow(16, 32, 0x30 | (a_signed ? 1u : 0u) | (b_signed ? 2u : 0u), 2, false);
  t.m = 8;
  return t;
}

// The plan fields the selector reads, as Prepare sets them for SG16 M8 K32 int8.
Plan Int8Plan(bool a_signed, bool b_signed) {
  Plan p;
  p.subgroup_size = 16;
  p.k = 32;
  p.m = 8;
  p.columns = 16;
  p.half_rows = 8;
  p.padded_rows = 8;
  p.padded_k = 32;
  p.a_lane_bytes = 16;
  p.a_component_bytes = 2;
  p.a_fields = 2;
  p.a_element_bits = 8;
  p.a_components = 8;
  p.a_lanes_per_phase = 16;
  p.b_lane_bytes = 32;
  p.b_components = 8;
  p.b_element_bits = 8;
  p.b_rows_per_word = 4;
  p.c_lane_bytes = 32;
  p.result_lane_bytes = 32;
  p.a_element = a_signed ? Element::kInt8 : Element::kUint8;
  p.b_element = b_signed ? Element::kInt8 : Element::kUint8;
  return p;
}

// The VNNI routine for one signedness, through the selector.
Plan VnniPlan(bool a_signed, bool b_signed) {
  Plan p = Int8Plan(a_signed, b_signed);
  EXPECT_TRUE(matrix_mad_detail::SelectFastAvx512Int8Kernel(&p));
  EXPECT_TRUE(p.hand_vectorized);
  return p;
}

// Runs the routine on the slots with Result in its own buffer and written over C, B and A (in a
// buffer as large as Result that starts with A), and expects `want` from each.
void ExpectEveryAliasing(const Plan& plan, const Slots& s, const std::vector<uint8_t>& want,
                         const std::string& what) {
  std::vector<uint8_t> got(want.size(), 0xCD);
  plan.run(plan, s.a.data(), s.b.data(), s.c.data(), got.data());
  EXPECT_EQ(got, want) << what << ": separate Result";
  std::vector<uint8_t> over_c = s.c;
  plan.run(plan, s.a.data(), s.b.data(), over_c.data(), over_c.data());
  EXPECT_EQ(over_c, want) << what << ": Result over C";
  std::vector<uint8_t> over_b = s.b;
  plan.run(plan, s.a.data(), over_b.data(), s.c.data(), over_b.data());
  EXPECT_EQ(over_b, want) << what << ": Result over B";
  std::vector<uint8_t> over_a = s.a;
  over_a.resize(want.size());
  plan.run(plan, over_a.data(), s.b.data(), s.c.data(), over_a.data());
  EXPECT_EQ(over_a, want) << what << ": Result over A";
}

// The portable family's Result for the slots.
std::vector<uint8_t> PortableResult(const Case& t, const Slots& s) {
  std::string why;
  const auto portable =
      MatrixMadKernel::Prepare(ShapeOf(t), MmaFloatModel::kExact, &why, MmaIsa::kPortable);
  EXPECT_TRUE(portable) << why;
  std::vector<uint8_t> want(ShapeOf(t).result.lane_bytes() * t.sg);
  portable->Run(s.a.data(), s.b.data(), s.c.data(), want.data());
  return want;
}

// Matrices of one element each for A, B and C.
Matrices Uniform(uint32_t a, uint32_t b, uint32_t c) {
  Matrices x;
  x.a.assign(8, std::vector<uint32_t>(32, a));
  x.b.assign(32, std::vector<uint32_t>(16, b));
  x.c.assign(8, std::vector<uint32_t>(16, c));
  return x;
}

// `x` through the routine directly (against the portable family, every aliasing) and through
// Prepare's choice for this CPU (against the reference model).
void CheckMatrices(const Case& t, const Plan& plan, const Matrices& x, uint32_t seed,
                   const std::string& what) {
  std::mt19937 rng(seed);
  const Slots s = Pack(t, x, rng);
  ExpectEveryAliasing(plan, s, PortableResult(t, s), t.name + ", " + what);
  EXPECT_EQ(CheckCase(t, x, MmaFloatModel::kExact, MmaIsa::kBest, seed), 0) << what;
}

// The routine is chosen for SG16 M8 K32 int8 on AVX-512 only; pinned AVX2 keeps a
// hand-vectorized routine of its own, and other shapes keep theirs.
TEST(MatrixMadAvx512Int8, ChosenForItsShapeOnly) {
  Plan m4 = Int8Plan(true, true);
  m4.half_rows = m4.padded_rows = 4;
  Plan bf16 = Int8Plan(true, true);
  bf16.a_element = bf16.b_element = Element::kBFloat16;
  Plan int4 = Int8Plan(true, true);
  int4.a_element = int4.b_element = Element::kInt4;
  int4.k = 64;
  for (Plan* other : {&m4, &bf16, &int4}) {
    EXPECT_FALSE(matrix_mad_detail::SelectFastAvx512Int8Kernel(other));
    EXPECT_EQ(other->run, nullptr);
  }
  Plan int8 = Int8Plan(true, false);
  const bool vnni = CpuRunsAvx512Vnni();
  EXPECT_EQ(matrix_mad_detail::SelectFastAvx512Int8Kernel(&int8), vnni);
  EXPECT_EQ(int8.run != nullptr, vnni);
  if (!vnni) GTEST_SKIP() << "the CPU lacks AVX512-VNNI (or AVX-512 F/BW/DQ/VL)";
  for (MmaIsa isa : {MmaIsa::kBest, MmaIsa::kAvx512, MmaIsa::kAvx2}) {
    std::string why;
    const auto kernel =
        MatrixMadKernel::Prepare(ShapeOf(Int8Case(true, true)), MmaFloatModel::kExact, &why, isa);
    ASSERT_TRUE(kernel) << why;
    EXPECT_EQ(kernel->isa(), isa == MmaIsa::kAvx2 ? MmaIsa::kAvx2 : MmaIsa::kAvx512);
    EXPECT_TRUE(kernel->hand_vectorized());
  }
}

// Random register contents, every byte: full-range elements and C, every signedness.
TEST(MatrixMadAvx512Int8, RandomFullRangeBytes) {
  if (!CpuRunsAvx512Vnni()) GTEST_SKIP() << "the CPU lacks AVX512-VNNI";
  std::mt19937 rng(1234);
  for (uint32_t signs = 0; signs < 4; ++signs) {
    const Case t = Int8Case((signs & 1) != 0, (signs & 2) != 0);
    const Plan plan = VnniPlan((signs & 1) != 0, (signs & 2) != 0);
    const MatrixMadShape shape = ShapeOf(t);
    for (int rep = 0; rep < 300; ++rep) {
      auto random_slot = [&](const ValueType& type) {
        std::vector<uint8_t> v(type.lane_bytes() * t.sg);
        for (uint8_t& byte : v) byte = static_cast<uint8_t>(rng());
        return v;
      };
      Slots s;
      s.a = random_slot(shape.a);
      s.b = random_slot(shape.b);
      s.c = random_slot(shape.c);
      ExpectEveryAliasing(plan, s, PortableResult(t, s), t.name + " rep " + std::to_string(rep));
      if (HasFailure()) return;
    }
  }
}

// The in-place form (MatrixMadKernel::RunInPlace: the interpreter's private copies, lane l at
// first + l * stride) against the register-slot form, for every signedness and strides that
// are and are not the lane's own size, with the bytes between lanes filled with garbage that
// must not be read.
TEST(MatrixMadAvx512Int8, InPlaceOperandsMatchRegisterSlots) {
  if (!CpuRunsAvx512Vnni()) GTEST_SKIP() << "the CPU lacks AVX512-VNNI";
  std::mt19937 rng(99);
  const size_t strides[] = {16, 32, 48, 100, 4096 + 36};
  for (uint32_t signs = 0; signs < 4; ++signs) {
    const Plan plan = VnniPlan((signs & 1) != 0, (signs & 2) != 0);
    ASSERT_NE(plan.run_in_place, nullptr);
    for (const size_t stride : strides) {
      // Operands of 16 (A) and 32 (B, C) bytes a lane: a stride must hold a lane.
      const size_t a_stride = stride, bc_stride = std::max<size_t>(stride, 32);
      std::vector<uint8_t> a(16 * 16), b(32 * 16), c(32 * 16);
      for (std::vector<uint8_t>* v : {&a, &b, &c}) {
        for (uint8_t& byte : *v) byte = static_cast<uint8_t>(rng());
      }
      std::vector<uint8_t> a_far(a_stride * 16), b_far(bc_stride * 16), c_far(bc_stride * 16);
      for (std::vector<uint8_t>* v : {&a_far, &b_far, &c_far}) {
        for (uint8_t& byte : *v) byte = static_cast<uint8_t>(rng());
      }
      for (size_t lane = 0; lane < 16; ++lane) {
        std::copy_n(&a[lane * 16], 16, &a_far[lane * a_stride]);
        std::copy_n(&b[lane * 32], 32, &b_far[lane * bc_stride]);
        std::copy_n(&c[lane * 32], 32, &c_far[lane * bc_stride]);
      }
      std::vector<uint8_t> want(32 * 16), got(32 * 16, 0xCD);
      plan.run(plan, a.data(), b.data(), c.data(), want.data());
      plan.run_in_place(plan, a_far.data(), a_stride, b_far.data(), bc_stride, c_far.data(),
                        bc_stride, got.data(), 32);
      EXPECT_EQ(got, want) << "signs " << signs << ", stride " << stride;
      // Operands mixed: A in place, B and C in their slots.
      std::fill(got.begin(), got.end(), 0xCD);
      plan.run_in_place(plan, a_far.data(), a_stride, b.data(), 32, c.data(), 32, got.data(), 32);
      EXPECT_EQ(got, want) << "signs " << signs << ", stride " << stride << ", A alone in place";
      // Result in place over C (the interpreter's folded store of an accumulator): every lane
      // where C was, the bytes between the lanes untouched.
      std::vector<uint8_t> expected = c_far;
      for (size_t lane = 0; lane < 16; ++lane) {
        std::copy_n(&want[lane * 32], 32, &expected[lane * bc_stride]);
      }
      plan.run_in_place(plan, a_far.data(), a_stride, b_far.data(), bc_stride, c_far.data(),
                        bc_stride, c_far.data(), bc_stride);
      EXPECT_EQ(c_far, expected) << "signs " << signs << ", stride " << stride << ", over C";
    }
  }
}

// Every element of A, B and C at one extreme: the largest sums of each sign (32 products of
// -128 x -128, 255 x 255, 255 x -128, ...) added to C at the ends of int32, so they wrap; the
// corrections of the unsigned x signed products are then at their largest too.
TEST(MatrixMadAvx512Int8, UniformExtremesWrapAround) {
  if (!CpuRunsAvx512Vnni()) GTEST_SKIP() << "the CPU lacks AVX512-VNNI";
  const uint32_t elements[] = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF};
  const uint32_t accumulators[] = {0, 1, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x12345678u};
  uint32_t seed = 9000;
  for (uint32_t signs = 0; signs < 4; ++signs) {
    const Case t = Int8Case((signs & 1) != 0, (signs & 2) != 0);
    const Plan plan = VnniPlan((signs & 1) != 0, (signs & 2) != 0);
    for (uint32_t a : elements) {
      for (uint32_t b : elements) {
        for (uint32_t c : accumulators) {
          CheckMatrices(
              t, plan, Uniform(a, b, c), ++seed,
              "a " + std::to_string(a) + " b " + std::to_string(b) + " c " + std::to_string(c));
        }
      }
    }
  }
}

// Mostly extremes, with row sums of A and column sums of B that differ from row to row and
// column to column (the per-row and per-column corrections must each land on their own).
TEST(MatrixMadAvx512Int8, MixedExtremesAndRandomC) {
  if (!CpuRunsAvx512Vnni()) GTEST_SKIP() << "the CPU lacks AVX512-VNNI";
  const uint32_t pool[] = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFE, 0xFF};
  const uint32_t accumulators[] = {0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu};
  uint32_t seed = 9500;
  for (uint32_t signs = 0; signs < 4; ++signs) {
    const Case t = Int8Case((signs & 1) != 0, (signs & 2) != 0);
    const Plan plan = VnniPlan((signs & 1) != 0, (signs & 2) != 0);
    for (int rep = 0; rep < 40; ++rep) {
      std::mt19937 rng(++seed);
      auto element = [&] { return rng() % 5 != 0 ? pool[rng() % 7] : rng() & 0xFFu; };
      Matrices x = Uniform(0, 0, 0);
      for (auto& row : x.a) {
        for (uint32_t& e : row) e = element();
      }
      for (auto& row : x.b) {
        for (uint32_t& e : row) e = element();
      }
      for (auto& row : x.c) {
        for (uint32_t& e : row) e = rng() % 2 == 0 ? accumulators[rng() % 3] : rng();
      }
      CheckMatrices(t, plan, x, seed, "rep " + std::to_string(rep));
    }
  }
}

// One non-zero element in A and one in B, everywhere else zero: the result is C plus at most
// one product, and every correction term must cancel exactly (a wrong row or column sum, or a
// wrong constant, shows up as a change in an element the product does not reach).
TEST(MatrixMadAvx512Int8, SingleProductsOverZeros) {
  if (!CpuRunsAvx512Vnni()) GTEST_SKIP() << "the CPU lacks AVX512-VNNI";
  uint32_t seed = 9900;
  for (uint32_t signs = 0; signs < 4; ++signs) {
    const Case t = Int8Case((signs & 1) != 0, (signs & 2) != 0);
    const Plan plan = VnniPlan((signs & 1) != 0, (signs & 2) != 0);
    std::mt19937 rng(++seed);
    for (int rep = 0; rep < 24; ++rep) {
      Matrices x = Uniform(0, 0, 0);
      const uint32_t k = rng() % 32;
      x.a[rng() % 8][rep % 2 == 0 ? k : rng() % 32] = 0x80u | (rng() & 0x7Fu);
      x.b[k][rng() % 16] = 0x80u | (rng() & 0x7Fu);
      for (auto& row : x.c) {
        for (uint32_t& e : row) e = rng();
      }
      CheckMatrices(t, plan, x, ++seed, "rep " + std::to_string(rep));
    }
  }
}

#endif  // XMX_MMA_X86

}  // namespace
}  // namespace xmx::interp
