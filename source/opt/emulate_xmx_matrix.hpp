// The function --emulate-xmx writes for one OpSubgroupMatrixMultiplyAccumulateINTEL form: what
// it must know of the operands, and the writer of its body (emulate_xmx_matrix_body.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "opt/emulate_xmx_code.hpp"

namespace xmx::opt::emulate_detail {

enum class MatrixElement : uint8_t { kU8, kS8, kU4, kS4, kF16, kBF16 };
enum class MatrixAccumulator : uint8_t { kInt32, kFloat32, kFloat16, kBFloat16 };

inline uint32_t MatrixElementBits(MatrixElement e) {
  switch (e) {
    case MatrixElement::kU8:
    case MatrixElement::kS8:
      return 8;
    case MatrixElement::kU4:
    case MatrixElement::kS4:
      return 4;
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
  uint32_t b_components = 0;      // 32-bit components of B
};

// Writes the body of the function whose parameters `params` are pointers to: the A operands of
// all invocations (N vectors of M 32-bit components, invocation i at index i, each component
// A's original component zero-extended), this invocation's B, its C, and the Result to write.
void WriteMatrixMadBody(CodeBuilder& code, const MatrixMadPlan& plan,
                        const std::vector<uint32_t>& params);

}  // namespace xmx::opt::emulate_detail
