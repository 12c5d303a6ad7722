// Values the loader can prove hold the same bits in every active invocation of a subgroup, so
// that an instruction requiring a dynamically uniform operand (2D block IO, block IO, ...) need
// not compare lanes at run time for them. The analysis is conservative: a value it cannot prove
// uniform is checked lane by lane as before, so it may only ever skip checks that cannot fail.
//
// Proven uniform:
//  - constants (module-scope OpConstant*, OpSpecConstant*), but not OpUndef;
//  - module-scope variables in CrossWorkgroup, UniformConstant or Workgroup storage (one
//    address for every work-item of a work-group);
//  - the kernel's parameters, except pointers to Function storage (a by-value aggregate is a
//    pointer to each work-item's own copy);
//  - a direct OpLoad of a builtin variable that a whole subgroup shares (WorkgroupId,
//    NumWorkgroups, GlobalSize, LocalSize, EnqueuedWorkgroupSize, GlobalOffset, WorkDim,
//    SubgroupSize, SubgroupMaxSize, NumSubgroups, NumEnqueuedSubgroups, SubgroupId);
//  - the result of a side-effect-free instruction (arithmetic, bit, conversion, composite,
//    comparison, select, access chain) whose id operands are all proven uniform;
//  - a vector built by a chain of single-index OpCompositeInserts of uniform components, when
//    the chain writes every component or starts from a uniform vector: what the chain starts
//    from (an OpUndef, say, as both producers build `(int2)(x, y)`) is then overwritten or
//    uniform itself;
//  - a parameter of a function the kernel reaches, when the function is on no call cycle and
//    every call of it (all in functions already analysed) passes a value proven uniform (-O0
//    builds put the whole kernel in such a function, called once from a wrapper);
//  - an OpPhi whose incoming values are all proven uniform, in a function where the condition of
//    every conditional branch and the selector of every switch is proven uniform (found as the
//    largest such set, so that a loop counter and the exit test built on it prove each other):
//    then every active lane of an activation follows the same path, and a phi takes the same
//    edge in all of them.
// Otherwise an OpPhi is not proven uniform: after divergent control flow the active lanes may
// have arrived along different edges.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "ir/module_info.hpp"
#include "xmx/module.hpp"

namespace xmx::interp {

class UniformValues {
 public:
  UniformValues() = default;
  UniformValues(const ir::Module& module, const ir::ModuleInfo& info, uint32_t kernel_id);

  bool Contains(uint32_t id) const { return ids_.count(id) != 0; }

 private:
  // Adds what `function` proves uniform; its parameters that are uniform are in the set already.
  void AnalyseFunction(const ir::Function& function, const std::unordered_set<uint32_t>& shared);

  // Whether `insert` (an OpCompositeInsert into a vector) and the inserts it is built on write
  // every component from `set`, or reach a vector in `set`; `inserts` maps the function's
  // OpCompositeInsert results to their instructions.
  bool InsertsCoverVector(const ir::Instruction& insert,
                          const std::unordered_map<uint32_t, const ir::Instruction*>& inserts,
                          const std::unordered_set<uint32_t>& set) const;

  std::unordered_set<uint32_t> ids_;
  std::unordered_map<uint32_t, uint32_t> vector_components_;  // OpTypeVector id -> count
};

}  // namespace xmx::interp
