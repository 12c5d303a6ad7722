// MatrixMadKernel on targeted cases (float models, rounding, tf32, NaN / infinity, signed
// zeros, extreme exponents, every element pattern, integer signedness) and the shapes Prepare
// rejects.
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

// --- Targeted cases, one SG16 M8 instruction each ---------------------------------------------

Case Sg16(Fmt in, Fmt acc) {
  const uint32_t mask = in == Fmt::kBF16 ? 0x3000 : in == Fmt::kF16 ? 0xC00 : 0x300;
  const uint32_t k = in == Fmt::kTF32 ? 8 : 16;
  const bool bf16_acc = acc == Fmt::kBF16;
  return {"targeted", 16,  k,   mask | (bf16_acc ? 0xC : 0), in,
          in,         acc, acc, in == Fmt::kTF32 ? 4u : 2u,  in == Fmt::kTF32,
          !bf16_acc,  8};
}

Matrices Filled(const Case& t, uint32_t a, uint32_t b, uint32_t c) {
  Matrices x;
  x.a.assign(t.m, std::vector<uint32_t>(t.k, a));
  x.b.assign(t.k, std::vector<uint32_t>(16, b));
  x.c.assign(t.m, std::vector<uint32_t>(16, c));
  return x;
}

// Result element (0, 0) of `x` under `model`.
uint32_t Element00(const Case& t, const Matrices& x, MmaFloatModel model,
                   MmaIsa isa = MmaIsa::kBest) {
  const MatrixMadShape shape = ShapeOf(t);
  std::string why;
  const auto kernel = MatrixMadKernel::Prepare(shape, model, &why, isa);
  EXPECT_TRUE(kernel) << why;
  if (!kernel) return 0;
  std::mt19937 rng(1);
  Slots s = Pack(t, x, rng);
  std::vector<uint8_t> result(shape.result.lane_bytes() * t.sg);
  kernel->Run(s.a.data(), s.b.data(), s.c.data(), result.data());
  return GetBits(result, 0, shape.result.scalar.bytes * 8u);
}

constexpr uint32_t kBf16One = 0x3F80, kF32One = 0x3F800000;

// 1 + 16 products of 2^-24: the exact sum 1 + 2^-20 is an fp32 value; each ordered step is a tie
// that rounds back to 1.
TEST(MatrixMadFloats, ExactAndOrderedModelsDiffer) {
  const Case t = Sg16(Fmt::kBF16, Fmt::kF32);
  const Matrices x = Filled(t, 0x3980 /* 2^-12 */, 0x3980, kF32One);
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), 0x3F800008u);  // 1 + 2^-20
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kOrdered), kF32One);
  for (MmaFloatModel model : kModels) CheckCase(t, x, model, MmaIsa::kBest, 2);
}

// With fp32 elements read as they are, one ordered step is 1 + p for a 48-bit product p just
// above 2^-24: a single rounding gives 1 + 2^-23, but rounding to double first lands on the tie
// 1 + 2^-24 and then on 1. Each step must be one rounding (a fused multiply-add).
TEST(MatrixMadFloats, OrderedStepRoundsOnce) {
  using F = Fmt;
  const Case t{"fp32", 16, 16, 0, F::kF32, F::kF32, F::kF32, F::kF32, 4, true, true, 8};
  // (1 + 2896 * 2^-23) * 2^-24 (1 - 2895 * 2^-23) = 2^-24 (1 + 4688 * 2^-46)
  Matrices x = Filled(t, 0, 0, kF32One);
  x.a[0][0] = std::bit_cast<uint32_t>(std::ldexp(8388608.0f + 2896.0f, -23));
  x.b[0][0] = std::bit_cast<uint32_t>(std::ldexp(8388608.0f - 2895.0f, -47));
  for (MmaFloatModel model : kModels) {
    for (MmaIsa isa : kIsas) {
      EXPECT_EQ(Element00(t, x, model, isa), 0x3F800001u) << static_cast<int>(model);
    }
  }
}

