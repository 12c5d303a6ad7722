// What a work-item's builtin variables hold when its work-group starts, stated once for the two
// ways the executor sets them: every builtin of every work-item (a work-group at the edge of the
// NDRange, and the start image of a full work-group each worker makes once), and the few that
// name the work-group, rewritten in that image for each full work-group it runs.
#pragma once

#include <cstdint>

#include "xmx/interpreter.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::interp {

// The work-group a builtin's value is taken in.
struct BuiltinScope {
  const LaunchGeometry* geometry = nullptr;
  uint64_t group_id[3] = {};
  uint64_t size[3] = {};       // work-items per dimension (fewer at the NDRange's edge)
  uint32_t items = 0;          // work-items in the work-group
  uint32_t max_items = 0;      // work-items in a full work-group
  uint32_t subgroup_size = 0;  // lanes of a subgroup
};

// Whether two full work-groups give one work-item different values of `builtin`: the ids that
// name the work-group or place the work-item in the NDRange. Every other builtin depends only on
// the geometry, the work-group's size and the work-item's local id.
bool DependsOnGroupId(spv::BuiltIn builtin);

// How much the value of `builtin` (one DependsOnGroupId names) in work-group `group_id` exceeds
// its value in work-group 0 for the same work-item, per component. Those builtins are linear in
// the group id, so a work-group's value is its start image's (taken in work-group 0) plus this,
// wrapping at the component's width as the value itself does.
void GroupIdDelta(spv::BuiltIn builtin, const uint64_t group_id[3], const LaunchGeometry& geometry,
                  uint64_t delta[3]);

// The layout StoreBuiltin gives `builtin` in a variable of `bytes` bytes: `components` of
// `element` bytes each.
struct BuiltinFields {
  uint32_t components, element;
};
BuiltinFields BuiltinFieldsOf(spv::BuiltIn builtin, uint64_t bytes);

// Stores work-item `item`'s (local id `local_id`) value of `builtin` in its variable of `bytes`
// bytes at `dst`: a scalar, or a 3-vector of 32- or 64-bit integers. A builtin the interpreter
// does not give a value reads zero (the variable was zeroed).
void StoreBuiltin(spv::BuiltIn builtin, uint32_t item, const uint64_t local_id[3],
                  const BuiltinScope& scope, uint8_t* dst, uint64_t bytes);

}  // namespace xmx::interp
