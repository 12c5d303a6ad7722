#include "opt/spirv_tools_passes.hpp"

#include <algorithm>
#include <array>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "bridge/bridge.hpp"
#include "grammar/grammar.hpp"
#include "spirv-tools/optimizer.hpp"

namespace xmx::opt {
namespace {

using spv::Op;

Diagnostic Error(std::string message) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.message = std::move(message);
  return d;
}

// A declaration given a placeholder body for the optimizer's run.
struct PlaceholderBody {
  uint32_t function_id;
  uint32_t control;  // the function control it had
};

struct PlaceholderRecord {
  std::vector<PlaceholderBody> bodies;
  std::vector<bridge::SetAside> linkage;  // its Import decorations, taken out meanwhile
  uint32_t bound_before = 0;
  uint32_t bound_after = 0;
};

bool IsLinkageDecorationOf(const ir::Instruction& inst, const std::unordered_set<uint32_t>& ids) {
  return inst.opcode() == Op::OpDecorate && inst.num_operands() >= 2 &&
         inst.word(1) == static_cast<uint32_t>(spv::Decoration::LinkageAttributes) &&
         ids.count(inst.word(0)) != 0;
}

// Every declaration gets `OpLabel; OpUnreachable` and DontInline (which the installed inliner
// honours), and loses its Import linkage (a definition cannot be imported). The installed passes
// do no interprocedural reasoning beyond inlining, so a call keeps its meaning.
// `take_out(it)` removes the linkage decoration at `it` from the annotations and returns the
// iterator after it; by default the decoration is erased.
template <typename TakeOut>
PlaceholderRecord AddPlaceholderBodies(ir::Module& module, TakeOut&& take_out) {
  PlaceholderRecord record;
  record.bound_before = module.header().bound;
  std::unordered_set<uint32_t> ids;
  for (ir::Function& function : module.functions()) {
    if (!function.IsDeclaration()) continue;
    const uint32_t control = function.def.word(0);
    record.bodies.push_back({function.id(), control});
    ids.insert(function.id());
    function.def.SetWord(0, control | static_cast<uint32_t>(spv::FunctionControl::DontInline));
    ir::BasicBlock body;
    body.label = ir::Instruction(Op::OpLabel, 0, module.TakeNextId());
    body.instructions.emplace_back(Op::OpUnreachable);
    function.blocks.push_back(std::move(body));
  }
  size_t position = 0;
  for (auto it = module.annotations().begin(); it != module.annotations().end(); ++position) {
    if (IsLinkageDecorationOf(*it, ids)) {
      record.linkage.push_back({position, *it});
      it = take_out(it);
    } else {
      ++it;
    }
  }
  record.bound_after = module.header().bound;
  return record;
}

PlaceholderRecord AddPlaceholderBodies(ir::Module& module) {
  return AddPlaceholderBodies(module, [&module](ir::InstructionList::iterator it) {
    return module.annotations().erase(it);
  });
}

// The words of `module` as AddPlaceholderBodies would leave it, without copying the module: the
// placeholders are added to `module`, emitted and taken out again, so that `module` ends as it
// was. *record is what AddPlaceholderBodies would have returned.
std::vector<uint32_t> EncodeWithPlaceholderBodies(ir::Module& module, PlaceholderRecord* record) {
  // The linkage decorations AddPlaceholderBodies removes, kept in a list of their own meanwhile.
  ir::InstructionList removed;
  std::vector<ir::InstructionList::iterator> next_kept;  // where each removed one goes back
  const uint32_t bound = module.header().bound;
  *record = AddPlaceholderBodies(module, [&](ir::InstructionList::iterator it) {
    auto next = std::next(it);
    removed.splice(removed.end(), module.annotations(), it);
    next_kept.push_back(next);
    return next;
  });
  std::vector<uint32_t> words = module.ToWords();
  // Last removed first: the element a decoration went before may be one removed after it.
  while (!next_kept.empty()) {
    module.annotations().splice(next_kept.back(), removed, std::prev(removed.end()));
    next_kept.pop_back();
  }
  // The bodies were added in function order.
  auto body = record->bodies.begin();
  for (ir::Function& function : module.functions()) {
    if (body == record->bodies.end()) break;
    // (A placeholder's label is the only id at or past the old bound.)
    if (function.id() != body->function_id || function.blocks.size() != 1 ||
        function.blocks.front().id() < bound) {
      continue;
    }
    function.blocks.clear();
    function.def.SetWord(0, body->control);
    ++body;
  }
  module.header().bound = bound;
  return words;
}

// Renumbers every id >= `first` to id - `by`: the ids the optimizer made after the placeholders'
// labels (which are gone) take the numbers it would have given them without the placeholders,
// so that the output is spirv-opt's, id for id.
void ShiftIdsDown(ir::Module& module, uint32_t first, uint32_t by) {
  if (by == 0) return;
  // Asked for every operand of the module: a table instead of the grammar's kind entries.
  static const std::array<bool, grammar::kNumOperandKinds> is_id = [] {
    std::array<bool, grammar::kNumOperandKinds> table{};
    for (uint16_t kind = 0; kind < grammar::kNumOperandKinds; ++kind) {
      table[kind] = grammar::IsIdKind(static_cast<grammar::OperandKindId>(kind));
    }
    return table;
  }();
  auto shift = [first, by](uint32_t id) { return id >= first ? id - by : id; };
  module.ForEachInstruction([&shift](ir::Instruction& inst) {
    if (inst.has_result_type()) inst.set_result_type_id(shift(inst.result_type_id()));
    if (inst.has_result_id()) inst.set_result_id(shift(inst.result_id()));
    for (size_t i = 0; i < inst.num_operands(); ++i) {
      const ir::OperandView op = inst.operand(i);
      const auto kind = static_cast<uint16_t>(op.kind);
      if (kind < is_id.size() ? is_id[kind] : grammar::IsIdKind(op.kind)) {
        inst.SetWord(i, shift(op.word()));
      }
    }
  });
  if (module.header().bound >= first) module.header().bound -= by;
}

uint32_t LargestId(const ir::Module& module) {
  uint32_t largest = 0;
  module.ForEachInstruction([&largest](const ir::Instruction& inst) {
    if (inst.has_result_id()) largest = std::max(largest, inst.result_id());
  });
  return largest;
}

void RemovePlaceholderBodies(ir::Module& module, const PlaceholderRecord& record) {
  // The optimizer sets the bound to the largest id + 1 when it changed the module; it must then
  // be that of the module without the placeholders' labels.
  const bool tight_bound = module.header().bound == LargestId(module) + 1;
  std::unordered_map<uint32_t, uint32_t> control;
  for (const PlaceholderBody& body : record.bodies) control.emplace(body.function_id, body.control);
  std::unordered_set<uint32_t> remaining;
  std::list<ir::Function> declarations;
  for (auto it = module.functions().begin(); it != module.functions().end();) {
    auto found = control.find(it->id());
    if (found == control.end()) {
      ++it;
      continue;
    }
    it->blocks.clear();
    it->def.SetWord(0, found->second);
    remaining.insert(it->id());
    declarations.splice(declarations.end(), module.functions(), it++);
  }
  // Declarations come before every definition (SPIR-V 2.4), in the order they had.
  declarations.sort([&record](const ir::Function& a, const ir::Function& b) {
    auto index = [&record](uint32_t id) {
      return std::ranges::find(record.bodies, id, &PlaceholderBody::function_id) -
             record.bodies.begin();
    };
    return index(a.id()) < index(b.id());
  });
  module.functions().splice(module.functions().begin(), declarations);
  for (const bridge::SetAside& item : record.linkage) {
    if (!remaining.count(item.inst.word(0))) continue;  // the optimizer removed the function
    auto it = module.annotations().begin();
    for (size_t i = 0; i < item.position && it != module.annotations().end(); ++i) ++it;
    module.annotations().insert(it, item.inst);
  }
  ShiftIdsDown(module, record.bound_after, record.bound_after - record.bound_before);
  if (tight_bound) module.header().bound = LargestId(module) + 1;
}

// Decorations and execution modes of ids the optimizer removed (the bridge set them aside, so
// the optimizer could not remove them with their target).
void RemoveDanglingAnnotations(ir::Module& module) {
  std::unordered_set<uint32_t> defined;
  module.ForEachInstruction([&defined](const ir::Instruction& inst) {
    if (inst.has_result_id()) defined.insert(inst.result_id());
  });
  auto dangling = [&defined](const ir::Instruction& inst) {
    switch (inst.opcode()) {
      case Op::OpDecorate:
      case Op::OpDecorateId:
      case Op::OpDecorateString:
      case Op::OpMemberDecorate:
      case Op::OpMemberDecorateString:
      case Op::OpExecutionMode:
      case Op::OpExecutionModeId:
        return inst.num_operands() > 0 && !defined.count(inst.word(0));
      default:
        return false;
    }
  };
  module.annotations().remove_if(dangling);
  module.execution_modes().remove_if(dangling);
}

std::string Trimmed(std::string flag) {
  if (flag.rfind("--", 0) == 0) flag.erase(0, 2);
  return flag;
}

}  // namespace

