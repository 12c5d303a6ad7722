// Reading A and B out of their register slots (matrix_mad_kernels.cpp explains the whole run):
// every element format's value, the working layouts, and the exponent ranges the exact float
// model needs. Templates shared by the instruction-set families; internal.
#pragma once

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "interp/matrix_mad/matrix_mad_internal.hpp"

namespace xmx::interp::matrix_mad_detail {

// --- 1. Element values ------------------------------------------------------------------------

// int4 / int8 become int16 (the integer kernel multiplies int16 pairs); every float format
// becomes double, exactly.
template <Element kElement>
using ValueOf = std::conditional_t<(kElement <= Element::kInt8), int16_t, double>;

// The values of every pattern of the 8-bit and 4-bit float formats, from DecodeFloat. Filled by
// SelectKernels (so before the first kernel exists; matrix_mad_kernels.cpp), so that the unpack
// loops read them without an initialization check.
struct NarrowFloatTables {
  double e4m3[256], e5m2[256], e2m1[16];
};
extern NarrowFloatTables narrow_floats;

// The value of one element's bit pattern (in the low bits of `bits`, nothing above them).
template <Element kElement>
XMX_MMA_INLINE ValueOf<kElement> ElementValue(uint32_t bits) {
  if constexpr (kElement == Element::kInt8) {
    return static_cast<int8_t>(bits);
  } else if constexpr (kElement == Element::kInt4) {
    return static_cast<int16_t>(static_cast<int32_t>(bits ^ 8u) - 8);
  } else if constexpr (kElement == Element::kUint4 || kElement == Element::kUint8) {
    return static_cast<int16_t>(bits);
  } else if constexpr (kElement == Element::kFloat8E4M3) {
    return narrow_floats.e4m3[bits];
  } else if constexpr (kElement == Element::kFloat8E5M2) {
    return narrow_floats.e5m2[bits];
  } else if constexpr (kElement == Element::kFloat4E2M1) {
    return narrow_floats.e2m1[bits];
  } else if constexpr (kElement == Element::kHalf) {
    return HalfBitsToFloat(bits);
  } else if constexpr (kElement == Element::kBFloat16) {
    return std::bit_cast<float>(bits << 16);
  } else if constexpr (kElement == Element::kTf32) {
    return std::bit_cast<float>(bits & 0xFFFFE000u);  // DECISIONS 3: the upper 19 bits only
  } else {
    return std::bit_cast<float>(bits);
  }
}

// --- 2. Unpacking ---------------------------------------------------------------------------

// Element j of a component (or of a column's bit stream), the lower elements in the lower bits.
template <uint32_t kBits>
XMX_MMA_INLINE uint32_t Field(const uint8_t* p, uint32_t j) {
  if constexpr (kBits == 4) {
    return (p[j >> 1] >> ((j & 1) * 4)) & 0xFu;
  } else if constexpr (kBits == 8) {
    return p[j];
  } else if constexpr (kBits == 16) {
    return Load16(p + 2 * j);
  } else {
    return Load32(p + 4 * j);
  }
}

// The exact model needs the exponent range of every operand. Within one format the pattern with
// the sign bit cleared orders like the magnitude (Inf and NaN above every finite value), so the
// unpack loops keep the smallest non-zero and the largest such key - two integer min/max per
// element, which vectorize - and only the two extremes are decoded.
template <Element kElement>
XMX_MMA_INLINE uint32_t MagnitudeKey(uint32_t bits) {
  if constexpr (kElement == Element::kFloat4E2M1) {
    return bits & 0x7u;
  } else if constexpr (kElement == Element::kFloat8E4M3 || kElement == Element::kFloat8E5M2) {
    return bits & 0x7Fu;
  } else if constexpr (kElement == Element::kHalf || kElement == Element::kBFloat16) {
    return bits & 0x7FFFu;
  } else if constexpr (kElement == Element::kTf32) {
    return bits & 0x7FFFE000u;
  } else {
    return bits & 0x7FFFFFFFu;
  }
}

// The smallest non-zero and the largest key seen.
struct KeyRange {
  uint32_t low = ~0u;
  uint32_t high = 0;
};
XMX_MMA_INLINE int BiasedExponent(double x) {
  return static_cast<int>((std::bit_cast<uint64_t>(x) >> 52) & 0x7FF);
}
// Widens `keys` by one float element's key (the strided, unvectorized paths).
template <Element kElement>
XMX_MMA_INLINE void AddKey(uint32_t bits, KeyRange& keys) {
  const uint32_t key = MagnitudeKey<kElement>(bits);
  keys.high = key > keys.high ? key : keys.high;
  if (key != 0 && key < keys.low) keys.low = key;
}
template <Element kElement>
XMX_MMA_INLINE ExponentRange ExponentsOf(const KeyRange& keys) {
  ExponentRange range;
  range.high = BiasedExponent(ElementValue<kElement>(keys.high));
  if (keys.low != ~0u) range.low = BiasedExponent(ElementValue<kElement>(keys.low));
  return range;
}

// step(x) for x = 0 .. steps-1. GCC's -O2 cost model only vectorizes loops whose trip count is a
// known multiple of the vector length, so for GCC the steps run in chunks of 16 first; Clang
// vectorizes the plain loop better than the chunked one.
template <class Step>
XMX_MMA_INLINE void ForEachStep(size_t steps, Step&& step) {
  size_t x = 0;
#if defined(__GNUC__) && !defined(__clang__)
  for (; x + 16 <= steps; x += 16) {
    for (size_t j = 0; j < 16; ++j) step(x + j);
  }
#endif
  for (; x < steps; ++x) step(x);
}

// out[x] = the value of element x of the bit stream `in` (kBits per element, lower elements in
// lower bits), for x < count; for floats, widens `keys` by the elements' magnitude keys. The
// restrict parameters, size_t indices and plain min/max reductions (key - 1 wraps a zero key to
// the largest value, so the minimum skips zeros) are what lets both compilers vectorize it.
template <Element kElement, uint32_t kBits>
XMX_MMA_INLINE void DecodeStream(const uint8_t* __restrict in, ValueOf<kElement>* __restrict out,
                                 uint32_t count, KeyRange& keys) {
  constexpr bool kFloats = kElement > Element::kInt8;
  constexpr size_t kPerStep = kBits == 4 ? 2 : 1;  // elements per loop step (4-bit: one byte)
  uint32_t low_minus_one = keys.low - 1, high = keys.high;
  auto step = [&](size_t x) XMX_MMA_LAMBDA_INLINE {
    for (size_t e = 0; e < kPerStep; ++e) {
      uint32_t bits;
      if constexpr (kBits == 4) {
        bits = (in[x] >> (4 * e)) & 0xFu;
      } else {
        bits = Field<kBits>(in, x);
      }
      out[kPerStep * x + e] = ElementValue<kElement>(bits);
      if constexpr (kFloats) {
        const uint32_t key = MagnitudeKey<kElement>(bits);
        high = std::max(high, key);
        low_minus_one = std::min(low_minus_one, key - 1);
      }
    }
  };
  ForEachStep(count / kPerStep, step);  // count is even for 4-bit elements
  keys = {low_minus_one + 1, high};
}

// Where A element (k, row) goes. Floats: [k][row]. Integers: [k/2][row][k%2], so that the two
// elements one pmaddwd lane multiplies sit side by side.
template <bool kPairs>
XMX_MMA_INLINE uint32_t AIndex(uint32_t k, uint32_t row, uint32_t padded_rows) {
  if constexpr (kPairs) {
    return (k >> 1) * 2 * padded_rows + 2 * row + (k & 1);
  } else {
    return k * padded_rows + row;
  }
}

// One half of A into the working layout; padding rows (and the odd k of pairs) read zero.
template <uint32_t kBits, uint32_t kComponentBytes, Element kElement>
struct UnpackA {
  using T = ValueOf<kElement>;
  static constexpr bool kPairs = kElement <= Element::kInt8;
  static constexpr uint32_t kFields = kComponentBytes * 8 / kBits;

