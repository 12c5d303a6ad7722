; A K loop that carries the accumulator in a phi of cooperative matrices, picks one of two
; matrices with a select, and keeps a matrix in a Function variable (alloca, store, load), with
; the element count from __spirv_CooperativeMatrixLengthKHR: the shapes the bridge passes to
; SPIRV-Tools as they are (one-member structs), next to the instructions it lifts into calls.
; llc-22 has no __spirv_AccessChain builtin, so element access through an access chain into the
; variable cannot be produced here (test/coop/bridge has it hand-written).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

%A = type target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0)
%B = type target("spirv.CooperativeMatrixKHR", i8, 3, 32, 16, 1)
%C = type target("spirv.CooperativeMatrixKHR", i32, 3, 8, 16, 2)

define spir_kernel void @bridge_loop_phi(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, ptr addrspace(1) %n, i32 %steps, i32 %use_zero) {
entry:
  %saved = alloca %C
  %zero = call spir_func %C @_Z26__spirv_CompositeConstruct(i32 0)
  %empty = icmp eq i32 %steps, 0
  br i1 %empty, label %done, label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi %C [ %zero, %entry ], [ %acc.next, %loop ]
  %off = mul i32 %k, 32
  %off64 = zext i32 %off to i64
  %pa = getelementptr i8, ptr addrspace(1) %a, i64 %off64
  %pb = getelementptr i8, ptr addrspace(1) %b, i64 %off64
  %ma = call spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %pa, i32 0, i64 32)
  %mb = call spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %pb, i32 0, i64 16)
  %acc.next = call spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A %ma, %B %mb, %C %acc, i32 3)
  %k.next = add i32 %k, 1
  %more = icmp ult i32 %k.next, %steps
  br i1 %more, label %loop, label %done

done:
  %result = phi %C [ %zero, %entry ], [ %acc.next, %loop ]
  %pick = icmp ne i32 %use_zero, 0
  %chosen = select i1 %pick, %C %zero, %C %result
  store %C %chosen, ptr %saved
  %reloaded = load %C, ptr %saved
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %c, %C %reloaded, i32 0, i64 16)
  %len = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%C %reloaded)
  store i32 %len, ptr addrspace(1) %n
  ret void
}

declare spir_func %C @_Z26__spirv_CompositeConstruct(i32)
declare spir_func %A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func %B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func %C @_Z34__spirv_CooperativeMatrixMulAddKHR(%A, %B, %C, i32)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%C)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %C, i32, i64)
