#include "opt/lower_cooperative_matrix.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "grammar/grammar.hpp"
#include "ir/id_operands.hpp"
#include "ir/module_info.hpp"
#include "opt/emulate_xmx.hpp"
#include "opt/lower_cooperative_matrix_lowering.hpp"

namespace xmx::opt {
namespace {

using lower_coop::Lowering;
using lower_coop::MatrixType;
using lower_coop::MatrixUse;

constexpr uint32_t kSubgroupScope = 3;

Diagnostic Error(std::string message, const ir::Instruction* inst = nullptr) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.rule = "opt.lower-cooperative-matrix";
  d.message = std::move(message);
  if (inst && inst->source_index() != ir::Instruction::kNotFromBinary) {
    d.instruction_index = inst->source_index();
    d.word_offset = inst->source_word_offset();
  }
  if (inst) d.opcode = static_cast<uint32_t>(inst->opcode());
  return d;
}

std::string OpName(spv::Op op) {
  const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(op));
  return desc ? std::string(desc->name) : "opcode " + std::to_string(static_cast<uint32_t>(op));
}

// The one subgroup size the kernels run at (the mapping depends on it): their SubgroupSize
// execution modes, and for a kernel without one the size the device runs it at by default (16
// where the device has it, as xmx-run and Intel's compiler do); `unpinned` gets those kernels,
// which the pass then pins to that size with an execution mode of their own.
std::optional<uint32_t> SubgroupSize(const ir::Module& module, const device::DeviceProfile& device,
                                     std::vector<uint32_t>* unpinned, std::string* why_not) {
  ir::ModuleInfo info(module);
  std::set<uint32_t> sizes;
  const uint32_t default_size = device.any_power_of_two_subgroup_size ||
                                        device.SupportsSubgroupSize(16) ||
                                        device.subgroup_sizes.empty()
                                    ? 16
                                    : device.subgroup_sizes.front();
  for (const ir::EntryPoint& entry : info.entry_points()) {
    auto mode = info.FindExecutionMode(entry.function_id, spv::ExecutionMode::SubgroupSize);
    if (mode && (mode->operands.empty() || mode->operands_are_ids)) {
      *why_not = "kernel '" + entry.name + "' has a SubgroupSize that is not a literal";
      return std::nullopt;
    }
    if (mode) {
      sizes.insert(mode->operands[0]);
    } else {
      sizes.insert(default_size);
      unpinned->push_back(entry.function_id);
    }
  }
  if (sizes.size() != 1) {
    *why_not = sizes.empty() ? "the module has no kernel, so no subgroup size"
                             : "the kernels run at different subgroup sizes; the element mapping "
                               "of the lowered code can have only one";
    return std::nullopt;
  }
  return *sizes.begin();
}

// Pins kernels to the subgroup size their code was lowered for.
void PinSubgroupSize(ir::Module& module, const std::vector<uint32_t>& kernels, uint32_t size) {
  for (uint32_t kernel : kernels) {
    ir::Instruction mode(spv::Op::OpExecutionMode);
    mode.AddIdOperand(kernel);
    mode.AddOperand(grammar::OperandKindId::kExecutionMode,
                    {static_cast<uint32_t>(spv::ExecutionMode::SubgroupSize)});
    mode.AddOperand(grammar::OperandKindId::kLiteralInteger, {size});
    module.execution_modes().push_back(std::move(mode));
  }
}

bool IsElementwiseOpcode(spv::Op op) {
  switch (op) {
    case spv::Op::OpFAdd:
    case spv::Op::OpFSub:
    case spv::Op::OpFMul:
    case spv::Op::OpFDiv:
    case spv::Op::OpIAdd:
    case spv::Op::OpISub:
    case spv::Op::OpIMul:
    case spv::Op::OpSDiv:
    case spv::Op::OpUDiv:
    case spv::Op::OpFNegate:
    case spv::Op::OpSNegate:
    case spv::Op::OpMatrixTimesScalar:
    case spv::Op::OpFConvert:
    case spv::Op::OpSConvert:
    case spv::Op::OpUConvert:
    case spv::Op::OpConvertFToS:
    case spv::Op::OpConvertFToU:
    case spv::Op::OpConvertSToF:
    case spv::Op::OpConvertUToF:
    case spv::Op::OpCompositeConstruct:
    case spv::Op::OpCompositeExtract:
    case spv::Op::OpCompositeInsert:
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpCooperativeMatrixGetElementCoordINTEL:
      return true;
    default:
      return false;
  }
}

