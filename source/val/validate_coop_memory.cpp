// Cooperative-matrix memory instructions: OpCooperativeMatrixLoadKHR / StoreKHR (the rules
// upstream SPIRV-Tools has in validate_memory.cpp, ValidateCooperativeMatrixLoadStoreKHR:
// COOPERATIVE-MATRIX.md A5) and the SPV_INTEL_joint_matrix ones upstream does not check at all:
// LoadChecked, StoreChecked, ConstructChecked and Prefetch (operands as DECISIONS 14 reads them).
// Rules coop.load.*, coop.store.*, coop.pointer.*, coop.layout.*, coop.stride.*, coop.checked.*,
// coop.prefetch.*.
#include <string>
#include <vector>

#include "common/rule_ids.hpp"
#include "val/validate_coop.hpp"

namespace xmx::val::coop {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);
// SPV_KHR_untyped_pointers; the installed headers predate it.
constexpr uint32_t kOpTypeUntypedPointerKHR = 4417;

// Operand positions (after Result Type and Result) of one memory instruction.
struct MemoryOperands {
  const char* name = "";
  size_t pointer = 0, object = kNone, layout = 0, stride = 0;
  // Integer scalar operands of the INTEL instructions, with their names, and their rule.
  std::vector<std::pair<size_t, const char*>> integers;
  const char* integer_rule = "";
  bool stride_required = true;  // RowMajor/ColumnMajor need a Stride
  bool result_is_matrix = false;
};

std::optional<MemoryOperands> OperandsOf(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpCooperativeMatrixLoadKHR:
      return MemoryOperands{
          .name = "OpCooperativeMatrixLoadKHR", .layout = 1, .stride = 2, .result_is_matrix = true};
    case spv::Op::OpCooperativeMatrixStoreKHR:
      return MemoryOperands{
          .name = "OpCooperativeMatrixStoreKHR", .object = 1, .layout = 2, .stride = 3};
    case spv::Op::OpCooperativeMatrixLoadCheckedINTEL:
      return MemoryOperands{
          .name = "OpCooperativeMatrixLoadCheckedINTEL",
          .layout = 3,
          .stride = 6,
          .integers = {{1, "X offset"}, {2, "Y offset"}, {4, "Height"}, {5, "Width"}},
          .integer_rule = rules::kCoopCheckedOperandType,
          .result_is_matrix = true};
    case spv::Op::OpCooperativeMatrixStoreCheckedINTEL:
      return MemoryOperands{
          .name = "OpCooperativeMatrixStoreCheckedINTEL",
          .object = 3,
          .layout = 4,
          .stride = 7,
          .integers = {{1, "X offset"}, {2, "Y offset"}, {5, "Height"}, {6, "Width"}},
          .integer_rule = rules::kCoopCheckedOperandType};
    case spv::Op::OpCooperativeMatrixPrefetchINTEL:
      // No Stride is required: llc-22 writes none for a row-major prefetch, and IGC's
      // ResolvePrefetch takes a missing one as the default (COOPERATIVE-MATRIX.md A1, A4).
      return MemoryOperands{.name = "OpCooperativeMatrixPrefetchINTEL",
                            .layout = 4,
                            .stride = 5,
                            .integers = {{1, "Rows"}, {2, "Columns"}},
                            .integer_rule = rules::kCoopPrefetchOperandType,
                            .stride_required = false};
    default:
      return std::nullopt;
  }
}

class MemoryChecker {
 public:
  explicit MemoryChecker(const CoopValues& values) : values_(values), context_(values.context()) {}

  void Check(const ir::Instruction& inst, const MemoryOperands& ops) {
    const size_t needed =
        std::max({ops.pointer, ops.layout, ops.object == kNone ? size_t{0} : ops.object}) + 1;
    if (inst.num_operands() < needed) return;  // a structural error, reported by the parser
    inst_ = &inst;
    ops_ = &ops;

    if (ops.result_is_matrix && !values_.Matrix(inst.result_type_id())) {
      context_.Error(inst, rules::kCoopLoadType,
                     std::string("Result Type ") + context_.IdName(inst.result_type_id()) + " of " +
                         ops.name + " must be an OpTypeCooperativeMatrixKHR; found " +
                         values_.Describe(context_.types().GetType(inst.result_type_id())));
    }
    if (ops.object != kNone) {
      const uint32_t object = inst.word(ops.object);
      if (!values_.Matrix(values_.TypeOf(object))) {
        context_.Error(inst, rules::kCoopStoreObject,
                       "Object " + values_.Operand(object) + " of " + ops.name +
                           " must be a cooperative matrix");
      }
    }
    CheckPointer(inst.word(ops.pointer));
    for (const auto& [index, operand_name] : ops.integers) {
      if (index < inst.num_operands()) CheckInteger(index, operand_name, ops.integer_rule);
    }
    CheckLayoutAndStride();
  }

