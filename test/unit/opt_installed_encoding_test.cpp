// RunInstalledPasses hands the installed optimizer a module's words without copying the module:
// declarations get their placeholder bodies in the module itself, which is emitted and then put
// back as it was. These tests check the module after a run that changes nothing, and the words
// it reports after a run that changes the module.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "opt/spirv_tools_passes.hpp"
#include "text/assembler.hpp"

namespace xmx {
namespace {

std::vector<uint32_t> Assemble(const std::string& text) {
  std::vector<uint32_t> words;
  Diagnostic error;
  text::AssembleOptions options;
  EXPECT_TRUE(text::Assemble(text, options, &words, &error)) << error.Format();
  return words;
}

ir::Module Read(const std::vector<uint32_t>& words) {
  Diagnostic error;
  std::optional<ir::Module> module = ir::Module::FromWords(words, &error);
  EXPECT_TRUE(module.has_value()) << error.Format();
  return module ? std::move(*module) : ir::Module();
}

// Two imported declarations, each with a linkage decoration, one next to the other and one after
// an unrelated decoration, and a kernel calling both.
const char* const kWithDeclarations = R"(
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kernel "kernel"
               OpName %first "first"
               OpDecorate %first LinkageAttributes "first" Import
               OpDecorate %second LinkageAttributes "second" Import
               OpDecorate %sum NoSignedWrap
               OpDecorate %third LinkageAttributes "third" Import
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
     %uint_1 = OpConstant %uint 1
     %unary = OpTypeFunction %uint %uint
     %kernel_type = OpTypeFunction %void
      %first = OpFunction %uint None %unary
          %a = OpFunctionParameter %uint
               OpFunctionEnd
     %second = OpFunction %uint Pure %unary
          %b = OpFunctionParameter %uint
               OpFunctionEnd
      %third = OpFunction %uint None %unary
          %c = OpFunctionParameter %uint
               OpFunctionEnd
     %kernel = OpFunction %void None %kernel_type
      %entry = OpLabel
          %x = OpFunctionCall %uint %first %uint_1
          %y = OpFunctionCall %uint %second %x
          %z = OpFunctionCall %uint %third %y
        %sum = OpIAdd %uint %z %uint_1
               OpReturn
               OpFunctionEnd
)";

TEST(OptInstalledEncoding, AnUnchangedModuleWithDeclarationsIsLeftAsItWas) {
  const std::vector<uint32_t> words = Assemble(kWithDeclarations);
  ir::Module module = Read(words);
  opt::EncodedModule encoded;
  encoded.words = words;
  std::vector<Diagnostic> diagnostics;
  // Nothing to strip: the pass changes nothing.
  const std::vector<std::string> flags = {"--strip-reflect"};
  const opt::PassStatus status =
      opt::RunInstalledPasses(module, encoded, flags, "strip-reflect", {}, diagnostics);
  ASSERT_NE(status, opt::PassStatus::kFailed) << diagnostics.front().message;
  EXPECT_EQ(status, opt::PassStatus::kUnchanged);
  EXPECT_EQ(module.ToWords(), words);
}

TEST(OptInstalledEncoding, AChangedModuleWithDeclarationsKeepsThemAndTheirDecorations) {
  const std::vector<uint32_t> words = Assemble(kWithDeclarations);
  ir::Module module = Read(words);
  opt::EncodedModule encoded;
  encoded.words = words;
  std::vector<Diagnostic> diagnostics;
  const std::vector<std::string> flags = {"--strip-debug"};
  ASSERT_EQ(opt::RunInstalledPasses(module, encoded, flags, "strip-debug", {}, diagnostics),
            opt::PassStatus::kChanged);
  // The placeholders were taken out of the optimizer's output: not the module word for word.
  EXPECT_TRUE(encoded.optimized_words.empty());
  EXPECT_TRUE(module.debug().empty());
  size_t declarations = 0;
  for (const ir::Function& function : module.functions()) declarations += function.IsDeclaration();
  EXPECT_EQ(declarations, 3u);
  size_t linkage = 0;
  for (const ir::Instruction& inst : module.annotations()) {
    linkage += inst.num_operands() > 1 &&
               inst.word(1) == static_cast<uint32_t>(spv::Decoration::LinkageAttributes);
  }
  EXPECT_EQ(linkage, 3u);
}

TEST(OptInstalledEncoding, TheOptimizersOutputIsTheModuleWhenNothingWasAdded) {
  const std::vector<uint32_t> words = Assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kernel "kernel"
               OpName %kernel "kernel"
       %void = OpTypeVoid
     %kernel_type = OpTypeFunction %void
     %kernel = OpFunction %void None %kernel_type
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ir::Module module = Read(words);
  opt::EncodedModule encoded;
  encoded.words = words;
  std::vector<Diagnostic> diagnostics;
  const std::vector<std::string> flags = {"--strip-debug"};
  ASSERT_EQ(opt::RunInstalledPasses(module, encoded, flags, "strip-debug", {}, diagnostics),
            opt::PassStatus::kChanged);
  EXPECT_EQ(encoded.optimized_words, module.ToWords());
  EXPECT_TRUE(module.debug().empty());
}

}  // namespace
}  // namespace xmx