  XMX_MMA_INLINE static ExponentRange Run(const Plan& p, const uint8_t* slot, uint32_t half,
                                          void* values) {
    T* __restrict out = static_cast<T*>(values);
    const uint32_t rows = p.half_rows, padded_rows = p.padded_rows;
    const uint32_t ks = kPairs ? p.padded_k : p.k;
    const uint8_t* __restrict base = slot + size_t{half} * p.columns * p.a_lane_bytes;
    const uint32_t lane_bytes = p.a_lane_bytes;
    KeyRange keys;
    if (p.a_phases == 1 && rows == padded_rows && kFields == (kPairs ? 2 : 1)) {
      // One element (floats) or one pair of columns (integers) per component, and no padding:
      // the slot's elements are already in the working order, [k (or k/2)][row].
      DecodeStream<kElement, kBits>(base, out, p.columns * rows * kFields, keys);
      return ExponentsOf<kElement>(keys);
    }
    if (rows != padded_rows || ks != p.k) std::memset(out, 0, sizeof(T) * ks * padded_rows);
    if (p.a_phases == 1) {  // lane i holds columns i*c .. i*c+c-1 of every row
      if constexpr (kPairs && kFields % 2 == 0) {
        // A component holds whole pairs of columns: each pair is one 2*kBits-bit unit.
        constexpr uint32_t kUnits = kFields / 2;
        for (uint32_t i = 0; i < p.columns; ++i) {
          const uint8_t* lane = base + size_t{i} * lane_bytes;
          for (uint32_t s = 0; s < kUnits; ++s) {
            T* dst = out + (i * kUnits + s) * 2 * padded_rows;
            for (uint32_t t = 0; t < rows; ++t) {
              const uint32_t unit = Field<2 * kBits>(lane + t * kComponentBytes, s);
              dst[2 * t] = ElementValue<kElement>(unit & ((1u << kBits) - 1));
              dst[2 * t + 1] = ElementValue<kElement>(unit >> kBits);
            }
          }
        }
        return {};
      } else if constexpr (!kPairs) {
        for (uint32_t i = 0; i < p.columns; ++i) {
          const uint8_t* lane = base + size_t{i} * lane_bytes;
          for (uint32_t j = 0; j < kFields; ++j) {
            T* dst = out + (i * kFields + j) * padded_rows;
            for (uint32_t t = 0; t < rows; ++t) {
              const uint32_t bits = Field<kBits>(lane + t * kComponentBytes, j);
              dst[t] = ElementValue<kElement>(bits);
              AddKey<kElement>(bits, keys);
            }
          }
        }
        return ExponentsOf<kElement>(keys);
      }
    }
    // The general mapping. With row phases, lane i holds column group i mod L of rows phase,
    // phase + g, ... (L lanes per phase, phase = i / L), component t being row phase + t*g;
    // rows past the half are ignored.
    const uint32_t per_phase = p.a_lanes_per_phase, phases = p.a_phases;
    for (uint32_t i = 0; i < p.columns; ++i) {
      const uint8_t* lane = base + size_t{i} * lane_bytes;
      const uint32_t phase = i / per_phase, group = i % per_phase;
      for (uint32_t t = 0; phase + t * phases < rows; ++t) {
        for (uint32_t j = 0; j < kFields; ++j) {
          const uint32_t bits = Field<kBits>(lane + t * kComponentBytes, j);
          out[AIndex<kPairs>(group * kFields + j, phase + t * phases, padded_rows)] =
              ElementValue<kElement>(bits);
          if constexpr (!kPairs) AddKey<kElement>(bits, keys);
        }
      }
    }
    return ExponentsOf<kElement>(keys);
  }
};

// B as [column][padded_k]. Lane n's components are column n's rows in order, so the column is
// one bit stream; in the paired form its 32-bit words alternate between lanes n and n + 16.
template <uint32_t kBits, bool kPaired, Element kElement>
struct UnpackB {
  using T = ValueOf<kElement>;

