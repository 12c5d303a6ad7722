# xmx-run's loader checks what it relies on, whatever the validator said (issue 9): each module
# below breaks one structural fact and holds a type the bridge cannot lift for SPIRV-Tools (an
# unused 4-bit integer next to integers of every width SPIRV-Tools knows), which makes xmx-val
# skip core validation with a bridge.lift warning, so only the loader stands between the module
# and the executor. Each used to crash xmx-run or run with exit 0; each must now fail to load:
# exit 1 and an error naming the instruction. The modules (test/cli/load_checks, made by its
# make_inputs.sh) come from the interpreter fuzzer's regressions
# (test/fuzz/interpreter_fuzzer/regressions/load_*), which held an unused cooperative-matrix type
# for the same purpose until the bridge learnt to lift it.
set(XMX_LOAD_CHECKS_DIR ${CMAKE_CURRENT_LIST_DIR}/load_checks)
set(XMX_LOAD_CHECKS_DRIVER ${CMAKE_CURRENT_LIST_DIR}/check_exit.py)

# xmx_load_check(<module stem> <expected message>)
function(xmx_load_check stem message)
  add_test(NAME run.load_check.${stem}
           COMMAND ${Python3_EXECUTABLE} ${XMX_LOAD_CHECKS_DRIVER} 1 "${message}"
                   -- $<TARGET_FILE:xmx-run> ${XMX_LOAD_CHECKS_DIR}/load_${stem}.spv
                   --global 16 --arg buffer:zero:64 --arg i32:1)
endfunction()

xmx_load_check(entry_point_names_label
  "error: instruction 8: OpEntryPoint 'k' names %1, which is not a function")
xmx_load_check(block_without_terminator
  "error: instruction 32: block %21 does not end in a terminator")
xmx_load_check(composite_extract_index_far_out_of_range
  "error: instruction 32: indices do not name a part of the composite")
xmx_load_check(composite_insert_index_far_out_of_range
  "error: instruction 32: indices do not name a part of the composite")
xmx_load_check(vector_shuffle_component_out_of_range
  "error: instruction 32: component 4000 is not one of the 8 components of the two vectors")
xmx_load_check(convert_96_bit_integer
  "error: instruction 33: xmx-run supports integers of 8, 16, 32 and 64 bits, not 96")
xmx_load_check(convert_1024_bit_integer
  "error: instruction 33: xmx-run supports integers of 8, 16, 32 and 64 bits, not 1024")
xmx_load_check(undefined_operand
  "error: instruction 32: operand %23 is not defined anywhere in the module")
xmx_load_check(call_with_missing_argument
  "error: instruction 32: the call passes 0 arguments to a function of 1 parameters")
xmx_load_check(iadd_on_floats
  "error: instruction 32: the result type must be an integer type")
xmx_load_check(fadd_on_integers
  "error: instruction 32: the result type must be a float type")

# Phis are never emitted (each edge copies their incoming values), so they used to skip the
# instruction checks: an incoming value that is defined nowhere got a slot of its own that
# overlapped the phi's, and the edge copy read and wrote overlapping memory (AddressSanitizer:
# memcpy-param-overlap). A libFuzzer finding from the cm_loops_mixed seed; the input holds the
# unliftable 4-bit integer already, so it is used as the fuzzer kept it.
add_test(NAME run.load_check.phi_undefined_value
         COMMAND ${Python3_EXECUTABLE} ${XMX_LOAD_CHECKS_DRIVER} 1
                 "error: instruction 88: operand %7 is not defined anywhere in the module"
                 -- $<TARGET_FILE:xmx-run>
                 ${CMAKE_SOURCE_DIR}/test/fuzz/interpreter_fuzzer/regressions/phi_undefined_value.spv
                 --global 64 --local 32 --subgroup-size 16 --arg buffer:zero:4096
                 --arg buffer:zero:4096 --arg i32:3)
