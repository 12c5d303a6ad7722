#include "builtins/upgrade.hpp"

#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "builtins/itanium_names.hpp"
#include "builtins/recognise.hpp"
#include "common/rule_ids.hpp"
#include "grammar/grammar.hpp"
#include "ir/module_info.hpp"
#include "ir/type_table.hpp"

namespace xmx::builtins {
namespace {

Diagnostic Error(const ir::Instruction& inst, std::string rule, std::string message) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.rule = std::move(rule);
  d.message = std::move(message);
  if (inst.source_index() != ir::Instruction::kNotFromBinary) {
    d.instruction_index = inst.source_index();
    d.word_offset = inst.source_word_offset();
  }
  d.opcode = static_cast<uint32_t>(inst.opcode());
  return d;
}

// 32-bit integer constants, shared with what the module already has, created on demand.
class ConstantPool {
 public:
  explicit ConstantPool(ir::Module& module) : module_(module) {
    for (const ir::Instruction& inst : module.globals()) {
      if (inst.opcode() == spv::Op::OpTypeInt && inst.num_operands() == 2 && inst.word(0) == 32 &&
          inst.word(1) == 0 && uint_type_ == 0) {
        uint_type_ = inst.result_id();
      }
    }
    if (uint_type_ == 0) return;
    for (const ir::Instruction& inst : module.globals()) {
      if (inst.opcode() == spv::Op::OpConstant && inst.result_type_id() == uint_type_ &&
          inst.num_operands() == 1) {
        by_value_.emplace(inst.word(0), inst.result_id());
      }
    }
  }

  // The constant's id, or 0 when the module's id bound leaves no id for it.
  uint32_t Get(uint32_t value) {
    if (auto it = by_value_.find(value); it != by_value_.end()) return it->second;
    if (module_.header().bound >= UINT32_MAX - 1) return 0;
    if (uint_type_ == 0) {
      uint_type_ = module_.TakeNextId();
      ir::Instruction type(spv::Op::OpTypeInt, 0, uint_type_);
      type.AddOperand(grammar::OperandKindId::kLiteralInteger, {32});
      type.AddOperand(grammar::OperandKindId::kLiteralInteger, {0});
      module_.globals().push_back(std::move(type));
    }
    if (module_.header().bound >= UINT32_MAX - 1) return 0;
    const uint32_t id = module_.TakeNextId();
    ir::Instruction constant(spv::Op::OpConstant, uint_type_, id);
    constant.AddOperand(grammar::OperandKindId::kLiteralContextDependentNumber, {value});
    module_.globals().push_back(std::move(constant));
    by_value_.emplace(value, id);
    return id;
  }

 private:
  ir::Module& module_;
  uint32_t uint_type_ = 0;
  std::map<uint32_t, uint32_t> by_value_;
};

// The grammar kind of operand `index` (after result type and id) of `opcode`.
grammar::OperandKindId OperandKind(spv::Op opcode, size_t index) {
  const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(opcode));
  if (desc) {
    const size_t skip = (desc->has_result_type ? 1 : 0) + (desc->has_result ? 1 : 0);
    if (skip + index < desc->operands.size()) return desc->operands[skip + index].kind;
  }
  return grammar::OperandKindId::kIdRef;
}

// Removes the elements of `list` that `pred` selects: erased, or with `taken` moved to its
// elements, each with the element that followed it, for PutBack.
template <typename T, typename Pred>
void TakeOutIf(std::list<T>& list, Pred&& pred, UpgradeUndo::TakenOut<T>* taken) {
  for (auto it = list.begin(); it != list.end();) {
    if (!pred(std::as_const(*it))) {
      ++it;
      continue;
    }
    const auto next = std::next(it);
    if (taken) {
      taken->elements.splice(taken->elements.end(), list, it);
      taken->before.push_back(next);
    } else {
      list.erase(it);
    }
    it = next;
  }
}

