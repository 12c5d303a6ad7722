// OpCooperativeMatrixMulAddKHR on OpSubgroupMatrixMultiplyAccumulateINTEL, as IGC's builtins do
// it (COOPERATIVE-MATRIX.md A4): blocks of at most 8 rows x one subgroup of columns, the K blocks
// chained through the accumulator in Result's format; M below 8 is padded to the next native M
// (1, 2, 4, 8) with zero rows that are dropped afterwards.
#include "opt/lower_cooperative_matrix_lowering.hpp"
#include "opt/lower_cooperative_matrix_memory.hpp"

namespace xmx::opt::lower_coop {
namespace {

using device::ElementType;

// KHR Cooperative Matrix Operands bits.
constexpr uint32_t kASigned = 0x1, kBSigned = 0x2, kSaturating = 0x10;
constexpr uint32_t kSubgroupScope = 3;
// SPV_INTEL_subgroup_matrix_multiply_accumulate operand bits.
constexpr uint32_t kMadASigned = 0x1, kMadBSigned = 0x2, kMadCBF16 = 0x4, kMadResultBF16 = 0x8,
                   kMadAInt8 = 0x10, kMadBInt8 = 0x20, kMadATF32 = 0x100, kMadBTF32 = 0x200,
                   kMadAF16 = 0x400, kMadBF16 = 0x800, kMadABF16 = 0x1000, kMadBBF16 = 0x2000;

enum class Acc : uint8_t { kI32, kF32, kF16, kBF16 };

struct Operand {
  Numeric numeric = Numeric::kOther;
  bool is_signed = false;
};

Numeric ReadNumeric(const MatrixType& m, bool accumulator) {
  if (!m.is_float) {
    if (m.bits == 8 && !accumulator) return Numeric::kInt8;
    if (m.bits == 32 && accumulator) return Numeric::kInt32;
    if (m.bits == 16) return Numeric::kBF16;
    return Numeric::kOther;
  }
  if (m.bits == 16) return m.is_bfloat16_type ? Numeric::kBF16 : Numeric::kF16;
  if (m.bits == 32) return accumulator ? Numeric::kF32 : Numeric::kTF32;
  return Numeric::kOther;
}

std::optional<Acc> AccOf(Numeric n) {
  switch (n) {
    case Numeric::kInt32:
      return Acc::kI32;
    case Numeric::kF32:
      return Acc::kF32;
    case Numeric::kF16:
      return Acc::kF16;
    case Numeric::kBF16:
      return Acc::kBF16;
    default:
      return std::nullopt;
  }
}

ElementType AccElement(Acc a) {
  switch (a) {
    case Acc::kI32:
      return ElementType::kI32;
    case Acc::kF32:
      return ElementType::kF32;
    case Acc::kF16:
      return ElementType::kF16;
    case Acc::kBF16:
      return ElementType::kBF16;
  }
  return ElementType::kF32;
}

class MulAdd {
 public:
  MulAdd(Lowering& l, const ir::Instruction& inst) : l_(l), b_(l.b), inst_(inst) {}

