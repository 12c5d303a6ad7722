// The device-independent cooperative-matrix rules (coop.*): the shared value index, and the
// entry point that runs the four families in a fixed order.
#include "val/validate_coop.hpp"

#include "val/rules.hpp"

namespace xmx::val {
namespace coop {
namespace {

constexpr spv::Op kCoopOpcodes[] = {
    spv::Op::OpTypeCooperativeMatrixKHR,
    spv::Op::OpCooperativeMatrixLoadKHR,
    spv::Op::OpCooperativeMatrixStoreKHR,
    spv::Op::OpCooperativeMatrixMulAddKHR,
    spv::Op::OpCooperativeMatrixLengthKHR,
    spv::Op::OpCooperativeMatrixLoadCheckedINTEL,
    spv::Op::OpCooperativeMatrixStoreCheckedINTEL,
    spv::Op::OpCooperativeMatrixConstructCheckedINTEL,
    spv::Op::OpCooperativeMatrixGetElementCoordINTEL,
    spv::Op::OpCooperativeMatrixApplyFunctionINTEL,
    spv::Op::OpCooperativeMatrixPrefetchINTEL,
};

}  // namespace

CoopValues::CoopValues(ValidationContext& context) : context_(context) {
  for (spv::Op op : kCoopOpcodes) any_ = any_ || context.HasOpcode(op);
}

bool CoopValues::IsIntConstant(uint32_t id) const {
  const ir::Constant* constant = types().GetConstant(id);
  return constant != nullptr && IsIntScalar(types().GetType(constant->type_id));
}

std::optional<uint32_t> CoopValues::ConstantValue(uint32_t id) const {
  if (!IsIntConstant(id)) return std::nullopt;
  std::optional<uint64_t> value = types().GetConstantUInt(id, /*allow_spec=*/false);
  if (!value) return std::nullopt;
  return static_cast<uint32_t>(*value);
}

std::optional<MatrixType> CoopValues::Matrix(uint32_t type_id) const {
  const ir::Type* type = types().GetType(type_id);
  if (type == nullptr || type->kind != ir::TypeKind::kCooperativeMatrix) return std::nullopt;
  MatrixType m;
  m.type = type;
  // Operands coop.type.* rejects are left unknown, so that no other rule repeats the problem.
  const ir::Type* component = types().GetType(type->element);
  if (IsIntScalar(component) || IsFloatScalar(component)) m.component = component;
  m.scope = ConstantValue(type->scope_id);
  if (m.scope && *m.scope != kScopeWorkgroup && *m.scope != kScopeSubgroup) m.scope.reset();
  m.rows = ConstantValue(type->rows_id);
  m.columns = ConstantValue(type->columns_id);
  m.use = ConstantValue(type->use_id);
  if (m.use && *m.use > kUseAccumulator) m.use.reset();
  return m;
}

std::string CoopValues::Operand(uint32_t id) const {
  return context_.IdName(id) + " (" + Describe(TypeOf(id)) + ")";
}

std::string CoopValues::Describe(const ir::Type* type, int depth) const {
  if (type == nullptr) return "no type";
  if (depth > 4) return "type %" + std::to_string(type->id);
  switch (type->kind) {
    case ir::TypeKind::kInt:
      return "i" + std::to_string(type->width);
    case ir::TypeKind::kFloat:
      return (IsBfloat16(type) ? "bf" : "f") + std::to_string(type->width);
    case ir::TypeKind::kBool:
      return "bool";
    case ir::TypeKind::kVector:
      return "v" + std::to_string(type->count) +
             Describe(types().GetType(type->element), depth + 1);
    case ir::TypeKind::kPointer:
      return "pointer to " + Describe(types().GetType(type->element), depth + 1);
    case ir::TypeKind::kCooperativeMatrix: {
      const MatrixType m = *Matrix(type->id);
      auto value = [](const std::optional<uint32_t>& v) {
        return v ? std::to_string(*v) : std::string("?");
      };
      return "matrix of " + Describe(m.component, depth + 1) + " " + value(m.rows) + "x" +
             value(m.columns) + " Use " + (m.use ? UseName(*m.use) : std::string("?"));
    }
    default:
      return "type " + context_.IdName(type->id);
  }
}

bool IsIntScalar(const ir::Type* type) { return type && type->kind == ir::TypeKind::kInt; }

bool IsFloatScalar(const ir::Type* type) { return type && type->kind == ir::TypeKind::kFloat; }

bool IsBfloat16(const ir::Type* type) {
  // FPEncoding BFloat16KHR is 0 (SPV_KHR_bfloat16).
  return IsFloatScalar(type) && type->width == 16 && type->float_encoding == 0u;
}

bool IsNumericScalarOrVector(const ir::Type* type, const ir::TypeTable& types) {
  if (type && type->kind == ir::TypeKind::kVector) type = types.GetType(type->element);
  return IsIntScalar(type) || IsFloatScalar(type);
}

bool SameShape(const MatrixType& a, const MatrixType& b) {
  auto differ = [](const std::optional<uint32_t>& x, const std::optional<uint32_t>& y) {
    return x && y && *x != *y;
  };
  return !differ(a.scope, b.scope) && !differ(a.rows, b.rows) && !differ(a.columns, b.columns) &&
         !differ(a.use, b.use);
}

std::string UseName(uint32_t use) {
  switch (use) {
    case kUseA:
      return "MatrixAKHR";
    case kUseB:
      return "MatrixBKHR";
    case kUseAccumulator:
      return "MatrixAccumulatorKHR";
    default:
      return std::to_string(use);
  }
}

}  // namespace coop

void ValidateCooperativeMatrix(ValidationContext& context) {
  const coop::CoopValues values(context);
  if (!values.any()) return;
  coop::CheckCoopTypes(values);
  coop::CheckCoopMemory(values);
  coop::CheckCoopArithmetic(values);
  coop::CheckCoopComposites(values);
}

}  // namespace xmx::val
