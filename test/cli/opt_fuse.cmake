# --fuse-2d-block-loads (source/opt/fuse_2d_block_loads*.cpp): modules LLVM's SPIR-V backend made
# from test/opt/fuse/src (test/opt/fuse/build.sh), each fused for a device, validated for it and
# run by xmx-run before and after with byte-identical dumps (test/opt/fuse/check_pass.py). The
# expectations count the 2D block instructions by Block Count over the whole module, the uncalled
# copy of each kernel LLVM's backend exports included (no subgroup size reaches it, so only its
# prefetches fuse).
if(TARGET xmx-opt)
  set(XMX_FUSE_DIR ${CMAKE_SOURCE_DIR}/test/opt/fuse)
  set(fuse_check ${Python3_EXECUTABLE} ${XMX_FUSE_DIR}/check_pass.py
      --opt $<TARGET_FILE:xmx-opt> --val $<TARGET_FILE:xmx-val> --run $<TARGET_FILE:xmx-run>
      --dis $<TARGET_FILE:xmx-dis>)
  function(xmx_fuse_test name module device)
    add_test(NAME opt.fuse.${name}.${device}
             COMMAND ${fuse_check} --pass=--fuse-2d-block-loads=${device} --device ${device}
                     --module ${XMX_FUSE_DIR}/spv/${module}.llc22.O2.spv
                     --launch ${XMX_FUSE_DIR}/${module}.json
                     --out ${CMAKE_CURRENT_BINARY_DIR}/opt_fuse/${name}.${device} ${ARGN})
  endfunction()

  # The bf16 GEMM: two A loads, two pairs of B load-transforms and two prefetches become one
  # load, two load-transforms and one prefetch of Block Count 2 (the uncalled copy keeps its
  # loads of Block Count 1).
  xmx_fuse_test(gemm_bf16 fuse_gemm_bf16 pvc
                --expect OpSubgroup2DBlockLoadINTEL:2=1 --expect OpSubgroup2DBlockLoadINTEL:1=2
                --expect OpSubgroup2DBlockLoadTransformINTEL:2=2
                --expect OpSubgroup2DBlockLoadTransformINTEL:1=4
                --expect OpSubgroup2DBlockPrefetchINTEL:2=2
                --expect OpSubgroup2DBlockPrefetchINTEL:1=0)
  # Four 8-bit load-transforms become one of Block Count 4; two 8-bit loads 32 wide one of 2.
  xmx_fuse_test(int8_x4 fuse_int8_x4 pvc
                --expect OpSubgroup2DBlockLoadTransformINTEL:4=1
                --expect OpSubgroup2DBlockLoadINTEL:2=1)
  # pvc has no Block Count 4 for 16-bit loads (two pairs instead) and no Block Count 2 for 32-bit
  # loads 16 wide or for transposed loads (they stay); the pair past the right edge fuses.
  xmx_fuse_test(e2_x4 fuse_e2_x4 pvc
                --expect OpSubgroup2DBlockLoadINTEL:2=4 --expect OpSubgroup2DBlockLoadINTEL:4=0
                --expect OpSubgroup2DBlockLoadINTEL:1=12
                --expect OpSubgroup2DBlockLoadTransposeINTEL:2=0)
  # The `spec` profile has no table: only the SPIR-V rules, which allow any Block Count, so the
  # same module fuses further, and the transposed and 16-wide 32-bit pairs run fused too.
  xmx_fuse_test(e2_x4 fuse_e2_x4 spec
                --expect OpSubgroup2DBlockLoadINTEL:4=1 --expect OpSubgroup2DBlockLoadINTEL:2=3
                --expect OpSubgroup2DBlockLoadTransposeINTEL:2=1)
  # Different pitches, a global store between, a barrier between: nothing fuses.
  xmx_fuse_test(barriers nofuse_barriers pvc --expect-unchanged)
endif()
