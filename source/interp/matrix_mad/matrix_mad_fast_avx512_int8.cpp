// A hand-vectorized AVX-512 VNNI routine for the int8 shape GEMM kernels run most: SG16, M 8,
// K 32, int8 / uint8 A and B, int32 C and Result. It computes the same bits as the generic
// templates and the AVX2 routines (the unit tests compare them), for every input, with no scan
// of the elements' magnitudes.
//
// vpdpbusd multiplies four unsigned bytes by four signed bytes and adds the four products to a
// 32-bit lane with wrap-around (the form without "s" does not saturate). Each product lies in
// [-32640, 32385] and their sum of four in [-130560, 129540], so the instruction's only rounding
// is the low-32-bit wrap the reference model applies too.
//
// Layout. C and Result lane n is column n with rows 0-7 in order: 8 int32, one ymm register, so
// an accumulator per column is C's lane as it lies. A's rows come as vectors: quad t holds, for
// rows 0-7, the four bytes of k = 4t .. 4t+3 (A lanes 2t and 2t+1 carry k = 4t, 4t+1 and 4t+2,
// 4t+3 of every row as 16-bit components, so one word shuffle interleaves them). B's word t of
// lane n is rows 4t .. 4t+3 of column n, the same four k for every row: an embedded broadcast
// of that word from memory is the instruction's signed operand. So
//   acc[n] (rows 0-7) += vpdpbusd(quad t of A, broadcast of B word t of lane n),  t = 0 .. 7,
// 128 instructions of 8 lanes with no shuffles in the loop. All 16 accumulators stay in
// registers until every input has been read, so Result may alias C, A or B. (On the Zen 4
// development machine unsigned A x signed B, which needs no correction, takes about 24 ns:
// close to two vpdpbusd per cycle, the loop's own bound; the corrections add 5-10 ns.)
//
// Every operand is read through a lane stride (Lanes): the lane's own size in a register slot,
// or the stride of the work-items' private copies when the interpreter hands the operands over
// where they lie (RunInPlace), which saves copying them into slots first.
//
// Signedness. vpdpbusd reads its first operand as unsigned and its second as signed. Let
// a_u = a xor 0x80 when A is signed (a + 128, unsigned), else a_u = a; and b_s = b xor 0x80 when
// B is unsigned (b - 128, signed), else b_s = b. Then a = a_u - alpha, b = b_s + beta with
// alpha = 128 for signed A (else 0) and beta = 128 for unsigned B (else 0), and
//   a b = (a_u - alpha)(b_s + beta) = a_u b_s + beta a_u - alpha b_s - alpha beta.
// Summed over the 32 k of row r and column n:
//   sum a b = sum a_u b_s + beta RS[r] - alpha CS[n] - 32 alpha beta,
// with RS[r] = sum over k of a_u[r][k] (a row sum of A's unsigned bytes) and CS[n] = sum over k
// of b_s[k][n] (a column sum of B's signed bytes). This is an identity of integers, so it also
// holds modulo 2^32, where every term is computed:
//   * unsigned A, signed B: no correction;
//   * unsigned A and B: + 128 RS[r], one vector over the rows added to every column;
//   * signed A and B: - 128 CS[n], one value per column broadcast over its rows;
//   * signed A, unsigned B: both, and - 32 * 128 * 128 = -2^19.
// RS comes from vpdpbusd of A's quads with signed ones, CS from vpdpbusd of unsigned ones with
// B's bytes, summed across each lane's eight words.
#include <immintrin.h>

#include "interp/matrix_mad/matrix_mad_internal.hpp"

namespace xmx::interp::matrix_mad_detail {

#if XMX_MMA_X86
namespace {

#define XMX_MMA_VNNI __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni")))
// The helpers are forced inline into the routines, which carry the same target.
#define XMX_MMA_VNNI_INLINE inline __attribute__((always_inline)) XMX_MMA_VNNI

constexpr uint32_t kColumns = 16;  // lanes: one column each
constexpr uint32_t kQuads = 8;     // K / 4: the 32-bit words of a B lane

// Lanes l and l + 1 of 16 bytes each, as one vector.
XMX_MMA_VNNI_INLINE __m256i TwoLanes128(Lanes x, uint32_t l) {
  if (x.stride == 16) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[l]));
  return _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(x[l + 1]),
                             reinterpret_cast<const __m128i*>(x[l]));
}

// Lanes l and l + 1 of 32 bytes each, as one vector.
XMX_MMA_VNNI_INLINE __m512i TwoLanes256(Lanes x, uint32_t l) {
  if (x.stride == 32) return _mm512_loadu_si512(x[l]);
  const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[l]));
  const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x[l + 1]));
  return _mm512_inserti64x4(_mm512_castsi256_si512(low), high, 1);
}

