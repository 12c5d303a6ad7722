// 2D block IO shapes (SPEC-NOTES A.4) and the typing of the Intel subgroup instructions (C.3,
// C.4) against the device profiles.
#include <gtest/gtest.h>

#include <string>

#include "xmx/device.hpp"

namespace xmx::device {
namespace {

// The A.4 table, written out here from SPEC-NOTES independently of the JSON profiles.
struct A4Row {
  Block2dOp op;
  uint32_t element_size;
  std::vector<uint32_t> width, height, count;
};

const std::vector<A4Row>& A4Rows() {
  using O = Block2dOp;
  static const std::vector<A4Row> rows = {
      {O::kLoad, 1, {32}, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kLoad, 1, {16}, {8, 16, 32}, {4}},
      {O::kLoad, 2, {16}, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kLoad, 4, {8}, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kLoad, 4, {16}, {1, 2, 4, 8, 16, 32}, {1}},
      {O::kLoadTransform, 1, {16}, {32}, {1, 2, 4}},
      {O::kLoadTransform, 2, {16}, {16, 32}, {1, 2}},
      {O::kLoadTranspose, 4, {8}, {16, 32}, {1}},
      {O::kStore, 1, {16, 32}, {1, 2, 4, 8}, {1}},
      {O::kStore, 2, {16}, {1, 2, 4, 8}, {1}},
      {O::kStore, 4, {16}, {1, 2, 4, 8}, {1}},
      {O::kPrefetch, 1, {32}, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kPrefetch, 1, {16}, {32}, {1, 2}},
      {O::kPrefetch, 1, {16}, {8, 16, 32}, {4}},
      {O::kPrefetch, 2, {16}, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kPrefetch, 4, {8}, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kPrefetch, 4, {16}, {1, 2, 4, 8, 16, 32}, {1}},
  };
  return rows;
}

bool InA4(Block2dOp op, uint32_t e, uint32_t w, uint32_t h, uint32_t c) {
  auto has = [](const std::vector<uint32_t>& v, uint32_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  for (const A4Row& row : A4Rows()) {
    if (row.op == op && row.element_size == e && has(row.width, w) && has(row.height, h) &&
        has(row.count, c)) {
      return true;
    }
  }
  return false;
}

TEST(DeviceBlock2dTest, EveryA4RowIsAcceptedByExactlyTheRightProfiles) {
  for (const A4Row& row : A4Rows()) {
    for (uint32_t w : row.width) {
      for (uint32_t h : row.height) {
        for (uint32_t c : row.count) {
          for (std::string_view name : BuiltinProfileNames()) {
            const DeviceProfile& profile = *FindBuiltinProfile(name);
            const Block2dMatch match = MatchBlock2d(profile, row.op, row.element_size, w, h, c);
            const std::string where = std::string(name) + " " + std::string(Block2dOpName(row.op)) +
                                      " E" + std::to_string(row.element_size) + " " +
                                      std::to_string(h) + "r" + std::to_string(w) + "x" +
                                      std::to_string(c) + "c";
            if (name == "spec") {
              EXPECT_EQ(match.status, MatchStatus::kNoTable) << where;
            } else if (name == "dg2" || name == "arl-h") {
              EXPECT_EQ(match.status, MatchStatus::kNotSupported) << where;
              EXPECT_EQ(match.Message(profile), std::string(Block2dInstructionName(row.op)) +
                                                    " is not supported on device " +
                                                    std::string(name));
            } else {
              EXPECT_EQ(match.status, MatchStatus::kMatched)
                  << where << ": " << match.Message(profile);
            }
          }
        }
      }
    }
  }
}

TEST(DeviceBlock2dTest, ShapesOutsideA4AreRejected) {
  // Every power-of-two shape up to 64 that A.4 does not list is rejected by pvc and opencl.
  const Block2dOp ops[] = {Block2dOp::kLoad, Block2dOp::kLoadTransform, Block2dOp::kLoadTranspose,
                           Block2dOp::kPrefetch, Block2dOp::kStore};
  for (const char* name : {"opencl", "pvc", "xe3p"}) {
    const DeviceProfile& profile = *FindBuiltinProfile(name);
    for (Block2dOp op : ops) {
      for (uint32_t e : {1u, 2u, 4u, 8u}) {
        for (uint32_t w = 1; w <= 64; w *= 2) {
          for (uint32_t h = 1; h <= 64; h *= 2) {
            for (uint32_t c = 1; c <= 4; c *= 2) {
              const bool listed = InA4(op, e, w, h, c);
              EXPECT_EQ(MatchBlock2d(profile, op, e, w, h, c).status == MatchStatus::kMatched,
                        listed)
                  << name << " " << Block2dOpName(op) << " " << e << " " << w << " " << h << " "
                  << c;
            }
          }
        }
      }
    }
  }
}

TEST(DeviceBlock2dTest, MismatchNamesTheFailingDimension) {
  const DeviceProfile& pvc = *FindBuiltinProfile("pvc");
  EXPECT_EQ(MatchBlock2d(pvc, Block2dOp::kLoad, 2, 24, 8, 1).Message(pvc),
            "Block Width 24 is not supported for Element Size 2 by OpSubgroup2DBlockLoadINTEL on "
            "device pvc; supported: 16");
  EXPECT_EQ(MatchBlock2d(pvc, Block2dOp::kLoad, 8, 8, 8, 1).Message(pvc),
            "Element Size 8 is not supported by OpSubgroup2DBlockLoadINTEL on device pvc; "
            "supported: 1, 2, 4");
  EXPECT_EQ(MatchBlock2d(pvc, Block2dOp::kLoad, 1, 16, 4, 4).Message(pvc),
            "Block Height 4 is not supported for Element Size 1, Block Width 16 by "
            "OpSubgroup2DBlockLoadINTEL on device pvc; supported: 8, 16, 32");
  EXPECT_EQ(MatchBlock2d(pvc, Block2dOp::kStore, 4, 16, 8, 2).Message(pvc),
            "Block Count 2 is not supported for Element Size 4, Block Width 16, Block Height 8 "
            "by OpSubgroup2DBlockStoreINTEL on device pvc; supported: 1");
  EXPECT_EQ(MatchBlock2d(pvc, Block2dOp::kLoadTranspose, 4, 8, 8, 1).mismatch.supported,
            (std::vector<std::string>{"16", "32"}));
  // Load E=4 has two rows (W 8 and W 16); the width message offers both.
  EXPECT_EQ(MatchBlock2d(pvc, Block2dOp::kLoad, 4, 4, 8, 1).mismatch.supported,
            (std::vector<std::string>{"8", "16"}));
}

// --- Subgroup typing ---------------------------------------------------------------------------

SubgroupTypeMatch Match(const DeviceProfile& profile, SubgroupOp op, ScalarKind kind, uint32_t bits,
                        uint32_t components,
                        std::optional<GroupOperation> operation = std::nullopt) {
  return MatchSubgroupType(profile, {op, kind, bits, components, operation});
}

TEST(DeviceSubgroupTypeTest, ShufflesFollowC3) {
  const DeviceProfile& pvc = *FindBuiltinProfile("pvc");
  using K = ScalarKind;
  for (uint32_t n : {1u, 2u, 3u, 4u, 8u, 16u}) {
    EXPECT_EQ(Match(pvc, SubgroupOp::kShuffle, K::kInt, 32, n).status, MatchStatus::kMatched);
    EXPECT_EQ(Match(pvc, SubgroupOp::kShuffle, K::kFloat, 32, n).status, MatchStatus::kMatched);
    EXPECT_EQ(Match(pvc, SubgroupOp::kShuffle, K::kInt, 8, n).status, MatchStatus::kMatched);
    EXPECT_EQ(Match(pvc, SubgroupOp::kShuffle, K::kInt, 16, n).status, MatchStatus::kMatched);
  }
  EXPECT_EQ(Match(pvc, SubgroupOp::kShuffle, K::kInt, 64, 1).status, MatchStatus::kMatched);
  const SubgroupTypeQuery long2{SubgroupOp::kShuffle, K::kInt, 64, 2, std::nullopt};
  SubgroupTypeMatch m = MatchSubgroupType(pvc, long2);
  EXPECT_EQ(m.Message(pvc, long2),
            "Component count 2 is not supported for 64-bit int by OpSubgroupShuffle*INTEL on "
            "device pvc; supported: 1");
  m = Match(pvc, SubgroupOp::kShuffle, K::kFloat, 16, 1);
  ASSERT_EQ(m.status, MatchStatus::kMatched);
  EXPECT_EQ(m.row->capability, "Float16");
  EXPECT_EQ(Match(pvc, SubgroupOp::kShuffle, K::kFloat, 16, 2).status, MatchStatus::kMismatch);
  EXPECT_EQ(Match(pvc, SubgroupOp::kShuffle, K::kInt, 32, 5).mismatch.supported,
            (std::vector<std::string>{"1", "2", "3", "4", "8", "16"}));
}

TEST(DeviceSubgroupTypeTest, BlockIoFollowsC3AndC4) {
  const DeviceProfile& opencl = *FindBuiltinProfile("opencl");
  using K = ScalarKind;
  for (SubgroupOp op : {SubgroupOp::kBlockIo, SubgroupOp::kImageBlockIo}) {
    EXPECT_EQ(Match(opencl, op, K::kInt, 8, 16).status, MatchStatus::kMatched);
    EXPECT_EQ(Match(opencl, op, K::kInt, 8, 3).mismatch.supported,
              (std::vector<std::string>{"1", "2", "4", "8", "16"}));
    EXPECT_EQ(Match(opencl, op, K::kInt, 32, 16).mismatch.supported,
              (std::vector<std::string>{"1", "2", "4", "8"}));
    EXPECT_EQ(Match(opencl, op, K::kInt, 64, 8).status, MatchStatus::kMatched);
    EXPECT_EQ(Match(opencl, op, K::kFloat, 32, 1).mismatch.field, "Component type");
    // 16-vectors of 16-bit: accepted by convention (G.7).
    SubgroupTypeMatch us16 = Match(opencl, op, K::kInt, 16, 16);
    ASSERT_EQ(us16.status, MatchStatus::kMatched);
    EXPECT_EQ(us16.row->provenance.confidence, Confidence::kConvention);
    EXPECT_EQ(Match(opencl, op, K::kInt, 16, 8).row->provenance.confidence, Confidence::kSpec);
  }
}

TEST(DeviceSubgroupTypeTest, GroupOpsOn8BitNeedCharAndSubgroupScope) {
  const DeviceProfile& dg2 = *FindBuiltinProfile("dg2");
  using K = ScalarKind;
  SubgroupTypeMatch reduce =
      Match(dg2, SubgroupOp::kGroupIAdd, K::kInt, 8, 1, GroupOperation::kReduce);
  ASSERT_EQ(reduce.status, MatchStatus::kMatched);
  EXPECT_EQ(reduce.row->scope, "Subgroup");
  EXPECT_EQ(reduce.row->feature, "char");
  EXPECT_EQ(reduce.row->provenance.confidence, Confidence::kSpec);
  SubgroupTypeMatch scan =
      Match(dg2, SubgroupOp::kGroupMinMax, K::kInt, 8, 1, GroupOperation::kExclusiveScan);
  ASSERT_EQ(scan.status, MatchStatus::kMatched);
  EXPECT_EQ(scan.row->provenance.confidence, Confidence::kConvention);  // DECISIONS 8
  EXPECT_EQ(Match(dg2, SubgroupOp::kGroupBroadcast, K::kInt, 8, 2).status, MatchStatus::kMismatch);
  EXPECT_EQ(Match(dg2, SubgroupOp::kGroupIAdd, K::kInt, 32, 1).status, MatchStatus::kCoreRules);
  EXPECT_EQ(Match(*FindBuiltinProfile("spec"), SubgroupOp::kShuffle, K::kInt, 8, 3).status,
            MatchStatus::kNoTable);

  // Without the "char" feature, the 8-bit rows do not exist.
  Diagnostic diagnostic;
  std::optional<DeviceProfile> no_char = LoadProfileText(
      R"({"name": "no-char", "base": "pvc", "subgroup_type_features": ["short", "long"]})",
      "no-char.json", &diagnostic);
  ASSERT_TRUE(no_char.has_value()) << diagnostic.Format();
  const SubgroupTypeQuery shuffle8{SubgroupOp::kShuffle, K::kInt, 8, 1, std::nullopt};
  SubgroupTypeMatch m = MatchSubgroupType(*no_char, shuffle8);
  EXPECT_EQ(m.Message(*no_char, shuffle8),
            "Component width 8 is not supported for int components (needs the subgroup type "
            "feature \"char\") by OpSubgroupShuffle*INTEL on device no-char; supported: 16, 32, "
            "64");
  EXPECT_EQ(Match(*no_char, SubgroupOp::kGroupIAdd, K::kInt, 8, 1).status, MatchStatus::kMismatch);
}

}  // namespace
}  // namespace xmx::device
