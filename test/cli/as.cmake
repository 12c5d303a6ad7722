# Command-line tests of xmx-as (registered from test/CMakeLists.txt). The comparison with the
# installed spirv-as covers the corpus (disassembled by spirv-dis) and the hand-written inputs of
# test/as; the other tests check exit codes and the one-line diagnostics of CLI.md.
set(XMX_AS_TEST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/as)
set(XMX_AS_CHECK ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/compare_as.py)

if(XMX_SPIRV_AS AND XMX_SPIRV_DIS)
  set(xmx_as_dis_arg "")
  if(TARGET xmx-dis)
    set(xmx_as_dis_arg --xmx-dis $<TARGET_FILE:xmx-dis>)
  endif()
  add_test(NAME as.compare_spirv_as
           COMMAND ${XMX_AS_CHECK} --xmx-as $<TARGET_FILE:xmx-as> --spirv-as ${XMX_SPIRV_AS}
                   --spirv-dis ${XMX_SPIRV_DIS} --spv-dir ${XMX_CORPUS_DIR}/spv
                   --as-dir ${XMX_AS_TEST_DIR} ${xmx_as_dis_arg} --min-comparisons 300)
  set_tests_properties(as.compare_spirv_as PROPERTIES TIMEOUT 600)
endif()

# Exit code and standard error of one xmx-as run.
function(xmx_as_expect name code)
  add_test(NAME as.${name} COMMAND ${XMX_AS_CHECK} --expect-exit ${code} ${ARGN})
endfunction()

xmx_as_expect(help 0 -- $<TARGET_FILE:xmx-as> --help)
xmx_as_expect(version 0 -- $<TARGET_FILE:xmx-as> --version)
xmx_as_expect(usage.unknown_option 2 -- $<TARGET_FILE:xmx-as> --no-such-option)
xmx_as_expect(usage.two_inputs 2 -- $<TARGET_FILE:xmx-as> a.spvasm b.spvasm)
xmx_as_expect(usage.missing_file 2 -- $<TARGET_FILE:xmx-as> ${XMX_AS_TEST_DIR}/no_such_file)
xmx_as_expect(usage.bad_target_env 2 -- $<TARGET_FILE:xmx-as> --target-env spv9.9
              ${XMX_AS_TEST_DIR}/numbers.spvasm -o -)
xmx_as_expect(usage.missing_output_name 2 -- $<TARGET_FILE:xmx-as> -o)
xmx_as_expect(stdin 0 --stdin ${XMX_AS_TEST_DIR}/strings.spvasm -- $<TARGET_FILE:xmx-as> -o -)
xmx_as_expect(stdin_dash 0 --stdin ${XMX_AS_TEST_DIR}/strings.spvasm --
              $<TARGET_FILE:xmx-as> - -o -)
xmx_as_expect(target_env_and_preserve 0 -- $<TARGET_FILE:xmx-as> --target-env vulkan1.1spv1.4
              --preserve-numeric-ids ${XMX_AS_TEST_DIR}/ids.spvasm -o -)

file(GLOB xmx_as_bad_inputs CONFIGURE_DEPENDS ${XMX_AS_TEST_DIR}/bad/*.spvasm)
foreach(input ${xmx_as_bad_inputs})
  get_filename_component(name ${input} NAME_WE)
  xmx_as_expect(bad.${name} 1 --one-line-error -- $<TARGET_FILE:xmx-as> ${input} -o -)
endforeach()

file(GLOB xmx_as_extended_inputs CONFIGURE_DEPENDS ${XMX_AS_TEST_DIR}/extended/*.spvasm)
foreach(input ${xmx_as_extended_inputs})
  get_filename_component(name ${input} NAME_WE)
  xmx_as_expect(extended.${name} 0 -- $<TARGET_FILE:xmx-as> ${input} -o -)
endforeach()
