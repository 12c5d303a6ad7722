// OpenCL.std math instructions (0-94). Most are a double kernel applied to the widened operands
// and rounded once to the result format (for double the kernel is the result). The few whose
// exact result depends on the format (fma, mad, nextafter, fract, nan) have one kernel per format.
// lgamma_r, which <cmath> does not declare: std::lgamma writes the global signgam, a race
// between threads.
#include <math.h>  // NOLINT(modernize-deprecated-headers)

#include <bit>
#include <climits>
#include <cmath>
#include <limits>
#include <type_traits>

#include "interp/opencl_std/opencl_std.hpp"

namespace xmx::interp::opencl_std_internal {
namespace {

// clang-format off
enum : uint32_t {
  kAcos, kAcosh, kAcospi, kAsin, kAsinh, kAsinpi, kAtan, kAtan2, kAtanh, kAtanpi, kAtan2pi, kCbrt,
  kCeil, kCopysign, kCos, kCosh, kCospi, kErfc, kErf, kExp, kExp2, kExp10, kExpm1, kFabs, kFdim,
  kFloor, kFma, kFmax, kFmin, kFmod, kFract, kFrexp, kHypot, kIlogb, kLdexp, kLgamma, kLgammaR,
  kLog, kLog2, kLog10, kLog1p, kLogb, kMad, kMaxmag, kMinmag, kModf, kNan, kNextafter, kPow, kPown,
  kPowr, kRemainder, kRemquo, kRint, kRootn, kRound, kRsqrt, kSin, kSincos, kSinh, kSinpi, kSqrt,
  kTan, kTanh, kTanpi, kTgamma, kTrunc, kHalfCos, kHalfDivide, kHalfExp, kHalfExp2, kHalfExp10,
  kHalfLog, kHalfLog2, kHalfLog10, kHalfPowr, kHalfRecip, kHalfRsqrt, kHalfSin, kHalfSqrt, kHalfTan,
  kNativeCos, kNativeDivide, kNativeExp, kNativeExp2, kNativeExp10, kNativeLog, kNativeLog2,
  kNativeLog10, kNativePowr, kNativeRecip, kNativeRsqrt, kNativeSin, kNativeSqrt, kNativeTan,
};
// clang-format on

constexpr double kPi = 3.141592653589793116;       // pi rounded to double
constexpr double kPiLow = 1.2246467991473532e-16;  // pi - kPi
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- Double kernels ----

double Acos(double x) { return std::acos(x); }
double Acosh(double x) { return std::acosh(x); }
double Acospi(double x) { return std::acos(x) / kPi; }
double Asin(double x) { return std::asin(x); }
double Asinh(double x) { return std::asinh(x); }
double Asinpi(double x) { return std::asin(x) / kPi; }
double Atan(double x) { return std::atan(x); }
double Atanh(double x) { return std::atanh(x); }
double Atanpi(double x) { return std::atan(x) / kPi; }
// The C library's double cbrt errs by up to 4 ulps (glibc), over OpenCL's 2.
double Cbrt(double x) { return static_cast<double>(std::cbrt(static_cast<long double>(x))); }
double Ceil(double x) { return std::ceil(x); }
double Cos(double x) { return std::cos(x); }
double Cosh(double x) { return std::cosh(x); }
double Erfc(double x) { return std::erfc(x); }
double Erf(double x) { return std::erf(x); }
double Exp(double x) { return std::exp(x); }
double Exp2(double x) { return std::exp2(x); }
double Exp10(double x) { return std::pow(10.0, x); }  // 10 is exact, so pow's accuracy holds
double Expm1(double x) { return std::expm1(x); }
double Fabs(double x) { return std::fabs(x); }
double Floor(double x) { return std::floor(x); }
double Lgamma(double x) {
  int sign;
  return ::lgamma_r(x, &sign);
}
double Log(double x) { return std::log(x); }
double Log2(double x) { return std::log2(x); }
double Log10(double x) { return std::log10(x); }
double Log1p(double x) { return std::log1p(x); }
double Logb(double x) { return std::logb(x); }
double Rint(double x) { return std::nearbyint(x); }  // the default environment rounds to even
double Round(double x) { return std::round(x); }
double Rsqrt(double x) { return 1.0 / std::sqrt(x); }
double Recip(double x) { return 1.0 / x; }
double Sin(double x) { return std::sin(x); }
double Sinh(double x) { return std::sinh(x); }
double Sqrt(double x) { return std::sqrt(x); }
double Tan(double x) { return std::tan(x); }
double Tanh(double x) { return std::tanh(x); }
double Tgamma(double x) { return std::tgamma(x); }
double Trunc(double x) { return std::trunc(x); }

// sinpi, cospi and tanpi: x is reduced exactly to t in [-1/4, 1/4] plus a multiple of 1/2, and pi*t
// is carried as hi + lo, so neither the reduction nor the product costs double accuracy (pi*x
// rounded would lose all of it near the zeros).
void PiTimes(double t, double* hi, double* lo) {
  *hi = kPi * t;
  *lo = std::fma(kPi, t, -*hi) + kPiLow * t;
}
double SinPiSmall(double t) {
  double hi, lo;
  PiTimes(t, &hi, &lo);
  return std::sin(hi) + lo * std::cos(hi);
}
double CosPiSmall(double t) {
  double hi, lo;
  PiTimes(t, &hi, &lo);
  return std::cos(hi) - lo * std::sin(hi);
}
double TanPiSmall(double t) {
  double hi, lo;
  PiTimes(t, &hi, &lo);
  const double t_hi = std::tan(hi);
  return t_hi + lo * (1 + t_hi * t_hi);
}
// x = q/2 + t with q in 0..3 (mod 4, i.e. mod 2 in x) and |t| <= 1/4.
int ReduceHalves(double x, double* t) {
  const double r = std::fmod(x, 2.0);  // exact
  const double q = std::nearbyint(2 * r);
  *t = r - q / 2;
  return (static_cast<int>(q) % 4 + 4) % 4;
}
double SinPi(double x) {
  if (!std::isfinite(x)) return kNaN;
  double t;
  const int q = ReduceHalves(x, &t);
  const double s = q == 0   ? SinPiSmall(t)
                   : q == 1 ? CosPiSmall(t)
                   : q == 2 ? -SinPiSmall(t)
                            : -CosPiSmall(t);
  return s == 0 ? std::copysign(0.0, x) : s;  // OpenCL: zeros take the sign of x
}
double CosPi(double x) {
  if (!std::isfinite(x)) return kNaN;
  double t;
  const int q = ReduceHalves(x, &t);
  const double c = q == 0   ? CosPiSmall(t)
                   : q == 1 ? -SinPiSmall(t)
                   : q == 2 ? -CosPiSmall(t)
                            : SinPiSmall(t);
  return c == 0 ? 0.0 : c;  // OpenCL: zeros are +0
}
// OpenCL: tanpi(n) is copysign(0, n) for even n and copysign(0, -n) for odd n; tanpi(n + 1/2) is
// +inf for even n and -inf for odd n.
double TanPi(double x) {
  if (!std::isfinite(x)) return kNaN;
  double z = std::fabs(x);
  double sign = std::copysign(1.0, x);
  if (z >= 0x1p53) return std::copysign(0.0, x);  // only even integers up there
  const double n = std::nearbyint(z);             // ties to even: n + 1/2 goes to the even n
  const bool odd = std::fmod(n, 2.0) != 0;
  z -= n;
  if (z == 0) return std::copysign(0.0, odd ? -sign : sign);
  if (z < 0) {
    sign = -sign;
    z = -z;
  }
  return z > 0.25 ? sign / TanPiSmall(0.5 - z) : sign * TanPiSmall(z);
}

double Atan2(double y, double x) { return std::atan2(y, x); }
double Atan2pi(double y, double x) { return std::atan2(y, x) / kPi; }
double Copysign(double x, double y) { return std::copysign(x, y); }
double Fdim(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return kNaN;
  return x > y ? x - y : 0.0;
}
double Fmod(double x, double y) { return std::fmod(x, y); }
double Hypot(double x, double y) { return std::hypot(x, y); }
double Maxmag(double x, double y) {
  const double ax = std::fabs(x), ay = std::fabs(y);
  return ax > ay ? x : ay > ax ? y : FMax(x, y);
}
double Minmag(double x, double y) {
  const double ax = std::fabs(x), ay = std::fabs(y);
  return ax < ay ? x : ay < ax ? y : FMin(x, y);
}
double Pow(double x, double y) { return std::pow(x, y); }
// powr is pow restricted to x >= 0, with its own special cases (OpenCL C 7.5.1).
double Powr(double x, double y) {
  if (x < 0 || std::isnan(x) || std::isnan(y)) return kNaN;
  if (x == 1) return std::isinf(y) ? kNaN : 1.0;
  if (y == 0) return x == 0 || std::isinf(x) ? kNaN : 1.0;
  if (x == 0) return y < 0 ? kInf : 0.0;
  return std::pow(x, y);
}
double Remainder(double x, double y) { return std::remainder(x, y); }
double Divide(double x, double y) { return x / y; }

// remainder(x, y) plus the low seven bits of the quotient it rounded to, signed as x/y (OpenCL
// asks for seven; the C library promises only three).
double RemQuo(double x, double y, int32_t* quo) {
  *quo = 0;
  const double r = std::remainder(x, y);
  if (!std::isfinite(x) || !std::isfinite(y) || y == 0) return r;
  const double a = std::fabs(x), b = std::fabs(y);
  // Dropping a multiple of 128*b keeps the nearest-even quotient's low seven bits and its parity.
  const double m = b <= std::numeric_limits<double>::max() / 128 ? std::fmod(a, 128 * b) : a;
  const double f = std::fmod(m, b);
  // (m - f) / b is an integer below 128; the two roundings cannot move it by 1/2.
  const int below = static_cast<int>(std::nearbyint((m - f) / b));
  const int nearest = std::remainder(m, b) == f ? below : below + 1;
  const int bits = nearest & 127;
  *quo = std::signbit(x) != std::signbit(y) ? -bits : bits;
  return r;
}

// OpenCL rootn edge cases, then a long double power: 1/n is inexact, and in double its error,
// scaled by |log x| up to 745, would reach hundreds of ulps.
double RootN(double x, int32_t n) {
  if (n == 0 || std::isnan(x)) return kNaN;
  const bool odd = (n & 1) != 0;
  if (x < 0 && !odd) return kNaN;
  if (x == 0) {
    if (n > 0) return odd ? x : 0.0;
    return odd ? std::copysign(kInf, x) : kInf;
  }
  const long double root = std::pow(std::fabs(static_cast<long double>(x)), 1.0L / n);
  return std::copysign(static_cast<double>(root), x);
}

// The sign of Gamma(x), 0 where it has a pole or x is NaN.
int32_t GammaSign(double x) {
  if (std::isnan(x)) return 0;
  if (x == 0) return std::signbit(x) ? -1 : 1;
  if (x > 0) return 1;
  if (std::isinf(x) || x == std::floor(x)) return 0;
  return std::fmod(std::floor(-x), 2.0) == 0 ? -1 : 1;
}

// ---- Element loops ----

template <class F, double (*Fn)(double)>
void Unary(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
           uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S>(call, r, ops, lanes, [](S x) { return F::Narrow(Fn(F::Widen(x))); });
}

template <class F, double (*Fn)(double, double)>
void Binary(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
            uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S, S>(call, r, ops, lanes,
                       [](S x, S y) { return F::Narrow(Fn(F::Widen(x), F::Widen(y))); });
}

template <class F, double (*Fn)(double, int32_t)>
void WithInt(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
             uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S, int32_t>(call, r, ops, lanes,
                             [](S x, int32_t k) { return F::Narrow(Fn(F::Widen(x), k)); });
}
double Ldexp(double x, int32_t k) { return std::ldexp(x, k); }
double Pown(double x, int32_t n) { return std::pow(x, static_cast<double>(n)); }

// A result plus the value the executor stores through the pointer operand.
template <class R, class R2, class... A, class Kernel, std::size_t... J>
void MapPairImpl(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t* second,
                 uint32_t lanes, Kernel kernel, std::index_sequence<J...>) {
  const Source sources[sizeof...(A)] = {SourceOf(call, ops, J)...};
  const uint32_t n = call.result.components;
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    for (uint32_t c = 0; c < n; ++c) {
      const auto [value, extra] = kernel(Load<A>(sources[J].At(lane, c))...);
      const uint32_t e = lane * n + c;
      Store<R>(r + e * sizeof(R), value);
      Store<R2>(second + e * sizeof(R2), extra);
    }
  }
}
template <class R, class R2, class... A, class Kernel>
void MapPair(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t* second,
             uint32_t lanes, Kernel kernel) {
  MapPairImpl<R, R2, A...>(call, r, ops, second, lanes, kernel, std::index_sequence_for<A...>{});
}

template <class F>
void Frexp(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t* second,
           uint32_t lanes) {
  using S = typename F::Storage;
  MapPair<S, int32_t, S>(call, r, ops, second, lanes, [](S x) {
    int e = 0;
    const double m = std::frexp(F::Widen(x), &e);
    return std::pair<S, int32_t>(F::Narrow(m), std::isfinite(m) ? e : 0);
  });
}

template <class F>
void LgammaR(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t* second,
             uint32_t lanes) {
  using S = typename F::Storage;
  MapPair<S, int32_t, S>(call, r, ops, second, lanes, [](S x) {
    const double w = F::Widen(x);
    return std::pair<S, int32_t>(F::Narrow(Lgamma(w)), GammaSign(w));
  });
}

template <class F>
void Modf(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t* second,
          uint32_t lanes) {
  using S = typename F::Storage;
  MapPair<S, S, S>(call, r, ops, second, lanes, [](S x) {
    double whole;
    const double part = std::modf(F::Widen(x), &whole);
    return std::pair<S, S>(F::Narrow(part), F::Narrow(whole));
  });
}

template <class F>
void Sincos(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t* second,
            uint32_t lanes) {
  using S = typename F::Storage;
  MapPair<S, S, S>(call, r, ops, second, lanes, [](S x) {
    const double w = F::Widen(x);
    return std::pair<S, S>(F::Narrow(std::sin(w)), F::Narrow(std::cos(w)));
  });
}

// fract(x) = fmin(x - floor(x), largest value below 1), rounded in the format first: that is
// what keeps a tiny negative x from returning 1. OpenCL: fract(±0) = ±0, fract(±inf) = ±0 with
// ±inf stored, NaN gives NaN for both.
template <class F>
void Fract(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t* second,
           uint32_t lanes) {
  using S = typename F::Storage;
  MapPair<S, S, S>(call, r, ops, second, lanes, [](S xs) {
    const double x = F::Widen(xs);
    if (std::isnan(x)) return std::pair<S, S>(xs, xs);
    if (std::isinf(x) || x == 0) return std::pair<S, S>(F::Narrow(std::copysign(0.0, x)), xs);
    const double below_one = 1.0 - std::ldexp(1.0, -(F::kMantissaBits + 1));
    const double whole = std::floor(x);
    return std::pair<S, S>(F::Narrow(FMin(RoundTo<F>(x - whole), below_one)), F::Narrow(whole));
  });
}

template <class F>
void Remquo(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t* second,
            uint32_t lanes) {
  using S = typename F::Storage;
  MapPair<S, int32_t, S, S>(call, r, ops, second, lanes, [](S x, S y) {
    int32_t quo;
    const double rem = RemQuo(F::Widen(x), F::Widen(y), &quo);
    return std::pair<S, int32_t>(F::Narrow(rem), quo);
  });
}

// OpenCL's FP_ILOGB0 is INT_MIN and FP_ILOGBNAN INT_MAX (the C library's differ by platform).
template <class F>
void Ilogb(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
           uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<int32_t, S>(call, r, ops, lanes, [](S xs) -> int32_t {
    const double x = F::Widen(xs);
    if (x == 0) return INT_MIN;
    if (!std::isfinite(x)) return INT_MAX;
    return std::ilogb(x);
  });
}

// A quiet NaN carrying the low bits of the code in its payload.
template <class F>
void Nan(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
         uint32_t lanes) {
  using B = typename F::Bits;
  using S = typename F::Storage;
  constexpr int kWidth = 8 * sizeof(B);
  constexpr B kQuiet = B(1) << (F::kMantissaBits - 1);
  constexpr B kExponent = static_cast<B>(
      static_cast<B>(static_cast<B>(~B(0)) >> (F::kMantissaBits + 1)) << F::kMantissaBits);
  static_assert(kWidth > F::kMantissaBits + 1);
  MapElements<S, B>(call, r, ops, lanes, [](B code) {
    return std::bit_cast<S>(static_cast<B>(kExponent | kQuiet | (code & (kQuiet - 1))));
  });
}

template <class F>
void Nextafter(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
               uint32_t lanes) {
  using B = typename F::Bits;
  using S = typename F::Storage;
  MapElements<S, S, S>(call, r, ops, lanes, [](S xs, S ys) {
    const double x = F::Widen(xs), y = F::Widen(ys);
    if (std::isnan(x)) return xs;
    if (std::isnan(y)) return ys;
    if (x == y) return ys;
    const B sign = static_cast<B>(B(1) << (8 * sizeof(B) - 1));
    B bits = std::bit_cast<B>(xs);
    if (x == 0) {
      bits = static_cast<B>((std::bit_cast<B>(ys) & sign) | 1);  // the smallest subnormal
    } else if ((x < y) == (x > 0)) {
      ++bits;  // away from zero
    } else {
      --bits;
    }
    return std::bit_cast<S>(bits);
  });
}

// Correctly rounded a*b+c. For half the product is exact in double, and the double sum is inexact
// only when the addends lie over 53 bits apart. Within half's range that makes the product the
// tiny one, so the sum sits within 2^-31 (relative) of c, a half value far from any tie, and the
// second rounding lands where a single one would.
template <class F>
void Fma(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
         uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S, S, S>(call, r, ops, lanes, [](S a, S b, S c) -> S {
    if constexpr (std::is_same_v<F, F16>) {
      const double product = F::Widen(a) * F::Widen(b);
      return F::Narrow(product + F::Widen(c));
    } else {
      return std::fma(a, b, c);
    }
  });
}

// mad: the product rounded to the format, then the sum rounded again (no fusion).
template <class F>
void Mad(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
         uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S, S, S>(call, r, ops, lanes, [](S a, S b, S c) {
    const double product = RoundTo<F>(F::Widen(a) * F::Widen(b));
    return F::Narrow(product + F::Widen(c));
  });
}

// ---- Binding ----

struct FloatFns {
  OpenCLStdFn f16, f32, f64;
};
template <double (*Fn)(double)>
constexpr FloatFns kUnary = {&Unary<F16, Fn>, &Unary<F32, Fn>, &Unary<F64, Fn>};
template <double (*Fn)(double, double)>
constexpr FloatFns kBinary = {&Binary<F16, Fn>, &Binary<F32, Fn>, &Binary<F64, Fn>};
template <double (*Fn)(double, int32_t)>
constexpr FloatFns kWithInt = {&WithInt<F16, Fn>, &WithInt<F32, Fn>, &WithInt<F64, Fn>};

enum class Shape : uint8_t {
  kUnary,    // gentype f(gentype)
  kBinary,   // gentype f(gentype, gentype)
  kTernary,  // gentype f(gentype, gentype, gentype)
  kWithInt,  // gentype f(gentype, intn)
  kIlogb,    // intn f(gentype)
  kNan,      // gentype f(unsigned of the same width)
  kOutSame,  // gentype f(gentype, gentype*)
  kOutInt,   // gentype f(gentype, intn*)
  kRemquo,   // gentype f(gentype, gentype, intn*)
};

struct MathEntry {
  uint32_t instruction;
  Shape shape;
  bool float_only;  // the half_ forms exist for float alone
  FloatFns fns;
};

const MathEntry kEntries[] = {
    {kAcos, Shape::kUnary, false, kUnary<Acos>},
    {kAcosh, Shape::kUnary, false, kUnary<Acosh>},
    {kAcospi, Shape::kUnary, false, kUnary<Acospi>},
    {kAsin, Shape::kUnary, false, kUnary<Asin>},
    {kAsinh, Shape::kUnary, false, kUnary<Asinh>},
    {kAsinpi, Shape::kUnary, false, kUnary<Asinpi>},
    {kAtan, Shape::kUnary, false, kUnary<Atan>},
    {kAtan2, Shape::kBinary, false, kBinary<Atan2>},
    {kAtanh, Shape::kUnary, false, kUnary<Atanh>},
    {kAtanpi, Shape::kUnary, false, kUnary<Atanpi>},
    {kAtan2pi, Shape::kBinary, false, kBinary<Atan2pi>},
    {kCbrt, Shape::kUnary, false, kUnary<Cbrt>},
    {kCeil, Shape::kUnary, false, kUnary<Ceil>},
    {kCopysign, Shape::kBinary, false, kBinary<Copysign>},
    {kCos, Shape::kUnary, false, kUnary<Cos>},
    {kCosh, Shape::kUnary, false, kUnary<Cosh>},
    {kCospi, Shape::kUnary, false, kUnary<CosPi>},
    {kErfc, Shape::kUnary, false, kUnary<Erfc>},
    {kErf, Shape::kUnary, false, kUnary<Erf>},
    {kExp, Shape::kUnary, false, kUnary<Exp>},
    {kExp2, Shape::kUnary, false, kUnary<Exp2>},
    {kExp10, Shape::kUnary, false, kUnary<Exp10>},
    {kExpm1, Shape::kUnary, false, kUnary<Expm1>},
    {kFabs, Shape::kUnary, false, kUnary<Fabs>},
    {kFdim, Shape::kBinary, false, kBinary<Fdim>},
    {kFloor, Shape::kUnary, false, kUnary<Floor>},
    {kFma, Shape::kTernary, false, FloatFns{&Fma<F16>, &Fma<F32>, &Fma<F64>}},
    {kFmax, Shape::kBinary, false, kBinary<FMax>},
    {kFmin, Shape::kBinary, false, kBinary<FMin>},
    {kFmod, Shape::kBinary, false, kBinary<Fmod>},
    {kFract, Shape::kOutSame, false, FloatFns{&Fract<F16>, &Fract<F32>, &Fract<F64>}},
    {kFrexp, Shape::kOutInt, false, FloatFns{&Frexp<F16>, &Frexp<F32>, &Frexp<F64>}},
    {kHypot, Shape::kBinary, false, kBinary<Hypot>},
    {kIlogb, Shape::kIlogb, false, FloatFns{&Ilogb<F16>, &Ilogb<F32>, &Ilogb<F64>}},
    {kLdexp, Shape::kWithInt, false, kWithInt<Ldexp>},
    {kLgamma, Shape::kUnary, false, kUnary<Lgamma>},
    {kLgammaR, Shape::kOutInt, false, FloatFns{&LgammaR<F16>, &LgammaR<F32>, &LgammaR<F64>}},
    {kLog, Shape::kUnary, false, kUnary<Log>},
    {kLog2, Shape::kUnary, false, kUnary<Log2>},
    {kLog10, Shape::kUnary, false, kUnary<Log10>},
    {kLog1p, Shape::kUnary, false, kUnary<Log1p>},
    {kLogb, Shape::kUnary, false, kUnary<Logb>},
    {kMad, Shape::kTernary, false, FloatFns{&Mad<F16>, &Mad<F32>, &Mad<F64>}},
    {kMaxmag, Shape::kBinary, false, kBinary<Maxmag>},
    {kMinmag, Shape::kBinary, false, kBinary<Minmag>},
    {kModf, Shape::kOutSame, false, FloatFns{&Modf<F16>, &Modf<F32>, &Modf<F64>}},
    {kNan, Shape::kNan, false, FloatFns{&Nan<F16>, &Nan<F32>, &Nan<F64>}},
    {kNextafter, Shape::kBinary, false,
     FloatFns{&Nextafter<F16>, &Nextafter<F32>, &Nextafter<F64>}},
    {kPow, Shape::kBinary, false, kBinary<Pow>},
    {kPown, Shape::kWithInt, false, kWithInt<Pown>},
    {kPowr, Shape::kBinary, false, kBinary<Powr>},
    {kRemainder, Shape::kBinary, false, kBinary<Remainder>},
    {kRemquo, Shape::kRemquo, false, FloatFns{&Remquo<F16>, &Remquo<F32>, &Remquo<F64>}},
    {kRint, Shape::kUnary, false, kUnary<Rint>},
    {kRootn, Shape::kWithInt, false, kWithInt<RootN>},
    {kRound, Shape::kUnary, false, kUnary<Round>},
    {kRsqrt, Shape::kUnary, false, kUnary<Rsqrt>},
    {kSin, Shape::kUnary, false, kUnary<Sin>},
    {kSincos, Shape::kOutSame, false, FloatFns{&Sincos<F16>, &Sincos<F32>, &Sincos<F64>}},
    {kSinh, Shape::kUnary, false, kUnary<Sinh>},
    {kSinpi, Shape::kUnary, false, kUnary<SinPi>},
    {kSqrt, Shape::kUnary, false, kUnary<Sqrt>},
    {kTan, Shape::kUnary, false, kUnary<Tan>},
    {kTanh, Shape::kUnary, false, kUnary<Tanh>},
    {kTanpi, Shape::kUnary, false, kUnary<TanPi>},
    {kTgamma, Shape::kUnary, false, kUnary<Tgamma>},
    {kTrunc, Shape::kUnary, false, kUnary<Trunc>},
    // The half_ and native_ forms may be less accurate; computing them fully accurately is within
    // their bounds and keeps results independent of the spelling.
    {kHalfCos, Shape::kUnary, true, kUnary<Cos>},
    {kHalfDivide, Shape::kBinary, true, kBinary<Divide>},
    {kHalfExp, Shape::kUnary, true, kUnary<Exp>},
    {kHalfExp2, Shape::kUnary, true, kUnary<Exp2>},
    {kHalfExp10, Shape::kUnary, true, kUnary<Exp10>},
    {kHalfLog, Shape::kUnary, true, kUnary<Log>},
    {kHalfLog2, Shape::kUnary, true, kUnary<Log2>},
    {kHalfLog10, Shape::kUnary, true, kUnary<Log10>},
    {kHalfPowr, Shape::kBinary, true, kBinary<Powr>},
    {kHalfRecip, Shape::kUnary, true, kUnary<Recip>},
    {kHalfRsqrt, Shape::kUnary, true, kUnary<Rsqrt>},
    {kHalfSin, Shape::kUnary, true, kUnary<Sin>},
    {kHalfSqrt, Shape::kUnary, true, kUnary<Sqrt>},
    {kHalfTan, Shape::kUnary, true, kUnary<Tan>},
    {kNativeCos, Shape::kUnary, false, kUnary<Cos>},
    {kNativeDivide, Shape::kBinary, false, kBinary<Divide>},
    {kNativeExp, Shape::kUnary, false, kUnary<Exp>},
    {kNativeExp2, Shape::kUnary, false, kUnary<Exp2>},
    {kNativeExp10, Shape::kUnary, false, kUnary<Exp10>},
    {kNativeLog, Shape::kUnary, false, kUnary<Log>},
    {kNativeLog2, Shape::kUnary, false, kUnary<Log2>},
    {kNativeLog10, Shape::kUnary, false, kUnary<Log10>},
    {kNativePowr, Shape::kBinary, false, kBinary<Powr>},
    {kNativeRecip, Shape::kUnary, false, kUnary<Recip>},
    {kNativeRsqrt, Shape::kUnary, false, kUnary<Rsqrt>},
    {kNativeSin, Shape::kUnary, false, kUnary<Sin>},
    {kNativeSqrt, Shape::kUnary, false, kUnary<Sqrt>},
    {kNativeTan, Shape::kUnary, false, kUnary<Tan>},
};

constexpr ScalarType kInt32{ScalarKind::kInt, 4};

}  // namespace

