// The merged SPIR-V grammar: the core grammar of the installed SPIRV-Headers plus the extension
// grammars in grammar/*.json. The tables behind this interface are generated at build time by
// utils/generate_grammar.py; nothing here is written by hand per opcode.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "grammar/opcode_facts.hpp"
#include "xmx/operand_kind_ids.hpp"

namespace xmx::grammar {

// Where a grammar entry comes from. `kCore` entries are known to the installed SPIRV-Tools;
// `kExtended` entries are known only to us (the bridge lifts them before SPIRV-Tools sees them).
enum class Origin : uint8_t { kCore, kExtended };

enum class Quantifier : uint8_t { kOne, kOptional, kVariadic };

enum class OperandCategory : uint8_t { kId, kLiteral, kComposite, kValueEnum, kBitEnum };

// A SPIR-V version as encoded in the module header: 0x00MMmm00.
using VersionWord = uint32_t;
inline constexpr VersionWord kNoVersion = 0xFFFFFFFFu;  // "version": "None" (extension-only)
inline constexpr VersionWord kAnyVersion = 0;

struct OperandKind;

struct Operand {
  OperandKindId kind;
  Quantifier quantifier;
  const char* name;  // as in the grammar, quotes included (may be empty)
  // An operand one of our files appends to an instruction from elsewhere (e.g. OpTypeFloat's
  // FPEncoding) is `kExtended` while the instruction stays `kCore`; otherwise the entry's origin.
  Origin origin;
  // For the operands of our instructions, what the operand is (from its name); else kNone.
  OperandRole role;
};

struct Enumerant {
  const char* name;
  uint32_t value;
  std::span<const Operand> parameters;
  std::span<const char* const> capabilities;
  std::span<const char* const> extensions;
  VersionWord version;       // first core version, kNoVersion if only via extension
  VersionWord last_version;  // last core version, 0xFFFFFFFF = none
  Origin origin;
  bool provisional;
};

struct OperandKind {
  OperandKindId id;
  const char* name;
  OperandCategory category;
  // Sorted by value; entries with equal values keep grammar order (the first is the preferred
  // spelling, as SPIRV-Tools prints it).
  std::span<const Enumerant> enumerants;
  std::span<const OperandKindId> bases;  // kComposite only
  Origin origin;
};

struct Instruction {
  const char* name;  // "OpFoo"
  uint32_t opcode;
  bool has_result_type;
  bool has_result;
  std::span<const Operand> operands;  // includes IdResultType / IdResult when present
  std::span<const char* const> capabilities;
  std::span<const char* const> extensions;
  VersionWord version;
  VersionWord last_version;
  Origin origin;
  bool provisional;
  OpcodeClass opcode_class;  // from our grammar's "xmx_class" tag; kNone for the others
};

// An opcode class: the instruction it names and its family ("block2d") and member
// ("load_transform") as the grammar tag spells them.
struct OpcodeClassInfo {
  OpcodeClass id;
  OpcodeFamily family;
  const char* family_name;
  const char* member_name;
  uint32_t opcode;
};

struct ExtInstruction {
  const char* name;
  uint32_t opcode;
  std::span<const Operand> operands;
  std::span<const char* const> capabilities;
};

// Identifies an extended instruction set by the name used in OpExtInstImport.
enum class ExtInstSetKind : uint8_t {
  kNone,                // not a known set
  kNonSemanticUnknown,  // NonSemantic.* that we have no grammar for: operands are ids
  kKnown,
};

struct ExtInstSet {
  const char* import_name;  // "OpenCL.std", or a prefix for versioned sets
  bool prefix_match;        // true if any import name starting with import_name matches
  bool non_semantic;
  std::span<const ExtInstruction> instructions;  // sorted by opcode
};

// An extension string named by some grammar entry, with the origin of the entries naming it.
struct ExtensionName {
  const char* name;
  Origin origin;
};

struct Generator {
  uint32_t id;
  const char* vendor;
  const char* tool;  // may be empty
};

// --- Lookups -----------------------------------------------------------------------------------
// All lookups are O(1) or O(log n) over static tables, and return nullptr when nothing matches.

const OperandKind& GetOperandKind(OperandKindId id);
const OperandKind* FindOperandKind(std::string_view name);

// Instruction by opcode: the first grammar entry with that opcode.
const Instruction* FindInstruction(uint32_t opcode);
// Instruction by name, including alias spellings that share an opcode.
const Instruction* FindInstruction(std::string_view name);
std::span<const Instruction> AllInstructions();

// The preferred enumerant of `kind` with exactly `value` (value enums, or a single bit / zero of
// a bit enum).
const Enumerant* FindEnumerant(OperandKindId kind, uint32_t value);
const Enumerant* FindEnumerant(OperandKindId kind, std::string_view name);

const ExtInstSet* FindExtInstSet(std::string_view import_name);
// The result for an import name: known set, unknown non-semantic set, or unknown.
ExtInstSetKind ClassifyExtInstSet(std::string_view import_name, const ExtInstSet** set);
const ExtInstruction* FindExtInstruction(const ExtInstSet& set, uint32_t opcode);
const ExtInstruction* FindExtInstruction(const ExtInstSet& set, std::string_view name);

const Generator* FindGenerator(uint32_t id);

// --- Facts about our instructions --------------------------------------------------------------

const OpcodeClassInfo& GetOpcodeClass(OpcodeClass id);
// The class of `opcode` (kNone for an instruction without one, or an unknown opcode).
OpcodeClass ClassOf(uint32_t opcode);
inline OpcodeFamily FamilyOf(uint32_t opcode) { return GetOpcodeClass(ClassOf(opcode)).family; }
// The instruction a class names (never nullptr for a class other than kNone).
const Instruction* FindInstruction(OpcodeClass id);
// Every class of a family, in grammar order.
std::span<const OpcodeClassInfo> ClassesOf(OpcodeFamily family);

// Where the operand with `role` sits among the instruction's operands after Result Type and
// Result (the index ir::Instruction::word takes), or nullopt when it has no such operand. The
// generator guarantees the position is fixed (no variadic operand or enumerant parameters before
// it); an optional operand is there only when the instruction has that many operands.
std::optional<uint32_t> OperandIndex(const Instruction& inst, OperandRole role);
// The operand's name without the grammar's quotes: "Src Base Pointer".
std::string_view OperandName(const Operand& operand);

// The origin of an extension string: `kCore` if the installed SPIRV-Tools knows it, `kExtended`
// if only our grammar does; nullptr for a string no grammar entry names.
const ExtensionName* FindExtension(std::string_view name);

// Version of the core grammar the tables were generated from (e.g. 1.6 revision 1).
struct CoreGrammarVersion {
  uint32_t major, minor, revision;
};
CoreGrammarVersion GetCoreGrammarVersion();

inline bool IsIdKind(OperandKindId id) {
  return GetOperandKind(id).category == OperandCategory::kId;
}

}  // namespace xmx::grammar
