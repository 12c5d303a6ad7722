// The AVX-512 routine for the bf16 / fp16 matrix instruction GEMMs run most (SG16, M8, K16, A and
// B both bf16 or both fp16, any float C and Result) in the exact float model. It computes the
// same bits as the AVX2 routine of matrix_mad_fast_avx2.cpp and the generic templates (the unit
// tests compare them), by the same argument: every product of two 16-bit floats and every C is
// a double, and a double sum of them is exact, in any order, when the exponent bound
// (DoubleSumIsExact) says so; otherwise RefineInexactSums redoes the sums it cannot prove, on
// the same working arrays.
//
// What differs from the AVX2 routine:
//   * one vector holds the 8 rows of one column as doubles, so a column's sum is 16 fused
//     multiply-adds (half of AVX2's), each taking B's element straight from memory with an
//     embedded broadcast ({1to8}) instead of a separate broadcast;
//   * the columns are summed in two blocks of 8 (8 sums in registers); the first block's steps
//     also do the rest of the work, a slice after every four steps: converting A and B to
//     doubles just ahead of the steps that read them (only what the first steps read is
//     converted before), and the exponent keys (16-bit, 32-bit for fp32 C, min / max over the
//     raw patterns of 512-bit vectors), so that this work overlaps the FMAs instead of forming
//     phases of its own;
//   * the operands are read through a lane stride, so the interpreter can hand over operands
//     that lie in the work-items' private copies without copying them into slots (RunInPlace);
//   * exact fp32 Results are rounded with vcvtpd2ps alone: the bound holds only without Inf and
//     NaN inputs, so there is no NaN to replace.
// On AMD Zen 4 (the development machine) a 512-bit FMA occupies both 256-bit FMA pipes, so the
// 256 FMAs alone take about 256 cycles, the same FMA throughput as AVX2's 512 256-bit FMAs; the
// gain comes from the work around them. Measured by removing parts (matrix_mad_bench,
// BM_Bf16_M8N16K16, 113 ns in all): the FMAs with C and the Result 73 ns, the A / B conversions
// about 20 ns, the keys and the decision about 20 ns; spreading the conversions more finely or
// converting 32 elements per instruction did not help, the non-FMA vector work competes with the
// FMAs for the floating-point pipes.
#include <cstring>

#include "interp/matrix_mad/matrix_mad_run.hpp"

namespace xmx::interp::matrix_mad_detail {

#if XMX_MMA_X86
namespace {

constexpr uint32_t kColumns = 16, kRows = 8, kK = 16;

// The helpers are forced inline into the routines, which carry the same target.
#define XMX_MMA_FAST512 inline __attribute__((always_inline)) XMX_MMA_AVX512

// The 64 bytes of lanes l .. l + 64 / lane_bytes - 1 (lane_bytes 16 or 32) as one vector.
template <uint32_t kLaneBytes>
XMX_MMA_FAST512 __m512i LaneVector(Lanes x, uint32_t l) {
  if (x.stride == kLaneBytes) return _mm512_loadu_si512(x[l]);
  if constexpr (kLaneBytes == 32) {
    const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[l]));
    const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[l + 1]));
    return _mm512_inserti64x4(_mm512_castsi256_si512(low), high, 1);
  } else {
    __m512i v = _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x[l])));
    v = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[l + 1])), 1);
    v = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[l + 2])), 2);
    return _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(x[l + 3])), 3);
  }
}

// --- Exponent ranges -----------------------------------------------------------------------------
//
// A key is a pattern without its sign, which orders like the magnitude within a format (Inf and
// NaN above every finite value). Each operand keeps, per vector lane, the smallest non-zero key
// minus one and the largest key; a zero key minus one wraps to all ones, so the minimum skips
// zeros.

struct LaneKeys {
  __m512i low_minus_one, high;
};

XMX_MMA_FAST512 LaneKeys NewLaneKeys() { return {_mm512_set1_epi32(-1), _mm512_setzero_si512()}; }