  bool Run(uint32_t* result) {
    d_ = l_.MatrixOfType(inst_.result_type_id());
    a_ = l_.MatrixOfValue(inst_.word(0));
    bm_ = l_.MatrixOfValue(inst_.word(1));
    c_ = l_.MatrixOfValue(inst_.word(2));
    if (!d_ || !a_ || !bm_ || !c_) return l_.Fail("a multiply-add operand is not a matrix");
    const uint32_t operands = inst_.num_operands() > 3 ? inst_.word(3) : 0;
    if (operands & kSaturating) return l_.Fail("SaturatingAccumulationKHR has no native form");
    a_kind_ = ReadNumeric(*a_, false);
    const Numeric b_kind = ReadNumeric(*bm_, false);
    const auto c_acc = AccOf(ReadNumeric(*c_, true));
    const auto d_acc = AccOf(ReadNumeric(*d_, true));
    if (a_kind_ == Numeric::kOther || a_kind_ != b_kind || !c_acc || !d_acc) {
      return l_.Fail("the multiply-add's component types have no native matrix instruction");
    }
    c_acc_ = *c_acc;
    d_acc_ = *d_acc;
    m_ = a_->rows;
    n_ = bm_->columns;
    k_ = a_->columns;
    const uint32_t sg = l_.subgroup_size;
    native_k_ = a_kind_ == Numeric::kInt8 ? 32 : a_kind_ == Numeric::kTF32 ? 8 : 16;
    if (n_ % sg != 0 || k_ % native_k_ != 0) {
      return l_.Fail("N must be a multiple of the subgroup size and K of the native K");
    }
    if (!CheckCooperativeTable(operands)) return false;

    std::vector<ElementSource> a_elements = Elements(b_, a_->rep, inst_.word(0));
    std::vector<ElementSource> b_elements = Elements(b_, bm_->rep, inst_.word(1));
    std::vector<ElementSource> c_elements = Elements(b_, c_->rep, inst_.word(2));
    std::vector<ElementSource> d_elements(d_->mapping.length());
    std::vector<bool> assigned(d_->mapping.length(), false);
    for (uint32_t row0 = 0; row0 < m_; row0 += 8) {
      const uint32_t rows = std::min(8u, m_ - row0);
      uint32_t native_m = rows <= 1 ? 1 : rows <= 2 ? 2 : rows <= 4 ? 4 : 8;
      if (a_kind_ == Numeric::kTF32) native_m = std::max(native_m, 2u);
      std::string why;
      auto c_map = ElementMapping::Make(MatrixUse::kAccumulator, native_m, sg, 32, sg, &why);
      if (!c_map) return l_.Fail(why);
      for (uint32_t col0 = 0; col0 < n_; col0 += sg) {
        auto c_index = MapElements(c_->mapping, *c_map, row0, col0);
        if (!c_index) return l_.Fail("the accumulator's slice has no native block here");
        Acc acc = c_acc_;
        uint32_t value = GatherAcc(c_elements, *c_index, *c_, acc, native_m);
        for (uint32_t k0 = 0; k0 < k_; k0 += native_k_) {
          Acc step = acc == d_acc_ && NativeAccOk(acc) ? acc : Widest();
          value = Convert(value, acc, step, native_m);
          const uint32_t sum =
              Native(a_elements, b_elements, row0, col0, k0, native_m, step, value, step);
          if (sum == 0) return false;
          value = step == Acc::kF32 && (d_acc_ == Acc::kF16 || d_acc_ == Acc::kBF16)
                      ? RoundOnce(a_elements, b_elements, row0, col0, k0, native_m, value, sum)
                      : Convert(sum, step, d_acc_, native_m);
          if (value == 0) return false;
          acc = d_acc_;
        }
        // Into the Result's slice.
        const std::vector<ElementSource> parts =
            SplitAs(b_, value, AccScalar(d_acc_), native_m, d_->component_type, native_m);
        auto d_index = MapElements(d_->mapping, *c_map, row0, col0);
        if (!d_index) return l_.Fail("the result's slice has no native block here");
        for (uint32_t e = 0; e < native_m; ++e) {
          const int big = (*d_index)[e];
          if (big < 0) continue;
          d_elements[big] = parts[e];
          assigned[big] = true;
        }
      }
    }
    for (bool done : assigned) {
      if (!done) return l_.Fail("the native blocks do not cover the result's slice");
    }
    *result = Assemble(b_, d_->rep, d_elements);
    return true;
  }

