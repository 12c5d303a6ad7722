// What the parsers of a launch description share (launch_spec.cpp: options and --arg specs,
// launch_image.cpp: image specs, launch_run_file.cpp: --run FILE.json).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xmx::tools::launch_support {

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

// Reads a whole file of at most `max_bytes` (a larger one is refused before it is read, or as
// soon as reading passes the limit); on failure says why in *reason.
bool ReadWholeFile(const std::filesystem::path& path, std::vector<uint8_t>* bytes,
                   uint64_t max_bytes, std::string* reason);

// A message part that refuses a string holding a NUL character (JSON may write \u0000; a path
// or a name with one would stop at it when handed to the system): nullopt when there is none.
inline std::optional<std::string> NulCharacterError(std::string_view text) {
  if (text.find('\0') == std::string_view::npos) return std::nullopt;
  return "contains a NUL character (\\u0000)";
}

}  // namespace xmx::tools::launch_support
