#include "val/block2d_operands.hpp"

#include "grammar/grammar.hpp"

namespace xmx::val {
namespace {

// SPV_KHR_untyped_pointers: the pointer operands "may be untyped" (A.1); our grammar does not
// carry the opcode, so TypeTable leaves it as kOther.
constexpr uint32_t kOpTypeUntypedPointerKHR = 4417;

std::string StorageClassName(spv::StorageClass storage_class) {
  const grammar::Enumerant* e = grammar::FindEnumerant(grammar::OperandKindId::kStorageClass,
                                                       static_cast<uint32_t>(storage_class));
  return e ? e->name : std::to_string(static_cast<uint32_t>(storage_class));
}

}  // namespace

Block2dValues::Block2dValues(const ir::Module& module, const ir::TypeTable& types)
    : types_(types), value_types_(module) {}

const ir::Type* Block2dValues::TypeOf(uint32_t id) const {
  const uint32_t type_id = value_types_.TypeId(id);
  return type_id == 0 ? nullptr : types_.GetType(type_id);
}

std::optional<PointerInfo> Block2dValues::AsPointer(const ir::Type* type) const {
  if (type == nullptr) return std::nullopt;
  if (type->kind == ir::TypeKind::kPointer) {
    return PointerInfo{type->storage_class, types_.GetType(type->element), false};
  }
  if (type->kind == ir::TypeKind::kOther && type->inst != nullptr &&
      static_cast<uint32_t>(type->inst->opcode()) == kOpTypeUntypedPointerKHR &&
      type->inst->num_operands() >= 1) {
    return PointerInfo{static_cast<spv::StorageClass>(type->inst->word(0)), nullptr, true};
  }
  return std::nullopt;
}

std::string Block2dValues::Describe(const ir::Type* type, int depth) const {
  if (type == nullptr) return "an unknown type";
  // A malformed module may make a type contain itself.
  if (depth > 8) return "type %" + std::to_string(type->id);
  switch (type->kind) {
    case ir::TypeKind::kInt:
      return "i" + std::to_string(type->width);
    case ir::TypeKind::kFloat:
      return "f" + std::to_string(type->width);
    case ir::TypeKind::kBool:
      return "bool";
    case ir::TypeKind::kVector:
      return "v" + std::to_string(type->count) + Describe(types_.GetType(type->element), depth + 1);
    case ir::TypeKind::kArray:
      return "array of " + Describe(types_.GetType(type->element), depth + 1);
    case ir::TypeKind::kStruct:
      return "struct %" + std::to_string(type->id);
    case ir::TypeKind::kPointer:
      return "ptr " + StorageClassName(type->storage_class) + " " +
             Describe(types_.GetType(type->element), depth + 1);
    default:
      break;
  }
  if (std::optional<PointerInfo> pointer = AsPointer(type)) {
    return "untyped ptr " + StorageClassName(pointer->storage_class);
  }
  return "type %" + std::to_string(type->id);
}

}  // namespace xmx::val
