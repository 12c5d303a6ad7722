// The 8- and 16-bit typings of the Intel subgroup instructions and of the OpGroup* collectives
// (cl_intel_subgroups_char / _short, SPEC-NOTES C.3, C.4) for devices without them: shuffles,
// broadcasts and collectives run on the values widened to 32 bits (which every device has) and
// narrowed back; buffer block reads and writes become one load or store per component at
// Ptr[lid + j x subgroup size] (C.2), the only form that needs the subgroup size; image block
// reads become 32-bit image block reads and shuffles (EmulateNarrowImageRead); image block writes
// cannot be emulated exactly and are refused.
//
// Widening is exact: a shuffle or broadcast moves the value unchanged; a sum's low 8 or 16 bits
// are those of the narrow sum; min and max compare sign- (SMin, SMax) or zero-extended values. The
// one difference is the identity an exclusive scan gives the first invocation: the 32-bit SMin
// and SMax identities do not narrow to the 8- or 16-bit ones (DECISIONS 8: SMin 127, SMax -128 for
// 8 bits), so that invocation gets the narrow identity itself.
#include <algorithm>
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

// An 8- or 16-bit image block read (SPEC-NOTES C.2): component j of invocation i is the S bytes
// at byte column x + i S of row y + j (S = 1 or 2). A 32-bit image block read, which every device
// has, at the 4-byte column x & ~3 gives invocation l the bytes x & ~3 + 4 l .. + 3 of each row,
// which covers the narrow block's S x (subgroup size) bytes; each invocation takes its bytes from
// the invocations that hold them with a 32-bit shuffle. Both read each byte from its 4-byte unit
// clamped to the row and its row clamped to the image (C.3), so the bytes are the same ones. Rows
// are read eight at a time (a 32-bit read has at most 8 components).
bool EmulateNarrowImageRead(EmulationContext& context, CodeBuilder& code, ir::BasicBlock& block,
                            ir::InstructionList::iterator inst, std::string* why_not) {
  (void)block;
  ModuleBuilder& b = context.builder();
  const ir::TypeTable& types = context.types();
  const uint32_t i32 = b.IntType(32);
  const std::optional<IntegerShape> shape = IntegerShapeOf(types, inst->result_type_id());
  const uint32_t coordinate = inst->word(1);
  const uint32_t coordinate_type = context.TypeOf(coordinate);
  const ir::Type* coordinate_info = types.GetType(coordinate_type);
  const ir::Type* coordinate_component =
      coordinate_info != nullptr && coordinate_info->kind == ir::TypeKind::kVector
          ? types.GetType(coordinate_info->element)
          : nullptr;
  if (!shape || coordinate_component == nullptr || coordinate_info->count != 2 ||
      coordinate_component->kind != ir::TypeKind::kInt || coordinate_component->width != 32) {
    *why_not = "the coordinate is not a 2-component vector of 32-bit integers";
    return false;
  }
  b.RequireCapability(spv::Capability::SubgroupShuffleINTEL);
  const uint32_t element_bytes = shape->bits / 8;
  const uint32_t element = b.IntType(shape->bits);
  const uint32_t component_type = coordinate_info->element;
  auto as_i32 = [&](uint32_t value) {
    return component_type == i32 ? value : code.Op(Op::OpBitcast, i32, {value});
  };
  const uint32_t x = as_i32(code.Op(Op::OpCompositeExtract, component_type, {coordinate, 0}));
  const uint32_t y = as_i32(code.Op(Op::OpCompositeExtract, component_type, {coordinate, 1}));
  const uint32_t skew = code.Op(Op::OpBitwiseAnd, i32, {x, code.I32(3)});
  const uint32_t aligned_x = code.Op(Op::OpISub, i32, {x, skew});
  // The invocation's first byte, from the aligned column.
  const uint32_t lane = code.Load(i32, context.LaneIdVariable());
  const uint32_t first =
      code.Op(Op::OpIAdd, i32, {code.Op(Op::OpIMul, i32, {lane, code.I32(element_bytes)}), skew});
  std::vector<uint32_t> sources, shifts;
  for (uint32_t byte = 0; byte < element_bytes; ++byte) {
    const uint32_t at = byte == 0 ? first : code.Op(Op::OpIAdd, i32, {first, code.I32(byte)});
    sources.push_back(code.Op(Op::OpShiftRightLogical, i32, {at, code.I32(2)}));
    shifts.push_back(code.Op(Op::OpShiftLeftLogical, i32,
                             {code.Op(Op::OpBitwiseAnd, i32, {at, code.I32(3)}), code.I32(3)}));
  }
  std::vector<uint32_t> components;
  for (uint32_t row0 = 0; row0 < shape->count; row0 += 8) {
    const uint32_t rows = std::min(8u, shape->count - row0);
    const uint32_t words_type = rows == 1 ? i32 : b.VectorType(i32, rows);
    uint32_t row_y = row0 == 0 ? y : code.Op(Op::OpIAdd, i32, {y, code.I32(row0)});
    uint32_t x_component = aligned_x;
    if (component_type != i32) {
      x_component = code.Op(Op::OpBitcast, component_type, {x_component});
      row_y = code.Op(Op::OpBitcast, component_type, {row_y});
    }
    const uint32_t at = code.Op(Op::OpCompositeConstruct, coordinate_type, {x_component, row_y});
    const uint32_t words =
        code.Op(Op::OpSubgroupImageBlockReadINTEL, words_type, {inst->word(0), at});
    for (uint32_t j = 0; j < rows; ++j) {
      const uint32_t word = rows == 1 ? words : code.Op(Op::OpCompositeExtract, i32, {words, j});
      uint32_t value = 0;
      for (uint32_t byte = 0; byte < element_bytes; ++byte) {
        const uint32_t held = code.Op(Op::OpSubgroupShuffleINTEL, i32, {word, sources[byte]});
        uint32_t part =
            code.Op(Op::OpBitwiseAnd, i32,
                    {code.Op(Op::OpShiftRightLogical, i32, {held, shifts[byte]}), code.I32(0xFF)});
        if (byte != 0) {
          part = code.Op(Op::OpShiftLeftLogical, i32, {part, code.I32(8 * byte)});
          part = code.Op(Op::OpBitwiseOr, i32, {value, part});
        }
        value = part;
      }
      components.push_back(code.Op(Op::OpUConvert, element, {value}));
    }
  }
  if (shape->count == 1) {
    Rewrite(inst, Op::OpCopyObject, {components[0]});
  } else {
    Rewrite(inst, Op::OpCompositeConstruct, components);
  }
  return true;
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

  if (opcode == Op::OpSubgroupImageBlockReadINTEL) {
    return EmulateNarrowImageRead(context, code, block, inst, why_not);
  }
  if (opcode == Op::OpSubgroupImageBlockWriteINTEL) {
    *why_not =
        "an 8- or 16-bit image block write has no exact emulation: core SPIR-V writes an image "
        "only through its texel format, and a 32-bit block write would also rewrite the bytes "
        "after the block";
    return false;
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
