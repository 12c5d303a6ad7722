// Integer, float, bit, logical and relational instructions on scalars and vectors.
#include <bit>
#include <cmath>

#include "common/rule_ids.hpp"
#include "interp/arith/arith_ops.hpp"
#include "interp/load/loader.hpp"
#include "interp/run/exec_elementwise.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

using namespace arith_ops;  // the scalar functors (arith_ops.hpp)

template <class F>
struct IntBinaryOf {
  template <class T>
  struct Make {
    static Handler Get(uint32_t total) { return ElementBinaryFor<T, T, F>(total); }
  };
};
template <class F>
struct IntUnaryOf {
  template <class T>
  struct Make {
    static Handler Get(uint32_t total) { return ElementUnaryFor<T, T, F>(total); }
  };
};
template <class F>
struct IntCompareOf {
  template <class T>
  struct Make {
    static Handler Get(uint32_t total) { return ElementBinaryFor<uint8_t, T, F>(total); }
  };
};
template <class F>
struct FloatBinaryOf {
  template <class T>
  struct Make {
    static Handler Get(uint32_t total) { return ElementBinaryFor<T, T, FloatOp<F>>(total); }
  };
};
template <class F>
struct FloatCompareOf {
  template <class T>
  struct Make {
    static Handler Get(uint32_t total) { return ElementBinaryFor<uint8_t, T, Compare<F>>(total); }
  };
};
template <class F>
struct FloatTestOf {
  template <class T>
  struct Make {
    static Handler Get(uint32_t total) { return ElementUnaryFor<uint8_t, T, Test<F>>(total); }
  };
};

// Integer division: a zero divisor (and INT_MIN / -1) is undefined behaviour, reported; the
// result is then 0 (or the wrapped quotient).
enum class DivKind : uint8_t { kUDiv, kSDiv, kUMod, kSRem, kSMod };
template <class T, DivKind kKind>
const Instr* ExecDivide(Subgroup& sg, const Instr* in) {
  using S = Signed<T>;
  T* r = sg.reg<T>(in->result);
  const T* a = sg.reg<const T>(in->op[0]);
  const T* b = sg.reg<const T>(in->op[1]);
  const uint32_t n = in->count;
  uint64_t m = sg.mask;
  while (m != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    m &= m - 1;
    for (uint32_t i = lane * n; i < lane * n + n; ++i) {
      const bool is_signed = kKind != DivKind::kUDiv && kKind != DivKind::kUMod;
      if (b[i] == 0 ||
          (is_signed && S(b[i]) == S(-1) && S(a[i]) == std::numeric_limits<S>::min())) {
        r[i] = b[i] == 0 || kKind != DivKind::kSDiv ? T(0) : a[i];
        if (sg.group->checking()) {
          const std::string dividend =
              is_signed ? std::to_string(int64_t(S(a[i]))) : std::to_string(uint64_t(a[i]));
          const bool stop =
              b[i] == 0 ? ReportAt(sg, in, lane, rules::kArithDivisionByZero,
                                   "integer division of " + dividend + " by zero")
                        : ReportAt(sg, in, lane, rules::kArithDivisionOverflow,
                                   "signed division of " + dividend +
                                       " by -1 overflows (the quotient is not representable)");
          if (stop) return StopSubgroup(sg);
        }
        continue;
      }
      switch (kKind) {
        case DivKind::kUDiv:
          r[i] = T(a[i] / b[i]);
          break;
        case DivKind::kUMod:
          r[i] = T(a[i] % b[i]);
          break;
        case DivKind::kSDiv:
          r[i] = T(S(a[i]) / S(b[i]));
          break;
        case DivKind::kSRem:
          r[i] = T(S(a[i]) % S(b[i]));
          break;
        case DivKind::kSMod: {
          S q = S(S(a[i]) % S(b[i]));
          if (q != 0 && ((q < 0) != (S(b[i]) < 0))) q = S(q + S(b[i]));
          r[i] = T(q);
          break;
        }
      }
    }
  }
  return in + 1;
}
template <DivKind K>
struct DivideOf {
  template <class T>
  struct Make {
    static Handler Get(uint32_t) { return ExecDivide<T, K>; }
  };
};

