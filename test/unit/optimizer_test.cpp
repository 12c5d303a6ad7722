// xmx-opt's driver as a library (include/xmx/optimizer.hpp): pipelines as spirv-opt spells them,
// our --compact-ids against the installed one, and the installed optimizer's known failures
// refused or skipped by module facts (the reproducers of test/opt/repro).
#include "xmx/optimizer.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <spirv-tools/optimizer.hpp>

#include "bridge/bridge.hpp"
#include "builtins/upgrade.hpp"
#include "grammar/grammar.hpp"
#include "opt/compact_ids.hpp"
#include "opt/encoded_positions.hpp"
#include "spirv_files.hpp"
#include "text/assembler.hpp"

namespace xmx::opt {
namespace {

namespace fs = std::filesystem;

std::vector<uint32_t> AssembleRepro(const std::string& name) {
  std::ifstream in(fs::path(XMX_TEST_DIR) / "opt" / "repro" / (name + ".spvasm"));
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  text::AssembleOptions options;
  options.version = 0x00010000;  // spirv-opt's default environment (spv1.5) takes SPIR-V 1.0
  std::vector<uint32_t> words;
  Diagnostic error;
  EXPECT_TRUE(text::Assemble(text, options, &words, &error)) << name << ": " << error.Format();
  return words;
}

std::vector<PassStep> Steps(std::vector<std::string> flags) {
  Result<std::vector<PassStep>> steps = ParsePipeline(flags);
  EXPECT_TRUE(steps.ok()) << (steps.diagnostics().empty() ? "" : steps.diagnostics()[0].message);
  return steps.ok() ? *steps : std::vector<PassStep>{};
}

bool Says(const std::vector<Diagnostic>& diagnostics, Severity severity, const std::string& text) {
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == severity && d.message.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(OptimizerPipeline, RecipesExpandIntoTheirPassesInOrder) {
  const std::vector<PassStep> steps = Steps({"--ccp", "-O", "--strip-debug"});
  const std::vector<std::string> recipe = PerformancePassFlags();
  ASSERT_GT(recipe.size(), 20u);
  ASSERT_EQ(steps.size(), recipe.size() + 2);
  EXPECT_EQ(steps.front().flag, "--ccp");
  EXPECT_TRUE(steps.front().macro.empty());
  for (size_t i = 0; i < recipe.size(); ++i) {
    EXPECT_EQ(steps[i + 1].flag, recipe[i]);
    EXPECT_EQ(steps[i + 1].macro, "-O");
  }
  EXPECT_EQ(steps.back().flag, "--strip-debug");
}

TEST(OptimizerPipeline, UsageErrorsNameTheFlag) {
  for (const auto& [flag, text] : std::vector<std::pair<std::string, std::string>>{
           {"--no-such-pass", "--no-such-pass"},
           {"--upgrade-builtin-calls=pvc", "takes no argument"},
           {"--loop-fission", "loop-fission"},
           {"-Oconfig=/nonexistent/flags.cfg", "/nonexistent/flags.cfg"}}) {
    Result<std::vector<PassStep>> steps = ParsePipeline(std::vector<std::string>{flag});
    EXPECT_FALSE(steps.ok()) << flag;
    EXPECT_TRUE(Says(steps.diagnostics(), Severity::kError, text)) << flag;
  }
}

TEST(OptimizerPipeline, OconfigReadsFlagsAndSkipsComments) {
  const fs::path config = fs::temp_directory_path() / "xmx_optimizer_test.cfg";
  std::ofstream(config) << "# a comment --ccp\n--merge-blocks  --upgrade-builtin-calls\n\t-O\n";
  const std::vector<PassStep> steps = Steps({"-Oconfig=" + config.string()});
  fs::remove(config);
  ASSERT_EQ(steps.size(), 2 + PerformancePassFlags().size());
  EXPECT_EQ(steps[0].flag, "--merge-blocks");
  EXPECT_EQ(steps[1].kind, PassStep::Kind::kOurs);
  EXPECT_EQ(steps[1].macro, "-Oconfig=" + config.string());
  EXPECT_EQ(steps[2].macro, "-Oconfig=" + config.string());
}

// Our --compact-ids (used on modules with the extensions) numbers ids exactly as the installed
// pass does, on every core-only module of the corpus.
TEST(OptimizerCompactIds, SameIdsAsTheInstalledPass) {
  size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(XMX_TEST_DIR) / "corpus" / "spv")) {
    const std::vector<uint32_t> words = spirv_files::ReadWords(entry.path());
    Diagnostic error;
    std::optional<ir::Module> module = ir::Module::FromWords(words, &error);
    ASSERT_TRUE(module) << entry.path();
    if (bridge::HasExtendedContent(*module)) continue;
    spvtools::Optimizer optimizer(SPV_ENV_UNIVERSAL_1_6);
    optimizer.RegisterPassFromFlag("--compact-ids");
    std::vector<uint32_t> theirs;
    spvtools::OptimizerOptions options;
    options.set_run_validator(false);
    ASSERT_TRUE(optimizer.Run(words.data(), words.size(), &theirs, options)) << entry.path();
    CompactIds(*module);
    EXPECT_EQ(module->ToWords(), theirs) << entry.path();
    ++compared;
  }
  EXPECT_GT(compared, 150u);
}

TEST(OptimizerSafety, SsaRewriteOfAPointerKeptInALocalIsRefused) {
  const std::vector<uint32_t> words = AssembleRepro("pointer_in_local");
  for (const char* flag : {"--ssa-rewrite", "--eliminate-local-multi-store"}) {
    Result<OptimizeReport> result = Optimize(words, Steps({flag}), {});
    EXPECT_FALSE(result.ok()) << flag;
    EXPECT_TRUE(Says(result.diagnostics(), Severity::kError,
                     std::string(flag) + " refused: the installed SPIRV-Tools takes a load"))
        << flag;
  }
  // Inside -O the pass is skipped with a warning and the rest runs.
  Result<OptimizeReport> result = Optimize(words, Steps({"-O"}), {});
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(Says(result.diagnostics(), Severity::kWarning, "-O: skipped --ssa-rewrite"));
  EXPECT_EQ(result->skipped, std::vector<std::string>{"--ssa-rewrite"});
}

TEST(OptimizerSafety, LoopInvariantCodeMotionPastAStoreIsRefused) {
  Result<OptimizeReport> result = Optimize(AssembleRepro("loop_counter_in_memory"),
                                           Steps({"--loop-invariant-code-motion"}), {});
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(Says(result.diagnostics(), Severity::kError,
                   "--loop-invariant-code-motion refused: the installed SPIRV-Tools hoists "
                   "loads out of loops"));
}

// The passes that crash the installed SPIRV-Tools on a function declaration run, and the
// declaration comes back as it was.
TEST(OptimizerSafety, PassesThatCrashOnDeclarationsRunAndKeepTheDeclaration) {
  const std::vector<uint32_t> words = AssembleRepro("function_declaration");
  for (const char* flag : {"--cfg-cleanup", "--loop-invariant-code-motion", "-Os", "--loop-peeling",
                           "--loop-unswitch", "--loop-fission=10"}) {
    Result<OptimizeReport> result = Optimize(words, Steps({flag}), {});
    ASSERT_TRUE(result.ok()) << flag;
    Diagnostic error;
    std::optional<ir::Module> module = ir::Module::FromWords(result->words, &error);
    ASSERT_TRUE(module) << flag;
    ASSERT_FALSE(module->functions().empty());
    const ir::Function& first = module->functions().front();
    EXPECT_TRUE(first.IsDeclaration()) << flag;
    EXPECT_EQ(first.def.word(0), 0u) << flag << ": the function control is restored";
    size_t imports = 0;
    for (const ir::Instruction& inst : module->annotations()) {
      imports += inst.opcode() == spv::Op::OpDecorate && inst.word(0) == first.id() &&
                 inst.StringOperand(2) == "_Z8atom_addPU3AS1Vjj";
    }
    EXPECT_EQ(imports, 1u) << flag;
  }
}

TEST(OptimizerSafety, RelaxedPrecisionOnAKernelIsRefused) {
  Result<OptimizeReport> result =
      Optimize(AssembleRepro("function_declaration"), Steps({"--relax-float-ops"}), {});
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(Says(result.diagnostics(), Severity::kError, "need the Shader capability"));
}

TEST(OptimizerSafety, FoldingPassesOnCooperativeMatricesAreRefused) {
  const std::vector<uint32_t> words =
      spirv_files::ReadWords(fs::path(XMX_SOURCE_DIR) / "examples" / "gemm_coop_bf16.spv");
  OptimizerOptions options;
  Result<OptimizeReport> refused = Optimize(words, Steps({"--ccp"}), options);
  EXPECT_FALSE(refused.ok());
  EXPECT_TRUE(Says(refused.diagnostics(), Severity::kError,
                   "--ccp refused: the module has cooperative matrices"));
  Result<OptimizeReport> merged = Optimize(words, Steps({"--remove-duplicates"}), options);
  EXPECT_FALSE(merged.ok());
  // Passes that only move whole values run; -O keeps those.
  Result<OptimizeReport> recipe = Optimize(words, Steps({"-O"}), options);
  ASSERT_TRUE(recipe.ok());
  EXPECT_TRUE(Says(recipe.diagnostics(), Severity::kWarning, "-O: skipped "));
  EXPECT_TRUE(Says(recipe.diagnostics(), Severity::kWarning, "--ccp"));
  Result<OptimizeReport> compact = Optimize(words, Steps({"--compact-ids"}), options);
  EXPECT_TRUE(compact.ok());
}

TEST(OptimizerValidation, AnInvalidInputIsRefusedUnlessValidationIsSkipped) {
  std::vector<uint32_t> words = AssembleRepro("function_declaration");
  words[1] = 0x00010600;  // SPIR-V 1.6: not for spirv-opt's default environment (spv1.5)
  Result<OptimizeReport> result = Optimize(words, Steps({"--ccp"}), {});
  EXPECT_FALSE(result.ok());
  EXPECT_TRUE(Says(result.diagnostics(), Severity::kError, "1.6"));
  OptimizerOptions options;
  options.target_env = xmx::TargetEnv::Spv16();
  EXPECT_TRUE(Optimize(words, Steps({"--ccp"}), options).ok());
}

// The output is validated from the module the passes left, not from a parse of what was written:
// its instructions must carry the places they have in the written words, or the diagnostics would
// point at the wrong instructions.
TEST(OptimizerValidation, OutputInstructionsGetThePlacesTheyHaveInTheWrittenWords) {
  std::optional<ir::Module> module =
      ir::Module::FromWords(AssembleRepro("function_declaration"), nullptr);
  ASSERT_TRUE(module);
  // Edits as a pass makes them: an instruction added in the first body (so every later one
  // moves), with a debug line of its own, and one added among the globals.
  ir::Function* body = nullptr;
  for (ir::Function& function : module->functions()) {
    if (!function.IsDeclaration()) body = &function;
  }
  ASSERT_NE(body, nullptr);
  ir::InstructionList& first_block = body->blocks.front().instructions;
  ir::Instruction nop(spv::Op::OpNop);
  nop.debug_lines().emplace_back(spv::Op::OpNoLine);
  first_block.insert(first_block.begin(), std::move(nop));
  ir::Instruction type(spv::Op::OpTypeFloat, 0, module->TakeNextId());
  type.AddOperand(grammar::OperandKindId::kLiteralInteger, {64});
  module->globals().push_back(std::move(type));

  SetEncodedPositions(*module);
  const std::vector<uint32_t> words = module->ToWords();
  std::optional<ir::Module> reread = ir::Module::FromWords(words, nullptr);
  ASSERT_TRUE(reread);
  std::vector<std::pair<size_t, size_t>> expected, got;
  reread->ForEachInstruction([&expected](const ir::Instruction& inst) {
    expected.emplace_back(inst.source_index(), inst.source_word_offset());
  });
  module->ForEachInstruction([&got](const ir::Instruction& inst) {
    got.emplace_back(inst.source_index(), inst.source_word_offset());
  });
  EXPECT_EQ(got, expected);
}

// What the bridge adds for the installed passes (its declarations, their linkage names, the
// Linkage capability, the extension that turns type uniqueness off) is gone from what -O writes
// on every module with the extensions.
TEST(OptimizerBridge, NothingTheBridgeAddedIsLeftInTheOutput) {
  size_t checked = 0;
  auto count = [](const ir::Module& module) {
    struct Counts {
      size_t declarations = 0, linkage_capabilities = 0, ignore_uniqueness = 0, bridge_names = 0;
    } counts;
    for (const ir::Function& f : module.functions()) counts.declarations += f.IsDeclaration();
    for (const ir::Instruction& inst : module.capabilities()) {
      counts.linkage_capabilities += inst.word(0) == uint32_t(spv::Capability::Linkage);
    }
    for (const ir::Instruction& inst : module.extensions()) {
      counts.ignore_uniqueness += inst.StringOperand(0) == bridge::kIgnoreTypeUniquenessExtension;
    }
    module.ForEachInstruction([&counts](const ir::Instruction& inst) {
      for (size_t i = 0; i < inst.num_operands(); ++i) {
        if (inst.operand(i).kind == grammar::OperandKindId::kLiteralString &&
            inst.StringOperand(i).starts_with(bridge::kDeclarationPrefix)) {
          ++counts.bridge_names;
        }
      }
    });
    return counts;
  };
  for (const auto& entry : fs::directory_iterator(fs::path(XMX_TEST_DIR) / "corpus" / "spv")) {
    const std::vector<uint32_t> words = spirv_files::ReadWords(entry.path());
    Diagnostic error;
    std::optional<ir::Module> input = ir::Module::FromWords(words, &error);
    ASSERT_TRUE(input) << entry.path();
    if (!bridge::HasExtendedContent(*input) || !val::Validate(words, {}).valid) continue;
    Result<OptimizeReport> result = Optimize(words, Steps({"-O", "--merge-blocks"}), {});
    ASSERT_TRUE(result.ok()) << entry.path() << ": " << result.diagnostics().front().Format();
    std::optional<ir::Module> output = ir::Module::FromWords(result->words, &error);
    ASSERT_TRUE(output) << entry.path();
    const auto before = count(*input), after = count(*output);
    EXPECT_LE(after.declarations, before.declarations) << entry.path();
    EXPECT_EQ(after.linkage_capabilities, before.linkage_capabilities) << entry.path();
    EXPECT_EQ(after.ignore_uniqueness, before.ignore_uniqueness) << entry.path();
    EXPECT_EQ(after.bridge_names, 0u) << entry.path();
    ++checked;
  }
  EXPECT_GE(checked, 25u);
}

// clang-15 + llvm-spirv-15 leave every 2D block and matrix built-in as an imported __spirv_*
// call: the pass writes the instructions, with their capability and extension string, and no
// built-in import is left (the harness, opt.harness.ours, runs them against the originals).
TEST(UpgradeBuiltinCallsPass, LlvmSpirv15ModulesGetTheInstructions) {
  size_t upgraded = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(XMX_TEST_DIR) / "corpus" / "spv")) {
    const std::string name = entry.path().filename().string();
    if (name.find(".spirv15.") == std::string::npos ||
        !(name.starts_with("gemm_") || name.starts_with("xmx_") || name.starts_with("blk2d_"))) {
      continue;
    }
    const std::vector<uint32_t> words = spirv_files::ReadWords(entry.path());
    // A few kernels are valid only at a subgroup size they do not declare (xmx_tf32's sg8 and
    // sg16 kernels); xmx-opt rejects those inputs as xmx-val does.
    if (!val::Validate(words, {}).valid) continue;
    Result<OptimizeReport> result = Optimize(words, Steps({"--upgrade-builtin-calls"}), {});
    ASSERT_TRUE(result.ok()) << name << ": " << result.diagnostics().front().Format();
    Diagnostic error;
    std::optional<ir::Module> module = ir::Module::FromWords(result->words, &error);
    ASSERT_TRUE(module) << name;
    EXPECT_FALSE(builtins::HasBuiltinImports(*module)) << name;
    bool block2d = false, matrix = false;
    module->ForEachInstruction([&](const ir::Instruction& inst) {
      block2d |= inst.opcode() == spv::Op::OpSubgroup2DBlockLoadINTEL ||
                 inst.opcode() == spv::Op::OpSubgroup2DBlockStoreINTEL ||
                 inst.opcode() == spv::Op::OpSubgroup2DBlockPrefetchINTEL ||
                 inst.opcode() == spv::Op::OpSubgroup2DBlockLoadTransposeINTEL ||
                 inst.opcode() == spv::Op::OpSubgroup2DBlockLoadTransformINTEL;
      matrix |= inst.opcode() == spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL;
    });
    EXPECT_TRUE(block2d || matrix) << name;
    if (block2d) {
      EXPECT_TRUE(module->HasCapability(spv::Capability::Subgroup2DBlockIOINTEL) ||
                  module->HasCapability(spv::Capability::Subgroup2DBlockTransformINTEL) ||
                  module->HasCapability(spv::Capability::Subgroup2DBlockTransposeINTEL))
          << name;
      EXPECT_TRUE(module->HasExtension("SPV_INTEL_2d_block_io")) << name;
    }
    if (matrix) {
      EXPECT_TRUE(module->HasCapability(spv::Capability::SubgroupMatrixMultiplyAccumulateINTEL))
          << name;
      EXPECT_TRUE(module->HasExtension("SPV_INTEL_subgroup_matrix_multiply_accumulate")) << name;
    }
    ++upgraded;
  }
  EXPECT_GE(upgraded, 16u);
}

}  // namespace
}  // namespace xmx::opt
