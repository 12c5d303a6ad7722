// Hand-vectorized AVX2 routines for the shapes GEMM kernels run most: SG16 M8 int8 (K 32) and
// SG16 M8 bf16 / fp16 (K 16), one subgroup of 16 lanes, 8 rows. They compute the same bits as
// the generic templates of matrix_mad_run.hpp (the unit tests compare them on random and edge
// inputs), with less work around the arithmetic:
//   * A and B are converted straight from the register slots with whole-vector instructions
//     (byte multiplies or 16-bit extension for int8, below; a 16-bit shift for bf16, F16C for
//     fp16), and the exact model's exponent ranges come from 16-bit min/max over the raw
//     patterns;
//   * C is loaded into the accumulators and the Result written from them without copies;
//   * B's elements are broadcast from memory (a broadcast load), A's rows come as vectors, and
//     the K loop is unrolled so that every offset is an immediate;
//   * the ordered float model runs in fp32 fused multiply-adds, eight rows per instruction: a
//     step of that model is by definition one rounding of acc + a b to fp32, which is what an
//     fp32 FMA computes, for every input (products that overflow or underflow fp32 included).
// The exact model keeps the double sums of the generic path (exact when the exponent bound says
// so, otherwise refined by RefineInexactSums on the same working arrays).
#include "interp/matrix_mad/matrix_mad_run.hpp"

namespace xmx::interp::matrix_mad_detail {

#if XMX_MMA_X86
namespace {

constexpr uint32_t kFastColumns = 16, kFastRows = 8;

// The helpers are forced inline into the entry points, which carry the same target.
#define XMX_MMA_FAST inline __attribute__((always_inline)) XMX_MMA_AVX2

// --- int8: SG16 M8 K32, A in 16-bit components (two columns each), B four rows per word -------
//
// Two routines. The general one widens every element to 16 bits and sums pairs of products with
// vpmaddwd: exact for every input, 256 multiply-adds of 16 products each. The bounded one, taken
// when the elements' magnitudes allow it (most GEMMs: quantized data, small integers), multiplies
// bytes with vpmaddubsw (unsigned x signed bytes, pairs summed to saturating 16 bits), 32
// products per instruction, and sums up to eight of those in 16-bit lanes before widening:
//   * the unsigned side is A's magnitude |a| (A itself when unsigned), the signed side B with
//     A's sign moved onto it (vpsignb: b, -b or 0 as a is positive, negative or zero), so every
//     byte product is a x b exactly, as long as the moved sign cannot overflow: |b| <= 127;
//   * with amax and bmax the largest magnitudes of this call's A and B, a 16-bit lane that sums
//     2Q products (Q instructions of pairs) stays within int16, without saturating or wrapping,
//     when 2 Q amax bmax <= 32767; Q is the largest of 8, 2, 1 that the bound allows;
//   * the 16-bit lanes are then summed in pairs into 32 bits (vpmaddwd by ones, exact) and added
//     to C with 32-bit wrap-around, like the reference; integer sums do not depend on the order.
// Anything else (some |b| = 128, unsigned b > 127, or no Q fits) takes the general routine.

// The 16 bytes of A or B at `p` as 16 int16, sign- or zero-extended.
template <bool kSigned>
XMX_MMA_FAST __m256i Widen8(const uint8_t* p) {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return kSigned ? _mm256_cvtepi8_epi16(bytes) : _mm256_cvtepu8_epi16(bytes);
}

// The 32-bit word at p (a pair of int16, or four bytes) in every lane: a broadcast load.
XMX_MMA_FAST __m256i Broadcast32(const void* p) {
  return _mm256_castps_si256(_mm256_broadcast_ss(static_cast<const float*>(p)));
}

// acc[j] (column n + j, rows 0-7) += sum over k of A[k][r] B[n + j][k], pairs of k per vpmaddwd.
// a_pairs: [k/2] vectors of (row, k%2) int16; b16: [column][32] int16.
template <uint32_t kCols>
XMX_MMA_FAST void Int8Block(__m256i* __restrict acc, const __m256i* __restrict a_pairs,
                            const int16_t* __restrict b16) {
  __m256i s[kCols];
  for (uint32_t j = 0; j < kCols; ++j) s[j] = acc[j];
#pragma clang loop unroll(full)
  for (uint32_t q = 0; q < 16; ++q) {
    const __m256i av = _mm256_load_si256(a_pairs + q);
#pragma clang loop unroll(full)
    for (uint32_t j = 0; j < kCols; ++j) {
      const __m256i pair = Broadcast32(b16 + j * 32 + 2 * q);
      s[j] = _mm256_add_epi32(s[j], _mm256_madd_epi16(av, pair));
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) acc[j] = s[j];
}

// The general routine: exact for every element. A function of its own, so that its code is
// the same whether or not the byte routines sit next to it.
template <bool kASigned, bool kBSigned>
__attribute__((noinline)) XMX_MMA_AVX2 void RunInt8Widened(const uint8_t* a, const uint8_t* b,
                                                           const uint8_t* c, uint8_t* result) {
  // A lane q holds k = 2q, 2q+1 of rows 0-7 ([q][row][k%2] bytes): one vector per pair of k.
  alignas(32) __m256i a_pairs[16];
  for (uint32_t q = 0; q < 16; ++q) a_pairs[q] = Widen8<kASigned>(a + 16 * q);
  // B lane n holds column n's 32 rows in order.
  alignas(32) int16_t b16[kFastColumns * 32];
  for (uint32_t n = 0; n < kFastColumns; ++n) {
    for (uint32_t h = 0; h < 2; ++h) {
      _mm256_store_si256(reinterpret_cast<__m256i*>(b16 + 32 * n + 16 * h),
                         Widen8<kBSigned>(b + 32 * n + 16 * h));
    }
  }
  // Two blocks of 8 columns; C lane n (8 int32) is column n's accumulator. Each block reads its
  // C lanes before writing the same Result lanes, so Result may alias C.
  for (uint32_t n = 0; n < kFastColumns; n += 8) {
    __m256i acc[8];
    for (uint32_t j = 0; j < 8; ++j) {
      acc[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + 32 * (n + j)));
    }
    Int8Block<8>(acc, a_pairs, b16 + 32 * n);
    for (uint32_t j = 0; j < 8; ++j) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(result + 32 * (n + j)), acc[j]);
    }
  }
}