// Instructions that only carry matrices: their types are renamed and nothing else changes.
bool CarriesOnly(spv::Op op) {
  switch (op) {
    case spv::Op::OpPhi:
    case spv::Op::OpSelect:
    case spv::Op::OpLoad:
    case spv::Op::OpStore:
    case spv::Op::OpVariable:
    case spv::Op::OpCopyObject:
    case spv::Op::OpUndef:
    case spv::Op::OpFunctionCall:
    case spv::Op::OpReturnValue:
      return true;
    default:
      return false;
  }
}

class Pass {
 public:
  explicit Pass(Lowering& l) : l_(l) {}

  bool CollectTypes() {
    for (const ir::Instruction& inst : l_.module.globals()) {
      if (inst.opcode() != spv::Op::OpTypeCooperativeMatrixKHR) continue;
      const ir::Type* t = l_.types.GetType(inst.result_id());
      auto scope = l_.types.GetConstantUInt(t->scope_id);
      auto rows = l_.types.GetConstantUInt(t->rows_id);
      auto columns = l_.types.GetConstantUInt(t->columns_id);
      auto use = l_.types.GetConstantUInt(t->use_id);
      if (!scope || !rows || !columns || !use || *use > 2 || *rows > 256 || *columns > 256) {
        return l_.Fail("a cooperative matrix type without constant Scope, Rows, Columns, Use");
      }
      if (*scope != kSubgroupScope) {
        return l_.Fail("a Workgroup-scope cooperative matrix has no Intel lowering");
      }
      const ir::Type* component = l_.types.GetType(t->element);
      if (!component ||
          (component->kind != ir::TypeKind::kInt && component->kind != ir::TypeKind::kFloat)) {
        return l_.Fail("a cooperative matrix of a component that is not an int or float");
      }
      MatrixType m;
      m.id = inst.result_id();
      m.use = static_cast<MatrixUse>(*use);
      m.rows = static_cast<uint32_t>(*rows);
      m.columns = static_cast<uint32_t>(*columns);
      m.component_type = t->element;
      m.bits = component->width;
      m.is_float = component->kind == ir::TypeKind::kFloat;
      m.is_bfloat16_type = m.is_float && component->float_encoding.has_value();
      std::string why;
      auto mapping = lower_coop::ElementMapping::Make(m.use, m.rows, m.columns, m.bits,
                                                      l_.subgroup_size, &why);
      if (!mapping) return l_.Fail(why);
      m.mapping = *mapping;
      m.rep = lower_coop::MakeLaneRep(l_.b, m.component_type, mapping->length());
      l_.matrices.emplace(m.id, m);
      l_.renames[m.id] = m.rep.type_id;
    }
    return true;
  }

