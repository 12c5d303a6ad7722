// --emulate-xmx=DEVICE: deciding which instructions the device lacks, and the pieces the
// emulations share (see emulate_xmx.hpp).
#include "opt/emulate_xmx.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "device/block2d_classes.hpp"
#include "opt/passes.hpp"
#include "opt/subgroup_sizes.hpp"

namespace xmx::opt {
namespace emulate_detail {

using grammar::OperandKindId;

uint32_t EmulationContext::TypeOf(uint32_t id) const {
  const ir::Instruction* def = def_use_.GetDef(id);
  return def != nullptr ? def->result_type_id() : 0;
}

uint32_t EmulationContext::LaneIdVariable() {
  if (lane_id_ != 0) return lane_id_;
  constexpr uint32_t kBuiltIn = static_cast<uint32_t>(spv::Decoration::BuiltIn);
  constexpr uint32_t kLaneId = static_cast<uint32_t>(spv::BuiltIn::SubgroupLocalInvocationId);
  for (const ir::Instruction& inst : module_.annotations()) {
    if (inst.opcode() == spv::Op::OpDecorate && inst.num_operands() == 3 &&
        inst.word(1) == kBuiltIn && inst.word(2) == kLaneId) {
      lane_id_ = inst.word(0);
    }
  }
  if (lane_id_ == 0) {
    const uint32_t pointer = builder_.PointerType(spv::StorageClass::Input, builder_.IntType(32));
    lane_id_ = builder_.NewId();
    if (pointer == 0 || lane_id_ == 0) return 0;
    ir::Instruction variable(spv::Op::OpVariable, pointer, lane_id_);
    variable.AddOperand(OperandKindId::kStorageClass,
                        {static_cast<uint32_t>(spv::StorageClass::Input)});
    module_.globals().push_back(std::move(variable));
    ir::Instruction decoration(spv::Op::OpDecorate);
    decoration.AddIdOperand(lane_id_);
    decoration.AddOperand(OperandKindId::kDecoration, {kBuiltIn});
    decoration.AddOperand(OperandKindId::kBuiltIn, {kLaneId});
    module_.annotations().push_back(std::move(decoration));
  }
  // Every entry point lists it: SPIR-V 1.4 asks that of every global variable a function it
  // reaches uses, and earlier versions of every Input variable.
  for (ir::Instruction& entry : module_.entry_points()) {
    bool listed = false;
    for (size_t i = 3; i < entry.num_operands(); ++i) listed |= entry.word(i) == lane_id_;
    if (!listed) entry.AddIdOperand(lane_id_);
  }
  return lane_id_;
}

ir::Function& EmulationContext::NewFunction(const std::vector<uint32_t>& parameter_types,
                                            std::vector<uint32_t>* parameters) {
  const uint32_t void_type = builder_.VoidType();
  const uint32_t function_type = builder_.FunctionType(void_type, parameter_types);
  ir::Function function;
  function.def = ir::Instruction(spv::Op::OpFunction, void_type, builder_.NewId());
  function.def.AddOperand(OperandKindId::kFunctionControl, {0});
  function.def.AddIdOperand(function_type);
  parameters->clear();
  for (uint32_t type : parameter_types) {
    const uint32_t id = builder_.NewId();
    function.parameters.emplace_back(spv::Op::OpFunctionParameter, type, id);
    parameters->push_back(id);
  }
  ir::BasicBlock entry;
  entry.label = ir::Instruction(spv::Op::OpLabel, 0, builder_.NewId());
  function.blocks.push_back(std::move(entry));
  module_.functions().push_back(std::move(function));
  return module_.functions().back();
}

bool EmulateMatrixMadsOf(ir::Module& module, const std::set<uint32_t>& results,
                         uint32_t subgroup_size, std::string* why_not) {
  const ir::DefUse def_use(module);
  const ir::TypeTable types(module);
  EmulationContext emulation(module, def_use, types);
  // The functions the emulation adds come after the original ones.
  const size_t original_functions = module.functions().size();
  auto function_it = module.functions().begin();
  for (size_t f = 0; f < original_functions; ++f, ++function_it) {
    for (ir::BasicBlock& block : function_it->blocks) {
      for (auto it = block.instructions.begin(); it != block.instructions.end();) {
        auto next = std::next(it);
        if (it->opcode() == spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL &&
            results.count(it->result_id()) != 0 &&
            !EmulateMatrixMad(emulation, *function_it, block, it, subgroup_size, why_not)) {
          return false;
        }
        it = next;
      }
    }
  }
  if (emulation.builder().out_of_ids()) {
    *why_not = "the module's id bound leaves no id for the emulation";
    return false;
  }
  return true;
}

}  // namespace emulate_detail

namespace {

using emulate_detail::EmulationContext;

constexpr const char* kUnfixedSubgroupSize =
    "the subgroup size of the function is not fixed (every kernel reaching it needs the same "
    "OpExecutionMode SubgroupSize)";

Diagnostic PassError(const ir::Instruction* inst, std::string message) {
  Diagnostic d;
  d.message = std::move(message);
  if (inst != nullptr && inst->source_index() != ir::Instruction::kNotFromBinary) {
    d.instruction_index = inst->source_index();
    d.word_offset = inst->source_word_offset();
  }
  if (inst != nullptr) d.opcode = static_cast<uint32_t>(inst->opcode());
  return d;
}

bool Accepted(device::MatchStatus status) {
  return status == device::MatchStatus::kMatched || status == device::MatchStatus::kNoTable;
}

// Whether the device runs this 2D block instruction at `subgroup_size` as it stands.
bool DeviceHasBlock2d(const device::DeviceProfile& profile, const ir::Instruction& inst,
                      device::Block2dOp op, const ir::TypeTable& types, uint32_t subgroup_size) {
  uint32_t dims[4];
  for (int i = 0; i < 4; ++i) {
    const std::optional<uint32_t> value = types.GetConstantUInt32(inst.word(i));
    if (!value) return false;
    dims[i] = *value;
  }
  if (!Accepted(device::MatchBlock2d(profile, op, dims[0], dims[1], dims[2], dims[3]).status)) {
    return false;
  }
  std::vector<uint32_t> supported;
  return device::MatchBlock2dSubgroupSize(profile, subgroup_size, &supported) != nullptr;
}

device::OperandShape ShapeOf(const ir::TypeTable& types, uint32_t type_id, bool* ok) {
  device::OperandShape shape;
  const ir::Type* type = types.GetType(type_id);
  if (type != nullptr && type->kind == ir::TypeKind::kVector) {
    shape.count = type->count;
    type = types.GetType(type->element);
  }
  if (type == nullptr || (type->kind != ir::TypeKind::kInt && type->kind != ir::TypeKind::kFloat)) {
    *ok = false;
    return shape;
  }
  const bool is_float = type->kind == ir::TypeKind::kFloat;
  switch (type->width) {
    case 16:
      shape.type = is_float ? device::ElementType::kF16 : device::ElementType::kI16;
      break;
    case 32:
      shape.type = is_float ? device::ElementType::kF32 : device::ElementType::kI32;
      break;
    case 64:
      shape.type = is_float ? device::ElementType::kF64 : device::ElementType::kI64;
      break;
    default:
      *ok = false;
  }
  return shape;
}

bool DeviceHasMatrixMad(const device::DeviceProfile& profile, const ir::Instruction& inst,
                        const EmulationContext& context, uint32_t subgroup_size) {
  const ir::TypeTable& types = context.types();
  device::MatrixMadQuery query;
  query.subgroup_size = subgroup_size;
  const std::optional<uint32_t> k = types.GetConstantUInt32(inst.word(0));
  if (!k) return false;
  query.k = *k;
  bool ok = true;
  query.result = ShapeOf(types, inst.result_type_id(), &ok);
  query.a = ShapeOf(types, context.TypeOf(inst.word(1)), &ok);
  query.b = ShapeOf(types, context.TypeOf(inst.word(2)), &ok);
  query.c = ShapeOf(types, context.TypeOf(inst.word(3)), &ok);
  query.operands = inst.num_operands() > 4 ? inst.word(4) : 0;
  return ok && Accepted(device::MatchMatrixMad(profile, query).status);
}

// The subgroup sizes each function may run at: the one every kernel reaching it fixes, or none
// (empty) when they do not all fix the same one. A function no kernel reaches never runs: its
// instructions are written for the size the kernels agree on, or else for whichever size of the
// kernels' and the device's fits the instruction (its shape may say: a matrix instruction's K).
std::map<uint32_t, std::vector<uint32_t>> SubgroupSizes(const ir::Module& module,
                                                        const device::DeviceProfile& profile) {
  const ReachingSubgroupSizes reaching = FindReachingSubgroupSizes(module);
  std::vector<uint32_t> unreached;
  if (const uint32_t agreed = reaching.kernels.empty() ? 0 : reaching.kernels.front();
      agreed != 0 && std::all_of(reaching.kernels.begin(), reaching.kernels.end(),
                                 [agreed](uint32_t s) { return s == agreed; })) {
    unreached = {agreed};
  } else {
    for (const std::vector<uint32_t>* list : {&reaching.kernels, &profile.subgroup_sizes}) {
      for (uint32_t size : *list) {
        if (size != 0 && std::find(unreached.begin(), unreached.end(), size) == unreached.end()) {
          unreached.push_back(size);
        }
      }
    }
  }
  std::map<uint32_t, std::vector<uint32_t>> result;
  for (const ir::Function& function : module.functions()) {
    const uint32_t fixed = reaching.Fixed(function.id());
    result[function.id()] = !reaching.Reached(function.id()) ? unreached
                            : fixed != 0                     ? std::vector<uint32_t>{fixed}
                                                             : std::vector<uint32_t>{};
  }
  return result;
}

// Drops the capabilities and extension strings of a family no instruction uses any more.
void DropUnused(ir::Module& module) {
  bool block2d = false, matrix = false;
  for (const ir::Function& function : module.functions()) {
    for (const ir::BasicBlock& block : function.blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        block2d |= device::Block2dOpOf(inst.opcode()).has_value();
        matrix |= inst.opcode() == spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL;
      }
    }
  }
  auto drop_capability = [&](spv::Capability capability) {
    module.capabilities().remove_if([capability](const ir::Instruction& inst) {
      return inst.num_operands() == 1 && inst.word(0) == static_cast<uint32_t>(capability);
    });
  };
  auto drop_extension = [&](std::string_view name) {
    module.extensions().remove_if(
        [name](const ir::Instruction& inst) { return inst.StringOperand(0) == name; });
  };
  if (!block2d) {
    drop_capability(spv::Capability::Subgroup2DBlockIOINTEL);
    drop_capability(spv::Capability::Subgroup2DBlockTransformINTEL);
    drop_capability(spv::Capability::Subgroup2DBlockTransposeINTEL);
    drop_extension("SPV_INTEL_2d_block_io");
  }
  if (!matrix) {
    drop_capability(spv::Capability::SubgroupMatrixMultiplyAccumulateINTEL);
    drop_extension("SPV_INTEL_subgroup_matrix_multiply_accumulate");
  }
}

}  // namespace

