#include "opt/subgroup_sizes.hpp"

#include <algorithm>
#include <set>

#include "ir/module_info.hpp"

namespace xmx::opt {

uint32_t ReachingSubgroupSizes::Fixed(uint32_t function) const {
  auto it = by_function.find(function);
  if (it == by_function.end() || it->second.empty()) return 0;
  const uint32_t size = it->second.front();
  const bool same =
      std::all_of(it->second.begin(), it->second.end(), [size](uint32_t s) { return s == size; });
  return same ? size : 0;
}

ReachingSubgroupSizes FindReachingSubgroupSizes(const ir::Module& module) {
  const ir::ModuleInfo info(module);
  ReachingSubgroupSizes result;
  for (const ir::EntryPoint& entry : info.entry_points()) {
    uint32_t size = 0;
    if (auto mode = info.FindExecutionMode(entry.function_id, spv::ExecutionMode::SubgroupSize);
        mode && mode->operands.size() == 1 && !mode->operands_are_ids) {
      size = mode->operands[0];
    }
    result.kernels.push_back(size);
    std::vector<uint32_t> stack{entry.function_id};
    std::set<uint32_t> seen;
    while (!stack.empty()) {
      const uint32_t f = stack.back();
      stack.pop_back();
      if (!seen.insert(f).second) continue;
      result.by_function[f].push_back(size);
      for (uint32_t callee : info.GetCallees(f)) stack.push_back(callee);
    }
  }
  return result;
}

}  // namespace xmx::opt