  bool Involves(const ir::Instruction& inst) const {
    switch (inst.opcode()) {
      case spv::Op::OpCooperativeMatrixLoadKHR:
      case spv::Op::OpCooperativeMatrixStoreKHR:
      case spv::Op::OpCooperativeMatrixMulAddKHR:
      case spv::Op::OpCooperativeMatrixLengthKHR:
      case spv::Op::OpCooperativeMatrixLoadCheckedINTEL:
      case spv::Op::OpCooperativeMatrixStoreCheckedINTEL:
      case spv::Op::OpCooperativeMatrixConstructCheckedINTEL:
      case spv::Op::OpCooperativeMatrixGetElementCoordINTEL:
      case spv::Op::OpCooperativeMatrixPrefetchINTEL:
      case spv::Op::OpCooperativeMatrixApplyFunctionINTEL:
        return true;
      default:
        break;
    }
    if (inst.has_result_type() && l_.MatrixOfType(inst.result_type_id())) return true;
    // A pointer to a matrix matters only where it is indexed into; casts, loads and stores of
    // it keep their meaning (the slice is laid out element after element, as before).
    const bool indexes =
        inst.opcode() == spv::Op::OpAccessChain || inst.opcode() == spv::Op::OpInBoundsAccessChain;
    bool found = false;
    ir::ForEachIdOperand(inst, [&](uint32_t id, size_t index) {
      if (l_.MatrixOfValue(id) || l_.MatrixOfType(id)) found = true;
      if (!indexes || index != 0) return;
      if (const ir::Instruction* pointer = l_.b.TypeInstruction(l_.b.ValueType(id))) {
        if (pointer->opcode() == spv::Op::OpTypePointer && l_.MatrixOfType(pointer->word(1))) {
          found = true;
        }
      }
    });
    return found;
  }

  // Lowers one instruction; false (with l_.error) when it has no lowering.
  bool LowerOne(const ir::Instruction& inst, bool* erase, uint32_t* result) {
    *erase = true;
    *result = 0;
    switch (inst.opcode()) {
      case spv::Op::OpCooperativeMatrixLoadKHR:
      case spv::Op::OpCooperativeMatrixLoadCheckedINTEL:
      case spv::Op::OpCooperativeMatrixConstructCheckedINTEL:
        return lower_coop::LowerLoad(l_, inst, result);
      case spv::Op::OpCooperativeMatrixStoreKHR:
      case spv::Op::OpCooperativeMatrixStoreCheckedINTEL:
        return lower_coop::LowerStore(l_, inst);
      case spv::Op::OpCooperativeMatrixMulAddKHR:
        return lower_coop::LowerMulAdd(l_, inst, result);
      case spv::Op::OpCooperativeMatrixLengthKHR: {
        const MatrixType* m = l_.MatrixOfType(inst.word(0));
        if (!m) return l_.Fail("OpCooperativeMatrixLengthKHR of a value, not of a matrix type");
        *result = l_.b.UIntConstant(32, m->mapping.length());
        return true;
      }
      case spv::Op::OpCooperativeMatrixPrefetchINTEL:
        // A cache hint: dropping it changes no result.
        return true;
      default:
        break;
    }
    if (CarriesOnly(inst.opcode())) {
      *erase = false;
      return true;
    }
    if (IsElementwiseOpcode(inst.opcode())) return lower_coop::LowerElementwise(l_, inst, result);
    return l_.Fail(OpName(inst.opcode()) + " on cooperative matrices has no lowering");
  }

  bool LowerFunctions() {
    for (ir::Function& f : l_.module.functions()) {
      for (auto block = f.blocks.begin(); block != f.blocks.end(); ++block) {
        for (auto it = block->instructions.begin(); it != block->instructions.end();) {
          if (!Involves(*it)) {
            ++it;
            continue;
          }
          l_.b.SetInsertPoint(&f, block, it);
          bool erase = false;
          uint32_t result = 0;
          if (!LowerOne(*it, &erase, &result)) {
            failed_at_ = &*it;
            return false;
          }
          block = l_.b.block();  // the block that now holds `it`
          if (!erase) {
            ++it;
            continue;
          }
          if (it->has_result_id() && result != 0) l_.renames[it->result_id()] = result;
          it = block->instructions.erase(it);
        }
      }
    }
    return true;
  }