bool IsInstalledPassFlag(const std::string& flag, std::string* error) {
  spvtools::Optimizer optimizer(SPV_ENV_UNIVERSAL_1_5);
  std::string said;
  optimizer.SetMessageConsumer(
      [&said](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
        if (said.empty()) said = message;
      });
  if (flag.rfind("--", 0) != 0 && flag != "-O" && flag != "-Os") {
    if (error) *error = "unknown flag '" + flag + "'";
    return false;
  }
  if (optimizer.RegisterPassFromFlag(flag)) return true;
  if (error) *error = said.empty() ? "unknown flag '" + flag + "'" : said;
  return false;
}

namespace {

std::vector<std::string> AskInstalledPassNames(const std::string& flag) {
  spvtools::Optimizer optimizer(SPV_ENV_UNIVERSAL_1_5);
  optimizer.SetMessageConsumer(
      [](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
  if (!optimizer.RegisterPassFromFlag(flag)) return {};
  std::vector<std::string> names;
  for (const char* name : optimizer.GetPassNames()) names.emplace_back(name);
  // A single pass's name may differ from its flag's spelling of the argument; keep the flag.
  if (names.size() == 1 && flag.rfind("--", 0) == 0) return {Trimmed(flag)};
  return names;
}

}  // namespace

const std::vector<std::string>& InstalledPassNames(const std::string& flag) {
  // Asked for every step of every pipeline: building an optimizer each time costs more than
  // some passes do on a small module. (An unordered_map's elements never move.)
  static std::mutex mutex;
  static std::unordered_map<std::string, std::vector<std::string>> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known.find(flag);
  if (it == known.end()) it = known.emplace(flag, AskInstalledPassNames(flag)).first;
  return it->second;
}

namespace {

// Whether `names` (without "--") are `flags`, in order.
bool SameFlags(std::span<const std::string> flags, const std::vector<std::string>& names) {
  return std::ranges::equal(flags, names, [](const std::string& flag, const std::string& name) {
    return flag.size() == name.size() + 2 && flag.rfind("--", 0) == 0 &&
           flag.compare(2, std::string::npos, name) == 0;
  });
}

// -O and -Os reach RunInstalledPasses as their passes one by one (the driver may skip some).
// When none was skipped, the recipe registers them directly: registering 44 passes from their
// flags costs about as much as the validation of a small module's words (bench/opt_bench).
// The optimizer's own list of the passes it registered must be the flags, else *optimizer is
// left empty for the caller to register the flags one by one.
bool RegisterAsRecipe(std::optional<spvtools::Optimizer>& optimizer,
                      std::span<const std::string> flags, spv_target_env target_env) {
  for (const char* recipe : {"-O", "-Os"}) {
    if (!SameFlags(flags, InstalledPassNames(recipe))) continue;
    optimizer.emplace(target_env);
    if (std::string_view(recipe) == "-O") {
      optimizer->RegisterPerformancePasses();
    } else {
      optimizer->RegisterSizePasses();
    }
    std::vector<std::string> registered;
    for (const char* name : optimizer->GetPassNames()) registered.emplace_back(name);
    if (SameFlags(flags, registered)) return true;
    optimizer.reset();
    return false;
  }
  return false;
}

}  // namespace

PassStatus RunInstalledPasses(ir::Module& module, bool extended, EncodedModule& encoded,
                              std::span<const std::string> flags, const std::string& what,
                              const InstalledRunOptions& options,
                              std::vector<Diagnostic>& diagnostics) {
  Diagnostic lift_error;
  std::optional<bridge::LiftedModule> lifted;
  if (extended) {
    lifted = bridge::Lift(module, &lift_error);
    if (!lifted) {
      diagnostics.push_back(Error(what +
                                  ": the module cannot be handed to the installed "
                                  "SPIRV-Tools: " +
                                  lift_error.message));
      return PassStatus::kFailed;
    }
  }
  // The optimizer reads words: a module with nothing to lift is encoded as it is, its
  // declarations given placeholder bodies on the way (and the caller's words of it serve when it
  // has none), without a copy of the module.
  PlaceholderRecord placeholders;
  std::vector<uint32_t> emitted;
  if (lifted) {
    placeholders = AddPlaceholderBodies(lifted->module);
    emitted = lifted->module.ToWords();
  } else if (std::ranges::any_of(module.functions(), &ir::Function::IsDeclaration)) {
    emitted = EncodeWithPlaceholderBodies(module, &placeholders);
  } else {
    placeholders.bound_before = placeholders.bound_after = module.header().bound;
    if (encoded.words.empty()) emitted = module.ToWords();
  }
  const std::span<const uint32_t> before = emitted.empty() ? encoded.words : emitted;

  std::optional<spvtools::Optimizer> optimizer;
  if (!RegisterAsRecipe(optimizer, flags, options.target_env)) {
    optimizer.emplace(options.target_env);
    for (const std::string& flag : flags) {
      if (!optimizer->RegisterPassFromFlag(flag)) {
        diagnostics.push_back(Error(flag + ": not a pass of the installed SPIRV-Tools"));
        return PassStatus::kFailed;
      }
    }
  }
  std::string complaint;
  optimizer->SetMessageConsumer([&complaint](spv_message_level_t level, const char*,
                                             const spv_position_t&, const char* message) {
    if (level <= SPV_MSG_ERROR && complaint.empty()) complaint = message;
  });
  if (options.time_report) optimizer->SetTimeReport(options.time_report);
  spvtools::OptimizerOptions run_options;
  run_options.set_run_validator(false);  // the driver validates with our validator
  run_options.set_preserve_bindings(options.preserve_bindings);
  run_options.set_preserve_spec_constants(options.preserve_spec_constants);
  if (options.max_id_bound) run_options.set_max_id_bound(*options.max_id_bound);
  std::vector<uint32_t> after;
  if (!optimizer->Run(before.data(), before.size(), &after, run_options)) {
    diagnostics.push_back(Error(what + " failed" + (complaint.empty() ? "" : ": " + complaint)));
    return PassStatus::kFailed;
  }
  if (std::ranges::equal(after, before)) return PassStatus::kUnchanged;

  Diagnostic error;
  std::optional<ir::Module> optimized = ir::Module::FromWords(after, &error);
  if (!optimized) {
    diagnostics.push_back(
        Error(what + " wrote a module that cannot be read back: " + error.message));
    return PassStatus::kFailed;
  }
  const bool is_after = !lifted && placeholders.bodies.empty();
  if (!is_after) RemovePlaceholderBodies(*optimized, placeholders);
  if (lifted) {
    if (!bridge::Lower(*optimized, lifted->record, &error)) {
      diagnostics.push_back(Error(what +
                                  ": the extended instructions cannot be restored after "
                                  "the installed SPIRV-Tools rewrote the module: " +
                                  error.message));
      return PassStatus::kFailed;
    }
    RemoveDanglingAnnotations(*optimized);
  }
  module = std::move(*optimized);
  // (`before` may have been these words: it is no longer read.)
  encoded.optimized_words = is_after ? std::move(after) : std::vector<uint32_t>{};
  return PassStatus::kChanged;
}

PassStatus RunInstalledPasses(ir::Module& module, EncodedModule& encoded,
                              std::span<const std::string> flags, const std::string& what,
                              const InstalledRunOptions& options,
                              std::vector<Diagnostic>& diagnostics) {
  return RunInstalledPasses(module, bridge::HasExtendedContent(module), encoded, flags, what,
                            options, diagnostics);
}

}  // namespace xmx::opt
