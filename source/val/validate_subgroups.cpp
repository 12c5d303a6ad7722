// Intel subgroup instructions (SPV_INTEL_subgroups) and the 8/16-bit OpGroup* typings of the
// cl_intel_subgroups_char/short extensions: SPEC-NOTES C.2 (the SPIR-V rules, every device),
// C.3 and C.4 (the OpenCL environment, from the device's `subgroup_ops` table).
#include <optional>
#include <string>

#include "common/rule_ids.hpp"
#include "grammar/grammar.hpp"
#include "val/rules.hpp"
#include "xmx/device.hpp"

namespace xmx::val {
namespace {

using device::MatchStatus;
using device::SubgroupOp;

// The component shape of a scalar or vector of int/float, as the device tables ask for it.
struct Shape {
  device::ScalarKind kind;
  uint32_t bits;
  uint32_t components;
};

std::string OpName(const ir::Instruction& inst) {
  const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
  return desc ? desc->name : "opcode " + std::to_string(static_cast<uint32_t>(inst.opcode()));
}

class SubgroupChecker {
 public:
  explicit SubgroupChecker(ValidationContext& context) : context_(context) {}

  void Check(const ir::Instruction& inst) {
    switch (inst.opcode()) {
      case spv::Op::OpSubgroupShuffleINTEL:
      case spv::Op::OpSubgroupShuffleXorINTEL:
        CheckShuffle(inst, {0}, 1);
        break;
      case spv::Op::OpSubgroupShuffleDownINTEL:
      case spv::Op::OpSubgroupShuffleUpINTEL:
        CheckShuffle(inst, {0, 1}, 2);
        break;
      case spv::Op::OpSubgroupBlockReadINTEL:
        CheckBlockIo(inst, inst.result_type_id(), "Result Type");
        break;
      case spv::Op::OpSubgroupBlockWriteINTEL:
        CheckBlockIo(inst, inst.num_operands() > 1 ? ValueType(inst.word(1)) : 0, "Data");
        break;
      case spv::Op::OpSubgroupImageBlockReadINTEL:
        CheckImageBlockIo(inst, inst.result_type_id(), "Result Type");
        break;
      case spv::Op::OpSubgroupImageBlockWriteINTEL:
        CheckImageBlockIo(inst, inst.num_operands() > 2 ? ValueType(inst.word(2)) : 0, "Data");
        break;
      case spv::Op::OpGroupBroadcast:
        CheckGroup(inst, SubgroupOp::kGroupBroadcast);
        break;
      case spv::Op::OpGroupIAdd:
        CheckGroup(inst, SubgroupOp::kGroupIAdd);
        break;
      case spv::Op::OpGroupSMin:
      case spv::Op::OpGroupUMin:
      case spv::Op::OpGroupSMax:
      case spv::Op::OpGroupUMax:
        CheckGroup(inst, SubgroupOp::kGroupMinMax);
        break;
      default:
        break;
    }
  }

 private:
  uint32_t ValueType(uint32_t id) const { return context_.ValueTypeId(id); }
  const ir::Type* TypeOf(uint32_t type_id) const { return context_.types().GetType(type_id); }

  std::optional<Shape> ShapeOf(uint32_t type_id) const {
    const ir::Type* type = TypeOf(type_id);
    uint32_t components = 1;
    if (type && type->kind == ir::TypeKind::kVector) {
      components = type->count;
      type = TypeOf(type->element);
    }
    if (!type) return std::nullopt;
    if (type->kind == ir::TypeKind::kInt)
      return Shape{device::ScalarKind::kInt, type->width, components};
    // A float with an encoding (bfloat16) is not one of the types the environment lists.
    if (type->kind == ir::TypeKind::kFloat && !type->float_encoding) {
      return Shape{device::ScalarKind::kFloat, type->width, components};
    }
    return std::nullopt;
  }

  // The component type id of a scalar or vector type (the type itself for a scalar).
  uint32_t ComponentTypeId(uint32_t type_id) const {
    const ir::Type* type = TypeOf(type_id);
    return type && type->kind == ir::TypeKind::kVector ? type->element : type_id;
  }

  std::string TypeText(uint32_t type_id) const {
    std::optional<Shape> shape = ShapeOf(type_id);
    if (!shape) return context_.IdName(type_id);
    std::string text = std::to_string(shape->bits) + "-bit " +
                       (shape->kind == device::ScalarKind::kInt ? "integer" : "float");
    if (shape->components > 1) text = std::to_string(shape->components) + "-vector of " + text;
    return text;
  }

  bool HasCapability(const std::string& name) const {
    const grammar::Enumerant* e = grammar::FindEnumerant(grammar::OperandKindId::kCapability, name);
    return e && context_.info().HasCapability(static_cast<spv::Capability>(e->value));
  }

