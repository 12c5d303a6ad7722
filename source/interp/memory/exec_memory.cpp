// Variables, loads, stores and copies; the address arithmetic is in exec_access_chain.cpp, the
// pointer casts, conversions and comparisons in exec_pointer_operations.cpp. Every access goes
// through AccessMemory, which checks bounds, alignment, writability and local-memory races, except
// a whole subgroup's access to one private variable, which LaneStridedPrivate checks once.
#include <algorithm>
#include <type_traits>

#include "interp/load/loader.hpp"
#include "interp/memory/access_chain.hpp"
#include "interp/memory/pointer_operations.hpp"
#include "interp/memory/private_move.hpp"
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
    const uint32_t allocation =
        PrivateAllocation(g.private_first, v.count, sg.first_item + lane, v.index);
    result[lane] = MakePointer(allocation, 0);
    if (!v.initializer.empty()) {
      std::memcpy((*g.allocations)[allocation].data, v.initializer.data(), v.initializer.size());
    }
  });
  return in + 1;
}

// Global memory is shared by the worker threads (work-groups run in parallel), and kernels race
// on it across work-groups: a plain read of a word other work-items update atomically, before a
// compare-exchange loop, is the common case. Its bytes move as relaxed atomic operations of the
// widest unit its address and the size allow, so such a kernel reads some value, as it would on
// the hardware, and xmx-run itself stays free of data races; on x86-64 these are the plain moves
// a memcpy would make. The other side is a register or private memory, which only this thread
// touches.
template <class Unit>
inline void LoadUnits(uint8_t* dst, const uint8_t* shared, uint32_t size) {
  for (uint32_t i = 0; i < size; i += sizeof(Unit)) {
    const Unit v = __atomic_load_n(reinterpret_cast<const Unit*>(shared + i), __ATOMIC_RELAXED);
    std::memcpy(dst + i, &v, sizeof(Unit));
  }
}
template <class Unit>
inline void StoreUnits(uint8_t* shared, const uint8_t* src, uint32_t size) {
  for (uint32_t i = 0; i < size; i += sizeof(Unit)) {
    Unit v;
    std::memcpy(&v, src + i, sizeof(Unit));
    __atomic_store_n(reinterpret_cast<Unit*>(shared + i), v, __ATOMIC_RELAXED);
  }
}
inline void LoadShared(uint8_t* dst, const uint8_t* shared, uint32_t size) {
  const uintptr_t bits = reinterpret_cast<uintptr_t>(shared) | size;
  if ((bits & 7) == 0) return LoadUnits<uint64_t>(dst, shared, size);
  if ((bits & 3) == 0) return LoadUnits<uint32_t>(dst, shared, size);
  if ((bits & 1) == 0) return LoadUnits<uint16_t>(dst, shared, size);
  LoadUnits<uint8_t>(dst, shared, size);
}
inline void StoreShared(uint8_t* shared, const uint8_t* src, uint32_t size) {
  const uintptr_t bits = reinterpret_cast<uintptr_t>(shared) | size;
  if ((bits & 7) == 0) return StoreUnits<uint64_t>(shared, src, size);
  if ((bits & 3) == 0) return StoreUnits<uint32_t>(shared, src, size);
  if ((bits & 1) == 0) return StoreUnits<uint16_t>(shared, src, size);
  StoreUnits<uint8_t>(shared, src, size);
}

// Where every active lane's access falls in one allocation that is not local memory (whose
// accesses the race shadow records lane by lane) and every access is plainly allowed: in bounds,
// aligned, writable for a store. Then lane l's bytes are at data plus PointerOffset(pointers[l]),
// which is what AccessMemory would return for each.
struct OneAllocationAccess {
  uint8_t* data = nullptr;  // nullptr: the caller takes the per-lane path, which also diagnoses
  // Every lane of the subgroup is active and lane l's pointer is lane 0's plus l * bytes: the
  // lanes' values lie back to back in memory, as they do in the register slot.
  bool contiguous = false;
  // The host addresses' alignment bits: data's address ORed with every lane's offset.
  uint64_t address_bits = 0;
};

