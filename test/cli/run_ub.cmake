# xmx-run --check: every undefined-behaviour rule has a kernel (test/ub, see its README) that
# triggers it under one argument set and runs clean under another. Included from
# test/CMakeLists.txt. For each case:
#   run.ub.<rule>.triggers[.<variant>]  --check=error: exit 1, one complete report of <rule> (at the
#                                       expected work-item / subgroup and instruction); then
#                                       --check=warn: exit 0, the report still printed
#   run.ub.<rule>.off[.<variant>]       the triggering run with --check=off: exit 0, no report
#   run.ub.<rule>.clean[.<variant>]     --check=error with the clean arguments: exit 0, no report
#   run.ub.<rule>.warns[.<variant>]     rules value.*, reads of undefined values: a warning and
#                                       exit 0 in every --check mode (DECISIONS.md 16)
# Cases marked DISABLED document known xmx-run bugs (see test/ub/README.md); they are registered
# so that fixing the bug only means removing the DISABLED keyword.
set(XMX_UB_SPV ${CMAKE_SOURCE_DIR}/test/ub/spv)
set(XMX_UB_DRIVER ${CMAKE_CURRENT_LIST_DIR}/check_run_report.py)

# One work-group of 32 with two subgroups of 16, and two work-groups of 16 with one subgroup each.
set(XMX_UB_ONE_GROUP --global 32 --local 32 --subgroup-size 16)
set(XMX_UB_TWO_GROUPS --global 32 --local 16 --subgroup-size 16)

function(xmx_ub_set_disabled name disabled)
  if(disabled)
    set_tests_properties(${name} PROPERTIES DISABLED TRUE)
  endif()
endfunction()

# xmx_ub_trigger(RULE <rule> [VARIANT <v>] KERNEL <k> RUN <xmx-run arguments...>
#                [EXPECT <check_run_report.py options...>] [DISABLED] [OFF_DISABLED] [NO_OFF])
# DISABLED / OFF_DISABLED disable the .triggers / .off test; NO_OFF registers no .off test.
function(xmx_ub_trigger)
  cmake_parse_arguments(UB "DISABLED;OFF_DISABLED;NO_OFF" "RULE;VARIANT;KERNEL" "RUN;EXPECT" ${ARGN})
  set(suffix "")
  if(UB_VARIANT)
    set(suffix ".${UB_VARIANT}")
  endif()
  set(module ${XMX_UB_SPV}/${UB_KERNEL}.spv)
  add_test(NAME run.ub.${UB_RULE}.triggers${suffix}
           COMMAND ${Python3_EXECUTABLE} ${XMX_UB_DRIVER} ${UB_EXPECT} --warn-too
                   $<TARGET_FILE:xmx-run> 1 ${UB_RULE} ${module} ${UB_RUN})
  xmx_ub_set_disabled(run.ub.${UB_RULE}.triggers${suffix} "${UB_DISABLED}")
  if(NOT UB_NO_OFF)
    add_test(NAME run.ub.${UB_RULE}.off${suffix}
             COMMAND ${Python3_EXECUTABLE} ${XMX_UB_DRIVER}
                     $<TARGET_FILE:xmx-run> 0 none ${module} ${UB_RUN} --check=off)
    xmx_ub_set_disabled(run.ub.${UB_RULE}.off${suffix} "${UB_OFF_DISABLED}")
  endif()
endfunction()

# xmx_ub_value(RULE <rule> [VARIANT <v>] KERNEL <k> RUN <xmx-run arguments...>
#              [EXPECT <check_run_report.py options...>])
# run.ub.<rule>.warns[.<variant>]: a read of an undefined value, in each of --check=error, warn
# and off: exit 0 and the warning (at the expected work-item and instruction).
function(xmx_ub_value)
  cmake_parse_arguments(UB "" "RULE;VARIANT;KERNEL" "RUN;EXPECT" ${ARGN})
  set(suffix "")
  if(UB_VARIANT)
    set(suffix ".${UB_VARIANT}")
  endif()
  add_test(NAME run.ub.${UB_RULE}.warns${suffix}
           COMMAND ${Python3_EXECUTABLE} ${XMX_UB_DRIVER} ${UB_EXPECT} --all-modes
                   $<TARGET_FILE:xmx-run> 0 ${UB_RULE} ${XMX_UB_SPV}/${UB_KERNEL}.spv ${UB_RUN})
