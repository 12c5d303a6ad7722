// Loads and stores of cooperative matrices: what one access is, and the two ways to make it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "opt/lower_cooperative_matrix_lowering.hpp"

namespace xmx::opt::lower_coop {

// One OpCooperativeMatrixLoadKHR or StoreKHR.
struct MemoryAccess {
  const MatrixType* matrix = nullptr;
  bool store = false;
  uint32_t pointer = 0;
  uint32_t object = 0;  // store: the matrix value
  uint32_t layout = 0;  // 0 RowMajorKHR, 1 ColumnMajorKHR, 2 PackedINTEL
  uint32_t stride = 0;  // components; an id of `index_type`
  uint32_t index_type = 0;
  spv::StorageClass storage = spv::StorageClass::CrossWorkgroup;
};

std::optional<MemoryAccess> DescribeAccess(Lowering& l, const ir::Instruction& inst,
                                           const MatrixType& m);
// One scalar load or store per element of the slice.
uint32_t PerLaneLoad(Lowering& l, const MemoryAccess& a);
void PerLaneStore(Lowering& l, const MemoryAccess& a);
// 2D block IO when the device and the access allow it (with a run-time check of the surface and
// the per-lane form as the other branch), else the per-lane form.
uint32_t Block2dOrPerLaneLoad(Lowering& l, const MemoryAccess& a);
bool Block2dOrPerLaneStore(Lowering& l, const MemoryAccess& a);
// The checked forms' tile placement: all 32-bit integer ids.
struct CheckedBounds {
  uint32_t x = 0, y = 0, height = 0, width = 0;  // X offset (row), Y offset (column)
};
// A checked load (result) or store (0) through 2D block IO over the Height x Width surface when
// the device and, at run time, the surface allow it, else `per_element`.
uint32_t Block2dOrPerElementChecked(Lowering& l, const MemoryAccess& a, const CheckedBounds& bounds,
                                    const std::function<uint32_t()>& per_element);
// OpCooperativeMatrixLoadCheckedINTEL, ConstructCheckedINTEL and StoreCheckedINTEL.
bool LowerCheckedLoad(Lowering& l, const ir::Instruction& inst, uint32_t* result);
bool LowerCheckedStore(Lowering& l, const ir::Instruction& inst);

// Emits `fast` and `slow` (each returning a value, or 0) on the two sides of a branch on
// `condition`; returns the merge block's phi of their results (0 when they have none).
template <typename Fast, typename Slow>
uint32_t Choose(Lowering& l, uint32_t condition, uint32_t type, Fast fast, Slow slow) {
  Builder& b = l.b;
  // Emitting at the end of a block (inside another choice's branch) keeps doing so in `rest`.
  const bool at_end = b.position() == b.block()->instructions.end();
  const auto position = b.position();
  auto rest = b.SplitBlock();
  auto fast_block = b.NewBlockAfter(b.block());
  auto slow_block = b.NewBlockAfter(fast_block);
  b.Op(spv::Op::OpBranchConditional, 0, {condition, fast_block->id(), slow_block->id()});
  b.MoveToEnd(fast_block);
  const uint32_t fast_value = fast();
  const uint32_t fast_end = b.block()->id();
  b.Op(spv::Op::OpBranch, 0, {rest->id()});
  b.MoveToEnd(slow_block);
  const uint32_t slow_value = slow();
  const uint32_t slow_end = b.block()->id();
  b.Op(spv::Op::OpBranch, 0, {rest->id()});
  if (at_end) {
    b.MoveToEnd(rest);
  } else {
    b.SetInsertPoint(b.function(), rest, position);
  }
  if (type == 0) return 0;
  ir::Instruction phi(spv::Op::OpPhi, type, 0);
  for (uint32_t id : {fast_value, fast_end, slow_value, slow_end}) phi.AddIdOperand(id);
  return b.Insert(std::move(phi));
}

}  // namespace xmx::opt::lower_coop
