// What the matrix tests share beyond the reference arithmetic: test cases (SPEC-NOTES B.5 shapes),
// the register packing of B.4 and DECISIONS 10 done independently of source/interp, running
// one case through MatrixMadKernel and comparing every element, and input generators.
#pragma once

#include "matrix_mad_reference.hpp"

namespace xmx::interp::mma_reference {

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

inline uint32_t FmtBytes(Fmt f) {
  return f == Fmt::kF32 ? 4 : f == Fmt::kF16 || f == Fmt::kBF16 ? 2 : 4;
}

// Everything about where the elements live, worked out from the spec text.
struct Layout {
  uint32_t sg, halves, cols, m, half_rows, k;
  uint32_t a_bytes, c_fields, phases, per_phase, a_comps;
  uint32_t b_bits, per_word, b_comps, c_bytes, r_bytes;
};

inline Layout LayoutOf(const Case& t) {
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

inline MatrixMadShape ShapeOf(const Case& t) {
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

inline void PutBits(std::vector<uint8_t>& slot, size_t bit, uint32_t width, uint32_t value) {
  for (uint32_t i = 0; i < width; ++i) {
    const size_t at = bit + i;
    slot[at / 8] = static_cast<uint8_t>((slot[at / 8] & ~(1u << (at % 8))) |
                                        (((value >> i) & 1u) << (at % 8)));
  }
}
inline uint32_t GetBits(const std::vector<uint8_t>& slot, size_t bit, uint32_t width) {
  uint32_t v = 0;
  for (uint32_t i = 0; i < width; ++i) v |= ((slot[(bit + i) / 8] >> ((bit + i) % 8)) & 1u) << i;
  return v;
}

// Logical matrices of bit patterns: a[r][k], b[k][n], c[r][n].
struct Matrices {
  std::vector<std::vector<uint32_t>> a, b, c;
};

// Lane and component of element (row r, column n) of C / Result.
inline std::pair<uint32_t, uint32_t> CLocation(const Layout& l, uint32_t r, uint32_t n) {
  if (l.halves == 2) return {n + 16 * (r % 2), r / 2};
  return {n, r};
}

struct Slots {
  std::vector<uint8_t> a, b, c;
};

// Packs the matrices; bits no element maps to (ignored tf32 lanes) keep the random filler.
inline Slots Pack(const Case& t, const Matrices& x, std::mt19937& rng) {
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
inline uint32_t Expected(const Case& t, const Matrices& x, uint32_t r, uint32_t n,
                         MmaFloatModel model) {
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
inline int CheckCase(const Case& t, const Matrices& x, MmaFloatModel model, MmaIsa isa,
                     uint32_t seed) {
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
inline std::vector<uint32_t> IntegerValued(Fmt f, int limit) {
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

inline uint32_t Pick(const std::vector<uint32_t>& from, std::mt19937& rng) {
  return from[rng() % from.size()];
}

// Matrices whose float sums are exact in any order (small integers), or random bits for integers.
inline Matrices SmallValued(const Case& t, std::mt19937& rng) {
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
inline Matrices WideRandom(const Case& t, std::mt19937& rng, bool specials) {
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

// The instruction-set families and float models every comparison runs through (kBest is
// AVX-512 on the development machine; AVX2 and portable are what other CPUs get).
inline const MmaIsa kIsas[] = {MmaIsa::kBest, MmaIsa::kAvx2, MmaIsa::kPortable};
inline const MmaFloatModel kModels[] = {MmaFloatModel::kExact, MmaFloatModel::kOrdered};

// A B.5 integer row: int8 (K 32) or int4 (K 64) with operand bits `mask`.
inline Case IntRow(uint32_t sg, uint32_t k, uint32_t mask, uint32_t a_bytes, bool int4) {
  const bool sa = (mask & 1) != 0, sb = (mask & 2) != 0;
  const Fmt a = int4 ? (sa ? Fmt::kS4 : Fmt::kU4) : (sa ? Fmt::kS8 : Fmt::kU8);
  const Fmt b = int4 ? (sb ? Fmt::kS4 : Fmt::kU4) : (sb ? Fmt::kS8 : Fmt::kU8);
  char name[64];
  std::snprintf(name, sizeof name, "SG%u %s mask 0x%X", sg, int4 ? "int4" : "int8", mask);
  return {name, sg, k, mask, a, b, Fmt::kU8, Fmt::kU8, a_bytes, false, false, 0};
}

}  // namespace xmx::interp::mma_reference
