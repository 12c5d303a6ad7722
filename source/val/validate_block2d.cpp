// The five OpSubgroup2DBlock*INTEL instructions (rules block2d.*): the SPIR-V rules of
// SPEC-NOTES A.3 on every device, the OpenCL environment's operand widths (A.4), the run-time
// restrictions of A.3 where the operands are constants (breaking them is undefined behaviour on
// every execution), then the device's shape table and subgroup sizes (A.4, A.7).
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>

#include "common/format.hpp"
#include "common/rule_ids.hpp"
#include "device/block2d_classes.hpp"
#include "ir/block2d_operands.hpp"
#include "val/block2d_operands.hpp"
#include "val/rules.hpp"
#include "xmx/device.hpp"

namespace xmx::val {
namespace {

using device::Block2dOp;
using device::Confidence;
using device::Range;

bool IsInt(const ir::Type* type) { return type != nullptr && type->kind == ir::TypeKind::kInt; }

// The operand values the table and the restrictions need; nullopt when not a usable constant.
struct Dimensions {
  std::optional<uint32_t> element_size, width, height, count;
  bool static_error = false;  // a static rule on them already failed: the table would repeat it
};

class Block2dChecker {
 public:
  explicit Block2dChecker(ValidationContext& context)
      : context_(context), values_(context.module(), context.types()) {}

  void Check(const ir::Function& function, const ir::Instruction& inst) {
    const ir::Block2dOperandPositions* layout = ir::FindBlock2dOperandPositions(inst.opcode());
    // A short instruction is a structural error reported elsewhere; nothing here can be trusted.
    if (!layout || inst.num_operands() < layout->operand_count) return;
    inst_ = &inst;
    name_ = layout->instruction->name;

    Dimensions dims = CheckDimensions(*layout);
    CheckPointers(*layout, dims);
    CheckMemoryOperands(*layout, dims.element_size);
    // A 2D block instruction the device tables have no name for has no table to check.
    if (const std::optional<Block2dOp> op = device::Block2dOpOf(layout->op_class)) {
      CheckDevice(function, *op, dims);
    }
  }

  // DECISIONS 11: one remark per function whose subgroup size nothing determines.
  void RemarkUnknownSubgroupSize(const ir::Function& function, const ir::Instruction& inst) {
    if (!remarked_.insert(function.id()).second) return;
    context_.Remark(inst, rules::kBlock2dSubgroupSizeUnknown,
                    "no entry point reaches function " + context_.IdName(function.id()) +
                        " and no --subgroup-size was given: the subgroup sizes of its 2D block "
                        "instructions are not checked");
  }

 private:
  uint32_t Id(size_t index) const { return inst_->word(index); }
  std::string Operand(const char* role, uint32_t id) const {
    return std::string(role) + " " + context_.IdName(id) + " of " + name_;
  }

  // A.3 rule 1: constant instructions of scalar 32-bit integer type. For Element Size the
  // requirement is DECISIONS 6 (a reading of an ambiguous sentence): a warning.
  std::optional<uint32_t> Dimension(size_t index, const char* role, bool by_convention) {
    const uint32_t id = Id(index);
    const ir::Constant* constant = context_.types().GetConstant(id);
    const ir::Type* type = context_.ValueType(id);
    if (type == nullptr) return std::nullopt;  // undefined id: the core rules report it
    if (constant != nullptr && IsInt(type) && type->width == 32) {
      // Spec constants are constant instructions too, but their value may change: no value.
      return constant->is_spec ? std::nullopt : context_.types().GetConstantUInt32(id);
    }
    std::string message = Operand(role, id) + " must be a constant instruction of scalar " +
                          "32-bit integer type; found " + (constant ? "a constant" : "a value") +
                          " of type " + values_.Describe(type);
    if (by_convention) {
      context_.Warning(*inst_, rules::kBlock2dConstant,
                       message +
                           " (DECISIONS 6: the spec text is ambiguous about Element Size; "
                           "IGC requires a constant)");
    } else {
      context_.Error(*inst_, rules::kBlock2dConstant, message);
    }
    return std::nullopt;
  }