  bool LowerConstants() {
    for (ir::Instruction& inst : l_.module.globals()) {
      const MatrixType* m =
          inst.has_result_type() ? l_.MatrixOfType(inst.result_type_id()) : nullptr;
      if (!m) continue;
      if (inst.opcode() == spv::Op::OpConstantNull || inst.opcode() == spv::Op::OpUndef) continue;
      if (inst.opcode() != spv::Op::OpConstantComposite || inst.num_operands() != 1) {
        failed_at_ = &inst;
        return l_.Fail(OpName(inst.opcode()) + " of a cooperative matrix type has no lowering");
      }
      const uint32_t value = inst.word(0);
      const lower_coop::LaneRep& rep = m->rep;
      if (rep.kind == lower_coop::LaneKind::kScalar) {
        l_.renames[inst.result_id()] = value;
        continue;
      }
      uint32_t piece = value;
      if (rep.kind == lower_coop::LaneKind::kChunks) {
        ir::Instruction chunk(spv::Op::OpConstantComposite, rep.piece_type, l_.module.TakeNextId());
        for (int i = 0; i < 16; ++i) chunk.AddIdOperand(value);
        piece = chunk.result_id();
        new_constants_.push_back(std::move(chunk));
      }
      ir::Instruction replacement(spv::Op::OpConstantComposite, rep.type_id, inst.result_id());
      for (uint32_t i = 0; i < rep.pieces(); ++i) replacement.AddIdOperand(piece);
      inst = std::move(replacement);
    }
    for (ir::Instruction& c : new_constants_) l_.module.globals().push_back(std::move(c));
    return true;
  }

  const ir::Instruction* failed_at() const { return failed_at_; }

 private:
  Lowering& l_;
  const ir::Instruction* failed_at_ = nullptr;
  std::vector<ir::Instruction> new_constants_;
};

uint32_t Resolve(const std::map<uint32_t, uint32_t>& renames, uint32_t id) {
  for (int guard = 0; guard < 64; ++guard) {
    auto it = renames.find(id);
    if (it == renames.end() || it->second == id) return id;
    id = it->second;
  }
  return id;
}

void ApplyRenames(ir::Module& module, const std::map<uint32_t, uint32_t>& renames) {
  module.ForEachInstruction([&](ir::Instruction& inst) {
    if (inst.has_result_type()) inst.set_result_type_id(Resolve(renames, inst.result_type_id()));
    ir::ForEachIdOperand(inst, [&](uint32_t id, size_t index) {
      const uint32_t to = Resolve(renames, id);
      if (to != id) inst.SetWord(index, to);
    });
  });
}

// Removes the instructions that define or name ids in `gone`.
void RemoveDefinitions(ir::Module& module, const std::set<uint32_t>& gone) {
  module.globals().remove_if([&](const ir::Instruction& inst) {
    return inst.has_result_id() && gone.count(inst.result_id()) != 0;
  });
  auto names_gone = [&](const ir::Instruction& inst) {
    return inst.num_operands() > 0 && grammar::IsIdKind(inst.operand(0).kind) &&
           gone.count(inst.word(0)) != 0;
  };
  module.debug().remove_if(names_gone);
  module.annotations().remove_if(names_gone);
}

// Merges types that became identical (two matrix types with the same slice, pointers to them):
// SPIR-V allows one declaration of each non-aggregate type.
void MergeDuplicateTypes(ir::Module& module) {
  for (int round = 0; round < 8; ++round) {
    std::map<std::pair<spv::Op, std::vector<uint32_t>>, uint32_t> seen;
    std::map<uint32_t, uint32_t> renames;
    std::set<uint32_t> gone;
    for (const ir::Instruction& inst : module.globals()) {
      switch (inst.opcode()) {
        case spv::Op::OpTypeVoid:
        case spv::Op::OpTypeBool:
        case spv::Op::OpTypeInt:
        case spv::Op::OpTypeFloat:
        case spv::Op::OpTypeVector:
        case spv::Op::OpTypePointer:
        case spv::Op::OpTypeFunction:
          break;
        default:
          continue;
      }
      std::vector<uint32_t> words(inst.operand_words().begin(), inst.operand_words().end());
      auto [it, inserted] = seen.emplace(std::make_pair(inst.opcode(), words), inst.result_id());
      if (!inserted) {
        renames[inst.result_id()] = it->second;
        gone.insert(inst.result_id());
      }
    }
    if (gone.empty()) return;
    RemoveDefinitions(module, gone);
    ApplyRenames(module, renames);
  }
}

