// The element transposition at the heart of most 2D block loads and stores: SIMT payloads give
// each invocation one column of the block (SPEC-NOTES A.5), so a block row spreads over all
// invocations and a block column is contiguous in one invocation's private bytes. Moving
// element by element costs one scattered store per element; moving tiles through vector
// registers costs a few shuffles per tile.
#pragma once

#include <cstddef>
#include <cstdint>

namespace xmx::interp {

// For r < rows and c < columns, copies the `element_bytes`-byte element at
//   src + r * src_row_stride + c * element_bytes
// to
//   dst + c * dst_column_stride + r * element_bytes.
// `element_bytes` is 1, 2, 4 or 8. The source and destination do not overlap. Only the bytes of
// those elements are read and written.
void TransposeElements(const uint8_t* src, ptrdiff_t src_row_stride, uint8_t* dst,
                       ptrdiff_t dst_column_stride, uint32_t rows, uint32_t columns,
                       uint32_t element_bytes);

// TransposeElements for one fixed (rows, columns, element_bytes), chosen once: a shape that the
// double tiles cover exactly, on a CPU with AVX2, goes to them without the dispatch and the
// edge passes. Same contract as TransposeElements.
using TransposeRoutine = void (*)(const uint8_t* src, ptrdiff_t src_row_stride, uint8_t* dst,
                                  ptrdiff_t dst_column_stride, uint32_t rows, uint32_t columns);
TransposeRoutine TransposeRoutineFor(uint32_t rows, uint32_t columns, uint32_t element_bytes);

}  // namespace xmx::interp
