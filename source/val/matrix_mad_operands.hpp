// Decoding the operands of OpSubgroupMatrixMultiplyAccumulateINTEL for the mma.* rules: the
// component shapes the device tables are keyed by, and the static consistency of the Matrix
// Multiply Accumulate Operands bits with the operand types (SPEC-NOTES B.2, B.3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/type_table.hpp"
#include "xmx/device.hpp"

namespace xmx::val {

// A scalar or vector of int or float, as the extension requires of Result Type, A, B and C.
struct MadOperandType {
  const ir::Type* component = nullptr;  // the scalar type
  uint32_t count = 1;                   // 1 for a scalar
  // The device layer's name for the component type; empty for widths no table can hold
  // (e.g. a 128-bit integer), which then fail every table lookup.
  std::optional<device::ElementType> element;
  std::string name;  // "i16 x 8", "f32", for messages

  bool is_int() const { return component->kind == ir::TypeKind::kInt; }
  bool is_float() const { return component->kind == ir::TypeKind::kFloat; }
};

// nullopt when `type_id` is not a scalar or vector of int or float (or is undefined).
std::optional<MadOperandType> DecodeMadOperandType(const ir::TypeTable& types, uint32_t type_id);

// What the SPIR-V rules make of the operand bits, given the four operand types: one message per
// inconsistency (SPEC-NOTES B.2): signed bits only with a packed integer interpretation of that
// matrix, at most one interpretation per matrix, bf16 C/Result only with 16-bit integer types,
// tf32 only with float A/B, packed interpretations only with integer A/B, no scale bits (they
// belong to the scaled instruction) and no unknown bits.
std::vector<std::string> CheckOperandBits(uint32_t operands, const MadOperandType& result,
                                          const MadOperandType& a, const MadOperandType& b,
                                          const MadOperandType& c);

// "0x3000C (MatrixCBFloat16INTEL|MatrixResultBFloat16INTEL|...)" for messages.
std::string DescribeOperandBits(uint32_t operands);

}  // namespace xmx::val
