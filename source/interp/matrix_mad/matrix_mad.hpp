// OpSubgroupMatrixMultiplyAccumulateINTEL: Result = C + A x B for a whole subgroup, bit-exactly.
//
// Data mapping (SPEC-NOTES B.4, DECISIONS 10). N = subgroup size, M = rows, K = the K Dim
// constant; every operand is a register slot in the lane-major layout of value_layout.hpp.
//   * A (M x K): lane i, component r carries row r; a component packs c = (component bits) /
//     (element bits) consecutive columns, the lower column in the lower bits, so lane i holds
//     columns i*c .. i*c+c-1 when N*c == K. When N*c > K (tf32 at subgroup size 16) the lanes
//     form g = N*c/K phases: lane i holds column group i mod (K/c) of the rows r with
//     r mod g == i / (K/c), component t being row t*g + i/(K/c); rows past M are ignored.
//   * B (K x N): lane n holds column n. Elements of 16 bits or less are packed into 32-bit
//     components, the lower row in the lower bits; 32-bit elements take one component per row.
//   * C and Result (M x N): lane n holds column n, component r = row r.
//   * Subgroup size 32 is the paired form: the lanes are two halves of 16 columns; lanes 0-15
//     hold the even rows and lanes 16-31 the odd rows of A, C and Result (M/2 components each,
//     each half laid out like a subgroup of 16 with M/2 rows), and B's packed rows alternate:
//     component t of lanes 0-15 is packed row 2t, of lanes 16-31 packed row 2t+1.
//
// Element interpretation (Matrix Multiply Accumulate Operands, SPEC-NOTES B.2). A and B each
// take at most one interpretation bit: packed int8 / int4 (integer components), packed fp16,
// bf16, fp8 E4M3, fp8 E5M2, fp4 E2M1 (integer components), or tf32 (32-bit float components).
// Without a bit, float components are read as they are (fp16 or fp32 elements); integer
// components need a bit. A and B may hold different formats (int8 x int4, fp8 E4M3 x E5M2, ...)
// as long as both are integers or both floats. C and Result are 32-bit integers for integer
// data; for float data each is fp32, fp16, or bf16 carried in 16-bit integers
// (MatrixCBFloat16INTEL, MatrixResultBFloat16INTEL), not necessarily the same.
//
// Beyond the rows of SPEC-NOTES B.5, Prepare accepts every shape the mapping above defines
// within these limits: subgroup size 1 to 16 (or 32, paired), up to 16 rows (per half), K up to
// 128 with K times the rows (rounded up to a power of two) at most 1024, components of 8, 16 or
// 32 bits. It rejects the rest with the operand and what it expected.
//
// Integer arithmetic (DECISIONS 1, 2): int8 / int4 elements are unsigned unless their Signed
// bit is set; the result is the low 32 bits of the exact C + sum of products (wrap-around, no
// saturation).
//
// Floating-point arithmetic (DECISIONS 3). Every element, and C, is read exactly from its bit
// pattern: fp16, bf16, fp8, fp4 and fp32 with subnormals kept (no flushing); tf32 reads the upper
// 19 bits of the fp32 pattern and ignores the low 13 (so a NaN whose payload lies only in those
// bits reads as an infinity). Every product A[r][k] * B[k][n] is exact.
//   * MmaFloatModel::kExact (default): C[r][n] plus all K products is summed exactly and rounded
//     once, to nearest even, to the Result format; a bf16 or fp16 result is rounded straight from
//     the exact sum (no intermediate fp32 rounding). Overflow gives infinity.
//   * MmaFloatModel::kOrdered: acc = C; for k = 0, 1, ..., K-1: acc = fp32(acc + A[r][k] *
//     B[k][n]), each step one round to nearest even of the exact value to fp32 (a fused
//     multiply-add); then acc is rounded to nearest even to the Result format.
//   * Special values follow IEEE arithmetic on the exact values: a NaN input, infinity times
//     zero, or infinities of both signs give NaN; otherwise an infinite input gives that
//     infinity. A NaN result is the Result format's canonical quiet NaN, positive (fp32
//     0x7FC00000, fp16 0x7E00, bf16 0x7FC0); input NaN payloads and signs are not propagated.
//   * An exactly zero sum is +0, unless every term (C and all products) is -0, which gives -0.
// Rounding assumes the host's default floating-point environment (round to nearest, no
// flush-to-zero), which the interpreter does not change.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "interp/model/value_layout.hpp"

