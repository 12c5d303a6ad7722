#include "interp/run/work_group_start.hpp"

#include <algorithm>
#include <cstring>

namespace xmx::interp {

bool DependsOnGroupId(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::GlobalInvocationId:
    case spv::BuiltIn::WorkgroupId:
    case spv::BuiltIn::GlobalLinearId:
      return true;
    default:
      return false;
  }
}

void GroupIdDelta(spv::BuiltIn builtin, const uint64_t group_id[3], const LaunchGeometry& g,
                  uint64_t delta[3]) {
  delta[0] = delta[1] = delta[2] = 0;
  switch (builtin) {
    case spv::BuiltIn::GlobalInvocationId:
      for (int d = 0; d < 3; ++d) delta[d] = group_id[d] * g.local[d];
      break;
    case spv::BuiltIn::WorkgroupId:
      for (int d = 0; d < 3; ++d) delta[d] = group_id[d];
      break;
    case spv::BuiltIn::GlobalLinearId:
      // gid[d] = group_id[d] * local[d] + local_id[d]: the linear id is a sum of the two parts.
      delta[0] = group_id[0] * g.local[0] +
                 g.global[0] * (group_id[1] * g.local[1] + g.global[1] * group_id[2] * g.local[2]);
      break;
    default:
      break;
  }
}

namespace {

// Whether StoreBuiltin stores `builtin` as a 3-vector (else a scalar).
bool IsVectorBuiltin(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::GlobalInvocationId:
    case spv::BuiltIn::LocalInvocationId:
    case spv::BuiltIn::WorkgroupId:
    case spv::BuiltIn::NumWorkgroups:
    case spv::BuiltIn::GlobalSize:
    case spv::BuiltIn::WorkgroupSize:
    case spv::BuiltIn::EnqueuedWorkgroupSize:
    case spv::BuiltIn::GlobalOffset:
      return true;
    case spv::BuiltIn::GlobalLinearId:
    case spv::BuiltIn::LocalInvocationIndex:
    case spv::BuiltIn::WorkDim:
    case spv::BuiltIn::SubgroupLocalInvocationId:
    case spv::BuiltIn::SubgroupSize:
    case spv::BuiltIn::SubgroupMaxSize:
    case spv::BuiltIn::NumSubgroups:
    case spv::BuiltIn::NumEnqueuedSubgroups:
    case spv::BuiltIn::SubgroupId:
      return false;
    default:
      return true;  // zero: the 3-vector of zeros stores what a scalar zero would
  }
}

}  // namespace

BuiltinFields BuiltinFieldsOf(spv::BuiltIn builtin, uint64_t bytes) {
  // Components of 8 bytes (a 3-vector of 64-bit integers takes 24), else of 4; a scalar takes
  // the low bytes of the value, at most 8. A variable too small for a component gets fewer.
  const bool vector = IsVectorBuiltin(builtin);
  const uint64_t element = vector ? (bytes >= 24 ? 8 : 4) : std::min<uint64_t>(bytes, 8);
  uint32_t components = 0;
  while (components < (vector ? 3u : 1u) && (components + 1) * element <= bytes) ++components;
  return {components, static_cast<uint32_t>(element)};
}

void StoreBuiltin(spv::BuiltIn builtin, uint32_t item, const uint64_t local_id[3],
                  const BuiltinScope& scope, uint8_t* dst, uint64_t bytes) {
  const LaunchGeometry& g = *scope.geometry;
  const uint32_t sg_size = scope.subgroup_size;
  uint64_t value[3] = {0, 0, 0};
  switch (builtin) {
    case spv::BuiltIn::GlobalInvocationId:
      for (int d = 0; d < 3; ++d) {
        value[d] = scope.group_id[d] * g.local[d] + local_id[d] + g.offset[d];
      }
      break;
    case spv::BuiltIn::LocalInvocationId:
      for (int d = 0; d < 3; ++d) value[d] = local_id[d];
      break;
    case spv::BuiltIn::WorkgroupId:
      for (int d = 0; d < 3; ++d) value[d] = scope.group_id[d];
      break;
    case spv::BuiltIn::NumWorkgroups:
      for (int d = 0; d < 3; ++d) value[d] = g.groups[d];
      break;
    case spv::BuiltIn::GlobalSize:
      for (int d = 0; d < 3; ++d) value[d] = g.global[d];
      break;
    case spv::BuiltIn::WorkgroupSize:
      for (int d = 0; d < 3; ++d) value[d] = scope.size[d];
      break;
    case spv::BuiltIn::EnqueuedWorkgroupSize:
      for (int d = 0; d < 3; ++d) value[d] = g.local[d];
      break;
    case spv::BuiltIn::GlobalOffset:
      for (int d = 0; d < 3; ++d) value[d] = g.offset[d];
      break;
    case spv::BuiltIn::GlobalLinearId: {
      uint64_t gid[3];
      for (int d = 0; d < 3; ++d) gid[d] = scope.group_id[d] * g.local[d] + local_id[d];
      value[0] = gid[0] + g.global[0] * (gid[1] + g.global[1] * gid[2]);
      break;
    }
    case spv::BuiltIn::LocalInvocationIndex:
      value[0] = item;
      break;
    case spv::BuiltIn::WorkDim:
      value[0] = g.dims;
      break;
    case spv::BuiltIn::SubgroupLocalInvocationId:
      value[0] = item % sg_size;
      break;
    case spv::BuiltIn::SubgroupSize: {
      const uint32_t first = item / sg_size * sg_size;
      value[0] = std::min<uint32_t>(sg_size, scope.items - first);
      break;
    }
    case spv::BuiltIn::SubgroupMaxSize:
      value[0] = sg_size;
      break;
    case spv::BuiltIn::NumSubgroups:
      value[0] = (scope.items + sg_size - 1) / sg_size;
      break;
    case spv::BuiltIn::NumEnqueuedSubgroups:
      value[0] = (scope.max_items + sg_size - 1) / sg_size;
      break;
    case spv::BuiltIn::SubgroupId:
      value[0] = item / sg_size;
      break;
    default:
      break;
  }
  const BuiltinFields fields = BuiltinFieldsOf(builtin, bytes);
  for (uint32_t c = 0; c < fields.components; ++c) {
    if (fields.element == 8) {  // the usual widths are fixed-size moves
      std::memcpy(dst + c * 8, &value[c], 8);
    } else if (fields.element == 4) {
      const uint32_t low = static_cast<uint32_t>(value[c]);
      std::memcpy(dst + c * 4, &low, 4);
    } else {
      std::memcpy(dst + c * fields.element, &value[c], fields.element);
    }
  }
}

}  // namespace xmx::interp