// bf16 results round to nearest, ties to even, straight from the exact sum.
TEST(MatrixMadFloats, BFloat16ResultTiesToEven) {
  Case t = Sg16(Fmt::kBF16, Fmt::kBF16);
  // One product 2^-8 (A[0][0] = B[0][0] = 2^-4, the rest zero) on C = 1: the tie 1 + 2^-8
  // rounds to 1 (even); on C = 1 + 2^-7 the tie 1 + 3 * 2^-8 rounds to 1 + 2^-6.
  Matrices x = Filled(t, 0, 0, kBf16One);
  x.a[0][0] = 0x3D80;  // 2^-4
  x.b[0][0] = 0x3D80;
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), kBf16One);
  x.c[0][0] = 0x3F81;
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), 0x3F82u);
  // 1 + 2^-8 + 2^-30 is just above the tie: the exact model rounds up once; the ordered model
  // rounds to fp32 first (losing 2^-30) and then meets the tie.
  x.c[0][0] = kBf16One;
  x.a[0][1] = 0x3800;  // 2^-15
  x.b[1][0] = 0x3800;  // product 2^-30
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), 0x3F81u);
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kOrdered), kBf16One);
  for (MmaFloatModel model : kModels) CheckCase(t, x, model, MmaIsa::kBest, 4);
}

// tf32 reads the upper 19 bits of each fp32 pattern.
TEST(MatrixMadFloats, Tf32IgnoresLow13Bits) {
  const Case t = Sg16(Fmt::kTF32, Fmt::kF32);
  // A = 1 + 2^-10 + (low bits set), B = 1 + (low bits set), C = 0: the product reads as 1 + 2^-10
  // per k, eight of them: 8 + 2^-7.
  const Matrices x = Filled(t, 0x3F802000u | 0x1FFFu, kF32One | 0x1ABCu, 0);
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), std::bit_cast<uint32_t>(8.0f + 0x1p-7f));
  // A NaN whose payload lies only in the low 13 bits reads as infinity.
  Matrices y = Filled(t, 0, kF32One, 0);
  y.a[0][0] = 0x7F800001u;
  EXPECT_EQ(Element00(t, y, MmaFloatModel::kExact), 0x7F800000u);
  for (MmaFloatModel model : kModels) {
    CheckCase(t, x, model, MmaIsa::kBest, 6);
    CheckCase(t, y, model, MmaIsa::kBest, 6);
  }
}

TEST(MatrixMadFloats, NaNAndInfinity) {
  const Case t = Sg16(Fmt::kBF16, Fmt::kF32);
  const uint32_t inf = 0x7F80, neg_inf = 0xFF80, nan = 0x7FC1, two = 0x4000;
  auto run = [&](Matrices x) { return Element00(t, x, MmaFloatModel::kExact); };
  Matrices x = Filled(t, 0, 0, 0);
  x.a[0][0] = inf;
  x.b[0][0] = two;
  EXPECT_EQ(run(x), 0x7F800000u);  // inf * 2
  x.b[0][0] = 0;
  EXPECT_EQ(run(x), 0x7FC00000u);  // inf * 0
  x.b[0][0] = two;
  x.a[0][1] = neg_inf;
  x.b[1][0] = two;
  EXPECT_EQ(run(x), 0x7FC00000u);              // inf - inf
  x = Filled(t, 0x3F80, 0x3F80, 0xFFC12345u);  // a negative NaN in C, with a payload
  EXPECT_EQ(run(x), 0x7FC00000u);
  x = Filled(t, 0x3F80, 0x3F80, 0);
  x.b[3][0] = nan;
  EXPECT_EQ(run(x), 0x7FC00000u);
  x = Filled(t, 0x7F00, 0x7F00, 0);  // finite products beyond fp32: overflow to infinity
  EXPECT_EQ(run(x), 0x7F800000u);
  // bf16 and fp16 results: canonical NaNs.
  const Case bf = Sg16(Fmt::kBF16, Fmt::kBF16);
  const Case hf = Sg16(Fmt::kF16, Fmt::kF16);
  EXPECT_EQ(Element00(bf, Filled(bf, inf, 0, 0), MmaFloatModel::kExact), 0x7FC0u);
  EXPECT_EQ(Element00(hf, Filled(hf, 0x7C00, 0, 0), MmaFloatModel::kExact), 0x7E00u);
  EXPECT_EQ(Element00(hf, Filled(hf, 0x7C00, 0x3C00, 0), MmaFloatModel::kOrdered), 0x7C00u);
  // fp8: E4M3's NaN pattern and E5M2's infinity.
  using F = Fmt;
  Case e4{"fp8", 16, 32, 0xC000, F::kE4M3, F::kE4M3, F::kF32, F::kF32, 2, false, true, 8};
  Matrices y = Filled(e4, 0x38 /* 1 */, 0x38, 0);
  y.a[0][5] = 0x7F;
  EXPECT_EQ(Element00(e4, y, MmaFloatModel::kExact), 0x7FC00000u);
  y.a[0][5] = 0x7E;  // 448, the largest finite
  EXPECT_EQ(Element00(e4, y, MmaFloatModel::kExact), std::bit_cast<uint32_t>(479.0f));
  Case e5{"fp8", 16, 32, 0x30000, F::kE5M2, F::kE5M2, F::kF32, F::kF32, 2, false, true, 8};
  Matrices z = Filled(e5, 0x3C /* 1 */, 0x3C, 0);
  z.a[0][0] = 0xFC;  // -inf
  EXPECT_EQ(Element00(e5, z, MmaFloatModel::kExact), 0xFF800000u);
}

