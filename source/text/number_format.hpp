// Literal numbers spelled the way SPIRV-Tools 2023.1 prints them (spirv-dis, and the names of
// OpConstant ids): integers in decimal by signedness; zero and normal 32/64-bit floats in
// shortest-round-trip-safe decimal (max_digits10 significant digits, %g style); subnormal,
// infinite and NaN floats, and every 16-bit float, as hex floats ("0x1.8p+0", "-0x1p+128").
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "binary/parser.hpp"

namespace xmx::text {

void AppendUnsigned(uint64_t value, std::string* out);
void AppendSigned(int64_t value, std::string* out);
void AppendHalf(uint16_t bits, std::string* out);
// A bfloat16 (SPV_KHR_bfloat16) as a hex float, like half: 1.5 is "0x1.8p+0".
void AppendBFloat16(uint16_t bits, std::string* out);
void AppendFloat(uint32_t bits, std::string* out);
void AppendDouble(uint64_t bits, std::string* out);

// Appends a literal number operand of one or two words (low-order word first). A one-word
// float of width 16 is a half in the low 16 bits; other one-word floats are 32-bit.
void AppendNumber(binary::NumberKind kind, uint8_t bit_width, std::span<const uint32_t> words,
                  std::string* out);

}  // namespace xmx::text
