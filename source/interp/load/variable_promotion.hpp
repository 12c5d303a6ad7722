// Promotion of private variables to registers, at load time (issue 13): code built at -O0 keeps
// every loop counter, index, pointer and temporary in a Function-storage OpVariable and loads
// and stores it around each use, about ten dispatches per K step of a GEMM for each one the
// same kernel built at -O2 needs. The loader rewrites such variables into SSA values (the
// classic construction: phis at the iterated dominance frontiers of the stores, pruned to blocks
// where the variable is live, then renaming along the dominator tree), so that a load becomes
// the value last stored and a store becomes nothing; the rest of the loader (phi copies per
// edge, phi coalescing, invariant code, uniformity) then treats the values as it treats -O2 code.
//
// A variable is promoted only when nothing can tell: what each lane computes, every report and
// every instruction a report may name stay the same.
//  - It is an OpVariable of a function, without an initializer, of a scalar, vector or (in
//    Physical64 modules, where a pointer is stored as its 8 register bytes) pointer type: a
//    load gives back exactly the bytes the last store wrote.
//  - Its only uses are OpLoad from it and OpStore to it of the whole variable (plus lifetime
//    markers, which do nothing), with no memory operand but Aligned and Nontemporal: its address
//    reaches no call, access chain, cast, phi, select or memory. Each such access is at offset 0
//    of the variable's own allocation, in bounds and aligned for any Aligned operand, so it can
//    never be reported: removing it removes no report.
//  - It carries no decoration but Alignment (a Volatile one says memory matters).
//  - Its function takes part in no call cycle (a recursive activation shares the registers).
// A load that no store reaches on some path reads what the variable's memory holds at that
// point. In the kernel function (called by no function) that is zero: a work-item's private
// memory starts each work-group zero and the kernel runs once per work-item. In any other
// function it is what an earlier call left there (README), which registers cannot give: such a
// variable is not promoted. (The variables stay allocated, so memory limits and the allocation
// numbers in reports do not change.)
//
// `--stats` and `--max-instructions` count dispatched instructions: promoted loads and stores
// are no longer dispatched, as phis and hoisted invariant code are not.
#pragma once

#include <cstdint>
#include <optional>

#include "xmx/module.hpp"

namespace xmx::interp {

struct PromotionSummary {
  uint32_t variables = 0;  // variables promoted
  uint32_t loads = 0;      // loads and stores removed
  uint32_t stores = 0;
  uint32_t phis = 0;  // phis added
};

// Whether some function of `module` has a variable of a type that may be promoted (a quick scan
// that spares the modules built at -O2, whose variables are arrays, the rest).
bool MayPromoteVariables(const ir::Module& module);

// A copy of `module` with the promotable variables of its functions promoted, or nullopt when it
// has none. `kernel_id` is the function of the kernel being loaded (its variables start zero).
// Instructions kept keep their place in the binary (source_index), so reports name them as
// before; added phis and null constants have none.
std::optional<ir::Module> PromotePrivateVariables(const ir::Module& module, uint32_t kernel_id,
                                                  PromotionSummary* summary = nullptr);

}  // namespace xmx::interp
