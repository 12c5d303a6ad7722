// OpenCL.std integer instructions (141-170, 201-204). Integers are signless in SPIR-V, so every
// kernel works on the unsigned type of the width and the s_ forms reinterpret as signed.
// Saturation and the high halves are computed exactly in a type twice as wide.
#include <algorithm>
#include <bit>
#include <limits>
#include <type_traits>

#include "interp/opencl_std/opencl_std.hpp"

namespace xmx::interp::opencl_std_internal {
namespace {

// clang-format off
enum : uint32_t {
  kSAbs = 141, kSAbsDiff, kSAddSat, kUAddSat, kSHadd, kUHadd, kSRhadd, kURhadd, kSClamp, kUClamp,
  kClz, kCtz, kSMadHi, kUMadSat, kSMadSat, kSMax, kUMax, kSMin, kUMin, kSMulHi, kRotate, kSSubSat,
  kUSubSat, kUUpsample, kSUpsample, kPopcount, kSMad24, kUMad24, kSMul24, kUMul24, kUAbs = 201,
  kUAbsDiff, kUMulHi, kUMadHi,
};
// clang-format on

template <class U>
using Signed = std::make_signed_t<U>;
template <class U>
constexpr int kBits = 8 * sizeof(U);

// The unsigned and signed types of twice the width (spelled out: in strict C++ mode the type
// traits do not know __int128).
template <class U>
struct Twice;
template <>
struct Twice<uint8_t> {
  using type = uint16_t;
  using signed_type = int16_t;
};
template <>
struct Twice<uint16_t> {
  using type = uint32_t;
  using signed_type = int32_t;
};
template <>
struct Twice<uint32_t> {
  using type = uint64_t;
  using signed_type = int64_t;
};
template <>
struct Twice<uint64_t> {
  using type = unsigned __int128;
  using signed_type = __int128;
};
template <class U>
using U2 = typename Twice<U>::type;
template <class U>
using S2 = typename Twice<U>::signed_type;

// A wide value clamped to the range of the signed (kSigned) or unsigned type U; unsigned callers
// only saturate upward.
template <class U, bool kSigned, class W>
U Saturate(W value) {
  if constexpr (kSigned) {
    // The signed type's limits, not character data, when U is 8 bits wide.
    const W lo = std::numeric_limits<Signed<U>>::min();  // NOLINT(bugprone-signed-char-misuse)
    const W hi = std::numeric_limits<Signed<U>>::max();
    return static_cast<U>(static_cast<Signed<U>>(std::clamp(value, lo, hi)));
  } else {
    const W hi = std::numeric_limits<U>::max();
    return static_cast<U>(std::min(value, hi));
  }
}

template <class U>
S2<U> WideS(U x) {
  return static_cast<S2<U>>(static_cast<Signed<U>>(x));
}

// Each kernel: `template <class U> static U Apply(U...)` on the unsigned type of the width.
struct SAbs {
  template <class U>
  static U Apply(U x) {
    return static_cast<Signed<U>>(x) < 0 ? static_cast<U>(U(0) - x) : x;
  }
};
struct UAbs {
  template <class U>
  static U Apply(U x) {
    return x;
  }
};
// |x - y| is below 2^W, so the modular difference in the right order is exact.
struct SAbsDiff {
  template <class U>
  static U Apply(U x, U y) {
    return static_cast<Signed<U>>(x) > static_cast<Signed<U>>(y) ? U(x - y) : U(y - x);
  }
};
struct UAbsDiff {
  template <class U>
  static U Apply(U x, U y) {
    return x > y ? U(x - y) : U(y - x);
  }
};
struct SAddSat {
  template <class U>
  static U Apply(U x, U y) {
    return Saturate<U, true>(S2<U>(WideS(x) + WideS(y)));
  }
};
struct UAddSat {
  template <class U>
  static U Apply(U x, U y) {
    return Saturate<U, false>(U2<U>(U2<U>(x) + y));
  }
};
struct SSubSat {
  template <class U>
  static U Apply(U x, U y) {
    return Saturate<U, true>(S2<U>(WideS(x) - WideS(y)));
  }
};
struct USubSat {
  template <class U>
  static U Apply(U x, U y) {
    return x > y ? U(x - y) : U(0);
  }
};
struct SHadd {
  template <class U>
  static U Apply(U x, U y) {
    return static_cast<U>((WideS(x) + WideS(y)) >> 1);
  }
};
struct UHadd {
  template <class U>
  static U Apply(U x, U y) {
    return static_cast<U>((U2<U>(x) + y) >> 1);
  }
};
struct SRhadd {
  template <class U>
  static U Apply(U x, U y) {
    return static_cast<U>((WideS(x) + WideS(y) + 1) >> 1);
  }
};
struct URhadd {
  template <class U>
  static U Apply(U x, U y) {
    return static_cast<U>((U2<U>(x) + y + 1) >> 1);
  }
};
struct SClamp {
  template <class U>
  static U Apply(U x, U lo, U hi) {
    using S = Signed<U>;
    return static_cast<U>(std::min(std::max(S(x), S(lo)), S(hi)));
  }
};
struct UClamp {
  template <class U>
  static U Apply(U x, U lo, U hi) {
    return std::min(std::max(x, lo), hi);
  }
};
struct SMax {
  template <class U>
  static U Apply(U x, U y) {
    return Signed<U>(x) > Signed<U>(y) ? x : y;
  }
};
struct UMax {
  template <class U>
  static U Apply(U x, U y) {
    return x > y ? x : y;
  }
};
struct SMin {
  template <class U>
  static U Apply(U x, U y) {
    return Signed<U>(x) < Signed<U>(y) ? x : y;
  }
};
struct UMin {
  template <class U>
  static U Apply(U x, U y) {
    return x < y ? x : y;
  }
};
struct Clz {
  template <class U>
  static U Apply(U x) {
    return static_cast<U>(std::countl_zero(x));
  }
};
struct Ctz {
  template <class U>
  static U Apply(U x) {
    return static_cast<U>(std::countr_zero(x));
  }
};
struct Popcount {
  template <class U>
  static U Apply(U x) {
    return static_cast<U>(std::popcount(x));
  }
};
struct SMulHi {
  template <class U>
  static U Apply(U x, U y) {
    return static_cast<U>((WideS(x) * WideS(y)) >> kBits<U>);
  }
};
struct UMulHi {
  template <class U>
  static U Apply(U x, U y) {
    return static_cast<U>((U2<U>(x) * y) >> kBits<U>);
  }
};
struct SMadHi {
  template <class U>
  static U Apply(U a, U b, U c) {
    return static_cast<U>(SMulHi::Apply(a, b) + c);
  }
};
struct UMadHi {
  template <class U>
  static U Apply(U a, U b, U c) {
    return static_cast<U>(UMulHi::Apply(a, b) + c);
  }
};
// x*y+z fits the double width: |x*y| <= 2^(2W-2) signed, (2^W-1)^2 + 2^W-1 < 2^2W unsigned.
struct SMadSat {
  template <class U>
  static U Apply(U x, U y, U z) {
    return Saturate<U, true>(S2<U>(WideS(x) * WideS(y) + WideS(z)));
  }
};
struct UMadSat {
  template <class U>
  static U Apply(U x, U y, U z) {
    return Saturate<U, false>(U2<U>(U2<U>(x) * y + z));
  }
};
// OpenCL takes the shift modulo the width; a negative count, read as unsigned, rotates right.
struct Rotate {
  template <class U>
  static U Apply(U v, U i) {
    const unsigned r = static_cast<unsigned>(i) & (kBits<U> - 1);
    return r == 0 ? v : static_cast<U>((v << r) | (v >> (kBits<U> - r)));
  }
};
// mul24 is defined for operands in 24-bit range only; outside it, as on hardware with a 24-bit
// multiplier, only the low 24 bits (sign-extended for s_) take part. The product wraps to 32 bits.
struct SMul24 {
  template <class U>
  static U Apply(U x, U y) {
    const auto low24 = [](U v) { return int64_t{static_cast<int32_t>(uint32_t(v) << 8) >> 8}; };
    return static_cast<U>(static_cast<uint32_t>(low24(x) * low24(y)));
  }
};
struct UMul24 {
  template <class U>
  static U Apply(U x, U y) {
    return static_cast<U>(
        static_cast<uint32_t>(uint64_t{uint32_t(x) & 0xFFFFFFu} * (uint32_t(y) & 0xFFFFFFu)));
  }
};
struct SMad24 {
  template <class U>
  static U Apply(U x, U y, U z) {
    return static_cast<U>(SMul24::Apply(x, y) + z);
  }
};
struct UMad24 {
  template <class U>
  static U Apply(U x, U y, U z) {
    return static_cast<U>(UMul24::Apply(x, y) + z);
  }
};

template <class K, class U, int kArity>
void Run(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
         uint32_t lanes) {
  if constexpr (kArity == 1) {
    MapElements<U, U>(call, r, ops, lanes, [](U x) { return K::Apply(x); });
  } else if constexpr (kArity == 2) {
    MapElements<U, U, U>(call, r, ops, lanes, [](U x, U y) { return K::Apply(x, y); });
  } else {
    MapElements<U, U, U, U>(call, r, ops, lanes, [](U x, U y, U z) { return K::Apply(x, y, z); });
  }
}

template <class K, int kArity>
OpenCLStdFn ByWidth(uint32_t bytes) {
  switch (bytes) {
    case 1:
      return &Run<K, uint8_t, kArity>;
    case 2:
      return &Run<K, uint16_t, kArity>;
    case 4:
      return &Run<K, uint32_t, kArity>;
    default:
      return &Run<K, uint64_t, kArity>;
  }
}

// The bits of hi above those of lo; the signed and unsigned forms differ only in how OpenCL C
// types hi, not in the bits.
template <class U>
void Upsample(const OpenCLStdCall& call, uint8_t* r, const uint8_t* const* ops, uint8_t*,
              uint32_t lanes) {
  using W = U2<U>;
  MapElements<W, U, U>(call, r, ops, lanes,
                       [](U hi, U lo) { return static_cast<W>((W(hi) << kBits<U>) | lo); });
}

struct IntegerEntry {
  uint32_t instruction;
  int arity;
  OpenCLStdFn (*pick)(uint32_t bytes);
};

constexpr IntegerEntry kEntries[] = {
    {kSAbs, 1, &ByWidth<SAbs, 1>},       {kSAbsDiff, 2, &ByWidth<SAbsDiff, 2>},
    {kSAddSat, 2, &ByWidth<SAddSat, 2>}, {kUAddSat, 2, &ByWidth<UAddSat, 2>},
    {kSHadd, 2, &ByWidth<SHadd, 2>},     {kUHadd, 2, &ByWidth<UHadd, 2>},
    {kSRhadd, 2, &ByWidth<SRhadd, 2>},   {kURhadd, 2, &ByWidth<URhadd, 2>},
    {kSClamp, 3, &ByWidth<SClamp, 3>},   {kUClamp, 3, &ByWidth<UClamp, 3>},
    {kClz, 1, &ByWidth<Clz, 1>},         {kCtz, 1, &ByWidth<Ctz, 1>},
    {kSMadHi, 3, &ByWidth<SMadHi, 3>},   {kUMadSat, 3, &ByWidth<UMadSat, 3>},
    {kSMadSat, 3, &ByWidth<SMadSat, 3>}, {kSMax, 2, &ByWidth<SMax, 2>},
    {kUMax, 2, &ByWidth<UMax, 2>},       {kSMin, 2, &ByWidth<SMin, 2>},
    {kUMin, 2, &ByWidth<UMin, 2>},       {kSMulHi, 2, &ByWidth<SMulHi, 2>},
    {kRotate, 2, &ByWidth<Rotate, 2>},   {kSSubSat, 2, &ByWidth<SSubSat, 2>},
    {kUSubSat, 2, &ByWidth<USubSat, 2>}, {kPopcount, 1, &ByWidth<Popcount, 1>},
    {kSMad24, 3, &ByWidth<SMad24, 3>},   {kUMad24, 3, &ByWidth<UMad24, 3>},
    {kSMul24, 2, &ByWidth<SMul24, 2>},   {kUMul24, 2, &ByWidth<UMul24, 2>},
    {kUAbs, 1, &ByWidth<UAbs, 1>},       {kUAbsDiff, 2, &ByWidth<UAbsDiff, 2>},
    {kUMulHi, 2, &ByWidth<UMulHi, 2>},   {kUMadHi, 3, &ByWidth<UMadHi, 3>},
};

}  // namespace

bool IsIntegerInstruction(uint32_t instruction) {
  return (instruction >= kSAbs && instruction <= kUMul24) ||
         (instruction >= kUAbs && instruction <= kUMadHi);
}

std::optional<OpenCLStdCall> BindInteger(const Request& req) {
  const ScalarType s = req.result.scalar;
  const uint32_t n = req.result.components;
  if (req.instruction == kUUpsample || req.instruction == kSUpsample) {
    if (!IsInt(s) || s.bytes < 2) {
      return req.Fail("the result must be a short, int or long type, not " + TypeName(req.result));
    }
    const ScalarType half{ScalarKind::kInt, static_cast<uint8_t>(s.bytes / 2)};
    if (!CheckOperands(req, {half, half}, n)) return std::nullopt;
    OpenCLStdFn fn = s.bytes == 2   ? &Upsample<uint8_t>
                     : s.bytes == 4 ? &Upsample<uint16_t>
                                    : &Upsample<uint32_t>;
    return MakeCall(req, fn);
  }
  if (!IsInt(s)) {
    return req.Fail("the result must be an integer type, not " + TypeName(req.result));
  }
  const bool is24 = req.instruction >= kSMad24 && req.instruction <= kUMul24;
  if (is24 && s.bytes != 4) {
    return req.Fail("is defined for 32-bit integers only, not " + TypeName(req.result));
  }
  for (const IntegerEntry& entry : kEntries) {
    if (entry.instruction != req.instruction) continue;
    const bool ok = entry.arity == 1   ? CheckOperands(req, {s}, n)
                    : entry.arity == 2 ? CheckOperands(req, {s, s}, n)
                                       : CheckOperands(req, {s, s, s}, n);
    if (!ok) return std::nullopt;
    return MakeCall(req, entry.pick(s.bytes));
  }
  return req.Fail("not an integer instruction");
}

}  // namespace xmx::interp::opencl_std_internal