  // The device table (C.3, C.4) for `type_id` used as the data of `inst`. Returns the matched
  // row, or nullptr when there is none (reported) or no table applies.
  const device::SubgroupTypeRow* CheckTypeTable(
      const ir::Instruction& inst, SubgroupOp op, uint32_t type_id, const std::string& operand,
      std::optional<device::GroupOperation> group_op = {}) {
    if (device().subgroup_ops.kind == device::TableKind::kNoTable) return nullptr;
    std::optional<Shape> shape = ShapeOf(type_id);
    if (!shape) {
      if (device::IsGroupOp(op)) return nullptr;  // the core rules decide the group types
      context_.Error(inst, rules::kSubgroupsTypeTable,
                     operand + " " + context_.IdName(type_id) + " of " + OpName(inst) +
                         " is not a scalar or vector of integer or floating-point type");
      return nullptr;
    }
    // A device without any subgroup table leaves the core OpGroup* widths to the core rules.
    if (device::IsGroupOp(op) && device().subgroup_ops.kind == device::TableKind::kNone) {
      return nullptr;
    }
    device::SubgroupTypeQuery query{op, shape->kind, shape->bits, shape->components, group_op};
    const device::SubgroupTypeMatch match = device::MatchSubgroupType(device(), query);
    switch (match.status) {
      case MatchStatus::kMatched:
        break;
      case MatchStatus::kMismatch:
      case MatchStatus::kNotSupported:
        context_.Error(inst, rules::kSubgroupsTypeTable,
                       OpName(inst) + " " + operand + " " + TypeText(type_id) + ": " +
                           match.Message(device(), query));
        return nullptr;
      default:
        return nullptr;
    }
    const device::SubgroupTypeRow& row = *match.row;
    if (!row.capability.empty() && !HasCapability(row.capability)) {
      const std::string what = OpName(inst) + " " + operand + " " + TypeText(type_id) +
                               " needs capability " + row.capability + " on device " +
                               device().name;
      // The LLVM/SPIR-V Translator declares Float16Buffer, not Float16, for a kernel that moves
      // half values without arithmetic on them, and IGC runs such kernels: a warning.
      if (HasCapability(row.capability + "Buffer")) {
        context_.Warning(inst, rules::kSubgroupsTypeTable,
                         what + "; the module declares only " + row.capability + "Buffer");
      } else {
        context_.Error(inst, rules::kSubgroupsTypeTable, what);
      }
    }
    if (row.provenance.confidence == device::Confidence::kConvention) {
      context_.Warning(inst, rules::kSubgroupsTypeTable,
                       OpName(inst) + " " + operand + " " + TypeText(type_id) +
                           " is accepted on device " + device().name +
                           " only by convention: " + row.provenance.note);
    }
    return &row;
  }

  // C.2: every data operand has the Result Type; the index is a 32-bit integer scalar.
  void CheckShuffle(const ir::Instruction& inst, std::initializer_list<size_t> data, size_t index) {
    if (inst.num_operands() <= index) return;  // the core validator reports the operand count
    static const char* const kDataNames[][2] = {
        {"Data", ""}, {"Current", "Next"}, {"Previous", "Current"}};
    const size_t names = inst.opcode() == spv::Op::OpSubgroupShuffleDownINTEL ? 1
                         : inst.opcode() == spv::Op::OpSubgroupShuffleUpINTEL ? 2
                                                                              : 0;
    const uint32_t result_type = inst.result_type_id();
    for (size_t i : data) {
      const uint32_t type = ValueType(inst.word(i));
      if (type != result_type) {
        context_.Error(inst, rules::kSubgroupsShuffleTypes,
                       std::string(kDataNames[names][i]) + " " + context_.IdName(inst.word(i)) +
                           " of " + OpName(inst) + " has type " +
                           (type ? context_.IdName(type) : std::string("(unknown)")) +
                           "; it must be the Result Type " + context_.IdName(result_type));
      }
    }
    const char* index_name = inst.opcode() == spv::Op::OpSubgroupShuffleINTEL      ? "InvocationId"
                             : inst.opcode() == spv::Op::OpSubgroupShuffleXorINTEL ? "Value"
                                                                                   : "Delta";
    const uint32_t index_type = ValueType(inst.word(index));
    const ir::Type* type = TypeOf(index_type);
    if (!type || type->kind != ir::TypeKind::kInt || type->width != 32) {
      context_.Error(inst, rules::kSubgroupsShuffleIndex,
                     std::string(index_name) + " " + context_.IdName(inst.word(index)) + " of " +
                         OpName(inst) + " has type " +
                         (index_type ? TypeText(index_type) : std::string("(unknown)")) +
                         "; it must be a 32-bit integer scalar");
    }
    CheckTypeTable(inst, SubgroupOp::kShuffle, result_type, "Result Type");
  }

