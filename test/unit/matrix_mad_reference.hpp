// The matrix tests' reference arithmetic, written from SPEC-NOTES B.4/B.7 and DECISIONS 1-3,
// sharing no code with source/interp: element decoding by plain arithmetic on the fields,
// integer dot products in int64, float sums taken exactly in a big integer and rounded by hand
// (or, for the ordered model, step by step with the C library's fmaf).
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "interp/matrix_mad/matrix_mad.hpp"

namespace xmx::interp::mma_reference {

// --- Reference element formats -----------------------------------------------------------------

enum class Fmt { kU4, kS4, kU8, kS8, kE2M1, kE4M3, kE5M2, kF16, kBF16, kTF32, kF32 };

inline bool IsInt(Fmt f) { return f <= Fmt::kS8; }
inline int BitsOf(Fmt f) {
  switch (f) {
    case Fmt::kU4:
    case Fmt::kS4:
    case Fmt::kE2M1:
      return 4;
    case Fmt::kU8:
    case Fmt::kS8:
    case Fmt::kE4M3:
    case Fmt::kE5M2:
      return 8;
    case Fmt::kF16:
    case Fmt::kBF16:
      return 16;
    default:
      return 32;
  }
}

// A float format's fields. `ieee`: the all-ones exponent holds Inf/NaN; otherwise only
// `nan_magnitude` (if non-zero) is NaN.
struct Fields {
  int exponent_bits, mantissa_bits;
  bool ieee;
  uint32_t nan_magnitude;
};
inline Fields FieldsOf(Fmt f) {
  switch (f) {
    case Fmt::kE2M1:
      return {2, 1, false, 0};
    case Fmt::kE4M3:
      return {4, 3, false, 0x7F};
    case Fmt::kE5M2:
      return {5, 2, true, 0};
    case Fmt::kF16:
      return {5, 10, true, 0};
    case Fmt::kBF16:
      return {8, 7, true, 0};
    default:
      return {8, 23, true, 0};  // fp32, and tf32 once truncated
  }
}

// A value: finite (-1)^negative * mantissa * 2^exponent, or Inf, or NaN.
struct Value {
  enum Kind { kFinite, kInf, kNaN } kind = kFinite;
  bool negative = false;
  uint64_t mantissa = 0;
  int exponent = 0;
  bool IsZero() const { return kind == kFinite && mantissa == 0; }
};

inline Value DecodeRef(Fmt f, uint32_t bits) {
  if (f == Fmt::kTF32) bits &= 0xFFFFE000u;  // only the upper 19 bits count (DECISIONS 3)
  const Fields d = FieldsOf(f);
  const int width = 1 + d.exponent_bits + d.mantissa_bits;
  Value v;
  v.negative = ((bits >> (width - 1)) & 1) != 0;
  const uint32_t magnitude = bits & ((1u << (width - 1)) - 1);
  const uint32_t e = magnitude >> d.mantissa_bits;
  const uint32_t m = magnitude & ((1u << d.mantissa_bits) - 1);
  const uint32_t e_max = (1u << d.exponent_bits) - 1;
  const int bias = (1 << (d.exponent_bits - 1)) - 1;
  if (d.ieee && e == e_max) {
    v.kind = m == 0 ? Value::kInf : Value::kNaN;
  } else if (!d.ieee && d.nan_magnitude != 0 && magnitude == d.nan_magnitude) {
    v.kind = Value::kNaN;
  } else if (e == 0) {
    v.mantissa = m;
    v.exponent = 1 - bias - d.mantissa_bits;
  } else {
    v.mantissa = m | (1u << d.mantissa_bits);
    v.exponent = static_cast<int>(e) - bias - d.mantissa_bits;
  }
  return v;
}

inline int64_t IntValue(Fmt f, uint32_t bits) {
  switch (f) {
    case Fmt::kS4:
      return (bits & 8) != 0 ? static_cast<int64_t>(bits & 0xF) - 16 : bits & 0xF;
    case Fmt::kS8:
      return (bits & 0x80) != 0 ? static_cast<int64_t>(bits & 0xFF) - 256 : bits & 0xFF;
    default:
      return bits;
  }
}

// --- Exact sums ------------------------------------------------------------------------------

// A non-negative integer in base 2^32 limbs.
struct Big {
  std::vector<uint32_t> limbs;
  void AddShifted(uint64_t m, int shift) {
    const size_t need = static_cast<size_t>(shift / 32) + 4;
    if (limbs.size() < need) limbs.resize(need, 0);
    unsigned __int128 carry = static_cast<unsigned __int128>(m) << (shift % 32);
    for (size_t i = static_cast<size_t>(shift / 32); carry != 0; ++i) {
      if (i == limbs.size()) limbs.push_back(0);
      carry += limbs[i];
      limbs[i] = static_cast<uint32_t>(carry);
      carry >>= 32;
    }
  }
  int BitLength() const {
    for (size_t i = limbs.size(); i-- > 0;) {
      if (limbs[i] != 0) return static_cast<int>(i * 32) + 32 - std::countl_zero(limbs[i]);
    }
    return 0;
  }
  bool Bit(int i) const {
    const size_t limb = static_cast<size_t>(i / 32);
    return i >= 0 && limb < limbs.size() && ((limbs[limb] >> (i % 32)) & 1) != 0;
  }
  int Compare(const Big& o) const {
    for (size_t i = std::max(limbs.size(), o.limbs.size()); i-- > 0;) {
      const uint32_t x = i < limbs.size() ? limbs[i] : 0, y = i < o.limbs.size() ? o.limbs[i] : 0;
      if (x != y) return x < y ? -1 : 1;
    }
    return 0;
  }
  Big Minus(const Big& o) const {  // *this >= o
    Big r = *this;
    int64_t borrow = 0;
    for (size_t i = 0; i < r.limbs.size(); ++i) {
      int64_t d = static_cast<int64_t>(r.limbs[i]) - borrow -
                  (i < o.limbs.size() ? static_cast<int64_t>(o.limbs[i]) : 0);
      borrow = d < 0 ? 1 : 0;
      r.limbs[i] = static_cast<uint32_t>(d + (borrow << 32));
    }
    return r;
  }
};

// Bit 0 of the sums below weighs 2^kBase: below every product of two decoded elements.
inline constexpr int kBase = -400;

// (-1)^negative * magnitude * 2^kBase rounded to nearest even in format `f` (fp32, fp16, bf16).
inline uint32_t RoundRef(bool negative, const Big& magnitude, Fmt f) {
  const Fields d = FieldsOf(f);
  const int width = 1 + d.exponent_bits + d.mantissa_bits, p = d.mantissa_bits + 1;
  const int bias = (1 << (d.exponent_bits - 1)) - 1, e_min = 1 - bias;
  const uint32_t sign = negative ? 1u << (width - 1) : 0;
  const int length = magnitude.BitLength();
  if (length == 0) return sign;
  const int exponent = length - 1 + kBase;                  // of the leading bit
  const int quantum = std::max(exponent, e_min) - (p - 1);  // exponent of the last kept bit
  const int cut = quantum - kBase;                          // first kept bit of `magnitude`
  uint64_t kept = 0;
  for (int i = length - 1; i >= std::max(cut, 0); --i) kept = (kept << 1) | magnitude.Bit(i);
  if (cut < 0) kept <<= -cut;
  bool sticky = false;  // any bit below the rounding bit cut - 1
  for (int i = 0; i < cut - 1 && !sticky; ++i) {
    if (i % 32 == 0 && i + 32 <= cut - 1 && magnitude.limbs[static_cast<size_t>(i / 32)] == 0) {
      i += 31;  // a whole zero limb
      continue;
    }
    sticky = magnitude.Bit(i);
  }
  if (cut > 0 && magnitude.Bit(cut - 1) && (sticky || (kept & 1) != 0)) ++kept;
  // kept * 2^quantum, kept < 2^p (or == 2^p after a carry).
  int field_exponent = quantum + (p - 1) + bias;
  if (kept >= (uint64_t{1} << p)) {
    kept >>= 1;
    ++field_exponent;
  }
  if (kept < (uint64_t{1} << (p - 1))) return sign | static_cast<uint32_t>(kept);  // subnormal
  if (field_exponent >= (1 << d.exponent_bits) - 1) {
    return sign | (((1u << d.exponent_bits) - 1) << d.mantissa_bits);  // infinity
  }
  return sign | (static_cast<uint32_t>(field_exponent) << d.mantissa_bits) |
         static_cast<uint32_t>(kept & ((uint64_t{1} << d.mantissa_bits) - 1));
}

inline uint32_t NaNBits(Fmt f) {
  return f == Fmt::kF32 ? 0x7FC00000u : f == Fmt::kF16 ? 0x7E00u : 0x7FC0u;
}
inline uint32_t InfBits(Fmt f, bool negative) {
  const uint32_t bits = f == Fmt::kF32 ? 0x7F800000u : f == Fmt::kF16 ? 0x7C00u : 0x7F80u;
  return negative ? bits | (f == Fmt::kF32 ? 0x80000000u : 0x8000u) : bits;
}

// The exact model: C plus every product summed exactly, rounded once.
inline uint32_t ExactDot(const std::vector<Value>& a, const std::vector<Value>& b, const Value& c,
                         Fmt result) {
  Big positive, negative;
  bool nan = c.kind == Value::kNaN, pos_inf = false, neg_inf = false;
  bool all_negative_zero = c.IsZero() && c.negative;
  auto add_inf = [&](bool neg) { (neg ? neg_inf : pos_inf) = true; };
  if (c.kind == Value::kInf) add_inf(c.negative);
  if (c.kind == Value::kFinite && c.mantissa != 0) {
    (c.negative ? negative : positive).AddShifted(c.mantissa, c.exponent - kBase);
  }
  for (size_t i = 0; i < a.size(); ++i) {
    const bool neg = a[i].negative != b[i].negative;
    if (a[i].kind == Value::kNaN || b[i].kind == Value::kNaN) {
      nan = true;
    } else if (a[i].kind == Value::kInf || b[i].kind == Value::kInf) {
      if (a[i].IsZero() || b[i].IsZero()) nan = true;
      add_inf(neg);
    } else if (a[i].mantissa == 0 || b[i].mantissa == 0) {
      all_negative_zero = all_negative_zero && neg;
    } else {
      all_negative_zero = false;
      (neg ? negative : positive)
          .AddShifted(a[i].mantissa * b[i].mantissa, a[i].exponent + b[i].exponent - kBase);
    }
  }
  if (nan || (pos_inf && neg_inf)) return NaNBits(result);
  if (pos_inf || neg_inf) return InfBits(result, neg_inf);
  const int order = positive.Compare(negative);
  if (order == 0) return RoundRef(all_negative_zero, Big{}, result);
  return order > 0 ? RoundRef(false, positive.Minus(negative), result)
                   : RoundRef(true, negative.Minus(positive), result);
}

inline float ToFloat(const Value& v) {
  if (v.kind == Value::kNaN) return std::nanf("");
  if (v.kind == Value::kInf) return v.negative ? -INFINITY : INFINITY;
  const float x = std::ldexp(static_cast<float>(v.mantissa), v.exponent);
  return v.negative ? -x : x;
}

// The ordered model: fp32 fused multiply-adds in increasing k, then one rounding to the result.
inline uint32_t OrderedDot(const std::vector<Value>& a, const std::vector<Value>& b, const Value& c,
                           Fmt result) {
  float acc = ToFloat(c);
  for (size_t i = 0; i < a.size(); ++i) acc = std::fmaf(ToFloat(a[i]), ToFloat(b[i]), acc);
  if (std::isnan(acc)) return NaNBits(result);
  const uint32_t bits = std::bit_cast<uint32_t>(acc);
  if (result == Fmt::kF32) return bits;
  return ExactDot({}, {}, DecodeRef(Fmt::kF32, bits), result);  // one rounding of acc
}

}  // namespace xmx::interp::mma_reference
