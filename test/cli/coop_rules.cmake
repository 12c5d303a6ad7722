# The device-independent cooperative-matrix rules of xmx-val (coop.*, issue 10): one invalid
# module per rule (test/coop/invalid_rules, small edits of the llc-22 modules of test/coop/spv),
# each rejected with its rule; the valid modules draw no coop.* diagnostic; every rule the
# registry lists in its coop table has its module.
add_test(NAME val.coop_rules
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_coop_rules.py
                 --xmx-val $<TARGET_FILE:xmx-val> --xmx-as $<TARGET_FILE:xmx-as>
                 --invalid-dir ${CMAKE_CURRENT_SOURCE_DIR}/coop/invalid_rules
                 --spv-dir ${CMAKE_CURRENT_SOURCE_DIR}/coop/spv
                 --registry ${CMAKE_SOURCE_DIR}/source/common/rule_ids.def)
