#include "interp/load/variable_promotion.hpp"

#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "interp/load/dominators.hpp"
#include "ir/id_operands.hpp"
#include "ir/type_table.hpp"
#include "ir/value_types.hpp"

namespace xmx::interp {
namespace {

// "No store reached here": the value a variable's memory held before the activation stored it.
constexpr uint32_t kBeforeAnyStore = 0;

// Memory operands that change nothing about a whole-variable access at offset 0.
bool HarmlessMemoryOperands(const ir::Instruction& inst, size_t mask_operand) {
  if (inst.num_operands() <= mask_operand) return true;
  const uint32_t allowed = static_cast<uint32_t>(spv::MemoryAccess::Aligned) |
                           static_cast<uint32_t>(spv::MemoryAccess::Nontemporal);
  return (inst.word(mask_operand) & ~allowed) == 0;
}

// Facts about the module every function's promotion needs.
struct ModuleFacts {
  const ir::TypeTable* types = nullptr;
  const ir::ValueTypes* values = nullptr;
  bool physical32 = false;
  std::unordered_set<uint32_t> decorated;  // ids with a decoration other than Alignment
  std::unordered_set<uint32_t> recursive;  // functions on a call cycle
  bool kernel_called = false;
};

ModuleFacts FactsOf(const ir::Module& module, const ir::TypeTable& types,
                    const ir::ValueTypes& values, uint32_t kernel_id) {
  ModuleFacts facts;
  facts.types = &types;
  facts.values = &values;
  facts.physical32 = types.pointer_size() == uint64_t{4};
  for (const ir::Instruction& inst : module.annotations()) {
    const bool alignment = inst.opcode() == spv::Op::OpDecorate && inst.num_operands() >= 2 &&
                           inst.word(1) == static_cast<uint32_t>(spv::Decoration::Alignment);
    if (alignment) continue;
    ir::ForEachIdOperand(inst, [&](uint32_t id, size_t) { facts.decorated.insert(id); });
  }
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees;
  for (const ir::Function& f : module.functions()) {
    for (const ir::BasicBlock& block : f.blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        if (inst.opcode() != spv::Op::OpFunctionCall || inst.num_operands() == 0) continue;
        callees[f.id()].push_back(inst.word(0));
        facts.kernel_called |= inst.word(0) == kernel_id;
      }
    }
  }
  // A function is on a cycle when it can reach itself through its callees.
  for (const auto& [function, direct] : callees) {
    std::unordered_set<uint32_t> seen;
    std::vector<uint32_t> work = direct;
    while (!work.empty()) {
      const uint32_t f = work.back();
      work.pop_back();
      if (f == function) {
        facts.recursive.insert(function);
        break;
      }
      if (!seen.insert(f).second) continue;
      auto it = callees.find(f);
      if (it != callees.end()) work.insert(work.end(), it->second.begin(), it->second.end());
    }
  }
  return facts;
}

// One OpConstantNull per type, added to the module when first needed.
class NullConstants {
 public:
  explicit NullConstants(ir::Module& module) : module_(module) {}
  uint32_t Of(uint32_t type_id) {
    auto [it, added] = ids_.emplace(type_id, 0);
    if (added) {
      it->second = module_.TakeNextId();
      module_.globals().emplace_back(spv::Op::OpConstantNull, type_id, it->second);
    }
    return it->second;
  }

 private:
  ir::Module& module_;
  std::unordered_map<uint32_t, uint32_t> ids_;
};

class FunctionPromotion {
 public:
  FunctionPromotion(ir::Module& module, ir::Function& function, const ModuleFacts& facts,
                    bool starts_zero, NullConstants& nulls)
      : module_(module),
        function_(function),
        facts_(facts),
        starts_zero_(starts_zero),
        nulls_(nulls) {}

  void Run(PromotionSummary& summary) {
    if (!BuildGraph() || !FindCandidates()) return;
    // Renaming finds the variables a load may read before any store of; without them the
    // placement and renaming are redone (each round drops at least one variable).
    while (!PlanRound()) {
    }
    Apply(summary);
  }

 private:
  struct Candidate {
    uint32_t variable = 0;
    uint32_t type = 0;  // the pointee: the values' type
    bool dropped = false;
  };

