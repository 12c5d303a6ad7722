# `cmake --install`: the layers' static libraries, the public headers (include/xmx/, the
# committed generated enums included), the tools, and a CMake package so that an outside program
# writes find_package(xmx) and links xmx::xmx (test/package/ does exactly that).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(XMX_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/xmx)

install(TARGETS xmx ${XMX_LAYER_TARGETS} EXPORT xmxTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/xmx DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
foreach(main ${XMX_TOOL_MAINS})
  get_filename_component(tool ${main} NAME_WE)
  install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()

install(EXPORT xmxTargets NAMESPACE xmx:: DESTINATION ${XMX_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/xmxConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/xmxConfig.cmake
                              INSTALL_DESTINATION ${XMX_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/xmxConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/xmxConfig.cmake ${CMAKE_BINARY_DIR}/xmxConfigVersion.cmake
        DESTINATION ${XMX_INSTALL_CMAKEDIR})