PassStatus EmulateXmx(ir::Module& module, PassContext& context) {
  if (context.device == nullptr) {
    context.diagnostics.push_back(
        PassError(nullptr, "needs a device (--emulate-xmx=DEVICE or --device)"));
    return PassStatus::kFailed;
  }
  const device::DeviceProfile& profile = *context.device;
  const ir::Module original = module;
  const std::map<uint32_t, std::vector<uint32_t>> subgroup_sizes = SubgroupSizes(module, profile);
  // Whether the device has the instruction at one of the sizes the function may run at; where
  // the size is not fixed, at some size of the device (the validator accepted the input so).
  auto device_has = [&](const std::vector<uint32_t>& sizes, auto&& has_at) {
    for (uint32_t size : sizes.empty() ? profile.subgroup_sizes : sizes) {
      if (has_at(size)) return true;
    }
    return false;
  };
  const ir::DefUse def_use(module);
  const ir::TypeTable types(module);
  EmulationContext emulation(module, def_use, types);
  bool changed = false;
  // The functions the pass adds come after the original ones: stop before them.
  const size_t original_functions = module.functions().size();
  auto function_it = module.functions().begin();
  for (size_t f = 0; f < original_functions; ++f, ++function_it) {
    ir::Function& function = *function_it;
    const std::vector<uint32_t>& sizes = subgroup_sizes.at(function.id());
    // Tries the sizes in turn (one, where the function's size is fixed).
    auto emulate = [&](auto&& at_size, std::string* why_not) {
      if (sizes.empty()) *why_not = kUnfixedSubgroupSize;
      for (uint32_t size : sizes) {
        if (at_size(size)) return true;
      }
      return false;
    };
    for (ir::BasicBlock& block : function.blocks) {
      for (auto it = block.instructions.begin(); it != block.instructions.end();) {
        auto next = std::next(it);
        const std::optional<device::Block2dOp> op = device::Block2dOpOf(it->opcode());
        const bool is_matrix = it->opcode() == spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL;
        if (const std::optional<device::SubgroupTypeQuery> query =
                emulate_detail::SubgroupTypeQueryOf(emulation, *it)) {
          const device::MatchStatus status = device::MatchSubgroupType(profile, *query).status;
          if (Accepted(status) || status == device::MatchStatus::kCoreRules) {
            it = next;
            continue;
          }
          std::string why_not;
          if (query->op != device::SubgroupOp::kBlockIo && sizes.empty()
                  // shuffles and collectives are the same at every size
                  ? emulate_detail::EmulateNarrowSubgroupOp(emulation, function, block, it, 0,
                                                            &why_not)
                  : emulate(
                        [&](uint32_t size) {
                          return emulate_detail::EmulateNarrowSubgroupOp(emulation, function, block,
                                                                         it, size, &why_not);
                        },
                        &why_not)) {
            changed = true;
            it = next;
            continue;
          }
          Diagnostic error =
              PassError(&*it, "cannot emulate the " + std::to_string(query->bits) + "-bit " +
                                  std::string(device::SubgroupOpName(query->op)) + " for device " +
                                  profile.name + ": " + why_not);
          module = original;
          context.diagnostics.push_back(std::move(error));
          return PassStatus::kFailed;
        }
        if (!op && !is_matrix) {
          it = next;
          continue;
        }
        if (op && device_has(sizes, [&](uint32_t size) {
              return DeviceHasBlock2d(profile, *it, *op, types, size);
            })) {
          it = next;
          continue;
        }
        if (is_matrix && device_has(sizes, [&](uint32_t size) {
              return DeviceHasMatrixMad(profile, *it, emulation, size);
            })) {
          it = next;
          continue;
        }
        if (op == device::Block2dOp::kPrefetch) {  // a hint: nothing to emulate
          if (next != block.instructions.end() && next->debug_lines().empty()) {
            next->debug_lines() = std::move(it->debug_lines());
          }
          block.instructions.erase(it);
          changed = true;
          it = next;
          continue;
        }
        std::string why_not;
        if (emulate(
                [&](uint32_t size) {
                  return op ? EmulateBlock2d(emulation, function, block, it, size, &why_not)
                            : EmulateMatrixMad(emulation, function, block, it, size, &why_not);
                },
                &why_not)) {
          changed = true;
          it = next;
          continue;
        }
        const ir::Instruction& failed = *it;
        std::string name = is_matrix ? "OpSubgroupMatrixMultiplyAccumulateINTEL"
                                     : std::string(device::Block2dInstructionName(*op));
        Diagnostic error = PassError(
            &failed, "cannot emulate " + name + " for device " + profile.name + ": " + why_not);
        module = original;
        context.diagnostics.push_back(std::move(error));
        return PassStatus::kFailed;
      }
    }
  }
  if (emulation.builder().out_of_ids()) {
    module = original;
    context.diagnostics.push_back(
        PassError(nullptr, "the module's id bound leaves no id for the emulation"));
    return PassStatus::kFailed;
  }
  if (changed) DropUnused(module);
  return changed ? PassStatus::kChanged : PassStatus::kUnchanged;
}

}  // namespace xmx::opt
