#include "interp/load/invariant_code.hpp"

#include <unordered_map>

#include "ir/id_operands.hpp"

namespace xmx::interp {
namespace {

// Whether any branch of `function` targets `label`.
bool IsBranchTarget(const ir::Function& function, uint32_t label) {
  bool target = false;
  for (const ir::BasicBlock& block : function.blocks) {
    if (block.instructions.empty()) continue;
    ir::ForEachBranchTarget(block.instructions.back(), [&](uint32_t to) { target |= to == label; });
  }
  return target;
}

bool IsCopy(spv::Op op) {
  return op == spv::Op::OpBitcast || op == spv::Op::OpPtrCastToGeneric ||
         op == spv::Op::OpGenericCastToPtr;
}

bool IsPure(spv::Op op) {
  switch (op) {
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain:
      return true;
    default:
      return IsCopy(op);
  }
}

}  // namespace

InvariantCode FindInvariantCode(const ir::Function& function,
                                const std::unordered_set<uint32_t>& excluded) {
  InvariantCode code;
  if (function.blocks.empty()) return code;
  const ir::BasicBlock& entry = function.blocks.front();
  if (IsBranchTarget(function, entry.id())) return code;

  // Ids defined in the function but not (yet) known invariant; any other id is invariant.
  std::unordered_set<uint32_t> variant;
  for (const ir::BasicBlock& block : function.blocks) {
    if (&block == &entry) continue;
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.has_result_id()) variant.insert(inst.result_id());
    }
  }
  for (uint32_t id : excluded) variant.insert(id);
  // Candidates wait for their variant operands: when the last one becomes invariant, so do they.
  // A worklist keeps this linear whatever the block order.
  std::unordered_map<uint32_t, std::vector<const ir::Instruction*>> waiting;
  std::unordered_map<const ir::Instruction*, uint32_t> pending;
  std::vector<const ir::Instruction*> ready;
  for (const ir::BasicBlock& block : function.blocks) {
    if (&block == &entry) continue;
    for (const ir::Instruction& inst : block.instructions) {
      if (!IsPure(inst.opcode()) || excluded.count(inst.result_id())) continue;
      uint32_t count = 0;
      ir::ForEachIdOperand(inst, [&](uint32_t id, size_t) {
        if (!variant.count(id)) return;
        waiting[id].push_back(&inst);
        ++count;
      });
      if (count == 0) ready.push_back(&inst);
      pending[&inst] = count;
    }
  }
  while (!ready.empty()) {
    const ir::Instruction* inst = ready.back();
    ready.pop_back();
    code.hoisted.push_back(inst);
    if (IsCopy(inst->opcode())) code.copies.emplace_back(inst->result_id(), inst->word(0));
    variant.erase(inst->result_id());
    auto users = waiting.find(inst->result_id());
    if (users == waiting.end()) continue;
    for (const ir::Instruction* user : users->second) {
      if (--pending[user] == 0) ready.push_back(user);
    }
  }
  return code;
}

}  // namespace xmx::interp
