; llc-22 limitation: DPC++ reaches the elements of a joint_matrix (joint_matrix_apply, element
; access) through __spirv_AccessChain(pointer to a variable of matrix type, index), which the
; SPIRV-LLVM-Translator writes as OpAccessChain. llc-22 has no such builtin and writes the call as
; a call of an imported function (LinkageAttributes Import) that no driver provides: the module
; is valid but cannot run. xmx-run refuses it, naming the import. The acceptance element-wise
; kernels (test/coop/accept_src/*.spvasm) are therefore written in the translator's form.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

%C = type target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2)

define spir_kernel void @triple(ptr addrspace(1) %c, ptr addrspace(1) %d) !intel_reqd_sub_group_size !0 {
entry:
  %m = alloca %C
  %mc = call spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %c, i32 0, i64 16)
  store %C %mc, ptr %m
  %len = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%C %mc)
  %len64 = zext i32 %len to i64
  %generic = addrspacecast ptr %m to ptr addrspace(4)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = call spir_func ptr addrspace(4) @_Z19__spirv_AccessChainPU3AS4PU3AS142__spirv_CooperativeMatrixKHR__int_3_8_16_2l(ptr addrspace(4) %generic, i64 %i)
  %v = load i32, ptr addrspace(4) %p
  %v3 = mul i32 %v, 3
  store i32 %v3, ptr addrspace(4) %p
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %len64
  br i1 %more, label %loop, label %done
done:
  %r = load %C, ptr %m
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %d, %C %r, i32 0, i64 16)
  ret void
}

!0 = !{i32 16}

declare spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%C)
declare spir_func ptr addrspace(4) @_Z19__spirv_AccessChainPU3AS4PU3AS142__spirv_CooperativeMatrixKHR__int_3_8_16_2l(ptr addrspace(4), i64)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %C, i32, i64)
