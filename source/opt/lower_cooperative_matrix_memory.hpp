// Loads and stores of cooperative matrices: what one access is, and the two ways to make it.
#pragma once

#include <cstdint>
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

}  // namespace xmx::opt::lower_coop
