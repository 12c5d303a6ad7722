; SPV_KHR_bfloat16 next to half: two OpTypeFloat 16 that are distinct types (bfloat and half),
; a bfloat constant, a bfloat fill and OpDot on bfloat vectors (BFloat16DotProductKHR).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

%Acc = type target("spirv.CooperativeMatrixKHR", bfloat, 3, 8, 16, 2)

define spir_kernel void @bf16_half_dot(ptr addrspace(1) %x, ptr addrspace(1) %h, ptr addrspace(1) %out, ptr addrspace(1) %c) {
entry:
  %va = load <2 x bfloat>, ptr addrspace(1) %x
  %pb = getelementptr <2 x bfloat>, ptr addrspace(1) %x, i64 1
  %vb = load <2 x bfloat>, ptr addrspace(1) %pb
  %d = call spir_func bfloat @_Z3dotDv2_u6__bf16Dv2_S_(<2 x bfloat> %va, <2 x bfloat> %vb)
  %df = fpext bfloat %d to float
  %hv = load half, ptr addrspace(1) %h
  %hf = fpext half %hv to float
  %sum = fadd float %df, %hf
  %sb = fptrunc float %sum to bfloat
  %scaled = fmul float %sum, 3.0
  %sh = fptrunc float %scaled to half
  store half %sh, ptr addrspace(1) %h
  store bfloat %sb, ptr addrspace(1) %out
  %m = call spir_func %Acc @_Z26__spirv_CompositeConstruct(bfloat 1.5)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %c, %Acc %m, i32 0, i64 16)
  ret void
}

declare spir_func bfloat @_Z3dotDv2_u6__bf16Dv2_S_(<2 x bfloat>, <2 x bfloat>)
declare spir_func %Acc @_Z26__spirv_CompositeConstruct(bfloat)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %Acc, i32, i64)
