// Reads a device profile (schema: grammar/devices/schema.md): the top-level keys, a base profile's
// tables extended or replaced, and the checks across tables. The JSON accessors are in
// profile_json.hpp, the row readers in profile_rows.cpp.
#include "device/profile_reader.hpp"

#include <algorithm>
#include <bit>
#include <initializer_list>
#include <limits>

#include "common/rule_ids.hpp"
#include "device/match_support.hpp"
#include "device/profile_json.hpp"
#include "device/profile_rows.hpp"

namespace xmx::device::internal {
namespace {

// An array of rows, or "no_table" / "none".
template <typename Row>
Table<Row> ReadTable(const json& value, const std::string& path,
                     Row (*read_row)(const json&, const std::string&)) {
  Table<Row> table;
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (text == "no_table") {
      table.kind = TableKind::kNoTable;
    } else if (text == "none") {
      table.kind = TableKind::kNone;
    } else {
      Fail(path, R"(expected an array of rows, "no_table" or "none", found )" + Describe(value));
    }
    return table;
  }
  if (!value.is_array()) {
    Fail(path, R"(expected an array of rows, "no_table" or "none", found )" + Describe(value));
  }
  table.kind = TableKind::kTable;
  for (size_t i = 0; i < value.size(); ++i)
    table.rows.push_back(read_row(value[i], Index(path, i)));
  return table;
}

template <typename Row>
void AppendRows(Table<Row>& table, const json& value, const std::string& path,
                Row (*read_row)(const json&, const std::string&)) {
  if (!value.is_array())
    Fail(path, "expected an array of rows to append, found " + Describe(value));
  if (table.kind == TableKind::kNoTable) {
    Fail(path, "cannot append rows to a base table that is \"no_table\"");
  }
  table.kind = TableKind::kTable;
  for (size_t i = 0; i < value.size(); ++i)
    table.rows.push_back(read_row(value[i], Index(path, i)));
}

// Two matrix rows that accept the same query would make a match ambiguous.
void CheckMatrixRowsDisjoint(const Table<MatrixMadRow>& table) {
  for (size_t i = 0; i < table.rows.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      const MatrixMadRow& x = table.rows[i];
      const MatrixMadRow& y = table.rows[j];
      if (x.subgroup_size != y.subgroup_size || x.k != y.k || x.result.type != y.result.type ||
          x.a.type != y.a.type || x.b.type != y.b.type || x.c.type != y.c.type) {
        continue;
      }
      for (uint32_t mask : x.operands) {
        if (std::find(y.operands.begin(), y.operands.end(), mask) != y.operands.end()) {
          Fail(Index("matrix_mad", i), "accepts the same subgroup size, K, types and operands " +
                                           Hex(mask) + " as matrix_mad[" + std::to_string(j) + "]");
        }
      }
    }
  }
}

bool SharesType(const std::vector<ElementType>& x, const std::vector<ElementType>& y) {
  return std::any_of(x.begin(), x.end(),
                     [&](ElementType t) { return std::find(y.begin(), y.end(), t) != y.end(); });
}

// Two cooperative-matrix rows accepting the same combination would make a match ambiguous.
void CheckCooperativeRowsDisjoint(const Table<CooperativeMatrixRow>& table) {
  for (size_t i = 0; i < table.rows.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      const CooperativeMatrixRow& x = table.rows[i];
      const CooperativeMatrixRow& y = table.rows[j];
      if (x.subgroup_size != y.subgroup_size || x.n != y.n || x.k != y.k || !SharesType(x.a, y.a) ||
          !SharesType(x.b, y.b) || !SharesType(x.c, y.c) || !SharesType(x.d, y.d)) {
        continue;
      }
      for (uint32_t m : x.m) {
        if (std::binary_search(y.m.begin(), y.m.end(), m)) {
          Fail(Index("cooperative_matrix", i),
               "accepts a combination (M " + std::to_string(m) + ", N " + std::to_string(x.n) +
                   ", K " + std::to_string(x.k) + ", subgroup size " +
                   std::to_string(x.subgroup_size) + ") that cooperative_matrix[" +
                   std::to_string(j) + "] accepts too");
        }
      }
    }
  }
}

