// Rules split-mad.*: the imported split matrix multiply-accumulate built-ins (SPEC-NOTES D).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "text/assembler.hpp"
#include "val_test_support.hpp"
#include "xmx/device.hpp"
#include "xmx/validator.hpp"

namespace xmx::val {
namespace {

using testing::Assemble;
using testing::CountRule;
using testing::Dump;
using testing::HasRule;

bool HasFamilyError(const ValidationResult& r) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule.rfind("split-mad.", 0) == 0 && d.severity == Severity::kError) return true;
  }
  return false;
}

struct Spec {
  std::string linkage = "_Z42intel_sub_group_i8_i8_split_matrix_mad_k32iDv8_iDv2_i";
  std::string linkage_type = "Import";
  // Result, a, b, acc.
  std::string result = "%v2uint", a = "%uint", b = "%v8uint", acc = "%v2uint";
  std::string subgroup_size = "OpExecutionMode %k SubgroupSize 8\n";
  bool unreached_caller = false;  // a second, uncalled function that also calls the built-in
};

// A kernel calling one imported built-in declared as `spec` says.
std::string Module(const Spec& s) {
  std::string text = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpCapability SubgroupDispatch
OpCapability Vector16
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
)" + s.subgroup_size +
                     "OpDecorate %mad LinkageAttributes \"" + s.linkage + "\" " + s.linkage_type +
                     R"(
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%v4uint = OpTypeVector %uint 4
%v8uint = OpTypeVector %uint 8
%v2float = OpTypeVector %float 2
%fnk = OpTypeFunction %void
%fnmad = OpTypeFunction )" +
                     s.result + " " + s.a + " " + s.b + " " + s.acc + R"(
%na = OpConstantNull )" +
                     s.a + R"(
%nb = OpConstantNull )" +
                     s.b + R"(
%nc = OpConstantNull )" +
                     s.acc + R"(
%mad = OpFunction )" +
                     s.result + R"( None %fnmad
%pa = OpFunctionParameter )" +
                     s.a + R"(
%pb = OpFunctionParameter )" +
                     s.b + R"(
%pc = OpFunctionParameter )" +
                     s.acc + R"(
OpFunctionEnd
%k = OpFunction %void None %fnk
%e = OpLabel
%r = OpFunctionCall )" +
                     s.result + R"( %mad %na %nb %nc
OpReturn
OpFunctionEnd
)";
  if (s.unreached_caller) {
    text += R"(%h = OpFunction %void None %fnk
%he = OpLabel
%hr = OpFunctionCall )" +
            s.result + R"( %mad %na %nb %nc
OpReturn
OpFunctionEnd
)";
  }
  return text;
}

ValidationResult RunOn(const Spec& spec, const char* device = "opencl",
                       std::optional<uint32_t> subgroup_size = std::nullopt) {
  ValidatorOptions options;
  options.device = device::FindBuiltinProfile(device);
  EXPECT_NE(options.device, nullptr) << device;
  options.subgroup_size = subgroup_size;
  return Validate(Assemble(Module(spec)), options);
}

TEST(ValSplitMad, MatchingDeclarationIsValidWithAConventionWarning) {
  const ValidationResult r = RunOn({});
  EXPECT_TRUE(r.valid) << Dump(r);
  // The pairing of subgroups is DECISIONS 9, a convention.
  EXPECT_EQ(CountRule(r, "split-mad.signature", Severity::kWarning), 1u) << Dump(r);
  const ValidationResult dg2 = RunOn({}, "dg2");
  EXPECT_TRUE(dg2.valid) << Dump(dg2);
}

