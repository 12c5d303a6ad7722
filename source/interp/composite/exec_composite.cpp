// Composites: extraction, insertion and construction as byte copies planned at load time (a
// lane's value has its memory layout, so a member is a byte range), vector shuffles and the
// dynamic vector element instructions.
#include "interp/load/loader.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

// One piece of a lane's result: `size` bytes from `src_slot` + lane * src_stride + src_offset
// to result + lane * result_stride + dst_offset. src_slot == UINT32_MAX means zero bytes.
struct Piece {
  uint32_t src_slot, src_stride, src_offset, dst_offset, size;
};
struct CopyPlan {
  std::vector<Piece> pieces;
  uint32_t result_stride = 0;
  bool through_scratch = false;  // a piece reads the result slot (OpCompositeInsert in place)
};

// One piece for every active lane, `kSize` bytes each (0: piece.size).
template <uint32_t kSize>
void CopyPiece(Subgroup& sg, const Piece& p, uint8_t* result, uint32_t result_stride) {
  const uint32_t size = kSize != 0 ? kSize : p.size;
  uint8_t* dst = result + p.dst_offset;
  const uint8_t* src = sg.regs + p.src_slot + p.src_offset;
  if (sg.full) {
    for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
      std::memcpy(dst + lane * result_stride, src + lane * p.src_stride, size);
    }
    return;
  }
  ForEachLane(sg.mask, [&](uint32_t lane) {
    std::memcpy(dst + lane * result_stride, src + lane * p.src_stride, size);
  });
}

const Instr* ExecCopyPlan(Subgroup& sg, const Instr* in) {
  const CopyPlan& plan = *static_cast<const CopyPlan*>(in->data);
  if (plan.through_scratch) {
    // A piece reads the result slot: each lane's value is assembled aside first.
    uint8_t buffer[1024];
    ForEachLane(sg.mask, [&](uint32_t lane) {
      for (const Piece& p : plan.pieces) {
        if (p.src_slot == UINT32_MAX) {
          std::memset(buffer + p.dst_offset, 0, p.size);
        } else {
          std::memcpy(buffer + p.dst_offset,
                      sg.regs + p.src_slot + lane * p.src_stride + p.src_offset, p.size);
        }
      }
      std::memcpy(sg.regs + in->result + lane * plan.result_stride, buffer, plan.result_stride);
    });
    return in + 1;
  }
  // Piece by piece over the lanes, so the common member sizes are fixed-size moves.
  uint8_t* result = sg.regs + in->result;
  const uint32_t stride = plan.result_stride;
  for (const Piece& p : plan.pieces) {
    if (p.src_slot == UINT32_MAX) {
      ForEachLane(sg.mask, [&](uint32_t lane) {
        std::memset(result + lane * stride + p.dst_offset, 0, p.size);
      });
      continue;
    }
    if (sg.full && p.size == stride && p.src_stride == stride && p.src_offset == 0) {
      std::memcpy(result, sg.regs + p.src_slot, size_t{stride} * sg.lanes);  // a whole value
      continue;
    }
    switch (p.size) {
      case 1:
        CopyPiece<1>(sg, p, result, stride);
        break;
      case 2:
        CopyPiece<2>(sg, p, result, stride);
        break;
      case 4:
        CopyPiece<4>(sg, p, result, stride);
        break;
      case 8:
        CopyPiece<8>(sg, p, result, stride);
        break;
      case 16:
        CopyPiece<16>(sg, p, result, stride);
        break;
      default:
        CopyPiece<0>(sg, p, result, stride);
    }
  }
  return in + 1;
}

// Walks `indices` from `type_id`: the byte offset and type of the part they name.
bool PartOffset(Loader& loader, uint32_t type_id, std::span<const uint32_t> indices,
                uint32_t* offset, uint32_t* part_type) {
  *offset = 0;
  for (uint32_t index : indices) {
    const TypeInfo& t = loader.Type(type_id);
    if (t.type == nullptr) return false;
    switch (t.kind) {
      case ir::TypeKind::kStruct:
        if (index >= t.type->members.size()) return false;
        *offset += static_cast<uint32_t>(loader.MemberOffsets(type_id)[index]);
        type_id = t.type->members[index];
        break;
      case ir::TypeKind::kArray:
        // A value's bytes are all in its slot: an index past the end would reach other slots.
        if (!t.type->length || index >= *t.type->length) return false;
        *offset += index * static_cast<uint32_t>(loader.Type(t.type->element).memory_bytes);
        type_id = t.type->element;
        break;
      case ir::TypeKind::kVector:
      case ir::TypeKind::kCooperativeMatrix:  // the invocation's slice (coop_layout.hpp)
        if (index >= t.value.components) return false;
        *offset += index * t.value.scalar.bytes;
        type_id = t.type->element;
        break;
      default:
        return false;
    }
  }
  *part_type = type_id;
  return true;
}

