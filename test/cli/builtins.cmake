# Built-in calls (issue 9, source/builtins): modules in which a producer kept the extension
# operations as calls of imported built-ins, made from the corpus kernels by both producers.
set(XMX_BUILTINS_DRIVER ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_builtin_calls.py)
set(XMX_SPV ${CMAKE_SOURCE_DIR}/test/corpus/spv)

# xmx-val: each call gets the verdict of the instruction it stands for. builtin_spirv_forms.llc22
# holds the instructions themselves (llc-22 lowers the __spirv_ forms); the OpenCL C names of
# builtin_names and the translator's __spirv_ calls must draw the same errors on every device:
# none on pvc and opencl, no 2D block IO and no SG16 matrix rows on dg2.
set(builtin_reference ${XMX_SPV}/builtin_spirv_forms.llc22.O2.spv)
foreach(build builtin_names.llc22.O0 builtin_names.llc22.O2 builtin_names.spirv15.O0
        builtin_names.spirv15.O2 builtin_spirv_forms.spirv15.O0 builtin_spirv_forms.spirv15.O2)
  foreach(device pvc opencl)
    add_test(NAME builtins.val.${build}.${device}
             COMMAND ${Python3_EXECUTABLE} ${XMX_BUILTINS_DRIVER} val $<TARGET_FILE:xmx-val>
                     ${device} ${XMX_SPV}/${build}.spv --valid --same-errors-as ${builtin_reference})
  endforeach()
  add_test(NAME builtins.val.${build}.dg2
           COMMAND ${Python3_EXECUTABLE} ${XMX_BUILTINS_DRIVER} val $<TARGET_FILE:xmx-val> dg2
                   ${XMX_SPV}/${build}.spv --invalid --same-errors-as ${builtin_reference}
                   --error block2d.unsupported "(as OpSubgroup2DBlockLoadINTEL)"
                   --error mma.subgroup-size.table "(as OpSubgroupMatrixMultiplyAccumulateINTEL)")
endforeach()
# The char/short group built-ins llc-22 and the translator both leave as calls.
foreach(build llc22.O0 llc22.O2 spirv15.O0 spirv15.O2)
  foreach(device pvc dg2 opencl)
    add_test(NAME builtins.val.builtin_intel_subgroups.${build}.${device}
             COMMAND ${Python3_EXECUTABLE} ${XMX_BUILTINS_DRIVER} val $<TARGET_FILE:xmx-val>
                     ${device} ${XMX_SPV}/builtin_intel_subgroups.${build}.spv --valid)
  endforeach()
endforeach()
# The translator's builds of the __spirv_-form corpus kernels (calls) against llc-22's
# (instructions) of the same source.
foreach(kernel blk2d_load blk2d_load_transform blk2d_load_transpose blk2d_prefetch blk2d_store
        xmx_bf16 xmx_fp16 xmx_int4 xmx_int8_sg16 xmx_int8_sg8 xmx_tf32 gemm_bf16_sg16
        gemm_int8_sg16)
  foreach(device pvc dg2 opencl)
    add_test(NAME builtins.val.${kernel}.spirv15.O0.${device}
             COMMAND ${Python3_EXECUTABLE} ${XMX_BUILTINS_DRIVER} val $<TARGET_FILE:xmx-val>
                     ${device} ${XMX_SPV}/${kernel}.spirv15.O0.spv
                     --same-errors-as ${XMX_SPV}/${kernel}.llc22.O0.spv)
  endforeach()
endforeach()