// Quad t of A: dword r holds A[r][4t .. 4t+3]. A lanes 2t and 2t+1 hold the 32 bytes; their
// 16-bit components r (k = 4t, 4t+1) and 8 + r (k = 4t+2, 4t+3) are interleaved.
XMX_MMA_VNNI_INLINE __m256i QuadOfA(Lanes a, uint32_t t) {
  const __m256i lanes = TwoLanes128(a, 2 * t);
  const __m256i interleave =
      _mm256_setr_epi16(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
  return _mm256_permutexvar_epi16(interleave, lanes);
}

// Lane i: element 2i plus element 2i + 1 of x and y concatenated (x's 16 lanes, then y's), so
// the result halves the number of lanes a set of sums spreads over and keeps their order.
XMX_MMA_VNNI_INLINE __m512i AddPairs(__m512i x, __m512i y) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
  return _mm512_add_epi32(_mm512_permutex2var_epi32(x, even, y),
                          _mm512_permutex2var_epi32(x, odd, y));
}

// CS: lane n is the sum of column n's 32 signed bytes b_s, exactly. b_lanes[p] holds B lanes 2p
// and 2p + 1 as b_s, the registers B was loaded (and flipped) into, not read back from a copy.
XMX_MMA_VNNI_INLINE __m512i ColumnSums(const __m512i* b_lanes) {
  const __m512i ones = _mm512_set1_epi8(1);
  // words[p]: lanes 0-7 the sums of the four bytes of each word of column 2p, 8-15 of 2p + 1.
  __m512i words[kColumns / 2];
#pragma clang loop unroll(full)
  for (uint32_t p = 0; p < kColumns / 2; ++p) {
    words[p] = _mm512_dpbusd_epi32(_mm512_setzero_si512(), ones, b_lanes[p]);
  }
  // Four sums per column, then two, then one, the columns staying in order.
  __m512i fours[4], twos[2];
  for (uint32_t q = 0; q < 4; ++q) fours[q] = AddPairs(words[2 * q], words[2 * q + 1]);
  for (uint32_t h = 0; h < 2; ++h) twos[h] = AddPairs(fours[2 * h], fours[2 * h + 1]);
  return AddPairs(twos[0], twos[1]);
}

template <bool kASigned, bool kBSigned>
XMX_MMA_VNNI_INLINE void Int8Vnni(Lanes a, Lanes b, Lanes c, ResultLanes result) {
  constexpr int32_t kSignFlip = -128;  // the byte 0x80
  // a_u: A's quads, moved to unsigned when A is signed.
  __m256i quads[kQuads];
#pragma clang loop unroll(full)
  for (uint32_t t = 0; t < kQuads; ++t) {
    quads[t] = QuadOfA(a, t);
    if constexpr (kASigned) quads[t] = _mm256_xor_si256(quads[t], _mm256_set1_epi8(kSignFlip));
  }
  // b_s: B itself, or a copy moved to signed when B is unsigned; its lanes are also kept in
  // registers where the column sums need them.
  alignas(64) uint8_t b_flipped[kColumns * 4 * kQuads];
  __m512i b_lanes[kColumns / 2];  // B lanes 2p and 2p + 1, as b_s
  if constexpr (kASigned || !kBSigned) {
#pragma clang loop unroll(full)
    for (uint32_t p = 0; p < kColumns / 2; ++p) {
      b_lanes[p] = TwoLanes256(b, 2 * p);
      if constexpr (!kBSigned) {
        b_lanes[p] = _mm512_xor_si512(b_lanes[p], _mm512_set1_epi8(kSignFlip));
        _mm512_store_si512(b_flipped + 64 * p, b_lanes[p]);
      }
    }
  }
  const uint8_t* b_s = kBSigned ? b.first : b_flipped;
  const size_t b_s_stride = kBSigned ? b.stride : 32;
  // The loop must broadcast B's words from memory (an operand of vpdpbusd). Clang otherwise sees
  // through the copy and extracts each word from the registers stored, with two shuffles per
  // word and the accumulators spilled (half the speed): an empty asm hides where b_s points.
  asm("" : "+r"(b_s) : : "memory");
  // The corrections (see the top of the file), computed before any Result is written.
  __m256i row_term = _mm256_setzero_si256();  // beta RS[r] - 32 alpha beta
  if constexpr (!kBSigned) {
#pragma clang loop unroll(full)
    for (uint32_t t = 0; t < kQuads; ++t) {
      row_term = _mm256_dpbusd_epi32(row_term, quads[t], _mm256_set1_epi8(1));
    }
    row_term = _mm256_slli_epi32(row_term, 7);
    if constexpr (kASigned) row_term = _mm256_sub_epi32(row_term, _mm256_set1_epi32(1 << 19));
  }
  alignas(64) int32_t column_term[kColumns];  // alpha CS[n]
  if constexpr (kASigned) {
    _mm512_store_si512(column_term, _mm512_slli_epi32(ColumnSums(b_lanes), 7));
  }
  // The sums start from C and take the corrections at the end, off the loop's dependency chains.
  // Every loop over the accumulators is unrolled, so that they stay in registers (a loop left
  // rolled indexes them, and the compiler then keeps them on the stack).
  __m256i acc[kColumns];
#pragma clang loop unroll(full)
  for (uint32_t n = 0; n < kColumns; ++n) {
    acc[n] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c[n]));
  }
