; int8 GEMM through the checked instructions (joint_matrix_load_checked /
; store_checked) on a 20x72x80 problem, which no tile size divides: the edge
; tiles of C (8x16) read zeros past row 20 and column 72 and their stores there
; are dropped; the last K step (32) reads zeros past K = 80. s8 x u8.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

define spir_kernel void @gemm_int8_checked(ptr addrspace(1) %Abuf, i64 %Aoff, ptr addrspace(1) %Bbuf, i64 %Boff, ptr addrspace(1) %Cbuf, i64 %Coff, i64 %M, i64 %N, i64 %K) !intel_reqd_sub_group_size !0 {
entry:
  ; this subgroup's tile: rows [row0, row0 + 8), columns [col0, col0 + 16) of C
  %gx = call spir_func i64 @_Z13get_global_idj(i32 0)
  %gy = call spir_func i64 @_Z13get_global_idj(i32 1)
  %ly = call spir_func i64 @_Z12get_local_idj(i32 1)
  %sgy = sub i64 %gy, %ly
  %tile = udiv i64 %sgy, 16
  %row0 = mul i64 %gx, 8
  %col0 = mul i64 %tile, 16
  %A = getelementptr inbounds i8, ptr addrspace(1) %Abuf, i64 %Aoff
  %B = getelementptr inbounds i8, ptr addrspace(1) %Bbuf, i64 %Boff
  %C = getelementptr inbounds i32, ptr addrspace(1) %Cbuf, i64 %Coff
  %r32 = trunc i64 %row0 to i32
  %c32 = trunc i64 %col0 to i32
  %m32 = trunc i64 %M to i32
  %n32 = trunc i64 %N to i32
  %k32 = trunc i64 %K to i32
  %c0 = call spir_func target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2) @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_3(ptr addrspace(1) %C, i32 %r32, i32 %c32, i32 0, i32 %m32, i32 %n32, i64 %N)
  ; K steps rounded up: the last one reads zeros past column K of A and row K of B
  %kround = add i64 %K, 31
  %nk = udiv i64 %kround, 32
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2) [ %c0, %entry ], [ %acc1, %loop ]
  %kk = mul i64 %k, 32
  %kk32 = trunc i64 %kk to i32
  %ma = call spir_func target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0) @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_1(ptr addrspace(1) %A, i32 %r32, i32 %kk32, i32 0, i32 %m32, i32 %k32, i64 %K)
  %mb = call spir_func target("spirv.CooperativeMatrixKHR", i8, 3, 32, 16, 1) @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_2(ptr addrspace(1) %B, i32 %kk32, i32 %c32, i32 0, i32 %k32, i32 %n32, i64 %N)
  %acc1 = call spir_func target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0) %ma, target("spirv.CooperativeMatrixKHR", i8, 3, 32, 16, 1) %mb, target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2) %acc, i32 13)
  %k1 = add i64 %k, 1
  %more = icmp ult i64 %k1, %nk
  br i1 %more, label %loop, label %done
done:
  call spir_func void @_Z42__spirv_CooperativeMatrixStoreCheckedINTEL(ptr addrspace(1) %C, i32 %r32, i32 %c32, target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2) %acc1, i32 0, i32 %m32, i32 %n32, i64 %N)
  ret void
}

!0 = !{i32 16}

declare spir_func i64 @_Z13get_global_idj(i32)
declare spir_func i64 @_Z12get_local_idj(i32)
declare spir_func target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0) @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_1(ptr addrspace(1), i32, i32, i32, i32, i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", i8, 3, 32, 16, 1) @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_2(ptr addrspace(1), i32, i32, i32, i32, i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2) @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_3(ptr addrspace(1), i32, i32, i32, i32, i32, i64)
declare spir_func target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2) @_Z34__spirv_CooperativeMatrixMulAddKHR(target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0), target("spirv.CooperativeMatrixKHR", i8, 3, 32, 16, 1), target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2), i32)
declare spir_func void @_Z42__spirv_CooperativeMatrixStoreCheckedINTEL(ptr addrspace(1), i32, i32, target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2), i32, i32, i32, i64)
