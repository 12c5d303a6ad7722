// The body of a matrix-instruction emulation function (emulate_xmx_matrix.hpp): for each row r of
// the invocation's column, C[r] plus the K products of row r of A and the column of B.
//
// Integer data: 32-bit products and sums, which wrap exactly as the low 32 bits of the exact sum
// do (DECISIONS 2). Float data (DECISIONS 3, xmx-run's exact model): each element is taken apart
// into sign, integer significand and exponent; a product's significand (at most 22 bits for fp16)
// and exponent are exact; C and every product are added into a fixed-point accumulator of
// kDigits 32-bit digits held in 64-bit integers (carry-save: a term adds a signed value below
// 2^32 to two digits, so the digits cannot overflow before the end), whose lowest bit weighs
// 2^-kLowest; the carries are resolved once, and the magnitude is rounded once to nearest even at
// the Result format's precision, subnormals included. Every term of the formats emulated lies
// between 2^-266 (a product of two bf16 subnormals) and 2^257.
#include <cstdint>

#include "opt/emulate_xmx.hpp"
#include "opt/emulate_xmx_matrix.hpp"

namespace xmx::opt::emulate_detail {
namespace {

using spv::Op;

constexpr uint32_t kDigits = 20;
constexpr int32_t kLowest = 288;  // the accumulator's lowest bit is 2^-288

struct Types {
  uint32_t boolean, i16, i32, i64;
  uint32_t ptr_i16, ptr_i32, ptr_i64;
};

FloatFormat FormatOf(MatrixElement e) {
  switch (e) {
    case MatrixElement::kBF16:
      return kBFloat16;
    case MatrixElement::kTF32:
      return kTensorFloat32;
    case MatrixElement::kF8E4M3:
      return kFloat8E4M3;
    case MatrixElement::kF8E5M2:
      return kFloat8E5M2;
    case MatrixElement::kF4E2M1:
      return kFloat4E2M1;
    default:
      return kFloat16;
  }
}
FloatFormat FormatOf(MatrixAccumulator a) {
  return a == MatrixAccumulator::kFloat32   ? kFloat32
         : a == MatrixAccumulator::kFloat16 ? kFloat16
                                            : kBFloat16;
}

// A float value taken apart: |value| = sig * 2^exp (sig an i64, exp an i32), and what it is.
struct Parts {
  uint32_t sig, exp, negative, nan, inf, zero, special;  // the last five are booleans
};

class BodyWriter {
 public:
  BodyWriter(CodeBuilder& code, const MatrixMadPlan& plan) : code_(code), plan_(plan) {
    ModuleBuilder& b = code.module();
    t_.boolean = b.BoolType();
    t_.i16 = b.IntType(16);
    t_.i32 = b.IntType(32);
    t_.i64 = b.IntType(64);
    t_.ptr_i16 = b.PointerType(spv::StorageClass::Function, t_.i16);
    t_.ptr_i32 = b.PointerType(spv::StorageClass::Function, t_.i32);
    t_.ptr_i64 = b.PointerType(spv::StorageClass::Function, t_.i64);
  }

  void Write(const std::vector<uint32_t>& params) {
    a_words_ = code_.Op(Op::OpBitcast, t_.ptr_i32, {params[0]});
    b_words_ = code_.Op(Op::OpBitcast, t_.ptr_i32, {params[1]});
    c_bits_ = AccumulatorBits(plan_.c);
    result_bits_ = AccumulatorBits(plan_.result);
    c_values_ = code_.Op(Op::OpBitcast, c_bits_ == 16 ? t_.ptr_i16 : t_.ptr_i32, {params[2]});
    results_ = code_.Op(Op::OpBitcast, result_bits_ == 16 ? t_.ptr_i16 : t_.ptr_i32, {params[3]});
    const bool integer = plan_.c == MatrixAccumulator::kInt32;
    if (!integer) {
      digits_ = code_.Variable(code_.module().ArrayType(t_.i64, kDigits));
      for (uint32_t* flag : {&nan_, &positive_inf_, &negative_inf_, &all_negative_zero_}) {
        *flag = code_.Variable(t_.i32);
      }
    }
    if (plan_.paired) {
      const uint32_t lane = code_.Load(t_.i32, plan_.lane_id_variable);
      half_ = Op(Op::OpUDiv, t_.i32, {lane, I32(16)});
      column_ = Op(Op::OpUMod, t_.i32, {lane, I32(16)});
    }
    code_.For(code_.I32(0), code_.I32(plan_.rows_per_invocation), [&](uint32_t row) {
      if (integer) {
        IntegerRow(row);
      } else {
        FloatRow(row);
      }
    });
    code_.Return();
  }

