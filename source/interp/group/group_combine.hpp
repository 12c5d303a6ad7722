// How group instructions combine values: the operations, their identities (DECISIONS.md 8 for
// the exclusive scans) and reductions / scans over a sequence of lane values in increasing lane
// order, shared by the subgroup and work-group forms of exec_group.cpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "interp/model/program.hpp"
#include "interp/run/exec_elementwise.hpp"

namespace xmx::interp::group_combine {

enum class Combine : uint8_t {
  kIAdd,
  kIMul,
  kFAdd,
  kFMul,
  kSMin,
  kUMin,
  kFMin,
  kSMax,
  kUMax,
  kFMax,
  kAnd,
  kOr,
  kXor,
  kLogicalAnd,
  kLogicalOr,
  kLogicalXor
};
enum class Scan : uint8_t { kReduce, kInclusive, kExclusive };

struct GroupData {
  Combine combine;
  Scan scan;
  ScalarType scalar;
  uint32_t components;
  bool whole_subgroup;  // OpGroup*: needs every lane
};

template <class T>
T Identity(Combine c) {
  using S = std::make_signed_t<T>;
  switch (c) {
    case Combine::kIMul:
      return T(1);
    case Combine::kSMin:
      return T(std::numeric_limits<S>::max());
    case Combine::kUMin:
    case Combine::kAnd:
      return T(~T(0));
    case Combine::kSMax:
      return T(std::numeric_limits<S>::min());
    case Combine::kLogicalAnd:
      return T(1);
    default:
      return T(0);
  }
}

template <class T>
T CombineInt(Combine c, T a, T b) {
  using S = std::make_signed_t<T>;
  using W = std::conditional_t<(sizeof(T) < 4), uint32_t, T>;
  switch (c) {
    case Combine::kIAdd:
      return T(W(a) + W(b));
    case Combine::kIMul:
      return T(W(a) * W(b));
    case Combine::kSMin:
      return S(a) < S(b) ? a : b;
    case Combine::kUMin:
      return a < b ? a : b;
    case Combine::kSMax:
      return S(a) > S(b) ? a : b;
    case Combine::kUMax:
      return a > b ? a : b;
    case Combine::kAnd:
      return T(a & b);
    case Combine::kOr:
      return T(a | b);
    case Combine::kXor:
      return T(a ^ b);
    case Combine::kLogicalAnd:
      return T(a && b);
    case Combine::kLogicalOr:
      return T(a || b);
    case Combine::kLogicalXor:
      return T((a != 0) != (b != 0));
    default:
      return a;
  }
}

template <class C>
C CombineFloat(Combine c, C a, C b) {
  switch (c) {
    case Combine::kFAdd:
      return a + b;
    case Combine::kFMul:
      return a * b;
    case Combine::kFMin:
      return std::isnan(a) ? b : std::isnan(b) ? a : std::fmin(a, b);
    case Combine::kFMax:
      return std::isnan(a) ? b : std::isnan(b) ? a : std::fmax(a, b);
    default:
      return a;
  }
}

// Reduces or scans `count` values of `n` components each (value i at x + i * n), in order,
// writing one result per value.
template <class T>
void CombineSequence(const GroupData& d, const T* x, T* r, uint32_t count) {
  const uint32_t n = d.components;
  using A = Arith<T>;
  constexpr bool kFloat = std::is_floating_point_v<T> || std::is_same_v<T, Half>;
  for (uint32_t c = 0; c < n; ++c) {
    typename A::Compute acc{};
    T int_acc{};
    if constexpr (!kFloat) int_acc = Identity<T>(d.combine);
    for (uint32_t i = 0; i < count; ++i) {
      const T v = x[i * n + c];
      if constexpr (kFloat) {
        const auto before = acc;
        acc = i != 0 ? CombineFloat(d.combine, acc, A::In(v)) : A::In(v);
        if constexpr (std::is_same_v<T, Half>) acc = A::In(A::Out(acc));
        if (d.scan == Scan::kExclusive) {
          // Identities: -0.0 for addition (so -0.0 stays -0.0), +-inf for min / max, 1 for
          // multiplication.
          const typename A::Compute id = d.combine == Combine::kFMin   ? INFINITY
                                         : d.combine == Combine::kFMax ? -INFINITY
                                         : d.combine == Combine::kFMul ? 1.0f
                                                                       : -0.0f;
          r[i * n + c] = A::Out(i != 0 ? before : id);
        } else if (d.scan == Scan::kInclusive) {
          r[i * n + c] = A::Out(acc);
        }
      } else {
        const T before = int_acc;
        int_acc = CombineInt(d.combine, int_acc, v);
        if (d.scan == Scan::kExclusive) r[i * n + c] = before;
        if (d.scan == Scan::kInclusive) r[i * n + c] = int_acc;
      }
    }
    if (d.scan == Scan::kReduce) {
      for (uint32_t i = 0; i < count; ++i) {
        if constexpr (kFloat) {
          r[i * n + c] = A::Out(acc);
        } else {
          r[i * n + c] = int_acc;
        }
      }
    }
  }
}

inline void CombineBytes(const GroupData& d, const uint8_t* x, uint8_t* r, uint32_t count) {
  if (d.scalar.kind == ScalarKind::kFloat) {
    switch (d.scalar.bytes) {
      case 2:
        CombineSequence(d, reinterpret_cast<const Half*>(x), reinterpret_cast<Half*>(r), count);
        break;
      case 4:
        CombineSequence(d, reinterpret_cast<const float*>(x), reinterpret_cast<float*>(r), count);
        break;
      default:
        CombineSequence(d, reinterpret_cast<const double*>(x), reinterpret_cast<double*>(r), count);
        break;
    }
  } else {
    switch (d.scalar.bytes) {
      case 1:
        CombineSequence(d, x, r, count);
        break;
      case 2:
        CombineSequence(d, reinterpret_cast<const uint16_t*>(x), reinterpret_cast<uint16_t*>(r),
                        count);
        break;
      case 4:
        CombineSequence(d, reinterpret_cast<const uint32_t*>(x), reinterpret_cast<uint32_t*>(r),
                        count);
        break;
      default:
        CombineSequence(d, reinterpret_cast<const uint64_t*>(x), reinterpret_cast<uint64_t*>(r),
                        count);
        break;
    }
  }
}

}  // namespace xmx::interp::group_combine
