# xmx-dis against the installed spirv-dis: the corpus, our hand-written modules (test/dis), and
# malformed inputs and usage errors. Included from test/CMakeLists.txt.
set(XMX_COMPARE_DIS ${CMAKE_CURRENT_LIST_DIR}/compare_dis.py)

if(XMX_SPIRV_DIS)
  # Every readable corpus module must be identical with every option set; the extended ones
  # (which spirv-dis rejects) are format-checked, and there must be some of each.
  add_test(NAME dis.corpus
           COMMAND ${Python3_EXECUTABLE} ${XMX_COMPARE_DIS} --xmx-dis $<TARGET_FILE:xmx-dis>
                   --spirv-dis ${XMX_SPIRV_DIS} --min-identical 10 --min-extended 1
                   ${XMX_CORPUS_DIR}/spv)
  set_tests_properties(dis.corpus PROPERTIES TIMEOUT 900)
  if(XMX_SPIRV_AS)
    add_test(NAME dis.handwritten
             COMMAND ${Python3_EXECUTABLE} ${XMX_COMPARE_DIS} --xmx-dis $<TARGET_FILE:xmx-dis>
                     --spirv-dis ${XMX_SPIRV_DIS} --spirv-as ${XMX_SPIRV_AS} --min-identical 5
                     ${CMAKE_CURRENT_SOURCE_DIR}/dis)
  endif()
endif()

# Malformed modules exit 1 with one "error: word N: ..." line naming the right word (and print
# what spirv-dis prints before its error); usage errors exit 2.
add_test(NAME dis.bad_inputs
         COMMAND ${Python3_EXECUTABLE} ${XMX_COMPARE_DIS} --bad-inputs
                 --xmx-dis $<TARGET_FILE:xmx-dis> --spirv-dis "${XMX_SPIRV_DIS}")

add_test(NAME dis.version COMMAND xmx-dis --version)
set_tests_properties(dis.version PROPERTIES PASS_REGULAR_EXPRESSION "^xmx-dis .*SPIRV-Tools")
add_test(NAME dis.help COMMAND xmx-dis --help)
set_tests_properties(dis.help PROPERTIES PASS_REGULAR_EXPRESSION "--no-indent.*--raw-id")
