// Small text helpers for messages, shared by every layer.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

namespace xmx {

// "0x3000C": upper-case hex digits, no leading zeros (as operand masks are spelled in messages).
inline std::string Hex(uint64_t value) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[value & 0xF]);
    value >>= 4;
  } while (value != 0);
  return "0x" + digits;
}

// "8, 16, 32": the elements of `values` (numbers in decimal, strings as they are) between
// `separator`s.
template <typename Range>
std::string Join(const Range& values, std::string_view separator = ", ") {
  std::string out;
  bool first = true;
  for (const auto& value : values) {
    if (!first) out += separator;
    first = false;
    if constexpr (std::integral<std::decay_t<decltype(value)>>) {
      out += std::to_string(value);
    } else {
      out += std::string_view(value);
    }
  }
  return out;
}

}  // namespace xmx
