# CTest steps of the outside-program test (test/package/CMakeLists.txt), run with cmake -P:
#   STEP=install   `cmake --install BUILD_DIR --prefix PREFIX` into a fresh prefix
#   STEP=consumer  configure, build and run test/package/consumer against PREFIX with
#                  find_package(xmx), nothing of the source tree on its paths
#   STEP=headers   check that every public header, installed (PREFIX/include) and in the source
#                  tree (PUBLIC_INCLUDE_DIR), includes only xmx headers beside it and the
#                  standard library, and compile each on its own with only that directory
# Each step fails with the output of the command that failed.
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok")
  set(STEP_OUTPUT "${out}" PARENT_SCOPE)
endfunction()

if(STEP STREQUAL "install")
  file(REMOVE_RECURSE ${PREFIX})
  run_step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})
  foreach(file include/xmx/module.hpp include/xmx/spirv_enums.hpp lib/cmake/xmx/xmxConfig.cmake
               lib/cmake/xmx/xmxConfigVersion.cmake lib/cmake/xmx/xmxTargets.cmake bin/xmx-run)
    if(NOT EXISTS ${PREFIX}/${file})
      message(FATAL_ERROR "the install has no ${file}")
    endif()
  endforeach()
elseif(STEP STREQUAL "consumer")
  set(work ${PREFIX}-consumer)
  file(REMOVE_RECURSE ${work})
  run_step("configure" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${work} -G ${GENERATOR}
           -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${PREFIX})
  run_step("build" ${CMAKE_COMMAND} --build ${work})
  run_step("run" ${work}/xmx_consumer)
  message(STATUS "${STEP_OUTPUT}")
elseif(STEP STREQUAL "headers")
  # Both the installed headers and the source tree's include/ must stand alone: a header there
  # that reached into source/ or the build tree would compile in our build and nowhere else.
  foreach(root ${PREFIX}/include ${PUBLIC_INCLUDE_DIR})
    string(MAKE_C_IDENTIFIER ${root} root_name)
    set(work ${PREFIX}-headers/${root_name})
    file(REMOVE_RECURSE ${work})
    file(MAKE_DIRECTORY ${work})
    file(GLOB headers RELATIVE ${root} ${root}/xmx/*.hpp)
    if(NOT headers)
      message(FATAL_ERROR "no headers under ${root}/xmx")
    endif()
    foreach(header ${headers})
      # A public header includes only other public headers and the C++ standard library: nothing
      # from source/, the build tree or another package (SPIRV-Tools' headers included).
      file(STRINGS ${root}/${header} includes REGEX "^[ \t]*#[ \t]*include")
      foreach(line ${includes})
        if(line MATCHES "\"([^\"]*)\"")
          set(included ${CMAKE_MATCH_1})
          if(NOT included MATCHES "^xmx/" OR NOT EXISTS ${root}/${included})
            message(FATAL_ERROR "${root}/${header} includes \"${included}\", not a header of ${root}")
          endif()
        elseif(line MATCHES "<([^>]*)>")
          set(included ${CMAKE_MATCH_1})
          if(NOT included MATCHES "^[a-z_]+$")
            message(FATAL_ERROR "${root}/${header} includes <${included}>, not a C++ standard header")
          endif()
        else()
          message(FATAL_ERROR "${root}/${header}: unreadable include line '${line}'")
        endif()
      endforeach()
      string(MAKE_C_IDENTIFIER ${header} name)
      file(WRITE ${work}/${name}.cpp "#include \"${header}\"\n")
      run_step("${root}/${header} on its own" ${CXX} -std=c++20 -Wall -Wextra -Werror
               -fsyntax-only -I${root} ${work}/${name}.cpp)
    endforeach()
  endforeach()
else()
  message(FATAL_ERROR "unknown STEP '${STEP}'")
endif()
