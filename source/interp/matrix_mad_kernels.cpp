// The arithmetic behind MatrixMadKernel::Run.
//
// A run moves each operand out of its register slot into a small typed array, computes, and
// writes the Result slot:
//   1-2. unpack A and B: bit fields -> int16 (int4 / int8) or double (every float format, all
//      exact), in the working layout;
//   3. multiply-accumulate, vectorized over the rows of one column, which is how C and Result
//      already lie in a lane (lane n = column n, component r = row r), so neither is transposed;
//      B elements are broadcast from B's own layout (lane n holds column n, rows in order);
//   4. write the Result.
// Integers accumulate in uint32 (wrapping, DECISIONS 2) from int16 pairs: (a[k] b[k] +
// a[k+1] b[k+1]) is one pmaddwd lane on x86. Floats accumulate in double, which is exact when a
// cheap exponent bound says so (matrix_mad_exact.cpp does the rest).
//
// Every routine is a template compiled into three instruction-set families (portable, AVX2,
// AVX-512): the Entry wrappers carry the target attribute and `flatten`, which inlines the
// template body into them, so the one source compiles once per family without build flags.
// Prepare picks the family with a run-time CPU check.
#include <cmath>
#include <cstring>
#include <type_traits>

#include "interp/matrix_mad_internal.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define XMX_MMA_X86 1
#define XMX_MMA_AVX2 __attribute__((target("avx2,fma")))
#define XMX_MMA_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")))
#else
#define XMX_MMA_X86 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define XMX_MMA_FLATTEN __attribute__((flatten))
#define XMX_MMA_LAMBDA_INLINE __attribute__((always_inline))
#else
#define XMX_MMA_FLATTEN
#define XMX_MMA_LAMBDA_INLINE
#endif

namespace xmx::interp::matrix_mad_detail {
namespace {

// --- 1. Element values ------------------------------------------------------------------------

// int4 / int8 become int16 (the integer kernel multiplies int16 pairs); every float format
// becomes double, exactly.
template <Element kElement>
using ValueOf = std::conditional_t<(kElement <= Element::kInt8), int16_t, double>;

// The values of every pattern of the 8-bit and 4-bit float formats, from DecodeFloat. Filled by
// Prepare (SelectKernels) before the first kernel exists, so that the unpack loops read them
// without an initialization check.
struct NarrowFloatTables {
  double e4m3[256], e5m2[256], e2m1[16];
};
NarrowFloatTables narrow_floats;

void FillNarrowFloatTables() {
  static const bool filled = [] {
    for (uint32_t i = 0; i < 256; ++i) {
      narrow_floats.e4m3[i] = DecodeFloat(i, kFloat8E4M3Format);
      narrow_floats.e5m2[i] = DecodeFloat(i, kFloat8E5M2Format);
    }
    for (uint32_t i = 0; i < 16; ++i) narrow_floats.e2m1[i] = DecodeFloat(i, kFloat4E2M1Format);
    return true;
  }();
  (void)filled;
}

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

struct KeyRange {
  uint32_t low = ~0u;  // smallest non-zero key
  uint32_t high = 0;
};
XMX_MMA_INLINE void AddKey(uint32_t key, uint32_t& low, uint32_t& high) {
  high = key > high ? key : high;
  const uint32_t nonzero = key == 0 ? ~0u : key;
  low = nonzero < low ? nonzero : low;
}
XMX_MMA_INLINE int BiasedExponent(double x) {
  return static_cast<int>((std::bit_cast<uint64_t>(x) >> 52) & 0x7FF);
}
template <Element kElement>
XMX_MMA_INLINE ExponentRange ExponentsOf(uint32_t low, uint32_t high) {
  ExponentRange range;
  range.high = BiasedExponent(ElementValue<kElement>(high));
  if (low != ~0u) range.low = BiasedExponent(ElementValue<kElement>(low));
  return range;
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
    uint32_t low = ~0u, high = 0;
    if (p.a_phases == 1 && rows == padded_rows) {
      // One element (floats) or one pair of columns (integers) per component, and no padding:
      // the slot's order is already the working order, [lane = k (or k/2)][row].
      if constexpr (!kPairs && kFields == 1) {
        for (uint32_t x = 0; x < p.columns * rows; ++x) {
          const uint32_t bits = Field<kBits>(base, x);
          out[x] = ElementValue<kElement>(bits);
          AddKey(MagnitudeKey<kElement>(bits), low, high);
        }
        return ExponentsOf<kElement>(low, high);
      } else if constexpr (kPairs && kFields == 2) {
        for (uint32_t x = 0; x < p.columns * rows; ++x) {
          const uint32_t unit = Field<2 * kBits>(base, x);
          out[2 * x] = ElementValue<kElement>(unit & ((1u << kBits) - 1));
          out[2 * x + 1] = ElementValue<kElement>(unit >> kBits);
        }
        return {};
      }
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
              AddKey(MagnitudeKey<kElement>(bits), low, high);
            }
          }
        }
        return ExponentsOf<kElement>(low, high);
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
          if constexpr (!kPairs) AddKey(MagnitudeKey<kElement>(bits), low, high);
        }
      }
    }
    if constexpr (kPairs) {
      return {};
    } else {
      return ExponentsOf<kElement>(low, high);
    }
  }
};

