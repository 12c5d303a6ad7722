// --lower-cooperative-matrix (source/opt/lower_cooperative_matrix*.cpp): the pass's copy of
// Intel's element mapping agrees with the interpreter's reference (interp/coop_layout.hpp) on
// every shape both accept; native blocks are found inside large slices; a module the pass cannot
// lower is left exactly as it was, with a diagnostic; what the lowered module declares.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "binary/parser.hpp"
#include "device/coop_layout.hpp"
#include "opt/lower_cooperative_matrix.hpp"
#include "xmx/device.hpp"

namespace xmx::opt {
namespace {

namespace fs = std::filesystem;
using lower_coop::ElementMapping;
using lower_coop::MatrixUse;

ir::Module ReadModule(const std::string& relative) {
  const fs::path path = fs::path(XMX_TEST_DIR) / relative;
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<uint32_t> words;
  Diagnostic err;
  EXPECT_TRUE(binary::BytesToWords(bytes, &words, &err)) << path;
  auto module = ir::Module::FromWords(words, &err);
  EXPECT_TRUE(module.has_value()) << path << ": " << err.message;
  return module ? std::move(*module) : ir::Module{};
}

TEST(LowerCoopMapping, AgreesWithTheInterpretersReference) {
  int compared = 0;
  for (uint32_t use = 0; use < 3; ++use) {
    for (uint32_t sg : {8u, 16u}) {
      for (uint32_t bits : {8u, 16u, 32u}) {
        for (uint32_t rows : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 16u, 32u, 64u}) {
          for (uint32_t cols : {8u, 16u, 24u, 32u, 64u}) {
            std::string why_ours, why_reference;
            auto ours =
                ElementMapping::Make(static_cast<MatrixUse>(use), rows, cols, bits, sg, &why_ours);
            auto reference = interp::CoopLayout::Make(static_cast<interp::CoopUse>(use), rows, cols,
                                                      bits, sg, &why_reference);
            ASSERT_EQ(ours.has_value(), reference.has_value())
                << use << " " << rows << "x" << cols << " " << bits << "-bit SG" << sg;
            if (!ours) continue;
            ASSERT_EQ(ours->length, reference->length());
            for (uint32_t e = 0; e < ours->length; ++e) {
              for (uint32_t lane = 0; lane < sg; ++lane) {
                const lower_coop::Coord a = ours->ElementCoord(e, lane);
                const interp::CoopCoord b = reference->ElementCoord(e, lane);
                ASSERT_TRUE(a.row == b.row && a.column == b.column)
                    << use << " " << rows << "x" << cols << " element " << e << " lane " << lane;
              }
            }
            ++compared;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 100);
}

TEST(LowerCoopMapping, FindsANativeBlockInsideALargeAccumulator) {
  std::string why;
  // C 32x64 at SG16 holds C[e % 32][(e / 32) * 16 + lane]; the 8x16 block at rows 8..15,
  // columns 16..31 is elements 40..47.
  auto whole = ElementMapping::Make(MatrixUse::kAccumulator, 32, 64, 32, 16, &why);
  auto part = ElementMapping::Make(MatrixUse::kAccumulator, 8, 16, 32, 16, &why);
  ASSERT_TRUE(whole && part);
  auto index = lower_coop::MapElements(*whole, *part, 8, 16);
  ASSERT_TRUE(index.has_value());
  EXPECT_EQ(*index, (std::vector<int>{40, 41, 42, 43, 44, 45, 46, 47}));
  // Rows past a 3-row matrix are padding.
  auto three = ElementMapping::Make(MatrixUse::kAccumulator, 3, 16, 32, 16, &why);
  auto four = ElementMapping::Make(MatrixUse::kAccumulator, 4, 16, 32, 16, &why);
  ASSERT_TRUE(three && four);
  EXPECT_EQ(*lower_coop::MapElements(*three, *four, 0, 0), (std::vector<int>{0, 1, 2, -1}));
  // A's 8-bit pairs at SG16 cannot be taken from a B slice's single elements.
  auto a = ElementMapping::Make(MatrixUse::kA, 8, 32, 8, 16, &why);
  auto b = ElementMapping::Make(MatrixUse::kB, 8, 32, 8, 16, &why);
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(lower_coop::MapElements(*b, *a, 0, 0).has_value());
}

TEST(LowerCoopPass, LeavesAModuleItCannotLowerAsItWas) {
  ir::Module module = ReadModule("coop/accept_spv/gemm_int8_sg8.llc22.O2.spv");
  const std::vector<uint32_t> before = module.ToWords();
  PassContext context;
  context.device = device::FindBuiltinProfile("pvc");
  EXPECT_EQ(LowerCooperativeMatrix(module, context), PassStatus::kFailed);
  EXPECT_EQ(module.ToWords(), before);
  ASSERT_EQ(context.diagnostics.size(), 1u);
  EXPECT_NE(context.diagnostics[0].message.find("Shape (M x N x K) 8x8x32 is not supported"),
            std::string::npos)
      << context.diagnostics[0].message;
}

TEST(LowerCoopPass, NeedsADevice) {
  ir::Module module = ReadModule("coop/accept_spv/gemm_bf16_khr.llc22.O2.spv");
  const std::vector<uint32_t> before = module.ToWords();
  PassContext context;
  EXPECT_EQ(LowerCooperativeMatrix(module, context), PassStatus::kFailed);
  EXPECT_EQ(module.ToWords(), before);
  ASSERT_EQ(context.diagnostics.size(), 1u);
  EXPECT_NE(context.diagnostics[0].message.find("no device was given"), std::string::npos);
}

TEST(LowerCoopPass, LeavesAModuleWithoutMatricesAlone) {
  ir::Module module = ReadModule("coop/spv/bf16_convert.llc22.O2.spv");
  const std::vector<uint32_t> before = module.ToWords();
  PassContext context;
  EXPECT_EQ(LowerCooperativeMatrix(module, context), PassStatus::kUnchanged);
  EXPECT_EQ(module.ToWords(), before);
  EXPECT_TRUE(context.diagnostics.empty());
}

TEST(LowerCoopPass, DeclaresWhatTheNativeInstructionsNeedAndNothingOfMatrices) {
  ir::Module module = ReadModule("coop/accept_spv/gemm_bf16_khr.llc22.O2.spv");
  PassContext context;
  context.device = device::FindBuiltinProfile("bmg");
  ASSERT_EQ(LowerCooperativeMatrix(module, context), PassStatus::kChanged);
  EXPECT_TRUE(module.HasCapability(spv::Capability::SubgroupMatrixMultiplyAccumulateINTEL));
  EXPECT_TRUE(module.HasCapability(spv::Capability::Subgroup2DBlockIOINTEL));
  EXPECT_TRUE(module.HasCapability(spv::Capability::Subgroup2DBlockTransformINTEL));
  EXPECT_TRUE(module.HasCapability(spv::Capability::BFloat16TypeKHR));
  EXPECT_FALSE(module.HasCapability(spv::Capability::CooperativeMatrixKHR));
  EXPECT_FALSE(module.HasCapability(spv::Capability::BFloat16CooperativeMatrixKHR));
  EXPECT_TRUE(module.HasExtension("SPV_INTEL_subgroup_matrix_multiply_accumulate"));
  EXPECT_TRUE(module.HasExtension("SPV_INTEL_2d_block_io"));
  EXPECT_FALSE(module.HasExtension("SPV_KHR_cooperative_matrix"));
  size_t matrices = 0;
  module.ForEachInstruction([&](const ir::Instruction& inst) {
    const uint32_t op = static_cast<uint32_t>(inst.opcode());
    matrices += op >= 4456 && op <= 4460;
  });
  EXPECT_EQ(matrices, 0u);
}

TEST(LowerCoopPass, PinsAKernelWithoutSubgroupSizeToTheSizeItWasLoweredFor) {
  ir::Module module = ReadModule("coop/run_spv/relu.llc22.O2.spv");
  PassContext context;
  context.device = device::FindBuiltinProfile("pvc");
  ASSERT_EQ(LowerCooperativeMatrix(module, context), PassStatus::kChanged);
  bool pinned = false;
  for (const ir::Instruction& mode : module.execution_modes()) {
    pinned |= mode.word(1) == static_cast<uint32_t>(spv::ExecutionMode::SubgroupSize) &&
              mode.word(2) == 16;
  }
  EXPECT_TRUE(pinned);
  EXPECT_TRUE(module.HasCapability(spv::Capability::SubgroupDispatch));
}

}  // namespace
}  // namespace xmx::opt
