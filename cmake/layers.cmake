# The library's layers (ARCHITECTURE.md): one static library per folder of source/, linked only to
# the layers below it. A layer's headers are reachable only through the layers that link it: each
# layer gets an include root of its own in the build tree (build/layers/<layer>/) holding a single
# link, <layer> -> source/<layer>, so `#include "ir/type_table.hpp"` resolves in ir and in the
# layers above it, and fails to compile in binary or grammar. Public headers (include/xmx/) are
# visible everywhere.
#
# xmx_add_layer(NAME [DEPENDS layer...] [EXTRA_SOURCES file...])
#   Sources: every .cpp under source/NAME/, subfolders included. The target is xmx_NAME.
set(XMX_LAYER_ROOT ${CMAKE_BINARY_DIR}/layers)
set(XMX_LAYER_TARGETS "")

function(xmx_add_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "DEPENDS;EXTRA_SOURCES")
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/source/${name}/*.cpp)
  list(APPEND sources ${arg_EXTRA_SOURCES})
  set(root ${XMX_LAYER_ROOT}/${name})
  file(MAKE_DIRECTORY ${root})
  if(NOT EXISTS ${root}/${name})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/source/${name} ${root}/${name} SYMBOLIC)
  endif()
  set(target xmx_${name})
  if(sources)
    add_library(${target} STATIC ${sources})
    set(scope PUBLIC)
  else()
    # A layer of headers only (source/opt before its passes exist).
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  endif()
  target_include_directories(${target} ${scope} $<BUILD_INTERFACE:${root}>)
  foreach(dep ${arg_DEPENDS})
    target_link_libraries(${target} ${scope} xmx_${dep})
  endforeach()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  set(XMX_LAYER_TARGETS ${XMX_LAYER_TARGETS} ${target} PARENT_SCOPE)
  set(XMX_LIB_SOURCES ${XMX_LIB_SOURCES} ${sources} PARENT_SCOPE)
endfunction()
