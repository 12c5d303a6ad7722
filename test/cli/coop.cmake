# The cooperative-matrix modules llc-22 makes from test/coop/src (issue 10; test/coop/build.sh):
# xmx-dis reads each one in spirv-dis's format, xmx-dis | xmx-as gives it back byte for byte
# (header generator word and bound aside), and xmx-val accepts each one with SPIRV-Tools' core
# validation through the bridge (no bridge.lift), and reports a core error in a bfloat16 module
# and in each module whose cooperative-matrix store is given an undefined pointer.
set(XMX_COOP_DIR ${CMAKE_CURRENT_SOURCE_DIR}/coop)

if(XMX_SPIRV_DIS)
  add_test(NAME dis.coop
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/compare_dis.py
                   --xmx-dis $<TARGET_FILE:xmx-dis> --spirv-dis ${XMX_SPIRV_DIS}
                   --min-identical 0 --min-extended 14 ${XMX_COOP_DIR}/spv)
  if(XMX_SPIRV_AS)
    add_test(NAME as.coop_round_trip
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/compare_as.py
                     --xmx-as $<TARGET_FILE:xmx-as> --spirv-as ${XMX_SPIRV_AS}
                     --spirv-dis ${XMX_SPIRV_DIS} --xmx-dis $<TARGET_FILE:xmx-dis>
                     --spv-dir ${XMX_COOP_DIR}/spv --min-comparisons 14)
  endif()
endif()

add_test(NAME val.coop
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_coop_val.py
                 --xmx-val $<TARGET_FILE:xmx-val> --xmx-as $<TARGET_FILE:xmx-as>
                 --xmx-dis $<TARGET_FILE:xmx-dis>
                 --spv-dir ${XMX_COOP_DIR}/spv --invalid-dir ${XMX_COOP_DIR}/invalid
                 --min-mutated 10)

# A producer bug (test/coop/producer_bugs): llc-22 writes MemoryAccess Aligned without its
# alignment; both tools reject the module naming the missing operand.
set(xmx_coop_aligned_bug ${XMX_COOP_DIR}/producer_bugs/aligned_without_alignment.spv)
add_test(NAME dis.coop_aligned_without_alignment
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py 1
                 "missing LiteralInteger operand" -- $<TARGET_FILE:xmx-dis> ${xmx_coop_aligned_bug})
add_test(NAME val.coop_aligned_without_alignment
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py 1
                 "missing LiteralInteger operand" -- $<TARGET_FILE:xmx-val> ${xmx_coop_aligned_bug})