void CheckConsistency(const DeviceProfile& profile) {
  auto check_size = [&](uint32_t size, const std::string& path) {
    if (!profile.SupportsSubgroupSize(size)) {
      Fail(path,
           "subgroup size " + std::to_string(size) + " is not one of the profile's subgroup_sizes");
    }
  };
  for (size_t i = 0; i < profile.matrix_mad.rows.size(); ++i) {
    const MatrixMadRow& row = profile.matrix_mad.rows[i];
    const std::string path = Index("matrix_mad", i);
    check_size(row.subgroup_size, Child(path, "subgroup_size"));
    if (row.paired() && row.subgroup_size % 2 != 0) {
      Fail(Child(path, "subgroup_size"), "the paired (M/2) form needs an even subgroup size");
    }
    if (!row.extension.empty() && !profile.ExposesExtension(row.extension)) {
      Fail(Child(path, "extension"),
           "\"" + row.extension + "\" is not in the profile's extensions");
    }
  }
  CheckMatrixRowsDisjoint(profile.matrix_mad);
  // Limits that keep a hostile profile from costing the lookups (and xmx-query's listing of every
  // combination) unbounded time or memory; the real tables have a few dozen combinations.
  constexpr size_t kMaxCooperativeRows = 1024, kMaxCooperativeCombinations = 65536;
  if (profile.cooperative_matrix.rows.size() > kMaxCooperativeRows) {
    Fail("cooperative_matrix", "more than " + std::to_string(kMaxCooperativeRows) + " rows");
  }
  size_t combinations = 0;
  for (const CooperativeMatrixRow& row : profile.cooperative_matrix.rows) {
    combinations += row.a.size() * row.b.size() * row.c.size() * row.d.size();
  }
  if (combinations > kMaxCooperativeCombinations) {
    Fail("cooperative_matrix",
         "more than " + std::to_string(kMaxCooperativeCombinations) + " combinations");
  }
  for (size_t i = 0; i < profile.cooperative_matrix.rows.size(); ++i) {
    check_size(profile.cooperative_matrix.rows[i].subgroup_size,
               Child(Index("cooperative_matrix", i), "subgroup_size"));
  }
  CheckCooperativeRowsDisjoint(profile.cooperative_matrix);
  for (size_t i = 0; i < profile.block2d.rows.size(); ++i) {
    const Block2dRow& row = profile.block2d.rows[i];
    const auto& sizes = profile.block2d_limits.element_sizes;
    if (std::find(sizes.begin(), sizes.end(), row.element_size) == sizes.end()) {
      Fail(Child(Index("block2d", i), "element_size"),
           std::to_string(row.element_size) + " is not in block2d_limits.element_sizes");
    }
  }
  for (size_t i = 0; i < profile.split_matrix_mad.rows.size(); ++i) {
    const SplitMatrixMadRow& row = profile.split_matrix_mad.rows[i];
    if (row.subgroup_size) {
      check_size(*row.subgroup_size, Child(Index("split_matrix_mad", i), "subgroup_size"));
    }
  }
  for (size_t i = 0; i < profile.subgroup_type_features.size(); ++i) {
    const std::string& feature = profile.subgroup_type_features[i];
    if (std::find(std::begin(kKnownFeatures), std::end(kKnownFeatures), feature) ==
        std::end(kKnownFeatures)) {
      Fail(Index("subgroup_type_features", i),
           "unknown feature \"" + feature + "\"; expected char, short or long");
    }
  }
}

void ReadSubgroupSizes(const json& value, DeviceProfile& profile) {
  profile.subgroup_sizes.clear();
  profile.any_power_of_two_subgroup_size = false;
  if (value == "any_power_of_two") {
    profile.any_power_of_two_subgroup_size = true;
    return;
  }
  profile.subgroup_sizes = ReadPositiveList(value, "subgroup_sizes");
  for (size_t i = 0; i < profile.subgroup_sizes.size(); ++i) {
    if (!std::has_single_bit(profile.subgroup_sizes[i])) {
      Fail(Index("subgroup_sizes", i), "a subgroup size must be a power of two");
    }
  }
}

void ReadExtensions(const json& value, const std::string& key, bool append,
                    DeviceProfile& profile) {
  if (!append) {
    profile.extensions.clear();
    profile.any_extension = false;
    if (value == "any") {
      profile.any_extension = true;
      return;
    }
  }
  if (!value.is_array())
    Fail(key, "expected an array of extensions or \"any\", found " + Describe(value));
  for (size_t i = 0; i < value.size(); ++i) {
    profile.extensions.push_back(ReadExtension(value[i], Index(key, i)));
  }
}

