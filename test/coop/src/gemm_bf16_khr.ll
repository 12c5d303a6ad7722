; A bf16 GEMM tile with SPV_KHR_bfloat16 components (OpTypeFloat 16 BFloat16KHR) and scalar
; bfloat <-> float conversions.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

%A = type target("spirv.CooperativeMatrixKHR", bfloat, 3, 8, 16, 0)
%B = type target("spirv.CooperativeMatrixKHR", bfloat, 3, 16, 16, 1)
%C = type target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2)

define spir_kernel void @gemm_bf16_khr(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %s, i64 %k) {
entry:
  %sv = load bfloat, ptr addrspace(1) %s
  %sf = fpext bfloat %sv to float
  %acc0 = call spir_func %C @_Z26__spirv_CompositeConstruct(float %sf)
  %ma = call spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %a, i32 0, i64 %k)
  %mb = call spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %b, i32 0, i64 16)
  %mc = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma, %B %mb, %C %acc0, i32 0)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %c, %C %mc, i32 0, i64 16)
  %len = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%A %ma)
  %t = fptrunc float %sf to bfloat
  %p = getelementptr bfloat, ptr addrspace(1) %s, i64 1
  store bfloat %t, ptr addrspace(1) %p
  ret void
}

declare spir_func %C @_Z26__spirv_CompositeConstruct(float)
declare spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A, %B, %C, i32)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%A)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %C, i32, i64)
