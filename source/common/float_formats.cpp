#include "common/float_formats.hpp"

#include <bit>
#include <cmath>
#include <limits>

namespace xmx {
namespace {

struct FormatLimits {
  int bias;
  int min_exponent;  // of the smallest normal number
  uint32_t max_exponent_field;
  uint32_t max_mantissa;  // of the largest finite number at max_exponent_field
};

FormatLimits LimitsOf(const FloatFormat& f) {
  FormatLimits limits;
  limits.bias = (1 << (f.exponent_bits - 1)) - 1;
  limits.min_exponent = 1 - limits.bias;
  const uint32_t all_ones = (1u << f.exponent_bits) - 1;
  const uint32_t full_mantissa = (1u << f.mantissa_bits) - 1;
  if (f.has_infinity) {
    limits.max_exponent_field = all_ones - 1;
    limits.max_mantissa = full_mantissa;
  } else {
    limits.max_exponent_field = all_ones;
    // A NaN that takes the all-ones pattern (E4M3) leaves one mantissa value less.
    const uint32_t top = (all_ones << f.mantissa_bits) | full_mantissa;
    limits.max_mantissa = f.nan_pattern == top ? full_mantissa - 1 : full_mantissa;
  }
  return limits;
}

uint32_t LargestFinite(const FloatFormat& f) {
  const FormatLimits limits = LimitsOf(f);
  return (limits.max_exponent_field << f.mantissa_bits) | limits.max_mantissa;
}

uint32_t Infinity(const FloatFormat& f) {
  if (f.has_infinity) return ((1u << f.exponent_bits) - 1) << f.mantissa_bits;
  return f.nan_pattern != 0 ? f.nan_pattern : LargestFinite(f);
}

}  // namespace

double DecodeFloat(uint32_t bits, const FloatFormat& f) {
  const int width = 1 + f.exponent_bits + f.mantissa_bits;
  const bool negative = ((bits >> (width - 1)) & 1) != 0;
  const uint32_t magnitude = bits & ((1u << (width - 1)) - 1);
  const uint32_t exponent_field = magnitude >> f.mantissa_bits;
  const uint32_t mantissa = magnitude & ((1u << f.mantissa_bits) - 1);
  const uint32_t all_ones = (1u << f.exponent_bits) - 1;
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  double value;
  if (f.has_infinity && exponent_field == all_ones) {
    value = mantissa == 0 ? std::numeric_limits<double>::infinity()
                          : std::numeric_limits<double>::quiet_NaN();
  } else if (!f.has_infinity && f.nan_pattern != 0 && magnitude == f.nan_pattern) {
    value = std::numeric_limits<double>::quiet_NaN();
  } else if (exponent_field == 0) {
    value = std::ldexp(static_cast<double>(mantissa), 1 - bias - f.mantissa_bits);
  } else {
    value = std::ldexp(static_cast<double>((1u << f.mantissa_bits) | mantissa),
                       static_cast<int>(exponent_field) - bias - f.mantissa_bits);
  }
  return negative ? -value : value;
}

uint32_t EncodeFloat(double value, const FloatFormat& f, RoundingMode mode) {
  const int width = 1 + f.exponent_bits + f.mantissa_bits;
  const bool negative = std::signbit(value);
  const uint32_t sign = negative ? 1u << (width - 1) : 0;
  if (std::isnan(value)) return sign | (f.nan_pattern != 0 ? f.nan_pattern : LargestFinite(f));
  const double magnitude = std::fabs(value);
  const bool rounds_away_on_overflow = mode == RoundingMode::kNearestEven ||
                                       (mode == RoundingMode::kTowardPositive && !negative) ||
                                       (mode == RoundingMode::kTowardNegative && negative);
  if (std::isinf(magnitude)) return sign | Infinity(f);
  if (magnitude == 0) return sign;

  const FormatLimits limits = LimitsOf(f);
  int exponent;
  std::frexp(magnitude, &exponent);  // magnitude = m * 2^exponent, m in [0.5, 1)
  exponent -= 1;
  if (exponent < limits.min_exponent) exponent = limits.min_exponent;
  // Units of the last place at this exponent; scaling by a power of two is exact.
  const double units = std::ldexp(magnitude, f.mantissa_bits - exponent);
  double whole = std::floor(units);
  const double fraction = units - whole;
  bool round_up = false;
  switch (mode) {
    case RoundingMode::kNearestEven:
      round_up = fraction > 0.5 || (fraction == 0.5 && std::fmod(whole, 2.0) != 0);
      break;
    case RoundingMode::kTowardZero:
      break;
    case RoundingMode::kTowardPositive:
      round_up = fraction > 0 && !negative;
      break;
    case RoundingMode::kTowardNegative:
      round_up = fraction > 0 && negative;
      break;
  }
  if (round_up) whole += 1;
  const double implicit_one = std::ldexp(1.0, f.mantissa_bits);
  if (whole >= 2 * implicit_one) {
    whole /= 2;
    exponent += 1;
  }
  uint32_t exponent_field, mantissa;
  if (whole < implicit_one) {
    exponent_field = 0;  // subnormal (or rounded down to zero)
    mantissa = static_cast<uint32_t>(whole);
  } else {
    exponent_field = static_cast<uint32_t>(exponent + limits.bias);
    mantissa = static_cast<uint32_t>(whole - implicit_one);
  }
  const bool overflow =
      exponent + limits.bias > static_cast<int>(limits.max_exponent_field) ||
      (exponent_field == limits.max_exponent_field && mantissa > limits.max_mantissa);
  if (overflow) return sign | (rounds_away_on_overflow ? Infinity(f) : LargestFinite(f));
  return sign | (exponent_field << f.mantissa_bits) | mantissa;
}

bool BeyondExponentRange(double value, const FloatFormat& f) {
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  const int max_exponent = f.has_infinity ? bias : bias + 1;  // of the largest finite numbers
  return std::fabs(value) >= std::ldexp(1.0, max_exponent + 1);
}

float DoubleToFloat(double value, RoundingMode mode) {
  if (mode == RoundingMode::kNearestEven) return static_cast<float>(value);
  return std::bit_cast<float>(EncodeFloat(value, kFloatFormat, mode));
}

}  // namespace xmx
