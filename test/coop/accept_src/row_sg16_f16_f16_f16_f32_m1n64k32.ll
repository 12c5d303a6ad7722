; Table row (SYCL device_impl.hpp, SIMD16 list): f16 1x64x32; A f16, B f16, C f16,
; D f32 at M=1 N=64 K=32. One tile, D = A * B + C.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"
define spir_kernel void @row_sg16_f16_f16_f16_f32_m1n64k32(ptr addrspace(1) %A, ptr addrspace(1) %B, ptr addrspace(1) %C, ptr addrspace(1) %D) !intel_reqd_sub_group_size !0 {
entry:
  ; work-group g (one subgroup) multiplies the g-th tiles, stored one after another
  %g = call spir_func i64 @_Z12get_group_idj(i32 0)
  %aoff = mul i64 %g, 32
  %boff = mul i64 %g, 2048
  %coff = mul i64 %g, 64
  %ap = getelementptr inbounds half, ptr addrspace(1) %A, i64 %aoff
  %bp = getelementptr inbounds half, ptr addrspace(1) %B, i64 %boff
  %cp = getelementptr inbounds half, ptr addrspace(1) %C, i64 %coff
  %dp = getelementptr inbounds float, ptr addrspace(1) %D, i64 %coff
  %ma = call spir_func target("spirv.CooperativeMatrixKHR", half, 3, 1, 32, 0) @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %ap, i32 0, i64 32)
  %mb = call spir_func target("spirv.CooperativeMatrixKHR", half, 3, 32, 64, 1) @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %bp, i32 0, i64 64)
  %mc = call spir_func target("spirv.CooperativeMatrixKHR", half, 3, 1, 64, 2) @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1) %cp, i32 0, i64 64)
  %md = call spir_func target("spirv.CooperativeMatrixKHR", float, 3, 1, 64, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", half, 3, 1, 32, 0) %ma, target("spirv.CooperativeMatrixKHR", half, 3, 32, 64, 1) %mb, target("spirv.CooperativeMatrixKHR", half, 3, 1, 64, 2) %mc, i32 0)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %dp, target("spirv.CooperativeMatrixKHR", float, 3, 1, 64, 2) %md, i32 0, i64 64)
  ret void
}

!0 = !{i32 16}
declare spir_func i64 @_Z12get_group_idj(i32)
declare spir_func target("spirv.CooperativeMatrixKHR", half, 3, 1, 32, 0) @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", half, 3, 32, 64, 1) @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", half, 3, 1, 64, 2) @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", float, 3, 1, 64, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", half, 3, 1, 32, 0), target("spirv.CooperativeMatrixKHR", half, 3, 32, 64, 1), target("spirv.CooperativeMatrixKHR", half, 3, 1, 64, 2), i32)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), target("spirv.CooperativeMatrixKHR", float, 3, 1, 64, 2), i32, i64)
