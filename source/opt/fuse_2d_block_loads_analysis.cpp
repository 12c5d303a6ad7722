// The facts --fuse-2d-block-loads decides with: symbolic coordinates, what an instruction may do
// to memory, and how many private bytes a 2D block load gives each invocation.
#include <algorithm>
#include <bit>

#include "opt/fuse_2d_block_loads.hpp"

namespace xmx::opt::fuse_detail {
namespace {

// Definitions chains deeper than this are taken as opaque symbols: the answer is then only less
// precise, never wrong.
constexpr int kMaxDepth = 32;

using spv::Op;

}  // namespace

std::optional<int64_t> AffineValues::ConstantInt(uint32_t id) const {
  const ir::Constant* constant = types_.GetConstant(id);
  if (constant == nullptr || constant->is_spec) return std::nullopt;
  const ir::Type* type = types_.GetType(constant->type_id);
  if (type == nullptr || type->kind != ir::TypeKind::kInt) return std::nullopt;
  return types_.GetConstantInt(id);
}

AffineValue AffineValues::ScalarAt(uint32_t id, int depth) const {
  const AffineValue opaque{id, AffineValue::kWhole, 0};
  if (std::optional<int64_t> value = ConstantInt(id)) return {0, AffineValue::kWhole, *value};
  const ir::Instruction* def = def_use_.GetDef(id);
  if (def == nullptr || depth > kMaxDepth) return opaque;
  auto plus = [](AffineValue v, int64_t c) {
    v.offset = static_cast<int64_t>(static_cast<uint64_t>(v.offset) + static_cast<uint64_t>(c));
    return v;
  };
  switch (def->opcode()) {
    case Op::OpIAdd: {
      if (std::optional<int64_t> c = ConstantInt(def->word(1))) {
        return plus(ScalarAt(def->word(0), depth + 1), *c);
      }
      if (std::optional<int64_t> c = ConstantInt(def->word(0))) {
        return plus(ScalarAt(def->word(1), depth + 1), *c);
      }
      return opaque;
    }
    case Op::OpISub:
      if (std::optional<int64_t> c = ConstantInt(def->word(1))) {
        return plus(ScalarAt(def->word(0), depth + 1), -*c);
      }
      return opaque;
    case Op::OpBitwiseOr:
      // x | c == x + c when c only sets bits that x has clear (LLVM writes n0 + 16 as n0 | 16
      // once it knows n0 is a multiple of 32).
      for (int i = 0; i < 2; ++i) {
        std::optional<int64_t> c = ConstantInt(def->word(1 - i));
        if (!c || *c < 0) continue;
        const uint32_t zeros = TrailingZerosAt(def->word(i), depth + 1);
        if (zeros >= 63 || static_cast<uint64_t>(*c) < (uint64_t{1} << zeros)) {
          return plus(ScalarAt(def->word(i), depth + 1), *c);
        }
      }
      return opaque;
    case Op::OpCopyObject:
      return ScalarAt(def->word(0), depth + 1);
    case Op::OpCompositeExtract:
      if (def->num_operands() == 2) return ComponentAt(def->word(0), def->word(1), depth + 1);
      return opaque;
    default:
      return opaque;
  }
}

AffineValue AffineValues::ComponentAt(uint32_t vector_id, uint32_t component, int depth) const {
  const AffineValue opaque{vector_id, component, 0};
  if (const ir::Constant* constant = types_.GetConstant(vector_id);
      constant && !constant->is_spec) {
    if (constant->kind == ir::ConstantKind::kNull) return {0, AffineValue::kWhole, 0};
    if (constant->kind == ir::ConstantKind::kComposite && component < constant->words.size()) {
      return ScalarAt(constant->words[component], depth + 1);
    }
    return opaque;
  }
  const ir::Instruction* def = def_use_.GetDef(vector_id);
  if (def == nullptr || depth > kMaxDepth) return opaque;
  switch (def->opcode()) {
    case Op::OpCompositeConstruct: {
      // Only vectors built from scalars: then constituent i is component i.
      if (component >= def->num_operands()) return opaque;
      const ir::Instruction* part = def_use_.GetDef(def->word(component));
      const ir::Type* part_type =
          part != nullptr ? types_.GetType(part->result_type_id()) : nullptr;
      if (part_type == nullptr || part_type->kind != ir::TypeKind::kInt) return opaque;
      for (size_t i = 0; i < def->num_operands(); ++i) {
        const ir::Instruction* other = def_use_.GetDef(def->word(i));
        if (other == nullptr || other->result_type_id() != part->result_type_id()) return opaque;
      }
      return ScalarAt(def->word(component), depth + 1);
    }
    case Op::OpCompositeInsert:
      if (def->num_operands() != 3) return opaque;  // object, composite, one index
      if (def->word(2) == component) return ScalarAt(def->word(0), depth + 1);
      return ComponentAt(def->word(1), component, depth + 1);
    case Op::OpCopyObject:
      return ComponentAt(def->word(0), component, depth + 1);
    case Op::OpVectorShuffle: {
      if (2 + component >= def->num_operands()) return opaque;
      const uint32_t selector = def->word(2 + component);
      const ir::Instruction* first = def_use_.GetDef(def->word(0));
      const ir::Type* first_type =
          first != nullptr ? types_.GetType(first->result_type_id()) : nullptr;
      if (first_type == nullptr || first_type->kind != ir::TypeKind::kVector) return opaque;
      if (selector < first_type->count) return ComponentAt(def->word(0), selector, depth + 1);
      if (selector == 0xFFFFFFFFu) return opaque;
      return ComponentAt(def->word(1), selector - first_type->count, depth + 1);
    }
    default:
      return opaque;
  }
}

uint32_t AffineValues::TrailingZerosAt(uint32_t id, int depth) const {
  if (std::optional<int64_t> value = ConstantInt(id)) {
    return *value == 0 ? 64
                       : static_cast<uint32_t>(std::countr_zero(static_cast<uint64_t>(*value)));
  }
  const ir::Instruction* def = def_use_.GetDef(id);
  if (def == nullptr || depth > kMaxDepth) return 0;
  auto operand = [&](size_t i) { return TrailingZerosAt(def->word(i), depth + 1); };
  switch (def->opcode()) {
    case Op::OpShiftLeftLogical: {
      std::optional<int64_t> shift = ConstantInt(def->word(1));
      if (!shift || *shift < 0 || *shift >= 64) return 0;
      return std::min<uint32_t>(64, operand(0) + static_cast<uint32_t>(*shift));
    }
    case Op::OpIMul:
      return std::min<uint32_t>(64, operand(0) + operand(1));
    case Op::OpBitwiseAnd:
      return std::max(operand(0), operand(1));
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpIAdd:
    case Op::OpISub:
      return std::min(operand(0), operand(1));
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpCopyObject:
    case Op::OpBitcast:
      return operand(0);
    default:
      return 0;
  }
}

namespace {

spv::StorageClass PointerStorageClass(uint32_t pointer_id, const ir::DefUse& def_use,
                                      const ir::TypeTable& types, bool* known) {
  *known = false;
  const ir::Instruction* def = def_use.GetDef(pointer_id);
  if (def == nullptr) return spv::StorageClass::Generic;
  const ir::Type* type = types.GetType(def->result_type_id());
  if (type == nullptr || type->kind != ir::TypeKind::kPointer) return spv::StorageClass::Generic;
  *known = true;
  return type->storage_class;
}

bool IsPrivatePointer(uint32_t pointer_id, const ir::DefUse& def_use, const ir::TypeTable& types) {
  bool known = false;
  const spv::StorageClass storage = PointerStorageClass(pointer_id, def_use, types, &known);
  return known && storage == spv::StorageClass::Function;
}

// Opcodes that neither write memory nor synchronise, whatever their operands.
bool IsWithoutMemoryWrites(Op opcode) {
  const uint32_t value = static_cast<uint32_t>(opcode);
  // Conversions, arithmetic, relational, logical and bit instructions (OpConvertFToU ..
  // OpBitCount), the composite instructions, OpSelect.
  if (value >= static_cast<uint32_t>(Op::OpConvertFToU) &&
      value <= static_cast<uint32_t>(Op::OpBitCount)) {
    return true;
  }
  if (value >= static_cast<uint32_t>(Op::OpGroupNonUniformElect) &&
      value <= static_cast<uint32_t>(Op::OpGroupNonUniformQuadSwap)) {
    return true;
  }
  switch (opcode) {
    case Op::OpNop:
    case Op::OpUndef:
    case Op::OpVariable:
    case Op::OpLoad:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
    case Op::OpArrayLength:
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic:
    case Op::OpVectorShuffle:
    case Op::OpCompositeConstruct:
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpCopyObject:
    case Op::OpLifetimeStart:
    case Op::OpLifetimeStop:
    case Op::OpGroupAll:
    case Op::OpGroupAny:
    case Op::OpGroupBroadcast:
    case Op::OpGroupIAdd:
    case Op::OpGroupFAdd:
    case Op::OpGroupFMin:
    case Op::OpGroupUMin:
    case Op::OpGroupSMin:
    case Op::OpGroupFMax:
    case Op::OpGroupUMax:
    case Op::OpGroupSMax:
    case Op::OpSubgroupShuffleINTEL:
    case Op::OpSubgroupShuffleDownINTEL:
    case Op::OpSubgroupShuffleUpINTEL:
    case Op::OpSubgroupShuffleXorINTEL:
    case Op::OpSubgroupBlockReadINTEL:
    case Op::OpSubgroupImageBlockReadINTEL:
    case Op::OpSubgroupMatrixMultiplyAccumulateINTEL:
    // 2D block loads write only their private destination (a Function pointer by A.3).
    case Op::OpSubgroup2DBlockLoadINTEL:
    case Op::OpSubgroup2DBlockLoadTransformINTEL:
    case Op::OpSubgroup2DBlockLoadTransposeINTEL:
    case Op::OpSubgroup2DBlockPrefetchINTEL:
      return true;
    default:
      return false;
  }
}

}  // namespace

MemoryEffect ClassifyMemoryEffect(const ir::Instruction& inst, const ir::DefUse& def_use,
                                  const ir::TypeTable& types) {
  if (IsWithoutMemoryWrites(inst.opcode())) return MemoryEffect::kNone;
  switch (inst.opcode()) {
    case Op::OpStore:
    case Op::OpCopyMemory:
    case Op::OpCopyMemorySized:
      // Operand 0 is the target.
      return IsPrivatePointer(inst.word(0), def_use, types) ? MemoryEffect::kNone
                                                            : MemoryEffect::kMayWriteShared;
    case Op::OpExtInst: {
      // OpenCL.std math takes values; the instructions that write memory (vstore*, the
      // pointer-result forms such as fract or sincos, printf) take a pointer: only private
      // ones are harmless.
      for (size_t i = 2; i < inst.num_operands(); ++i) {
        const ir::Instruction* def = def_use.GetDef(inst.word(i));
        if (def == nullptr) continue;
        const ir::Type* type = types.GetType(def->result_type_id());
        if (type != nullptr && type->kind == ir::TypeKind::kPointer &&
            type->storage_class != spv::StorageClass::Function) {
          return MemoryEffect::kMayWriteShared;
        }
      }
      return MemoryEffect::kNone;
    }
    default:
      return MemoryEffect::kMayWriteShared;
  }
}

uint64_t PayloadBytesPerInvocation(const Block2dPayloadShape& shape, uint32_t subgroup_size) {
  if (shape.op == device::Block2dOp::kPrefetch || subgroup_size == 0) return 0;
  const uint64_t e = shape.element_size;
  uint64_t rows = 0, units = 0, unit_bytes = 0;
  switch (shape.op) {
    case device::Block2dOp::kLoadTransform: {
      const uint64_t fold = 4 / std::max<uint64_t>(e, 1);  // rows per 32-bit word
      rows = (shape.block_height + fold - 1) / fold;
      units = std::bit_ceil(uint64_t{shape.block_width});
      unit_bytes = 4;
      break;
    }
    case device::Block2dOp::kLoadTranspose:
      rows = shape.block_width;
      units = std::bit_ceil(uint64_t{shape.block_height});
      unit_bytes = e;
      break;
    default:
      rows = shape.block_height;
      units = std::bit_ceil(uint64_t{shape.block_width});
      unit_bytes = e;
      break;
  }
  const uint64_t units_per_invocation_row = std::max<uint64_t>(units / subgroup_size, 1);
  const uint64_t rows_per_slot = std::max<uint64_t>(subgroup_size / units, 1);
  const uint64_t slots = (rows + rows_per_slot - 1) / rows_per_slot;
  return uint64_t{shape.block_count} * slots * units_per_invocation_row * unit_bytes;
}

}  // namespace xmx::opt::fuse_detail