// Shifts whose amount has another width than the base: per element, generic.
const Instr* ExecShiftMixed(Subgroup& sg, const Instr* in) {
  const uint32_t n = in->count, base_bytes = in->size, shift_bytes = in->aux >> 8;
  const uint32_t kind = in->aux & 0xFF;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    for (uint32_t c = 0; c < n; ++c) {
      const uint32_t i = lane * n + c;
      uint64_t a = 0, s = 0;
      std::memcpy(&a, sg.regs + in->op[0] + i * base_bytes, base_bytes);
      std::memcpy(&s, sg.regs + in->op[1] + i * shift_bytes, shift_bytes);
      const uint32_t bits = base_bytes * 8;
      s %= bits;
      uint64_t r;
      if (kind == 0) {
        r = a << s;
      } else if (kind == 1) {
        r = a >> s;
      } else {
        const int shift = 64 - static_cast<int>(bits);
        r = static_cast<uint64_t>((static_cast<int64_t>(a << shift) >> shift) >> s);
      }
      std::memcpy(sg.regs + in->result + i * base_bytes, &r, base_bytes);
    }
  });
  return in + 1;
}

// Shifts whose amount is a constant (a scalar OpConstant, the usual form: x >> 7): the amount,
// reduced modulo the width at load time as the element-wise Shl / Shr / Sar reduce it, is in
// in->aux, so every element shifts by one count, which vector units have (a per-element count
// they do not have before AVX2, and the element-wise form was a fifth of an integer loop).
enum class ShiftKind : uint8_t { kLeft, kRightLogical, kRightArithmetic };
template <class T, ShiftKind kKind>
inline T ShiftBy(T a, uint32_t amount) {
  if constexpr (kKind == ShiftKind::kLeft) {
    return T(arith_ops::Wide<T>(a) << amount);
  } else if constexpr (kKind == ShiftKind::kRightLogical) {
    return T(a >> amount);
  } else {
    return T(static_cast<arith_ops::Signed<T>>(a) >> amount);
  }
}
template <class T, ShiftKind kKind, uint32_t kTotal>
inline __attribute__((always_inline)) void ShiftAllBy(T* __restrict r, const T* __restrict a,
                                                      uint32_t amount) {
  for (uint32_t i = 0; i < kTotal; ++i) r[i] = ShiftBy<T, kKind>(a[i], amount);
}
// The active lanes only (not inlined into the whole-subgroup form, which stays a leaf).
template <class T, ShiftKind kKind>
__attribute__((noinline)) const Instr* ExecShiftByConstantLanes(Subgroup& sg, const Instr* in) {
  T* r = sg.reg<T>(in->result);
  const T* a = sg.reg<const T>(in->op[0]);
  const uint32_t amount = in->aux, n = in->count;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    for (uint32_t i = lane * n; i < lane * n + n; ++i) r[i] = ShiftBy<T, kKind>(a[i], amount);
  });
  return in + 1;
}
// kTotal: elements per slot when known at load time (8 to 64), else 0.
template <class T, ShiftKind kKind, uint32_t kTotal>
const Instr* ExecShiftByConstant(Subgroup& sg, const Instr* in) {
  if constexpr (kTotal != 0) {
    if (sg.full) {
      ShiftAllBy<T, kKind, kTotal>(sg.reg<T>(in->result), sg.reg<const T>(in->op[0]), in->aux);
      return in + 1;
    }
  }
  return ExecShiftByConstantLanes<T, kKind>(sg, in);
}
template <class T, ShiftKind kKind>
Handler ShiftByConstantFor(uint32_t total) {
  switch (total) {
    case 8:
      return ExecShiftByConstant<T, kKind, 8>;
    case 16:
      return ExecShiftByConstant<T, kKind, 16>;
    case 32:
      return ExecShiftByConstant<T, kKind, 32>;
    case 64:
      return ExecShiftByConstant<T, kKind, 64>;
    default:
      return ExecShiftByConstant<T, kKind, 0>;
  }
}
template <ShiftKind kKind>
Handler ShiftByConstantHandler(uint32_t bytes, uint32_t total) {
  switch (bytes) {
    case 1:
      return ShiftByConstantFor<uint8_t, kKind>(total);
    case 2:
      return ShiftByConstantFor<uint16_t, kKind>(total);
    case 4:
      return ShiftByConstantFor<uint32_t, kKind>(total);
    case 8:
      return ShiftByConstantFor<uint64_t, kKind>(total);
    default:
      return nullptr;
  }
}

