// The multiply-accumulate cores (matrix_mad_kernels.cpp explains the whole run): integers from
// int16 pairs into uint32, floats in double, vectorized over the rows of a column. Templates
// shared by the instruction-set families; internal.
#pragma once

#include <cmath>
#include <cstring>

#include "interp/matrix_mad/matrix_mad_internal.hpp"

#if XMX_MMA_X86
#include <immintrin.h>
#endif

namespace xmx::interp::matrix_mad_detail {

// --- 3. Multiply-accumulate cores ------------------------------------------------------------

// Columns handled together, so that enough independent accumulator chains are in flight
// (about 8-12 vector registers of accumulators), given vectors of `lanes` elements.
constexpr uint32_t ColumnBlock(uint32_t rows, uint32_t lanes) {
  const uint32_t registers = rows <= lanes ? 1 : rows / lanes;
  const uint32_t fit = 12 / registers;
  return fit >= 8 ? 8 : fit >= 4 ? 4 : fit >= 2 ? 2 : 1;
}

// Integers, plain C++: acc[n][r] += sum over pairs q of a[q][r][0] b[n][2q] + a[q][r][1]
// b[n][2q+1]. Each pair sum fits in int32 (at most 2 * 255 * 255); the total wraps in uint32.
template <uint32_t kRows, uint32_t kCols>
XMX_MMA_INLINE void IntBlockPlain(uint32_t* acc, const int16_t* a, const int16_t* b, size_t kp) {
  uint32_t s[kCols][kRows];
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t r = 0; r < kRows; ++r) s[j][r] = acc[j * kRows + r];
  }
  for (size_t q = 0; q < kp / 2; ++q, a += 2 * kRows) {
    for (uint32_t j = 0; j < kCols; ++j) {
      const int32_t b0 = b[j * kp + 2 * q], b1 = b[j * kp + 2 * q + 1];
      for (uint32_t r = 0; r < kRows; ++r) {
        s[j][r] += static_cast<uint32_t>(a[2 * r] * b0 + a[2 * r + 1] * b1);
      }
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t r = 0; r < kRows; ++r) acc[j * kRows + r] = s[j][r];
  }
}

#if XMX_MMA_X86
// The pair (b[2q], b[2q+1]) of a column as one int32, ready to broadcast.
XMX_MMA_INLINE int32_t PairAt(const int16_t* column, size_t q) {
  int32_t v;
  std::memcpy(&v, column + 2 * q, 4);
  return v;
}

// The same with SSE2's pmaddwd (x86-64 baseline): 4 rows per register. kFixedKp as below.
template <uint32_t kRows, uint32_t kCols, uint32_t kFixedKp = 0>
XMX_MMA_INLINE void IntBlockSse2(uint32_t* acc, const int16_t* a, const int16_t* b,
                                 size_t runtime_kp) {
  const size_t kp = kFixedKp != 0 ? kFixedKp : runtime_kp;
  constexpr uint32_t kVectors = kRows / 4;
  __m128i s[kCols][kVectors];
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t v = 0; v < kVectors; ++v) {
      s[j][v] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + j * kRows + 4 * v));
    }
  }
  for (size_t q = 0; q < kp / 2; ++q, a += 2 * kRows) {
    __m128i av[kVectors];
    for (uint32_t v = 0; v < kVectors; ++v) {
      av[v] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 8 * v));
    }
    for (uint32_t j = 0; j < kCols; ++j) {
      const __m128i pair = _mm_set1_epi32(PairAt(b + j * kp, q));
      for (uint32_t v = 0; v < kVectors; ++v) {
        s[j][v] = _mm_add_epi32(s[j][v], _mm_madd_epi16(av[v], pair));
      }
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t v = 0; v < kVectors; ++v) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(acc + j * kRows + 4 * v), s[j][v]);
    }
  }
}

