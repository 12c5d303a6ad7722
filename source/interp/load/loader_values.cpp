// The loader's values: type layouts, register slots, and constants materialised into the
// register file or laid out as memory bytes.
#include <algorithm>
#include <cstring>

#include "common/align.hpp"
#include "interp/load/loader.hpp"

namespace xmx::interp {
namespace {

constexpr uint32_t kSlotAlignment = 16;

// Whether `t` can be a component of a vector or a cooperative matrix as xmx-run runs them: a
// scalar, the components SupportedType accepts (it refuses every other vector with a message).
bool IsVectorComponent(const ir::Type* t) {
  if (t == nullptr) return false;
  switch (t->kind) {
    case ir::TypeKind::kBool:
    case ir::TypeKind::kInt:
    case ir::TypeKind::kFloat:
      return true;
    default:
      return false;
  }
}

}  // namespace

const TypeInfo& Loader::Type(uint32_t type_id) {
  auto it = type_info_.find(type_id);
  if (it != type_info_.end()) return it->second;
  TypeInfo info;
  const ir::Type* type = types_.GetType(type_id);
  if (type != nullptr) {
    info.type = type;
    info.kind = type->kind;
    info.memory_bytes = type->byte_size.value_or(0);
    info.alignment = type->alignment;
    switch (type->kind) {
      case ir::TypeKind::kBool:
        info.value = {{ScalarKind::kBool, 1}, 1};
        info.lane_bytes = 1;
        break;
      case ir::TypeKind::kInt:
        info.value = {{ScalarKind::kInt, static_cast<uint8_t>(type->width / 8)}, 1};
        info.lane_bytes = type->width / 8;
        break;
      case ir::TypeKind::kFloat:
        info.value = {{ScalarKind::kFloat, static_cast<uint8_t>(type->width / 8)}, 1};
        info.lane_bytes = type->width / 8;
        break;
      case ir::TypeKind::kPointer:
        info.value = {{ScalarKind::kPointer, 8}, 1};
        info.lane_bytes = 8;
        info.pointee = type->element;
        info.storage = type->storage_class;
        break;
      case ir::TypeKind::kVector: {
        // A vector's components are scalars. A module that skipped core validation
        // may name anything, the vector itself included: such a vector gets no layout (the
        // loader refuses it as unsupported) instead of recursing without end.
        if (!IsVectorComponent(types_.GetType(type->element))) break;
        const TypeInfo& element = Type(type->element);
        info.value = {element.value.scalar, type->count};
        info.lane_bytes = element.lane_bytes * type->count;
        break;
      }
      case ir::TypeKind::kArray:
      case ir::TypeKind::kStruct:
        info.lane_bytes = static_cast<uint32_t>(info.memory_bytes);
        break;
      case ir::TypeKind::kCooperativeMatrix:
        // Each invocation's slice: length() components (coop_layout.hpp).
        if (!IsVectorComponent(types_.GetType(type->element))) break;
        if (std::optional<CoopLayout> layout = CoopLayoutOf(type_id, nullptr)) {
          const ValueType element = Type(type->element).value;
          info.value = {element.scalar, layout->length()};
          info.lane_bytes = info.value.lane_bytes();
          info.memory_bytes = info.lane_bytes;
          info.alignment = element.scalar.bytes;
        }
        break;
      case ir::TypeKind::kEvent:
        info.value = {{ScalarKind::kInt, 8}, 1};
        info.lane_bytes = 8;
        break;
      case ir::TypeKind::kImage:  // a handle: the image's allocation, as a pointer
        info.value = {{ScalarKind::kPointer, 8}, 1};
        info.lane_bytes = 8;
        info.memory_bytes = 8;  // -O0 code keeps the handle in a private variable
        info.alignment = 8;
        break;
      default:
        break;
    }
  }
  return type_info_.emplace(type_id, info).first->second;
}

uint32_t Loader::ValueTypeId(uint32_t id) const { return value_types_.TypeId(id); }

const TypeInfo& Loader::TypeOfValue(uint32_t id) { return Type(ValueTypeId(id)); }

std::optional<uint64_t> Loader::ConstantValue(uint32_t id) const {
  return types_.GetConstantUInt(id, /*allow_spec=*/true);
}

uint32_t Loader::Slot(uint32_t id) {
  auto it = slots_.find(id);
  if (it != slots_.end()) return it->second;
  const TypeInfo& type = TypeOfValue(id);
  if (type.memory_bytes > kMaxValueBytes && type.kind != ir::TypeKind::kPointer) {
    // An aggregate this large is not kept in registers (every lane would hold a copy).
    FailLoad("value %" + std::to_string(id) + " of " + std::to_string(type.memory_bytes) +
             " bytes is larger than xmx-run keeps in a register (" +
             std::to_string(kMaxValueBytes) + ")");
    return slots_[id] = 0;
  }
  const uint32_t offset =
      ReserveRegisters(std::max<uint32_t>(type.lane_bytes, 1), "value %" + std::to_string(id));
  slots_[id] = offset;
  if (failed()) return offset;
  if (const ir::Constant* constant = types_.GetConstant(id)) {
    (void)constant;
    MaterialiseConstant(id, offset, type);
  }
  return offset;
}

uint32_t Loader::ImmediateSlot(const std::vector<uint8_t>& lane_value) {
  const uint32_t lane_bytes = static_cast<uint32_t>(std::max<size_t>(lane_value.size(), 1));
  const uint32_t offset = ReserveRegisters(lane_bytes, "an immediate operand");
  if (failed()) return offset;
  program_.register_image.resize(program_.register_bytes, 0);
  for (uint32_t lane = 0; lane < program_.subgroup_size; ++lane) {
    std::memcpy(&program_.register_image[offset + lane * lane_bytes], lane_value.data(),
                lane_value.size());
  }
  return offset;
}

uint32_t Loader::ScratchSlot(uint32_t bytes) {
  if (bytes > scratch_bytes_) {
    scratch_bytes_ = bytes;
    scratch_slot_ = ReserveRegisters(bytes, "scratch registers");
  }
  return scratch_slot_;
}

uint32_t Loader::ReserveRegisters(uint64_t lane_bytes, const std::string& what) {
  // In 64 bits: a register file near kMaxRegisterBytes must not wrap while it is being checked.
  const uint64_t offset = AlignUp<uint64_t>(program_.register_bytes, kSlotAlignment);
  const uint64_t end = offset + lane_bytes * program_.subgroup_size;
  if (end > kMaxRegisterBytes) {
    FailLoad("the kernel's values need more than " + std::to_string(kMaxRegisterBytes >> 20) +
             " MiB of registers per subgroup (" + what + " does not fit)");
    return 0;
  }
  program_.register_bytes = static_cast<uint32_t>(end);
  return static_cast<uint32_t>(offset);
}

// The bytes of constant `id` in the register layout (memory_layout false) or in memory layout
// (aggregate members at their offsets).
bool Loader::ConstantBytes(uint32_t id, uint8_t* out, const TypeInfo& type, bool memory_layout) {
  const ir::Constant* constant = types_.GetConstant(id);
  if (constant == nullptr) {
    // OpUndef at module scope, or an id that is not a constant.
    return true;
  }
  switch (constant->kind) {
    case ir::ConstantKind::kTrue:
      out[0] = 1;
      return true;
    case ir::ConstantKind::kFalse:
    case ir::ConstantKind::kNull:
      return true;
    case ir::ConstantKind::kScalar: {
      const uint32_t bytes = type.value.scalar.bytes;
      for (uint32_t i = 0; i < bytes; ++i) {
        const uint32_t word = constant->words[i / 4];
        out[i] = static_cast<uint8_t>(word >> (8 * (i % 4)));
      }
      return true;
    }
    case ir::ConstantKind::kComposite: {
      const ir::Type* t = type.type;
      if (t == nullptr) return false;
      if (t->kind == ir::TypeKind::kCooperativeMatrix) {
        // One constituent, the value of every element (SPV_KHR_cooperative_matrix).
        if (constant->words.size() != 1 || ValueTypeId(constant->words[0]) != t->element) {
          return false;
        }
        const TypeInfo& element = TypeOfValue(constant->words[0]);
        for (uint32_t i = 0; i < type.value.components; ++i) {
          if (!ConstantBytes(constant->words[0], out + i * element.lane_bytes, element,
                             memory_layout)) {
            return false;
          }
        }
        return true;
      }
      // Each constituent must have the type its place in the composite has (a validator may let
      // a mismatch through); otherwise its bytes would not fit where they go.
      const bool is_struct = t->kind == ir::TypeKind::kStruct;
      const uint64_t count = is_struct                         ? t->members.size()
                             : t->kind == ir::TypeKind::kArray ? t->length.value_or(0)
                                                               : t->count;
      if (constant->words.size() != count) return false;
      uint64_t offset = 0;
      for (size_t i = 0; i < constant->words.size(); ++i) {
        const uint32_t member = constant->words[i];
        if (ValueTypeId(member) != (is_struct ? t->members[i] : t->element)) return false;
        const TypeInfo& member_type = TypeOfValue(member);
        if (t->kind == ir::TypeKind::kStruct) {
          offset = MemberOffsets(t->id)[i];
        }
        if (!ConstantBytes(member, out + offset, member_type, memory_layout)) return false;
        if (t->kind == ir::TypeKind::kVector) {
          offset += member_type.lane_bytes;
        } else if (t->kind != ir::TypeKind::kStruct) {
          offset += member_type.memory_bytes;
        }
      }
      return true;
    }
    default:
      return false;
  }
}

bool Loader::MaterialiseConstant(uint32_t id, uint32_t slot, const TypeInfo& type) {
  std::vector<uint8_t> lane(std::max<uint32_t>(type.lane_bytes, 1), 0);
  const ir::Constant* constant = types_.GetConstant(id);
  if (constant != nullptr && !ConstantBytes(id, lane.data(), type, false)) {
    return Fail(*constant->inst, "xmx-run cannot evaluate this constant");
  }
  program_.register_image.resize(
      std::max<size_t>(program_.register_image.size(), slot + lane.size() * subgroup_size()), 0);
  for (uint32_t l = 0; l < subgroup_size(); ++l) {
    std::memcpy(&program_.register_image[slot + l * lane.size()], lane.data(), lane.size());
  }
  return true;
}

const std::vector<uint64_t>& Loader::MemberOffsets(uint32_t struct_type_id) {
  auto it = member_offsets_.find(struct_type_id);
  if (it != member_offsets_.end()) return it->second;
  std::vector<uint64_t> offsets;
  const ir::Type* t = types_.GetType(struct_type_id);
  const bool packed = info_.HasDecoration(struct_type_id, spv::Decoration::CPacked);
  uint64_t offset = 0;
  if (t != nullptr) {
    for (uint32_t member : t->members) {
      const TypeInfo& m = Type(member);
      if (!packed) offset = (offset + m.alignment - 1) / m.alignment * m.alignment;
      offsets.push_back(offset);
      offset += m.memory_bytes;
    }
    // An explicit Offset decoration wins.
    for (const ir::DecorationInfo& d : info_.GetDecorations(struct_type_id)) {
      if (d.decoration == spv::Decoration::Offset && d.member && *d.member < offsets.size() &&
          !d.operands.empty()) {
        offsets[*d.member] = d.operands[0];
      }
    }
  }
  return member_offsets_.emplace(struct_type_id, std::move(offsets)).first->second;
}

}  // namespace xmx::interp
