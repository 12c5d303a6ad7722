#include "interp/load/uniformity.hpp"

#include <unordered_map>
#include <utility>
#include <vector>

#include "grammar/grammar.hpp"

namespace xmx::interp {
namespace {

bool IsConstant(spv::Op op) {
  switch (op) {
    case spv::Op::OpConstantTrue:
    case spv::Op::OpConstantFalse:
    case spv::Op::OpConstant:
    case spv::Op::OpConstantComposite:
    case spv::Op::OpConstantNull:
    case spv::Op::OpConstantSampler:
    case spv::Op::OpSpecConstantTrue:
    case spv::Op::OpSpecConstantFalse:
    case spv::Op::OpSpecConstant:
    case spv::Op::OpSpecConstantComposite:
    case spv::Op::OpSpecConstantOp:
      return true;
    default:
      return false;
  }
}

bool SharedBySubgroup(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::WorkgroupId:
    case spv::BuiltIn::NumWorkgroups:
    case spv::BuiltIn::GlobalSize:
    case spv::BuiltIn::WorkgroupSize:
    case spv::BuiltIn::EnqueuedWorkgroupSize:
    case spv::BuiltIn::GlobalOffset:
    case spv::BuiltIn::WorkDim:
    case spv::BuiltIn::SubgroupSize:
    case spv::BuiltIn::SubgroupMaxSize:
    case spv::BuiltIn::NumSubgroups:
    case spv::BuiltIn::NumEnqueuedSubgroups:
    case spv::BuiltIn::SubgroupId:
      return true;
    default:
      return false;
  }
}

// Instructions whose result depends on nothing but their id operands (no memory, no lane id,
// no other invocation).
bool IsPure(spv::Op op) {
  using spv::Op;
  switch (op) {
    case Op::OpSNegate:
    case Op::OpFNegate:
    case Op::OpIAdd:
    case Op::OpFAdd:
    case Op::OpISub:
    case Op::OpFSub:
    case Op::OpIMul:
    case Op::OpFMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpFDiv:
    case Op::OpUMod:
    case Op::OpSRem:
    case Op::OpSMod:
    case Op::OpFRem:
    case Op::OpFMod:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpShiftLeftLogical:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpBitwiseAnd:
    case Op::OpNot:
    case Op::OpConvertFToU:
    case Op::OpConvertFToS:
    case Op::OpConvertSToF:
    case Op::OpConvertUToF:
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpFConvert:
    case Op::OpConvertPtrToU:
    case Op::OpConvertUToPtr:
    case Op::OpPtrCastToGeneric:
    case Op::OpGenericCastToPtr:
    case Op::OpBitcast:
    case Op::OpCopyObject:
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpCompositeConstruct:
    case Op::OpVectorShuffle:
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpUGreaterThan:
    case Op::OpSGreaterThan:
    case Op::OpUGreaterThanEqual:
    case Op::OpSGreaterThanEqual:
    case Op::OpULessThan:
    case Op::OpSLessThan:
    case Op::OpULessThanEqual:
    case Op::OpSLessThanEqual:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpLogicalOr:
    case Op::OpLogicalAnd:
    case Op::OpLogicalNot:
    case Op::OpSelect:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
      return true;
    default:
      return false;
  }
}

}  // namespace

namespace {

// Functions on a call cycle: a recursive activation's parameters come from its own calls.
std::unordered_set<uint32_t> RecursiveFunctions(const ir::Module& module) {
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees;
  for (const ir::Function& f : module.functions()) {
    for (const ir::BasicBlock& block : f.blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        if (inst.opcode() == spv::Op::OpFunctionCall && inst.num_operands() > 0) {
          callees[f.id()].push_back(inst.word(0));
        }
      }
    }
  }
  std::unordered_set<uint32_t> recursive;
  for (const auto& [function, direct] : callees) {
    std::unordered_set<uint32_t> seen;
    std::vector<uint32_t> work = direct;
    while (!work.empty()) {
      const uint32_t f = work.back();
      work.pop_back();
      if (f == function) {
        recursive.insert(function);
        break;
      }
      if (!seen.insert(f).second) continue;
      auto it = callees.find(f);
      if (it != callees.end()) work.insert(work.end(), it->second.begin(), it->second.end());
    }
  }
  return recursive;
}

}  // namespace

