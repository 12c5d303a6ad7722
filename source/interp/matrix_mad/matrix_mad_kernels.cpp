// The arithmetic behind MatrixMadKernel::Run.
//
// A run moves each operand out of its register slot into a small typed array, computes, and
// writes the Result slot:
//   1-2. unpack A and B: bit fields -> int16 (int4 / int8) or double (every float format, all
//      exact), in the working layout;
//   3. multiply-accumulate, vectorized over the rows of one column, which is how C and Result
//      already lie in a lane (lane n = column n, component r = row r), so neither is transposed;
//      B elements are broadcast from B's own layout (lane n holds column n, rows in order);
//   4. write the Result.
// Integers accumulate in uint32 (wrapping, DECISIONS 2) from int16 pairs: (a[k] b[k] +
// a[k+1] b[k+1]) is one pmaddwd lane on x86. Floats accumulate in double, which is exact when a
// cheap exponent bound says so (matrix_mad_exact.cpp does the rest).
//
// Every routine is a template compiled into three instruction-set families (portable, AVX2,
// AVX-512): the Entry wrappers carry the target attribute and `flatten`, which inlines the
// template body into them, so the one source compiles once per family without build flags.
// Prepare picks the family with a run-time CPU check (here).
//
// Files: matrix_mad_unpack.hpp (1-2), matrix_mad_arith.hpp (3), matrix_mad_run.hpp (the drivers
// and the per-family Catalogue), matrix_mad_{portable,avx2,avx512}.cpp (the families),
// matrix_mad_exact.cpp (the exact float slow path), matrix_mad.cpp (Prepare).
#include "interp/matrix_mad/matrix_mad_internal.hpp"
#include "interp/matrix_mad/matrix_mad_unpack.hpp"

#if XMX_MMA_X86
#include <cpuid.h>
#endif

namespace xmx::interp::matrix_mad_detail {

NarrowFloatTables narrow_floats;

namespace {

void FillNarrowFloatTables() {
  static const bool filled = [] {
    for (uint32_t i = 0; i < 256; ++i) {
      narrow_floats.e4m3[i] = DecodeFloat(i, kFloat8E4M3Format);
      narrow_floats.e5m2[i] = DecodeFloat(i, kFloat8E5M2Format);
    }
    for (uint32_t i = 0; i < 16; ++i) narrow_floats.e2m1[i] = DecodeFloat(i, kFloat4E2M1Format);
    return true;
  }();
  (void)filled;
}

}  // namespace

MmaIsa BestIsa() {
#if XMX_MMA_X86
  static const MmaIsa best = [] {
    __builtin_cpu_init();
    // F16C (CPUID leaf 1, ECX bit 29) comes with every AVX2 CPU, but is checked all the same:
    // the AVX2 routines convert fp16 with it. (Clang 14's __builtin_cpu_supports lacks it.)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 29)) != 0;
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c;
    const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                        __builtin_cpu_supports("avx512vl");
    return avx512 ? MmaIsa::kAvx512 : avx2 ? MmaIsa::kAvx2 : MmaIsa::kPortable;
  }();
  return best;
#else
  return MmaIsa::kPortable;
#endif
}

void SelectKernels(Plan* plan, MmaIsa isa) {
  FillNarrowFloatTables();
#if XMX_MMA_X86
  if (isa == MmaIsa::kAvx512 || isa == MmaIsa::kAvx2) {
    if (isa == MmaIsa::kAvx512) {
      FillAvx512Kernels(plan);
    } else {
      FillAvx2Kernels(plan);
    }
    // The hand-vectorized routines replace the generic Run for the shapes they cover (every
    // AVX-512 CPU runs AVX2), and on AVX-512 CPUs its own routines then replace those of AVX2.
    SelectFastAvx2Kernel(plan);
    if (isa == MmaIsa::kAvx512) {
      SelectFastAvx512Int8Kernel(plan);
      SelectFastAvx512Float16Kernel(plan);
    }
    return;
  }
#else
  (void)isa;
#endif
  FillPortableKernels(plan);
}

}  // namespace xmx::interp::matrix_mad_detail