// The largest of the 32 unsigned bytes of v.
XMX_MMA_FAST uint32_t MaxByte(__m256i v) {
  __m128i m = _mm_max_epu8(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
  m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
  return static_cast<uint32_t>(_mm_cvtsi128_si32(m)) & 0xFFu;
}

// A's bytes by quads of k: quads[t] holds, for rows 0-7, the four bytes of k = 4t .. 4t+3
// ([row][k%4]), the order vpmaddubsw then vpmaddwd sum them in. Lanes 2t and 2t+1 hold k = 4t,
// 4t+1 and 4t+2, 4t+3 of every row as 16-bit components: their components are interleaved.
struct Int8Quads {
  __m256i signed_bytes[8];  // the elements (their signs, for vpsignb)
  __m256i magnitudes[8];    // |a| (A itself when unsigned): vpmaddubsw's unsigned side
  uint32_t max_magnitude;
};

template <bool kASigned>
XMX_MMA_FAST void QuadsOfA(const uint8_t* a, Int8Quads& quads) {
  __m256i largest = _mm256_setzero_si256();
  for (uint32_t t = 0; t < 8; ++t) {
    // [lane 2t | lane 2t+1] -> 64-bit blocks (0 2 | 1 3), then the 16-bit components of the
    // two lanes interleaved within each 128-bit half.
    const __m256i v = _mm256_permute4x64_epi64(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 32 * t)), 0xD8);
    const __m256i q = _mm256_unpacklo_epi16(v, _mm256_shuffle_epi32(v, 0x4E));
    const __m256i magnitude = kASigned ? _mm256_abs_epi8(q) : q;
    quads.signed_bytes[t] = q;
    quads.magnitudes[t] = magnitude;
    largest = _mm256_max_epu8(largest, magnitude);
  }
  quads.max_magnitude = MaxByte(largest);
}

// The largest magnitude among B's 512 bytes (128 for a signed -128).
template <bool kBSigned>
XMX_MMA_FAST uint32_t MaxMagnitudeOfB(const uint8_t* b) {
  __m256i largest = _mm256_setzero_si256();
  for (uint32_t n = 0; n < kFastColumns; ++n) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 32 * n));
    largest = _mm256_max_epu8(largest, kBSigned ? _mm256_abs_epi8(v) : v);
  }
  return MaxByte(largest);
}