UniformValues::UniformValues(const ir::Module& module, const ir::ModuleInfo& info,
                             uint32_t kernel_id) {
  std::unordered_map<uint32_t, spv::StorageClass> pointer_storage;  // OpTypePointer id -> class
  std::unordered_set<uint32_t> shared_builtins;                     // variables
  for (const ir::Instruction& inst : module.globals()) {
    const spv::Op op = inst.opcode();
    if (op == spv::Op::OpTypePointer) {
      pointer_storage[inst.result_id()] = static_cast<spv::StorageClass>(inst.word(0));
    } else if (op == spv::Op::OpTypeVector && inst.num_operands() == 2) {
      vector_components_[inst.result_id()] = inst.word(1);
    } else if (IsConstant(op)) {
      ids_.insert(inst.result_id());
    } else if (op == spv::Op::OpVariable) {
      const auto storage = static_cast<spv::StorageClass>(inst.word(0));
      if (storage == spv::StorageClass::CrossWorkgroup ||
          storage == spv::StorageClass::UniformConstant ||
          storage == spv::StorageClass::Workgroup) {
        ids_.insert(inst.result_id());
      }
      const ir::DecorationInfo* builtin =
          info.FindDecoration(inst.result_id(), spv::Decoration::BuiltIn);
      if (storage == spv::StorageClass::Input && builtin != nullptr && !builtin->operands.empty() &&
          SharedBySubgroup(static_cast<spv::BuiltIn>(builtin->operands[0]))) {
        shared_builtins.insert(inst.result_id());
      }
    }
  }
  const ir::Function* kernel = info.GetFunction(kernel_id);
  if (kernel == nullptr) return;
  for (const ir::Instruction& param : kernel->parameters) {
    auto it = pointer_storage.find(param.result_type_id());
    if (it == pointer_storage.end() || it->second != spv::StorageClass::Function) {
      ids_.insert(param.result_id());
    }
  }
  AnalyseFunction(*kernel, shared_builtins);
  // The functions the kernel reaches, in the order it reaches them; a function's parameters are
  // uniform when every call of it, each in a function analysed before, passes a uniform value.
  std::unordered_map<uint32_t, std::vector<const ir::Instruction*>> calls;  // callee -> calls
  std::unordered_map<const ir::Instruction*, uint32_t> caller_of;
  for (const ir::Function& f : module.functions()) {
    for (const ir::BasicBlock& block : f.blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        if (inst.opcode() != spv::Op::OpFunctionCall || inst.num_operands() == 0) continue;
        calls[inst.word(0)].push_back(&inst);
        caller_of[&inst] = f.id();
      }
    }
  }
  const std::unordered_set<uint32_t> recursive = RecursiveFunctions(module);
  std::unordered_set<uint32_t> analysed{kernel_id};
  std::vector<uint32_t> order{kernel_id};
  for (size_t next = 0; next < order.size(); ++next) {
    for (uint32_t callee : info.GetCallees(order[next])) {
      const ir::Function* f = info.GetFunction(callee);
      if (f == nullptr || f->IsDeclaration() || analysed.count(callee)) continue;
      analysed.insert(callee);
      order.push_back(callee);
      std::vector<uint8_t> uniform(f->parameters.size(), !recursive.count(callee));
      for (const ir::Instruction* call : calls[callee]) {
        const bool known_caller = analysed.count(caller_of[call]) && caller_of[call] != callee;
        for (size_t i = 0; i < uniform.size(); ++i) {
          uniform[i] &=
              known_caller && i + 1 < call->num_operands() && ids_.count(call->word(i + 1)) != 0;
        }
      }
      size_t i = 0;
      for (const ir::Instruction& param : f->parameters) {
        if (uniform[i++]) ids_.insert(param.result_id());
      }
      AnalyseFunction(*f, shared_builtins);
    }
  }
}