  bool BuildGraph() {
    for (ir::BasicBlock& block : function_.blocks) {
      index_.emplace(block.id(), static_cast<uint32_t>(blocks_.size()));
      blocks_.push_back(&block);
    }
    successors_.resize(blocks_.size());
    predecessors_.resize(blocks_.size());
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
      const ir::Instruction* end = blocks_[b]->terminator();
      if (end == nullptr) return false;
      ir::ForEachBranchTarget(*end, [&](uint32_t label) {
        auto it = index_.find(label);
        if (it == index_.end()) return;
        successors_[b].push_back(it->second);
        std::vector<uint32_t>& preds = predecessors_[it->second];
        if (preds.empty() || preds.back() != b) preds.push_back(b);
      });
    }
    // The entry's incoming values are the memory's; a branch back to it (never valid) would
    // bring others.
    if (blocks_.empty() || !predecessors_[0].empty()) return false;
    tree_ = ComputeDominators(successors_);
    return true;
  }

  bool PromotableType(uint32_t pointee) const {
    const ir::Type* t = facts_.types->GetType(pointee);
    if (t == nullptr) return false;
    switch (t->kind) {
      case ir::TypeKind::kBool:
      case ir::TypeKind::kInt:
      case ir::TypeKind::kFloat:
      case ir::TypeKind::kVector:
        return true;
      case ir::TypeKind::kPointer:
        return !facts_.physical32;
      default:
        return false;
    }
  }

  bool FindCandidates() {
    for (const ir::Instruction& inst : blocks_[0]->instructions) {
      if (inst.opcode() != spv::Op::OpVariable || inst.num_operands() != 1 ||
          inst.word(0) != static_cast<uint32_t>(spv::StorageClass::Function) ||
          facts_.decorated.count(inst.result_id())) {
        continue;
      }
      const ir::Type* pointer = facts_.types->GetType(inst.result_type_id());
      if (pointer == nullptr || pointer->kind != ir::TypeKind::kPointer ||
          !PromotableType(pointer->element)) {
        continue;
      }
      candidate_of_.emplace(inst.result_id(), static_cast<uint32_t>(candidates_.size()));
      candidates_.push_back({inst.result_id(), pointer->element, false});
    }
    // Every use must be a whole-variable load or store (or a lifetime marker).
    for (ir::BasicBlock* block : blocks_) {
      for (const ir::Instruction& inst : block->instructions) {
        ir::ForEachIdOperand(inst, [&](uint32_t id, size_t operand) {
          auto it = candidate_of_.find(id);
          if (it == candidate_of_.end()) return;
          Candidate& c = candidates_[it->second];
          bool allowed = false;
          switch (inst.opcode()) {
            case spv::Op::OpLoad:
              allowed = operand == 0 && inst.result_type_id() == c.type &&
                        HarmlessMemoryOperands(inst, 1);
              break;
            case spv::Op::OpStore:
              // The stored value's type is checked too: a module that reaches the loader
              // without core validation might store another type, which a load would then
              // give back with the wrong register size.
              allowed = operand == 0 && facts_.values->TypeId(inst.word(1)) == c.type &&
                        HarmlessMemoryOperands(inst, 2);
              break;
            case spv::Op::OpLifetimeStart:
            case spv::Op::OpLifetimeStop:
              allowed = operand == 0;
              break;
            default:
              break;
          }
          c.dropped |= !allowed;
        });
      }
    }
    bool any = false;
    for (const Candidate& c : candidates_) any |= !c.dropped;
    return any;
  }

  // The candidate `pointer` names when it is one still promoted.
  const Candidate* Promoted(uint32_t pointer, uint32_t* index) const {
    auto it = candidate_of_.find(pointer);
    if (it == candidate_of_.end() || candidates_[it->second].dropped) return nullptr;
    *index = it->second;
    return &candidates_[it->second];
  }

  // Places the phis and renames; false when some variables had to be dropped.
  bool PlanRound() {
    const uint32_t n = static_cast<uint32_t>(blocks_.size());
    const size_t count = candidates_.size();
    phis_.assign(n, {});
    replacement_.clear();
    removed_.clear();
    phi_inputs_.clear();
    // Blocks that store each variable, and blocks that load it before storing it.
    std::vector<std::vector<uint32_t>> stores(count), exposed(count);
    std::vector<uint32_t> stored_in(count, kNoBlock);
    for (uint32_t b = 0; b < n; ++b) {
      if (!tree_.reachable[b]) continue;
      for (const ir::Instruction& inst : blocks_[b]->instructions) {
        uint32_t v = 0;
        if (inst.opcode() == spv::Op::OpStore && Promoted(inst.word(0), &v)) {
          if (stored_in[v] != b) stores[v].push_back(b);
          stored_in[v] = b;
        } else if (inst.opcode() == spv::Op::OpLoad && Promoted(inst.word(0), &v)) {
          if (stored_in[v] != b && (exposed[v].empty() || exposed[v].back() != b)) {
            exposed[v].push_back(b);
          }
        }
      }
    }
    for (uint32_t v = 0; v < count; ++v) {
      if (!candidates_[v].dropped) PlacePhis(v, stores[v], exposed[v]);
    }
    return Rename();
  }