  // C.2 (pointer to a scalar, component type == pointee, DECISIONS 12), C.3 (storage class,
  // types).
  void CheckBlockIo(const ir::Instruction& inst, uint32_t data_type, const char* operand) {
    if (inst.num_operands() < 1 || data_type == 0) return;
    const uint32_t ptr = inst.word(0);
    const ir::Type* ptr_type = TypeOf(ValueType(ptr));
    if (!ptr_type || ptr_type->kind != ir::TypeKind::kPointer) {
      context_.Error(inst, rules::kSubgroupsBlockPointee,
                     "Ptr " + context_.IdName(ptr) + " of " + OpName(inst) + " is not a pointer");
      return;
    }
    const ir::Type* pointee = TypeOf(ptr_type->element);
    if (!pointee ||
        (pointee->kind != ir::TypeKind::kInt && pointee->kind != ir::TypeKind::kFloat)) {
      context_.Error(inst, rules::kSubgroupsBlockPointee,
                     "Ptr " + context_.IdName(ptr) + " of " + OpName(inst) + " points to " +
                         context_.IdName(ptr_type->element) + "; it must point to a scalar type");
    } else if (pointee->kind == ir::TypeKind::kInt && pointee->width == 8) {
      // DECISIONS 12: an 8-bit integer pointee is how producers spell void* (the data's type
      // says what is read or written).
    } else if (ComponentTypeId(data_type) != ptr_type->element) {
      context_.Error(inst, rules::kSubgroupsBlockPointee,
                     std::string(operand) + " " + TypeText(data_type) + " of " + OpName(inst) +
                         " has a component type other than the pointee " + TypeText(pointee->id) +
                         " of Ptr " + context_.IdName(ptr));
    }
    if (device().subgroup_ops.kind != device::TableKind::kNoTable) {
      // cl_intel_subgroup_local_block_io adds Workgroup (C.3); the profiles list only SPIR-V
      // extension names, and IGC exposes it wherever block IO exists, so Workgroup is accepted.
      const spv::StorageClass sc = ptr_type->storage_class;
      if (sc != spv::StorageClass::CrossWorkgroup && sc != spv::StorageClass::Workgroup) {
        const grammar::Enumerant* e = grammar::FindEnumerant(grammar::OperandKindId::kStorageClass,
                                                             static_cast<uint32_t>(sc));
        context_.Error(
            inst, rules::kSubgroupsBlockStorageClass,
            "Ptr " + context_.IdName(ptr) + " of " + OpName(inst) + " has storage class " +
                (e ? std::string(e->name) : std::to_string(static_cast<uint32_t>(sc))) +
                " on device " + device().name +
                "; supported: CrossWorkgroup, Workgroup (cl_intel_subgroup_local_block_io)");
      }
    }
    CheckTypeTable(inst, SubgroupOp::kBlockIo, data_type, operand);
  }

  // C.2 (Sampled 0 or 2), C.3 (2D, not depth/arrayed/multisampled; 2 x 32-bit coordinate).
  void CheckImageBlockIo(const ir::Instruction& inst, uint32_t data_type, const char* operand) {
    if (inst.num_operands() < 2) return;
    const uint32_t image = inst.word(0);
    const ir::Type* image_type = TypeOf(ValueType(image));
    if (!image_type || image_type->kind != ir::TypeKind::kImage || !image_type->image) {
      context_.Error(inst, rules::kSubgroupsImageOperands,
                     "Image " + context_.IdName(image) + " of " + OpName(inst) +
                         " is not an OpTypeImage value");
    } else {
      const ir::ImageFormatInfo& info = *image_type->image;
      if (info.sampled != 0 && info.sampled != 2) {
        context_.Error(inst, rules::kSubgroupsImageOperands,
                       "Image " + context_.IdName(image) + " of " + OpName(inst) + " has Sampled " +
                           std::to_string(info.sampled) + "; it must be 0 or 2");
      }
      const bool env = device().subgroup_ops.kind != device::TableKind::kNoTable;
      if (env && (info.dim != spv::Dim::Dim2D || info.depth != 0 || info.arrayed != 0 ||
                  info.multisampled != 0)) {
        const grammar::Enumerant* dim =
            grammar::FindEnumerant(grammar::OperandKindId::kDim, static_cast<uint32_t>(info.dim));
        context_.Error(
            inst, rules::kSubgroupsImageOperands,
            "Image " + context_.IdName(image) + " of " + OpName(inst) + " has Dim " +
                (dim ? std::string(dim->name) : std::to_string(static_cast<uint32_t>(info.dim))) +
                ", Depth " + std::to_string(info.depth) + ", Arrayed " +
                std::to_string(info.arrayed) + ", MS " + std::to_string(info.multisampled) +
                " on device " + device().name + "; supported: Dim 2D, Depth 0, Arrayed 0, MS 0");
      }
    }
    if (device().subgroup_ops.kind != device::TableKind::kNoTable) {
      const uint32_t coordinate = inst.word(1);
      const uint32_t coordinate_type = ValueType(coordinate);
      std::optional<Shape> shape = ShapeOf(coordinate_type);
      if (!shape || shape->kind != device::ScalarKind::kInt || shape->bits != 32 ||
          shape->components != 2) {
        context_.Error(
            inst, rules::kSubgroupsImageOperands,
            "Coordinate " + context_.IdName(coordinate) + " of " + OpName(inst) + " has type " +
                (coordinate_type ? TypeText(coordinate_type) : std::string("(unknown)")) +
                " on device " + device().name + "; it must be a 2-vector of 32-bit integer");
      }
    }
    if (data_type != 0) CheckTypeTable(inst, SubgroupOp::kImageBlockIo, data_type, operand);
  }

