// OpenCL.std element-wise instructions: binding and rejection, exact results at the edge cases
// OpenCL pins down, saturating and high-half integer arithmetic at every width, broadcasting and
// lane strides, half results, and the transcendental functions against long double references
// within the OpenCL ULP limits.
#include "interp/opencl_std.hpp"

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

namespace xmx::interp {
namespace {

// Instruction numbers, from extinst.opencl.std.100.grammar.json.
// clang-format off
enum Op : uint32_t {
  kAcos = 0, kAcosh = 1, kAcospi = 2, kAsin = 3, kAsinh = 4, kAsinpi = 5, kAtan = 6, kAtan2 = 7,
  kAtanh = 8, kAtanpi = 9, kAtan2pi = 10, kCbrt = 11, kCeil = 12, kCopysign = 13, kCos = 14,
  kCosh = 15, kCospi = 16, kErfc = 17, kErf = 18, kExp = 19, kExp2 = 20, kExp10 = 21, kExpm1 = 22,
  kFabs = 23, kFdim = 24, kFloor = 25, kFma = 26, kFmax = 27, kFmin = 28, kFmod = 29, kFract = 30,
  kFrexp = 31, kHypot = 32, kIlogb = 33, kLdexp = 34, kLgamma = 35, kLgammaR = 36, kLog = 37,
  kLog2 = 38, kLog10 = 39, kLog1p = 40, kLogb = 41, kMad = 42, kMaxmag = 43, kMinmag = 44,
  kModf = 45, kNan = 46, kNextafter = 47, kPow = 48, kPown = 49, kPowr = 50, kRemainder = 51,
  kRemquo = 52, kRint = 53, kRootn = 54, kRound = 55, kRsqrt = 56, kSin = 57, kSincos = 58,
  kSinh = 59, kSinpi = 60, kSqrt = 61, kTan = 62, kTanh = 63, kTanpi = 64, kTgamma = 65,
  kTrunc = 66, kHalfCos = 67, kHalfDivide = 68, kHalfSqrt = 79, kNativeDivide = 82,
  kNativeSqrt = 93, kFclamp = 95, kDegrees = 96, kFmaxCommon = 97, kFminCommon = 98, kMix = 99,
  kRadians = 100, kStep = 101, kSmoothstep = 102, kSign = 103, kCross = 104, kDistance = 105,
  kLength = 106, kNormalize = 107, kFastDistance = 108, kFastLength = 109, kFastNormalize = 110,
  kSAbs = 141, kSAbsDiff = 142, kSAddSat = 143, kUAddSat = 144, kSHadd = 145, kUHadd = 146,
  kSRhadd = 147, kURhadd = 148, kSClamp = 149, kUClamp = 150, kClz = 151, kCtz = 152, kSMadHi = 153,
  kUMadSat = 154, kSMadSat = 155, kSMax = 156, kUMax = 157, kSMin = 158, kUMin = 159, kSMulHi = 160,
  kRotate = 161, kSSubSat = 162, kUSubSat = 163, kUUpsample = 164, kSUpsample = 165,
  kPopcount = 166, kSMad24 = 167, kUMad24 = 168, kSMul24 = 169, kUMul24 = 170, kVloadn = 171,
  kShuffle = 182, kPrintf = 184, kPrefetch = 185, kBitselect = 186, kSelect = 187, kUAbs = 201,
  kUAbsDiff = 202, kUMulHi = 203, kUMadHi = 204,
};
// clang-format on

struct Fp16 {  // a half operand or result, by its bits
  uint16_t bits;
};
Fp16 H(double value) { return Fp16{FloatToHalf(value)}; }
double D(Fp16 h) { return HalfToFloat(h.bits); }

template <class T>
ScalarType ScalarOf() {
  if constexpr (std::is_same_v<T, Fp16>) {
    return {ScalarKind::kFloat, 2};
  } else if constexpr (std::is_floating_point_v<T>) {
    return {ScalarKind::kFloat, sizeof(T)};
  } else {
    return {ScalarKind::kInt, sizeof(T)};
  }
}
const ScalarType kF16{ScalarKind::kFloat, 2}, kF32{ScalarKind::kFloat, 4},
    kF64{ScalarKind::kFloat, 8}, kI8{ScalarKind::kInt, 1}, kI16{ScalarKind::kInt, 2},
    kI32{ScalarKind::kInt, 4}, kI64{ScalarKind::kInt, 8};
ValueType V(ScalarType s, uint32_t n = 1) { return ValueType{s, n}; }

OpenCLStdCall MustBind(uint32_t op, ValueType result, std::vector<ValueType> operands) {
  std::string why;
  std::optional<OpenCLStdCall> call = BindOpenCLStd(op, result, operands, &why);
  EXPECT_TRUE(call.has_value()) << why;
  return call.value_or(OpenCLStdCall{});
}

std::string BindError(uint32_t op, ValueType result, std::vector<ValueType> operands) {
  std::string why;
  EXPECT_FALSE(BindOpenCLStd(op, result, operands, &why).has_value());
  return why;
}

// Runs `lanes` lanes with n result components; each operand's component count is its size
// divided by the lanes, so a one-element-per-lane operand of a vector instruction is broadcast.
// Returns the results and the bytes written for the pointer out-parameter.
template <class R, class... A>
std::pair<std::vector<R>, std::vector<uint8_t>> RunLanes(uint32_t op, uint32_t lanes, uint32_t n,
                                                         const std::vector<A>&... args) {
  const OpenCLStdCall call = MustBind(
      op, V(ScalarOf<R>(), n), {V(ScalarOf<A>(), static_cast<uint32_t>(args.size() / lanes))...});
  std::vector<R> out(lanes * n);
  std::vector<uint8_t> second(lanes * n * 8 + 8);
  if (!call.fn) return {out, second};
  const uint8_t* operands[] = {reinterpret_cast<const uint8_t*>(args.data())..., nullptr};
  call.fn(call, reinterpret_cast<uint8_t*>(out.data()), operands, second.data(), lanes);
  return {out, second};
}

template <class R, class... A>
std::vector<R> Lanes(uint32_t op, uint32_t lanes, uint32_t n, const std::vector<A>&... args) {
  return RunLanes<R>(op, lanes, n, args...).first;
}

template <class R, class... A>
R Eval(uint32_t op, A... args) {
  return Lanes<R>(op, 1, 1, std::vector<A>{args}...)[0];
}

// The result and the value stored through the pointer operand.
template <class R, class R2, class... A>
std::pair<R, R2> EvalOut(uint32_t op, A... args) {
  auto [out, second] = RunLanes<R>(op, 1, 1, std::vector<A>{args}...);
  R2 stored;
  std::memcpy(&stored, second.data(), sizeof stored);
  return {out[0], stored};
}

uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }
uint64_t Bits(double d) { return std::bit_cast<uint64_t>(d); }
uint16_t Bits(Fp16 h) { return h.bits; }

const float kFInf = std::numeric_limits<float>::infinity();
const double kDInf = std::numeric_limits<double>::infinity();
const float kFNaN = std::numeric_limits<float>::quiet_NaN();
const double kDNaN = std::numeric_limits<double>::quiet_NaN();
const float kFDenormMin = std::numeric_limits<float>::denorm_min();

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
  const int64_t q = (t + 3) / 7;  // x/7 = 128k + t/7, never a tie
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
    const T mantissa = static_cast<T>(1 + (rng() % (1 << 20)) * 0x1p-20);
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

// ---------------------------------------------------------------------------------------------
// Math: accuracy of the transcendental functions against long double, within OpenCL's limits

constexpr long double kPiL = 3.141592653589793238462643383279502884L;

// sin(pi x) / cos(pi x) / tan(pi x) with x reduced exactly first, so the reference itself keeps
// its accuracy near the zeros.
long double ReducePi(long double x, int* q) {
  const long double r = std::fmod(x, 2.0L);
  const long double k = std::nearbyint(2 * r);
  *q = (static_cast<int>(k) % 4 + 4) % 4;
  return r - k / 2;
}
long double RefSinPi(long double x) {
  int q;
  const long double t = ReducePi(x, &q);
  const long double s = std::sin(kPiL * t), c = std::cos(kPiL * t);
  return q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
}
long double RefCosPi(long double x) {
  int q;
  const long double t = ReducePi(x, &q);
  const long double s = std::sin(kPiL * t), c = std::cos(kPiL * t);
  return q == 0 ? c : q == 1 ? -s : q == 2 ? -c : s;
}
// OpenCL's zeros of cospi are +0, which gives tanpi(1/2) = +inf.
long double RefTanPi(long double x) {
  const long double c = RefCosPi(x);
  return RefSinPi(x) / (c == 0 ? 0.0L : c);
}

struct Format {
  int mantissa_bits, min_exponent, max_exponent;
  long double max;
};
const Format kHalfF{10, -14, 15, 65504}, kFloatF{23, -126, 127, FLT_MAX},
    kDoubleF{52, -1022, 1023, DBL_MAX};

// |got - ref| in ulps of the format at ref; an infinite result of a reference beyond the largest
// finite value counts as exact.
long double UlpError(long double got, long double ref, const Format& f) {
  if (std::isnan(ref)) return std::isnan(got) ? 0 : INFINITY;
  if (std::isnan(got)) return INFINITY;
  if (std::isinf(got) || std::isinf(ref)) {
    if (std::isinf(got) && std::fabs(ref) >= f.max && std::signbit(got) == std::signbit(ref)) {
      return 0;
    }
    return got == ref ? 0 : INFINITY;
  }
  const int e = ref == 0 ? f.min_exponent : std::max(std::ilogb(ref), f.min_exponent);
  return std::fabs(got - ref) / std::ldexp(1.0L, e - f.mantissa_bits);
}

struct UnaryCase {
  uint32_t op;
  long double (*ref)(long double);
  double lo, hi;  // an interval sampled uniformly besides the random bit patterns
  double float_ulps, double_ulps;
};

const UnaryCase kUnaryCases[] = {
    {kAcos, [](long double x) { return std::acos(x); }, -1, 1, 4, 4},
    {kAcosh, [](long double x) { return std::acosh(x); }, 1, 1e6, 4, 4},
    {kAcospi, [](long double x) { return std::acos(x) / kPiL; }, -1, 1, 5, 5},
    {kAsin, [](long double x) { return std::asin(x); }, -1, 1, 4, 4},
    {kAsinh, [](long double x) { return std::asinh(x); }, -10, 10, 4, 4},
    {kAsinpi, [](long double x) { return std::asin(x) / kPiL; }, -1, 1, 5, 5},
    {kAtan, [](long double x) { return std::atan(x); }, -10, 10, 5, 5},
    {kAtanh, [](long double x) { return std::atanh(x); }, -1, 1, 5, 5},
    {kAtanpi, [](long double x) { return std::atan(x) / kPiL; }, -10, 10, 5, 5},
    {kCbrt, [](long double x) { return std::cbrt(x); }, -1e3, 1e3, 2, 2},
    {kCos, [](long double x) { return std::cos(x); }, -100, 100, 4, 4},
    {kCosh, [](long double x) { return std::cosh(x); }, -80, 80, 4, 4},
    {kCospi, RefCosPi, -100, 100, 4, 4},
    {kErfc, [](long double x) { return std::erfc(x); }, -5, 25, 16, 16},
    {kErf, [](long double x) { return std::erf(x); }, -5, 5, 16, 16},
    {kExp, [](long double x) { return std::exp(x); }, -80, 80, 3, 3},
    {kExp2, [](long double x) { return std::exp2(x); }, -130, 130, 3, 3},
    {kExp10, [](long double x) { return std::pow(10.0L, x); }, -40, 40, 3, 3},
    {kExpm1, [](long double x) { return std::expm1(x); }, -2, 2, 3, 3},
    {kLog, [](long double x) { return std::log(x); }, 0, 10, 3, 3},
    {kLog2, [](long double x) { return std::log2(x); }, 0, 10, 3, 3},
    {kLog10, [](long double x) { return std::log10(x); }, 0, 10, 3, 3},
    {kLog1p, [](long double x) { return std::log1p(x); }, -1, 2, 2, 2},
    {kRsqrt, [](long double x) { return 1 / std::sqrt(x); }, 0, 100, 2, 2},
    {kSin, [](long double x) { return std::sin(x); }, -100, 100, 4, 4},
    {kSinh, [](long double x) { return std::sinh(x); }, -80, 80, 4, 4},
    {kSinpi, RefSinPi, -100, 100, 4, 4},
    {kTan, [](long double x) { return std::tan(x); }, -100, 100, 5, 5},
    {kTanh, [](long double x) { return std::tanh(x); }, -10, 10, 5, 5},
    {kTanpi, RefTanPi, -100, 100, 6, 6},
    {kTgamma, [](long double x) { return std::tgamma(x); }, -30, 35, 16, 16},
};

template <class T>
T SampleValue(std::mt19937_64& rng, int i, double lo, double hi) {
  if (i % 2 == 0) {
    return static_cast<T>(std::uniform_real_distribution<double>(lo, hi)(rng));
  }
  using B = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  T value;
  do value = std::bit_cast<T>(static_cast<B>(rng()));
  while (!std::isfinite(value));
  return value;
}

TEST(OpenCLStdAccuracy, UnaryFloatAndDoubleWithinOpenCLLimits) {
  for (const UnaryCase& c : kUnaryCases) {
    SCOPED_TRACE(std::string(OpenCLStdInstructionName(c.op)));
    std::mt19937_64 rng(c.op);
    const int kSamples = 4000;
    std::vector<float> fx(kSamples);
    std::vector<double> dx(kSamples);
    for (int i = 0; i < kSamples; ++i) {
      fx[i] = SampleValue<float>(rng, i, c.lo, c.hi);
      dx[i] = SampleValue<double>(rng, i, c.lo, c.hi);
    }
    // All samples at once: lanes beyond a subgroup are fine for the bound function.
    const std::vector<float> fr = Lanes<float>(c.op, kSamples, 1, fx);
    const std::vector<double> dr = Lanes<double>(c.op, kSamples, 1, dx);
    long double worst_f = 0, worst_d = 0;
    for (int i = 0; i < kSamples; ++i) {
      const long double ef = UlpError(fr[i], c.ref(fx[i]), kFloatF);
      const long double ed = UlpError(dr[i], c.ref(dx[i]), kDoubleF);
      EXPECT_LE(ef, c.float_ulps) << "float x=" << std::hexfloat << fx[i] << " got " << fr[i];
      EXPECT_LE(ed, c.double_ulps) << "double x=" << std::hexfloat << dx[i] << " got " << dr[i];
      if (ef > c.float_ulps || ed > c.double_ulps) break;
      worst_f = std::max(worst_f, ef);
      worst_d = std::max(worst_d, ed);
    }
    // Fp16 and float go through double, so they come out (nearly) correctly rounded.
    EXPECT_LE(worst_f, 0.51L);
  }
}

TEST(OpenCLStdAccuracy, EveryHalfWithinOneUlp) {
  std::vector<Fp16> all;
  for (uint32_t b = 0; b < 0x10000; ++b) all.push_back(Fp16{static_cast<uint16_t>(b)});
  for (const UnaryCase& c : kUnaryCases) {
    SCOPED_TRACE(std::string(OpenCLStdInstructionName(c.op)));
    const std::vector<Fp16> r = Lanes<Fp16>(c.op, static_cast<uint32_t>(all.size()), 1, all);
    for (size_t i = 0; i < all.size(); ++i) {
      const double x = D(all[i]);
      if (!std::isfinite(x)) continue;
      const long double e = UlpError(D(r[i]), c.ref(x), kHalfF);
      ASSERT_LE(e, 0.5001L) << "x=" << x << " got " << D(r[i]);
    }
  }
}

TEST(OpenCLStdAccuracy, BinaryFloatAndDoubleWithinOpenCLLimits) {
  struct BinaryCase {
    uint32_t op;
    long double (*ref)(long double, long double);
    double lo, hi;
    double ulps;
  };
  const BinaryCase cases[] = {
      {kAtan2, [](long double y, long double x) { return std::atan2(y, x); }, -10, 10, 6},
      {kAtan2pi, [](long double y, long double x) { return std::atan2(y, x) / kPiL; }, -10, 10, 6},
      {kHypot, [](long double x, long double y) { return std::hypot(x, y); }, -1e3, 1e3, 4},
      {kPow, [](long double x, long double y) { return std::pow(x, y); }, 0, 30, 16},
      {kPowr, [](long double x, long double y) { return std::pow(x, y); }, 0, 30, 16},
  };
  for (const BinaryCase& c : cases) {
    SCOPED_TRACE(std::string(OpenCLStdInstructionName(c.op)));
    std::mt19937_64 rng(c.op);
    const int kSamples = 4000;
    std::vector<float> fx(kSamples), fy(kSamples);
    std::vector<double> dx(kSamples), dy(kSamples);
    for (int i = 0; i < kSamples; ++i) {
      fx[i] = SampleValue<float>(rng, i, c.lo, c.hi);
      fy[i] = SampleValue<float>(rng, i, c.lo, c.hi);
      dx[i] = SampleValue<double>(rng, i, c.lo, c.hi);
      dy[i] = SampleValue<double>(rng, i, c.lo, c.hi);
      if (c.op == kPowr) {  // its domain, where it agrees with pow
        fx[i] = std::fabs(fx[i]), dx[i] = std::fabs(dx[i]);
      }
    }
    const std::vector<float> fr = Lanes<float>(c.op, kSamples, 1, fx, fy);
    const std::vector<double> dr = Lanes<double>(c.op, kSamples, 1, dx, dy);
    for (int i = 0; i < kSamples; ++i) {
      ASSERT_LE(UlpError(fr[i], c.ref(fx[i], fy[i]), kFloatF), c.ulps)
          << std::hexfloat << fx[i] << ", " << fy[i] << " got " << fr[i];
      ASSERT_LE(UlpError(dr[i], c.ref(dx[i], dy[i]), kDoubleF), c.ulps)
          << std::hexfloat << dx[i] << ", " << dy[i] << " got " << dr[i];
    }
  }
}

TEST(OpenCLStdAccuracy, RootnAndPownWithinOpenCLLimits) {
  std::mt19937_64 rng(54);
  const int kSamples = 4000;
  std::vector<double> dx(kSamples);
  std::vector<float> fx(kSamples);
  std::vector<int32_t> n(kSamples);
  for (int i = 0; i < kSamples; ++i) {
    dx[i] = SampleValue<double>(rng, i, -1e6, 1e6);
    fx[i] = SampleValue<float>(rng, i, -1e6, 1e6);
    n[i] = static_cast<int32_t>(rng() % 41) - 20;
  }
  auto ref_root = [](long double x, int k) -> long double {
    if (k == 0 || (x < 0 && k % 2 == 0)) return NAN;
    if (x == 0) return k > 0 ? x : std::copysign(INFINITY, k % 2 ? x : 1.0L);
    return std::copysign(std::exp(std::log(std::fabs(x)) / k), x);
  };
  const std::vector<double> dr = Lanes<double>(kRootn, kSamples, 1, dx, n);
  const std::vector<float> fr = Lanes<float>(kRootn, kSamples, 1, fx, n);
  const std::vector<double> dp = Lanes<double>(kPown, kSamples, 1, dx, n);
  for (int i = 0; i < kSamples; ++i) {
    ASSERT_LE(UlpError(dr[i], ref_root(dx[i], n[i]), kDoubleF), 16)
        << std::hexfloat << dx[i] << " " << n[i] << " got " << dr[i];
    ASSERT_LE(UlpError(fr[i], ref_root(fx[i], n[i]), kFloatF), 16)
        << std::hexfloat << fx[i] << " " << n[i] << " got " << fr[i];
    ASSERT_LE(UlpError(dp[i], std::pow(static_cast<long double>(dx[i]), n[i]), kDoubleF), 16)
        << std::hexfloat << dx[i] << " " << n[i] << " got " << dp[i];
  }
}

// ---------------------------------------------------------------------------------------------
// Broadcasting and lane layout

TEST(OpenCLStdLayout, ScalarOperandsBroadcastAcrossVectorComponents) {
  // fmax(float4, float) over two lanes: the scalar of lane i applies to all of lane i.
  const std::vector<float> x = {1, 5, -2, 8, /*lane 1*/ 0, 9, 3, -7};
  const std::vector<float> y = {4, 2};
  EXPECT_EQ(Lanes<float>(kFmax, 2, 4, x, y), (std::vector<float>{4, 5, 4, 8, 2, 9, 3, 2}));
  // ldexp(double3, int), fma(half2, half2, half), clamp(int4, int, int).
  EXPECT_EQ(Lanes<double>(kLdexp, 1, 3, std::vector<double>{1, 2, 3}, std::vector<int32_t>{2}),
            (std::vector<double>{4, 8, 12}));
  const std::vector<Fp16> h = Lanes<Fp16>(kFma, 1, 2, std::vector<Fp16>{H(2), H(3)},
                                          std::vector<Fp16>{H(4), H(5)}, std::vector<Fp16>{H(0.5)});
  EXPECT_EQ(D(h[0]), 8.5);
  EXPECT_EQ(D(h[1]), 15.5);
  EXPECT_EQ(Lanes<int32_t>(kSClamp, 1, 4, std::vector<int32_t>{-9, -1, 3, 9},
                           std::vector<int32_t>{-2}, std::vector<int32_t>{5}),
            (std::vector<int32_t>{-2, -1, 3, 5}));
  EXPECT_EQ(Lanes<float>(kMix, 2, 2, std::vector<float>{0, 10, 0, 10},
                         std::vector<float>{4, 20, 8, 30}, std::vector<float>{0.5f, 0.25f}),
            (std::vector<float>{2, 15, 2, 15}));
  EXPECT_EQ(Lanes<float>(kStep, 1, 3, std::vector<float>{0.5f}, std::vector<float>{0.4f, 0.5f, 1}),
            (std::vector<float>{0, 1, 1}));
}

TEST(OpenCLStdLayout, ThreeComponentVectorsAreTightlyPacked) {
  // Three lanes of float3: 12 bytes per lane, no padding.
  const std::vector<float> x = {1, 4, 9, 16, 25, 36, 49, 64, 81};
  EXPECT_EQ(Lanes<float>(kSqrt, 3, 3, x), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(Lanes<float>(kLength, 3, 1, std::vector<float>{3, 4, 0, 0, 0, 0, 2, 3, 6}),
            (std::vector<float>{5, 0, 7}));
  const auto [r, exps] = RunLanes<float>(kFrexp, 2, 3, std::vector<float>{1, 2, 4, 8, 16, 32});
  EXPECT_EQ(r, (std::vector<float>(6, 0.5f)));
  std::vector<int32_t> e(6);
  std::memcpy(e.data(), exps.data(), 24);
  EXPECT_EQ(e, (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
}

// ---------------------------------------------------------------------------------------------
// Integer instructions at every width

template <class T>
class OpenCLStdInteger : public ::testing::Test {};
using SignedTypes = ::testing::Types<int8_t, int16_t, int32_t, int64_t>;
TYPED_TEST_SUITE(OpenCLStdInteger, SignedTypes);

TYPED_TEST(OpenCLStdInteger, SaturatingArithmetic) {
  using S = TypeParam;
  using U = std::make_unsigned_t<S>;
  const S kMin = std::numeric_limits<S>::min(), kMax = std::numeric_limits<S>::max();
  const U kAllOnes = std::numeric_limits<U>::max();
  EXPECT_EQ(Eval<S>(kSAddSat, kMax, S{1}), kMax);
  EXPECT_EQ(Eval<S>(kSAddSat, kMin, S{-1}), kMin);
  EXPECT_EQ(Eval<S>(kSAddSat, kMax, kMin), S{-1});
  EXPECT_EQ(Eval<U>(kUAddSat, kAllOnes, U{1}), kAllOnes);
  EXPECT_EQ(Eval<U>(kUAddSat, U{3}, U{4}), U{7});
  EXPECT_EQ(Eval<S>(kSSubSat, kMin, S{1}), kMin);
  EXPECT_EQ(Eval<S>(kSSubSat, S{0}, kMin), kMax);
  EXPECT_EQ(Eval<S>(kSSubSat, S{-1}, kMin), kMax);
  EXPECT_EQ(Eval<U>(kUSubSat, U{0}, U{1}), U{0});
  EXPECT_EQ(Eval<U>(kUSubSat, kAllOnes, U{1}), U(kAllOnes - 1));
  EXPECT_EQ(Eval<S>(kSMadSat, kMax, kMax, S{0}), kMax);
  EXPECT_EQ(Eval<S>(kSMadSat, kMin, kMax, kMax), kMin);
  EXPECT_EQ(Eval<S>(kSMadSat, kMin, S{-1}, S{0}), kMax);
  EXPECT_EQ(Eval<S>(kSMadSat, kMin, S{-1}, S{-1}), kMax);  // exactly max
  EXPECT_EQ(Eval<S>(kSMadSat, kMin, S{-1}, S{-2}), S(kMax - 1));
  EXPECT_EQ(Eval<S>(kSMadSat, S{-3}, S{4}, S{5}), S{-7});
  EXPECT_EQ(Eval<U>(kUMadSat, kAllOnes, kAllOnes, kAllOnes), kAllOnes);
  EXPECT_EQ(Eval<U>(kUMadSat, U{2}, U{3}, U{4}), U{10});
  EXPECT_EQ(Eval<U>(kUMadSat, U(kAllOnes / 2), U{2}, U{1}), kAllOnes);
}

TYPED_TEST(OpenCLStdInteger, HighHalvesAndAverages) {
  using S = TypeParam;
  using U = std::make_unsigned_t<S>;
  constexpr int kW = 8 * sizeof(S);
  const S kMin = std::numeric_limits<S>::min(), kMax = std::numeric_limits<S>::max();
  const U kAllOnes = std::numeric_limits<U>::max();
  EXPECT_EQ(Eval<S>(kSMulHi, kMin, kMin), S(U{1} << (kW - 2)));
  EXPECT_EQ(Eval<S>(kSMulHi, S{-1}, S{1}), S{-1});
  EXPECT_EQ(Eval<S>(kSMulHi, kMax, S{2}), S{0});
  EXPECT_EQ(Eval<S>(kSMulHi, kMax, kMin), S(-(S(U{1} << (kW - 2)))));
  EXPECT_EQ(Eval<U>(kUMulHi, kAllOnes, kAllOnes), U(kAllOnes - 1));
  EXPECT_EQ(Eval<U>(kUMulHi, kAllOnes, U{2}), U{1});
  EXPECT_EQ(Eval<S>(kSMadHi, kMin, kMin, S{1}), S((U{1} << (kW - 2)) + 1));
  EXPECT_EQ(Eval<U>(kUMadHi, kAllOnes, kAllOnes, U{2}), U{0});  // wraps
  EXPECT_EQ(Eval<S>(kSHadd, kMax, kMax), kMax);
  EXPECT_EQ(Eval<S>(kSHadd, kMin, kMin), kMin);
  EXPECT_EQ(Eval<S>(kSHadd, S{-1}, S{0}), S{-1});
  EXPECT_EQ(Eval<S>(kSRhadd, S{-1}, S{0}), S{0});
  EXPECT_EQ(Eval<S>(kSRhadd, kMax, kMax), kMax);
  EXPECT_EQ(Eval<S>(kSRhadd, kMin, kMax), S{0});
  EXPECT_EQ(Eval<U>(kUHadd, kAllOnes, kAllOnes), kAllOnes);
  EXPECT_EQ(Eval<U>(kUHadd, kAllOnes, U{0}), U(kAllOnes / 2));
  EXPECT_EQ(Eval<U>(kURhadd, kAllOnes, U{0}), U(kAllOnes / 2 + 1));
  EXPECT_EQ(Eval<U>(kURhadd, kAllOnes, U(kAllOnes - 1)), kAllOnes);
}

TYPED_TEST(OpenCLStdInteger, AbsMinMaxClampAndBits) {
  using S = TypeParam;
  using U = std::make_unsigned_t<S>;
  constexpr int kW = 8 * sizeof(S);
  const S kMin = std::numeric_limits<S>::min(), kMax = std::numeric_limits<S>::max();
  const U kAllOnes = std::numeric_limits<U>::max();
  EXPECT_EQ(Eval<U>(kSAbs, kMin), U(U{1} << (kW - 1)));
  EXPECT_EQ(Eval<U>(kSAbs, S{-5}), U{5});
  EXPECT_EQ(Eval<U>(kUAbs, kAllOnes), kAllOnes);
  EXPECT_EQ(Eval<U>(kSAbsDiff, kMin, kMax), kAllOnes);
  EXPECT_EQ(Eval<U>(kSAbsDiff, kMax, kMin), kAllOnes);
  EXPECT_EQ(Eval<U>(kSAbsDiff, S{-3}, S{4}), U{7});
  EXPECT_EQ(Eval<U>(kUAbsDiff, U{0}, kAllOnes), kAllOnes);
  EXPECT_EQ(Eval<S>(kSMax, S{-1}, S{1}), S{1});
  EXPECT_EQ(Eval<U>(kUMax, kAllOnes, U{1}), kAllOnes);
  EXPECT_EQ(Eval<S>(kSMin, S{-1}, S{1}), S{-1});
  EXPECT_EQ(Eval<U>(kUMin, kAllOnes, U{1}), U{1});
  EXPECT_EQ(Eval<S>(kSClamp, S{-5}, S{-2}, S{3}), S{-2});
  EXPECT_EQ(Eval<S>(kSClamp, kMax, S{-2}, S{3}), S{3});
  EXPECT_EQ(Eval<U>(kUClamp, kAllOnes, U{1}, U{7}), U{7});
  EXPECT_EQ(Eval<U>(kClz, U{0}), U{kW});
  EXPECT_EQ(Eval<U>(kCtz, U{0}), U{kW});
  EXPECT_EQ(Eval<U>(kClz, U{1}), U{kW - 1});
  EXPECT_EQ(Eval<U>(kCtz, U(U{1} << (kW - 1))), U{kW - 1});
  EXPECT_EQ(Eval<U>(kClz, kAllOnes), U{0});
  EXPECT_EQ(Eval<U>(kPopcount, kAllOnes), U{kW});
  EXPECT_EQ(Eval<U>(kPopcount, U{0x55}), U{4});
  const U top = U(U{1} << (kW - 1));
  EXPECT_EQ(Eval<U>(kRotate, U(top | 1), U{1}), U{3});
  EXPECT_EQ(Eval<U>(kRotate, U(top | 1), U{kW + 1}), U{3});  // modulo the width
  EXPECT_EQ(Eval<U>(kRotate, U(top | 1), U{kW}), U(top | 1));
  EXPECT_EQ(Eval<U>(kRotate, U{3}, U(-1)), U(top | 1));  // -1: one to the right
  EXPECT_EQ(Eval<U>(kRotate, U{0x12}, U{4 * kW + 4}), U(U{0x12} << 4 | U{0x12} >> (kW - 4)));
}

TEST(OpenCLStdIntegerFixed, UpsampleAndMul24) {
  EXPECT_EQ(Eval<uint16_t>(kUUpsample, uint8_t{0x12}, uint8_t{0x34}), 0x1234);
  EXPECT_EQ(Eval<int16_t>(kSUpsample, int8_t{-1}, uint8_t{0x01}), -255);
  EXPECT_EQ(Eval<uint32_t>(kUUpsample, uint16_t{0xBEEF}, uint16_t{0xCAFE}), 0xBEEFCAFEu);
  EXPECT_EQ(Eval<uint64_t>(kUUpsample, uint32_t{0xDEADBEEF}, uint32_t{0x01234567}),
            0xDEADBEEF01234567u);
  EXPECT_EQ(Eval<int64_t>(kSUpsample, int32_t{-2}, uint32_t{0xFFFFFFFF}),
            -(int64_t{1} << 33) + 0xFFFFFFFF);
  EXPECT_EQ(Lanes<uint32_t>(kUUpsample, 2, 2, std::vector<uint16_t>{1, 2, 3, 4},
                            std::vector<uint16_t>{5, 6, 7, 8}),
            (std::vector<uint32_t>{0x10005, 0x20006, 0x30007, 0x40008}));
  EXPECT_EQ(Eval<int32_t>(kSMul24, int32_t{-3}, int32_t{5}), -15);
  EXPECT_EQ(Eval<int32_t>(kSMul24, int32_t{0x800000}, int32_t{2}), -(1 << 24));  // low 24 bits
  EXPECT_EQ(Eval<int32_t>(kSMul24, int32_t{-(1 << 23)}, int32_t{-(1 << 23)}), int32_t{0});
  EXPECT_EQ(Eval<uint32_t>(kUMul24, uint32_t{0xFFFFFF}, uint32_t{2}), 0x1FFFFFEu);
  EXPECT_EQ(Eval<uint32_t>(kUMul24, uint32_t{0x1000003}, uint32_t{5}), 15u);
  EXPECT_EQ(Eval<int32_t>(kSMad24, int32_t{-3}, int32_t{5}, int32_t{20}), 5);
  EXPECT_EQ(Eval<uint32_t>(kUMad24, uint32_t{0xFFFFFF}, uint32_t{0xFFFFFF}, uint32_t{1}),
            static_cast<uint32_t>(0xFFFFFFull * 0xFFFFFF + 1));
}

TEST(OpenCLStdIntegerFixed, SixtyFourBitHighHalves) {
  EXPECT_EQ(Eval<uint64_t>(kUMulHi, uint64_t{0x123456789ABCDEF0}, uint64_t{0xFEDCBA9876543210}),
            static_cast<uint64_t>(
                (static_cast<unsigned __int128>(0x123456789ABCDEF0) * 0xFEDCBA9876543210) >> 64));
  EXPECT_EQ(
      Eval<int64_t>(kSMulHi, int64_t{-0x123456789ABCDEF}, int64_t{0x7EDCBA9876543210}),
      static_cast<int64_t>((static_cast<__int128>(-0x123456789ABCDEF) * 0x7EDCBA9876543210) >> 64));
  EXPECT_EQ(Eval<int64_t>(kSMadHi, INT64_MAX, int64_t{-1}, int64_t{5}), 4);
  EXPECT_EQ(Eval<uint64_t>(kUMadHi, UINT64_MAX, uint64_t{3}, uint64_t{10}), 12u);
  EXPECT_EQ(Eval<uint64_t>(kUMadSat, uint64_t{1} << 32, uint64_t{1} << 32, uint64_t{0}),
            UINT64_MAX);
  EXPECT_EQ(Eval<uint64_t>(kUMadSat, uint64_t{1} << 32, (uint64_t{1} << 32) - 1, uint64_t{1} << 32),
            UINT64_MAX);
  EXPECT_EQ(
      Eval<uint64_t>(kUMadSat, uint64_t{1} << 32, (uint64_t{1} << 32) - 1, (uint64_t{1} << 32) - 1),
      UINT64_MAX);
  // The product 2^63 is out of range but the sum is not: no intermediate saturation.
  EXPECT_EQ(Eval<int64_t>(kSMadSat, int64_t{1} << 32, int64_t{1} << 31, INT64_MIN + 5), 5);
}

// ---------------------------------------------------------------------------------------------
// Common, geometric, relational

TEST(OpenCLStdCommon, Functions) {
  EXPECT_EQ(Eval<float>(kFclamp, 5.0f, -1.0f, 2.0f), 2.0f);
  EXPECT_EQ(Eval<float>(kFclamp, kFNaN, -1.0f, 2.0f), -1.0f);  // fmin(fmax(NaN, lo), hi)
  EXPECT_EQ(Eval<double>(kFclamp, -3.0, -1.0, 2.0), -1.0);
  EXPECT_EQ(Eval<float>(kDegrees, static_cast<float>(3.14159265358979)), 180.0f);
  EXPECT_EQ(Eval<float>(kRadians, 180.0f), static_cast<float>(3.14159265358979));
  EXPECT_EQ(Eval<double>(kRadians, 90.0), 3.14159265358979323846 / 2);
  EXPECT_EQ(Eval<float>(kMix, 1.0f, 3.0f, 0.5f), 2.0f);
  EXPECT_EQ(Eval<float>(kStep, 0.5f, 0.4f), 0.0f);
  EXPECT_EQ(Eval<float>(kStep, 0.5f, 0.5f), 1.0f);
  EXPECT_EQ(Eval<float>(kSmoothstep, 0.0f, 1.0f, 0.5f), 0.5f);
  EXPECT_EQ(Eval<float>(kSmoothstep, 0.0f, 1.0f, -1.0f), 0.0f);
  EXPECT_EQ(Eval<float>(kSmoothstep, 0.0f, 1.0f, 7.0f), 1.0f);
  EXPECT_EQ(Eval<double>(kSmoothstep, 0.0, 4.0, 1.0), 0.15625);
  EXPECT_EQ(D(Eval<Fp16>(kSmoothstep, H(0), H(2), H(1))), 0.5);
  EXPECT_EQ(Eval<float>(kSign, -3.0f), -1.0f);
  EXPECT_EQ(Eval<float>(kSign, 1e-40f), 1.0f);
  EXPECT_EQ(Bits(Eval<float>(kSign, -0.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(Eval<float>(kSign, -kFNaN)), Bits(0.0f));
  EXPECT_EQ(Eval<Fp16>(kSign, H(-7)).bits, H(-1).bits);
}

TEST(OpenCLStdGeometric, CrossLengthDistanceNormalize) {
  EXPECT_EQ(Lanes<float>(kCross, 1, 3, std::vector<float>{1, 0, 0}, std::vector<float>{0, 1, 0}),
            (std::vector<float>{0, 0, 1}));
  EXPECT_EQ(
      Lanes<double>(kCross, 1, 4, std::vector<double>{1, 2, 3, 9}, std::vector<double>{4, 5, 6, 9}),
      (std::vector<double>{-3, 6, -3, 0}));
  // Nearly parallel: a plain a*b - c*d would cancel to 0.
  const double e = 0x1p-30;
  EXPECT_EQ(Lanes<double>(kCross, 1, 3, std::vector<double>{1 + e, 1, 0},
                          std::vector<double>{1, 1 - e, 0})[2],
            -e * e);
  EXPECT_EQ(Eval<float>(kLength, 3.0f), 3.0f);
  EXPECT_EQ(Lanes<float>(kLength, 1, 1, std::vector<float>{-3, 4}), std::vector<float>{5});
  EXPECT_EQ(Lanes<float>(kFastLength, 1, 1, std::vector<float>{1e30f, 1e30f}),
            std::vector<float>{static_cast<float>(std::sqrt(2.0) * 1e30)});
  EXPECT_EQ(Lanes<double>(kLength, 1, 1, std::vector<double>{1e300, 1e300, 1e300}),
            std::vector<double>{std::sqrt(3.0) * 1e300});
  EXPECT_EQ(Lanes<double>(kLength, 1, 1, std::vector<double>{3e-310, 4e-310}),
            std::vector<double>{5e-310});
  EXPECT_EQ(Lanes<float>(kLength, 1, 1, std::vector<float>{kFNaN, -kFInf}),
            std::vector<float>{kFInf});
  EXPECT_EQ(Lanes<Fp16>(kLength, 1, 1, std::vector<Fp16>{H(300), H(400)})[0].bits, H(500).bits);
  EXPECT_EQ(
      Lanes<float>(kDistance, 1, 1, std::vector<float>{1, 1, 1, 1}, std::vector<float>{2, 2, 2, 2}),
      std::vector<float>{2});
  EXPECT_EQ(Lanes<double>(kFastDistance, 2, 1, std::vector<double>{0, 0, 6, 8},
                          std::vector<double>{3, 4, 0, 0}),
            (std::vector<double>{5, 10}));
  EXPECT_EQ(Lanes<float>(kNormalize, 1, 2, std::vector<float>{3, 4}),
            (std::vector<float>{0.6f, 0.8f}));
  EXPECT_EQ(Lanes<double>(kNormalize, 1, 2, std::vector<double>{1e308, 1e308}),
            (std::vector<double>{std::sqrt(0.5), std::sqrt(0.5)}));
  EXPECT_EQ(Lanes<float>(kFastNormalize, 1, 3, std::vector<float>{0, -0.0f, 0}),
            (std::vector<float>{0, -0.0f, 0}));
  const std::vector<float> infs =
      Lanes<float>(kNormalize, 1, 4, std::vector<float>{-kFInf, 2, kFInf, -3});
  EXPECT_EQ(infs, (std::vector<float>{-1, 0, 1, -0.0f}));
  EXPECT_TRUE(std::signbit(infs[3]));
  for (float v : Lanes<float>(kNormalize, 1, 3, std::vector<float>{kFNaN, 1, kFInf})) {
    EXPECT_TRUE(std::isnan(v));
  }
}

TEST(OpenCLStdRelational, BitselectAndSelect) {
  EXPECT_EQ(Eval<uint32_t>(kBitselect, 0xAAAAAAAAu, 0x55555555u, 0xFFFF0000u), 0x5555AAAAu);
  EXPECT_EQ(Eval<uint8_t>(kBitselect, uint8_t{0xF0}, uint8_t{0x0F}, uint8_t{0x3C}), 0xCC);
  EXPECT_EQ(Eval<float>(kBitselect, 1.0f, -1.0f, std::bit_cast<float>(0x80000000u)), -1.0f);
  EXPECT_EQ(Eval<double>(kBitselect, 2.0, 0.0, 0.0), 2.0);
  // Scalar: any nonzero condition picks b.
  EXPECT_EQ(Eval<float>(kSelect, 1.0f, 2.0f, int32_t{2}), 2.0f);
  EXPECT_EQ(Eval<float>(kSelect, 1.0f, 2.0f, int32_t{0}), 1.0f);
  EXPECT_EQ(Eval<int64_t>(kSelect, int64_t{1}, int64_t{2}, int64_t{1} << 40), 2);
  // Vector: the most significant bit of each component.
  EXPECT_EQ(
      Lanes<float>(kSelect, 1, 4, std::vector<float>{1, 2, 3, 4}, std::vector<float>{5, 6, 7, 8},
                   std::vector<int32_t>{1, -1, INT32_MIN, INT32_MAX}),
      (std::vector<float>{1, 6, 7, 4}));
  EXPECT_EQ(Lanes<Fp16>(kSelect, 1, 2, std::vector<Fp16>{H(1), H(2)}, std::vector<Fp16>{H(3), H(4)},
                        std::vector<int16_t>{-1, 1})[0]
                .bits,
            H(3).bits);
  EXPECT_EQ(
      Lanes<uint8_t>(kSelect, 2, 2, std::vector<uint8_t>{1, 2, 3, 4},
                     std::vector<uint8_t>{5, 6, 7, 8}, std::vector<uint8_t>{0x80, 0x7F, 0xFF, 0}),
      (std::vector<uint8_t>{5, 2, 7, 4}));
}

}  // namespace
}  // namespace xmx::interp
