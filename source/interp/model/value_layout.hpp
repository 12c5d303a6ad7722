// How the interpreter stores values, shared by the executor and the instruction families.
//
// A subgroup has one register file. Every SSA value of the program has a slot in it, and a slot
// holds the value of every lane, lane-major: lane i's value occupies bytes [i*S, (i+1)*S) of the
// slot, where S is the value's per-lane size. Within a lane the value has its memory layout
// without tail padding: components consecutive (component 0 first), each little-endian, so a
// vector of 3 floats takes 12 bytes; a bool takes 1 byte (0 or 1); a pointer takes 8 bytes (see
// memory.hpp for its encoding). Element-wise instructions therefore run as one flat loop over
// lanes * components elements.
#pragma once

#include <cstdint>

#include "xmx/interpreter.hpp"

namespace xmx::interp {

enum class ScalarKind : uint8_t { kBool, kInt, kFloat, kPointer };

// The component type of a value: an integer (signless, as in OpenCL SPIR-V), a float (2 bytes =
// IEEE half; bfloat16 data travels as 16-bit integers), a bool or a pointer.
struct ScalarType {
  ScalarKind kind = ScalarKind::kInt;
  uint8_t bytes = 4;

  friend bool operator==(const ScalarType&, const ScalarType&) = default;
};

// A scalar or vector value type: `components` == 1 for scalars.
struct ValueType {
  ScalarType scalar;
  uint32_t components = 1;

  uint32_t lane_bytes() const { return components * scalar.bytes; }
  friend bool operator==(const ValueType&, const ValueType&) = default;
};

// kMaxSubgroupSize is public (xmx/interpreter.hpp).

}  // namespace xmx::interp