bool IsMathInstruction(uint32_t instruction) { return instruction <= kNativeTan; }

std::optional<OpenCLStdCall> BindMath(const Request& req) {
  const MathEntry* entry = nullptr;
  for (const MathEntry& e : kEntries) {
    if (e.instruction == req.instruction) entry = &e;
  }
  if (!entry) return req.Fail("not a math instruction");
  const Shape shape = entry->shape;
  const uint32_t n = req.result.components;

  // ilogb alone has an integer result; its float type is the operand's.
  ScalarType s = req.result.scalar;
  if (shape == Shape::kIlogb) {
    if (!(s == kInt32)) return req.Fail("the result must be int, not " + TypeName(req.result));
    if (req.operands.size() != 1 || !IsFloat(req.operands[0].scalar)) {
      return req.Fail("expects one float operand");
    }
    s = req.operands[0].scalar;
  } else if (!IsFloat(s)) {
    return req.Fail("the result must be a half, float or double type, not " + TypeName(req.result));
  }
  if (entry->float_only && s.bytes != 4) {
    return req.Fail("is defined for float only, not " + TypeName(req.result));
  }

  ValueType second{ScalarType{}, 0};
  uint32_t values = 0;
  switch (shape) {
    case Shape::kOutSame:
      second = req.result, values = 1;
      break;
    case Shape::kOutInt:
      second = ValueType{kInt32, n}, values = 1;
      break;
    case Shape::kRemquo:
      second = ValueType{kInt32, n}, values = 2;
      break;
    default:
      break;
  }
  Request sub = req;
  if (second.components != 0 && req.operands.size() == values + 1) {
    const ValueType& pointer = req.operands[values];
    if (pointer.scalar.kind != ScalarKind::kPointer && !(pointer == second)) {
      return req.Fail("stores " + TypeName(second) +
                      " through its pointer operand, which points to " + TypeName(pointer));
    }
    sub.operands = req.operands.first(values);
  }

  bool ok = false;
  switch (shape) {
    case Shape::kUnary:
    case Shape::kIlogb:
    case Shape::kOutSame:
    case Shape::kOutInt:
      ok = CheckOperands(sub, {s}, n);
      break;
    case Shape::kBinary:
    case Shape::kRemquo:
      ok = CheckOperands(sub, {s, s}, n);
      break;
    case Shape::kTernary:
      ok = CheckOperands(sub, {s, s, s}, n);
      break;
    case Shape::kWithInt:
      ok = CheckOperands(sub, {s, kInt32}, n);
      break;
    case Shape::kNan:
      ok = CheckOperands(sub, {ScalarType{ScalarKind::kInt, s.bytes}}, n);
      break;
  }
  if (!ok) return std::nullopt;
  const FloatFns& fns = entry->fns;
  return MakeCall(sub, ByFloatWidth(s.bytes, fns.f16, fns.f32, fns.f64), second);
}

}  // namespace xmx::interp::opencl_std_internal