// Orders the globals so that each is defined before it is used (new types and constants were
// appended at the end), keeping the original order otherwise.
void OrderGlobals(ir::Module& module) {
  std::map<uint32_t, ir::Instruction*> defs;
  std::set<uint32_t> forward_declared;
  for (ir::Instruction& inst : module.globals()) {
    if (inst.has_result_id()) defs[inst.result_id()] = &inst;
    if (inst.opcode() == spv::Op::OpTypeForwardPointer) forward_declared.insert(inst.word(0));
  }
  std::set<const ir::Instruction*> done, visiting;
  std::vector<ir::Instruction*> order;
  std::function<void(ir::Instruction*)> visit = [&](ir::Instruction* inst) {
    if (done.count(inst) || visiting.count(inst)) return;
    visiting.insert(inst);
    auto need = [&](uint32_t id) {
      if (forward_declared.count(id) && inst->opcode() == spv::Op::OpTypeStruct) return;
      auto it = defs.find(id);
      if (it != defs.end() && it->second != inst) visit(it->second);
    };
    if (inst->has_result_type()) need(inst->result_type_id());
    ir::ForEachIdOperand(*inst, [&](uint32_t id, size_t) { need(id); });
    visiting.erase(inst);
    done.insert(inst);
    order.push_back(inst);
  };
  for (ir::Instruction& inst : module.globals()) visit(&inst);
  ir::InstructionList sorted;
  for (ir::Instruction* inst : order) sorted.push_back(std::move(*inst));
  module.globals() = std::move(sorted);
}

void AddCapability(ir::Module& module, spv::Capability capability) {
  if (module.HasCapability(capability)) return;
  ir::Instruction cap(spv::Op::OpCapability);
  cap.AddOperand(grammar::OperandKindId::kCapability, {static_cast<uint32_t>(capability)});
  module.capabilities().push_back(std::move(cap));
}

void AddExtension(ir::Module& module, std::string_view name) {
  if (module.HasExtension(name)) return;
  ir::Instruction ext(spv::Op::OpExtension);
  ext.AddStringOperand(name);
  module.extensions().push_back(std::move(ext));
}

// Capabilities and extensions: what the new instructions and types need is added; what only
// cooperative matrices needed is removed.
void UpdateRequirements(ir::Module& module, const std::set<spv::Op>& emitted) {
  for (spv::Op op : emitted) {
    const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(op));
    if (!desc || desc->capabilities.empty()) continue;
    const grammar::Enumerant* e =
        grammar::FindEnumerant(grammar::OperandKindId::kCapability, desc->capabilities[0]);
    if (e) AddCapability(module, static_cast<spv::Capability>(e->value));
    if (!desc->extensions.empty()) AddExtension(module, desc->extensions[0]);
    // Some extensions are named by the capability only (SubgroupShuffleINTEL).
    if (e && desc->extensions.empty() && !e->extensions.empty()) {
      AddExtension(module, e->extensions[0]);
    }
  }
  if (emitted.count(spv::Op::OpSubgroup2DBlockLoadTransformINTEL)) {
    AddCapability(module, spv::Capability::Subgroup2DBlockTransformINTEL);
  }
  if (emitted.count(spv::Op::OpSubgroup2DBlockLoadTransposeINTEL)) {
    AddCapability(module, spv::Capability::Subgroup2DBlockTransposeINTEL);
  }
  for (const ir::Instruction& inst : module.globals()) {
    if (inst.opcode() == spv::Op::OpTypeVector && (inst.word(1) == 8 || inst.word(1) == 16)) {
      AddCapability(module, spv::Capability::Vector16);
    }
    if (inst.opcode() == spv::Op::OpTypeInt && inst.word(0) == 16) {
      AddCapability(module, spv::Capability::Int16);
    }
    if (inst.opcode() == spv::Op::OpTypeInt && inst.word(0) == 8) {
      AddCapability(module, spv::Capability::Int8);
    }
    if (inst.opcode() == spv::Op::OpTypeInt && inst.word(0) == 64) {
      AddCapability(module, spv::Capability::Int64);
    }
    // BFloat16CooperativeMatrixKHR, removed below, declared this one implicitly.
    if (inst.opcode() == spv::Op::OpTypeFloat && inst.num_operands() > 1) {
      AddCapability(module, spv::Capability::BFloat16TypeKHR);
    }
  }
  const std::set<std::string_view> matrix_capabilities = {
      "CooperativeMatrixKHR",
      "CooperativeMatrixCheckedInstructionsINTEL",
      "CooperativeMatrixInvocationInstructionsINTEL",
      "CooperativeMatrixPrefetchINTEL",
      "PackedCooperativeMatrixINTEL",
      "CooperativeMatrixTF32ComponentTypeINTEL",
      "CooperativeMatrixBFloat16ComponentTypeINTEL",
      "BFloat16CooperativeMatrixKHR",
      "Int4CooperativeMatrixINTEL"};
  module.capabilities().remove_if([&](const ir::Instruction& inst) {
    const grammar::Enumerant* e =
        grammar::FindEnumerant(grammar::OperandKindId::kCapability, inst.word(0));
    return e && matrix_capabilities.count(e->name) != 0;
  });
  module.extensions().remove_if([](const ir::Instruction& inst) {
    const std::string name = inst.StringOperand(0);
    return name == "SPV_KHR_cooperative_matrix" || name == "SPV_INTEL_joint_matrix";
  });
}

}  // namespace