endfunction()

# xmx_ub_clean(RULE <rule> [VARIANT <v>] KERNEL <k> RUN <xmx-run arguments...> [DISABLED])
function(xmx_ub_clean)
  cmake_parse_arguments(UB "DISABLED" "RULE;VARIANT;KERNEL" "RUN" ${ARGN})
  set(suffix "")
  if(UB_VARIANT)
    set(suffix ".${UB_VARIANT}")
  endif()
  add_test(NAME run.ub.${UB_RULE}.clean${suffix}
           COMMAND ${Python3_EXECUTABLE} ${XMX_UB_DRIVER}
                   $<TARGET_FILE:xmx-run> 0 none ${XMX_UB_SPV}/${UB_KERNEL}.spv ${UB_RUN})
  xmx_ub_set_disabled(run.ub.${UB_RULE}.clean${suffix} "${UB_DISABLED}")
endfunction()

# --- memory.* ---------------------------------------------------------------------------------
xmx_ub_trigger(RULE memory.null KERNEL null_pointer
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:5
  EXPECT --global 5 --instruction OpStore)
xmx_ub_clean(RULE memory.null KERNEL null_pointer
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:-1)

xmx_ub_trigger(RULE memory.invalid-pointer KERNEL invalid_pointer
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:3 --arg i64:4096
  EXPECT --global 3 --instruction OpStore)
xmx_ub_clean(RULE memory.invalid-pointer KERNEL invalid_pointer
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:-1 --arg i64:4096)

xmx_ub_trigger(RULE memory.out-of-bounds KERNEL out_of_bounds
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg buffer:random=1:128 --arg i64:1
  EXPECT --global 31 --instruction OpLoad --message "offset 128")
xmx_ub_trigger(RULE memory.out-of-bounds VARIANT before-start KERNEL out_of_bounds
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg buffer:random=1:128 --arg i64:-1
  EXPECT --global 0 --instruction OpLoad)
# in[gid + 2^38]: 2^40 bytes past the element, which the 40-bit pointer offset wraps back onto it.
xmx_ub_trigger(RULE memory.out-of-bounds VARIANT offset-wrap KERNEL out_of_bounds
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg buffer:random=1:128 --arg i64:274877906944
  EXPECT --global 0 --instruction OpLoad)
xmx_ub_clean(RULE memory.out-of-bounds KERNEL out_of_bounds
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg buffer:random=1:128 --arg i64:0)

xmx_ub_trigger(RULE memory.misaligned KERNEL misaligned
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:2
  EXPECT --global 2 --instruction OpStore --message "offset 9")
xmx_ub_clean(RULE memory.misaligned KERNEL misaligned
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:-1)

xmx_ub_trigger(RULE memory.read-only KERNEL constant_write
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg buffer:random=2:128 --arg i32:4
  EXPECT --global 4 --instruction OpStore)
xmx_ub_clean(RULE memory.read-only KERNEL constant_write
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg buffer:random=2:128 --arg i32:-1)
# A kernel may write its by-value struct parameter; xmx-run reports the write (false positive).
xmx_ub_clean(RULE memory.read-only VARIANT byval-struct KERNEL byval_write
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg buffer:fill=01:20 --arg i32:1)

xmx_ub_trigger(RULE memory.local-race KERNEL local_race
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:0
  EXPECT --global 0 --instruction OpLoad --message "write by local work-item (1,0,0)")
xmx_ub_trigger(RULE memory.local-race VARIANT between-subgroups KERNEL local_race
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:3
  EXPECT --global 16 --subgroup 1 --instruction OpStore
         --message "read by local work-item (0,0,0)")
