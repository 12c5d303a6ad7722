// The structural facts the binders rely on, checked for every instruction before it is bound,
// whatever the validator said: a module holding a type SPIRV-Tools cannot see (a cooperative
// matrix, say) skips core validation, and a binder that trusted such a module would read or
// write outside its slots. Each check names the instruction in a LoadError:
// - every id operand has a definition, and the result type is a type;
// - every type the instruction produces or reads is one xmx-run has a layout for (integers of
//   8, 16, 32 or 64 bits, floats of 16, 32 or 64 bits, vectors of 2 to 16 of them, arrays and
//   structs of such types);
// - the operands of each opcode class have the shapes its handler assumes (the operand classes
//   of the SPIR-V specification's "Validation Rules" for arithmetic, comparisons, conversions,
//   selects, memory and calls). Shapes, not type ids: OpenCL's signless integers make IAdd of
//   two different integer type ids of one width legal.
#include <string>

#include "interp/loader.hpp"
#include "ir/id_operands.hpp"

namespace xmx::interp {
namespace {

using spv::Op;
using Kind = ir::TypeKind;

std::string Id(uint32_t id) { return "%" + std::to_string(id); }

bool IsScalarOrVectorOf(const TypeInfo& t, ScalarKind scalar) {
  return (t.kind == Kind::kVector || t.kind == (scalar == ScalarKind::kInt     ? Kind::kInt
                                                : scalar == ScalarKind::kFloat ? Kind::kFloat
                                                                               : Kind::kBool)) &&
         t.value.scalar.kind == scalar;
}

// Two values of these types occupy the same bytes per lane in the same way.
bool SameShape(const TypeInfo& a, const TypeInfo& b) {
  return a.kind == b.kind && a.value.scalar.kind == b.value.scalar.kind &&
         a.value.scalar.bytes == b.value.scalar.bytes && a.value.components == b.value.components &&
         a.lane_bytes == b.lane_bytes;
}

class InstructionCheck {
 public:
  InstructionCheck(Loader& loader, const ir::Instruction& inst) : loader_(loader), inst_(inst) {}

  // False when the instruction breaks a rule (the loader then holds the error).
  bool Run();