// Throws ProfileError (and nlohmann's exceptions, for a value of the wrong JSON type).
DeviceProfile ReadProfileOrThrow(const json& root, const BaseResolver& resolve_base) {
  CheckObject(root, "");
  CheckKeys(root, "",
            {"name",
             "base",
             "description",
             "notes",
             "+notes",
             "subgroup_sizes",
             "extensions",
             "+extensions",
             "subgroup_type_features",
             "+subgroup_type_features",
             "subgroup_ops",
             "+subgroup_ops",
             "matrix_mad",
             "+matrix_mad",
             "block2d",
             "+block2d",
             "block2d_limits",
             "split_matrix_mad",
             "+split_matrix_mad",
             "cooperative_matrix",
             "+cooperative_matrix"});
  DeviceProfile profile;
  const bool has_base = root.contains("base");
  if (has_base) {
    const std::string base = ReadString(root["base"], "base");
    const DeviceProfile* base_profile = resolve_base ? resolve_base(base) : nullptr;
    if (base_profile == nullptr) Fail("base", "unknown or invalid base profile \"" + base + "\"");
    profile = *base_profile;
    profile.notes.clear();  // notes describe the file they are written in
  } else {
    for (std::string_view key :
         {"subgroup_sizes", "extensions", "subgroup_type_features", "subgroup_ops", "matrix_mad",
          "block2d", "block2d_limits", "split_matrix_mad"}) {
      Require(root, key, "");
    }
  }
  profile.name = ReadString(Require(root, "name", ""), "name");
  if (profile.name.empty()) Fail("name", "must not be empty");
  if (auto it = root.find("description"); it != root.end()) {
    profile.description = ReadString(*it, "description");
  }
  for (std::string_view key : {"notes", "+notes"}) {
    if (auto it = root.find(key); it != root.end()) {
      std::vector<std::string> notes = ReadStringList(*it, std::string(key));
      profile.notes.insert(profile.notes.end(), notes.begin(), notes.end());
    }
  }
  if (auto it = root.find("subgroup_sizes"); it != root.end()) ReadSubgroupSizes(*it, profile);
  if (auto it = root.find("extensions"); it != root.end()) {
    ReadExtensions(*it, "extensions", false, profile);
  }
  if (auto it = root.find("+extensions"); it != root.end()) {
    if (profile.any_extension) Fail("+extensions", "the base already allows any extension");
    ReadExtensions(*it, "+extensions", true, profile);
  }
  if (auto it = root.find("subgroup_type_features"); it != root.end()) {
    profile.subgroup_type_features = ReadStringList(*it, "subgroup_type_features");
  }
  if (auto it = root.find("+subgroup_type_features"); it != root.end()) {
    for (std::string& f : ReadStringList(*it, "+subgroup_type_features")) {
      profile.subgroup_type_features.push_back(std::move(f));
    }
  }
  if (auto it = root.find("subgroup_ops"); it != root.end()) {
    profile.subgroup_ops = ReadTable(*it, "subgroup_ops", &ReadSubgroupTypeRow);
  }
  if (auto it = root.find("+subgroup_ops"); it != root.end()) {
    AppendRows(profile.subgroup_ops, *it, "+subgroup_ops", &ReadSubgroupTypeRow);
  }
  if (auto it = root.find("matrix_mad"); it != root.end()) {
    profile.matrix_mad = ReadTable(*it, "matrix_mad", &ReadMatrixMadRow);
  }
  if (auto it = root.find("+matrix_mad"); it != root.end()) {
    AppendRows(profile.matrix_mad, *it, "+matrix_mad", &ReadMatrixMadRow);
  }
  if (auto it = root.find("block2d"); it != root.end()) {
    profile.block2d = ReadTable(*it, "block2d", &ReadBlock2dRow);
  }
  if (auto it = root.find("+block2d"); it != root.end()) {
    AppendRows(profile.block2d, *it, "+block2d", &ReadBlock2dRow);
  }
  if (auto it = root.find("block2d_limits"); it != root.end()) {
    profile.block2d_limits = ReadBlock2dLimits(*it, "block2d_limits");
  }
  if (auto it = root.find("split_matrix_mad"); it != root.end()) {
    profile.split_matrix_mad = ReadTable(*it, "split_matrix_mad", &ReadSplitRow);
  }
  if (auto it = root.find("+split_matrix_mad"); it != root.end()) {
    AppendRows(profile.split_matrix_mad, *it, "+split_matrix_mad", &ReadSplitRow);
  }
  if (auto it = root.find("cooperative_matrix"); it != root.end()) {
    profile.cooperative_matrix = ReadTable(*it, "cooperative_matrix", &ReadCooperativeMatrixRow);
  }
  if (auto it = root.find("+cooperative_matrix"); it != root.end()) {
    AppendRows(profile.cooperative_matrix, *it, "+cooperative_matrix", &ReadCooperativeMatrixRow);
  }
  CheckConsistency(profile);
  return profile;
}

}  // namespace

std::string WithoutExceptionId(const char* what) {
  std::string_view text(what);
  if (!text.empty() && text.front() == '[') {
    if (size_t end = text.find("] "); end != std::string_view::npos) text.remove_prefix(end + 2);
  }
  return std::string(text);
}

Result<DeviceProfile> ReadProfile(const json& root, const BaseResolver& resolve_base,
                                  std::string_view source_name) {
  auto fail = [&](const std::string& what) {
    Diagnostic error;
    error.severity = Severity::kError;
    error.rule = rules::kDeviceProfile;
    error.message = std::string(source_name) + ": " + what;
    return Result<DeviceProfile>::Failure(std::move(error));
  };
  try {
    return ReadProfileOrThrow(root, resolve_base);
  } catch (const ProfileError& error) {
    return fail(error.what());
  } catch (const nlohmann::json::exception& error) {
    return fail(WithoutExceptionId(error.what()));
  }
}

}  // namespace xmx::device::internal
