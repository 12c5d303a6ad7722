; Table row (SYCL device_impl.hpp, SIMD16 list): int8 <=8x16x32; A u8, B s8, C s32,
; D s32 at M=3 N=16 K=32. One tile, D = A * B + C.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"
define spir_kernel void @row_sg16_u8_s8_s32_s32_m3n16k32(ptr addrspace(1) %A, ptr addrspace(1) %B, ptr addrspace(1) %C, ptr addrspace(1) %D) !intel_reqd_sub_group_size !0 {
entry:
  ; work-group g (one subgroup) multiplies the g-th tiles, stored one after another
  %g = call spir_func i64 @_Z12get_group_idj(i32 0)
  %aoff = mul i64 %g, 96
  %boff = mul i64 %g, 512
  %coff = mul i64 %g, 48
  %ap = getelementptr inbounds i8, ptr addrspace(1) %A, i64 %aoff
  %bp = getelementptr inbounds i8, ptr addrspace(1) %B, i64 %boff
  %cp = getelementptr inbounds i32, ptr addrspace(1) %C, i64 %coff
  %dp = getelementptr inbounds i32, ptr addrspace(1) %D, i64 %coff
  %ma = call spir_func target("spirv.CooperativeMatrixKHR", i8, 3, 3, 32, 0) @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %ap, i32 0, i64 32)
  %mb = call spir_func target("spirv.CooperativeMatrixKHR", i8, 3, 32, 16, 1) @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %bp, i32 0, i64 16)
  %mc = call spir_func target("spirv.CooperativeMatrixKHR", i32, 3, 3, 16, 2) @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1) %cp, i32 0, i64 16)
  %md = call spir_func target("spirv.CooperativeMatrixKHR", i32, 3, 3, 16, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", i8, 3, 3, 32, 0) %ma, target("spirv.CooperativeMatrixKHR", i8, 3, 32, 16, 1) %mb, target("spirv.CooperativeMatrixKHR", i32, 3, 3, 16, 2) %mc, i32 14)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %dp, target("spirv.CooperativeMatrixKHR", i32, 3, 3, 16, 2) %md, i32 0, i64 16)
  ret void
}

!0 = !{i32 16}
declare spir_func i64 @_Z12get_group_idj(i32)
declare spir_func target("spirv.CooperativeMatrixKHR", i8, 3, 3, 32, 0) @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", i8, 3, 32, 16, 1) @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", i32, 3, 3, 16, 2) @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", i32, 3, 3, 16, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", i8, 3, 3, 32, 0), target("spirv.CooperativeMatrixKHR", i8, 3, 32, 16, 1), target("spirv.CooperativeMatrixKHR", i32, 3, 3, 16, 2), i32)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), target("spirv.CooperativeMatrixKHR", i32, 3, 3, 16, 2), i32, i64)