// B as [column][padded_k]. Lane n's components are column n's rows in order, so the column is
// one bit stream; in the paired form its 32-bit words alternate between lanes n and n + 16.
template <uint32_t kBits, bool kPaired, Element kElement>
struct UnpackB {
  using T = ValueOf<kElement>;
  static constexpr bool kFloats = kElement > Element::kInt8;

  XMX_MMA_INLINE static ExponentRange Run(const Plan& p, const uint8_t* slot, uint32_t /*half*/,
                                          void* values) {
    T* __restrict out = static_cast<T*>(values);
    const uint8_t* __restrict in = slot;
    const uint32_t k = p.k, kp = p.padded_k;
    uint32_t low = ~0u, high = 0;
    auto put = [&](T* dst, uint32_t bits) XMX_MMA_LAMBDA_INLINE {
      *dst = ElementValue<kElement>(bits);
      if constexpr (kFloats) AddKey(MagnitudeKey<kElement>(bits), low, high);
    };
    if (!kPaired && k == kp) {
      // A lane holds exactly its column's k elements: the slot is [column][k] already.
      if constexpr (kBits == 4) {
        for (uint32_t x = 0; x < p.columns * k / 2; ++x) {
          put(out + 2 * x, in[x] & 0xFu);
          put(out + 2 * x + 1, in[x] >> 4);
        }
      } else {
        for (uint32_t x = 0; x < p.columns * k; ++x) put(out + x, Field<kBits>(in, x));
      }
    } else {
      for (uint32_t n = 0; n < p.columns; ++n) {
        T* dst = out + size_t{n} * kp;
        if constexpr (!kPaired) {
          const uint8_t* lane = in + size_t{n} * p.b_lane_bytes;
          for (uint32_t row = 0; row < k; ++row) put(dst + row, Field<kBits>(lane, row));
        } else {
          constexpr uint32_t kPerWord = kBits <= 16 ? 32 / kBits : 1;
          const uint32_t words = k / kPerWord;
          for (uint32_t w = 0; w < words; ++w) {
            const uint8_t* word =
                in + size_t{n + (w & 1) * p.columns} * p.b_lane_bytes + 4 * (w >> 1);
            for (uint32_t e = 0; e < kPerWord; ++e) {
              put(dst + w * kPerWord + e, Field<kBits>(word, e));
            }
          }
        }
        if (kp != k) dst[k] = 0;
      }
    }
    if constexpr (kFloats) {
      return ExponentsOf<kElement>(low, high);
    } else {
      return {};
    }
  }
};

// --- 3. Multiply-accumulate cores ------------------------------------------------------------

// Columns handled together, so that enough independent accumulator chains are in flight
// (about 8-12 vector registers of accumulators), given vectors of `lanes` elements.
constexpr uint32_t ColumnBlock(uint32_t rows, uint32_t lanes) {
  const uint32_t registers = rows <= lanes ? 1 : rows / lanes;
  const uint32_t fit = 12 / registers;
  return fit >= 8 ? 8 : fit >= 4 ? 4 : fit >= 2 ? 2 : 1;
}