xmx_ub_trigger(RULE memory.local-race VARIANT several-readers KERNEL local_readers
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:0
  EXPECT --global 0 --instruction OpStore)
# The report must name the reader the write races with (work-item 1), not the writer itself.
xmx_ub_trigger(RULE memory.local-race VARIANT several-readers-named KERNEL local_readers
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:0
  EXPECT --global 0 --instruction OpStore --message "read by local work-item (1,0,0)"
  NO_OFF)
xmx_ub_clean(RULE memory.local-race KERNEL local_race
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:1)
xmx_ub_clean(RULE memory.local-race VARIANT subgroup-barrier KERNEL local_race
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:2)
xmx_ub_clean(RULE memory.local-race VARIANT several-readers KERNEL local_readers
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:2)
# Local memory is per work-group: what work-group 0 did never races with work-group 1 on the
# same worker (one thread, so the shadow is reused), while a race inside work-group 1 is found.
set(XMX_UB_GROUPS_ONE_THREAD --global 64 --local 32 --subgroup-size 16 --threads 1)
xmx_ub_trigger(RULE memory.local-race VARIANT later-work-group KERNEL local_groups
  RUN ${XMX_UB_GROUPS_ONE_THREAD} --arg buffer:zero:256 --arg i32:1
  EXPECT --global 32 --instruction OpLoad --message "write by local work-item (1,0,0)")
xmx_ub_clean(RULE memory.local-race VARIANT across-work-groups KERNEL local_groups
  RUN ${XMX_UB_GROUPS_ONE_THREAD} --arg buffer:zero:256 --arg i32:0)
# Two readers in one subgroup, ordered before the write by a subgroup barrier (false positive).
xmx_ub_clean(RULE memory.local-race VARIANT several-readers-subgroup-barrier KERNEL local_readers
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:1)

# --- arith.*, control.* -----------------------------------------------------------------------
xmx_ub_trigger(RULE arith.division-by-zero KERNEL division_by_zero
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:1000 --arg i32:5
  EXPECT --global 5 --instruction OpSDiv)
xmx_ub_clean(RULE arith.division-by-zero KERNEL division_by_zero
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:1000 --arg i32:-1)

xmx_ub_trigger(RULE arith.division-overflow KERNEL division_by_zero
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:-2147483648 --arg i32:32
  EXPECT --global 31 --instruction OpSDiv)
xmx_ub_clean(RULE arith.division-overflow KERNEL division_by_zero
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:-2147483648 --arg i32:-1)

# The call stack has to end: a too-deep call stops its subgroup in every --check mode, so there
# is no --check=off run to test.
xmx_ub_trigger(RULE control.call-depth KERNEL call_depth NO_OFF
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:300
  EXPECT --where group --subgroup 0 --instruction OpFunctionCall)
xmx_ub_clean(RULE control.call-depth KERNEL call_depth
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:10)

xmx_ub_trigger(RULE control.unreachable KERNEL unreachable
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:7
  EXPECT --global 7 --instruction OpUnreachable)
xmx_ub_clean(RULE control.unreachable KERNEL unreachable
  RUN ${XMX_UB_TWO_GROUPS} --arg buffer:zero:128 --arg i32:-1)

# --- barrier.* (reports about a subgroup: "work-group (x,y,z), subgroup S") -------------------
# The .off tests of different-barriers and subgroup-finished are disabled: the scheduler reports
# these two cases even with --check=off (as warnings).
# barrier.deadlock has no test: only a subgroup waiting for its partner of a split matrix
# instruction can deadlock, and no instruction makes a subgroup wait so (see test/ub/README.md).
xmx_ub_trigger(RULE barrier.divergent KERNEL barrier_divergent
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:1
  EXPECT --where group --subgroup 0 --instruction OpControlBarrier --message "part of subgroup 0")
xmx_ub_trigger(RULE barrier.divergent VARIANT different-barriers KERNEL barrier_divergent
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:2
  EXPECT --where group --subgroup 1 --instruction OpControlBarrier --message "different barrier"
 )