// The sign of an exactly zero sum: -0 only when every term is -0.
TEST(MatrixMadFloats, SignOfZero) {
  const Case t = Sg16(Fmt::kBF16, Fmt::kF32);
  Matrices x = Filled(t, 0x8000 /* -0 */, 0, 0x80000000u);
  for (MmaFloatModel model : kModels) EXPECT_EQ(Element00(t, x, model), 0x80000000u);
  x.c[0][0] = 0;
  for (MmaFloatModel model : kModels) EXPECT_EQ(Element00(t, x, model), 0u);
  x = Filled(t, 0x3F80, 0x3F80, 0xC1800000u);  // 16 * 1 - 16 = +0
  for (MmaFloatModel model : kModels) EXPECT_EQ(Element00(t, x, model), 0u);
  // bf16 and fp16 results keep the sign too.
  const Case bf = Sg16(Fmt::kBF16, Fmt::kBF16);
  for (MmaFloatModel model : kModels) {
    EXPECT_EQ(Element00(bf, Filled(bf, 0x8000, 0, 0x8000), model), 0x8000u);
    EXPECT_EQ(Element00(bf, Filled(bf, 0x8000, 0, 0), model), 0u);
  }
  const Case hf = Sg16(Fmt::kF16, Fmt::kF16);
  for (MmaFloatModel model : kModels) {
    EXPECT_EQ(Element00(hf, Filled(hf, 0x8000, 0, 0x8000), model), 0x8000u);
  }
  // Only zero products, but the row and column hold values far apart, so the element takes the
  // exact fixed-point path: still -0 when every term is -0.
  x = Filled(t, 0x8000, 0, 0x80000000u);  // A -0, B +0, C -0
  x.a[0][0] = 0xFE80;                     // -2^126 * +0 = -0
  x.a[0][1] = 0x0080;                     // 2^-126 * -0 = -0
  x.b[1][0] = 0x8000;
  x.a[0][2] = 0;  // +0 * -2^-126 = -0
  x.b[2][0] = 0x8080;
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), 0x80000000u);
  x.a[0][3] = 0;  // +0 * +0: one +0 term
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), 0u);
}

// Sums whose terms lie too far apart for a double: the exact fixed-point path.
TEST(MatrixMadFloats, HugeAndTinyMixed) {
  const Case t = Sg16(Fmt::kBF16, Fmt::kF32);
  Matrices x = Filled(t, 0, 0, std::bit_cast<uint32_t>(0x1p100f));
  x.a[0][0] = 0x7E80;  // 2^126
  x.b[0][0] = 0x0080;  // 2^-126: product 1
  x.a[0][1] = 0x1F80;  // 2^-64
  x.b[1][0] = 0x1F80;  // product 2^-128
  x.a[0][2] = 0xF180;  // -2^100
  x.b[2][0] = 0x3F80;  // product -2^100, cancelling C
  // C + products = 1 + 2^-128 exactly: fp32 1 (2^-128 far below half an ulp).
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), kF32One);
  // Now without the 1: 2^-128, a subnormal fp32, exact.
  x.b[0][0] = 0;
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), 0x00200000u);
  // 2^100 - 2^100 + 2^-64 * (2^-64 + 2^-72): needs a few hundred bits of range.
  x.b[1][0] = 0x1F81;  // 2^-64 * (1 + 2^-7): the product is 2^-128 + 2^-135
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), 0x00204000u);
  CheckCase(t, x, MmaFloatModel::kExact, MmaIsa::kBest, 8);
  CheckCase(t, x, MmaFloatModel::kExact, MmaIsa::kPortable, 8);
  // bf16 result of an exact sum just above a tie by far less than a double could hold.
  const Case b = Sg16(Fmt::kBF16, Fmt::kBF16);
  Matrices y = Filled(b, 0, 0, kBf16One);
  y.a[0][0] = 0x3D80;
  y.b[0][0] = 0x3D80;  // 1 + 2^-8: a tie
  y.a[0][1] = 0x0080;
  y.b[1][0] = 0x0080;  // + 2^-252
  EXPECT_EQ(Element00(b, y, MmaFloatModel::kExact), 0x3F81u);
  y.a[0][1] = 0x8080;  // - 2^-252
  EXPECT_EQ(Element00(b, y, MmaFloatModel::kExact), kBf16One);
}