// Last taken out first: the element one went before may be one taken out after it.
template <typename T>
void PutBack(std::list<T>& list, UpgradeUndo::TakenOut<T>& taken) {
  while (!taken.before.empty()) {
    list.splice(taken.before.back(), taken.elements, std::prev(taken.elements.end()));
    taken.before.pop_back();
  }
}

// Erases the elements of `list` past its first `count`.
template <typename T>
void KeepFirst(std::list<T>& list, size_t count) {
  while (list.size() > count) list.pop_back();
}

class Upgrader {
 public:
  // Reads `original`; the copy the calls are replaced in is made by the caller (Run's module).
  Upgrader(const ir::Module& original, const UpgradeOptions& options)
      : info_(original),
        types_(original),
        options_(options),
        imports_(RecogniseImports(original, info_, types_)) {}

  // `module` is what the calls are replaced in: a copy of the module the constructor read, or
  // that module itself (its instructions stay where they are when it is moved, so what info_ and
  // types_ point to stays valid; the upgrade only replaces calls and appends constants).
  UpgradeResult Run(ir::Module module) {
    result_.module = std::move(module);
    return Run();
  }

  // The upgrade in `module` itself (the module the constructor read), each change recorded in
  // *undo; result.module is left empty.
  UpgradeResult RunInPlace(ir::Module& module, UpgradeUndo* undo) {
    module_ = &module;
    undo_ = undo;
    *undo = UpgradeUndo{};
    undo->bound = module.header().bound;
    undo->globals = module.globals().size();
    undo->capabilities = module.capabilities().size();
    undo->extensions = module.extensions().size();
    return Run();
  }

 private:
  UpgradeResult Run() {
    ReportSignatures();
    ConstantPool pool(*module_);
    std::map<uint32_t, int> calls_left;  // import -> calls not replaced
    std::set<spv::Op> used;
    for (ir::Function& function : module_->functions()) {
      for (ir::BasicBlock& block : function.blocks) {
        for (ir::Instruction& inst : block.instructions) {
          if (inst.opcode() != spv::Op::OpFunctionCall || inst.num_operands() < 1) continue;
          auto it = imports_.find(inst.word(0));
          if (it == imports_.end()) continue;
          const RecognisedImport& import = it->second;
          if (!import.entry || import.entry->target != Target::kInstruction ||
              !Replace(inst, import, pool)) {
            ++calls_left[import.function_id];
            continue;
          }
          used.insert(import.opcode);
        }
      }
    }
    RemoveUncalledDeclarations(calls_left);
    if (options_.declare_requirements) DeclareRequirements(used);
    return std::move(result_);
  }

  void ReportSignatures() {
    for (const auto& [id, import] : imports_) {
      if (import.entry) continue;
      // The split matrix built-ins' signatures are section D's table: the split-mad rules.
      if (FindEntries(import.name).front().entry->target == Target::kSplitMatrixMad) continue;
      const ir::Function* function = FindFunction(id);
      if (!function) continue;
      result_.errors.push_back(Error(function->def, rules::kBuiltinSignature,
                                     "imported built-in '" + import.name + "' (\"" +
                                         import.linkage_name + "\") is " + import.mismatch));
    }
  }

  const ir::Function* FindFunction(uint32_t id) const {
    for (const ir::Function& f : module_->functions()) {
      if (f.id() == id) return &f;
    }
    return nullptr;
  }

