// --lower-cooperative-matrix[=DEVICE]: SPV_KHR_cooperative_matrix / SPV_INTEL_joint_matrix code
// becomes what Intel's compiler makes of it (COOPERATIVE-MATRIX.md A4): every matrix value is the
// per-invocation slice of Intel's element mapping (DECISIONS.md 15), OpCooperativeMatrixMulAddKHR
// becomes OpSubgroupMatrixMultiplyAccumulateINTEL (several for the large shapes), loads and stores
// become 2D block IO where the device's block2d table and the run-time surface allow it, and
// per-invocation loads and stores with the same element mapping otherwise.
//
// The pieces, one file each:
//   lower_cooperative_matrix.cpp          the pass: checks, type rewrite, dispatch, clean-up
//   lower_cooperative_matrix_layout.cpp   native blocks inside slices, the lane representation
//   lower_cooperative_matrix_builder.cpp  emitting instructions, types, constants, blocks
//   lower_cooperative_matrix_memory.cpp   loads, stores, checked forms (2D block IO or per lane)
//   lower_cooperative_matrix_mad.cpp      multiply-add on the native instruction
//   lower_cooperative_matrix_elementwise.cpp  fills, element access, arithmetic, conversions
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "device/coop_layout.hpp"
#include "opt/pass.hpp"

namespace xmx::opt {

PassStatus LowerCooperativeMatrix(ir::Module& module, PassContext& context);

namespace lower_coop {

// Intel's element mapping is the device layer's (device/coop_layout.hpp), the one xmx-run
// executes cooperative matrices with.
using MatrixUse = device::CoopUse;
using Coord = device::CoopCoord;
using ElementMapping = device::CoopLayout;

// For each element of `part` (a matrix placed at (row_offset, column_offset) inside `whole`), the
// element of `whole` that every invocation holds at that place, or -1 when the place is outside
// `whole` (padding). nullopt when some element of `part` is not held by one and the same element
// index of `whole` in every invocation.
std::optional<std::vector<int>> MapElements(const ElementMapping& whole, const ElementMapping& part,
                                            uint32_t row_offset, uint32_t column_offset);

// How a slice of `length` components is held in SPIR-V: a scalar (length 1), a vector (2, 3, 4,
// 8, 16), an array of 16-component vectors (a multiple of 16) or an array of scalars.
enum class LaneKind : uint8_t { kScalar, kVector, kChunks, kArray };

struct LaneRep {
  LaneKind kind = LaneKind::kScalar;
  uint32_t length = 0;
  uint32_t component_type = 0;  // the scalar type id
  uint32_t type_id = 0;         // the slice type
  uint32_t piece_type = 0;      // kChunks: the 16-component vector; kArray: the component
  uint32_t pieces() const {
    return kind == LaneKind::kChunks ? length / 16 : kind == LaneKind::kArray ? length : 1;
  }
  uint32_t piece_length() const {
    return kind == LaneKind::kChunks ? 16 : kind == LaneKind::kVector ? length : 1;
  }
};
LaneKind LaneKindFor(uint32_t length);

// The numeric kind of a component as the matrix instruction reads it.
enum class Numeric : uint8_t { kInt8, kInt32, kF16, kBF16, kF32, kTF32, kOther };

// A cooperative matrix type of the module and how it is lowered.
struct MatrixType {
  uint32_t id = 0;
  MatrixUse use = MatrixUse::kA;
  uint32_t rows = 0, columns = 0;
  uint32_t component_type = 0;
  uint32_t bits = 0;
  bool is_float = false;
  bool is_bfloat16_type = false;  // OpTypeFloat 16 BFloat16KHR
  ElementMapping mapping;
  LaneRep rep;
};

}  // namespace lower_coop
}  // namespace xmx::opt
