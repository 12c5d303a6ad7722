// The scalar semantics of the integer, float, bit, logical and relational instructions, one
// functor per operation (`Apply` on one component), for the element-wise handlers of
// exec_arith.cpp to instantiate per component type.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "interp/run/exec_elementwise.hpp"

namespace xmx::interp::arith_ops {

// Narrow unsigned types promote to int in C++; widen them to unsigned so wrap-around is defined.
template <class T>
using Wide = std::conditional_t<(sizeof(T) < 4), uint32_t, T>;
template <class T>
using Signed = std::make_signed_t<T>;
template <class T>
constexpr uint32_t kBits = sizeof(T) * 8;

struct IAdd {
  template <class T>
  static T Apply(T a, T b) {
    return T(Wide<T>(a) + Wide<T>(b));
  }
};
struct ISub {
  template <class T>
  static T Apply(T a, T b) {
    return T(Wide<T>(a) - Wide<T>(b));
  }
};
struct IMul {
  template <class T>
  static T Apply(T a, T b) {
    return T(Wide<T>(a) * Wide<T>(b));
  }
};
struct BitAnd {
  template <class T>
  static T Apply(T a, T b) {
    return T(a & b);
  }
};
struct BitOr {
  template <class T>
  static T Apply(T a, T b) {
    return T(a | b);
  }
};
struct BitXor {
  template <class T>
  static T Apply(T a, T b) {
    return T(a ^ b);
  }
};
// Shifts by the width or more give an undefined value in SPIR-V; OpenCL C masks the amount, and
// so do we.
struct Shl {
  template <class T>
  static T Apply(T a, T b) {
    return T(Wide<T>(a) << (b % kBits<T>));
  }
};
struct Shr {
  template <class T>
  static T Apply(T a, T b) {
    return T(a >> (b % kBits<T>));
  }
};
struct Sar {
  template <class T>
  static T Apply(T a, T b) {
    return T(static_cast<Signed<T>>(a) >> (b % kBits<T>));
  }
};
struct SNegate {
  template <class T>
  static T Apply(T a) {
    return T(Wide<T>(0) - Wide<T>(a));
  }
};
struct Not {
  template <class T>
  static T Apply(T a) {
    return T(~a);
  }
};
struct BitCount {
  template <class T>
  static T Apply(T a) {
    return T(std::popcount(a));
  }
};
struct BitReverse {
  template <class T>
  static T Apply(T a) {
    T r = 0;
    for (uint32_t i = 0; i < kBits<T>; ++i) r = T(r | (((a >> i) & 1) << (kBits<T> - 1 - i)));
    return r;
  }
};

template <class Op>
struct FloatOp {
  template <class T>
  static T Apply(T a, T b) {
    using A = Arith<T>;
    return A::Out(Op::Apply(A::In(a), A::In(b)));
  }
};
struct FAddOp {
  template <class C>
  static C Apply(C a, C b) {
    return a + b;
  }
};
struct FSubOp {
  template <class C>
  static C Apply(C a, C b) {
    return a - b;
  }
};
struct FMulOp {
  template <class C>
  static C Apply(C a, C b) {
    return a * b;
  }
};
struct FDivOp {
  template <class C>
  static C Apply(C a, C b) {
    return a / b;
  }
};
struct FRemOp {
  template <class C>
  static C Apply(C a, C b) {
    return std::fmod(a, b);
  }
};
struct FModOp {
  template <class C>
  static C Apply(C a, C b) {
    C r = std::fmod(a, b);
    if (r != 0 && std::signbit(r) != std::signbit(b)) r += b;
    return r;
  }
};

// Comparisons produce bools (one byte).
template <class Op>
struct Compare {
  template <class T>
  static uint8_t Apply(T a, T b) {
    using A = Arith<T>;
    return Op::Apply(A::In(a), A::In(b)) ? 1 : 0;
  }
};
struct Eq {
  template <class C>
  static bool Apply(C a, C b) {
    return a == b;
  }
};
struct Ne {
  template <class C>
  static bool Apply(C a, C b) {
    return a != b;
  }
};
struct ULt {
  template <class C>
  static bool Apply(C a, C b) {
    return a < b;
  }
};
struct ULe {
  template <class C>
  static bool Apply(C a, C b) {
    return a <= b;
  }
};
struct UGt {
  template <class C>
  static bool Apply(C a, C b) {
    return a > b;
  }
};
struct UGe {
  template <class C>
  static bool Apply(C a, C b) {
    return a >= b;
  }
};
struct SLt {
  template <class C>
  static bool Apply(C a, C b) {
    return Signed<C>(a) < Signed<C>(b);
  }
};
struct SLe {
  template <class C>
  static bool Apply(C a, C b) {
    return Signed<C>(a) <= Signed<C>(b);
  }
};
struct SGt {
  template <class C>
  static bool Apply(C a, C b) {
    return Signed<C>(a) > Signed<C>(b);
  }
};
struct SGe {
  template <class C>
  static bool Apply(C a, C b) {
    return Signed<C>(a) >= Signed<C>(b);
  }
};
template <class C>
bool Unordered(C a, C b) {
  return std::isnan(a) || std::isnan(b);
}
struct FOrdEq {
  template <class C>
  static bool Apply(C a, C b) {
    return a == b;
  }
};
struct FUnordEq {
  template <class C>
  static bool Apply(C a, C b) {
    return Unordered(a, b) || a == b;
  }
};
struct FOrdNe {
  template <class C>
  static bool Apply(C a, C b) {
    return !Unordered(a, b) && a != b;
  }
};
struct FUnordNe {
  template <class C>
  static bool Apply(C a, C b) {
    return a != b;
  }
};
struct FOrdLt {
  template <class C>
  static bool Apply(C a, C b) {
    return a < b;
  }
};
struct FUnordLt {
  template <class C>
  static bool Apply(C a, C b) {
    return !(a >= b);
  }
};
struct FOrdLe {
  template <class C>
  static bool Apply(C a, C b) {
    return a <= b;
  }
};
struct FUnordLe {
  template <class C>
  static bool Apply(C a, C b) {
    return !(a > b);
  }
};
struct FOrdGt {
  template <class C>
  static bool Apply(C a, C b) {
    return a > b;
  }
};
struct FUnordGt {
  template <class C>
  static bool Apply(C a, C b) {
    return !(a <= b);
  }
};
struct FOrdGe {
  template <class C>
  static bool Apply(C a, C b) {
    return a >= b;
  }
};
struct FUnordGe {
  template <class C>
  static bool Apply(C a, C b) {
    return !(a < b);
  }
};
struct Ordered {
  template <class C>
  static bool Apply(C a, C b) {
    return !Unordered(a, b);
  }
};
struct UnorderedOp {
  template <class C>
  static bool Apply(C a, C b) {
    return Unordered(a, b);
  }
};
struct LessOrGreater {
  template <class C>
  static bool Apply(C a, C b) {
    return a < b || a > b;
  }
};

template <class Op>
struct Test {
  template <class T>
  static uint8_t Apply(T a) {
    return Op::Apply(Arith<T>::In(a)) ? 1 : 0;
  }
};
struct IsNan {
  template <class C>
  static bool Apply(C a) {
    return std::isnan(a);
  }
};
struct IsInf {
  template <class C>
  static bool Apply(C a) {
    return std::isinf(a);
  }
};
struct IsFinite {
  template <class C>
  static bool Apply(C a) {
    return std::isfinite(a);
  }
};
struct IsNormal {
  template <class C>
  static bool Apply(C a) {
    return std::isnormal(a);
  }
};
struct SignBit {
  template <class C>
  static bool Apply(C a) {
    return std::signbit(a);
  }
};

// FNegate flips the sign bit, NaN payloads included.
struct FlipSign {
  template <class T>
  static T Apply(T a) {
    return T(a ^ (T(1) << (kBits<T> - 1)));
  }
};

struct LogicalAnd {
  template <class T>
  static T Apply(T a, T b) {
    return T(a && b);
  }
};
struct LogicalOr {
  template <class T>
  static T Apply(T a, T b) {
    return T(a || b);
  }
};
struct LogicalEq {
  template <class T>
  static T Apply(T a, T b) {
    return T((a != 0) == (b != 0));
  }
};
struct LogicalNe {
  template <class T>
  static T Apply(T a, T b) {
    return T((a != 0) != (b != 0));
  }
};
struct LogicalNot {
  template <class T>
  static T Apply(T a) {
    return T(a == 0);
  }
};

}  // namespace xmx::interp::arith_ops