// Columns n .. n+kCols-1: Result = C + sum of products, in 16-bit partial sums of kQuads quads
// (4 k each) widened to 32 bits after each group.
template <bool kASigned, uint32_t kQuads, uint32_t kCols>
XMX_MMA_FAST void BytesBlock(const Int8Quads& quads, const uint8_t* b, const uint8_t* c,
                             uint8_t* result, uint32_t n) {
  const __m256i ones = _mm256_set1_epi16(1);
  __m256i acc[kCols];
  for (uint32_t j = 0; j < kCols; ++j) {
    acc[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + 32 * (n + j)));
  }
#pragma clang loop unroll(full)
  for (uint32_t t0 = 0; t0 < 8; t0 += kQuads) {
    __m256i partial[kCols];
#pragma clang loop unroll(full)
    for (uint32_t t = t0; t < t0 + kQuads; ++t) {
      const __m256i x = quads.magnitudes[t];
#pragma clang loop unroll(full)
      for (uint32_t j = 0; j < kCols; ++j) {
        __m256i y = Broadcast32(b + 32 * (n + j) + 4 * t);
        if constexpr (kASigned) y = _mm256_sign_epi8(y, quads.signed_bytes[t]);
        const __m256i products = _mm256_maddubs_epi16(x, y);
        partial[j] = t == t0 ? products : _mm256_add_epi16(partial[j], products);
      }
    }
    for (uint32_t j = 0; j < kCols; ++j) {
      acc[j] = _mm256_add_epi32(acc[j], _mm256_madd_epi16(partial[j], ones));
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(result + 32 * (n + j)), acc[j]);
  }
}

// Blocks small enough to keep C's and the partial sums' vectors in the 16 registers: 8 columns
// when one group covers all of K (the partial sums are the only accumulators until the end),
// else 4.
template <bool kASigned, uint32_t kQuads>
XMX_MMA_FAST void RunInt8Bytes(const Int8Quads& quads, const uint8_t* b, const uint8_t* c,
                               uint8_t* result) {
  constexpr uint32_t kCols = kQuads == 8 ? 8 : 4;
  // Each block reads its C lanes before writing the same Result lanes, so Result may alias C.
  for (uint32_t n = 0; n < kFastColumns; n += kCols) {
    BytesBlock<kASigned, kQuads, kCols>(quads, b, c, result, n);
  }
}

template <bool kASigned, bool kBSigned>
XMX_MMA_AVX2 void RunInt8Sg16M8(const Plan& /*plan*/, const uint8_t* a, const uint8_t* b,
                                const uint8_t* c, uint8_t* result) {
  // B first: full-range data (a -128, or an unsigned b above 127) goes to the widening routine
  // without rearranging A.
  const uint32_t bmax = MaxMagnitudeOfB<kBSigned>(b);
  if (bmax <= 127) {
    Int8Quads quads;
    QuadsOfA<kASigned>(a, quads);
    // The largest sum a 16-bit lane can reach per quad of k (two products).
    const uint32_t pair_bound = 2 * quads.max_magnitude * bmax;
    if (8 * pair_bound <= 32767) return RunInt8Bytes<kASigned, 8>(quads, b, c, result);
    if (2 * pair_bound <= 32767) return RunInt8Bytes<kASigned, 2>(quads, b, c, result);
    if (pair_bound <= 32767) return RunInt8Bytes<kASigned, 1>(quads, b, c, result);
  }
  RunInt8Widened<kASigned, kBSigned>(a, b, c, result);
}

// --- bf16 / fp16: SG16 M8 K16, A one element per 16-bit component, B two rows per word ----------

// The smallest non-zero (minus one) and the largest magnitude keys seen, kept per vector lane
// (16-bit lanes for bf16 / fp16 patterns, 32-bit lanes for fp32 C) and reduced at the end.
struct Keys16 {
  __m256i low_minus_one, high;
};

XMX_MMA_FAST Keys16 NewKeys16() { return {_mm256_set1_epi16(-1), _mm256_setzero_si256()}; }

