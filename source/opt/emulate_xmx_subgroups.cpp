// The 8- and 16-bit typings of the Intel subgroup instructions and of the OpGroup* collectives
// (cl_intel_subgroups_char / _short, SPEC-NOTES C.3, C.4) for devices without them: shuffles,
// broadcasts and collectives run on the values widened to 32 bits (which every device has) and
// narrowed back; buffer block reads and writes become one load or store per component at
// Ptr[lid + j x subgroup size] (C.2), the only form that needs the subgroup size.
//
// Widening is exact: a shuffle or broadcast moves the value unchanged; a sum's low 8 or 16 bits
// are those of the narrow sum; min and max compare sign- (SMin, SMax) or zero-extended values. The
// one difference is the identity an exclusive scan gives the first invocation: the 32-bit SMin
// and SMax identities do not narrow to the 8- or 16-bit ones (DECISIONS 8: SMin 127, SMax -128 for
// 8 bits), so that invocation gets the narrow identity itself.
#include <string>

#include "opt/emulate_xmx.hpp"

namespace xmx::opt::emulate_detail {
namespace {

using spv::Op;

struct IntegerShape {
  uint32_t bits = 0;
  uint32_t count = 1;  // components, 1 for a scalar
};

std::optional<IntegerShape> IntegerShapeOf(const ir::TypeTable& types, uint32_t type_id) {
  IntegerShape shape;
  const ir::Type* type = types.GetType(type_id);
  if (type != nullptr && type->kind == ir::TypeKind::kVector) {
    shape.count = type->count;
    type = types.GetType(type->element);
  }
  if (type == nullptr || type->kind != ir::TypeKind::kInt) return std::nullopt;
  shape.bits = type->width;
  return shape;
}

// Turns `inst` into `opcode` with the same result type and id, so its uses stay as they are.
void Rewrite(ir::InstructionList::iterator inst, Op opcode, std::vector<uint32_t> operands) {
  ir::Instruction replacement(opcode, inst->result_type_id(), inst->result_id());
  for (uint32_t id : operands) replacement.AddIdOperand(id);
  replacement.debug_lines() = std::move(inst->debug_lines());
  *inst = std::move(replacement);
}

}  // namespace

std::optional<device::SubgroupTypeQuery> SubgroupTypeQueryOf(const EmulationContext& context,
                                                             const ir::Instruction& inst) {
  device::SubgroupTypeQuery query;
  uint32_t type_id = inst.result_type_id();
  switch (inst.opcode()) {
    case Op::OpSubgroupShuffleINTEL:
    case Op::OpSubgroupShuffleDownINTEL:
    case Op::OpSubgroupShuffleUpINTEL:
    case Op::OpSubgroupShuffleXorINTEL:
      query.op = device::SubgroupOp::kShuffle;
      break;
    case Op::OpSubgroupBlockReadINTEL:
      query.op = device::SubgroupOp::kBlockIo;
      break;
    case Op::OpSubgroupBlockWriteINTEL:
      query.op = device::SubgroupOp::kBlockIo;
      type_id = inst.num_operands() == 2 ? context.TypeOf(inst.word(1)) : 0;
      break;
    case Op::OpSubgroupImageBlockReadINTEL:
      query.op = device::SubgroupOp::kImageBlockIo;
      break;
    case Op::OpSubgroupImageBlockWriteINTEL:
      query.op = device::SubgroupOp::kImageBlockIo;
      type_id = inst.num_operands() == 3 ? context.TypeOf(inst.word(2)) : 0;
      break;
    case Op::OpGroupBroadcast:
      query.op = device::SubgroupOp::kGroupBroadcast;
      break;
    case Op::OpGroupIAdd:
      query.op = device::SubgroupOp::kGroupIAdd;
      break;
    case Op::OpGroupSMin:
    case Op::OpGroupUMin:
    case Op::OpGroupSMax:
    case Op::OpGroupUMax:
      query.op = device::SubgroupOp::kGroupMinMax;
      break;
    default:
      return std::nullopt;
  }
  const std::optional<IntegerShape> shape = IntegerShapeOf(context.types(), type_id);
  if (!shape || (shape->bits != 8 && shape->bits != 16)) return std::nullopt;
  if (device::IsGroupOp(query.op)) {
    // Only subgroup-scope collectives belong to the subgroup extensions.
    const std::optional<uint32_t> scope = context.types().GetConstantUInt32(inst.word(0));
    if (!scope || *scope != static_cast<uint32_t>(spv::Scope::Subgroup)) return std::nullopt;
    if (query.op != device::SubgroupOp::kGroupBroadcast) {
      query.group_operation = static_cast<device::GroupOperation>(inst.word(1));
    }
  }
  query.kind = device::ScalarKind::kInt;
  query.bits = shape->bits;
  query.components = shape->count;
  return query;
}

bool EmulateNarrowSubgroupOp(EmulationContext& context, ir::Function& function,
                             ir::BasicBlock& block, ir::InstructionList::iterator inst,
                             uint32_t subgroup_size, std::string* why_not) {
  ModuleBuilder& b = context.builder();
  const ir::TypeTable& types = context.types();
  CodeBuilder code(b, function, block, inst);
  const uint32_t i32 = b.IntType(32);
  const Op opcode = inst->opcode();

  if (opcode == Op::OpSubgroupBlockReadINTEL || opcode == Op::OpSubgroupBlockWriteINTEL) {
    const bool read = opcode == Op::OpSubgroupBlockReadINTEL;
    const uint32_t pointer = inst->word(0);
    const uint32_t value_type = read ? inst->result_type_id() : context.TypeOf(inst->word(1));
    const std::optional<IntegerShape> shape = IntegerShapeOf(types, value_type);
    const ir::Type* pointer_type = types.GetType(context.TypeOf(pointer));
    if (!shape || pointer_type == nullptr || pointer_type->kind != ir::TypeKind::kPointer) {
      *why_not = "Ptr is not a typed pointer";
      return false;
    }
    const uint32_t element = b.IntType(shape->bits);
    const uint32_t element_pointer = b.PointerType(pointer_type->storage_class, element);
    const uint32_t base = pointer_type->element == element
                              ? pointer
                              : code.Op(Op::OpBitcast, element_pointer, {pointer});
    const uint32_t lane = code.Load(i32, context.LaneIdVariable());
    std::vector<uint32_t> components;
    for (uint32_t j = 0; j < shape->count; ++j) {
      const uint32_t index = code.Op(Op::OpIAdd, i32, {lane, code.I32(j * subgroup_size)});
      const uint32_t at = code.PtrAdd(element_pointer, base, index);
      if (read) {
        components.push_back(code.Load(element, at));
      } else {
        const uint32_t value = shape->count == 1
                                   ? inst->word(1)
                                   : code.Op(Op::OpCompositeExtract, element, {inst->word(1), j});
        code.Store(at, value);
      }
    }
    if (!read) {  // the last store takes the write's place
      std::prev(inst)->debug_lines() = std::move(inst->debug_lines());
      block.instructions.erase(inst);
      return true;
    }
    if (shape->count == 1) {
      Rewrite(inst, Op::OpCopyObject, {components[0]});
    } else {
      Rewrite(inst, Op::OpCompositeConstruct, components);
    }
    return true;
  }

  const std::optional<IntegerShape> shape = IntegerShapeOf(types, inst->result_type_id());
  if (!shape) {
    *why_not = "the result is not an integer scalar or vector";
    return false;
  }
  const uint32_t wide = shape->count == 1 ? i32 : b.VectorType(i32, shape->count);
  const bool is_signed = opcode == Op::OpGroupSMin || opcode == Op::OpGroupSMax;
  auto widen = [&](uint32_t value) {
    return code.Op(is_signed ? Op::OpSConvert : Op::OpUConvert, wide, {value});
  };
  uint32_t result = 0;
  switch (opcode) {
    case Op::OpSubgroupShuffleINTEL:
    case Op::OpSubgroupShuffleXorINTEL:
      result = code.Op(opcode, wide, {widen(inst->word(0)), inst->word(1)});
      break;
    case Op::OpSubgroupShuffleDownINTEL:
    case Op::OpSubgroupShuffleUpINTEL:
      result = code.Op(opcode, wide, {widen(inst->word(0)), widen(inst->word(1)), inst->word(2)});
      break;
    case Op::OpGroupBroadcast:
      result = code.Op(opcode, wide, {inst->word(0), widen(inst->word(1)), inst->word(2)});
      break;
    default: {  // OpGroupIAdd / SMin / UMin / SMax / UMax: Execution, Operation, X
      ir::Instruction collective(opcode, wide, b.NewId());
      collective.AddOperand(grammar::OperandKindId::kIdScope, {inst->word(0)});
      collective.AddOperand(grammar::OperandKindId::kGroupOperation, {inst->word(1)});
      collective.AddIdOperand(widen(inst->word(2)));
      result = collective.result_id();
      block.instructions.insert(inst, std::move(collective));
      break;
    }
  }
  const bool exclusive = (opcode == Op::OpGroupSMin || opcode == Op::OpGroupSMax) &&
                         inst->word(1) == static_cast<uint32_t>(spv::GroupOperation::ExclusiveScan);
  if (!exclusive) {
    Rewrite(inst, Op::OpUConvert, {result});
    return true;
  }
  const uint64_t identity = opcode == Op::OpGroupSMin ? (uint64_t{1} << (shape->bits - 1)) - 1
                                                      : uint64_t{1} << (shape->bits - 1);
  const uint32_t narrow = code.Op(Op::OpUConvert, inst->result_type_id(), {result});
  const uint32_t first =
      code.Op(Op::OpIEqual, b.BoolType(), {code.Load(i32, context.LaneIdVariable()), code.I32(0)});
  Rewrite(inst, Op::OpSelect, {first, b.IntConstant(shape->bits, identity), narrow});
  return true;
}

}  // namespace xmx::opt::emulate_detail