# Invalid calls (builtin_invalid_calls.cl): the instruction's rules apply, named by the call.
foreach(build llc22.O0 llc22.O2 spirv15.O0 spirv15.O2)
  set(module ${XMX_SPV}/builtin_invalid_calls.${build}.spv)
  set(val ${Python3_EXECUTABLE} ${XMX_BUILTINS_DRIVER} val $<TARGET_FILE:xmx-val>)
  add_test(NAME builtins.val.invalid.block-width-7.${build}
           COMMAND ${val} pvc ${module} --invalid --error block2d.block-width.multiple
                   "call of 'intel_sub_group_2d_block_read_16b_8r7x1c' (as OpSubgroup2DBlockLoadINTEL): Block Width 7")
  add_test(NAME builtins.val.invalid.block-height-64.${build}
           COMMAND ${val} pvc ${module} --invalid --error block2d.shape.table
                   "call of 'intel_sub_group_2d_block_read_16b_64r16x1c' (as OpSubgroup2DBlockLoadINTEL): Block Height 64")
  add_test(NAME builtins.val.invalid.matrix-m-16.${build}
           COMMAND ${val} pvc ${module} --invalid --error mma.m.table
                   "call of 'intel_sub_group_bf16_bf16_matrix_mad_k16' (as OpSubgroupMatrixMultiplyAccumulateINTEL)")
  add_test(NAME builtins.val.invalid.block-signature.${build}
           COMMAND ${val} opencl ${module} --invalid --error builtin.signature
                   "'intel_sub_group_2d_block_read_32b_8r16x1c' (\"_Z41intel_sub_group_2d_block_read_32b_8r16x1cPU3AS1viiiDv2_i\") is declared as void (pointer CrossWorkgroup, i32, i32, i32, i32x2)")
  add_test(NAME builtins.val.invalid.matrix-signature.${build}
           COMMAND ${val} opencl ${module} --invalid --error builtin.signature
                   "'intel_sub_group_f16_f16_matrix_mad_k16'")
endforeach()
# xmx-run refuses a module whose built-in has a wrong signature, naming it.
add_test(NAME builtins.run.wrong_signature_refused
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py 1
                 "intel_sub_group_2d_block_read_32b_8r16x1c"
                 -- $<TARGET_FILE:xmx-run> ${XMX_SPV}/builtin_invalid_calls.spirv15.O0.spv
                 --kernel bad_block_signature --device pvc --global 16 --arg buffer:zero:4096)

# xmx-run: every build of the OpenCL C names and of the __spirv_ forms computes what llc-22's
# instructions compute, byte for byte.
add_test(NAME builtins.run.forms
         COMMAND ${Python3_EXECUTABLE} ${XMX_BUILTINS_DRIVER} run $<TARGET_FILE:xmx-run>
                 ${CMAKE_CURRENT_BINARY_DIR}/builtins_forms forms ${builtin_reference}
                 ${XMX_SPV}/builtin_names.llc22.O0.spv ${XMX_SPV}/builtin_names.llc22.O2.spv
                 ${XMX_SPV}/builtin_names.spirv15.O0.spv ${XMX_SPV}/builtin_names.spirv15.O2.spv
                 ${XMX_SPV}/builtin_spirv_forms.llc22.O0.spv
                 ${XMX_SPV}/builtin_spirv_forms.spirv15.O0.spv
                 ${XMX_SPV}/builtin_spirv_forms.spirv15.O2.spv)
# The Intel subgroup built-ins against a model written in the driver.
foreach(build llc22.O0 llc22.O2 spirv15.O0 spirv15.O2)
  add_test(NAME builtins.run.intel_subgroups.${build}
           COMMAND ${Python3_EXECUTABLE} ${XMX_BUILTINS_DRIVER} model $<TARGET_FILE:xmx-run>
                   ${CMAKE_CURRENT_BINARY_DIR}/builtins_subgroups_${build}
                   ${XMX_SPV}/builtin_intel_subgroups.${build}.spv)
endforeach()
# The translator's GEMMs (2D block and matrix __spirv_ calls) equal the host matmul.
foreach(opt O0 O2)
  add_test(NAME builtins.run.gemm_bf16_sg16.spirv15.${opt}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_gemm.py
                   $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/examples/gemm_data.py
                   ${XMX_SPV}/gemm_bf16_sg16.spirv15.${opt}.spv
                   8 32 64 48 ${CMAKE_CURRENT_BINARY_DIR}/builtins_gemm_${opt})
endforeach()
add_test(NAME builtins.run.gemm_bf16_tile32_sg16.spirv15.O0
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_gemm.py
                 $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/examples/gemm_data.py
                 ${XMX_SPV}/gemm_bf16_tile32_sg16.spirv15.O0.spv
                 32 64 96 48 ${CMAKE_CURRENT_BINARY_DIR}/builtins_gemm_tile32)