xmx_ub_trigger(RULE barrier.divergent VARIANT subgroup-finished KERNEL barrier_divergent
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:3
  EXPECT --where group --subgroup 0 --instruction OpControlBarrier --message "subgroup 1 finished"
 )
xmx_ub_clean(RULE barrier.divergent KERNEL barrier_divergent
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:0)

# --- subgroup.* -------------------------------------------------------------------------------
xmx_ub_trigger(RULE subgroup.not-whole KERNEL not_whole
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:8
  EXPECT --where group --subgroup 0 --instruction OpGroupIAdd)
xmx_ub_trigger(RULE subgroup.not-whole VARIANT block-read KERNEL block_read
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg buffer:random=3:128
      --arg i32:0 --arg i32:0 --arg i32:8
  EXPECT --where group --subgroup 0 --instruction OpSubgroupBlockReadINTEL)
# 24 work-items: subgroup 1 is partial (8 of 16), which block IO does not allow.
xmx_ub_trigger(RULE subgroup.not-whole VARIANT block-read-partial KERNEL block_read
  RUN --global 24 --local 24 --subgroup-size 16 --arg buffer:zero:96 --arg buffer:random=3:128
      --arg i32:0 --arg i32:0 --arg i32:16
  EXPECT --where group --subgroup 1 --instruction OpSubgroupBlockReadINTEL --message partial)
xmx_ub_clean(RULE subgroup.not-whole KERNEL not_whole
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:16)
xmx_ub_clean(RULE subgroup.not-whole VARIANT block-read KERNEL block_read
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg buffer:random=3:128
      --arg i32:0 --arg i32:0 --arg i32:16)

xmx_ub_trigger(RULE subgroup.non-uniform KERNEL block_read
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg buffer:random=3:256
      --arg i32:0 --arg i32:1 --arg i32:16
  EXPECT --global 1 --instruction OpSubgroupBlockReadINTEL --message "block pointer")
xmx_ub_trigger(RULE subgroup.non-uniform VARIANT broadcast KERNEL broadcast
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:3 --arg i32:1
  EXPECT --global 1 --instruction OpGroupBroadcast)
xmx_ub_clean(RULE subgroup.non-uniform KERNEL block_read
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg buffer:random=3:256
      --arg i32:0 --arg i32:0 --arg i32:16)
xmx_ub_clean(RULE subgroup.non-uniform VARIANT broadcast KERNEL broadcast
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:3 --arg i32:0)
# 2D block IO: the width differs per lane; the other operands are proven uniform at load time.
set(XMX_UB_BLOCK2D_UNIFORM --global 32 --local 16 --arg buffer:random=1:4096 --arg buffer:zero:128
    --arg i32:128 --arg i32:16 --arg i32:128)
xmx_ub_trigger(RULE subgroup.non-uniform VARIANT block2d KERNEL block2d_uniform
  RUN ${XMX_UB_BLOCK2D_UNIFORM} --arg i32:64
  EXPECT --global 1 --instruction OpSubgroup2DBlockLoadINTEL --message "Memory Width")
xmx_ub_clean(RULE subgroup.non-uniform VARIANT block2d KERNEL block2d_uniform
  RUN ${XMX_UB_BLOCK2D_UNIFORM} --arg i32:0)
# The coordinate built by inserts into an undefined vector, one component per lane: the loader
# proves such a vector uniform only when every inserted component is (uniformity.hpp).
set(XMX_UB_BLOCK2D_COORDINATE --global 32 --local 16 --arg buffer:random=1:4096
    --arg buffer:zero:128 --arg i32:128 --arg i32:16 --arg i32:128 --arg i32:0)
xmx_ub_trigger(RULE subgroup.non-uniform VARIANT block2d-coordinate KERNEL block2d_coordinate
  RUN ${XMX_UB_BLOCK2D_COORDINATE} --arg i32:1
  EXPECT --global 1 --instruction OpSubgroup2DBlockLoadINTEL --message "Coordinate")
