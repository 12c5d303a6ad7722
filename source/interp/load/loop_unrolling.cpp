#include "interp/load/loop_unrolling.hpp"

#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "interp/load/block_merging.hpp"
#include "interp/load/constant_folding.hpp"
#include "interp/load/dominators.hpp"
#include "interp/load/opcode_table.hpp"
#include "ir/id_operands.hpp"
#include "ir/type_table.hpp"

namespace xmx::interp {
namespace {

bool IsMerge(spv::Op op) { return op == spv::Op::OpLoopMerge || op == spv::Op::OpSelectionMerge; }

// Instructions a loop to unroll may not hold: barriers (the scheduler tells barriers apart by
// the instruction), work-group and subgroup collectives of the group family, calls.
bool BlocksUnrolling(spv::Op op) {
  switch (op) {
    case spv::Op::OpControlBarrier:
    case spv::Op::OpControlBarrierArriveINTEL:
    case spv::Op::OpControlBarrierWaitINTEL:
    case spv::Op::OpFunctionCall:
    case spv::Op::OpReturn:
    case spv::Op::OpReturnValue:
    case spv::Op::OpKill:
    case spv::Op::OpUnreachable:
    case spv::Op::OpTerminateInvocation:
    case spv::Op::OpSwitch:
      return true;
    default: {
      const std::optional<OpcodeFamily> family = FamilyOf(op);
      return family && *family == OpcodeFamily::kGroup;
    }
  }
}

bool IsDirectDecoration(const ir::Instruction& inst) {
  return inst.opcode() == spv::Op::OpDecorate || inst.opcode() == spv::Op::OpDecorateId ||
         inst.opcode() == spv::Op::OpDecorateString;
}

// Annotations that may point at a function's ids.
struct ModuleIndex {
  std::unordered_set<uint32_t> decorated;      // targets of OpDecorate, OpDecorateId, ...String
  std::unordered_set<uint32_t> not_foldable;   // of those, with a decoration folding must keep
  std::unordered_set<uint32_t> group_members;  // ids named by OpGroupDecorate or in another place
};

ModuleIndex IndexOf(const ir::Module& module) {
  ModuleIndex index;
  for (const ir::Instruction& inst : module.annotations()) {
    const bool direct = IsDirectDecoration(inst);
    ir::ForEachIdOperand(inst, [&](uint32_t id, size_t operand) {
      (direct && operand == 0 ? index.decorated : index.group_members).insert(id);
    });
    // The interpreter wraps integer arithmetic whatever NoSignedWrap and NoUnsignedWrap say
    // (an overflow they rule out is not one of the reported behaviours), so the folded value is
    // the one it computes; any other decoration (saturation, rounding, ...) keeps the instruction.
    const bool wrap = inst.opcode() == spv::Op::OpDecorate && inst.num_operands() >= 2 &&
                      (inst.word(1) == static_cast<uint32_t>(spv::Decoration::NoSignedWrap) ||
                       inst.word(1) == static_cast<uint32_t>(spv::Decoration::NoUnsignedWrap));
    if (direct && !wrap && inst.num_operands() > 0) index.not_foldable.insert(inst.word(0));
  }
  return index;
}

class FunctionUnroller {
 public:
  FunctionUnroller(ir::Module& module, ir::Function& function, ConstantPool& pool,
                   ModuleIndex& index, uint32_t& budget, UnrollSummary& summary)
      : module_(module),
        function_(function),
        pool_(pool),
        index_(index),
        budget_(budget),
        summary_(summary) {}

  // Unrolls one innermost qualifying loop; false when there is none left.
  bool UnrollOne() {
    if (!BuildGraph()) return false;
    for (const Loop& loop : FindLoops()) {
      if (rejected_.count(blocks_[loop.header]->id())) continue;
      if (TryUnroll(loop)) return true;
      rejected_.insert(blocks_[loop.header]->id());
    }
    return false;
  }

 private:
  struct Loop {
    uint32_t header = 0, latch = 0;
    std::vector<uint8_t> in;  // per block
  };

