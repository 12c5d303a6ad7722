# Built-in device profiles: grammar/devices/*.json are embedded into libxmx as string literals by
# utils/embed_devices.py at build time (never written by hand), and parsed by source/device/.
# Sets XMX_DEVICE_PROFILES_CPP, the generated source, which the library's source list includes.
file(GLOB XMX_DEVICE_PROFILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/grammar/devices/*.json)
set(XMX_DEVICE_PROFILES_CPP ${CMAKE_BINARY_DIR}/generated/device/embedded_profiles.cpp)
add_custom_command(
  OUTPUT ${XMX_DEVICE_PROFILES_CPP}
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/utils/embed_devices.py
          --out ${XMX_DEVICE_PROFILES_CPP} --root ${CMAKE_SOURCE_DIR} ${XMX_DEVICE_PROFILES}
  DEPENDS ${CMAKE_SOURCE_DIR}/utils/embed_devices.py ${XMX_DEVICE_PROFILES}
  COMMENT "Embedding the device profiles"
  VERBATIM)
add_custom_target(xmx_device_profiles DEPENDS ${XMX_DEVICE_PROFILES_CPP})
