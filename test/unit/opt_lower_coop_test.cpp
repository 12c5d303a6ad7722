// --lower-cooperative-matrix (source/opt/lower_cooperative_matrix*.cpp): native blocks are found
// inside large slices of the element mapping (device/coop_layout.hpp, tested on its own in
// device_coop_layout_test.cpp); a module the pass cannot
// lower is left exactly as it was, with a diagnostic; what the lowered module declares.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "binary/parser.hpp"
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
