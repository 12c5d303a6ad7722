// The matrix multiply-accumulate routines compiled for AVX2 with FMA: the Entry wrappers carry the
// target attribute and inline the shared templates (matrix_mad_run.hpp).
#include "interp/matrix_mad/matrix_mad_run.hpp"

namespace xmx::interp::matrix_mad_detail {

#if XMX_MMA_X86
XMX_MMA_DEFINE_ENTRY(Avx2Entry, XMX_MMA_AVX2)

void FillAvx2Kernels(Plan* plan) { Catalogue<Avx2Entry, MmaIsa::kAvx2>::Fill(plan); }
#endif

}  // namespace xmx::interp::matrix_mad_detail
