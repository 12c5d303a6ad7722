// The cooperative_matrix (joint_matrix) tables and their queries. Expected values are written by
// hand from COOPERATIVE-MATRIX.md A3 (intel/llvm's get_matrix_combinations), not computed from
// the profiles: the SIMD16 list has 4 int8 entries, 24 fp16 (1..8x16x16 and five larger tiles, each
// with 4 C/D pairs), 24 bf16 and 1 tf32; the SIMD8 list 4 int8, fp16, bf16 and bf16 32x32x16.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "xmx/device.hpp"

namespace xmx::device {
namespace {

using E = ElementType;

const MatrixTypes kBf16F32 = {E::kBF16, E::kBF16, E::kF32, E::kF32};
const MatrixTypes kF16Mixed = {E::kF16, E::kF16, E::kF16, E::kF32};

const DeviceProfile& Profile(const char* name) {
  const DeviceProfile* profile = FindBuiltinProfile(name);
  EXPECT_NE(profile, nullptr) << name;
  return *profile;
}

bool Valid(const char* device, const MatrixTypes& types, MatrixShape shape,
           std::optional<uint32_t> sg = {}) {
  return ValidateCooperativeMatrixShape(Profile(device), types, shape, sg).status ==
         MatchStatus::kMatched;
}

TEST(DeviceCoopTest, TablesPerDeviceFollowTheSyclRuntime) {
  for (const char* name : {"pvc", "bmg", "lnl", "ptl", "xe3p"}) {
    EXPECT_EQ(CooperativeMatrixCombinations(Profile(name)).size(), 4u + 24u + 24u + 1u) << name;
  }
  for (const char* name : {"dg2", "arl-h"}) {
    EXPECT_EQ(CooperativeMatrixCombinations(Profile(name)).size(), 4u + 1u + 1u + 1u) << name;
  }
  for (const char* name : {"spec", "opencl"}) {
    EXPECT_EQ(Profile(name).cooperative_matrix.kind, TableKind::kNoTable) << name;
    EXPECT_TRUE(CooperativeMatrixCombinations(Profile(name)).empty());
  }
  for (const CooperativeMatrixCombination& c : CooperativeMatrixCombinations(Profile("pvc"))) {
    EXPECT_EQ(c.subgroup_size, 16u);
    EXPECT_EQ(c.row->provenance.confidence, Confidence::kImplementation);
  }
  for (const CooperativeMatrixCombination& c : CooperativeMatrixCombinations(Profile("dg2"))) {
    EXPECT_EQ(c.subgroup_size, 8u);
  }
  // xe3p is in no SYCL list: the pvc-like rows are a convention with a note.
  for (const CooperativeMatrixCombination& c : CooperativeMatrixCombinations(Profile("xe3p"))) {
    EXPECT_EQ(c.row->provenance.confidence, Confidence::kConvention);
    EXPECT_NE(c.row->provenance.note.find("pvc-like"), std::string::npos);
  }
}

TEST(DeviceCoopTest, ValidationAcceptsWhatJointMatrixSupports) {
  // Shapes the native table rejects (issue 10).
  EXPECT_TRUE(Valid("pvc", kBf16F32, {3, 16, 16}));
  EXPECT_TRUE(Valid("pvc", kBf16F32, {16, 16, 16}));
  EXPECT_TRUE(Valid("pvc", kBf16F32, {32, 64, 16}));
  EXPECT_TRUE(Valid("pvc", kBf16F32, {1, 64, 32}));
  EXPECT_TRUE(Valid("pvc", kBf16F32, {32, 64, 32}, 16));
  EXPECT_TRUE(Valid("pvc", kF16Mixed, {5, 16, 16}));
  EXPECT_TRUE(Valid("pvc", {E::kBF16, E::kBF16, E::kBF16, E::kF32}, {16, 16, 16}));
  EXPECT_TRUE(Valid("pvc", {E::kU8, E::kI8, E::kI32, E::kI32}, {7, 16, 32}));
  EXPECT_TRUE(Valid("pvc", {E::kTF32, E::kTF32, E::kF32, E::kF32}, {8, 16, 8}));
  EXPECT_TRUE(Valid("dg2", kBf16F32, {32, 32, 16}));
  EXPECT_TRUE(Valid("dg2", {E::kF16, E::kF16, E::kF32, E::kF32}, {6, 8, 16}));
  EXPECT_TRUE(Valid("bmg", kF16Mixed, {32, 64, 32}));

  EXPECT_FALSE(Valid("pvc", kBf16F32, {9, 16, 16}));
  EXPECT_FALSE(Valid("pvc", kBf16F32, {32, 32, 16}));  // a SIMD8 tile
  EXPECT_FALSE(Valid("pvc", kBf16F32, {8, 16, 16}, 32));
  EXPECT_FALSE(Valid("pvc", {E::kI4, E::kI4, E::kI32, E::kI32}, {8, 16, 64}));  // no int4
  EXPECT_FALSE(Valid("pvc", {E::kI8, E::kI8, E::kI32, E::kI32}, {16, 16, 32}));
  EXPECT_FALSE(Valid("pvc", {E::kTF32, E::kTF32, E::kF32, E::kF32}, {16, 16, 8}));
  EXPECT_FALSE(Valid("dg2", kBf16F32, {16, 16, 16}));
  EXPECT_FALSE(Valid("dg2", kBf16F32, {8, 16, 16}));
  EXPECT_FALSE(Valid("dg2", kF16Mixed, {8, 8, 16}));  // fp16 C only on SIMD16
  EXPECT_FALSE(Valid("dg2", {E::kTF32, E::kTF32, E::kF32, E::kF32}, {8, 8, 8}));
  EXPECT_FALSE(Valid("dg2", {E::kF16, E::kF16, E::kF32, E::kF32}, {32, 32, 16}));
}

TEST(DeviceCoopTest, NoTableAndNoneAnswerDifferently) {
  EXPECT_EQ(ValidateCooperativeMatrixShape(Profile("opencl"), kBf16F32, {24, 16, 16}).status,
            MatchStatus::kNoTable);
  Diagnostic diagnostic;
  std::optional<DeviceProfile> none = LoadProfileText(
      R"({"name": "x", "base": "pvc", "cooperative_matrix": "none"})", "x.json", &diagnostic);
  ASSERT_TRUE(none) << diagnostic.message;
  const CooperativeMatrixShapeCheck check =
      ValidateCooperativeMatrixShape(*none, kBf16F32, {8, 16, 16});
  EXPECT_EQ(check.status, MatchStatus::kNotSupported);
  EXPECT_EQ(check.message, "device x has no cooperative matrix (joint_matrix) support");
}

TEST(DeviceCoopTest, DefaultIsTheLargestTile) {
  EXPECT_EQ(DefaultCooperativeMatrixShape(Profile("pvc"), kBf16F32), (MatrixShape{32, 64, 32}));
  EXPECT_EQ(DefaultCooperativeMatrixShape(Profile("pvc"), {E::kI8, E::kU8, E::kI32, E::kI32}),
            (MatrixShape{8, 16, 32}));
  EXPECT_EQ(DefaultCooperativeMatrixShape(Profile("pvc"), {E::kTF32, E::kTF32, E::kF32, E::kF32}),
            (MatrixShape{8, 16, 8}));
  EXPECT_EQ(DefaultCooperativeMatrixShape(Profile("dg2"), kBf16F32), (MatrixShape{32, 32, 16}));
  EXPECT_EQ(DefaultCooperativeMatrixShape(Profile("dg2"), {E::kF16, E::kF16, E::kF32, E::kF32}),
            (MatrixShape{8, 8, 16}));
  EXPECT_FALSE(DefaultCooperativeMatrixShape(Profile("dg2"), kF16Mixed));
  EXPECT_FALSE(DefaultCooperativeMatrixShape(Profile("pvc"), kBf16F32, 32u));
}

TEST(DeviceCoopTest, MismatchNamesTheFieldAndWhatIsSupported) {
  const DeviceProfile& pvc = Profile("pvc");
  CooperativeMatrixMatch match =
      MatchCooperativeMatrix(pvc, {{E::kF32, E::kF32, E::kF32, E::kF32}, {8, 16, 8}, 16});
  EXPECT_EQ(match.status, MatchStatus::kMismatch);
  EXPECT_EQ(match.Message(pvc),
            "Matrix A type fp32 is not supported by OpCooperativeMatrixMulAddKHR on device pvc; "
            "supported: u8, s8, fp16, bf16, tf32");
  match = MatchCooperativeMatrix(pvc, {{E::kBF16, E::kBF16, E::kF16, E::kF32}, {8, 16, 16}, 16});
  EXPECT_EQ(match.mismatch.field, "Matrix C type");
  EXPECT_EQ(match.mismatch.supported, (std::vector<std::string>{"bf16", "fp32"}));
  match = MatchCooperativeMatrix(pvc, {kBf16F32, {24, 16, 16}, 16});
  EXPECT_EQ(match.Message(pvc),
            "Shape (M x N x K) 24x16x16 is not supported for A bf16, B bf16, C fp32, D fp32 by "
            "OpCooperativeMatrixMulAddKHR on device pvc; supported: 1..8x16x16, 16x16x16, "
            "1x64x16, 32x64x16, 1x64x32, 32x64x32");
  match = MatchCooperativeMatrix(pvc, {kBf16F32, {8, 16, 16}, 32});
  EXPECT_EQ(match.mismatch.field, "Subgroup size");
  EXPECT_EQ(match.mismatch.supported, (std::vector<std::string>{"16"}));
  match = MatchCooperativeMatrix(pvc, {kBf16F32, {8, 16, 16}, 0});  // any subgroup size
  EXPECT_EQ(match.status, MatchStatus::kMatched);
}

TEST(DeviceCoopTest, NearestShapesForAnInvalidOne) {
  const CooperativeMatrixShapeCheck check =
      ValidateCooperativeMatrixShape(Profile("pvc"), kBf16F32, {24, 16, 16});
  EXPECT_EQ(check.status, MatchStatus::kMismatch);
  ASSERT_FALSE(check.nearest.empty());
  EXPECT_EQ(check.nearest.front(), (MatrixShape{16, 16, 16}));
  const CooperativeMatrixShapeCheck dg2 =
      ValidateCooperativeMatrixShape(Profile("dg2"), kBf16F32, {32, 16, 16});
  ASSERT_FALSE(dg2.nearest.empty());
  EXPECT_EQ(dg2.nearest.front(), (MatrixShape{32, 32, 16}));
}

TEST(DeviceCoopTest, MatrixUsesThatFitNoRow) {
  const DeviceProfile& pvc = Profile("pvc");
  std::vector<std::string> supported;
  EXPECT_TRUE(CooperativeMatrixUseFits(pvc, MatrixUse::kA, {E::kBF16}, 8, 16, &supported));
  EXPECT_TRUE(CooperativeMatrixUseFits(pvc, MatrixUse::kB, {E::kBF16}, 16, 64, &supported));
  EXPECT_TRUE(CooperativeMatrixUseFits(pvc, MatrixUse::kAccumulator, {E::kF32}, 32, 64, nullptr));
  EXPECT_FALSE(CooperativeMatrixUseFits(pvc, MatrixUse::kA, {E::kBF16}, 8, 32, &supported));
  EXPECT_EQ(supported,
            (std::vector<std::string>{"1..8x16", "16x16", "1x16", "32x16", "1x32", "32x32"}));
  EXPECT_FALSE(CooperativeMatrixUseFits(pvc, MatrixUse::kA, {E::kI4, E::kU4}, 8, 64, &supported));
  EXPECT_TRUE(supported.empty());
  EXPECT_FALSE(CooperativeMatrixUseFits(Profile("dg2"), MatrixUse::kB, {E::kI8, E::kU8}, 32, 16,
                                        &supported));
  EXPECT_EQ(supported, (std::vector<std::string>{"32x8"}));
}

TEST(DeviceCoopTest, SyclSpellings) {
  EXPECT_EQ(SyclTypeName(E::kI8), "s8");
  EXPECT_EQ(SyclTypeName(E::kF32), "fp32");
  EXPECT_EQ(ParseSyclType("tf32"), E::kTF32);
  EXPECT_EQ(ParseSyclType("u8"), E::kU8);
  EXPECT_EQ(ParseSyclType("f16"), E::kF16);  // our own names are accepted too
  EXPECT_FALSE(ParseSyclType("u32"));
}

std::string LoadError(const std::string& text) {
  Diagnostic diagnostic;
  std::optional<DeviceProfile> profile = LoadProfileText(text, "user.json", &diagnostic);
  EXPECT_FALSE(profile) << text;
  return diagnostic.message;
}

TEST(DeviceCoopTest, UserProfilesReadTheSameSchema) {
  const std::string row =
      R"({"a": "bf16", "b": "bf16", "c": "fp32", "d": "fp32", "m": [4], "n": 32, "k": 16, )"
      R"("subgroup_size": 16})";
  Diagnostic diagnostic;
  std::optional<DeviceProfile> mine =
      LoadProfileText(R"({"name": "mine", "base": "pvc", "+cooperative_matrix": [)" + row + "]}",
                      "user.json", &diagnostic);
  ASSERT_TRUE(mine) << diagnostic.message;
  EXPECT_EQ(CooperativeMatrixCombinations(*mine).size(), 54u);
  EXPECT_EQ(ValidateCooperativeMatrixShape(*mine, kBf16F32, {4, 32, 16}).status,
            MatchStatus::kMatched);

  auto with_rows = [](const std::string& rows) {
    return R"({"name": "x", "base": "pvc", "cooperative_matrix": [)" + rows + "]}";
  };
  EXPECT_EQ(LoadError(with_rows(row + "," + row + "," + row + "," +
                                R"({"a": "s8", "b": "s8", "c": "s32", "d": "s32", "m": [2],)"
                                R"( "n": 16, "k": -4, "subgroup_size": 16})")),
            "user.json: cooperative_matrix[3].k: expected a non-negative integer, found -4");
  EXPECT_EQ(LoadError(with_rows(R"({"a": "bfloat", "b": "bf16", "c": "fp32", "d": "fp32",)"
                                R"( "m": [1], "n": 16, "k": 16, "subgroup_size": 16})")),
            "user.json: cooperative_matrix[0].a: unknown element type \"bfloat\"; expected a SYCL "
            "spelling: s4, u4, s8, u8, s16, s32, s64, fp16, bf16, tf32, fp32, fp64, f8e4m3, "
            "f8e5m2, f4e2m1");
  EXPECT_EQ(LoadError(with_rows(R"({"a": "i8", "b": "s8", "c": "s32", "d": "s32",)"
                                R"( "m": [1], "n": 16, "k": 32, "subgroup_size": 16})"))
                .substr(0, 63),
            "user.json: cooperative_matrix[0].a: unknown element type \"i8\"; ");
  EXPECT_EQ(LoadError(with_rows(R"({"a": "bf16", "b": "bf16", "c": "fp32", "d": "fp32",)"
                                R"( "m": {"min": 9, "max": 8}, "n": 16, "k": 16,)"
                                R"( "subgroup_size": 16})")),
            "user.json: cooperative_matrix[0].m: min is greater than max");
  EXPECT_EQ(LoadError(with_rows(R"({"a": "bf16", "b": "bf16", "c": "fp32", "d": "fp32",)"
                                R"( "m": [1], "n": 8, "k": 16, "subgroup_size": 8})")),
            "user.json: cooperative_matrix[0].subgroup_size: subgroup size 8 is not one of the "
            "profile's subgroup_sizes");
  EXPECT_EQ(LoadError(with_rows(R"({"a": "bf16", "b": "bf16", "c": "fp32", "d": "fp32",)"
                                R"( "m": [1], "n": 16, "k": 16, "subgroup_size": 16, "x": 1})")),
            "user.json: cooperative_matrix[0].x: unknown key");
  EXPECT_EQ(LoadError(with_rows(row + "," + row)),
            "user.json: cooperative_matrix[1]: accepts a combination (M 4, N 32, K 16, subgroup "
            "size 16) that cooperative_matrix[0] accepts too");
  EXPECT_EQ(LoadError(R"({"name": "x", "base": "opencl", "+cooperative_matrix": [)" + row + "]}"),
            "user.json: +cooperative_matrix: cannot append rows to a base table that is "
            "\"no_table\"");
}

TEST(DeviceCoopTest, HostileTablesAreRefusedAtLoad) {
  auto table = [](const std::string& rows) {
    return R"({"name": "x", "base": "pvc", "cooperative_matrix": [)" + rows + "]}";
  };
  EXPECT_EQ(LoadError(table(R"({"a": "bf16", "b": "bf16", "c": "fp32", "d": "fp32",)"
                            R"( "m": {"max": 100000}, "n": 16, "k": 16, "subgroup_size": 16})")),
            "user.json: cooperative_matrix[0].m.max: M above 256 is not a tile");
  const std::string all =
      R"(["s4", "u4", "s8", "u8", "s16", "s32", "s64", "fp16", "bf16", "tf32", "fp32", "fp64",)"
      R"( "f8e4m3", "f8e5m2", "f4e2m1"])";
  auto wide = [&](int n) {
    return R"({"a": )" + all + R"(, "b": )" + all + R"(, "c": )" + all + R"(, "d": )" + all +
           R"(, "m": [1], "n": )" + std::to_string(n) + R"(, "k": 16, "subgroup_size": 16})";
  };
  EXPECT_EQ(LoadError(table(wide(16) + "," + wide(32))),
            "user.json: cooperative_matrix: more than 65536 combinations");
  std::string rows;
  for (int n = 1; n <= 1025; ++n) {
    rows += (n > 1 ? "," : "") + std::string(R"({"a": "bf16", "b": "bf16", "c": "fp32", "d": )") +
            R"("fp32", "m": [1], "n": )" + std::to_string(n) + R"(, "k": 16, "subgroup_size": 16})";
  }
  EXPECT_EQ(LoadError(table(rows)), "user.json: cooperative_matrix: more than 1024 rows");
}

TEST(DeviceCoopTest, ProfileWithoutBaseDefaultsToNoTable) {
  // Profiles written before the table existed keep loading: an absent key is "no_table".
  std::ifstream in(std::string(XMX_SOURCE_DIR) + "/grammar/devices/spec.json");
  nlohmann::json spec = nlohmann::json::parse(in);
  ASSERT_TRUE(spec.erase("cooperative_matrix"));
  spec["name"] = "old";
  Diagnostic diagnostic;
  std::optional<DeviceProfile> old = LoadProfileText(spec.dump(), "old.json", &diagnostic);
  ASSERT_TRUE(old) << diagnostic.message;
  EXPECT_EQ(old->cooperative_matrix.kind, TableKind::kNoTable);
}

}  // namespace
}  // namespace xmx::device
