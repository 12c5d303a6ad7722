# --emulate-xmx (source/opt/emulate_xmx*.cpp): modules made for pvc (test/opt/emulate/src and
# test/opt/fuse/src, built by test/opt/fuse/build.sh; one corpus module) emulated for a device
# without the instructions, validated for that device, and run by xmx-run before (on the device
# they were made for) and after (on the target device) with byte-identical dumps
# (test/opt/fuse/check_pass.py). The float tests use make_inputs.py's data, whose sums need the
# exact model: xmx-run's --mma-fp ordered gives other bits on them.
if(TARGET xmx-opt)
  set(XMX_EMULATE_DIR ${CMAKE_SOURCE_DIR}/test/opt/emulate)
  set(XMX_FUSE_DIR ${CMAKE_SOURCE_DIR}/test/opt/fuse)
  set(emulate_check ${Python3_EXECUTABLE} ${XMX_FUSE_DIR}/check_pass.py
      --opt $<TARGET_FILE:xmx-opt> --val $<TARGET_FILE:xmx-val> --run $<TARGET_FILE:xmx-run>
      --dis $<TARGET_FILE:xmx-dis>)
  set(no_2d_block --expect-absent OpSubgroup2DBlockLoadINTEL
      --expect-absent OpSubgroup2DBlockLoadTransformINTEL
      --expect-absent OpSubgroup2DBlockLoadTransposeINTEL
      --expect-absent OpSubgroup2DBlockPrefetchINTEL --expect-absent OpSubgroup2DBlockStoreINTEL)
  set(no_matrix --expect-absent OpSubgroupMatrixMultiplyAccumulateINTEL)
  # name, module, run description, target device, input device, expectations...
  function(xmx_emulate_test name module launch device input_device)
    add_test(NAME opt.emulate.${name}.${device}
             COMMAND ${emulate_check} --pass=--emulate-xmx=${device} --device ${device}
                     --input-device ${input_device} --module ${module} --launch ${launch}
                     --out ${CMAKE_CURRENT_BINARY_DIR}/opt_emulate/${name}.${device} ${ARGN})
  endfunction()

  # 2D block IO on dg2, which has none: plain, transformed (8- and 16-bit) and transposed loads
  # of every Block Count, partly out of bounds; every store row of pvc's table; prefetches.
  foreach(module fuse_e2_x4 fuse_int8_x4 nofuse_barriers)
    xmx_emulate_test(block2d_${module} ${XMX_FUSE_DIR}/spv/${module}.llc22.O2.spv
                     ${XMX_FUSE_DIR}/${module}.json dg2 pvc ${no_2d_block})
  endforeach()
  xmx_emulate_test(block2d_store ${XMX_EMULATE_DIR}/spv/emu_block2d_store.llc22.O2.spv
                   ${XMX_EMULATE_DIR}/emu_block2d_store.json dg2 pvc ${no_2d_block})
  # The matrix instruction at subgroup size 16 on dg2 (whose rows are for 8 only): int8 and int4
  # of every signedness, fp16 and bf16 with float, half and bf16 accumulators, M = 1 .. 8.
  xmx_emulate_test(mma_int ${XMX_EMULATE_DIR}/spv/emu_mma_int.llc22.O2.spv
                   ${XMX_EMULATE_DIR}/emu_mma_int.json dg2 pvc ${no_matrix})
  xmx_emulate_test(mma_float ${XMX_EMULATE_DIR}/spv/emu_mma_float.llc22.O2.spv
                   ${XMX_EMULATE_DIR}/emu_mma_float.json dg2 pvc ${no_matrix})
  # The bf16 GEMM: 2D block loads, prefetches, stores and the matrix instruction all emulated.
  xmx_emulate_test(gemm_bf16 ${XMX_FUSE_DIR}/spv/fuse_gemm_bf16.llc22.O2.spv
                   ${XMX_EMULATE_DIR}/emu_gemm_bf16.json dg2 pvc ${no_2d_block} ${no_matrix})
  # Subgroup size 8 (A with four int8 per component) on pvc, which has no such rows; the kernel's
  # subgroup size is not one of pvc's, so both sides validate and run as OpenCL.
  add_test(NAME opt.emulate.mma_int8_sg8.pvc
           COMMAND ${emulate_check} --pass=--emulate-xmx=pvc --device opencl
                   --module ${CMAKE_SOURCE_DIR}/test/corpus/spv/xmx_int8_sg8.llc22.O2.spv
                   --launch ${XMX_EMULATE_DIR}/xmx_int8_sg8.json
                   --out ${CMAKE_CURRENT_BINARY_DIR}/opt_emulate/mma_int8_sg8.pvc ${no_matrix})
  # 8- and 16-bit subgroup typings on a device without cl_intel_subgroups_char / _short (a pvc
  # profile without those features): shuffles, broadcasts, reductions and scans (the exclusive
  # min / max identities included) widened to 32 bits, buffer block IO as per-component loads and
  # stores, image block reads of every vector size (at negative, unaligned and clamped
  # coordinates) as 32-bit image block reads and shuffles. The input is not valid on that profile, so xmx-opt skips validation and the output
  # is validated on it; both run on pvc.
  set(no_char ${XMX_EMULATE_DIR}/profiles/pvc-no-char-short.json)
  foreach(case "emu_narrow_scans|${XMX_EMULATE_DIR}/spv/emu_narrow_scans.llc22.O2.spv"
               "intel_char_group|${CMAKE_SOURCE_DIR}/test/corpus/spv/intel_char_group.llc22.O2.spv"
               "intel_block_uc|${CMAKE_SOURCE_DIR}/test/corpus/spv/intel_block_uc.llc22.O2.spv"
               "emu_image_block_read|${XMX_EMULATE_DIR}/spv/emu_image_block_read.llc22.O2.spv")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(GET parts 1 module)
    add_test(NAME opt.emulate.${name}.no_char_short
             COMMAND ${emulate_check} --pass=--emulate-xmx --device pvc
                     "--opt-args=--skip-validation --device-profile ${no_char}"
                     "--val-args=--device-profile ${no_char}"
                     --module ${module} --launch ${XMX_EMULATE_DIR}/${name}.json
                     --out ${CMAKE_CURRENT_BINARY_DIR}/opt_emulate/${name}.no_char_short
                     --expect-absent OpSubgroupBlockReadINTEL
                     --expect-absent OpSubgroupBlockWriteINTEL)
  endforeach()
  # Every row module of test/val/rows through its family's own model check (test/cli/check_*.py,
  # which share no code with the emulation), each module emulated on the way by
  # test/opt/opt_run_wrapper.py: all subgroup-size-16 matrix rows (int8, int4, fp16, bf16, tf32,
  # fp8, fp4, every accumulator), the paired subgroup-size-32 rows and every 2D block row for
  # dg2, the subgroup-size-8 matrix rows for pvc.
  foreach(family "mma_sg16|check_mma_rows.py|mma_sg16_*|dg2"
                 "mma_sg32_paired|check_mma_rows.py|mma_sg32_paired_*|dg2"
                 "mma_sg8|check_mma_rows.py|mma_sg8_*|pvc"
                 "block2d|check_block2d_rows.py|b2d_*|dg2")
    string(REPLACE "|" ";" parts "${family}")
    list(GET parts 0 name)
    list(GET parts 1 script)
    list(GET parts 2 pattern)
    list(GET parts 3 device)
    set(work ${CMAKE_CURRENT_BINARY_DIR}/opt_emulate/rows_${name})
    add_test(NAME opt.emulate.rows.${name}.${device}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/${script}
                     ${CMAKE_SOURCE_DIR}/test/opt/opt_run_wrapper.py
                     ${CMAKE_SOURCE_DIR}/test/val/rows ${work}/checks "${pattern}")
    set_tests_properties(opt.emulate.rows.${name}.${device} PROPERTIES TIMEOUT 1800
        ENVIRONMENT "XMX_OPT_WRAP_TOOLS=$<TARGET_FILE:xmx-opt>,$<TARGET_FILE:xmx-val>,$<TARGET_FILE:xmx-run>;XMX_OPT_WRAP_PASS=--emulate-xmx=${device};XMX_OPT_WRAP_WORK=${work}/wrapped")
  endforeach()
  # What the device has stays as it is.
  xmx_emulate_test(gemm_bf16_native ${XMX_FUSE_DIR}/spv/fuse_gemm_bf16.llc22.O2.spv
                   ${XMX_EMULATE_DIR}/emu_gemm_bf16.json pvc pvc --expect-unchanged --no-run)
  # What the pass cannot emulate fails with exit 1, naming the instruction: here a matrix
  # instruction in a kernel whose subgroup size nothing fixes (refused/open_subgroup_size.spvasm,
  # assembled by the first test).
  set(refused ${CMAKE_CURRENT_BINARY_DIR}/opt_emulate/open_subgroup_size.spv)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/opt_emulate)
  add_test(NAME opt.emulate.refused.assemble
           COMMAND $<TARGET_FILE:xmx-as> ${XMX_EMULATE_DIR}/refused/open_subgroup_size.spvasm
                   -o ${refused})
  set_tests_properties(opt.emulate.refused.assemble PROPERTIES FIXTURES_SETUP opt_emulate_refused)
  add_test(NAME opt.emulate.refuses_open_subgroup_size
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py 1
                   "cannot emulate OpSubgroupMatrixMultiplyAccumulateINTEL for device dg2: the subgroup size of the function is not fixed"
                   -- $<TARGET_FILE:xmx-opt> --skip-validation --emulate-xmx=dg2 ${refused}
                   -o ${CMAKE_CURRENT_BINARY_DIR}/opt_emulate/refused.spv)
  set_tests_properties(opt.emulate.refuses_open_subgroup_size
                       PROPERTIES FIXTURES_REQUIRED opt_emulate_refused)
  # An 8- or 16-bit image block write has no exact emulation (the corpus kernel writes a ushort4
  # block): refused, naming the instruction and why.
  add_test(NAME opt.emulate.refuses_narrow_image_write
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py 1
                   "cannot emulate the 16-bit image_block_io for device pvc-no-char-short: an 8- or 16-bit image block write has no exact emulation"
                   -- $<TARGET_FILE:xmx-opt> --skip-validation --device-profile ${no_char}
                   --emulate-xmx ${CMAKE_SOURCE_DIR}/test/corpus/spv/intel_image_block.llc22.O2.spv
                   -o ${CMAKE_CURRENT_BINARY_DIR}/opt_emulate/refused_image_write.spv)
  add_test(NAME opt.emulate.inputs
           COMMAND ${Python3_EXECUTABLE} ${XMX_EMULATE_DIR}/make_inputs.py --check)
endif()