// OpVectorExtractDynamic / OpVectorInsertDynamic: out-of-range indices give an undefined value
// (zero here) or change nothing.
const Instr* ExecExtractDynamic(Subgroup& sg, const Instr* in) {
  const uint32_t element = in->size, n = in->count, index_bytes = in->aux;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint64_t index = LaneUInt(sg, in->op[1], index_bytes, lane);
    uint8_t* dst = sg.regs + in->result + lane * element;
    if (index < n) {
      std::memcpy(dst, sg.regs + in->op[0] + (lane * n + index) * element, element);
    } else {
      std::memset(dst, 0, element);
    }
  });
  return in + 1;
}

const Instr* ExecInsertDynamic(Subgroup& sg, const Instr* in) {
  const uint32_t element = in->size, n = in->count, index_bytes = in->aux;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint64_t index = LaneUInt(sg, in->op[2], index_bytes, lane);
    uint8_t* dst = sg.regs + in->result + lane * n * element;
    std::memmove(dst, sg.regs + in->op[0] + lane * n * element, n * element);
    if (index < n)
      std::memcpy(dst + index * element, sg.regs + in->op[1] + lane * element, element);
  });
  return in + 1;
}

// OpCompositeInsert of a `kPart`-byte object into a `kWhole`-byte composite (a vector of a few
// components, a small struct), result in a slot of its own: the copy plan's two pieces as one
// fixed-size move of the composite and one of the object per lane, which is what the plan does
// without walking it. in->op[0]: composite, op[1]: object, aux: the part's byte offset.
template <uint32_t kWhole, uint32_t kPart>
const Instr* ExecInsertFixed(Subgroup& sg, const Instr* in) {
  uint8_t* __restrict result = sg.regs + in->result;
  const uint8_t* __restrict composite = sg.regs + in->op[0];
  const uint8_t* __restrict object = sg.regs + in->op[1];
  const uint32_t offset = in->aux;
  auto lane_copy = [&](uint32_t lane) __attribute__((always_inline)) {
    std::memcpy(result + lane * kWhole, composite + lane * kWhole, kWhole);
    std::memcpy(result + lane * kWhole + offset, object + lane * kPart, kPart);
  };
  if (sg.full && sg.lanes == 16) {  // the composites in wide moves, then the parts
    std::memcpy(result, composite, 16 * kWhole);
    for (uint32_t lane = 0; lane < 16; ++lane) {
      std::memcpy(result + lane * kWhole + offset, object + lane * kPart, kPart);
    }
  } else if (sg.full) {
    ForAllLanes(sg.lanes, lane_copy);
  } else {
    ForEachLane(sg.mask, lane_copy);
  }
  return in + 1;
}

// OpCompositeExtract of a `kPart`-byte member at byte in->aux of a composite of in->size bytes.
template <uint32_t kPart>
const Instr* ExecExtractFixed(Subgroup& sg, const Instr* in) {
  uint8_t* __restrict result = sg.regs + in->result;
  const uint8_t* __restrict composite = sg.regs + in->op[0] + in->aux;
  const uint32_t whole = in->size;
  auto lane_copy = [&](uint32_t lane) __attribute__((always_inline)) {
    std::memcpy(result + lane * kPart, composite + lane * whole, kPart);
  };
  if (sg.full) {
    ForAllLanes(sg.lanes, lane_copy);
  } else {
    ForEachLane(sg.mask, lane_copy);
  }
  return in + 1;
}

template <uint32_t kWhole>
Handler InsertFixedFor(uint32_t part) {
  switch (part) {
    case 1:
      return ExecInsertFixed<kWhole, 1>;
    case 2:
      return ExecInsertFixed<kWhole, 2>;
    case 4:
      return ExecInsertFixed<kWhole, 4>;
    case 8:
      if constexpr (kWhole > 8) return ExecInsertFixed<kWhole, 8>;
      return nullptr;
    default:
      return nullptr;
  }
}

// The fixed-size handler for an insert of `part` bytes into `whole` bytes, or nullptr.
Handler InsertFixedFor(uint32_t whole, uint32_t part) {
  if (part >= whole) return nullptr;
  switch (whole) {
    case 2:
      return InsertFixedFor<2>(part);
    case 4:
      return InsertFixedFor<4>(part);
    case 8:
      return InsertFixedFor<8>(part);
    case 16:
      return InsertFixedFor<16>(part);
    case 32:
      return InsertFixedFor<32>(part);
    default:
      return nullptr;
  }
}

