// The structural facts the binders rely on, checked for every instruction before it is bound,
// whatever the validator said: a module holding a type SPIRV-Tools cannot see (a cooperative
// matrix, say) skips core validation, and a binder that trusted such a module would read or
// write outside its slots. Each check names the instruction in the load's error:
// - every id operand has a definition, and the result type is a type;
// - every type the instruction produces or reads is one xmx-run has a layout for (integers of
//   8, 16, 32 or 64 bits, floats of 16, 32 or 64 bits, vectors of 2 to 16 of them, arrays and
//   structs of such types);
// - the operands of each opcode class have the shapes its handler assumes (the operand classes
//   of the SPIR-V specification's "Validation Rules" for arithmetic, comparisons, conversions,
//   selects, memory and calls). Shapes, not type ids: OpenCL's signless integers make IAdd of
//   two different integer type ids of one width legal.
#include "interp/load/load_checks.hpp"

#include <string>

#include "interp/coop/coop_support.hpp"
#include "ir/id_operands.hpp"

namespace xmx::interp {
namespace load_checks {

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
  return BFloat16Allowed() && Opcode();
}

// bfloat16 values are 16-bit patterns to xmx-run: instructions that move them, the conversions
// to and from other floats (exec_coop_convert.cpp) and the cooperative-matrix instructions take
// them; arithmetic would compute with them as halves, so it is refused.
bool InstructionCheck::BFloat16Allowed() {
  const ir::TypeTable& types = loader_.types();
  uint32_t found = 0;
  if (inst_.has_result_type() && HasBFloat16Components(types, inst_.result_type_id())) {
    found = inst_.result_type_id();
  }
  for (size_t i = 0; i < inst_.num_operands() && found == 0; ++i) {
    if (!grammar::IsIdKind(inst_.operand(i).kind)) continue;
    const uint32_t type = loader_.ValueTypeId(inst_.word(i));
    if (type != 0 && HasBFloat16Components(types, type)) found = type;
  }
  if (found == 0) return true;
  switch (inst_.opcode()) {
    case Op::OpFunction:
    case Op::OpFunctionParameter:
    case Op::OpUndef:
    case Op::OpLoad:
    case Op::OpStore:
    case Op::OpVariable:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
    case Op::OpCompositeConstruct:
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic:
    case Op::OpVectorShuffle:
    case Op::OpCopyObject:
    case Op::OpBitcast:
    case Op::OpSelect:
    case Op::OpPhi:
    case Op::OpFunctionCall:
    case Op::OpReturnValue:
    case Op::OpFConvert:
    case Op::OpCooperativeMatrixLoadKHR:
    case Op::OpCooperativeMatrixStoreKHR:
    case Op::OpCooperativeMatrixMulAddKHR:
    case Op::OpCooperativeMatrixLoadCheckedINTEL:
    case Op::OpCooperativeMatrixStoreCheckedINTEL:
    case Op::OpCooperativeMatrixConstructCheckedINTEL:
    case Op::OpCooperativeMatrixGetElementCoordINTEL:
      return true;
    default:
      return Fail("xmx-run computes with bfloat16 (type " + Id(found) +
                  ") only in conversions to and from other floats; this instruction would "
                  "compute with it as a half");
  }
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
    case Op::OpMatrixTimesScalar:
      if (Result().kind != Kind::kCooperativeMatrix) {
        return Fail("xmx-run executes OpMatrixTimesScalar on cooperative matrices only");
      }
      [[fallthrough]];
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
    case Op::OpAtomicStore:  // its Value is operand 3, as the read-modify-writes' is
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

}  // namespace load_checks

bool CheckInstruction(Loader& loader, const ir::Instruction& inst) {
  return load_checks::InstructionCheck(loader, inst).Run();
}

}  // namespace xmx::interp
