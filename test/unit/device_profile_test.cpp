// Loading device profiles: every built-in profile parses, inheritance ("base", "+key") works, and
// a malformed user profile is reported in one line with the file and the JSON path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "xmx/device.hpp"

namespace xmx::device {
namespace {

TEST(DeviceProfileTest, EveryBuiltinProfileLoads) {
  const std::vector<std::string_view> names = BuiltinProfileNames();
  for (std::string_view expected :
       {"spec", "opencl", "dg2", "arl-h", "pvc", "bmg", "lnl", "ptl", "xe3p"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  for (std::string_view name : names) {
    Diagnostic diagnostic;
    std::optional<DeviceProfile> profile = LoadBuiltinProfile(name, &diagnostic);
    ASSERT_TRUE(profile.has_value()) << diagnostic.Format();
    EXPECT_EQ(profile->name, name);
    EXPECT_FALSE(profile->description.empty()) << name;
    const DeviceProfile* cached = FindBuiltinProfile(name);
    ASSERT_NE(cached, nullptr) << name;
    EXPECT_EQ(cached->name, name);
  }
  EXPECT_EQ(FindBuiltinProfile("no-such-device"), nullptr);
  EXPECT_NE(FindBuiltinProfile(kDefaultProfileName), nullptr);
}

TEST(DeviceProfileTest, SubgroupSizesAndTablesFollowDevicesTable) {
  const DeviceProfile& spec = *FindBuiltinProfile("spec");
  EXPECT_TRUE(spec.SupportsSubgroupSize(64));
  EXPECT_FALSE(spec.SupportsSubgroupSize(12));
  EXPECT_EQ(spec.matrix_mad.kind, TableKind::kNoTable);
  EXPECT_EQ(spec.block2d.kind, TableKind::kNoTable);
  EXPECT_EQ(spec.subgroup_ops.kind, TableKind::kNoTable);
  EXPECT_TRUE(spec.ExposesExtension("SPV_INTEL_anything"));

  const DeviceProfile& opencl = *FindBuiltinProfile("opencl");
  EXPECT_EQ(opencl.subgroup_sizes, (std::vector<uint32_t>{8, 16, 32}));
  EXPECT_EQ(opencl.split_matrix_mad.kind, TableKind::kTable);

  for (const char* name : {"dg2", "arl-h"}) {
    const DeviceProfile& p = *FindBuiltinProfile(name);
    EXPECT_EQ(p.subgroup_sizes, (std::vector<uint32_t>{8, 16, 32})) << name;
    EXPECT_EQ(p.block2d.kind, TableKind::kNone) << name;
    EXPECT_FALSE(p.ExposesExtension("SPV_INTEL_2d_block_io")) << name;
    EXPECT_EQ(p.split_matrix_mad.kind, TableKind::kTable) << name;
  }
  // arl-h exposes the matrix extension only by convention (SPEC-NOTES B.8 conflict).
  const ExtensionEntry* mma =
      FindBuiltinProfile("arl-h")->FindExtension("SPV_INTEL_subgroup_matrix_multiply_accumulate");
  ASSERT_NE(mma, nullptr);
  EXPECT_EQ(mma->provenance.confidence, Confidence::kConvention);

  for (const char* name : {"pvc", "bmg", "lnl", "ptl", "xe3p"}) {
    const DeviceProfile& p = *FindBuiltinProfile(name);
    EXPECT_EQ(p.subgroup_sizes, (std::vector<uint32_t>{16, 32})) << name;
    EXPECT_EQ(p.split_matrix_mad.kind, TableKind::kNone) << name;
    EXPECT_TRUE(p.ExposesExtension("SPV_INTEL_2d_block_io")) << name;
    EXPECT_EQ(p.HasFeature("char"), true) << name;
  }
  EXPECT_TRUE(FindBuiltinProfile("xe3p")->ExposesExtension(
      "SPV_INTEL_subgroup_matrix_multiply_accumulate_float8"));
  EXPECT_FALSE(FindBuiltinProfile("pvc")->ExposesExtension(
      "SPV_INTEL_subgroup_matrix_multiply_accumulate_float8"));
  EXPECT_EQ(FindBuiltinProfile("xe3p")->matrix_mad.rows.size(),
            FindBuiltinProfile("pvc")->matrix_mad.rows.size() + 8);
}

TEST(DeviceProfileTest, Block2dLimitsComeFromA3) {
  for (const char* name : {"spec", "opencl", "pvc"}) {
    const Block2dLimits& limits = FindBuiltinProfile(name)->block2d_limits;
    EXPECT_EQ(limits.base_alignment, 64u) << name;
    EXPECT_EQ(limits.memory_width.min, 64u);
    EXPECT_EQ(limits.memory_width.max, 1u << 24);
    EXPECT_EQ(limits.memory_height.min, 1u);
    EXPECT_EQ(limits.memory_height.max, 1u << 24);
    EXPECT_EQ(limits.pitch_multiple, 16u);
    EXPECT_EQ(limits.block_width_multiple.Get(1), 4u);
    EXPECT_EQ(limits.block_width_multiple.Get(2), 2u);
    EXPECT_EQ(limits.block_width_multiple.Get(4), 1u);
    EXPECT_EQ(limits.coordinate_x_multiple.Get(1), 4u);
    EXPECT_EQ(limits.memory_width_multiple.Get(2), 4u);
    EXPECT_EQ(limits.memory_width_multiple.Get(8), 8u);
  }
  EXPECT_EQ(FindBuiltinProfile("opencl")->block2d_limits.operand_bits, 32u);
  EXPECT_EQ(FindBuiltinProfile("spec")->block2d_limits.operand_bits, 0u);

  std::vector<uint32_t> supported;
  const DeviceProfile& pvc = *FindBuiltinProfile("pvc");
  const SubgroupSizeRow* sg16 = MatchBlock2dSubgroupSize(pvc, 16, &supported);
  ASSERT_NE(sg16, nullptr);
  EXPECT_EQ(sg16->provenance.confidence, Confidence::kSpec);
  const SubgroupSizeRow* sg32 = MatchBlock2dSubgroupSize(pvc, 32, &supported);
  ASSERT_NE(sg32, nullptr);
  EXPECT_EQ(sg32->provenance.confidence, Confidence::kConvention);  // G.6
  EXPECT_EQ(MatchBlock2dSubgroupSize(*FindBuiltinProfile("opencl"), 8, &supported), nullptr);
  EXPECT_EQ(supported, (std::vector<uint32_t>{16, 32}));
}

// --- User profiles ------------------------------------------------------------------------------

std::string LoadError(std::string_view text) {
  Diagnostic diagnostic;
  std::optional<DeviceProfile> profile = LoadProfileText(text, "my.json", &diagnostic);
  EXPECT_FALSE(profile.has_value());
  EXPECT_EQ(diagnostic.message.find('\n'), std::string::npos) << diagnostic.message;
  return diagnostic.message;
}

constexpr std::string_view kTwoRows = R"({
  "name": "mine", "base": "pvc",
  "matrix_mad": [
    {"subgroup_size": 16, "k": 32, "m": [1, 2, 4, 8], "result": "i32 x M", "a": "i16 x M",
     "b": "i32 x 8", "c": "i32 x M", "operands": ["0x30"]},
    {"subgroup_size": 16, "k": ROW1K, "m": [1, 2], "result": "f32 x M", "a": "i16 x M",
     "b": "i32 x 8", "c": "f32 x M", "operands": ["0xC00"]}
  ]
})";

std::string WithK(std::string_view k) {
  std::string text(kTwoRows);
  text.replace(text.find("ROW1K"), 5, k);
  return text;
}

TEST(DeviceProfileTest, UserProfileWithBaseReplacesAndAppends) {
  Diagnostic diagnostic;
  std::optional<DeviceProfile> mine = LoadProfileText(WithK("16"), "my.json", &diagnostic);
  ASSERT_TRUE(mine.has_value()) << diagnostic.Format();
  EXPECT_EQ(mine->name, "mine");
  EXPECT_EQ(mine->matrix_mad.rows.size(), 2u);
  EXPECT_EQ(mine->block2d.rows.size(), FindBuiltinProfile("pvc")->block2d.rows.size());

  std::optional<DeviceProfile> more = LoadProfileText(
      R"({"name": "more", "base": "dg2", "+subgroup_type_features": [],
          "subgroup_type_features": ["short"],
          "+block2d": [{"op": "load", "element_size": 8, "width": [4], "height": [1],
                        "count": [1], "confidence": "convention", "note": "testing"}]})",
      "more.json", &diagnostic);
  ASSERT_TRUE(more.has_value()) << diagnostic.Format();
  EXPECT_EQ(more->block2d.kind, TableKind::kTable);
  EXPECT_EQ(more->block2d.rows.size(), 1u);
  EXPECT_FALSE(more->HasFeature("char"));
}