// The 32 bf16 / fp16 patterns (k32 false) or 16 fp32 patterns (k32 true) of `bits`.
template <bool k32>
XMX_MMA_FAST512 void AddKeys(LaneKeys& keys, __m512i bits) {
  if constexpr (k32) {
    const __m512i key = _mm512_and_si512(bits, _mm512_set1_epi32(0x7FFFFFFF));
    keys.high = _mm512_max_epu32(keys.high, key);
    keys.low_minus_one =
        _mm512_min_epu32(keys.low_minus_one, _mm512_sub_epi32(key, _mm512_set1_epi32(1)));
  } else {
    const __m512i key = _mm512_and_si512(bits, _mm512_set1_epi16(0x7FFF));
    keys.high = _mm512_max_epu16(keys.high, key);
    keys.low_minus_one =
        _mm512_min_epu16(keys.low_minus_one, _mm512_sub_epi16(key, _mm512_set1_epi16(1)));
  }
}

// The minimum (kLow) or maximum of the 32 16-bit lanes of v, in the 8 lanes of an xmm.
template <bool kLow>
XMX_MMA_FAST512 __m128i Fold16(__m512i v) {
  const __m256i x = _mm512_castsi512_si256(v), y = _mm512_extracti64x4_epi64(v, 1);
  const __m256i m = kLow ? _mm256_min_epu16(x, y) : _mm256_max_epu16(x, y);
  const __m128i u = _mm256_castsi256_si128(m), w = _mm256_extracti128_si256(m, 1);
  return kLow ? _mm_min_epu16(u, w) : _mm_max_epu16(u, w);
}

template <bool k32>
XMX_MMA_FAST512 KeyRange ReduceKeys(const LaneKeys& keys) {
  if constexpr (k32) {
    const uint32_t l = _mm512_reduce_min_epu32(keys.low_minus_one);
    return {l == ~0u ? ~0u : l + 1, _mm512_reduce_max_epu32(keys.high)};
  } else {
    // phminposuw finds the minimum of eight 16-bit lanes; the maximum is the complement's
    // minimum.
    const __m128i low = Fold16<true>(keys.low_minus_one);
    const __m128i high = _mm_xor_si128(Fold16<false>(keys.high), _mm_set1_epi16(-1));
    const uint32_t l = static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_minpos_epu16(low))) & 0xFFFFu;
    const uint32_t h =
        0xFFFFu - (static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_minpos_epu16(high))) & 0xFFFFu);
    return {l == 0xFFFFu ? ~0u : l + 1, h};
  }
}

template <Accumulator kC>
constexpr Element kCElement = kC == Accumulator::kFloat  ? Element::kFloat
                              : kC == Accumulator::kHalf ? Element::kHalf
                                                         : Element::kBFloat16;

struct OperandKeys {
  LaneKeys a, b, c;
};

// A quarter of each operand's keys (quarter q = 0 .. 3): A and B are 256 and 512 bytes of 16-bit
// patterns, C 512 bytes of fp32 or 256 bytes of 16-bit patterns.
template <Accumulator kC>
XMX_MMA_FAST512 void AddQuarterKeys(OperandKeys& keys, uint32_t q, Lanes a, Lanes b, Lanes c) {
  AddKeys<false>(keys.a, LaneVector<16>(a, 4 * q));
  AddKeys<false>(keys.b, LaneVector<32>(b, 4 * q));
  AddKeys<false>(keys.b, LaneVector<32>(b, 4 * q + 2));
  if constexpr (kC == Accumulator::kFloat) {
    AddKeys<true>(keys.c, LaneVector<32>(c, 4 * q));
    AddKeys<true>(keys.c, LaneVector<32>(c, 4 * q + 2));
  } else {
    AddKeys<false>(keys.c, LaneVector<16>(c, 4 * q));
  }
}

