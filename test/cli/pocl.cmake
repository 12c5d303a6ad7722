# PoCL differential material for xmx-run (test/run/README.md): pocl_run, the PoCL side of the
# comparison, and one oracle test per run entry of test/run/manifest.json.
#
#   pocl.run_inputs        the committed input buffers are what utils/make_run_inputs.py writes
#   pocl.oracle.<entry>    PoCL runs the entry (from the OpenCL C source, or from SPIR bitcode of
#                          the module the manifest names) and writes every dumped buffer to
#                          <build>/test/pocl/<entry>/pocl/; the fixture of the same name lets the
#                          xmx-run comparisons reuse those dumps.
# Needs an OpenCL ICD with PoCL (Debian: pocl-opencl-icd, ocl-icd-opencl-dev, opencl-c-headers)
# and, for the SPIR route, llvm-spirv-15; without them the PoCL tests are left out.
set(XMX_RUN_DIR ${CMAKE_CURRENT_SOURCE_DIR}/run)
set(XMX_RUN_MANIFEST ${XMX_RUN_DIR}/manifest.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${XMX_RUN_MANIFEST})

add_test(NAME pocl.run_inputs
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/utils/make_run_inputs.py --check
                 --out-dir ${XMX_RUN_DIR}/inputs)

find_package(OpenCL QUIET)
find_program(XMX_LLVM_SPIRV NAMES llvm-spirv-15 llvm-spirv)
if(NOT OpenCL_FOUND)
  message(STATUS "OpenCL not found: no PoCL oracle tests (apt-get install pocl-opencl-icd "
                 "ocl-icd-opencl-dev opencl-c-headers)")
  return()
endif()

add_executable(pocl_run ${CMAKE_CURRENT_SOURCE_DIR}/pocl/pocl_run.cpp)
target_link_libraries(pocl_run PRIVATE xmx_run_front_end OpenCL::OpenCL)

# The manifest's entries, read at configure time.
file(READ ${XMX_RUN_MANIFEST} XMX_RUN_MANIFEST_TEXT)
string(JSON XMX_RUN_ENTRIES GET "${XMX_RUN_MANIFEST_TEXT}" entries)
string(JSON XMX_RUN_ENTRY_COUNT LENGTH "${XMX_RUN_ENTRIES}")
math(EXPR XMX_RUN_LAST_ENTRY "${XMX_RUN_ENTRY_COUNT} - 1")

set(XMX_POCL_OUT ${CMAKE_CURRENT_BINARY_DIR}/pocl)
# PoCL 3.1 never zero-initialises a program-scope `static __global` variable; outside ASan the
# fresh allocation happens to be zero, under ASan it holds ASan's malloc fill (0xbe), and
# program_scope_globals reads it. Under ASan the oracle runs with a zero fill, which gives PoCL
# the zeros OpenCL C promises.
# PoCL and LLVM also leave their compiler state to the process's end, which LeakSanitizer would
# report (test/sanitizer/pocl_leaks.supp suppresses exactly their allocations).
# XMX_POCL_ENV: the environment of every PoCL test (pocl_run runs in each oracle, in pocl.printf
# and in the comparisons of a module against PoCL running that same module).
set(XMX_POCL_ENV POCL_CACHE_DIR=${CMAKE_BINARY_DIR}/pocl-cache)
if(XMX_SANITIZE MATCHES "address")
  list(APPEND XMX_POCL_ENV ASAN_OPTIONS=malloc_fill_byte=0
       LSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/test/sanitizer/pocl_leaks.supp)
endif()
foreach(index RANGE ${XMX_RUN_LAST_ENTRY})
  string(JSON entry MEMBER "${XMX_RUN_ENTRIES}" ${index})
  string(JSON run GET "${XMX_RUN_ENTRIES}" ${entry} run)
  string(JSON source GET "${XMX_RUN_ENTRIES}" ${entry} source)
  get_filename_component(stem ${source} NAME_WE)
  string(JSON route GET "${XMX_RUN_ENTRIES}" ${entry} oracle route)
  if(route STREQUAL "reference")
    continue()  # committed expected buffers, no PoCL run
  elseif(route STREQUAL "source")
    string(JSON options GET "${XMX_RUN_ENTRIES}" ${entry} oracle build_options)
    set(input --source ${XMX_RUN_DIR}/${source} --build-options=${options})
  elseif(XMX_LLVM_SPIRV)
    string(JSON variant GET "${XMX_RUN_ENTRIES}" ${entry} oracle module)
    set(input --spir-from ${XMX_CORPUS_DIR}/spv/${stem}.${variant}.spv
              --llvm-spirv ${XMX_LLVM_SPIRV})
  else()
    continue()
  endif()
  add_test(NAME pocl.oracle.${entry}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/compare_run.py
                   --pocl-only --run ${XMX_RUN_DIR}/${run} --out ${XMX_POCL_OUT}/${entry}
                   --pocl-run $<TARGET_FILE:pocl_run> ${input})
  set_tests_properties(pocl.oracle.${entry} PROPERTIES
                       FIXTURES_SETUP pocl.oracle.${entry} LABELS pocl TIMEOUT 300
                       ENVIRONMENT "${XMX_POCL_ENV}")
