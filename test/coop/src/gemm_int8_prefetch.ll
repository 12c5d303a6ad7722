; An int8 joint_matrix GEMM tile through SPV_KHR_cooperative_matrix with the three prefetch
; forms llc-22 writes (no Stride; Stride; Stride and a memory operand), fill and Length.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

%A = type target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0)
%B = type target("spirv.CooperativeMatrixKHR", i8, 3, 32, 16, 1)
%C = type target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2)

define spir_kernel void @gemm_int8(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i64 %k) {
entry:
  %acc0 = call spir_func %C @_Z26__spirv_CompositeConstruct(i32 0)
  call spir_func void @_Z38__spirv_CooperativeMatrixPrefetchINTELPU3AS4ciiii(ptr addrspace(1) %a, i32 8, i32 32, i32 0, i32 0)
  call spir_func void @_Z38__spirv_CooperativeMatrixPrefetchINTELPU3AS4ciiiil(ptr addrspace(1) %b, i32 32, i32 16, i32 1, i32 0, i64 %k)
  call spir_func void @_Z38__spirv_CooperativeMatrixPrefetchINTELPU3AS4ciiiili(ptr addrspace(1) %b, i32 32, i32 16, i32 2, i32 0, i64 16, i32 1)
  %ma = call spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %a, i32 0, i64 %k)
  %mb = call spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %b, i32 0, i64 16, i32 1)
  %mc = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma, %B %mb, %C %acc0, i32 3)
  %len = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%C %mc)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %c, %C %mc, i32 0, i64 16, i32 1)
  %p = getelementptr i32, ptr addrspace(1) %c, i64 128
  store i32 %len, ptr addrspace(1) %p
  ret void
}

declare spir_func %C @_Z26__spirv_CompositeConstruct(i32)
declare spir_func void @_Z38__spirv_CooperativeMatrixPrefetchINTELPU3AS4ciiii(ptr addrspace(1), i32, i32, i32, i32)
declare spir_func void @_Z38__spirv_CooperativeMatrixPrefetchINTELPU3AS4ciiiil(ptr addrspace(1), i32, i32, i32, i32, i64)
declare spir_func void @_Z38__spirv_CooperativeMatrixPrefetchINTELPU3AS4ciiiili(ptr addrspace(1), i32, i32, i32, i32, i64, i32)
declare spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64, i32)
declare spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A, %B, %C, i32)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%C)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %C, i32, i64, i32)
