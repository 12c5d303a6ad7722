; bf16 GEMM with DG2's 32x32x16 joint_matrix shape at SIMD8, fp32 accumulator.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

define spir_kernel void @gemm_bf16_32x32x16_sg8(ptr addrspace(1) %A, ptr addrspace(1) %B, ptr addrspace(1) %C, i64 %M, i64 %N, i64 %K) !intel_reqd_sub_group_size !0 {
entry:
  ; this subgroup's tile: rows [row0, row0 + 32), columns [col0, col0 + 32) of C
  %gx = call spir_func i64 @_Z13get_global_idj(i32 0)
  %gy = call spir_func i64 @_Z13get_global_idj(i32 1)
  %ly = call spir_func i64 @_Z12get_local_idj(i32 1)
  %sgy = sub i64 %gy, %ly
  %tile = udiv i64 %sgy, 8
  %row0 = mul i64 %gx, 32
  %col0 = mul i64 %tile, 32
  %crow = mul i64 %row0, %N
  %coff = add i64 %crow, %col0
  %cp = getelementptr inbounds float, ptr addrspace(1) %C, i64 %coff
  %c0 = call spir_func target("spirv.CooperativeMatrixKHR", float, 3, 32, 32, 2) @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1) %cp, i32 0, i64 %N)
  %arow = mul i64 %row0, %K
  %ap0 = getelementptr inbounds i16, ptr addrspace(1) %A, i64 %arow
  %nk = udiv i64 %K, 16
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi target("spirv.CooperativeMatrixKHR", float, 3, 32, 32, 2) [ %c0, %entry ], [ %acc1, %loop ]
  %kk = mul i64 %k, 16
  %ap = getelementptr inbounds i16, ptr addrspace(1) %ap0, i64 %kk
  %ma = call spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 32, 16, 0) @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %ap, i32 0, i64 %K)
  %bk = mul i64 %kk, %N
  %boff = add i64 %bk, %col0
  %bp = getelementptr inbounds i16, ptr addrspace(1) %B, i64 %boff
  %mb = call spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 16, 32, 1) @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %bp, i32 0, i64 %N)
  %acc1 = call spir_func target("spirv.CooperativeMatrixKHR", float, 3, 32, 32, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", i16, 3, 32, 16, 0) %ma, target("spirv.CooperativeMatrixKHR", i16, 3, 16, 32, 1) %mb, target("spirv.CooperativeMatrixKHR", float, 3, 32, 32, 2) %acc, i32 64)
  %k1 = add i64 %k, 1
  %more = icmp ult i64 %k1, %nk
  br i1 %more, label %loop, label %done
done:
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %cp, target("spirv.CooperativeMatrixKHR", float, 3, 32, 32, 2) %acc1, i32 0, i64 %N)
  ret void
}

!0 = !{i32 8}

declare spir_func i64 @_Z13get_global_idj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 32, 16, 0) @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 16, 32, 1) @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", float, 3, 32, 32, 2) @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1), i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", float, 3, 32, 32, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", i16, 3, 32, 16, 0), target("spirv.CooperativeMatrixKHR", i16, 3, 16, 32, 1), target("spirv.CooperativeMatrixKHR", float, 3, 32, 32, 2), i32)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), target("spirv.CooperativeMatrixKHR", float, 3, 32, 32, 2), i32, i64)