inline OneAllocationAccess OneAllocation(const Subgroup& sg, const uint64_t* pointers,
                                         uint64_t bytes, uint32_t alignment, bool write) {
  const uint64_t mask = sg.mask;
  if (mask == 0) return {};
  const uint64_t first_pointer = pointers[std::countr_zero(mask)];
  const uint32_t index = PointerAllocation(first_pointer);
  const Allocation* a = sg.group->allocations->Find(index);
  if (a == nullptr || a->storage == spv::StorageClass::Workgroup || (write && a->read_only) ||
      bytes > a->size) {
    return {};
  }
  // An alignment that is not a power of two (never from a valid module) takes the per-lane path.
  if (alignment > 1 && (alignment & (alignment - 1)) != 0) return {};
  const uint64_t misaligned_bits = alignment > 1 ? alignment - 1 : 0;
  const uint64_t last = a->size - bytes;  // the highest offset an access may start at
  // As unsigned differences from the allocation's offset 0, a pointer into another allocation is
  // at least 2^40 away (or wraps below 0), beyond any `last`: one test checks both the allocation
  // and the bounds. That test is the sign bit of (last - x) | x, since x > last means last - x
  // borrows (x below 2^63) or x has that bit itself: subtractions and ORs, which the compiler runs
  // two lanes at a time (SSE2 has no 64-bit comparison). The pointers' low bits are their offsets'.
  const uint64_t base = MakePointer(index, 0);
  uint64_t signs = 0, offset_bits = 0, gaps = 0;
  const bool all_lanes = sg.lanes <= 64 && mask == (~uint64_t{0} >> (64 - sg.lanes));
  if (all_lanes) {
    uint64_t expected = first_pointer;  // lane l's pointer if the lanes are back to back
    ForAllLanes(sg.lanes, [&](uint32_t lane) {
      const uint64_t p = pointers[lane];
      const uint64_t x = p - base;
      signs |= (last - x) | x;
      offset_bits |= p;
      gaps |= p ^ expected;
      expected += bytes;
    });
  } else {
    ForEachLane(mask, [&](uint32_t lane) {
      const uint64_t p = pointers[lane];
      const uint64_t x = p - base;
      signs |= (last - x) | x;
      offset_bits |= p;
    });
  }
  const bool outside = (signs >> 63) != 0;
  offset_bits &= kOffsetMask;
  if (outside || (offset_bits & misaligned_bits) != 0) return {};
  return {a->data, all_lanes && gaps == 0, reinterpret_cast<uintptr_t>(a->data) | offset_bits};
}

// Moves each active lane's kSize bytes between its place in shared memory and its part of a
// register slot (kLoad: into the slot), in lane order, in units of `Unit`, which every lane's
// address and kSize allow.
template <uint32_t kSize, class Unit, bool kLoad>
inline void MoveLanesIn(const Subgroup& sg, uint8_t* slot, uint8_t* data,
                        const uint64_t* pointers) {
  auto move = [&](uint32_t lane) {
    uint8_t* shared = data + PointerOffset(pointers[lane]);
    if constexpr (kLoad) {
      LoadUnits<Unit>(slot + lane * kSize, shared, kSize);
    } else {
      StoreUnits<Unit>(shared, slot + lane * kSize, kSize);
    }
  };
  if (sg.lanes <= 64 && sg.mask == (~uint64_t{0} >> (64 - sg.lanes))) {
    ForAllLanes(sg.lanes, move);
  } else {
    ForEachLane(sg.mask, move);
  }
}