// Widens `keys` by 16 patterns: key = pattern without its sign; key - 1 wraps a zero key to
// 0xFFFF, so the minimum skips zeros.
XMX_MMA_FAST void AddKeys16(Keys16& keys, __m256i patterns) {
  const __m256i key = _mm256_and_si256(patterns, _mm256_set1_epi16(0x7FFF));
  keys.high = _mm256_max_epu16(keys.high, key);
  keys.low_minus_one =
      _mm256_min_epu16(keys.low_minus_one, _mm256_sub_epi16(key, _mm256_set1_epi16(1)));
}

XMX_MMA_FAST KeyRange ReduceKeys16(const Keys16& keys) {
  // phminposuw finds the minimum of eight 16-bit lanes; the maximum is the complement's minimum.
  const __m128i low = _mm_min_epu16(_mm256_castsi256_si128(keys.low_minus_one),
                                    _mm256_extracti128_si256(keys.low_minus_one, 1));
  const __m128i high =
      _mm_max_epu16(_mm256_castsi256_si128(keys.high), _mm256_extracti128_si256(keys.high, 1));
  const uint32_t l = static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_minpos_epu16(low))) & 0xFFFFu;
  const uint32_t h = 0xFFFFu - (static_cast<uint32_t>(_mm_cvtsi128_si32(
                                    _mm_minpos_epu16(_mm_xor_si128(high, _mm_set1_epi16(-1))))) &
                                0xFFFFu);
  return {l == 0xFFFF ? ~0u : l + 1, h};
}

// 16 bf16 or fp16 patterns as two vectors of 8 fp32 values (exactly), elements 0-7 and 8-15.
template <Element kElement>
XMX_MMA_FAST void Widen16ToFloats(__m256i patterns, __m256& low, __m256& high) {
  if constexpr (kElement == Element::kBFloat16) {
    // bf16 is the upper half of the fp32 pattern. The unpacks work within 128-bit lanes, so
    // the permute first puts elements 0-7 in the lower halves and 8-15 in the upper ones.
    const __m256i ordered = _mm256_permute4x64_epi64(patterns, 0xD8);  // 64-bit blocks 0 2 1 3
    const __m256i zero = _mm256_setzero_si256();
    low = _mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, ordered));
    high = _mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, ordered));
  } else {
    // F16C converts every fp16 value exactly, subnormals included (a NaN stays a NaN).
    low = _mm256_cvtph_ps(_mm256_castsi256_si128(patterns));
    high = _mm256_cvtph_ps(_mm256_extracti128_si256(patterns, 1));
  }
}

XMX_MMA_FAST void StoreAsDoubles(double* out, __m256 floats) {
  _mm256_store_pd(out, _mm256_cvtps_pd(_mm256_castps256_ps128(floats)));
  _mm256_store_pd(out + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(floats, 1)));
}

// `count` (a multiple of 16) bf16 / fp16 patterns into doubles (or floats), widening `keys`.
template <Element kElement, class T>
XMX_MMA_FAST void Decode16(const uint8_t* in, T* out, uint32_t count, Keys16* keys) {
  for (uint32_t i = 0; i < count; i += 16) {
    const __m256i patterns = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 2 * i));
    if (keys != nullptr) AddKeys16(*keys, patterns);
    if constexpr (std::is_same_v<T, double>) {
      // Groups of four elements (0-3, 4-7, 8-11, 12-15) become one vector of doubles each;
      // the bf16 unpacks leave them in the order 0 2 1 3 and need no permute before that.
      __m128 groups[4];
      if constexpr (kElement == Element::kBFloat16) {
        const __m256i zero = _mm256_setzero_si256();
        const __m256 low = _mm256_castsi256_ps(_mm256_unpacklo_epi16(zero, patterns));
        const __m256 high = _mm256_castsi256_ps(_mm256_unpackhi_epi16(zero, patterns));
        groups[0] = _mm256_castps256_ps128(low);
        groups[1] = _mm256_castps256_ps128(high);
        groups[2] = _mm256_extractf128_ps(low, 1);
        groups[3] = _mm256_extractf128_ps(high, 1);
      } else {
        const __m256 low = _mm256_cvtph_ps(_mm256_castsi256_si128(patterns));
        const __m256 high = _mm256_cvtph_ps(_mm256_extracti128_si256(patterns, 1));
        groups[0] = _mm256_castps256_ps128(low);
        groups[1] = _mm256_extractf128_ps(low, 1);
        groups[2] = _mm256_castps256_ps128(high);
        groups[3] = _mm256_extractf128_ps(high, 1);
      }
      for (uint32_t g = 0; g < 4; ++g) _mm256_store_pd(out + i + 4 * g, _mm256_cvtps_pd(groups[g]));
    } else {
      __m256 low, high;
      Widen16ToFloats<kElement>(patterns, low, high);
      _mm256_store_ps(out + i, low);
      _mm256_store_ps(out + i + 8, high);
    }
  }
}

