// Pieces shared by matrix_mad.cpp (Prepare), matrix_mad_kernels.cpp (the arithmetic) and
// matrix_mad_exact.cpp (the exact float slow path). Not for use outside these files.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/float_formats.hpp"
#include "interp/matrix_mad/matrix_mad.hpp"

namespace xmx::interp::matrix_mad_detail {

static_assert(std::endian::native == std::endian::little, "register slots are little-endian");

// The routines are compiled once per instruction-set family (matrix_mad_portable.cpp,
// matrix_mad_avx2.cpp, matrix_mad_avx512.cpp) by inlining the shared templates into entry points
// that carry the target attribute and `flatten`. Clang's flatten inlines only an entry's own
// calls, so the helpers on the hot path are forced inline as well (they hold no intrinsics, so
// any family may inline them).
#if defined(__GNUC__) || defined(__clang__)
#define XMX_MMA_INLINE inline __attribute__((always_inline))
#define XMX_MMA_LAMBDA_INLINE __attribute__((always_inline))
#define XMX_MMA_FLATTEN __attribute__((flatten))
#else
#define XMX_MMA_INLINE inline
#define XMX_MMA_LAMBDA_INLINE
#define XMX_MMA_FLATTEN
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define XMX_MMA_X86 1
#define XMX_MMA_AVX2 __attribute__((target("avx2,fma,f16c")))
#define XMX_MMA_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c")))
#else
#define XMX_MMA_X86 0
#endif

// Limits that size Run's stack buffers (about 44 KB at most). Every SPEC-NOTES B.5 row is far
// inside them; Prepare rejects shapes beyond them.
inline constexpr uint32_t kMaxColumns = 16;  // columns per half
inline constexpr uint32_t kMaxRows = 16;     // rows per half
inline constexpr uint32_t kMaxK = 128;
inline constexpr uint32_t kMaxKTimesRows = 1024;  // padded_k * padded_rows, per half

// Where the hand-vectorized routines find an operand's lanes (RunInPlaceFn): lane l at
// first + l * stride, the stride being the lane's own size in a register slot or the stride of
// the work-items' private copies when the interpreter hands the operands over where they lie.
struct Lanes {
  const uint8_t* first;
  size_t stride;
  const uint8_t* operator[](uint32_t lane) const { return first + lane * stride; }
};
// The same for the Result, which the routines write.
struct ResultLanes {
  uint8_t* first;
  size_t stride;
  uint8_t* operator[](uint32_t lane) const { return first + lane * stride; }
};

// The best instruction set this CPU runs (never kBest).
MmaIsa BestIsa();
// Each family's Catalogue (matrix_mad_run.hpp): fills plan->run and plan->unpack_*. The AVX2
// and AVX-512 ones exist on x86-64 only.
void FillPortableKernels(Plan* plan);
void FillAvx2Kernels(Plan* plan);
void FillAvx512Kernels(Plan* plan);
// Replaces plan->run with a hand-vectorized AVX2 routine (matrix_mad_fast_avx2.cpp) when the
// plan has one of the shapes GEMMs run most; returns whether it did. x86-64 only; the caller
// has checked that the CPU runs AVX2, FMA and F16C.
bool SelectFastAvx2Kernel(Plan* plan);
// Replaces plan->run with the AVX-512 VNNI routine (matrix_mad_fast_avx512_int8.cpp) when the
// plan is SG16 M8 K32 int8 and the CPU runs AVX512-VNNI; returns whether it did. x86-64 only;
// the caller has checked that the CPU runs AVX-512 F, BW, DQ and VL.
bool SelectFastAvx512Int8Kernel(Plan* plan);
// Replaces plan->run with the AVX-512 exact-model routine for SG16 M8 K16 bf16 / fp16
// (matrix_mad_fast_avx512_float16.cpp) when the plan has that shape; returns whether it did.
// x86-64 only; the caller has checked that the CPU runs AVX-512 F, BW, DQ and VL.
bool SelectFastAvx512Float16Kernel(Plan* plan);
// Fills plan->run and plan->unpack_* for `isa` (not kBest, and one BestIsa() allows). The
// plan's other fields must be set.
void SelectKernels(Plan* plan, MmaIsa isa);

inline bool IsSmallInteger(Element e) { return e <= Element::kInt8; }

XMX_MMA_INLINE uint32_t Load16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
XMX_MMA_INLINE uint32_t Load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
XMX_MMA_INLINE void Store16(uint8_t* p, uint32_t v) {
  const uint16_t h = static_cast<uint16_t>(v);
  std::memcpy(p, &h, 2);
}
XMX_MMA_INLINE void Store32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }

// --- Conversions on the hot path. Each agrees with DecodeFloat / EncodeFloat (the tests check
// them against those exhaustively or on many values); they exist because those general routines
// are too slow to call per element.

// An fp16 pattern's value, exactly (as float, which holds every fp16 value).
XMX_MMA_INLINE float HalfBitsToFloat(uint32_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu;
  const uint32_t mantissa = h & 0x3FFu;
  // Normal numbers and specials move their fields; the all-ones exponent maps to the float's.
  const uint32_t moved =
      sign | ((exponent == 31 ? 255u : exponent + 112u) << 23) | (mantissa << 13);
  // Subnormals are mantissa * 2^-24, exact in float.
  const float subnormal = static_cast<float>(mantissa) * 0x1p-24f;
  if (exponent == 0) return sign != 0 ? -subnormal : subnormal;
  return std::bit_cast<float>(moved);
}

// The value of a C element of a float format, exactly.
XMX_MMA_INLINE double LoadFloatAccumulator(const uint8_t* p, Accumulator format) {
  switch (format) {
    case Accumulator::kHalf:
      return HalfBitsToFloat(Load16(p));
    case Accumulator::kBFloat16:
      return std::bit_cast<float>(Load16(p) << 16);
    default:
      return std::bit_cast<float>(Load32(p));
  }
}

// A Result element of a float format from `x` (an exact sum, its round-to-odd, or an fp32
// accumulator), rounded to nearest even; NaN becomes the format's canonical quiet NaN. The
// general (slow) form; Run rounds the common cases on the bits.
inline void StoreFloatResult(uint8_t* p, Accumulator format, double x) {
  const bool nan = x != x;
  switch (format) {
    case Accumulator::kHalf:
      Store16(p, nan ? kHalfFormat.nan_pattern
                     : EncodeFloat(x, kHalfFormat, RoundingMode::kNearestEven));
      break;
    case Accumulator::kBFloat16:
      Store16(p, nan ? kBFloat16Format.nan_pattern
                     : EncodeFloat(x, kBFloat16Format, RoundingMode::kNearestEven));
      break;
    default:
      Store32(p, nan ? kFloatFormat.nan_pattern : std::bit_cast<uint32_t>(static_cast<float>(x)));
      break;
  }
}

// --- The exact model's bookkeeping (matrix_mad_exact.cpp).

// The exponent range (see ExponentRange in matrix_mad.hpp) of decoded values.
XMX_MMA_INLINE ExponentRange RangeOf(const double* values, uint32_t count) {
  uint32_t low = ExponentRange::kNoValue, high = 0;
  for (uint32_t i = 0; i < count; ++i) {
    // Decoded values are never subnormal doubles, so a zero exponent field means zero.
    const uint32_t e = static_cast<uint32_t>(std::bit_cast<uint64_t>(values[i]) >> 52) & 0x7FFu;
    high = e > high ? e : high;
    const uint32_t e_low = e == 0 ? ExponentRange::kNoValue : e;
    low = e_low < low ? e_low : low;
  }
  return {static_cast<int>(low), static_cast<int>(high)};
}
XMX_MMA_INLINE ExponentRange Union(const ExponentRange& x, const ExponentRange& y) {
  return {x.low < y.low ? x.low : y.low, x.high > y.high ? x.high : y.high};
}

// Whether every partial sum, in any order, of C values and products of A and B values whose
// exponents lie in these ranges is exact in double. False when a range holds an Inf or NaN (the
// per-element pass then sorts those elements out).
bool DoubleSumIsExact(const Plan& plan, const ExponentRange& a, const ExponentRange& b,
                      const ExponentRange& c);

// After the double-precision pass of the exact model: every element of `half` whose sum the
// per-row and per-column bounds cannot prove exact is summed again exactly, and acc receives the
// exact sum rounded to 53 bits to odd (which then rounds correctly to any format of at most 51
// bits). a_values: [k][padded_rows], b_values: [column][padded_k], acc: [column][padded_rows].
void RefineInexactSums(const Plan& plan, uint32_t half, const double* a_values,
                       const double* b_values, const uint8_t* c_slot, double* acc);

}  // namespace xmx::interp::matrix_mad_detail
