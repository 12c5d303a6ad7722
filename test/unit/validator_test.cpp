// xmx-val's pipeline: declaration rules for extended instructions and enumerants, the checks of
// what the lifted form hides, and core errors found through the bridge in extended modules.
#include "xmx/validator.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "spirv-tools/libspirv.hpp"
#include "text/assembler.hpp"
#include "val_test_support.hpp"

namespace xmx::val {
namespace {

using testing::Assemble;
using testing::CountRule;
using testing::Dump;
using testing::HasRule;

// A kernel with one matrix multiply-accumulate; `caps` and `exts` are spliced in.
std::string MatrixKernel(const std::string& caps, const std::string& exts,
                         const std::string& operands =
                             "MatrixAPackedBFloat16INTEL|"
                             "MatrixBPackedBFloat16INTEL",
                         const std::string& a_operand = "%a") {
  return "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int16\nOpCapability "
         "SubgroupDispatch\nOpCapability Vector16\n" +
         caps + exts +
         R"(OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpExecutionMode %k SubgroupSize 16
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ushort = OpTypeInt 16 0
%float = OpTypeFloat 32
%v8ushort = OpTypeVector %ushort 8
%v8uint = OpTypeVector %uint 8
%v8float = OpTypeVector %float 8
%fn = OpTypeFunction %void
%k16 = OpConstant %uint 16
%a = OpConstantNull %v8ushort
%b = OpConstantNull %v8uint
%c = OpConstantNull %v8float
%k = OpFunction %void None %fn
%entry = OpLabel
%r = OpSubgroupMatrixMultiplyAccumulateINTEL %v8float %k16 )" +
         a_operand + " %b %c " + operands + R"(
OpReturn
OpFunctionEnd
)";
}

const char* kMmaCap = "OpCapability SubgroupMatrixMultiplyAccumulateINTEL\n";
const char* kMmaExt = "OpExtension \"SPV_INTEL_subgroup_matrix_multiply_accumulate\"\n";

TEST(Validator, ExtendedInstructionWithItsDeclarationsIsValid) {
  const ValidationResult r = Validate(Assemble(MatrixKernel(kMmaCap, kMmaExt)), {});
  EXPECT_TRUE(r.valid) << Dump(r);
}

TEST(Validator, MissingCapabilityOfAnExtendedInstruction) {
  const ValidationResult r = Validate(Assemble(MatrixKernel("", kMmaExt)), {});
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(HasRule(r, "decl.capability", Severity::kError)) << Dump(r);
}

TEST(Validator, MissingExtensionOfAnExtendedCapability) {
  const ValidationResult r = Validate(Assemble(MatrixKernel(kMmaCap, "")), {});
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(HasRule(r, "decl.extension", Severity::kError)) << Dump(r);
}

TEST(Validator, ProvisionalBitWithoutItsDraftExtensionIsAnError) {  // DECISIONS 17
  const ValidationResult r =
      Validate(Assemble(MatrixKernel(kMmaCap, kMmaExt,
                                     "MatrixAPackedFloat8E4M3INTEL|MatrixBPackedFloat8E4M3INTEL")),
               {});
  EXPECT_FALSE(r.valid) << Dump(r);
  EXPECT_TRUE(HasRule(r, "decl.extension.provisional", Severity::kError)) << Dump(r);
  EXPECT_FALSE(HasRule(r, "decl.extension.provisional", Severity::kWarning)) << Dump(r);
  const ValidationResult declared =
      Validate(Assemble(MatrixKernel(
                   kMmaCap,
                   std::string(kMmaExt) +
                       "OpExtension \"SPV_INTEL_subgroup_matrix_multiply_accumulate_float8\"\n",
                   "MatrixAPackedFloat8E4M3INTEL|MatrixBPackedFloat8E4M3INTEL")),
               {});
  for (const Diagnostic& d : declared.diagnostics) {
    EXPECT_NE(d.rule, "decl.extension.provisional") << Dump(declared);
  }
}

TEST(Validator, UndefinedIdAsMatrixOperandIsFoundThroughTheBridge) {
  const ValidationResult r =
      Validate(Assemble(MatrixKernel(kMmaCap, kMmaExt, "None", "%undefined_a")), {});
  EXPECT_FALSE(r.valid);
  ASSERT_TRUE(HasRule(r, "core", Severity::kError)) << Dump(r);
  // The diagnostic points at the original instruction, shown as we disassemble it.
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule != "core") continue;
    EXPECT_NE(d.instruction_text.find("OpSubgroupMatrixMultiplyAccumulateINTEL"), std::string::npos)
        << d.Format();
  }
}