  bool BuildGraph() {
    blocks_.clear();
    number_.clear();
    defs_.clear();
    for (ir::BasicBlock& block : function_.blocks) {
      number_.emplace(block.id(), static_cast<uint32_t>(blocks_.size()));
      blocks_.push_back(&block);
    }
    successors_.assign(blocks_.size(), {});
    predecessors_.assign(blocks_.size(), {});
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
      const ir::Instruction* end = blocks_[b]->terminator();
      if (end == nullptr) return false;
      ir::ForEachBranchTarget(*end, [&](uint32_t label) {
        auto it = number_.find(label);
        if (it == number_.end()) return;
        successors_[b].push_back(it->second);
        std::vector<uint32_t>& preds = predecessors_[it->second];
        if (preds.empty() || preds.back() != b) preds.push_back(b);
      });
      for (ir::Instruction& inst : blocks_[b]->instructions) {
        if (inst.has_result_id()) defs_[inst.result_id()] = {b, &inst};
      }
    }
    if (blocks_.empty() || !predecessors_[0].empty()) return false;
    tree_ = ComputeDominators(successors_);
    return true;
  }

  bool Dominates(uint32_t a, uint32_t b) const {
    for (uint32_t x = b; x != kNoBlock; x = tree_.idom[x]) {
      if (x == a) return true;
    }
    return false;
  }

  // Natural loops with one back edge, innermost (holding no other header) first.
  std::vector<Loop> FindLoops() const {
    const uint32_t n = static_cast<uint32_t>(blocks_.size());
    std::vector<std::vector<uint32_t>> latches(n);
    std::vector<uint8_t> is_header(n, 0);
    for (uint32_t b = 0; b < n; ++b) {
      if (!tree_.reachable[b]) continue;
      for (uint32_t s : successors_[b]) {
        if (Dominates(s, b)) {
          if (latches[s].empty() || latches[s].back() != b) latches[s].push_back(b);
          is_header[s] = 1;
        }
      }
    }
    std::vector<Loop> loops;
    for (uint32_t h = 0; h < n; ++h) {
      if (latches[h].size() != 1 || latches[h][0] == h) continue;
      Loop loop;
      loop.header = h;
      loop.latch = latches[h][0];
      loop.in.assign(n, 0);
      loop.in[h] = 1;
      std::vector<uint32_t> work{loop.latch};
      loop.in[loop.latch] = 1;
      bool inner = true;
      while (!work.empty()) {
        const uint32_t b = work.back();
        work.pop_back();
        inner &= !is_header[b] || b == h;
        for (uint32_t p : predecessors_[b]) {
          if (loop.in[p] || !tree_.reachable[p]) continue;
          loop.in[p] = 1;
          work.push_back(p);
        }
      }
      if (inner) loops.push_back(std::move(loop));
    }
    return loops;
  }

  // The constant `id` stands for in one iteration, where `env` holds the header phis known
  // constant; nullopt when it is not one.
  std::optional<uint32_t> Evaluate(uint32_t id, const Loop& loop,
                                   const std::unordered_map<uint32_t, uint32_t>& env,
                                   std::unordered_map<uint32_t, std::optional<uint32_t>>& memo,
                                   int depth) {
    if (pool_.Get(id)) return id;
    if (auto it = env.find(id); it != env.end()) return it->second;
    if (auto it = memo.find(id); it != memo.end()) return it->second;
    auto def = defs_.find(id);
    if (def == defs_.end() || !loop.in[def->second.first] || depth > 64 ||
        def->second.second->opcode() == spv::Op::OpPhi || index_.not_foldable.count(id)) {
      return std::nullopt;
    }
    const std::optional<uint32_t> folded =
        FoldConstant(*def->second.second, pool_, [&](uint32_t operand) {
          return Evaluate(operand, loop, env, memo, depth + 1).value_or(0);
        });
    std::optional<uint32_t> result;
    if (folded && pool_.Get(*folded)) result = folded;
    memo[id] = result;
    return result;
  }

