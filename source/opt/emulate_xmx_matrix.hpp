// The function --emulate-xmx writes for one OpSubgroupMatrixMultiplyAccumulateINTEL form: what
// it must know of the operands, and the writer of its body (emulate_xmx_matrix_body.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "opt/emulate_xmx_code.hpp"

namespace xmx::opt::emulate_detail {

enum class MatrixElement : uint8_t {
  kU8,
  kS8,
  kU4,
  kS4,
  kF16,
  kBF16,
  kTF32,
  kF8E4M3,
  kF8E5M2,
  kF4E2M1
};
enum class MatrixAccumulator : uint8_t { kInt32, kFloat32, kFloat16, kBFloat16 };

inline uint32_t MatrixElementBits(MatrixElement e) {
  switch (e) {
    case MatrixElement::kU8:
    case MatrixElement::kS8:
      return 8;
    case MatrixElement::kU4:
    case MatrixElement::kS4:
    case MatrixElement::kF4E2M1:
      return 4;
    case MatrixElement::kF8E4M3:
    case MatrixElement::kF8E5M2:
      return 8;
    case MatrixElement::kTF32:
      return 32;
    default:
      return 16;
  }
}

struct MatrixMadPlan {
  uint32_t subgroup_size = 0;  // N: invocation n computes column n
  uint32_t k = 0;
  uint32_t m = 0;  // rows: components of A, C and Result
  MatrixElement a{}, b{};
  MatrixAccumulator c{}, result{};
  uint32_t a_component_bits = 0;  // 16 or 32: A elements per component = this / element bits
  uint32_t a_components = 0;      // M, or M / phases rounded up
  uint32_t a_phases = 1;          // N x (elements per component) / K: see WriteMatrixMadBody
  // The paired subgroup-size-32 form (B.4, DECISIONS 10): invocations 0-15 compute the even rows
  // of columns 0-15 and 16-31 the odd rows; each half holds A like a subgroup of 16 with M / 2
  // rows, and column n's packed B rows alternate between invocations n (even) and n + 16 (odd).
  bool paired = false;
  uint32_t rows_per_invocation = 0;  // Result components: M, or M / 2 paired
  uint32_t lane_id_variable = 0;     // BuiltIn SubgroupLocalInvocationId (paired form only)
  uint32_t b_components = 0;         // 32-bit components of B
};

// Writes the body of the function whose parameters `params` are pointers to: the A operands of
// all invocations (N vectors of a_components 32-bit components, invocation i at index i, each
// component A's original component zero-extended), this invocation's B (paired: the B operands
// of all invocations, like A), its C, and the Result.
// A[r][k] is field k mod c of component r / g of invocation (r mod g) x (K / c) + k / c, with c
// elements per component and g phases (SPEC-NOTES B.4: g is 1 except for tf32 at subgroup
// size 16, whose invocations 8-15 hold the odd rows).
void WriteMatrixMadBody(CodeBuilder& code, const MatrixMadPlan& plan,
                        const std::vector<uint32_t>& params);

}  // namespace xmx::opt::emulate_detail
