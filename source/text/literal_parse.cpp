#include "text/literal_parse.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>
#include <type_traits>

#include "common/float_formats.hpp"

namespace xmx::text {
namespace {

// Longest string literal spirv-as accepts (SPV_LIMIT_LITERAL_STRING_BYTES_MAX).
constexpr size_t kMaxStringBytes = 0xFFFFu * 4;

bool IsDecimalDigit(char c) { return c >= '0' && c <= '9'; }

// Plain decimal without a leading zero: the common case, parsed without a stream. Returns false
// when the text needs the general reader (other bases, signs, overflow, stray characters).
bool FastDecimal(std::string_view text, uint64_t* value) {
  if (text.empty() || text.size() > 19) return false;
  if (text[0] == '0' && text.size() > 1) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (!IsDecimalDigit(c)) return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *value = v;
  return true;
}

// utils::ParseNumber: istream extraction with std::setbase(0), all text consumed, no failure,
// and "-N" rejected for unsigned types unless N is zero (the library wraps it silently).
template <typename T>
bool StreamParse(std::string_view text, T* value) {
  if (text.empty()) return false;
  // Only a digit, a sign or leading whitespace can start a number; ids and names fail here
  // without building a stream.
  const char first = text[0];
  if (!IsDecimalDigit(first) && first != '+' && first != '-' &&
      !std::isspace(static_cast<unsigned char>(first))) {
    return false;
  }
  std::istringstream stream{std::string(text)};
  stream >> std::setbase(0);
  stream >> *value;
  bool ok = !stream.bad() && stream.eof() && !stream.fail();
  if (ok && text[0] == '-' && std::is_unsigned_v<T> && *value != 0) ok = false;
  return ok;
}

// A minimal cursor with istream's peek/get/unget/eof semantics, for the hex-float reader.
struct CharStream {
  std::string_view text;
  size_t pos = 0;
  bool eof = false;
  bool fail = false;
  int Peek() {
    if (pos >= text.size()) {
      eof = true;
      return std::char_traits<char>::eof();
    }
    return static_cast<unsigned char>(text[pos]);
  }
  void Get() {
    if (Peek() != std::char_traits<char>::eof()) ++pos;
  }
};

template <typename F>
void ReadNativeFloat(CharStream& is, F* value) {
  std::istringstream stream{std::string(is.text.substr(is.pos))};
  stream >> *value;
  is.fail = is.fail || stream.fail();
  is.eof = stream.eof();
}

// ParseNormalFloat for float and double: the C++ library reader, negated afterwards.
template <typename F>
void ParseNormalFloat(CharStream& is, bool negate, F* value) {
  if (negate) {
    const int c = is.Peek();
    if (c == '-' || c == '+') {
      is.fail = true;
      return;
    }
  }
  ReadNativeFloat(is, value);
  if (negate) *value = -*value;
}

// The HexFloat reader of SPIRV-Tools for one IEEE format: "[-]0x<hex>[.<hex>]p[+-]<dec>" is read
// bit-exactly (with its handling of denormals and overflow), anything else goes to the C++
// library's float reader. U/I are the format's unsigned/signed integer types.
template <typename U, typename I, int kExponentBits, int kFractionBits, int kBias>
void ReadHexFloatBits(CharStream& is, bool* negate_out, bool* is_hex, U* out_bits) {
  constexpr int kTotalBits = static_cast<int>(sizeof(U) * 8);
  constexpr uint32_t kTopBit = kTotalBits - 1;
  constexpr int kFractionRightShift = kTotalBits - kFractionBits;
  constexpr U kFractionMask = static_cast<U>((uint64_t{1} << kFractionBits) - 1);
  constexpr U kExponentMask = static_cast<U>(((uint64_t{1} << kExponentBits) - 1) << kFractionBits);
  constexpr int64_t kMaxExponent = (int64_t{1} << kExponentBits) - 1;
  auto wrap = [](uint64_t v) { return static_cast<I>(static_cast<std::make_unsigned_t<I>>(v)); };
  // Digits beyond the width of U contribute nothing (the library's shift would be out of range;
  // the installed spirv-as drops them).
  auto bit_at = [](U bit, uint32_t index) -> U {
    if (index > kTopBit) return 0;
    return static_cast<U>(bit << (kTopBit - index));
  };

  *is_hex = false;
  *negate_out = false;
  while (std::isspace(is.Peek())) is.Get();
  int next = is.Peek();
  if (next != '-' && next != '0') return;
  if (next == '-') {
    *negate_out = true;
    is.Get();
    next = is.Peek();
  }
  if (next != '0') return;
  const size_t zero_pos = is.pos;
  is.Get();
  const int maybe_x = is.Peek();
  if (maybe_x != 'x' && maybe_x != 'X') {
    is.pos = zero_pos;  // unget, which also clears eofbit
    is.eof = false;
    return;
  }
  is.Get();
  *is_hex = true;

  bool seen_p = false, seen_dot = false, is_denorm = true, bits_written = false;
  uint32_t fraction_index = 0;
  U fraction = 0;
  I exponent = static_cast<I>(kBias);
  auto nibble = [](int c) { return c <= '9' ? c - '0' : (c >= 'a' ? c - 'a' + 10 : c - 'A' + 10); };
  while ((next = is.Peek()) == '0') is.Get();
  while (!seen_p && !seen_dot) {
    if (next == '.') {
      seen_dot = true;
    } else if (next == 'p') {
      seen_p = true;
    } else if (next != std::char_traits<char>::eof() && std::isxdigit(next)) {
      is_denorm = false;
      int number = nibble(next);
      for (int i = 0; i < 4; ++i, number <<= 1) {
        const U write_bit = (number & 0x8) ? 1 : 0;
        if (bits_written) {
          fraction = static_cast<U>(fraction | bit_at(write_bit, fraction_index++));
          exponent = wrap(static_cast<uint64_t>(exponent) + 1);
        }
        bits_written |= write_bit != 0;
      }
    } else {
      is.fail = true;
      return;
    }
    is.Get();
    next = is.Peek();
  }
  bits_written = false;
  while (seen_dot && !seen_p) {
    if (next == 'p') {
      seen_p = true;
    } else if (next != std::char_traits<char>::eof() && std::isxdigit(next)) {
      int number = nibble(next);
      for (int i = 0; i < 4; ++i, number <<= 1) {
        const U write_bit = (number & 0x8) ? 1 : 0;
        bits_written |= write_bit != 0;
        if (is_denorm && !bits_written) {
          exponent = wrap(static_cast<uint64_t>(exponent) - 1);
        } else {
          fraction = static_cast<U>(fraction | bit_at(write_bit, fraction_index++));
        }
      }
    } else {
      is.fail = true;
      return;
    }
    is.Get();
    next = is.Peek();
  }
  // A sign may only precede the exponent's digits, and there must be at least one digit.
  bool seen_sign = false, seen_digits = false;
  int exponent_sign = 1;
  I written_exponent = 0;
  while (true) {
    if (!seen_digits && (next == '-' || next == '+')) {
      if (seen_sign) {
        is.fail = true;
        return;
      }
      seen_sign = true;
      exponent_sign = next == '-' ? -1 : 1;
    } else if (next != std::char_traits<char>::eof() && std::isdigit(next)) {
      seen_digits = true;
      written_exponent = wrap(static_cast<uint64_t>(written_exponent) * 10u);
      written_exponent = wrap(static_cast<uint64_t>(written_exponent) + (next - '0'));
    } else if (!seen_digits) {
      is.fail = true;
      return;
    } else {
      break;
    }
    is.Get();
    next = is.Peek();
  }
  written_exponent =
      wrap(static_cast<uint64_t>(written_exponent) * static_cast<uint64_t>(int64_t{exponent_sign}));
  exponent = wrap(static_cast<uint64_t>(exponent) + static_cast<uint64_t>(written_exponent));

  bool is_zero = is_denorm && fraction == 0;
  if (is_denorm && !is_zero) {
    fraction = static_cast<U>(fraction << 1);
    exponent = wrap(static_cast<uint64_t>(exponent) - 1);
  } else if (is_zero) {
    exponent = 0;
  }
  if (exponent <= 0 && !is_zero) {
    fraction = static_cast<U>(fraction >> 1);
    fraction = static_cast<U>(fraction | (U{1} << kTopBit));
  }
  fraction = static_cast<U>((fraction >> kFractionRightShift) & kFractionMask);
  while (exponent < 0 && !is_zero) {
    fraction = static_cast<U>((fraction >> 1) & kFractionMask);
    exponent = static_cast<I>(exponent + 1);
    if (fraction == 0) {
      is_zero = true;
      exponent = 0;
    }
  }
  if (exponent > kMaxExponent) {
    exponent = static_cast<I>(kMaxExponent);
    fraction = 0;
  }
  U bits = static_cast<U>(U{*negate_out ? U{1} : U{0}} << kTopBit);
  bits = static_cast<U>(bits | fraction);
  bits = static_cast<U>(
      bits | (static_cast<U>(static_cast<U>(exponent) << kFractionBits) & kExponentMask));
  *out_bits = bits;
}

// A float literal in a format of kExponentBits and kFractionBits (bias kBias): a hex float is read
// straight into the format's bits; a decimal is read as a `Decimal` (float or double) and
// `from_decimal(value, is)` gives the format's bits (and may fail the stream: a value beyond the
// format's range). True and the bits when the whole text is such a float.
template <typename U, typename I, int kExponentBits, int kFractionBits, int kBias, typename Decimal,
          typename FromDecimal>
bool ParseFloatLiteral(std::string_view text, uint64_t* bits, FromDecimal from_decimal) {
  if (text.empty()) return false;
  CharStream is{text};
  bool negate = false, is_hex = false;
  U hex_bits = 0;
  ReadHexFloatBits<U, I, kExponentBits, kFractionBits, kBias>(is, &negate, &is_hex, &hex_bits);
  if (is_hex || is.fail) {
    *bits = hex_bits;
  } else {
    Decimal value = 0;
    ParseNormalFloat(is, negate, &value);
    *bits = from_decimal(value, is);
  }
  return !is.fail && is.eof;
}

uint32_t FloatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// ParseNumber<HexFloat<…>> for one width: true and the bits when the whole text is a float.
template <int kWidth>
bool ParseFloatBits(std::string_view text, uint64_t* bits) {
  if constexpr (kWidth == 16) {
    // Rounded toward zero; a value beyond the range is an error.
    return ParseFloatLiteral<uint16_t, int16_t, 5, 10, 15, float>(
        text, bits, [](float f, CharStream& is) -> uint64_t {
          // HexFloat::castTo truncates (round toward zero) and gives infinity, which is an error
          // here, when the exponent does not fit binary16 at all.
          if (std::isinf(f) || BeyondExponentRange(f, kHalfFormat)) is.fail = true;
          return EncodeFloat(f, kHalfFormat, RoundingMode::kTowardZero);
        });
  } else if constexpr (kWidth == 32) {
    return ParseFloatLiteral<uint32_t, int32_t, 8, 23, 127, float>(
        text, bits, [](float f, CharStream&) -> uint64_t { return FloatBits(f); });
  } else {
    return ParseFloatLiteral<uint64_t, int64_t, 11, 52, 1023, double>(
        text, bits, [](double d, CharStream&) -> uint64_t {
          uint64_t b;
          std::memcpy(&b, &d, sizeof b);
          return b;
        });
  }
}

// A bfloat16 literal (SPV_KHR_bfloat16): a hex float in the 8-bit exponent, 7-bit fraction format,
// or a decimal read as a float (the fp32 path) and truncated to its high half (round toward zero,
// as half literals are). A value beyond the range is an error, as for half.
bool ParseBFloat16Bits(std::string_view text, uint64_t* bits) {
  return ParseFloatLiteral<uint16_t, int16_t, 8, 7, 127, float>(
      text, bits, [](float f, CharStream& is) -> uint64_t {
        const uint32_t b = FloatBits(f);
        uint16_t high = static_cast<uint16_t>(b >> 16);
        // A NaN whose payload lies in the dropped half stays a NaN.
        if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu) != 0) high |= 0x40u;
        if ((high & 0x7FFFu) == 0x7F80u) is.fail = true;
        return high;
      });
}

