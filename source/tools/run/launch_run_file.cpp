// `xmx-run --run FILE.json`: a whole launch description as one JSON object (launch_spec.hpp,
// ReadRunFile / ParseRunJson).
#include <cmath>
#include <set>

#include "nlohmann/json.hpp"
#include "tools/run/launch_spec.hpp"
#include "tools/run/launch_support.hpp"

namespace xmx::tools {

using namespace launch_support;
namespace fs = std::filesystem;

std::optional<LaunchSpec> ParseRunJson(std::string_view json_text, std::string_view source_name,
                                       const fs::path& base_dir, std::string* error) {
  const std::string prefix = std::string(source_name) + ": ";
  if (json_text.size() > kMaxRunFileBytes) {
    SetError(error, prefix + "a run file of " + std::to_string(json_text.size()) +
                        " bytes is larger than xmx-run reads (" + std::to_string(kMaxRunFileBytes) +
                        ")");
    return std::nullopt;
  }
  nlohmann::json root;
  // Refused while parsing, before the parser builds it: nesting deeper than any launch needs.
  struct TooDeep {};
  const nlohmann::json::parser_callback_t depth_limit =
      [](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
        if (depth >= kMaxJsonDepth && (event == nlohmann::json::parse_event_t::object_start ||
                                       event == nlohmann::json::parse_event_t::array_start)) {
          throw TooDeep{};
        }
        return true;
      };
  try {
    root = nlohmann::json::parse(json_text.begin(), json_text.end(), depth_limit);
  } catch (const TooDeep&) {
    SetError(error, prefix + "invalid run file: arrays and objects nested more than " +
                        std::to_string(kMaxJsonDepth) + " deep");
    return std::nullopt;
  } catch (const nlohmann::json::parse_error& e) {
    std::string_view what = e.what();
    if (size_t end = what.find("] ");
        !what.empty() && what[0] == '[' && end != std::string_view::npos) {
      what.remove_prefix(end + 2);
    }
    SetError(error, prefix + "invalid JSON: " + std::string(what));
    return std::nullopt;
  }
  if (!root.is_object()) {
    SetError(error, prefix + "expected a JSON object");
    return std::nullopt;
  }

  LaunchSpec spec;
  bool have_global = false;
  std::string message;
  // Each reader returns false with `message` set; the key is prepended below.
  auto read_string = [&](const nlohmann::json& value, std::string* out) {
    if (!value.is_string()) {
      message = "expected a string";
      return false;
    }
    *out = value.get<std::string>();
    if (std::optional<std::string> nul = NulCharacterError(*out)) {
      message = "the string " + *nul;
      return false;
    }
    return true;
  };
  auto read_unsigned = [&](const nlohmann::json& value, uint64_t max, uint64_t* out) {
    if (!value.is_number_unsigned() || value.get<uint64_t>() > max) {
      message = "expected an integer in 0.." + std::to_string(max);
      return false;
    }
    *out = value.get<uint64_t>();
    return true;
  };
  auto read_sizes = [&](const nlohmann::json& value, std::vector<uint64_t>* out) {
    if (value.is_string()) {
      std::optional<std::vector<uint64_t>> sizes =
          ParseSizes(value.get<std::string>(), "", &message);
      if (!sizes) {
        message.erase(0, 1);  // the empty option name's space
        return false;
      }
      *out = std::move(*sizes);
      return true;
    }
    nlohmann::json list = value.is_array() ? value : nlohmann::json::array({value});
    if (list.empty() || list.size() > 3) {
      message = "expected one to three sizes";
      return false;
    }
    out->clear();
    for (const nlohmann::json& item : list) {
      if (!item.is_number_unsigned() || item.get<uint64_t>() == 0) {
        message = "expected sizes >= 1 (an array of integers, a number or a string \"X,Y,Z\")";
        return false;
      }
      out->push_back(item.get<uint64_t>());
    }
    return true;
  };
  auto read_index_paths = [&](const nlohmann::json& value,
                              std::vector<std::pair<uint32_t, std::string>>* out) {
    std::vector<std::string> items;
    if (value.is_object()) {
      for (const auto& [index, path] : value.items()) {
        if (!path.is_string()) {
          message = "\"" + index + "\": expected a path string";
          return false;
        }
        if (std::optional<std::string> nul = NulCharacterError(index + path.get<std::string>())) {
          message = "\"" + index + "\": the path " + *nul;
          return false;
        }
        items.push_back(index + "=" + path.get<std::string>());
      }
    } else if (value.is_array()) {
      for (const nlohmann::json& item : value) {
        if (!item.is_string()) {
          message = "expected \"INDEX=PATH\" strings";
          return false;
        }
        if (std::optional<std::string> nul = NulCharacterError(item.get<std::string>())) {
          message = "\"INDEX=PATH\" " + *nul;
          return false;
        }
        items.push_back(item.get<std::string>());
      }
    } else {
      message = R"(expected an object {"INDEX": "PATH"} or an array of "INDEX=PATH")";
      return false;
    }
    for (const std::string& item : items) {
      std::optional<std::pair<uint32_t, std::string>> entry =
          ParseIndexPath(item, "", base_dir, &message);
      if (!entry) {
        message.erase(0, 1);
        return false;
      }
      out->push_back(std::move(*entry));
    }
    return true;
  };

  // The memory limit bounds the arguments, read below in key order ("args" comes first).
  if (auto limit = root.find("max-memory"); limit != root.end()) {
    std::optional<uint64_t> bytes;
    if (limit->is_number_unsigned()) {
      bytes = limit->get<uint64_t>();
    } else if (limit->is_string()) {
      bytes = ParseByteSize(limit->get<std::string>(), "", &message);
    } else {
      message = " expected a byte count (a number, or a string such as \"8G\")";
    }
    if (!bytes) {
      SetError(error, prefix + "\"max-memory\":" + message);
      return std::nullopt;
    }
    spec.max_memory = *bytes;
  }
  uint64_t argument_bytes = 0;

  for (const auto& [key, value] : root.items()) {
    bool ok = true;
    uint64_t number = 0;
    if (key == "module") {
      ok = read_string(value, &spec.module);
      if (ok) spec.module = Resolve(base_dir, spec.module);
    } else if (key == "kernel") {
      ok = read_string(value, &spec.kernel);
    } else if (key == "global") {
      ok = read_sizes(value, &spec.global);
      have_global = true;
    } else if (key == "local") {
      ok = read_sizes(value, &spec.local);
    } else if (key == "subgroup-size") {
      ok = read_unsigned(value, kMaxSubgroupSize, &number);
      if (ok) spec.subgroup_size = static_cast<uint32_t>(number);
    } else if (key == "device") {
      ok = read_string(value, &spec.device);
    } else if (key == "args") {
      if (!value.is_array()) {
        message = "expected an array of argument specs";
        ok = false;
      }
      for (size_t i = 0; ok && i < value.size(); ++i) {
        if (!value[i].is_string()) {
          message = "[" + std::to_string(i) + "]: expected a spec string";
          ok = false;
          break;
        }
        if (std::optional<std::string> nul = NulCharacterError(value[i].get<std::string>())) {
          message = "[" + std::to_string(i) + "]: the spec " + *nul;
          ok = false;
          break;
        }
        const uint64_t left = spec.max_memory == 0 ? UINT64_MAX : spec.max_memory - argument_bytes;
        std::optional<ArgSpec> arg =
            ParseArgSpec(value[i].get<std::string>(), base_dir, &message, left);
        if (!arg) {
          message = "[" + std::to_string(i) + "] " + message;
          ok = false;
          break;
        }
        argument_bytes += arg->bytes.size();
        spec.args.push_back(std::move(*arg));
      }
    } else if (key == "dump") {
      ok = read_index_paths(value, &spec.dumps);
    } else if (key == "expect") {
      ok = read_index_paths(value, &spec.expects);
    } else if (key == "check") {
      std::string mode;
      ok = read_string(value, &mode);
      if (ok) {
        std::optional<CheckMode> check = ParseCheckMode(mode, &message);
        if (check) {
          spec.check = *check;
        } else {
          message = Quoted(mode) + ": expected error, warn or off";
          ok = false;
        }
      }
    } else if (key == "threads") {
      ok = read_unsigned(value, kMaxThreads, &number);
      if (ok) spec.threads = static_cast<uint32_t>(number);
    } else if (key == "max-memory") {
      // read above
    } else if (key == "max-instructions") {
      ok = read_unsigned(value, UINT64_MAX, &spec.max_instructions);
    } else if (key == "timeout") {
      ok = value.is_number() && value.get<double>() >= 0 && std::isfinite(value.get<double>());
      if (ok) spec.timeout = value.get<double>();
      if (!ok) message = "expected a number of seconds >= 0 (0: no limit)";
    } else if (key == "stats") {
      if (value.is_boolean()) {
        spec.stats = value.get<bool>();
      } else {
        message = "expected true or false";
        ok = false;
      }
    } else if (key == "mma-fp") {
      ok = read_string(value, &spec.mma_fp);
      if (ok && !IsMmaFpMode(spec.mma_fp)) {
        message = Quoted(spec.mma_fp) + ": expected exact or ordered";
        ok = false;
      }
    } else if (key == "comment") {
      ok = value.is_string() ||
           (value.is_array() &&
            std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_string(); }));
      if (!ok) message = "expected a string or an array of strings";
    } else {
      SetError(error, prefix + "unknown key \"" + key +
                          "\" (known: module, kernel, global, local, subgroup-size, device, "
                          "args, dump, expect, check, threads, stats, mma-fp, max-memory, "
                          "max-instructions, timeout, comment)");
      return std::nullopt;
    }
    if (!ok) {
      SetError(error, prefix + "\"" + key + "\": " + message);
      return std::nullopt;
    }
  }
  if (!have_global) {
    SetError(error, prefix + "missing \"global\" (the NDRange size)");
    return std::nullopt;
  }
  if (!ValidateLaunchSpec(spec, &message)) {
    SetError(error, prefix + message);
    return std::nullopt;
  }
  return spec;
}

std::optional<LaunchSpec> ReadRunFile(const fs::path& file, std::string* error) {
  std::vector<uint8_t> bytes;
  std::string reason;
  if (!ReadWholeFile(file, &bytes, kMaxRunFileBytes, &reason)) {
    if (reason.rfind("larger than", 0) == 0) {
      reason = "larger than the " + std::to_string(kMaxRunFileBytes) + " bytes xmx-run reads";
    }
    SetError(error, file.string() + ": cannot read run file: " + reason);
    return std::nullopt;
  }
  std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::optional<LaunchSpec> spec = ParseRunJson(text, file.string(), file.parent_path(), error);
  if (spec) spec->run_file = file.string();
  return spec;
}

}  // namespace xmx::tools