  // C.4: the widths the Intel extensions add to OpGroup* (8 and 16 bits) need a Subgroup
  // Execution scope given by a constant, a scalar, and the device's feature.
  void CheckGroup(const ir::Instruction& inst, SubgroupOp op) {
    const bool broadcast = op == SubgroupOp::kGroupBroadcast;
    if (inst.num_operands() < 3) return;
    std::optional<device::GroupOperation> group_op;
    if (!broadcast) {
      const uint32_t g = inst.word(1);
      if (g > 2) return;  // clustered / partitioned reductions: the core rules decide
      group_op = static_cast<device::GroupOperation>(g);
    }
    const device::SubgroupTypeRow* row =
        CheckTypeTable(inst, op, inst.result_type_id(), "Result Type", group_op);
    if (!row || row->scope.empty()) return;
    const std::optional<Shape> shape = ShapeOf(inst.result_type_id());
    // Only the 8- and 16-bit rows (cl_intel_subgroups_char/short) name a scope.
    const char* rule =
        shape && shape->bits == 16 ? rules::kSubgroupsGroup16Scope : rules::kSubgroupsGroup8Scope;
    const uint32_t scope_id = inst.word(0);
    const std::optional<uint32_t> scope = context_.types().GetConstantUInt32(scope_id);
    const grammar::Enumerant* e =
        scope ? grammar::FindEnumerant(grammar::OperandKindId::kScope, *scope) : nullptr;
    if (!e || row->scope != e->name) {
      const std::string found = !scope
                                    ? "is not a constant"
                                    : "is " + (e ? std::string(e->name) : std::to_string(*scope));
      context_.Error(inst, rule,
                     "Execution scope " + context_.IdName(scope_id) + " of " + OpName(inst) +
                         " on " + TypeText(inst.result_type_id()) + " " + found + "; it must be " +
                         "the constant " + row->scope + " on device " + device().name);
    }
  }

  // The device is looked up when an instruction needs it (validation_context.hpp).
  const device::DeviceProfile& device() const { return context_.device(); }

  ValidationContext& context_;
};

}  // namespace

void ValidateSubgroups(ValidationContext& context) {
  // A kernel's required subgroup size (SubgroupSize execution mode) must be one the device has:
  // every other table is looked up at that size, and a size of 0 has no invocation at all.
  for (const ir::EntryPoint& ep : context.info().entry_points()) {
    const std::optional<ir::ExecutionModeInfo> mode =
        context.info().FindExecutionMode(ep.function_id, spv::ExecutionMode::SubgroupSize);
    if (!mode || mode->operands_are_ids || mode->operands.empty()) continue;
    const device::DeviceProfile& device = context.device();
    const uint32_t size = mode->operands[0];
    if (device.SupportsSubgroupSize(size)) continue;
    std::string sizes;
    for (uint32_t s : device.subgroup_sizes)
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(s);
    context.Error(*mode->inst, rules::kSubgroupsSize,
                  "kernel " + ep.name + " requires subgroup size " + std::to_string(size) +
                      ", which device " + device.name + " does not have (" +
                      (device.any_power_of_two_subgroup_size ? "any power of two" : sizes) + ")");
  }
  SubgroupChecker checker(context);
  context.ForEachBodyInstruction(
      [&](const ir::Function&, const ir::Instruction& inst) { checker.Check(inst); });
}

}  // namespace xmx::val
