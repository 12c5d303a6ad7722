#include "val/validation_context.hpp"

#include <algorithm>
#include <cassert>
#include <set>

#include "common/rule_ids.hpp"
#include "grammar/grammar.hpp"
#include "xmx/device.hpp"

namespace xmx::val {

ValidationContext::ValidationContext(const ir::Module& module, const ValidatorOptions& options)
    : module_(module), options_(options), info_(module) {
  IndexInstructions();
}

const device::DeviceProfile& ValidationContext::device() const {
  if (!device_) {
    device_ = options_.device ? options_.device : device::FindBuiltinProfile("opencl");
  }
  return *device_;
}

void ValidationContext::IndexInstructions() {
  // A bound of 2^32 in a hostile header must not size the table.
  defs_.Reserve(module_.header().bound, size_t{1} << 22);
  module_.ForEachInstruction([&](const ir::Instruction& inst) {
    opcodes_present_.set(static_cast<uint16_t>(inst.opcode()));
    // The first definition wins: a redefinition is the core rules' error, not a new value.
    if (inst.has_result_id() && inst.result_id() != 0 && defs_.Get(inst.result_id()) == nullptr) {
      defs_.Set(inst.result_id(), &inst);
    }
  });
  // Counts per opcode give each group its place; a second pass fills the groups in module order.
  std::vector<uint32_t> counts;
  opcode_slot_.assign(kSlotTableSize, kNoSlot);
  for (const ir::Function& function : module_.functions()) {
    for (const ir::BasicBlock& block : function.blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        body_.push_back({&function, &block, &inst});
        uint16_t& slot = SlotOf(static_cast<uint32_t>(inst.opcode()));
        if (slot == kNoSlot) {
          slot = static_cast<uint16_t>(counts.size());
          counts.push_back(0);
        }
        ++counts[slot];
      }
    }
  }
  group_start_.assign(counts.size() + 1, 0);
  for (size_t i = 0; i < counts.size(); ++i) group_start_[i + 1] = group_start_[i] + counts[i];
  std::vector<uint32_t> next(group_start_.begin(), group_start_.end() - 1);
  body_by_opcode_.resize(body_.size());
  for (const BodyInstruction& entry : body_) {
    body_by_opcode_[next[FindSlot(static_cast<uint32_t>(entry.inst->opcode()))]++] = entry;
  }
}

uint16_t& ValidationContext::SlotOf(uint32_t opcode) {
  if (opcode < kSlotTableSize) return opcode_slot_[opcode];
  for (auto& [large, slot] : large_opcode_slots_) {
    if (large == opcode) return slot;
  }
  return large_opcode_slots_.emplace_back(opcode, kNoSlot).second;
}

uint16_t ValidationContext::FindSlot(uint32_t opcode) const {
  if (opcode < kSlotTableSize) return opcode_slot_[opcode];
  for (const auto& [large, slot] : large_opcode_slots_) {
    if (large == opcode) return slot;
  }
  return kNoSlot;
}

const ir::Instruction* ValidationContext::Def(uint32_t id) const {
  const ir::Instruction* const* def = defs_.Get(id);
  return def ? *def : nullptr;
}

uint32_t ValidationContext::ValueTypeId(uint32_t id) const {
  const ir::Instruction* def = Def(id);
  if (def == nullptr || !def->has_result_type()) return 0;
  return def->result_type_id();
}

std::span<const BodyInstruction> ValidationContext::BodyInstructionsWith(spv::Op op) const {
  const uint16_t slot = FindSlot(static_cast<uint32_t>(op));
  if (slot == kNoSlot) return {};
  return std::span<const BodyInstruction>(body_by_opcode_)
      .subspan(group_start_[slot], group_start_[slot + 1] - group_start_[slot]);
}

std::span<const uint32_t> ValidationContext::EntryPointsReaching(uint32_t function_id) const {
  ComputeSubgroupSizes();
  auto it = entry_points_reaching_.find(function_id);
  if (it == entry_points_reaching_.end()) return {};
  return it->second;
}

