// Private loads and stores a matrix instruction performs itself. GEMM kernels load A, B and
// often C from private arrays right before each OpSubgroupMatrixMultiplyAccumulateINTEL and
// store its result right after (the 2D block loads fill those arrays; -O0 keeps even the
// accumulators there). Dispatched on their own, those loads and stores cost as much again as
// the copies they make; folded into the matrix instruction, the same copies run inside its
// handler (exec_matrix_mad.cpp), and the instructions are counted as executed all the same.
//
// Moving an access changes when it happens: a folded load runs at its matrix instruction, later
// than written, and a folded store at its matrix instruction, earlier. So only these are folded,
// within one block:
//  - an OpLoad whose result nothing but the matrix instruction reads (one use in the function),
//    with nothing between the two that writes memory or has another effect: between them only
//    instructions that compute from registers (pointer casts, access chains, composites, integer
//    arithmetic), other loads and matrix instructions;
//  - the first OpStore after the matrix instruction of its result, with only such register
//    computations between them (no load, no matrix instruction: either may read what the store
//    writes, or be a matrix instruction with loads of its own that now run after it).
// Every access that moves thus crosses no other access to memory. The loader folds a candidate
// only when its pointer is a known private address the access lies inside (the case in which
// the load and store handlers check nothing at run time either); the others stay dispatched.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "xmx/module.hpp"

namespace xmx::interp {

// One folded access: `size` bytes per lane between register slot `slot` and every work-item's
// copy of private variable `variable` at `offset`; size 0: none.
struct FoldedPrivateAccess {
  uint32_t slot = 0, variable = 0, offset = 0, size = 0;
};

struct MatrixOperandFolds {
  // Candidates (above): each load mapped to the matrix instruction that reads it, each matrix
  // instruction to the store of its result.
  std::unordered_map<const ir::Instruction*, const ir::Instruction*> loads, stores;
  // The matrix instructions among `stores` whose result nothing but that store reads: when the
  // store is folded, the result need not be kept in its register slot at all.
  std::unordered_set<const ir::Instruction*> stored_only;
  // Filled while the function is bound: the candidate loads the loader folded (result id ->
  // access), and for each candidate store, once its matrix instruction is bound, where that
  // instruction keeps its store and its count of folded instructions.
  std::unordered_map<uint32_t, FoldedPrivateAccess> folded_loads;
  struct StoreTarget {
    FoldedPrivateAccess* access = nullptr;
    uint32_t* folded_count = nullptr;
  };
  std::unordered_map<const ir::Instruction*, StoreTarget> store_targets;
};

// The candidates of `function`.
MatrixOperandFolds FindMatrixOperandFolds(const ir::Function& function);

}  // namespace xmx::interp
