// The JSON texts of grammar/devices/*.json, compiled into the library by utils/embed_devices.py
// (see cmake/devices.cmake). Parsed by builtin_profiles.cpp with the user-profile parser.
#pragma once

#include <span>
#include <string_view>

namespace xmx::device::internal {

struct EmbeddedProfile {
  std::string_view name;  // file stem, equal to the profile's "name"
  std::string_view file;  // "grammar/devices/pvc.json", for messages
  std::string_view json;
};

std::span<const EmbeddedProfile> EmbeddedProfiles();

}  // namespace xmx::device::internal