TEST(DeviceProfileTest, MalformedUserProfileNamesFileAndJsonPath) {
  EXPECT_EQ(LoadError(WithK("\"x\"")),
            "my.json: matrix_mad[1].k: expected a non-negative integer or a \"0x...\" string, "
            "found \"x\"");
  EXPECT_EQ(LoadError(WithK("0")), "my.json: matrix_mad[1].k: must be positive");
  EXPECT_EQ(LoadError(WithK("-4")),
            "my.json: matrix_mad[1].k: expected a non-negative integer, found -4");

  EXPECT_NE(LoadError(R"({"name": "x", "base": "pvc", "matrix_mad": [{"subgroup_size": 16}]})")
                .find("my.json: matrix_mad[0].k: missing"),
            std::string::npos);
  EXPECT_EQ(LoadError(R"({"name": "x", "base": "pvc",
                         "block2d": [{"op": "load", "element_size": 2, "width": [16],
                                      "height": [1], "count": [1], "widht": [8]}]})"),
            "my.json: block2d[0].widht: unknown key");
  EXPECT_EQ(LoadError(R"({"name": "x", "base": "pvc",
                         "block2d": [{"op": "read", "element_size": 2, "width": [16],
                                      "height": [1], "count": [1]}]})"),
            "my.json: block2d[0].op: unknown value \"read\"; expected one of: load, "
            "load_transform, load_transpose, prefetch, store");
  EXPECT_EQ(LoadError(R"({"name": "x", "base": "nope"})"),
            "my.json: base: unknown or invalid base profile \"nope\"");
  EXPECT_EQ(LoadError(R"({"name": "x", "base": "pvc", "matrix_mad": [
      {"subgroup_size": 16, "k": 16, "m": [1], "result": "f32 x M", "a": "i16 x M",
       "b": "i32 x 8", "c": "f32 x M", "operands": [3072], "confidence": "convention"}]})"),
            "my.json: matrix_mad[0].note: a \"convention\" entry must say which reading it "
            "adopts");
  EXPECT_EQ(LoadError(R"({"name": "x", "base": "pvc", "matrix_mad": [
      {"subgroup_size": 16, "k": 16, "m": [1], "result": "f32 x M", "a": "bf16 x M",
       "b": "i32 x 8", "c": "f32 x M", "operands": ["0xC00"]}]})"),
            "my.json: matrix_mad[0].a: \"bf16 x M\": the component type must be a SPIR-V "
            "scalar type (expected \"TYPE x COUNT\", COUNT one of M, M/2, ceil(M/2) or a "
            "number)");
  EXPECT_EQ(LoadError(R"({"name": "x", "base": "pvc", "matrix_mad": [
      {"subgroup_size": 8, "k": 16, "m": [1], "result": "f32 x M", "a": "i16 x M",
       "b": "i32 x 8", "c": "f32 x M", "operands": ["0xC00"]}]})"),
            "my.json: matrix_mad[0].subgroup_size: subgroup size 8 is not one of the profile's "
            "subgroup_sizes");
  EXPECT_EQ(LoadError(R"({"name": "x", "base": "pvc", "+matrix_mad": [
      {"subgroup_size": 16, "k": 16, "m": [1], "result": "f32 x M", "a": "i16 x M",
       "b": "i32 x 8", "c": "f32 x M", "operands": ["0x3000"]}]})"),
            "my.json: matrix_mad[11]: accepts the same subgroup size, K, types and operands "
            "0x3000 as matrix_mad[2]");
  EXPECT_EQ(LoadError(R"({"name": "x", "subgroup_sizes": [16]})"), "my.json: extensions: missing");
  EXPECT_EQ(LoadError(R"({"name": "x", "base": "pvc", "subgroup_sizes": [12]})"),
            "my.json: subgroup_sizes[0]: a subgroup size must be a power of two");

  const std::string syntax = LoadError("{\"name\": \"x\",\n  \"base\": }");
  EXPECT_EQ(syntax.rfind("my.json: invalid JSON: parse error at line 2, column", 0), 0u) << syntax;
}

