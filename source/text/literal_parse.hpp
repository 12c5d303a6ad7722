// Number parsing for the assembler, with the exact acceptance rules and diagnostics of
// SPIRV-Tools 2023.1 (utils::ParseNumber, ParseAndEncodeNumber and the HexFloat reader), so that
// every literal spirv-as accepts encodes to the same words and every literal it rejects is
// rejected with the same message.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace xmx::text {

// kBFloat16: the 16-bit BFloat16KHR encoding of SPV_KHR_bfloat16 (bit_width is 16).
enum class NumberClass : uint8_t { kUnsignedInt, kSignedInt, kFloat, kBFloat16 };

struct NumberType {
  uint32_t bit_width;
  NumberClass number_class;
};

enum class EncodeStatus : uint8_t {
  kSuccess,
  kInvalidText,   // the text is not a number of the expected type
  kInvalidUsage,  // e.g. a negative number for an unsigned type
  kUnsupported,   // a bit width no literal can have
};

// The words of one encoded literal: one, or two (low word first) for widths above 32.
struct EncodedNumber {
  uint32_t words[2] = {0, 0};
  uint32_t count = 0;
};

// Parses `text` as an integer the way std::istream does with std::setbase(0) (decimal, 0x hex,
// leading-0 octal); the whole text must be consumed and the value must be in range.
bool ParseUint32(std::string_view text, uint32_t* value);
bool ParseUint64(std::string_view text, uint64_t* value);
bool ParseInt64(std::string_view text, int64_t* value);

// Parses and encodes a literal of the given type. On failure *error receives the message.
EncodeStatus ParseAndEncodeNumber(std::string_view text, NumberType type, EncodedNumber* out,
                                  std::string* error);

// spvTextToLiteral's classification of a word: a quoted string (escapes removed), a number, or
// neither.
enum class LiteralClass : uint8_t { kNone, kString, kUint32, kOtherNumber, kStringTooLong };
// For kString, *str receives the characters between the quotes with escapes removed; for
// kUint32, *u32 receives the value (decimal only, as strtoull(…, 10)).
LiteralClass ClassifyLiteral(std::string_view text, std::string* str, uint32_t* u32);

}  // namespace xmx::text