// And with AVX2: 8 rows per register. (Not forced inline: it carries the AVX2 target itself,
// and the integer core calls it from code that only becomes AVX2 once inlined into an entry.)
// kFixedKp, when not 0, is padded_k known at compile time: the columns' offsets in b become
// immediates instead of a chain of address additions per pair of k.
template <uint32_t kRows, uint32_t kCols, uint32_t kFixedKp = 0>
XMX_MMA_AVX2 inline void IntBlockAvx2(uint32_t* acc, const int16_t* a, const int16_t* b,
                                      size_t runtime_kp) {
  const size_t kp = kFixedKp != 0 ? kFixedKp : runtime_kp;
  constexpr uint32_t kVectors = kRows / 8;
  __m256i s[kCols][kVectors];
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t v = 0; v < kVectors; ++v) {
      s[j][v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + j * kRows + 8 * v));
    }
  }
  for (size_t q = 0; q < kp / 2; ++q, a += 2 * kRows) {
    __m256i av[kVectors];
    for (uint32_t v = 0; v < kVectors; ++v) {
      av[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 16 * v));
    }
    for (uint32_t j = 0; j < kCols; ++j) {
      const __m256i pair = _mm256_set1_epi32(PairAt(b + j * kp, q));
      for (uint32_t v = 0; v < kVectors; ++v) {
        s[j][v] = _mm256_add_epi32(s[j][v], _mm256_madd_epi16(av[v], pair));
      }
    }
  }
  for (uint32_t j = 0; j < kCols; ++j) {
    for (uint32_t v = 0; v < kVectors; ++v) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + j * kRows + 8 * v), s[j][v]);
    }
  }
}
#endif

template <uint32_t kRows, MmaIsa kIsa>
XMX_MMA_INLINE void IntCore(uint32_t* acc, const int16_t* a, const int16_t* b, uint32_t columns,
                            uint32_t kp) {
#if XMX_MMA_X86
  if constexpr (kIsa != MmaIsa::kPortable && kRows >= 8) {
    constexpr uint32_t kCols = ColumnBlock(kRows, 8);
    uint32_t n = 0;
    for (; n + kCols <= columns; n += kCols) {
      // K 32 (int8) and 64 (int4) are the table's.
      if (kp == 32) {
        IntBlockAvx2<kRows, kCols, 32>(acc + n * kRows, a, b + n * kp, kp);
      } else if (kp == 64) {
        IntBlockAvx2<kRows, kCols, 64>(acc + n * kRows, a, b + n * kp, kp);
      } else {
        IntBlockAvx2<kRows, kCols>(acc + n * kRows, a, b + n * kp, kp);
      }
    }
    for (; n < columns; ++n) IntBlockAvx2<kRows, 1>(acc + n * kRows, a, b + n * kp, kp);
    return;
  } else if constexpr (kRows >= 4) {
    constexpr uint32_t kCols = ColumnBlock(kRows, 4);
    uint32_t n = 0;
    for (; n + kCols <= columns; n += kCols) {
      if (kp == 32) {
        IntBlockSse2<kRows, kCols, 32>(acc + n * kRows, a, b + n * kp, kp);
      } else if (kp == 64) {
        IntBlockSse2<kRows, kCols, 64>(acc + n * kRows, a, b + n * kp, kp);
      } else {
        IntBlockSse2<kRows, kCols>(acc + n * kRows, a, b + n * kp, kp);
      }
    }
    for (; n < columns; ++n) IntBlockSse2<kRows, 1>(acc + n * kRows, a, b + n * kp, kp);
    return;
  }
#endif
  constexpr uint32_t kCols = ColumnBlock(kRows, 4);
  uint32_t n = 0;
  for (; n + kCols <= columns; n += kCols) {
    IntBlockPlain<kRows, kCols>(acc + n * kRows, a, b + n * kp, kp);
  }
  for (; n < columns; ++n) IntBlockPlain<kRows, 1>(acc + n * kRows, a, b + n * kp, kp);
}

// Doubles per vector register in each family.
template <MmaIsa kIsa>
constexpr uint32_t kDoubleLanes = kIsa == MmaIsa::kAvx512 ? 8
                                  : kIsa == MmaIsa::kAvx2 ? 4
                                                          : 2;

// The rows of one column as one value: a GCC/Clang vector of kRows doubles (kRows >= 2), which
// each family lowers to its own registers (one zmm, two ymm or four xmm for 8 rows). Written
// this way rather than as loops over rows, both compilers keep the accumulators in registers.
// (Member typedefs: GCC drops vector_size on an alias template.)
template <uint32_t kRows>
struct RowVectors {
  typedef double Doubles __attribute__((vector_size(kRows * sizeof(double))));
  typedef float Floats __attribute__((vector_size(kRows * sizeof(float))));
};