 private:
  static uint32_t AccumulatorBits(MatrixAccumulator a) {
    return a == MatrixAccumulator::kInt32 || a == MatrixAccumulator::kFloat32 ? 32 : 16;
  }

  uint32_t Op(Op opcode, uint32_t type, std::initializer_list<uint32_t> operands) {
    return code_.Op(opcode, type, operands);
  }
  uint32_t I32(uint64_t v) { return code_.I32(v); }
  uint32_t I64(uint64_t v) { return code_.I64(v); }
  uint32_t Bool(uint32_t type, uint32_t v) {  // 0 / 1 of `type` from a boolean
    return code_.Select(type, v, code_.Int(type == t_.i64 ? 64 : 32, 1),
                        code_.Int(type == t_.i64 ? 64 : 32, 0));
  }
  uint32_t And(uint32_t a, uint32_t b) { return Op(Op::OpLogicalAnd, t_.boolean, {a, b}); }
  uint32_t Or(uint32_t a, uint32_t b) { return Op(Op::OpLogicalOr, t_.boolean, {a, b}); }
  uint32_t Not(uint32_t a) { return Op(Op::OpLogicalNot, t_.boolean, {a}); }
  uint32_t NonZero(uint32_t type, uint32_t v) {
    return Op(Op::OpINotEqual, t_.boolean, {v, code_.Int(type == t_.i64 ? 64 : 32, 0)});
  }

  // Bits [shift, shift + bits) of the 32-bit `word` (shift an i32 value), zero-extended.
  uint32_t Field(uint32_t word, uint32_t shift, uint32_t bits) {
    const uint32_t shifted = Op(Op::OpShiftRightLogical, t_.i32, {word, shift});
    return bits == 32 ? shifted
                      : Op(Op::OpBitwiseAnd, t_.i32, {shifted, I32((uint64_t{1} << bits) - 1)});
  }
  uint32_t SignExtend(uint32_t value, uint32_t bits) {
    const uint32_t up = I32(32 - bits);
    return Op(Op::OpShiftRightArithmetic, t_.i32,
              {Op(Op::OpShiftLeftLogical, t_.i32, {value, up}), up});
  }

