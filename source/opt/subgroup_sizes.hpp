// The subgroup sizes each function of a module may run at: those of the kernels (entry points)
// that reach it through calls, each its OpExecutionMode SubgroupSize or open. Passes whose
// rewriting depends on the size (a 2D block payload, the matrix instruction's columns) use it.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "xmx/module.hpp"

namespace xmx::opt {

struct ReachingSubgroupSizes {
  // Function id -> the sizes of the kernels reaching it (0 for a kernel that fixes none); absent
  // for a function no kernel reaches (LLVM's backend exports an uncalled copy of each kernel).
  std::map<uint32_t, std::vector<uint32_t>> by_function;
  std::vector<uint32_t> kernels;  // each kernel's size, 0 when open

  bool Reached(uint32_t function) const { return by_function.count(function) != 0; }
  // The one size every kernel reaching `function` fixes; 0 when they do not all fix the same
  // one, or none reaches it.
  uint32_t Fixed(uint32_t function) const;
};

ReachingSubgroupSizes FindReachingSubgroupSizes(const ir::Module& module);

}  // namespace xmx::opt
