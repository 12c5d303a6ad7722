# The device-independent cooperative-matrix rules of xmx-val (coop.*, issue 10): one invalid
# module per rule (test/coop/invalid_rules, small edits of the llc-22 modules of test/coop/spv),
# each rejected with its rule; the valid modules draw no coop.* diagnostic; every rule the
# sources report has its module.
file(GLOB xmx_coop_rule_sources ${CMAKE_SOURCE_DIR}/source/val/validate_coop*.cpp)
add_test(NAME val.coop_rules
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_coop_rules.py
                 --xmx-val $<TARGET_FILE:xmx-val> --xmx-as $<TARGET_FILE:xmx-as>
                 --invalid-dir ${CMAKE_CURRENT_SOURCE_DIR}/coop/invalid_rules
                 --spv-dir ${CMAKE_CURRENT_SOURCE_DIR}/coop/spv
                 --rules-source ${xmx_coop_rule_sources})
