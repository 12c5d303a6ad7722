// Lift: extended instructions become calls of imported declarations; extended capabilities,
// extension strings, execution modes and decorations are set aside (see bridge.hpp).
#include <algorithm>
#include <list>
#include <map>
#include <string>
#include <tuple>

#include "bridge/bridge.hpp"
#include "bridge/enumerant_origin.hpp"
#include "grammar/grammar.hpp"

namespace xmx::bridge {
namespace {

using grammar::OperandCategory;
using grammar::OperandKindId;
using spv::Op;

// Finds or adds the globals a lifted call needs: void, a 32-bit integer type, its constants and
// function types. Anything added is appended to the globals and recorded for Lower.
class GlobalBuilder {
 public:
  GlobalBuilder(ir::Module& module, LiftRecord& record) : module_(module), record_(record) {
    for (const ir::Instruction& inst : module.globals()) {
      switch (inst.opcode()) {
        case Op::OpTypeVoid:
          if (!void_id_) void_id_ = inst.result_id();
          break;
        case Op::OpTypeInt:
          if (!uint32_id_ && inst.word(0) == 32 && inst.word(1) == 0) uint32_id_ = inst.result_id();
          break;
        case Op::OpTypeFunction: {
          std::vector<uint32_t> key(inst.operand_words().begin(), inst.operand_words().end());
          function_types_.emplace(std::move(key), inst.result_id());
          break;
        }
        default:
          break;
      }
    }
    if (uint32_id_) {
      for (const ir::Instruction& inst : module.globals()) {
        if (inst.opcode() == Op::OpConstant && inst.result_type_id() == uint32_id_) {
          constants_.emplace(inst.word(0), inst.result_id());
        }
      }
    }
  }

  uint32_t Void() {
    if (!void_id_) void_id_ = Add(ir::Instruction(Op::OpTypeVoid, 0, module_.TakeNextId()));
    return void_id_;
  }

  uint32_t UInt32() {
    if (!uint32_id_) {
      ir::Instruction inst(Op::OpTypeInt, 0, module_.TakeNextId());
      inst.AddOperand(OperandKindId::kLiteralInteger, {32});
      inst.AddOperand(OperandKindId::kLiteralInteger, {0});
      uint32_id_ = Add(std::move(inst));
    }
    return uint32_id_;
  }

  uint32_t Constant(uint32_t value) {
    auto it = constants_.find(value);
    if (it != constants_.end()) return it->second;
    ir::Instruction inst(Op::OpConstant, UInt32(), module_.TakeNextId());
    inst.AddOperand(OperandKindId::kLiteralContextDependentNumber, {value});
    const uint32_t id = Add(std::move(inst));
    constants_.emplace(value, id);
    return id;
  }

  uint32_t FunctionType(uint32_t return_type, const std::vector<uint32_t>& params) {
    std::vector<uint32_t> key{return_type};
    key.insert(key.end(), params.begin(), params.end());
    auto it = function_types_.find(key);
    if (it != function_types_.end()) return it->second;
    ir::Instruction inst(Op::OpTypeFunction, 0, module_.TakeNextId());
    for (uint32_t id : key) inst.AddIdOperand(id);
    const uint32_t id = Add(std::move(inst));
    function_types_.emplace(std::move(key), id);
    return id;
  }

 private:
  uint32_t Add(ir::Instruction inst) {
    const uint32_t id = inst.result_id();
    module_.globals().push_back(std::move(inst));
    record_.added_globals.push_back(id);
    return id;
  }

