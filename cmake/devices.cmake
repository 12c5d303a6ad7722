# Built-in device profiles: grammar/devices/*.json are embedded into libxmx as string literals by
# utils/embed_devices.py at build time (never written by hand), and parsed by source/device/.
#
# Include from the top-level CMakeLists.txt, anywhere after project(). The work is deferred to the
# end of the top-level directory, when `xmx`, the fuzz targets and Python3_EXECUTABLE exist.

# Every target in `dir` and below.
function(xmx_collect_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir ${subdirs})
    xmx_collect_targets(${subdir} sub_targets)
    list(APPEND targets ${sub_targets})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(xmx_embed_device_profiles)
  file(GLOB profiles CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/grammar/devices/*.json)
  set(output ${CMAKE_BINARY_DIR}/generated/device/embedded_profiles.cpp)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/utils/embed_devices.py
            --out ${output} --root ${CMAKE_SOURCE_DIR} ${profiles}
    DEPENDS ${CMAKE_SOURCE_DIR}/utils/embed_devices.py ${profiles}
    COMMENT "Embedding the device profiles"
    VERBATIM)
  add_custom_target(xmx_device_profiles DEPENDS ${output})
  # libxmx, and every target that compiles the library's sources itself (the fuzzers do).
  xmx_collect_targets(${CMAKE_SOURCE_DIR} targets)
  foreach(target ${targets})
    get_target_property(sources ${target} SOURCES)
    if(sources AND "${CMAKE_SOURCE_DIR}/source/device/load_profile.cpp" IN_LIST sources)
      target_sources(${target} PRIVATE ${output})
      add_dependencies(${target} xmx_device_profiles)
    endif()
  endforeach()
endfunction()

cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL xmx_embed_device_profiles)
