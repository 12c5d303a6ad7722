; SPV_KHR_bfloat16 without cooperative matrices: bfloat <-> float conversions and a bfloat
; constant (only BFloat16TypeKHR).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

define spir_kernel void @bf16_convert(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %i) {
entry:
  %p = getelementptr bfloat, ptr addrspace(1) %in, i64 %i
  %v = load bfloat, ptr addrspace(1) %p
  %f = fpext bfloat %v to float
  %g = fmul float %f, 2.5
  %b = fptrunc float %g to bfloat
  %q = getelementptr bfloat, ptr addrspace(1) %out, i64 %i
  store bfloat %b, ptr addrspace(1) %q
  %q1 = getelementptr bfloat, ptr addrspace(1) %q, i64 1
  store bfloat 0xR3FC0, ptr addrspace(1) %q1
  ret void
}
