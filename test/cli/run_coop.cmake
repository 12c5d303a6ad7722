# xmx-run on cooperative matrices (issue 10, deliverable 4): the modules llc-22 makes from
# test/coop/run_src (test/coop/run_build.sh), each run at -O0 and -O2 by check_coop_run.py and
# checked against models written there from COOPERATIVE-MATRIX.md A4 (no code shared with the
# interpreter):
#   run.coop.dump.<case>     every element of every invocation: get-coord against A4's mapping,
#                            the value read through a private copy against memory, Length, and
#                            the store of the loaded matrix (each use, layout, component type,
#                            large shapes, subgroup sizes 16 and 8)
#   run.coop.mad.<case>      D = A x B + C against a host matmul under both --mma-fp models,
#                            single and multi-operation shapes
#   run.coop.fp-models       the two float models give their documented, different results
#   run.coop.checked.<case>  checked load reads 0 and checked store drops outside Height x Width
#   run.coop.relu            element-wise ReLU through element access, and fill
#   run.coop.construct-checked  the checked construct: Value inside Height x Width, 0 outside
#   run.coop.ops             access chain, composite extract/insert, arithmetic on matrices,
#                            conversions to half and bfloat16, a phi of matrices, Length, prefetch,
#                            get-coord and its out-of-range index (hand-written, test/coop/run_asm)
#   run.coop.ub.*            non-uniform Stride, an unchecked out-of-bounds load and a load by
#                            part of the subgroup reported
#   run.coop.bfloat16        bfloat16 <-> float conversions (SPV_KHR_bfloat16) against a model
set(XMX_COOP_RUN_SPV ${CMAKE_CURRENT_SOURCE_DIR}/coop/run_spv)
set(XMX_COOP_RUN ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_coop_run.py
    --xmx-run $<TARGET_FILE:xmx-run> --spv-dir ${XMX_COOP_RUN_SPV})

file(GLOB xmx_coop_run_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/coop/run_src/*.ll)
foreach(source ${xmx_coop_run_sources})
  get_filename_component(name ${source} NAME_WE)
  if(name MATCHES "^dump_(.*)$")
    add_test(NAME run.coop.dump.${CMAKE_MATCH_1} COMMAND ${XMX_COOP_RUN} dump ${CMAKE_MATCH_1})
  elseif(name MATCHES "mad_")
    add_test(NAME run.coop.mad.${name} COMMAND ${XMX_COOP_RUN} mad ${name})
  elseif(name MATCHES "^checked_(.*)$")
    add_test(NAME run.coop.checked.${CMAKE_MATCH_1}
             COMMAND ${XMX_COOP_RUN} checked ${CMAKE_MATCH_1})
  endif()
endforeach()
add_test(NAME run.coop.fp-models COMMAND ${XMX_COOP_RUN} fp-models)
add_test(NAME run.coop.relu COMMAND ${XMX_COOP_RUN} relu)
add_test(NAME run.coop.construct-checked COMMAND ${XMX_COOP_RUN} construct)
add_test(NAME run.coop.ub.non-uniform-stride COMMAND ${XMX_COOP_RUN} ub-stride)
add_test(NAME run.coop.ub.out-of-bounds COMMAND ${XMX_COOP_RUN} ub-bounds)
add_test(NAME run.coop.ub.not-whole COMMAND ${XMX_COOP_RUN} ub-divergent)
add_test(NAME run.coop.bfloat16
         COMMAND ${XMX_COOP_RUN} bf16-convert
                 ${CMAKE_CURRENT_SOURCE_DIR}/coop/spv/bf16_convert.llc22.O2.spv)
# Instructions llc-22 does not write from the sources: a hand-written module (test/coop/run_asm).
add_test(NAME run.coop.ops
         COMMAND ${XMX_COOP_RUN} --xmx-as $<TARGET_FILE:xmx-as> ops
                 ${CMAKE_CURRENT_SOURCE_DIR}/coop/run_asm/ops.spvasm)
# bfloat16 arithmetic (here OpDot of two bfloat16 vectors) is refused at load, naming the
# instruction: xmx-run would compute with the values as halves.
add_test(NAME run.coop.bfloat16_arithmetic_refused
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py 1
                 "only in conversions to and from other floats"
                 -- $<TARGET_FILE:xmx-run> ${CMAKE_CURRENT_SOURCE_DIR}/coop/spv/bf16_half_dot.llc22.O2.spv
                 --global 1 --arg buffer:zero:64 buffer:zero:64 buffer:zero:64 i64:0)
# run_bench's cooperative-matrix GEMM (bench/kernels/coop_gemm_bf16.ll) computes a GEMM.
add_test(NAME run.coop.bench_gemm
         COMMAND ${XMX_COOP_RUN} bench-gemm ${CMAKE_SOURCE_DIR}/bench/kernels/coop_gemm_bf16.spv)
