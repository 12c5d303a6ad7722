// One whole Run (matrix_mad_kernels.cpp explains it): the drivers for integers and floats, C
// and Result conversions, and the Catalogue that fills a Plan's function pointers from one
// instruction-set family. Each matrix_mad_<family>.cpp instantiates it for its family;
// internal.
#pragma once

#include <cstring>

#include "interp/matrix_mad/matrix_mad_arith.hpp"
#include "interp/matrix_mad/matrix_mad_internal.hpp"
#include "interp/matrix_mad/matrix_mad_unpack.hpp"

namespace xmx::interp::matrix_mad_detail {

// --- 4. Drivers -------------------------------------------------------------------------------

template <uint32_t kRows, MmaIsa kIsa>
struct IntegerRun {
  XMX_MMA_INLINE static void Run(const Plan& p, const uint8_t* a, const uint8_t* b,
                                 const uint8_t* c, uint8_t* result) {
    alignas(64) int16_t b_values[kMaxColumns * kMaxK];
    alignas(64) int16_t a_values[2][kMaxKTimesRows];
    alignas(64) uint32_t acc[2][kMaxColumns * kMaxRows];
    const uint32_t columns = p.columns, kp = p.padded_k, rows = p.half_rows;
    // When the rows fill the vectors, a half of C (or Result) is exactly the accumulator array.
    const bool dense = rows == kRows;
    const size_t half_c = size_t{columns} * p.c_lane_bytes;
    const size_t half_result = size_t{columns} * p.result_lane_bytes;
    p.unpack_b(p, b, 0, b_values);
    for (uint32_t h = 0; h < p.halves; ++h) {
      p.unpack_a(p, a, h, a_values[h]);
      if (dense) {
        std::memcpy(acc[h], c + h * half_c, half_c);
        continue;
      }
      std::memset(acc[h], 0, sizeof(uint32_t) * columns * kRows);
      for (uint32_t n = 0; n < columns; ++n) {
        const uint8_t* lane = c + h * half_c + size_t{n} * p.c_lane_bytes;
        for (uint32_t r = 0; r < rows; ++r) acc[h][n * kRows + r] = Load32(lane + 4 * r);
      }
    }
    for (uint32_t h = 0; h < p.halves; ++h) {
      IntCore<kRows, kIsa>(acc[h], a_values[h], b_values, columns, kp);
    }
    for (uint32_t h = 0; h < p.halves; ++h) {
      if (dense) {
        std::memcpy(result + h * half_result, acc[h], half_result);
        continue;
      }
      for (uint32_t n = 0; n < columns; ++n) {
        uint8_t* lane = result + h * half_result + size_t{n} * p.result_lane_bytes;
        for (uint32_t r = 0; r < rows; ++r) Store32(lane + 4 * r, acc[h][n * kRows + r]);
      }
    }
  }
};

// C into the accumulators ([column][kRows], padding rows zero), as doubles; returns C's
// exponent range.
template <Element kFormat>
XMX_MMA_INLINE ExponentRange LoadFloatCAs(const Plan& p, const uint8_t* c, uint32_t half,
                                          uint32_t padded_rows, double* __restrict acc) {
  constexpr uint32_t kBytes = kFormat == Element::kFloat ? 4 : 2;
  const uint32_t columns = p.columns, rows = p.half_rows;
  const uint8_t* __restrict in = c + size_t{half} * columns * p.c_lane_bytes;
  KeyRange keys;
  if (rows == padded_rows) {  // the half is [column][row] already
    DecodeStream<kFormat, 8 * kBytes>(in, acc, columns * rows, keys);
  } else {
    std::memset(acc, 0, sizeof(double) * columns * padded_rows);
    for (uint32_t n = 0; n < columns; ++n) {
      DecodeStream<kFormat, 8 * kBytes>(in + size_t{n} * p.c_lane_bytes, acc + n * padded_rows,
                                        rows, keys);
    }
  }
  return ExponentsOf<kFormat>(keys);
}

template <uint32_t kRows>
XMX_MMA_INLINE ExponentRange LoadFloatC(const Plan& p, const uint8_t* c, uint32_t half,
                                        double* acc) {
  switch (p.c_format) {
    case Accumulator::kHalf:
      return LoadFloatCAs<Element::kHalf>(p, c, half, kRows, acc);
    case Accumulator::kBFloat16:
      return LoadFloatCAs<Element::kBFloat16>(p, c, half, kRows, acc);
    default:
      return LoadFloatCAs<Element::kFloat>(p, c, half, kRows, acc);
  }
}

// fp32 Results: out[x] = in[x] rounded to nearest even, NaN as the canonical quiet NaN.
XMX_MMA_INLINE void EncodeFloats(const double* __restrict in, uint8_t* __restrict out,
                                 uint32_t count) {
  ForEachStep(count, [&](size_t x) XMX_MMA_LAMBDA_INLINE {
    const float f = static_cast<float>(in[x]);
    Store32(out + 4 * x, f != f ? kFloatFormat.nan_pattern : std::bit_cast<uint32_t>(f));
  });
}

// bf16 / fp16 Results, the same rounding done on the bits: the significand rounded to nearest
// even and the exponent rebiased, which is right for results in the format's normal range (a
// carry into the all-ones exponent gives infinity, as it should) and for zeros. Returns whether
// any value lies outside that range; the caller redoes those with EncodeFloat.
template <bool kBFloat16>
XMX_MMA_INLINE bool EncodeNarrow(const double* __restrict in, uint8_t* __restrict out,
                                 uint32_t count) {
  // Normal range of the format as biased double exponents; the shift drops the significand
  // bits the format lacks, and the rebias moves the exponent from double's bias to the format's.
  constexpr uint32_t kLowest = kBFloat16 ? 897 : 1009, kHighest = kBFloat16 ? 1150 : 1038;
  constexpr uint32_t kShift = kBFloat16 ? 45 : 42, kRebias = kBFloat16 ? 896 : 1008;
  constexpr uint32_t kFieldMask = kBFloat16 ? 0x3FFFFu : 0x1FFFFFu;  // exponent and mantissa
  uint32_t outliers = 0;
  ForEachStep(count, [&](size_t x) XMX_MMA_LAMBDA_INLINE {
    const uint64_t u = std::bit_cast<uint64_t>(in[x]);
    const uint64_t rounded = u + ((uint64_t{1} << (kShift - 1)) - 1) + ((u >> kShift) & 1);
    const uint32_t fields = static_cast<uint32_t>(rounded >> kShift) & kFieldMask;
    const uint32_t sign = static_cast<uint32_t>(u >> 63) << 15;
    const uint32_t e = static_cast<uint32_t>(u >> 52) & 0x7FFu;
    Store16(out + 2 * x, e == 0 ? sign : sign | (fields - (kRebias << (52 - kShift))));
    outliers |= static_cast<uint32_t>(e != 0 && e - kLowest > kHighest - kLowest);
  });
  return outliers != 0;
}

// The Result half from the accumulators: each value rounded once to nearest even; NaN becomes
// the format's canonical quiet NaN.
template <uint32_t kRows>
XMX_MMA_INLINE void StoreFloatResults(const Plan& p, const double* acc, uint32_t half,
                                      uint8_t* result) {
  const uint32_t columns = p.columns, rows = p.half_rows;
  const uint32_t bytes = p.result_format == Accumulator::kFloat ? 4 : 2;
  uint8_t* out = result + size_t{half} * columns * p.result_lane_bytes;
  // A run of values to a run of Result components; true if some need EncodeFloat after all.
  auto encode = [&](const double* in, uint8_t* to, uint32_t count) XMX_MMA_LAMBDA_INLINE {
    switch (p.result_format) {
      case Accumulator::kBFloat16:
        return EncodeNarrow<true>(in, to, count);
      case Accumulator::kHalf:
        return EncodeNarrow<false>(in, to, count);
      default:
        EncodeFloats(in, to, count);
        return false;
    }
  };
  bool outliers = false;
  if (rows == kRows) {  // the half is [column][row] already
    outliers = encode(acc, out, columns * kRows);
  } else {
    for (uint32_t n = 0; n < columns; ++n) {
      outliers |= encode(acc + n * kRows, out + size_t{n} * p.result_lane_bytes, rows);
    }
  }
  if (!outliers) return;
  for (uint32_t n = 0; n < columns; ++n) {  // subnormal, overflowing, Inf and NaN narrow results
    for (uint32_t r = 0; r < rows; ++r) {
      const double x = acc[n * kRows + r];
      const uint32_t e = static_cast<uint32_t>(BiasedExponent(x));
      const uint32_t lowest = p.result_format == Accumulator::kBFloat16 ? 897 : 1009;
      const uint32_t highest = p.result_format == Accumulator::kBFloat16 ? 1150 : 1038;
      if (e != 0 && e - lowest > highest - lowest) {
        StoreFloatResult(out + size_t{n} * p.result_lane_bytes + bytes * r, p.result_format, x);
      }
    }
  }
}

template <uint32_t kRows, MmaIsa kIsa, FloatSum kSum>
struct FloatRun {
  XMX_MMA_INLINE static void Run(const Plan& p, const uint8_t* a, const uint8_t* b,
                                 const uint8_t* c, uint8_t* result) {
    alignas(64) double b_values[kMaxColumns * kMaxK];
    alignas(64) double a_values[2][kMaxKTimesRows];
    alignas(64) double acc[2][kMaxColumns * kMaxRows];
    const uint32_t columns = p.columns, k = p.k, kp = p.padded_k;
    const ExponentRange rb = p.unpack_b(p, b, 0, b_values);
    ExponentRange ra, rc;
    for (uint32_t h = 0; h < p.halves; ++h) {
      ra = Union(ra, p.unpack_a(p, a, h, a_values[h]));
      rc = Union(rc, LoadFloatC<kRows>(p, c, h, acc[h]));
    }
    bool exact = true;
    if constexpr (kSum == FloatSum::kExact) exact = DoubleSumIsExact(p, ra, rb, rc);
    for (uint32_t h = 0; h < p.halves; ++h) {
      FloatCore<kRows, kIsa, kSum>(acc[h], a_values[h], b_values, columns, k, kp);
    }
    if (!exact) {
      for (uint32_t h = 0; h < p.halves; ++h) {
        RefineInexactSums(p, h, a_values[h], b_values, c, acc[h]);
      }
    }
    for (uint32_t h = 0; h < p.halves; ++h) StoreFloatResults<kRows>(p, acc[h], h, result);
  }
};

// --- Families ----------------------------------------------------------------------------------

// An instruction-set family's entry points: Op's routine inlined into a function compiled with
// `Attributes` (a target attribute, or nothing for the portable family).
#define XMX_MMA_DEFINE_ENTRY(Name, Attributes)                                                    \
  template <class Op>                                                                             \
  struct Name {                                                                                   \
    Attributes XMX_MMA_FLATTEN static ExponentRange Unpack(const Plan& p, const uint8_t* slot,    \
                                                           uint32_t half, void* values) {         \
      return Op::Run(p, slot, half, values);                                                      \
    }                                                                                             \
    Attributes XMX_MMA_FLATTEN static void Run(const Plan& p, const uint8_t* a, const uint8_t* b, \
                                               const uint8_t* c, uint8_t* result) {               \
      Op::Run(p, a, b, c, result);                                                                \
    }                                                                                             \
  };

// Fills a Plan's function pointers with one family's routines for its formats and row count.
template <template <class> class Entry, MmaIsa kIsa>
struct Catalogue {
  // A: by element format, then by component width (the widths that can hold the element).
  template <Element kElement, uint32_t kBits>
  static UnpackFn UnpackAFor(uint32_t component_bytes) {
    switch (component_bytes) {
      case 1:
        if constexpr (kBits <= 8) return &Entry<UnpackA<kBits, 1, kElement>>::Unpack;
        break;
      case 2:
        if constexpr (kBits <= 16) return &Entry<UnpackA<kBits, 2, kElement>>::Unpack;
        break;
      default:
        return &Entry<UnpackA<kBits, 4, kElement>>::Unpack;
    }
    return nullptr;
  }
  template <Element kElement, uint32_t kBits>
  static UnpackFn UnpackBFor(bool paired) {
    return paired ? &Entry<UnpackB<kBits, true, kElement>>::Unpack
                  : &Entry<UnpackB<kBits, false, kElement>>::Unpack;
  }
  // Calls choose.template operator()<element, bits>() for the plan's element `e`.
  template <class Choose>
  static UnpackFn ForElement(Element e, Choose choose) {
    switch (e) {
      case Element::kUint4:
        return choose.template operator()<Element::kUint4, 4>();
      case Element::kInt4:
        return choose.template operator()<Element::kInt4, 4>();
      case Element::kUint8:
        return choose.template operator()<Element::kUint8, 8>();
      case Element::kInt8:
        return choose.template operator()<Element::kInt8, 8>();
      case Element::kFloat4E2M1:
        return choose.template operator()<Element::kFloat4E2M1, 4>();
      case Element::kFloat8E4M3:
        return choose.template operator()<Element::kFloat8E4M3, 8>();
      case Element::kFloat8E5M2:
        return choose.template operator()<Element::kFloat8E5M2, 8>();
      case Element::kHalf:
        return choose.template operator()<Element::kHalf, 16>();
      case Element::kBFloat16:
        return choose.template operator()<Element::kBFloat16, 16>();
      case Element::kTf32:
        return choose.template operator()<Element::kTf32, 32>();
      case Element::kFloat:
        return choose.template operator()<Element::kFloat, 32>();
    }
    return nullptr;
  }

