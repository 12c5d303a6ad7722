#include "text/number_format.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>

namespace xmx::text {
namespace {

template <typename T>
void AppendChars(T value, std::string* out) {
  char buf[32];
  auto result = std::to_chars(buf, buf + sizeof buf, value);
  out->append(buf, result.ptr);
}

// SPIRV-Tools' HexFloat output: a normalised significand with trailing zero nibbles dropped
// (subnormals are renormalised), the exponent unbiased and always signed; zero is "0x0p+0".
void AppendHexFloat(uint64_t bits, int fraction_bits, int exponent_bits, int bias,
                    std::string* out) {
  const int nibbles = (fraction_bits + 3) / 4;
  const int overflow_bits = nibbles * 4 - fraction_bits;
  const uint64_t fraction_mask = (uint64_t{1} << fraction_bits) - 1;
  const uint64_t represent_mask =
      nibbles * 4 >= 64 ? ~uint64_t{0} : (uint64_t{1} << (nibbles * 4)) - 1;
  const uint64_t top_bit = uint64_t{1} << (fraction_bits + overflow_bits - 1);
  const bool negative = (bits >> (fraction_bits + exponent_bits)) & 1;
  const uint64_t exponent = (bits >> fraction_bits) & ((uint64_t{1} << exponent_bits) - 1);
  uint64_t fraction = (bits & fraction_mask) << overflow_bits;

  const bool is_zero = exponent == 0 && fraction == 0;
  const bool is_denorm = exponent == 0 && !is_zero;
  int64_t int_exponent = is_zero ? 0 : static_cast<int64_t>(exponent) - bias;
  if (is_denorm) {
    while ((fraction & top_bit) == 0) {
      fraction <<= 1;
      --int_exponent;
    }
    fraction = (fraction << 1) & represent_mask;  // the leading 1 becomes implicit
  }
  int shown_nibbles = nibbles;
  while (shown_nibbles > 0 && (fraction & 0xF) == 0) {
    fraction >>= 4;
    --shown_nibbles;
  }

  if (negative) out->push_back('-');
  out->append(is_zero ? "0x0" : "0x1");
  if (shown_nibbles > 0) {
    out->push_back('.');
    static constexpr char kHex[] = "0123456789abcdef";
    for (int i = shown_nibbles - 1; i >= 0; --i) out->push_back(kHex[(fraction >> (4 * i)) & 0xF]);
  }
  out->push_back('p');
  if (int_exponent >= 0) out->push_back('+');
  AppendChars(int_exponent, out);
}

// Zero and normal values print like an ostream with precision max_digits10 (i.e. "%.9g" or
// "%.17g"); everything else as a hex float.
template <typename T>
void AppendIeee(T value, uint64_t bits, int fraction_bits, int exponent_bits, int bias,
                std::string* out) {
  const int kind = std::fpclassify(value);
  if (kind == FP_ZERO || kind == FP_NORMAL) {
    char buf[64];
    auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general,
                                std::numeric_limits<T>::max_digits10);
    out->append(buf, result.ptr);
  } else {
    AppendHexFloat(bits, fraction_bits, exponent_bits, bias, out);
  }
}

}  // namespace

void AppendUnsigned(uint64_t value, std::string* out) { AppendChars(value, out); }

void AppendSigned(int64_t value, std::string* out) { AppendChars(value, out); }

void AppendHalf(uint16_t bits, std::string* out) { AppendHexFloat(bits, 10, 5, 15, out); }

void AppendBFloat16(uint16_t bits, std::string* out) { AppendHexFloat(bits, 7, 8, 127, out); }

void AppendFloat(uint32_t bits, std::string* out) {
  AppendIeee(std::bit_cast<float>(bits), bits, 23, 8, 127, out);
}

void AppendDouble(uint64_t bits, std::string* out) {
  AppendIeee(std::bit_cast<double>(bits), bits, 52, 11, 1023, out);
}

void AppendNumber(binary::NumberKind kind, uint8_t bit_width, std::span<const uint32_t> words,
                  std::string* out) {
  if (words.empty()) return;
  if (words.size() == 1) {
    switch (kind) {
      case binary::NumberKind::kSignedInt:
        return AppendSigned(static_cast<int32_t>(words[0]), out);
      case binary::NumberKind::kFloat:
        if (bit_width == 16) return AppendHalf(static_cast<uint16_t>(words[0]), out);
        return AppendFloat(words[0], out);
      case binary::NumberKind::kBFloat16:
        return AppendBFloat16(static_cast<uint16_t>(words[0]), out);
      default:
        return AppendUnsigned(words[0], out);
    }
  }
  const uint64_t bits = uint64_t{words[0]} | (uint64_t{words[1]} << 32);
  switch (kind) {
    case binary::NumberKind::kSignedInt:
      return AppendSigned(static_cast<int64_t>(bits), out);
    case binary::NumberKind::kFloat:
      return AppendDouble(bits, out);
    default:
      return AppendUnsigned(bits, out);
  }
}

}  // namespace xmx::text
