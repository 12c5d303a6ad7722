// OpenCL.std: the bind entry point and its shared checks, and the common (95-103), geometric
// (104-110) and relational (186-187) instructions.
#include <algorithm>
#include <cmath>
#include <limits>

#include "interp/opencl_std/opencl_std.hpp"

namespace xmx::interp {
namespace opencl_std_internal {
namespace {

// Indexed by instruction number, from extinst.opencl.std.100.grammar.json.
// clang-format off
constexpr std::string_view kNames[] = {
  "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atan2", "atanh", "atanpi",
  "atan2pi", "cbrt", "ceil", "copysign", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2",
  "exp10", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "fract", "frexp",
  "hypot", "ilogb", "ldexp", "lgamma", "lgamma_r", "log", "log2", "log10", "log1p", "logb", "mad",
  "maxmag", "minmag", "modf", "nan", "nextafter", "pow", "pown", "powr", "remainder", "remquo",
  "rint", "rootn", "round", "rsqrt", "sin", "sincos", "sinh", "sinpi", "sqrt", "tan", "tanh",
  "tanpi", "tgamma", "trunc", "half_cos", "half_divide", "half_exp", "half_exp2", "half_exp10",
  "half_log", "half_log2", "half_log10", "half_powr", "half_recip", "half_rsqrt", "half_sin",
  "half_sqrt", "half_tan", "native_cos", "native_divide", "native_exp", "native_exp2",
  "native_exp10", "native_log", "native_log2", "native_log10", "native_powr", "native_recip",
  "native_rsqrt", "native_sin", "native_sqrt", "native_tan", "fclamp", "degrees", "fmax_common",
  "fmin_common", "mix", "radians", "step", "smoothstep", "sign", "cross", "distance", "length",
  "normalize", "fast_distance", "fast_length", "fast_normalize", "", "", "", "", "", "", "", "", "",
  "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "s_abs",
  "s_abs_diff", "s_add_sat", "u_add_sat", "s_hadd", "u_hadd", "s_rhadd", "u_rhadd", "s_clamp",
  "u_clamp", "clz", "ctz", "s_mad_hi", "u_mad_sat", "s_mad_sat", "s_max", "u_max", "s_min", "u_min",
  "s_mul_hi", "rotate", "s_sub_sat", "u_sub_sat", "u_upsample", "s_upsample", "popcount", "s_mad24",
  "u_mad24", "s_mul24", "u_mul24", "vloadn", "vstoren", "vload_half", "vload_halfn", "vstore_half",
  "vstore_half_r", "vstore_halfn", "vstore_halfn_r", "vloada_halfn", "vstorea_halfn",
  "vstorea_halfn_r", "shuffle", "shuffle2", "printf", "prefetch", "bitselect", "select", "", "", "",
  "", "", "", "", "", "", "", "", "", "", "u_abs", "u_abs_diff", "u_mul_hi", "u_mad_hi",
};
// clang-format on

// clang-format off
enum : uint32_t {
  kFclamp = 95, kDegrees, kFmaxCommon, kFminCommon, kMix, kRadians, kStep, kSmoothstep, kSign,
  kCross, kDistance, kLength, kNormalize, kFastDistance, kFastLength, kFastNormalize,
  kFirstExecutorOwned = 171, kLastExecutorOwned = 185, kBitselect = 186, kSelect = 187,
};
// clang-format on

// ---- Common ----
// mix, step and smoothstep are specified as expressions; each step is rounded to the format, as
// a device evaluating the expression in that format would.

template <class F>
void Fclamp(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
            uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S, S, S>(call, r, ops, lanes, [](S x, S lo, S hi) {
    return F::Narrow(FMin(FMax(F::Widen(x), F::Widen(lo)), F::Widen(hi)));
  });
}

template <class F, bool kMax>
void MinMaxCommon(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
                  uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S, S>(call, r, ops, lanes, [](S x, S y) {
    return F::Narrow(kMax ? FMax(F::Widen(x), F::Widen(y)) : FMin(F::Widen(x), F::Widen(y)));
  });
}

template <class F, bool kToDegrees>
void AngleUnits(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
                uint32_t lanes) {
  using S = typename F::Storage;
  constexpr double kPi = 3.14159265358979323846;
  MapElements<S, S>(call, r, ops, lanes, [](S x) {
    return F::Narrow(F::Widen(x) * (kToDegrees ? 180.0 / kPi : kPi / 180.0));
  });
}

template <class F>
void Mix(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
         uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S, S, S>(call, r, ops, lanes, [](S xs, S ys, S as) {
    const double x = F::Widen(xs);
    const double d = RoundTo<F>(F::Widen(ys) - x);
    return F::Narrow(x + RoundTo<F>(d * F::Widen(as)));
  });
}

template <class F>
void Step(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
          uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S, S>(call, r, ops, lanes, [](S edge, S x) {
    return F::Narrow(F::Widen(x) < F::Widen(edge) ? 0.0 : 1.0);
  });
}

template <class F>
void Smoothstep(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
                uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S, S, S>(call, r, ops, lanes, [](S e0s, S e1s, S xs) {
    const double e0 = F::Widen(e0s);
    const double num = RoundTo<F>(F::Widen(xs) - e0);
    const double den = RoundTo<F>(F::Widen(e1s) - e0);
    const double t = FMin(FMax(RoundTo<F>(num / den), 0.0), 1.0);
    const double poly = RoundTo<F>(3.0 - RoundTo<F>(2.0 * t));
    return F::Narrow(RoundTo<F>(t * t) * poly);
  });
}

template <class F>
void Sign(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
          uint32_t lanes) {
  using S = typename F::Storage;
  MapElements<S, S>(call, r, ops, lanes, [](S xs) {
    const double x = F::Widen(xs);
    if (x != x) return F::Narrow(0.0);
    return F::Narrow(x > 0 ? 1.0 : x < 0 ? -1.0 : x);
  });
}

// ---- Geometric ----
// Vectors are widened to double (distance subtracts there too); half and float results are then
// rounded once. At double
// precision the vector is first scaled by a power of two so its squares neither overflow nor
// underflow.

constexpr uint32_t kMaxGeometric = 4;

template <class F>
void LoadVector(const uint8_t* p, uint32_t n, double* v) {
  using S = typename F::Storage;
  for (uint32_t i = 0; i < n; ++i) v[i] = F::Widen(Load<S>(p + i * sizeof(S)));
}

// Scales v by 2^-e so its largest magnitude is in [1, 2); returns e, or nullopt when v holds a
// NaN, an infinity or only zeros (the callers treat those apart).
std::optional<int> ScaleDown(double* v, uint32_t n) {
  double big = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) return std::nullopt;
    big = std::max(big, std::fabs(v[i]));
  }
  if (big == 0) return std::nullopt;
  const int e = std::ilogb(big);
  for (uint32_t i = 0; i < n; ++i) v[i] = std::ldexp(v[i], -e);
  return e;
}

// In long double (where it is wider) so that double results come out within about half an ulp.
long double SumOfSquares(const double* v, uint32_t n) {
  long double sum = 0;
  for (uint32_t i = 0; i < n; ++i) sum += static_cast<long double>(v[i]) * v[i];
  return sum;
}

double Norm(double* v, uint32_t n) {
  bool nan = false;
  for (uint32_t i = 0; i < n; ++i) {
    if (std::isinf(v[i])) return std::numeric_limits<double>::infinity();
    nan = nan || std::isnan(v[i]);
  }
  if (nan) return std::numeric_limits<double>::quiet_NaN();
  const std::optional<int> e = ScaleDown(v, n);
  if (!e) return 0.0;
  return std::ldexp(static_cast<double>(std::sqrt(SumOfSquares(v, n))), *e);
}

template <class F, bool kDistance>
void Length(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
            uint32_t lanes) {
  using S = typename F::Storage;
  const uint32_t n = call.operands[0].components;
  const uint32_t stride = call.operands[0].lane_bytes();
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    double v[kMaxGeometric];
    LoadVector<F>(ops[0] + lane * stride, n, v);
    if (kDistance) {
      double w[kMaxGeometric];
      LoadVector<F>(ops[1] + lane * stride, n, w);
      for (uint32_t i = 0; i < n; ++i) v[i] -= w[i];
    }
    Store<S>(r + lane * sizeof(S), F::Narrow(Norm(v, n)));
  }
}

