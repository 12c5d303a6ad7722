// The installed SPIRV-Tools 2023.1 validates OpenCL.std extended instructions by asking for the
// bit width, component count or component type of operand types, and those queries dereference
// whatever the type's definition leads to: an operand that is not a value (a label, an
// OpExtInstImport) has no type, and a pointer, struct or array has no component type, so the
// query reads through a null pointer. Where it asks before checking the operand's kind, a
// module that gets the kind wrong crashes it. The table below lists those places, found by
// giving it every OpenCL.std instruction with operands of every kind (test/val/core_crashers).
#include "val/core_preconditions.hpp"

#include <array>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "common/rule_ids.hpp"
#include "grammar/grammar.hpp"

namespace xmx::val {
namespace {

enum class Need {
  kValue,                  // an id with a type (not a label, import, string, ...)
  kNumericScalarOrVector,  // a value whose type is a scalar or vector of int, float or bool
};

struct Assumption {
  std::string_view instruction;  // OpenCL.std name
  size_t operand;                // index among the OpExtInst operands after Set and Instruction
  const char* role;              // the operand's name in the OpenCL.std specification
  Need need;
};

// SPIRV-Tools compares the types of Hi and Lo of the upsamples, then asks for their component
// count; the vstore_half family asks for the bit width of Data before checking its type.
constexpr std::array kAssumptions = {
    Assumption{"u_upsample", 0, "Hi", Need::kValue},
    Assumption{"u_upsample", 1, "Lo", Need::kValue},
    Assumption{"s_upsample", 0, "Hi", Need::kValue},
    Assumption{"s_upsample", 1, "Lo", Need::kValue},
    Assumption{"vstore_half", 0, "Data", Need::kNumericScalarOrVector},
    Assumption{"vstore_half_r", 0, "Data", Need::kNumericScalarOrVector},
    Assumption{"vstore_halfn", 0, "Data", Need::kNumericScalarOrVector},
    Assumption{"vstore_halfn_r", 0, "Data", Need::kNumericScalarOrVector},
    Assumption{"vstorea_halfn", 0, "Data", Need::kNumericScalarOrVector},
    Assumption{"vstorea_halfn_r", 0, "Data", Need::kNumericScalarOrVector},
};

class PreconditionChecker {
 public:
  explicit PreconditionChecker(const ir::Module& module) : module_(module) {
    for (const ir::Instruction& import : module.ext_inst_imports()) {
      if (import.num_operands() == 1 && import.StringOperand(0) == "OpenCL.std") {
        opencl_std_.insert(import.result_id());
      }
    }
  }

  std::vector<Diagnostic> Check() {
    if (opencl_std_.empty()) return {};
    const grammar::ExtInstSet* set = grammar::FindExtInstSet("OpenCL.std");
    if (set == nullptr) return {};
    // The instructions the table names; only when there are some do their operands' definitions
    // need an index (OpenCL kernels import OpenCL.std whether they use it or not).
    struct Candidate {
      const ir::Instruction* inst;
      size_t index;
      std::string_view name;
    };
    std::vector<Candidate> candidates;
    size_t index = 0;
    module_.ForEachInstruction([&](const ir::Instruction& inst) {
      if (inst.opcode() == spv::Op::OpExtInst && inst.num_operands() >= 2 &&
          opencl_std_.count(inst.word(0)) != 0) {
        const grammar::ExtInstruction* ext = grammar::FindExtInstruction(*set, inst.word(1));
        if (ext != nullptr && IsNamedByAnAssumption(ext->name)) {
          candidates.push_back({&inst, index, ext->name});
        }
      }
      ++index;
    });
    if (candidates.empty()) return {};
    module_.ForEachInstruction([this](const ir::Instruction& inst) {
      if (inst.has_result_id()) defs_.emplace(inst.result_id(), &inst);
    });
    for (const Candidate& c : candidates) CheckExtInst(*c.inst, c.index, c.name);
    return std::move(out_);
  }

 private:
  const ir::Instruction* Def(uint32_t id) const {
    auto it = defs_.find(id);
    return it == defs_.end() ? nullptr : it->second;
  }

  static bool IsNamedByAnAssumption(std::string_view name) {
    for (const Assumption& a : kAssumptions) {
      if (a.instruction == name) return true;
    }
    return false;
  }

  // "OpTypePointer" for what `id` defines.
  static std::string OpcodeName(const ir::Instruction& def) {
    const grammar::Instruction* g = grammar::FindInstruction(static_cast<uint32_t>(def.opcode()));
    return g ? g->name : "opcode " + std::to_string(static_cast<uint32_t>(def.opcode()));
  }

  static bool IsNumericScalar(const ir::Instruction* type) {
    return type != nullptr &&
           (type->opcode() == spv::Op::OpTypeInt || type->opcode() == spv::Op::OpTypeFloat ||
            type->opcode() == spv::Op::OpTypeBool);
  }

  // Empty when `def` meets `need`, else what it is instead.
  std::string Violation(const ir::Instruction& def, Need need) const {
    if (!def.has_result_type() || def.result_type_id() == 0) {
      return "is not a value (it is defined by " + OpcodeName(def) + ")";
    }
    if (need == Need::kValue) return {};
    const ir::Instruction* type = Def(def.result_type_id());
    if (IsNumericScalar(type)) return {};
    if (type != nullptr && type->opcode() == spv::Op::OpTypeVector && type->num_operands() >= 1 &&
        IsNumericScalar(Def(type->word(0)))) {
      return {};
    }
    return "has type %" + std::to_string(def.result_type_id()) +
           (type ? " (" + OpcodeName(*type) + ")" : std::string()) +
           ", not a scalar or vector of integers or floats";
  }

  void CheckExtInst(const ir::Instruction& inst, size_t index, std::string_view name) {
    for (const Assumption& a : kAssumptions) {
      if (a.instruction != name || inst.num_operands() <= a.operand + 2) continue;
      const uint32_t id = inst.word(a.operand + 2);
      const ir::Instruction* def = Def(id);
      if (def == nullptr) continue;  // undefined: SPIRV-Tools reports it before it gets here
      const std::string violation = Violation(*def, a.need);
      if (violation.empty()) continue;
      Diagnostic d;
      d.severity = Severity::kError;
      d.rule = rules::kCorePrecondition;
      d.instruction_index = index;
      d.message = std::string(a.role) + " %" + std::to_string(id) + " of OpenCL.std " +
                  std::string(name) + " " + violation +
                  "; core validation by SPIRV-Tools was skipped: the installed version crashes "
                  "on this operand";
      out_.push_back(std::move(d));
    }
  }

  const ir::Module& module_;
  std::unordered_map<uint32_t, const ir::Instruction*> defs_;
  std::unordered_set<uint32_t> opencl_std_;
  std::vector<Diagnostic> out_;
};

}  // namespace

std::vector<Diagnostic> CheckCorePreconditions(const ir::Module& module) {
  return PreconditionChecker(module).Check();
}

}  // namespace xmx::val