  Dimensions CheckDimensions(const ir::Block2dOperandPositions& layout) {
    Dimensions dims;
    dims.element_size = Dimension(layout.element_size, "Element Size", true);
    dims.width = Dimension(layout.block_width, "Block Width", false);
    dims.height = Dimension(layout.block_height, "Block Height", false);
    dims.count = Dimension(layout.block_count, "Block Count", false);
    if (!dims.element_size) return dims;
    const uint32_t e = *dims.element_size;
    std::vector<uint32_t> allowed = limits().element_sizes;
    if (allowed.empty()) allowed = {1, 2, 4, 8};
    if (std::find(allowed.begin(), allowed.end(), e) == allowed.end()) {
      context_.Error(*inst_, rules::kBlock2dElementSize,
                     "Element Size " + std::to_string(e) + " is not allowed by " + name_ +
                         "; allowed: " + Join(allowed));
      dims.static_error = true;
      dims.element_size.reset();  // nothing sized by it can be checked
      return dims;
    }
    const uint32_t multiple = limits().block_width_multiple.Get(e);
    if (dims.width && multiple > 1 && *dims.width % multiple != 0) {
      context_.Error(*inst_, rules::kBlock2dBlockWidthMultiple,
                     "Block Width " + std::to_string(*dims.width) + " of " + name_ +
                         " must be a multiple of " + std::to_string(multiple) +
                         " for Element Size " + std::to_string(e));
      dims.static_error = true;
    }
    return dims;
  }

  // A.3 rules 2-4 and DECISIONS 12 (revised).
  void CheckPointers(const ir::Block2dOperandPositions& layout, const Dimensions& dims) {
    const std::string global_name(layout.base_pointer_name());
    const char* global_role = global_name.c_str();
    const std::optional<PointerInfo> global =
        CheckStorageClass(Id(layout.base_pointer), global_role, spv::StorageClass::CrossWorkgroup);
    if (global && dims.element_size) {
      CheckPointee(Id(layout.base_pointer), global_role, global->pointee, *dims.element_size * 8,
                   rules::kBlock2dPointee, "Element Size " + std::to_string(*dims.element_size),
                   true);
    }
    if (!layout.private_pointer) return;  // Prefetch
    const std::string private_name(layout.private_pointer_name());
    const char* role = private_name.c_str();
    const std::optional<PointerInfo> private_pointer =
        CheckStorageClass(Id(*layout.private_pointer), role, spv::StorageClass::Function);
    // The extension puts a pointee rule only on LoadTransform's destination. The private data of
    // a plain load, a transposed load or a store is bytes the OpenCL C built-ins type by what is
    // convenient (ushort* for 8-bit rows 32 wide, uint* for 32-bit data): any pointee is fine.
    if (private_pointer && layout.op_class == grammar::OpcodeClass::kBlock2dLoadTransform) {
      CheckPointee(Id(*layout.private_pointer), role, private_pointer->pointee, 32,
                   rules::kBlock2dTransformPointee, "a LoadTransform destination", false);
    }
  }

  // The pointer's type, or nullopt when it is not a pointer; an error when it is not one into
  // `want` storage.
  std::optional<PointerInfo> CheckStorageClass(uint32_t id, const char* role,
                                               spv::StorageClass want) {
    const ir::Type* type = context_.ValueType(id);
    if (type == nullptr) return std::nullopt;
    const std::optional<PointerInfo> pointer = values_.AsPointer(type);
    if (!pointer || pointer->storage_class != want) {
      const char* where = want == spv::StorageClass::CrossWorkgroup ? "CrossWorkgroup" : "Function";
      context_.Error(*inst_, rules::kBlock2dPointerStorageClass,
                     Operand(role, id) + " must be a pointer into " + where + " storage; found " +
                         values_.Describe(type));
    }
    return pointer;
  }