template <class F>
void Normalize(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
               uint32_t lanes) {
  using S = typename F::Storage;
  const uint32_t n = call.result.components;
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    double v[kMaxGeometric];
    LoadVector<F>(ops[0] + lane * n * sizeof(S), n, v);
    const bool nan = std::any_of(v, v + n, [](double x) { return std::isnan(x); });
    const bool inf = std::any_of(v, v + n, [](double x) { return std::isinf(x); });
    const std::optional<int> scaled = nan || inf ? std::nullopt : ScaleDown(v, n);
    const long double norm = std::sqrt(SumOfSquares(v, n));
    for (uint32_t i = 0; i < n; ++i) {
      double out;
      if (nan) {
        out = std::numeric_limits<double>::quiet_NaN();
      } else if (inf) {  // OpenCL: the infinite components become ±1, the others ±0
        out = std::copysign(std::isinf(v[i]) ? 1.0 : 0.0, v[i]);
      } else if (!scaled) {  // the zero vector is returned unchanged
        out = v[i];
      } else {
        out = static_cast<double>(v[i] / norm);
      }
      Store<S>(r + (lane * n + i) * sizeof(S), F::Narrow(out));
    }
  }
}

// a*b - c*d with one rounding error at most (Kahan): the products are exact through fma.
double DifferenceOfProducts(double a, double b, double c, double d) {
  const double cd = c * d;
  const double error = std::fma(-c, d, cd);
  return std::fma(a, b, -cd) + error;
}

