// Atomic instructions. Lanes of a subgroup apply their operations one after another in lane
// order, so results are deterministic within a work-group; global memory is shared with other
// worker threads and is accessed with host atomics there.
#include "interp/load/loader.hpp"
#include "interp/run/exec_shared.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

template <class T>
T Combine(AtomicOp op, T old, T value) {
  using S = std::make_signed_t<T>;
  switch (op) {
    case AtomicOp::kExchange:
    case AtomicOp::kStore:
    case AtomicOp::kFlagTestAndSet:
      return value;
    case AtomicOp::kIIncrement:
      return T(old + 1);
    case AtomicOp::kIDecrement:
      return T(old - 1);
    case AtomicOp::kIAdd:
      return T(old + value);
    case AtomicOp::kISub:
      return T(old - value);
    case AtomicOp::kSMin:
      return S(old) < S(value) ? old : value;
    case AtomicOp::kUMin:
      return old < value ? old : value;
    case AtomicOp::kSMax:
      return S(old) > S(value) ? old : value;
    case AtomicOp::kUMax:
      return old > value ? old : value;
    case AtomicOp::kAnd:
      return T(old & value);
    case AtomicOp::kOr:
      return T(old | value);
    case AtomicOp::kXor:
      return T(old ^ value);
    case AtomicOp::kFAdd: {
      if constexpr (sizeof(T) == 4) {
        return std::bit_cast<T>(std::bit_cast<float>(old) + std::bit_cast<float>(value));
      } else if constexpr (sizeof(T) == 8) {
        return std::bit_cast<T>(std::bit_cast<double>(old) + std::bit_cast<double>(value));
      }
      return old;
    }
    default:
      return old;
  }
}