  // `want_bits`-bit integer pointee; an 8-bit one is how producers spell void* (DECISIONS 12).
  // Arrays and vectors of such integers (LLVM's backend passes `int8 b[2]` to LoadTransform) are
  // the same bytes: a warning. `float_elements`: floats of that width are too (global memory,
  // where kernels pass `float*` for 4-byte elements).
  void CheckPointee(uint32_t id, const char* role, const ir::Type* pointee, uint32_t want_bits,
                    const char* rule, const std::string& why, bool float_elements) {
    // Untyped pointers carry no element type.
    if (pointee == nullptr ||
        (IsInt(pointee) && (pointee->width == 8 || pointee->width == want_bits))) {
      return;
    }
    // Bounded: in a module core validation rejects, a type may name itself as its element.
    const ir::Type* scalar = pointee;
    for (int depth = 0;
         scalar && (scalar->kind == ir::TypeKind::kVector || scalar->kind == ir::TypeKind::kArray);
         ++depth) {
      scalar = depth < 32 ? context_.types().GetType(scalar->element) : nullptr;
    }
    const bool same_bits = scalar && scalar->width == want_bits &&
                           (scalar->kind == ir::TypeKind::kInt
                                ? scalar != pointee
                                : float_elements && scalar->kind == ir::TypeKind::kFloat);
    if (same_bits) {
      context_.Warning(*inst_, rule,
                       Operand(role, id) + " points to " + values_.Describe(pointee) + "; for " +
                           why + " the pointee should be the scalar i" + std::to_string(want_bits) +
                           " (accepted: elements of the same " + std::to_string(want_bits) +
                           " bits)");
      return;
    }
    context_.Error(*inst_, rule,
                   Operand(role, id) + " points to " + values_.Describe(pointee) + "; for " + why +
                       " the pointee must be i" + std::to_string(want_bits) +
                       " (or i8, read as untyped)");
  }

  // A.3 rules 5-6, A.4's 32-bit widths, and the restrictions on constant values.
  void CheckMemoryOperands(const ir::Block2dOperandPositions& layout,
                           std::optional<uint32_t> element_size) {
    const bool width_ok = CheckIntegerScalar(Id(layout.memory_width), "Memory Width");
    const bool height_ok = CheckIntegerScalar(Id(layout.memory_height), "Memory Height");
    const bool pitch_ok = CheckIntegerScalar(Id(layout.memory_pitch), "Memory Pitch");
    const bool coordinate_ok = CheckCoordinateType(Id(layout.coordinate));
    const ir::TypeTable& types = context_.types();

    std::optional<uint64_t> width;
    if (width_ok && (width = types.GetConstantUInt(Id(layout.memory_width)))) {
      const Range& range = limits().memory_width;
      if (range.max != 0 && (*width < range.min || *width > range.max)) {
        context_.Error(*inst_, rules::kBlock2dMemoryWidth,
                       "Memory Width " + std::to_string(*width) + " of " + name_ + " must be in [" +
                           std::to_string(range.min) + ", " + std::to_string(range.max) +
                           "] bytes");
      }
      if (element_size) {
        const uint32_t multiple = limits().memory_width_multiple.Get(*element_size, *element_size);
        if (multiple > 1 && *width % multiple != 0) {
          context_.Error(*inst_, rules::kBlock2dMemoryWidth,
                         "Memory Width " + std::to_string(*width) + " of " + name_ +
                             " must be a multiple of " + std::to_string(multiple) +
                             " bytes for Element Size " + std::to_string(*element_size));
        }
      }
    }
    if (height_ok) {
      if (std::optional<uint64_t> height = types.GetConstantUInt(Id(layout.memory_height))) {
        const Range& range = limits().memory_height;
        if (range.max != 0 && (*height < range.min || *height > range.max)) {
          context_.Error(*inst_, rules::kBlock2dMemoryHeight,
                         "Memory Height " + std::to_string(*height) + " of " + name_ +
                             " must be in [" + std::to_string(range.min) + ", " +
                             std::to_string(range.max) + "] rows");
        }
      }
    }
    if (pitch_ok) {
      if (std::optional<uint64_t> pitch = types.GetConstantUInt(Id(layout.memory_pitch))) {
        if (width && *pitch < *width) {
          context_.Error(*inst_, rules::kBlock2dMemoryPitch,
                         "Memory Pitch " + std::to_string(*pitch) + " of " + name_ +
                             " must be at least Memory Width " + std::to_string(*width));
        }
        const uint32_t multiple = limits().pitch_multiple;
        if (multiple > 1 && *pitch % multiple != 0) {
          context_.Error(*inst_, rules::kBlock2dMemoryPitch,
                         "Memory Pitch " + std::to_string(*pitch) + " of " + name_ +
                             " must be a multiple of " + std::to_string(multiple) + " bytes");
        }
      }
    }
    if (coordinate_ok && element_size) CheckCoordinateX(Id(layout.coordinate), *element_size);
  }

