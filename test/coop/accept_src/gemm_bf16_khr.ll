; bf16 GEMM with SPV_KHR_bfloat16 components (OpTypeFloat 16 BFloat16KHR),
; B row-major, fp32 accumulator; 8x16x16 tiles at SIMD16.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

define spir_kernel void @gemm_bf16_khr(ptr addrspace(1) %A, ptr addrspace(1) %B, ptr addrspace(1) %C, i64 %M, i64 %N, i64 %K) !intel_reqd_sub_group_size !0 {
entry:
  ; this subgroup's tile: rows [row0, row0 + 8), columns [col0, col0 + 16) of C
  %gx = call spir_func i64 @_Z13get_global_idj(i32 0)
  %gy = call spir_func i64 @_Z13get_global_idj(i32 1)
  %ly = call spir_func i64 @_Z12get_local_idj(i32 1)
  %sgy = sub i64 %gy, %ly
  %tile = udiv i64 %sgy, 16
  %row0 = mul i64 %gx, 8
  %col0 = mul i64 %tile, 16
  %crow = mul i64 %row0, %N
  %coff = add i64 %crow, %col0
  %cp = getelementptr inbounds float, ptr addrspace(1) %C, i64 %coff
  %c0 = call spir_func target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2) @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1) %cp, i32 0, i64 %N)
  %arow = mul i64 %row0, %K
  %ap0 = getelementptr inbounds bfloat, ptr addrspace(1) %A, i64 %arow
  %nk = udiv i64 %K, 16
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2) [ %c0, %entry ], [ %acc1, %loop ]
  %kk = mul i64 %k, 16
  %ap = getelementptr inbounds bfloat, ptr addrspace(1) %ap0, i64 %kk
  %ma = call spir_func target("spirv.CooperativeMatrixKHR", bfloat, 3, 8, 16, 0) @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %ap, i32 0, i64 %K)
  %bk = mul i64 %kk, %N
  %boff = add i64 %bk, %col0
  %bp = getelementptr inbounds bfloat, ptr addrspace(1) %B, i64 %boff
  %mb = call spir_func target("spirv.CooperativeMatrixKHR", bfloat, 3, 16, 16, 1) @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %bp, i32 0, i64 %N)
  %acc1 = call spir_func target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", bfloat, 3, 8, 16, 0) %ma, target("spirv.CooperativeMatrixKHR", bfloat, 3, 16, 16, 1) %mb, target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2) %acc, i32 0)
  %k1 = add i64 %k, 1
  %more = icmp ult i64 %k1, %nk
  br i1 %more, label %loop, label %done
done:
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %cp, target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2) %acc1, i32 0, i64 %N)
  ret void
}

!0 = !{i32 16}

declare spir_func i64 @_Z13get_global_idj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func target("spirv.CooperativeMatrixKHR", bfloat, 3, 8, 16, 0) @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", bfloat, 3, 16, 16, 1) @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2) @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", bfloat, 3, 8, 16, 0), target("spirv.CooperativeMatrixKHR", bfloat, 3, 16, 16, 1), target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2), i32)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2), i32, i64)