// CheckRangeAndIfHexThenSignExtend of SPIRV-Tools.
template <typename T>
bool CheckRange(T value, uint32_t bit_width, bool is_signed, bool is_hex, T* updated) {
  uint64_t magnitude_mask = bit_width == 64 ? ~uint64_t{0} : ((uint64_t{1} << bit_width) - 1);
  uint64_t sign_mask = 0;
  const uint64_t overflow_mask = ~magnitude_mask;
  if (value < 0 || is_signed) {
    magnitude_mask >>= 1;
    sign_mask = magnitude_mask + 1;
  }
  const uint64_t bits = static_cast<uint64_t>(value);
  bool failed;
  if (value < 0) {
    failed = (bits & overflow_mask) != overflow_mask || (bits & sign_mask) != sign_mask;
  } else if (is_hex) {
    failed = (bits & overflow_mask) != 0;
  } else {
    failed = (bits & magnitude_mask) != bits;
  }
  if (failed) return false;
  if (is_hex && (bits & sign_mask)) *updated = static_cast<T>(bits | overflow_mask);
  return true;
}

template <typename T>
std::string DoesNotFit(T value, bool is_hex, uint32_t bit_width, bool is_signed) {
  std::ostringstream msg;
  msg << "Integer " << (is_hex ? std::hex : std::dec) << std::showbase << value
      << " does not fit in a " << std::dec << bit_width << "-bit "
      << (is_signed ? "signed" : "unsigned") << " integer";
  return msg.str();
}