// The bytes of an access OneAllocation allowed: lanes back to back as one block (in units as wide
// as its address allows), otherwise lane by lane in the widest unit every lane's address allows
// (chosen once, not per lane). Stores keep lane order: where lanes store to the same bytes, the
// last wins, as on the per-lane path.
template <uint32_t kSize, bool kLoad>
inline void MoveOneAllocation(const Subgroup& sg, uint8_t* slot, const OneAllocationAccess& at,
                              const uint64_t* pointers) {
  const uint32_t size = kSize;
  if (at.contiguous) {
    uint8_t* shared = at.data + PointerOffset(pointers[0]);
    if constexpr (kLoad) {
      LoadShared(slot, shared, size * sg.lanes);
    } else {
      StoreShared(shared, slot, size * sg.lanes);
    }
    return;
  }
  const uint64_t bits = at.address_bits | size;
  if ((bits & 7) == 0) return MoveLanesIn<kSize, uint64_t, kLoad>(sg, slot, at.data, pointers);
  if ((bits & 3) == 0) return MoveLanesIn<kSize, uint32_t, kLoad>(sg, slot, at.data, pointers);
  if ((bits & 1) == 0) return MoveLanesIn<kSize, uint16_t, kLoad>(sg, slot, at.data, pointers);
  MoveLanesIn<kSize, uint8_t, kLoad>(sg, slot, at.data, pointers);
}

// Whether the first active lane's pointer is a private variable's: then the strided private
// path is worth trying first; otherwise the one-allocation path.
inline bool FirstLanePrivate(const Subgroup& sg, const uint64_t* pointers) {
  if (sg.mask == 0) return false;
  const uint32_t index = PointerAllocation(pointers[std::countr_zero(sg.mask)]);
  return index >= sg.group->private_first && index < sg.group->private_end;
}

// OpLoad (kStore false: in->result receives the value) or OpStore (in->op[1] holds it) through
// the pointers of in->op[0]. in->size: bytes per lane; in->aux: alignment.
template <uint32_t kSize, bool kStore>
const Instr* ExecAccess(Subgroup& sg, const Instr* in) {
  const uint32_t size = kSize != 0 ? kSize : in->size;
  const uint64_t* ptr = sg.reg<uint64_t>(in->op[0]);
  uint8_t* value = sg.regs + (kStore ? in->op[1] : in->result);
  // Private pointers are tried as one subgroup's strided access first (a global pointer fails
  // that test only after reading every lane, so it is not tried for them).
  size_t stride = 0;
  uint8_t* first = nullptr;
  if (FirstLanePrivate(sg, ptr) &&
      (first = LaneStridedPrivate(sg, ptr, size, in->aux, kStore, &stride)) != nullptr) {
    ForAllLanes(sg.lanes, [&](uint32_t lane) {
      if constexpr (kStore) {
        CopyBytes(first + lane * stride, value + lane * size, size);
      } else {
        CopyBytes(value + lane * size, first + lane * stride, size);
      }
    });
    return in + 1;
  }
  if (const OneAllocationAccess at = OneAllocation(sg, ptr, size, in->aux, kStore);
      at.data != nullptr) {
    if constexpr (kSize != 0) {
      MoveOneAllocation<kSize, /*kLoad=*/!kStore>(sg, value, at, ptr);
    } else {
      // In lane order, as the per-lane path: where lanes store to the same bytes, the last wins.
      ForEachLane(sg.mask, [&](uint32_t lane) {
        uint8_t* shared = at.data + PointerOffset(ptr[lane]);
        if constexpr (kStore) {
          StoreShared(shared, value + lane * size, size);
        } else {
          LoadShared(value + lane * size, shared, size);
        }
      });
    }
    return in + 1;
  }
  bool stop = false;
  uint64_t m = sg.mask;
  while (m != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    m &= m - 1;
    uint8_t* at = AccessMemory(sg, in, lane, ptr[lane], size, in->aux,
                               kStore ? AccessKind::kWrite : AccessKind::kRead, &stop);
    if (at == nullptr) {
      if (stop) return StopSubgroup(sg);
      // A load the report let through reads zeros; a store writes nothing.
      if constexpr (!kStore) std::memset(value + lane * size, 0, size);
    } else if constexpr (kStore) {
      StoreShared(at, value + lane * size, size);
    } else {
      LoadShared(value + lane * size, at, size);
    }
  }
  return in + 1;
}