  XMX_MMA_INLINE static ExponentRange Run(const Plan& p, const uint8_t* slot, uint32_t /*half*/,
                                          void* values) {
    T* __restrict out = static_cast<T*>(values);
    const uint8_t* __restrict in = slot;
    const uint32_t k = p.k, kp = p.padded_k;
    KeyRange keys;
    if (!kPaired && k == kp) {
      // A lane holds exactly its column's k elements: the slot is [column][k] already.
      DecodeStream<kElement, kBits>(in, out, p.columns * k, keys);
      return ExponentsOf<kElement>(keys);
    }
    for (uint32_t n = 0; n < p.columns; ++n) {
      T* dst = out + size_t{n} * kp;
      if constexpr (!kPaired) {
        DecodeStream<kElement, kBits>(in + size_t{n} * p.b_lane_bytes, dst, k, keys);
      } else {
        constexpr uint32_t kPerWord = kBits <= 16 ? 32 / kBits : 1;
        for (uint32_t w = 0; w < k / kPerWord; ++w) {
          const uint8_t* word =
              in + size_t{n + (w & 1) * p.columns} * p.b_lane_bytes + 4 * (w >> 1);
          DecodeStream<kElement, kBits>(word, dst + w * kPerWord, kPerWord, keys);
        }
      }
      if (kp != k) dst[k] = 0;
    }
    return ExponentsOf<kElement>(keys);
  }
};

}  // namespace xmx::interp::matrix_mad_detail
