; The bf16 GEMM of bench/run_bench (b) written with cooperative matrices, as joint_matrix users
; write it: C(float, MxN) = A(bf16 in i16, MxK) * B(bf16 in i16, KxN), all row-major. One
; subgroup of 16 computes a 32x32 tile of C, the tile of test/corpus/src/gemm_bf16_tile32_sg16.cl:
; per K step of 16, four 8x16 A loads, two 16x16 B loads and eight 8x16x16 multiply-adds
; (MatrixAAndBBFloat16ComponentsINTEL) into 4 x 2 accumulators, stored at the end.
; Requires M % 32 == 0, N % 32 == 0, K % 16 == 0; NDRange (N / 2, M / 32), local (16, 1).
; LLVM IR (cooperative-matrix types are target extension types); built by
; utils/build_bench_kernels.sh with llc-22 -O2.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

%A = type target("spirv.CooperativeMatrixKHR", i16, 3, 8, 16, 0)
%B = type target("spirv.CooperativeMatrixKHR", i16, 3, 16, 16, 1)
%C = type target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2)

define spir_kernel void @coop_gemm_bf16(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i32 %m, i32 %n, i32 %k) !intel_reqd_sub_group_size !0 {
entry:
  %g0 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %g1 = call spir_func i64 @_Z12get_group_idj(i32 1)
  %n0 = mul i64 %g0, 32
  %m0 = mul i64 %g1, 32
  %n64 = sext i32 %n to i64
  %k64 = sext i32 %k to i64
  %zero = call spir_func %C @_Z26__spirv_CompositeConstruct(float 0.0)
  br label %loop
loop:
  %kk = phi i64 [ 0, %entry ], [ %kk1, %loop ]
  %acc00 = phi %C [ %zero, %entry ], [ %d00, %loop ]
  %acc01 = phi %C [ %zero, %entry ], [ %d01, %loop ]
  %acc10 = phi %C [ %zero, %entry ], [ %d10, %loop ]
  %acc11 = phi %C [ %zero, %entry ], [ %d11, %loop ]
  %acc20 = phi %C [ %zero, %entry ], [ %d20, %loop ]
  %acc21 = phi %C [ %zero, %entry ], [ %d21, %loop ]
  %acc30 = phi %C [ %zero, %entry ], [ %d30, %loop ]
  %acc31 = phi %C [ %zero, %entry ], [ %d31, %loop ]
  %ar0 = add i64 %m0, 0
  %ao0 = mul i64 %ar0, %k64
  %ai0 = add i64 %ao0, %kk
  %ap0 = getelementptr i16, ptr addrspace(1) %a, i64 %ai0
  %ma0 = call spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %ap0, i32 0, i64 %k64)
  %ar1 = add i64 %m0, 8
  %ao1 = mul i64 %ar1, %k64
  %ai1 = add i64 %ao1, %kk
  %ap1 = getelementptr i16, ptr addrspace(1) %a, i64 %ai1
  %ma1 = call spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %ap1, i32 0, i64 %k64)
  %ar2 = add i64 %m0, 16
  %ao2 = mul i64 %ar2, %k64
  %ai2 = add i64 %ao2, %kk
  %ap2 = getelementptr i16, ptr addrspace(1) %a, i64 %ai2
  %ma2 = call spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %ap2, i32 0, i64 %k64)
  %ar3 = add i64 %m0, 24
  %ao3 = mul i64 %ar3, %k64
  %ai3 = add i64 %ao3, %kk
  %ap3 = getelementptr i16, ptr addrspace(1) %a, i64 %ai3
  %ma3 = call spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %ap3, i32 0, i64 %k64)
  %bo0 = mul i64 %kk, %n64
  %bc0 = add i64 %n0, 0
  %bi0 = add i64 %bo0, %bc0
  %bp0 = getelementptr i16, ptr addrspace(1) %b, i64 %bi0
  %mb0 = call spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %bp0, i32 0, i64 %n64)
  %bo1 = mul i64 %kk, %n64
  %bc1 = add i64 %n0, 16
  %bi1 = add i64 %bo1, %bc1
  %bp1 = getelementptr i16, ptr addrspace(1) %b, i64 %bi1
  %mb1 = call spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %bp1, i32 0, i64 %n64)
  %d00 = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma0, %B %mb0, %C %acc00, i32 64)
  %d01 = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma0, %B %mb1, %C %acc01, i32 64)
  %d10 = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma1, %B %mb0, %C %acc10, i32 64)
  %d11 = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma1, %B %mb1, %C %acc11, i32 64)
  %d20 = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma2, %B %mb0, %C %acc20, i32 64)
  %d21 = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma2, %B %mb1, %C %acc21, i32 64)
  %d30 = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma3, %B %mb0, %C %acc30, i32 64)
  %d31 = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma3, %B %mb1, %C %acc31, i32 64)
  %kk1 = add i64 %kk, 16
  %more = icmp slt i64 %kk1, %k64
  br i1 %more, label %loop, label %done
