// The SYCL-style matrix queries (general, default, validation) over the matrix_mad rows, and the
// interpretation of operand masks (SPEC-NOTES B.2).
#include <gtest/gtest.h>

#include <algorithm>

#include "xmx/device.hpp"

namespace xmx::device {
namespace {

using E = ElementType;

bool HasCombination(const std::vector<MatrixCombination>& all, const MatrixTypes& types, uint32_t n,
                    uint32_t k, uint32_t subgroup_size) {
  return std::any_of(all.begin(), all.end(), [&](const MatrixCombination& c) {
    return c.types == types && c.n == n && c.k == k && c.subgroup_size == subgroup_size;
  });
}

TEST(DeviceQueryTest, OperandMasksSelectElementTypes) {
  const DeviceProfile& xe3p = *FindBuiltinProfile("xe3p");
  std::vector<MatrixCombination> all = MatrixCombinations(xe3p);
  auto types_of = [&](uint32_t k, uint32_t mask, uint32_t sg = 16) {
    for (const MatrixCombination& c : all) {
      if (c.k == k && c.operands == mask && c.subgroup_size == sg) return ToString(c.types);
    }
    return std::string("none");
  };
  EXPECT_EQ(types_of(32, 0x30), "A u8, B u8, C i32, D i32");
  EXPECT_EQ(types_of(32, 0x31), "A i8, B u8, C i32, D i32");
  EXPECT_EQ(types_of(32, 0x32), "A u8, B i8, C i32, D i32");
  EXPECT_EQ(types_of(64, 0xC3), "A i4, B i4, C i32, D i32");
  EXPECT_EQ(types_of(16, 0xC00), "A f16, B f16, C f32, D f32");
  EXPECT_EQ(types_of(16, 0x300C), "A bf16, B bf16, C bf16, D bf16");
  EXPECT_EQ(types_of(8, 0x300), "A tf32, B tf32, C f32, D f32");
  EXPECT_EQ(types_of(32, 0x24000), "A f8e4m3, B f8e5m2, C f32, D f32");
  EXPECT_EQ(types_of(32, 0x1800C), "A f8e5m2, B f8e4m3, C bf16, D bf16");
  EXPECT_EQ(types_of(64, 0xC0000), "A f4e2m1, B f4e2m1, C f32, D f32");
  EXPECT_EQ(types_of(64, 0xC000C, 32), "A f4e2m1, B f4e2m1, C bf16, D bf16");
}

TEST(DeviceQueryTest, GeneralListsEveryCombination) {
  const MatrixTypes s8 = {E::kI8, E::kI8, E::kI32, E::kI32};
  const MatrixTypes f16_acc16 = {E::kF16, E::kF16, E::kF16, E::kF16};
  const MatrixTypes fp8 = {E::kF8E4M3, E::kF8E4M3, E::kF32, E::kF32};

  const std::vector<MatrixCombination> dg2 = MatrixCombinations(*FindBuiltinProfile("dg2"));
  EXPECT_EQ(dg2.size(), 4u + 4u + 2u);
  EXPECT_TRUE(HasCombination(dg2, s8, 8, 32, 8));
  EXPECT_FALSE(HasCombination(dg2, f16_acc16, 16, 16, 16));

  const std::vector<MatrixCombination> pvc = MatrixCombinations(*FindBuiltinProfile("pvc"));
  EXPECT_TRUE(HasCombination(pvc, s8, 16, 32, 16));
  EXPECT_TRUE(HasCombination(pvc, s8, 16, 32, 32));  // paired: N stays 16
  EXPECT_TRUE(HasCombination(pvc, f16_acc16, 16, 16, 16));
  EXPECT_FALSE(HasCombination(pvc, fp8, 16, 32, 16));
  EXPECT_TRUE(HasCombination(MatrixCombinations(*FindBuiltinProfile("xe3p")), fp8, 16, 32, 16));

  const std::vector<MatrixCombination> opencl = MatrixCombinations(*FindBuiltinProfile("opencl"));
  EXPECT_TRUE(HasCombination(opencl, s8, 8, 32, 8));
  EXPECT_TRUE(HasCombination(opencl, s8, 16, 32, 16));
  EXPECT_FALSE(HasCombination(opencl, s8, 16, 32, 32));

  EXPECT_TRUE(MatrixCombinations(*FindBuiltinProfile("spec")).empty());
}

TEST(DeviceQueryTest, DefaultIsTheLargestShape) {
  const MatrixTypes bf16 = {E::kBF16, E::kBF16, E::kF32, E::kF32};
  EXPECT_EQ(DefaultMatrixShape(*FindBuiltinProfile("pvc"), bf16), (MatrixShape{8, 16, 16}));
  EXPECT_EQ(DefaultMatrixShape(*FindBuiltinProfile("dg2"), bf16), (MatrixShape{8, 8, 16}));
  EXPECT_EQ(DefaultMatrixShape(*FindBuiltinProfile("opencl"), bf16), (MatrixShape{8, 16, 16}));
  EXPECT_EQ(DefaultMatrixShape(*FindBuiltinProfile("opencl"), bf16, 8), (MatrixShape{8, 8, 16}));
  const MatrixTypes u4 = {E::kU4, E::kU4, E::kI32, E::kI32};
  EXPECT_EQ(DefaultMatrixShape(*FindBuiltinProfile("lnl"), u4), (MatrixShape{8, 16, 64}));
  const MatrixTypes tf32 = {E::kTF32, E::kTF32, E::kF32, E::kF32};
  EXPECT_EQ(DefaultMatrixShape(*FindBuiltinProfile("bmg"), tf32), (MatrixShape{8, 16, 8}));
  EXPECT_FALSE(DefaultMatrixShape(*FindBuiltinProfile("dg2"), tf32).has_value());
  const MatrixTypes fp8 = {E::kF8E5M2, E::kF8E4M3, E::kBF16, E::kBF16};
  EXPECT_EQ(DefaultMatrixShape(*FindBuiltinProfile("xe3p"), fp8), (MatrixShape{8, 16, 32}));
  EXPECT_FALSE(DefaultMatrixShape(*FindBuiltinProfile("ptl"), fp8).has_value());
}

TEST(DeviceQueryTest, ValidationGivesNearestShapes) {
  const MatrixTypes bf16 = {E::kBF16, E::kBF16, E::kF32, E::kF32};
  const DeviceProfile& pvc = *FindBuiltinProfile("pvc");

  MatrixShapeCheck ok = ValidateMatrixShape(pvc, bf16, {4, 16, 16});
  EXPECT_EQ(ok.status, MatchStatus::kMatched);
  ASSERT_TRUE(ok.combination.has_value());
  EXPECT_EQ(ok.combination->operands, 0x3000u);

  MatrixShapeCheck big = ValidateMatrixShape(pvc, bf16, {16, 16, 16});
  EXPECT_EQ(big.status, MatchStatus::kMismatch);
  ASSERT_FALSE(big.nearest.empty());
  EXPECT_EQ(big.nearest.front(), (MatrixShape{8, 16, 16}));
  EXPECT_EQ(big.message,
            "M 16, N 16, K 16 with A bf16, B bf16, C f32, D f32 is not supported on device pvc; "
            "nearest (M x N x K): 8x16x16, 4x16x16, 2x16x16");

  MatrixShapeCheck n8 = ValidateMatrixShape(pvc, bf16, {8, 8, 16});
  EXPECT_EQ(n8.status, MatchStatus::kMismatch);
  EXPECT_EQ(n8.nearest.front(), (MatrixShape{8, 16, 16}));
  EXPECT_EQ(ValidateMatrixShape(*FindBuiltinProfile("dg2"), bf16, {8, 8, 16}).status,
            MatchStatus::kMatched);

  const MatrixTypes fp8 = {E::kF8E4M3, E::kF8E4M3, E::kF32, E::kF32};
  MatrixShapeCheck no_types = ValidateMatrixShape(pvc, fp8, {8, 16, 32});
  EXPECT_EQ(no_types.status, MatchStatus::kMismatch);
  EXPECT_TRUE(no_types.nearest.empty());
  EXPECT_EQ(no_types.message,
            "M 8, N 16, K 32 with A f8e4m3, B f8e4m3, C f32, D f32 is not supported on device "
            "pvc: no matrix combination has these element types");
  EXPECT_EQ(ValidateMatrixShape(*FindBuiltinProfile("xe3p"), fp8, {8, 16, 32}).status,
            MatchStatus::kMatched);
  EXPECT_EQ(ValidateMatrixShape(*FindBuiltinProfile("spec"), fp8, {8, 16, 32}).status,
            MatchStatus::kNoTable);

  // Valid in the query exactly when the validator's lookup accepts the same shape.
  for (const MatrixCombination& c : MatrixCombinations(pvc)) {
    for (uint32_t m : c.m) {
      EXPECT_EQ(ValidateMatrixShape(pvc, c.types, {m, c.n, c.k}, c.subgroup_size).status,
                MatchStatus::kMatched);
      const MatrixMadRow& row = *c.row;
      MatrixMadQuery q{c.subgroup_size,
                       c.k,
                       {row.result.type, row.result.Count(m)},
                       {row.a.type, row.a.Count(m)},
                       {row.b.type, row.b.Count(m)},
                       {row.c.type, row.c.Count(m)},
                       c.operands};
      EXPECT_EQ(MatchMatrixMad(pvc, q).status, MatchStatus::kMatched);
    }
  }
}

TEST(DeviceQueryTest, ElementTypeNamesRoundTrip) {
  for (E type : {E::kI4, E::kU4, E::kI8, E::kU8, E::kI16, E::kI32, E::kI64, E::kF16, E::kBF16,
                 E::kTF32, E::kF32, E::kF64, E::kF8E4M3, E::kF8E5M2, E::kF4E2M1}) {
    EXPECT_EQ(ParseElementType(ElementTypeName(type)), type);
  }
  EXPECT_FALSE(ParseElementType("f128").has_value());
  EXPECT_TRUE(IsSpirvScalarType(E::kI16));
  EXPECT_FALSE(IsSpirvScalarType(E::kBF16));
}

}  // namespace
}  // namespace xmx::device
