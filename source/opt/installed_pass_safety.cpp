#include "opt/installed_pass_safety.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bridge/bridge.hpp"
#include "grammar/grammar.hpp"

namespace xmx::opt {
namespace {

using spv::Op;

bool IsAccessChain(Op op) {
  return op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain || op == Op::OpPtrAccessChain ||
         op == Op::OpInBoundsPtrAccessChain || op == Op::OpCopyObject;
}

// Instructions a loop-invariant load could be moved past although they change memory.
bool WritesMemory(const ir::Instruction& inst) {
  const Op op = inst.opcode();
  if (op == Op::OpStore || op == Op::OpCopyMemory || op == Op::OpCopyMemorySized ||
      op == Op::OpFunctionCall || op == Op::OpExtInst) {
    return true;
  }
  const uint32_t value = static_cast<uint32_t>(op);
  // The atomics (OpAtomicLoad included: conservative) and every instruction of an extension.
  return (value >= static_cast<uint32_t>(Op::OpAtomicLoad) &&
          value <= static_cast<uint32_t>(Op::OpAtomicXor)) ||
         op == Op::OpAtomicFlagTestAndSet || op == Op::OpAtomicFlagClear || value >= 4096;
}

// The pointer operand of a memory access SPIRV-Tools' MemPass looks through.
std::optional<uint32_t> AccessedPointer(const ir::Instruction& inst) {
  switch (inst.opcode()) {
    case Op::OpLoad:
    case Op::OpStore:
      return inst.word(0);
    case Op::OpCopyMemory:
    case Op::OpCopyMemorySized:
      return inst.word(1);  // the source; the target is operand 0 and is checked below
    default:
      return std::nullopt;
  }
}

class FactFinder {
 public:
  explicit FactFinder(const ir::Module& module) : module_(module) {
    // Ids index vectors up to what a module of this size can define (a hostile bound must not
    // size them); the rare id beyond goes to a map.
    const size_t dense = std::min<size_t>(module.header().bound, module.DenseIdLimit());
    dense_defs_.resize(dense, nullptr);
    dense_annotated_.resize(dense, false);
    for (const ir::InstructionList* list : {&module.debug(), &module.annotations()}) {
      for (const ir::Instruction& inst : *list) {
        if (inst.num_operands() > 0 && grammar::GetOperandKind(inst.operand(0).kind).category ==
                                           grammar::OperandCategory::kId) {
          const uint32_t id = inst.word(0);
          if (id < dense) {
            dense_annotated_[id] = true;
          } else {
            sparse_annotated_.insert(id);
          }
        }
      }
    }
    for (const ir::Instruction& inst : module.globals()) SetDef(inst);
    for (const ir::Function& function : module.functions()) {
      for (const ir::Instruction& param : function.parameters) SetDef(param);
      for (const ir::BasicBlock& block : function.blocks) {
        for (const ir::Instruction& inst : block.instructions) {
          if (inst.has_result_id()) SetDef(inst);
        }
      }
    }
  }

  InstalledPassFacts Find() {
    InstalledPassFacts facts;
    facts.has_shader = module_.HasCapability(spv::Capability::Shader);
    facts.lifted = bridge::HasExtendedContent(module_);
    facts.stand_in_types = StandInTypes();
    for (const ir::Function& function : module_.functions()) {
      if (!facts.deref_of_pointer_in_local && DereferencesPointerInLocal(function)) {
        facts.deref_of_pointer_in_local = FunctionName(function);
      }
      if (!facts.loop_that_writes_memory &&
          AnyLoopHas(function, [](const ir::Instruction& inst) { return WritesMemory(inst); })) {
        facts.loop_that_writes_memory = FunctionName(function);
      }
      if (!facts.annotated_instruction_in_loop &&
          AnyLoopHas(function, [this](const ir::Instruction& inst) {
            return inst.has_result_id() && IsAnnotated(inst.result_id());
          })) {
        facts.annotated_instruction_in_loop = FunctionName(function);
      }
    }
    return facts;
  }

 private:
  // The last definition of an id wins, as it did when this was one map.
  void SetDef(const ir::Instruction& inst) {
    const uint32_t id = inst.result_id();
    if (id < dense_defs_.size()) {
      dense_defs_[id] = &inst;
    } else {
      sparse_defs_[id] = &inst;
    }
  }

