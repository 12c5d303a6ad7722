// What the cooperative-matrix instruction files share (exec_coop*.cpp): the component formats
// and the binders the loader calls. Private to the interpreter.
#pragma once

#include <cstdint>
#include <optional>

#include "device/coop_layout.hpp"
#include "ir/type_table.hpp"

namespace xmx::interp {

// The element mapping is the device layer's (device/coop_layout.hpp).
using device::CoopCoord;
using device::CoopLayout;
using device::CoopUse;

// How a component of a matrix (or a scalar converted to or from one) is stored.
enum class CoopComponent : uint8_t { kOther, kInt8, kInt16, kInt32, kHalf, kBFloat16, kFloat };

// The component format of a scalar, vector or cooperative-matrix type.
CoopComponent ComponentOf(const ir::TypeTable& types, uint32_t type_id);

// Whether the scalar, vector or matrix type `type_id` has bfloat16 (OpTypeFloat 16 BFloat16KHR)
// components.
inline bool HasBFloat16Components(const ir::TypeTable& types, uint32_t type_id) {
  return ComponentOf(types, type_id) == CoopComponent::kBFloat16;
}

}  // namespace xmx::interp
