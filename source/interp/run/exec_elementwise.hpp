// Element-wise instruction templates: one handler per (operation, element type), looping over
// lanes * components elements, so dispatch is paid once per subgroup instruction. When every
// live lane is active the loop runs over the whole register slot (the compiler vectorises it);
// otherwise only the active lanes are computed, so lanes that left the branch keep their values.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/float_formats.hpp"
#include "interp/model/subgroup.hpp"

namespace xmx::interp {

// IEEE half as stored in registers; arithmetic goes through float (exact for the operands, and
// a float result rounded once more to half is correctly rounded for + - * / sqrt, since float
// carries more than twice half's precision plus two bits).
struct Half {
  uint16_t bits;
};

template <class T>
struct Arith {
  using Compute = T;
  static T In(T v) { return v; }
  static T Out(T v) { return v; }
};
template <>
struct Arith<Half> {
  using Compute = float;
  static float In(Half v) { return HalfToFloat(v.bits); }
  static Half Out(float v) { return Half{FloatToHalf(v)}; }
};

// Not inlined into the fixed-length forms below, so that those stay small leaf functions.
template <class R, class A, class F>
__attribute__((noinline)) const Instr* ElementUnary(Subgroup& sg, const Instr* in) {
  R* r = sg.reg<R>(in->result);
  const A* a = sg.reg<const A>(in->op[0]);
  const uint32_t n = in->count;
  if (sg.full) {
    const uint32_t total = n * sg.lanes;
    for (uint32_t i = 0; i < total; ++i) r[i] = F::template Apply<A>(a[i]);
  } else {
    ForEachLane(sg.mask, [&](uint32_t lane) {
      for (uint32_t i = lane * n; i < lane * n + n; ++i) r[i] = F::template Apply<A>(a[i]);
    });
  }
  return in + 1;
}

template <class R, class A, class F>
__attribute__((noinline)) const Instr* ElementBinary(Subgroup& sg, const Instr* in) {
  R* r = sg.reg<R>(in->result);
  const A* a = sg.reg<const A>(in->op[0]);
  const A* b = sg.reg<const A>(in->op[1]);
  const uint32_t n = in->count;
  if (sg.full) {
    const uint32_t total = n * sg.lanes;
    for (uint32_t i = 0; i < total; ++i) r[i] = F::template Apply<A>(a[i], b[i]);
  } else {
    ForEachLane(sg.mask, [&](uint32_t lane) {
      for (uint32_t i = lane * n; i < lane * n + n; ++i) r[i] = F::template Apply<A>(a[i], b[i]);
    });
  }
  return in + 1;
}

// The common case of a whole subgroup active with a slot of kTotal elements (components times
// subgroup size, known at load time): a fixed-length loop over unaliased slots (an SSA result
// never shares a slot with an operand) that the compiler turns into straight vector code. The
// loops take their slots as __restrict parameters: clang ignores __restrict on local variables,
// and without it the loop stayed scalar (one load, operation and store per element).
template <class R, class A, class F, uint32_t kTotal>
inline __attribute__((always_inline)) void ApplyUnaryFixed(R* __restrict r, const A* __restrict a) {
  for (uint32_t i = 0; i < kTotal; ++i) r[i] = F::template Apply<A>(a[i]);
}
template <class R, class A, class F, uint32_t kTotal>
inline __attribute__((always_inline)) void ApplyBinaryFixed(R* __restrict r, const A* __restrict a,
                                                            const A* __restrict b) {
  for (uint32_t i = 0; i < kTotal; ++i) r[i] = F::template Apply<A>(a[i], b[i]);
}
template <class R, class A, class F, uint32_t kTotal>
const Instr* ElementUnaryFixed(Subgroup& sg, const Instr* in) {
  if (!sg.full) return ElementUnary<R, A, F>(sg, in);
  ApplyUnaryFixed<R, A, F, kTotal>(sg.reg<R>(in->result), sg.reg<const A>(in->op[0]));
  return in + 1;
}
template <class R, class A, class F, uint32_t kTotal>
const Instr* ElementBinaryFixed(Subgroup& sg, const Instr* in) {
  if (!sg.full) return ElementBinary<R, A, F>(sg, in);
  ApplyBinaryFixed<R, A, F, kTotal>(sg.reg<R>(in->result), sg.reg<const A>(in->op[0]),
                                    sg.reg<const A>(in->op[1]));
  return in + 1;
}

// Element-wise handlers for `total` elements per slot: the fixed-length form for the usual
// sizes, the general one otherwise.
template <class R, class A, class F>
Handler ElementBinaryFor(uint32_t total) {
  switch (total) {
    case 8:
      return ElementBinaryFixed<R, A, F, 8>;
    case 16:
      return ElementBinaryFixed<R, A, F, 16>;
    case 32:
      return ElementBinaryFixed<R, A, F, 32>;
    case 64:
      return ElementBinaryFixed<R, A, F, 64>;
    default:
      return ElementBinary<R, A, F>;
  }
}
template <class R, class A, class F>
Handler ElementUnaryFor(uint32_t total) {
  switch (total) {
    case 8:
      return ElementUnaryFixed<R, A, F, 8>;
    case 16:
      return ElementUnaryFixed<R, A, F, 16>;
    case 32:
      return ElementUnaryFixed<R, A, F, 32>;
    case 64:
      return ElementUnaryFixed<R, A, F, 64>;
    default:
      return ElementUnary<R, A, F>;
  }
}

// Picks the instantiation for an element of `bytes` bytes (unsigned integers by width, or
// half / float / double); Make<T>::Get(total) gives the handler for `total` elements per slot.
template <template <class> class Make>
Handler ByIntWidth(uint32_t bytes, uint32_t total) {
  switch (bytes) {
    case 1:
      return Make<uint8_t>::Get(total);
    case 2:
      return Make<uint16_t>::Get(total);
    case 4:
      return Make<uint32_t>::Get(total);
    case 8:
      return Make<uint64_t>::Get(total);
    default:
      return nullptr;
  }
}
template <template <class> class Make>
Handler ByFloatWidth(uint32_t bytes, uint32_t total) {
  switch (bytes) {
    case 2:
      return Make<Half>::Get(total);
    case 4:
      return Make<float>::Get(total);
    case 8:
      return Make<double>::Get(total);
    default:
      return nullptr;
  }
}

}  // namespace xmx::interp
