// Conversions between the binary floating-point formats of SPIR-V modules and the host's double:
// IEEE half, bfloat16, and the narrower formats of the matrix instructions (fp8 E4M3, fp8 E5M2,
// fp4 E2M1, tf32). Every narrowing conversion rounds exactly once, in the mode asked for,
// straight from the double (a float input is exact in a double, so no double rounding). The one
// implementation: the assembler's half literals, the type table's half constants and the
// interpreter all convert here.
#pragma once

#include <cstdint>

namespace xmx {

enum class RoundingMode : uint8_t { kNearestEven, kTowardZero, kTowardPositive, kTowardNegative };

// A binary interchange-like format: 1 sign bit, `exponent_bits`, `mantissa_bits`, bias
// 2^(exponent_bits-1)-1. `has_infinity` false means the all-ones exponent holds finite numbers
// (OCP fp8 E4M3 and fp4 E2M1); `nan_pattern` is the magnitude bits of the format's NaN (0 when it
// has none).
struct FloatFormat {
  int exponent_bits;
  int mantissa_bits;
  bool has_infinity;
  uint32_t nan_pattern;
};

inline constexpr FloatFormat kHalfFormat{5, 10, true, 0x200 | 0x7C00};
inline constexpr FloatFormat kBFloat16Format{8, 7, true, 0x40 | 0x7F80};
inline constexpr FloatFormat kFloatFormat{8, 23, true, 0x400000 | 0x7F800000};
// OCP 8-bit E4M3: no infinity, S.1111.111 is NaN, max 448.
inline constexpr FloatFormat kFloat8E4M3Format{4, 3, false, 0x7F};
// OCP 8-bit E5M2: IEEE-like with infinities.
inline constexpr FloatFormat kFloat8E5M2Format{5, 2, true, 0x7E};
// OCP 4-bit E2M1: no infinity and no NaN, max 6.
inline constexpr FloatFormat kFloat4E2M1Format{2, 1, false, 0};

// The value of `bits` (in the low bits) read in `format`; exact.
double DecodeFloat(uint32_t bits, const FloatFormat& format);

// `value` rounded to `format`. Overflow gives infinity (or, in a format without infinity, the
// largest finite value for modes that round toward it, NaN when the format has one and the mode
// is to nearest: the OCP saturation-free conversion), NaN gives the format's quiet NaN with the
// input's sign.
uint32_t EncodeFloat(double value, const FloatFormat& format, RoundingMode mode);

// Whether |value| is at least 2^(emax + 1), i.e. its binary exponent does not fit the format at
// all (rounding aside): where SPIRV-Tools' HexFloat narrowing gives infinity whatever the mode.
bool BeyondExponentRange(double value, const FloatFormat& format);

inline float HalfToFloat(uint16_t bits) {
  return static_cast<float>(DecodeFloat(bits, kHalfFormat));
}
inline uint16_t FloatToHalf(double value, RoundingMode mode = RoundingMode::kNearestEven) {
  return static_cast<uint16_t>(EncodeFloat(value, kHalfFormat, mode));
}
inline float BFloat16ToFloat(uint16_t bits) {
  return static_cast<float>(DecodeFloat(bits, kBFloat16Format));
}
inline uint16_t FloatToBFloat16(double value, RoundingMode mode = RoundingMode::kNearestEven) {
  return static_cast<uint16_t>(EncodeFloat(value, kBFloat16Format, mode));
}
// A double rounded to fp32 in `mode` (the host conversion only rounds to nearest).
float DoubleToFloat(double value, RoundingMode mode);

// tf32 as the matrix instruction reads it (DECISIONS.md 3): the upper 19 bits of the fp32
// pattern, the low 13 mantissa bits ignored.
inline uint32_t Tf32Truncate(uint32_t fp32_bits) { return fp32_bits & 0xFFFFE000u; }

}  // namespace xmx