// Integers, plain C++: acc[n][r] += sum over pairs q of a[q][r][0] b[n][2q] + a[q][r][1]
// b[n][2q+1]. Each pair sum fits in int32 (at most 2 * 255 * 255); the total wraps in uint32.
template <uint32_t kRows, uint32_t kCols>
XMX_MMA_INLINE void IntBlockPlain(uint32_t* acc, const int16_t* a, const int16_t* b, size_t kp) {
  uint32_t s[kCols][kRows];
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t r = 0; r < kRows; ++r) s[j][r] = acc[j * kRows + r];
  }
  for (size_t q = 0; q < kp / 2; ++q, a += 2 * kRows) {
    for (uint32_t j = 0; j < kCols; ++j) {
      const int32_t b0 = b[j * kp + 2 * q], b1 = b[j * kp + 2 * q + 1];
      for (uint32_t r = 0; r < kRows; ++r) {
        s[j][r] += static_cast<uint32_t>(a[2 * r] * b0 + a[2 * r + 1] * b1);
      }
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t r = 0; r < kRows; ++r) acc[j * kRows + r] = s[j][r];
  }
}

#if XMX_MMA_X86
// The pair (b[2q], b[2q+1]) of a column as one int32, ready to broadcast.
XMX_MMA_INLINE int32_t PairAt(const int16_t* column, size_t q) {
  int32_t v;
  std::memcpy(&v, column + 2 * q, 4);
  return v;
}

// The same with SSE2's pmaddwd (x86-64 baseline): 4 rows per register.
template <uint32_t kRows, uint32_t kCols>
XMX_MMA_INLINE void IntBlockSse2(uint32_t* acc, const int16_t* a, const int16_t* b, size_t kp) {
  constexpr uint32_t kVectors = kRows / 4;
  __m128i s[kCols][kVectors];
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t v = 0; v < kVectors; ++v) {
      s[j][v] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + j * kRows + 4 * v));
    }
  }
  for (size_t q = 0; q < kp / 2; ++q, a += 2 * kRows) {
    __m128i av[kVectors];
    for (uint32_t v = 0; v < kVectors; ++v) {
      av[v] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 8 * v));
    }
    for (uint32_t j = 0; j < kCols; ++j) {
      const __m128i pair = _mm_set1_epi32(PairAt(b + j * kp, q));
      for (uint32_t v = 0; v < kVectors; ++v) {
        s[j][v] = _mm_add_epi32(s[j][v], _mm_madd_epi16(av[v], pair));
      }
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t v = 0; v < kVectors; ++v) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(acc + j * kRows + 4 * v), s[j][v]);
    }
  }
}

// And with AVX2: 8 rows per register. (Not forced inline: it carries the AVX2 target itself,
// and the integer core calls it from code that only becomes AVX2 once inlined into an entry.)
template <uint32_t kRows, uint32_t kCols>
XMX_MMA_AVX2 inline void IntBlockAvx2(uint32_t* acc, const int16_t* a, const int16_t* b,
                                      size_t kp) {
  constexpr uint32_t kVectors = kRows / 8;
  __m256i s[kCols][kVectors];
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t v = 0; v < kVectors; ++v) {
      s[j][v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + j * kRows + 8 * v));
    }
  }
  for (size_t q = 0; q < kp / 2; ++q, a += 2 * kRows) {
    __m256i av[kVectors];
    for (uint32_t v = 0; v < kVectors; ++v) {
      av[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 16 * v));
    }
    for (uint32_t j = 0; j < kCols; ++j) {
      const __m256i pair = _mm256_set1_epi32(PairAt(b + j * kp, q));
      for (uint32_t v = 0; v < kVectors; ++v) {
        s[j][v] = _mm256_add_epi32(s[j][v], _mm256_madd_epi16(av[v], pair));
      }
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t v = 0; v < kVectors; ++v) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + j * kRows + 8 * v), s[j][v]);
    }
  }
}
#endif

