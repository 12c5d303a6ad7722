// The JSON accessors of the device profile reader (profile_reader.cpp, profile_rows.cpp): each
// takes the JSON path of the value it reads and throws ProfileError naming it, so the first error
// says where it is ("matrix_mad[3].k: ..."). Private to source/device.
#pragma once

#include <charconv>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "device/match_support.hpp"
#include "device/profile_reader.hpp"

namespace xmx::device::internal {

using nlohmann::json;

// "matrix_mad[3].k: K must be a positive integer" -- the path and what is wrong. Thrown by the
// accessors and the row readers; ReadProfile turns it into its Result's diagnostic.
class ProfileError : public std::runtime_error {
 public:
  ProfileError(std::string path, const std::string& what)
      : std::runtime_error(path.empty() ? what : path + ": " + what), path_(std::move(path)) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::string Child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

inline std::string Index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

[[noreturn]] inline void Fail(const std::string& path, const std::string& what) {
  throw ProfileError(path, what);
}

inline std::string Describe(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

inline void CheckObject(const json& value, const std::string& path) {
  if (!value.is_object()) Fail(path, "expected an object, found " + Describe(value));
}

inline constexpr std::string_view kProvenanceKeys[] = {"confidence", "source", "note"};

// Unknown keys are errors, so that a misspelt key in a user profile is not silently ignored.
// Rows (`with_provenance`) may also carry "confidence", "source" and "note".
inline void CheckKeys(const json& object, const std::string& path,
                      std::initializer_list<std::string_view> allowed,
                      bool with_provenance = false) {
  for (const auto& [key, value] : object.items()) {
    const bool known =
        std::find(allowed.begin(), allowed.end(), key) != allowed.end() ||
        (with_provenance && std::find(std::begin(kProvenanceKeys), std::end(kProvenanceKeys),
                                      key) != std::end(kProvenanceKeys));
    if (!known) Fail(Child(path, key), "unknown key");
  }
}

inline const json& Require(const json& object, std::string_view key, const std::string& path) {
  auto it = object.find(key);
  if (it == object.end()) Fail(Child(path, key), "missing");
  return *it;
}

inline std::string ReadString(const json& value, const std::string& path) {
  if (!value.is_string()) Fail(path, "expected a string, found " + Describe(value));
  return value.get<std::string>();
}

// A non-negative integer: a JSON number, or a string "0x..." (operand masks read better in hex).
inline uint64_t ReadUnsigned(const json& value, const std::string& path, uint64_t max) {
  uint64_t result = 0;
  if (value.is_number_unsigned()) {
    result = value.get<uint64_t>();
  } else if (value.is_string()) {
    const std::string text = value.get<std::string>();
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char* first = text.data() + (hex ? 2 : 0);
    const char* last = text.data() + text.size();
    auto [end, ec] = std::from_chars(first, last, result, hex ? 16 : 10);
    if (!hex || ec != std::errc() || end != last) {
      Fail(path, "expected a non-negative integer or a \"0x...\" string, found " + Describe(value));
    }
  } else {
    Fail(path, "expected a non-negative integer, found " + Describe(value));
  }
  if (result > max) Fail(path, std::to_string(result) + " is too large");
  return result;
}

inline uint32_t ReadPositive(const json& value, const std::string& path) {
  uint32_t result =
      static_cast<uint32_t>(ReadUnsigned(value, path, std::numeric_limits<uint32_t>::max()));
  if (result == 0) Fail(path, "must be positive");
  return result;
}

inline std::vector<uint32_t> ReadPositiveList(const json& value, const std::string& path) {
  if (!value.is_array() || value.empty()) {
    Fail(path, "expected a non-empty array of positive integers, found " + Describe(value));
  }
  std::vector<uint32_t> result;
  for (size_t i = 0; i < value.size(); ++i)
    result.push_back(ReadPositive(value[i], Index(path, i)));
  return result;
}

inline std::vector<std::string> ReadStringList(const json& value, const std::string& path) {
  if (!value.is_array()) Fail(path, "expected an array of strings, found " + Describe(value));
  std::vector<std::string> result;
  for (size_t i = 0; i < value.size(); ++i) result.push_back(ReadString(value[i], Index(path, i)));
  return result;
}

// Picks a name from `names`, failing with the list of choices.
template <typename T, size_t N>
T ReadChoice(const json& value, const std::string& path,
             const std::pair<std::string_view, T> (&names)[N]) {
  std::string text = ReadString(value, path);
  std::vector<std::string> choices;
  for (const auto& [name, v] : names) {
    if (name == text) return v;
    choices.emplace_back(name);
  }
  Fail(path, "unknown value \"" + text + "\"; expected one of: " + Join(choices));
}

template <typename T, size_t N>
std::vector<T> ReadChoiceList(const json& value, const std::string& path,
                              const std::pair<std::string_view, T> (&names)[N]) {
  if (!value.is_array() || value.empty()) {
    Fail(path, "expected a non-empty array of strings, found " + Describe(value));
  }
  std::vector<T> result;
  for (size_t i = 0; i < value.size(); ++i)
    result.push_back(ReadChoice(value[i], Index(path, i), names));
  return result;
}

inline constexpr std::pair<std::string_view, Confidence> kConfidences[] = {
    {"spec", Confidence::kSpec},
    {"draft", Confidence::kDraft},
    {"implementation", Confidence::kImplementation},
    {"convention", Confidence::kConvention},
};

inline constexpr std::pair<std::string_view, Block2dOp> kBlock2dOps[] = {
    {"load", Block2dOp::kLoad},
    {"load_transform", Block2dOp::kLoadTransform},
    {"load_transpose", Block2dOp::kLoadTranspose},
    {"prefetch", Block2dOp::kPrefetch},
    {"store", Block2dOp::kStore},
};

inline constexpr std::pair<std::string_view, SubgroupOp> kSubgroupOps[] = {
    {"shuffle", SubgroupOp::kShuffle},
    {"block_io", SubgroupOp::kBlockIo},
    {"image_block_io", SubgroupOp::kImageBlockIo},
    {"group_broadcast", SubgroupOp::kGroupBroadcast},
    {"group_iadd", SubgroupOp::kGroupIAdd},
    {"group_min_max", SubgroupOp::kGroupMinMax},
};

inline constexpr std::pair<std::string_view, ScalarKind> kScalarKinds[] = {
    {"int", ScalarKind::kInt},
    {"float", ScalarKind::kFloat},
};

inline constexpr std::pair<std::string_view, GroupOperation> kGroupOperations[] = {
    {"Reduce", GroupOperation::kReduce},
    {"InclusiveScan", GroupOperation::kInclusiveScan},
    {"ExclusiveScan", GroupOperation::kExclusiveScan},
};

inline constexpr std::string_view kKnownFeatures[] = {"char", "short", "long"};

inline Provenance ReadProvenance(const json& object, const std::string& path) {
  Provenance provenance;
  if (auto it = object.find("confidence"); it != object.end()) {
    provenance.confidence = ReadChoice(*it, Child(path, "confidence"), kConfidences);
  }
  if (auto it = object.find("source"); it != object.end()) {
    provenance.source = ReadString(*it, Child(path, "source"));
  }
  if (auto it = object.find("note"); it != object.end()) {
    provenance.note = ReadString(*it, Child(path, "note"));
  }
  // A convention the validator warns about must say which reading it is.
  if (provenance.confidence == Confidence::kConvention && provenance.note.empty()) {
    Fail(Child(path, "note"), "a \"convention\" entry must say which reading it adopts");
  }
  return provenance;
}

}  // namespace xmx::device::internal