// Every pattern of every float element format decodes as the reference says: with B the
// identity and C = -0, Result[r][n] = A[r][n] exactly (fp32 holds every value).
TEST(MatrixMadFloats, EveryElementPatternDecodes) {
  using F = Fmt;
  struct Format {
    Fmt fmt;
    uint32_t mask, k, a_bytes;
    bool a_float;
  };
  const Format formats[] = {{F::kF16, 0xC00, 16, 2, false},    {F::kBF16, 0x3000, 16, 2, false},
                            {F::kE4M3, 0xC000, 32, 2, false},  {F::kE5M2, 0x30000, 32, 2, false},
                            {F::kE2M1, 0xC0000, 64, 2, false}, {F::kTF32, 0x300, 16, 4, true}};
  std::mt19937 rng(5);
  for (const Format& f : formats) {
    // tf32 as SG16 with K 16 (one column per lane), so that every lane carries data.
    const Case t{"decode", 16,      f.k,       f.mask,    f.fmt, f.fmt,
                 F::kF32,  F::kF32, f.a_bytes, f.a_float, true,  8};
    // Every pattern; for tf32 every 8th of the 2^19 significant ones, random low bits below.
    const uint32_t count = f.fmt == F::kTF32 ? 1u << 16 : 1u << BitsOf(f.fmt);
    uint32_t one_bits = 0;  // the pattern of 1.0, found by the reference decoder
    while (DecodeRef(f.fmt, one_bits).kind != Value::kFinite ||
           std::ldexp(static_cast<double>(DecodeRef(f.fmt, one_bits).mantissa),
                      DecodeRef(f.fmt, one_bits).exponent) != 1.0) {
      one_bits = f.fmt == F::kTF32 ? one_bits + 0x2000 : one_bits + 1;
    }
    uint32_t next = 0;
    while (next < count) {
      Matrices x = Filled(t, 0, 0, 0x80000000u);
      for (uint32_t k = 0; k < t.k; ++k) {
        for (uint32_t n = 0; n < 16; ++n) x.b[k][n] = k == n ? one_bits : 0;
      }
      for (uint32_t r = 0; r < t.m; ++r) {
        for (uint32_t n = 0; n < 16; ++n) {
          uint32_t bits = next < count ? next++ : 0;
          if (f.fmt == F::kTF32) bits = (bits << 16) | (rng() & 0xFFFF);
          x.a[r][n] = bits;
        }
      }
      if (CheckCase(t, x, MmaFloatModel::kExact, MmaIsa::kBest, 10) != 0) break;
    }
  }
}

// Integer signedness follows the Signed bits (DECISIONS 1); results wrap (DECISIONS 2).
TEST(MatrixMadIntegers, SignednessAndWrapAround) {
  auto run = [](uint32_t mask, bool int4, uint32_t a, uint32_t b, uint32_t c) {
    Case t = IntRow(16, int4 ? 64 : 32, mask, 2, int4);
    t.m = 8;
    Matrices x = Filled(t, 0, 0, c);
    x.a[0][0] = a;
    x.b[0][0] = b;
    return Element00(t, x, MmaFloatModel::kExact);
  };
  EXPECT_EQ(run(0x30, false, 0xFF, 0x02, 0), 510u);                         // u8 x u8
  EXPECT_EQ(run(0x31, false, 0xFF, 0x02, 0), static_cast<uint32_t>(-2));    // s8 x u8
  EXPECT_EQ(run(0x32, false, 0xFF, 0xFF, 0), static_cast<uint32_t>(-255));  // u8 x s8
  EXPECT_EQ(run(0x33, false, 0xFF, 0xFF, 0), 1u);                           // s8 x s8
  EXPECT_EQ(run(0x33, false, 0x80, 0x80, 0), 16384u);
  EXPECT_EQ(run(0xC0, true, 0xF, 0xF, 0), 225u);
  EXPECT_EQ(run(0xC1, true, 0xF, 0x3, 0), static_cast<uint32_t>(-3));
  EXPECT_EQ(run(0xC2, true, 0x3, 0x8, 0), static_cast<uint32_t>(-24));
  EXPECT_EQ(run(0xC3, true, 0x8, 0x8, 0), 64u);
  EXPECT_EQ(run(0x30, false, 0xFF, 0xFF, 0x7FFFFFFFu), 0x7FFFFFFFu + 65025u);  // wraps
  EXPECT_EQ(run(0x33, false, 0x7F, 0x80, 0x80000000u), 0x80000000u - 16256u);  // wraps
  // The largest sums: every product 255 * 255.
  Case t = IntRow(8, 32, 0x30, 4, false);
  t.m = 8;
  const Matrices x = Filled(t, 0xFF, 0xFF, 0xFFFFFFFFu);
  EXPECT_EQ(Element00(t, x, MmaFloatModel::kExact), 32u * 65025u - 1u);
}

