// Def-use chains of a module: for every id, the instruction that defines it and the operands that
// use it (result types included).
//
// The analysis is built in one walk over the module and holds pointers into it. It stays exact
// across its own editing calls (Analyze, Forget, ReplaceAllUsesWith, SetId); after any other edit
// (an operand changed by hand, an instruction moved by value, a list erased without Forget) build a
// new one. Uses are listed in module order after a build; edits append.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "binary/id_table.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {

struct Use {
  // `operand` of a use through the instruction's result type.
  static constexpr uint32_t kResultType = static_cast<uint32_t>(-1);

  Instruction* inst;
  uint32_t operand;  // index into the instruction's operands, or kResultType

  bool operator==(const Use&) const = default;
};

class DefUse {
 public:
  explicit DefUse(Module& module);

  // The instruction whose result is `id`, or nullptr.
  Instruction* GetDef(uint32_t id) const;
  std::span<const Use> GetUses(uint32_t id) const;

  // Records a newly inserted instruction (and its debug lines): its result and its id operands.
  void Analyze(Instruction& inst);
  // Drops an instruction about to be erased: its result and its uses. Uses of its result by other
  // instructions stay recorded (they now refer to an undefined id).
  void Forget(const Instruction& inst);
  // Rewrites every use of `old_id` into a use of `new_id`; returns how many were rewritten.
  size_t ReplaceAllUsesWith(uint32_t old_id, uint32_t new_id);
  // Sets id operand `operand` (or Use::kResultType) of `inst`, moving the recorded use.
  void SetId(Instruction& inst, uint32_t operand, uint32_t id);

 private:
  struct Entry {
    Instruction* def = nullptr;
    std::vector<Use> uses;
  };

  Entry* Find(uint32_t id) const;
  Entry& GetOrAdd(uint32_t id);
  void AnalyzeOne(Instruction& inst);
  void ForgetOne(const Instruction& inst);
  void RemoveUse(uint32_t id, const Use& use);

  binary::IdTable<uint32_t> slot_of_;  // id -> index into entries_
  // Mutable so that Find can hand out entries from a const lookup; only editing calls change them.
  mutable std::vector<Entry> entries_;
};

}  // namespace xmx::ir
