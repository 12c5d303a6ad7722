// xmx-val on modules with cooperative matrices (issue 10): core validation runs through the
// bridge, and an error SPIRV-Tools finds (in a lifted call or elsewhere) is reported on the
// user's instruction; what the struct stand-ins would hide is checked by the bridge's rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "val_test_support.hpp"
#include "xmx/validator.hpp"

namespace xmx::val {
namespace {

using testing::Assemble;
using testing::Dump;
using testing::HasRule;

const char* const kHead = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_8 = OpConstant %uint 8
%ulong_8 = OpConstant %ulong 8
%float_2 = OpConstant %float 2
%acc = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_8 %uint_2
%ptr = OpTypePointer CrossWorkgroup %float
%fn = OpTypeFunction %void %ptr %bool
%k = OpFunction %void None %fn
%p = OpFunctionParameter %ptr
%cond = OpFunctionParameter %bool
%entry = OpLabel
)";

// The index of the instruction on the line of `text` that holds `needle` (one instruction a line).
size_t InstructionIndex(const std::string& text, const std::string& needle) {
  const size_t pos = text.find(needle);
  EXPECT_NE(pos, std::string::npos) << needle;
  return static_cast<size_t>(std::count(text.begin(), text.begin() + pos, '\n'));
}

// The diagnostic of `rule` and error severity, or nullptr.
const Diagnostic* FindError(const ValidationResult& r, const std::string& rule) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule == rule && d.severity == Severity::kError) return &d;
  }
  return nullptr;
}

TEST(BridgeCoopVal, AValidMatrixKernelGetsCoreValidationAndNoLiftWarning) {
  const std::string text =
      std::string(kHead) + R"(%m = OpCooperativeMatrixLoadKHR %acc %p %uint_0 %ulong_8
%twice = OpFAdd %acc %m %m
%e3 = OpCompositeExtract %float %twice 3
%filled = OpCompositeConstruct %acc %e3
OpCooperativeMatrixStoreKHR %p %filled %uint_0 %ulong_8
OpReturn
OpFunctionEnd
)";
  const ValidationResult r = Validate(Assemble(text), {});
  EXPECT_TRUE(r.valid) << Dump(r);
  EXPECT_FALSE(HasRule(r, "bridge.lift", Severity::kWarning)) << Dump(r);
}

// A value used where its definition does not dominate, both in calls that stand for matrix
// instructions: SPIRV-Tools names the block of the use, as it does in a core module.
TEST(BridgeCoopVal, DominanceErrorBetweenMatrixInstructionsIsMappedToTheBlock) {
  const std::string text = std::string(kHead) + R"(OpBranchConditional %cond %then %merge
%then = OpLabel
%m = OpCooperativeMatrixLoadKHR %acc %p %uint_0 %ulong_8
OpBranch %merge
%merge = OpLabel
OpCooperativeMatrixStoreKHR %p %m %uint_0 %ulong_8
OpReturn
OpFunctionEnd
)";
  const std::vector<uint32_t> words = Assemble(text);
  const ValidationResult r = Validate(words, {});
  EXPECT_FALSE(r.valid);
  const Diagnostic* d = FindError(r, "core");
  ASSERT_NE(d, nullptr) << Dump(r);
  EXPECT_NE(d->message.find("does not dominate"), std::string::npos) << Dump(r);
  ASSERT_TRUE(d->instruction_index);
  EXPECT_EQ(*d->instruction_index, InstructionIndex(text, "%merge = OpLabel")) << Dump(r);
}

TEST(BridgeCoopVal, UndefinedIdInAMatrixInstructionIsMappedToIt) {
  const std::string text =
      std::string(kHead) + R"(%m = OpCooperativeMatrixLoadKHR %acc %p %uint_0 %ulong_8
%twice = OpFAdd %acc %m %nowhere
OpCooperativeMatrixStoreKHR %p %twice %uint_0 %ulong_8
OpReturn
OpFunctionEnd
)";
  const ValidationResult r = Validate(Assemble(text), {});
  EXPECT_FALSE(r.valid);
  const Diagnostic* d = FindError(r, "core");
  ASSERT_NE(d, nullptr) << Dump(r);
  EXPECT_NE(d->message.find("has not been defined"), std::string::npos) << Dump(r);
  EXPECT_NE(d->instruction_text.find("OpFAdd"), std::string::npos) << Dump(r);
  ASSERT_TRUE(d->instruction_index);
  EXPECT_EQ(*d->instruction_index, InstructionIndex(text, "OpFAdd"));
}