  bool Replace(ir::Instruction& call, const RecognisedImport& import, ConstantPool& pool) {
    const BuiltinEntry& entry = *import.entry;
    const size_t arguments = call.num_operands() - 1;
    if (arguments != entry.params.size()) return false;  // a core error; left as it is
    const grammar::Instruction* desc =
        grammar::FindInstruction(static_cast<uint32_t>(import.opcode));
    if (!desc) return false;
    ir::Instruction inst(import.opcode, desc->has_result_type ? call.result_type_id() : 0,
                         desc->has_result ? call.result_id() : 0);
    bool out_of_ids = false;
    auto add_constant = [&](uint32_t value) {
      const uint32_t id = pool.Get(value);
      out_of_ids |= id == 0;
      inst.AddIdOperand(id);
    };
    for (size_t i = 0; i < entry.operands.size(); ++i) {
      const OperandSource& source = entry.operands[i];
      switch (source.kind) {
        case OperandSource::Kind::kArgument:
          inst.AddIdOperand(call.word(1 + source.value));
          break;
        case OperandSource::Kind::kArgumentLiteral: {
          const uint32_t argument = call.word(1 + source.value);
          std::optional<uint32_t> value = types_.GetConstantUInt32(argument);
          if (!value) {
            result_.errors.push_back(
                Error(call, rules::kBuiltinLiteralArgument,
                      import.CallPrefix() + "argument " + std::to_string(source.value + 1) +
                          " is a literal operand of the instruction and must be a 32-bit integer "
                          "constant"));
            return false;
          }
          inst.AddOperand(OperandKind(import.opcode, i), {*value});
          break;
        }
        case OperandSource::Kind::kConstant:
          add_constant(source.value);
          break;
        case OperandSource::Kind::kNameField:
          add_constant(import.fields[source.value]);
          break;
        case OperandSource::Kind::kSubgroupScope:
          add_constant(static_cast<uint32_t>(spv::Scope::Subgroup));
          break;
        case OperandSource::Kind::kLiteral:
          inst.AddOperand(OperandKind(import.opcode, i), {source.value});
          break;
      }
    }
    if (out_of_ids) {
      result_.errors.push_back(Error(call, rules::kBuiltinIdBound,
                                     import.CallPrefix() +
                                         "the module's id bound leaves no id for the constants "
                                         "the instruction needs"));
      return false;
    }
    if (!desc->has_result && call.result_id() != 0) dropped_results_.insert(call.result_id());
    inst.set_source(call.source_index(), call.source_word_offset());
    inst.debug_lines() = std::move(call.debug_lines());
    result_.replacements.push_back({call.source_index(), import.name, import.linkage_name,
                                    import.opcode, import.CallPrefix()});
    if (undo_) undo_->calls.emplace_back(&call, std::move(call));
    call = std::move(inst);
    return true;
  }

  // A declaration no call uses any more goes, with the names and decorations of it and of the
  // void results the calls had, so that the copy references no id it does not define. One that
  // an OpGroupDecorate names stays (rewriting decoration groups is not worth it).
  void RemoveUncalledDeclarations(const std::map<uint32_t, int>& calls_left) {
    std::set<uint32_t> gone = dropped_results_;
    std::set<uint32_t> candidates;
    for (const auto& [id, import] : imports_) {
      if (import.entry && import.entry->target == Target::kInstruction && !calls_left.count(id)) {
        candidates.insert(id);
      }
    }
    for (const ir::Instruction& inst : module_->annotations()) {
      if (inst.opcode() != spv::Op::OpGroupDecorate) continue;
      for (size_t i = 1; i < inst.num_operands(); ++i) candidates.erase(inst.word(i));
    }
    // Calls from other places (e.g. OpEntryPoint cannot name a declaration) are counted above.
    // The declarations' parameters go with them, and so do their names and decorations
    // (llvm-spirv-15 gives a built-in's parameters FuncParamAttr).
    for (const ir::Function& f : module_->functions()) {
      if (!f.IsDeclaration() || !candidates.count(f.id())) continue;
      for (const ir::Instruction& param : f.parameters) gone.insert(param.result_id());
    }
    TakeOutIf(
        module_->functions(),
        [&](const ir::Function& f) { return f.IsDeclaration() && candidates.count(f.id()); },
        undo_ ? &undo_->functions : nullptr);
    gone.insert(candidates.begin(), candidates.end());
    auto targets_gone = [&](const ir::Instruction& inst) {
      switch (inst.opcode()) {
        case spv::Op::OpName:
        case spv::Op::OpDecorate:
        case spv::Op::OpDecorateId:
        case spv::Op::OpDecorateString:
        case spv::Op::OpMemberDecorate:
          return inst.num_operands() > 0 && gone.count(inst.word(0)) != 0;
        default:
          return false;
      }
    };
    TakeOutIf(module_->debug(), targets_gone, undo_ ? &undo_->debug : nullptr);
    TakeOutIf(module_->annotations(), targets_gone, undo_ ? &undo_->annotations : nullptr);
  }

