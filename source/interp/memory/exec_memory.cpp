// Variables, loads, stores, address arithmetic and pointer casts. Every access goes through
// AccessMemory, which checks bounds, alignment, writability and local-memory races, except a
// whole subgroup's access to one private variable, which LaneStridedPrivate checks once.
#include <algorithm>
#include <type_traits>

#include "interp/load/loader.hpp"
#include "interp/run/exec_shared.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

struct VariableData {
  uint32_t index;  // among the private variables
  uint32_t count;  // private variables per work-item
  std::vector<uint8_t> initializer;
};

const Instr* ExecVariable(Subgroup& sg, const Instr* in) {
  const VariableData& v = *static_cast<const VariableData*>(in->data);
  WorkGroup& g = *sg.group;
  uint64_t* result = sg.reg<uint64_t>(in->result);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint32_t allocation = g.private_first + (sg.first_item + lane) * v.count + v.index;
    result[lane] = MakePointer(allocation, 0);
    if (!v.initializer.empty()) {
      std::memcpy((*g.allocations)[allocation].data, v.initializer.data(), v.initializer.size());
    }
  });
  return in + 1;
}

// in->size: bytes per lane; in->aux: alignment; in->count: 1 when the value is a pointer stored
// in 32 bits (Physical32).
template <uint32_t kSize>
const Instr* ExecLoad(Subgroup& sg, const Instr* in) {
  const uint32_t size = kSize != 0 ? kSize : in->size;
  const uint64_t* ptr = sg.reg<uint64_t>(in->op[0]);
  uint8_t* result = sg.regs + in->result;
  size_t stride = 0;
  if (const uint8_t* src = LaneStridedPrivate(sg, ptr, size, in->aux, /*write=*/false, &stride)) {
    for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
      CopyBytes(result + lane * size, src + lane * stride, size);
    }
    return in + 1;
  }
  bool stop = false;
  uint64_t m = sg.mask;
  while (m != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    m &= m - 1;
    const uint8_t* src =
        AccessMemory(sg, in, lane, ptr[lane], size, in->aux, AccessKind::kRead, &stop);
    if (src != nullptr) {
      CopyBytes(result + lane * size, src, size);
    } else {
      if (stop) return StopSubgroup(sg);
      std::memset(result + lane * size, 0, size);
    }
  }
  return in + 1;
}

template <uint32_t kSize>
const Instr* ExecStore(Subgroup& sg, const Instr* in) {
  const uint32_t size = kSize != 0 ? kSize : in->size;
  const uint64_t* ptr = sg.reg<uint64_t>(in->op[0]);
  const uint8_t* value = sg.regs + in->op[1];
  size_t stride = 0;
  if (uint8_t* dst = LaneStridedPrivate(sg, ptr, size, in->aux, /*write=*/true, &stride)) {
    for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
      CopyBytes(dst + lane * stride, value + lane * size, size);
    }
    return in + 1;
  }
  bool stop = false;
  uint64_t m = sg.mask;
  while (m != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    m &= m - 1;
    uint8_t* dst = AccessMemory(sg, in, lane, ptr[lane], size, in->aux, AccessKind::kWrite, &stop);
    if (dst != nullptr) {
      CopyBytes(dst, value + lane * size, size);
    } else if (stop) {
      return StopSubgroup(sg);
    }
  }
  return in + 1;
}

// Pointers held in memory as 32 bits (Physical32): widened on load, narrowed on store.
const Instr* ExecLoadPointer32(Subgroup& sg, const Instr* in) {
  const uint64_t* ptr = sg.reg<uint64_t>(in->op[0]);
  uint64_t* result = sg.reg<uint64_t>(in->result);
  bool stop = false;
  uint64_t m = sg.mask;
  while (m != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    m &= m - 1;
    const uint8_t* src =
        AccessMemory(sg, in, lane, ptr[lane], 4, in->aux, AccessKind::kRead, &stop);
    if (src == nullptr && stop) return StopSubgroup(sg);
    result[lane] = src != nullptr ? PointerFrom32(LoadScalar<uint32_t>(src)) : 0;
  }
  return in + 1;
}

const Instr* ExecStorePointer32(Subgroup& sg, const Instr* in) {
  const uint64_t* ptr = sg.reg<uint64_t>(in->op[0]);
  const uint64_t* value = sg.reg<uint64_t>(in->op[1]);
  bool stop = false;
  uint64_t m = sg.mask;
  while (m != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    m &= m - 1;
    uint8_t* dst = AccessMemory(sg, in, lane, ptr[lane], 4, in->aux, AccessKind::kWrite, &stop);
    if (dst != nullptr) {
      StoreScalar<uint32_t>(dst, PointerTo32(value[lane]));
    } else if (stop) {
      return StopSubgroup(sg);
    }
  }
  return in + 1;
}

