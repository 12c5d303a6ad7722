#include "interp/block2d/block2d_transpose.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define XMX_TRANSPOSE_AVX2 1
#else
#define XMX_TRANSPOSE_AVX2 0
#endif

namespace xmx::interp {
namespace {

// The elements of rows [r0, r1) x columns [c0, c1), one at a time.
template <typename T>
void TransposeScalar(const uint8_t* src, ptrdiff_t src_row_stride, uint8_t* dst,
                     ptrdiff_t dst_column_stride, uint32_t r0, uint32_t r1, uint32_t c0,
                     uint32_t c1) {
  if (r0 >= r1) return;  // the usual case, every row tiled: no empty pass over the columns
  for (uint32_t c = c0; c < c1; ++c) {
    uint8_t* out = dst + c * dst_column_stride;
    const uint8_t* in = src + c * sizeof(T);
    for (uint32_t r = r0; r < r1; ++r) {
      std::memcpy(out + r * sizeof(T), in + r * src_row_stride, sizeof(T));
    }
  }
}

#if defined(__SSE2__)
// One square tile of kTile x kTile elements (16 bytes a row), transposed in registers. Each
// stage interleaves neighbouring registers at a granularity twice the last one's, lower halves
// into the first half of the registers and upper halves into the second; after the stage at 8
// bytes every register holds one column with its rows in order, column c in register
// BitReversed(c). Every loop is unrolled so that the tile stays in registers and the store
// addresses are constants (left to itself the compiler keeps the 1-byte tile on the stack).
template <typename T>
struct Tile {
  static constexpr uint32_t kTile = 16 / sizeof(T);

  static void Move(const uint8_t* src, ptrdiff_t src_row_stride, uint8_t* dst,
                   ptrdiff_t dst_column_stride) {
    __m128i v[kTile];
#pragma clang loop unroll(full)
    for (uint32_t r = 0; r < kTile; ++r) {
      v[r] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + r * src_row_stride));
    }
    if constexpr (sizeof(T) == 1) Stage<1>(v);
    if constexpr (sizeof(T) <= 2) Stage<2>(v);
    if constexpr (sizeof(T) <= 4) Stage<4>(v);
    Stage<8>(v);
#pragma clang loop unroll(full)
    for (uint32_t j = 0; j < kTile; ++j) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + BitReversed(j) * dst_column_stride), v[j]);
    }
  }

  static constexpr uint32_t BitReversed(uint32_t j) {
    uint32_t r = 0;
    for (uint32_t bit = 1; bit < kTile; bit <<= 1) r = (r << 1) | ((j & bit) != 0 ? 1 : 0);
    return r;
  }

  template <int kBytes>
  static void Stage(__m128i* v) {
    constexpr uint32_t kHalf = kTile / 2;
    __m128i out[kTile];
#pragma clang loop unroll(full)
    for (uint32_t i = 0; i < kHalf; ++i) {
      out[i] = Low<kBytes>(v[2 * i], v[2 * i + 1]);
      out[i + kHalf] = High<kBytes>(v[2 * i], v[2 * i + 1]);
    }
#pragma clang loop unroll(full)
    for (uint32_t i = 0; i < kTile; ++i) v[i] = out[i];
  }

  template <int kBytes>
  static __m128i Low(__m128i a, __m128i b) {
    if constexpr (kBytes == 1) return _mm_unpacklo_epi8(a, b);
    if constexpr (kBytes == 2) return _mm_unpacklo_epi16(a, b);
    if constexpr (kBytes == 4) return _mm_unpacklo_epi32(a, b);
    if constexpr (kBytes == 8) return _mm_unpacklo_epi64(a, b);
  }
  template <int kBytes>
  static __m128i High(__m128i a, __m128i b) {
    if constexpr (kBytes == 1) return _mm_unpackhi_epi8(a, b);
    if constexpr (kBytes == 2) return _mm_unpackhi_epi16(a, b);
    if constexpr (kBytes == 4) return _mm_unpackhi_epi32(a, b);
    if constexpr (kBytes == 8) return _mm_unpackhi_epi64(a, b);
  }
};
#endif

