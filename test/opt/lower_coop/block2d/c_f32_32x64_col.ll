target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"
%M = type target("spirv.CooperativeMatrixKHR", float, 3, 32, 64, 2)
define spir_kernel void @dump_c_f32_32x64_col(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %back, i64 %stride) {
entry:
  %m = call spir_func %M @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %in, i32 1, i64 %stride)
  %p = alloca %M
  store %M %m, ptr %p
  %len = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%M %m)
  %lane = call spir_func i32 @_Z22get_sub_group_local_idv()
  %base = mul i32 %lane, %len
  br label %loop
loop:
  %e = phi i32 [ 0, %entry ], [ %e1, %loop ]
  %xy = call spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL(%M %m, i32 %e)
  %row = extractelement <2 x i32> %xy, i32 0
  %col = extractelement <2 x i32> %xy, i32 1
  %ep = getelementptr float, ptr %p, i32 %e
  %v = load float, ptr %ep
  %vb = bitcast float %v to i32
  %slot = add i32 %base, %e
  %w = mul i32 %slot, 3
  %w64 = zext i32 %w to i64
  %o0 = getelementptr i32, ptr addrspace(1) %out, i64 %w64
  store i32 %row, ptr addrspace(1) %o0
  %o1 = getelementptr i32, ptr addrspace(1) %o0, i64 1
  store i32 %col, ptr addrspace(1) %o1
  %o2 = getelementptr i32, ptr addrspace(1) %o0, i64 2
  store i32 %vb, ptr addrspace(1) %o2
  %e1 = add i32 %e, 1
  %done = icmp eq i32 %e1, %len
  br i1 %done, label %exit, label %loop
exit:
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %back, %M %m, i32 1, i64 %stride)
  ret void
}

declare spir_func %M @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%M)
declare spir_func i32 @_Z22get_sub_group_local_idv()
declare spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL(%M, i32)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %M, i32, i64)
