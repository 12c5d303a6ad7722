// Lower: the calls of the bridge's declarations become the extended instructions again, and what
// Lift set aside goes back where it was (see bridge.hpp).
#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "bridge/bridge.hpp"
#include "grammar/grammar.hpp"

namespace xmx::bridge {
namespace {

using grammar::OperandCategory;
using spv::Op;

// Inserts each set-aside instruction back at its recorded position (clamped to the list's end, in
// case the lifted module lost instructions in between).
void Restore(ir::InstructionList& list, const std::vector<SetAside>& aside) {
  for (const SetAside& item : aside) {
    auto it = list.begin();
    for (size_t i = 0; i < item.position && it != list.end(); ++i) ++it;
    list.insert(it, item.inst);
  }
}

// Every id an instruction refers to (result type included).
template <typename Visit>
void ForEachIdUse(const ir::Instruction& inst, Visit&& visit) {
  if (inst.has_result_type()) visit(inst.result_type_id());
  for (size_t i = 0; i < inst.num_operands(); ++i) {
    const ir::OperandView op = inst.operand(i);
    if (grammar::GetOperandKind(op.kind).category == OperandCategory::kId) visit(op.word());
  }
}

// Removes the globals the bridge added that nothing uses any more. Removing one may free another
// (a function type frees its parameter types), so repeat until nothing changes.
void RemoveUnusedAddedGlobals(ir::Module& module, const std::vector<uint32_t>& added) {
  std::unordered_set<uint32_t> candidates(added.begin(), added.end());
  for (bool removed = true; removed && !candidates.empty();) {
    removed = false;
    std::unordered_set<uint32_t> used;
    module.ForEachInstruction([&used](const ir::Instruction& inst) {
      ForEachIdUse(inst, [&](uint32_t id) { used.insert(id); });
    });
    for (auto it = module.globals().begin(); it != module.globals().end();) {
      const uint32_t id = it->result_id();
      if (candidates.count(id) && !used.count(id)) {
        candidates.erase(id);
        it = module.globals().erase(it);
        removed = true;
      } else {
        ++it;
      }
    }
  }
}

}  // namespace

bool Lower(ir::Module& lifted, const LiftRecord& record, Diagnostic* error) {
  std::unordered_map<uint32_t, uint32_t> constant_value;
  for (const ir::Instruction& inst : lifted.globals()) {
    if (inst.opcode() == Op::OpConstant && inst.num_operands() == 1 &&
        inst.operand(0).words.size() == 1) {
      constant_value.emplace(inst.result_id(), inst.word(0));
    }
  }

  for (ir::Function& function : lifted.functions()) {
    for (ir::BasicBlock& block : function.blocks) {
      for (ir::Instruction& inst : block.instructions) {
        if (inst.opcode() != Op::OpFunctionCall) continue;
        auto decl = record.declarations.find(inst.word(0));
        if (decl == record.declarations.end()) continue;
        const LiftedSignature& sig = decl->second;
        const size_t passed = static_cast<size_t>(std::ranges::count_if(
            sig.operands, [](const LiftedOperand& op) { return op.fixed_id == 0; }));
        if (inst.num_operands() != passed + 1) {
          if (error) {
            *error = Diagnostic{};
            error->message = "cannot lower a call of the bridge's declaration %" +
                             std::to_string(inst.word(0)) + ": its argument count changed";
          }
          return false;
        }
        ir::Instruction restored(sig.opcode, sig.has_result ? inst.result_type_id() : 0,
                                 sig.has_result ? inst.result_id() : 0);
        size_t next_arg = 1;
        for (size_t i = 0; i < sig.operands.size(); ++i) {
          if (sig.operands[i].fixed_id) {
            restored.AddOperand(sig.operands[i].kind, {sig.operands[i].fixed_id});
            continue;
          }
          const uint32_t arg = inst.word(next_arg++);
          if (sig.operands[i].is_id) {
            restored.AddOperand(sig.operands[i].kind, {arg});
            continue;
          }
          auto value = constant_value.find(arg);
          if (value == constant_value.end()) {
            if (error) {
              *error = Diagnostic{};
              error->message =
                  "cannot lower the call standing for " +
                  std::string(grammar::FindInstruction(static_cast<uint32_t>(sig.opcode))->name) +
                  ": argument " + std::to_string(i) + " is no longer a constant";
            }
            return false;
          }
          restored.AddOperand(sig.operands[i].kind, {value->second});
        }
        restored.set_source(inst.source_index(), inst.source_word_offset());
        restored.debug_lines() = std::move(inst.debug_lines());
        inst = std::move(restored);
      }
    }
  }

  lifted.functions().remove_if(
      [&](const ir::Function& f) { return record.declarations.count(f.id()) != 0; });
  if (!record.added_instructions.empty()) {
    const std::unordered_set<uint32_t> added(record.added_instructions.begin(),
                                             record.added_instructions.end());
    for (ir::Function& function : lifted.functions()) {
      for (ir::BasicBlock& block : function.blocks) {
        block.instructions.remove_if([&added](const ir::Instruction& inst) {
          return inst.has_result_id() && added.count(inst.result_id()) != 0;
        });
      }
    }
  }
  lifted.annotations().remove_if([&](const ir::Instruction& inst) {
    return inst.opcode() == Op::OpDecorate && record.declarations.count(inst.word(0)) != 0;
  });
  const std::unordered_set<uint32_t> named(record.named_types.begin(), record.named_types.end());
  lifted.debug().remove_if([&](const ir::Instruction& inst) {
    return inst.opcode() == Op::OpName &&
           (record.declarations.count(inst.word(0)) != 0 || named.count(inst.word(0)) != 0);
  });
  RemoveUnusedAddedGlobals(lifted, record.added_globals);

  auto remove_last_capability = [&lifted](spv::Capability capability) {
    auto& caps = lifted.capabilities();
    for (auto it = caps.rbegin(); it != caps.rend(); ++it) {
      if (it->word(0) == static_cast<uint32_t>(capability)) {
        caps.erase(std::next(it).base());
        break;
      }
    }
  };
  if (record.added_linkage) remove_last_capability(spv::Capability::Linkage);
  for (spv::Capability capability : record.added_capabilities) {
    remove_last_capability(capability);
  }
  if (record.allowed_duplicate_types) {
    auto& extensions = lifted.extensions();
    for (auto it = extensions.rbegin(); it != extensions.rend(); ++it) {
      if (it->StringOperand(0) == kIgnoreTypeUniquenessExtension) {
        extensions.erase(std::next(it).base());
        break;
      }
    }
  }
  for (const ReplacedType& replaced : record.types) {
    for (ir::Instruction& inst : lifted.globals()) {
      if (inst.result_id() != replaced.result_id) continue;
      std::vector<ir::Instruction> lines = std::move(inst.debug_lines());
      inst = replaced.original;
      inst.debug_lines() = std::move(lines);
      break;
    }
  }
  for (const SetAsideOperands& aside : record.operands) {
    for (ir::Instruction& inst : lifted.globals()) {
      if (inst.result_id() != aside.result_id) continue;
      for (const auto& [kind, words] : aside.operands) inst.AddOperand(kind, words);
      break;
    }
  }
  Restore(lifted.capabilities(), record.capabilities);
  Restore(lifted.extensions(), record.extensions);
  Restore(lifted.execution_modes(), record.execution_modes);
  Restore(lifted.annotations(), record.annotations);
  if (lifted.header().bound == record.lifted_bound) lifted.header().bound = record.original_bound;
  return true;
}

}  // namespace xmx::bridge