  ir::Module& module_;
  LiftRecord& record_;
  uint32_t void_id_ = 0;
  uint32_t uint32_id_ = 0;
  std::map<uint32_t, uint32_t> constants_;
  std::map<std::vector<uint32_t>, uint32_t> function_types_;
};

// Moves the instructions of `list` that `extended` selects into `aside`, remembering where.
template <typename Pred>
void SetAsideIf(ir::InstructionList& list, std::vector<SetAside>& aside, Pred extended) {
  size_t position = 0;
  for (auto it = list.begin(); it != list.end(); ++position) {
    if (extended(*it)) {
      aside.push_back({position, std::move(*it)});
      it = list.erase(it);
    } else {
      ++it;
    }
  }
}

bool IsExtendedOpcode(Op opcode) {
  const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(opcode));
  return desc && desc->origin == grammar::Origin::kExtended;
}

// How many of a core instruction's operands (result type and id aside) the installed SPIRV-Tools
// knows: those before the first one our grammar appends. The generator appends only optional
// operands after a non-variadic list, so an operand past this count is an extended one.
size_t CoreOperandCount(const ir::Instruction& inst) {
  const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
  if (!desc || desc->origin == grammar::Origin::kExtended) return inst.num_operands();
  size_t count = 0;
  for (const grammar::Operand& op : desc->operands) {
    if (op.kind == OperandKindId::kIdResultType || op.kind == OperandKindId::kIdResult) continue;
    if (op.origin == grammar::Origin::kExtended) return count;
    if (op.quantifier == grammar::Quantifier::kVariadic) return inst.num_operands();
    ++count;
  }
  return inst.num_operands();
}

bool HasExtendedOperands(const ir::Instruction& inst) {
  return inst.num_operands() > CoreOperandCount(inst);
}

bool IsInt4Type(const ir::Instruction& inst) {
  return inst.opcode() == Op::OpTypeInt && inst.num_operands() == 2 && inst.word(0) == 4;
}

// Whether Lift set aside a declaration of `capability`.
bool SetAsideCapability(const std::vector<SetAside>& aside, spv::Capability capability) {
  return std::ranges::any_of(aside, [capability](const SetAside& item) {
    return item.inst.word(0) == static_cast<uint32_t>(capability);
  });
}

class Lifter {
 public:
  Lifter(ir::Module& module, LiftRecord& record, Diagnostic* error)
      : module_(module), record_(record), globals_(module, record), error_(error) {
    module.ForEachInstruction([this](const ir::Instruction& inst) {
      if (inst.has_result_type() && inst.result_id()) {
        type_of_[inst.result_id()] = inst.result_type_id();
      }
    });
  }

  bool Run(bool* changed);

 private:
  bool LiftInstruction(ir::Instruction& inst);
  bool LiftExtendedOperands(ir::Instruction& inst);
  uint32_t Declaration(const LiftedSignature& sig, uint32_t return_type,
                       const std::vector<uint32_t>& param_types);
  bool Fail(const ir::Instruction& inst, const std::string& why);

