// OpenCL.std transcendental functions against long double references, within the OpenCL ULP
// limits, in half, float and double.
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

}  // namespace
}  // namespace xmx::interp