  bool IsAnnotated(uint32_t id) const {
    return id < dense_annotated_.size() ? dense_annotated_[id] : sparse_annotated_.count(id) != 0;
  }

  const ir::Instruction* Def(uint32_t id) const {
    if (id < dense_defs_.size()) return dense_defs_[id];
    auto it = sparse_defs_.find(id);
    return it == sparse_defs_.end() ? nullptr : it->second;
  }

  // Names only appear in messages (at most one per fact), so the debug section is searched for
  // the one asked instead of indexing every name. The last OpName of an id is its name, as in
  // ModuleInfo.
  std::string FunctionName(const ir::Function& function) const {
    std::string name;
    for (const ir::Instruction& inst : module_.debug()) {
      if (inst.opcode() == Op::OpName && inst.num_operands() >= 2 &&
          inst.word(0) == function.id()) {
        name = inst.StringOperand(1);
      }
    }
    return name.empty() ? "%" + std::to_string(function.id()) : "'" + name + "'";
  }

  // Whether `pointer` is a Function variable, possibly behind access chains and copies.
  bool IsLocalVariable(uint32_t pointer) const {
    const ir::Instruction* def = Def(pointer);
    for (int depth = 0; def && IsAccessChain(def->opcode()) && depth < 1000; ++depth) {
      def = Def(def->word(0));
    }
    return def && def->opcode() == Op::OpVariable &&
           def->word(0) == static_cast<uint32_t>(spv::StorageClass::Function);
  }

  bool DereferencesPointerInLocal(const ir::Function& function) const {
    for (const ir::BasicBlock& block : function.blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        std::array<std::optional<uint32_t>, 2> pointers{AccessedPointer(inst), std::nullopt};
        if (inst.opcode() == Op::OpCopyMemory || inst.opcode() == Op::OpCopyMemorySized) {
          pointers[1] = inst.word(0);
        }
        for (const std::optional<uint32_t>& pointer : pointers) {
          if (!pointer) continue;
          const ir::Instruction* def = Def(*pointer);
          if (def && def->opcode() == Op::OpLoad && IsLocalVariable(def->word(0))) return true;
        }
      }
    }
    return false;
  }

  // Whether an instruction of a loop of `function` satisfies `test`.
  template <typename Test>
  bool AnyLoopHas(const ir::Function& function, Test&& test) const {
    std::unordered_map<uint32_t, size_t> position;
    std::vector<const ir::BasicBlock*> blocks;
    for (const ir::BasicBlock& block : function.blocks) {
      position[block.id()] = blocks.size();
      blocks.push_back(&block);
    }
    for (size_t i = 0; i < blocks.size(); ++i) {
      const ir::Instruction* terminator = blocks[i]->terminator();
      if (!terminator) continue;
      for (size_t k = 0; k < terminator->num_operands(); ++k) {
        const ir::OperandView op = terminator->operand(k);
        if (op.kind != grammar::OperandKindId::kIdRef) continue;
        auto target = position.find(op.word());
        if (target == position.end() || target->second > i) continue;
        // A back edge: the blocks from its target to here hold the loop (blocks of a function
        // come after their dominators, so a loop's body lies between its header and latch).
        for (size_t b = target->second; b <= i; ++b) {
          if (std::ranges::any_of(blocks[b]->instructions, test)) return true;
        }
      }
    }
    return false;
  }

  std::optional<std::string> StandInTypes() const {
    std::vector<std::string> kinds;
    auto add = [&kinds](const char* kind) {
      if (std::ranges::find(kinds, kind) == kinds.end()) kinds.emplace_back(kind);
    };
    for (const ir::Instruction& inst : module_.globals()) {
      if (inst.opcode() == Op::OpTypeCooperativeMatrixKHR) add("cooperative matrices");
      if (inst.opcode() == Op::OpTypeFloat && inst.num_operands() > 1) add("bfloat16 values");
      if (inst.opcode() == Op::OpTypeInt && inst.word(0) == 4) add("4-bit integers");
    }
    if (kinds.empty()) return std::nullopt;
    std::string text = kinds[0];
    for (size_t i = 1; i < kinds.size(); ++i) text += " and " + kinds[i];
    return text;
  }