void ValidationContext::ComputeSubgroupSizes() const {
  if (subgroup_sizes_computed_) return;
  subgroup_sizes_computed_ = true;
  std::vector<uint32_t> device_sizes(device().subgroup_sizes.begin(),
                                     device().subgroup_sizes.end());
  if (options_.subgroup_size) unreached_sizes_ = {*options_.subgroup_size};

  // Each kernel's sizes flow down the call graph; a function reached by several kernels may run
  // at the sizes of each of them.
  std::unordered_map<uint32_t, std::set<uint32_t>> sizes;
  for (const ir::EntryPoint& ep : info_.entry_points()) {
    std::vector<uint32_t> own;
    if (auto mode = info_.FindExecutionMode(ep.function_id, spv::ExecutionMode::SubgroupSize);
        mode && !mode->operands_are_ids && !mode->operands.empty()) {
      own = {mode->operands[0]};
    } else if (options_.subgroup_size) {
      own = {*options_.subgroup_size};
    } else {
      own = device_sizes;
    }
    std::vector<uint32_t> stack{ep.function_id};
    std::set<uint32_t> visited;
    while (!stack.empty()) {
      const uint32_t f = stack.back();
      stack.pop_back();
      if (!visited.insert(f).second) continue;
      std::vector<uint32_t>& reaching = entry_points_reaching_[f];
      // Two OpEntryPoints may name one function (two execution models): list it once.
      if (std::find(reaching.begin(), reaching.end(), ep.function_id) == reaching.end()) {
        reaching.push_back(ep.function_id);
      }
      sizes[f].insert(own.begin(), own.end());
      for (uint32_t callee : info_.GetCallees(f)) stack.push_back(callee);
    }
  }
  for (auto& [function, set] : sizes) subgroup_sizes_[function].assign(set.begin(), set.end());
}

const std::vector<uint32_t>& ValidationContext::SubgroupSizes(uint32_t function_id) const {
  ComputeSubgroupSizes();
  auto it = subgroup_sizes_.find(function_id);
  return it != subgroup_sizes_.end() ? it->second : unreached_sizes_;
}

bool ValidationContext::ReachedByEntryPoint(uint32_t function_id) const {
  ComputeSubgroupSizes();
  return entry_points_reaching_.count(function_id) != 0;
}

void ValidationContext::Report(Severity severity, const ir::Instruction* inst, std::string rule,
                               std::string message) {
  assert(rules::FindRule(rule) != nullptr && "rule id missing from common/rule_ids.def");
  Diagnostic d;
  d.severity = severity;
  d.rule = std::move(rule);
  d.message = std::move(message);
  if (inst) {
    d.opcode = static_cast<uint32_t>(inst->opcode());
    if (inst->source_index() != ir::Instruction::kNotFromBinary) {
      d.instruction_index = inst->source_index();
      d.word_offset = inst->source_word_offset();
      if (auto call = call_prefix_.find(inst->source_index()); call != call_prefix_.end()) {
        if (d.rule.rfind("decl.", 0) == 0) return;
        d.message = call->second + d.message;
        d.opcode = static_cast<uint32_t>(spv::Op::OpFunctionCall);
      }
    } else if (upgraded_) {
      return;
    }
  }
  diagnostics_.push_back(std::move(d));
}

std::string ValidationContext::IdName(uint32_t id) const {
  std::string name = info_.GetName(id);
  return name.empty() ? "%" + std::to_string(id) : "%" + name;
}

}  // namespace xmx::val

namespace xmx::val {

void ValidationContext::SetCallStandIns(const std::vector<builtins::Replacement>& replacements) {
  upgraded_ = true;
  for (const builtins::Replacement& r : replacements) {
    if (r.source_index != ir::Instruction::kNotFromBinary) {
      call_prefix_[r.source_index] = r.call_prefix;
    }
  }
}

}  // namespace xmx::val
