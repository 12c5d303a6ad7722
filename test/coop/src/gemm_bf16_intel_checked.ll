; joint_matrix bf16 the SPV_INTEL_joint_matrix way: i16 components with the
; MatrixAAndBBFloat16ComponentsINTEL bit (0x40), B in the PackedINTEL (VNNI) layout, the checked
; load/store/construct of an edge tile, and get_coord on the accumulator.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

%A = type target("spirv.CooperativeMatrixKHR", i16, 3, 8, 16, 0)
%B = type target("spirv.CooperativeMatrixKHR", i16, 3, 16, 16, 1)
%C = type target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2)

define spir_kernel void @gemm_bf16_intel_checked(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i32 %row, i32 %col, i32 %height, i32 %width, i64 %k, ptr addrspace(1) %coords) {
entry:
  %acc0 = call spir_func %C @_Z46__spirv_CooperativeMatrixConstructCheckedINTEL(i32 %row, i32 %col, i32 %height, i32 %width, float 0.0)
  %ma = call spir_func %A @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_1(ptr addrspace(1) %a, i32 %row, i32 0, i32 0, i32 %height, i32 16, i64 %k)
  %mb = call spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %b, i32 2, i64 32)
  %mc = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma, %B %mb, %C %acc0, i32 64)
  call spir_func void @_Z42__spirv_CooperativeMatrixStoreCheckedINTEL(ptr addrspace(1) %c, i32 %row, i32 %col, %C %mc, i32 0, i32 %height, i32 %width, i64 16)
  %xy = call spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL(%C %mc, i32 3)
  store <2 x i32> %xy, ptr addrspace(1) %coords
  ret void
}

declare spir_func %C @_Z46__spirv_CooperativeMatrixConstructCheckedINTEL(i32, i32, i32, i32, float)
declare spir_func %A @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_1(ptr addrspace(1), i32, i32, i32, i32, i32, i64)
declare spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A, %B, %C, i32)
declare spir_func void @_Z42__spirv_CooperativeMatrixStoreCheckedINTEL(ptr addrspace(1), i32, i32, %C, i32, i32, i32, i64)
declare spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL(%C, i32)
