// The matrix multiply-accumulate routines compiled for AVX-512 (F, BW, DQ, VL): the Entry wrappers
// carry the target attribute and inline the shared templates (matrix_mad_run.hpp).
#include "interp/matrix_mad/matrix_mad_run.hpp"

namespace xmx::interp::matrix_mad_detail {

#if XMX_MMA_X86
XMX_MMA_DEFINE_ENTRY(Avx512Entry, XMX_MMA_AVX512)

void FillAvx512Kernels(Plan* plan) { Catalogue<Avx512Entry, MmaIsa::kAvx512>::Fill(plan); }
#endif

}  // namespace xmx::interp::matrix_mad_detail