namespace xmx::interp {

enum class MmaFloatModel : uint8_t { kExact, kOrdered };

// The instruction set Run's arithmetic uses. kBest picks the best this CPU runs; a request the CPU
// cannot run falls back to the best it can. Tests and benchmarks pin kPortable to cover it.
enum class MmaIsa : uint8_t { kBest, kPortable, kAvx2, kAvx512 };

// The instruction's static description, decoded once at load time from its types.
struct MatrixMadShape {
  uint32_t subgroup_size = 0;  // N: 1 to 16, or 32 for the paired form
  uint32_t k = 0;              // the K Dim constant
  uint32_t operands = 0;       // the Matrix Multiply Accumulate Operands mask (0 when absent)
  ValueType result, a, b, c;   // per-lane types
};

namespace matrix_mad_detail {

// How one A or B element is read. kUint4 .. kInt8 take the integer arithmetic, the rest the
// float one.
enum class Element : uint8_t {
  kUint4,
  kInt4,
  kUint8,
  kInt8,
  kFloat4E2M1,
  kFloat8E4M3,
  kFloat8E5M2,
  kHalf,
  kBFloat16,
  kTf32,
  kFloat,
};
// How C is read and Result written.
enum class Accumulator : uint8_t { kInt32, kFloat, kHalf, kBFloat16 };

struct Plan;

// Biased double exponents of a set of values: `low` is the smallest over the non-zero values
// (kNoValue when all are zero), `high` the largest over all (2047 when one is Inf or NaN). The
// exact float model bounds its sums with these.
struct ExponentRange {
  static constexpr int kNoValue = 4096;
  int low = kNoValue;
  int high = 0;
};

using RunFn = void (*)(const Plan& plan, const uint8_t* a, const uint8_t* b, const uint8_t* c,
                       uint8_t* result);
// Run with the operands where they lie rather than in register slots: lane l's part of each at
// its pointer + l * its stride (a work-item's private copy, say; every stride at least the
// operand's lane bytes). Result is written after every input has been read, so it may lie over
// C, A or B with the same stride.
using RunInPlaceFn = void (*)(const Plan& plan, const uint8_t* a, size_t a_stride, const uint8_t* b,
                              size_t b_stride, const uint8_t* c, size_t c_stride, uint8_t* result,
                              size_t result_stride);
// Reads one operand's elements (of one half, for A) out of its register slot into the kernel's
// working arrays, converted to the arithmetic's value type; returns their exponent range (float
// data only).
using UnpackFn = ExponentRange (*)(const Plan& plan, const uint8_t* slot, uint32_t half,
                                   void* values);

// Everything Run needs, worked out by Prepare. Rows and columns are per half: the paired form
// has two halves of 16 columns (even and odd rows), every other shape one half.
struct Plan {
  uint32_t subgroup_size = 0, k = 0, m = 0;
  uint32_t halves = 1, columns = 0, half_rows = 0;
  uint32_t padded_rows = 0;  // half_rows rounded up to 1, 2, 4, 8 or 16 (the vector width)
  uint32_t padded_k = 0;     // k rounded up to even (the integer kernel takes pairs of k)
  // A: c = a_fields elements per component; g = a_phases row phases of a_lanes_per_phase lanes.
  uint32_t a_lane_bytes = 0, a_component_bytes = 0, a_fields = 0, a_element_bits = 0;
  uint32_t a_phases = 1, a_components = 0, a_lanes_per_phase = 0;
  // B: b_components per lane, rows_per_word elements per 32-bit component (1 for 32-bit data).
  uint32_t b_lane_bytes = 0, b_components = 0, b_element_bits = 0, b_rows_per_word = 0;
  uint32_t c_lane_bytes = 0, result_lane_bytes = 0;
  // Significand bits of the A, B and C formats and ceil(log2(k + 1)): the exact model's bound.
  int a_precision = 0, b_precision = 0, c_precision = 0, terms_log2 = 0;
  Element a_element{}, b_element{};
  Accumulator c_format{}, result_format{};
  MmaFloatModel model = MmaFloatModel::kExact;
  RunFn run = nullptr;
  RunInPlaceFn run_in_place = nullptr;  // the routines that have that form; null otherwise
  UnpackFn unpack_a = nullptr, unpack_b = nullptr;
  bool hand_vectorized = false;  // run is one of matrix_mad_fast_*.cpp's routines
};

}  // namespace matrix_mad_detail

// One OpSubgroupMatrixMultiplyAccumulateINTEL, prepared once and run many times. Run allocates
// nothing and is safe to call from several threads at once.
class MatrixMadKernel {
 public:
  // The kernel for `shape`, or nullopt with the reason in *why_not (naming the operand and what
  // was expected) when the shape is not one this file can compute unambiguously.
  static std::optional<MatrixMadKernel> Prepare(const MatrixMadShape& shape, MmaFloatModel model,
                                                std::string* why_not, MmaIsa isa = MmaIsa::kBest);

