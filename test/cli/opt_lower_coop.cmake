# xmx-opt --lower-cooperative-matrix (issue 12), proven by execution on the acceptance modules of
# test/coop/accept_spv (test/opt/lower_coop/check_lower_coop.py): each module is lowered for the
# devices of its table family (SIMD16 modules for pvc and bmg, SIMD8 ones for dg2, which has no 2D
# block IO), and the output must be valid there, hold no cooperative matrix, and give dumps
# byte-identical to the input module's (both --mma-fp models for float GEMMs) that also match the
# host models of check_coop_accept.py. The GEMMs on pvc and bmg must use 2D block IO.
#   opt.lower_coop.<module>.<device>     the proof above
#   opt.lower_coop.run.<check>.<case>    the modules of xmx-run's cooperative-matrix tests
#                                        (test/coop/run_spv), lowered for pvc (subgroup size 16)
#                                        or dg2 (8), pass test/cli/check_coop_run.py's models:
#                                        every element of every use, layout and shape, multiply-
#                                        adds, checked loads and stores over a matrix's edges
#   opt.lower_coop.block2d.<case>        each 2D block form (plain, transform, transpose, packed,
#                                        several blocks, stores, the narrow-row case of A.5 step 3)
#                                        on a surface wide enough for it: same dumps as the input
#   opt.lower_coop.rounding.<row>.<dev>  the rows with an fp32 C and a 16-bit D on inputs that
#                                        tell one rounding from two: the input's bytes, rounded once
#   opt.lower_coop.refuse.<what>         failures: exit 1 with the reason, nothing written
set(xmx_lower_dir ${CMAKE_SOURCE_DIR}/test/coop/accept_spv)
set(xmx_lower_check ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/test/opt/lower_coop/check_lower_coop.py)
set(xmx_lower_work ${CMAKE_CURRENT_BINARY_DIR}/opt_lower_coop)
file(GLOB xmx_lower_modules CONFIGURE_DEPENDS ${xmx_lower_dir}/*.spv)

foreach(module ${xmx_lower_modules})
  get_filename_component(stem ${module} NAME_WLE)
  set(devices pvc bmg)
  set(block2d "")
  if(stem MATCHES "_sg8")
    set(devices dg2)
  elseif(stem MATCHES "^row_")
    set(devices pvc)  # one tile each, a 16-column surface: too narrow for 2D block IO
  elseif(stem MATCHES "^gemm_")
    set(block2d --expect-block2d)
  endif()
  foreach(device ${devices})
    add_test(NAME opt.lower_coop.${stem}.${device}
             COMMAND ${xmx_lower_check} accept $<TARGET_FILE:xmx-opt> $<TARGET_FILE:xmx-val>
                     $<TARGET_FILE:xmx-run> ${module} ${xmx_lower_dir}/manifest.json ${device}
                     ${xmx_lower_work}/${stem}.${device} ${block2d})
  endforeach()
endforeach()

# One rounding (issue 12): every table row with an fp32 C and a 16-bit float D, on inputs where
# rounding the fp32 sum again differs from rounding the exact sum once.
foreach(module ${xmx_lower_modules})
  get_filename_component(stem ${module} NAME_WLE)
  if(NOT stem MATCHES "^row_sg16_[a-z0-9]+_[a-z0-9]+_f32_(f16|bf16k?)_")
    continue()
  endif()
  foreach(device pvc bmg)
    add_test(NAME opt.lower_coop.rounding.${stem}.${device}
             COMMAND ${xmx_lower_check} rounding $<TARGET_FILE:xmx-opt> $<TARGET_FILE:xmx-val>
                     $<TARGET_FILE:xmx-run> ${module} ${xmx_lower_dir}/manifest.json ${device}
                     ${xmx_lower_work}/rounding.${stem}.${device})
  endforeach()
endforeach()

file(GLOB xmx_lower_run_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/test/coop/run_src/*.ll)
foreach(source ${xmx_lower_run_sources})
  get_filename_component(name ${source} NAME_WE)
  if(name MATCHES "^(dump|checked)_(.*)$")
    set(check ${CMAKE_MATCH_1})
    set(case ${CMAKE_MATCH_2})
  elseif(name MATCHES "mad_" AND NOT name STREQUAL "sg8_mad_tf32_8x8x8")
    set(check mad)
    set(case ${name})
  elseif(name STREQUAL "relu" OR name STREQUAL "construct")
    set(check ${name})
    set(case ${name})
  else()
    continue()
  endif()
  set(device pvc)
  if(case MATCHES "^sg8_")
    set(device dg2)
  endif()
  add_test(NAME opt.lower_coop.run.${check}.${case}
           COMMAND ${xmx_lower_check} suite $<TARGET_FILE:xmx-opt> $<TARGET_FILE:xmx-val>
                   $<TARGET_FILE:xmx-as> ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_coop_run.py
                   $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/test/coop/run_spv ${device}
                   ${xmx_lower_work}/run.${check}.${case} ${check} ${case})
endforeach()

# The dump kernels take their Stride as an argument: 64 components make a surface 2D block IO
# takes, so the block path (not the per-element one) runs.
foreach(pair a_bf16_32x16_row:OpSubgroup2DBlockLoadINTEL
             b_bf16_16x64_row:OpSubgroup2DBlockLoadTransformINTEL
             c_f32_32x64_row:OpSubgroup2DBlockStoreINTEL a_i8_8x32_row:OpSubgroup2DBlockLoadINTEL
             b_i8_32x16_packed:OpSubgroup2DBlockLoadINTEL a_tf32_8x8_row:OpSubgroup2DBlockLoadINTEL
             b_tf32_8x16_row:OpSubgroup2DBlockLoadINTEL c_f32_1x64_row:OpSubgroup2DBlockStoreINTEL
             a_bf16_1x32_row:OpSubgroup2DBlockLoadINTEL
             c_i32_8x16_col:OpSubgroup2DBlockLoadTransposeINTEL
             c_half_16x16_row:OpSubgroup2DBlockStoreINTEL
             b_bf16_16x16_packed:OpSubgroup2DBlockLoadINTEL
             a_half_4x16_row:OpSubgroup2DBlockLoadINTEL)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 case)
  list(GET pair 1 opcode)
  add_test(NAME opt.lower_coop.block2d.${case}
           COMMAND ${xmx_lower_check} same $<TARGET_FILE:xmx-opt> $<TARGET_FILE:xmx-val>
                   $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/test/coop/run_spv/dump_${case}.llc22.O2.spv
                   pvc ${xmx_lower_work}/block2d.${case} ${opcode} -- --global 16 --local 16
                   --arg buffer:random=5:65536 --arg buffer:zero:24576 --arg buffer:zero:65536
                   --arg i64:64 --dump 1=out.bin --dump 2=back.bin)
endforeach()

# Column-major 8- and 16-bit loads through transposed 32-bit blocks, PackedINTEL stores through
# plain 32-bit blocks, column-major stores through tiles transposed by shuffles and plain stores
# (test/opt/lower_coop/block2d/, written by gen_block2d.py), on pvc and bmg.
foreach(pair block2d/b_bf16_16x16_col:OpSubgroup2DBlockLoadTransposeINTEL
             block2d/b_i16_16x64_col:OpSubgroup2DBlockLoadTransposeINTEL
             block2d/c_half_16x16_col:OpSubgroup2DBlockLoadTransposeINTEL
             block2d/c_half_32x64_col:OpSubgroup2DBlockLoadTransposeINTEL
             block2d/a_bf16_32x16_col:OpSubgroup2DBlockLoadTransposeINTEL
             run_spv/dump_b_i8_32x16_col:OpSubgroup2DBlockLoadTransposeINTEL
             block2d/c_f32_32x64_col:OpSubgroup2DBlockLoadTransposeINTEL
             run_spv/dump_b_bf16_16x16_packed:OpSubgroup2DBlockStoreINTEL
             run_spv/dump_b_i8_32x16_packed:OpSubgroup2DBlockStoreINTEL
             block2d/b_bf16_16x16_col:OpSubgroup2DBlockStoreINTEL
             block2d/b_i16_16x64_col:OpSubgroup2DBlockStoreINTEL
             block2d/c_half_16x16_col:OpSubgroup2DBlockStoreINTEL
             block2d/c_half_32x64_col:OpSubgroup2DBlockStoreINTEL
             block2d/a_bf16_32x16_col:OpSubgroup2DBlockStoreINTEL
             block2d/c_f32_32x64_col:OpSubgroup2DBlockStoreINTEL
             run_spv/dump_b_i8_32x16_col:OpSubgroup2DBlockStoreINTEL)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 path)
  list(GET pair 1 opcode)
  get_filename_component(case ${path} NAME)
  string(REGEX REPLACE "^dump_" "" case ${case})
  if(path MATCHES "^run_spv/")
    set(module ${CMAKE_SOURCE_DIR}/test/coop/${path}.llc22.O2.spv)
  else()
    set(module ${CMAKE_SOURCE_DIR}/test/opt/lower_coop/${path}.spv)
  endif()
  foreach(device pvc bmg)
    add_test(NAME opt.lower_coop.block2d.${case}.${opcode}.${device}
             COMMAND ${xmx_lower_check} same $<TARGET_FILE:xmx-opt> $<TARGET_FILE:xmx-val>
                     $<TARGET_FILE:xmx-run> ${module} ${device}
                     ${xmx_lower_work}/block2d.${case}.${opcode}.${device} ${opcode} -- --global 16
                     --local 16 --arg buffer:random=5:65536 --arg buffer:zero:24576
                     --arg buffer:zero:65536 --arg i64:64 --dump 1=out.bin --dump 2=back.bin)
  endforeach()
endforeach()

# Local memory (test/opt/lower_coop/local_roundtrip.ll): matrices stored to and loaded from a
# Workgroup pointer, which 2D block IO cannot address, take the per-element form.
add_test(NAME opt.lower_coop.local_memory
         COMMAND ${xmx_lower_check} same $<TARGET_FILE:xmx-opt> $<TARGET_FILE:xmx-val>
                 $<TARGET_FILE:xmx-run> ${CMAKE_SOURCE_DIR}/test/opt/lower_coop/local_roundtrip.spv
                 pvc ${xmx_lower_work}/local_memory OpSubgroup2DBlockStoreINTEL -- --global 16
                 --local 16 --arg buffer:random=3:256 --arg buffer:random=4:512 --arg local:1024
                 --arg buffer:zero:256 --arg buffer:zero:512 --dump 3=a.bin --dump 4=c.bin)

# No device: the module's native shapes and 2D block IO depend on one.
add_test(NAME opt.lower_coop.refuse.no_device
         COMMAND ${xmx_lower_check} refuse $<TARGET_FILE:xmx-opt>
                 ${xmx_lower_dir}/gemm_bf16_khr.llc22.O2.spv ${xmx_lower_work}/refuse
                 "no device was given" --lower-cooperative-matrix)
# A combination the device's cooperative_matrix table does not list (SIMD8 shapes on pvc).
add_test(NAME opt.lower_coop.refuse.combination
         COMMAND ${xmx_lower_check} refuse $<TARGET_FILE:xmx-opt>
                 ${xmx_lower_dir}/gemm_int8_sg8.llc22.O2.spv ${xmx_lower_work}/refuse
                 "is not supported for A" --lower-cooperative-matrix=pvc)
# A device without matrix hardware tables.
add_test(NAME opt.lower_coop.refuse.no_table
         COMMAND ${xmx_lower_check} refuse $<TARGET_FILE:xmx-opt>
                 ${xmx_lower_dir}/gemm_bf16_khr.llc22.O2.spv ${xmx_lower_work}/refuse
                 "has no matrix_mad or cooperative_matrix table" --lower-cooperative-matrix=spec)
# tf32 on dg2, whose table has none.
add_test(NAME opt.lower_coop.refuse.tf32_on_dg2
         COMMAND ${xmx_lower_check} refuse $<TARGET_FILE:xmx-opt>
                 ${xmx_lower_dir}/gemm_tf32.llc22.O2.spv ${xmx_lower_work}/refuse
                 "Matrix A type tf32 is not supported" --lower-cooperative-matrix=dg2)
# A kernel without SubgroupSize runs at the device's default, 16 on dg2, where an 8-column
# matrix (written for subgroup size 8) has no element mapping.
add_test(NAME opt.lower_coop.refuse.default_subgroup_size
         COMMAND ${xmx_lower_check} refuse $<TARGET_FILE:xmx-opt>
                 ${CMAKE_SOURCE_DIR}/test/coop/run_spv/sg8_mad_tf32_8x8x8.llc22.O2.spv
                 ${xmx_lower_work}/refuse "no element mapping for a 8x8 32-bit Use"
                 --lower-cooperative-matrix=dg2)
# int4 components have no element mapping (DECISIONS 15 covers 8, 16 and 32 bits).
add_test(NAME opt.lower_coop.refuse.int4
         COMMAND ${xmx_lower_check} refuse $<TARGET_FILE:xmx-opt>
                 ${CMAKE_SOURCE_DIR}/test/coop/spv/fill_int4.llc22.O2.spv ${xmx_lower_work}/refuse
                 "components must have 8, 16 or 32 bits" --lower-cooperative-matrix=pvc)