// Whether the double sums of this call are all exact: the bound over every A, B and C value.
template <Element kElement, Accumulator kC>
XMX_MMA_FAST512 bool SumsAreExact(const Plan& p, const OperandKeys& keys) {
  return DoubleSumIsExact(
      p, ExponentsOf<kElement>(ReduceKeys<false>(keys.a)),
      ExponentsOf<kElement>(ReduceKeys<false>(keys.b)),
      ExponentsOf<kCElement<kC>>(ReduceKeys<kC == Accumulator::kFloat>(keys.c)));
}

// --- Conversions ---------------------------------------------------------------------------------

// The 8 bf16 or fp16 patterns at p as doubles, exactly (subnormals kept, NaN stays NaN).
template <Element kElement>
XMX_MMA_FAST512 __m512d EightAsDoubles(const uint8_t* p) {
  const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  __m256 floats;
  if constexpr (kElement == Element::kBFloat16) {
    // bf16 is the upper half of the fp32 pattern.
    floats = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(bits), 16));
  } else {
    floats = _mm256_cvtph_ps(bits);
  }
  return _mm512_cvtps_pd(floats);
}

// Element run q (16 bytes, 8 elements) of A or B into the working array, which keeps the slot's
// order: A lane k is run k and holds column k of A (rows 0-7), so a_values is [k][row]; B lane
// j is runs 2j and 2j+1 and holds column j's 16 rows, so b_values is [column][k].
template <Element kElement, uint32_t kLaneBytes>
XMX_MMA_FAST512 void ConvertRun(Lanes slot, uint32_t q, double* values) {
  static_assert(kLaneBytes == 16 || kLaneBytes == 32);
  const uint8_t* run = kLaneBytes == 16 ? slot[q] : slot[q / 2] + 16 * (q % 2);
  _mm512_store_pd(values + 8 * q, EightAsDoubles<kElement>(run));
}

// C lane n (column n, 8 rows) as doubles.
template <Accumulator kC>
XMX_MMA_FAST512 __m512d CColumn(Lanes c, uint32_t n) {
  if constexpr (kC == Accumulator::kFloat) {
    return _mm512_cvtps_pd(_mm256_loadu_ps(reinterpret_cast<const float*>(c[n])));
  } else {
    return EightAsDoubles<kCElement<kC>>(c[n]);
  }
}

// fp32 Result lane n from its sum: one rounding to nearest even, NaN as the canonical quiet NaN.
XMX_MMA_FAST512 void StoreFloatColumn(ResultLanes result, uint32_t n, __m512d sum) {
  const __mmask8 nan = _mm512_cmp_pd_mask(sum, sum, _CMP_UNORD_Q);
  const __m256 rounded = _mm256_mask_mov_ps(_mm512_cvtpd_ps(sum), nan,
                                            _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000)));
  _mm256_storeu_ps(reinterpret_cast<float*>(result[n]), rounded);
}

// --- The sums ------------------------------------------------------------------------------------

// sums[j] += A column k times B[n + j][k] in double for the 16 k and the 8 columns from n,
// four steps at a time, calling extra(i) after steps 4i .. 4i+3 (unrolled, so i is a constant
// there). In each step the 8 sums advance together (8 independent FMAs hide the FMA latency).
template <class Extra>
XMX_MMA_FAST512 void SumColumns(uint32_t n, const double* a_values, const double* b_values,
                                __m512d* sums, Extra&& extra) {
#pragma clang loop unroll(full)
  for (uint32_t i = 0; i < kK / 4; ++i) {
#pragma clang loop unroll(full)
    for (uint32_t k = 4 * i; k < 4 * i + 4; ++k) {
      const __m512d a_column = _mm512_load_pd(a_values + kRows * k);
#pragma clang loop unroll(full)
      for (uint32_t j = 0; j < 8; ++j) {
        // The broadcast folds into the FMA as a {1to8} memory operand.
        sums[j] = _mm512_fmadd_pd(a_column, _mm512_set1_pd(b_values[kK * (n + j) + k]), sums[j]);
      }
    }
    extra(i);
  }
}

