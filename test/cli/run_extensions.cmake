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
