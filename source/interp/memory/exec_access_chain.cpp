// Access chains: the address arithmetic of OpAccessChain, OpPtrAccessChain and their in-bounds
// forms. The loader folds constant indices into one byte offset and keeps the dynamic ones with
// their strides; the common single-index forms have handlers of their own. An address that
// leaves [0, 2^40) keeps its allocation with the largest offset, so that the access through it,
// not the arithmetic, is what gets reported.
#include "interp/load/loader.hpp"
#include "interp/memory/access_chain.hpp"
#include "interp/run/exec_shared.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

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

// The unchecked arithmetic of ExecAccessChainOneIndex over `lanes` lanes, for operands that
// cannot overflow (it checks that first): the index fits 32 bits and the stride 31, so their
// product is one signed 32x32-bit multiplication, which vector units have. An offset outside
// [0, 2^40) (a negative one has its high bits set) keeps the allocation with the largest offset.
template <class Index>
inline __attribute__((always_inline)) void OffsetLanes(uint64_t* __restrict result,
                                                       const uint64_t* __restrict base,
                                                       const Index* __restrict indices,
                                                       int64_t constant, int32_t stride,
                                                       uint32_t lanes) {
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    const uint64_t p = base[lane];
    const int64_t index = static_cast<int32_t>(indices[lane]);
    const uint64_t moved = PointerOffset(p) + static_cast<uint64_t>(constant + index * stride);
    result[lane] = (moved >> kOffsetBits) == 0 ? (p & ~kOffsetMask) | moved : p | kOffsetMask;
  }
}
template <class Index>
void OffsetLanesBaseline(uint64_t* result, const uint64_t* base, const uint8_t* indices,
                         int64_t constant, int32_t stride, uint32_t lanes) {
  OffsetLanes(result, base, reinterpret_cast<const Index*>(indices), constant, stride, lanes);
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// With AVX2 four lanes at a time (64-bit compares and 32x32-bit products; SSE2 has neither).
template <class Index>
__attribute__((target("avx2"))) void OffsetLanesAvx2(uint64_t* result, const uint64_t* base,
                                                     const uint8_t* indices, int64_t constant,
                                                     int32_t stride, uint32_t lanes) {
  OffsetLanes(result, base, reinterpret_cast<const Index*>(indices), constant, stride, lanes);
}
template <class Index>
auto* OffsetLanesForThisCpu() {
  static auto* const pick =
      __builtin_cpu_supports("avx2") ? OffsetLanesAvx2<Index> : OffsetLanesBaseline<Index>;
  return pick;
}
#else
template <class Index>
auto* OffsetLanesForThisCpu() {
  return OffsetLanesBaseline<Index>;
}
#endif

// The most common dynamic form, one index of `Index` (a signed integer of the index's width):
// ExecAccessChain's arithmetic for that case without the per-index loop and per-lane width
// switch (-O0 code steps into every private array with one; it was a fifth of such a GEMM's
// time).
template <class Index>
const Instr* ExecAccessChainOneIndex(Subgroup& sg, const Instr* in);

// One dynamic index into a private variable the loader knows (PrivateAddress): in->op[1] is the
// variable, in->op[2] the base's offset in it. Every lane's base is its work-item's copy of the
// variable at that offset, so with an index the same in every lane the results differ only in
// the allocation, by the same step from lane to lane, and are computed without reading the
// bases. Otherwise (a varying index, an overflow, part of the subgroup) the general one-index
// form runs.
template <class Index>
const Instr* ExecPrivateAccessChainOneIndex(Subgroup& sg, const Instr* in) {
  const AccessChainData& d = *static_cast<const AccessChainData*>(in->data);
  const AccessChainData::Dynamic idx = d.dynamic.front();
  const uint32_t lanes = sg.lanes;
  if (lanes > 64 || sg.mask != (~uint64_t{0} >> (64 - lanes))) {
    return ExecAccessChainOneIndex<Index>(sg, in);
  }
  const uint8_t* indices = sg.regs + idx.slot;
  const Index first = LoadScalar<Index>(indices);
  bool uniform = true;
  ForAllLanes(lanes, [&](uint32_t lane) {
    uniform &= LoadScalar<Index>(indices + lane * sizeof(Index)) == first;
  });
  int64_t term = 0, offset = 0, moved = 0;
  if (!uniform || __builtin_mul_overflow(static_cast<int64_t>(first), idx.stride, &term) ||
      __builtin_add_overflow(static_cast<int64_t>(d.constant_offset), term, &offset) ||
      __builtin_add_overflow(static_cast<int64_t>(in->op[2]), offset, &moved)) {
    return ExecAccessChainOneIndex<Index>(sg, in);
  }
  const bool encodable = moved >= 0 && static_cast<uint64_t>(moved) <= kOffsetMask;
  const WorkGroup& g = *sg.group;
  const uint32_t per_item = g.program->private_layout.variables;
  const uint64_t lane0 =
      MakePointer(PrivateAllocation(g.private_first, per_item, sg.first_item, in->op[1]),
                  encodable ? static_cast<uint64_t>(moved) : kOffsetMask);
  const uint64_t step = uint64_t{per_item} << kOffsetBits;
  uint64_t* result = sg.reg<uint64_t>(in->result);
  ForAllLanes(lanes, [&](uint32_t lane) { result[lane] = lane0 + lane * step; });
  return in + 1;
}

template <class Index>
const Instr* ExecAccessChainOneIndex(Subgroup& sg, const Instr* in) {
  const AccessChainData& d = *static_cast<const AccessChainData*>(in->data);
  const AccessChainData::Dynamic idx = d.dynamic.front();
  const int64_t constant = static_cast<int64_t>(d.constant_offset);
  const uint64_t* base = sg.reg<uint64_t>(in->op[0]);
  const uint8_t* indices = sg.regs + idx.slot;
  uint64_t* result = sg.reg<uint64_t>(in->result);
  auto lane_pointer = [&](uint32_t lane) {
    bool overflow = false;
    int64_t term = 0, offset = 0, moved = 0;
    overflow |= __builtin_mul_overflow(
        static_cast<int64_t>(LoadScalar<Index>(indices + lane * sizeof(Index))), idx.stride, &term);
    overflow |= __builtin_add_overflow(constant, term, &offset);
    const uint64_t p = base[lane];
    overflow |= __builtin_add_overflow(static_cast<int64_t>(PointerOffset(p)), offset, &moved);
    const bool encodable = !overflow && moved >= 0 && static_cast<uint64_t>(moved) <= kOffsetMask;
    result[lane] =
        MakePointer(PointerAllocation(p), encodable ? static_cast<uint64_t>(moved) : kOffsetMask);
  };
  if (!sg.full) {
    ForEachLane(sg.mask, lane_pointer);
    return in + 1;
  }
  const uint32_t lanes = sg.lanes;
  // Without overflow checks when none can overflow: an index in [-2^31, 2^31), a stride and a
  // constant offset of at most 2^31 and 2^61 in magnitude give |index * stride| <= 2^62, and
  // with an offset below 2^40 the sum stays below 2^63. The usual case (a 32-bit index, or a
  // 64-bit one widened from 32 bits); the lanes then run side by side without branches, and the
  // results are those of lane_pointer, which finds no overflow for such operands.
  constexpr int64_t kMaxStride = (int64_t{1} << 31) - 1, kMaxConstant = int64_t{1} << 61;
  bool small = idx.stride >= -kMaxStride && idx.stride <= kMaxStride && constant >= -kMaxConstant &&
               constant <= kMaxConstant;
  if constexpr (sizeof(Index) > 4) {
    ForAllLanes(lanes, [&](uint32_t lane) {
      const uint64_t index =
          static_cast<uint64_t>(LoadScalar<Index>(indices + lane * sizeof(Index)));
      small &= index + (uint64_t{1} << 31) < (uint64_t{1} << 32);
    });
  }
  if (small) {
    OffsetLanesForThisCpu<Index>()(result, base, indices, constant,
                                   static_cast<int32_t>(idx.stride), lanes);
    return in + 1;
  }
  for (uint32_t lane = 0; lane < lanes; ++lane) lane_pointer(lane);
  return in + 1;
}

}  // namespace

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
  if (const std::optional<PrivateAddress> base_address = loader.PrivateAddressOf(inst.word(0));
      base_address && d.dynamic.empty() && d.constant_offset <= kOffsetMask) {
    // ExecAccessChain's constant case adds without wrapping below kOffsetMask.
    loader.RecordPrivateAddress(inst.result_id(),
                                {base_address->variable, base_address->offset + d.constant_offset});
  }
  out.fn = ExecAccessChain;
  if (d.dynamic.size() == 1) {
    const std::optional<PrivateAddress> base_address = loader.PrivateAddressOf(inst.word(0));
    auto pick = [&]<class Index>() {
      out.fn =
          base_address ? ExecPrivateAccessChainOneIndex<Index> : ExecAccessChainOneIndex<Index>;
    };
    switch (d.dynamic.front().bytes) {
      case 1:
        pick.template operator()<int8_t>();
        break;
      case 2:
        pick.template operator()<int16_t>();
        break;
      case 4:
        pick.template operator()<int32_t>();
        break;
      case 8:
        pick.template operator()<int64_t>();
        break;
      default:
        break;
    }
    if (base_address) {
      out.op[1] = base_address->variable;
      out.op[2] = static_cast<uint32_t>(base_address->offset);
    }
  }
  out.op[0] = loader.Slot(inst.word(0));
  out.result = loader.Slot(inst.result_id());
  out.data = loader.program().Own(std::move(d));
  return true;
}

}  // namespace xmx::interp
