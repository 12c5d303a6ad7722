#include "ir/module_info.hpp"

#include <algorithm>

namespace xmx::ir {
namespace {

// The words of operands [index, end).
std::span<const uint32_t> WordsFrom(const Instruction& inst, size_t index) {
  if (index >= inst.num_operands()) return {};
  const std::span<const uint32_t> all = inst.operand_words();
  return all.subspan(static_cast<size_t>(inst.operand(index).words.data() - all.data()));
}

}  // namespace

ModuleInfo::ModuleInfo(const Module& module) {
  const size_t limit = module.DenseIdLimit();
  names_.Reserve(module.header().bound, limit);
  decoration_slot_.Reserve(module.header().bound, limit);
  function_slot_.Reserve(module.header().bound, limit);

  for (const Instruction& inst : module.capabilities()) capabilities_.insert(inst.word(0));
  for (const Instruction& inst : module.extensions()) extensions_.insert(inst.StringOperand(0));
  for (const Instruction& inst : module.entry_points()) {
    entry_points_.push_back({static_cast<spv::ExecutionModel>(inst.word(0)), inst.word(1),
                             inst.StringOperand(2), WordsFrom(inst, 3), &inst});
  }
  for (const Instruction& inst : module.execution_modes()) {
    if (inst.num_operands() >= 2) execution_modes_[inst.word(0)].push_back(&inst);
  }
  for (const Instruction& inst : module.debug()) {
    if (inst.opcode() == spv::Op::OpName) names_.Set(inst.word(0), &inst);
    if (inst.opcode() == spv::Op::OpMemberName) member_names_.push_back(&inst);
  }

  // Group decorations are applied to the group id first, then copied to its targets; a group is
  // decorated before any OpGroupDecorate that uses it.
  for (const Instruction& inst : module.annotations()) {
    switch (inst.opcode()) {
      case spv::Op::OpDecorate:
      case spv::Op::OpDecorateId:
      case spv::Op::OpDecorateString:
        AddDecoration(inst.word(0), {static_cast<spv::Decoration>(inst.word(1)), std::nullopt,
                                     WordsFrom(inst, 2), &inst});
        break;
      case spv::Op::OpMemberDecorate:
      case spv::Op::OpMemberDecorateString:
        AddDecoration(inst.word(0), {static_cast<spv::Decoration>(inst.word(2)), inst.word(1),
                                     WordsFrom(inst, 3), &inst});
        break;
      case spv::Op::OpGroupDecorate:
      case spv::Op::OpGroupMemberDecorate: {
        const bool members = inst.opcode() == spv::Op::OpGroupMemberDecorate;
        // Copied, since AddDecoration may reallocate the storage the span points into.
        const std::vector<DecorationInfo> group(GetDecorations(inst.word(0)).begin(),
                                                GetDecorations(inst.word(0)).end());
        for (size_t i = 1; i < inst.num_operands(); i += members ? 2 : 1) {
          for (DecorationInfo info : group) {
            if (members && i + 1 < inst.num_operands()) info.member = inst.word(i + 1);
            AddDecoration(inst.word(i), info);
          }
        }
        break;
      }
      default:
        break;
    }
  }

  for (const Function& function : module.functions()) {
    function_slot_.Set(function.id(), static_cast<uint32_t>(functions_.size()));
    FunctionEntry& entry = functions_.emplace_back(FunctionEntry{&function, {}});
    for (const BasicBlock& block : function.blocks) {
      for (const Instruction& inst : block.instructions) {
        if (inst.opcode() != spv::Op::OpFunctionCall || inst.num_operands() == 0) continue;
        const uint32_t callee = inst.word(0);
        if (std::find(entry.callees.begin(), entry.callees.end(), callee) == entry.callees.end()) {
          entry.callees.push_back(callee);
        }
      }
    }
  }
}

void ModuleInfo::AddDecoration(uint32_t target, const DecorationInfo& info) {
  const uint32_t* slot = decoration_slot_.Get(target);
  if (!slot) {
    decoration_slot_.Set(target, static_cast<uint32_t>(decorations_.size()));
    decorations_.emplace_back().push_back(info);
    return;
  }
  decorations_[*slot].push_back(info);
}

const EntryPoint* ModuleInfo::FindEntryPoint(std::string_view name) const {
  for (const EntryPoint& entry : entry_points_) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

std::vector<ExecutionModeInfo> ModuleInfo::GetExecutionModes(uint32_t function_id) const {
  std::vector<ExecutionModeInfo> modes;
  auto found = execution_modes_.find(function_id);
  if (found == execution_modes_.end()) return modes;
  for (const Instruction* inst : found->second) {
    modes.push_back({static_cast<spv::ExecutionMode>(inst->word(1)), WordsFrom(*inst, 2),
                     inst->opcode() == spv::Op::OpExecutionModeId, inst});
  }
  return modes;
}

std::optional<ExecutionModeInfo> ModuleInfo::FindExecutionMode(uint32_t function_id,
                                                               spv::ExecutionMode mode) const {
  for (const ExecutionModeInfo& info : GetExecutionModes(function_id)) {
    if (info.mode == mode) return info;
  }
  return std::nullopt;
}

std::string ModuleInfo::GetName(uint32_t id) const {
  const Instruction* const* inst = names_.Get(id);
  return inst ? (*inst)->StringOperand(1) : std::string();
}

std::string ModuleInfo::GetMemberName(uint32_t id, uint32_t member) const {
  for (const Instruction* inst : member_names_) {
    if (inst->word(0) == id && inst->word(1) == member) return inst->StringOperand(2);
  }
  return {};
}

std::span<const DecorationInfo> ModuleInfo::GetDecorations(uint32_t id) const {
  const uint32_t* slot = decoration_slot_.Get(id);
  return slot ? std::span<const DecorationInfo>(decorations_[*slot])
              : std::span<const DecorationInfo>();
}

const DecorationInfo* ModuleInfo::FindDecoration(uint32_t id, spv::Decoration decoration) const {
  for (const DecorationInfo& info : GetDecorations(id)) {
    if (info.decoration == decoration && !info.member) return &info;
  }
  return nullptr;
}

const Function* ModuleInfo::GetFunction(uint32_t id) const {
  const uint32_t* slot = function_slot_.Get(id);
  return slot ? functions_[*slot].function : nullptr;
}

std::span<const uint32_t> ModuleInfo::GetCallees(uint32_t function_id) const {
  const uint32_t* slot = function_slot_.Get(function_id);
  return slot ? std::span<const uint32_t>(functions_[*slot].callees) : std::span<const uint32_t>();
}

}  // namespace xmx::ir
