// The loader's view of cooperative-matrix types: their element mapping (coop_layout.hpp) at the
// program's subgroup size, and the component formats.
#include "interp/coop/coop_support.hpp"
#include "interp/load/load_checks.hpp"
#include "interp/load/loader.hpp"

namespace xmx::interp {

CoopComponent ComponentOf(const ir::TypeTable& types, uint32_t type_id) {
  const ir::Type* t = types.GetType(type_id);
  if (t != nullptr &&
      (t->kind == ir::TypeKind::kVector || t->kind == ir::TypeKind::kCooperativeMatrix)) {
    t = types.GetType(t->element);
  }
  if (t == nullptr) return CoopComponent::kOther;
  if (t->kind == ir::TypeKind::kInt) {
    switch (t->width) {
      case 8:
        return CoopComponent::kInt8;
      case 16:
        return CoopComponent::kInt16;
      case 32:
        return CoopComponent::kInt32;
      default:
        return CoopComponent::kOther;
    }
  }
  if (t->kind == ir::TypeKind::kFloat) {
    if (t->float_encoding) {
      return t->width == 16 && *t->float_encoding == 0 ? CoopComponent::kBFloat16
                                                       : CoopComponent::kOther;
    }
    if (t->width == 16) return CoopComponent::kHalf;
    if (t->width == 32) return CoopComponent::kFloat;
  }
  return CoopComponent::kOther;
}

std::optional<CoopLayout> Loader::CoopLayoutOf(uint32_t type_id, std::string* why) {
  using load_checks::Id;
  std::string ignored;
  if (why == nullptr) why = &ignored;
  const ir::Type* t = types_.GetType(type_id);
  if (t == nullptr || t->kind != ir::TypeKind::kCooperativeMatrix) {
    *why = Id(type_id) + " is not a cooperative-matrix type";
    return std::nullopt;
  }
  const std::string name = "cooperative-matrix type " + Id(type_id);
  const std::optional<uint64_t> scope = ConstantValue(t->scope_id);
  const std::optional<uint64_t> rows = ConstantValue(t->rows_id);
  const std::optional<uint64_t> columns = ConstantValue(t->columns_id);
  const std::optional<uint64_t> use = ConstantValue(t->use_id);
  if (!scope || !rows || !columns || !use) {
    *why = name + ": Scope, Rows, Columns and Use must be integer constants";
    return std::nullopt;
  }
  if (*scope != static_cast<uint64_t>(spv::Scope::Subgroup)) {
    *why = name + ": xmx-run executes Subgroup-scope cooperative matrices only (Scope " +
           std::to_string(*scope) + ")";
    return std::nullopt;
  }
  if (*use > 2) {
    *why = name + ": Use " + std::to_string(*use) + " is not A (0), B (1) or Accumulator (2)";
    return std::nullopt;
  }
  const CoopComponent component = ComponentOf(types_, type_id);
  uint32_t bits = 0;
  switch (component) {
    case CoopComponent::kInt8:
      bits = 8;
      break;
    case CoopComponent::kInt16:
    case CoopComponent::kHalf:
    case CoopComponent::kBFloat16:
      bits = 16;
      break;
    case CoopComponent::kInt32:
    case CoopComponent::kFloat:
      bits = 32;
      break;
    case CoopComponent::kOther:
      *why = name + ": xmx-run supports components of 8-, 16- or 32-bit integers, half, " +
             "bfloat16 or float";
      return std::nullopt;
  }
  const uint64_t limit = 1u << 16;
  std::optional<CoopLayout> layout = CoopLayout::Make(
      static_cast<CoopUse>(*use), static_cast<uint32_t>(std::min(*rows, limit)),
      static_cast<uint32_t>(std::min(*columns, limit)), bits, subgroup_size(), why);
  if (!layout) *why = name + ": " + *why;
  return layout;
}

}  // namespace xmx::interp
