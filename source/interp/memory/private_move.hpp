// Moving a subgroup's values between register slots and a private variable whose address the
// loader knows: what the private load and store handlers do (exec_memory.cpp) and what the matrix
// instruction does for the loads and the store folded into it (exec_matrix_mad.cpp). The loader
// has already checked that the access lies inside the variable at an offset its alignment
// divides, so no lane's pointer is looked at.
//
// The helpers are forced inline, the per-lane lambda too: their callers are compiled for AVX2 where
// the host has it, and as a function of external linkage the lambda lost the inliner's bonus for
// a single caller; a call per lane cost +14% host instructions on the int8 GEMM (callgrind).
#pragma once

#include <cstddef>
#include <cstdint>

#include "interp/model/program.hpp"
#include "interp/model/subgroup.hpp"
#include "interp/model/work_group.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {

// Where the work-items of a subgroup keep their private variables: work-item first_item + l's
// copy of variable v, byte o, is at items + l * stride + offsets[v] + o (private_layout.hpp).
struct SubgroupPrivate {
  uint8_t* items;
  size_t stride;
  const uint64_t* offsets;
  bool all_lanes;  // every lane active (and so a work-item): no mask to follow

  static inline __attribute__((always_inline)) SubgroupPrivate Of(const Subgroup& sg) {
    const WorkGroup& g = *sg.group;
    const PrivateLayout& layout = g.program->private_layout;
    const uint32_t lanes = sg.lanes;
    return {g.private_base + sg.first_item * layout.bytes_per_item, layout.bytes_per_item,
            layout.offsets.data(), lanes <= 64 && sg.mask == (~uint64_t{0} >> (64 - lanes))};
  }
};

// Each active lane's `value_size` bytes (kSize when it is not 0) between its work-item's copy of
// `variable` at byte `offset` and its part of the register slot at `value` (lane l at
// value + l * size): into the variable when kStore, out of it otherwise.
template <bool kStore, uint32_t kSize>
inline __attribute__((always_inline)) void MovePrivate(const Subgroup& sg, const SubgroupPrivate& p,
                                                       uint32_t variable, uint32_t offset,
                                                       uint8_t* value, uint32_t value_size) {
  // A const copy: the lambda captures it by reference, and a parameter assigned in place could be
  // overwritten by the byte stores for all the compiler knows, so it reloaded it every lane.
  const uint32_t size = kSize != 0 ? kSize : value_size;
  const size_t stride = p.stride;
  uint8_t* first = p.items + p.offsets[variable] + offset;
  auto move = [&](uint32_t lane) __attribute__((always_inline)) {
    if constexpr (kStore) {
      CopyBytes(first + lane * stride, value + lane * size, size);
    } else {
      CopyBytes(value + lane * size, first + lane * stride, size);
    }
  };
  // Only work-items' lanes: a last subgroup's other lanes have no private block.
  if (p.all_lanes) {
    ForAllLanes(sg.lanes, move);
  } else {
    ForEachLane(sg.mask, move);
  }
}

}  // namespace xmx::interp