  void CheckOpenclWidth(uint32_t id, const char* role, const ir::Type* scalar,
                        const std::string& found) {
    if (limits().operand_bits == 0 || scalar->width == limits().operand_bits) return;
    context_.Error(*inst_, rules::kBlock2dOperandTypeOpencl,
                   Operand(role, id) + " must have " + std::to_string(limits().operand_bits) +
                       "-bit integer components on device " + device().name + "; found " + found);
  }

  bool CheckIntegerScalar(uint32_t id, const char* role) {
    const ir::Type* type = context_.ValueType(id);
    if (type == nullptr) return false;
    if (!IsInt(type)) {
      context_.Error(
          *inst_, rules::kBlock2dOperandType,
          Operand(role, id) + " must be an integer scalar; found " + values_.Describe(type));
      return false;
    }
    CheckOpenclWidth(id, role, type, values_.Describe(type));
    return true;
  }

  bool CheckCoordinateType(uint32_t id) {
    const ir::Type* type = context_.ValueType(id);
    if (type == nullptr) return false;
    const ir::Type* component =
        type->kind == ir::TypeKind::kVector ? context_.types().GetType(type->element) : nullptr;
    if (type->count != 2 || !IsInt(component)) {
      context_.Error(*inst_, rules::kBlock2dOperandType,
                     Operand("Coordinate", id) + " must be a vector of 2 integers; found " +
                         values_.Describe(type));
      return false;
    }
    CheckOpenclWidth(id, "Coordinate", component, values_.Describe(type));
    return true;
  }

  // A.3: Coordinate X (elements) is a multiple of 4 for 1-byte and of 2 for 2-byte elements.
  void CheckCoordinateX(uint32_t id, uint32_t element_size) {
    const ir::Constant* constant = context_.types().GetConstant(id);
    if (constant == nullptr || constant->is_spec ||
        constant->kind != ir::ConstantKind::kComposite || constant->words.empty()) {
      return;
    }
    const std::optional<int64_t> x = context_.types().GetConstantInt(constant->words[0]);
    const uint32_t multiple = limits().coordinate_x_multiple.Get(element_size);
    if (!x || multiple <= 1 || *x % multiple == 0) return;
    context_.Error(*inst_, rules::kBlock2dCoordinate,
                   "Coordinate X " + std::to_string(*x) + " of " + name_ +
                       " must be a multiple of " + std::to_string(multiple) + " for Element Size " +
                       std::to_string(element_size));
  }