TEST(Validator, TypeMismatchElsewhereInAnExtendedModuleIsFound) {
  std::string text = MatrixKernel(kMmaCap, kMmaExt);
  // An integer add whose operands are floats, next to the matrix instruction.
  text.replace(text.find("OpReturn"), 8, "%bad = OpIAdd %uint %k16 %c\nOpReturn");
  const ValidationResult r = Validate(Assemble(text), {});
  EXPECT_FALSE(r.valid);
  bool found = false;
  for (const Diagnostic& d : r.diagnostics) {
    found |= d.rule == "core" && d.instruction_text.find("OpIAdd") != std::string::npos;
  }
  EXPECT_TRUE(found) << Dump(r);
}

// SPIRV-Tools' messages as spirv-val prints them: its options left as they are.
std::vector<std::string> SpirvValMessages(const std::vector<uint32_t>& words) {
  std::vector<std::string> messages;
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  tools.SetMessageConsumer(
      [&messages](spv_message_level_t, const char*, const spv_position_t&, const char* text) {
        std::string message = text;
        messages.push_back(message.substr(0, message.find('\n')));
      });
  tools.Validate(words);
  return messages;
}

// xmx-val asks SPIRV-Tools for its verdict without the names it gives ids in messages (deriving
// them costs about 40% of its time) and asks again with them when there is something to say: the
// messages must still name the ids as spirv-val does, by their OpName or their type.
TEST(Validator, CoreMessagesNameIdsAsSpirvValDoes) {
  const std::string text = R"(OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %counter "counter"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%ptr = OpTypePointer Function %uint
%fn = OpTypeFunction %void
%one = OpConstant %float 1
%k = OpFunction %void None %fn
%entry = OpLabel
%counter = OpVariable %ptr Function
OpStore %counter %one
OpReturn
OpFunctionEnd
)";
  const std::vector<uint32_t> words = Assemble(text);
  const std::vector<std::string> expected = SpirvValMessages(words);
  ASSERT_FALSE(expected.empty());
  ASSERT_NE(expected[0].find("%counter"), std::string::npos) << expected[0];
  const ValidationResult r = Validate(words, {});
  EXPECT_FALSE(r.valid);
  std::vector<std::string> core;
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule == "core") core.push_back(d.message);
  }
  EXPECT_EQ(core, expected) << Dump(r);
}

TEST(Validator, NonDominatingMatrixOperandIsFound) {
  std::string text = MatrixKernel(kMmaCap, kMmaExt, "None", "%late");
  // %late is defined in a block that the matrix instruction's block does not follow.
  text.replace(text.find("OpReturn"), 8,
               "OpBranch %exit\n%other = OpLabel\n%late = OpCopyObject %v8ushort %a\n"
               "OpBranch %exit\n%exit = OpLabel\nOpReturn");
  const ValidationResult r = Validate(Assemble(text), {});
  EXPECT_FALSE(r.valid);
  bool found = false;
  for (const Diagnostic& d : r.diagnostics) {
    found |=
        d.rule == "core" &&
        d.instruction_text.find("OpSubgroupMatrixMultiplyAccumulateINTEL") != std::string::npos;
  }
  EXPECT_TRUE(found) << Dump(r);
}

TEST(Validator, LinkageAddedByTheBridgeDoesNotExcuseAMissingEntryPoint) {
  std::string text = MatrixKernel(kMmaCap, kMmaExt);
  text.replace(text.find("OpEntryPoint"),
               text.find('\n', text.find("OpEntryPoint")) - text.find("OpEntryPoint") + 1, "");
  text.replace(text.find("OpExecutionMode"),
               text.find('\n', text.find("OpExecutionMode")) - text.find("OpExecutionMode") + 1,
               "");
  const ValidationResult r = Validate(Assemble(text), {});
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(HasRule(r, "bridge.entry-point", Severity::kError)) << Dump(r);
}

