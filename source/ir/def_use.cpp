#include "ir/def_use.hpp"

#include <algorithm>

#include "ir/id_operands.hpp"

namespace xmx::ir {
namespace {

// Calls visit(id, operand index) for every id operand, the result type included.
template <typename Visit>
void ForEachIdUse(const Instruction& inst, Visit&& visit) {
  if (inst.has_result_type()) visit(inst.result_type_id(), Use::kResultType);
  ForEachIdOperand(inst, [&](uint32_t id, size_t i) { visit(id, static_cast<uint32_t>(i)); });
}

}  // namespace

DefUse::DefUse(Module& module) {
  const size_t dense_limit = module.DenseIdLimit();
  slot_of_.Reserve(module.header().bound, dense_limit);
  entries_.reserve(std::min<size_t>(dense_limit, module.header().bound));
  module.ForEachInstruction([this](Instruction& inst) { AnalyzeOne(inst); });
}

DefUse::Entry* DefUse::Find(uint32_t id) const {
  const uint32_t* slot = slot_of_.Get(id);
  return slot ? &entries_[*slot] : nullptr;
}

DefUse::Entry& DefUse::GetOrAdd(uint32_t id) {
  if (Entry* entry = Find(id)) return *entry;
  slot_of_.Set(id, static_cast<uint32_t>(entries_.size()));
  return entries_.emplace_back();
}

Instruction* DefUse::GetDef(uint32_t id) const {
  const Entry* entry = Find(id);
  return entry ? entry->def : nullptr;
}

std::span<const Use> DefUse::GetUses(uint32_t id) const {
  const Entry* entry = Find(id);
  return entry ? std::span<const Use>(entry->uses) : std::span<const Use>();
}

void DefUse::AnalyzeOne(Instruction& inst) {
  if (inst.has_result_id()) GetOrAdd(inst.result_id()).def = &inst;
  ForEachIdUse(inst, [this, &inst](uint32_t id, uint32_t operand) {
    GetOrAdd(id).uses.push_back({&inst, operand});
  });
}

void DefUse::Analyze(Instruction& inst) {
  for (Instruction& line : inst.debug_lines()) AnalyzeOne(line);
  AnalyzeOne(inst);
}

void DefUse::RemoveUse(uint32_t id, const Use& use) {
  Entry* entry = Find(id);
  if (!entry) return;
  auto it = std::find(entry->uses.begin(), entry->uses.end(), use);
  if (it != entry->uses.end()) entry->uses.erase(it);
}

void DefUse::ForgetOne(const Instruction& inst) {
  if (inst.has_result_id()) {
    Entry* entry = Find(inst.result_id());
    if (entry && entry->def == &inst) entry->def = nullptr;
  }
  ForEachIdUse(inst, [this, &inst](uint32_t id, uint32_t operand) {
    RemoveUse(id, {const_cast<Instruction*>(&inst), operand});
  });
}

void DefUse::Forget(const Instruction& inst) {
  for (const Instruction& line : inst.debug_lines()) ForgetOne(line);
  ForgetOne(inst);
}

size_t DefUse::ReplaceAllUsesWith(uint32_t old_id, uint32_t new_id) {
  if (old_id == new_id) return 0;
  Entry* old_entry = Find(old_id);
  if (!old_entry || old_entry->uses.empty()) return 0;
  std::vector<Use> moved = std::move(old_entry->uses);
  old_entry->uses.clear();
  for (const Use& use : moved) {
    if (use.operand == Use::kResultType) {
      use.inst->set_result_type_id(new_id);
    } else {
      use.inst->SetWord(use.operand, new_id);
    }
  }
  // GetOrAdd may grow entries_, so old_entry is not used past this point.
  std::vector<Use>& new_uses = GetOrAdd(new_id).uses;
  new_uses.insert(new_uses.end(), moved.begin(), moved.end());
  return moved.size();
}

void DefUse::SetId(Instruction& inst, uint32_t operand, uint32_t id) {
  const bool is_type = operand == Use::kResultType;
  const uint32_t old_id = is_type ? inst.result_type_id() : inst.word(operand);
  RemoveUse(old_id, {&inst, operand});
  if (is_type) {
    inst.set_result_type_id(id);
  } else {
    inst.SetWord(operand, id);
  }
  GetOrAdd(id).uses.push_back({&inst, operand});
}

}  // namespace xmx::ir
