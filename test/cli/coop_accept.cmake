# Acceptance of issue 10 (deliverable 6) on the modules of test/coop/accept_spv: joint_matrix-style
# GEMMs built by llc-22 at -O0 and -O2, one kernel per row of every device's cooperative-matrix
# table, get_coord over A, B and accumulators, and element-wise epilogues (per-element scaling,
# ReLU) in the SPIRV-LLVM-Translator's access-chain form (test/coop/accept_gen.py,
# accept_build.sh). One test per module (producer and opt level in its name) and check:
#   coop.accept.val.<module>  xmx-val's verdict on pvc, bmg and dg2 (accept_spv/manifest.json):
#                             valid with SPIRV-Tools' core validation, or rejected by the rule
#   coop.accept.run.<module>  xmx-run on the devices of the module's table family, against the
#                             models of test/cli/check_coop_accept.py (host matmul, element-wise
#                             models, the get_coord mapping of DECISIONS 15)
#   coop.accept.table_coverage  every combination of every row of every device profile's
#                             cooperative_matrix table is run by one of the row modules
set(xmx_accept_dir ${CMAKE_SOURCE_DIR}/test/coop/accept_spv)
set(xmx_accept_checker ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_coop_accept.py)
file(GLOB xmx_accept_modules CONFIGURE_DEPENDS ${xmx_accept_dir}/*.spv)

foreach(module ${xmx_accept_modules})
  get_filename_component(stem ${module} NAME_WLE)
  add_test(NAME coop.accept.val.${stem}
           COMMAND ${Python3_EXECUTABLE} ${xmx_accept_checker} val
                   --xmx-val $<TARGET_FILE:xmx-val> ${module} ${xmx_accept_dir}/manifest.json)
  add_test(NAME coop.accept.run.${stem}
           COMMAND ${Python3_EXECUTABLE} ${xmx_accept_checker} run
                   --xmx-run $<TARGET_FILE:xmx-run> ${module} ${xmx_accept_dir}/manifest.json
                   ${CMAKE_CURRENT_BINARY_DIR}/coop_accept/${stem})
endforeach()

# xmx-dis | xmx-as gives every acceptance module back byte for byte (header generator word aside).
if(XMX_SPIRV_AS AND XMX_SPIRV_DIS)
  add_test(NAME as.coop_accept_round_trip
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/compare_as.py
                   --xmx-as $<TARGET_FILE:xmx-as> --spirv-as ${XMX_SPIRV_AS}
                   --spirv-dis ${XMX_SPIRV_DIS} --xmx-dis $<TARGET_FILE:xmx-dis>
                   --spv-dir ${xmx_accept_dir} --min-comparisons 86)
endif()

add_test(NAME coop.accept.table_coverage
         COMMAND ${Python3_EXECUTABLE} ${xmx_accept_checker} coverage
                 ${CMAKE_SOURCE_DIR}/grammar/devices ${xmx_accept_dir}/manifest.json)

# The Quick start's cooperative-matrix GEMM is the acceptance module it names (examples/README.md).
add_test(NAME coop.accept.example_is_current
         COMMAND ${CMAKE_COMMAND} -E compare_files ${CMAKE_SOURCE_DIR}/examples/gemm_coop_bf16.spv
                 ${xmx_accept_dir}/gemm_bf16_32x64x16.llc22.O2.spv)

# Producer findings met while writing the acceptance kernels (test/coop/producer_bugs/*.ll):
# llc-22 types Length's result after the declared return type (DPC++ declares size_t), which the
# extension forbids: rejected naming the rule's requirement.
set(xmx_coop_bugs ${CMAKE_SOURCE_DIR}/test/coop/producer_bugs)
add_test(NAME val.coop_length_i64_result
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py 1
                 "of OpCooperativeMatrixLengthKHR must be a 32-bit unsigned integer; found i64"
                 -- $<TARGET_FILE:xmx-val> --device pvc ${xmx_coop_bugs}/length_i64_result.spv)
# llc-22 has no __spirv_AccessChain and leaves DPC++'s element access as an imported function:
# the module is valid, and xmx-run refuses to run it, naming the import.
add_test(NAME val.coop_access_chain_import
         COMMAND $<TARGET_FILE:xmx-val> --device pvc ${xmx_coop_bugs}/access_chain_import.spv)
add_test(NAME run.coop.access_chain_import
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py 1
                 "call of imported function '_Z19__spirv_AccessChain"
                 -- $<TARGET_FILE:xmx-run> ${xmx_coop_bugs}/access_chain_import.spv --device pvc
                 --global 16 --local 16 --arg buffer:zero:512 --arg buffer:zero:512)

# The committed LLVM IR sources and the manifest are what test/coop/accept_gen.py writes.
add_test(NAME coop.accept.sources_current
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/test/coop/accept_gen.py --check)
