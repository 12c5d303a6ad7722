# Matrix multiply-accumulate, end to end: every B.5 row module of test/val/rows (LLVM-made) at
# every M, run by xmx-run on random inputs and compared with the independent model of
# check_mma_rows.py (SPEC-NOTES B.4, B.7; DECISIONS 1-3, 10).
# 2D block IO, end to end: every A.4 row module of test/val/rows with blocks inside, partly
# outside and wholly outside Memory Width (and Height), against check_block2d_rows.py's model
# (SPEC-NOTES A.5, A.6; DECISIONS 4, 5).
foreach(op load load_transform load_transpose store prefetch)
  add_test(NAME run.rows.block2d.${op}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_block2d_rows.py
                   $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/test/val/rows
                   ${CMAKE_CURRENT_BINARY_DIR}/rows/block2d_${op} "b2d_${op}_e*")
endforeach()

# Intel subgroup instructions, end to end: every C.3/C.4 row module of test/val/rows (shuffles,
# block IO, 8/16-bit OpGroup*) against check_subgroup_rows.py's model (SPEC-NOTES C.2-C.4,
# DECISIONS 8).
foreach(op shuffle block group)
  add_test(NAME run.rows.subgroups.${op}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_subgroup_rows.py
                   $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/test/val/rows
                   ${CMAKE_CURRENT_BINARY_DIR}/rows/subgroups_${op} "sg_${op}_*")
endforeach()

foreach(group sg8 sg16 sg32)
  add_test(NAME run.rows.mma.${group}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_mma_rows.py
                   $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/test/val/rows
                   ${CMAKE_CURRENT_BINARY_DIR}/rows/mma_${group} "mma_${group}_*")
endforeach()

# Split matrix multiply-accumulate (SPEC-NOTES D, DECISIONS.md 9): xmx-run on the LLVM-made row
# modules of every family and M, compared with the independent model of check_split_mad.py.
foreach(family i8_i8:32 i8_u8:32 u8_i8:32 u8_u8:32 bf16_bf16:16 f16_f16:16)
  string(REPLACE ":" ";" parts ${family})
  list(GET parts 0 types)
  list(GET parts 1 k)
  foreach(m 2 4 8)
    set(name split_${types}_k${k}_m${m})
    set(work ${CMAKE_CURRENT_BINARY_DIR}/split/${name})
    file(MAKE_DIRECTORY ${work})
    add_test(NAME run.split.${name}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_split_mad.py
                     $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/test/val/rows/${name}.spv
                     ${types} ${k} ${m} ${work})
  endforeach()
endforeach()

# A subgroup without a partner waits for ever: reported as barrier.deadlock (one subgroup of 8),
# and not with two.
set(split_module ${CMAKE_SOURCE_DIR}/test/val/rows/split_i8_i8_k32_m8.spv)
set(split_args --device dg2 --arg buffer:zero:512 --arg buffer:zero:1024 --arg buffer:zero:1024)
add_test(NAME run.ub.barrier.deadlock.triggers
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 --where group --subgroup 0 $<TARGET_FILE:xmx-run> 1 barrier.deadlock
                 ${split_module} --global 8 --local 8 ${split_args})
add_test(NAME run.ub.barrier.deadlock.clean
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 $<TARGET_FILE:xmx-run> 0 none ${split_module} --global 16 --local 16 ${split_args})

# 2D block IO restrictions (SPEC-NOTES A.3) on a real llc-22 module: a pitch below the width
# triggers block2d.restriction; a block partly outside Memory Height is defined (zeros), clean.
set(block2d_module ${CMAKE_SOURCE_DIR}/test/corpus/spv/blk2d_load.llc22.O2.spv)
set(block2d_args --kernel blk2d_load_e2 --device pvc --global 32,2 --local 16,1
                 --arg buffer:random=1:8192 --arg i32:128)
add_test(NAME run.ub.block2d.restriction.triggers
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 --warn-too --instruction OpSubgroup2DBlockLoadINTEL --message "Memory Pitch 120"
                 $<TARGET_FILE:xmx-run> 1 block2d.restriction ${block2d_module} ${block2d_args}
                 --arg i32:64 --arg i32:120 --arg buffer:zero:65536)
add_test(NAME run.ub.block2d.restriction.clean
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 $<TARGET_FILE:xmx-run> 0 none ${block2d_module} ${block2d_args}
                 --arg i32:40 --arg i32:128 --arg buffer:zero:65536)

# Results do not depend on the number of worker threads: the bf16 GEMM (64 work-groups, 2D block
# IO and the matrix instruction), global atomics, a local-memory histogram and printf output.
set(XMX_THREADS_DRIVER ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_threads.py)
set(XMX_THREADS_WORK ${CMAKE_CURRENT_BINARY_DIR}/threads)
add_test(NAME run.threads.gemm_bf16
         COMMAND ${Python3_EXECUTABLE} ${XMX_THREADS_DRIVER} $<TARGET_FILE:xmx-run>
                 ${XMX_THREADS_WORK}/gemm_bf16 2 --
                 ${CMAKE_SOURCE_DIR}/examples/gemm_bf16.spv --device pvc --global 64,16 --local 16,1
                 --arg buffer:random=1:32768 --arg buffer:random=2:32768 --arg buffer:zero:65536
                 --arg i32:128 --arg i32:128 --arg i32:128)