// OpSelect on any value: the condition is per component, or one per lane for scalars and for
// a scalar condition choosing between composites.
const Instr* ExecSelect(Subgroup& sg, const Instr* in) {
  const uint8_t* cond = sg.regs + in->op[0];
  const uint32_t n = in->count, element = in->size / std::max<uint32_t>(in->count, 1);
  const bool per_component = in->aux != 0;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    uint8_t* r = sg.regs + in->result + lane * in->size;
    const uint8_t* a = sg.regs + in->op[1] + lane * in->size;
    const uint8_t* b = sg.regs + in->op[2] + lane * in->size;
    if (!per_component) {
      std::memcpy(r, cond[lane] ? a : b, in->size);
      return;
    }
    for (uint32_t c = 0; c < n; ++c) {
      std::memcpy(r + c * element, (cond[lane * n + c] ? a : b) + c * element, element);
    }
  });
  return in + 1;
}

template <bool kAll>
const Instr* ExecAnyAll(Subgroup& sg, const Instr* in) {
  const uint8_t* v = sg.regs + in->op[0];
  uint8_t* r = sg.regs + in->result;
  const uint32_t n = in->count;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    bool acc = kAll;
    for (uint32_t c = 0; c < n; ++c)
      acc = kAll ? (acc && v[lane * n + c]) : (acc || v[lane * n + c]);
    r[lane] = acc;
  });
  return in + 1;
}

// OpDot and OpVectorTimesScalar: products and sums rounded one at a time, in component order.
template <class T>
const Instr* ExecDot(Subgroup& sg, const Instr* in) {
  using A = Arith<T>;
  const T* a = sg.reg<const T>(in->op[0]);
  const T* b = sg.reg<const T>(in->op[1]);
  T* r = sg.reg<T>(in->result);
  const uint32_t n = in->count;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    typename A::Compute acc = A::In(a[lane * n]) * A::In(b[lane * n]);
    if constexpr (std::is_same_v<T, Half>) acc = A::In(A::Out(acc));
    for (uint32_t c = 1; c < n; ++c) {
      typename A::Compute p = A::In(a[lane * n + c]) * A::In(b[lane * n + c]);
      if constexpr (std::is_same_v<T, Half>) p = A::In(A::Out(p));
      acc = acc + p;
      if constexpr (std::is_same_v<T, Half>) acc = A::In(A::Out(acc));
    }
    r[lane] = A::Out(acc);
  });
  return in + 1;
}
template <class T>
struct DotOf {
  static Handler Get(uint32_t) { return ExecDot<T>; }
};

template <class T>
const Instr* ExecVectorTimesScalar(Subgroup& sg, const Instr* in) {
  using A = Arith<T>;
  const T* v = sg.reg<const T>(in->op[0]);
  const T* s = sg.reg<const T>(in->op[1]);
  T* r = sg.reg<T>(in->result);
  const uint32_t n = in->count;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    for (uint32_t c = 0; c < n; ++c)
      r[lane * n + c] = A::Out(A::In(v[lane * n + c]) * A::In(s[lane]));
  });
  return in + 1;
}
template <class T>
struct VectorTimesScalarOf {
  static Handler Get(uint32_t) { return ExecVectorTimesScalar<T>; }
};

}  // namespace

