// OpSubgroupMatrixMultiplyAccumulateINTEL against the device profiles: every row of SPEC-NOTES
// B.5 (and the paired subgroup-size-32 form of DECISIONS 10) is accepted by exactly the profiles
// DEVICES.md gives it to, and a rejected query names the field and the supported values.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "xmx/device.hpp"

namespace xmx::device {
namespace {

using E = ElementType;

// One B.5 row, written out here from SPEC-NOTES independently of the JSON profiles.
struct B5Row {
  const char* group;  // which profiles accept it, see kAcceptedBy
  uint32_t subgroup_size, k;
  E result, a;
  bool a_tf32_count;  // A has ceil(M/2) components
  E b;
  uint32_t b_count;
  std::vector<uint32_t> masks;
  std::vector<uint32_t> m;
};

const std::vector<B5Row>& B5Rows() {
  // clang-format off
  static const std::vector<B5Row> rows = {
      {"sg8", 8, 32, E::kI32, E::kI32, false, E::kI32, 8, {0x30, 0x31, 0x32, 0x33}, {1, 2, 4, 8}},
      {"sg8", 8, 64, E::kI32, E::kI32, false, E::kI32, 8, {0xC0, 0xC1, 0xC2, 0xC3}, {1, 2, 4, 8}},
      {"sg8", 8, 16, E::kF32, E::kI32, false, E::kI32, 8, {0xC00, 0x3000}, {1, 2, 4, 8}},
      {"sg16", 16, 32, E::kI32, E::kI16, false, E::kI32, 8, {0x30, 0x31, 0x32, 0x33}, {1, 2, 4, 8}},
      {"sg16", 16, 64, E::kI32, E::kI16, false, E::kI32, 8, {0xC0, 0xC1, 0xC2, 0xC3}, {1, 2, 4, 8}},
      {"sg16", 16, 16, E::kF32, E::kI16, false, E::kI32, 8, {0xC00, 0x3000}, {1, 2, 4, 8}},
      {"sg16", 16, 16, E::kF16, E::kI16, false, E::kI32, 8, {0xC00}, {1, 2, 4, 8}},
      {"sg16", 16, 16, E::kI16, E::kI16, false, E::kI32, 8, {0x300C}, {1, 2, 4, 8}},
      {"sg16", 16, 8, E::kF32, E::kF32, true, E::kF32, 8, {0x300}, {1, 2, 4, 8}},
      {"fp8", 16, 32, E::kF32, E::kI16, false, E::kI32, 8, {0xC000, 0x24000, 0x18000, 0x30000},
       {1, 2, 4, 8}},
      {"fp8", 16, 32, E::kI16, E::kI16, false, E::kI32, 8, {0xC00C, 0x2400C, 0x1800C, 0x3000C},
       {1, 2, 4, 8}},
      {"fp8", 16, 64, E::kF32, E::kI16, false, E::kI32, 8, {0xC0000}, {1, 2, 4, 8}},
      {"fp8", 16, 64, E::kI16, E::kI16, false, E::kI32, 8, {0xC000C}, {1, 2, 4, 8}},
      // The paired form: Result, A and C with M/2 components, B with 4 (DECISIONS 10).
      {"sg32", 32, 32, E::kI32, E::kI16, false, E::kI32, 4, {0x30, 0x31, 0x32, 0x33}, {2, 4, 8}},
      {"sg32", 32, 64, E::kI32, E::kI16, false, E::kI32, 4, {0xC0, 0xC3}, {2, 4, 8}},
      {"sg32", 32, 16, E::kF32, E::kI16, false, E::kI32, 4, {0xC00, 0x3000}, {2, 4, 8}},
      {"sg32", 32, 16, E::kF16, E::kI16, false, E::kI32, 4, {0xC00}, {2, 4, 8}},
      {"sg32", 32, 16, E::kI16, E::kI16, false, E::kI32, 4, {0x300C}, {2, 4, 8}},
      {"fp8sg32", 32, 32, E::kF32, E::kI16, false, E::kI32, 4, {0xC000, 0x30000}, {2, 4, 8}},
      {"fp8sg32", 32, 64, E::kI16, E::kI16, false, E::kI32, 4, {0xC000C}, {2, 4, 8}},
  };
  // clang-format on
  return rows;
}

std::set<std::string> AcceptedBy(std::string_view group) {
  if (group == "sg8") return {"opencl", "dg2", "arl-h"};
  if (group == "sg16") return {"opencl", "pvc", "bmg", "lnl", "ptl", "xe3p"};
  if (group == "sg32") return {"pvc", "bmg", "lnl", "ptl", "xe3p"};
  return {"xe3p"};  // fp8, fp8sg32
}

MatrixMadQuery Query(const B5Row& row, uint32_t m, uint32_t mask) {
  const bool paired = row.subgroup_size == 32;
  const uint32_t rows_here = paired ? m / 2 : m;
  MatrixMadQuery q;
  q.subgroup_size = row.subgroup_size;
  q.k = row.k;
  q.result = {row.result, rows_here};
  q.a = {row.a, row.a_tf32_count ? (m + 1) / 2 : rows_here};
  q.b = {row.b, row.b_count};
  q.c = {row.result, rows_here};
  q.operands = mask;
  return q;
}

TEST(DeviceMatrixMadTest, EveryB5RowIsAcceptedByExactlyTheRightProfiles) {
  for (const B5Row& row : B5Rows()) {
    const std::set<std::string> accepted_by = AcceptedBy(row.group);
    for (std::string_view name : BuiltinProfileNames()) {
      const DeviceProfile& profile = *FindBuiltinProfile(name);
      for (uint32_t m : row.m) {
        for (uint32_t mask : row.masks) {
          const MatrixMadMatch match = MatchMatrixMad(profile, Query(row, m, mask));
          const std::string where = std::string(name) + " " + row.group + " K " +
                                    std::to_string(row.k) + " M " + std::to_string(m) + " mask " +
                                    std::to_string(mask);
          if (name == "spec") {
            EXPECT_EQ(match.status, MatchStatus::kNoTable) << where;
          } else if (accepted_by.count(std::string(name))) {
            ASSERT_EQ(match.status, MatchStatus::kMatched)
                << where << ": " << match.Message(profile);
            EXPECT_EQ(match.m, m) << where;
          } else {
            EXPECT_EQ(match.status, MatchStatus::kMismatch) << where;
            EXPECT_FALSE(match.Message(profile).empty()) << where;
          }
        }
      }
    }
  }
}

TEST(DeviceMatrixMadTest, ConfidenceAndExtensionOfMatchedRows) {
  const DeviceProfile& xe3p = *FindBuiltinProfile("xe3p");
  MatrixMadMatch fp8 = MatchMatrixMad(xe3p, Query(B5Rows()[9], 8, 0xC000));
  ASSERT_EQ(fp8.status, MatchStatus::kMatched);
  EXPECT_EQ(fp8.row->extension, "SPV_INTEL_subgroup_matrix_multiply_accumulate_float8");
  EXPECT_EQ(fp8.row->provenance.confidence, Confidence::kDraft);

  MatrixMadMatch paired = MatchMatrixMad(xe3p, Query(B5Rows()[13], 4, 0x33));
  ASSERT_EQ(paired.status, MatchStatus::kMatched);
  EXPECT_EQ(paired.row->provenance.confidence, Confidence::kConvention);
  EXPECT_FALSE(paired.row->provenance.note.empty());
  EXPECT_EQ(paired.row->n(), 16u);

  MatrixMadMatch plain = MatchMatrixMad(xe3p, Query(B5Rows()[3], 4, 0x33));
  ASSERT_EQ(plain.status, MatchStatus::kMatched);
  EXPECT_EQ(plain.row->provenance.confidence, Confidence::kSpec);
  EXPECT_TRUE(plain.row->extension.empty());
}

TEST(DeviceMatrixMadTest, MismatchNamesFieldAndSupportedValues) {
  const DeviceProfile& pvc = *FindBuiltinProfile("pvc");
  MatrixMadQuery q = Query(B5Rows()[5], 8, 0x3000);  // SG16 bf16 -> f32, K 16
  q.k = 42;
  EXPECT_EQ(MatchMatrixMad(pvc, q).Message(pvc),
            "K Dim 42 is not supported for subgroup size 16 by "
            "OpSubgroupMatrixMultiplyAccumulateINTEL on device pvc; supported: 8, 16, 32, 64");

  q = Query(B5Rows()[5], 8, 0x3000);
  q.subgroup_size = 8;
  EXPECT_EQ(MatchMatrixMad(pvc, q).Message(pvc),
            "Subgroup size 8 is not supported by OpSubgroupMatrixMultiplyAccumulateINTEL on "
            "device pvc; supported: 16, 32");

  q = Query(B5Rows()[5], 8, 0x31);
  const MatrixMadMatch mask = MatchMatrixMad(pvc, q);
  EXPECT_EQ(mask.Message(pvc),
            "Matrix Multiply Accumulate Operands 0x31 is not supported for subgroup size 16, "
            "K Dim 16, Result f32, A i16, B i32, C f32 by "
            "OpSubgroupMatrixMultiplyAccumulateINTEL on device pvc; supported: 0xC00, 0x3000");
  ASSERT_EQ(mask.nearest.size(), 1u);
  EXPECT_EQ(mask.nearest[0]->k, 16u);

  q = Query(B5Rows()[5], 8, 0x3000);
  q.result.count = q.c.count = 3;
  EXPECT_EQ(MatchMatrixMad(pvc, q).mismatch.supported,
            (std::vector<std::string>{"1", "2", "4", "8"}));

  q = Query(B5Rows()[8], 4, 0x300);  // tf32: A has ceil(M/2) components
  q.a.count = 4;
  EXPECT_EQ(MatchMatrixMad(pvc, q).Message(pvc),
            "Matrix A component count 4 is not supported for subgroup size 16, K Dim 8, Result "
            "f32, A f32, B f32, C f32, Operands 0x300, M 4 by "
            "OpSubgroupMatrixMultiplyAccumulateINTEL on device pvc; supported: 2");

  q = Query(B5Rows()[13], 4, 0x30);  // paired: B must have 4 components
  q.b.count = 8;
  EXPECT_EQ(MatchMatrixMad(pvc, q).mismatch.supported, (std::vector<std::string>{"4"}));
  q = Query(B5Rows()[13], 4, 0x30);
  q.result.count = q.c.count = 3;
  EXPECT_EQ(MatchMatrixMad(pvc, q).mismatch.supported,
            (std::vector<std::string>{"1 (M = 2)", "2 (M = 4)", "4 (M = 8)"}));

  // tf32 has no paired form: at subgroup size 32, K 8 is not offered.
  q = Query(B5Rows()[8], 4, 0x300);
  q.subgroup_size = 32;
  EXPECT_EQ(MatchMatrixMad(pvc, q).mismatch.supported,
            (std::vector<std::string>{"16", "32", "64"}));

  const DeviceProfile& dg2 = *FindBuiltinProfile("dg2");
  q = Query(B5Rows()[6], 8, 0xC00);  // fp16 result is SG16 only
  q.subgroup_size = 8;
  q.a.type = E::kI32;
  EXPECT_EQ(MatchMatrixMad(dg2, q).Message(dg2),
            "Result component type f16 is not supported for subgroup size 8, K Dim 16 by "
            "OpSubgroupMatrixMultiplyAccumulateINTEL on device dg2; supported: f32");
}

TEST(DeviceMatrixMadTest, SplitMatrixMadSignatures) {
  const DeviceProfile& opencl = *FindBuiltinProfile("opencl");
  const OperandShape result{E::kI32, 4}, a{E::kI32, 2}, b{E::kI32, 8};
  SplitMatrixMadMatch match = MatchSplitMatrixMad(
      opencl, "intel_sub_group_u8_i8_split_matrix_mad_k32", 8, result, a, b, result);
  ASSERT_EQ(match.status, MatchStatus::kMatched) << match.Message(opencl);
  EXPECT_EQ(match.m, 4u);
  EXPECT_EQ(match.row->provenance.confidence, Confidence::kConvention);  // pairing, G.3

  match = MatchSplitMatrixMad(opencl, "intel_sub_group_u8_i8_split_matrix_mad_k32", 16, result, a,
                              b, result);
  EXPECT_EQ(match.Message(opencl),
            "Subgroup size 16 is not supported for intel_sub_group_u8_i8_split_matrix_mad_k32 "
            "by the split matrix multiply-accumulate built-ins on device opencl; supported: 8");
  match = MatchSplitMatrixMad(opencl, "intel_sub_group_bf16_bf16_split_matrix_mad_k16", 8,
                              {E::kF32, 8}, {E::kI32, 8}, b, {E::kF32, 8});
  EXPECT_EQ(match.mismatch.field, "a component count");
  EXPECT_EQ(match.mismatch.supported, (std::vector<std::string>{"4"}));
  match = MatchSplitMatrixMad(opencl, "intel_sub_group_f16_f16_split_matrix_mad_k16", 8,
                              {E::kF32, 1}, {E::kI32, 1}, b, {E::kF32, 1});
  EXPECT_EQ(match.mismatch.supported, (std::vector<std::string>{"2", "4", "8"}));

  EXPECT_EQ(
      MatchSplitMatrixMad(*FindBuiltinProfile("dg2"), "intel_sub_group_i8_i8_split_matrix_mad_k32",
                          8, result, a, b, result)
          .status,
      MatchStatus::kMatched);
  EXPECT_EQ(
      MatchSplitMatrixMad(*FindBuiltinProfile("pvc"), "intel_sub_group_i8_i8_split_matrix_mad_k32",
                          16, result, a, b, result)
          .status,
      MatchStatus::kNotSupported);
  // "spec": the signature only, at any subgroup size.
  EXPECT_EQ(
      MatchSplitMatrixMad(*FindBuiltinProfile("spec"), "intel_sub_group_i8_i8_split_matrix_mad_k32",
                          16, result, a, b, result)
          .status,
      MatchStatus::kMatched);

  EXPECT_EQ(ItaniumBaseName("_Z42intel_sub_group_i8_i8_split_matrix_mad_k32iDv8_iDv2_i"),
            "intel_sub_group_i8_i8_split_matrix_mad_k32");
  EXPECT_EQ(ItaniumBaseName("plain"), "plain");
  EXPECT_EQ(ItaniumBaseName("_Z99short"), "_Z99short");
}

}  // namespace
}  // namespace xmx::device