  // OpCooperativeMatrixConstructCheckedINTEL: X offset, Y offset, Height, Width, Value.
  void CheckConstructChecked(const ir::Instruction& inst) {
    if (inst.num_operands() < 5) return;
    inst_ = &inst;
    const char* name = "OpCooperativeMatrixConstructCheckedINTEL";
    std::optional<MatrixType> result = values_.Matrix(inst.result_type_id());
    if (!result) {
      context_.Error(inst, rules::kCoopCheckedResultType,
                     std::string("Result Type ") + context_.IdName(inst.result_type_id()) + " of " +
                         name + " must be an OpTypeCooperativeMatrixKHR; found " +
                         values_.Describe(context_.types().GetType(inst.result_type_id())));
    }
    static const char* const kNames[] = {"X offset", "Y offset", "Height", "Width"};
    for (size_t i = 0; i < 4; ++i) CheckInteger(i, kNames[i], rules::kCoopCheckedOperandType, name);
    const uint32_t value = inst.word(4);
    const ir::Type* value_type = values_.TypeOf(value);
    if (result && result->component && value_type != result->component) {
      context_.Error(inst, rules::kCoopConstructConstituent,
                     "Value " + values_.Operand(value) + " of " + name +
                         " must have the matrix's component type " +
                         values_.Describe(result->component));
    }
  }

 private:
  void CheckPointer(uint32_t pointer) {
    const ir::Type* type = values_.TypeOf(pointer);
    if (type == nullptr || type->kind != ir::TypeKind::kPointer) {
      // An untyped pointer (SPV_KHR_untyped_pointers) is a pointer too; nothing to check.
      if (type && type->inst &&
          static_cast<uint32_t>(type->inst->opcode()) == kOpTypeUntypedPointerKHR) {
        return;
      }
      context_.Error(
          *inst_, rules::kCoopPointerType,
          "Pointer " + values_.Operand(pointer) + " of " + ops_->name + " must be a pointer");
      return;
    }
    const ir::Type* pointee = context_.types().GetType(type->element);
    if (!IsNumericScalarOrVector(pointee, context_.types())) {
      context_.Error(*inst_, rules::kCoopPointerPointee,
                     "Pointer " + values_.Operand(pointer) + " of " + ops_->name +
                         " must point to an integer or float scalar or vector");
    }
  }

  void CheckInteger(size_t index, const char* operand_name, const char* rule,
                    const char* instruction = nullptr) {
    const uint32_t id = inst_->word(index);
    if (!IsIntScalar(values_.TypeOf(id))) {
      context_.Error(*inst_, rule,
                     std::string(operand_name) + " " + values_.Operand(id) + " of " +
                         (instruction ? instruction : ops_->name) + " must be an integer scalar");
    }
  }

  // Upstream: MemoryLayout a constant instruction of integer type; a Stride, of integer scalar
  // type, for RowMajor and ColumnMajor. Ours beside it: only the layouts the OpenCL consumers
  // know (upstream further checks only the Arm ones, and takes PackedINTEL without its
  // capability).
  void CheckLayoutAndStride() {
    const uint32_t layout_id = inst_->word(ops_->layout);
    const bool has_stride = ops_->stride < inst_->num_operands() &&
                            inst_->operand(ops_->stride).kind == grammar::OperandKindId::kIdRef;
    if (has_stride && !IsIntScalar(values_.TypeOf(inst_->word(ops_->stride)))) {
      context_.Error(*inst_, rules::kCoopStrideType,
                     "Stride " + values_.Operand(inst_->word(ops_->stride)) + " of " + ops_->name +
                         " must be an integer scalar");
    }
    if (!values_.IsIntConstant(layout_id)) {
      context_.Error(*inst_, rules::kCoopLayoutConstant,
                     "MemoryLayout " + values_.Operand(layout_id) + " of " + ops_->name +
                         " must be a constant instruction of integer scalar type");
      return;
    }
    const std::optional<uint32_t> layout = values_.ConstantValue(layout_id);
    if (!layout) return;  // a specialization constant: its value is not known here
    if (*layout > kPackedIntel) {
      context_.Error(*inst_, rules::kCoopLayoutValue,
                     "MemoryLayout " + context_.IdName(layout_id) + " of " + ops_->name + " is " +
                         std::to_string(*layout) +
                         "; it must be RowMajorKHR (0), ColumnMajorKHR (1) or PackedINTEL (2)");
      return;
    }
    if (*layout == kPackedIntel &&
        !context_.info().HasCapability(spv::Capability::PackedCooperativeMatrixINTEL)) {
      context_.Error(*inst_, rules::kCoopLayoutCapability,
                     "MemoryLayout " + context_.IdName(layout_id) + " of " + ops_->name +
                         " is PackedINTEL (2), which requires the capability "
                         "PackedCooperativeMatrixINTEL");
    }
    if (ops_->stride_required && *layout != kPackedIntel && !has_stride) {
      context_.Error(*inst_, rules::kCoopStrideRequired,
                     std::string(ops_->name) + " has MemoryLayout " +
                         (*layout == kRowMajor ? "RowMajorKHR" : "ColumnMajorKHR") +
                         ", which requires a Stride operand");
    }
  }

  const CoopValues& values_;
  ValidationContext& context_;
  const ir::Instruction* inst_ = nullptr;
  const MemoryOperands* ops_ = nullptr;
};

}  // namespace

void CheckCoopMemory(const CoopValues& values) {
  MemoryChecker checker(values);
  values.context().ForEachBodyInstruction([&](const ir::Function&, const ir::Instruction& inst) {
    if (inst.opcode() == spv::Op::OpCooperativeMatrixConstructCheckedINTEL) {
      checker.CheckConstructChecked(inst);
    } else if (std::optional<MemoryOperands> ops = OperandsOf(inst.opcode())) {
      checker.Check(inst, *ops);
    }
  });
}

}  // namespace xmx::val::coop