 private:
  bool Fail(const std::string& message) {
    loader_.Fail(inst_, message);
    return false;
  }
  const TypeInfo& Result() { return loader_.Type(inst_.result_type_id()); }
  const TypeInfo& Operand(size_t i) { return loader_.TypeOfValue(inst_.word(i)); }
  // Operand i exists and is a value (it has a result type).
  bool IsValue(size_t i) {
    return i < inst_.num_operands() && loader_.ValueTypeId(inst_.word(i)) != 0;
  }
  bool RequireOperands(size_t count) {
    if (inst_.num_operands() < count) {
      return Fail("expected at least " + std::to_string(count) + " operands");
    }
    for (size_t i = 0; i < count; ++i) {
      if (!IsValue(i)) return Fail("operand " + Id(inst_.word(i)) + " is not a value");
    }
    return true;
  }
  bool RequireValue(size_t i) {
    if (!IsValue(i)) {
      return Fail("operand " + Id(i < inst_.num_operands() ? inst_.word(i) : 0) +
                  " is not a value");
    }
    return true;
  }
  bool ResultIs(ScalarKind scalar, const char* what) {
    if (!IsScalarOrVectorOf(Result(), scalar)) {
      return Fail(std::string("the result type must be ") + what);
    }
    return true;
  }
  // Operands [first, first + count) have the result's shape.
  bool OperandsLikeResult(size_t first, size_t count) {
    for (size_t i = first; i < first + count; ++i) {
      if (!SameShape(Operand(i), Result())) {
        return Fail("operand " + Id(inst_.word(i)) + " does not have the result's type");
      }
    }
    return true;
  }
  // Operands [0, count) are scalars or vectors of `scalar` like operand 0, and the result has
  // as many components (booleans).
  bool Comparison(ScalarKind scalar, size_t count, const char* what) {
    if (!RequireOperands(count) || !ResultIs(ScalarKind::kBool, "a boolean or boolean vector")) {
      return false;
    }
    const TypeInfo& first = Operand(0);
    if (!IsScalarOrVectorOf(first, scalar)) {
      return Fail("operand " + Id(inst_.word(0)) + " must be " + what);
    }
    for (size_t i = 1; i < count; ++i) {
      if (!SameShape(Operand(i), first)) {
        return Fail("operands " + Id(inst_.word(0)) + " and " + Id(inst_.word(i)) +
                    " must have the same type");
      }
    }
    if (first.value.components != Result().value.components) {
      return Fail("the result must have as many components as the operands");
    }
    return true;
  }
  // An element-wise operation on `scalar` values: result and the first `count` operands alike.
  bool Elementwise(ScalarKind scalar, size_t count, const char* what) {
    return RequireOperands(count) && ResultIs(scalar, what) && OperandsLikeResult(0, count);
  }
  bool Conversion(ScalarKind from, ScalarKind to) {
    if (!RequireOperands(1) ||
        !ResultIs(to, to == ScalarKind::kInt ? "an integer type" : "a float type")) {
      return false;
    }
    if (!IsScalarOrVectorOf(Operand(0), from)) {
      return Fail("operand " + Id(inst_.word(0)) + " must be " +
                  (from == ScalarKind::kInt ? "an integer" : "a float") + " scalar or vector");
    }
    if (Operand(0).value.components != Result().value.components) {
      return Fail("the operand and the result must have as many components");
    }
    return true;
  }
  bool Pointer(size_t i) {
    if (!IsValue(i) || Operand(i).kind != Kind::kPointer) {
      return Fail("operand " + Id(i < inst_.num_operands() ? inst_.word(i) : 0) +
                  " must be a pointer");
    }
    return true;
  }
  bool ResultPointer() {
    if (Result().kind != Kind::kPointer) return Fail("the result type must be a pointer");
    return true;
  }
  // A value held in registers: a scalar, vector, pointer, array or struct with a size.
  bool Sized(const TypeInfo& t, const std::string& what) {
    if (t.lane_bytes == 0 || t.kind == Kind::kVoid) {
      return Fail(what + " must be a value with a size");
    }
    return true;
  }
  bool Label(size_t i) {
    if (i >= inst_.num_operands() || !loader_.IsLabelOfCurrentFunction(inst_.word(i))) {
      return Fail("branch target " + Id(i < inst_.num_operands() ? inst_.word(i) : 0) +
                  " is not a block of this function");
    }
    return true;
  }
  bool Opcode();
  bool SubgroupOpcode();
  bool OpenCLStdMemory();
  bool Atomic(size_t value, size_t comparator);
  bool Call();
  bool Phi();