template <uint32_t kRows, MmaIsa kIsa>
XMX_MMA_INLINE void IntCore(uint32_t* acc, const int16_t* a, const int16_t* b, uint32_t columns,
                            uint32_t kp) {
#if XMX_MMA_X86
  if constexpr (kIsa != MmaIsa::kPortable && kRows >= 8) {
    constexpr uint32_t kCols = ColumnBlock(kRows, 8);
    uint32_t n = 0;
    for (; n + kCols <= columns; n += kCols) {
      IntBlockAvx2<kRows, kCols>(acc + n * kRows, a, b + n * kp, kp);
    }
    for (; n < columns; ++n) IntBlockAvx2<kRows, 1>(acc + n * kRows, a, b + n * kp, kp);
    return;
  } else if constexpr (kRows >= 4) {
    constexpr uint32_t kCols = ColumnBlock(kRows, 4);
    uint32_t n = 0;
    for (; n + kCols <= columns; n += kCols) {
      IntBlockSse2<kRows, kCols>(acc + n * kRows, a, b + n * kp, kp);
    }
    for (; n < columns; ++n) IntBlockSse2<kRows, 1>(acc + n * kRows, a, b + n * kp, kp);
    return;
  }
#endif
  constexpr uint32_t kCols = ColumnBlock(kRows, 4);
  uint32_t n = 0;
  for (; n + kCols <= columns; n += kCols) {
    IntBlockPlain<kRows, kCols>(acc + n * kRows, a, b + n * kp, kp);
  }
  for (; n < columns; ++n) IntBlockPlain<kRows, 1>(acc + n * kRows, a, b + n * kp, kp);
}

// Doubles per vector register in each family.
template <MmaIsa kIsa>
constexpr uint32_t kDoubleLanes = kIsa == MmaIsa::kAvx512 ? 8
                                  : kIsa == MmaIsa::kAvx2 ? 4
                                                          : 2;

// Floats, exact model: acc[n][r] += sum over k of a[k][r] b[n][k], in double. The caller knows
// (or checks afterwards) that every partial sum is exact, so the order does not matter.
template <uint32_t kRows, uint32_t kCols>
XMX_MMA_INLINE void FloatBlock(double* acc, const double* a, const double* b, size_t k, size_t kp) {
  double s[kCols][kRows];
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t r = 0; r < kRows; ++r) s[j][r] = acc[j * kRows + r];
  }
  for (size_t i = 0; i < k; ++i, a += kRows) {
    for (uint32_t j = 0; j < kCols; ++j) {
      const double bj = b[j * kp + i];
      for (uint32_t r = 0; r < kRows; ++r) s[j][r] += a[r] * bj;
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t r = 0; r < kRows; ++r) acc[j * kRows + r] = s[j][r];
  }
}

// Floats, ordered model: acc = fp32(acc + a b) for k in increasing order. With products of at
// most 24 significant bits, acc + a b rounded to double and then to float is the correctly
// rounded fp32 result (double has more than 2 * 24 + 1 bits, so the double rounding is
// innocuous); wider products (fp32 elements) take a float fma.
template <uint32_t kRows, uint32_t kCols, bool kFloatFma>
XMX_MMA_INLINE void OrderedBlock(double* acc, const double* a, const double* b, size_t k,
                                 size_t kp) {
  double s[kCols][kRows];
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t r = 0; r < kRows; ++r) s[j][r] = acc[j * kRows + r];
  }
  for (size_t i = 0; i < k; ++i, a += kRows) {
    for (uint32_t j = 0; j < kCols; ++j) {
      const double bj = b[j * kp + i];
      for (uint32_t r = 0; r < kRows; ++r) {
        if constexpr (kFloatFma) {
          s[j][r] = std::fma(static_cast<float>(a[r]), static_cast<float>(bj),
                             static_cast<float>(s[j][r]));
        } else {
          s[j][r] = static_cast<float>(s[j][r] + a[r] * bj);
        }
      }
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t r = 0; r < kRows; ++r) acc[j * kRows + r] = s[j][r];
  }
}

enum class FloatSum : uint8_t { kExact, kOrdered, kOrderedFma };

template <uint32_t kRows, MmaIsa kIsa, FloatSum kSum>
XMX_MMA_INLINE void FloatCore(double* acc, const double* a, const double* b, uint32_t columns,
                              uint32_t k, uint32_t kp) {
  constexpr uint32_t kCols = ColumnBlock(kRows, kDoubleLanes<kIsa>);
  auto block = [&](auto cols, uint32_t n) {
    if constexpr (kSum == FloatSum::kExact) {
      FloatBlock<kRows, decltype(cols)::value>(acc + n * kRows, a, b + n * kp, k, kp);
    } else {
      OrderedBlock<kRows, decltype(cols)::value, kSum == FloatSum::kOrderedFma>(acc + n * kRows, a,
                                                                                b + n * kp, k, kp);
    }
  };
  uint32_t n = 0;
  for (; n + kCols <= columns; n += kCols) block(std::integral_constant<uint32_t, kCols>{}, n);
  for (; n < columns; ++n) block(std::integral_constant<uint32_t, 1>{}, n);
}