  bool TryUnroll(const Loop& loop) {
    const uint32_t n = static_cast<uint32_t>(blocks_.size());
    ir::BasicBlock& header = *blocks_[loop.header];
    // One entry from outside, the back edge, and the header's exit test.
    if (predecessors_[loop.header].size() != 2) return false;
    const uint32_t preheader = predecessors_[loop.header][0] == loop.latch
                                   ? predecessors_[loop.header][1]
                                   : predecessors_[loop.header][0];
    if (loop.in[preheader]) return false;
    const ir::Instruction* test = header.terminator();
    if (test->opcode() != spv::Op::OpBranchConditional || test->num_operands() != 3) return false;
    const uint32_t on_true = test->word(1), on_false = test->word(2);
    if (!number_.count(on_true) || !number_.count(on_false)) return false;
    const bool true_stays = loop.in[number_[on_true]] != 0;
    if (true_stays == (loop.in[number_[on_false]] != 0)) return false;
    const uint32_t body_entry = true_stays ? on_true : on_false;
    const uint32_t exit = true_stays ? on_false : on_true;
    if (body_entry == header.id()) return false;
    // The rest of the loop branches only within it; nothing in it that must stay one instance.
    uint64_t header_size = 0, body_size = 0;
    std::unordered_set<uint32_t> body_ids, header_ids;  // results and labels
    for (uint32_t b = 0; b < n; ++b) {
      if (!loop.in[b]) continue;
      if (b != loop.header) {
        for (uint32_t s : successors_[b]) {
          if (!loop.in[s]) return false;
        }
        body_ids.insert(blocks_[b]->id());
      } else {
        header_ids.insert(blocks_[b]->id());
      }
      for (const ir::Instruction& inst : blocks_[b]->instructions) {
        if (BlocksUnrolling(inst.opcode())) return false;
        if (b != loop.header && inst.opcode() == spv::Op::OpLoopMerge) return false;
        if (inst.has_result_id()) {
          (b == loop.header ? header_ids : body_ids).insert(inst.result_id());
          if (index_.group_members.count(inst.result_id())) return false;
        }
        ++(b == loop.header ? header_size : body_size);
      }
    }
    if (index_.group_members.count(header.id())) return false;
    for (uint32_t b = 0; b < n; ++b) {
      if (loop.in[b]) continue;
      bool outside_use = false;
      for (const ir::Instruction& inst : blocks_[b]->instructions) {
        ir::ForEachIdOperand(inst, [&](uint32_t id, size_t) { outside_use |= body_ids.count(id); });
      }
      if (outside_use) return false;
    }
    // The trip count, by running the exit test on constants.
    std::vector<const ir::Instruction*> phis;
    std::unordered_map<uint32_t, uint32_t> env;
    for (const ir::Instruction& inst : header.instructions) {
      if (inst.opcode() != spv::Op::OpPhi) continue;
      if (inst.num_operands() != 4) return false;
      phis.push_back(&inst);
      const uint32_t initial = Incoming(inst, blocks_[preheader]->id());
      if (initial == 0) return false;
      if (pool_.Get(initial)) env[inst.result_id()] = initial;
    }
    uint32_t trips = 0;
    for (;;) {
      std::unordered_map<uint32_t, std::optional<uint32_t>> memo;
      const std::optional<uint32_t> condition = Evaluate(test->word(0), loop, env, memo, 0);
      if (!condition) return false;
      const bool stays = (pool_.Get(*condition)->bits != 0) == true_stays;
      if (!stays) break;
      if (++trips > kMaxUnrolledTrips) return false;
      std::unordered_map<uint32_t, uint32_t> next;
      for (const ir::Instruction* phi : phis) {
        const uint32_t value = Incoming(*phi, blocks_[loop.latch]->id());
        if (value == 0) return false;
        if (std::optional<uint32_t> c = Evaluate(value, loop, env, memo, 0)) {
          next[phi->result_id()] = *c;
        }
      }
      env = std::move(next);
    }
    const uint64_t growth = (trips + 1) * header_size + trips * body_size;
    if (growth > kMaxUnrolledLoopInstructions || growth > budget_) return false;
    budget_ -= static_cast<uint32_t>(growth);
    Rewrite(loop, trips, preheader, body_entry, exit, phis, header_ids, body_ids);
    ++summary_.loops;
    summary_.iterations += trips;
    return true;
  }

  static uint32_t Incoming(const ir::Instruction& phi, uint32_t from) {
    for (size_t i = 0; i + 1 < phi.num_operands(); i += 2) {
      if (phi.word(i + 1) == from) return phi.word(i);
    }
    return 0;
  }

  uint32_t Resolve(uint32_t id) const {
    for (auto it = folded_.find(id); it != folded_.end(); it = folded_.find(id)) id = it->second;
    return id;
  }

