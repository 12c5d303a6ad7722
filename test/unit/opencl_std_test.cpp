// OpenCL.std element-wise instructions: binding and rejection, and exact results at the edge
// cases OpenCL pins down.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "opencl_std_test_support.hpp"

namespace xmx::interp {
namespace {

using namespace opencl_std_testing;

// ---------------------------------------------------------------------------------------------
// Binding

TEST(OpenCLStdBind, NamesComeFromTheGrammar) {
  EXPECT_EQ(OpenCLStdInstructionName(kAcos), "acos");
  EXPECT_EQ(OpenCLStdInstructionName(kFastNormalize), "fast_normalize");
  EXPECT_EQ(OpenCLStdInstructionName(kSelect), "select");
  EXPECT_EQ(OpenCLStdInstructionName(kUMadHi), "u_mad_hi");
  EXPECT_EQ(OpenCLStdInstructionName(120), "");
  EXPECT_EQ(OpenCLStdInstructionName(205), "");
}

TEST(OpenCLStdBind, RejectsUnknownNumbers) {
  for (uint32_t op : {111u, 140u, 188u, 200u, 205u, 100000u}) {
    const std::string why = BindError(op, V(kF32), {V(kF32)});
    EXPECT_NE(why.find("no such instruction"), std::string::npos) << op << ": " << why;
  }
}

TEST(OpenCLStdBind, LeavesMemoryPrintfAndShufflesToTheExecutor) {
  for (uint32_t op :
       {uint32_t{kVloadn}, uint32_t{kShuffle}, uint32_t{kPrintf}, uint32_t{kPrefetch}, 175u}) {
    const std::string why = BindError(op, V(kF32, 4), {V(kF32, 4), V(kI32, 4)});
    EXPECT_NE(why.find("executor"), std::string::npos) << why;
    EXPECT_NE(why.find(std::string(OpenCLStdInstructionName(op))), std::string::npos) << why;
  }
}

TEST(OpenCLStdBind, RejectsInvalidTypesWithAReason) {
  EXPECT_EQ(BindError(kSqrt, V(kI32), {V(kI32)}),
            "OpenCL.std sqrt: the result must be a half, float or double type, not int");
  EXPECT_EQ(BindError(kFmax, V(kF32, 4), {V(kF32, 4), V(kF64, 4)}),
            "OpenCL.std fmax: operand 2 is double4, expected float4 or float (result float4)");
  EXPECT_EQ(BindError(kFma, V(kF32), {V(kF32), V(kF32)}),
            "OpenCL.std fma: expects 3 operand(s), got 2");
  EXPECT_NE(BindError(kSqrt, V(kF32), {V(kF32, 4)}).find("operand 1 is float4"), std::string::npos);
  EXPECT_NE(BindError(kHalfSqrt, V(kF16), {V(kF16)}).find("float only"), std::string::npos);
  EXPECT_NE(BindError(kHalfCos, V(kF64, 2), {V(kF64, 2)}).find("float only"), std::string::npos);
  EXPECT_NE(BindError(kSMul24, V(kI16), {V(kI16), V(kI16)}).find("32-bit"), std::string::npos);
  EXPECT_NE(BindError(kSAddSat, V(kF32), {V(kF32), V(kF32)}).find("integer"), std::string::npos);
  EXPECT_NE(BindError(kUUpsample, V(kI8), {V(kI8), V(kI8)}).find("short, int or long"),
            std::string::npos);
  EXPECT_NE(BindError(kUUpsample, V(kI64), {V(kI16), V(kI16)}).find("operand 1 is short"),
            std::string::npos);
  EXPECT_NE(BindError(kIlogb, V(kF32), {V(kF32)}).find("must be int"), std::string::npos);
  EXPECT_NE(BindError(kLdexp, V(kF32), {V(kF32), V(kI64)}).find("operand 2 is long"),
            std::string::npos);
  EXPECT_NE(BindError(kNan, V(kF32), {V(kI64)}).find("operand 1 is long"), std::string::npos);
  EXPECT_NE(BindError(kSelect, V(kF32, 4), {V(kF32, 4), V(kF32, 4), V(kF32, 4)})
                .find("integer condition"),
            std::string::npos);
  EXPECT_NE(BindError(kCross, V(kF32, 2), {V(kF32, 2), V(kF32, 2)}).find("3 or 4"),
            std::string::npos);
  EXPECT_NE(BindError(kLength, V(kF32, 4), {V(kF32, 4)}).find("scalar"), std::string::npos);
  EXPECT_NE(BindError(kLength, V(kF32), {V(kF32, 8)}).find("1 to 4"), std::string::npos);
  EXPECT_NE(BindError(kSmoothstep, V(ScalarType{ScalarKind::kBool, 1}), {}).find("bool"),
            std::string::npos);
}

TEST(OpenCLStdBind, PointerOutParameters) {
  const ValueType pointer{ScalarType{ScalarKind::kPointer, 8}, 1};
  OpenCLStdCall frexp = MustBind(kFrexp, V(kF32, 4), {V(kF32, 4)});
  EXPECT_EQ(frexp.second_result, V(kI32, 4));
  EXPECT_EQ(frexp.operand_count, 1u);
  frexp = MustBind(kFrexp, V(kF64, 2), {V(kF64, 2), pointer});
  EXPECT_EQ(frexp.second_result, V(kI32, 2));
  EXPECT_EQ(frexp.operand_count, 1u);
  EXPECT_EQ(MustBind(kModf, V(kF16, 3), {V(kF16, 3), V(kF16, 3)}).second_result, V(kF16, 3));
  EXPECT_EQ(MustBind(kSincos, V(kF64), {V(kF64)}).second_result, V(kF64));
  EXPECT_EQ(MustBind(kRemquo, V(kF32, 8), {V(kF32, 8), V(kF32, 8), pointer}).second_result,
            V(kI32, 8));
  EXPECT_EQ(MustBind(kLgammaR, V(kF32), {V(kF32)}).second_result, V(kI32));
  EXPECT_EQ(MustBind(kFmax, V(kF32), {V(kF32), V(kF32)}).second_result.components, 0u);
  EXPECT_NE(BindError(kFract, V(kF32, 2), {V(kF32, 2), V(kI32, 2)}).find("points to int2"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Math: the functions OpenCL requires to be exact

TEST(OpenCLStdMath, FminFmaxReturnTheNumberOverNaNAndOrderZeros) {
  EXPECT_EQ(Eval<float>(kFmin, kFNaN, 2.0f), 2.0f);
  EXPECT_EQ(Eval<float>(kFmin, 2.0f, kFNaN), 2.0f);
  EXPECT_EQ(Eval<float>(kFmax, kFNaN, -kFInf), -kFInf);
  EXPECT_TRUE(std::isnan(Eval<float>(kFmax, kFNaN, kFNaN)));
  EXPECT_EQ(Bits(Eval<float>(kFmin, 0.0f, -0.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(Eval<float>(kFmax, -0.0f, 0.0f)), Bits(0.0f));
  EXPECT_EQ(Eval<double>(kFmin, kDNaN, -1.0), -1.0);
  EXPECT_EQ(Eval<double>(kFmax, 1e300, kDInf), kDInf);
  EXPECT_EQ(Bits(Eval<Fp16>(kFmax, H(kDNaN), H(-3))), H(-3).bits);
  EXPECT_EQ(Eval<float>(kFminCommon, 1.0f, kFNaN), 1.0f);
  EXPECT_EQ(Eval<float>(kFmaxCommon, 1.0f, 4.0f), 4.0f);
  EXPECT_EQ(Eval<float>(kMaxmag, -3.0f, 2.0f), -3.0f);
  EXPECT_EQ(Eval<float>(kMinmag, -3.0f, 2.0f), 2.0f);
  EXPECT_EQ(Eval<float>(kMaxmag, -2.0f, 2.0f), 2.0f);   // equal magnitudes: fmax
  EXPECT_EQ(Eval<float>(kMinmag, -2.0f, 2.0f), -2.0f);  // equal magnitudes: fmin
  EXPECT_EQ(Eval<double>(kMaxmag, kDNaN, -7.0), -7.0);
}

TEST(OpenCLStdMath, FmaRoundsOnceAndMadTwice) {
  const float a = 1.0f + 0x1p-23f, b = 1.0f - 0x1p-23f;
  EXPECT_EQ(Eval<float>(kFma, a, b, -1.0f), -0x1p-46f);
  EXPECT_EQ(Eval<float>(kMad, a, b, -1.0f), 0.0f);
  const double da = 1.0 + 0x1p-52, db = 1.0 - 0x1p-52;
  EXPECT_EQ(Eval<double>(kFma, da, db, -1.0), -0x1p-104);
  EXPECT_EQ(Eval<double>(kMad, da, db, -1.0), 0.0);
  const Fp16 ha = H(1 + 0x1p-10), hb = H(1 - 0x1p-10);
  EXPECT_EQ(D(Eval<Fp16>(kFma, ha, hb, H(-1))), -0x1p-20);
  EXPECT_EQ(D(Eval<Fp16>(kMad, ha, hb, H(-1))), 0.0);
  EXPECT_EQ(Eval<float>(kFma, kFInf, 0.0f, 1.0f) == Eval<float>(kFma, kFInf, 0.0f, 1.0f), false);
  EXPECT_EQ(Bits(Eval<float>(kFma, -0.0f, 1.0f, -0.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(Eval<Fp16>(kFma, H(-0.0), H(1), H(-0.0))), 0x8000);
  EXPECT_EQ(Bits(Eval<Fp16>(kFma, H(2), H(-3), H(6))), 0x0000);
}

// The value a*b+c of three finite halves rounded to half by integer arithmetic: every such value
// is a multiple of 2^-48 below 2^81, exact in an __int128.
uint16_t ExactHalfFma(Fp16 a, Fp16 b, Fp16 c) {
  auto units = [](Fp16 h) {  // h in units of 2^-24
    return static_cast<__int128>(std::ldexp(D(h), 24));
  };
  __int128 sum = units(a) * units(b) + (units(c) << 24);  // units of 2^-48
  if (sum == 0) {
    const bool negative_zero = std::signbit(D(a)) != std::signbit(D(b)) && std::signbit(D(c));
    return negative_zero ? 0x8000 : 0;
  }
  const bool negative = sum < 0;
  unsigned __int128 magnitude = negative ? -sum : sum;
  int top = 127;
  while (((magnitude >> top) & 1) == 0) --top;
  // 11 significant bits, but no finer than half's subnormal step 2^-24 (2^24 units).
  const int shift = std::max(top - 10, 24);
  const unsigned __int128 unit = static_cast<unsigned __int128>(1) << shift;
  unsigned __int128 whole = magnitude >> shift;
  const unsigned __int128 rest = magnitude & (unit - 1);
  if (rest > unit / 2 || (rest == unit / 2 && (whole & 1))) ++whole;
  const double value = std::ldexp(static_cast<double>(whole), shift - 48);  // exact
  return FloatToHalf(negative ? -value : value);
}

TEST(OpenCLStdMath, HalfFmaIsCorrectlyRoundedOnRandomOperands) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> bits(0, 0xFFFF);
  auto finite_half = [&] {
    Fp16 h;
    do h.bits = static_cast<uint16_t>(bits(rng));
    while ((h.bits & 0x7C00) == 0x7C00);
    return h;
  };
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const Fp16 a = finite_half(), b = finite_half();
    Fp16 c = finite_half();
    // Bias toward sums near a tie: c one step off the product.
    if (i % 2) c = H(-D(a) * D(b) + std::ldexp(1.0, (i % 40) - 30));
    if ((c.bits & 0x7C00) == 0x7C00) continue;
    ASSERT_EQ(Eval<Fp16>(kFma, a, b, c).bits, ExactHalfFma(a, b, c))
        << std::hex << a.bits << " " << b.bits << " " << c.bits;
    ++checked;
  }
  EXPECT_GT(checked, 150000);
}

TEST(OpenCLStdMath, SqrtIsCorrectlyRounded) {
  // Every half, exhaustively: the result is the one of its neighbours whose square is closest.
  for (uint32_t bits = 0; bits < 0x7C00; ++bits) {
    const Fp16 x{static_cast<uint16_t>(bits)};
    const Fp16 r = Eval<Fp16>(kSqrt, x);
    const double exact = std::sqrt(D(x));
    const double up = D(Fp16{static_cast<uint16_t>(r.bits + 1)});
    const double down = bits == 0 ? 0 : D(Fp16{static_cast<uint16_t>(r.bits - 1)});
    ASSERT_LE(std::fabs(D(r) - exact), std::fabs(up - exact)) << bits;
    ASSERT_LE(std::fabs(D(r) - exact), std::fabs(down - exact)) << bits;
  }
  EXPECT_EQ(Eval<Fp16>(kSqrt, H(2)).bits, 0x3DA8);
  // Float: r*r is exact in double, so the check compares squares against x.
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> any(0, 0x7F7FFFFF);
  for (int i = 0; i < 20000; ++i) {
    const float x = std::bit_cast<float>(any(rng));
    const float r = Eval<float>(kSqrt, x);
    const long double lr = r, lx = x;
    const long double up = std::nextafter(r, kFInf), down = std::nextafter(r, 0.0f);
    ASSERT_LE(std::fabs(lr * lr - lx), std::fabs(up * up - lx)) << x;
    ASSERT_LE(std::fabs(lr * lr - lx), std::fabs(down * down - lx)) << x;
  }
  EXPECT_TRUE(std::isnan(Eval<float>(kSqrt, -1.0f)));
  EXPECT_EQ(Bits(Eval<double>(kSqrt, -0.0)), Bits(-0.0));
  EXPECT_EQ(Eval<float>(kNativeSqrt, 16.0f), 4.0f);
  EXPECT_EQ(Eval<float>(kHalfDivide, 1.0f, 3.0f), 1.0f / 3.0f);
  EXPECT_EQ(Eval<double>(kNativeDivide, 1.0, 3.0), 1.0 / 3.0);
}

TEST(OpenCLStdMath, RoundingFunctions) {
  struct Case {
    uint32_t op;
    double x, expected;
  };
  const Case cases[] = {
      {kRint, 2.5, 2},
      {kRint, 3.5, 4},
      {kRint, -0.5, -0.0},
      {kRint, -1.5, -2},
      {kRound, 2.5, 3},
      {kRound, -0.5, -1},
      {kRound, 0.49999997, 0},
      {kRound, -0.25, -0.0},
      {kTrunc, -1.7, -1},
      {kTrunc, -0.7, -0.0},
      {kCeil, -0.5, -0.0},
      {kCeil, 1.25, 2},
      {kFloor, -0.0, -0.0},
      {kFloor, -1.25, -2},
      {kFabs, -0.0, 0.0},
      {kFabs, -kDInf, kDInf},
      {kRint, 0x1p23 + 1, 0x1p23 + 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(OpenCLStdInstructionName(c.op)) + "(" + std::to_string(c.x) + ")");
    EXPECT_EQ(Bits(Eval<float>(c.op, static_cast<float>(c.x))),
              Bits(static_cast<float>(c.expected)));
    EXPECT_EQ(Bits(Eval<double>(c.op, c.x)), Bits(c.expected));
    if (D(H(c.x)) == c.x) {  // only where the input is a half
      EXPECT_EQ(Eval<Fp16>(c.op, H(c.x)).bits, H(c.expected).bits);
    }
  }
}

TEST(OpenCLStdMath, SignAndDifference) {
  EXPECT_EQ(Bits(Eval<float>(kCopysign, 3.0f, -0.0f)), Bits(-3.0f));
  EXPECT_EQ(Bits(Eval<double>(kCopysign, kDInf, -1.0)), Bits(-kDInf));
  EXPECT_TRUE(std::signbit(Eval<float>(kCopysign, kFNaN, -1.0f)));
  EXPECT_EQ(Eval<Fp16>(kCopysign, H(2), H(-0.0)).bits, 0xC000);
  EXPECT_EQ(Bits(Eval<float>(kFdim, 3.0f, 5.0f)), Bits(0.0f));
  EXPECT_EQ(Eval<float>(kFdim, 5.0f, 3.0f), 2.0f);
  EXPECT_EQ(Eval<float>(kFdim, FLT_MAX, -FLT_MAX), kFInf);
  EXPECT_TRUE(std::isnan(Eval<double>(kFdim, kDNaN, 1.0)));
  EXPECT_EQ(Eval<Fp16>(kFdim, H(65504), H(-65504)).bits, 0x7C00);
}

TEST(OpenCLStdMath, FmodRemainderRemquo) {
  EXPECT_EQ(Eval<float>(kFmod, 5.5f, 2.0f), 1.5f);
  EXPECT_EQ(Eval<float>(kFmod, -5.5f, 2.0f), -1.5f);
  EXPECT_EQ(Bits(Eval<double>(kFmod, -4.0, 2.0)), Bits(-0.0));
  EXPECT_TRUE(std::isnan(Eval<float>(kFmod, 1.0f, 0.0f)));
  EXPECT_EQ(Eval<double>(kFmod, 1e300, 3.0), std::fmod(1e300, 3.0));
  EXPECT_EQ(Eval<float>(kRemainder, 5.0f, 2.0f), 1.0f);
  EXPECT_EQ(Eval<float>(kRemainder, 7.0f, 2.0f), -1.0f);
  EXPECT_EQ(D(Eval<Fp16>(kRemainder, H(7), H(2))), -1.0);

  auto rq = [](auto x, auto y) { return EvalOut<decltype(x), int32_t>(kRemquo, x, y); };
  EXPECT_EQ(rq(7.0f, 2.0f), std::make_pair(-1.0f, 4));
  EXPECT_EQ(rq(-7.0f, 2.0f), std::make_pair(1.0f, -4));
  EXPECT_EQ(rq(7.0, -2.0), std::make_pair(-1.0, -4));
  EXPECT_EQ(rq(901.0f, 3.0f), std::make_pair(1.0f, 300 & 127));  // more than three bits
  EXPECT_EQ(rq(5.0f, 2.0f), std::make_pair(1.0f, 2));            // tie: even quotient
  EXPECT_EQ(rq(127.25, 0.5), std::make_pair(0.25, 126));         // 254.5: the even 254
  EXPECT_EQ(rq(127.75, 0.5), std::make_pair(-0.25, 0));          // 255.5: the even 256
  // 2^60 = 3q + 1.
  const __int128 q60 = ((static_cast<__int128>(1) << 60) - 1) / 3;
  EXPECT_EQ(rq(0x1p60, 3.0), std::make_pair(1.0, static_cast<int>(q60 & 127)));
  // A float far beyond 2^24: x = m * 2^e; x mod (7*128) by modular arithmetic.
  const float big = 1e30f;
  int e;
  const double m = std::frexp(static_cast<double>(big), &e);
  __int128 mant = static_cast<__int128>(std::ldexp(m, 24));
  __int128 t = mant % 896;
  for (int i = 0; i < e - 24; ++i) t = (t * 2) % 896;
  const auto q = static_cast<int64_t>((t + 3) / 7);  // x/7 = 128k + t/7, never a tie
  const float rem = static_cast<float>(t - 7 * q);
  EXPECT_EQ(rq(big, 7.0f), std::make_pair(rem, static_cast<int>(q & 127)));
  EXPECT_EQ(rq(1e-40f, kFInf), std::make_pair(1e-40f, 0));
  EXPECT_TRUE(std::isnan(rq(kFInf, 1.0f).first));
  EXPECT_EQ(rq(DBL_MAX, 0x1p1020).second,
            static_cast<int>(std::nearbyint(DBL_MAX / 0x1p1020)) & 127);
}

// remquo's seven quotient bits against integer arithmetic: x = mx 2^ex and y = my 2^ey with
// integer significands, so x/y = mx 2^(ex-ey) / my is reduced modulo 256 my exactly.
std::pair<double, int32_t> ExactRemquo(double x, double y) {
  int ex, ey;
  const int64_t mx = static_cast<int64_t>(std::ldexp(std::frexp(std::fabs(x), &ex), 53));
  const int64_t my = static_cast<int64_t>(std::ldexp(std::frexp(std::fabs(y), &ey), 53));
  const int shift = ex - ey;
  __int128 t, divisor;
  if (shift >= 0) {  // mx 2^shift modulo 256 my
    divisor = static_cast<__int128>(my) * 256;
    __int128 power = 1, base = 2 % divisor;
    for (int s = shift; s > 0; s >>= 1, base = base * base % divisor) {
      if (s & 1) power = power * base % divisor;
    }
    t = mx % divisor * power % divisor;
    divisor = my;
  } else if (shift > -60) {  // mx / (my 2^-shift)
    t = mx;
    divisor = static_cast<__int128>(my) << -shift;
  } else {
    t = 0;
    divisor = 1;
  }
  int64_t q = static_cast<int64_t>(t / divisor);
  const __int128 rest = t % divisor;
  if (2 * rest > divisor || (2 * rest == divisor && (q & 1))) ++q;
  const int32_t bits = static_cast<int32_t>(q & 127);
  return {std::remainder(x, y), std::signbit(x) != std::signbit(y) ? -bits : bits};
}

TEST(OpenCLStdMath, RemquoMatchesIntegerArithmeticOnRandomOperands) {
  std::mt19937_64 rng(52);
  const int kSamples = 20000;
  // y within a few dozen binades of x on even samples (quotients of every size up to 2^50 or
  // so), anywhere on odd ones.
  auto near = [&](auto x, auto random) {
    using T = decltype(x);
    if (rng() % 2) return random;
    const T mantissa = static_cast<T>(1 + static_cast<double>(rng() % (1 << 20)) * 0x1p-20);
    const T y = std::ldexp(mantissa, std::ilogb(x) - static_cast<int>(rng() % 60) + 8);
    return rng() % 2 ? -y : y;
  };
  std::vector<float> fx, fy;
  std::vector<double> dx, dy;
  while (fx.size() < kSamples) {
    const float x = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    const double a = std::bit_cast<double>(rng());
    if (!std::isfinite(x) || !std::isfinite(a) || x == 0 || a == 0) continue;
    const float y = near(x, std::bit_cast<float>(static_cast<uint32_t>(rng())));
    const double b = near(a, std::bit_cast<double>(rng()));
    if (!std::isfinite(y) || !std::isfinite(b) || y == 0 || b == 0) continue;
    fx.push_back(x), fy.push_back(y), dx.push_back(a), dy.push_back(b);
  }
  for (size_t i = 0; i < fx.size(); ++i) {
    const auto got = EvalOut<float, int32_t>(kRemquo, fx[i], fy[i]);
    const auto want = ExactRemquo(fx[i], fy[i]);
    ASSERT_EQ(Bits(got.first), Bits(static_cast<float>(want.first))) << fx[i] << " " << fy[i];
    ASSERT_EQ(got.second, want.second) << std::hexfloat << fx[i] << " " << fy[i];
  }
  for (size_t i = 0; i < dx.size(); ++i) {
    const auto got = EvalOut<double, int32_t>(kRemquo, dx[i], dy[i]);
    const auto want = ExactRemquo(dx[i], dy[i]);
    ASSERT_EQ(Bits(got.first), Bits(want.first)) << dx[i] << " " << dy[i];
    ASSERT_EQ(got.second, want.second) << std::hexfloat << dx[i] << " " << dy[i];
  }
}

TEST(OpenCLStdMath, FrexpLdexpModfFract) {
  EXPECT_EQ((EvalOut<float, int32_t>(kFrexp, 8.0f)), std::make_pair(0.5f, 4));
  EXPECT_EQ((EvalOut<float, int32_t>(kFrexp, kFDenormMin)), std::make_pair(0.5f, -148));
  EXPECT_EQ((EvalOut<float, int32_t>(kFrexp, -0.0f)).second, 0);
  EXPECT_EQ((EvalOut<float, int32_t>(kFrexp, kFInf)), std::make_pair(kFInf, 0));
  EXPECT_EQ((EvalOut<double, int32_t>(kFrexp, 0x1p-1074)), std::make_pair(0.5, -1073));
  auto hf = EvalOut<Fp16, int32_t>(kFrexp, Fp16{0x0001});  // 2^-24
  EXPECT_EQ(D(hf.first), 0.5);
  EXPECT_EQ(hf.second, -23);

  EXPECT_EQ(Eval<float>(kLdexp, 1.0f, int32_t{-149}), kFDenormMin);
  EXPECT_EQ(Eval<float>(kLdexp, 1.0f, int32_t{-150}), 0.0f);       // a tie, to even
  EXPECT_EQ(Eval<float>(kLdexp, 1.5f, int32_t{-149}), 0x1p-148f);  // a tie, to even
  EXPECT_EQ(Eval<float>(kLdexp, 1.0f, int32_t{128}), kFInf);
  EXPECT_EQ(Eval<float>(kLdexp, 0x1p-149f, int32_t{INT_MAX}), kFInf);
  EXPECT_EQ(Eval<double>(kLdexp, 3.0, int32_t{-1075}), 0x1p-1073);  // 1.5 units: to even
  EXPECT_EQ(Eval<Fp16>(kLdexp, H(1), int32_t{-24}).bits, 0x0001);
  EXPECT_EQ(Eval<Fp16>(kLdexp, H(1), int32_t{-25}).bits, 0x0000);
  EXPECT_EQ(Eval<Fp16>(kLdexp, H(3), int32_t{-26}).bits, 0x0001);

  EXPECT_EQ((EvalOut<float, float>(kModf, -3.5f)), std::make_pair(-0.5f, -3.0f));
  auto mi = EvalOut<double, double>(kModf, -kDInf);
  EXPECT_EQ(Bits(mi.first), Bits(-0.0));
  EXPECT_EQ(mi.second, -kDInf);

  EXPECT_EQ((EvalOut<float, float>(kFract, -2.25f)), std::make_pair(0.75f, -3.0f));
  EXPECT_EQ((EvalOut<float, float>(kFract, -1e-30f)), std::make_pair(0x1.fffffep-1f, -1.0f));
  EXPECT_EQ((EvalOut<double, double>(kFract, -1e-300)), std::make_pair(0x1.fffffffffffffp-1, -1.0));
  auto hfr = EvalOut<Fp16, Fp16>(kFract, Fp16{0x8001});  // -2^-24
  EXPECT_EQ(hfr.first.bits, 0x3BFF);                     // 0x1.ffcp-1
  EXPECT_EQ(D(hfr.second), -1.0);
  auto z = EvalOut<float, float>(kFract, -0.0f);
  EXPECT_EQ(Bits(z.first), Bits(-0.0f));
  EXPECT_EQ(Bits(z.second), Bits(-0.0f));
  auto inf = EvalOut<float, float>(kFract, kFInf);
  EXPECT_EQ(Bits(inf.first), Bits(0.0f));
  EXPECT_EQ(inf.second, kFInf);
  auto ninf = EvalOut<float, float>(kFract, -kFInf);
  EXPECT_EQ(Bits(ninf.first), Bits(-0.0f));
  auto nan = EvalOut<float, float>(kFract, kFNaN);
  EXPECT_TRUE(std::isnan(nan.first) && std::isnan(nan.second));
}

TEST(OpenCLStdMath, NextafterStepsOneUlpInEachFormat) {
  EXPECT_EQ(Eval<float>(kNextafter, 0.0f, 1.0f), kFDenormMin);
  EXPECT_EQ(Eval<float>(kNextafter, -0.0f, 1.0f), kFDenormMin);
  EXPECT_EQ(Eval<float>(kNextafter, 0.0f, -1.0f), -kFDenormMin);
  EXPECT_EQ(Eval<float>(kNextafter, 1.0f, 2.0f), 1.0f + 0x1p-23f);
  EXPECT_EQ(Eval<float>(kNextafter, 1.0f, 0.0f), 1.0f - 0x1p-24f);
  EXPECT_EQ(Eval<float>(kNextafter, -1.0f, -2.0f), -1.0f - 0x1p-23f);
  EXPECT_EQ(Eval<float>(kNextafter, FLT_MAX, kFInf), kFInf);
  EXPECT_EQ(Eval<float>(kNextafter, kFInf, 0.0f), FLT_MAX);
  EXPECT_EQ(Eval<float>(kNextafter, kFDenormMin, -1.0f), 0.0f);
  EXPECT_EQ(Bits(Eval<float>(kNextafter, 0.0f, -0.0f)), Bits(-0.0f));
  EXPECT_TRUE(std::isnan(Eval<float>(kNextafter, 1.0f, kFNaN)));
  EXPECT_EQ(Eval<double>(kNextafter, 1.0, 2.0), 1.0 + 0x1p-52);
  EXPECT_EQ(Eval<double>(kNextafter, 0.0, -1.0), -0x1p-1074);
  EXPECT_EQ(Eval<Fp16>(kNextafter, H(1), H(2)).bits, 0x3C01);
  EXPECT_EQ(Eval<Fp16>(kNextafter, H(1), H(0)).bits, 0x3BFF);
  EXPECT_EQ(Eval<Fp16>(kNextafter, H(0), H(-1)).bits, 0x8001);
  EXPECT_EQ(Eval<Fp16>(kNextafter, H(65504), H(kDInf)).bits, 0x7C00);
}

TEST(OpenCLStdMath, LogbIlogbNan) {
  EXPECT_EQ(Eval<float>(kLogb, 0.0f), -kFInf);
  EXPECT_EQ(Eval<float>(kLogb, -kFInf), kFInf);
  EXPECT_EQ(Eval<float>(kLogb, 1000.0f), 9.0f);
  EXPECT_EQ(Eval<float>(kLogb, kFDenormMin), -149.0f);
  EXPECT_EQ(Eval<double>(kLogb, 0x1p-1074), -1074.0);
  EXPECT_EQ(D(Eval<Fp16>(kLogb, Fp16{0x0001})), -24.0);
  EXPECT_EQ(Eval<int32_t>(kIlogb, 0.0f), INT_MIN);
  EXPECT_EQ(Eval<int32_t>(kIlogb, kFNaN), INT_MAX);
  EXPECT_EQ(Eval<int32_t>(kIlogb, -kFInf), INT_MAX);
  EXPECT_EQ(Eval<int32_t>(kIlogb, kFDenormMin), -149);
  EXPECT_EQ(Eval<int32_t>(kIlogb, -3.0), 1);
  EXPECT_EQ(Eval<int32_t>(kIlogb, Fp16{0x0001}), -24);
  EXPECT_EQ(Eval<int32_t>(kIlogb, H(65504)), 15);
  EXPECT_EQ(Bits(Eval<float>(kNan, uint32_t{0})), 0x7FC00000u);
  EXPECT_EQ(Bits(Eval<float>(kNan, uint32_t{5})), 0x7FC00005u);
  EXPECT_EQ(Bits(Eval<float>(kNan, uint32_t{0xFFFFFFFF})), 0x7FFFFFFFu);
  EXPECT_EQ(Bits(Eval<double>(kNan, uint64_t{0x123})), 0x7FF8000000000123u);
  EXPECT_EQ(Eval<Fp16>(kNan, uint16_t{0x31FF}).bits, 0x7FFF);
  EXPECT_EQ(Eval<Fp16>(kNan, uint16_t{0}).bits, 0x7E00);
}

TEST(OpenCLStdMath, PiFunctionsAtTheirSpecialPoints) {
  EXPECT_EQ(Bits(Eval<float>(kSinpi, 1.0f)), Bits(0.0f));
  EXPECT_EQ(Bits(Eval<float>(kSinpi, -1.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(Eval<float>(kSinpi, -0.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(Eval<double>(kSinpi, 1e20)), Bits(0.0));
  EXPECT_EQ(Bits(Eval<double>(kSinpi, -0x1p60)), Bits(-0.0));
  EXPECT_EQ(Eval<float>(kSinpi, 0.5f), 1.0f);
  EXPECT_EQ(Eval<float>(kSinpi, -1.5f), 1.0f);
  EXPECT_NEAR(Eval<double>(kSinpi, 1.0 / 6), 0.5, 0x1p-53);
  EXPECT_EQ(Eval<float>(kSinpi, 1e-40f), static_cast<float>(1e-40f * 3.14159265358979));
  EXPECT_TRUE(std::isnan(Eval<float>(kSinpi, kFInf)));
  EXPECT_EQ(Bits(Eval<float>(kCospi, 0.5f)), Bits(0.0f));
  EXPECT_EQ(Bits(Eval<float>(kCospi, -1.5f)), Bits(0.0f));
  EXPECT_EQ(Eval<float>(kCospi, 1.0f), -1.0f);
  EXPECT_EQ(Eval<double>(kCospi, 1.0 / 3), 0.5);
  EXPECT_EQ(Eval<double>(kCospi, 0x1p60 + 0x1p8), 1.0);
  EXPECT_EQ(Eval<float>(kTanpi, 0.25f), 1.0f);
  EXPECT_EQ(Eval<float>(kTanpi, -0.25f), -1.0f);
  EXPECT_EQ(Eval<float>(kTanpi, 0.5f), kFInf);
  EXPECT_EQ(Eval<float>(kTanpi, 1.5f), -kFInf);
  EXPECT_EQ(Eval<float>(kTanpi, -0.5f), -kFInf);
  EXPECT_EQ(Eval<float>(kTanpi, 2.5f), kFInf);
  EXPECT_EQ(Bits(Eval<float>(kTanpi, 1.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(Eval<float>(kTanpi, 2.0f)), Bits(0.0f));
  EXPECT_EQ(Bits(Eval<float>(kTanpi, -1.0f)), Bits(0.0f));
  EXPECT_EQ(Bits(Eval<float>(kTanpi, -2.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(Eval<double>(kTanpi, 0x1p60)), Bits(0.0));
  EXPECT_EQ(Eval<float>(kAsinpi, 1.0f), 0.5f);
  EXPECT_EQ(Eval<float>(kAcospi, -1.0f), 1.0f);
  EXPECT_EQ(Eval<double>(kAtanpi, kDInf), 0.5);
  EXPECT_EQ(Eval<double>(kAtan2pi, 0.0, -1.0), 1.0);
  EXPECT_EQ(Eval<double>(kAtan2pi, -0.0, -1.0), -1.0);
}

TEST(OpenCLStdMath, PowerFamilies) {
  EXPECT_EQ(Eval<float>(kPown, -2.0f, int32_t{3}), -8.0f);
  EXPECT_EQ(Eval<float>(kPown, kFNaN, int32_t{0}), 1.0f);
  EXPECT_EQ(Eval<float>(kPown, -0.0f, int32_t{-1}), -kFInf);
  EXPECT_EQ(Eval<double>(kPown, 2.0, int32_t{-1074}), 0x1p-1074);
  EXPECT_EQ(Eval<float>(kRootn, -8.0f, int32_t{3}), -2.0f);
  EXPECT_EQ(Eval<float>(kRootn, 16.0f, int32_t{4}), 2.0f);
  EXPECT_EQ(Eval<double>(kRootn, 0x1p-1074, int32_t{-2}), 0x1p537);
  EXPECT_TRUE(std::isnan(Eval<float>(kRootn, -16.0f, int32_t{4})));
  EXPECT_TRUE(std::isnan(Eval<float>(kRootn, 2.0f, int32_t{0})));
  EXPECT_EQ(Eval<float>(kRootn, -0.0f, int32_t{-3}), -kFInf);
  EXPECT_EQ(Eval<float>(kRootn, -0.0f, int32_t{-2}), kFInf);
  EXPECT_EQ(Bits(Eval<float>(kRootn, -0.0f, int32_t{3})), Bits(-0.0f));
  EXPECT_EQ(Bits(Eval<float>(kRootn, -0.0f, int32_t{2})), Bits(0.0f));
  EXPECT_EQ(Eval<float>(kRootn, -kFInf, int32_t{3}), -kFInf);
  EXPECT_EQ(Eval<float>(kPow, -2.0f, 3.0f), -8.0f);
  EXPECT_TRUE(std::isnan(Eval<float>(kPow, -8.0f, 1.0f / 3)));
  EXPECT_EQ(Eval<float>(kPow, 1.0f, kFNaN), 1.0f);
  EXPECT_EQ(Eval<float>(kPowr, 2.0f, 10.0f), 1024.0f);
  for (auto [x, y] : {std::pair{-1.0f, 2.0f},
                      {0.0f, 0.0f},
                      {1.0f, kFInf},
                      {kFInf, 0.0f},
                      {1.0f, kFNaN},
                      {kFNaN, 0.0f},
                      {-0.0f, 0.0f}}) {
    EXPECT_TRUE(std::isnan(Eval<float>(kPowr, x, y))) << x << " " << y;
  }
  EXPECT_EQ(Eval<float>(kPowr, 0.0f, -1.0f), kFInf);
  EXPECT_EQ(Eval<float>(kPowr, 0.0f, 2.0f), 0.0f);
  EXPECT_EQ(Bits(Eval<float>(kPowr, -0.0f, 3.0f)), Bits(0.0f));
  EXPECT_EQ(Eval<float>(kPowr, kFInf, -1.0f), 0.0f);
  EXPECT_EQ(Eval<float>(kPowr, 0.5f, kFInf), 0.0f);
  EXPECT_EQ(Eval<float>(kPowr, 1.0f, 5.0f), 1.0f);
  EXPECT_EQ(Eval<float>(kExp10, 2.0f), 100.0f);
  EXPECT_EQ(Eval<double>(kExp10, 22.0), 1e22);
  EXPECT_EQ(Eval<float>(kExp2, -149.0f), kFDenormMin);
  EXPECT_EQ(Eval<double>(kLog2, 0x1p-1074), -1074.0);
  EXPECT_EQ(Eval<float>(kLog10, 1000.0f), 3.0f);
  EXPECT_EQ(Eval<float>(kRsqrt, 4.0f), 0.5f);
  EXPECT_EQ(Eval<float>(kRsqrt, -0.0f), -kFInf);
  EXPECT_EQ(Eval<float>(kRsqrt, kFInf), 0.0f);
  EXPECT_TRUE(std::isnan(Eval<float>(kRsqrt, -1.0f)));
  EXPECT_EQ(Eval<float>(kHypot, 3.0f, 4.0f), 5.0f);
  EXPECT_EQ(Eval<float>(kHypot, kFNaN, -kFInf), kFInf);
  EXPECT_EQ(Eval<float>(kHypot, 3e38f, 3e38f), kFInf);
  EXPECT_EQ(Eval<float>(kHypot, 2e38f, 1e38f), static_cast<float>(std::hypot(2e38, 1e38)));
}

TEST(OpenCLStdMath, LgammaSincos) {
  auto n = EvalOut<float, int32_t>(kLgammaR, -0.5f);  // Gamma(-1/2) = -2 sqrt(pi)
  EXPECT_NEAR(n.first, std::log(2 * std::sqrt(3.14159265358979)), 1e-6);
  EXPECT_EQ(n.second, -1);
  EXPECT_EQ((EvalOut<double, int32_t>(kLgammaR, -1.5)).second, 1);
  EXPECT_EQ((EvalOut<double, int32_t>(kLgammaR, 3.0)), std::make_pair(std::log(2.0), 1));
  EXPECT_EQ((EvalOut<float, int32_t>(kLgammaR, -0.0f)), std::make_pair(kFInf, -1));
  EXPECT_EQ((EvalOut<float, int32_t>(kLgammaR, -2.0f)).first, kFInf);
  EXPECT_EQ(Eval<double>(kLgamma, 1.0), 0.0);
  auto sc = EvalOut<float, float>(kSincos, 0.5f);
  EXPECT_EQ(sc.first, static_cast<float>(std::sin(0.5)));
  EXPECT_EQ(sc.second, static_cast<float>(std::cos(0.5)));
  auto sch = EvalOut<Fp16, Fp16>(kSincos, H(1));
  EXPECT_EQ(sch.first.bits, 0x3ABB);   // 0.84130859375
  EXPECT_EQ(sch.second.bits, 0x3853);  // 0.54052734375
}

TEST(OpenCLStdMath, HalfResultsAreRoundedOnce) {
  EXPECT_EQ(Eval<Fp16>(kExp, H(1)).bits, 0x4170);    // 2.71875
  EXPECT_EQ(Eval<Fp16>(kExp, H(12)).bits, 0x7C00);   // overflows
  EXPECT_EQ(Eval<Fp16>(kExp, H(-15)).bits, 0x0005);  // subnormal: 3.06e-7 / 2^-24 = 5.13
  EXPECT_EQ(Eval<Fp16>(kLog, H(0)).bits, 0xFC00);
  EXPECT_EQ(Eval<Fp16>(kCbrt, H(-27)).bits, H(-3).bits);
  EXPECT_EQ(Eval<Fp16>(kFmod, H(65504), H(3)).bits, H(std::fmod(65504.0, 3.0)).bits);
  EXPECT_EQ(Eval<Fp16>(kDegrees, H(3.140625)).bits, H(3.140625 * 180 / 3.14159265358979).bits);
}

}  // namespace
}  // namespace xmx::interp