  ir::Module& module_;
  LiftRecord& record_;
  GlobalBuilder globals_;
  Diagnostic* error_;
  std::unordered_map<uint32_t, uint32_t> type_of_;
  // (opcode, has result, return type, operand kinds and id-ness, parameter types) -> declaration
  std::map<std::vector<uint32_t>, uint32_t> declarations_;
  std::list<ir::Function> new_declarations_;
};

bool Lifter::Fail(const ir::Instruction& inst, const std::string& why) {
  if (error_) {
    *error_ = Diagnostic{};
    const grammar::Instruction* desc =
        grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
    error_->message = std::string("cannot lift ") + (desc ? desc->name : "instruction") +
                      " for SPIRV-Tools: " + why;
    if (inst.source_index() != ir::Instruction::kNotFromBinary) {
      error_->instruction_index = inst.source_index();
      error_->word_offset = inst.source_word_offset();
    }
  }
  return false;
}

bool Lifter::Run(bool* changed) {
  SetAsideIf(module_.capabilities(), record_.capabilities, UsesExtendedEnumerant);
  SetAsideIf(module_.extensions(), record_.extensions, [](const ir::Instruction& inst) {
    const grammar::ExtensionName* ext = grammar::FindExtension(inst.StringOperand(0));
    return ext && ext->origin == grammar::Origin::kExtended;
  });
  SetAsideIf(module_.execution_modes(), record_.execution_modes, UsesExtendedEnumerant);
  SetAsideIf(module_.annotations(), record_.annotations, UsesExtendedEnumerant);

  for (ir::Instruction& inst : module_.globals()) {
    if (IsExtendedOpcode(inst.opcode())) {
      return Fail(inst, "SPIRV-Tools has no form for an extended module-level instruction");
    }
    // With Int4TypeINTEL the type is legal, but SPIRV-Tools knows no 4-bit integers (without
    // the capability, SPIRV-Tools reports the width, rightly).
    if (IsInt4Type(inst) &&
        SetAsideCapability(record_.capabilities, spv::Capability::Int4TypeINTEL)) {
      return Fail(inst, "SPIRV-Tools has no 4-bit integer type (SPV_INTEL_int4)");
    }
    if (HasExtendedOperands(inst) && !LiftExtendedOperands(inst)) return false;
  }
  if (record_.added_float16) {
    ir::Instruction cap(Op::OpCapability);
    cap.AddOperand(OperandKindId::kCapability, {static_cast<uint32_t>(spv::Capability::Float16)});
    module_.capabilities().push_back(std::move(cap));
  }
  for (ir::Function& function : module_.functions()) {
    for (ir::BasicBlock& block : function.blocks) {
      for (ir::Instruction& inst : block.instructions) {
        if (IsExtendedOpcode(inst.opcode()) && !LiftInstruction(inst)) return false;
      }
    }
  }
  if (!new_declarations_.empty()) {
    // Declarations precede every function definition in the logical layout.
    module_.functions().splice(module_.functions().begin(), new_declarations_);
    if (!module_.HasCapability(spv::Capability::Linkage)) {
      ir::Instruction cap(Op::OpCapability);
      cap.AddOperand(OperandKindId::kCapability, {static_cast<uint32_t>(spv::Capability::Linkage)});
      module_.capabilities().push_back(std::move(cap));
      record_.added_linkage = true;
    }
  }
  *changed = !record_.declarations.empty() || !record_.operands.empty() ||
             !record_.capabilities.empty() || !record_.extensions.empty() ||
             !record_.execution_modes.empty() || !record_.annotations.empty();
  return true;
}

bool Lifter::LiftInstruction(ir::Instruction& inst) {
  LiftedSignature sig{inst.opcode(), inst.has_result_id(), {}};
  std::vector<uint32_t> args, param_types;
  for (size_t i = 0; i < inst.num_operands(); ++i) {
    const ir::OperandView op = inst.operand(i);
    const OperandCategory category = grammar::GetOperandKind(op.kind).category;
    if (category == OperandCategory::kId) {
      sig.operands.push_back({op.kind, true});
      args.push_back(op.word());
      // An id with no known type (undefined, or not a value) is still passed, so that
      // SPIRV-Tools reports it; the parameter then gets a placeholder type.
      auto type = type_of_.find(op.word());
      param_types.push_back(type != type_of_.end() ? type->second : globals_.UInt32());
    } else if (op.words.size() == 1) {
      sig.operands.push_back({op.kind, false});
      args.push_back(globals_.Constant(op.word()));
      param_types.push_back(globals_.UInt32());
    } else {
      return Fail(inst, "operand " + std::to_string(i) + " is a multi-word literal");
    }
  }
  const uint32_t return_type = sig.has_result ? inst.result_type_id() : globals_.Void();
  const uint32_t callee = Declaration(sig, return_type, param_types);

  ir::Instruction call(Op::OpFunctionCall, return_type,
                       sig.has_result ? inst.result_id() : module_.TakeNextId());
  call.AddIdOperand(callee);
  for (uint32_t arg : args) call.AddIdOperand(arg);
  call.set_source(inst.source_index(), inst.source_word_offset());
  call.debug_lines() = std::move(inst.debug_lines());
  inst = std::move(call);
  return true;
}

// Sets aside the operands our grammar appends to a core module-level instruction. For
// OpTypeFloat 16 BFloat16KHR the rest is a plain 16-bit float, for SPIRV-Tools a half: correct
// for everything SPIRV-Tools checks on it (conversions, OpDot, loads and stores), as long as
// the module has no half of its own, which it would then duplicate.
bool Lifter::LiftExtendedOperands(ir::Instruction& inst) {
  if (!inst.has_result_id()) {
    return Fail(inst, "SPIRV-Tools has no form for its extended operands");
  }
  if (inst.opcode() == Op::OpTypeFloat && inst.word(0) != 16) {
    // SPIRV-Tools would check a plain float of that width and miss the error.
    return Fail(inst, "the BFloat16KHR encoding is for 16-bit floats, but Width is " +
                          std::to_string(inst.word(0)));
  }
  const size_t core = CoreOperandCount(inst);
  SetAsideOperands aside{inst.result_id(), {}};
  for (size_t i = core; i < inst.num_operands(); ++i) {
    const ir::OperandView op = inst.operand(i);
    aside.operands.emplace_back(op.kind, std::vector<uint32_t>(op.words.begin(), op.words.end()));
  }
  ir::Instruction stripped = inst;
  stripped.RemoveOperands(core, inst.num_operands() - core);
  const auto lifted_before = [this](uint32_t id) {
    return std::ranges::any_of(record_.operands,
                               [id](const SetAsideOperands& a) { return a.result_id == id; });
  };
  // Another type with the same encoding stays a duplicate after the lift: SPIRV-Tools reports it.
  for (const ir::Instruction& other : module_.globals()) {
    if (&other != &inst && !lifted_before(other.result_id()) &&
        other.opcode() == stripped.opcode() &&
        other.result_type_id() == stripped.result_type_id() &&
        std::ranges::equal(other.operand_words(), stripped.operand_words())) {
      return Fail(inst, "SPIRV-Tools would see it as the same type as %" +
                            std::to_string(other.result_id()) +
                            " (it cannot tell the encodings apart)");
    }
  }
  if (inst.opcode() == Op::OpTypeFloat && !module_.HasCapability(spv::Capability::Float16) &&
      !module_.HasCapability(spv::Capability::Float16Buffer)) {
    record_.added_float16 = true;
  }
  record_.operands.push_back(std::move(aside));
  inst.RemoveOperands(core, inst.num_operands() - core);
  return true;
}

uint32_t Lifter::Declaration(const LiftedSignature& sig, uint32_t return_type,
                             const std::vector<uint32_t>& param_types) {
  std::vector<uint32_t> key{static_cast<uint32_t>(sig.opcode), sig.has_result, return_type};
  for (const LiftedOperand& op : sig.operands) {
    key.push_back(static_cast<uint32_t>(op.kind) << 1 | op.is_id);
  }
  key.insert(key.end(), param_types.begin(), param_types.end());
  auto it = declarations_.find(key);
  if (it != declarations_.end()) return it->second;

  ir::Function decl;
  const uint32_t id = module_.TakeNextId();
  decl.def = ir::Instruction(Op::OpFunction, return_type, id);
  decl.def.AddOperand(OperandKindId::kFunctionControl, {0});
  decl.def.AddIdOperand(globals_.FunctionType(return_type, param_types));
  for (uint32_t type : param_types) {
    decl.parameters.emplace_back(Op::OpFunctionParameter, type, module_.TakeNextId());
  }
  new_declarations_.push_back(std::move(decl));

  const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(sig.opcode));
  ir::Instruction linkage(Op::OpDecorate);
  linkage.AddIdOperand(id);
  linkage.AddOperand(OperandKindId::kDecoration,
                     {static_cast<uint32_t>(spv::Decoration::LinkageAttributes)});
  linkage.AddStringOperand(std::string(kDeclarationPrefix) + desc->name + "." +
                           std::to_string(declarations_.size()));
  linkage.AddOperand(OperandKindId::kLinkageType,
                     {static_cast<uint32_t>(spv::LinkageType::Import)});
  module_.annotations().push_back(std::move(linkage));