#pragma clang loop unroll(full)
  for (uint32_t t = 0; t < kQuads; ++t) {
#pragma clang loop unroll(full)
    for (uint32_t n = 0; n < kColumns; ++n) {
      const __m256i b_word =
          _mm256_set1_epi32(static_cast<int32_t>(Load32(b_s + b_s_stride * n + 4 * t)));
      acc[n] = _mm256_dpbusd_epi32(acc[n], quads[t], b_word);
    }
  }
#pragma clang loop unroll(full)
  for (uint32_t n = 0; n < kColumns; ++n) {
    __m256i sum = acc[n];
    if constexpr (!kBSigned) sum = _mm256_add_epi32(sum, row_term);
    if constexpr (kASigned) sum = _mm256_sub_epi32(sum, _mm256_set1_epi32(column_term[n]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(result[n]), sum);
  }
}

// The entry points: operands in register slots (Run), or read in place (RunInPlace).
template <bool kASigned, bool kBSigned>
XMX_MMA_VNNI void RunInt8Sg16M8Vnni(const Plan& /*plan*/, const uint8_t* a, const uint8_t* b,
                                    const uint8_t* c, uint8_t* result) {
  Int8Vnni<kASigned, kBSigned>({a, 16}, {b, 32}, {c, 32}, {result, 32});
}

template <bool kASigned, bool kBSigned>
XMX_MMA_VNNI void RunInt8Sg16M8VnniInPlace(const Plan& /*plan*/, const uint8_t* a, size_t a_stride,
                                           const uint8_t* b, size_t b_stride, const uint8_t* c,
                                           size_t c_stride, uint8_t* result, size_t result_stride) {
  Int8Vnni<kASigned, kBSigned>({a, a_stride}, {b, b_stride}, {c, c_stride},
                               {result, result_stride});
}

bool CpuRunsAvx512Vnni() {
  static const bool vnni = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512vnni") != 0;
  }();
  return vnni;
}

}  // namespace

bool SelectFastAvx512Int8Kernel(Plan* plan) {
  const Plan& p = *plan;
  const bool a_int8 = p.a_element == Element::kInt8 || p.a_element == Element::kUint8;
  const bool b_int8 = p.b_element == Element::kInt8 || p.b_element == Element::kUint8;
  // SG16, one half of exactly 8 rows, A's columns in pairs per 16-bit component with no row
  // phases, K 32 with four rows per B word: the layout the routine reads.
  const bool shape = p.subgroup_size == kColumns && p.halves == 1 && p.half_rows == 8 &&
                     p.padded_rows == 8 && p.a_phases == 1 && p.a_component_bytes == 2 &&
                     p.k == 4 * kQuads && p.b_lane_bytes == 4 * kQuads;
  if (!a_int8 || !b_int8 || !shape || !CpuRunsAvx512Vnni()) return false;
  const bool sa = p.a_element == Element::kInt8, sb = p.b_element == Element::kInt8;
  plan->run = sa ? (sb ? &RunInt8Sg16M8Vnni<true, true> : &RunInt8Sg16M8Vnni<true, false>)
                 : (sb ? &RunInt8Sg16M8Vnni<false, true> : &RunInt8Sg16M8Vnni<false, false>);
  plan->run_in_place =
      sa ? (sb ? &RunInt8Sg16M8VnniInPlace<true, true> : &RunInt8Sg16M8VnniInPlace<true, false>)
         : (sb ? &RunInt8Sg16M8VnniInPlace<false, true> : &RunInt8Sg16M8VnniInPlace<false, false>);
  plan->hand_vectorized = true;
  return true;
}
#endif

}  // namespace xmx::interp::matrix_mad_detail
