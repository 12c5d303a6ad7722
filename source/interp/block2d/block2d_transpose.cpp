#include "interp/block2d/block2d_transpose.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
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

template <typename T>
void Transpose(const uint8_t* src, ptrdiff_t src_row_stride, uint8_t* dst,
               ptrdiff_t dst_column_stride, uint32_t rows, uint32_t columns) {
  uint32_t tiled_rows = 0, tiled_columns = 0;
#if defined(__SSE2__)
  constexpr uint32_t kTile = Tile<T>::kTile;
  tiled_rows = rows / kTile * kTile;
  tiled_columns = columns / kTile * kTile;
  for (uint32_t r = 0; r < tiled_rows; r += kTile) {
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

}  // namespace

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
