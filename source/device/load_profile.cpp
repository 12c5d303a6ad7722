// Loading device profiles: the built-in ones (embedded JSON, parsed once, bases resolved among
// themselves) and user files, through the same reader.
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "device/embedded_profiles.hpp"
#include "device/profile_reader.hpp"
#include "xmx/device.hpp"

namespace xmx::device {
namespace {

using internal::EmbeddedProfile;
using internal::ProfileError;

const EmbeddedProfile* FindEmbedded(std::string_view name) {
  for (const EmbeddedProfile& embedded : internal::EmbeddedProfiles()) {
    if (embedded.name == name) return &embedded;
  }
  return nullptr;
}

// nlohmann's messages start with "[json.exception.parse_error.101] "; the rest says where.
std::string WithoutExceptionId(const char* what) {
  std::string_view text(what);
  if (!text.empty() && text.front() == '[') {
    if (size_t end = text.find("] "); end != std::string_view::npos) text.remove_prefix(end + 2);
  }
  return std::string(text);
}

void Report(Diagnostic* diagnostic, std::string message) {
  if (diagnostic == nullptr) return;
  *diagnostic = Diagnostic{};
  diagnostic->severity = Severity::kError;
  diagnostic->message = std::move(message);
  diagnostic->rule = "device-profile";
}

std::optional<DeviceProfile> Parse(std::string_view text, std::string_view source_name,
                                   const internal::BaseResolver& resolve_base,
                                   Diagnostic* diagnostic) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& error) {
    Report(diagnostic,
           std::string(source_name) + ": invalid JSON: " + WithoutExceptionId(error.what()));
    return std::nullopt;
  }
  try {
    return internal::ReadProfile(root, resolve_base);
  } catch (const ProfileError& error) {
    Report(diagnostic, std::string(source_name) + ": " + error.what());
  } catch (const nlohmann::json::exception& error) {
    Report(diagnostic, std::string(source_name) + ": " + WithoutExceptionId(error.what()));
  }
  return std::nullopt;
}

// The built-in profiles, each parsed once; a base is parsed before the profiles built on it.
class BuiltinRegistry {
 public:
  BuiltinRegistry() {
    for (const EmbeddedProfile& embedded : internal::EmbeddedProfiles()) Get(embedded.name);
  }

  const DeviceProfile* Find(std::string_view name) const {
    auto it = profiles_.find(name);
    return it == profiles_.end() ? nullptr : &it->second;
  }

 private:
  const DeviceProfile* Get(std::string_view name) {
    if (const DeviceProfile* done = Find(name)) return done;
    const EmbeddedProfile* embedded = FindEmbedded(name);
    // A cycle of bases or a missing base: the reader reports it as an unknown base.
    if (embedded == nullptr || !in_progress_.insert(std::string(name)).second) return nullptr;
    std::optional<DeviceProfile> profile = Parse(
        embedded->json, embedded->file, [this](std::string_view base) { return Get(base); },
        nullptr);
    in_progress_.erase(std::string(name));
    if (!profile) return nullptr;  // LoadBuiltinProfile reports why; tests load every profile
    return &profiles_.emplace(std::string(name), std::move(*profile)).first->second;
  }

  std::map<std::string, DeviceProfile, std::less<>> profiles_;
  std::set<std::string> in_progress_;
};

const BuiltinRegistry& Registry() {
  static const BuiltinRegistry registry;
  return registry;
}

}  // namespace

const DeviceProfile* FindBuiltinProfile(std::string_view name) { return Registry().Find(name); }

std::vector<std::string_view> BuiltinProfileNames() {
  std::vector<std::string_view> names;
  for (const EmbeddedProfile& embedded : internal::EmbeddedProfiles()) {
    names.push_back(embedded.name);
  }
  return names;
}

std::optional<DeviceProfile> LoadBuiltinProfile(std::string_view name, Diagnostic* diagnostic) {
  const EmbeddedProfile* embedded = FindEmbedded(name);
  if (embedded == nullptr) {
    Report(diagnostic, "unknown built-in device profile \"" + std::string(name) + "\"");
    return std::nullopt;
  }
  return Parse(embedded->json, embedded->file, &FindBuiltinProfile, diagnostic);
}

std::optional<DeviceProfile> LoadProfileText(std::string_view json_text,
                                             std::string_view source_name, Diagnostic* diagnostic) {
  return Parse(json_text, source_name, &FindBuiltinProfile, diagnostic);
}

std::optional<DeviceProfile> LoadProfileFile(const std::filesystem::path& path,
                                             Diagnostic* diagnostic) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Report(diagnostic, path.string() + ": cannot open the device profile");
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return LoadProfileText(text.str(), path.string(), diagnostic);
}

}  // namespace xmx::device
