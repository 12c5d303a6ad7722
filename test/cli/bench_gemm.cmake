# run_bench's GEMM benchmark set (issue 13, bench/kernels/gemm_*, the cooperative-matrix GEMMs):
# every build of every kernel run by xmx-run at a small size, C compared bit for bit with a host
# matmul in the kernel's float model (check_bench_gemm.py: int8 exact, floats xmx-run's `exact`
# model, tf32 truncated to 19 bits), so that a benchmark never times a wrong computation.
#   bench.gemm.<kernel>.<producer>.<opt>   MODULE TYPE TILE LAUNCH ARGS M N K
set(xmx_bench_kernels ${CMAKE_SOURCE_DIR}/bench/kernels)
set(xmx_bench_gemms
  # kernel                                    builds                              type tile  launch args    M  N   K
  "gemm_bf16_32x32_ldargs_prefetch_cast|llc22.O2,llc22.O0,spirv15.O0|bf16|32x32|native|mnk_ld|64|64|64"
  "gemm_bf16_32x32_const|llc22.O2|bf16|32x32|native|none|32|512|512"
  "gemm_bf16_8x16_direct|llc22.O2,llc22.O0,spirv15.O0,spirv15.O2|bf16|8x16|native|mnk|32|48|64"
  "gemm_bf16_16x32_builtins|spirv15.O0,llc22.O0,llc22.O2|bf16|16x32|native|mnk|32|64|48"
  "gemm_fp16_16x32_prefetch|llc22.O2,llc22.O0,spirv15.O0|fp16|16x32|native|mnk|48|64|64"
  "gemm_int8_32x32_ldargs_cast|llc22.O2,spirv15.O0|int8|32x32|native|mnk_ld|64|64|96"
  "gemm_tf32_8x16_plain|llc22.O2,llc22.O0,spirv15.O0,spirv15.O2|tf32|8x16|native|mnk|32|48|64"
  "gemm_tf32_32x16_block2d|llc22.O2,spirv15.O0|tf32|32x16|native|mnk|64|32|48")
foreach(entry ${xmx_bench_gemms})
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 kernel)
  list(GET fields 1 builds)
  list(SUBLIST fields 2 -1 shape)
  string(REPLACE "," ";" builds "${builds}")
  foreach(build ${builds})
    add_test(NAME bench.gemm.${kernel}.${build}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_bench_gemm.py
                     $<TARGET_FILE:xmx-run> ${xmx_bench_kernels}/${kernel}.${build}.spv ${shape}
                     ${CMAKE_CURRENT_BINARY_DIR}/bench_gemm/${kernel}.${build})
  endforeach()
endforeach()
# The cooperative-matrix GEMMs run_bench times: bench/kernels/coop_gemm_bf16 (run_bench's own, the
# native 32x32 tile's launch) and four acceptance GEMMs of test/coop at -O2 (their launch).
add_test(NAME bench.gemm.coop_gemm_bf16
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_bench_gemm.py
                 $<TARGET_FILE:xmx-run> ${xmx_bench_kernels}/coop_gemm_bf16.spv bf16 32x32 native
                 mnk 64 64 48 ${CMAKE_CURRENT_BINARY_DIR}/bench_gemm/coop_gemm_bf16)
foreach(entry "gemm_bf16_32x64x16|bf16|32x64" "gemm_int8_khr|int8|8x16" "gemm_f16_f32|fp16|8x16"
              "gemm_tf32|tf32|8x16")
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 kernel)
  list(GET fields 1 type)
  list(GET fields 2 tile)
  add_test(NAME bench.gemm.coop.${kernel}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_bench_gemm.py
                   $<TARGET_FILE:xmx-run>
                   ${CMAKE_SOURCE_DIR}/test/coop/accept_spv/${kernel}.llc22.O2.spv ${type} ${tile}
                   coop mnk64 64 64 64 ${CMAKE_CURRENT_BINARY_DIR}/bench_gemm/coop.${kernel})
endforeach()
