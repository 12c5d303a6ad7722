; A and C matrices stored to local memory and loaded back (row- and column-major), then
; stored to global memory: the Workgroup accesses of --lower-cooperative-matrix take the
; per-element form (test/cli/opt_lower_coop.cmake, opt.lower_coop.local_memory). Built with
;   llc-22 -O2 -mtriple=spirv64-unknown-unknown \
;     --spirv-ext=+SPV_KHR_cooperative_matrix,+SPV_INTEL_joint_matrix -filetype=obj
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"
%A = type target("spirv.CooperativeMatrixKHR", i16, 3, 8, 16, 0)
%C = type target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2)
define spir_kernel void @local_roundtrip(ptr addrspace(1) %a, ptr addrspace(1) %c, ptr addrspace(3) %scratch, ptr addrspace(1) %out_a, ptr addrspace(1) %out_c) #0 {
entry:
  %ma = call spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %a, i32 0, i64 16)
  %mc = call spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %c, i32 1, i64 8)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(3) %scratch, %A %ma, i32 1, i64 8)
  %la = call spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(3) %scratch, i32 1, i64 8)
  %s2 = getelementptr i8, ptr addrspace(3) %scratch, i64 256
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(3) %s2, %C %mc, i32 0, i64 16)
  %lc = call spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_4(ptr addrspace(3) %s2, i32 0, i64 16)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %out_a, %A %la, i32 0, i64 16)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %out_c, %C %lc, i32 0, i64 16)
  ret void
}
declare spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(3), i32, i64)
declare spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_4(ptr addrspace(3), i32, i64)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(4), ...)
attributes #0 = { "intel_reqd_sub_group_size"="16" }