  // Replaces the loop by `trips` copies of header and body and a last copy of the header that
  // branches to the exit.
  void Rewrite(const Loop& loop, uint32_t trips, uint32_t preheader, uint32_t body_entry,
               uint32_t exit, const std::vector<const ir::Instruction*>& phis,
               const std::unordered_set<uint32_t>& header_ids,
               const std::unordered_set<uint32_t>& body_ids) {
    const uint32_t header_label = blocks_[loop.header]->id();
    const uint32_t latch_label = blocks_[loop.latch]->id();
    std::vector<std::unordered_map<uint32_t, uint32_t>> ids(trips + 1);
    for (uint32_t k = 0; k <= trips; ++k) {
      for (uint32_t id : header_ids) ids[k][id] = module_.TakeNextId();
      if (k < trips) {
        for (uint32_t id : body_ids) ids[k][id] = module_.TakeNextId();
      }
    }
    auto in_copy = [&](uint32_t k, uint32_t id) {
      auto it = ids[k].find(id);
      return it == ids[k].end() ? id : it->second;
    };
    // Each copy's header phis are values: the entry's, then the previous copy's back-edge value.
    for (uint32_t k = 0; k <= trips; ++k) {
      for (const ir::Instruction* phi : phis) {
        ids[k][phi->result_id()] = k == 0 ? Incoming(*phi, blocks_[preheader]->id())
                                          : Resolve(in_copy(k - 1, Incoming(*phi, latch_label)));
      }
    }
    std::list<ir::BasicBlock> made;
    for (uint32_t k = 0; k <= trips; ++k) {
      ir::BasicBlock& copy = made.emplace_back();
      copy.label = blocks_[loop.header]->label;
      copy.label.set_result_id(ids[k][header_label]);
      for (const ir::Instruction& inst : blocks_[loop.header]->instructions) {
        if (inst.opcode() == spv::Op::OpPhi || IsMerge(inst.opcode())) continue;
        if (&inst == blocks_[loop.header]->terminator()) {
          ir::Instruction branch(spv::Op::OpBranch);
          branch.AddIdOperand(k < trips ? ids[k][body_entry] : exit);
          branch.set_source(inst.source_index(), inst.source_word_offset());
          copy.instructions.push_back(std::move(branch));
          continue;
        }
        Clone(inst, copy, [&](uint32_t id, bool) { return Resolve(in_copy(k, id)); });
      }
      if (k == trips) break;
      for (uint32_t b = 0; b < blocks_.size(); ++b) {
        if (!loop.in[b] || b == loop.header) continue;
        ir::BasicBlock& body = made.emplace_back();
        body.label = blocks_[b]->label;
        body.label.set_result_id(ids[k][blocks_[b]->id()]);
        for (const ir::Instruction& inst : blocks_[b]->instructions) {
          // The back edge goes to the next copy's header; a phi's edge from the header comes
          // from this copy's.
          Clone(inst, body, [&](uint32_t id, bool phi_label) {
            if (id == header_label) return phi_label ? ids[k][header_label] : ids[k + 1][id];
            return Resolve(in_copy(k, id));
          });
        }
      }
    }
    // Values folded after a forward reference to them was cloned (a phi's operand).
    for (ir::BasicBlock& block : made) {
      for (ir::Instruction& inst : block.instructions) ResolveOperands(inst);
    }
    // Outside the loop: the entry branch goes to the first copy, the exit's phis come from the
    // last one, header values used after the loop are the last copy's.
    const uint32_t first = ids[0][header_label], last = ids[trips][header_label];
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
      if (loop.in[b]) continue;
      for (ir::Instruction& inst : blocks_[b]->instructions) {
        const bool phi = inst.opcode() == spv::Op::OpPhi;
        ir::ForEachIdOperand(inst, [&](uint32_t id, size_t operand) {
          uint32_t to = id;
          if (id == header_label) {
            to = phi && operand % 2 == 1 ? last : first;
          } else if (header_ids.count(id)) {
            to = Resolve(ids[trips][id]);
          }
          if (to != id) inst.SetWord(operand, to);
        });
      }
    }
    // Annotations and names of the removed ids go with them.
    std::unordered_set<uint32_t> removed(header_ids);
    removed.insert(body_ids.begin(), body_ids.end());
    auto names_removed = [&](const ir::Instruction& inst) {
      return inst.num_operands() > 0 && removed.count(inst.word(0)) &&
             (inst.opcode() == spv::Op::OpName || inst.opcode() == spv::Op::OpDecorate ||
              inst.opcode() == spv::Op::OpDecorateId || inst.opcode() == spv::Op::OpDecorateString);
    };
    module_.annotations().remove_if(names_removed);
    module_.debug().remove_if(names_removed);
    for (ir::Instruction& added : decorations_) module_.annotations().push_back(std::move(added));
    decorations_.clear();
    // The copies take the loop's place (the header came first of its blocks: it dominates them).
    auto at = function_.blocks.begin();
    while (&*at != blocks_[loop.header]) ++at;
    function_.blocks.splice(at, made);
    function_.blocks.remove_if([&](const ir::BasicBlock& block) {
      auto it = number_.find(block.id());
      return it != number_.end() && blocks_[it->second] == &block && loop.in[it->second];
    });
    (void)exit;
  }