EncodeStatus EncodeInteger(std::string_view text, NumberType type, EncodedNumber* out,
                           std::string* error) {
  const uint32_t width = type.bit_width;
  const bool is_signed = type.number_class == NumberClass::kSignedInt;
  if (width > 64) {
    *error = "Unsupported " + std::to_string(width) + "-bit integer literals";
    return EncodeStatus::kUnsupported;
  }
  const bool is_negative = !text.empty() && text[0] == '-';
  if (is_negative && !is_signed) {
    *error = "Cannot put a negative number in an unsigned literal";
    return EncodeStatus::kInvalidUsage;
  }
  const bool is_hex = text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  uint64_t bits;
  if (is_negative) {
    int64_t value = 0;
    if (!ParseInt64(text, &value)) {
      *error = "Invalid signed integer literal: " + std::string(text);
      return EncodeStatus::kInvalidText;
    }
    if (!CheckRange(value, width, is_signed, is_hex, &value)) {
      *error = DoesNotFit(value, is_hex, width, is_signed);
      return EncodeStatus::kInvalidText;
    }
    bits = static_cast<uint64_t>(value);
  } else {
    if (!ParseUint64(text, &bits)) {
      *error = "Invalid unsigned integer literal: " + std::string(text);
      return EncodeStatus::kInvalidText;
    }
    if (!CheckRange(bits, width, is_signed, is_hex, &bits)) {
      *error = DoesNotFit(bits, is_hex, width, is_signed);
      return EncodeStatus::kInvalidText;
    }
  }
  out->words[0] = static_cast<uint32_t>(bits);
  out->words[1] = static_cast<uint32_t>(bits >> 32);
  out->count = width > 32 ? 2 : 1;
  return EncodeStatus::kSuccess;
}