  template <uint32_t kRows>
  using Integer = IntegerRun<kRows, kIsa>;
  template <uint32_t kRows>
  using Exact = FloatRun<kRows, kIsa, FloatSum::kExact>;
  template <uint32_t kRows>
  using Ordered = FloatRun<kRows, kIsa, FloatSum::kOrdered>;
  template <uint32_t kRows>
  using OrderedFma = FloatRun<kRows, kIsa, FloatSum::kOrderedFma>;

  template <template <uint32_t> class Driver>
  static RunFn RunFor(uint32_t padded_rows) {
    switch (padded_rows) {
      case 1:
        return &Entry<Driver<1>>::Run;
      case 2:
        return &Entry<Driver<2>>::Run;
      case 4:
        return &Entry<Driver<4>>::Run;
      case 8:
        return &Entry<Driver<8>>::Run;
      default:
        return &Entry<Driver<16>>::Run;
    }
  }

  static void Fill(Plan* p) {
    const uint32_t a_component_bytes = p->a_component_bytes;
    p->unpack_a = ForElement(p->a_element, [&]<Element kElement, uint32_t kBits>() {
      return UnpackAFor<kElement, kBits>(a_component_bytes);
    });
    const bool paired = p->halves == 2;
    p->unpack_b = ForElement(p->b_element, [&]<Element kElement, uint32_t kBits>() {
      return UnpackBFor<kElement, kBits>(paired);
    });
    if (IsSmallInteger(p->a_element)) {
      p->run = RunFor<Integer>(p->padded_rows);
    } else if (p->model == MmaFloatModel::kExact) {
      p->run = RunFor<Exact>(p->padded_rows);
    } else if (p->a_precision + p->b_precision <= 24) {
      p->run = RunFor<Ordered>(p->padded_rows);
    } else {
      p->run = RunFor<OrderedFma>(p->padded_rows);
    }
  }
};

}  // namespace xmx::interp::matrix_mad_detail