// in->aux: AtomicOp; in->op: pointer, value, comparator (CompareExchange).
template <class T>
const Instr* ExecAtomic(Subgroup& sg, const Instr* in) {
  const AtomicOp op = static_cast<AtomicOp>(in->aux);
  const uint64_t* ptr = sg.reg<uint64_t>(in->op[0]);
  bool stop = false;
  uint64_t m = sg.mask;
  while (m != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    m &= m - 1;
    const AccessKind kind = op == AtomicOp::kLoad ? AccessKind::kRead : AccessKind::kAtomic;
    uint8_t* p = AccessMemory(sg, in, lane, ptr[lane], sizeof(T), sizeof(T), kind, &stop);
    if (p == nullptr) {
      if (stop) return StopSubgroup(sg);
      continue;
    }
    const Allocation* a = sg.group->allocations->Find(PointerAllocation(ptr[lane]));
    T* target = reinterpret_cast<T*>(p);
    const T value = in->op[1] != UINT32_MAX ? sg.reg<T>(in->op[1])[lane] : T(0);
    T old;
    if (op == AtomicOp::kCompareExchange) {
      const T comparator = sg.reg<T>(in->op[2])[lane];
      old = comparator;
      if (a->shared) {
        __atomic_compare_exchange_n(target, &old, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
      } else {
        old = *target;
        if (old == comparator) *target = value;
      }
    } else if (op == AtomicOp::kLoad) {
      old = a->shared ? __atomic_load_n(target, __ATOMIC_SEQ_CST) : *target;
    } else if (a->shared) {
      old = __atomic_load_n(target, __ATOMIC_SEQ_CST);
      while (!__atomic_compare_exchange_n(target, &old, Combine(op, old, value), false,
                                          __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
      }
    } else {
      old = *target;
      *target = Combine(op, old, value);
    }
    if (in->result != 0 && op != AtomicOp::kStore) {
      if (op == AtomicOp::kFlagTestAndSet) {
        sg.regs[in->result + lane] = old != 0;
      } else {
        sg.reg<T>(in->result)[lane] = old;
      }
    }
  }
  return in + 1;
}

template <class T>
struct AtomicOf {
  static constexpr Handler value = ExecAtomic<T>;
};

}  // namespace

Handler AtomicHandler(uint32_t bytes) {
  return bytes == 8 ? AtomicOf<uint64_t>::value : bytes == 4 ? AtomicOf<uint32_t>::value : nullptr;
}

bool BindAtomic(Loader& loader, const ir::Instruction& inst, Instr& out) {
  using spv::Op;
  AtomicOp op;
  // Operand positions after the pointer, scope and semantics.
  uint32_t value_index = UINT32_MAX, comparator_index = UINT32_MAX;
  switch (inst.opcode()) {
    case Op::OpAtomicLoad:
      op = AtomicOp::kLoad;
      break;
    case Op::OpAtomicStore:
      op = AtomicOp::kStore;
      value_index = 3;
      break;
    case Op::OpAtomicExchange:
      op = AtomicOp::kExchange;
      value_index = 3;
      break;
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:
      op = AtomicOp::kCompareExchange;
      value_index = 4;
      comparator_index = 5;
      break;
    case Op::OpAtomicIIncrement:
      op = AtomicOp::kIIncrement;
      break;
    case Op::OpAtomicIDecrement:
      op = AtomicOp::kIDecrement;
      break;
    case Op::OpAtomicIAdd:
      op = AtomicOp::kIAdd;
      value_index = 3;
      break;
    case Op::OpAtomicISub:
      op = AtomicOp::kISub;
      value_index = 3;
      break;
    case Op::OpAtomicSMin:
      op = AtomicOp::kSMin;
      value_index = 3;
      break;
    case Op::OpAtomicUMin:
      op = AtomicOp::kUMin;
      value_index = 3;
      break;
    case Op::OpAtomicSMax:
      op = AtomicOp::kSMax;
      value_index = 3;
      break;
    case Op::OpAtomicUMax:
      op = AtomicOp::kUMax;
      value_index = 3;
      break;
    case Op::OpAtomicAnd:
      op = AtomicOp::kAnd;
      value_index = 3;
      break;
    case Op::OpAtomicOr:
      op = AtomicOp::kOr;
      value_index = 3;
      break;
    case Op::OpAtomicXor:
      op = AtomicOp::kXor;
      value_index = 3;
      break;
    case Op::OpAtomicFAddEXT:
      op = AtomicOp::kFAdd;
      value_index = 3;
      break;
    case Op::OpAtomicFlagTestAndSet:
      op = AtomicOp::kFlagTestAndSet;
      break;
    case Op::OpAtomicFlagClear:
      op = AtomicOp::kFlagClear;
      break;
    default:
      return false;
  }
  const uint32_t pointer = inst.word(0);
  const TypeInfo& pointee = loader.Type(loader.TypeOfValue(pointer).pointee);
  const uint32_t bytes = pointee.value.scalar.bytes;
  out.fn = bytes == 8 ? AtomicOf<uint64_t>::value : AtomicOf<uint32_t>::value;
  if (bytes != 4 && bytes != 8) return loader.Fail(inst, "atomics on this type are not supported");
  out.aux = static_cast<uint32_t>(op);
  out.op[0] = loader.Slot(pointer);
  // The stored/compared values follow pointer, scope and semantics (two semantics for
  // compare-exchange); OpAtomicStore has no result.
  out.op[1] = value_index < inst.num_operands() ? loader.Slot(inst.word(value_index)) : UINT32_MAX;
  if (comparator_index < inst.num_operands()) out.op[2] = loader.Slot(inst.word(comparator_index));
  if (op == AtomicOp::kFlagClear) {
    out.aux = static_cast<uint32_t>(AtomicOp::kStore);
    out.op[1] = loader.ImmediateSlot(std::vector<uint8_t>(4, 0));
  }
  if (op == AtomicOp::kFlagTestAndSet) {
    std::vector<uint8_t> one(4, 0);
    one[0] = 1;
    out.op[1] = loader.ImmediateSlot(one);
  }
  out.result = inst.has_result_id() ? loader.Slot(inst.result_id()) : 0;
  return true;
}

}  // namespace xmx::interp
