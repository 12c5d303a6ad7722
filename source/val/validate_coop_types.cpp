// OpTypeCooperativeMatrixKHR and OpCooperativeMatrixLengthKHR (rules coop.type.*,
// coop.length.*). Upstream SPIRV-Tools checks the same in validate_type.cpp
// (ValidateTypeCooperativeMatrix) and validate_memory.cpp (Length): COOPERATIVE-MATRIX.md A5.
#include <string>
#include <unordered_map>

#include "common/rule_ids.hpp"
#include "val/validate_coop.hpp"

namespace xmx::val::coop {
namespace {

constexpr const char* kType = "OpTypeCooperativeMatrixKHR";

std::string ScopeName(uint32_t scope) {
  switch (scope) {
    case 0:
      return "CrossDevice";
    case 1:
      return "Device";
    case 2:
      return "Workgroup";
    case 3:
      return "Subgroup";
    case 4:
      return "Invocation";
    case 5:
      return "QueueFamily";
    case 6:
      return "ShaderCallKHR";
    default:
      return "";
  }
}

class TypeChecker {
 public:
  explicit TypeChecker(const CoopValues& values)
      : values_(values), context_(values.context()), info_(context_.info()) {
    // Module order of the global instructions, for "defined before the type".
    size_t position = 0;
    for (const ir::Instruction& inst : context_.module().globals()) {
      if (inst.has_result_id()) global_position_[inst.result_id()] = position;
      ++position;
    }
  }

  void CheckType(const ir::Instruction& inst) {
    if (inst.num_operands() < 5) return;  // a structural error, reported by the parser
    const std::string what = kType + std::string(" ") + context_.IdName(inst.result_id());
    const ir::Type* component = context_.types().GetType(inst.word(0));
    if (!IsIntScalar(component) && !IsFloatScalar(component)) {
      context_.Error(inst, rules::kCoopTypeComponent,
                     "Component Type " + context_.IdName(inst.word(0)) + " of " + what +
                         " must be an OpTypeInt or OpTypeFloat scalar type; found " +
                         values_.Describe(component));
    } else {
      CheckComponentCapability(inst, what, component);
    }

    static const char* const kOperandNames[] = {"Scope", "Rows", "Columns", "Use"};
    bool operands_ok = true;
    for (size_t i = 1; i <= 4; ++i) {
      const uint32_t id = inst.word(i);
      if (!values_.IsIntConstant(id)) {
        operands_ok = false;
        context_.Error(inst, rules::kCoopTypeOperand,
                       std::string(kOperandNames[i - 1]) + " " + context_.IdName(id) + " of " +
                           what +
                           " must be a constant instruction of integer scalar type (OpConstant, "
                           "OpConstantNull or a specialization constant)");
      }
    }
    if (!operands_ok) return;

    if (std::optional<uint32_t> scope = values_.ConstantValue(inst.word(1))) {
      if (*scope != kScopeWorkgroup && *scope != kScopeSubgroup) {
        context_.Error(inst, rules::kCoopTypeScope,
                       "Scope " + context_.IdName(inst.word(1)) + " of " + what + " is " +
                           std::to_string(*scope) +
                           (ScopeName(*scope).empty() ? "" : " (" + ScopeName(*scope) + ")") +
                           "; a cooperative matrix's scope must be Subgroup (3) or Workgroup "
                           "(2)");
      } else if (*scope == kScopeWorkgroup) {
        CheckWorkgroupScope(inst, what);
      }
    }
    if (std::optional<uint32_t> use = values_.ConstantValue(inst.word(4))) {
      if (*use > kUseAccumulator) {
        context_.Error(inst, rules::kCoopTypeUse,
                       "Use " + context_.IdName(inst.word(4)) + " of " + what + " is " +
                           std::to_string(*use) +
                           "; it must be MatrixAKHR (0), MatrixBKHR (1) or "
                           "MatrixAccumulatorKHR (2)");
      }
    }
  }

