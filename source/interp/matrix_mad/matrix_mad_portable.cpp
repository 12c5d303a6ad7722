// The matrix multiply-accumulate routines compiled for the baseline instruction set (SSE2 on
// x86-64), and every other CPU: the Entry wrappers carry the target attribute and inline the shared
// templates (matrix_mad_run.hpp).
#include "interp/matrix_mad/matrix_mad_run.hpp"

namespace xmx::interp::matrix_mad_detail {

XMX_MMA_DEFINE_ENTRY(PortableEntry, )

void FillPortableKernels(Plan* plan) { Catalogue<PortableEntry, MmaIsa::kPortable>::Fill(plan); }

}  // namespace xmx::interp::matrix_mad_detail
