// The rows and limits of a device profile (schema: grammar/devices/schema.md): one reader per
// table's row, each checking every field it reads.
#include "device/profile_rows.hpp"

#include <algorithm>
#include <charconv>

#include "device/match_support.hpp"
#include "device/profile_json.hpp"

namespace xmx::device::internal {

namespace {

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

void CheckMValues(const std::vector<uint32_t>& m, const ComponentSpec& result,
                  const std::string& path) {
  for (size_t i = 0; i < m.size(); ++i) {
    if (result.rule == CountRule::kHalfM && m[i] % 2 != 0) {
      Fail(Index(path, i), "M must be even when the Result has M/2 components");
    }
  }
}

}  // namespace

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

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

}  // namespace xmx::device::internal
