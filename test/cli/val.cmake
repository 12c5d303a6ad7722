# xmx-val: core parity with spirv-val on the corpus and its single-edit variants.
if(XMX_SPIRV_VAL AND XMX_SPIRV_DIS)
  add_test(NAME val.core_parity
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/compare_val.py
                   --xmx-val $<TARGET_FILE:xmx-val> --spirv-val ${XMX_SPIRV_VAL}
                   --spirv-dis ${XMX_SPIRV_DIS} ${XMX_CORPUS_DIR}/spv)
  set_tests_properties(val.core_parity PROPERTIES TIMEOUT 600)
endif()

add_test(NAME val.cli
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_val_cli.py
                 --xmx-val $<TARGET_FILE:xmx-val> --corpus ${XMX_CORPUS_DIR}/spv
                 --example ${CMAKE_SOURCE_DIR}/examples/gemm_bf16.spv)
add_test(NAME val.example
         COMMAND ${CMAKE_SOURCE_DIR}/examples/run_example.sh ${CMAKE_BINARY_DIR})

# DECISIONS 12 (revised): the OpenCL C built-ins' own private pointer types, as llc-22 passes
# them to the 2D block and Intel block IO instructions (test/val/pointees).
add_test(NAME val.pointees
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/test/val/check_verdicts.py
                 $<TARGET_FILE:xmx-val> ${CMAKE_SOURCE_DIR}/test/val/pointees)

# Modules the installed SPIRV-Tools crashes on: core.precondition, never a crash
# (test/val/core_crashers; the same inputs replay in fuzz.validator_fuzzer.regressions).
add_test(NAME val.core_crashers
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/test/val/check_verdicts.py
                 $<TARGET_FILE:xmx-val> ${CMAKE_SOURCE_DIR}/test/val/core_crashers)
# xmx-run validates before it runs (DECISIONS 13): the same module stops there with the error
# instead of crashing in SPIRV-Tools.
add_test(NAME val.core_crashers.xmx_run
         COMMAND xmx-run --global 16 ${CMAKE_SOURCE_DIR}/test/val/core_crashers/u_upsample_label.spv)
set_tests_properties(val.core_crashers.xmx_run PROPERTIES PASS_REGULAR_EXPRESSION
                     "is not a value \\(it is defined by OpLabel\\); core validation by SPIRV-Tools was skipped")
