# The build enforces ARCHITECTURE.md's layers: a wrong-way include fails to compile
# (test/cli/check_layers.py, on the flags of compile_commands.json).
add_test(NAME layers.enforced
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_layers.py
                 ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
set_tests_properties(layers.enforced PROPERTIES TIMEOUT 600)