 private:
  bool CheckCooperativeTable(uint32_t operands) {
    ElementType a = ElementType::kF32, bt = ElementType::kF32;
    switch (a_kind_) {
      case Numeric::kInt8:
        a = (operands & kASigned) ? ElementType::kI8 : ElementType::kU8;
        bt = (operands & kBSigned) ? ElementType::kI8 : ElementType::kU8;
        break;
      case Numeric::kF16:
        a = bt = ElementType::kF16;
        break;
      case Numeric::kBF16:
        a = bt = ElementType::kBF16;
        break;
      default:
        a = bt = ElementType::kTF32;
        break;
    }
    a_signed_ = operands & kASigned;
    b_signed_ = operands & kBSigned;
    device::CooperativeMatrixQuery query;
    query.types = {a, bt, AccElement(c_acc_), AccElement(d_acc_)};
    query.shape = {m_, n_, k_};
    query.subgroup_size = l_.subgroup_size;
    const device::CooperativeMatrixMatch match = device::MatchCooperativeMatrix(l_.device, query);
    if (match.status != device::MatchStatus::kMatched) {
      return l_.Fail(match.Message(l_.device).empty()
                         ? "the device's cooperative_matrix table has no row for this multiply-add"
                         : match.Message(l_.device));
    }
    return true;
  }

  // Accumulator formats the native instruction takes with these A and B.
  bool NativeAccOk(Acc acc) const {
    switch (a_kind_) {
      case Numeric::kInt8:
        return acc == Acc::kI32;
      case Numeric::kF16:
        return acc == Acc::kF32 || acc == Acc::kF16;
      case Numeric::kBF16:
        return acc == Acc::kF32 || acc == Acc::kBF16;
      default:
        return acc == Acc::kF32;
    }
  }
  Acc Widest() const { return a_kind_ == Numeric::kInt8 ? Acc::kI32 : Acc::kF32; }

  uint32_t AccScalar(Acc acc) {
    switch (acc) {
      case Acc::kI32:
        return b_.IntType(32);
      case Acc::kF32:
        return b_.FloatType(32);
      case Acc::kF16:
        return b_.FloatType(16);
      case Acc::kBF16:
        return b_.IntType(16);
    }
    return 0;
  }

  // The accumulator block as the native C operand (padding rows are zero).
  uint32_t GatherAcc(const std::vector<ElementSource>& elements, const std::vector<int>& index,
                     const MatrixType& m, Acc acc, uint32_t native_m) {
    std::vector<ElementSource> srcs;
    for (int big : index) {
      srcs.push_back(big < 0 ? ElementSource{b_.NullConstant(m.component_type), 0, 0}
                             : elements[big]);
    }
    return GatherAs(b_, m.component_type, srcs, AccScalar(acc), native_m);
  }

  uint32_t Splat(uint32_t scalar_type, uint32_t count, uint64_t value) {
    const uint32_t c = b_.UIntConstant(b_.TypeBits(scalar_type), value);
    if (count == 1) return c;
    ir::Instruction inst(spv::Op::OpConstantComposite, b_.VectorType(scalar_type, count),
                         l_.module.TakeNextId());
    for (uint32_t i = 0; i < count; ++i) inst.AddIdOperand(c);
    const uint32_t id = inst.result_id();
    b_.NoteValueType(id, inst.result_type_id());
    l_.module.globals().push_back(std::move(inst));
    return id;
  }

