// What every rule of the validator works with: the module and the analyses computed once for it
// (the type of every value, the definition of every id, the instruction walk with the function and
// block of each instruction and the entry points and subgroup sizes that reach each function),
// the device profile, and the diagnostics found so far. Rules read these instead of rebuilding
// their own maps and walks.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "binary/id_table.hpp"
#include "builtins/upgrade.hpp"
#include "ir/module_info.hpp"
#include "ir/type_table.hpp"
#include "xmx/diagnostic.hpp"
#include "xmx/module.hpp"
#include "xmx/validator.hpp"

namespace xmx::val {

// One instruction of a function body and where it is.
struct BodyInstruction {
  const ir::Function* function;
  const ir::BasicBlock* block;
  const ir::Instruction* inst;
};

class ValidationContext {
 public:
  ValidationContext(const ir::Module& module, const ValidatorOptions& options);

  const ir::Module& module() const { return module_; }
  // Decoded on first use: a module none of our rules applies to (a core-only kernel) never
  // needs it.
  const ir::TypeTable& types() const {
    if (!types_) types_.emplace(module_);
    return *types_;
  }
  const ir::ModuleInfo& info() const { return info_; }
  const ValidatorOptions& options() const { return options_; }
  // Looked up on first use: finding a built-in profile reads every embedded profile's JSON
  // (most of xmx-opt's run on a small core-only module), which only our rules need.
  const device::DeviceProfile& device() const;

  // The subgroup sizes an instruction of `function_id` may run at: those of the entry points
  // that reach it (their SubgroupSize execution mode, else --subgroup-size, else every size of
  // the device). For a function no entry point reaches: --subgroup-size when given, else none.
  const std::vector<uint32_t>& SubgroupSizes(uint32_t function_id) const;
  bool ReachedByEntryPoint(uint32_t function_id) const;
  // The functions (ids) of the entry points whose call graph reaches `function_id`, in the order
  // of the module's OpEntryPoints; empty for a function no entry point reaches.
  std::span<const uint32_t> EntryPointsReaching(uint32_t function_id) const;

  // --- Values ---
  // The instruction that defines `id` (types, constants, globals, functions, parameters, body
  // results), or nullptr.
  const ir::Instruction* Def(uint32_t id) const;
  // The Result Type id of the value `id`, or 0 when `id` is undefined, a type or has no type.
  uint32_t ValueTypeId(uint32_t id) const;
  // The same as a type (nullptr when unknown).
  const ir::Type* ValueType(uint32_t id) const { return types().GetType(ValueTypeId(id)); }
  // The value of `id` when it is an integer constant instruction (a specialization constant at
  // its default when `allow_spec`), else nullopt.
  std::optional<uint64_t> ConstantUInt(uint32_t id, bool allow_spec = false) const {
    return types().GetConstantUInt(id, allow_spec);
  }

  // --- The instruction walk ---
  // Every instruction in a block, in module order, with its function and block.
  std::span<const BodyInstruction> body() const { return body_; }
  // The body instructions with opcode `op`, in module order (empty when there is none).
  std::span<const BodyInstruction> BodyInstructionsWith(spv::Op op) const;
  // Whether any instruction of the module (any section) has opcode `op`.
  bool HasOpcode(spv::Op op) const { return opcodes_present_.test(static_cast<uint16_t>(op)); }

  // Calls visit(const ir::Function&, const ir::Instruction&) for every instruction in a block.
  template <typename Visit>
  void ForEachBodyInstruction(Visit&& visit) const {
    for (const BodyInstruction& b : body_) visit(*b.function, *b.inst);
  }
  // The same, for the instructions with opcode `op` only.
  template <typename Visit>
  void ForEachBodyInstruction(spv::Op op, Visit&& visit) const {
    for (const BodyInstruction& b : BodyInstructionsWith(op)) visit(*b.function, *b.inst);
  }

  void Report(Severity severity, const ir::Instruction* inst, std::string rule,
              std::string message);
  void Error(const ir::Instruction& inst, std::string rule, std::string message) {
    Report(Severity::kError, &inst, std::move(rule), std::move(message));
  }
  void Warning(const ir::Instruction& inst, std::string rule, std::string message) {
    Report(Severity::kWarning, &inst, std::move(rule), std::move(message));
  }
  void Remark(const ir::Instruction& inst, std::string rule, std::string message) {
    Report(Severity::kRemark, &inst, std::move(rule), std::move(message));
  }
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }

  // The module is an upgraded copy (builtins/upgrade.hpp): diagnostics about an instruction that
  // stands for a call name the call and the instruction, and are about the call (its opcode);
  // the declaration rules (decl.*) do not apply to it (a call needs no capability), and an
  // instruction the upgrade added (a constant) never draws one.
  void SetCallStandIns(const std::vector<builtins::Replacement>& replacements);

  // "%name" of an id for messages (its OpName, else its number).
  std::string IdName(uint32_t id) const;

 private:
  void IndexInstructions();
  // Fills subgroup_sizes_ and entry_points_reaching_ on the first question about them (they
  // need the device).
  void ComputeSubgroupSizes() const;

  const ir::Module& module_;
  const ValidatorOptions& options_;
  mutable const device::DeviceProfile* device_ = nullptr;
  mutable std::optional<ir::TypeTable> types_;
  ir::ModuleInfo info_;
  mutable bool subgroup_sizes_computed_ = false;
  mutable std::unordered_map<uint32_t, std::vector<uint32_t>> subgroup_sizes_;  // by function
  mutable std::unordered_map<uint32_t, std::vector<uint32_t>> entry_points_reaching_;
  binary::IdTable<const ir::Instruction*> defs_;
  std::vector<BodyInstruction> body_;
  // The body instructions grouped by opcode, each group in module order: the group of an opcode
  // is body_by_opcode_[group_start_[slot]..group_start_[slot + 1]), its slot in opcode_slot_
  // (kNoSlot when the body has none), or for an opcode past that table in large_opcode_slots_.
  // A flat table rather than a map per opcode: indexing runs once per instruction of the module.
  static constexpr uint16_t kNoSlot = 0xFFFF;
  static constexpr uint32_t kSlotTableSize = 8192;  // above every opcode the grammar knows
  uint16_t& SlotOf(uint32_t opcode);
  uint16_t FindSlot(uint32_t opcode) const;
  std::vector<uint16_t> opcode_slot_;
  std::vector<std::pair<uint32_t, uint16_t>> large_opcode_slots_;
  std::vector<uint32_t> group_start_;
  std::vector<BodyInstruction> body_by_opcode_;
  std::bitset<1u << 16> opcodes_present_;  // an opcode is a 16-bit field
  mutable std::vector<uint32_t> unreached_sizes_;
  std::vector<Diagnostic> diagnostics_;
  bool upgraded_ = false;
  std::unordered_map<size_t, std::string> call_prefix_;  // by the call's instruction index
};

}  // namespace xmx::val