  void DeclareRequirements(const std::set<spv::Op>& used) {
    ir::Module& m = *module_;
    for (spv::Op opcode : used) {
      const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(opcode));
      if (!desc) continue;
      bool has_capability = desc->capabilities.empty();
      for (const char* name : desc->capabilities) {
        const grammar::Enumerant* e =
            grammar::FindEnumerant(grammar::OperandKindId::kCapability, name);
        has_capability |= e && m.HasCapability(static_cast<spv::Capability>(e->value));
      }
      if (!has_capability) {
        const grammar::Enumerant* e =
            grammar::FindEnumerant(grammar::OperandKindId::kCapability, desc->capabilities[0]);
        if (e) {
          ir::Instruction cap(spv::Op::OpCapability);
          cap.AddOperand(grammar::OperandKindId::kCapability, {e->value});
          m.capabilities().push_back(std::move(cap));
        }
      }
      bool has_extension = desc->extensions.empty();
      for (const char* name : desc->extensions) has_extension |= m.HasExtension(name);
      if (!has_extension) {
        ir::Instruction ext(spv::Op::OpExtension);
        ext.AddStringOperand(desc->extensions[0]);
        m.extensions().push_back(std::move(ext));
      }
    }
  }

  ir::ModuleInfo info_;
  ir::TypeTable types_;
  const UpgradeOptions& options_;
  std::map<uint32_t, RecognisedImport> imports_;
  UpgradeResult result_;
  ir::Module* module_ = &result_.module;  // the module the calls are replaced in
  UpgradeUndo* undo_ = nullptr;           // set for an upgrade in place
  std::set<uint32_t> dropped_results_;
};

}  // namespace

bool HasBuiltinImports(const ir::Module& module) {
  // Straight from the decorations: this runs on every module the validator and xmx-run see.
  for (const ir::Instruction& inst : module.annotations()) {
    if (inst.opcode() != spv::Op::OpDecorate || inst.num_operands() < 3 ||
        inst.word(1) != static_cast<uint32_t>(spv::Decoration::LinkageAttributes)) {
      continue;
    }
    const ir::OperandView last = inst.operand(inst.num_operands() - 1);
    if (last.word() != static_cast<uint32_t>(spv::LinkageType::Import)) continue;
    const std::string name = inst.StringOperand(2);
    if (!FindEntries(ParseLinkageName(name).name.base).empty()) return true;
  }
  return false;
}

UpgradeResult UpgradeBuiltinCalls(const ir::Module& module, const UpgradeOptions& options) {
  return Upgrader(module, options).Run(module);
}

UpgradeResult UpgradeBuiltinCalls(ir::Module&& module, const UpgradeOptions& options) {
  Upgrader upgrader(module, options);
  return upgrader.Run(std::move(module));
}

UpgradeResult UpgradeBuiltinCallsInPlace(ir::Module& module, const UpgradeOptions& options,
                                         UpgradeUndo* undo) {
  Upgrader upgrader(module, options);
  return upgrader.RunInPlace(module, undo);
}

void RestoreBuiltinCalls(ir::Module& module, UpgradeUndo& undo) {
  // In the reverse order of the upgrade's changes.
  KeepFirst(module.extensions(), undo.extensions);
  KeepFirst(module.capabilities(), undo.capabilities);
  PutBack(module.annotations(), undo.annotations);
  PutBack(module.debug(), undo.debug);
  PutBack(module.functions(), undo.functions);
  for (auto it = undo.calls.rbegin(); it != undo.calls.rend(); ++it) {
    auto& [place, call] = *it;
    call.debug_lines() = std::move(place->debug_lines());
    *place = std::move(call);
  }
  KeepFirst(module.globals(), undo.globals);
  module.header().bound = undo.bound;
  undo = UpgradeUndo{};
}

}  // namespace xmx::builtins