#if XMX_TRANSPOSE_AVX2
// Two tiles at once in 32-byte registers, on CPUs with AVX2: rows r and r + kTile of the same
// kTile columns share a register (low and high half). The unpacks work within each half, so the
// stages are those of Tile, and each register ends up holding 2 kTile consecutive rows of one
// column: one 32-byte store per column instead of two 16-byte ones, and half the shuffles.
#define XMX_TRANSPOSE_AVX2_INLINE inline __attribute__((always_inline, target("avx2")))

template <typename T>
struct DoubleTile {
  static constexpr uint32_t kTile = Tile<T>::kTile;

  // The addresses advance by one stride per row and per column. Not inlined: in the loops over
  // the tiles the compiler would hoist every row's and column's address out of them, into more
  // registers than there are (a GEMM's blocks are one or two double tiles).
  __attribute__((noinline, target("avx2"))) static void Move(const uint8_t* src,
                                                             ptrdiff_t src_row_stride, uint8_t* dst,
                                                             ptrdiff_t dst_column_stride) {
    __m256i v[kTile];
    const uint8_t* low_row = src;
    const uint8_t* high_row = src + kTile * src_row_stride;
#pragma clang loop unroll(full)
    for (uint32_t r = 0; r < kTile; ++r) {
      const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(low_row));
      const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(high_row));
      v[r] = _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
      low_row += src_row_stride;
      high_row += src_row_stride;
    }
    if constexpr (sizeof(T) == 1) Stage<1>(v);
    if constexpr (sizeof(T) <= 2) Stage<2>(v);
    if constexpr (sizeof(T) <= 4) Stage<4>(v);
    Stage<8>(v);
    // Column c is in register BitReversed(c) (its own inverse).
    uint8_t* column = dst;
#pragma clang loop unroll(full)
    for (uint32_t c = 0; c < kTile; ++c) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(column), v[Tile<T>::BitReversed(c)]);
      column += dst_column_stride;
    }
  }

  template <int kBytes>
  XMX_TRANSPOSE_AVX2_INLINE static void Stage(__m256i* v) {
    constexpr uint32_t kHalf = kTile / 2;
    __m256i out[kTile];
#pragma clang loop unroll(full)
    for (uint32_t i = 0; i < kHalf; ++i) {
      out[i] = Low<kBytes>(v[2 * i], v[2 * i + 1]);
      out[i + kHalf] = High<kBytes>(v[2 * i], v[2 * i + 1]);
    }
#pragma clang loop unroll(full)
    for (uint32_t i = 0; i < kTile; ++i) v[i] = out[i];
  }

  template <int kBytes>
  XMX_TRANSPOSE_AVX2_INLINE static __m256i Low(__m256i a, __m256i b) {
    if constexpr (kBytes == 1) return _mm256_unpacklo_epi8(a, b);
    if constexpr (kBytes == 2) return _mm256_unpacklo_epi16(a, b);
    if constexpr (kBytes == 4) return _mm256_unpacklo_epi32(a, b);
    if constexpr (kBytes == 8) return _mm256_unpacklo_epi64(a, b);
  }
  template <int kBytes>
  XMX_TRANSPOSE_AVX2_INLINE static __m256i High(__m256i a, __m256i b) {
    if constexpr (kBytes == 1) return _mm256_unpackhi_epi8(a, b);
    if constexpr (kBytes == 2) return _mm256_unpackhi_epi16(a, b);
    if constexpr (kBytes == 4) return _mm256_unpackhi_epi32(a, b);
    if constexpr (kBytes == 8) return _mm256_unpackhi_epi64(a, b);
  }
};

// Rows [0, rows) (a multiple of 2 kTile) x columns [0, columns) (a multiple of kTile).
template <typename T>
__attribute__((target("avx2"))) void TransposeDoubleTiles(const uint8_t* src,
                                                          ptrdiff_t src_row_stride, uint8_t* dst,
                                                          ptrdiff_t dst_column_stride,
                                                          uint32_t rows, uint32_t columns) {
  constexpr uint32_t kTile = DoubleTile<T>::kTile;
  for (uint32_t r = 0; r < rows; r += 2 * kTile) {
    for (uint32_t c = 0; c < columns; c += kTile) {
      DoubleTile<T>::Move(src + r * src_row_stride + c * sizeof(T), src_row_stride,
                          dst + c * dst_column_stride + r * sizeof(T), dst_column_stride);
    }
  }
}