template <class F>
void Cross(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
           uint32_t lanes) {
  using S = typename F::Storage;
  const uint32_t n = call.result.components;
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    double a[4], b[4];
    LoadVector<F>(ops[0] + lane * n * sizeof(S), n, a);
    LoadVector<F>(ops[1] + lane * n * sizeof(S), n, b);
    const double out[4] = {DifferenceOfProducts(a[1], b[2], a[2], b[1]),
                           DifferenceOfProducts(a[2], b[0], a[0], b[2]),
                           DifferenceOfProducts(a[0], b[1], a[1], b[0]), 0.0};
    for (uint32_t i = 0; i < n; ++i) Store<S>(r + (lane * n + i) * sizeof(S), F::Narrow(out[i]));
  }
}

// ---- Relational ----

template <class U>
void Bitselect(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
               uint32_t lanes) {
  MapElements<U, U, U, U>(call, r, ops, lanes, [](U a, U b, U c) {
    return static_cast<U>((a & static_cast<U>(~c)) | (b & c));
  });
}

// OpenCL select: a vector picks by the most significant bit of each condition component, a
// scalar by the whole condition being nonzero.
template <class T, class C, bool kVector>
void Select(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
            uint32_t lanes) {
  MapElements<T, T, T, C>(call, r, ops, lanes, [](T a, T b, C c) {
    const bool take_b = kVector ? (c >> (8 * sizeof(C) - 1)) != 0 : c != 0;
    return take_b ? b : a;
  });
}

template <class T>
OpenCLStdFn SelectFor(uint32_t condition_bytes, bool vector) {
  switch (condition_bytes) {
    case 1:
      return vector ? &Select<T, uint8_t, true> : &Select<T, uint8_t, false>;
    case 2:
      return vector ? &Select<T, uint16_t, true> : &Select<T, uint16_t, false>;
    case 4:
      return vector ? &Select<T, uint32_t, true> : &Select<T, uint32_t, false>;
    default:
      return vector ? &Select<T, uint64_t, true> : &Select<T, uint64_t, false>;
  }
}

template <template <class> class K>
OpenCLStdFn ByBits(uint32_t bytes) {
  switch (bytes) {
    case 1:
      return &K<uint8_t>::Fn;
    case 2:
      return &K<uint16_t>::Fn;
    case 4:
      return &K<uint32_t>::Fn;
    default:
      return &K<uint64_t>::Fn;
  }
}

std::optional<OpenCLStdCall> BindRelational(const Request& req) {
  const ScalarType s = req.result.scalar;
  if (!IsFloat(s) && !IsInt(s)) {
    return req.Fail("the result must be an integer or float scalar or vector, not " +
                    TypeName(req.result));
  }
  const uint32_t n = req.result.components;
  if (req.instruction == kBitselect) {
    if (!CheckOperands(req, {s, s, s}, n)) return std::nullopt;
    OpenCLStdFn fn = s.bytes == 1   ? &Bitselect<uint8_t>
                     : s.bytes == 2 ? &Bitselect<uint16_t>
                     : s.bytes == 4 ? &Bitselect<uint32_t>
                                    : &Bitselect<uint64_t>;
    return MakeCall(req, fn);
  }
  // The condition's width is not checked against the result's: the MSB rule reads the
  // condition's own top bit, which is what a producer meant whichever width it chose.
  if (req.operands.size() != 3 || !IsInt(req.operands[2].scalar)) {
    return req.Fail("expects operands a, b (the result type) and an integer condition c");
  }
  if (!CheckOperands(req, {s, s, req.operands[2].scalar}, n)) return std::nullopt;
  const uint32_t cb = req.operands[2].scalar.bytes;
  const bool vector = n > 1;
  OpenCLStdFn fn = s.bytes == 1   ? SelectFor<uint8_t>(cb, vector)
                   : s.bytes == 2 ? SelectFor<uint16_t>(cb, vector)
                   : s.bytes == 4 ? SelectFor<uint32_t>(cb, vector)
                                  : SelectFor<uint64_t>(cb, vector);
  return MakeCall(req, fn);
}

