// Rounding sizes and offsets up to an alignment.
#pragma once

#include <concepts>

namespace xmx {

// The smallest multiple of `alignment` (nonzero) that is >= `value`. Callers pick a type wide
// enough that the sum cannot wrap (the loader sizes register files in 64 bits for that reason).
template <std::unsigned_integral T>
constexpr T AlignUp(T value, T alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace xmx