  // The raw bits of A[row][k]: field k mod c of component row / g of invocation
  // (row mod g) x (K / c) + k / c (c elements per component, g row phases).
  uint32_t ElementA(uint32_t row, uint32_t k) {
    const uint32_t bits = MatrixElementBits(plan_.a);
    const uint32_t per_component = plan_.a_component_bits / bits;
    const uint32_t g = plan_.a_phases;
    // Paired: row `row` of this half, from the invocations of the same half.
    const uint32_t first_lane =
        plan_.paired ? Op(Op::OpIMul, t_.i32, {half_, I32(16)})
                     : Op(Op::OpIMul, t_.i32,
                          {Op(Op::OpUMod, t_.i32, {row, I32(g)}), I32(plan_.k / per_component)});
    const uint32_t lane =
        Op(Op::OpIAdd, t_.i32, {first_lane, Op(Op::OpUDiv, t_.i32, {k, I32(per_component)})});
    const uint32_t field = Op(Op::OpUMod, t_.i32, {k, I32(per_component)});
    const uint32_t index = Op(Op::OpIAdd, t_.i32,
                              {Op(Op::OpIMul, t_.i32, {lane, I32(plan_.a_components)}),
                               Op(Op::OpUDiv, t_.i32, {row, I32(g)})});
    const uint32_t word = code_.Load(t_.i32, code_.PtrAdd(t_.ptr_i32, a_words_, index));
    return Field(word, Op(Op::OpIMul, t_.i32, {field, I32(bits)}), bits);
  }
  // The raw bits of B[k][n] for this invocation n: packed rows, the lower row in the lower bits.
  uint32_t ElementB(uint32_t k) {
    const uint32_t bits = MatrixElementBits(plan_.b);
    const uint32_t per_word = 32 / bits;
    const uint32_t packed_row = Op(Op::OpUDiv, t_.i32, {k, I32(per_word)});
    uint32_t index = packed_row;
    if (plan_.paired) {  // packed row w: invocation (w mod 2) x 16 + n, component w / 2
      const uint32_t lane =
          Op(Op::OpIAdd, t_.i32,
             {Op(Op::OpIMul, t_.i32, {Op(Op::OpUMod, t_.i32, {packed_row, I32(2)}), I32(16)}),
              column_});
      index = Op(Op::OpIAdd, t_.i32,
                 {Op(Op::OpIMul, t_.i32, {lane, I32(plan_.b_components)}),
                  Op(Op::OpUDiv, t_.i32, {packed_row, I32(2)})});
    }
    const uint32_t word = code_.Load(t_.i32, code_.PtrAdd(t_.ptr_i32, b_words_, index));
    return Field(word,
                 Op(Op::OpIMul, t_.i32, {Op(Op::OpUMod, t_.i32, {k, I32(per_word)}), I32(bits)}),
                 bits);
  }
  uint32_t IntegerValue(uint32_t raw, MatrixElement e) {
    const bool is_signed = e == MatrixElement::kS8 || e == MatrixElement::kS4;
    return is_signed ? SignExtend(raw, MatrixElementBits(e)) : raw;
  }
  // C[row] as a 32-bit value (16-bit formats zero-extended).
  uint32_t LoadC(uint32_t row) {
    const uint32_t pointer = code_.PtrAdd(c_bits_ == 16 ? t_.ptr_i16 : t_.ptr_i32, c_values_, row);
    const uint32_t value = code_.Load(c_bits_ == 16 ? t_.i16 : t_.i32, pointer);
    return c_bits_ == 16 ? Op(Op::OpUConvert, t_.i32, {value}) : value;
  }
  void StoreResult(uint32_t row, uint32_t value64) {
    const uint32_t type = result_bits_ == 16 ? t_.i16 : t_.i32;
    code_.Store(code_.PtrAdd(result_bits_ == 16 ? t_.ptr_i16 : t_.ptr_i32, results_, row),
                Op(Op::OpUConvert, type, {value64}));
  }

  void IntegerRow(uint32_t row) {
    const uint32_t sum = code_.Variable(t_.i32);
    code_.Store(sum, LoadC(row));
    code_.For(I32(0), I32(plan_.k), [&](uint32_t k) {
      const uint32_t product =
          Op(Op::OpIMul, t_.i32,
             {IntegerValue(ElementA(row, k), plan_.a), IntegerValue(ElementB(k), plan_.b)});
      code_.Store(sum, Op(Op::OpIAdd, t_.i32, {code_.Load(t_.i32, sum), product}));
    });
    StoreResult(row, Op(Op::OpUConvert, t_.i64, {code_.Load(t_.i32, sum)}));
  }