std::optional<OpenCLStdCall> BindGeometric(const Request& req) {
  const uint32_t op = req.instruction;
  const bool scalar_result =
      op == kDistance || op == kLength || op == kFastDistance || op == kFastLength;
  if (!IsFloat(req.result.scalar)) {
    return req.Fail("the result must be a float type, not " + TypeName(req.result));
  }
  const ScalarType s = req.result.scalar;
  if (scalar_result) {
    if (req.result.components != 1) {
      return req.Fail("the result must be a scalar, not " + TypeName(req.result));
    }
    const uint32_t arity = op == kDistance || op == kFastDistance ? 2 : 1;
    if (req.operands.size() != arity) {
      return req.Fail("expects " + std::to_string(arity) + " operand(s), got " +
                      std::to_string(req.operands.size()));
    }
    const uint32_t n = req.operands[0].components;
    if (n > kMaxGeometric) {
      return req.Fail("operands must have 1 to 4 components, not " + std::to_string(n));
    }
    if (arity == 2) {
      if (!CheckOperands(req, {s, s}, n, false)) return std::nullopt;
      return MakeCall(
          req, ByFloatWidth(s.bytes, &Length<F16, true>, &Length<F32, true>, &Length<F64, true>));
    }
    if (!CheckOperands(req, {s}, n, false)) return std::nullopt;
    return MakeCall(
        req, ByFloatWidth(s.bytes, &Length<F16, false>, &Length<F32, false>, &Length<F64, false>));
  }
  const uint32_t n = req.result.components;
  if (op == kCross) {
    if (n != 3 && n != 4) {
      return req.Fail("the result must have 3 or 4 components, not " + TypeName(req.result));
    }
    if (!CheckOperands(req, {s, s}, n, false)) return std::nullopt;
    return MakeCall(req, ByFloatWidth(s.bytes, &Cross<F16>, &Cross<F32>, &Cross<F64>));
  }
  if (n > kMaxGeometric) {
    return req.Fail("the result must have 1 to 4 components, not " + TypeName(req.result));
  }
  if (!CheckOperands(req, {s}, n, false)) return std::nullopt;
  return MakeCall(req, ByFloatWidth(s.bytes, &Normalize<F16>, &Normalize<F32>, &Normalize<F64>));
}

}  // namespace

std::nullopt_t Request::Fail(const std::string& reason) const {
  if (why_not) {
    const std::string_view name = OpenCLStdInstructionName(instruction);
    *why_not = "OpenCL.std " + (name.empty() ? std::to_string(instruction) : std::string(name)) +
               ": " + reason;
  }
  return std::nullopt;
}

std::string TypeName(const ScalarType& s) {
  switch (s.kind) {
    case ScalarKind::kBool:
      return "bool";
    case ScalarKind::kPointer:
      return "pointer";
    case ScalarKind::kFloat:
      if (s.bytes == 2) return "half";
      if (s.bytes == 4) return "float";
      if (s.bytes == 8) return "double";
      return "float" + std::to_string(8 * s.bytes);
    case ScalarKind::kInt:
      if (s.bytes == 1) return "char";
      if (s.bytes == 2) return "short";
      if (s.bytes == 4) return "int";
      if (s.bytes == 8) return "long";
      return "int" + std::to_string(8 * s.bytes);
  }
  return "?";
}

std::string TypeName(const ValueType& type) {
  const std::string scalar = TypeName(type.scalar);
  return type.components == 1 ? scalar : scalar + std::to_string(type.components);
}

