; joint_matrix get_coord: the (row, column) of every element every work-item
; holds, for A, B and accumulator matrices at SIMD8, with Length as the bound.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"
define spir_kernel void @coord_sg8(ptr addrspace(1) %out, ptr addrspace(1) %lens) !intel_reqd_sub_group_size !0 {
entry:
  %lane = call spir_func i32 @_Z22get_sub_group_local_idv()
  %lane64 = zext i32 %lane to i64
  br label %m0
m0:
  %x0 = call spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 8, 16, 0) @_Z26__spirv_CompositeConstruct_0(i16 0)
  %len0 = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR_0(target("spirv.CooperativeMatrixKHR", i16, 3, 8, 16, 0) %x0)
  %lp0 = getelementptr inbounds i32, ptr addrspace(1) %lens, i64 0
  store i32 %len0, ptr addrspace(1) %lp0
  %len64_0 = zext i32 %len0 to i64
  %lanebase0 = mul i64 %lane64, 256
  %base0 = add i64 %lanebase0, 0
  %some0 = icmp ne i32 %len0, 0
  br i1 %some0, label %loop0, label %m1
loop0:
  %i0 = phi i64 [ 0, %m0 ], [ %inext0, %loop0 ]
  %i32_0 = trunc i64 %i0 to i32
  %xy0 = call spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL_0(target("spirv.CooperativeMatrixKHR", i16, 3, 8, 16, 0) %x0, i32 %i32_0)
  %two0 = shl i64 %i0, 1
  %at0 = add i64 %base0, %two0
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %at0
  store <2 x i32> %xy0, ptr addrspace(1) %p0, align 4
  %inext0 = add i64 %i0, 1
  %more0 = icmp ult i64 %inext0, %len64_0
  br i1 %more0, label %loop0, label %m1
  br label %m1
m1:
  %x1 = call spir_func target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0) @_Z26__spirv_CompositeConstruct_1(i8 0)
  %len1 = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR_1(target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0) %x1)
  %lp1 = getelementptr inbounds i32, ptr addrspace(1) %lens, i64 1
  store i32 %len1, ptr addrspace(1) %lp1
  %len64_1 = zext i32 %len1 to i64
  %lanebase1 = mul i64 %lane64, 256
  %base1 = add i64 %lanebase1, 2048
  %some1 = icmp ne i32 %len1, 0
  br i1 %some1, label %loop1, label %m2
loop1:
  %i1 = phi i64 [ 0, %m1 ], [ %inext1, %loop1 ]
  %i32_1 = trunc i64 %i1 to i32
  %xy1 = call spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL_1(target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0) %x1, i32 %i32_1)
  %two1 = shl i64 %i1, 1
  %at1 = add i64 %base1, %two1
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %at1
  store <2 x i32> %xy1, ptr addrspace(1) %p1, align 4
  %inext1 = add i64 %i1, 1
  %more1 = icmp ult i64 %inext1, %len64_1
  br i1 %more1, label %loop1, label %m2
  br label %m2
m2:
  %x2 = call spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 16, 8, 1) @_Z26__spirv_CompositeConstruct_2(i16 0)
  %len2 = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR_2(target("spirv.CooperativeMatrixKHR", i16, 3, 16, 8, 1) %x2)
  %lp2 = getelementptr inbounds i32, ptr addrspace(1) %lens, i64 2
  store i32 %len2, ptr addrspace(1) %lp2
  %len64_2 = zext i32 %len2 to i64
  %lanebase2 = mul i64 %lane64, 256
  %base2 = add i64 %lanebase2, 4096
  %some2 = icmp ne i32 %len2, 0
  br i1 %some2, label %loop2, label %m3
loop2:
  %i2 = phi i64 [ 0, %m2 ], [ %inext2, %loop2 ]
  %i32_2 = trunc i64 %i2 to i32
  %xy2 = call spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL_2(target("spirv.CooperativeMatrixKHR", i16, 3, 16, 8, 1) %x2, i32 %i32_2)
  %two2 = shl i64 %i2, 1
  %at2 = add i64 %base2, %two2
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %at2
  store <2 x i32> %xy2, ptr addrspace(1) %p2, align 4
  %inext2 = add i64 %i2, 1
  %more2 = icmp ult i64 %inext2, %len64_2
  br i1 %more2, label %loop2, label %m3
  br label %m3
m3:
  %x3 = call spir_func target("spirv.CooperativeMatrixKHR", float, 3, 8, 8, 2) @_Z26__spirv_CompositeConstruct_3(float 0.0)
  %len3 = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR_3(target("spirv.CooperativeMatrixKHR", float, 3, 8, 8, 2) %x3)
  %lp3 = getelementptr inbounds i32, ptr addrspace(1) %lens, i64 3
  store i32 %len3, ptr addrspace(1) %lp3
  %len64_3 = zext i32 %len3 to i64
  %lanebase3 = mul i64 %lane64, 256
  %base3 = add i64 %lanebase3, 6144
  %some3 = icmp ne i32 %len3, 0
  br i1 %some3, label %loop3, label %done
loop3:
  %i3 = phi i64 [ 0, %m3 ], [ %inext3, %loop3 ]
  %i32_3 = trunc i64 %i3 to i32
  %xy3 = call spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL_3(target("spirv.CooperativeMatrixKHR", float, 3, 8, 8, 2) %x3, i32 %i32_3)
  %two3 = shl i64 %i3, 1
  %at3 = add i64 %base3, %two3
  %p3 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %at3
  store <2 x i32> %xy3, ptr addrspace(1) %p3, align 4
  %inext3 = add i64 %i3, 1
  %more3 = icmp ult i64 %inext3, %len64_3
  br i1 %more3, label %loop3, label %done
done:
  ret void
}

!0 = !{i32 8}

declare spir_func i32 @_Z22get_sub_group_local_idv()
declare spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 8, 16, 0) @_Z26__spirv_CompositeConstruct_0(i16)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR_0(target("spirv.CooperativeMatrixKHR", i16, 3, 8, 16, 0))
declare spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL_0(target("spirv.CooperativeMatrixKHR", i16, 3, 8, 16, 0), i32)
declare spir_func target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0) @_Z26__spirv_CompositeConstruct_1(i8)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR_1(target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0))
declare spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL_1(target("spirv.CooperativeMatrixKHR", i8, 3, 8, 32, 0), i32)
declare spir_func target("spirv.CooperativeMatrixKHR", i16, 3, 16, 8, 1) @_Z26__spirv_CompositeConstruct_2(i16)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR_2(target("spirv.CooperativeMatrixKHR", i16, 3, 16, 8, 1))
declare spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL_2(target("spirv.CooperativeMatrixKHR", i16, 3, 16, 8, 1), i32)
declare spir_func target("spirv.CooperativeMatrixKHR", float, 3, 8, 8, 2) @_Z26__spirv_CompositeConstruct_3(float)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR_3(target("spirv.CooperativeMatrixKHR", float, 3, 8, 8, 2))
declare spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL_3(target("spirv.CooperativeMatrixKHR", float, 3, 8, 8, 2), i32)