add_test(NAME run.threads.atomics_global
         COMMAND ${Python3_EXECUTABLE} ${XMX_THREADS_DRIVER} $<TARGET_FILE:xmx-run>
                 ${XMX_THREADS_WORK}/atomics_global 1,2 --
                 ${CMAKE_SOURCE_DIR}/test/corpus/spv/atomics_global.llc22.O2.spv --global 64 --local 16
                 --arg buffer:file=${CMAKE_SOURCE_DIR}/test/run/inputs/atomics_global.in.bin
                 --arg buffer:file=${CMAKE_SOURCE_DIR}/test/run/inputs/atomics_global.counters.bin
                 --arg buffer:file=${CMAKE_SOURCE_DIR}/test/run/inputs/atomics_global.bits.bin)
add_test(NAME run.threads.local_histogram
         COMMAND ${Python3_EXECUTABLE} ${XMX_THREADS_DRIVER} $<TARGET_FILE:xmx-run>
                 ${XMX_THREADS_WORK}/local_histogram 2 --
                 ${CMAKE_SOURCE_DIR}/test/corpus/spv/local_histogram.spirv15.O2.spv --global 256 --local 16
                 --arg buffer:random=16:4000 --arg i32:4000 --arg buffer:zero:256)
add_test(NAME run.threads.printf
         COMMAND ${Python3_EXECUTABLE} ${XMX_THREADS_DRIVER} $<TARGET_FILE:xmx-run>
                 ${XMX_THREADS_WORK}/printf none --
                 ${CMAKE_SOURCE_DIR}/test/corpus/spv/printf_formats.spirv15.O2.spv --global 32 --local 2
                 --arg buffer:random=3:128 --arg buffer:random=4:128)

# --run FILE.json holds the whole launch: another launch option beside it is a usage error
# (exit 2), never silently ignored.
set(XMX_EXIT_DRIVER ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py)
add_test(NAME run.cli.run_file_takes_no_other_option
         COMMAND ${Python3_EXECUTABLE} ${XMX_EXIT_DRIVER} 2 "--threads cannot be combined with --run"
                 -- $<TARGET_FILE:xmx-run> --run ${CMAKE_SOURCE_DIR}/test/run/local_histogram.json
                 ${CMAKE_SOURCE_DIR}/test/corpus/spv/local_histogram.llc22.O2.spv --threads 2)
# Launches the host should not be asked for are refused up front (exit 2), not attempted.
set(XMX_HUGE_MODULE ${CMAKE_SOURCE_DIR}/test/corpus/spv/atomics_global.llc22.O2.spv)
set(XMX_HUGE_ARGS --arg buffer:zero:64 --arg buffer:zero:64 --arg buffer:zero:64)
add_test(NAME run.cli.work_group_too_large
         COMMAND ${Python3_EXECUTABLE} ${XMX_EXIT_DRIVER} 2 "is more than xmx-run runs (65536)"
                 -- $<TARGET_FILE:xmx-run> ${XMX_HUGE_MODULE} --global 131072 --local 131072
                 ${XMX_HUGE_ARGS})
add_test(NAME run.cli.work_group_memory_too_large
         COMMAND ${Python3_EXECUTABLE} ${XMX_EXIT_DRIVER} 2 "has more than 2^64 work-items"
                 -- $<TARGET_FILE:xmx-run> ${XMX_HUGE_MODULE} --global 4294967296,4294967296
                 --local 4294967296,4294967296 ${XMX_HUGE_ARGS})
# A builtin left as an imported call is checked against what it reads, whatever the module
# declares (here atomic_min declared and called with only the pointer: a fuzzing find).
add_test(NAME run.cli.imported_builtin_wrong_signature
         COMMAND ${Python3_EXECUTABLE} ${XMX_EXIT_DRIVER} 1
                 "call of 'atomic_min' does not match the builtin"
                 -- $<TARGET_FILE:xmx-run> --global 1
                 ${CMAKE_SOURCE_DIR}/test/fuzz/interpreter_fuzzer/regressions/imported_atomic_missing_argument.spv)

# An access chain index that is not a scalar integer (SPIRV-Tools 2023.1 lets a vector through).
add_test(NAME run.cli.access_chain_index_not_integer
         COMMAND ${Python3_EXECUTABLE} ${XMX_EXIT_DRIVER} 1
                 "instruction 109: access chain index %57 is not a scalar integer"
                 -- $<TARGET_FILE:xmx-run> --global 1
                 ${CMAKE_SOURCE_DIR}/test/fuzz/interpreter_fuzzer/regressions/access_chain_vector_index.spv)

