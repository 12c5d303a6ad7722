// Element-wise instruction templates: one handler per (operation, element type), looping over
// lanes * components elements, so dispatch is paid once per subgroup instruction. When every
// live lane is active the loop runs over the whole register slot (the compiler vectorises it);
// otherwise only the active lanes are computed, so lanes that left the branch keep their values.
#pragma once

#include <cstdint>
#include <type_traits>

#include "interp/float_formats.hpp"
#include "interp/subgroup.hpp"

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

template <class R, class A, class F>
const Instr* ElementUnary(Subgroup& sg, const Instr* in) {
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
const Instr* ElementBinary(Subgroup& sg, const Instr* in) {
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

// Picks the instantiation for an element of `bytes` bytes: unsigned integers by width.
template <template <class> class Make>
Handler ByIntWidth(uint32_t bytes) {
  switch (bytes) {
    case 1:
      return Make<uint8_t>::value;
    case 2:
      return Make<uint16_t>::value;
    case 4:
      return Make<uint32_t>::value;
    case 8:
      return Make<uint64_t>::value;
    default:
      return nullptr;
  }
}
template <template <class> class Make>
Handler ByFloatWidth(uint32_t bytes) {
  switch (bytes) {
    case 2:
      return Make<Half>::value;
    case 4:
      return Make<float>::value;
    case 8:
      return Make<double>::value;
    default:
      return nullptr;
  }
}

}  // namespace xmx::interp
