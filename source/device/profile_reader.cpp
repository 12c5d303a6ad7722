// Reads a device profile (schema: grammar/devices/schema.md). Every accessor takes the JSON path
// of the value it reads, so the first error names it: "matrix_mad[3].k: ...".
#include "device/profile_reader.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <initializer_list>
#include <limits>

#include "device/match_support.hpp"

namespace xmx::device::internal {
namespace {

using nlohmann::json;

std::string Child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string Index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

[[noreturn]] void Fail(const std::string& path, const std::string& what) {
  throw ProfileError(path, what);
}

std::string Describe(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

void CheckObject(const json& value, const std::string& path) {
  if (!value.is_object()) Fail(path, "expected an object, found " + Describe(value));
}

constexpr std::string_view kProvenanceKeys[] = {"confidence", "source", "note"};

// Unknown keys are errors, so that a misspelt key in a user profile is not silently ignored.
// Rows (`with_provenance`) may also carry "confidence", "source" and "note".
void CheckKeys(const json& object, const std::string& path,
               std::initializer_list<std::string_view> allowed, bool with_provenance = false) {
  for (const auto& [key, value] : object.items()) {
    const bool known =
        std::find(allowed.begin(), allowed.end(), key) != allowed.end() ||
        (with_provenance && std::find(std::begin(kProvenanceKeys), std::end(kProvenanceKeys),
                                      key) != std::end(kProvenanceKeys));
    if (!known) Fail(Child(path, key), "unknown key");
  }
}

const json& Require(const json& object, std::string_view key, const std::string& path) {
  auto it = object.find(key);
  if (it == object.end()) Fail(Child(path, key), "missing");
  return *it;
}

std::string ReadString(const json& value, const std::string& path) {
  if (!value.is_string()) Fail(path, "expected a string, found " + Describe(value));
  return value.get<std::string>();
}

// A non-negative integer: a JSON number, or a string "0x..." (operand masks read better in hex).
uint64_t ReadUnsigned(const json& value, const std::string& path, uint64_t max) {
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

uint32_t ReadPositive(const json& value, const std::string& path) {
  uint32_t result =
      static_cast<uint32_t>(ReadUnsigned(value, path, std::numeric_limits<uint32_t>::max()));
  if (result == 0) Fail(path, "must be positive");
  return result;
}

std::vector<uint32_t> ReadPositiveList(const json& value, const std::string& path) {
  if (!value.is_array() || value.empty()) {
    Fail(path, "expected a non-empty array of positive integers, found " + Describe(value));
  }
  std::vector<uint32_t> result;
  for (size_t i = 0; i < value.size(); ++i)
    result.push_back(ReadPositive(value[i], Index(path, i)));
  return result;
}

std::vector<std::string> ReadStringList(const json& value, const std::string& path) {
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

constexpr std::pair<std::string_view, Confidence> kConfidences[] = {
    {"spec", Confidence::kSpec},
    {"draft", Confidence::kDraft},
    {"implementation", Confidence::kImplementation},
    {"convention", Confidence::kConvention},
};

constexpr std::pair<std::string_view, Block2dOp> kBlock2dOps[] = {
    {"load", Block2dOp::kLoad},
    {"load_transform", Block2dOp::kLoadTransform},
    {"load_transpose", Block2dOp::kLoadTranspose},
    {"prefetch", Block2dOp::kPrefetch},
    {"store", Block2dOp::kStore},
};

constexpr std::pair<std::string_view, SubgroupOp> kSubgroupOps[] = {
    {"shuffle", SubgroupOp::kShuffle},
    {"block_io", SubgroupOp::kBlockIo},
    {"image_block_io", SubgroupOp::kImageBlockIo},
    {"group_broadcast", SubgroupOp::kGroupBroadcast},
    {"group_iadd", SubgroupOp::kGroupIAdd},
    {"group_min_max", SubgroupOp::kGroupMinMax},
};

constexpr std::pair<std::string_view, ScalarKind> kScalarKinds[] = {
    {"int", ScalarKind::kInt},
    {"float", ScalarKind::kFloat},
};

constexpr std::pair<std::string_view, GroupOperation> kGroupOperations[] = {
    {"Reduce", GroupOperation::kReduce},
    {"InclusiveScan", GroupOperation::kInclusiveScan},
    {"ExclusiveScan", GroupOperation::kExclusiveScan},
};

constexpr std::string_view kKnownFeatures[] = {"char", "short", "long"};

Provenance ReadProvenance(const json& object, const std::string& path) {
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

// "i16 x M", "f32 x ceil(M/2)", "i32 x 8".
ComponentSpec ReadComponent(const json& value, const std::string& path) {
  const std::string text = ReadString(value, path);
  const size_t x = text.find(" x ");
  auto bad = [&](const std::string& why) {
    Fail(path, "\"" + text + "\": " + why +
                   " (expected \"TYPE x COUNT\", COUNT one of M, M/2, ceil(M/2) or a number)");
  };
  if (x == std::string::npos) bad("no \" x \"");
  ComponentSpec spec;
  std::optional<ElementType> type = ParseElementType(std::string_view(text).substr(0, x));
  if (!type) bad("unknown element type");
  if (!IsSpirvScalarType(*type)) bad("the component type must be a SPIR-V scalar type");
  spec.type = *type;
  const std::string count = text.substr(x + 3);
  if (count == "M") {
    spec.rule = CountRule::kM;
  } else if (count == "M/2") {
    spec.rule = CountRule::kHalfM;
  } else if (count == "ceil(M/2)") {
    spec.rule = CountRule::kCeilHalfM;
  } else {
    spec.rule = CountRule::kFixed;
    auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), spec.fixed);
    if (ec != std::errc() || end != count.data() + count.size() || spec.fixed == 0) {
      bad("bad component count");
    }
  }
  return spec;
}

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
      Fail(path, "expected an array of rows, \"no_table\" or \"none\", found " + Describe(value));
    }
    return table;
  }
  if (!value.is_array()) {
    Fail(path, "expected an array of rows, \"no_table\" or \"none\", found " + Describe(value));
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

void CheckMValues(const std::vector<uint32_t>& m, const ComponentSpec& result,
                  const std::string& path) {
  for (size_t i = 0; i < m.size(); ++i) {
    if (result.rule == CountRule::kHalfM && m[i] % 2 != 0) {
      Fail(Index(path, i), "M must be even when the Result has M/2 components");
    }
  }
}

MatrixMadRow ReadMatrixMadRow(const json& object, const std::string& path) {
  CheckObject(object, path);
  CheckKeys(object, path,
            {"subgroup_size", "k", "m", "result", "a", "b", "c", "operands", "extension"}, true);
  MatrixMadRow row;
  row.subgroup_size =
      ReadPositive(Require(object, "subgroup_size", path), Child(path, "subgroup_size"));
  row.k = ReadPositive(Require(object, "k", path), Child(path, "k"));
  row.m = ReadPositiveList(Require(object, "m", path), Child(path, "m"));
  row.result = ReadComponent(Require(object, "result", path), Child(path, "result"));
  row.a = ReadComponent(Require(object, "a", path), Child(path, "a"));
  row.b = ReadComponent(Require(object, "b", path), Child(path, "b"));
  row.c = ReadComponent(Require(object, "c", path), Child(path, "c"));
  if (row.result.rule == CountRule::kFixed || row.result.rule == CountRule::kCeilHalfM) {
    Fail(Child(path, "result"), "the Result count must be M or M/2 (it defines M)");
  }
  if (row.c.rule != row.result.rule) {
    Fail(Child(path, "c"), "C must have as many components as the Result");
  }
  CheckMValues(row.m, row.result, Child(path, "m"));
  const json& operands = Require(object, "operands", path);
  if (!operands.is_array() || operands.empty()) {
    Fail(Child(path, "operands"),
         "expected a non-empty array of masks, found " + Describe(operands));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    row.operands.push_back(static_cast<uint32_t>(ReadUnsigned(
        operands[i], Index(Child(path, "operands"), i), std::numeric_limits<uint32_t>::max())));
  }
  if (auto it = object.find("extension"); it != object.end()) {
    row.extension = ReadString(*it, Child(path, "extension"));
  }
  row.provenance = ReadProvenance(object, path);
  return row;
}

Block2dRow ReadBlock2dRow(const json& object, const std::string& path) {
  CheckObject(object, path);
  CheckKeys(object, path, {"op", "element_size", "width", "height", "count"}, true);
  Block2dRow row;
  row.op = ReadChoice(Require(object, "op", path), Child(path, "op"), kBlock2dOps);
  row.element_size =
      ReadPositive(Require(object, "element_size", path), Child(path, "element_size"));
  row.width = ReadPositiveList(Require(object, "width", path), Child(path, "width"));
  row.height = ReadPositiveList(Require(object, "height", path), Child(path, "height"));
  row.count = ReadPositiveList(Require(object, "count", path), Child(path, "count"));
  row.provenance = ReadProvenance(object, path);
  return row;
}

SubgroupTypeRow ReadSubgroupTypeRow(const json& object, const std::string& path) {
  CheckObject(object, path);
  CheckKeys(object, path,
            {"ops", "kinds", "bits", "vector_sizes", "feature", "capability", "scope",
             "group_operations"},
            true);
  SubgroupTypeRow row;
  row.ops = ReadChoiceList(Require(object, "ops", path), Child(path, "ops"), kSubgroupOps);
  row.kinds = ReadChoiceList(Require(object, "kinds", path), Child(path, "kinds"), kScalarKinds);
  row.bits = ReadPositiveList(Require(object, "bits", path), Child(path, "bits"));
  row.vector_sizes =
      ReadPositiveList(Require(object, "vector_sizes", path), Child(path, "vector_sizes"));
  if (auto it = object.find("feature"); it != object.end()) {
    row.feature = ReadString(*it, Child(path, "feature"));
    if (std::find(std::begin(kKnownFeatures), std::end(kKnownFeatures), row.feature) ==
        std::end(kKnownFeatures)) {
      Fail(Child(path, "feature"),
           "unknown feature \"" + row.feature + "\"; expected char, short or long");
    }
  }
  if (auto it = object.find("capability"); it != object.end()) {
    row.capability = ReadString(*it, Child(path, "capability"));
  }
  if (auto it = object.find("scope"); it != object.end()) {
    row.scope = ReadString(*it, Child(path, "scope"));
  }
  if (auto it = object.find("group_operations"); it != object.end()) {
    row.group_operations = ReadChoiceList(*it, Child(path, "group_operations"), kGroupOperations);
  }
  row.provenance = ReadProvenance(object, path);
  return row;
}

SplitMatrixMadRow ReadSplitRow(const json& object, const std::string& path) {
  CheckObject(object, path);
  CheckKeys(object, path, {"function", "subgroup_size", "k", "m", "result", "a", "b", "c"}, true);
  SplitMatrixMadRow row;
  row.function = ReadString(Require(object, "function", path), Child(path, "function"));
  if (auto it = object.find("subgroup_size"); it != object.end()) {
    row.subgroup_size = ReadPositive(*it, Child(path, "subgroup_size"));
  }
  row.k = ReadPositive(Require(object, "k", path), Child(path, "k"));
  row.m = ReadPositiveList(Require(object, "m", path), Child(path, "m"));
  row.result = ReadComponent(Require(object, "result", path), Child(path, "result"));
  row.a = ReadComponent(Require(object, "a", path), Child(path, "a"));
  row.b = ReadComponent(Require(object, "b", path), Child(path, "b"));
  row.c = ReadComponent(Require(object, "c", path), Child(path, "c"));
  if (row.result.rule != CountRule::kM) Fail(Child(path, "result"), "the Result count must be M");
  row.provenance = ReadProvenance(object, path);
  return row;
}

// One SYCL type spelling ("bf16") or an array of them (["u8", "s8"]).
std::vector<ElementType> ReadSyclTypes(const json& value, const std::string& path) {
  auto read_one = [](const json& v, const std::string& p) {
    const std::string text = ReadString(v, p);
    std::optional<ElementType> type = ParseSyclType(text);
    if (!type || SyclTypeName(*type) != text) {
      Fail(p, "unknown element type \"" + text +
                  "\"; expected a SYCL spelling: s4, u4, s8, u8, s16, s32, s64, fp16, bf16, tf32, "
                  "fp32, fp64, f8e4m3, f8e5m2, f4e2m1");
    }
    return *type;
  };
  std::vector<ElementType> types;
  if (value.is_array()) {
    if (value.empty()) Fail(path, "expected a type or a non-empty array of types");
    for (size_t i = 0; i < value.size(); ++i) {
      ElementType t = read_one(value[i], Index(path, i));
      if (std::find(types.begin(), types.end(), t) != types.end()) {
        Fail(Index(path, i), "type listed twice");
      }
      types.push_back(t);
    }
  } else {
    types.push_back(read_one(value, path));
  }
  return types;
}

// An M list, or {"min": A, "max": B} for every M from A to B (SYCL's max_msize: 1..8).
constexpr uint32_t kMaxCooperativeM = 256;

void ReadCooperativeM(const json& value, const std::string& path, CooperativeMatrixRow& row) {
  if (value.is_object()) {
    CheckKeys(value, path, {"min", "max"});
    uint32_t min = 1;
    if (auto it = value.find("min"); it != value.end()) min = ReadPositive(*it, Child(path, "min"));
    const uint32_t max = ReadPositive(Require(value, "max", path), Child(path, "max"));
    if (min > max) Fail(path, "min is greater than max");
    if (max > kMaxCooperativeM) {
      Fail(Child(path, "max"), "M above " + std::to_string(kMaxCooperativeM) + " is not a tile");
    }
    for (uint32_t m = min; m <= max; ++m) row.m.push_back(m);
    row.m_is_range = true;
    return;
  }
  row.m = ReadPositiveList(value, path);
  for (size_t i = 0; i < row.m.size(); ++i) {
    if (row.m[i] > kMaxCooperativeM) {
      Fail(Index(path, i), "M above " + std::to_string(kMaxCooperativeM) + " is not a tile");
    }
  }
  std::sort(row.m.begin(), row.m.end());
  if (std::adjacent_find(row.m.begin(), row.m.end()) != row.m.end()) {
    Fail(path, "an M value is listed twice");
  }
}

CooperativeMatrixRow ReadCooperativeMatrixRow(const json& object, const std::string& path) {
  CheckObject(object, path);
  CheckKeys(object, path, {"a", "b", "c", "d", "m", "n", "k", "subgroup_size"}, true);
  CooperativeMatrixRow row;
  row.a = ReadSyclTypes(Require(object, "a", path), Child(path, "a"));
  row.b = ReadSyclTypes(Require(object, "b", path), Child(path, "b"));
  row.c = ReadSyclTypes(Require(object, "c", path), Child(path, "c"));
  row.d = ReadSyclTypes(Require(object, "d", path), Child(path, "d"));
  ReadCooperativeM(Require(object, "m", path), Child(path, "m"), row);
  row.n = ReadPositive(Require(object, "n", path), Child(path, "n"));
  row.k = ReadPositive(Require(object, "k", path), Child(path, "k"));
  row.subgroup_size =
      ReadPositive(Require(object, "subgroup_size", path), Child(path, "subgroup_size"));
  row.provenance = ReadProvenance(object, path);
  return row;
}

ExtensionEntry ReadExtension(const json& value, const std::string& path) {
  ExtensionEntry entry;
  if (value.is_string()) {
    entry.name = value.get<std::string>();
    return entry;
  }
  CheckObject(value, path);
  CheckKeys(value, path, {"name"}, true);
  entry.name = ReadString(Require(value, "name", path), Child(path, "name"));
  entry.provenance = ReadProvenance(value, path);
  return entry;
}

PerElementSize ReadPerElementSize(const json& value, const std::string& path) {
  CheckObject(value, path);
  PerElementSize result;
  for (const auto& [key, v] : value.items()) {
    uint32_t size = 0;
    auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), size);
    if (ec != std::errc() || end != key.data() + key.size() || size == 0) {
      Fail(Child(path, key), "keys must be element sizes in bytes");
    }
    result.values.emplace_back(size, ReadPositive(v, Child(path, key)));
  }
  return result;
}

Range ReadRange(const json& value, const std::string& path) {
  CheckObject(value, path);
  CheckKeys(value, path, {"min", "max"});
  Range range;
  range.min = ReadUnsigned(Require(value, "min", path), Child(path, "min"), UINT64_MAX);
  range.max = ReadUnsigned(Require(value, "max", path), Child(path, "max"), UINT64_MAX);
  if (range.min > range.max) Fail(path, "min is greater than max");
  return range;
}

Block2dLimits ReadBlock2dLimits(const json& value, const std::string& path) {
  CheckObject(value, path);
  CheckKeys(value, path,
            {"element_sizes", "block_width_multiple", "coordinate_x_multiple", "base_alignment",
             "memory_width", "memory_width_multiple", "memory_height", "pitch_multiple",
             "operand_bits", "subgroup_sizes"},
            true);
  Block2dLimits limits;
  limits.element_sizes =
      ReadPositiveList(Require(value, "element_sizes", path), Child(path, "element_sizes"));
  limits.block_width_multiple = ReadPerElementSize(Require(value, "block_width_multiple", path),
                                                   Child(path, "block_width_multiple"));
  limits.coordinate_x_multiple = ReadPerElementSize(Require(value, "coordinate_x_multiple", path),
                                                    Child(path, "coordinate_x_multiple"));
  limits.base_alignment =
      ReadPositive(Require(value, "base_alignment", path), Child(path, "base_alignment"));
  limits.memory_width =
      ReadRange(Require(value, "memory_width", path), Child(path, "memory_width"));
  limits.memory_width_multiple = ReadPerElementSize(Require(value, "memory_width_multiple", path),
                                                    Child(path, "memory_width_multiple"));
  limits.memory_height =
      ReadRange(Require(value, "memory_height", path), Child(path, "memory_height"));
  limits.pitch_multiple =
      ReadPositive(Require(value, "pitch_multiple", path), Child(path, "pitch_multiple"));
  if (auto it = value.find("operand_bits"); it != value.end()) {
    limits.operand_bits = ReadPositive(*it, Child(path, "operand_bits"));
  }
  if (auto it = value.find("subgroup_sizes"); it != value.end()) {
    const std::string sizes_path = Child(path, "subgroup_sizes");
    if (!it->is_array() || it->empty()) Fail(sizes_path, "expected a non-empty array of rows");
    for (size_t i = 0; i < it->size(); ++i) {
      const std::string row_path = Index(sizes_path, i);
      CheckObject((*it)[i], row_path);
      CheckKeys((*it)[i], row_path, {"sizes"}, true);
      limits.subgroup_sizes.push_back(
          {ReadPositiveList(Require((*it)[i], "sizes", row_path), Child(row_path, "sizes")),
           ReadProvenance((*it)[i], row_path)});
    }
  }
  limits.provenance = ReadProvenance(value, path);
  return limits;
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

}  // namespace

DeviceProfile ReadProfile(const json& root, const BaseResolver& resolve_base) {
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

}  // namespace xmx::device::internal