// Address arithmetic: a constant byte offset plus dynamic indices times their strides.
struct AccessChainData {
  uint64_t constant_offset = 0;
  struct Dynamic {
    uint32_t slot, bytes;
    int64_t stride;
  };
  std::vector<Dynamic> dynamic;
};

const Instr* ExecAccessChain(Subgroup& sg, const Instr* in) {
  const AccessChainData& d = *static_cast<const AccessChainData*>(in->data);
  const uint64_t* base = sg.reg<uint64_t>(in->op[0]);
  uint64_t* result = sg.reg<uint64_t>(in->result);
  if (d.dynamic.empty() && d.constant_offset <= kOffsetMask) {
    // Constant indices only (a member or element of a private array, say): one addition.
    const uint64_t add = d.constant_offset;
    ForEachLane(sg.mask, [&](uint32_t lane) {
      const uint64_t p = base[lane];
      const uint64_t moved = PointerOffset(p) + add;
      result[lane] = MakePointer(PointerAllocation(p), moved <= kOffsetMask ? moved : kOffsetMask);
    });
    return in + 1;
  }
  ForEachLane(sg.mask, [&](uint32_t lane) {
    // Indices are arbitrary 64-bit values: an offset that overflows is as unencodable as one
    // outside [0, 2^40).
    bool overflow = false;
    int64_t offset = static_cast<int64_t>(d.constant_offset);
    for (const AccessChainData::Dynamic& idx : d.dynamic) {
      int64_t term = 0;
      overflow |=
          __builtin_mul_overflow(LaneSInt(sg, idx.slot, idx.bytes, lane), idx.stride, &term);
      overflow |= __builtin_add_overflow(offset, term, &offset);
    }
    const uint64_t p = base[lane];
    int64_t moved = 0;
    overflow |= __builtin_add_overflow(static_cast<int64_t>(PointerOffset(p)), offset, &moved);
    // An offset outside [0, 2^40) cannot be encoded: the pointer keeps its allocation with the
    // largest offset, so any access through it is reported as outside the allocation.
    const bool encodable = !overflow && moved >= 0 && static_cast<uint64_t>(moved) <= kOffsetMask;
    result[lane] =
        MakePointer(PointerAllocation(p), encodable ? static_cast<uint64_t>(moved) : kOffsetMask);
  });
  return in + 1;
}

struct CopyMemoryData {
  uint32_t size_slot, size_bytes;  // OpCopyMemorySized: the Size operand
  uint64_t fixed_size;             // OpCopyMemory: the pointee's size
  uint32_t alignment;
};

const Instr* ExecCopyMemory(Subgroup& sg, const Instr* in) {
  const CopyMemoryData& d = *static_cast<const CopyMemoryData*>(in->data);
  const uint64_t* dst_ptr = sg.reg<uint64_t>(in->op[0]);
  const uint64_t* src_ptr = sg.reg<uint64_t>(in->op[1]);
  bool stop = false;
  uint64_t m = sg.mask;
  while (m != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    m &= m - 1;
    const uint64_t size =
        d.size_bytes != 0 ? LaneUInt(sg, d.size_slot, d.size_bytes, lane) : d.fixed_size;
    if (size == 0) continue;
    const uint8_t* src =
        AccessMemory(sg, in, lane, src_ptr[lane], size, d.alignment, AccessKind::kRead, &stop);
    if (src == nullptr && stop) return StopSubgroup(sg);
    uint8_t* dst =
        AccessMemory(sg, in, lane, dst_ptr[lane], size, d.alignment, AccessKind::kWrite, &stop);
    if (dst == nullptr && stop) return StopSubgroup(sg);
    if (src != nullptr && dst != nullptr) std::memmove(dst, src, size);
  }
  return in + 1;
}

const Instr* ExecCopyPointer(Subgroup& sg, const Instr* in) {
  CopyLanes(sg, in->result, in->op[0], 8);
  return in + 1;
}

}  // namespace

// OpGenericCastToPtrExplicit: null unless the pointer points into the storage class asked for.
const Instr* ExecGenericCastExplicit(Subgroup& sg, const Instr* in) {
  const uint64_t* src = sg.reg<uint64_t>(in->op[0]);
  uint64_t* result = sg.reg<uint64_t>(in->result);
  const auto storage = static_cast<spv::StorageClass>(in->aux);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const Allocation* a = sg.group->allocations->Find(PointerAllocation(src[lane]));
    bool match = a != nullptr && a->storage == storage;
    if (a != nullptr && storage == spv::StorageClass::Function) {
      match = a->storage == spv::StorageClass::Function || a->storage == spv::StorageClass::Input;
    }
    result[lane] = match ? src[lane] : 0;
  });
  return in + 1;
}

