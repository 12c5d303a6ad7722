; SPV_INTEL_int4: a fill of a 4-bit-component cooperative matrix (Int4TypeINTEL,
; Int4CooperativeMatrixINTEL).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

%A = type target("spirv.CooperativeMatrixKHR", i4, 3, 8, 64, 0)

define spir_kernel void @int4_fill(ptr addrspace(1) %a, i8 %v) {
entry:
  %t = trunc i8 %v to i4
  %m = call spir_func %A @_Z26__spirv_CompositeConstruct(i4 %t)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %a, %A %m, i32 0, i64 64)
  ret void
}
declare spir_func %A @_Z26__spirv_CompositeConstruct(i4)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %A, i32, i64)