struct NoExtraWork {
  XMX_MMA_FAST512 void operator()(uint32_t /*i*/) const {}
};

template <Accumulator kC>
XMX_MMA_FAST512 void LoadCBlock(Lanes c, uint32_t n, __m512d* sums) {
  for (uint32_t j = 0; j < 8; ++j) sums[j] = CColumn<kC>(c, n + j);
}

XMX_MMA_FAST512 void StoreSums(uint32_t n, const __m512d* sums, double* acc) {
  for (uint32_t j = 0; j < 8; ++j) _mm512_store_pd(acc + kRows * (n + j), sums[j]);
}

// What the first block does besides its FMAs. Before it, only what its first steps read is
// converted: rows 0-7 of B columns 0-7 and A columns 0-3. After steps 4i .. 4i+3 (i = 0 .. 3,
// a constant once SumColumns is unrolled) it converts what later steps read: A columns
// 4i+4 .. 4i+7 (i < 3), rows 8-15 of B columns 4i .. 4i+3 (i < 2, read from step 8 on), then
// the second block's B; and it takes a quarter of each operand's keys.
template <Element kElement, Accumulator kC>
struct FirstBlockWork {
  Lanes a, b, c;
  double *a_values, *b_values;
  OperandKeys* keys;
  XMX_MMA_FAST512 void operator()(uint32_t i) const {
    if (i < 3) {
      for (uint32_t k = 4 * i + 4; k < 4 * i + 8; ++k) ConvertRun<kElement, 16>(a, k, a_values);
    }
    if (i < 2) {
      for (uint32_t j = 4 * i; j < 4 * i + 4; ++j) ConvertRun<kElement, 32>(b, 2 * j + 1, b_values);
    } else {
      for (uint32_t q = 16 + 8 * (i - 2); q < 24 + 8 * (i - 2); ++q) {
        ConvertRun<kElement, 32>(b, q, b_values);
      }
    }
    AddQuarterKeys<kC>(*keys, i, a, b, c);
  }
};

// The common case: both blocks' sums into acc, exactness decided from the keys at the end, the
// refinement (rarely) on the same arrays, then the rounding.
template <Element kElement, Accumulator kC>
XMX_MMA_FAST512 void Float16ExactAvx512(const Plan& p, Lanes a, Lanes b, Lanes c,
                                        ResultLanes result) {
  alignas(64) double a_values[kK * kRows], b_values[kColumns * kK], acc[kColumns * kRows];
  for (uint32_t j = 0; j < 8; ++j) ConvertRun<kElement, 32>(b, 2 * j, b_values);
  for (uint32_t k = 0; k < 4; ++k) ConvertRun<kElement, 16>(a, k, a_values);
  OperandKeys keys{NewLaneKeys(), NewLaneKeys(), NewLaneKeys()};
  __m512d sums[8];
  LoadCBlock<kC>(c, 0, sums);
  SumColumns(0, a_values, b_values, sums,
             FirstBlockWork<kElement, kC>{a, b, c, a_values, b_values, &keys});
  StoreSums(0, sums, acc);
  LoadCBlock<kC>(c, 8, sums);
  SumColumns(8, a_values, b_values, sums, NoExtraWork{});
  StoreSums(8, sums, acc);
  const bool exact = SumsAreExact<kElement, kC>(p, keys);
  if (!exact) {
    // The refinement reads C from a register slot: C in place is copied into one first.
    alignas(64) uint8_t c_slot[kColumns * 32];
    const uint32_t c_lane_bytes = kC == Accumulator::kFloat ? 32 : 16;
    if (c.stride != c_lane_bytes) {
      for (uint32_t n = 0; n < kColumns; ++n) {
        std::memcpy(c_slot + n * c_lane_bytes, c[n], c_lane_bytes);
      }
      c = {c_slot, c_lane_bytes};
    }
    RefineInexactSums(p, 0, a_values, b_values, c.first, acc);
  }
  if (p.result_format == Accumulator::kFloat) {
    for (uint32_t n = 0; n < kColumns; ++n) {
      const __m512d sum = _mm512_load_pd(acc + kRows * n);
      if (exact) {
        // The bound holds only when no input is Inf or NaN, so exact sums are finite and need
        // no NaN replacement: one rounding to nearest even.
        _mm256_storeu_ps(reinterpret_cast<float*>(result[n]), _mm512_cvtpd_ps(sum));
      } else {
        StoreFloatColumn(result, n, sum);
      }
    }
  } else if (result.stride == 16) {
    StoreFloatResults<kRows>(p, acc, 0, result.first);
  } else {
    // 16-bit Results in place: encoded into a slot, then moved lane by lane.
    alignas(64) uint8_t slot[kColumns * 16];
    StoreFloatResults<kRows>(p, acc, 0, slot);
    for (uint32_t n = 0; n < kColumns; ++n) std::memcpy(result[n], slot + 16 * n, 16);
  }
}

