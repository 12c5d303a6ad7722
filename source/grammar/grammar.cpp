#include "grammar/grammar.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

namespace xmx::grammar {
namespace {
#include "grammar/grammar_tables.inc"

template <typename T>
using NameIndex = std::unordered_map<std::string_view, const T*>;

// Name lookups are for the assembler and the tools; they are built once, on first use.
const NameIndex<Instruction>& InstructionsByName() {
  static const NameIndex<Instruction> index = [] {
    NameIndex<Instruction> m;
    for (const Instruction& inst : kInstructions) m.emplace(inst.name, &inst);
    return m;
  }();
  return index;
}

const NameIndex<OperandKind>& KindsByName() {
  static const NameIndex<OperandKind> index = [] {
    NameIndex<OperandKind> m;
    for (const OperandKind& kind : kOperandKinds) m.emplace(kind.name, &kind);
    return m;
  }();
  return index;
}

const std::vector<NameIndex<Enumerant>>& EnumerantsByName() {
  static const std::vector<NameIndex<Enumerant>> index = [] {
    std::vector<NameIndex<Enumerant>> v(kNumOperandKinds);
    for (const OperandKind& kind : kOperandKinds) {
      for (const Enumerant& e : kind.enumerants)
        v[static_cast<size_t>(kind.id)].emplace(e.name, &e);
    }
    return v;
  }();
  return index;
}

// Dense opcode index: opcodes are below 2^16 in every grammar we merge.
const std::vector<const Instruction*>& InstructionsByOpcode() {
  static const std::vector<const Instruction*> index = [] {
    uint32_t max_opcode = 0;
    for (const Instruction& inst : kInstructions) max_opcode = std::max(max_opcode, inst.opcode);
    std::vector<const Instruction*> v(max_opcode + 1, nullptr);
    for (const Instruction& inst : kInstructions) {
      if (!v[inst.opcode]) v[inst.opcode] = &inst;
    }
    return v;
  }();
  return index;
}

}  // namespace

const OperandKind& GetOperandKind(OperandKindId id) {
  return kOperandKinds[static_cast<size_t>(id)];
}

const OperandKind* FindOperandKind(std::string_view name) {
  const auto& m = KindsByName();
  auto it = m.find(name);
  return it == m.end() ? nullptr : it->second;
}

const Instruction* FindInstruction(uint32_t opcode) {
  const auto& v = InstructionsByOpcode();
  return opcode < v.size() ? v[opcode] : nullptr;
}

const Instruction* FindInstruction(std::string_view name) {
  const auto& m = InstructionsByName();
  auto it = m.find(name);
  return it == m.end() ? nullptr : it->second;
}

std::span<const Instruction> AllInstructions() { return kInstructions; }

const Enumerant* FindEnumerant(OperandKindId kind, uint32_t value) {
  std::span<const Enumerant> es = GetOperandKind(kind).enumerants;
  auto it = std::lower_bound(es.begin(), es.end(), value,
                             [](const Enumerant& e, uint32_t v) { return e.value < v; });
  return (it != es.end() && it->value == value) ? &*it : nullptr;
}

const Enumerant* FindEnumerant(OperandKindId kind, std::string_view name) {
  const auto& m = EnumerantsByName()[static_cast<size_t>(kind)];
  auto it = m.find(name);
  return it == m.end() ? nullptr : it->second;
}

const ExtInstSet* FindExtInstSet(std::string_view import_name) {
  for (const ExtInstSet& set : kExtInstSets) {
    if (set.prefix_match ? import_name.starts_with(set.import_name)
                         : import_name == set.import_name) {
      return &set;
    }
  }
  return nullptr;
}

ExtInstSetKind ClassifyExtInstSet(std::string_view import_name, const ExtInstSet** set) {
  *set = FindExtInstSet(import_name);
  if (*set) return ExtInstSetKind::kKnown;
  if (import_name.starts_with("NonSemantic.")) return ExtInstSetKind::kNonSemanticUnknown;
  return ExtInstSetKind::kNone;
}

const ExtInstruction* FindExtInstruction(const ExtInstSet& set, uint32_t opcode) {
  auto it = std::lower_bound(set.instructions.begin(), set.instructions.end(), opcode,
                             [](const ExtInstruction& e, uint32_t v) { return e.opcode < v; });
  return (it != set.instructions.end() && it->opcode == opcode) ? &*it : nullptr;
}

const ExtInstruction* FindExtInstruction(const ExtInstSet& set, std::string_view name) {
  for (const ExtInstruction& e : set.instructions) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

const Generator* FindGenerator(uint32_t id) {
  for (const Generator& g : kGenerators) {
    if (g.id == id) return &g;
  }
  return nullptr;
}

const ExtensionName* FindExtension(std::string_view name) {
  const auto* it =
      std::lower_bound(std::begin(kExtensionNames), std::end(kExtensionNames), name,
                       [](const ExtensionName& e, std::string_view n) { return e.name < n; });
  return (it != std::end(kExtensionNames) && it->name == name) ? &*it : nullptr;
}

const OpcodeClassInfo& GetOpcodeClass(OpcodeClass id) {
  return kOpcodeClasses[static_cast<size_t>(id)];
}

OpcodeClass ClassOf(uint32_t opcode) {
  const Instruction* inst = FindInstruction(opcode);
  return inst ? inst->opcode_class : OpcodeClass::kNone;
}

const Instruction* FindInstruction(OpcodeClass id) {
  if (id == OpcodeClass::kNone) return nullptr;
  return FindInstruction(GetOpcodeClass(id).opcode);
}

std::span<const OpcodeClassInfo> ClassesOf(OpcodeFamily family) {
  const OpcodeClassInfo* begin = std::find_if(
      std::begin(kOpcodeClasses), std::end(kOpcodeClasses), [&](const OpcodeClassInfo& c) {
        return c.family == family && family != OpcodeFamily::kNone;
      });
  const OpcodeClassInfo* end =
      std::find_if(begin, std::end(kOpcodeClasses),
                   [&](const OpcodeClassInfo& c) { return c.family != family; });
  return {begin, end};
}

std::optional<uint32_t> OperandIndex(const Instruction& inst, OperandRole role) {
  if (role == OperandRole::kNone) return std::nullopt;
  uint32_t index = 0;
  for (const Operand& operand : inst.operands) {
    if (operand.kind == OperandKindId::kIdResultType || operand.kind == OperandKindId::kIdResult) {
      continue;
    }
    if (operand.role == role) return index;
    ++index;
  }
  return std::nullopt;
}

std::string_view OperandName(const Operand& operand) {
  std::string_view name = operand.name;
  if (name.size() >= 2 && name.front() == '\'' && name.back() == '\'') {
    name = name.substr(1, name.size() - 2);
  }
  return name;
}

CoreGrammarVersion GetCoreGrammarVersion() { return kCoreVersion; }

}  // namespace xmx::grammar
