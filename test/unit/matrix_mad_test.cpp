// MatrixMadKernel against a reference model written here from SPEC-NOTES B.4/B.7 and DECISIONS
// 1-3 and 10, sharing no code with source/interp: its own element decoding (plain arithmetic on
// the fields), its own register packing, integer dot products in int64, and float sums taken
// exactly in a big integer and rounded by hand (or, for the ordered model, step by step with the
// C library's fmaf).
#include "interp/matrix_mad.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace xmx::interp {
namespace {

// --- Reference element formats -----------------------------------------------------------------

enum class Fmt { kU4, kS4, kU8, kS8, kE2M1, kE4M3, kE5M2, kF16, kBF16, kTF32, kF32 };

bool IsInt(Fmt f) { return f <= Fmt::kS8; }
int BitsOf(Fmt f) {
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
Fields FieldsOf(Fmt f) {
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

Value DecodeRef(Fmt f, uint32_t bits) {
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

int64_t IntValue(Fmt f, uint32_t bits) {
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
constexpr int kBase = -400;

// (-1)^negative * magnitude * 2^kBase rounded to nearest even in format `f` (fp32, fp16, bf16).
uint32_t RoundRef(bool negative, const Big& magnitude, Fmt f) {
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

uint32_t NaNBits(Fmt f) {
  return f == Fmt::kF32 ? 0x7FC00000u : f == Fmt::kF16 ? 0x7E00u : 0x7FC0u;
}
uint32_t InfBits(Fmt f, bool negative) {
  const uint32_t bits = f == Fmt::kF32 ? 0x7F800000u : f == Fmt::kF16 ? 0x7C00u : 0x7F80u;
  return negative ? bits | (f == Fmt::kF32 ? 0x80000000u : 0x8000u) : bits;
}

// The exact model: C plus every product summed exactly, rounded once.
uint32_t ExactDot(const std::vector<Value>& a, const std::vector<Value>& b, const Value& c,
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

float ToFloat(const Value& v) {
  if (v.kind == Value::kNaN) return std::nanf("");
  if (v.kind == Value::kInf) return v.negative ? -INFINITY : INFINITY;
  const float x = std::ldexp(static_cast<float>(v.mantissa), v.exponent);
  return v.negative ? -x : x;
}

// The ordered model: fp32 fused multiply-adds in increasing k, then one rounding to the result.
uint32_t OrderedDot(const std::vector<Value>& a, const std::vector<Value>& b, const Value& c,
                    Fmt result) {
  float acc = ToFloat(c);
  for (size_t i = 0; i < a.size(); ++i) acc = std::fmaf(ToFloat(a[i]), ToFloat(b[i]), acc);
  if (std::isnan(acc)) return NaNBits(result);
  const uint32_t bits = std::bit_cast<uint32_t>(acc);
  if (result == Fmt::kF32) return bits;
  return ExactDot({}, {}, DecodeRef(Fmt::kF32, bits), result);  // one rounding of acc
}

// --- Shapes and register packing (SPEC-NOTES B.4, DECISIONS 10) --------------------------------

struct Case {
  std::string name;
  uint32_t sg, k, mask;
  Fmt a, b, c, result;  // element formats
  uint32_t a_bytes;     // A component width
  bool a_float_type;    // A components are float (tf32 / as-typed float)
  bool c_float_type;    // C / Result components are floats (else 16- or 32-bit ints)
  uint32_t m;
};

uint32_t FmtBytes(Fmt f) { return f == Fmt::kF32 ? 4 : f == Fmt::kF16 || f == Fmt::kBF16 ? 2 : 4; }

// Everything about where the elements live, worked out from the spec text.
struct Layout {
  uint32_t sg, halves, cols, m, half_rows, k;
  uint32_t a_bytes, c_fields, phases, per_phase, a_comps;
  uint32_t b_bits, per_word, b_comps, c_bytes, r_bytes;
};

Layout LayoutOf(const Case& t) {
  Layout l;
  l.sg = t.sg;
  l.halves = t.sg == 32 ? 2 : 1;
  l.cols = t.sg / l.halves;
  l.m = t.m;
  l.half_rows = t.m / l.halves;
  l.k = t.k;
  l.a_bytes = t.a_bytes;
  l.c_fields = t.a_bytes * 8 / BitsOf(t.a);
  l.per_phase = t.k / l.c_fields;
  l.phases = l.cols / l.per_phase;
  l.a_comps = (l.half_rows + l.phases - 1) / l.phases;
  l.b_bits = BitsOf(t.b);
  l.per_word = l.b_bits <= 16 ? 32 / l.b_bits : 1;
  l.b_comps = t.k / l.per_word / l.halves;
  l.c_bytes = IsInt(t.a) ? 4 : FmtBytes(t.c);
  l.r_bytes = IsInt(t.a) ? 4 : FmtBytes(t.result);
  return l;
}

MatrixMadShape ShapeOf(const Case& t) {
  const Layout l = LayoutOf(t);
  MatrixMadShape s;
  s.subgroup_size = t.sg;
  s.k = t.k;
  s.operands = t.mask;
  auto type = [](bool is_float, uint32_t bytes, uint32_t n) {
    return ValueType{
        {is_float ? ScalarKind::kFloat : ScalarKind::kInt, static_cast<uint8_t>(bytes)}, n};
  };
  s.a = type(t.a_float_type, t.a_bytes, l.a_comps);
  s.b = type(t.b == Fmt::kTF32 || t.b == Fmt::kF32, 4, l.b_comps);
  const bool c_float = !IsInt(t.a) && t.c_float_type && t.c != Fmt::kBF16;
  const bool r_float = !IsInt(t.a) && t.c_float_type && t.result != Fmt::kBF16;
  s.c = type(c_float, l.c_bytes, l.half_rows);
  s.result = type(r_float, l.r_bytes, l.half_rows);
  return s;
}

void PutBits(std::vector<uint8_t>& slot, size_t bit, uint32_t width, uint32_t value) {
  for (uint32_t i = 0; i < width; ++i) {
    const size_t at = bit + i;
    slot[at / 8] = static_cast<uint8_t>((slot[at / 8] & ~(1u << (at % 8))) |
                                        (((value >> i) & 1u) << (at % 8)));
  }
}
uint32_t GetBits(const std::vector<uint8_t>& slot, size_t bit, uint32_t width) {
  uint32_t v = 0;
  for (uint32_t i = 0; i < width; ++i) v |= ((slot[(bit + i) / 8] >> ((bit + i) % 8)) & 1u) << i;
  return v;
}

// Logical matrices of bit patterns: a[r][k], b[k][n], c[r][n].
struct Matrices {
  std::vector<std::vector<uint32_t>> a, b, c;
};

// Lane and component of element (row r, column n) of C / Result.
std::pair<uint32_t, uint32_t> CLocation(const Layout& l, uint32_t r, uint32_t n) {
  if (l.halves == 2) return {n + 16 * (r % 2), r / 2};
  return {n, r};
}

struct Slots {
  std::vector<uint8_t> a, b, c;
};

// Packs the matrices; bits no element maps to (ignored tf32 lanes) keep the random filler.
Slots Pack(const Case& t, const Matrices& x, std::mt19937& rng) {
  const Layout l = LayoutOf(t);
  const MatrixMadShape s = ShapeOf(t);
  Slots slots;
  auto filler = [&](const ValueType& type) {
    std::vector<uint8_t> v(type.lane_bytes() * t.sg);
    for (uint8_t& byte : v) byte = static_cast<uint8_t>(rng());
    return v;
  };
  slots.a = filler(s.a);
  slots.b = filler(s.b);
  slots.c = filler(s.c);
  const uint32_t a_bits = BitsOf(t.a);
  for (uint32_t h = 0; h < l.halves; ++h) {
    for (uint32_t i = 0; i < l.cols; ++i) {
      const uint32_t lane = h * 16 + i;
      const uint32_t phase = i / l.per_phase, group = i % l.per_phase;
      for (uint32_t comp = 0; comp < l.a_comps; ++comp) {
        const uint32_t local_row = comp * l.phases + phase;
        if (local_row >= l.half_rows) continue;  // ignored
        const uint32_t row = local_row * l.halves + h;
        for (uint32_t j = 0; j < l.c_fields; ++j) {
          const size_t bit = (size_t{lane} * s.a.lane_bytes() + comp * l.a_bytes) * 8 + j * a_bits;
          PutBits(slots.a, bit, a_bits, x.a[row][group * l.c_fields + j]);
        }
      }
    }
  }
  for (uint32_t n = 0; n < l.cols; ++n) {
    for (uint32_t w = 0; w < l.k / l.per_word; ++w) {
      const uint32_t lane = l.halves == 2 ? n + 16 * (w % 2) : n;
      const uint32_t comp = l.halves == 2 ? w / 2 : w;
      for (uint32_t e = 0; e < l.per_word; ++e) {
        const size_t bit = (size_t{lane} * s.b.lane_bytes() + comp * 4) * 8 + e * l.b_bits;
        PutBits(slots.b, bit, l.b_bits, x.b[w * l.per_word + e][n]);
      }
    }
  }
  for (uint32_t r = 0; r < l.m; ++r) {
    for (uint32_t n = 0; n < l.cols; ++n) {
      const auto [lane, comp] = CLocation(l, r, n);
      PutBits(slots.c, (size_t{lane} * s.c.lane_bytes() + comp * l.c_bytes) * 8, l.c_bytes * 8,
              x.c[r][n]);
    }
  }
  return slots;
}

// The reference result bits of element (r, n).
uint32_t Expected(const Case& t, const Matrices& x, uint32_t r, uint32_t n, MmaFloatModel model) {
  if (IsInt(t.a)) {
    int64_t sum = static_cast<int32_t>(x.c[r][n]);
    for (uint32_t k = 0; k < t.k; ++k) sum += IntValue(t.a, x.a[r][k]) * IntValue(t.b, x.b[k][n]);
    return static_cast<uint32_t>(sum);
  }
  std::vector<Value> a, b;
  for (uint32_t k = 0; k < t.k; ++k) {
    a.push_back(DecodeRef(t.a, x.a[r][k]));
    b.push_back(DecodeRef(t.b, x.b[k][n]));
  }
  const Value c = DecodeRef(t.c, x.c[r][n]);
  return model == MmaFloatModel::kExact ? ExactDot(a, b, c, t.result)
                                        : OrderedDot(a, b, c, t.result);
}

// Runs `t` on `x` and compares every element; returns the number of mismatches.
int CheckCase(const Case& t, const Matrices& x, MmaFloatModel model, MmaIsa isa, uint32_t seed) {
  std::mt19937 rng(seed);
  const Layout l = LayoutOf(t);
  const MatrixMadShape shape = ShapeOf(t);
  std::string why;
  const auto kernel = MatrixMadKernel::Prepare(shape, model, &why, isa);
  if (!kernel) {
    ADD_FAILURE() << t.name << " M=" << t.m << ": rejected: " << why;
    return 1;
  }
  EXPECT_EQ(kernel->m(), t.m);
  Slots s = Pack(t, x, rng);
  std::vector<uint8_t> result(shape.result.lane_bytes() * t.sg, 0xCD);
  // Half the runs write the result over C, which the kernel must allow.
  const bool in_place = (seed & 1) != 0 && shape.result.lane_bytes() == shape.c.lane_bytes();
  if (in_place) {
    kernel->Run(s.a.data(), s.b.data(), s.c.data(), s.c.data());
    result = s.c;
  } else {
    kernel->Run(s.a.data(), s.b.data(), s.c.data(), result.data());
  }
  int mismatches = 0;
  for (uint32_t r = 0; r < t.m; ++r) {
    for (uint32_t n = 0; n < l.cols; ++n) {
      const auto [lane, comp] = CLocation(l, r, n);
      const uint32_t got = GetBits(
          result, (size_t{lane} * shape.result.lane_bytes() + comp * l.r_bytes) * 8, l.r_bytes * 8);
      const uint32_t want = Expected(t, x, r, n, model);
      if (got != want && ++mismatches <= 3) {
        ADD_FAILURE() << t.name << " M=" << t.m << " model=" << static_cast<int>(model)
                      << " isa=" << static_cast<int>(kernel->isa()) << " row " << r << " col " << n
                      << ": got 0x" << std::hex << got << ", want 0x" << want;
      }
    }
  }
  return mismatches;
}

// --- Inputs ----------------------------------------------------------------------------------

// Patterns of `f` whose values are integers with |v| <= limit (NaN/Inf excluded), by decoding
// every pattern of the narrow formats; for fp32 / tf32 the integers are encoded directly.
std::vector<uint32_t> IntegerValued(Fmt f, int limit) {
  std::vector<uint32_t> out;
  if (BitsOf(f) == 32) {
    for (int v = -limit; v <= limit; ++v)
      out.push_back(std::bit_cast<uint32_t>(static_cast<float>(v)));
    return out;
  }
  for (uint32_t bits = 0; bits < (1u << BitsOf(f)); ++bits) {
    const Value v = DecodeRef(f, bits);
    if (v.kind != Value::kFinite) continue;
    const double mag = std::ldexp(static_cast<double>(v.mantissa), v.exponent);  // exact
    if (mag == std::floor(mag) && mag <= limit) out.push_back(bits);
  }
  return out;
}

uint32_t Pick(const std::vector<uint32_t>& from, std::mt19937& rng) {
  return from[rng() % from.size()];
}

// Matrices whose float sums are exact in any order (small integers), or random bits for integers.
Matrices SmallValued(const Case& t, std::mt19937& rng) {
  Matrices x;
  const uint32_t cols = t.sg == 32 ? 16 : t.sg;
  auto make = [&](uint32_t rows, uint32_t columns, Fmt f, int limit) {
    std::vector<std::vector<uint32_t>> v(rows, std::vector<uint32_t>(columns));
    const std::vector<uint32_t> choices =
        IsInt(f) ? std::vector<uint32_t>{} : IntegerValued(f, limit);
    for (auto& row : v) {
      for (uint32_t& e : row) {
        e = IsInt(f) ? static_cast<uint32_t>(rng()) & ((BitsOf(f) == 32 ? 0u : 1u << BitsOf(f)) - 1)
                     : Pick(choices, rng);
      }
    }
    return v;
  };
  x.a = make(t.m, t.k, t.a, 8);
  x.b = make(t.k, cols, t.b, 8);
  x.c = IsInt(t.a) ? make(t.m, cols, Fmt::kF32, 0) : make(t.m, cols, t.c, 64);
  if (IsInt(t.a)) {
    for (auto& row : x.c) {
      for (uint32_t& e : row) e = static_cast<uint32_t>(rng());
    }
  }
  return x;
}

// Random finite (or, with `specials`, any) patterns over the formats' whole ranges: sums that
// need the exact slow path, subnormals, overflow.
Matrices WideRandom(const Case& t, std::mt19937& rng, bool specials) {
  Matrices x;
  const uint32_t cols = t.sg == 32 ? 16 : t.sg;
  auto pattern = [&](Fmt f) {
    for (;;) {
      uint32_t bits = static_cast<uint32_t>(rng());
      if (BitsOf(f) < 32) bits &= (1u << BitsOf(f)) - 1;
      // A fifth of the values tiny or zero, so products spread far apart.
      if (rng() % 5 == 0 && BitsOf(f) >= 16) bits &= f == Fmt::kF16 ? 0x83FFu : 0x807FFFFFu;
      if (specials || DecodeRef(f, bits).kind == Value::kFinite) return bits;
    }
  };
  auto make = [&](uint32_t rows, uint32_t columns, Fmt f) {
    std::vector<std::vector<uint32_t>> v(rows, std::vector<uint32_t>(columns));
    for (auto& row : v) {
      for (uint32_t& e : row) e = pattern(f);
    }
    return v;
  };
  x.a = make(t.m, t.k, t.a);
  x.b = make(t.k, cols, t.b);
  x.c = make(t.m, cols, t.c);
  return x;
}

// --- The rows of SPEC-NOTES B.5 ----------------------------------------------------------------

Case IntRow(uint32_t sg, uint32_t k, uint32_t mask, uint32_t a_bytes, bool int4) {
  const bool sa = (mask & 1) != 0, sb = (mask & 2) != 0;
  const Fmt a = int4 ? (sa ? Fmt::kS4 : Fmt::kU4) : (sa ? Fmt::kS8 : Fmt::kU8);
  const Fmt b = int4 ? (sb ? Fmt::kS4 : Fmt::kU4) : (sb ? Fmt::kS8 : Fmt::kU8);
  char name[64];
  std::snprintf(name, sizeof name, "SG%u %s mask 0x%X", sg, int4 ? "int4" : "int8", mask);
  return {name, sg, k, mask, a, b, Fmt::kU8, Fmt::kU8, a_bytes, false, false, 0};
}

std::vector<Case> B5Rows() {
  std::vector<Case> rows;
  for (uint32_t signs = 0; signs < 4; ++signs) {
    rows.push_back(IntRow(8, 32, 0x30 | signs, 4, false));
    rows.push_back(IntRow(8, 64, 0xC0 | signs, 4, true));
    rows.push_back(IntRow(16, 32, 0x30 | signs, 2, false));
    rows.push_back(IntRow(16, 64, 0xC0 | signs, 2, true));
  }
  using F = Fmt;
  // name, sg, k, mask, a, b, c, result, a_bytes, a float type, c/result float type
  rows.push_back({"SG8 fp16", 8, 16, 0xC00, F::kF16, F::kF16, F::kF32, F::kF32, 4, false, true, 0});
  rows.push_back(
      {"SG8 bf16", 8, 16, 0x3000, F::kBF16, F::kBF16, F::kF32, F::kF32, 4, false, true, 0});
  rows.push_back(
      {"SG16 fp16", 16, 16, 0xC00, F::kF16, F::kF16, F::kF32, F::kF32, 2, false, true, 0});
  rows.push_back(
      {"SG16 bf16", 16, 16, 0x3000, F::kBF16, F::kBF16, F::kF32, F::kF32, 2, false, true, 0});
  rows.push_back(
      {"SG16 fp16 -> fp16", 16, 16, 0xC00, F::kF16, F::kF16, F::kF16, F::kF16, 2, false, true, 0});
  rows.push_back({"SG16 bf16 -> bf16", 16, 16, 0x300C, F::kBF16, F::kBF16, F::kBF16, F::kBF16, 2,
                  false, false, 0});
  rows.push_back(
      {"SG16 tf32", 16, 8, 0x300, F::kTF32, F::kTF32, F::kF32, F::kF32, 4, true, true, 0});
  const std::pair<uint32_t, F> fp8[] = {{0x4000, F::kE4M3}, {0x10000, F::kE5M2}};
  for (const auto& [a_bit, a_fmt] : fp8) {
    for (const auto& [b_bit, b_fmt] : fp8) {
      const std::string name = std::string("SG16 fp8 ") + (a_fmt == F::kE4M3 ? "E4M3" : "E5M2") +
                               " x " + (b_fmt == F::kE4M3 ? "E4M3" : "E5M2");
      const uint32_t mask = a_bit | (b_bit << 1);
      rows.push_back({name, 16, 32, mask, a_fmt, b_fmt, F::kF32, F::kF32, 2, false, true, 0});
      rows.push_back({name + " -> bf16", 16, 32, mask | 0xC, a_fmt, b_fmt, F::kBF16, F::kBF16, 2,
                      false, false, 0});
    }
  }
  rows.push_back(
      {"SG16 fp4", 16, 64, 0xC0000, F::kE2M1, F::kE2M1, F::kF32, F::kF32, 2, false, true, 0});
  rows.push_back({"SG16 fp4 -> bf16", 16, 64, 0xC000C, F::kE2M1, F::kE2M1, F::kBF16, F::kBF16, 2,
                  false, false, 0});
  return rows;
}

// The SG16 rows in the paired subgroup-size-32 form (DECISIONS 10).
std::vector<Case> PairedRows() {
  std::vector<Case> rows;
  for (Case t : B5Rows()) {
    if (t.sg != 16) continue;
    t.sg = 32;
    t.name = "SG32 paired " + t.name.substr(5);
    rows.push_back(t);
  }
  return rows;
}

std::vector<uint32_t> MsFor(const Case& t) {
  return t.sg == 32 ? std::vector<uint32_t>{2, 4, 8} : std::vector<uint32_t>{1, 2, 4, 8};
}

// kBest is AVX-512 on the development machine; AVX2 and portable are what other CPUs get.
const MmaIsa kIsas[] = {MmaIsa::kBest, MmaIsa::kAvx2, MmaIsa::kPortable};
const MmaFloatModel kModels[] = {MmaFloatModel::kExact, MmaFloatModel::kOrdered};

void CheckRows(const std::vector<Case>& rows, uint32_t repeats) {
  uint32_t seed = 1;
  for (Case t : rows) {
    for (uint32_t m : MsFor(t)) {
      t.m = m;
      for (uint32_t rep = 0; rep < repeats; ++rep) {
        std::mt19937 rng(++seed);
        const Matrices x = SmallValued(t, rng);
        for (MmaIsa isa : kIsas) {
          for (MmaFloatModel model : kModels) {
            if (IsInt(t.a) && model == MmaFloatModel::kOrdered) continue;
            CheckCase(t, x, model, isa, seed);
          }
        }
      }
    }
  }
}

TEST(MatrixMadRows, EveryB5RowAndM) { CheckRows(B5Rows(), 3); }

TEST(MatrixMadRows, PairedSubgroup32) { CheckRows(PairedRows(), 3); }

// Shapes B.3/B.4 define beyond the B.5 table: M not a power of two, subgroup size 8 with a
// 32-bit tf32 A, 32-bit components holding four int8 at subgroup size 16, int8 A against int4 B,
// fp16 A against bf16 B, fp32 elements read as they are, a subgroup of 4 (the extension's
// examples), and row phases with packed elements.
TEST(MatrixMadRows, OtherConsistentShapes) {
  using F = Fmt;
  std::vector<Case> rows = {
      {"SG16 int8 M3", 16, 32, 0x33, F::kS8, F::kS8, F::kU8, F::kU8, 2, false, false, 3},
      {"SG16 bf16 M5", 16, 16, 0x3000, F::kBF16, F::kBF16, F::kF32, F::kF32, 2, false, true, 5},
      {"SG16 bf16 -> bf16 M7", 16, 16, 0x300C, F::kBF16, F::kBF16, F::kBF16, F::kBF16, 2, false,
       false, 7},
      {"SG16 fp16 M6", 16, 16, 0xC00, F::kF16, F::kF16, F::kF32, F::kF32, 2, false, true, 6},
      {"SG16 tf32 M3", 16, 8, 0x300, F::kTF32, F::kTF32, F::kF32, F::kF32, 4, true, true, 3},
      {"SG16 tf32 M5", 16, 8, 0x300, F::kTF32, F::kTF32, F::kF32, F::kF32, 4, true, true, 5},
      {"SG32 paired int8 M6", 32, 32, 0x31, F::kS8, F::kU8, F::kU8, F::kU8, 2, false, false, 6},
      {"SG32 paired tf32 M6", 32, 8, 0x300, F::kTF32, F::kTF32, F::kF32, F::kF32, 4, true, true, 6},
      {"SG8 tf32", 8, 8, 0x300, F::kTF32, F::kTF32, F::kF32, F::kF32, 4, true, true, 8},
      {"SG16 int8 in int32", 16, 64, 0x33, F::kS8, F::kS8, F::kU8, F::kU8, 4, false, false, 8},
      {"SG16 int8 x int4", 16, 32, 0x93, F::kS8, F::kS4, F::kU8, F::kU8, 2, false, false, 4},
      {"SG16 fp16 x bf16", 16, 16, 0x2400, F::kF16, F::kBF16, F::kF32, F::kF32, 2, false, true, 8},
      {"SG16 fp32 as typed", 16, 16, 0, F::kF32, F::kF32, F::kF32, F::kF32, 4, true, true, 4},
      {"SG16 fp16 as typed", 16, 16, 0, F::kF16, F::kF32, F::kF32, F::kF32, 2, true, true, 4},
      {"SG4 int8", 4, 8, 0x30, F::kU8, F::kU8, F::kU8, F::kU8, 2, false, false, 2},
      {"SG16 int8 phases", 16, 16, 0x33, F::kS8, F::kS8, F::kU8, F::kU8, 2, false, false, 5},
      {"SG16 fp8 phases", 16, 16, 0xC000, F::kE4M3, F::kE4M3, F::kF32, F::kF32, 2, false, true, 3},
      {"SG16 M16 bf16", 16, 16, 0x3000, F::kBF16, F::kBF16, F::kF32, F::kF32, 2, false, true, 16},
      {"SG16 M16 int4", 16, 64, 0xC3, F::kS4, F::kS4, F::kU8, F::kU8, 2, false, false, 16},
      {"SG16 M12 int8", 16, 32, 0x30, F::kU8, F::kU8, F::kU8, F::kU8, 2, false, false, 12},
  };
  uint32_t seed = 100;
  for (const Case& t : rows) {
    for (int rep = 0; rep < 3; ++rep) {
      std::mt19937 rng(++seed);
      const Matrices x = SmallValued(t, rng);
      for (MmaIsa isa : kIsas) {
        for (MmaFloatModel model : kModels) {
          if (IsInt(t.a) && model == MmaFloatModel::kOrdered) continue;
          CheckCase(t, x, model, isa, seed);
        }
      }
    }
  }
}

// Random integers over their whole ranges (fixed seeds), C over all of int32: signedness and
// wrap-around in bulk.
TEST(MatrixMadIntegers, RandomInputs) {
  uint32_t seed = 500;
  for (Case t : B5Rows()) {
    if (!IsInt(t.a)) continue;
    t.m = 8;
    for (int rep = 0; rep < 4; ++rep) {
      std::mt19937 rng(++seed);
      const Matrices x = SmallValued(t, rng);  // integer inputs are random bits
      for (MmaIsa isa : kIsas) CheckCase(t, x, MmaFloatModel::kExact, isa, seed);
    }
  }
}

// Random patterns over the float formats' whole ranges: products far apart (the exact slow
// path), subnormals, overflow, rounding of the exact sum to fp32, fp16 and bf16, against the
// big-integer reference; the ordered model against fmaf steps.
TEST(MatrixMadFloats, WideRandomInputs) {
  uint32_t seed = 900;
  std::vector<Case> rows;
  for (const std::vector<Case>& group : {B5Rows(), PairedRows()}) {
    for (const Case& t : group) {
      if (!IsInt(t.a)) rows.push_back(t);
    }
  }
  using F = Fmt;
  rows.push_back(
      {"SG16 fp32 as typed", 16, 16, 0, F::kF32, F::kF32, F::kF32, F::kF32, 4, true, true, 0});
  rows.push_back(
      {"SG16 fp16 x fp32", 16, 16, 0, F::kF16, F::kF32, F::kF16, F::kF32, 2, true, true, 0});
  rows.push_back({"SG8 tf32 x fp32 -> fp16", 8, 8, 0x100, F::kTF32, F::kF32, F::kF32, F::kF16, 4,
                  true, true, 0});
  for (Case t : rows) {
    t.m = 8;
    for (int rep = 0; rep < 3; ++rep) {
      std::mt19937 rng(++seed);
      const Matrices x = WideRandom(t, rng, /*specials=*/rep == 2);
      for (MmaIsa isa : kIsas) {
        for (MmaFloatModel model : kModels) CheckCase(t, x, model, isa, seed);
      }
    }
  }
}

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
