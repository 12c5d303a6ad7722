# utils/generate_grammar.py refuses operands appended to an instruction in ways that would change
# how existing modules read (test/grammar_gen/*.json, each with the real extension grammars).
set(XMX_GRAMMAR_GEN_INPUTS ${CMAKE_CURRENT_SOURCE_DIR}/grammar_gen)
set(XMX_GRAMMAR_GEN_CMD ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/utils/generate_grammar.py
    --core ${XMX_SPIRV_GRAMMAR_DIR}/spirv.core.grammar.json --extinst-dir ${XMX_SPIRV_GRAMMAR_DIR}
    --out-dir ${CMAKE_CURRENT_BINARY_DIR}/grammar_gen_out ${XMX_GRAMMAR_FILES})

function(xmx_grammar_gen_rejects name text)
  add_test(NAME grammar_gen.${name}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py 1 "${text}"
                   -- ${XMX_GRAMMAR_GEN_CMD} ${XMX_GRAMMAR_GEN_INPUTS}/${name}.json)
endfunction()

xmx_grammar_gen_rejects(append_required "OpTypeFloat must be optional or variadic")
xmx_grammar_gen_rejects(append_unknown "names unknown instruction OpNoSuchInstruction")
xmx_grammar_gen_rejects(append_after_variadic "its last operand")
xmx_grammar_gen_rejects(append_twice "OpTypeFloat already has the operand 'Floating Point Encoding'")

# The public enum headers committed under include/xmx/ match what the generator makes now.
add_test(NAME grammar_gen.public_headers_current
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_public_headers.py
                 ${XMX_GEN_DIR}/include/xmx ${CMAKE_SOURCE_DIR}/include/xmx
                 ${XMX_GEN_PUBLIC_HEADER_NAMES})