// --- Rejected shapes -------------------------------------------------------------------------

struct Rejection {
  MatrixMadShape shape;
  const char* message;  // a part of the expected reason
};

ValueType I(uint8_t bytes, uint32_t n) { return {{ScalarKind::kInt, bytes}, n}; }
ValueType Fl(uint8_t bytes, uint32_t n) { return {{ScalarKind::kFloat, bytes}, n}; }

TEST(MatrixMadPrepare, RejectsWithReasons) {
  const Rejection cases[] = {
      {{64, 32, 0x33, I(4, 8), I(2, 8), I(4, 8), I(4, 8)}, "subgroup size 64"},
      {{24, 32, 0x33, I(4, 8), I(2, 8), I(4, 8), I(4, 8)}, "subgroup size 24"},
      {{16, 32, 0x33 | 0x100000, I(4, 8), I(2, 8), I(4, 8), I(4, 8)}, "scaled"},
      {{16, 32, 0x33 | 0x400000, I(4, 8), I(2, 8), I(4, 8), I(4, 8)}, "bits 0x400000"},
      {{16, 32, 0x50, I(4, 8), I(2, 8), I(4, 8), I(4, 8)},
       "both MatrixAPackedInt8INTEL and MatrixAPackedInt4INTEL"},
      {{16, 32, 0x20, I(4, 8), I(2, 8), I(4, 8), I(4, 8)},
       "Matrix A: integer components need an interpretation bit"},
      {{16, 32, 0x2010, Fl(4, 8), I(2, 8), I(4, 8), Fl(4, 8)},
       "Matrix B: holds bf16 but Matrix A holds uint8"},
      {{16, 16, 0x3001, Fl(4, 8), I(2, 8), I(4, 8), Fl(4, 8)},
       "MatrixASignedComponentsINTEL applies to integer data, but Matrix A holds bf16"},
      {{16, 8, 0x300, Fl(4, 8), I(4, 4), I(4, 8), Fl(4, 8)},
       "Matrix A: MatrixATF32INTEL needs 32-bit float components, found 32-bit integer"},
      {{16, 16, 0x3000, Fl(4, 8), Fl(2, 8), I(4, 8), Fl(4, 8)},
       "Matrix A: MatrixAPackedBFloat16INTEL needs integer components, found 16-bit float"},
      {{16, 16, 0x3000, Fl(4, 8), I(1, 8), I(4, 8), Fl(4, 8)},
       "Matrix A: 8-bit integer components cannot hold 16-bit bf16 elements"},
      {{16, 32, 0x33, Fl(4, 8), I(2, 8), I(4, 8), I(4, 8)},
       "Result Type: integer data accumulates into 32-bit integers, found 32-bit float"},
      {{16, 32, 0x33, I(4, 8), I(2, 8), I(4, 8), I(2, 8)},
       "Matrix C: integer data accumulates into 32-bit integers, found 16-bit integer"},
      {{16, 32, 0x37, I(4, 8), I(2, 8), I(4, 8), I(4, 8)},
       "MatrixCBFloat16INTEL applies to floating-point data"},
      {{16, 16, 0x3004, Fl(4, 8), I(2, 8), I(4, 8), Fl(4, 8)},
       "Matrix C: MatrixCBFloat16INTEL needs 16-bit integer components"},
      {{16, 16, 0x3000, I(4, 8), I(2, 8), I(4, 8), Fl(4, 8)},
       "Result Type: floating-point data accumulates into 32-bit or 16-bit floats"},
      {{16, 32, 0x33, I(4, 8), I(2, 8), I(4, 8), I(4, 4)},
       "Matrix C: expected 8 components, as many as the Result Type, found 4"},
      {{16, 64, 0x33, I(4, 8), I(2, 8), I(4, 16), I(4, 8)},
       "K Dim: K = 64 columns of Matrix A do not fit in 16 invocations"},
      {{8, 32, 0x33, I(4, 8), I(2, 8), I(4, 8), I(4, 8)},
       "K Dim: K = 32 columns of Matrix A do not fit in 8 invocations: a 16-bit integer "
       "component of Matrix A holds 2 int8 elements (K = 16)"},
      {{16, 24, 0x33, I(4, 8), I(2, 8), I(4, 6), I(4, 8)}, "does not spread evenly"},
      {{16, 32, 0x33, I(4, 8), I(2, 4), I(4, 8), I(4, 8)},
       "Matrix A: expected 8 components (one per row, M = 8), found 4"},
      {{16, 8, 0x300, Fl(4, 8), Fl(4, 8), Fl(4, 8), Fl(4, 8)},
       "Matrix A: expected 4 components (ceil(M/2)"},
      {{16, 32, 0x33, I(4, 8), I(2, 8), I(4, 4), I(4, 8)},
       "Matrix B: expected 8 components (K = 32 rows, 4 per component), found 4"},
      {{16, 32, 0x33, I(4, 8), I(2, 8), I(2, 16), I(4, 8)},
       "Matrix B: components must be 32 bits (4 packed int8 rows each), found 16-bit integer"},
      {{32, 8, 0x300, Fl(4, 4), Fl(4, 1), Fl(4, 4), Fl(4, 4)},
       "Matrix A: expected 2 components (ceil((M/2)/2) for 2 row phases in each half, M/2 = 4), "
       "found 1"},
      {{32, 32, 0x33, I(4, 4), I(2, 4), I(4, 8), I(4, 4)},
       "Matrix B: expected 4 components (K = 32 rows, 4 per component, split between the two "
       "halves), found 8"},
      {{32, 32, 0x33, I(4, 8), I(2, 4), I(4, 4), I(4, 8)},
       "Matrix A: expected 8 components (one per row of its half, M/2 = 8), found 4"},
      {{16, 0, 0x33, I(4, 8), I(2, 8), I(4, 8), I(4, 8)}, "K Dim: K must be at least 1"},
      {{16, 32, 0x33, I(4, 17), I(2, 17), I(4, 8), I(4, 17)}, "Result Type: 17 components"},
      {{16, 16, 0, Fl(4, 8), Fl(2, 8), Fl(2, 8), Fl(4, 8)},
       "Matrix B: components must be 32 bits (2 packed fp16 rows each), found 16-bit float"},
      {{16, 16, 0, Fl(4, 8), Fl(8, 8), Fl(4, 8), Fl(4, 8)}, "64-bit float components"},
      {{16, 16, 0x3000, Fl(8, 8), I(2, 8), I(4, 8), Fl(4, 8)}, "Result Type: floating-point data"},
      {{16, 32, 0x33, I(4, 8), {{ScalarKind::kBool, 1}, 8}, I(4, 8), I(4, 8)},
       "Matrix A: components must be integers or floats, found bool"},
  };
  for (const Rejection& r : cases) {
    std::string why;
    EXPECT_FALSE(MatrixMadKernel::Prepare(r.shape, MmaFloatModel::kExact, &why))
        << "accepted; expected: " << r.message;
    EXPECT_NE(why.find(r.message), std::string::npos)
        << "reason: " << why << "\nexpected: " << r.message;
  }
  // A null why_not is allowed.
  EXPECT_FALSE(MatrixMadKernel::Prepare(cases[0].shape, MmaFloatModel::kExact, nullptr));
}

TEST(MatrixMadPrepare, ReportsDimensionsAndIsa) {
  const MatrixMadShape paired{32, 16, 0x3000, Fl(4, 4), I(2, 4), I(4, 4), Fl(4, 4)};
  const auto k = MatrixMadKernel::Prepare(paired, MmaFloatModel::kOrdered, nullptr);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->m(), 8u);
  EXPECT_EQ(k->n(), 16u);
  EXPECT_EQ(k->k(), 16u);
  EXPECT_EQ(k->float_model(), MmaFloatModel::kOrdered);
  EXPECT_NE(k->isa(), MmaIsa::kBest);
  const auto portable =
      MatrixMadKernel::Prepare(paired, MmaFloatModel::kExact, nullptr, MmaIsa::kPortable);
  ASSERT_TRUE(portable);
  EXPECT_EQ(portable->isa(), MmaIsa::kPortable);
}

}  // namespace
}  // namespace xmx::interp
