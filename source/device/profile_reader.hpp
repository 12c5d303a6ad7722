// Reads one device profile from parsed JSON, checking every field and naming the JSON path of the
// first thing that is wrong. Shared by the built-in profiles and --device-profile files.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "xmx/device.hpp"
#include "xmx/result.hpp"

namespace xmx::device::internal {

// Returns the profile a "base" key names, or nullptr if there is none.
using BaseResolver = std::function<const DeviceProfile*(std::string_view name)>;

// The profile, or one error (rule device-profile) naming `source_name` and the JSON path of the
// first thing that is wrong: "my.json: matrix_mad[3].k: K must be a positive integer".
Result<DeviceProfile> ReadProfile(const nlohmann::json& root, const BaseResolver& resolve_base,
                                  std::string_view source_name);

// nlohmann's messages start with "[json.exception.parse_error.101] "; the rest says where.
std::string WithoutExceptionId(const char* what);

}  // namespace xmx::device::internal
