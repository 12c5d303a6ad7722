// Declaration rules for what only our grammar knows (SPIRV-Tools checks the core ones, but never
// sees ours): every extended instruction, capability and enumerant needs one of its
// capabilities and one of its extension strings declared. Provisional operand bits thus need
// their draft extension string (e.g. the float8 bits SPV_INTEL_..._float8).
#include <array>
#include <set>
#include <string>

#include "common/format.hpp"
#include "common/rule_ids.hpp"
#include "grammar/grammar.hpp"
#include "val/rules.hpp"

namespace xmx::val {
namespace {

using grammar::Origin;

class DeclarationChecker {
 public:
  explicit DeclarationChecker(ValidationContext& context) : context_(context) {
    // Declared capabilities, with those they implicitly declare.
    std::vector<uint32_t> work;
    for (const ir::Instruction& inst : context.module().capabilities())
      work.push_back(inst.word(0));
    while (!work.empty()) {
      const uint32_t cap = work.back();
      work.pop_back();
      if (!capabilities_.insert(cap).second) continue;
      const grammar::Enumerant* e =
          grammar::FindEnumerant(grammar::OperandKindId::kCapability, cap);
      if (!e) continue;
      for (const char* implied : e->capabilities) {
        if (const auto* i = grammar::FindEnumerant(grammar::OperandKindId::kCapability, implied)) {
          work.push_back(i->value);
        }
      }
    }
    for (const ir::Instruction& inst : context.module().extensions()) {
      extensions_.insert(inst.StringOperand(0));
    }
  }

  // `entry` is the grammar's entry (instruction or enumerant) whose requirements these are;
  // what() names it for the message, e.g. "OpSubgroup2DBlockLoadINTEL".
  template <typename What>
  void Check(const ir::Instruction& inst, const void* entry, What&& what,
             std::span<const char* const> capabilities, std::span<const char* const> extensions,
             bool check_capabilities, bool provisional) {
    // Whether they are met depends only on the module's declarations: a kernel uses the same
    // few extended instructions many times, and each is looked up once.
    const std::pair<const void*, bool> key{entry, check_capabilities};
    if (met_.count(key)) return;
    const bool capabilities_met =
        !check_capabilities || capabilities.empty() || AnyCapability(capabilities);
    const bool extensions_met = extensions.empty() || AnyExtension(extensions);
    if (capabilities_met && extensions_met) {
      met_.insert(key);
      return;
    }
    if (!capabilities_met) {
      context_.Error(inst, rules::kDeclCapability,
                     what() + " requires one of these capabilities: " + Join(capabilities));
    }
    if (!extensions_met) {
      // DECISIONS 17: the drafts say a module using their bits "should" declare the draft's
      // extension; the SPIRV-LLVM-Translator refuses to write one that does not and upstream
      // spirv-val rejects it, so it is an error, under its own rule id.
      if (provisional) {
        context_.Error(inst, rules::kDeclExtensionProvisional,
                       what() + " is provisional and requires one of these draft extensions: " +
                           Join(extensions) + " (DECISIONS 17)");
      } else {
        context_.Error(inst, rules::kDeclExtension,
                       what() + " requires one of these extensions: " + Join(extensions));
      }
    }
  }

 private:
  bool AnyCapability(std::span<const char* const> names) const {
    for (const char* n : names) {
      const grammar::Enumerant* e = grammar::FindEnumerant(grammar::OperandKindId::kCapability, n);
      if (e && capabilities_.count(e->value)) return true;
    }
    return false;
  }
  bool AnyExtension(std::span<const char* const> names) const {
    for (const char* n : names) {
      if (extensions_.count(n)) return true;
    }
    return false;
  }

  ValidationContext& context_;
  std::set<uint32_t> capabilities_;
  std::set<std::string> extensions_;
  std::set<std::pair<const void*, bool>> met_;  // (grammar entry, capabilities checked)
};

// Whether an operand kind has an extended enumerant at all: most operands (ids, literals, and
// enums of the core grammar only) then need no lookup, and this rule walks every instruction.
bool MayNameExtendedEnumerant(grammar::OperandKindId id) {
  static const std::array<bool, grammar::kNumOperandKinds> may = [] {
    std::array<bool, grammar::kNumOperandKinds> table{};
    for (uint16_t i = 0; i < grammar::kNumOperandKinds; ++i) {
      const grammar::OperandKind& kind = grammar::GetOperandKind(grammar::OperandKindId(i));
      for (const grammar::Enumerant& e : kind.enumerants) {
        table[i] = table[i] || e.origin == Origin::kExtended;
      }
    }
    return table;
  }();
  const auto index = static_cast<size_t>(id);
  return index >= may.size() || may[index];
}

// The extended enumerants an operand names: the value, or each set bit of a mask.
template <typename Visit>
void ForEachExtendedEnumerant(const ir::Instruction& inst, Visit&& visit) {
  for (size_t i = 0; i < inst.num_operands(); ++i) {
    const ir::OperandView op = inst.operand(i);
    if (!MayNameExtendedEnumerant(op.kind)) continue;
    const grammar::OperandKind& kind = grammar::GetOperandKind(op.kind);
    auto maybe_visit = [&](uint32_t value) {
      const grammar::Enumerant* e = grammar::FindEnumerant(op.kind, value);
      if (e && e->origin == Origin::kExtended) visit(kind, *e);
    };
    if (kind.category == grammar::OperandCategory::kValueEnum) {
      maybe_visit(op.word());
    } else if (kind.category == grammar::OperandCategory::kBitEnum) {
      for (uint32_t rest = op.word(); rest; rest &= rest - 1) maybe_visit(rest & (~rest + 1));
    }
  }
}

}  // namespace

void ValidateDeclarations(ValidationContext& context) {
  DeclarationChecker checker(context);
  context.module().ForEachInstruction([&](const ir::Instruction& inst) {
    const grammar::Instruction* desc =
        grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
    if (desc && desc->origin == Origin::kExtended) {
      checker.Check(
          inst, desc, [desc] { return std::string(desc->name); }, desc->capabilities,
          desc->extensions, true, desc->provisional);
    }
    ForEachExtendedEnumerant(
        inst, [&](const grammar::OperandKind& kind, const grammar::Enumerant& e) {
          // A declared capability needs its extension, not itself; other enumerants need both.
          const bool is_capability = inst.opcode() == spv::Op::OpCapability;
          checker.Check(
              inst, &e, [&kind, &e] { return std::string(kind.name) + " " + e.name; },
              e.capabilities, e.extensions, !is_capability, e.provisional);
        });
  });
}

}  // namespace xmx::val