  // The device table (A.4) and the subgroup sizes the instructions may run at.
  void CheckDevice(const ir::Function& function, Block2dOp op, const Dimensions& dims) {
    if (device().block2d.kind == device::TableKind::kNone) {
      context_.Error(
          *inst_, rules::kBlock2dUnsupported,
          name_ + " is not supported on device " + device().name + ": it has no 2D block IO");
      return;  // nothing else about the device applies
    }
    if (!dims.static_error && dims.element_size && dims.width && dims.height && dims.count) {
      const device::Block2dMatch& match =
          Match(op, *dims.element_size, *dims.width, *dims.height, *dims.count);
      switch (match.status) {
        case device::MatchStatus::kNotSupported:
          context_.Error(*inst_, rules::kBlock2dUnsupported, match.Message(device()));
          return;
        case device::MatchStatus::kMismatch:
          context_.Error(*inst_, rules::kBlock2dShapeTable, match.Message(device()));
          break;
        case device::MatchStatus::kMatched:
          if (match.row && match.row->provenance.confidence == Confidence::kConvention) {
            context_.Warning(*inst_, rules::kBlock2dShapeTable,
                             "the shape of " + name_ + " is accepted on device " + device().name +
                                 " only by convention: " + match.row->provenance.note);
          }
          break;
        default:
          break;
      }
    }
    const std::vector<uint32_t>& sizes = context_.SubgroupSizes(function.id());
    if (sizes.empty()) {
      if (!context_.ReachedByEntryPoint(function.id())) RemarkUnknownSubgroupSize(function, *inst_);
      return;
    }
    for (uint32_t size : sizes) {
      std::vector<uint32_t> supported;
      const device::SubgroupSizeRow* row =
          device::MatchBlock2dSubgroupSize(device(), size, &supported);
      if (row == nullptr) {
        context_.Error(*inst_, rules::kBlock2dSubgroupSize,
                       name_ + " cannot run at subgroup size " + std::to_string(size) +
                           " on device " + device().name + "; supported: " + Join(supported));
      } else if (row->provenance.confidence == Confidence::kConvention) {
        context_.Warning(*inst_, rules::kBlock2dSubgroupSize,
                         name_ + " at subgroup size " + std::to_string(size) +
                             " is accepted on device " + device().name +
                             " only by convention: " + row->provenance.note);
      }
    }
  }

  // The device is looked up when an instruction needs it (validation_context.hpp).
  const device::DeviceProfile& device() const { return context_.device(); }
  const device::Block2dLimits& limits() const { return device().block2d_limits; }

  ValidationContext& context_;
  Block2dValues values_;
  // The device table's answer for one shape. A kernel loads the same few shapes in every
  // iteration of its loops; the lookup narrows the whole table, so each shape is looked up once
  // per module.
  const device::Block2dMatch& Match(device::Block2dOp op, uint32_t element_size, uint32_t width,
                                    uint32_t height, uint32_t count) {
    const std::array<uint32_t, 5> key = {static_cast<uint32_t>(op), element_size, width, height,
                                         count};
    auto found = matches_.find(key);
    if (found == matches_.end()) {
      found =
          matches_
              .emplace(key, device::MatchBlock2d(device(), op, element_size, width, height, count))
              .first;
    }
    return found->second;
  }

  std::map<std::array<uint32_t, 5>, device::Block2dMatch> matches_;
  const ir::Instruction* inst_ = nullptr;
  std::string name_;
  std::set<uint32_t> remarked_;
};

}  // namespace

void ValidateBlock2d(ValidationContext& context) {
  bool any = false;
  context.ForEachBodyInstruction([&](const ir::Function&, const ir::Instruction& inst) {
    any = any || ir::IsBlock2dOpcode(inst.opcode());
  });
  if (!any) return;  // the value table below walks the whole module
  Block2dChecker checker(context);
  context.ForEachBodyInstruction([&](const ir::Function& function, const ir::Instruction& inst) {
    checker.Check(function, inst);
  });
}

}  // namespace xmx::val
