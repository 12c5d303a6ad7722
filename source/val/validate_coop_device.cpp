// Per-device rules for cooperative matrices (coop.device.*): each OpCooperativeMatrixMulAddKHR is
// looked up in the device's cooperative_matrix rows (the SYCL runtime's joint_matrix combinations,
// COOPERATIVE-MATRIX.md A3) through device::MatchCooperativeMatrix, the lookup xmx-query uses too,
// so a combination is valid in one exactly when it is in the other. The element types are read as
// Intel's compiler reads them (A4): int8 signedness from the operand bits, 0x40 or i16 components
// bf16, fp32 A/B components tf32, a KHR bfloat16 component bf16. The device-independent rules
// (Uses, scopes agreeing, M/N/K agreeing, operand bits against component types) are coop.*'s; this
// file skips what they report.
#include <set>
#include <string>
#include <tuple>
#include <unordered_set>

#include "common/rule_ids.hpp"
#include "val/rules.hpp"
#include "xmx/device.hpp"

namespace xmx::val {
namespace {

using device::ElementType;
using device::MatrixUse;

// Cooperative Matrix Operands bits (SPV_KHR_cooperative_matrix, SPV_INTEL_joint_matrix).
constexpr uint32_t kASigned = 0x1, kBSigned = 0x2, kCSigned = 0x4, kResultSigned = 0x8;
constexpr uint32_t kABBFloat16 = 0x40, kCBFloat16 = 0x80, kResultBFloat16 = 0x100;
constexpr uint32_t kScopeSubgroup = 3;
constexpr uint32_t kBFloat16Encoding = 0;  // FPEncoding BFloat16KHR

constexpr const char* kMulAdd = "OpCooperativeMatrixMulAddKHR";

enum class Role { kA, kB, kC, kD };

struct CoopType {
  uint32_t id = 0;
  const ir::Type* component = nullptr;
  std::optional<uint32_t> scope, rows, cols, use;
};

const char* RoleName(Role role) {
  switch (role) {
    case Role::kA:
      return "Matrix A";
    case Role::kB:
      return "Matrix B";
    case Role::kC:
      return "Matrix C";
    case Role::kD:
      return "Result";
  }
  return "";
}

// The element type a MulAdd operand's components stand for (A4). nullopt: none of the tables'.
std::optional<ElementType> ReadElement(const ir::Type& component, Role role, uint32_t operands) {
  const uint32_t signed_bit = role == Role::kA   ? kASigned
                              : role == Role::kB ? kBSigned
                              : role == Role::kC ? kCSigned
                                                 : kResultSigned;
  const uint32_t bf16_bit = role == Role::kA || role == Role::kB ? kABBFloat16
                            : role == Role::kC                   ? kCBFloat16
                                                                 : kResultBFloat16;
  const bool is_signed = (operands & signed_bit) != 0;
  if (component.kind == ir::TypeKind::kInt) {
    switch (component.width) {
      case 4:
        return is_signed ? ElementType::kI4 : ElementType::kU4;
      case 8:
        return is_signed ? ElementType::kI8 : ElementType::kU8;
      case 16:
        // IGC reads 16-bit integer components as bf16, with the bf16 bit or without any bit;
        // signed 16-bit integers are a matrix type no device has.
        if ((operands & bf16_bit) == 0 && is_signed) return ElementType::kI16;
        return ElementType::kBF16;
      case 32:
        return ElementType::kI32;  // the accumulator is s32 whatever its signedness bit says
      case 64:
        return ElementType::kI64;
      default:
        return std::nullopt;
    }
  }
  if (component.kind == ir::TypeKind::kFloat) {
    if (component.float_encoding) {
      if (component.width == 16 && *component.float_encoding == kBFloat16Encoding) {
        return ElementType::kBF16;
      }
      return std::nullopt;
    }
    switch (component.width) {
      case 16:
        return ElementType::kF16;
      case 32:  // A and B of fp32 are multiplied as tf32 (with the 0x20 bit or without)
        return role == Role::kA || role == Role::kB ? ElementType::kTF32 : ElementType::kF32;
      case 64:
        return ElementType::kF64;
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

// Every reading a component type allows when no operand bits are known (loads, stores, fills).
std::vector<ElementType> PossibleElements(const ir::Type& component, MatrixUse use) {
  const Role role = use == MatrixUse::kA ? Role::kA : use == MatrixUse::kB ? Role::kB : Role::kC;
  std::vector<ElementType> out;
  for (uint32_t operands : {0u, kASigned | kBSigned | kCSigned | kResultSigned}) {
    std::optional<ElementType> e = ReadElement(component, role, operands);
    // A signed 16-bit reading is in no table; listing it would only clutter the message.
    if (e && *e != ElementType::kI16 && std::find(out.begin(), out.end(), *e) == out.end()) {
      out.push_back(*e);
    }
  }
  return out;
}

std::string TypesText(const std::vector<ElementType>& types) {
  std::string out;
  for (ElementType t : types) {
    out += (out.empty() ? "" : " or ") + std::string(device::SyclTypeName(t));
  }
  return out;
}

class CoopDeviceChecker {
 public:
  explicit CoopDeviceChecker(ValidationContext& context) : context_(context) {}

  void Check(const ir::Function& function, const ir::Instruction& inst) {
    reported_.clear();
    switch (inst.opcode()) {
      case spv::Op::OpCooperativeMatrixMulAddKHR:
        CheckMulAdd(function, inst);
        return;
      case spv::Op::OpCooperativeMatrixLoadKHR:
      case spv::Op::OpCooperativeMatrixLoadCheckedINTEL:
      case spv::Op::OpCooperativeMatrixConstructCheckedINTEL:
      case spv::Op::OpCompositeConstruct:
        CheckMatrixType(inst, inst.result_type_id());
        return;
      case spv::Op::OpCooperativeMatrixStoreKHR:
        if (inst.num_operands() > 1) CheckMatrixType(inst, ValueType(inst.word(1)));
        return;
      case spv::Op::OpCooperativeMatrixStoreCheckedINTEL:
        if (inst.num_operands() > 3) CheckMatrixType(inst, ValueType(inst.word(3)));
        return;
      default:
        return;
    }
  }

 private:
  uint32_t ValueType(uint32_t id) const { return context_.ValueTypeId(id); }

  std::optional<CoopType> Decode(uint32_t type_id) const {
    const ir::TypeTable& types = context_.types();
    const ir::Type* type = types.GetType(type_id);
    if (type == nullptr || type->kind != ir::TypeKind::kCooperativeMatrix) return std::nullopt;
    CoopType out;
    out.id = type_id;
    out.component = types.GetType(type->element);
    if (out.component == nullptr) return std::nullopt;
    // A spec constant is checked at its default, as the native table's K Dim is.
    auto value = [&](uint32_t id) -> std::optional<uint32_t> {
      std::optional<uint64_t> v = types.GetConstantUInt(id, /*allow_spec=*/true);
      if (!v || *v > UINT32_MAX) return std::nullopt;
      return static_cast<uint32_t>(*v);
    };
    out.scope = value(type->scope_id);
    out.rows = value(type->rows_id);
    out.cols = value(type->columns_id);
    out.use = value(type->use_id);
    return out;
  }

  const device::DeviceProfile& profile() const { return context_.device(); }

  // False (and reported) when the device has no cooperative matrices at all.
  bool DeviceHasThem(const ir::Instruction& inst) {
    if (profile().cooperative_matrix.kind == device::TableKind::kTable &&
        !profile().cooperative_matrix.rows.empty()) {
      return true;
    }
    if (profile().cooperative_matrix.kind == device::TableKind::kNoTable) return false;
    Report(inst, Severity::kError, rules::kCoopDeviceUnsupported,
           "device " + profile().name + " has no cooperative matrix (joint_matrix) support (" +
               (profile().cooperative_matrix.kind == device::TableKind::kNone
                    ? "its cooperative_matrix table is \"none\")"
                    : "its cooperative_matrix table has no rows)"));
    return false;
  }

  // Workgroup-scope matrices are in no Intel table: SYCL's joint_matrix is a subgroup object.
  bool CheckScope(const ir::Instruction& inst, const CoopType& type, const char* what) {
    if (!type.scope || *type.scope == kScopeSubgroup) return true;
    Report(inst, Severity::kError, rules::kCoopDeviceScope,
           std::string(what) + " type " + context_.IdName(type.id) + " has Scope " +
               std::to_string(*type.scope) +
               "; the cooperative_matrix rows of "
               "device " +
               profile().name + " are for Subgroup scope (3) only");
    return false;
  }

  void CheckMatrixType(const ir::Instruction& inst, uint32_t type_id) {
    std::optional<CoopType> type = Decode(type_id);
    if (!type || !DeviceHasThem(inst)) return;
    if (!CheckScope(inst, *type, "the matrix")) return;
    if (!type->rows || !type->cols || !type->use || *type->use > 2) return;  // coop.* reports
    const MatrixUse use = static_cast<MatrixUse>(*type->use);
    const std::vector<ElementType> readings = PossibleElements(*type->component, use);
    std::vector<std::string> supported;
    if (device::CooperativeMatrixUseFits(profile(), use, readings, *type->rows, *type->cols,
                                         &supported)) {
      return;
    }
    static constexpr const char* kUseNames[] = {"Matrix A", "Matrix B", "Accumulator"};
    std::string message =
        std::string(kUseNames[*type->use]) + " type " + context_.IdName(type_id) + " (" +
        std::to_string(*type->rows) + "x" + std::to_string(*type->cols) + " of " +
        (readings.empty() ? "an unsupported component type" : TypesText(readings)) +
        ") fits no cooperative_matrix row of device " + profile().name;
    if (!supported.empty()) {
      message += "; rows x columns supported for this use and element type: ";
      for (size_t i = 0; i < supported.size(); ++i) message += (i ? ", " : "") + supported[i];
    } else {
      message += "; no row has this element type for this use";
    }
    Report(inst, Severity::kError, rules::kCoopDeviceTypeShape, message);
  }

  void CheckMulAdd(const ir::Function& function, const ir::Instruction& inst) {
    if (inst.num_operands() < 3) return;  // malformed: the core rules report it
    const uint32_t operands = inst.num_operands() > 3 ? inst.word(3) : 0;
    const std::optional<CoopType> a = Decode(ValueType(inst.word(0)));
    const std::optional<CoopType> b = Decode(ValueType(inst.word(1)));
    const std::optional<CoopType> c = Decode(ValueType(inst.word(2)));
    const std::optional<CoopType> d = Decode(inst.result_type_id());
    if (!a || !b || !c || !d) return;  // coop.* reports operands that are not matrices
    if (!DeviceHasThem(inst)) return;
    for (const auto& [type, role] :
         {std::pair{&*a, Role::kA}, {&*b, Role::kB}, {&*c, Role::kC}, {&*d, Role::kD}}) {
      if (!CheckScope(inst, *type, RoleName(role))) return;
    }
    // M, N, K from A and B; C and D must agree (coop.* reports them when they do not).
    if (!a->rows || !a->cols || !b->rows || !b->cols || !c->rows || !c->cols || !d->rows ||
        !d->cols) {
      return;
    }
    const device::MatrixShape shape{*a->rows, *b->cols, *a->cols};
    if (*b->rows != shape.k || *c->rows != shape.m || *d->rows != shape.m || *c->cols != shape.n ||
        *d->cols != shape.n) {
      return;
    }
    device::MatrixTypes types{};
    ElementType* slots[] = {&types.a, &types.b, &types.c, &types.d};
    const CoopType* matrices[] = {&*a, &*b, &*c, &*d};
    const Role roles[] = {Role::kA, Role::kB, Role::kC, Role::kD};
    for (size_t i = 0; i < 4; ++i) {
      std::optional<ElementType> e = ReadElement(*matrices[i]->component, roles[i], operands);
      if (!e) {
        Report(inst, Severity::kError, rules::kCoopDeviceTypes,
               std::string(RoleName(roles[i])) + " of " + kMulAdd + " has component type " +
                   context_.IdName(matrices[i]->component->id) +
                   ", which is in no cooperative_matrix row of device " + profile().name);
        return;
      }
      *slots[i] = *e;
    }
    const std::string read_as =
        " (the operands read as " + device::ToSyclString(types) + ", COOPERATIVE-MATRIX A4)";
    const device::CooperativeMatrixMatch any_size =
        device::MatchCooperativeMatrix(profile(), {types, shape, 0});
    if (any_size.status != device::MatchStatus::kMatched) {
      const bool shape_field = any_size.mismatch.kind == device::MismatchKind::kShape;
      Report(inst, Severity::kError,
             shape_field ? rules::kCoopDeviceShape : rules::kCoopDeviceTypes,
             any_size.Message(profile()) + (shape_field ? "" : read_as));
      return;
    }
    const std::vector<uint32_t>& sizes = context_.SubgroupSizes(function.id());
    if (sizes.empty()) {
      if (unknown_size_functions_.insert(function.id()).second) {
        context_.Remark(inst, rules::kCoopDeviceSubgroupSizeUnknown,
                        "no entry point reaches function " + context_.IdName(function.id()) +
                            " and no --subgroup-size was given: the subgroup size of " + kMulAdd +
                            " against the cooperative_matrix rows was not checked");
      }
      return;
    }
    for (uint32_t size : sizes) {
      const device::CooperativeMatrixMatch match =
          device::MatchCooperativeMatrix(profile(), {types, shape, size});
      if (match.status != device::MatchStatus::kMatched) {
        Report(inst, Severity::kError, rules::kCoopDeviceSubgroupSize,
               match.Message(profile()) +
                   " (the subgroup size is the kernel's SubgroupSize execution mode, else "
                   "--subgroup-size, else every size of the device)");
        continue;
      }
      if (match.row->provenance.confidence == device::Confidence::kConvention) {
        Report(inst, Severity::kWarning, rules::kCoopDeviceConvention,
               std::string(kMulAdd) + " with " + device::ToSyclString(types) + ", shape " +
                   std::to_string(shape.m) + "x" + std::to_string(shape.n) + "x" +
                   std::to_string(shape.k) + " matches a row of device " + profile().name +
                   " that rests on a convention: " + match.row->provenance.note);
      }
    }
  }

  // Reports a problem once per instruction, however many subgroup sizes hit it.
  void Report(const ir::Instruction& inst, Severity severity, const std::string& rule,
              const std::string& message) {
    if (!reported_.insert(std::make_tuple(severity, rule, message)).second) return;
    context_.Report(severity, &inst, rule, message);
  }

  ValidationContext& context_;
  std::unordered_set<uint32_t> unknown_size_functions_;
  std::set<std::tuple<Severity, std::string, std::string>> reported_;
};

bool IsCoopInstruction(spv::Op op) {
  switch (op) {
    case spv::Op::OpCooperativeMatrixMulAddKHR:
    case spv::Op::OpCooperativeMatrixLoadKHR:
    case spv::Op::OpCooperativeMatrixStoreKHR:
    case spv::Op::OpCooperativeMatrixLoadCheckedINTEL:
    case spv::Op::OpCooperativeMatrixStoreCheckedINTEL:
    case spv::Op::OpCooperativeMatrixConstructCheckedINTEL:
    case spv::Op::OpCompositeConstruct:
      return true;
    default:
      return false;
  }
}

}  // namespace

void ValidateCooperativeMatrixDevice(ValidationContext& context) {
  // No cooperative-matrix type and none of their instructions: nothing below applies (every
  // OpCompositeConstruct would be skipped), and the device need not be looked up.
  bool any = context.HasOpcode(spv::Op::OpTypeCooperativeMatrixKHR);
  for (spv::Op op :
       {spv::Op::OpCooperativeMatrixMulAddKHR, spv::Op::OpCooperativeMatrixLoadKHR,
        spv::Op::OpCooperativeMatrixStoreKHR, spv::Op::OpCooperativeMatrixLoadCheckedINTEL,
        spv::Op::OpCooperativeMatrixStoreCheckedINTEL,
        spv::Op::OpCooperativeMatrixConstructCheckedINTEL}) {
    any = any || context.HasOpcode(op);
  }
  if (!any) return;
  // "spec" and "opencl": only the SPIR-V rules apply to cooperative matrices.
  if (context.device().cooperative_matrix.kind == device::TableKind::kNoTable) return;
  CoopDeviceChecker checker(context);
  context.ForEachBodyInstruction([&](const ir::Function& function, const ir::Instruction& inst) {
    if (!IsCoopInstruction(inst.opcode())) return;
    if (inst.opcode() == spv::Op::OpCompositeConstruct) {
      const ir::Type* type = context.types().GetType(inst.result_type_id());
      if (type == nullptr || type->kind != ir::TypeKind::kCooperativeMatrix) return;
    }
    checker.Check(function, inst);
  });
}

}  // namespace xmx::val
