// What the parsers of a launch description share (launch_spec.cpp: options and --arg specs,
// launch_image.cpp: image specs, launch_run_file.cpp: --run FILE.json).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace xmx::interp::launch_support {

inline void SetError(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
}

inline std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// `path` as given when absolute or when base_dir is empty, else relative to base_dir.
inline std::string Resolve(const std::filesystem::path& base_dir, std::string_view path) {
  std::filesystem::path p{std::string(path)};
  if (p.is_absolute() || base_dir.empty()) return p.string();
  return (base_dir / p).lexically_normal().string();
}

// Reads a whole file of at most kMaxArgBytes; on failure says why in *reason.
bool ReadWholeFile(const std::filesystem::path& path, std::vector<uint8_t>* bytes,
                   std::string* reason);

}  // namespace xmx::interp::launch_support
