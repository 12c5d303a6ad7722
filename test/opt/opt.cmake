# xmx-opt (issue 12): the command line, the installed optimizer's known failures (reproducers in
# test/opt/repro), and the proof by execution of every pass (check_opt_passes.py).
set(XMX_OPT_DIR ${CMAKE_CURRENT_SOURCE_DIR}/opt)
set(XMX_OPT_WORK ${CMAKE_CURRENT_BINARY_DIR}/opt)
set(XMX_OPT_CHECK ${Python3_EXECUTABLE} ${XMX_OPT_DIR}/check_opt_passes.py)
set(XMX_OPT_EXIT ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_exit.py)
set(XMX_OPT_TOOLS $<TARGET_FILE:xmx-opt> $<TARGET_FILE:xmx-val> $<TARGET_FILE:xmx-run>)

# The reproducers, assembled for SPIR-V 1.0 (spirv-opt's default environment is spv1.5).
file(GLOB XMX_OPT_REPROS CONFIGURE_DEPENDS ${XMX_OPT_DIR}/repro/*.spvasm)
foreach(source ${XMX_OPT_REPROS})
  get_filename_component(name ${source} NAME_WE)
  add_test(NAME opt.repro.assemble.${name}
           COMMAND $<TARGET_FILE:xmx-as> --target-env spv1.0 ${source}
                   -o ${XMX_OPT_WORK}/repro/${name}.spv)
  set_tests_properties(opt.repro.assemble.${name} PROPERTIES FIXTURES_SETUP opt_repro)
endforeach()
file(MAKE_DIRECTORY ${XMX_OPT_WORK}/repro)
set(repro ${XMX_OPT_WORK}/repro)

# --ssa-rewrite (and its other flag) rewrite *p as p for a pointer kept in a local: refused;
# -O skips it with a warning and what it writes computes the same (sum of in[0..4)).
foreach(flag --ssa-rewrite --eliminate-local-multi-store)
  add_test(NAME opt.refused${flag}
           COMMAND ${XMX_OPT_EXIT} 1 "${flag} refused: the installed SPIRV-Tools takes a load"
                   -- $<TARGET_FILE:xmx-opt> ${flag} ${repro}/pointer_in_local.spv
                   -o ${XMX_OPT_WORK}/refused.spv)
  set_tests_properties(opt.refused${flag} PROPERTIES FIXTURES_REQUIRED opt_repro)
endforeach()
add_test(NAME opt.O.skips.ssa-rewrite
         COMMAND ${XMX_OPT_CHECK} --case ${XMX_OPT_TOOLS} ${XMX_OPT_WORK}/O_pointer_in_local
                 ${repro}/pointer_in_local.spv -O --expect "-O: skipped --ssa-rewrite"
                 -- --global 1 --arg buffer:random=1:16 --arg buffer:zero:4 --dump 1=out.bin)
# Loop-invariant code motion past the loop's stores (the loop would never end): refused.
add_test(NAME opt.refused--loop-invariant-code-motion
         COMMAND ${XMX_OPT_EXIT} 1 "--loop-invariant-code-motion refused: the installed"
                 -- $<TARGET_FILE:xmx-opt> --loop-invariant-code-motion
                 ${repro}/loop_counter_in_memory.spv -o ${XMX_OPT_WORK}/refused.spv)
# Loop peeling crashes on a loop instruction with a name or a decoration: refused.
add_test(NAME opt.refused--loop-peeling
         COMMAND ${XMX_OPT_EXIT} 1 "--loop-peeling refused: the installed SPIRV-Tools crashes"
                 -- $<TARGET_FILE:xmx-opt> --loop-peeling ${repro}/named_loop_instruction.spv
                 -o ${XMX_OPT_WORK}/refused.spv)
add_test(NAME opt.refused--convert-relaxed-to-half
         COMMAND ${XMX_OPT_EXIT} 1 "--convert-relaxed-to-half refused"
                 -- $<TARGET_FILE:xmx-opt> --convert-relaxed-to-half
                 ${XMX_CORPUS_DIR}/spv/half_arith.llc22.O0.spv -o ${XMX_OPT_WORK}/refused.spv)
add_test(NAME opt.refused--relax-float-ops
         COMMAND ${XMX_OPT_EXIT} 1 "need the Shader capability"
                 -- $<TARGET_FILE:xmx-opt> --relax-float-ops
                 ${repro}/function_declaration.spv -o ${XMX_OPT_WORK}/refused.spv)
# The passes the installed SPIRV-Tools crashes on when a module declares a function: they run,
# and the module computes the same (atom_add of 8 * 2n into out[0]).
# Those that find something to do on it must change it (--loop-unswitch and --loop-fission find
# nothing: the loop has no invariant condition and little register pressure).
foreach(flag --cfg-cleanup --loop-invariant-code-motion -Os --loop-peeling --loop-unswitch
             --loop-fission=10)
  set(changed --expect-changed)
  if(flag STREQUAL "--loop-unswitch" OR flag STREQUAL "--loop-fission=10")
    set(changed "")
  endif()
  add_test(NAME opt.declaration${flag}
           COMMAND ${XMX_OPT_CHECK} --case ${XMX_OPT_TOOLS} ${XMX_OPT_WORK}/declaration${flag}
                   ${repro}/function_declaration.spv ${flag} ${changed}
                   -- --global 4 --arg buffer:zero:4 --arg i32:3 --dump 0=out.bin)
endforeach()
set_tests_properties(opt.O.skips.ssa-rewrite opt.refused--loop-invariant-code-motion
                     opt.refused--relax-float-ops opt.refused--loop-peeling
                     PROPERTIES FIXTURES_REQUIRED opt_repro)
foreach(flag --cfg-cleanup --loop-invariant-code-motion -Os --loop-peeling --loop-unswitch
             --loop-fission=10)
  set_tests_properties(opt.declaration${flag} PROPERTIES FIXTURES_REQUIRED opt_repro)
endforeach()

# Usage errors exit 2 and name what is wrong; standard input and output work as in spirv-opt.
add_test(NAME opt.usage.unknown-flag
         COMMAND ${XMX_OPT_EXIT} 2 "--no-such-pass"
                 -- $<TARGET_FILE:xmx-opt> --no-such-pass ${XMX_CORPUS_DIR}/spv/ptr_arith.llc22.O2.spv -o -)
add_test(NAME opt.usage.no-output
         COMMAND ${XMX_OPT_EXIT} 2 "-o required"
                 -- $<TARGET_FILE:xmx-opt> -O ${XMX_CORPUS_DIR}/spv/ptr_arith.llc22.O2.spv)
add_test(NAME opt.usage.device
         COMMAND ${XMX_OPT_EXIT} 2 "unknown device 'nosuch'"
                 -- $<TARGET_FILE:xmx-opt> --device nosuch ${XMX_CORPUS_DIR}/spv/ptr_arith.llc22.O2.spv -o -)
# An invalid input (llvm-spirv-15's constant_tables at -O2 uses an id it never defines) is
# rejected before any pass runs, as spirv-opt does.
add_test(NAME opt.invalid-input
         COMMAND ${XMX_OPT_EXIT} 1 "has not been defined"
                 -- $<TARGET_FILE:xmx-opt> -O ${XMX_CORPUS_DIR}/spv/constant_tables.spirv15.O2.spv
                 -o ${XMX_OPT_WORK}/invalid.spv)
# Every pass flag --help lists is one the installed SPIRV-Tools or the registry accepts.
add_test(NAME opt.help.flags
         COMMAND ${XMX_OPT_CHECK} --help-flags $<TARGET_FILE:xmx-opt>
                 ${XMX_CORPUS_DIR}/spv/ptr_arith.llc22.O2.spv ${XMX_OPT_WORK}/help_flags)
# -O, -Os and single passes write exactly what spirv-opt writes on core-only modules (xmx-opt
# runs -O as its passes one by one, with placeholder bodies for declarations).
foreach(flag -O -Os --cfg-cleanup --ssa-rewrite --compact-ids)
  add_test(NAME opt.same-as-spirv-opt${flag}
           COMMAND ${XMX_OPT_CHECK} --same-as-spirv-opt $<TARGET_FILE:xmx-opt> ${XMX_SPIRV_OPT}
                   ${XMX_OPT_WORK}/same${flag} ${flag})
endforeach()

# Proof by execution on every corpus module with a run description: our passes and -O (a few
# minutes), then every installed pass that changes a corpus module (label "slow": about ten
# minutes on two cores).
add_test(NAME opt.harness.ours
         COMMAND ${XMX_OPT_CHECK} ${XMX_OPT_TOOLS} ${XMX_OPT_WORK}/harness_ours --ours)
add_test(NAME opt.harness.O
         COMMAND ${XMX_OPT_CHECK} ${XMX_OPT_TOOLS} ${XMX_OPT_WORK}/harness_O --pass -O)
# The installed passes that change corpus modules, and those xmx-opt runs with placeholder
# bodies for declarations (--cfg-cleanup and the loop passes crash on them in spirv-opt).
set(XMX_OPT_INSTALLED_PASSES -Os --ccp --compact-ids --eliminate-insert-extract --ssa-rewrite
    --merge-blocks --remove-duplicates --remove-unused-interface-variables
    --simplify-instructions --strength-reduction --strip-debug --cfg-cleanup
    --loop-invariant-code-motion --loop-peeling --loop-unswitch --loop-fission=10)
set(pass_args "")
foreach(flag ${XMX_OPT_INSTALLED_PASSES})
  list(APPEND pass_args --pass ${flag})
endforeach()
add_test(NAME opt.harness.installed
         COMMAND ${XMX_OPT_CHECK} ${XMX_OPT_TOOLS} ${XMX_OPT_WORK}/harness_installed ${pass_args})
set_tests_properties(opt.harness.installed PROPERTIES LABELS slow TIMEOUT 3600)
set_tests_properties(opt.harness.ours opt.harness.O PROPERTIES TIMEOUT 1200)

# The row modules of test/val/rows through each row family's own model check, each module
# optimized on the way (opt_run_wrapper.py stands for xmx-run; WORK/report.txt says per module
# whether the pass changed it). -O changes 55 of them; --upgrade-builtin-calls none (llc-22 made
# them with the instructions), so it has no row test. A pass of ours that applies to the rows
# adds its flags to XMX_OPT_ROW_PASSES.
set(XMX_OPT_WRAPPER ${XMX_OPT_DIR}/opt_run_wrapper.py)
list(APPEND XMX_OPT_ROW_PASSES "-O")
foreach(flags ${XMX_OPT_ROW_PASSES})
  string(REGEX REPLACE "[^A-Za-z0-9]+" "_" tag "${flags}")
  set(wrapped_env XMX_OPT_WRAP_TOOLS=$<TARGET_FILE:xmx-opt>,$<TARGET_FILE:xmx-val>,$<TARGET_FILE:xmx-run>
                  "XMX_OPT_WRAP_PASS=${flags}" XMX_OPT_WRAP_WORK=${XMX_OPT_WORK}/rows${tag})
  add_test(NAME opt.rows${tag}.mma
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_mma_rows.py
                   ${XMX_OPT_WRAPPER} ${CMAKE_SOURCE_DIR}/test/val/rows
                   ${XMX_OPT_WORK}/rows${tag}_mma "mma_sg16_*")
  add_test(NAME opt.rows${tag}.block2d
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_block2d_rows.py
                   ${XMX_OPT_WRAPPER} ${CMAKE_SOURCE_DIR}/test/val/rows
                   ${XMX_OPT_WORK}/rows${tag}_block2d "b2d_*_e2_*")
  add_test(NAME opt.rows${tag}.subgroups
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_subgroup_rows.py
                   ${XMX_OPT_WRAPPER} ${CMAKE_SOURCE_DIR}/test/val/rows
                   ${XMX_OPT_WORK}/rows${tag}_subgroups "sg_*_int*")
  set_tests_properties(opt.rows${tag}.mma opt.rows${tag}.block2d opt.rows${tag}.subgroups
                       PROPERTIES ENVIRONMENT "${wrapped_env}" TIMEOUT 1200)
  set(work ${XMX_OPT_WORK}/rows${tag}_split)
  file(MAKE_DIRECTORY ${work})
  add_test(NAME opt.rows${tag}.split
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_split_mad.py
                   ${XMX_OPT_WRAPPER} ${CMAKE_SOURCE_DIR}/test/val/rows/split_i8_i8_k32_m8.spv
                   i8_i8 32 8 ${work})
  set_tests_properties(opt.rows${tag}.split PROPERTIES ENVIRONMENT "${wrapped_env}")
endforeach()