// --- 4. Drivers -------------------------------------------------------------------------------

template <uint32_t kRows, MmaIsa kIsa>
struct IntegerRun {
  XMX_MMA_INLINE static void Run(const Plan& p, const uint8_t* a, const uint8_t* b,
                                 const uint8_t* c, uint8_t* result) {
    alignas(64) int16_t b_values[kMaxColumns * kMaxK];
    alignas(64) int16_t a_values[2][kMaxKTimesRows];
    alignas(64) uint32_t acc[2][kMaxColumns * kMaxRows];
    const uint32_t columns = p.columns, kp = p.padded_k, rows = p.half_rows;
    // When the rows fill the vectors, a half of C (or Result) is exactly the accumulator array.
    const bool dense = rows == kRows;
    const size_t half_c = size_t{columns} * p.c_lane_bytes;
    const size_t half_result = size_t{columns} * p.result_lane_bytes;
    p.unpack_b(p, b, 0, b_values);
    for (uint32_t h = 0; h < p.halves; ++h) {
      p.unpack_a(p, a, h, a_values[h]);
      if (dense) {
        std::memcpy(acc[h], c + h * half_c, half_c);
        continue;
      }
      std::memset(acc[h], 0, sizeof(uint32_t) * columns * kRows);
      for (uint32_t n = 0; n < columns; ++n) {
        const uint8_t* lane = c + h * half_c + size_t{n} * p.c_lane_bytes;
        for (uint32_t r = 0; r < rows; ++r) acc[h][n * kRows + r] = Load32(lane + 4 * r);
      }
    }
    for (uint32_t h = 0; h < p.halves; ++h) {
      IntCore<kRows, kIsa>(acc[h], a_values[h], b_values, columns, kp);
    }
    for (uint32_t h = 0; h < p.halves; ++h) {
      if (dense) {
        std::memcpy(result + h * half_result, acc[h], half_result);
        continue;
      }
      for (uint32_t n = 0; n < columns; ++n) {
        uint8_t* lane = result + h * half_result + size_t{n} * p.result_lane_bytes;
        for (uint32_t r = 0; r < rows; ++r) Store32(lane + 4 * r, acc[h][n * kRows + r]);
      }
    }
  }
};

// C into the accumulators ([column][kRows], padding rows zero), as doubles; returns C's
// exponent range.
template <Element kFormat>
XMX_MMA_INLINE ExponentRange LoadFloatCAs(const Plan& p, const uint8_t* c, uint32_t half,
                                          uint32_t padded_rows, double* __restrict acc) {
  constexpr uint32_t kBytes = kFormat == Element::kFloat ? 4 : 2;
  const uint32_t columns = p.columns, rows = p.half_rows;
  const uint8_t* __restrict in = c + size_t{half} * columns * p.c_lane_bytes;
  uint32_t low = ~0u, high = 0;
  if (rows == padded_rows) {  // the half is [column][row] already
    for (uint32_t x = 0; x < columns * rows; ++x) {
      const uint32_t bits = Field<8 * kBytes>(in, x);
      acc[x] = ElementValue<kFormat>(bits);
      AddKey(MagnitudeKey<kFormat>(bits), low, high);
    }
  } else {
    std::memset(acc, 0, sizeof(double) * columns * padded_rows);
    for (uint32_t n = 0; n < columns; ++n) {
      for (uint32_t r = 0; r < rows; ++r) {
        const uint32_t bits = Field<8 * kBytes>(in + size_t{n} * p.c_lane_bytes, r);
        acc[n * padded_rows + r] = ElementValue<kFormat>(bits);
        AddKey(MagnitudeKey<kFormat>(bits), low, high);
      }
    }
  }
  return ExponentsOf<kFormat>(low, high);
}

