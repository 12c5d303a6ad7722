// xmx-val on built-in calls (source/builtins): the rules of the instruction a call stands for
// apply and name the call; what the upgrade adds (capabilities, constants) draws nothing, and the
// user's own instructions are still checked against the user's own declarations.
#include <gtest/gtest.h>

#include <string>

#include "val/validate_parsed.hpp"
#include "val_test_support.hpp"
#include "xmx/device.hpp"
#include "xmx/validator.hpp"

namespace xmx::val {
namespace {

using testing::Assemble;
using testing::Dump;
using testing::HasRule;

// A kernel that calls the 2D block read `name` (imported) and, when `own_load` is set, also
// holds an OpSubgroup2DBlockLoadINTEL of its own, for which it declares no capability.
std::string Module(const std::string& name, bool own_load) {
  std::string text = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpCapability SubgroupDispatch
OpCapability Int16
)";
  if (own_load) text += "OpExtension \"SPV_INTEL_2d_block_io\"\n";
  text += R"(OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpExecutionMode %k SubgroupSize 16
OpDecorate %read LinkageAttributes ")" +
          name + R"(" Import
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ushort = OpTypeInt 16 0
%v2uint = OpTypeVector %uint 2
%gptr = OpTypePointer CrossWorkgroup %ushort
%pptr = OpTypePointer Function %ushort
%kfn = OpTypeFunction %void %gptr
%readfn = OpTypeFunction %void %gptr %uint %uint %uint %v2uint %pptr
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_8 = OpConstant %uint 8
%uint_16 = OpConstant %uint 16
%uint_64 = OpConstant %uint 64
%coord = OpConstantComposite %v2uint %uint_0 %uint_0
%read = OpFunction %void None %readfn
OpFunctionEnd
%k = OpFunction %void None %kfn
%base = OpFunctionParameter %gptr
%entry = OpLabel
%priv = OpVariable %pptr Function
%call = OpFunctionCall %void %read %base %uint_64 %uint_64 %uint_64 %coord %priv
)";
  if (own_load) {
    text +=
        "OpSubgroup2DBlockLoadINTEL %uint_2 %uint_16 %uint_8 %uint_1 %base %uint_64 "
        "%uint_64 %uint_64 %coord %priv\n";
  }
  text += "OpReturn\nOpFunctionEnd\n";
  return text;
}

ValidationResult ValidateOn(const std::string& text, const char* device) {
  ValidatorOptions options;
  options.device = device::FindBuiltinProfile(device);
  return Validate(Assemble(text), options);
}

TEST(ValBuiltinCalls, ValidCallNeedsNoCapability) {
  const ValidationResult r =
      ValidateOn(Module("intel_sub_group_2d_block_read_16b_8r16x1c", false), "pvc");
  EXPECT_TRUE(r.valid) << Dump(r);
  EXPECT_TRUE(r.diagnostics.empty()) << Dump(r);
}

TEST(ValBuiltinCalls, TheInstructionsRulesNameTheCall) {
  const ValidationResult r =
      ValidateOn(Module("intel_sub_group_2d_block_read_16b_8r7x1c", false), "pvc");
  EXPECT_FALSE(r.valid);
  ASSERT_TRUE(HasRule(r, "block2d.block-width.multiple", Severity::kError)) << Dump(r);
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule != "block2d.block-width.multiple") continue;
    EXPECT_EQ(d.message.rfind("call of 'intel_sub_group_2d_block_read_16b_8r7x1c' (as "
                              "OpSubgroup2DBlockLoadINTEL): ",
                              0),
              0u)
        << d.message;
    EXPECT_EQ(d.opcode, static_cast<uint32_t>(spv::Op::OpFunctionCall));
    EXPECT_NE(d.instruction_text.find("OpFunctionCall"), std::string::npos) << d.instruction_text;
  }
  // dg2 has no 2D block IO at all.
  EXPECT_TRUE(HasRule(ValidateOn(Module("intel_sub_group_2d_block_read_16b_8r16x1c", false), "dg2"),
                      "block2d.unsupported", Severity::kError));
}

TEST(ValBuiltinCalls, TheUsersOwnInstructionKeepsItsDeclarationRules) {
  // The call needs no capability, but the module's own load does: the upgrade must not lend it
  // the capability it adds for the call.
  const ValidationResult r =
      ValidateOn(Module("intel_sub_group_2d_block_read_16b_8r16x1c", true), "pvc");
  EXPECT_FALSE(r.valid);
  int on_call = 0, on_own = 0;
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule != "decl.capability") continue;
    (d.message.find("call of") != std::string::npos ? on_call : on_own)++;
  }
  EXPECT_EQ(on_call, 0) << Dump(r);
  EXPECT_EQ(on_own, 1) << Dump(r);
}

// xmx-opt validates its output with the overload that upgrades the calls in the module itself:
// it must say exactly what the copying one says (errors on the call, on the user's own
// instruction, none at all).
TEST(ValBuiltinCalls, ValidatingInPlaceSaysWhatTheCopySays) {
  const std::pair<std::string, bool> cases[] = {
      {"intel_sub_group_2d_block_read_16b_8r16x1c", false},
      {"intel_sub_group_2d_block_read_16b_8r7x1c", false},
      {"intel_sub_group_2d_block_read_16b_8r16x1c", true}};
  for (const auto& [name, own_load] : cases) {
    const std::vector<uint32_t> words = Assemble(Module(name, own_load));
    ValidatorOptions options;
    options.device = device::FindBuiltinProfile("pvc");
    std::optional<ir::Module> module = ir::Module::FromWords(words, nullptr);
    ASSERT_TRUE(module);
    const ValidationResult copied = ValidateParsed(*module, words, options);
    const ValidationResult in_place = ValidateParsed(std::move(*module), words, options);
    EXPECT_EQ(in_place.valid, copied.valid) << name;
    EXPECT_EQ(Dump(in_place), Dump(copied)) << name;
    EXPECT_EQ(Dump(copied), Dump(Validate(words, options))) << name;
    // Its input is validated with the overload that upgrades the calls in place and undoes it:
    // the same diagnostics, and the module the passes read next is the one that was read.
    std::optional<ir::Module> input = ir::Module::FromWords(words, nullptr);
    ASSERT_TRUE(input);
    const ValidationResult restored = ValidateParsedInPlace(*input, words, options);
    EXPECT_EQ(Dump(restored), Dump(copied)) << name;
    EXPECT_EQ(input->ToWords(), words) << name;
  }
}

}  // namespace
}  // namespace xmx::val