namespace {

const Instr* ExecGenericPtrMemSemantics(Subgroup& sg, const Instr* in) {
  const uint64_t* src = sg.reg<uint64_t>(in->op[0]);
  uint32_t* result = sg.reg<uint32_t>(in->result);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const Allocation* a = sg.group->allocations->Find(PointerAllocation(src[lane]));
    uint32_t bits = 0;
    if (a != nullptr && a->storage == spv::StorageClass::Workgroup) bits = 0x100;
    if (a != nullptr && a->storage == spv::StorageClass::CrossWorkgroup) bits = 0x200;
    result[lane] = bits;
  });
  return in + 1;
}

// in->size: bytes of the integer; in->count: 1 for a Physical32 module.
const Instr* ExecConvertPtrToU(Subgroup& sg, const Instr* in) {
  const uint64_t* src = sg.reg<uint64_t>(in->op[0]);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint64_t v = in->count != 0 ? PointerTo32(src[lane]) : src[lane];
    std::memcpy(sg.regs + in->result + lane * in->size, &v, in->size);
  });
  return in + 1;
}

const Instr* ExecConvertUToPtr(Subgroup& sg, const Instr* in) {
  uint64_t* result = sg.reg<uint64_t>(in->result);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint64_t v = LaneUInt(sg, in->op[0], in->size, lane);
    result[lane] = in->count != 0 ? PointerFrom32(static_cast<uint32_t>(v)) : v;
  });
  return in + 1;
}

template <bool kEqual>
const Instr* ExecPtrCompare(Subgroup& sg, const Instr* in) {
  const uint64_t* a = sg.reg<uint64_t>(in->op[0]);
  const uint64_t* b = sg.reg<uint64_t>(in->op[1]);
  uint8_t* result = sg.regs + in->result;
  ForEachLane(sg.mask, [&](uint32_t lane) { result[lane] = (a[lane] == b[lane]) == kEqual; });
  return in + 1;
}

// OpPtrDiff: (a - b) / element size, as a signed integer of in->size bytes.
const Instr* ExecPtrDiff(Subgroup& sg, const Instr* in) {
  const uint64_t* a = sg.reg<uint64_t>(in->op[0]);
  const uint64_t* b = sg.reg<uint64_t>(in->op[1]);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const int64_t diff = (static_cast<int64_t>(PointerOffset(a[lane])) -
                          static_cast<int64_t>(PointerOffset(b[lane]))) /
                         static_cast<int64_t>(std::max<uint32_t>(in->aux, 1));
    std::memcpy(sg.regs + in->result + lane * in->size, &diff, in->size);
  });
  return in + 1;
}

uint32_t AlignmentOperand(const ir::Instruction& inst, size_t mask_index, uint64_t natural) {
  if (inst.num_operands() > mask_index) {
    const uint32_t mask = inst.word(mask_index);
    if ((mask & static_cast<uint32_t>(spv::MemoryAccess::Aligned)) != 0 &&
        inst.num_operands() > mask_index + 1) {
      return inst.word(mask_index + 1);
    }
  }
  return static_cast<uint32_t>(natural);
}

// The natural alignment OpenCL guarantees for an access of this type: the component size
// (vectors: the vector's size, 3-vectors as 4).
uint64_t NaturalAlignment(const TypeInfo& t) {
  if (t.kind == ir::TypeKind::kVector || t.kind == ir::TypeKind::kArray ||
      t.kind == ir::TypeKind::kStruct || t.kind == ir::TypeKind::kCooperativeMatrix) {
    return std::max<uint64_t>(t.value.scalar.bytes, 1);
  }
  return std::max<uint64_t>(t.lane_bytes, 1);
}

// The load or store handler for `size` bytes: the common sizes get a fixed-size copy.
template <bool kStore>
Handler SizedAccessHandler(uint32_t size) {
  auto pick = []<uint32_t kSize>(std::integral_constant<uint32_t, kSize>) -> Handler {
    if constexpr (kStore) {
      return ExecStore<kSize>;
    } else {
      return ExecLoad<kSize>;
    }
  };
  switch (size) {
    case 1:
      return pick(std::integral_constant<uint32_t, 1>{});
    case 2:
      return pick(std::integral_constant<uint32_t, 2>{});
    case 4:
      return pick(std::integral_constant<uint32_t, 4>{});
    case 8:
      return pick(std::integral_constant<uint32_t, 8>{});
    case 16:
      return pick(std::integral_constant<uint32_t, 16>{});
    case 32:
      return pick(std::integral_constant<uint32_t, 32>{});
    case 64:
      return pick(std::integral_constant<uint32_t, 64>{});
    default:
      return pick(std::integral_constant<uint32_t, 0>{});
  }
}
Handler LoadHandler(uint32_t size) { return SizedAccessHandler<false>(size); }
Handler StoreHandler(uint32_t size) { return SizedAccessHandler<true>(size); }