  // Phis of variable v at the iterated dominance frontier of its stores, where it is live.
  void PlacePhis(uint32_t v, const std::vector<uint32_t>& stores,
                 const std::vector<uint32_t>& exposed) {
    const uint32_t n = static_cast<uint32_t>(blocks_.size());
    std::vector<uint8_t> stores_here(n, 0), live(n, 0), in_frontier(n, 0);
    for (uint32_t b : stores) stores_here[b] = 1;
    // Live on entry: a load before any store in the block, or live on entry to a successor of
    // a block that does not store it.
    std::vector<uint32_t> work;
    for (uint32_t b : exposed) {
      live[b] = 1;
      work.push_back(b);
    }
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      for (uint32_t p : predecessors_[b]) {
        if (!tree_.reachable[p] || live[p] || stores_here[p]) continue;
        live[p] = 1;
        work.push_back(p);
      }
    }
    work = stores;
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      for (uint32_t f : tree_.frontier[b]) {
        if (in_frontier[f]) continue;
        in_frontier[f] = 1;
        work.push_back(f);
        if (live[f]) phis_[f].push_back({v, module_.TakeNextId()});
      }
    }
  }

  uint32_t Resolve(uint32_t id) const {
    auto it = replacement_.find(id);
    return it == replacement_.end() ? id : it->second;
  }

  // The value of variable v where the top of its stack is `top`; kBeforeAnyStore drops v when
  // its memory would be an earlier call's.
  uint32_t ValueOf(uint32_t v, uint32_t top, bool* dropped) {
    if (top != kBeforeAnyStore) return top;
    if (starts_zero_) return nulls_.Of(candidates_[v].type);
    candidates_[v].dropped = true;
    *dropped = true;
    return kBeforeAnyStore;
  }

  bool Rename() {
    std::vector<std::vector<uint32_t>> stacks(candidates_.size());
    auto top = [&](uint32_t v) { return stacks[v].empty() ? kBeforeAnyStore : stacks[v].back(); };
    bool dropped = false;
    // Dominator-tree walk: (block, entering) events; leaving pops what entering pushed.
    std::vector<std::pair<uint32_t, bool>> events{{0, true}};
    std::vector<std::vector<uint32_t>> pushed(blocks_.size());
    while (!events.empty()) {
      const auto [b, entering] = events.back();
      events.pop_back();
      if (!entering) {
        for (uint32_t v : pushed[b]) stacks[v].pop_back();
        continue;
      }
      for (const auto& [v, phi] : phis_[b]) {
        stacks[v].push_back(phi);
        pushed[b].push_back(v);
      }
      for (ir::Instruction& inst : blocks_[b]->instructions) {
        uint32_t v = 0;
        if (inst.opcode() == spv::Op::OpLoad && Promoted(inst.word(0), &v)) {
          replacement_[inst.result_id()] = ValueOf(v, top(v), &dropped);
          removed_.insert(&inst);
        } else if (inst.opcode() == spv::Op::OpStore && Promoted(inst.word(0), &v)) {
          stacks[v].push_back(Resolve(inst.word(1)));
          pushed[b].push_back(v);
          removed_.insert(&inst);
        }
      }
      for (uint32_t s : successors_[b]) {
        for (const auto& [v, phi] : phis_[s]) {
          phi_inputs_[{phi, b}] = ValueOf(v, top(v), &dropped);
        }
      }
      events.emplace_back(b, false);
      for (uint32_t child : tree_.children[b]) events.emplace_back(child, true);
    }
    return !dropped;
  }

  void Apply(PromotionSummary& summary) {
    for (const Candidate& c : candidates_) summary.variables += c.dropped ? 0 : 1;
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
      ir::InstructionList& list = blocks_[b]->instructions;
      list.remove_if([&](const ir::Instruction& inst) {
        if (removed_.count(&inst) == 0) return false;
        ++(inst.opcode() == spv::Op::OpLoad ? summary.loads : summary.stores);
        return true;
      });
      for (ir::Instruction& inst : list) {
        ir::ForEachIdOperand(inst, [&](uint32_t id, size_t operand) {
          const uint32_t value = Resolve(id);
          if (value != id) inst.SetWord(operand, value);
        });
      }
      // A phi has an input for every predecessor; one the entry cannot reach never runs.
      for (auto it = phis_[b].rbegin(); it != phis_[b].rend(); ++it) {
        const auto [v, id] = *it;
        ir::Instruction phi(spv::Op::OpPhi, candidates_[v].type, id);
        for (uint32_t p : predecessors_[b]) {
          auto input = phi_inputs_.find({id, p});
          phi.AddIdOperand(input != phi_inputs_.end() ? input->second
                                                      : nulls_.Of(candidates_[v].type));
          phi.AddIdOperand(blocks_[p]->id());
        }
        list.push_front(std::move(phi));
        ++summary.phis;
      }
    }
  }

  struct PairHash {
    size_t operator()(const std::pair<uint32_t, uint32_t>& p) const {
      return std::hash<uint64_t>()((uint64_t{p.first} << 32) | p.second);
    }
  };

  ir::Module& module_;
  ir::Function& function_;
  const ModuleFacts& facts_;
  const bool starts_zero_;
  NullConstants& nulls_;
  std::vector<ir::BasicBlock*> blocks_;
  std::unordered_map<uint32_t, uint32_t> index_;                  // label -> block number
  std::vector<std::vector<uint32_t>> successors_, predecessors_;  // predecessors distinct
  DominatorTree tree_;
  std::vector<Candidate> candidates_;
  std::unordered_map<uint32_t, uint32_t> candidate_of_;  // variable id -> candidate
  // The plan of the last round.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> phis_;  // per block: (candidate, id)
  std::unordered_map<uint32_t, uint32_t> replacement_;            // load result -> value
  std::unordered_set<const ir::Instruction*> removed_;            // promoted loads and stores
  std::unordered_map<std::pair<uint32_t, uint32_t>, uint32_t, PairHash> phi_inputs_;
};

}  // namespace