  // Rule coop.length.*: the operand is the matrix *type*, the result a 32-bit integer
  // (unsigned: OpenCL modules have only signedness 0).
  void CheckLength(const ir::Instruction& inst) {
    if (inst.num_operands() < 1) return;
    const char* name = "OpCooperativeMatrixLengthKHR";
    const ir::Type* result = context_.types().GetType(inst.result_type_id());
    if (!IsIntScalar(result) || result->width != 32 || result->is_signed) {
      context_.Error(inst, rules::kCoopLengthResult,
                     std::string("Result Type ") + context_.IdName(inst.result_type_id()) + " of " +
                         name + " must be a 32-bit unsigned integer; found " +
                         values_.Describe(result));
    }
    const uint32_t type_id = inst.word(0);
    if (!values_.Matrix(type_id)) {
      const ir::Type* value_type = values_.TypeOf(type_id);
      std::string found =
          values_.Matrix(value_type)
              ? " (it is a value of that type; give the type itself)"
              : "; found " + (value_type ? "a value of type " + values_.Describe(value_type)
                                         : values_.Describe(context_.types().GetType(type_id)));
      context_.Error(inst, rules::kCoopLengthType,
                     "Type " + context_.IdName(type_id) + " of " + name +
                         " must be an OpTypeCooperativeMatrixKHR type id" + found);
    }
  }

 private:
  // A component type that needs its own cooperative-matrix capability beside the type's:
  // bfloat16 (SPV_KHR_bfloat16, checked upstream too) and 4-bit integers (SPV_INTEL_int4).
  void CheckComponentCapability(const ir::Instruction& inst, const std::string& what,
                                const ir::Type* component) {
    const char* needed = nullptr;
    if (IsBfloat16(component) &&
        !info_.HasCapability(spv::Capability::BFloat16CooperativeMatrixKHR)) {
      needed = "BFloat16CooperativeMatrixKHR";
    } else if (IsIntScalar(component) && component->width == 4 &&
               !info_.HasCapability(spv::Capability::Int4CooperativeMatrixINTEL)) {
      needed = "Int4CooperativeMatrixINTEL";
    }
    if (needed) {
      context_.Error(inst, rules::kCoopTypeCapability,
                     what + " has Component Type " + values_.Describe(component) +
                         ", which requires the capability " + needed);
    }
  }

  // Upstream: Workgroup scope needs LocalSize or LocalSizeId on every entry point, the
  // LocalSizeId constants defined before the type.
  void CheckWorkgroupScope(const ir::Instruction& inst, const std::string& what) {
    for (const ir::EntryPoint& ep : info_.entry_points()) {
      auto size = info_.FindExecutionMode(ep.function_id, spv::ExecutionMode::LocalSize);
      if (!size) size = info_.FindExecutionMode(ep.function_id, spv::ExecutionMode::LocalSizeId);
      if (!size) {
        context_.Error(inst, rules::kCoopTypeWorkgroup,
                       what + " has Scope Workgroup, but entry point '" + ep.name +
                           "' has no LocalSize or LocalSizeId execution mode");
        continue;
      }
      if (!size->operands_are_ids) continue;
      const size_t type_position = Position(inst.result_id());
      for (uint32_t id : size->operands) {
        if (Position(id) > type_position) {
          context_.Error(inst, rules::kCoopTypeWorkgroup,
                         what + " has Scope Workgroup and comes before " + context_.IdName(id) +
                             ", a LocalSizeId operand of entry point '" + ep.name + "'");
        }
      }
    }
  }

  size_t Position(uint32_t id) const {
    auto it = global_position_.find(id);
    return it == global_position_.end() ? static_cast<size_t>(-1) : it->second;
  }

  const CoopValues& values_;
  ValidationContext& context_;
  const ir::ModuleInfo& info_;
  std::unordered_map<uint32_t, size_t> global_position_;
};

}  // namespace

void CheckCoopTypes(const CoopValues& values) {
  TypeChecker checker(values);
  for (const ir::Instruction& inst : values.context().module().globals()) {
    if (inst.opcode() == spv::Op::OpTypeCooperativeMatrixKHR) checker.CheckType(inst);
  }
  values.context().ForEachBodyInstruction(
      spv::Op::OpCooperativeMatrixLengthKHR,
      [&](const ir::Function&, const ir::Instruction& inst) { checker.CheckLength(inst); });
}

}  // namespace xmx::val::coop