EncodeStatus EncodeFloat(std::string_view text, uint32_t width, EncodedNumber* out,
                         std::string* error) {
  uint64_t bits = 0;
  bool ok;
  switch (width) {
    case 16:
      ok = ParseFloatBits<16>(text, &bits);
      break;
    case 32:
      ok = ParseFloatBits<32>(text, &bits);
      break;
    case 64:
      ok = ParseFloatBits<64>(text, &bits);
      break;
    default:
      *error = "Unsupported " + std::to_string(width) + "-bit float literals";
      return EncodeStatus::kUnsupported;
  }
  if (!ok) {
    *error = "Invalid " + std::to_string(width) + "-bit float literal: " + std::string(text);
    return EncodeStatus::kInvalidText;
  }
  out->words[0] = static_cast<uint32_t>(bits);
  out->words[1] = static_cast<uint32_t>(bits >> 32);
  out->count = width == 64 ? 2 : 1;
  return EncodeStatus::kSuccess;
}

}  // namespace

bool ParseUint32(std::string_view text, uint32_t* value) {
  uint64_t v;
  if (FastDecimal(text, &v)) {
    if (v > std::numeric_limits<uint32_t>::max()) return false;
    *value = static_cast<uint32_t>(v);
    return true;
  }
  return StreamParse(text, value);
}