  Parts Decode(uint32_t raw, const FloatFormat& f) {
    Parts p;
    if (f.ignored_low_bits != 0) {
      raw = Op(Op::OpShiftRightLogical, t_.i32, {raw, I32(f.ignored_low_bits)});
    }
    const uint32_t exponent_mask = (1u << f.exponent_bits) - 1;
    const uint32_t exponent = Field(raw, I32(f.mantissa_bits), f.exponent_bits);
    const uint32_t mantissa =
        Op(Op::OpBitwiseAnd, t_.i32, {raw, I32((uint64_t{1} << f.mantissa_bits) - 1)});
    p.negative = NonZero(t_.i32, Field(raw, I32(f.exponent_bits + f.mantissa_bits), 1));
    if (f.has_infinity) {
      p.special = Op(Op::OpIEqual, t_.boolean, {exponent, I32(exponent_mask)});
      const uint32_t mantissa_zero = Op(Op::OpIEqual, t_.boolean, {mantissa, I32(0)});
      p.nan = And(p.special, Not(mantissa_zero));
      p.inf = And(p.special, mantissa_zero);
    } else {  // the all-ones exponent is finite; one magnitude (if any) is the NaN
      const uint32_t magnitude =
          Op(Op::OpBitwiseAnd, t_.i32,
             {raw, I32((uint64_t{1} << (f.exponent_bits + f.mantissa_bits)) - 1)});
      p.special = f.nan_magnitude == 0
                      ? code_.module().BoolConstant(false)
                      : Op(Op::OpIEqual, t_.boolean, {magnitude, I32(f.nan_magnitude)});
      p.nan = p.special;
      p.inf = code_.module().BoolConstant(false);
    }
    const uint32_t normal = NonZero(t_.i32, exponent);
    const uint32_t sig32 = code_.Select(
        t_.i32, normal,
        Op(Op::OpBitwiseOr, t_.i32, {mantissa, I32(uint64_t{1} << f.mantissa_bits)}), mantissa);
    p.zero = And(Not(p.special), Op(Op::OpIEqual, t_.boolean, {sig32, I32(0)}));
    p.sig = Op(Op::OpUConvert, t_.i64, {sig32});
    p.exp = Op(Op::OpISub, t_.i32,
               {code_.Select(t_.i32, normal, exponent, I32(1)),
                I32(static_cast<uint32_t>(f.bias + static_cast<int32_t>(f.mantissa_bits)))});
    return p;
  }

  uint32_t DigitPointer(uint32_t index) {
    return Op(Op::OpInBoundsAccessChain, t_.ptr_i64, {digits_, index});
  }
  void AddToDigit(uint32_t index, uint32_t value) {
    const uint32_t pointer = DigitPointer(index);
    code_.Store(pointer, Op(Op::OpIAdd, t_.i64, {code_.Load(t_.i64, pointer), value}));
  }
  void SetFlag(uint32_t flag, uint32_t condition) {  // flag |= condition
    code_.Store(flag,
                Op(Op::OpBitwiseOr, t_.i32, {code_.Load(t_.i32, flag), Bool(t_.i32, condition)}));
  }

  // Adds one term (special terms add nothing: the flags decide the result).
  void AddTerm(const Parts& p) {
    const uint32_t sig = code_.Select(t_.i64, p.special, I64(0), p.sig);
    const uint32_t position = Op(Op::OpIAdd, t_.i32, {p.exp, I32(kLowest)});
    const uint32_t digit = Op(Op::OpShiftRightArithmetic, t_.i32, {position, I32(5)});
    const uint32_t shift =
        Op(Op::OpUConvert, t_.i64, {Op(Op::OpBitwiseAnd, t_.i32, {position, I32(31)})});
    const uint32_t placed = Op(Op::OpShiftLeftLogical, t_.i64, {sig, shift});
    uint32_t low = Op(Op::OpBitwiseAnd, t_.i64, {placed, I64(0xFFFFFFFFu)});
    uint32_t high = Op(Op::OpShiftRightLogical, t_.i64, {placed, I64(32)});
    low = code_.Select(t_.i64, p.negative, Op(Op::OpSNegate, t_.i64, {low}), low);
    high = code_.Select(t_.i64, p.negative, Op(Op::OpSNegate, t_.i64, {high}), high);
    AddToDigit(digit, low);
    AddToDigit(Op(Op::OpIAdd, t_.i32, {digit, I32(1)}), high);
    SetFlag(nan_, p.nan);
    SetFlag(positive_inf_, And(p.inf, Not(p.negative)));
    SetFlag(negative_inf_, And(p.inf, p.negative));
    // Still only negative zeros?
    code_.Store(all_negative_zero_, Op(Op::OpBitwiseAnd, t_.i32,
                                       {code_.Load(t_.i32, all_negative_zero_),
                                        Bool(t_.i32, And(p.zero, p.negative))}));
  }