PassStatus LowerCooperativeMatrix(ir::Module& module, PassContext& context) {
  bool has_matrices = false;
  for (const ir::Instruction& inst : module.globals()) {
    has_matrices |= inst.opcode() == spv::Op::OpTypeCooperativeMatrixKHR;
  }
  if (!has_matrices) return PassStatus::kUnchanged;
  if (context.device == nullptr) {
    context.diagnostics.push_back(
        Error("the module has cooperative matrices and no device was given; name one as "
              "--lower-cooperative-matrix=DEVICE (e.g. pvc, bmg, dg2): the native shapes and the "
              "2D block IO it may use depend on it"));
    return PassStatus::kFailed;
  }
  const device::DeviceProfile& device = *context.device;
  if (device.matrix_mad.kind != device::TableKind::kTable ||
      device.cooperative_matrix.kind != device::TableKind::kTable) {
    context.diagnostics.push_back(
        Error("device " + device.name +
              " has no matrix_mad or cooperative_matrix table: there is nothing to lower to"));
    return PassStatus::kFailed;
  }
  std::string why;
  std::vector<uint32_t> unpinned;
  const std::optional<uint32_t> subgroup_size = SubgroupSize(module, device, &unpinned, &why);
  if (!subgroup_size) {
    context.diagnostics.push_back(Error(why));
    return PassStatus::kFailed;
  }

  ir::Module work = module;  // the input stays untouched unless everything lowers
  Lowering l(work, device, *subgroup_size);
  Pass pass(l);
  if (!pass.CollectTypes() || !pass.LowerFunctions() || !pass.LowerConstants()) {
    context.diagnostics.push_back(Error(l.error, pass.failed_at()));
    return PassStatus::kFailed;
  }
  std::set<uint32_t> gone;
  for (const auto& [id, m] : l.matrices) gone.insert(id);
  RemoveDefinitions(work, gone);
  ApplyRenames(work, l.renames);
  MergeDuplicateTypes(work);
  OrderGlobals(work);
  if (!l.exact_mads.empty() &&
      !emulate_detail::EmulateMatrixMadsOf(work, l.exact_mads, *subgroup_size, &why)) {
    context.diagnostics.push_back(Error(
        "cannot emulate the exact rounding of an fp32 accumulator to a 16-bit result: " + why));
    return PassStatus::kFailed;
  }
  UpdateRequirements(work, l.b.emitted());
  if (!unpinned.empty()) {
    PinSubgroupSize(work, unpinned, *subgroup_size);
    AddCapability(work, spv::Capability::SubgroupDispatch);
  }
  module = std::move(work);
  return PassStatus::kChanged;
}

}  // namespace xmx::opt