endforeach()

# pocl.compare.<entry>.<variant>: xmx-run on the corpus modules of each entry, compared with
# PoCL. Builds whose manifest "expect" is in EXPECT (default: match miscompiled) are registered:
# "match" builds against the dumps of pocl.oracle.<entry> (or the committed
# reference buffers of a "reference" oracle), "miscompiled" builds against PoCL running that same
# module (SPIR bitcode through llvm-spirv: the source computes something else).
function(xmx_add_pocl_comparisons)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET" "EXPECT")
  if(NOT arg_EXPECT)
    set(arg_EXPECT match miscompiled)
  endif()
  foreach(index RANGE ${XMX_RUN_LAST_ENTRY})
    string(JSON entry MEMBER "${XMX_RUN_ENTRIES}" ${index})
    string(JSON route GET "${XMX_RUN_ENTRIES}" ${entry} oracle route)
    if(route STREQUAL "reference")
      string(JSON reference GET "${XMX_RUN_ENTRIES}" ${entry} oracle dir)
      set(oracle_dir ${XMX_RUN_DIR}/${reference})
      set(oracle_fixture "")
    elseif(TEST pocl.oracle.${entry})
      set(oracle_dir ${XMX_POCL_OUT}/${entry}/pocl)
      set(oracle_fixture pocl.oracle.${entry})
    else()
      continue()
    endif()
    string(JSON run GET "${XMX_RUN_ENTRIES}" ${entry} run)
    string(JSON source GET "${XMX_RUN_ENTRIES}" ${entry} source)
    get_filename_component(stem ${source} NAME_WE)
    foreach(variant llc22.O0 llc22.O2 spirv15.O0 spirv15.O2)
      string(JSON expect GET "${XMX_RUN_ENTRIES}" ${entry} variants ${variant} expect)
      if(NOT expect IN_LIST arg_EXPECT)
        continue()
      endif()
      set(module ${XMX_CORPUS_DIR}/spv/${stem}.${variant}.spv)
      if(expect STREQUAL "miscompiled")
        if(NOT XMX_LLVM_SPIRV)
          continue()
        endif()
        set(oracle --pocl-run $<TARGET_FILE:pocl_run> --spir-from ${module}
                   --llvm-spirv ${XMX_LLVM_SPIRV})
        set(fixture "")
      else()
        set(oracle --oracle-dir ${oracle_dir})
        set(fixture ${oracle_fixture})
      endif()
      add_test(NAME pocl.compare.${entry}.${variant}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/compare_run.py
                       --run ${XMX_RUN_DIR}/${run} --out ${XMX_POCL_OUT}/${entry}/${variant}
                       --xmx-run $<TARGET_FILE:${arg_TARGET}> --module ${module} ${oracle})
      set_tests_properties(pocl.compare.${entry}.${variant} PROPERTIES
                           FIXTURES_REQUIRED "${fixture}" LABELS pocl TIMEOUT 300
                           ENVIRONMENT "${XMX_POCL_ENV}")
    endforeach()
  endforeach()
endfunction()

xmx_add_pocl_comparisons(TARGET xmx-run)

# printf output (OpenCL.std printf): xmx-run on the clang-15/llvm-spirv-15 builds of the corpus
# kernel against PoCL running its source, line by line (llc-22's printf modules are invalid:
# its format operand is not a pointer to 8-bit ints).
add_test(NAME pocl.printf
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_printf.py
                 $<TARGET_FILE:xmx-run> $<TARGET_FILE:pocl_run>
                 ${XMX_CORPUS_DIR}/src/printf_formats.cl ${XMX_POCL_OUT}/printf
                 ${XMX_CORPUS_DIR}/spv/printf_formats.spirv15.O0.spv
                 ${XMX_CORPUS_DIR}/spv/printf_formats.spirv15.O2.spv)
set_tests_properties(pocl.printf PROPERTIES LABELS pocl TIMEOUT 300
                     ENVIRONMENT "${XMX_POCL_ENV}")