  void FloatRow(uint32_t row) {
    code_.For(I32(0), I32(kDigits), [&](uint32_t d) { code_.Store(DigitPointer(d), I64(0)); });
    for (uint32_t flag : {nan_, positive_inf_, negative_inf_}) code_.Store(flag, I32(0));
    code_.Store(all_negative_zero_, I32(1));
    AddTerm(Decode(LoadC(row), FormatOf(plan_.c)));
    const FloatFormat a_format = FormatOf(plan_.a), b_format = FormatOf(plan_.b);
    code_.For(I32(0), I32(plan_.k), [&](uint32_t k) {
      const Parts a = Decode(ElementA(row, k), a_format);
      const Parts b = Decode(ElementB(k), b_format);
      Parts product;
      product.sig = Op(Op::OpIMul, t_.i64, {a.sig, b.sig});
      product.exp = Op(Op::OpIAdd, t_.i32, {a.exp, b.exp});
      product.negative = Op(Op::OpLogicalNotEqual, t_.boolean, {a.negative, b.negative});
      // IEEE on exact values: NaN in, or infinity times zero, gives NaN.
      product.nan = Or(Or(a.nan, b.nan), Or(And(a.inf, b.zero), And(b.inf, a.zero)));
      product.inf = And(Not(product.nan), Or(a.inf, b.inf));
      product.special = Or(a.special, b.special);
      product.zero = Or(a.zero, b.zero);
      AddTerm(product);
    });
    StoreResult(row, Round(FormatOf(plan_.result)));
  }

