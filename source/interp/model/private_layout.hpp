// Where a work-group's private memory (Function and Input storage, one copy per work-item) lies,
// stated once for the loader, which computes it, and the executor and the memory handlers, which
// address it.
//
// Work-item `item`'s copy of private variable `v` is allocation `first + item * variables + v` of
// the work-group's allocation table (`first`: the work-group's first private allocation) and
// starts at byte `item * bytes_per_item + offsets[v]` of one host array. So the copies of one
// variable in consecutive work-items are `variables` allocations and `bytes_per_item` bytes
// apart: the strided fast path of run/exec_support.hpp reads a whole subgroup's copies at once.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace xmx::interp {

struct VariableInfo;

// The allocation index of `item`'s copy of private variable `variable`, when every work-item has
// `per_item` of them and the first is allocation `first`. A free function so that a handler
// holding `per_item` in its decoded data needs no pointer to the layout.
constexpr uint32_t PrivateAllocation(uint32_t first, uint32_t per_item, uint32_t item,
                                     uint32_t variable) {
  return first + item * per_item + variable;
}

struct PrivateLayout {
  uint32_t variables = 0;         // private variables per work-item
  uint64_t bytes_per_item = 0;    // one work-item's block (every variable at its aligned offset)
  std::vector<uint64_t> offsets;  // variable index -> its offset in a work-item's block

  // Every variable at the next offset its alignment allows, in index order.
  static PrivateLayout Of(std::span<const VariableInfo> variables);

  uint32_t Allocation(uint32_t first, uint32_t item, uint32_t variable) const {
    return PrivateAllocation(first, variables, item, variable);
  }
  uint64_t ByteOffset(uint32_t item, uint32_t variable) const {
    return item * bytes_per_item + offsets[variable];
  }
};

}  // namespace xmx::interp