// Whether the CPU runs AVX2, asked once.
bool CpuRunsAvx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2") != 0;
  return avx2;
}
#endif

template <typename T>
void Transpose(const uint8_t* src, ptrdiff_t src_row_stride, uint8_t* dst,
               ptrdiff_t dst_column_stride, uint32_t rows, uint32_t columns) {
  uint32_t tiled_rows = 0, tiled_columns = 0;
#if defined(__SSE2__)
  constexpr uint32_t kTile = Tile<T>::kTile;
  tiled_rows = rows / kTile * kTile;
  tiled_columns = columns / kTile * kTile;
  uint32_t first_single_row = 0;  // rows above it went through double tiles
#if XMX_TRANSPOSE_AVX2
  if (tiled_columns != 0 && CpuRunsAvx2()) {
    first_single_row = rows / (2 * kTile) * (2 * kTile);
    TransposeDoubleTiles<T>(src, src_row_stride, dst, dst_column_stride, first_single_row,
                            tiled_columns);
  }
#endif
  for (uint32_t r = first_single_row; r < tiled_rows; r += kTile) {
    for (uint32_t c = 0; c < tiled_columns; c += kTile) {
      Tile<T>::Move(src + r * src_row_stride + c * sizeof(T), src_row_stride,
                    dst + c * dst_column_stride + r * sizeof(T), dst_column_stride);
    }
  }
#endif
  // What the tiles leave: the columns right of them (all rows), then the rows below them.
  TransposeScalar<T>(src, src_row_stride, dst, dst_column_stride, 0, rows, tiled_columns, columns);
  TransposeScalar<T>(src, src_row_stride, dst, dst_column_stride, tiled_rows, rows, 0,
                     tiled_columns);
}

template <typename T>
void TransposeOf(const uint8_t* src, ptrdiff_t src_row_stride, uint8_t* dst,
                 ptrdiff_t dst_column_stride, uint32_t rows, uint32_t columns) {
  Transpose<T>(src, src_row_stride, dst, dst_column_stride, rows, columns);
}

template <typename T>
TransposeRoutine RoutineFor(uint32_t rows, uint32_t columns) {
#if XMX_TRANSPOSE_AVX2
  constexpr uint32_t kTile = DoubleTile<T>::kTile;
  if (rows % (2 * kTile) == 0 && columns % kTile == 0 && rows != 0 && columns != 0 &&
      CpuRunsAvx2()) {
    return &TransposeDoubleTiles<T>;
  }
#endif
  (void)rows;
  (void)columns;
  return &TransposeOf<T>;
}

}  // namespace

TransposeRoutine TransposeRoutineFor(uint32_t rows, uint32_t columns, uint32_t element_bytes) {
  switch (element_bytes) {
    case 1:
      return RoutineFor<uint8_t>(rows, columns);
    case 2:
      return RoutineFor<uint16_t>(rows, columns);
    case 4:
      return RoutineFor<uint32_t>(rows, columns);
    default:
      return RoutineFor<uint64_t>(rows, columns);
  }
}

void TransposeElements(const uint8_t* src, ptrdiff_t src_row_stride, uint8_t* dst,
                       ptrdiff_t dst_column_stride, uint32_t rows, uint32_t columns,
                       uint32_t element_bytes) {
  switch (element_bytes) {
    case 1:
      return Transpose<uint8_t>(src, src_row_stride, dst, dst_column_stride, rows, columns);
    case 2:
      return Transpose<uint16_t>(src, src_row_stride, dst, dst_column_stride, rows, columns);
    case 4:
      return Transpose<uint32_t>(src, src_row_stride, dst, dst_column_stride, rows, columns);
    default:
      return Transpose<uint64_t>(src, src_row_stride, dst, dst_column_stride, rows, columns);
  }
}

}  // namespace xmx::interp