bool BindArith(Loader& loader, const ir::Instruction& inst, Instr& out) {
  using spv::Op;
  const Op op = inst.opcode();
  Handler fn = nullptr;
  // The element type the instruction works on: its first operand's.
  auto operand_type = [&]() -> const TypeInfo& { return loader.TypeOfValue(inst.word(0)); };
  // Elements per slot: the operand's components times the subgroup size.
  const uint32_t total =
      inst.num_operands() > 0
          ? loader.TypeOfValue(inst.word(0)).value.components * loader.subgroup_size()
          : 0;
  switch (op) {
    case Op::OpIAdd:
      fn = ByIntWidth<IntBinaryOf<IAdd>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpISub:
      fn = ByIntWidth<IntBinaryOf<ISub>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpIMul:
      fn = ByIntWidth<IntBinaryOf<IMul>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpBitwiseAnd:
      fn = ByIntWidth<IntBinaryOf<BitAnd>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpBitwiseOr:
      fn = ByIntWidth<IntBinaryOf<BitOr>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpBitwiseXor:
      fn = ByIntWidth<IntBinaryOf<BitXor>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpUDiv:
      fn = ByIntWidth<DivideOf<DivKind::kUDiv>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpSDiv:
      fn = ByIntWidth<DivideOf<DivKind::kSDiv>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpUMod:
      fn = ByIntWidth<DivideOf<DivKind::kUMod>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpSRem:
      fn = ByIntWidth<DivideOf<DivKind::kSRem>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpSMod:
      fn = ByIntWidth<DivideOf<DivKind::kSMod>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpShiftLeftLogical:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic: {
      const uint32_t base = operand_type().value.scalar.bytes;
      const uint32_t shift = loader.TypeOfValue(inst.word(1)).value.scalar.bytes;
      const uint32_t kind = op == Op::OpShiftLeftLogical    ? 0
                            : op == Op::OpShiftRightLogical ? 1
                                                            : 2;
      const std::optional<uint64_t> constant_amount =
          operand_type().value.components == 1 ? loader.types().GetConstantUInt(inst.word(1))
                                               : std::nullopt;
      if (base != shift) {
        fn = ExecShiftMixed;
        out.size = base;
        out.aux = kind | (shift << 8);
      } else if (constant_amount && base <= 8 && base != 0) {
        // The amount read as the base's width, modulo its bits (as arith_ops::Shl etc.).
        const uint64_t bits = uint64_t{base} * 8;
        const uint64_t width_mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
        out.aux = static_cast<uint32_t>((*constant_amount & width_mask) % bits);
        fn = kind == 0   ? ShiftByConstantHandler<ShiftKind::kLeft>(base, total)
             : kind == 1 ? ShiftByConstantHandler<ShiftKind::kRightLogical>(base, total)
                         : ShiftByConstantHandler<ShiftKind::kRightArithmetic>(base, total);
      } else {
        fn = kind == 0   ? ByIntWidth<IntBinaryOf<Shl>::Make>(base, total)
             : kind == 1 ? ByIntWidth<IntBinaryOf<Shr>::Make>(base, total)
                         : ByIntWidth<IntBinaryOf<Sar>::Make>(base, total);
      }
      break;
    }
    case Op::OpSNegate:
      fn = ByIntWidth<IntUnaryOf<SNegate>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpNot:
      fn = ByIntWidth<IntUnaryOf<Not>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpBitCount:
      fn = ByIntWidth<IntUnaryOf<BitCount>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpBitReverse:
      fn = ByIntWidth<IntUnaryOf<BitReverse>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpIEqual:
      fn = ByIntWidth<IntCompareOf<Eq>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpINotEqual:
      fn = ByIntWidth<IntCompareOf<Ne>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpULessThan:
      fn = ByIntWidth<IntCompareOf<ULt>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpULessThanEqual:
      fn = ByIntWidth<IntCompareOf<ULe>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpUGreaterThan:
      fn = ByIntWidth<IntCompareOf<UGt>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpUGreaterThanEqual:
      fn = ByIntWidth<IntCompareOf<UGe>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpSLessThan:
      fn = ByIntWidth<IntCompareOf<SLt>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpSLessThanEqual:
      fn = ByIntWidth<IntCompareOf<SLe>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpSGreaterThan:
      fn = ByIntWidth<IntCompareOf<SGt>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpSGreaterThanEqual:
      fn = ByIntWidth<IntCompareOf<SGe>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFAdd:
      fn = ByFloatWidth<FloatBinaryOf<FAddOp>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFSub:
      fn = ByFloatWidth<FloatBinaryOf<FSubOp>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFMul:
      fn = ByFloatWidth<FloatBinaryOf<FMulOp>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFDiv:
      fn = ByFloatWidth<FloatBinaryOf<FDivOp>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFRem:
      fn = ByFloatWidth<FloatBinaryOf<FRemOp>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFMod:
      fn = ByFloatWidth<FloatBinaryOf<FModOp>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFNegate:
      fn = ByIntWidth<IntUnaryOf<FlipSign>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFOrdEqual:
      fn = ByFloatWidth<FloatCompareOf<FOrdEq>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFUnordEqual:
      fn = ByFloatWidth<FloatCompareOf<FUnordEq>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFOrdNotEqual:
      fn = ByFloatWidth<FloatCompareOf<FOrdNe>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFUnordNotEqual:
      fn = ByFloatWidth<FloatCompareOf<FUnordNe>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFOrdLessThan:
      fn = ByFloatWidth<FloatCompareOf<FOrdLt>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFUnordLessThan:
      fn = ByFloatWidth<FloatCompareOf<FUnordLt>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFOrdLessThanEqual:
      fn = ByFloatWidth<FloatCompareOf<FOrdLe>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFUnordLessThanEqual:
      fn = ByFloatWidth<FloatCompareOf<FUnordLe>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFOrdGreaterThan:
      fn = ByFloatWidth<FloatCompareOf<FOrdGt>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFUnordGreaterThan:
      fn = ByFloatWidth<FloatCompareOf<FUnordGt>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFOrdGreaterThanEqual:
      fn = ByFloatWidth<FloatCompareOf<FOrdGe>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpFUnordGreaterThanEqual:
      fn = ByFloatWidth<FloatCompareOf<FUnordGe>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpOrdered:
      fn = ByFloatWidth<FloatCompareOf<Ordered>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpUnordered:
      fn =
          ByFloatWidth<FloatCompareOf<UnorderedOp>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpLessOrGreater:
      fn = ByFloatWidth<FloatCompareOf<LessOrGreater>::Make>(operand_type().value.scalar.bytes,
                                                             total);
      break;
    case Op::OpIsNan:
      fn = ByFloatWidth<FloatTestOf<IsNan>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpIsInf:
      fn = ByFloatWidth<FloatTestOf<IsInf>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpIsFinite:
      fn = ByFloatWidth<FloatTestOf<IsFinite>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpIsNormal:
      fn = ByFloatWidth<FloatTestOf<IsNormal>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpSignBitSet:
      fn = ByFloatWidth<FloatTestOf<SignBit>::Make>(operand_type().value.scalar.bytes, total);
      break;
    case Op::OpLogicalAnd:
      fn = ElementBinary<uint8_t, uint8_t, LogicalAnd>;
      break;
    case Op::OpLogicalOr:
      fn = ElementBinary<uint8_t, uint8_t, LogicalOr>;
      break;
    case Op::OpLogicalEqual:
      fn = ElementBinary<uint8_t, uint8_t, LogicalEq>;
      break;
    case Op::OpLogicalNotEqual:
      fn = ElementBinary<uint8_t, uint8_t, LogicalNe>;
      break;
    case Op::OpLogicalNot:
      fn = ElementUnary<uint8_t, uint8_t, LogicalNot>;
      break;
    case Op::OpSelect: {
      const TypeInfo& result = loader.Type(inst.result_type_id());
      const TypeInfo& cond = loader.TypeOfValue(inst.word(0));
      out.fn = ExecSelect;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.op[1] = loader.Slot(inst.word(1));
      out.op[2] = loader.Slot(inst.word(2));
      out.size = std::max<uint32_t>(result.lane_bytes, 1);
      out.count = cond.kind == ir::TypeKind::kVector ? cond.value.components : 1;
      out.aux = cond.kind == ir::TypeKind::kVector;
      return true;
    }
    case Op::OpAny:
    case Op::OpAll:
      out.fn = op == Op::OpAll ? ExecAnyAll<true> : ExecAnyAll<false>;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.count = operand_type().value.components;
      return true;
    case Op::OpDot:
      fn = ByFloatWidth<DotOf>(operand_type().value.scalar.bytes, total);
      out.count = operand_type().value.components;
      break;
    case Op::OpVectorTimesScalar:
    case Op::OpMatrixTimesScalar:  // of a cooperative matrix (load_checks.cpp): its slice
      fn = ByFloatWidth<VectorTimesScalarOf>(operand_type().value.scalar.bytes, total);
      out.count = operand_type().value.components;
      break;
    default:
      return false;
  }
  if (fn == nullptr) {
    return loader.Fail(inst, "unsupported operand type for this instruction");
  }
  out.fn = fn;
  out.result = loader.Slot(inst.result_id());
  for (size_t i = 0; i < inst.num_operands() && i < 4; ++i) out.op[i] = loader.Slot(inst.word(i));
  if (out.count == 0) out.count = operand_type().value.components;
  return true;
}

}  // namespace xmx::interp