// A type with no lifted form (a 4-bit integer in a module that uses every integer width
// SPIRV-Tools knows, so none can stand in for it): the user is told that core validation was
// skipped, and our rules still run.
TEST(Validator, UnliftableModuleSkipsCoreValidationWithAWarning) {
  const std::string text = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability Int4TypeINTEL
OpExtension "SPV_INTEL_int4"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uchar = OpTypeInt 8 0
%ushort = OpTypeInt 16 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%u4 = OpTypeInt 4 0
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  const ValidationResult r = Validate(Assemble(text), {});
  EXPECT_TRUE(HasRule(r, "bridge.lift", Severity::kWarning)) << Dump(r);
  EXPECT_FALSE(HasRule(r, "core", Severity::kError)) << Dump(r);
}

TEST(Validator, StructuralErrorIsReported) {
  std::vector<uint32_t> words = Assemble(MatrixKernel(kMmaCap, kMmaExt));
  words.resize(words.size() - 1);  // OpFunctionEnd cut off
  const ValidationResult r = Validate(words, {});
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(HasRule(r, "binary.structure", Severity::kError)) << Dump(r);
}

// The modules the installed SPIRV-Tools crashes on (test/val/core_crashers, spirv-val segfaults
// on each): an error naming the OpenCL.std instruction, and no SPIRV-Tools verdict at all.
TEST(Validator, ModulesTheInstalledValidatorCrashesOnGetCorePrecondition) {
  int crashers = 0;
  const std::filesystem::path dir = std::filesystem::path(XMX_TEST_DIR) / "val" / "core_crashers";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".spvasm" || name.rfind("control_", 0) == 0) continue;
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    const ValidationResult r = Validate(Assemble(text), {});
    EXPECT_FALSE(r.valid) << name;
    ASSERT_TRUE(HasRule(r, "core.precondition", Severity::kError)) << name << Dump(r);
    for (const Diagnostic& d : r.diagnostics) {
      EXPECT_NE(d.rule, "core") << name << Dump(r);
      if (d.rule != "core.precondition") continue;
      EXPECT_NE(d.instruction_text.find("OpExtInst"), std::string::npos) << name << Dump(r);
      EXPECT_NE(d.message.find("OpenCL.std"), std::string::npos) << name << Dump(r);
    }
    ++crashers;
  }
  EXPECT_GE(crashers, 9);
}

// The public TargetEnv parses with SPIRV-Tools' names: what spirv-val accepts, and nothing else.
TEST(ValidatorOptions, TargetEnvParsesSpirvToolsNames) {
  EXPECT_EQ(TargetEnv::Parse("spv1.6"), TargetEnv::Spv16());
  EXPECT_EQ(TargetEnv::Parse("spv1.5"), TargetEnv::Spv15());
  EXPECT_NE(TargetEnv::Spv16(), TargetEnv::Spv15());
  ASSERT_TRUE(TargetEnv::Parse("opencl2.2").has_value());
  ASSERT_TRUE(TargetEnv::Parse("vulkan1.3").has_value());
  EXPECT_NE(TargetEnv::Parse("opencl2.2"), TargetEnv::Parse("vulkan1.3"));
  EXPECT_FALSE(TargetEnv::Parse("").has_value());
  EXPECT_FALSE(TargetEnv::Parse("spirv9").has_value());
}

// The environment reaches SPIRV-Tools: a SPIR-V 1.4 module is too new for spv1.0.
TEST(ValidatorOptions, TargetEnvReachesCoreValidation) {
  const std::vector<uint32_t> words = Assemble(MatrixKernel(kMmaCap, kMmaExt));
  ValidatorOptions options;
  EXPECT_TRUE(Validate(words, options).valid);
  options.target_env = *TargetEnv::Parse("spv1.0");
  const ValidationResult r = Validate(words, options);
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(HasRule(r, "core", Severity::kError)) << Dump(r);
}

// Each public limit is the SPIRV-Tools limit of the same name: a function of two parameters
// passes by default and fails with --max-function-args 1.
TEST(ValidatorOptions, LimitsReachCoreValidation) {
  const std::vector<uint32_t> words = Assemble(R"(OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %void
%fn2 = OpTypeFunction %void %uint %uint
%k = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
%g = OpFunction %void None %fn2
%x = OpFunctionParameter %uint
%y = OpFunctionParameter %uint
%gl = OpLabel
OpReturn
OpFunctionEnd
)");
  ValidatorOptions options;
  EXPECT_TRUE(Validate(words, options).valid);
  options.limits.emplace_back(ValidatorLimit::kMaxFunctionArgs, 1);
  const ValidationResult r = Validate(words, options);
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(HasRule(r, "core", Severity::kError)) << Dump(r);
}

}  // namespace
}  // namespace xmx::val