  // Appends a copy of `inst` to `block` with its ids renamed by `rename(id, is_phi_label)`,
  // unless it folds to a constant.
  template <typename Rename>
  void Clone(const ir::Instruction& inst, ir::BasicBlock& block, Rename&& rename) {
    ir::Instruction copy = inst;
    const bool phi = inst.opcode() == spv::Op::OpPhi;
    ir::ForEachIdOperand(copy, [&](uint32_t id, size_t operand) {
      const uint32_t to = rename(id, phi && operand % 2 == 1);
      if (to != id) copy.SetWord(operand, to);
    });
    if (inst.has_result_id()) {
      const uint32_t old_id = inst.result_id();
      const uint32_t new_id = rename(old_id, false);
      if (!index_.not_foldable.count(old_id)) {
        const std::optional<uint32_t> value =
            FoldConstant(copy, pool_, [&](uint32_t id) { return Resolve(id); });
        if (value) {
          folded_[new_id] = *value;
          ++summary_.folded;
          return;
        }
      }
      if (index_.decorated.count(old_id)) {
        for (const ir::Instruction& d : module_.annotations()) {
          if (!IsDirectDecoration(d) || d.num_operands() == 0 || d.word(0) != old_id) continue;
          ir::Instruction added = d;
          added.SetWord(0, new_id);
          decorations_.push_back(std::move(added));
          index_.decorated.insert(new_id);
          if (index_.not_foldable.count(old_id)) index_.not_foldable.insert(new_id);
        }
      }
      copy.set_result_id(new_id);
    }
    block.instructions.push_back(std::move(copy));
  }

  void ResolveOperands(ir::Instruction& inst) const {
    ir::ForEachIdOperand(inst, [&](uint32_t id, size_t operand) {
      const uint32_t to = Resolve(id);
      if (to != id) inst.SetWord(operand, to);
    });
  }

  ir::Module& module_;
  ir::Function& function_;
  ConstantPool& pool_;
  ModuleIndex& index_;
  uint32_t& budget_;
  UnrollSummary& summary_;
  std::vector<ir::BasicBlock*> blocks_;
  std::unordered_map<uint32_t, uint32_t> number_;  // label -> block number
  std::vector<std::vector<uint32_t>> successors_, predecessors_;
  std::unordered_map<uint32_t, std::pair<uint32_t, ir::Instruction*>> defs_;
  DominatorTree tree_;
  std::unordered_set<uint32_t> rejected_;          // headers of loops that do not qualify
  std::unordered_map<uint32_t, uint32_t> folded_;  // cloned result -> its value
  std::vector<ir::Instruction> decorations_;       // for decorated clones
};

}  // namespace

bool MayUnrollLoops(const ir::Module& module) {
  for (const ir::Function& f : module.functions()) {
    std::unordered_set<uint32_t> seen;
    for (const ir::BasicBlock& block : f.blocks) {
      seen.insert(block.id());
      const ir::Instruction* end = block.terminator();
      if (end == nullptr) continue;
      bool back = false;
      ir::ForEachBranchTarget(*end, [&](uint32_t label) { back |= seen.count(label) != 0; });
      if (back) return true;
    }
  }
  return false;
}

bool UnrollConstantTripLoops(ir::Module& module, UnrollSummary* summary) {
  UnrollSummary total;
  {
    const ir::TypeTable types(module);
    ConstantPool pool(module, types);
    ModuleIndex index = IndexOf(module);
    uint32_t budget = kMaxUnrolledModuleInstructions;
    for (ir::Function& f : module.functions()) {
      if (f.blocks.empty()) continue;
      FunctionUnroller unroller(module, f, pool, index, budget, total);
      while (unroller.UnrollOne()) {
      }
    }
  }
  const std::unordered_set<uint32_t> decorated = DecoratedIds(module);
  for (ir::Function& f : module.functions()) {
    total.merged_blocks += MergeStraightLineBlocks(f, decorated);
  }
  if (summary != nullptr) *summary = total;
  return total.loops != 0 || total.merged_blocks != 0;
}

}  // namespace xmx::interp
