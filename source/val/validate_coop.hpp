// Shared pieces of the device-independent cooperative-matrix rules (coop.*): the decoded
// OpTypeCooperativeMatrixKHR, the operand values, and short spellings for messages (the type of
// every value comes from the ValidationContext). The rules themselves are in
// validate_coop_{types,memory,arith,composites}.cpp; each reports on the original instruction with
// the operand it is about, whether or not SPIRV-Tools' core validation ran on the module. Nothing
// here reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/type_table.hpp"
#include "val/validation_context.hpp"

namespace xmx::val::coop {

// CooperativeMatrixUse values (SPV_KHR_cooperative_matrix).
enum : uint32_t { kUseA = 0, kUseB = 1, kUseAccumulator = 2 };
// The two scopes a cooperative matrix may have.
enum : uint32_t { kScopeWorkgroup = 2, kScopeSubgroup = 3 };
// CooperativeMatrixLayout values: RowMajorKHR, ColumnMajorKHR, PackedINTEL.
enum : uint32_t { kRowMajor = 0, kColumnMajor = 1, kPackedIntel = 2 };

// An OpTypeCooperativeMatrixKHR; the operand values are known when the operand is a constant
// (not a specialization constant) of integer type and a valid scope or Use; OpConstantNull
// counts as 0 (llc-22 writes MemoryLayout and Use 0 that way).
struct MatrixType {
  const ir::Type* type = nullptr;
  const ir::Type* component = nullptr;  // nullptr unless an int or float scalar type
  std::optional<uint32_t> scope, rows, columns, use;
};

class CoopValues {
 public:
  explicit CoopValues(ValidationContext& context);

  ValidationContext& context() const { return context_; }
  const ir::TypeTable& types() const { return context_.types(); }

  // The type of the value `id` (nullptr when `id` is undefined, a type, or untyped).
  const ir::Type* TypeOf(uint32_t id) const { return context_.ValueType(id); }
  // The instruction defining `id`, if any.
  const ir::Instruction* Def(uint32_t id) const { return context_.Def(id); }
  // The matrix type `type_id` is, or nullopt.
  std::optional<MatrixType> Matrix(uint32_t type_id) const;
  std::optional<MatrixType> Matrix(const ir::Type* type) const {
    return type ? Matrix(type->id) : std::nullopt;
  }
  // The value of an integer constant operand that is not a specialization constant.
  std::optional<uint32_t> ConstantValue(uint32_t id) const;
  // Whether `id` is a constant instruction (OpConstant*, OpSpecConstant*) of integer scalar type.
  bool IsIntConstant(uint32_t id) const;
  // "%name (i32)" for operand `id` of an instruction.
  std::string Operand(uint32_t id) const;
  // "i8", "u4" is "i4", "f32", "bf16", "v2i32", "matrix of i8 8x32 Use A", "ptr ...".
  std::string Describe(const ir::Type* type, int depth = 0) const;

  // Whether the module declares any cooperative-matrix type or instruction (else every rule is
  // skipped quickly).
  bool any() const { return any_; }

 private:
  ValidationContext& context_;
  bool any_ = false;
};

bool IsIntScalar(const ir::Type* type);
bool IsFloatScalar(const ir::Type* type);
bool IsBfloat16(const ir::Type* type);  // OpTypeFloat 16 BFloat16KHR
bool IsNumericScalarOrVector(const ir::Type* type, const ir::TypeTable& types);
// Scope, rows, columns and Use all agree where both sides are known.
bool SameShape(const MatrixType& a, const MatrixType& b);
std::string UseName(uint32_t use);

// The rule families (validate_coop_*.cpp).
void CheckCoopTypes(const CoopValues& values);
void CheckCoopMemory(const CoopValues& values);
void CheckCoopArithmetic(const CoopValues& values);
void CheckCoopComposites(const CoopValues& values);

}  // namespace xmx::val::coop
