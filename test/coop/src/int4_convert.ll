; SPV_INTEL_int4 without cooperative matrices: 4-bit integers widened and narrowed.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

define spir_kernel void @int4_convert(ptr addrspace(1) %out, i8 %x, i8 %y) {
entry:
  %a = trunc i8 %x to i4
  %b = trunc i8 %y to i4
  %s = add i4 %a, %b
  %w = sext i4 %s to i32
  store i32 %w, ptr addrspace(1) %out
  ret void
}