  // Converts a native accumulator value between formats: widening is exact; narrowing to fp16 is
  // OpFConvert (round to nearest even), to bf16 the same rounding written with integer
  // operations (NaNs stay NaNs, made quiet).
  uint32_t Convert(uint32_t value, Acc from, Acc to, uint32_t count) {
    if (from == to) return value;
    const uint32_t u32 = b_.ScalarOrVector(b_.IntType(32), count);
    const uint32_t f32 = b_.ScalarOrVector(b_.FloatType(32), count);
    const uint32_t target = b_.ScalarOrVector(AccScalar(to), count);
    if (to == Acc::kF32 && from == Acc::kF16) return b_.Op(spv::Op::OpFConvert, f32, {value});
    if (to == Acc::kF32 && from == Acc::kBF16) {
      const uint32_t wide = b_.Op(spv::Op::OpUConvert, u32, {value});
      const uint32_t shifted =
          b_.Op(spv::Op::OpShiftLeftLogical, u32, {wide, Splat(b_.IntType(32), count, 16)});
      return b_.Op(spv::Op::OpBitcast, f32, {shifted});
    }
    if (from == Acc::kF32 && to == Acc::kF16) return b_.Op(spv::Op::OpFConvert, target, {value});
    if (from == Acc::kF32 && to == Acc::kBF16) {
      const uint32_t u32s = b_.IntType(32);
      const uint32_t bits = b_.Op(spv::Op::OpBitcast, u32, {value});
      const uint32_t high =
          b_.Op(spv::Op::OpShiftRightLogical, u32, {bits, Splat(u32s, count, 16)});
      const uint32_t odd = b_.Op(spv::Op::OpBitwiseAnd, u32, {high, Splat(u32s, count, 1)});
      const uint32_t bias = b_.Op(spv::Op::OpIAdd, u32, {odd, Splat(u32s, count, 0x7FFF)});
      const uint32_t rounded =
          b_.Op(spv::Op::OpShiftRightLogical, u32,
                {b_.Op(spv::Op::OpIAdd, u32, {bits, bias}), Splat(u32s, count, 16)});
      const uint32_t quiet = b_.Op(spv::Op::OpBitwiseOr, u32, {high, Splat(u32s, count, 0x40)});
      const uint32_t is_nan =
          b_.Op(spv::Op::OpIsNan, b_.ScalarOrVector(b_.BoolType(), count), {value});
      const uint32_t chosen = b_.Op(spv::Op::OpSelect, u32, {is_nan, quiet, rounded});
      return b_.Op(spv::Op::OpUConvert, target, {chosen});
    }
    return value;  // not reached: the native rows need no other conversion
  }

  // Whether each component of a float vector (or scalar) lies exactly halfway between two
  // neighbours of the 16-bit Result format: its bits below the format's last place are 1000...0.
  // bf16 keeps fp32's exponent, so that is the low 16 bits; fp16 drops 13 bits of a normal
  // number, and one more per binade below its smallest normal, 2^-14 (an fp32 exponent field of
  // 113), counting the implicit bit; from 25 on no bit pattern is halfway.
  uint32_t Halfway(uint32_t value, uint32_t count) {
    const uint32_t u32s = b_.IntType(32);
    const uint32_t u32 = b_.ScalarOrVector(u32s, count);
    const uint32_t boolean = b_.ScalarOrVector(b_.BoolType(), count);
    auto k = [&](uint64_t v) { return Splat(u32s, count, v); };
    const uint32_t bits = b_.Op(spv::Op::OpBitcast, u32, {value});
    if (d_acc_ == Acc::kBF16) {
      return b_.Op(spv::Op::OpIEqual, boolean,
                   {b_.Op(spv::Op::OpBitwiseAnd, u32, {bits, k(0xFFFF)}), k(0x8000)});
    }
    const uint32_t exponent =
        b_.Op(spv::Op::OpBitwiseAnd, u32,
              {b_.Op(spv::Op::OpShiftRightLogical, u32, {bits, k(23)}), k(0xFF)});
    const uint32_t significand =
        b_.Op(spv::Op::OpBitwiseOr, u32,
              {b_.Op(spv::Op::OpBitwiseAnd, u32, {bits, k(0x7FFFFF)}), k(0x800000)});
    // Dropped bits: 13 from exponent field 113 up, 126 - field below it, at most 25.
    const uint32_t below = b_.Op(spv::Op::OpISub, u32, {k(126), exponent});
    const uint32_t capped =
        b_.Op(spv::Op::OpSelect, u32,
              {b_.Op(spv::Op::OpUGreaterThan, boolean, {below, k(25)}), k(25), below});
    const uint32_t dropped =
        b_.Op(spv::Op::OpSelect, u32,
              {b_.Op(spv::Op::OpULessThan, boolean, {exponent, k(113)}), capped, k(13)});
    const uint32_t half = b_.Op(spv::Op::OpShiftLeftLogical, u32,
                                {k(1), b_.Op(spv::Op::OpISub, u32, {dropped, k(1)})});
    const uint32_t mask =
        b_.Op(spv::Op::OpISub, u32, {b_.Op(spv::Op::OpShiftLeftLogical, u32, {half, k(1)}), k(1)});
    return b_.Op(spv::Op::OpIEqual, boolean,
                 {b_.Op(spv::Op::OpBitwiseAnd, u32, {significand, mask}), half});
  }