template <uint32_t kRows>
XMX_MMA_INLINE ExponentRange LoadFloatC(const Plan& p, const uint8_t* c, uint32_t half,
                                        double* acc) {
  switch (p.c_format) {
    case Accumulator::kHalf:
      return LoadFloatCAs<Element::kHalf>(p, c, half, kRows, acc);
    case Accumulator::kBFloat16:
      return LoadFloatCAs<Element::kBFloat16>(p, c, half, kRows, acc);
    default:
      return LoadFloatCAs<Element::kFloat>(p, c, half, kRows, acc);
  }
}

// The bf16 / fp16 pattern nearest (ties to even) to a double whose exponent lies in the format's
// normal range: the significand is rounded on the bits and the exponent rebiased (a carry into
// the all-ones exponent gives infinity, as it should). kShift = 52 - mantissa bits, kRebias =
// 1023 - format bias.
template <uint32_t kShift, uint32_t kRebias, uint32_t kFieldMask>
XMX_MMA_INLINE uint32_t RoundNormalToNarrow(uint64_t u) {
  const uint64_t rounded = u + ((uint64_t{1} << (kShift - 1)) - 1) + ((u >> kShift) & 1);
  const uint32_t fields = static_cast<uint32_t>(rounded >> kShift) & kFieldMask;
  return (static_cast<uint32_t>(u >> 63) << 15) | (fields - (kRebias << (52 - kShift)));
}

// bf16 / fp16 Results: rounded on the bits in one vectorized pass; the rare values outside the
// format's normal range (zero aside) fixed up by EncodeFloat afterwards.
template <uint32_t kRows, bool kBFloat16>
XMX_MMA_INLINE void StoreNarrowResults(const Plan& p, const double* __restrict acc,
                                       uint8_t* __restrict out) {
  const uint32_t columns = p.columns, rows = p.half_rows;
  // Normal range of the format, as biased double exponents.
  constexpr uint32_t kLowest = kBFloat16 ? 897 : 1009, kHighest = kBFloat16 ? 1150 : 1038;
  auto store = [&](uint8_t* at, double x) XMX_MMA_LAMBDA_INLINE {
    const uint64_t u = std::bit_cast<uint64_t>(x);
    const uint32_t normal = kBFloat16 ? RoundNormalToNarrow<45, 896, 0x3FFFFu>(u)
                                      : RoundNormalToNarrow<42, 1008, 0x1FFFFFu>(u);
    const uint32_t e = static_cast<uint32_t>(u >> 52) & 0x7FFu;
    Store16(at, e == 0 ? static_cast<uint32_t>(u >> 63) << 15 : normal);  // zeros keep their sign
    return e != 0 && e - kLowest > kHighest - kLowest;  // outside the normal range
  };
  bool outliers = false;
  if (rows == kRows) {
    for (uint32_t x = 0; x < columns * kRows; ++x) outliers |= store(out + 2 * x, acc[x]);
  } else {
    for (uint32_t n = 0; n < columns; ++n) {
      for (uint32_t r = 0; r < rows; ++r) {
        outliers |= store(out + size_t{n} * p.result_lane_bytes + 2 * r, acc[n * kRows + r]);
      }
    }
  }
  if (!outliers) return;
  for (uint32_t n = 0; n < columns; ++n) {
    for (uint32_t r = 0; r < rows; ++r) {
      const double x = acc[n * kRows + r];
      const uint32_t e = BiasedExponent(x);
      if (e != 0 && e - kLowest > kHighest - kLowest) {
        StoreFloatResult(out + size_t{n} * p.result_lane_bytes + 2 * r,
                         kBFloat16 ? Accumulator::kBFloat16 : Accumulator::kHalf, x);
      }
    }
  }
}

