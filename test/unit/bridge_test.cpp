// The bridge: lift then lower is the identity on the whole corpus; the lifted form of a module
// with extended instructions is something the installed SPIRV-Tools reads.
#include "bridge/bridge.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <spirv-tools/libspirv.hpp>

#include "grammar/grammar.hpp"
#include "spirv_files.hpp"

namespace xmx::bridge {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> CorpusFiles() {
  return spirv_files::SpvFilesIn(fs::path(XMX_TEST_DIR) / "corpus" / "spv");
}

bool HasExtendedOpcode(const ir::Module& m) {
  bool found = false;
  m.ForEachInstruction([&](const ir::Instruction& inst) {
    const auto* d = grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
    found |= d && d->origin == grammar::Origin::kExtended;
  });
  return found;
}

TEST(Bridge, LiftThenLowerIsTheIdentityOnTheCorpus) {
  size_t lifted_count = 0, total = 0;
  for (const fs::path& path : CorpusFiles()) {
    const std::vector<uint32_t> words = spirv_files::ReadWords(path);
    Diagnostic err;
    auto module = ir::Module::FromWords(words, &err);
    ASSERT_TRUE(module) << path << ": " << err.Format();
    auto lifted = Lift(*module, &err);
    ASSERT_TRUE(lifted) << path << ": " << err.Format();
    EXPECT_EQ(lifted->changed, HasExtendedOpcode(*module)) << path;
    EXPECT_EQ(HasExtendedContent(*module), lifted->changed) << path;
    if (lifted->changed) {
      ++lifted_count;
      EXPECT_FALSE(HasExtendedOpcode(lifted->module)) << path;
      // Round trip through words, as when SPIRV-Tools hands a module back.
      auto reread = ir::Module::FromWords(lifted->module.ToWords(), &err);
      ASSERT_TRUE(reread) << path << ": " << err.Format();
      lifted->module = std::move(*reread);
    }
    ASSERT_TRUE(Lower(lifted->module, lifted->record, &err)) << path << ": " << err.Format();
    EXPECT_EQ(lifted->module.ToWords(), words) << path;
    ++total;
  }
  EXPECT_GE(total, 200u);
  EXPECT_GE(lifted_count, 20u);
}

TEST(Bridge, LiftedModulesAreReadBySpirvTools) {
  size_t checked = 0;
  for (const fs::path& path : CorpusFiles()) {
    Diagnostic err;
    auto module = ir::Module::FromWords(spirv_files::ReadWords(path), &err);
    ASSERT_TRUE(module);
    if (!HasExtendedOpcode(*module)) continue;
    auto lifted = Lift(*module, &err);
    ASSERT_TRUE(lifted) << err.Format();
    const std::vector<uint32_t> words = lifted->module.ToWords();
    spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
    std::string messages;
    tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&,
                                 const char* m) { messages += std::string(m) + "\n"; });
    std::string text;
    EXPECT_TRUE(tools.Disassemble(words, &text)) << path << ": " << messages;
    EXPECT_TRUE(tools.Validate(words)) << path << ": " << messages;
    ++checked;
  }
  EXPECT_GE(checked, 20u);
}

TEST(Bridge, OriginalIndicesPointBackAtTheSourceInstruction) {
  for (const fs::path& path : CorpusFiles()) {
    if (path.filename().string().rfind("gemm_bf16", 0) != 0) continue;
    Diagnostic err;
    auto module = ir::Module::FromWords(spirv_files::ReadWords(path), &err);
    ASSERT_TRUE(module);
    auto lifted = Lift(*module, &err);
    ASSERT_TRUE(lifted);
    const auto indices = OriginalIndices(lifted->module);
    size_t i = 0, calls_mapped = 0;
    lifted->module.ForEachInstruction([&](const ir::Instruction& inst) {
      if (inst.opcode() == spv::Op::OpFunctionCall && indices[i]) ++calls_mapped;
      ++i;
    });
    EXPECT_GT(calls_mapped, 0u);
    return;
  }
  FAIL() << "no gemm_bf16 module in the corpus";
}

}  // namespace
}  // namespace xmx::bridge