  declarations_.emplace(std::move(key), id);
  record_.declarations.emplace(id, sig);
  return id;
}

}  // namespace

bool HasExtendedContent(const ir::Module& module) {
  bool found = false;
  auto any = [&found](const ir::InstructionList& list, auto&& pred) {
    for (const ir::Instruction& inst : list) {
      if (found) return;
      found = pred(inst);
    }
  };
  any(module.capabilities(), UsesExtendedEnumerant);
  any(module.extensions(), [](const ir::Instruction& inst) {
    const grammar::ExtensionName* ext = grammar::FindExtension(inst.StringOperand(0));
    return ext && ext->origin == grammar::Origin::kExtended;
  });
  any(module.execution_modes(), UsesExtendedEnumerant);
  any(module.annotations(), UsesExtendedEnumerant);
  any(module.globals(), [](const ir::Instruction& inst) {
    return IsExtendedOpcode(inst.opcode()) || HasExtendedOperands(inst);
  });
  for (const ir::Function& function : module.functions()) {
    for (const ir::BasicBlock& block : function.blocks) {
      any(block.instructions,
          [](const ir::Instruction& inst) { return IsExtendedOpcode(inst.opcode()); });
    }
  }
  return found;
}

std::optional<LiftedModule> Lift(const ir::Module& module, Diagnostic* error) {
  LiftedModule lifted{module, {}, false};
  lifted.record.original_bound = module.header().bound;
  Lifter lifter(lifted.module, lifted.record, error);
  if (!lifter.Run(&lifted.changed)) return std::nullopt;
  lifted.record.lifted_bound = lifted.module.header().bound;
  return lifted;
}

std::vector<std::optional<size_t>> OriginalIndices(const ir::Module& lifted) {
  std::vector<std::optional<size_t>> indices;
  lifted.ForEachInstruction([&indices](const ir::Instruction& inst) {
    if (inst.source_index() == ir::Instruction::kNotFromBinary) {
      indices.push_back(std::nullopt);
    } else {
      indices.push_back(inst.source_index());
    }
  });
  return indices;
}

}  // namespace xmx::bridge
