; llc-22 bug: OpCooperativeMatrixLengthKHR's Result Type follows the declared return type of
; __spirv_CooperativeMatrixLengthKHR, and DPC++'s SYCL header declares it as returning size_t
; (i64). llc-22 writes `OpCooperativeMatrixLengthKHR %ulong %type`, which SPV_KHR_cooperative_matrix
; forbids (Result Type must be a 32-bit integer); it should convert the u32 result instead. Both
; xmx-val and upstream's rule reject the module. The acceptance kernels declare it as i32.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

%C = type target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2)

define spir_kernel void @length_i64(ptr addrspace(1) %out) !intel_reqd_sub_group_size !0 {
entry:
  %m = call spir_func %C @_Z26__spirv_CompositeConstruct(float 0.0)
  %len = call spir_func i64 @_Z34__spirv_CooperativeMatrixLengthKHR(%C %m)
  %p = getelementptr inbounds i64, ptr addrspace(1) %out, i64 1
  store i64 %len, ptr addrspace(1) %p
  ret void
}

!0 = !{i32 16}

declare spir_func %C @_Z26__spirv_CompositeConstruct(float)
declare spir_func i64 @_Z34__spirv_CooperativeMatrixLengthKHR(%C)