// Floats: acc[n][r] += a[k][r] b[n][k] for k in increasing order, kCols columns at a time.
//   kExact: in double. The caller knows (or checks afterwards) that every partial sum is exact,
//     so neither the order nor a fused multiply-add changes anything.
//   kOrdered: acc = fp32(acc + a b) each step. With products of at most 24 significant bits,
//     acc + a b rounded to double and then to float is the correctly rounded fp32 result
//     (double has more than 2 * 24 + 1 bits, so the double rounding is innocuous).
//   kOrderedFma: the same for wider products (fp32 elements): a float fma per element.
enum class FloatSum : uint8_t { kExact, kOrdered, kOrderedFma };

template <uint32_t kRows, uint32_t kCols, FloatSum kSum>
XMX_MMA_INLINE void FloatBlock(double* acc, const double* a, const double* b, size_t k, size_t kp) {
  if constexpr (kRows == 1 || kSum == FloatSum::kOrderedFma) {
    double s[kCols][kRows];
    for (uint32_t j = 0; j < kCols; ++j) {
      for (uint32_t r = 0; r < kRows; ++r) s[j][r] = acc[j * kRows + r];
    }
    for (size_t i = 0; i < k; ++i, a += kRows) {
      for (uint32_t j = 0; j < kCols; ++j) {
        const double bj = b[j * kp + i];
        for (uint32_t r = 0; r < kRows; ++r) {
          if constexpr (kSum == FloatSum::kExact) {
            s[j][r] += a[r] * bj;
          } else if constexpr (kSum == FloatSum::kOrdered) {
            s[j][r] = static_cast<float>(s[j][r] + a[r] * bj);
          } else {
            s[j][r] = std::fma(static_cast<float>(a[r]), static_cast<float>(bj),
                               static_cast<float>(s[j][r]));
          }
        }
      }
    }
    for (uint32_t j = 0; j < kCols; ++j) {
      for (uint32_t r = 0; r < kRows; ++r) acc[j * kRows + r] = s[j][r];
    }
  } else {
    // (Loads and stores are memcpy in place: a helper returning a vector by value would change
    // the ABI between families.)
    using Rows = typename RowVectors<kRows>::Doubles;
    using FloatRows = typename RowVectors<kRows>::Floats;
    static_assert(sizeof(Rows) == kRows * sizeof(double));
    Rows s[kCols];
    for (uint32_t j = 0; j < kCols; ++j) std::memcpy(&s[j], acc + j * kRows, sizeof(Rows));
    for (size_t i = 0; i < k; ++i, a += kRows) {
      Rows ai;
      std::memcpy(&ai, a, sizeof(Rows));
      for (uint32_t j = 0; j < kCols; ++j) {
        const Rows sum = s[j] + ai * b[j * kp + i];
        if constexpr (kSum == FloatSum::kExact) {
          s[j] = sum;
        } else {
          const FloatRows rounded = __builtin_convertvector(sum, FloatRows);
          s[j] = __builtin_convertvector(rounded, Rows);
        }
      }
    }
    for (uint32_t j = 0; j < kCols; ++j) std::memcpy(acc + j * kRows, &s[j], sizeof(Rows));
  }
}

template <uint32_t kRows, MmaIsa kIsa, FloatSum kSum>
XMX_MMA_INLINE void FloatCore(double* acc, const double* a, const double* b, uint32_t columns,
                              uint32_t k, uint32_t kp) {
  constexpr uint32_t kCols = ColumnBlock(kRows, kDoubleLanes<kIsa>);
  uint32_t n = 0;
  for (; n + kCols <= columns; n += kCols) {
    FloatBlock<kRows, kCols, kSum>(acc + n * kRows, a, b + size_t{n} * kp, k, kp);
  }
  for (; n < columns; ++n) {
    FloatBlock<kRows, 1, kSum>(acc + n * kRows, a, b + size_t{n} * kp, k, kp);
  }
}

}  // namespace xmx::interp::matrix_mad_detail
