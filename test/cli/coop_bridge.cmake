# The bridge on cooperative matrices (issue 10): hand-written modules under test/coop/bridge,
# each with a matrix and what xmx-val must say ("; expect:" lines): arithmetic, conversions,
# composite access, access chains, Length and phis on matrices validate with SPIRV-Tools' core
# validation; a dominance error, an undefined id, OpIAdd on floats, a phi of two matrix types, a
# two-constituent fill, a duplicate matrix type, OpFAdd on integer matrices, an OpSConvert that
# keeps the width, an OpFAdd of two matrix types, an OpFRem and a comparison of matrices are
# rejected on the user's instruction. No module may get bridge.lift. (The llc-22 modules are
# checked by val.coop in coop.cmake.)
add_test(NAME val.coop_bridge
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_coop_bridge.py
                 --xmx-val $<TARGET_FILE:xmx-val> --xmx-as $<TARGET_FILE:xmx-as>
                 ${CMAKE_CURRENT_SOURCE_DIR}/coop/bridge)
