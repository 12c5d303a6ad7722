// Parse → emit identity: ir::Module::ToWords gives back the exact words it was read from, on the
// whole corpus and on the hand-written modules of test/ir/.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "binary/parser.hpp"
#include "spirv_files.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {
namespace {

namespace fs = std::filesystem;

bool ContainsOpcode(const Module& module, spv::Op opcode) {
  bool found = false;
  module.ForEachInstruction([&](const Instruction& inst) { found |= inst.opcode() == opcode; });
  return found;
}

// Returns, for each of `opcodes`, how many modules contain it.
std::vector<size_t> CheckRoundTrip(const std::vector<fs::path>& files,
                                   const std::vector<spv::Op>& opcodes) {
  std::vector<size_t> with_opcode(opcodes.size());
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.string());
    const std::vector<uint32_t> words = spirv_files::ReadWords(path);
    Diagnostic error;
    const std::optional<Module> module = Module::FromWords(words, &error);
    if (!module) {
      ADD_FAILURE() << "not read: " << error.Format();
      continue;
    }
    const std::vector<uint32_t> emitted = module->ToWords();
    if (emitted != words) {
      const auto mismatch =
          std::mismatch(emitted.begin(), emitted.end(), words.begin(), words.end());
      ADD_FAILURE() << "emitted " << emitted.size() << " words for " << words.size()
                    << "; first difference at word " << (mismatch.first - emitted.begin());
    }
    // A copy emits the same words: no state outside the sections.
    EXPECT_EQ(Module(*module).ToWords(), words);
    for (size_t i = 0; i < opcodes.size(); ++i) {
      if (ContainsOpcode(*module, opcodes[i])) ++with_opcode[i];
    }
  }
  return with_opcode;
}

TEST(IrRoundTrip, Corpus) {
  const std::vector<fs::path> files =
      spirv_files::SpvFilesIn(fs::path(XMX_TEST_DIR) / "corpus" / "spv");
  ASSERT_FALSE(files.empty()) << "no .spv modules in test/corpus/spv";
  const std::vector<size_t> counts = CheckRoundTrip(
      files, {spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL, spv::Op::OpSubgroup2DBlockLoadINTEL,
              spv::Op::OpSubgroup2DBlockStoreINTEL});
  EXPECT_GT(counts[0], 0u) << "no corpus module exercises matrix multiply-accumulate";
  EXPECT_GT(counts[1], 0u) << "no corpus module exercises 2D block loads";
  EXPECT_GT(counts[2], 0u) << "no corpus module exercises 2D block stores";
}

TEST(IrRoundTrip, HandWrittenModules) {
  const std::vector<fs::path> files = spirv_files::SpvFilesIn(fs::path(XMX_TEST_DIR) / "ir");
  ASSERT_GE(files.size(), 2u) << "test/ir/*.spv missing";
  const std::vector<size_t> counts = CheckRoundTrip(
      files,
      {spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL, spv::Op::OpSubgroup2DBlockLoadINTEL});
  EXPECT_EQ(counts, (std::vector<size_t>{1, 1}));
}

// Debug lines attach to the instruction that follows them, wherever that is.
TEST(IrRoundTrip, DebugLinesAttachToTheNextInstruction) {
  const std::vector<uint32_t> words =
      spirv_files::ReadWords(fs::path(XMX_TEST_DIR) / "ir" / "layout.spv");
  Diagnostic error;
  const std::optional<Module> module = Module::FromWords(words, &error);
  ASSERT_TRUE(module) << error.Format();

  const Instruction* first_constant = nullptr;
  for (const Instruction& inst : module->globals()) {
    if (inst.opcode() == spv::Op::OpConstant) {
      first_constant = &inst;
      break;
    }
  }
  ASSERT_NE(first_constant, nullptr);
  ASSERT_EQ(first_constant->debug_lines().size(), 1u);
  EXPECT_EQ(first_constant->debug_lines()[0].opcode(), spv::Op::OpLine);

  ASSERT_EQ(module->functions().size(), 3u);
  const Function& helper = module->functions().front();
  EXPECT_EQ(helper.def.debug_lines().size(), 1u);
  EXPECT_EQ(helper.parameters.size(), 2u);
  ASSERT_EQ(helper.blocks.size(), 3u);
  EXPECT_EQ(helper.blocks.front().label.debug_lines().size(), 1u);
  EXPECT_EQ(helper.blocks.front().instructions.front().debug_lines().size(), 1u);
  EXPECT_EQ(helper.end.debug_lines().size(), 1u);
  EXPECT_EQ(helper.blocks.back().instructions.front().opcode(), spv::Op::OpPhi);
  ASSERT_NE(helper.blocks.back().terminator(), nullptr);
  EXPECT_EQ(helper.blocks.back().terminator()->opcode(), spv::Op::OpReturnValue);
  ASSERT_EQ(module->trailing_lines().size(), 1u);

  const Function& kernel = *std::next(module->functions().begin());
  EXPECT_EQ(kernel.blocks.front().instructions.front().opcode(), spv::Op::OpVariable);
  EXPECT_EQ(module->execution_modes().size(), 3u);
  EXPECT_EQ(module->debug().size(), 9u);
  EXPECT_EQ(module->debug().front().opcode(), spv::Op::OpString);
  EXPECT_EQ(module->debug().back().opcode(), spv::Op::OpModuleProcessed);
  EXPECT_EQ(module->annotations().size(), 7u);
  EXPECT_TRUE(module->HasCapability(spv::Capability::Subgroup2DBlockIOINTEL));
  EXPECT_TRUE(module->HasExtension("SPV_INTEL_2d_block_io"));
  EXPECT_FALSE(module->HasExtension("SPV_INTEL_2d_block"));
  EXPECT_EQ(module->addressing_model(), spv::AddressingModel::Physical64);
}

// Instructions keep where they came from, for diagnostics.
TEST(IrRoundTrip, InstructionsKnowTheirSourcePlace) {
  const std::vector<uint32_t> words =
      spirv_files::ReadWords(fs::path(XMX_TEST_DIR) / "ir" / "layout.spv");
  const std::optional<Module> module = Module::FromWords(words, nullptr);
  ASSERT_TRUE(module);
  size_t expected_index = 0;
  size_t expected_offset = binary::kHeaderWords;
  module->ForEachInstruction([&](const Instruction& inst) {
    EXPECT_EQ(inst.source_index(), expected_index++);
    EXPECT_EQ(inst.source_word_offset(), expected_offset);
    expected_offset += inst.WordCount();
  });
  EXPECT_EQ(expected_offset, words.size());
}

// The public entry points name a broken binary as the validator does, so every tool reports the
// same rule id for it.
TEST(IrPublicApi, BrokenBinariesCarryTheStructureRule) {
  const std::vector<uint8_t> three_bytes = {0x03, 0x02, 0x23};
  const Result<std::vector<uint32_t>> words = WordsFromBytes(three_bytes);
  ASSERT_FALSE(words);
  ASSERT_FALSE(words.diagnostics().empty());
  EXPECT_EQ(words.diagnostics().front().rule, "binary.structure");

  const std::vector<uint32_t> header_only = {0x07230203, 0x00010400, 0, 10};  // 4 of 5 words
  const Result<Module> module = Module::Parse(header_only);
  ASSERT_FALSE(module);
  ASSERT_FALSE(module.diagnostics().empty());
  EXPECT_EQ(module.diagnostics().front().rule, "binary.structure");
}

}  // namespace
}  // namespace xmx::ir