// The Result half from the accumulators: each value rounded once to nearest even; NaN becomes
// the format's canonical quiet NaN.
template <uint32_t kRows>
XMX_MMA_INLINE void StoreFloatResults(const Plan& p, const double* __restrict acc, uint32_t half,
                                      uint8_t* result) {
  const uint32_t columns = p.columns, rows = p.half_rows;
  uint8_t* __restrict out = result + size_t{half} * columns * p.result_lane_bytes;
  const bool dense = rows == kRows;
  if (p.result_format == Accumulator::kFloat) {
    auto store = [&](uint8_t* at, double x) XMX_MMA_LAMBDA_INLINE {
      const float f = static_cast<float>(x);
      Store32(at, f != f ? kFloatFormat.nan_pattern : std::bit_cast<uint32_t>(f));
    };
    if (dense) {
      for (uint32_t x = 0; x < columns * kRows; ++x) store(out + 4 * x, acc[x]);
    } else {
      for (uint32_t n = 0; n < columns; ++n) {
        for (uint32_t r = 0; r < rows; ++r) {
          store(out + size_t{n} * p.result_lane_bytes + 4 * r, acc[n * kRows + r]);
        }
      }
    }
    return;
  }
  if (p.result_format == Accumulator::kBFloat16) {
    StoreNarrowResults<kRows, true>(p, acc, out);
  } else {
    StoreNarrowResults<kRows, false>(p, acc, out);
  }
}

template <uint32_t kRows, MmaIsa kIsa, FloatSum kSum>
struct FloatRun {
  XMX_MMA_INLINE static void Run(const Plan& p, const uint8_t* a, const uint8_t* b,
                                 const uint8_t* c, uint8_t* result) {
    alignas(64) double b_values[kMaxColumns * kMaxK];
    alignas(64) double a_values[2][kMaxKTimesRows];
    alignas(64) double acc[2][kMaxColumns * kMaxRows];
    const uint32_t columns = p.columns, k = p.k, kp = p.padded_k;
    const ExponentRange rb = p.unpack_b(p, b, 0, b_values);
    ExponentRange ra, rc;
    for (uint32_t h = 0; h < p.halves; ++h) {
      ra = Union(ra, p.unpack_a(p, a, h, a_values[h]));
      rc = Union(rc, LoadFloatC<kRows>(p, c, h, acc[h]));
    }
    bool exact = true;
    if constexpr (kSum == FloatSum::kExact) exact = DoubleSumIsExact(p, ra, rb, rc);
    for (uint32_t h = 0; h < p.halves; ++h) {
      FloatCore<kRows, kIsa, kSum>(acc[h], a_values[h], b_values, columns, k, kp);
    }
    if (!exact) {
      for (uint32_t h = 0; h < p.halves; ++h) {
        RefineInexactSums(p, h, a_values[h], b_values, c, acc[h]);
      }
    }
    for (uint32_t h = 0; h < p.halves; ++h) StoreFloatResults<kRows>(p, acc[h], h, result);
  }
};

// --- Families and selection -------------------------------------------------------------------

#define XMX_MMA_DEFINE_ENTRY(Name, Attributes)                                                    \
  template <class Op>                                                                             \
  struct Name {                                                                                   \
    Attributes XMX_MMA_FLATTEN static ExponentRange Unpack(const Plan& p, const uint8_t* slot,    \
                                                           uint32_t half, void* values) {         \
      return Op::Run(p, slot, half, values);                                                      \
    }                                                                                             \
    Attributes XMX_MMA_FLATTEN static void Run(const Plan& p, const uint8_t* a, const uint8_t* b, \
                                               const uint8_t* c, uint8_t* result) {               \
      Op::Run(p, a, b, c, result);                                                                \
    }                                                                                             \
  };

XMX_MMA_DEFINE_ENTRY(PortableEntry, )
#if XMX_MMA_X86
XMX_MMA_DEFINE_ENTRY(Avx2Entry, XMX_MMA_AVX2)
XMX_MMA_DEFINE_ENTRY(Avx512Entry, XMX_MMA_AVX512)
#endif