  // C (fp32, `c_value`) plus a native block rounded once to the 16-bit Result, as xmx-run's
  // exact model and one native instruction from C's format to Result's would do. The native
  // instruction rounds to fp32 (`sum`; the device tables have no row from fp32 C to a 16-bit
  // Result), and rounding that again gives the same bits except where `sum` lies exactly halfway
  // between two Result values: the exact sum may lie on either side (rounding to nearest is
  // monotonic and the halfway points are fp32 numbers). Where any invocation holds such a value,
  // the subgroup computes the block with the instruction from fp32 to the Result format, which
  // the pass then replaces by --emulate-xmx's exact emulation; elsewhere it converts `sum`.
  uint32_t RoundOnce(const std::vector<ElementSource>& a_elements,
                     const std::vector<ElementSource>& b_elements, uint32_t row0, uint32_t col0,
                     uint32_t k0, uint32_t native_m, uint32_t c_value, uint32_t sum) {
    const uint32_t boolean = b_.BoolType();
    const uint32_t rounded = Convert(sum, Acc::kF32, d_acc_, native_m);
    uint32_t halfway = Halfway(sum, native_m);
    if (native_m > 1) halfway = b_.Op(spv::Op::OpAny, boolean, {halfway});
    const uint32_t anywhere =
        b_.Op(spv::Op::OpGroupAny, boolean, {b_.UIntConstant(32, kSubgroupScope), halfway});
    bool failed = false;
    const uint32_t value = Choose(
        l_, anywhere, b_.ScalarOrVector(AccScalar(d_acc_), native_m),
        [&] {
          const uint32_t exact =
              Native(a_elements, b_elements, row0, col0, k0, native_m, Acc::kF32, c_value, d_acc_);
          failed = exact == 0;
          return exact;
        },
        [&] { return rounded; });
    return failed ? 0 : value;
  }