// The entry points: operands in register slots (Run) or read in place (RunInPlace).
template <Element kElement, Accumulator kC>
XMX_MMA_AVX512 void RunFloat16ExactAvx512(const Plan& p, const uint8_t* a, const uint8_t* b,
                                          const uint8_t* c, uint8_t* result) {
  Float16ExactAvx512<kElement, kC>(p, {a, 16}, {b, 32}, {c, kC == Accumulator::kFloat ? 32u : 16u},
                                   {result, p.result_format == Accumulator::kFloat ? 32u : 16u});
}

template <Element kElement, Accumulator kC>
XMX_MMA_AVX512 void RunFloat16ExactAvx512InPlace(const Plan& p, const uint8_t* a, size_t a_stride,
                                                 const uint8_t* b, size_t b_stride,
                                                 const uint8_t* c, size_t c_stride, uint8_t* result,
                                                 size_t result_stride) {
  Float16ExactAvx512<kElement, kC>(p, {a, a_stride}, {b, b_stride}, {c, c_stride},
                                   {result, result_stride});
}

// Both entry points for one element type and C format into the plan.
template <Element kElement, Accumulator kC>
void InstallExact(Plan* plan) {
  plan->run = &RunFloat16ExactAvx512<kElement, kC>;
  plan->run_in_place = &RunFloat16ExactAvx512InPlace<kElement, kC>;
}

template <Element kElement>
void InstallExactFor(Plan* plan) {
  switch (plan->c_format) {
    case Accumulator::kHalf:
      return InstallExact<kElement, Accumulator::kHalf>(plan);
    case Accumulator::kBFloat16:
      return InstallExact<kElement, Accumulator::kBFloat16>(plan);
    default:
      return InstallExact<kElement, Accumulator::kFloat>(plan);
  }
}

}  // namespace

bool SelectFastAvx512Float16Kernel(Plan* plan) {
  const Plan& p = *plan;
  const bool float16 = p.a_element == p.b_element &&
                       (p.a_element == Element::kBFloat16 || p.a_element == Element::kHalf);
  // SG16, one half of exactly 8 rows, one A element per 16-bit component, K 16 with B two rows
  // per word: the layout the routine reads lanes of directly.
  const bool shape = p.subgroup_size == kColumns && p.halves == 1 && p.half_rows == kRows &&
                     p.padded_rows == kRows && p.a_phases == 1 && p.a_component_bytes == 2 &&
                     p.k == kK && p.b_lane_bytes == kK * 2;
  if (!float16 || !shape || p.model != MmaFloatModel::kExact) return false;
  if (p.a_element == Element::kBFloat16) {
    InstallExactFor<Element::kBFloat16>(plan);
  } else {
    InstallExactFor<Element::kHalf>(plan);
  }
  plan->hand_vectorized = true;
  return true;
}
#endif

}  // namespace xmx::interp::matrix_mad_detail