bool UniformValues::InsertsCoverVector(
    const ir::Instruction& insert,
    const std::unordered_map<uint32_t, const ir::Instruction*>& inserts,
    const std::unordered_set<uint32_t>& set) const {
  auto type = vector_components_.find(insert.result_type_id());
  if (type == vector_components_.end() || type->second == 0 || type->second > 64) return false;
  const uint64_t all = ~uint64_t{0} >> (64 - type->second);
  uint64_t written = 0;
  const ir::Instruction* at = &insert;
  // Each step writes a component or ends the walk, so a walk longer than this repeats
  // components of an already-covered vector or of one that never will be.
  for (uint32_t steps = 0; steps < 4 * type->second; ++steps) {
    if (at->opcode() != spv::Op::OpCompositeInsert || at->num_operands() != 3 ||
        at->result_type_id() != insert.result_type_id() || set.count(at->word(0)) == 0 ||
        at->word(2) >= type->second) {
      return false;
    }
    written |= uint64_t{1} << at->word(2);
    if (written == all || set.count(at->word(1)) != 0) return true;
    auto next = inserts.find(at->word(1));
    if (next == inserts.end()) return false;
    at = next->second;
  }
  return false;
}

void UniformValues::AnalyseFunction(const ir::Function& function,
                                    const std::unordered_set<uint32_t>& shared_builtins) {
  std::unordered_map<uint32_t, const ir::Instruction*> inserts;  // OpCompositeInsert results
  for (const ir::BasicBlock& block : function.blocks) {
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.opcode() == spv::Op::OpCompositeInsert) inserts[inst.result_id()] = &inst;
    }
  }
  // Blocks need not come in dominance order, so propagate until nothing changes; each round
  // only adds, and an instruction needs all its operands, so this ends.
  auto proven = [&](const ir::Instruction& inst, const std::unordered_set<uint32_t>& set) {
    if (inst.opcode() == spv::Op::OpLoad) return shared_builtins.count(inst.word(0)) != 0;
    if (!IsPure(inst.opcode())) return false;
    for (size_t i = 0; i < inst.num_operands(); ++i) {
      const ir::OperandView operand = inst.operand(i);
      if (grammar::IsIdKind(operand.kind) && set.count(operand.word()) == 0) {
        return inst.opcode() == spv::Op::OpCompositeInsert &&
               InsertsCoverVector(inst, inserts, set);
      }
    }
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const ir::BasicBlock& block : function.blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        if (!inst.has_result_id() || ids_.count(inst.result_id()) != 0) continue;
        if (proven(inst, ids_)) {
          ids_.insert(inst.result_id());
          changed = true;
        }
      }
    }
  }
  // Phis too, if no branch of the function can diverge: start from every candidate (phis and
  // what the rule above takes) and drop those with an operand outside the set until none goes.
  std::unordered_set<uint32_t> assumed(ids_);
  std::vector<const ir::Instruction*> candidates;
  for (const ir::BasicBlock& block : function.blocks) {
    for (const ir::Instruction& inst : block.instructions) {
      if (!inst.has_result_id() || ids_.count(inst.result_id()) != 0) continue;
      if (inst.opcode() == spv::Op::OpPhi || IsPure(inst.opcode())) {
        candidates.push_back(&inst);
        assumed.insert(inst.result_id());
      }
    }
  }
  if (candidates.empty()) return;
  for (bool changed = true; changed;) {
    changed = false;
    for (const ir::Instruction* inst : candidates) {
      if (assumed.count(inst->result_id()) == 0) continue;
      bool keep = true;
      if (inst->opcode() == spv::Op::OpPhi) {
        for (size_t i = 0; i + 1 < inst->num_operands() && keep; i += 2) {
          keep = assumed.count(inst->word(i)) != 0;
        }
      } else {
        keep = proven(*inst, assumed);
      }
      if (!keep) {
        assumed.erase(inst->result_id());
        changed = true;
      }
    }
  }
  for (const ir::BasicBlock& block : function.blocks) {
    const ir::Instruction* end = block.terminator();
    if (end == nullptr) return;
    if ((end->opcode() == spv::Op::OpBranchConditional || end->opcode() == spv::Op::OpSwitch) &&
        (end->num_operands() == 0 || assumed.count(end->word(0)) == 0)) {
      return;  // a branch that may diverge: phis stay unproven
    }
  }
  ids_ = std::move(assumed);
}

}  // namespace xmx::interp