TEST(DeviceProfileTest, LoadsProfileFromFile) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "xmx_device_profile_test.json";
  {
    std::ofstream out(path);
    out << R"({"name": "file-profile", "base": "bmg", "description": "from a file"})";
  }
  Diagnostic diagnostic;
  std::optional<DeviceProfile> profile = LoadProfileFile(path, &diagnostic);
  ASSERT_TRUE(profile.has_value()) << diagnostic.Format();
  EXPECT_EQ(profile->description, "from a file");
  std::filesystem::remove(path);

  EXPECT_FALSE(LoadProfileFile(path, &diagnostic).has_value());
  EXPECT_EQ(diagnostic.message, path.string() + ": cannot open the device profile");
  EXPECT_EQ(diagnostic.rule, "device-profile");
}

TEST(DeviceProfile, BrokenTextCarriesTheProfileRule) {
  Diagnostic diagnostic;
  EXPECT_FALSE(LoadProfileText(R"({"name": 3})", "broken.json", &diagnostic).has_value());
  EXPECT_EQ(diagnostic.rule, "device-profile");
  EXPECT_EQ(diagnostic.severity, Severity::kError);
  EXPECT_NE(diagnostic.message.find("broken.json"), std::string::npos) << diagnostic.message;
}

}  // namespace
}  // namespace xmx::device