// A load or store whose pointer the loader knows (PrivateAddress, loader.hpp): in->op[1] is the
// variable, in->op[2] the offset, and the loader has checked that the access lies inside the
// variable at an offset its alignment divides. Every lane then accesses its own work-item's copy
// of the variable, which AccessMemory would allow (a Function variable: never read-only, never
// local), so the bytes move without looking at the pointers.
template <uint32_t kSize, bool kStore>
inline __attribute__((always_inline)) const Instr* PrivateAccess(Subgroup& sg, const Instr* in) {
  MovePrivate<kStore, kSize>(sg, SubgroupPrivate::Of(sg), in->op[1], in->op[2],
                             sg.regs + (kStore ? in->op[0] : in->result), in->size);
  return in + 1;
}

template <uint32_t kSize, bool kStore>
const Instr* ExecPrivateAccess(Subgroup& sg, const Instr* in) {
  return PrivateAccess<kSize, kStore>(sg, in);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The same for 32- and 64-byte values (int8 / short16 vectors, a matrix instruction's operands)
// on CPUs with AVX2: a lane's bytes move in 32-byte registers, one load and one store per 32
// bytes instead of two of each.
template <uint32_t kSize, bool kStore>
__attribute__((target("avx2"))) const Instr* ExecPrivateAccessAvx2(Subgroup& sg, const Instr* in) {
  return PrivateAccess<kSize, kStore>(sg, in);
}

bool CpuRunsAvx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2") != 0;
  return avx2;
}
#endif

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
    return ExecAccess<kSize, kStore>;
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

template <bool kStore>
Handler PrivateAccessHandler(uint32_t size) {
  switch (size) {
    case 1:
      return ExecPrivateAccess<1, kStore>;
    case 2:
      return ExecPrivateAccess<2, kStore>;
    case 4:
      return ExecPrivateAccess<4, kStore>;
    case 8:
      return ExecPrivateAccess<8, kStore>;
    case 16:
      return ExecPrivateAccess<16, kStore>;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    case 32:
      return CpuRunsAvx2() ? ExecPrivateAccessAvx2<32, kStore> : ExecPrivateAccess<32, kStore>;
    case 64:
      return CpuRunsAvx2() ? ExecPrivateAccessAvx2<64, kStore> : ExecPrivateAccess<64, kStore>;
#else
    case 32:
      return ExecPrivateAccess<32, kStore>;
    case 64:
      return ExecPrivateAccess<64, kStore>;
#endif
    default:
      return ExecPrivateAccess<0, kStore>;
  }
}

// Binds `out` (pointer operand, size and alignment set) to ExecPrivateAccess when the loader
// knows the pointer and the access is plainly allowed (inside the variable, aligned); otherwise
// leaves the general handler, which checks every lane and reports what is wrong.
template <bool kStore>
void UsePrivateAccess(Loader& loader, uint32_t pointer_id, Instr& out) {
  const std::optional<PrivateAddress> address = loader.PrivateAddressOf(pointer_id);
  if (!address || out.size == 0) return;
  const VariableInfo& v = loader.program().private_variables[address->variable];
  if (v.storage != spv::StorageClass::Function || address->offset > v.bytes ||
      out.size > v.bytes - address->offset || (out.aux > 1 && address->offset % out.aux != 0)) {
    return;
  }
  out.fn = PrivateAccessHandler<kStore>(out.size);
  if constexpr (kStore) {
    out.op[0] = out.op[1];  // the value
  }
  out.op[1] = address->variable;
  out.op[2] = static_cast<uint32_t>(address->offset);
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
      loader.RecordPrivateAddress(inst.result_id(), {data.index, 0});
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
      UsePrivateAccess<false>(loader, inst.word(0), out);
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
      UsePrivateAccess<true>(loader, inst.word(0), out);
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
    default:
      return BindPointerOperation(loader, inst, out);
  }
}

}  // namespace xmx::interp