xmx_ub_clean(RULE subgroup.non-uniform VARIANT block2d-coordinate KERNEL block2d_coordinate
  RUN ${XMX_UB_BLOCK2D_COORDINATE} --arg i32:0)

# --- value.* (DECISIONS.md 16: undefined values are not undefined behaviour) -------------------
# A read of an undefined value is a warning with the work-item in every --check mode; the run goes
# on and exits 0, and the value is all bits zero.
xmx_ub_value(RULE value.undefined-source KERNEL shuffle
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:8 --arg i32:12
  EXPECT --global 0 --instruction OpSubgroupShuffleINTEL --message "invocation 12")
xmx_ub_value(RULE value.undefined-source VARIANT out-of-range KERNEL shuffle
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:16 --arg i32:20
  EXPECT --global 0 --instruction OpSubgroupShuffleINTEL --message "out of range")
xmx_ub_value(RULE value.undefined-source VARIANT khr KERNEL shuffle_khr
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:8 --arg i32:12
  EXPECT --global 0 --instruction OpGroupNonUniformShuffle --message "invocation 12")
xmx_ub_value(RULE value.undefined-source VARIANT khr-out-of-range KERNEL shuffle_khr
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:16 --arg i32:20
  EXPECT --global 0 --instruction OpGroupNonUniformShuffle --message "does not exist")
xmx_ub_value(RULE value.undefined-source VARIANT broadcast KERNEL broadcast
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:20 --arg i32:0
  EXPECT --global 0 --instruction OpGroupBroadcast --message "invocation 20")
xmx_ub_clean(RULE value.undefined-source KERNEL shuffle
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:8 --arg i32:3)
xmx_ub_clean(RULE value.undefined-source VARIANT khr KERNEL shuffle_khr
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg i32:8 --arg i32:3)
# The edge-of-subgroup idiom: a select drops what the first and last lanes read. Exit 0 and one
# warning per edge lane in every mode, and the output equals the script's model, in a full
# work-group and in one whose second subgroup is partial (24 = 16 + 8).
foreach(geometry "64;32" "24;24")
  list(GET geometry 0 global)
  list(GET geometry 1 local)
  add_test(NAME run.ub.value.undefined-source.edge-idiom.${global}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_undefined_value.py edge
                   $<TARGET_FILE:xmx-run> ${XMX_UB_SPV}/shuffle_edge.spv
                   ${CMAKE_CURRENT_BINARY_DIR}/shuffle_edge.${global} ${global} ${local})
endforeach()
# The documented value: all bits zero (lanes 0-7 read lane 12, which did not execute the shuffle).
add_test(NAME run.ub.value.undefined-source.zero-pattern
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_undefined_value.py zero
                 $<TARGET_FILE:xmx-run> ${XMX_UB_SPV}/shuffle.spv
                 ${CMAKE_CURRENT_BINARY_DIR}/shuffle_zero)

# The misaligned block read is also a misaligned 4-byte access: with --check=warn both are reported.
xmx_ub_trigger(RULE subgroup.block-alignment KERNEL block_read
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg buffer:random=3:132
      --arg i32:2 --arg i32:0 --arg i32:16
  EXPECT --global 0 --instruction OpSubgroupBlockReadINTEL --message "offset 2"
         --allow memory.misaligned)
xmx_ub_trigger(RULE subgroup.block-alignment VARIANT write KERNEL block_write
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:144 --arg i32:1
  EXPECT --global 0 --instruction OpSubgroupBlockWriteINTEL --message "16-byte")
xmx_ub_clean(RULE subgroup.block-alignment KERNEL block_read
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:128 --arg buffer:random=3:132
      --arg i32:4 --arg i32:0 --arg i32:16)
xmx_ub_clean(RULE subgroup.block-alignment VARIANT write KERNEL block_write
  RUN ${XMX_UB_ONE_GROUP} --arg buffer:zero:144 --arg i32:4)