// C (16 lanes x 8 rows, [column][row]) as floats, for the ordered model.
XMX_MMA_FAST void LoadCAsFloats(const Plan& p, const uint8_t* c, float* out) {
  constexpr uint32_t kCount = kFastColumns * kFastRows;
  if (p.c_format == Accumulator::kFloat) {
    for (uint32_t i = 0; i < kCount; i += 8) {
      _mm256_store_ps(out + i, _mm256_loadu_ps(reinterpret_cast<const float*>(c + 4 * i)));
    }
  } else if (p.c_format == Accumulator::kHalf) {
    Decode16<Element::kHalf>(c, out, kCount, nullptr);
  } else {
    Decode16<Element::kBFloat16>(c, out, kCount, nullptr);
  }
}

// fp32 Results from doubles: one rounding to nearest even, NaN as the canonical quiet NaN.
XMX_MMA_FAST void StoreFloatsFromDoubles(const double* acc, uint8_t* result) {
  const __m256 canonical = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000));
  for (uint32_t i = 0; i < kFastColumns * kFastRows; i += 8) {
    const __m128 low = _mm256_cvtpd_ps(_mm256_load_pd(acc + i));
    const __m128 high = _mm256_cvtpd_ps(_mm256_load_pd(acc + i + 4));
    const __m256 f = _mm256_insertf128_ps(_mm256_castps128_ps256(low), high, 1);
    const __m256 nan = _mm256_cmp_ps(f, f, _CMP_UNORD_Q);
    _mm256_storeu_ps(reinterpret_cast<float*>(result + 4 * i), _mm256_blendv_ps(f, canonical, nan));
  }
}

// acc[n][r] += sum over k of a[k][r] b[n][k] in double for kCols columns from `n`: the exact
// model's sum (exact whenever the bound holds, so the order and the fusing do not matter).
template <uint32_t kCols>
XMX_MMA_FAST void DoubleBlock(double* acc, const double* a, const double* b) {
  __m256d s[kCols][2];
  for (uint32_t j = 0; j < kCols; ++j) {
    s[j][0] = _mm256_load_pd(acc + 8 * j);
    s[j][1] = _mm256_load_pd(acc + 8 * j + 4);
  }
#pragma clang loop unroll(full)
  for (uint32_t k = 0; k < 16; ++k) {
    const __m256d a0 = _mm256_load_pd(a + 8 * k), a1 = _mm256_load_pd(a + 8 * k + 4);
#pragma clang loop unroll(full)
    for (uint32_t j = 0; j < kCols; ++j) {
      const __m256d bj = _mm256_broadcast_sd(b + 16 * j + k);
      s[j][0] = _mm256_fmadd_pd(a0, bj, s[j][0]);
      s[j][1] = _mm256_fmadd_pd(a1, bj, s[j][1]);
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) {
    _mm256_store_pd(acc + 8 * j, s[j][0]);
    _mm256_store_pd(acc + 8 * j + 4, s[j][1]);
  }
}

// Columns n .. n+kCols-1 of C as doubles into acc ([column][row]), widening `keys` by their
// magnitude keys (32-bit lanes for fp32 C, 16-bit lanes for fp16 / bf16).
template <Accumulator kC, uint32_t kCols>
XMX_MMA_FAST void LoadCColumns(const uint8_t* c, uint32_t n, double* acc, Keys16& keys) {
  constexpr uint32_t kValues = kCols * kFastRows;
  if constexpr (kC == Accumulator::kFloat) {
    for (uint32_t i = kFastRows * n; i < kFastRows * n + kValues; i += 8) {
      const __m256i bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + 4 * i));
      const __m256i key = _mm256_and_si256(bits, _mm256_set1_epi32(0x7FFFFFFF));
      keys.high = _mm256_max_epu32(keys.high, key);
      keys.low_minus_one =
          _mm256_min_epu32(keys.low_minus_one, _mm256_sub_epi32(key, _mm256_set1_epi32(1)));
      StoreAsDoubles(acc + i, _mm256_castsi256_ps(bits));
    }
  } else {
    constexpr Element kFormat = kC == Accumulator::kHalf ? Element::kHalf : Element::kBFloat16;
    Decode16<kFormat>(c + 2 * kFastRows * n, acc + kFastRows * n, kValues, &keys);
  }
}