done:
  %cr00 = add i64 %m0, 0
  %co00 = mul i64 %cr00, %n64
  %cc00 = add i64 %n0, 0
  %ci00 = add i64 %co00, %cc00
  %cp00 = getelementptr float, ptr addrspace(1) %c, i64 %ci00
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %cp00, %C %d00, i32 0, i64 %n64)
  %cr01 = add i64 %m0, 0
  %co01 = mul i64 %cr01, %n64
  %cc01 = add i64 %n0, 16
  %ci01 = add i64 %co01, %cc01
  %cp01 = getelementptr float, ptr addrspace(1) %c, i64 %ci01
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %cp01, %C %d01, i32 0, i64 %n64)
  %cr10 = add i64 %m0, 8
  %co10 = mul i64 %cr10, %n64
  %cc10 = add i64 %n0, 0
  %ci10 = add i64 %co10, %cc10
  %cp10 = getelementptr float, ptr addrspace(1) %c, i64 %ci10
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %cp10, %C %d10, i32 0, i64 %n64)
  %cr11 = add i64 %m0, 8
  %co11 = mul i64 %cr11, %n64
  %cc11 = add i64 %n0, 16
  %ci11 = add i64 %co11, %cc11
  %cp11 = getelementptr float, ptr addrspace(1) %c, i64 %ci11
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %cp11, %C %d11, i32 0, i64 %n64)
  %cr20 = add i64 %m0, 16
  %co20 = mul i64 %cr20, %n64
  %cc20 = add i64 %n0, 0
  %ci20 = add i64 %co20, %cc20
  %cp20 = getelementptr float, ptr addrspace(1) %c, i64 %ci20
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %cp20, %C %d20, i32 0, i64 %n64)
  %cr21 = add i64 %m0, 16
  %co21 = mul i64 %cr21, %n64
  %cc21 = add i64 %n0, 16
  %ci21 = add i64 %co21, %cc21
  %cp21 = getelementptr float, ptr addrspace(1) %c, i64 %ci21
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %cp21, %C %d21, i32 0, i64 %n64)
  %cr30 = add i64 %m0, 24
  %co30 = mul i64 %cr30, %n64
  %cc30 = add i64 %n0, 0
  %ci30 = add i64 %co30, %cc30
  %cp30 = getelementptr float, ptr addrspace(1) %c, i64 %ci30
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %cp30, %C %d30, i32 0, i64 %n64)
  %cr31 = add i64 %m0, 24
  %co31 = mul i64 %cr31, %n64
  %cc31 = add i64 %n0, 16
  %ci31 = add i64 %co31, %cc31
  %cp31 = getelementptr float, ptr addrspace(1) %c, i64 %ci31
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %cp31, %C %d31, i32 0, i64 %n64)
  ret void
}

declare spir_func i64 @_Z12get_group_idj(i32)
declare spir_func %C @_Z26__spirv_CompositeConstruct(float)
declare spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A, %B, %C, i32)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %C, i32, i64)

!0 = !{i32 16}