  Loader& loader_;
  const ir::Instruction& inst_;
};

bool InstructionCheck::Run() {
  bool defined = true;
  ir::ForEachIdOperand(inst_, [&](uint32_t id, size_t) {
    if (defined && !loader_.IsDefined(id)) {
      defined = Fail("operand " + Id(id) + " is not defined anywhere in the module");
    }
  });
  if (!defined) return false;
  std::string why;
  if (inst_.has_result_type()) {
    if (loader_.types().GetType(inst_.result_type_id()) == nullptr) {
      return Fail("result type " + Id(inst_.result_type_id()) + " is not a type");
    }
    if (!loader_.SupportedType(inst_.result_type_id(), &why)) return Fail(why);
  }
  for (size_t i = 0; i < inst_.num_operands(); ++i) {
    if (!grammar::IsIdKind(inst_.operand(i).kind)) continue;
    const uint32_t type = loader_.ValueTypeId(inst_.word(i));
    if (type != 0 && !loader_.SupportedType(type, &why)) {
      return Fail("operand " + Id(inst_.word(i)) + ": " + why);
    }
  }
  return Opcode();
}

bool InstructionCheck::Opcode() {
  switch (inst_.opcode()) {
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpUMod:
    case Op::OpSRem:
    case Op::OpSMod:
    case Op::OpBitwiseAnd:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
      return Elementwise(ScalarKind::kInt, 2, "an integer type");
    case Op::OpSNegate:
    case Op::OpNot:
    case Op::OpBitReverse:
      return Elementwise(ScalarKind::kInt, 1, "an integer type");
    case Op::OpBitCount:
      if (!RequireOperands(1) || !ResultIs(ScalarKind::kInt, "an integer type")) return false;
      if (!IsScalarOrVectorOf(Operand(0), ScalarKind::kInt) ||
          Operand(0).value.components != Result().value.components) {
        return Fail("the operand must be an integer with as many components as the result");
      }
      return true;
    case Op::OpShiftLeftLogical:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
      // The shift amount may have another width than the base, not another component count.
      if (!RequireOperands(2) || !ResultIs(ScalarKind::kInt, "an integer type") ||
          !OperandsLikeResult(0, 1)) {
        return false;
      }
      if (!IsScalarOrVectorOf(Operand(1), ScalarKind::kInt) ||
          Operand(1).value.components != Result().value.components) {
        return Fail("the shift must be an integer with as many components as the base");
      }
      return true;
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod:
      return Elementwise(ScalarKind::kFloat, 2, "a float type");
    case Op::OpFNegate:
      return Elementwise(ScalarKind::kFloat, 1, "a float type");
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpULessThan:
    case Op::OpULessThanEqual:
    case Op::OpUGreaterThan:
    case Op::OpUGreaterThanEqual:
    case Op::OpSLessThan:
    case Op::OpSLessThanEqual:
    case Op::OpSGreaterThan:
    case Op::OpSGreaterThanEqual:
      return Comparison(ScalarKind::kInt, 2, "an integer scalar or vector");
    case Op::OpFOrdEqual:
    case Op::OpFUnordEqual:
    case Op::OpFOrdNotEqual:
    case Op::OpFUnordNotEqual:
    case Op::OpFOrdLessThan:
    case Op::OpFUnordLessThan:
    case Op::OpFOrdLessThanEqual:
    case Op::OpFUnordLessThanEqual:
    case Op::OpFOrdGreaterThan:
    case Op::OpFUnordGreaterThan:
    case Op::OpFOrdGreaterThanEqual:
    case Op::OpFUnordGreaterThanEqual:
    case Op::OpOrdered:
    case Op::OpUnordered:
    case Op::OpLessOrGreater:
      return Comparison(ScalarKind::kFloat, 2, "a float scalar or vector");
    case Op::OpIsNan:
    case Op::OpIsInf:
    case Op::OpIsFinite:
    case Op::OpIsNormal:
    case Op::OpSignBitSet:
      return Comparison(ScalarKind::kFloat, 1, "a float scalar or vector");
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpLogicalAnd:
    case Op::OpLogicalOr:
      return Elementwise(ScalarKind::kBool, 2, "a boolean type");
    case Op::OpLogicalNot:
      return Elementwise(ScalarKind::kBool, 1, "a boolean type");
    case Op::OpAny:
    case Op::OpAll:
      if (!RequireOperands(1) || !ResultIs(ScalarKind::kBool, "a boolean")) return false;
      if (Result().kind != Kind::kBool || !IsScalarOrVectorOf(Operand(0), ScalarKind::kBool)) {
        return Fail("OpAny and OpAll take a boolean vector and give a boolean");
      }
      return true;
    case Op::OpSelect: {
      if (!RequireOperands(3) || !Sized(Result(), "the result") || !OperandsLikeResult(1, 2)) {
        return false;
      }
      const TypeInfo& condition = Operand(0);
      if (condition.kind == Kind::kBool) return true;
      if (condition.kind == Kind::kVector && condition.value.scalar.kind == ScalarKind::kBool &&
          Result().kind == Kind::kVector &&
          condition.value.components == Result().value.components) {
        return true;
      }
      return Fail("the condition must be a boolean, or a boolean vector as wide as the result");
    }
    case Op::OpDot:
      if (!RequireOperands(2) || Result().kind != Kind::kFloat) {
        return Fail("OpDot gives a float scalar");
      }
      if (Operand(0).kind != Kind::kVector || !SameShape(Operand(0), Operand(1)) ||
          Operand(0).value.scalar.kind != ScalarKind::kFloat ||
          Operand(0).value.scalar.bytes != Result().value.scalar.bytes) {
        return Fail("OpDot takes two float vectors of the result's component type");
      }
      return true;
    case Op::OpVectorTimesScalar:
      if (!RequireOperands(2) || !ResultIs(ScalarKind::kFloat, "a float vector") ||
          !OperandsLikeResult(0, 1)) {
        return false;
      }
      if (Operand(1).kind != Kind::kFloat ||
          Operand(1).value.scalar.bytes != Result().value.scalar.bytes) {
        return Fail("the scalar must be a float of the vector's component type");
      }
      return true;
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpSatConvertUToS:
    case Op::OpSatConvertSToU:
      return Conversion(ScalarKind::kInt, ScalarKind::kInt);
    case Op::OpFConvert:
      return Conversion(ScalarKind::kFloat, ScalarKind::kFloat);
    case Op::OpConvertFToU:
    case Op::OpConvertFToS:
      return Conversion(ScalarKind::kFloat, ScalarKind::kInt);
    case Op::OpConvertUToF:
    case Op::OpConvertSToF:
      return Conversion(ScalarKind::kInt, ScalarKind::kFloat);
    case Op::OpBitcast:
      return RequireOperands(1) && Sized(Result(), "the result") &&
             Sized(Operand(0), "the operand");
    case Op::OpCopyObject:
    case Op::OpCopyLogical:
      return RequireOperands(1) && Sized(Result(), "the result") && OperandsLikeResult(0, 1);
    case Op::OpVariable:
      return ResultPointer();
    case Op::OpLoad:
      return Pointer(0) && Sized(Result(), "the loaded value");
    case Op::OpStore:
      return Pointer(0) && RequireOperands(2) && Sized(Operand(1), "the stored object");
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
    case Op::OpPtrCastToGeneric:
    case Op::OpGenericCastToPtr:
    case Op::OpGenericCastToPtrExplicit:
      return Pointer(0) && ResultPointer();
    case Op::OpCopyMemory:
      return Pointer(0) && Pointer(1);
    case Op::OpCopyMemorySized:
      if (!Pointer(0) || !Pointer(1) || !RequireOperands(3)) return false;
      if (Operand(2).kind != Kind::kInt) return Fail("the size must be an integer scalar");
      return true;
    case Op::OpConvertPtrToU:
      if (!Pointer(0) || Result().kind != Kind::kInt) {
        return Fail("OpConvertPtrToU converts a pointer to an integer scalar");
      }
      return true;
    case Op::OpConvertUToPtr:
      if (!RequireOperands(1) || Operand(0).kind != Kind::kInt || !ResultPointer()) {
        return Fail("OpConvertUToPtr converts an integer scalar to a pointer");
      }
      return true;
    case Op::OpPtrEqual:
    case Op::OpPtrNotEqual:
    case Op::OpPtrDiff:
      return Pointer(0) && Pointer(1);
    case Op::OpVectorExtractDynamic:
      if (!RequireOperands(2) || Operand(0).kind != Kind::kVector ||
          Operand(1).kind != Kind::kInt) {
        return Fail("OpVectorExtractDynamic takes a vector and an integer index");
      }
      if (Result().kind == Kind::kVector ||
          Result().value.scalar.kind != Operand(0).value.scalar.kind ||
          Result().value.scalar.bytes != Operand(0).value.scalar.bytes) {
        return Fail("the result must be the vector's component type");
      }
      return true;
    case Op::OpVectorInsertDynamic:
      if (!RequireOperands(3) || Result().kind != Kind::kVector || !OperandsLikeResult(0, 1) ||
          Operand(2).kind != Kind::kInt) {
        return Fail("OpVectorInsertDynamic takes a vector of the result's type and an integer");
      }
      if (Operand(1).kind == Kind::kVector ||
          Operand(1).lane_bytes != Result().value.scalar.bytes) {
        return Fail("the component must have the vector's component type");
      }
      return true;
    case Op::OpVectorShuffle: {
      if (!RequireOperands(2) || Operand(0).kind != Kind::kVector ||
          Operand(1).kind != Kind::kVector || Result().kind != Kind::kVector) {
        return Fail("OpVectorShuffle takes two vectors and gives a vector");
      }
      const uint32_t element = Result().value.scalar.bytes;
      if (Operand(0).value.scalar.bytes != element || Operand(1).value.scalar.bytes != element ||
          Operand(0).value.scalar.kind != Result().value.scalar.kind ||
          Operand(1).value.scalar.kind != Result().value.scalar.kind) {
        return Fail("the vectors must have the result's component type");
      }
      if (inst_.num_operands() - 2 != Result().value.components) {
        return Fail("the result needs one component literal per component");
      }
      const uint64_t available =
          uint64_t{Operand(0).value.components} + Operand(1).value.components;
      for (size_t i = 2; i < inst_.num_operands(); ++i) {
        if (inst_.word(i) != 0xFFFFFFFF && inst_.word(i) >= available) {
          return Fail("component " + std::to_string(inst_.word(i)) + " is not one of the " +
                      std::to_string(available) + " components of the two vectors");
        }
      }
      return true;
    }
    case Op::OpReturnValue: {
      const ir::Function* f = loader_.CurrentFunction();
      if (!RequireOperands(1) || f == nullptr ||
          !SameShape(Operand(0), loader_.Type(f->def.result_type_id()))) {
        return Fail("the returned value does not have the function's return type");
      }
      return true;
    }
    case Op::OpBranch:
      return Label(0);
    case Op::OpBranchConditional:
      if (!RequireOperands(1) || Operand(0).kind != Kind::kBool) {
        return Fail("the condition must be a boolean scalar");
      }
      return Label(1) && Label(2);
    case Op::OpSwitch:
      if (!RequireOperands(1) || Operand(0).kind != Kind::kInt) {
        return Fail("the selector must be an integer scalar");
      }
      for (size_t i = 1; i < inst_.num_operands(); i += 2) {
        if (!Label(i)) return false;
      }
      return true;
    case Op::OpFunctionCall:
      return Call();
    case Op::OpPhi:
      return Phi();
    case Op::OpExtInst:
      return OpenCLStdMemory();
    case Op::OpAtomicLoad:
    case Op::OpAtomicIIncrement:
    case Op::OpAtomicIDecrement:
      return Atomic(SIZE_MAX, SIZE_MAX);
    case Op::OpAtomicStore:
      return Atomic(3, SIZE_MAX);
    case Op::OpAtomicExchange:
    case Op::OpAtomicIAdd:
    case Op::OpAtomicISub:
    case Op::OpAtomicSMin:
    case Op::OpAtomicUMin:
    case Op::OpAtomicSMax:
    case Op::OpAtomicUMax:
    case Op::OpAtomicAnd:
    case Op::OpAtomicOr:
    case Op::OpAtomicXor:
    case Op::OpAtomicFAddEXT:
      return Atomic(3, SIZE_MAX);
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:
      return Atomic(4, 5);
    case Op::OpAtomicFlagTestAndSet:
      return Pointer(0) && (Result().kind == Kind::kBool || Fail("the result must be a boolean"));
    case Op::OpAtomicFlagClear:
      return Pointer(0);
    default:
      return SubgroupOpcode();
  }
}

// An atomic on a pointer to a 32- or 64-bit scalar: the value at `value`, the comparator at
// `comparator` (SIZE_MAX: none) and the result, if any, have the pointee's size (what the
// handler moves).
bool InstructionCheck::Atomic(size_t value, size_t comparator) {
  if (!Pointer(0)) return false;
  const TypeInfo& pointee = loader_.Type(Operand(0).pointee);
  if ((pointee.kind != Kind::kInt && pointee.kind != Kind::kFloat) ||
      (pointee.lane_bytes != 4 && pointee.lane_bytes != 8)) {
    return Fail("atomics need a pointer to a 32- or 64-bit integer or float");
  }
  for (size_t i : {value, comparator}) {
    if (i == SIZE_MAX) continue;
    if (!RequireValue(i) || Operand(i).lane_bytes != pointee.lane_bytes) {
      return Fail("operand " + Id(i < inst_.num_operands() ? inst_.word(i) : 0) +
                  " must have the pointee's size");
    }
  }
  if (inst_.has_result_type() && Result().lane_bytes != pointee.lane_bytes) {
    return Fail("the result must have the pointee's size");
  }
  return true;
}

// The OpenCL.std instructions bound outside the element-wise tables (exec_opencl_std.cpp):
// vload*/vstore* and shuffle/shuffle2, whose operands are read at fixed places. (The
// element-wise ones are checked against their signatures when they are bound.)
bool InstructionCheck::OpenCLStdMemory() {
  if (inst_.num_operands() < 2 || inst_.word(0) != loader_.opencl_std_set() ||
      loader_.opencl_std_set() == 0) {
    return true;
  }
  const uint32_t number = inst_.word(1);
  // Operand i of the extended instruction is operand i + 2 of OpExtInst.
  auto ext_operands = [&](size_t count) {
    if (inst_.num_operands() < count + 2) {
      return Fail("OpenCL.std instruction " + std::to_string(number) + " needs " +
                  std::to_string(count) + " operands");
    }
    for (size_t i = 0; i < count; ++i) {
      if (!RequireValue(i + 2)) return false;
    }
    return true;
  };
  auto offset_and_pointer = [&](size_t offset) {
    if (Operand(offset + 2).kind != Kind::kInt) return Fail("the offset must be an integer scalar");
    return Pointer(offset + 3);
  };
  auto scalar_or_vector = [&](const TypeInfo& t, bool half) {
    if ((t.kind != Kind::kVector && t.kind != Kind::kInt && t.kind != Kind::kFloat) ||
        (half && t.value.scalar.kind != ScalarKind::kFloat)) {
      return Fail(half ? "the data must be a float scalar or vector"
                       : "the data must be a scalar or vector");
    }
    return true;
  };
  switch (number) {
    case 171:  // vloadn
    case 173:  // vload_half
    case 174:  // vload_halfn
    case 179:  // vloada_halfn
      return ext_operands(2) && offset_and_pointer(0) && scalar_or_vector(Result(), number != 171);
    case 172:  // vstoren
    case 175:  // vstore_half
    case 176:  // vstore_half_r
    case 177:  // vstore_halfn
    case 178:  // vstore_halfn_r
    case 180:  // vstorea_halfn
    case 181:  // vstorea_halfn_r
      if (!ext_operands(3) || !offset_and_pointer(1)) return false;
      if ((number == 176 || number == 178 || number == 181) && inst_.num_operands() < 6) {
        return Fail("the rounding mode is missing");
      }
      return scalar_or_vector(Operand(2), number != 172);
    case 182:    // shuffle
    case 183: {  // shuffle2
      const size_t values = number == 183 ? 2 : 1;
      if (!ext_operands(values + 1)) return false;
      const TypeInfo& x = Operand(2);
      const TypeInfo& mask = Operand(2 + values);
      if (x.kind != Kind::kVector || Result().kind != Kind::kVector ||
          (values == 2 && !SameShape(Operand(3), x))) {
        return Fail("shuffle takes vectors and gives a vector");
      }
      if (x.value.scalar.kind != Result().value.scalar.kind ||
          x.value.scalar.bytes != Result().value.scalar.bytes) {
        return Fail("the result must have the vectors' component type");
      }
      if (!IsScalarOrVectorOf(mask, ScalarKind::kInt) ||
          mask.value.components != Result().value.components) {
        return Fail("the mask must be an integer vector with the result's component count");
      }
      return true;
    }
    default:
      return true;
  }
}

// Group, non-uniform group and Intel subgroup instructions: the value operand has the result's
// type, ids and deltas are integer scalars, ballots are vectors of four 32-bit integers.
bool InstructionCheck::SubgroupOpcode() {
  auto ballot = [&](size_t i) {
    if (!IsValue(i) || Operand(i).kind != Kind::kVector ||
        Operand(i).value.scalar.kind != ScalarKind::kInt || Operand(i).lane_bytes != 16) {
      return Fail("the ballot must be a vector of four 32-bit integers");
    }
    return true;
  };
  auto integer = [&](size_t i, const char* what) {
    if (!IsValue(i) || Operand(i).kind != Kind::kInt) {
      return Fail(std::string(what) + " must be an integer scalar");
    }
    return true;
  };
  auto boolean_result = [&] {
    return Result().kind == Kind::kBool || Fail("the result must be a boolean");
  };
  auto int32_result = [&] {
    return (Result().kind == Kind::kInt && Result().lane_bytes == 4) ||
           Fail("the result must be a 32-bit integer");
  };
  switch (inst_.opcode()) {
    case Op::OpGroupIAdd:
    case Op::OpGroupUMin:
    case Op::OpGroupSMin:
    case Op::OpGroupUMax:
    case Op::OpGroupSMax:
    case Op::OpGroupNonUniformIAdd:
    case Op::OpGroupNonUniformIMul:
    case Op::OpGroupNonUniformSMin:
    case Op::OpGroupNonUniformUMin:
    case Op::OpGroupNonUniformSMax:
    case Op::OpGroupNonUniformUMax:
    case Op::OpGroupNonUniformBitwiseAnd:
    case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformBitwiseXor:
      return RequireValue(2) && ResultIs(ScalarKind::kInt, "an integer type") &&
             OperandsLikeResult(2, 1);
    case Op::OpGroupFAdd:
    case Op::OpGroupFMin:
    case Op::OpGroupFMax:
    case Op::OpGroupNonUniformFAdd:
    case Op::OpGroupNonUniformFMul:
    case Op::OpGroupNonUniformFMin:
    case Op::OpGroupNonUniformFMax:
      return RequireValue(2) && ResultIs(ScalarKind::kFloat, "a float type") &&
             OperandsLikeResult(2, 1);
    case Op::OpGroupNonUniformLogicalAnd:
    case Op::OpGroupNonUniformLogicalOr:
    case Op::OpGroupNonUniformLogicalXor:
      return RequireValue(2) && ResultIs(ScalarKind::kBool, "a boolean type") &&
             OperandsLikeResult(2, 1);
    case Op::OpGroupAll:
    case Op::OpGroupAny:
    case Op::OpGroupNonUniformAll:
    case Op::OpGroupNonUniformAny:
      if (!RequireOperands(2) || Result().kind != Kind::kBool || Operand(1).kind != Kind::kBool) {
        return Fail("the predicate and the result must be booleans");
      }
      return true;
    case Op::OpGroupNonUniformAllEqual:
      if (!RequireOperands(2) || Result().kind != Kind::kBool) {
        return Fail("the result must be a boolean");
      }
      return Sized(Operand(1), "the value");
    case Op::OpGroupBroadcast:
    case Op::OpGroupNonUniformBroadcast:
      if (!RequireOperands(3) || !Sized(Result(), "the result") || !OperandsLikeResult(1, 1)) {
        return false;
      }
      if (!IsScalarOrVectorOf(Operand(2), ScalarKind::kInt)) {
        return Fail("the invocation id must be an integer scalar or vector");
      }
      return true;
    case Op::OpGroupNonUniformBroadcastFirst:
      return RequireOperands(2) && Sized(Result(), "the result") && OperandsLikeResult(1, 1);
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor:
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown:
      return RequireOperands(3) && Sized(Result(), "the result") && OperandsLikeResult(1, 1) &&
             integer(2, "the invocation id or delta");
    case Op::OpSubgroupShuffleINTEL:
    case Op::OpSubgroupShuffleXorINTEL:
      return RequireOperands(2) && Sized(Result(), "the result") && OperandsLikeResult(0, 1) &&
             integer(1, "the invocation id or value");
    case Op::OpSubgroupShuffleDownINTEL:
    case Op::OpSubgroupShuffleUpINTEL:
      return RequireOperands(3) && Sized(Result(), "the result") && OperandsLikeResult(0, 2) &&
             integer(2, "the delta");
    case Op::OpGroupNonUniformElect:
      if (Result().kind != Kind::kBool) return Fail("the result must be a boolean");
      return true;
    case Op::OpGroupNonUniformBallot:
      if (!RequireOperands(2) || Operand(1).kind != Kind::kBool || Result().kind != Kind::kVector ||
          Result().lane_bytes != 16) {
        return Fail("OpGroupNonUniformBallot takes a boolean and gives four 32-bit integers");
      }
      return true;
    case Op::OpGroupNonUniformInverseBallot:
      return ballot(1) && boolean_result();
    case Op::OpGroupNonUniformBallotBitExtract:
      return ballot(1) && integer(2, "the index") && boolean_result();
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB:
      return ballot(1) && int32_result();
    case Op::OpGroupNonUniformBallotBitCount:
      return ballot(2) && int32_result();
    default:
      return true;
  }
}

bool InstructionCheck::Call() {
  const ir::Function* callee =
      inst_.num_operands() > 0 ? loader_.info().GetFunction(inst_.word(0)) : nullptr;
  if (callee == nullptr) return Fail("the callee is not a function of the module");
  if (inst_.result_type_id() != callee->def.result_type_id() &&
      !SameShape(Result(), loader_.Type(callee->def.result_type_id()))) {
    return Fail("the call's result type is not the callee's return type");
  }
  const size_t arguments = inst_.num_operands() - 1;
  if (arguments != callee->parameters.size()) {
    return Fail("the call passes " + std::to_string(arguments) + " arguments to a function of " +
                std::to_string(callee->parameters.size()) + " parameters");
  }
  size_t i = 1;
  for (const ir::Instruction& parameter : callee->parameters) {
    if (!IsValue(i) || !SameShape(Operand(i), loader_.Type(parameter.result_type_id()))) {
      return Fail("argument " + std::to_string(i - 1) + " (" + Id(inst_.word(i)) +
                  ") does not have the type of parameter " + Id(parameter.result_id()));
    }
    ++i;
  }
  return true;
}

bool InstructionCheck::Phi() {
  if (!Sized(Result(), "the phi's result")) return false;
  for (size_t i = 0; i + 1 < inst_.num_operands(); i += 2) {
    if (!IsValue(i) || !SameShape(Operand(i), Result())) {
      return Fail("phi value " + Id(inst_.word(i)) + " does not have the phi's type");
    }
    if (!loader_.IsLabelOfCurrentFunction(inst_.word(i + 1))) {
      return Fail("phi parent " + Id(inst_.word(i + 1)) + " is not a block of this function");
    }
  }
  return true;
}

}  // namespace

bool CheckInstruction(Loader& loader, const ir::Instruction& inst) {
  return InstructionCheck(loader, inst).Run();
}

bool Loader::SupportedType(uint32_t type_id, std::string* why) {
  auto it = supported_types_.find(type_id);
  if (it != supported_types_.end()) {
    if (!it->second.empty()) *why = it->second;
    return it->second.empty();
  }
  supported_types_[type_id] = "";  // a struct reached again through a pointer is fine
  const ir::Type* type = types_.GetType(type_id);
  std::string problem;
  if (type == nullptr) {
    problem = Id(type_id) + " is not a type";
  } else {
    switch (type->kind) {
      case Kind::kInt:
        if (type->width != 8 && type->width != 16 && type->width != 32 && type->width != 64) {
          problem = "xmx-run supports integers of 8, 16, 32 and 64 bits, not " +
                    std::to_string(type->width) + " (type " + Id(type_id) + ")";
        }
        break;
      case Kind::kFloat:
        // A bfloat16 (SPV_KHR_bfloat16) has a half's width but not its arithmetic: computing
        // with it as a half would give wrong results without a word.
        if (type->float_encoding) {
          problem = "xmx-run does not compute with floats of an FP encoding (type " + Id(type_id) +
                    ", OpTypeFloat " + std::to_string(type->width) + " with encoding " +
                    std::to_string(*type->float_encoding) + ": BFloat16KHR is 0)";
        } else if (type->width != 16 && type->width != 32 && type->width != 64) {
          problem = "xmx-run supports floats of 16, 32 and 64 bits, not " +
                    std::to_string(type->width) + " (type " + Id(type_id) + ")";
        }
        break;
      case Kind::kVector: {
        const ir::Type* element = types_.GetType(type->element);
        if (element == nullptr ||
            (element->kind != Kind::kInt && element->kind != Kind::kFloat &&
             element->kind != Kind::kBool) ||
            type->count < 2 || type->count > 16) {
          problem = "vector type " + Id(type_id) +
                    " must have 2 to 16 integer, float or boolean components";
        } else if (!SupportedType(type->element, &problem)) {
          problem = "vector type " + Id(type_id) + ": " + problem;
        }
        break;
      }
      case Kind::kArray:
      case Kind::kRuntimeArray:
        if (!SupportedType(type->element, &problem)) {
          problem = "array type " + Id(type_id) + ": " + problem;
        }
        break;
      case Kind::kStruct:
        for (uint32_t member : type->members) {
          if (!SupportedType(member, &problem)) {
            problem = "struct type " + Id(type_id) + ": " + problem;
            break;
          }
        }
        break;
      default:
        break;
    }
  }
  supported_types_[type_id] = problem;
  if (!problem.empty()) *why = problem;
  return problem.empty();
}

}  // namespace xmx::interp