bool BindAccessChain(Loader& loader, const ir::Instruction& inst, Instr& out, bool with_element) {
  AccessChainData d;
  // A dynamic index must be a scalar integer (the validator of SPIRV-Tools 2023.1 lets some
  // other types through); its value is read as a signed integer of its own width.
  auto add_dynamic = [&](uint32_t idx, uint64_t stride) {
    const TypeInfo& index = loader.TypeOfValue(idx);
    if (index.kind != ir::TypeKind::kInt || index.lane_bytes == 0 || index.lane_bytes > 8) {
      return loader.Fail(inst,
                         "access chain index %" + std::to_string(idx) + " is not a scalar integer");
    }
    d.dynamic.push_back({loader.Slot(idx), index.lane_bytes, static_cast<int64_t>(stride)});
    return true;
  };
  const TypeInfo& base = loader.TypeOfValue(inst.word(0));
  uint32_t type_id = base.pointee;
  size_t i = 1;
  if (with_element) {
    // The Element operand steps over whole pointees (arrays of them).
    const uint64_t stride = loader.Type(type_id).memory_bytes;
    const uint32_t idx = inst.word(1);
    if (auto c = loader.types().GetConstantInt(idx, true)) {
      d.constant_offset += static_cast<uint64_t>(*c) * stride;  // wraps, as the address does
    } else if (!add_dynamic(idx, stride)) {
      return false;
    }
    i = 2;
  }
  for (; i < inst.num_operands(); ++i) {
    const TypeInfo& t = loader.Type(type_id);
    const uint32_t idx = inst.word(i);
    if (t.kind == ir::TypeKind::kStruct) {
      const std::optional<uint64_t> member = loader.ConstantValue(idx);
      if (!member || *member >= t.type->members.size()) {
        return loader.Fail(inst, "struct index must be a constant member number");
      }
      d.constant_offset += loader.MemberOffsets(type_id)[*member];
      type_id = t.type->members[*member];
      continue;
    }
    // A cooperative matrix is indexed like a vector: its elements are the invocation's slice
    // (coop_layout.hpp), which is how producers write element access (COOPERATIVE-MATRIX.md A1).
    const bool packed =
        t.kind == ir::TypeKind::kVector || t.kind == ir::TypeKind::kCooperativeMatrix;
    if (t.kind != ir::TypeKind::kArray && t.kind != ir::TypeKind::kRuntimeArray && !packed) {
      return loader.Fail(inst, "access chain indexes into a type that has no elements");
    }
    const uint32_t element = t.type->element;
    const TypeInfo& e = loader.Type(element);
    const uint64_t stride = packed ? e.lane_bytes : e.memory_bytes;
    if (auto c = loader.types().GetConstantInt(idx, true)) {
      d.constant_offset += static_cast<uint64_t>(*c) * stride;  // wraps, as the address does
    } else if (!add_dynamic(idx, stride)) {
      return false;
    }
    type_id = element;
  }
  out.fn = ExecAccessChain;
  out.op[0] = loader.Slot(inst.word(0));
  out.result = loader.Slot(inst.result_id());
  out.data = loader.program().Own(std::move(d));
  return true;
}

}  // namespace

