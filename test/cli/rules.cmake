# The rule-id registry (source/common/rule_ids.def): README.md's rule tables are generated from it
# and must be current; every id a test expects is registered, every registered id is exercised by
# a test, and the library spells no id as a string literal (utils/rule_table.py).
add_test(NAME rules.readme
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/utils/rule_table.py readme
                 ${CMAKE_SOURCE_DIR})
add_test(NAME rules.tests
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/utils/rule_table.py tests
                 ${CMAKE_SOURCE_DIR})
# The checker itself, on a small repository with each kind of fault.
add_test(NAME rules.checker
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_rule_table.py
                 ${CMAKE_SOURCE_DIR}/utils/rule_table.py)