  // a, b, c and result are register slots in the lane-major layout, subgroup_size lanes each.
  // All lanes take part. result may alias any of the inputs.
  void Run(const uint8_t* a, const uint8_t* b, const uint8_t* c, uint8_t* result) const {
    plan_.run(plan_, a, b, c, result);
  }

  // Whether RunInPlace is available: the hand-vectorized routines that read their operands
  // lane by lane have it, so that a caller whose operands lie in memory with a per-lane stride
  // (the interpreter's private copies) need not copy them into register slots first.
  bool runs_in_place() const { return plan_.run_in_place != nullptr; }
  // Run with A, B, C and Result lane l at a + l * a_stride (and so on); only when
  // runs_in_place().
  void RunInPlace(const uint8_t* a, size_t a_stride, const uint8_t* b, size_t b_stride,
                  const uint8_t* c, size_t c_stride, uint8_t* result, size_t result_stride) const {
    plan_.run_in_place(plan_, a, a_stride, b, b_stride, c, c_stride, result, result_stride);
  }
  // Bytes per lane of A, B, C and Result in a register slot.
  uint32_t a_lane_bytes() const { return plan_.a_lane_bytes; }
  uint32_t b_lane_bytes() const { return plan_.b_lane_bytes; }
  uint32_t c_lane_bytes() const { return plan_.c_lane_bytes; }
  uint32_t result_lane_bytes() const { return plan_.result_lane_bytes; }

  uint32_t m() const { return plan_.m; }        // rows
  uint32_t n() const { return plan_.columns; }  // columns (16 in the paired form)
  uint32_t k() const { return plan_.k; }        // the K dimension
  MmaFloatModel float_model() const { return plan_.model; }
  MmaIsa isa() const { return isa_; }  // never kBest
  // Whether Run is one of the hand-vectorized routines for the shapes GEMMs use most (SG16 M8
  // int8 and bf16 / fp16 on AVX2 or AVX-512) rather than the generic templates.
  bool hand_vectorized() const { return plan_.hand_vectorized; }

 private:
  MatrixMadKernel() = default;
  matrix_mad_detail::Plan plan_;
  MmaIsa isa_ = MmaIsa::kPortable;
};

}  // namespace xmx::interp