template <Accumulator kC>
XMX_MMA_FAST ExponentRange CRange(const Keys16& keys) {
  if constexpr (kC == Accumulator::kFloat) {
    alignas(32) uint32_t low[8], high[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(low), keys.low_minus_one);
    _mm256_store_si256(reinterpret_cast<__m256i*>(high), keys.high);
    KeyRange range{~0u - 1, 0};
    for (uint32_t i = 0; i < 8; ++i) {
      range.low = low[i] < range.low ? low[i] : range.low;
      range.high = high[i] > range.high ? high[i] : range.high;
    }
    range.low += 1;
    return ExponentsOf<Element::kFloat>(range);
  } else if constexpr (kC == Accumulator::kHalf) {
    return ExponentsOf<Element::kHalf>(ReduceKeys16(keys));
  } else {
    return ExponentsOf<Element::kBFloat16>(ReduceKeys16(keys));
  }
}

// One block of the exact model: B and C of columns n .. n+kCols-1 converted just before the
// block's sums, so that the conversions of one block overlap the multiply-adds of the previous
// one in the CPU's out-of-order window instead of forming a phase of their own.
template <Element kElement, Accumulator kC, uint32_t kCols>
XMX_MMA_FAST void ExactBlock(uint32_t n, const uint8_t* b, const uint8_t* c, const double* a_values,
                             double* b_values, double* acc, Keys16& b_keys, Keys16& c_keys) {
  Decode16<kElement>(b + 32 * n, b_values + 16 * n, kCols * 16, &b_keys);
  LoadCColumns<kC, kCols>(c, n, acc, c_keys);
  DoubleBlock<kCols>(acc + kFastRows * n, a_values, b_values + 16 * n);
}

// The exact model, in blocks of 4 columns (8 accumulator registers, 2 for A's rows, 1 for B's
// broadcast; blocks of 6 spill).
template <Element kElement, Accumulator kC>
XMX_MMA_AVX2 void RunFloat16ExactSg16M8(const Plan& p, const uint8_t* a, const uint8_t* b,
                                        const uint8_t* c, uint8_t* result) {
  alignas(32) double a_values[16 * kFastRows];     // [k][row]: A lane k is column k of A
  alignas(32) double b_values[kFastColumns * 16];  // [column][k]: B lane n is column n
  alignas(32) double acc[kFastColumns * kFastRows];
  Keys16 a_keys = NewKeys16(), b_keys = NewKeys16(), c_keys = NewKeys16();
  Decode16<kElement>(a, a_values, 16 * kFastRows, &a_keys);
  for (uint32_t n = 0; n < kFastColumns; n += 4) {
    ExactBlock<kElement, kC, 4>(n, b, c, a_values, b_values, acc, b_keys, c_keys);
  }
  const bool exact =
      DoubleSumIsExact(p, ExponentsOf<kElement>(ReduceKeys16(a_keys)),
                       ExponentsOf<kElement>(ReduceKeys16(b_keys)), CRange<kC>(c_keys));
  if (!exact) RefineInexactSums(p, 0, a_values, b_values, c, acc);
  if (p.result_format == Accumulator::kFloat) {
    StoreFloatsFromDoubles(acc, result);
  } else {
    StoreFloatResults<kFastRows>(p, acc, 0, result);
  }
}

