; Table row (SYCL device_impl.hpp, SIMD16 list): bf16 1x64x16; A bf16, B bf16, C f32,
; D bf16 at M=1 N=64 K=16. One tile, D = A * B + C.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"
define spir_kernel void @row_sg16_bf16_bf16_f32_bf16_m1n64k16(ptr addrspace(1) %A, ptr addrspace(1) %B, ptr addrspace(1) %C, ptr addrspace(1) %D) !intel_reqd_sub_group_size !0 {
entry:
  ; work-group g (one subgroup) multiplies the g-th tiles, stored one after another
  %g = call spir_func i64 @_Z12get_group_idj(i32 0)
  %aoff = mul i64 %g, 16
  %boff = mul i64 %g, 1024
  %coff = mul i64 %g, 64
  %ap = getelementptr inbounds i16, ptr addrspace(1) %A, i64 %aoff
  %bp = getelementptr inbounds i16, ptr addrspace(1) %B, i64 %boff
  %cp = getelementptr inbounds float, ptr addrspace(1) %C, i64 %coff
  %dp = getelementptr inbounds i16, ptr addrspace(1) %D, i64 %coff
  %ma = call spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 1, 16, 0) @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %ap, i32 0, i64 16)
  %mb = call spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 16, 64, 1) @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %bp, i32 0, i64 64)
  %mc = call spir_func target("spirv.CooperativeMatrixKHR", float, 3, 1, 64, 2) @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1) %cp, i32 0, i64 64)
  %md = call spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 1, 64, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", i16, 3, 1, 16, 0) %ma, target("spirv.CooperativeMatrixKHR", i16, 3, 16, 64, 1) %mb, target("spirv.CooperativeMatrixKHR", float, 3, 1, 64, 2) %mc, i32 320)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %dp, target("spirv.CooperativeMatrixKHR", i16, 3, 1, 64, 2) %md, i32 0, i64 64)
  ret void
}

!0 = !{i32 16}
declare spir_func i64 @_Z12get_group_idj(i32)
declare spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 1, 16, 0) @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 16, 64, 1) @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", float, 3, 1, 64, 2) @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 1, 64, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", i16, 3, 1, 16, 0), target("spirv.CooperativeMatrixKHR", i16, 3, 16, 64, 1), target("spirv.CooperativeMatrixKHR", float, 3, 1, 64, 2), i32)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), target("spirv.CooperativeMatrixKHR", i16, 3, 1, 64, 2), i32, i64)
