// Reads one device profile from parsed JSON, checking every field and naming the JSON path of the
// first thing that is wrong. Shared by the built-in profiles and --device-profile files.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "xmx/device.hpp"

namespace xmx::device::internal {

// "matrix_mad[3].k: K must be a positive integer" -- the path and what is wrong.
class ProfileError : public std::runtime_error {
 public:
  ProfileError(std::string path, const std::string& what)
      : std::runtime_error(path.empty() ? what : path + ": " + what), path_(std::move(path)) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Returns the profile a "base" key names, or nullptr if there is none.
using BaseResolver = std::function<const DeviceProfile*(std::string_view name)>;

// Throws ProfileError.
DeviceProfile ReadProfile(const nlohmann::json& root, const BaseResolver& resolve_base);

}  // namespace xmx::device::internal
