// The one opcode -> family table of the interpreter (source/interp/load/opcode_table.hpp): the
// checks the build runs on it catch an opcode claimed twice and a cooperative-matrix form no other
// family owns, and the lookup the loader uses finds every entry and nothing else.
#include <gtest/gtest.h>

#include <set>

#include "grammar/grammar.hpp"
#include "interp/load/opcode_table.hpp"

namespace xmx::interp {
namespace {

using spv::Op;

TEST(InterpOpcodeTable, TheTableClaimsEveryOpcodeOnce) {
  EXPECT_FALSE(FirstDoubleClaim(kOpcodeClaims).has_value());
  EXPECT_FALSE(FirstUnsharedForm(kOpcodeClaims, kCoopForms).has_value());
}

TEST(InterpOpcodeTable, DoubleClaimIsFound) {
  constexpr OpcodeClaim kTwoFamilies[] = {
      {Op::OpIAdd, OpcodeFamily::kArith},
      {Op::OpLoad, OpcodeFamily::kMemory},
      {Op::OpIAdd, OpcodeFamily::kCoop},
  };
  static_assert(FirstDoubleClaim(kTwoFamilies) == Op::OpIAdd);
  EXPECT_EQ(FirstDoubleClaim(kTwoFamilies), Op::OpIAdd);
  // The same family listing an opcode twice is a mistake as well.
  constexpr OpcodeClaim kSameFamily[] = {
      {Op::OpStore, OpcodeFamily::kMemory},
      {Op::OpLoad, OpcodeFamily::kMemory},
      {Op::OpLoad, OpcodeFamily::kMemory},
  };
  EXPECT_EQ(FirstDoubleClaim(kSameFamily), Op::OpLoad);
  constexpr OpcodeClaim kDistinct[] = {
      {Op::OpStore, OpcodeFamily::kMemory},
      {Op::OpLoad, OpcodeFamily::kMemory},
  };
  EXPECT_FALSE(FirstDoubleClaim(kDistinct).has_value());
}

TEST(InterpOpcodeTable, CoopFormNeedsAnotherOwner) {
  constexpr OpcodeClaim kClaims[] = {
      {Op::OpFConvert, OpcodeFamily::kConvert},
      {Op::OpCooperativeMatrixLengthKHR, OpcodeFamily::kCoop},
  };
  constexpr Op kShared[] = {Op::OpFConvert};
  constexpr Op kCoopOnly[] = {Op::OpFConvert, Op::OpCooperativeMatrixLengthKHR};
  constexpr Op kUnclaimed[] = {Op::OpCompositeConstruct};
  constexpr Op kTwice[] = {Op::OpFConvert, Op::OpFConvert};
  EXPECT_FALSE(FirstUnsharedForm(kClaims, kShared).has_value());
  EXPECT_EQ(FirstUnsharedForm(kClaims, kCoopOnly), Op::OpCooperativeMatrixLengthKHR);
  EXPECT_EQ(FirstUnsharedForm(kClaims, kUnclaimed), Op::OpCompositeConstruct);
  EXPECT_EQ(FirstUnsharedForm(kClaims, kTwice), Op::OpFConvert);
}

TEST(InterpOpcodeTable, LookupFindsEveryEntryAndNothingElse) {
  std::set<uint32_t> claimed;
  for (const OpcodeClaim& claim : kOpcodeClaims) {
    claimed.insert(static_cast<uint32_t>(claim.opcode));
    EXPECT_EQ(FamilyOf(claim.opcode), claim.family) << static_cast<uint32_t>(claim.opcode);
  }
  for (uint32_t op = 0; op < 8192; ++op) {
    if (claimed.count(op) == 0) {
      EXPECT_FALSE(FamilyOf(static_cast<Op>(op)).has_value()) << op;
    }
  }
  EXPECT_EQ(FamilyOf(Op::OpFConvert), OpcodeFamily::kConvert);
  EXPECT_TRUE(IsCoopForm(Op::OpFConvert));
  EXPECT_FALSE(IsCoopForm(Op::OpSConvert));
  // Declarations are the loader's, not an instruction family's.
  EXPECT_FALSE(FamilyOf(Op::OpTypeInt).has_value());
  EXPECT_FALSE(FamilyOf(Op::OpImageSampleImplicitLod).has_value());
}

TEST(InterpOpcodeTable, EveryClaimIsAnInstructionOfTheGrammar) {
  for (const OpcodeClaim& claim : kOpcodeClaims) {
    EXPECT_NE(grammar::FindInstruction(static_cast<uint32_t>(claim.opcode)), nullptr)
        << static_cast<uint32_t>(claim.opcode);
  }
}

}  // namespace
}  // namespace xmx::interp
