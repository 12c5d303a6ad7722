#include "builtins/recognise.hpp"

#include "builtins/itanium_names.hpp"
#include "grammar/grammar.hpp"

namespace xmx::builtins {
namespace {

std::string TypeText(const ir::TypeTable& types, uint32_t id) {
  const ir::Type* t = types.GetType(id);
  if (!t) return "%" + std::to_string(id);
  switch (t->kind) {
    case ir::TypeKind::kVoid:
      return "void";
    case ir::TypeKind::kBool:
      return "bool";
    case ir::TypeKind::kInt:
      return "i" + std::to_string(t->width);
    case ir::TypeKind::kFloat:
      return "f" + std::to_string(t->width);
    case ir::TypeKind::kVector:
      return TypeText(types, t->element) + "x" + std::to_string(t->count);
    case ir::TypeKind::kPointer: {
      const grammar::Enumerant* e = grammar::FindEnumerant(grammar::OperandKindId::kStorageClass,
                                                           static_cast<uint32_t>(t->storage_class));
      return std::string("pointer ") + (e ? e->name : "?");
    }
    case ir::TypeKind::kImage:
      return "image";
    default:
      return "%" + std::to_string(id);
  }
}

bool Fits(const ir::TypeTable& types, uint32_t type_id, Shape shape, uint32_t result_type_id) {
  const ir::Type* t = types.GetType(type_id);
  if (!t) return false;
  switch (shape.kind) {
    case Shape::Kind::kVoid:
      return t->kind == ir::TypeKind::kVoid;
    case Shape::Kind::kPointer:
      return t->kind == ir::TypeKind::kPointer;
    case Shape::Kind::kImage:
      return t->kind == ir::TypeKind::kImage;
    case Shape::Kind::kSameAsResult:
      return type_id == result_type_id;
    default:
      break;
  }
  uint32_t count = 1;
  if (t->kind == ir::TypeKind::kVector) {
    count = t->count;
    t = types.GetType(t->element);
    if (!t) return false;
  }
  const bool is_int = t->kind == ir::TypeKind::kInt;
  const bool is_float = t->kind == ir::TypeKind::kFloat;
  if (shape.kind == Shape::Kind::kInt && !is_int) return false;
  if (shape.kind == Shape::Kind::kFloat && !is_float) return false;
  if (shape.kind == Shape::Kind::kNumber && !is_int && !is_float) return false;
  if (shape.bits != 0 && t->width != shape.bits) return false;
  if (shape.count != 0 && count != shape.count) return false;
  return true;
}

bool FitsSignature(const ir::TypeTable& types, const ir::Type& fn, const BuiltinEntry& entry) {
  if (fn.members.size() != entry.params.size()) return false;
  if (!Fits(types, fn.element, entry.result, fn.element)) return false;
  for (size_t i = 0; i < entry.params.size(); ++i) {
    if (!Fits(types, fn.members[i], entry.params[i], fn.element)) return false;
  }
  return true;
}

}  // namespace

std::string RecognisedImport::CallPrefix() const {
  std::string prefix = "call of '" + name + "'";
  if (entry && entry->target == Target::kInstruction) {
    const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(opcode));
    prefix += std::string(" (as ") + (desc ? desc->name : "?") + ")";
  }
  return prefix + ": ";
}

std::optional<std::string> ImportedName(const ir::ModuleInfo& info, uint32_t function_id) {
  const ir::DecorationInfo* d =
      info.FindDecoration(function_id, spv::Decoration::LinkageAttributes);
  if (d == nullptr || d->operands.empty()) return std::nullopt;
  std::string name;
  size_t i = 0;
  for (bool end = false; i < d->operands.size() && !end; ++i) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((d->operands[i] >> (8 * b)) & 0xFF);
      if (c == '\0') {
        end = true;
        break;
      }
      name.push_back(c);
    }
  }
  if (i >= d->operands.size() ||
      d->operands[i] != static_cast<uint32_t>(spv::LinkageType::Import)) {
    return std::nullopt;
  }
  return name;
}

std::map<uint32_t, RecognisedImport> RecogniseImports(const ir::Module& module,
                                                      const ir::ModuleInfo& info,
                                                      const ir::TypeTable& types) {
  std::map<uint32_t, RecognisedImport> out;
  for (const ir::Function& function : module.functions()) {
    if (!function.IsDeclaration() || function.def.num_operands() < 2) continue;
    std::optional<std::string> linkage = ImportedName(info, function.id());
    if (!linkage) continue;
    const ParsedName parsed = ParseLinkageName(*linkage);
    std::vector<NameMatch> candidates = FindEntries(parsed.name.base);
    if (candidates.empty()) continue;

    RecognisedImport import;
    import.function_id = function.id();
    import.linkage_name = *linkage;
    import.name = std::string(parsed.name.base);
    const ir::Type* fn = types.GetType(function.function_type_id());
    if (!fn || fn->kind != ir::TypeKind::kFunction) {
      import.mismatch = "its type is not an OpTypeFunction";
    } else {
      for (const NameMatch& candidate : candidates) {
        if (!FitsSignature(types, *fn, *candidate.entry)) continue;
        const BuiltinEntry& entry = *candidate.entry;
        import.opcode = entry.opcode;
        if (entry.unsigned_opcode) {
          // OpenCL C has char and uchar; SPIR-V only i8: the mangled type says which min/max.
          if (!parsed.params_known || parsed.name.params.empty()) {
            import.mismatch =
                "the name does not say whether the data is signed (an unmangled or undecodable "
                "name; declare it overloadable)";
            break;
          }
          const MangledType& data = parsed.name.params[0];
          if (data.IsUnsignedInteger()) {
            import.opcode = *entry.unsigned_opcode;
          } else if (!data.IsSignedInteger()) {
            import.mismatch = "its mangled parameter is not an integer type";
            break;
          }
        }
        import.entry = &entry;
        import.fields = candidate.fields;
        break;
      }
      if (!import.entry && import.mismatch.empty()) {
        std::string expected;
        for (const NameMatch& candidate : candidates) {
          if (expected.find(candidate.entry->signature) != std::string::npos) continue;
          expected += (expected.empty() ? "" : " or ") + candidate.entry->signature;
        }
        import.mismatch = "declared as " + FunctionTypeText(types, function.function_type_id()) +
                          ", which matches no form of the built-in: " + expected;
      }
    }
    out.emplace(function.id(), std::move(import));
  }
  return out;
}

std::string FunctionTypeText(const ir::TypeTable& types, uint32_t function_type_id) {
  const ir::Type* fn = types.GetType(function_type_id);
  if (!fn || fn->kind != ir::TypeKind::kFunction) return TypeText(types, function_type_id);
  std::string text = TypeText(types, fn->element) + " (";
  for (size_t i = 0; i < fn->members.size(); ++i) {
    text += (i ? ", " : "") + TypeText(types, fn->members[i]);
  }
  return text + ")";
}

}  // namespace xmx::builtins