template <Element kElement>
XMX_MMA_AVX2 void RunFloat16OrderedSg16M8(const Plan& p, const uint8_t* a, const uint8_t* b,
                                          const uint8_t* c, uint8_t* result) {
  alignas(32) float a_values[16 * kFastRows];     // [k][row]
  alignas(32) float b_values[kFastColumns * 16];  // [column][k]
  alignas(32) float acc[kFastColumns * kFastRows];
  Decode16<kElement>(a, a_values, 16 * kFastRows, nullptr);
  Decode16<kElement>(b, b_values, kFastColumns * 16, nullptr);
  LoadCAsFloats(p, c, acc);
  // acc = fp32(acc + a b) for k = 0, 1, ..., 15 in order: one fp32 FMA per step.
  for (uint32_t n = 0; n < kFastColumns; n += 8) {
    __m256 s[8];
    for (uint32_t j = 0; j < 8; ++j) s[j] = _mm256_load_ps(acc + kFastRows * (n + j));
#pragma clang loop unroll(full)
    for (uint32_t k = 0; k < 16; ++k) {
      const __m256 ak = _mm256_load_ps(a_values + kFastRows * k);
#pragma clang loop unroll(full)
      for (uint32_t j = 0; j < 8; ++j) {
        s[j] = _mm256_fmadd_ps(ak, _mm256_broadcast_ss(b_values + 16 * (n + j) + k), s[j]);
      }
    }
    for (uint32_t j = 0; j < 8; ++j) _mm256_store_ps(acc + kFastRows * (n + j), s[j]);
  }
  if (p.result_format == Accumulator::kFloat) {
    const __m256 canonical = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000));
    for (uint32_t i = 0; i < kFastColumns * kFastRows; i += 8) {
      const __m256 f = _mm256_load_ps(acc + i);
      const __m256 nan = _mm256_cmp_ps(f, f, _CMP_UNORD_Q);
      _mm256_storeu_ps(reinterpret_cast<float*>(result + 4 * i),
                       _mm256_blendv_ps(f, canonical, nan));
    }
    return;
  }
  // bf16 / fp16 Results: the fp32 accumulators (exact as doubles) rounded once by the generic
  // encoder.
  alignas(32) double wide[kFastColumns * kFastRows];
  for (uint32_t i = 0; i < kFastColumns * kFastRows; i += 8) {
    StoreAsDoubles(wide + i, _mm256_load_ps(acc + i));
  }
  StoreFloatResults<kFastRows>(p, wide, 0, result);
}

// Whether the plan is SG16, one half of exactly 8 rows, A's columns one (floats) or one pair
// (int8) per 16-bit component with no row phases, and K the table's.
bool IsFastShape(const Plan& p, uint32_t k) {
  return p.subgroup_size == kFastColumns && p.halves == 1 && p.half_rows == kFastRows &&
         p.padded_rows == kFastRows && p.a_phases == 1 && p.a_component_bytes == 2 && p.k == k &&
         p.b_lane_bytes == k * p.b_element_bits / 8;
}

template <Element kElement>
RunFn ExactFor(Accumulator c_format) {
  switch (c_format) {
    case Accumulator::kHalf:
      return &RunFloat16ExactSg16M8<kElement, Accumulator::kHalf>;
    case Accumulator::kBFloat16:
      return &RunFloat16ExactSg16M8<kElement, Accumulator::kBFloat16>;
    default:
      return &RunFloat16ExactSg16M8<kElement, Accumulator::kFloat>;
  }
}

}  // namespace

bool SelectFastAvx2Kernel(Plan* plan) {
  const Plan& p = *plan;
  const bool a_int8 = p.a_element == Element::kInt8 || p.a_element == Element::kUint8;
  const bool b_int8 = p.b_element == Element::kInt8 || p.b_element == Element::kUint8;
  if (a_int8 && b_int8 && IsFastShape(p, 32)) {
    const bool sa = p.a_element == Element::kInt8, sb = p.b_element == Element::kInt8;
    plan->run = sa ? (sb ? &RunInt8Sg16M8<true, true> : &RunInt8Sg16M8<true, false>)
                   : (sb ? &RunInt8Sg16M8<false, true> : &RunInt8Sg16M8<false, false>);
    plan->hand_vectorized = true;
    return true;
  }
  const bool float16 = p.a_element == p.b_element &&
                       (p.a_element == Element::kBFloat16 || p.a_element == Element::kHalf);
  if (!float16 || !IsFastShape(p, 16)) return false;
  const bool bf16 = p.a_element == Element::kBFloat16;
  if (p.model == MmaFloatModel::kExact) {
    plan->run =
        bf16 ? ExactFor<Element::kBFloat16>(p.c_format) : ExactFor<Element::kHalf>(p.c_format);
  } else {
    plan->run = bf16 ? &RunFloat16OrderedSg16M8<Element::kBFloat16>
                     : &RunFloat16OrderedSg16M8<Element::kHalf>;
  }
  plan->hand_vectorized = true;
  return true;
}
#endif

}  // namespace xmx::interp::matrix_mad_detail