# The data-race check shadows at most 4 MiB of local memory: more is refused while checking,
# and runs with --check=off.
set(XMX_BIG_LOCAL ${CMAKE_SOURCE_DIR}/test/corpus/spv/local_arg_reduce.llc22.O2.spv --global 128
                  --local 32 --arg buffer:random=1:512 --arg buffer:zero:32 --arg local:128)
add_test(NAME run.cli.local_memory_beyond_race_check
         COMMAND ${Python3_EXECUTABLE} ${XMX_EXIT_DRIVER} 2
                 "is more than the data-race check covers (4 MiB); run it with --check=off"
                 -- $<TARGET_FILE:xmx-run> ${XMX_BIG_LOCAL} --arg local:8388608)
add_test(NAME run.cli.local_memory_beyond_race_check_unchecked
         COMMAND ${Python3_EXECUTABLE} ${XMX_EXIT_DRIVER} 0 ""
                 -- $<TARGET_FILE:xmx-run> ${XMX_BIG_LOCAL} --arg local:8388608 --check=off)

# Intel image block read/write (SPEC-NOTES C.2, C.3): the corpus kernels of every build against
# check_image_block.py's model, and the two image rules, each triggered and clean.
add_test(NAME run.image_block.model
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_image_block.py
                 $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/test/corpus/spv
                 ${CMAKE_CURRENT_BINARY_DIR}/image_block)
set(image_module ${CMAKE_SOURCE_DIR}/test/corpus/spv/intel_image_block.spirv15.O2.spv)
set(image_write --kernel intel_image_block_write --global 16 --local 16
                --arg image2d:64x8:4:random=1 --arg buffer:random=2:64)
add_test(NAME run.ub.image.misaligned-write.triggers
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 --warn-too --instruction OpSubgroupImageBlockWriteINTEL --message "byte column 2"
                 $<TARGET_FILE:xmx-run> 1 image.misaligned-write ${image_module} ${image_write}
                 --arg i32:2 --arg i32:0)
add_test(NAME run.ub.image.misaligned-write.clean
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 $<TARGET_FILE:xmx-run> 0 none ${image_module} ${image_write} --arg i32:4 --arg i32:0)
add_test(NAME run.ub.image.texel-size.triggers
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 --warn-too --instruction OpSubgroupImageBlockReadINTEL --message "8-byte texels"
                 $<TARGET_FILE:xmx-run> 1 image.texel-size ${image_module}
                 --kernel intel_image_block_read --global 16 --local 16
                 --arg image2d:16x4:8:random=3 --arg buffer:zero:1024 --arg i32:0 --arg i32:0)
add_test(NAME run.ub.image.texel-size.clean
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 $<TARGET_FILE:xmx-run> 0 none ${image_module}
                 --kernel intel_image_block_read --global 16 --local 16
                 --arg image2d:32x4:4:random=3 --arg buffer:zero:1024 --arg i32:0 --arg i32:0)
# A block write to a read_only image (memory.read-only): no producer emits one, so the module is
# the corpus kernel with its image type changed by hand (test/ub/asm), assembled by xmx-as here.
set(image_read_only ${CMAKE_CURRENT_BINARY_DIR}/image_write_read_only.spv)
add_test(NAME run.ub.image.read-only.assemble
         COMMAND $<TARGET_FILE:xmx-as> ${CMAKE_SOURCE_DIR}/test/ub/asm/image_write_read_only.spvasm
                 -o ${image_read_only})
set_tests_properties(run.ub.image.read-only.assemble PROPERTIES FIXTURES_SETUP image_read_only)
add_test(NAME run.ub.memory.read-only.triggers.image
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 --warn-too --instruction OpSubgroupImageBlockWriteINTEL --message "declared read_only"
                 $<TARGET_FILE:xmx-run> 1 memory.read-only ${image_read_only} ${image_write}
                 --arg i32:4 --arg i32:0)
add_test(NAME run.ub.memory.read-only.off.image
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 $<TARGET_FILE:xmx-run> 0 none ${image_read_only} ${image_write}
                 --arg i32:4 --arg i32:0 --check=off)
set_tests_properties(run.ub.memory.read-only.triggers.image run.ub.memory.read-only.off.image
                     PROPERTIES FIXTURES_REQUIRED image_read_only)
# Clean: the same write to the write_only image of the real module.
add_test(NAME run.ub.memory.read-only.clean.image
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_run_report.py
                 $<TARGET_FILE:xmx-run> 0 none ${image_module} ${image_write} --arg i32:4 --arg i32:0)

# The 32x32-tile bf16 GEMM of the corpus (bench b's second kernel): both builds equal the host
# matmul, so the benchmark times a correct computation.
foreach(opt O0 O2)
  add_test(NAME run.gemm_bf16_tile32.${opt}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_gemm.py
                   $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/examples/gemm_data.py
                   ${CMAKE_SOURCE_DIR}/test/corpus/spv/gemm_bf16_tile32_sg16.llc22.${opt}.spv
                   32 64 96 48 ${CMAKE_CURRENT_BINARY_DIR}/gemm_tile32_${opt})
endforeach()
