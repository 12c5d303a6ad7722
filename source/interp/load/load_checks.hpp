// The per-instruction checks of load_checks.cpp, shared by the files that implement them (one
// per group of opcodes). Private to the loader.
#pragma once

#include <string>

#include "interp/load/loader.hpp"

namespace xmx::interp::load_checks {

using spv::Op;
using Kind = ir::TypeKind;

inline std::string Id(uint32_t id) { return "%" + std::to_string(id); }

// Cooperative matrices count as vectors here: each invocation holds its slice of the matrix, and
// element-wise arithmetic and conversions apply to the slice.
inline bool IsScalarOrVectorOf(const TypeInfo& t, ScalarKind scalar) {
  return (t.kind == Kind::kVector || t.kind == Kind::kCooperativeMatrix ||
          t.kind == (scalar == ScalarKind::kInt     ? Kind::kInt
                     : scalar == ScalarKind::kFloat ? Kind::kFloat
                                                    : Kind::kBool)) &&
         t.value.scalar.kind == scalar;
}

// Two values of these types occupy the same bytes per lane in the same way.
inline bool SameShape(const TypeInfo& a, const TypeInfo& b) {
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
  bool BFloat16Allowed();

  Loader& loader_;
  const ir::Instruction& inst_;
};

}  // namespace xmx::interp::load_checks