template <template <class> class Entry, MmaIsa kIsa>
struct Catalogue {
  // A: by element format, then by component width (the widths that can hold the element).
  template <Element kElement, uint32_t kBits>
  static UnpackFn UnpackAFor(uint32_t component_bytes) {
    switch (component_bytes) {
      case 1:
        if constexpr (kBits <= 8) return &Entry<UnpackA<kBits, 1, kElement>>::Unpack;
        break;
      case 2:
        if constexpr (kBits <= 16) return &Entry<UnpackA<kBits, 2, kElement>>::Unpack;
        break;
      default:
        return &Entry<UnpackA<kBits, 4, kElement>>::Unpack;
    }
    return nullptr;
  }
  template <Element kElement, uint32_t kBits>
  static UnpackFn UnpackBFor(bool paired) {
    return paired ? &Entry<UnpackB<kBits, true, kElement>>::Unpack
                  : &Entry<UnpackB<kBits, false, kElement>>::Unpack;
  }
  // Calls choose.template operator()<element, bits>() for the plan's element `e`.
  template <class Choose>
  static UnpackFn ForElement(Element e, Choose choose) {
    switch (e) {
      case Element::kUint4:
        return choose.template operator()<Element::kUint4, 4>();
      case Element::kInt4:
        return choose.template operator()<Element::kInt4, 4>();
      case Element::kUint8:
        return choose.template operator()<Element::kUint8, 8>();
      case Element::kInt8:
        return choose.template operator()<Element::kInt8, 8>();
      case Element::kFloat4E2M1:
        return choose.template operator()<Element::kFloat4E2M1, 4>();
      case Element::kFloat8E4M3:
        return choose.template operator()<Element::kFloat8E4M3, 8>();
      case Element::kFloat8E5M2:
        return choose.template operator()<Element::kFloat8E5M2, 8>();
      case Element::kHalf:
        return choose.template operator()<Element::kHalf, 16>();
      case Element::kBFloat16:
        return choose.template operator()<Element::kBFloat16, 16>();
      case Element::kTf32:
        return choose.template operator()<Element::kTf32, 32>();
      case Element::kFloat:
        return choose.template operator()<Element::kFloat, 32>();
    }
    return nullptr;
  }

  template <uint32_t kRows>
  using Integer = IntegerRun<kRows, kIsa>;
  template <uint32_t kRows>
  using Exact = FloatRun<kRows, kIsa, FloatSum::kExact>;
  template <uint32_t kRows>
  using Ordered = FloatRun<kRows, kIsa, FloatSum::kOrdered>;
  template <uint32_t kRows>
  using OrderedFma = FloatRun<kRows, kIsa, FloatSum::kOrderedFma>;

  template <template <uint32_t> class Driver>
  static RunFn RunFor(uint32_t padded_rows) {
    switch (padded_rows) {
      case 1:
        return &Entry<Driver<1>>::Run;
      case 2:
        return &Entry<Driver<2>>::Run;
      case 4:
        return &Entry<Driver<4>>::Run;
      case 8:
        return &Entry<Driver<8>>::Run;
      default:
        return &Entry<Driver<16>>::Run;
    }
  }

  static void Fill(Plan* p) {
    const uint32_t a_component_bytes = p->a_component_bytes;
    p->unpack_a = ForElement(p->a_element, [&]<Element kElement, uint32_t kBits>() {
      return UnpackAFor<kElement, kBits>(a_component_bytes);
    });
    const bool paired = p->halves == 2;
    p->unpack_b = ForElement(p->b_element, [&]<Element kElement, uint32_t kBits>() {
      return UnpackBFor<kElement, kBits>(paired);
    });
    if (IsSmallInteger(p->a_element)) {
      p->run = RunFor<Integer>(p->padded_rows);
    } else if (p->model == MmaFloatModel::kExact) {
      p->run = RunFor<Exact>(p->padded_rows);
    } else if (p->a_precision + p->b_precision <= 24) {
      p->run = RunFor<Ordered>(p->padded_rows);
    } else {
      p->run = RunFor<OrderedFma>(p->padded_rows);
    }
  }
};

}  // namespace

MmaIsa BestIsa() {
#if XMX_MMA_X86
  static const MmaIsa best = [] {
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                        __builtin_cpu_supports("avx512vl");
    return avx512 ? MmaIsa::kAvx512 : avx2 ? MmaIsa::kAvx2 : MmaIsa::kPortable;
  }();
  return best;
#else
  return MmaIsa::kPortable;
#endif
}

void SelectKernels(Plan* plan, MmaIsa isa) {
  FillNarrowFloatTables();
#if XMX_MMA_X86
  if (isa == MmaIsa::kAvx512) return Catalogue<Avx512Entry, MmaIsa::kAvx512>::Fill(plan);
  if (isa == MmaIsa::kAvx2) return Catalogue<Avx2Entry, MmaIsa::kAvx2>::Fill(plan);
#else
  (void)isa;
#endif
  Catalogue<PortableEntry, MmaIsa::kPortable>::Fill(plan);
}

}  // namespace xmx::interp::matrix_mad_detail