bool MayPromoteVariables(const ir::Module& module) {
  // Pointer types to a scalar, vector or pointer, from the declarations alone (no type table).
  std::unordered_set<uint32_t> values, pointers;
  for (const ir::Instruction& inst : module.globals()) {
    switch (inst.opcode()) {
      case spv::Op::OpTypeBool:
      case spv::Op::OpTypeInt:
      case spv::Op::OpTypeFloat:
      case spv::Op::OpTypeVector:
        values.insert(inst.result_id());
        break;
      case spv::Op::OpTypePointer:
        values.insert(inst.result_id());
        if (inst.num_operands() >= 2 &&
            inst.word(0) == static_cast<uint32_t>(spv::StorageClass::Function) &&
            values.count(inst.word(1))) {
          pointers.insert(inst.result_id());
        }
        break;
      default:
        break;
    }
  }
  for (const ir::Function& f : module.functions()) {
    if (f.blocks.empty()) continue;
    for (const ir::Instruction& inst : f.blocks.front().instructions) {
      if (inst.opcode() == spv::Op::OpVariable && inst.num_operands() == 1 &&
          pointers.count(inst.result_type_id())) {
        return true;
      }
    }
  }
  return false;
}

std::optional<ir::Module> PromotePrivateVariables(const ir::Module& module, uint32_t kernel_id,
                                                  PromotionSummary* summary) {
  if (!MayPromoteVariables(module)) return std::nullopt;
  const ir::TypeTable types(module);
  const ir::ValueTypes values(module);
  const ModuleFacts facts = FactsOf(module, types, values, kernel_id);
  ir::Module copy = module;
  NullConstants nulls(copy);
  PromotionSummary total;
  for (ir::Function& f : copy.functions()) {
    if (f.blocks.empty() || facts.recursive.count(f.id())) continue;
    const bool starts_zero = f.id() == kernel_id && !facts.kernel_called;
    FunctionPromotion(copy, f, facts, starts_zero, nulls).Run(total);
  }
  if (summary != nullptr) *summary = total;
  if (total.variables == 0) return std::nullopt;
  return copy;
}

}  // namespace xmx::interp
