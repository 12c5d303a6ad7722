// Lift: extended instructions become calls of imported declarations; extended capabilities,
// extension strings, execution modes and decorations are set aside (see bridge.hpp).
#include <algorithm>
#include <string>

#include "bridge/enumerant_origin.hpp"
#include "bridge/lifter.hpp"
#include "grammar/grammar.hpp"

namespace xmx::bridge {

using grammar::OperandCategory;
using grammar::OperandKindId;
using spv::Op;

GlobalBuilder::GlobalBuilder(ir::Module& module, LiftRecord& record)
    : module_(module), record_(record) {
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

uint32_t GlobalBuilder::Void() {
  if (!void_id_) void_id_ = Add(ir::Instruction(Op::OpTypeVoid, 0, module_.TakeNextId()));
  return void_id_;
}

uint32_t GlobalBuilder::UInt32() {
  if (!uint32_id_) {
    ir::Instruction inst(Op::OpTypeInt, 0, module_.TakeNextId());
    inst.AddOperand(OperandKindId::kLiteralInteger, {32});
    inst.AddOperand(OperandKindId::kLiteralInteger, {0});
    uint32_id_ = Add(std::move(inst));
  }
  return uint32_id_;
}

uint32_t GlobalBuilder::Constant(uint32_t value) {
  auto it = constants_.find(value);
  if (it != constants_.end()) return it->second;
  ir::Instruction inst(Op::OpConstant, UInt32(), module_.TakeNextId());
  inst.AddOperand(OperandKindId::kLiteralContextDependentNumber, {value});
  const uint32_t id = Add(std::move(inst));
  constants_.emplace(value, id);
  return id;
}

uint32_t GlobalBuilder::FunctionType(uint32_t return_type, const std::vector<uint32_t>& params) {
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

uint32_t GlobalBuilder::Add(ir::Instruction inst) {
  const uint32_t id = inst.result_id();
  module_.globals().push_back(std::move(inst));
  record_.added_globals.push_back(id);
  return id;
}

namespace {

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

bool IsExtendedExtension(const ir::Instruction& inst) {
  const grammar::ExtensionName* ext = grammar::FindExtension(inst.StringOperand(0));
  return ext && ext->origin == grammar::Origin::kExtended;
}

}  // namespace

bool IsExtendedOpcode(Op opcode) {
  const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(opcode));
  return desc && desc->origin == grammar::Origin::kExtended;
}

// The generator appends only optional operands after a non-variadic list, so an operand past
// this count is an extended one.
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

Lifter::Lifter(const ir::Module& original, ir::Module& module, LiftRecord& record,
               Diagnostic* error)
    : original_(original),
      module_(module),
      record_(record),
      globals_(module, record),
      error_(error),
      types_(original),
      type_of_(module) {
  // A bound of 2^32 in a hostile header must not size the table.
  defined_ids_.Reserve(module.header().bound, size_t{1} << 22);
  module.ForEachInstruction([this](const ir::Instruction& inst) {
    if (inst.opcode() == Op::OpFunction) function_ids_.insert(inst.result_id());
    if (inst.has_result_id()) defined_ids_.Set(inst.result_id(), 1);
  });
}

// An undefined id counts as a value: it is passed, so that SPIRV-Tools reports it.
bool Lifter::IsValue(uint32_t id) const {
  if (function_ids_.count(id)) return false;
  return type_of_.HasType(id) || defined_ids_.Get(id) == nullptr;
}

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

void Lifter::AddCapability(spv::Capability capability) {
  if (module_.HasCapability(capability)) return;
  ir::Instruction cap(Op::OpCapability);
  cap.AddOperand(OperandKindId::kCapability, {static_cast<uint32_t>(capability)});
  module_.capabilities().push_back(std::move(cap));
  record_.added_capabilities.push_back(capability);
}

bool Lifter::Run(bool* changed) {
  SetAsideIf(module_.capabilities(), record_.capabilities, UsesExtendedEnumerant);
  SetAsideIf(module_.extensions(), record_.extensions, IsExtendedExtension);
  SetAsideIf(module_.execution_modes(), record_.execution_modes, UsesExtendedEnumerant);
  SetAsideIf(module_.annotations(), record_.annotations, UsesExtendedEnumerant);

  for (ir::Instruction& inst : module_.globals()) {
    if (IsExtendedOpcode(inst.opcode())) {
      const ir::Type* type = types_.GetType(inst.result_id());
      if (!type || type->kind != ir::TypeKind::kCooperativeMatrix) {
        return Fail(inst, "SPIRV-Tools has no form for an extended module-level instruction");
      }
      LiftMatrixType(inst);
    } else if (inst.opcode() == Op::OpTypeInt && inst.num_operands() == 2 && inst.word(0) == 4) {
      // With Int4TypeINTEL the type is legal; without it, SPIRV-Tools reports the width, rightly.
      const bool declared = std::ranges::any_of(record_.capabilities, [](const SetAside& cap) {
        return cap.inst.word(0) == static_cast<uint32_t>(spv::Capability::Int4TypeINTEL);
      });
      if (declared && !LiftInt4Type(inst)) return false;
    } else if (HasExtendedOperands(inst) && !LiftExtendedOperands(inst)) {
      return false;
    }
  }
  for (ir::Function& function : module_.functions()) {
    for (ir::BasicBlock& block : function.blocks) {
      for (auto it = block.instructions.begin(); it != block.instructions.end(); ++it) {
        const bool extended = IsExtendedOpcode(it->opcode());
        if (!extended && !NeedsMatrixCall(*it)) continue;
        if (!extended) {
          if (it->has_result_id()) record_.matrix_computations.push_back(it->result_id());
          if (MatrixElementOperands(*it).empty()) {
            AddComponentShadow(block.instructions, it);
          } else {
            AddElementZeroShadow(block.instructions, it);
          }
        }
        if (!LiftInstruction(*it)) return false;
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
  *changed = !record_.declarations.empty() || !record_.operands.empty() || !record_.types.empty() ||
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
      if (!IsValue(op.word())) {
        // No value to pass (a type, a function, an OpExtInstImport): one declaration per such
        // id stands for it.
        sig.operands.push_back({op.kind, true, op.word()});
        continue;
      }
      sig.operands.push_back({op.kind, true});
      args.push_back(op.word());
      // An id with no known type (undefined, or not a value) is still passed, so that
      // SPIRV-Tools reports it; the parameter then gets a placeholder type.
      const uint32_t type = type_of_.TypeId(op.word());
      param_types.push_back(type != 0 ? type : globals_.UInt32());
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
  call.ReserveOperands(1 + args.size(), 1 + args.size());
  call.AddIdOperand(callee);
  for (uint32_t arg : args) call.AddIdOperand(arg);
  call.set_source(inst.source_index(), inst.source_word_offset());
  call.debug_lines() = std::move(inst.debug_lines());
  inst = std::move(call);
  return true;
}

uint32_t Lifter::Declaration(const LiftedSignature& sig, uint32_t return_type,
                             const std::vector<uint32_t>& param_types) {
  std::vector<uint32_t> key{static_cast<uint32_t>(sig.opcode), sig.has_result, return_type};
  for (const LiftedOperand& op : sig.operands) {
    key.push_back(static_cast<uint32_t>(op.kind) << 1 | op.is_id);
    key.push_back(op.fixed_id);
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

bool HasExtendedContent(const ir::Module& module) {
  bool found = false;
  auto any = [&found](const ir::InstructionList& list, auto&& pred) {
    for (const ir::Instruction& inst : list) {
      if (found) return;
      found = pred(inst);
    }
  };
  any(module.capabilities(), UsesExtendedEnumerant);
  any(module.extensions(), IsExtendedExtension);
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
  Lifter lifter(module, lifted.module, lifted.record, error);
  if (!lifter.Run(&lifted.changed)) return std::nullopt;
  lifted.record.lifted_bound = lifted.module.header().bound;
  return lifted;
}

std::vector<std::optional<size_t>> OriginalIndices(const ir::Module& lifted) {
  std::vector<std::optional<size_t>> indices;
  lifted.ForEachInstruction([&indices](const ir::Instruction& inst) {
    if (inst.source_index() == ir::Instruction::kNotFromBinary) {
      indices.emplace_back(std::nullopt);
    } else {
      indices.emplace_back(inst.source_index());
    }
  });
  return indices;
}

}  // namespace xmx::bridge