  // One native multiply-add: rows [row0, row0 + native_m), columns [col0, col0 + SG), K block
  // [k0, k0 + native K), C in `acc`'s format, the result in `result_acc`'s. A result format
  // other than C's has no row in the device tables: the instruction is recorded for the exact
  // emulation (RoundOnce).
  uint32_t Native(const std::vector<ElementSource>& a_elements,
                  const std::vector<ElementSource>& b_elements, uint32_t row0, uint32_t col0,
                  uint32_t k0, uint32_t native_m, Acc acc, uint32_t c_value, Acc result_acc) {
    const uint32_t sg = l_.subgroup_size;
    std::string why;
    auto a_map = ElementMapping::Make(MatrixUse::kA, native_m, native_k_, a_->bits, sg, &why);
    auto b_map = ElementMapping::Make(MatrixUse::kB, native_k_, sg, bm_->bits, sg, &why);
    if (!a_map || !b_map) return l_.Fail(why), 0;
    auto a_index = MapElements(a_->mapping, *a_map, row0, k0);
    auto b_index = MapElements(bm_->mapping, *b_map, k0, col0);
    if (!a_index || !b_index) return l_.Fail("an operand's slice has no native block here"), 0;
    std::vector<ElementSource> a_srcs, b_srcs;
    for (int big : *a_index) {
      a_srcs.push_back(big < 0 ? ElementSource{b_.NullConstant(a_->component_type), 0, 0}
                               : a_elements[big]);
    }
    for (int big : *b_index) b_srcs.push_back(b_elements[big]);
    const bool tf32 = a_kind_ == Numeric::kTF32;
    const uint32_t a_scalar = tf32 ? b_.FloatType(32) : b_.IntType(sg == 8 ? 32 : 16);
    const uint32_t a_count = a_map->length() * a_->bits / b_.TypeBits(a_scalar);
    const uint32_t b_scalar = tf32 ? b_.FloatType(32) : b_.IntType(32);
    const uint32_t a_value = GatherAs(b_, a_->component_type, a_srcs, a_scalar, a_count);
    const uint32_t b_value = GatherAs(b_, bm_->component_type, b_srcs, b_scalar, 8);
    uint32_t mask = 0;
    switch (a_kind_) {
      case Numeric::kInt8:
        mask =
            kMadAInt8 | kMadBInt8 | (a_signed_ ? kMadASigned : 0) | (b_signed_ ? kMadBSigned : 0);
        break;
      case Numeric::kF16:
        mask = kMadAF16 | kMadBF16;
        break;
      case Numeric::kBF16:
        mask = kMadABF16 | kMadBBF16;
        break;
      default:
        mask = kMadATF32 | kMadBTF32;
        break;
    }
    if (acc == Acc::kBF16) mask |= kMadCBF16;
    if (result_acc == Acc::kBF16) mask |= kMadResultBF16;
    if (result_acc != acc) {
      ir::Instruction mad(spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL,
                          b_.ScalarOrVector(AccScalar(result_acc), native_m), 0);
      mad.AddIdOperand(b_.UIntConstant(32, native_k_));
      for (uint32_t id : {a_value, b_value, c_value}) mad.AddIdOperand(id);
      mad.AddOperand(grammar::OperandKindId::kMatrixMultiplyAccumulateOperands, {mask});
      const uint32_t id = b_.Insert(std::move(mad));
      l_.exact_mads.insert(id);
      return id;
    }
    // The native row must be in the device's matrix_mad table.
    device::MatrixMadQuery query;
    query.subgroup_size = sg;
    query.k = native_k_;
    const ElementType acc_storage = acc == Acc::kBF16 ? ElementType::kI16 : AccElement(acc);
    query.result = query.c = {acc_storage, native_m};
    query.a = {tf32 ? ElementType::kF32 : (sg == 8 ? ElementType::kI32 : ElementType::kI16),
               a_count};
    query.b = {tf32 ? ElementType::kF32 : ElementType::kI32, 8};
    query.operands = mask;
    const device::MatrixMadMatch match = device::MatchMatrixMad(l_.device, query);
    if (match.status != device::MatchStatus::kMatched) {
      return l_.Fail("no native matrix instruction for this block: " + match.Message(l_.device)), 0;
    }
    ir::Instruction mad(spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL,
                        b_.ScalarOrVector(AccScalar(acc), native_m), 0);
    mad.AddIdOperand(b_.UIntConstant(32, native_k_));
    mad.AddIdOperand(a_value);
    mad.AddIdOperand(b_value);
    mad.AddIdOperand(c_value);
    mad.AddOperand(grammar::OperandKindId::kMatrixMultiplyAccumulateOperands, {mask});
    return b_.Insert(std::move(mad));
  }

  Lowering& l_;
  Builder& b_;
  const ir::Instruction& inst_;
  const MatrixType *a_ = nullptr, *bm_ = nullptr, *c_ = nullptr, *d_ = nullptr;
  Numeric a_kind_ = Numeric::kOther;
  Acc c_acc_ = Acc::kF32, d_acc_ = Acc::kF32;
  bool a_signed_ = false, b_signed_ = false;
  uint32_t m_ = 0, n_ = 0, k_ = 0, native_k_ = 0;
};

}  // namespace

bool LowerMulAdd(Lowering& l, const ir::Instruction& inst, uint32_t* result) {
  return MulAdd(l, inst).Run(result);
}

}  // namespace xmx::opt::lower_coop