TEST(ValSplitMad, EveryTableFunctionIsRecognised) {
  Spec bf16;
  bf16.linkage = "_Z46intel_sub_group_bf16_bf16_split_matrix_mad_k16iDv8_iDv2_f";
  bf16.result = bf16.acc = "%v2float";
  EXPECT_FALSE(HasFamilyError(RunOn(bf16)));
  EXPECT_EQ(CountRule(RunOn(bf16), "split-mad.signature", Severity::kWarning), 1u);
  Spec u8;
  u8.linkage = "_Z42intel_sub_group_u8_i8_split_matrix_mad_k32Dv2_jDv8_iDv4_i";
  u8.a = "%v2uint";
  u8.result = u8.acc = "%v4uint";
  const ValidationResult r = RunOn(u8);
  EXPECT_TRUE(r.valid) << Dump(r);
}

TEST(ValSplitMad, SignatureMismatch) {
  Spec s;
  s.result = s.acc = "%v4uint";  // M = 4 needs a with 2 components
  const ValidationResult r = RunOn(s);
  EXPECT_EQ(CountRule(r, "split-mad.signature", Severity::kError), 1u) << Dump(r);
  Spec f;
  f.result = f.acc = "%v2float";  // i8 family accumulates in int
  EXPECT_EQ(CountRule(RunOn(f), "split-mad.signature", Severity::kError), 1u);
  // The profile "spec" still checks the signature.
  EXPECT_EQ(CountRule(RunOn(s, "spec"), "split-mad.signature", Severity::kError), 1u);
}

TEST(ValSplitMad, UnsupportedDevice) {
  const ValidationResult r = RunOn({}, "pvc");
  ASSERT_EQ(CountRule(r, "split-mad.unsupported", Severity::kError), 1u) << Dump(r);
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule == "split-mad.unsupported") EXPECT_NE(d.message.find("pvc"), std::string::npos);
  }
  EXPECT_EQ(CountRule(RunOn({}, "opencl"), "split-mad.unsupported", Severity::kError), 0u);
}

TEST(ValSplitMad, SubgroupSizeMustBe8) {
  Spec s;
  s.subgroup_size = "OpExecutionMode %k SubgroupSize 16\n";
  const ValidationResult r = RunOn(s);
  EXPECT_EQ(CountRule(r, "split-mad.subgroup-size", Severity::kError), 1u) << Dump(r);
  // Without a SubgroupSize mode every size of the device can reach the call: 16 and 32 fail.
  Spec none;
  none.subgroup_size = "";
  EXPECT_EQ(CountRule(RunOn(none), "split-mad.subgroup-size", Severity::kError), 2u);
  EXPECT_EQ(CountRule(RunOn(none, "opencl", 8), "split-mad.subgroup-size", Severity::kError), 0u);
  // The profile "spec" has no subgroup size in its rows.
  EXPECT_EQ(CountRule(RunOn(s, "spec"), "split-mad.subgroup-size", Severity::kError), 0u);
}

TEST(ValSplitMad, UnreachedCallerGetsOneRemark) {
  Spec s;
  s.unreached_caller = true;
  const ValidationResult r = RunOn(s);
  EXPECT_EQ(CountRule(r, "split-mad.subgroup-size.unknown", Severity::kRemark), 1u) << Dump(r);
  EXPECT_FALSE(HasFamilyError(r)) << Dump(r);
  // With --subgroup-size the unreached caller is checked at that size.
  const ValidationResult sized = RunOn(s, "opencl", 16);
  EXPECT_EQ(CountRule(sized, "split-mad.subgroup-size.unknown", Severity::kRemark), 0u);
  EXPECT_EQ(CountRule(sized, "split-mad.subgroup-size", Severity::kError), 1u) << Dump(sized);
}

TEST(ValSplitMad, OtherImportsAndExportsAreIgnored) {
  Spec other;
  other.linkage = "_Z40intel_sub_group_bf16_bf16_matrix_mad_k16Dv8_sDv8_iDv8_f";
  other.result = other.acc = "%v4uint";
  const ValidationResult r = RunOn(other, "pvc");
  EXPECT_FALSE(HasFamilyError(r)) << Dump(r);
  EXPECT_EQ(CountRule(r, "split-mad.signature", Severity::kWarning), 0u);
}

}  // namespace
}  // namespace xmx::val