Handler ExtractFixedFor(uint32_t part) {
  switch (part) {
    case 1:
      return ExecExtractFixed<1>;
    case 2:
      return ExecExtractFixed<2>;
    case 4:
      return ExecExtractFixed<4>;
    case 8:
      return ExecExtractFixed<8>;
    default:
      return nullptr;
  }
}

const Instr* ExecCopy(Subgroup& sg, const Instr* in) {
  CopyLanes(sg, in->result, in->op[0], in->size);
  return in + 1;
}

}  // namespace

bool BindComposite(Loader& loader, const ir::Instruction& inst, Instr& out) {
  using spv::Op;
  CopyPlan plan;
  switch (inst.opcode()) {
    case Op::OpUndef:
      loader.Slot(inst.result_id());  // an undefined value: whatever the slot holds
      out.fn = nullptr;
      return true;
    case Op::OpCopyObject:
    case Op::OpCopyLogical:
      out.fn = ExecCopy;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.size = std::max<uint32_t>(loader.Type(inst.result_type_id()).lane_bytes, 1);
      return true;
    case Op::OpCompositeExtract: {
      const uint32_t composite = inst.word(0);
      std::vector<uint32_t> indices;
      for (size_t i = 1; i < inst.num_operands(); ++i) indices.push_back(inst.word(i));
      uint32_t offset = 0, part = 0;
      if (!PartOffset(loader, loader.ValueTypeId(composite), indices, &offset, &part)) {
        return loader.Fail(inst, "indices do not name a part of the composite");
      }
      const uint32_t size = loader.Type(inst.result_type_id()).lane_bytes;
      if (size != loader.Type(part).lane_bytes) {
        return loader.Fail(inst, "the result type is not the type of the part the indices name");
      }
      const uint32_t whole = loader.TypeOfValue(composite).lane_bytes;
      const uint32_t result_slot = loader.Slot(inst.result_id());
      const uint32_t composite_slot = loader.Slot(composite);
      if (Handler fixed = ExtractFixedFor(size);
          fixed != nullptr && result_slot != composite_slot) {
        out.fn = fixed;
        out.result = result_slot;
        out.op[0] = composite_slot;
        out.aux = offset;
        out.size = whole;
        return true;
      }
      plan.pieces.push_back({composite_slot, whole, offset, 0, size});
      plan.result_stride = size;
      break;
    }
    case Op::OpCompositeInsert: {
      const uint32_t object = inst.word(0), composite = inst.word(1);
      std::vector<uint32_t> indices;
      for (size_t i = 2; i < inst.num_operands(); ++i) indices.push_back(inst.word(i));
      uint32_t offset = 0, part = 0;
      if (!PartOffset(loader, inst.result_type_id(), indices, &offset, &part)) {
        return loader.Fail(inst, "indices do not name a part of the composite");
      }
      const uint32_t whole = loader.Type(inst.result_type_id()).lane_bytes;
      const uint32_t size = loader.TypeOfValue(object).lane_bytes;
      if (loader.TypeOfValue(composite).lane_bytes != whole) {
        return loader.Fail(inst, "the composite does not have the result's type");
      }
      if (size != loader.Type(part).lane_bytes) {
        return loader.Fail(inst, "the object is not of the type of the part the indices name");
      }
      const uint32_t result_slot = loader.Slot(inst.result_id());
      const uint32_t composite_slot = loader.Slot(composite), object_slot = loader.Slot(object);
      // Only for a result in a slot of its own (phi coalescing may give it the composite's):
      // the fixed-size handler writes the result as it reads the sources.
      if (Handler fixed = InsertFixedFor(whole, size);
          fixed != nullptr && result_slot != composite_slot && result_slot != object_slot) {
        out.fn = fixed;
        out.result = result_slot;
        out.op[0] = composite_slot;
        out.op[1] = object_slot;
        out.aux = offset;
        out.size = whole;
        return true;
      }
      plan.pieces.push_back({composite_slot, whole, 0, 0, whole});
      plan.pieces.push_back({object_slot, size, 0, offset, size});
      plan.result_stride = whole;
      break;
    }
    case Op::OpCompositeConstruct: {
      const TypeInfo& result = loader.Type(inst.result_type_id());
      if (result.type == nullptr ||
          (result.kind != ir::TypeKind::kStruct && result.kind != ir::TypeKind::kArray &&
           result.kind != ir::TypeKind::kVector)) {
        return loader.Fail(inst, "the result type is not a struct, array or vector");
      }
      // Every constituent must fit its place: a struct's or array's members one each, a
      // vector's components (or smaller vectors) filling it exactly.
      const size_t places = result.kind == ir::TypeKind::kStruct ? result.type->members.size()
                            : result.kind == ir::TypeKind::kArray
                                ? static_cast<size_t>(result.type->length.value_or(SIZE_MAX))
                                : SIZE_MAX;
      if (result.kind != ir::TypeKind::kVector && inst.num_operands() != places) {
        return loader.Fail(inst, "the number of constituents is not the number of members");
      }
      uint64_t vector_bytes = 0;
      for (size_t i = 0; i < inst.num_operands(); ++i) {
        const TypeInfo& part = loader.TypeOfValue(inst.word(i));
        const uint64_t expected =
            result.kind == ir::TypeKind::kStruct  ? loader.Type(result.type->members[i]).lane_bytes
            : result.kind == ir::TypeKind::kArray ? loader.Type(result.type->element).lane_bytes
                                                  : 0;
        if (result.kind == ir::TypeKind::kVector) {
          vector_bytes += part.lane_bytes;
          if (part.value.scalar.bytes != result.value.scalar.bytes || part.lane_bytes == 0) {
            return loader.Fail(inst, "constituent %" + std::to_string(inst.word(i)) +
                                         " is not of the vector's component type");
          }
        } else if (part.lane_bytes != expected) {
          return loader.Fail(inst, "constituent %" + std::to_string(inst.word(i)) +
                                       " does not have the type of its member");
        }
      }
      if (result.kind == ir::TypeKind::kVector && vector_bytes != result.lane_bytes) {
        return loader.Fail(inst, "the constituents do not fill the vector exactly");
      }
      uint32_t offset = 0;
      for (size_t i = 0; i < inst.num_operands(); ++i) {
        const uint32_t part = inst.word(i);
        const uint32_t size = loader.TypeOfValue(part).lane_bytes;
        if (result.kind == ir::TypeKind::kStruct) {
          offset = static_cast<uint32_t>(loader.MemberOffsets(inst.result_type_id())[i]);
        } else if (result.kind == ir::TypeKind::kArray) {
          offset = static_cast<uint32_t>(i * loader.Type(result.type->element).memory_bytes);
        }
        plan.pieces.push_back({loader.Slot(part), size, 0, offset, size});
        offset += size;
      }
      plan.result_stride = result.lane_bytes;
      break;
    }
    case Op::OpVectorShuffle: {
      const TypeInfo& a = loader.TypeOfValue(inst.word(0));
      const TypeInfo& b = loader.TypeOfValue(inst.word(1));
      const uint32_t element = a.value.scalar.bytes;
      const uint32_t a_count = a.value.components;
      for (size_t i = 2; i < inst.num_operands(); ++i) {
        const uint32_t c = inst.word(i);
        const uint32_t dst = static_cast<uint32_t>((i - 2) * element);
        if (c == 0xFFFFFFFF) {
          plan.pieces.push_back({UINT32_MAX, 0, 0, dst, element});
        } else if (c < a_count) {
          plan.pieces.push_back(
              {loader.Slot(inst.word(0)), a.lane_bytes, c * element, dst, element});
        } else {
          plan.pieces.push_back(
              {loader.Slot(inst.word(1)), b.lane_bytes, (c - a_count) * element, dst, element});
        }
      }
      plan.result_stride = loader.Type(inst.result_type_id()).lane_bytes;
      break;
    }
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic: {
      const bool extract = inst.opcode() == Op::OpVectorExtractDynamic;
      const TypeInfo& vector = loader.TypeOfValue(inst.word(0));
      out.fn = extract ? ExecExtractDynamic : ExecInsertDynamic;
      out.result = loader.Slot(inst.result_id());
      for (size_t i = 0; i < inst.num_operands(); ++i) out.op[i] = loader.Slot(inst.word(i));
      out.size = vector.value.scalar.bytes;
      out.count = vector.value.components;
      out.aux = loader.TypeOfValue(inst.word(extract ? 1 : 2)).lane_bytes;
      return true;
    }
    default:
      return false;
  }
  out.fn = ExecCopyPlan;
  out.result = loader.Slot(inst.result_id());
  // A first piece that copies the result slot onto itself (an in-place insert) moves nothing;
  // later pieces overwrite what they overwrite either way.
  if (!plan.pieces.empty()) {
    const Piece& p = plan.pieces.front();
    if (p.src_slot == out.result && p.src_stride == plan.result_stride &&
        p.src_offset == p.dst_offset) {
      plan.pieces.erase(plan.pieces.begin());
    }
  }
  for (const Piece& p : plan.pieces) plan.through_scratch |= p.src_slot == out.result;
  if (plan.result_stride > 1024) return loader.Fail(inst, "composite larger than 1024 bytes");
  out.data = loader.program().Own(std::move(plan));
  return true;
}

}  // namespace xmx::interp
