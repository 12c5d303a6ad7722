// xmx-val's pipeline: parse → the bridge's own checks → lift → SPIRV-Tools core validation →
// our rules. Diagnostics are mapped back to the original instructions and given their text.
#include "xmx/validator.hpp"

#include <algorithm>
#include <sstream>

#include "bridge/bridge.hpp"
#include "builtins/upgrade.hpp"
#include "common/rule_ids.hpp"
#include "spirv-tools/libspirv.hpp"
#include "text/disassembler.hpp"
#include "val/core_preconditions.hpp"
#include "val/rules.hpp"
#include "val/validate_parsed.hpp"
#include "val/validation_context.hpp"

namespace xmx::val {
namespace {

spv_validator_limit ToSpirvToolsLimit(ValidatorLimit limit) {
  switch (limit) {
    case ValidatorLimit::kMaxStructMembers:
      return spv_validator_limit_max_struct_members;
    case ValidatorLimit::kMaxStructDepth:
      return spv_validator_limit_max_struct_depth;
    case ValidatorLimit::kMaxLocalVariables:
      return spv_validator_limit_max_local_variables;
    case ValidatorLimit::kMaxGlobalVariables:
      return spv_validator_limit_max_global_variables;
    case ValidatorLimit::kMaxSwitchBranches:
      return spv_validator_limit_max_switch_branches;
    case ValidatorLimit::kMaxFunctionArgs:
      return spv_validator_limit_max_function_args;
    case ValidatorLimit::kMaxControlFlowNestingDepth:
      return spv_validator_limit_max_control_flow_nesting_depth;
    case ValidatorLimit::kMaxAccessChainIndexes:
      return spv_validator_limit_max_access_chain_indexes;
    case ValidatorLimit::kMaxIdBound:
      return spv_validator_limit_max_id_bound;
  }
  return spv_validator_limit_max_id_bound;  // unreachable: every enumerator is handled above
}

spvtools::ValidatorOptions ToSpirvToolsOptions(const ValidatorOptions& o) {
  spvtools::ValidatorOptions v;
  for (const auto& [limit, value] : o.limits) v.SetUniversalLimit(ToSpirvToolsLimit(limit), value);
  v.SetRelaxLogicalPointer(o.relax_logical_pointer);
  v.SetRelaxBlockLayout(o.relax_block_layout);
  v.SetUniformBufferStandardLayout(o.uniform_buffer_standard_layout);
  v.SetScalarBlockLayout(o.scalar_block_layout);
  v.SetWorkgroupScalarBlockLayout(o.workgroup_scalar_block_layout);
  v.SetSkipBlockLayout(o.skip_block_layout);
  v.SetRelaxStructStore(o.relax_struct_store);
  v.SetAllowLocalSizeId(o.allow_localsizeid);
  v.SetBeforeHlslLegalization(o.before_hlsl_legalization);
  return v;
}

Severity FromSpirvTools(spv_message_level_t level) {
  switch (level) {
    case SPV_MSG_WARNING:
      return Severity::kWarning;
    case SPV_MSG_INFO:
    case SPV_MSG_DEBUG:
      return Severity::kRemark;
    default:
      return Severity::kError;
  }
}

// Runs the installed validator on `words`. SPIRV-Tools reports a 1-based instruction number as
// its position; `original` maps 0-based instructions of `words` to those of the user's module.
// `handed_over` is `words` as a module (the caller has it parsed already).
void RunCoreValidation(const ir::Module& handed_over, std::span<const uint32_t> words,
                       const ValidatorOptions& options,
                       const std::vector<std::optional<size_t>>* original,
                       std::vector<Diagnostic>* out) {
  // The installed SPIRV-Tools crashes on some invalid modules: those get our errors instead.
  {
    std::vector<Diagnostic> unsafe = CheckCorePreconditions(handed_over);
    for (Diagnostic& d : unsafe) {
      if (original && d.instruction_index) {
        d.instruction_index = *d.instruction_index < original->size()
                                  ? (*original)[*d.instruction_index]
                                  : std::nullopt;
      }
      out->push_back(std::move(d));
    }
    if (!unsafe.empty()) return;
  }
  // SPIRV-Tools names ids in its messages by a name it derives for every id of the module
  // (FriendlyNameMapper) before it validates anything: about 40% of its time on a valid module.
  // A first run without those names gives the verdict; only a run that said something is
  // repeated with them, so that the messages are spirv-val's, word for word.
  spvtools::SpirvTools tools(static_cast<spv_target_env>(options.target_env.spirv_tools_value()));
  spvtools::ValidatorOptions spirv_tools_options = ToSpirvToolsOptions(options);
  bool said_something = false;
  tools.SetMessageConsumer([&said_something](spv_message_level_t, const char*,
                                             const spv_position_t&,
                                             const char*) { said_something = true; });
  spirv_tools_options.SetFriendlyNames(false);
  tools.Validate(words.data(), words.size(), spirv_tools_options);
  if (!said_something) return;

  tools.SetMessageConsumer([&](spv_message_level_t level, const char*,
                               const spv_position_t& position, const char* message) {
    Diagnostic d;
    d.severity = FromSpirvTools(level);
    d.rule = rules::kCore;
    std::string text = message;
    // SPIRV-Tools appends the offending instruction, disassembled from what it saw; ours is
    // added later from the original module.
    if (auto nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
    d.message = std::move(text);
    if (position.index > 0) {
      const size_t lifted_index = position.index - 1;
      if (!original) {
        d.instruction_index = lifted_index;
      } else if (lifted_index < original->size() && (*original)[lifted_index]) {
        d.instruction_index = *(*original)[lifted_index];
      }
    }
    out->push_back(std::move(d));
  });
  spirv_tools_options.SetFriendlyNames(true);
  tools.Validate(words.data(), words.size(), spirv_tools_options);
}

// Gives each diagnostic about one instruction that instruction's text, as spirv-val prints it.
void AttachInstructionText(std::span<const uint32_t> words, std::vector<Diagnostic>* diags) {
  bool needed = false;
  for (const Diagnostic& d : *diags) needed |= d.instruction_index.has_value();
  if (!needed) return;
  text::DisassembleOptions options;
  options.indent = false;
  options.header = false;
  std::string listing;
  Diagnostic ignored;
  text::Disassemble(words, options, &listing, &ignored);
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < listing.size();) {
    size_t end = listing.find('\n', start);
    if (end == std::string::npos) end = listing.size();
    lines.emplace_back(listing.data() + start, end - start);
    start = end + 1;
  }
  for (Diagnostic& d : *diags) {
    if (d.instruction_index && *d.instruction_index < lines.size()) {
      d.instruction_text = std::string(lines[*d.instruction_index]);
    }
  }
}

}  // namespace

ValidationResult Validate(std::span<const uint32_t> words, const ValidatorOptions& options) {
  Diagnostic error;
  std::optional<ir::Module> module = ir::Module::FromWords(words, &error);
  if (!module) {
    ValidationResult result;
    error.rule = rules::kBinaryStructure;
    result.diagnostics.push_back(std::move(error));
    result.valid = false;
    return result;
  }
  return ValidateParsed(std::move(*module), words, options);  // dropped after
}

namespace {

// Where our rules see the built-in calls upgraded: a copy of the module, the module itself left
// upgraded, or the module itself changed back afterwards.
enum class UpgradeIn { kCopy, kModuleDropped, kModuleRestored };

// ValidateParsed; `changeable` is null for kCopy, else `parsed` itself.
ValidationResult ValidateParsedModule(const ir::Module& parsed, ir::Module* changeable,
                                      UpgradeIn where, std::span<const uint32_t> words,
                                      const ValidatorOptions& options) {
  ValidationResult result;
  std::vector<Diagnostic>& diags = result.diagnostics;
  const ir::Module* module = &parsed;
  Diagnostic error;

  if (!bridge::HasExtendedContent(*module)) {
    // Nothing to lift: SPIRV-Tools sees exactly the user's module.
    RunCoreValidation(*module, words, options, nullptr, &diags);
  } else if (std::optional<bridge::LiftedModule> lifted = bridge::Lift(*module, &error); !lifted) {
    error.rule = rules::kBridgeLift;
    error.severity = Severity::kWarning;
    error.message += "; core validation by SPIRV-Tools was skipped";
    diags.push_back(std::move(error));
  } else {
    CheckWhatTheBridgeHides(*module, lifted->record, &diags);
    const std::vector<std::optional<size_t>> original = bridge::OriginalIndices(lifted->module);
    const std::vector<uint32_t> lifted_words = lifted->module.ToWords();
    RunCoreValidation(lifted->module, lifted_words, options, &original, &diags);
  }

  // Diagnostics from SPIRV-Tools carry only an instruction index; add the word offset and opcode.
  // (Done before the upgrade below, which may change the module; the upgrade's errors and our
  // rules' diagnostics carry both already.)
  if (!diags.empty()) {
    std::vector<const ir::Instruction*> by_index;
    module->ForEachInstruction(
        [&by_index](const ir::Instruction& inst) { by_index.push_back(&inst); });
    for (Diagnostic& d : diags) {
      if (!d.instruction_index || *d.instruction_index >= by_index.size()) continue;
      const ir::Instruction& inst = *by_index[*d.instruction_index];
      if (!d.word_offset) d.word_offset = inst.source_word_offset();
      if (!d.opcode) d.opcode = static_cast<uint32_t>(inst.opcode());
    }
  }

  // Built-in calls (issue 9): our rules see each call as the instruction it stands for, in an
  // upgraded copy; core validation above saw the calls as they are.
  std::optional<builtins::UpgradeResult> upgraded;
  builtins::UpgradeUndo undo;
  // Only a function declaration can be an imported built-in the upgrade replaces (an imported
  // variable such as __spirv_BuiltInGlobalInvocationId is not one); asking the built-in table
  // first would build it, a fixed cost as large as a small module's own rules.
  if (std::ranges::any_of(module->functions(), &ir::Function::IsDeclaration) &&
      builtins::HasBuiltinImports(*module)) {
    builtins::UpgradeOptions upgrade_options;
    upgrade_options.declare_requirements = false;
    switch (where) {
      case UpgradeIn::kCopy:
        upgraded = builtins::UpgradeBuiltinCalls(*module, upgrade_options);
        break;
      case UpgradeIn::kModuleDropped:
        upgraded = builtins::UpgradeBuiltinCalls(std::move(*changeable), upgrade_options);
        break;
      case UpgradeIn::kModuleRestored:
        upgraded = builtins::UpgradeBuiltinCallsInPlace(*changeable, upgrade_options, &undo);
        module = nullptr;  // the upgraded module, until it is restored
        break;
    }
    for (Diagnostic& d : upgraded->errors) diags.push_back(std::move(d));
  }
  {
    // (kModuleDropped moved the module into upgraded->module.)
    const ir::Module& checked = !upgraded                             ? *module
                                : where == UpgradeIn::kModuleRestored ? *changeable
                                                                      : upgraded->module;
    ValidationContext context(checked, options);
    if (upgraded) context.SetCallStandIns(upgraded->replacements);
    RunExtensionRules(context);
    for (Diagnostic& d : context.diagnostics()) diags.push_back(std::move(d));
  }
  if (upgraded && where == UpgradeIn::kModuleRestored) {
    builtins::RestoreBuiltinCalls(*changeable, undo);
  }

  AttachInstructionText(words, &diags);
  for (const Diagnostic& d : diags) result.valid &= d.severity != Severity::kError;
  return result;
}

}  // namespace

ValidationResult ValidateParsed(const ir::Module& parsed, std::span<const uint32_t> words,
                                const ValidatorOptions& options) {
  return ValidateParsedModule(parsed, nullptr, UpgradeIn::kCopy, words, options);
}

ValidationResult ValidateParsed(ir::Module&& parsed, std::span<const uint32_t> words,
                                const ValidatorOptions& options) {
  return ValidateParsedModule(parsed, &parsed, UpgradeIn::kModuleDropped, words, options);
}

ValidationResult ValidateParsedInPlace(ir::Module& parsed, std::span<const uint32_t> words,
                                       const ValidatorOptions& options) {
  return ValidateParsedModule(parsed, &parsed, UpgradeIn::kModuleRestored, words, options);
}

}  // namespace xmx::val