bool ParseUint64(std::string_view text, uint64_t* value) {
  if (text.size() < 19 && FastDecimal(text, value)) return true;
  return StreamParse(text, value);
}

bool ParseInt64(std::string_view text, int64_t* value) {
  uint64_t v;
  if (text.size() >= 2 && text.size() < 19 && text[0] == '-' && FastDecimal(text.substr(1), &v)) {
    *value = -static_cast<int64_t>(v);
    return true;
  }
  return StreamParse(text, value);
}

EncodeStatus ParseAndEncodeNumber(std::string_view text, NumberType type, EncodedNumber* out,
                                  std::string* error) {
  if (type.number_class == NumberClass::kFloat) {
    return EncodeFloat(text, type.bit_width, out, error);
  }
  if (type.number_class == NumberClass::kBFloat16) {
    uint64_t bits = 0;
    if (!ParseBFloat16Bits(text, &bits)) {
      *error = "Invalid bfloat16 literal: " + std::string(text);
      return EncodeStatus::kInvalidText;
    }
    out->words[0] = static_cast<uint32_t>(bits);
    out->words[1] = 0;
    out->count = 1;
    return EncodeStatus::kSuccess;
  }
  return EncodeInteger(text, type, out, error);
}

LiteralClass ClassifyLiteral(std::string_view text, std::string* str, uint32_t* u32) {
  if (text.empty()) return LiteralClass::kNone;
  bool is_signed = false, is_string = false;
  int periods = 0;
  for (size_t i = 0; i < text.size() && !is_string; ++i) {
    const char c = text[i];
    if (IsDecimalDigit(c)) continue;
    if (c == '.') {
      ++periods;
    } else if (c == '-' && i == 0) {
      is_signed = true;
    } else {
      is_string = true;
    }
  }
  if (is_string || periods > 1 || (is_signed && text.size() == 1)) {
    if (text.size() < 2 || text.front() != '"' || text.back() != '"') return LiteralClass::kNone;
    str->clear();
    bool escaping = false;
    for (char c : text.substr(1, text.size() - 2)) {
      if (c == '\\' && !escaping) {
        escaping = true;
      } else {
        if (str->size() >= kMaxStringBytes) return LiteralClass::kStringTooLong;
        str->push_back(c);
        escaping = false;
      }
    }
    return LiteralClass::kString;
  }
  if (periods == 1 || is_signed) return LiteralClass::kOtherNumber;
  // strtoull in base 10 of a digit string: saturates on overflow, which is then not 32-bit.
  const std::string digits(text);
  const uint64_t v = std::strtoull(digits.c_str(), nullptr, 10);
  if (v > std::numeric_limits<uint32_t>::max()) return LiteralClass::kOtherNumber;
  *u32 = static_cast<uint32_t>(v);
  return LiteralClass::kUint32;
}

}  // namespace xmx::text