bool CheckOperands(const Request& req, std::initializer_list<ScalarType> scalars,
                   uint32_t components, bool broadcast) {
  if (req.operands.size() != scalars.size()) {
    req.Fail("expects " + std::to_string(scalars.size()) + " operand(s), got " +
             std::to_string(req.operands.size()));
    return false;
  }
  uint32_t j = 0;
  for (const ScalarType& want : scalars) {
    const ValueType& got = req.operands[j];
    const bool count_ok = got.components == components || (broadcast && got.components == 1);
    if (!(got.scalar == want) || !count_ok) {
      ValueType expected{want, components};
      req.Fail("operand " + std::to_string(j + 1) + " is " + TypeName(got) + ", expected " +
               TypeName(expected) +
               (broadcast && components > 1 ? " or " + TypeName(want) : std::string()) +
               " (result " + TypeName(req.result) + ")");
      return false;
    }
    ++j;
  }
  return true;
}

OpenCLStdCall MakeCall(const Request& req, OpenCLStdFn fn, ValueType second_result) {
  OpenCLStdCall call;
  call.fn = fn;
  call.result = req.result;
  call.operand_count = static_cast<uint32_t>(req.operands.size());
  for (uint32_t j = 0; j < call.operand_count && j < 3; ++j) call.operands[j] = req.operands[j];
  call.second_result = second_result;
  return call;
}

std::optional<OpenCLStdCall> BindCommon(const Request& req) {
  const uint32_t op = req.instruction;
  if (op == kBitselect || op == kSelect) return BindRelational(req);
  if (op >= kCross) return BindGeometric(req);
  const ScalarType s = req.result.scalar;
  if (!IsFloat(s)) return req.Fail("the result must be a float type, not " + TypeName(req.result));
  const uint32_t n = req.result.components;
  auto bind = [&](std::initializer_list<ScalarType> scalars, OpenCLStdFn f16, OpenCLStdFn f32,
                  OpenCLStdFn f64) -> std::optional<OpenCLStdCall> {
    if (!CheckOperands(req, scalars, n)) return std::nullopt;
    return MakeCall(req, ByFloatWidth(s.bytes, f16, f32, f64));
  };
  switch (op) {
    case kFclamp:
      return bind({s, s, s}, &Fclamp<F16>, &Fclamp<F32>, &Fclamp<F64>);
    case kDegrees:
      return bind({s}, &AngleUnits<F16, true>, &AngleUnits<F32, true>, &AngleUnits<F64, true>);
    case kRadians:
      return bind({s}, &AngleUnits<F16, false>, &AngleUnits<F32, false>, &AngleUnits<F64, false>);
    case kFmaxCommon:
      return bind({s, s}, &MinMaxCommon<F16, true>, &MinMaxCommon<F32, true>,
                  &MinMaxCommon<F64, true>);
    case kFminCommon:
      return bind({s, s}, &MinMaxCommon<F16, false>, &MinMaxCommon<F32, false>,
                  &MinMaxCommon<F64, false>);
    case kMix:
      return bind({s, s, s}, &Mix<F16>, &Mix<F32>, &Mix<F64>);
    case kStep:
      return bind({s, s}, &Step<F16>, &Step<F32>, &Step<F64>);
    case kSmoothstep:
      return bind({s, s, s}, &Smoothstep<F16>, &Smoothstep<F32>, &Smoothstep<F64>);
    case kSign:
      return bind({s}, &Sign<F16>, &Sign<F32>, &Sign<F64>);
  }
  return req.Fail("not a common instruction");
}

}  // namespace opencl_std_internal

std::string_view OpenCLStdInstructionName(uint32_t instruction) {
  const auto& names = opencl_std_internal::kNames;
  return instruction < std::size(names) ? names[instruction] : std::string_view();
}

std::optional<OpenCLStdCall> BindOpenCLStd(uint32_t instruction, const ValueType& result,
                                           std::span<const ValueType> operands,
                                           std::string* why_not) {
  using namespace opencl_std_internal;
  const Request req{instruction, result, operands, why_not};
  if (OpenCLStdInstructionName(instruction).empty()) {
    return req.Fail("no such instruction in OpenCL.std");
  }
  if (instruction >= kFirstExecutorOwned && instruction <= kLastExecutorOwned) {
    return req.Fail("reads or writes memory or reorders components; the executor runs it");
  }
  if (IsMathInstruction(instruction)) return BindMath(req);
  if (IsIntegerInstruction(instruction)) return BindInteger(req);
  return BindCommon(req);
}

}  // namespace xmx::interp
