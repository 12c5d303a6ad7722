// Loading device profiles: the built-in ones (embedded JSON, each parsed on first use, bases
// resolved among themselves) and user files, through the same reader.
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "common/rule_ids.hpp"
#include "device/embedded_profiles.hpp"
#include "device/profile_reader.hpp"
#include "xmx/device.hpp"

namespace xmx::device {
namespace {

using internal::EmbeddedProfile;
using internal::WithoutExceptionId;

const EmbeddedProfile* FindEmbedded(std::string_view name) {
  for (const EmbeddedProfile& embedded : internal::EmbeddedProfiles()) {
    if (embedded.name == name) return &embedded;
  }
  return nullptr;
}

void Report(Diagnostic* diagnostic, std::string message) {
  if (diagnostic == nullptr) return;
  *diagnostic = Diagnostic{};
  diagnostic->severity = Severity::kError;
  diagnostic->message = std::move(message);
  diagnostic->rule = rules::kDeviceProfile;
}

// A profile is a few kilobytes of tables a few levels deep: far larger or deeper input is refused
// before it is parsed (size) or while it is (depth), so no input costs the reader unbounded memory
// or recursion.
constexpr size_t kMaxProfileBytes = size_t{16} << 20;
constexpr int kMaxProfileDepth = 64;

std::optional<DeviceProfile> Parse(std::string_view text, std::string_view source_name,
                                   const internal::BaseResolver& resolve_base,
                                   Diagnostic* diagnostic) {
  if (text.size() > kMaxProfileBytes) {
    Report(diagnostic, std::string(source_name) + ": a device profile of " +
                           std::to_string(text.size()) + " bytes is larger than xmx reads (" +
                           std::to_string(kMaxProfileBytes) + ")");
    return std::nullopt;
  }
  struct TooDeep {};
  const nlohmann::json::parser_callback_t depth_limit =
      [](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
        if (depth >= kMaxProfileDepth && (event == nlohmann::json::parse_event_t::object_start ||
                                          event == nlohmann::json::parse_event_t::array_start)) {
          throw TooDeep{};
        }
        return true;
      };
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(text.begin(), text.end(), depth_limit);
  } catch (const TooDeep&) {
    Report(diagnostic, std::string(source_name) + ": invalid device profile: arrays and objects " +
                           "nested more than " + std::to_string(kMaxProfileDepth) + " deep");
    return std::nullopt;
  } catch (const nlohmann::json::parse_error& error) {
    Report(diagnostic,
           std::string(source_name) + ": invalid JSON: " + WithoutExceptionId(error.what()));
    return std::nullopt;
  }
  Result<DeviceProfile> profile = internal::ReadProfile(root, resolve_base, source_name);
  if (!profile) {
    if (diagnostic) *diagnostic = std::move(profile.diagnostics().front());
    return std::nullopt;
  }
  return std::move(profile).value();
}

// The built-in profiles, each parsed on its first lookup (a base before the profiles built on
// it) and kept: a run needs one or two of them, and parsing all of them cost more than the rest
// of xmx-opt -O or xmx-val on a small module.
class BuiltinRegistry {
 public:
  const DeviceProfile* Find(std::string_view name) {
    std::lock_guard<std::mutex> lock(mutex_);
    return Get(name);
  }

 private:
  const DeviceProfile* Get(std::string_view name) {
    if (auto it = profiles_.find(name); it != profiles_.end()) return &*it->second;
    const EmbeddedProfile* embedded = FindEmbedded(name);
    // A cycle of bases or a missing base: the reader reports it as an unknown base.
    if (embedded == nullptr || !in_progress_.insert(std::string(name)).second) return nullptr;
    std::optional<DeviceProfile> profile = Parse(
        embedded->json, embedded->file, [this](std::string_view base) { return Get(base); },
        nullptr);
    in_progress_.erase(std::string(name));
    // A profile that does not read is remembered as missing (LoadBuiltinProfile reports why;
    // tests load every profile).
    auto& slot = profiles_[std::string(name)];
    if (profile) slot = std::make_unique<DeviceProfile>(std::move(*profile));
    return slot.get();
  }

  std::mutex mutex_;  // lookups may come from several threads (xmx-run's work groups)
  std::map<std::string, std::unique_ptr<DeviceProfile>, std::less<>> profiles_;
  std::set<std::string> in_progress_;
};

BuiltinRegistry& Registry() {
  static BuiltinRegistry registry;
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
  // Read up to one byte more than Parse accepts: enough to tell a file that is too large.
  std::string text;
  char chunk[65536];
  while (text.size() <= kMaxProfileBytes && in.read(chunk, sizeof chunk).gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) {
    Report(diagnostic, path.string() + ": cannot read the device profile");
    return std::nullopt;
  }
  return LoadProfileText(text, path.string(), diagnostic);
}

}  // namespace xmx::device