  const ir::Module& module_;
  std::vector<const ir::Instruction*> dense_defs_;
  std::unordered_map<uint32_t, const ir::Instruction*> sparse_defs_;
  // Ids an OpName or a decoration names.
  std::vector<bool> dense_annotated_;
  std::unordered_set<uint32_t> sparse_annotated_;
};

bool IsOneOf(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::ranges::find(names, name) != names.end();
}

}  // namespace

InstalledPassFacts ComputeInstalledPassFacts(const ir::Module& module) {
  return FactFinder(module).Find();
}

std::optional<std::string> WhyUnsafe(std::string_view name, const InstalledPassFacts& facts) {
  // The SSA rewriter (two flags, one pass) finds the variable a load or store refers to by
  // taking operand 0 of the pointer's definition, which for a pointer loaded from a local is the
  // local: `*p` becomes `p` (issue 12: four corpus modules come out invalid; test/opt/repro).
  // The single-block and single-store passes look the variable up the same way but leave such
  // locals alone (a load of the pointer is a use they do not rewrite through).
  if (facts.deref_of_pointer_in_local &&
      IsOneOf(name, {"ssa-rewrite", "eliminate-local-multi-store"})) {
    return "the installed SPIRV-Tools takes a load or store through a pointer kept in a local "
           "variable for an access of that variable (it rewrites `*p` as `p`), and function " +
           *facts.deref_of_pointer_in_local + " has one";
  }
  if (facts.loop_that_writes_memory && name == "loop-invariant-code-motion") {
    return "the installed SPIRV-Tools hoists loads out of loops without checking the loop's "
           "stores to the same memory (a counter kept in memory is read once and the loop never "
           "ends), and function " +
           *facts.loop_that_writes_memory + " has a loop that writes memory";
  }
  if (facts.annotated_instruction_in_loop && name == "loop-peeling") {
    return "the installed SPIRV-Tools crashes on a loop whose instructions have a name or a "
           "decoration (its loop-closed-SSA check asks them for a block), and function " +
           *facts.annotated_instruction_in_loop + " has one";
  }
  if (!facts.has_shader && name == "relax-float-ops") {
    return "it adds RelaxedPrecision decorations, which need the Shader capability this module "
           "does not declare";
  }
  if (!facts.has_shader && name == "convert-relaxed-to-half") {
    return "RelaxedPrecision is a Shader decoration, and on a module without the Shader "
           "capability the installed pass rewrites half arithmetic wrongly (phis of half get "
           "float values)";
  }
  if (facts.lifted && name == "remove-duplicates") {
    return "it merges types and decorations, and the module's extended instructions reach the "
           "installed SPIRV-Tools as calls of declarations and stand-in types the bridge "
           "recorded by id";
  }
  if (facts.stand_in_types && !IsOneOf(name, {"strip-debug",
                                              "strip-nonsemantic",
                                              "strip-reflect",
                                              "eliminate-dead-functions",
                                              "eliminate-dead-branches",
                                              "merge-blocks",
                                              "cfg-cleanup",
                                              "merge-return",
                                              "wrap-opkill",
                                              "eliminate-dead-variables",
                                              "eliminate-dead-const",
                                              "flatten-decorations",
                                              "freeze-spec-const",
                                              "inline-entry-points-exhaustive",
                                              "private-to-local",
                                              "eliminate-dead-code-aggressive",
                                              "eliminate-local-single-block",
                                              "eliminate-local-single-store",
                                              "eliminate-local-multi-store",
                                              "ssa-rewrite",
                                              "local-redundancy-elimination",
                                              "redundancy-elimination",
                                              "remove-unused-interface-variables",
                                              "upgrade-memory-model"})) {
    // The passes above move, merge or delete whole values and blocks; the others fold values or
    // split composites, which on a stand-in would follow the stand-in's meaning (a one-member
    // struct is not a matrix, a half is not a bfloat16).
    return "the module has " + *facts.stand_in_types +
           ", which the installed SPIRV-Tools does not know and sees as stand-in types; the pass "
           "folds values or splits composites by the stand-in's meaning";
  }
  return std::nullopt;
}

}  // namespace xmx::opt