// A core error on values that are no matrices, in a module the bridge lifts: SPIRV-Tools sees
// the instruction itself and the error names it.
TEST(BridgeCoopVal, WrongTypedIAddNextToMatricesIsACoreError) {
  const std::string text =
      std::string(kHead) + R"(%m = OpCooperativeMatrixLoadKHR %acc %p %uint_0 %ulong_8
%bad = OpIAdd %uint %float_2 %uint_1
OpCooperativeMatrixStoreKHR %p %m %uint_0 %ulong_8
OpReturn
OpFunctionEnd
)";
  const ValidationResult r = Validate(Assemble(text), {});
  EXPECT_FALSE(r.valid);
  const Diagnostic* d = FindError(r, "core");
  ASSERT_NE(d, nullptr) << Dump(r);
  EXPECT_NE(d->instruction_text.find("OpIAdd"), std::string::npos) << Dump(r);
  ASSERT_TRUE(d->instruction_index);
  EXPECT_EQ(*d->instruction_index, InstructionIndex(text, "OpIAdd")) << Dump(r);
}

// Upstream applies the uniqueness rule to cooperative-matrix types; their struct stand-ins are
// exempt from it, so the bridge's own rule reports the duplicate.
TEST(BridgeCoopVal, DuplicateMatrixTypeIsReported) {
  std::string text = std::string(kHead) + R"(OpReturn
OpFunctionEnd
)";
  text.insert(text.find("%ptr = "),
              "%acc_again = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_8 %uint_2\n");
  const ValidationResult r = Validate(Assemble(text), {});
  EXPECT_FALSE(r.valid);
  const Diagnostic* d = FindError(r, "bridge.unique-type");
  ASSERT_NE(d, nullptr) << Dump(r);
  EXPECT_NE(d->message.find("Duplicate non-aggregate type declarations"), std::string::npos);
  ASSERT_TRUE(d->instruction_index);
  EXPECT_EQ(*d->instruction_index, InstructionIndex(text, "%acc_again = ")) << Dump(r);

  // Two matrix types that differ (here in Use) are no duplicates.
  text.replace(text.find("%uint_8 %uint_2\n%ptr"), 15, "%uint_8 %uint_0");
  const ValidationResult distinct = Validate(Assemble(text), {});
  EXPECT_FALSE(HasRule(distinct, "bridge.unique-type", Severity::kError)) << Dump(distinct);
}

// With a bfloat16 next to a half the bridge turns SPIRV-Tools' uniqueness check off; a real
// duplicate elsewhere is still reported, by the bridge's rule.
TEST(BridgeCoopVal, DuplicatesAreFoundWhenSpirvToolsUniquenessCheckIsOff) {
  const std::string text = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Float16
OpCapability BFloat16TypeKHR
OpExtension "SPV_KHR_bfloat16"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bf16 = OpTypeFloat 16 BFloat16KHR
%half = OpTypeFloat 16
%uint = OpTypeInt 32 0
%uint_again = OpTypeInt 32 0
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  const ValidationResult r = Validate(Assemble(text), {});
  EXPECT_FALSE(r.valid);
  const Diagnostic* d = FindError(r, "bridge.unique-type");
  ASSERT_NE(d, nullptr) << Dump(r);
  ASSERT_TRUE(d->instruction_index);
  EXPECT_EQ(*d->instruction_index, InstructionIndex(text, "%uint_again = ")) << Dump(r);
  // ... and the bfloat16 and the half are not reported as one type.
  int duplicates = 0;
  for (const Diagnostic& diag : r.diagnostics) duplicates += diag.rule == "bridge.unique-type";
  EXPECT_EQ(duplicates, 1) << Dump(r);
}

}  // namespace
}  // namespace xmx::val
