// The exact float model's slow path: deciding when the double sum is exact, and summing exactly
// when it is not.
//
// Every term of a sum (C, and each product of two decoded elements) is a double: the widest
// product, fp32 x fp32, has 48 significant bits, and all magnitudes lie between 2^-298 (the
// smallest fp32 subnormal squared) and 2^256. A double sum of such terms is exact, in any order,
// when they are all multiples of 2^L and the sum of their magnitudes stays below 2^(L+53). When
// the exponent ranges cannot prove that, the sum is taken in a 640-bit two's complement
// fixed-point accumulator, whose lowest bit is 2^-352, and rounded once.
#include <algorithm>
#include <bit>
#include <cmath>

#include "interp/matrix_mad/matrix_mad_internal.hpp"

namespace xmx::interp::matrix_mad_detail {
namespace {

constexpr int kDoubleBias = 1023;
constexpr int kSpecialExponent = 2047;  // Inf and NaN

bool HasSpecial(const ExponentRange& r) { return r.high == kSpecialExponent; }

// The bound itself, for ranges without Inf or NaN. A value with biased exponent e lies in
// [2^(e-1023), 2^(e-1022)), and one of a format with p significant bits is a multiple of
// 2^(e-1023-(p-1)) (subnormals of the format included, since their decoded exponent is at least
// the format's minimum).
bool BoundSaysExact(const Plan& plan, const ExponentRange& a, const ExponentRange& b,
                    const ExponentRange& c) {
  const bool has_products = a.low != ExponentRange::kNoValue && b.low != ExponentRange::kNoValue;
  if (!has_products) return true;                    // the sum is C plus zeros
  int high = a.high + b.high - 2 * kDoubleBias + 2;  // every |product| < 2^high
  int low = (a.low - kDoubleBias - (plan.a_precision - 1)) +
            (b.low - kDoubleBias - (plan.b_precision - 1));  // every product a multiple of 2^low
  if (c.low != ExponentRange::kNoValue) {
    high = std::max(high, c.high - kDoubleBias + 1);
    low = std::min(low, c.low - kDoubleBias - (plan.c_precision - 1));
  }
  // k + 1 terms below 2^high sum below 2^(high + terms_log2).
  return high + plan.terms_log2 - low <= 53;
}

// An exact sum of doubles between 2^-352 and 2^287 in magnitude. Carry-save: digit d holds a
// signed multiple of 2^(32d - 352) in an int64, each term adds less than 2^32 to three digits,
// and at most kMaxK + 1 terms leave the digits far from overflow, so carries wait until the end.
class ExactSum {
 public:
  void Add(double x) {
    if (x != 0 || !std::signbit(x)) only_negative_zeros_ = false;
    if (x == 0) return;
    const uint64_t u = std::bit_cast<uint64_t>(x);
    const int exponent = static_cast<int>((u >> 52) & 0x7FF);  // never 0: terms are >= 2^-298
    const uint64_t significand = (u & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
    // x = significand * 2^(exponent - 1075) = significand * 2^shift * 2^(32 digit - 352).
    const int position = exponent - 1075 - kLowestExponent;
    const int digit = position / 32, shift = position % 32;
    const int64_t low = static_cast<int64_t>((significand << shift) & 0xFFFFFFFFu);
    const int64_t middle = static_cast<int64_t>((significand >> (32 - shift)) & 0xFFFFFFFFu);
    const int64_t high = shift == 0 ? 0 : static_cast<int64_t>(significand >> (64 - shift));
    const int64_t negate = -static_cast<int64_t>(u >> 63);  // all ones for a negative x
    digits_[digit] += (low ^ negate) - negate;
    digits_[digit + 1] += (middle ^ negate) - negate;
    digits_[digit + 2] += (high ^ negate) - negate;
  }

  // The sum rounded to 53 significant bits, to odd: truncated, with the last bit set when any
  // discarded bit was. Rounding that to nearest even in a format of p <= 51 bits gives the
  // correctly rounded sum.
  double RoundToOdd() const {
    // Resolve the carries: 32-bit digits of the two's complement value, and its sign.
    uint32_t magnitude[kDigits];
    int64_t carry = 0;
    for (int i = 0; i < kDigits; ++i) {
      const int64_t v = digits_[i] + carry;
      magnitude[i] = static_cast<uint32_t>(v);
      carry = (v - static_cast<int64_t>(magnitude[i])) / (int64_t{1} << 32);
    }
    const bool negative = carry < 0;
    if (negative) {  // negate: complement and add one
      uint64_t add = 1;
      for (uint32_t& m : magnitude) {
        const uint64_t v = uint64_t{~m} + add;
        m = static_cast<uint32_t>(v);
        add = v >> 32;
      }
    }
    int top = kDigits - 1;
    while (top >= 0 && magnitude[top] == 0) --top;
    if (top < 0) return only_negative_zeros_ ? -0.0 : 0.0;
    const int top_bit = 32 * top + 31 - std::countl_zero(magnitude[top]);
    // The 53 bits from low_bit up (fewer when the sum is small), from the three digits they
    // touch, and whether anything below them is set.
    const int low_bit = std::max(top_bit - 52, 0);
    const int digit = low_bit / 32, shift = low_bit % 32;
    auto at = [&](int i) { return i < kDigits ? uint64_t{magnitude[i]} : 0; };
    const uint64_t window = at(digit) | at(digit + 1) << 32;
    uint64_t kept = window >> shift;
    if (shift != 0) kept |= at(digit + 2) << (64 - shift);
    kept &= (uint64_t{1} << 53) - 1;
    bool sticky = (magnitude[digit] & ((uint32_t{1} << shift) - 1)) != 0;
    for (int i = 0; i < digit && !sticky; ++i) sticky = magnitude[i] != 0;
    if (sticky) kept |= 1;
    // kept * 2^(low_bit - 352): both factors are exact doubles and so is their product.
    const uint64_t scale_bits = static_cast<uint64_t>(low_bit + kLowestExponent + 1023) << 52;
    const double value = static_cast<double>(kept) * std::bit_cast<double>(scale_bits);
    return negative ? -value : value;
  }

 private:
  static constexpr int kDigits = 20;
  static constexpr int kLowestExponent = -352;
  static_assert(kMaxK + 1 < (1 << 20), "digits must not overflow");

  int64_t digits_[kDigits] = {};
  bool only_negative_zeros_ = true;
};

}  // namespace

bool DoubleSumIsExact(const Plan& plan, const ExponentRange& a, const ExponentRange& b,
                      const ExponentRange& c) {
  if (HasSpecial(a) || HasSpecial(b) || HasSpecial(c)) return false;
  return BoundSaysExact(plan, a, b, c);
}

void RefineInexactSums(const Plan& plan, uint32_t half, const double* a_values,
                       const double* b_values, const uint8_t* c_slot, double* acc) {
  const uint32_t rows = plan.half_rows, padded_rows = plan.padded_rows, k = plan.k;
  const uint32_t c_bytes = plan.c_format == Accumulator::kFloat ? 4 : 2;
  ExponentRange row_range[kMaxRows];
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t i = 0; i < k; ++i) {
      row_range[r] = Union(row_range[r], RangeOf(a_values + i * padded_rows + r, 1));
    }
  }
  for (uint32_t n = 0; n < plan.columns; ++n) {
    const double* column = b_values + size_t{n} * plan.padded_k;
    const ExponentRange column_range = RangeOf(column, k);
    const uint8_t* c_lane = c_slot + size_t{half * plan.columns + n} * plan.c_lane_bytes;
    for (uint32_t r = 0; r < rows; ++r) {
      const double c = LoadFloatAccumulator(c_lane + r * c_bytes, plan.c_format);
      const ExponentRange c_range = RangeOf(&c, 1);
      // With an Inf or NaN among its terms an element's double sum is already the IEEE result:
      // the finite terms cannot overflow a double, and Inf/NaN combine the same way.
      if (HasSpecial(row_range[r]) || HasSpecial(column_range) || HasSpecial(c_range)) continue;
      if (BoundSaysExact(plan, row_range[r], column_range, c_range)) continue;
      ExactSum sum;
      sum.Add(c);
      for (uint32_t i = 0; i < k; ++i) sum.Add(a_values[i * padded_rows + r] * column[i]);
      acc[n * padded_rows + r] = sum.RoundToOdd();
    }
  }
}

}  // namespace xmx::interp::matrix_mad_detail