bool BindMemory(Loader& loader, const ir::Instruction& inst, Instr& out) {
  const bool physical32 = loader.program().pointer_bytes == 4;
  switch (inst.opcode()) {
    case spv::Op::OpVariable: {
      const TypeInfo& pointer = loader.Type(inst.result_type_id());
      const TypeInfo& pointee = loader.Type(pointer.pointee);
      VariableInfo var;
      var.storage = spv::StorageClass::Function;
      var.bytes = pointee.memory_bytes;
      if (var.bytes > kMaxVariableBytes) {
        return loader.Fail(inst, "a variable of " + std::to_string(var.bytes) +
                                     " bytes is larger than xmx-run allocates (" +
                                     std::to_string(kMaxVariableBytes) + ")");
      }
      var.alignment = std::max<uint64_t>(pointee.alignment, 1);
      if (const ir::DecorationInfo* d =
              loader.info().FindDecoration(inst.result_id(), spv::Decoration::Alignment)) {
        if (!d->operands.empty()) var.alignment = std::max<uint64_t>(var.alignment, d->operands[0]);
      }
      var.name = loader.info().GetName(inst.result_id());
      VariableData data;
      if (inst.num_operands() >= 2) {
        return loader.Fail(inst, "xmx-run does not support initialisers of function variables");
      }
      data.index = loader.AddPrivateVariable(std::move(var));
      data.count = 0;  // patched below: the total is known only after loading
      out.fn = ExecVariable;
      out.result = loader.Slot(inst.result_id());
      auto* owned = const_cast<VariableData*>(loader.program().Own(std::move(data)));
      loader.program().variable_counts.push_back(&owned->count);
      out.data = owned;
      return true;
    }
    case spv::Op::OpLoad: {
      const TypeInfo& t = loader.Type(inst.result_type_id());
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      if (t.kind == ir::TypeKind::kPointer && physical32) {
        out.fn = ExecLoadPointer32;
        out.aux = AlignmentOperand(inst, 1, 4);
        return true;
      }
      out.size = t.lane_bytes;
      out.aux = AlignmentOperand(inst, 1, NaturalAlignment(t));
      out.fn = LoadHandler(out.size);
      return true;
    }
    case spv::Op::OpStore: {
      const TypeInfo& t = loader.TypeOfValue(inst.word(1));
      out.op[0] = loader.Slot(inst.word(0));
      out.op[1] = loader.Slot(inst.word(1));
      if (t.kind == ir::TypeKind::kPointer && physical32) {
        out.fn = ExecStorePointer32;
        out.aux = AlignmentOperand(inst, 2, 4);
        return true;
      }
      out.size = t.lane_bytes;
      out.aux = AlignmentOperand(inst, 2, NaturalAlignment(t));
      out.fn = StoreHandler(out.size);
      return true;
    }
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
      return BindAccessChain(loader, inst, out, false);
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain:
      return BindAccessChain(loader, inst, out, true);
    case spv::Op::OpCopyMemory:
    case spv::Op::OpCopyMemorySized: {
      CopyMemoryData d{};
      const bool sized = inst.opcode() == spv::Op::OpCopyMemorySized;
      if (sized) {
        d.size_slot = loader.Slot(inst.word(2));
        d.size_bytes = loader.TypeOfValue(inst.word(2)).lane_bytes;
      } else {
        d.fixed_size = loader.Type(loader.TypeOfValue(inst.word(0)).pointee).memory_bytes;
      }
      d.alignment = AlignmentOperand(inst, sized ? 3 : 2, 1);
      out.fn = ExecCopyMemory;
      out.op[0] = loader.Slot(inst.word(0));
      out.op[1] = loader.Slot(inst.word(1));
      out.data = loader.program().Own(d);
      return true;
    }
    case spv::Op::OpPtrCastToGeneric:
    case spv::Op::OpGenericCastToPtr:
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      // A result that shares its operand's slot (invariant_code.hpp) needs no copy.
      if (out.result != out.op[0]) out.fn = ExecCopyPointer;
      return true;
    case spv::Op::OpGenericCastToPtrExplicit:
      out.fn = ExecGenericCastExplicit;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.aux = inst.word(1);
      return true;
    case spv::Op::OpGenericPtrMemSemantics:
      out.fn = ExecGenericPtrMemSemantics;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      return true;
    case spv::Op::OpConvertPtrToU:
      out.fn = ExecConvertPtrToU;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.size = loader.Type(inst.result_type_id()).lane_bytes;
      out.count = physical32;
      return true;
    case spv::Op::OpConvertUToPtr:
      out.fn = ExecConvertUToPtr;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.size = loader.TypeOfValue(inst.word(0)).lane_bytes;
      out.count = physical32;
      return true;
    case spv::Op::OpPtrEqual:
    case spv::Op::OpPtrNotEqual:
      out.fn = inst.opcode() == spv::Op::OpPtrEqual ? ExecPtrCompare<true> : ExecPtrCompare<false>;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.op[1] = loader.Slot(inst.word(1));
      return true;
    case spv::Op::OpPtrDiff:
      out.fn = ExecPtrDiff;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.op[1] = loader.Slot(inst.word(1));
      out.size = loader.Type(inst.result_type_id()).lane_bytes;
      out.aux =
          static_cast<uint32_t>(loader.Type(loader.TypeOfValue(inst.word(0)).pointee).memory_bytes);
      return true;
    default:
      return false;
  }
}

}  // namespace xmx::interp
