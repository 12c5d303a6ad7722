// What every rule of the validator works with: the module and its analyses, the device profile,
// the subgroup sizes that can reach each function, and the diagnostics found so far.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "builtins/upgrade.hpp"
#include "xmx/diagnostic.hpp"
#include "ir/module_info.hpp"
#include "ir/type_table.hpp"
#include "xmx/module.hpp"
#include "xmx/validator.hpp"

namespace xmx::val {

class ValidationContext {
 public:
  ValidationContext(const ir::Module& module, const ValidatorOptions& options);

  const ir::Module& module() const { return module_; }
  const ir::TypeTable& types() const { return types_; }
  const ir::ModuleInfo& info() const { return info_; }
  const ValidatorOptions& options() const { return options_; }
  const device::DeviceProfile& device() const { return *device_; }

  // The subgroup sizes an instruction of `function_id` may run at: those of the entry points
  // that reach it (their SubgroupSize execution mode, else --subgroup-size, else every size of
  // the device). For a function no entry point reaches: --subgroup-size when given, else none.
  const std::vector<uint32_t>& SubgroupSizes(uint32_t function_id) const;
  bool ReachedByEntryPoint(uint32_t function_id) const;

  // Calls visit(const ir::Function&, const ir::Instruction&) for every instruction in a block.
  template <typename Visit>
  void ForEachBodyInstruction(Visit&& visit) const {
    for (const ir::Function& function : module_.functions()) {
      for (const ir::BasicBlock& block : function.blocks) {
        for (const ir::Instruction& inst : block.instructions) visit(function, inst);
      }
    }
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
  void ComputeSubgroupSizes();

  const ir::Module& module_;
  const ValidatorOptions& options_;
  const device::DeviceProfile* device_;
  ir::TypeTable types_;
  ir::ModuleInfo info_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> subgroup_sizes_;  // function -> sizes
  std::unordered_map<uint32_t, bool> reached_;
  std::vector<uint32_t> unreached_sizes_;
  std::vector<Diagnostic> diagnostics_;
  bool upgraded_ = false;
  std::unordered_map<size_t, std::string> call_prefix_;  // by the call's instruction index
};

}  // namespace xmx::val