  // The accumulated sum rounded to nearest even in format `f`, as its bit pattern (an i64), the
  // special cases included.
  uint32_t Round(const FloatFormat& f) {
    // Resolve the carries: digits become 0 .. 2^32 - 1, the final carry gives the sign.
    const uint32_t carry = code_.Variable(t_.i64);
    code_.Store(carry, I64(0));
    code_.For(I32(0), I32(kDigits), [&](uint32_t d) {
      const uint32_t pointer = DigitPointer(d);
      const uint32_t v =
          Op(Op::OpIAdd, t_.i64, {code_.Load(t_.i64, pointer), code_.Load(t_.i64, carry)});
      const uint32_t digit = Op(Op::OpBitwiseAnd, t_.i64, {v, I64(0xFFFFFFFFu)});
      code_.Store(pointer, digit);
      code_.Store(carry, Op(Op::OpShiftRightArithmetic, t_.i64,
                            {Op(Op::OpISub, t_.i64, {v, digit}), I64(32)}));
    });
    const uint32_t negative = Op(Op::OpSLessThan, t_.boolean, {code_.Load(t_.i64, carry), I64(0)});
    code_.If(negative, [&]() {  // two's complement: the magnitude
      const uint32_t add = code_.Variable(t_.i64);
      code_.Store(add, I64(1));
      code_.For(I32(0), I32(kDigits), [&](uint32_t d) {
        const uint32_t pointer = DigitPointer(d);
        const uint32_t v =
            Op(Op::OpIAdd, t_.i64,
               {Op(Op::OpBitwiseXor, t_.i64, {code_.Load(t_.i64, pointer), I64(0xFFFFFFFFu)}),
                code_.Load(t_.i64, add)});
        code_.Store(pointer, Op(Op::OpBitwiseAnd, t_.i64, {v, I64(0xFFFFFFFFu)}));
        code_.Store(add, Op(Op::OpShiftRightLogical, t_.i64, {v, I64(32)}));
      });
    });
    // The highest non-zero digit (-1: the sum is zero).
    const uint32_t top = code_.Variable(t_.i32);
    code_.Store(top, I32(static_cast<uint32_t>(-1)));
    code_.For(I32(0), I32(kDigits), [&](uint32_t d) {
      const uint32_t nonzero = NonZero(t_.i64, code_.Load(t_.i64, DigitPointer(d)));
      code_.Store(top, code_.Select(t_.i32, nonzero, d, code_.Load(t_.i32, top)));
    });
    const uint32_t top_digit = code_.Load(t_.i32, top);
    const uint32_t any = Op(Op::OpSGreaterThanEqual, t_.boolean, {top_digit, I32(0)});
    const uint32_t top_index = code_.Select(t_.i32, any, top_digit, I32(0));
    // The highest set bit of that digit, by halving.
    uint32_t x = code_.Load(t_.i64, DigitPointer(top_index));
    uint32_t bit = I32(0);
    for (uint32_t s : {16u, 8u, 4u, 2u, 1u}) {
      const uint32_t shifted = Op(Op::OpShiftRightLogical, t_.i64, {x, I64(s)});
      const uint32_t has = NonZero(t_.i64, shifted);
      bit = code_.Select(t_.i32, has, Op(Op::OpIAdd, t_.i32, {bit, I32(s)}), bit);
      x = code_.Select(t_.i64, has, shifted, x);
    }
    const int32_t precision = static_cast<int32_t>(f.mantissa_bits) + 1;
    const int32_t min_exponent = 1 - f.bias;
    // Exponent of the leading bit, then of the last bit kept: the precision's worth below the
    // leading one, but never below the format's smallest subnormal.
    const uint32_t leading =
        Op(Op::OpISub, t_.i32,
           {Op(Op::OpIAdd, t_.i32, {Op(Op::OpIMul, t_.i32, {top_index, I32(32)}), bit}),
            I32(static_cast<uint32_t>(kLowest))});
    const uint32_t normal_quantum =
        Op(Op::OpISub, t_.i32, {leading, I32(static_cast<uint32_t>(precision - 1))});
    const uint32_t min_quantum = I32(static_cast<uint32_t>(min_exponent - (precision - 1)));
    const uint32_t quantum =
        code_.Select(t_.i32, Op(Op::OpSGreaterThan, t_.boolean, {normal_quantum, min_quantum}),
                     normal_quantum, min_quantum);
    const uint32_t low_bit = Op(Op::OpIAdd, t_.i32, {quantum, I32(kLowest)});  // always > 0
    // The kept bits: they lie within the two digits from low_bit's on.
    const uint32_t digit = Op(Op::OpShiftRightArithmetic, t_.i32, {low_bit, I32(5)});
    const uint32_t shift =
        Op(Op::OpUConvert, t_.i64, {Op(Op::OpBitwiseAnd, t_.i32, {low_bit, I32(31)})});
    const uint32_t next = Op(Op::OpIAdd, t_.i32, {digit, I32(1)});
    const uint32_t has_next = Op(Op::OpSLessThan, t_.boolean, {next, I32(kDigits)});
    const uint32_t next_word = code_.Select(
        t_.i64, has_next,
        code_.Load(t_.i64, DigitPointer(code_.Select(t_.i32, has_next, next, I32(0)))), I64(0));
    const uint32_t window = Op(Op::OpBitwiseOr, t_.i64,
                               {code_.Load(t_.i64, DigitPointer(digit)),
                                Op(Op::OpShiftLeftLogical, t_.i64, {next_word, I64(32)})});
    const uint32_t kept = Op(Op::OpShiftRightLogical, t_.i64, {window, shift});
    // The bit below them, and whether anything lower is set.
    const uint32_t round_position = Op(Op::OpISub, t_.i32, {low_bit, I32(1)});
    const uint32_t round_digit = Op(Op::OpShiftRightArithmetic, t_.i32, {round_position, I32(5)});
    const uint32_t round_shift =
        Op(Op::OpUConvert, t_.i64, {Op(Op::OpBitwiseAnd, t_.i32, {round_position, I32(31)})});
    const uint32_t round_word = code_.Load(t_.i64, DigitPointer(round_digit));
    const uint32_t round = NonZero(
        t_.i64, Op(Op::OpBitwiseAnd, t_.i64,
                   {Op(Op::OpShiftRightLogical, t_.i64, {round_word, round_shift}), I64(1)}));
    const uint32_t below_mask =
        Op(Op::OpISub, t_.i64, {Op(Op::OpShiftLeftLogical, t_.i64, {I64(1), round_shift}), I64(1)});
    const uint32_t sticky = code_.Variable(t_.i32);
    code_.Store(
        sticky,
        Bool(t_.i32, NonZero(t_.i64, Op(Op::OpBitwiseAnd, t_.i64, {round_word, below_mask}))));
    code_.For(I32(0), round_digit, [&](uint32_t d) {
      SetFlag(sticky, NonZero(t_.i64, code_.Load(t_.i64, DigitPointer(d))));
    });
    const uint32_t odd = NonZero(t_.i64, Op(Op::OpBitwiseAnd, t_.i64, {kept, I64(1)}));
    const uint32_t up = And(round, Or(NonZero(t_.i32, code_.Load(t_.i32, sticky)), odd));
    const uint32_t rounded = Op(Op::OpIAdd, t_.i64, {kept, Bool(t_.i64, up)});
    // Encoding: exponent field (quantum + bias + precision - 2) plus the significand with its
    // leading bit, which carries into the field (a subnormal's field is then 0 or 1, and a
    // rounding carry moves to the next binade by itself).
    const uint32_t field =
        Op(Op::OpSConvert, t_.i64,
           {Op(Op::OpIAdd, t_.i32, {quantum, I32(static_cast<uint32_t>(f.bias + precision - 2))})});
    uint32_t bits =
        Op(Op::OpIAdd, t_.i64,
           {Op(Op::OpShiftLeftLogical, t_.i64, {field, I64(f.mantissa_bits)}), rounded});
    const uint64_t infinity = ((uint64_t{1} << f.exponent_bits) - 1) << f.mantissa_bits;
    const uint64_t sign_bit = uint64_t{1} << (f.exponent_bits + f.mantissa_bits);
    bits = code_.Select(t_.i64, Op(Op::OpSGreaterThanEqual, t_.boolean, {bits, I64(infinity)}),
                        I64(infinity), bits);
    bits = code_.Select(t_.i64, negative, Op(Op::OpBitwiseOr, t_.i64, {bits, I64(sign_bit)}), bits);
    const uint32_t zero = code_.Select(
        t_.i64, NonZero(t_.i32, code_.Load(t_.i32, all_negative_zero_)), I64(sign_bit), I64(0));
    bits = code_.Select(t_.i64, any, bits, zero);
    // Special values decide alone.
    const uint32_t positive_inf = NonZero(t_.i32, code_.Load(t_.i32, positive_inf_));
    const uint32_t negative_inf = NonZero(t_.i32, code_.Load(t_.i32, negative_inf_));
    const uint32_t nan =
        Or(NonZero(t_.i32, code_.Load(t_.i32, nan_)), And(positive_inf, negative_inf));
    bits = code_.Select(t_.i64, negative_inf, I64(infinity | sign_bit), bits);
    bits = code_.Select(t_.i64, positive_inf, I64(infinity), bits);
    return code_.Select(t_.i64, nan, I64(f.quiet_nan), bits);
  }

  CodeBuilder& code_;
  const MatrixMadPlan& plan_;
  Types t_{};
  uint32_t a_words_ = 0, b_words_ = 0, c_values_ = 0, results_ = 0;
  uint32_t c_bits_ = 0, result_bits_ = 0;
  uint32_t half_ = 0, column_ = 0;  // paired form: this invocation's half and column
  uint32_t digits_ = 0, nan_ = 0, positive_inf_ = 0, negative_inf_ = 0, all_negative_zero_ = 0;
};

}  // namespace

void WriteMatrixMadBody(CodeBuilder& code, const MatrixMadPlan& plan,
                        const std::vector<uint32_t>& params) {
  BodyWriter(code, plan).Write(params);
}

}  // namespace xmx::opt::emulate_detail
