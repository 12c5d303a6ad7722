// ModuleInfo on test/ir/layout.spv (see layout.spvasm): entry points, execution modes, names,
// decorations (groups resolved), capabilities, extensions and the call graph.
#include <gtest/gtest.h>

#include <filesystem>

#include "ir/module_info.hpp"
#include "spirv_files.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {
namespace {

class IrInfoTest : public ::testing::Test {
 protected:
  IrInfoTest() : module_(Load()), info_(module_) {}

  static Module Load() {
    return spirv_files::ReadModule(std::filesystem::path(XMX_TEST_DIR) / "ir" / "layout.spv");
  }

  const Function& FunctionAt(size_t index) const {
    return *std::next(module_.functions().begin(), static_cast<std::ptrdiff_t>(index));
  }

  Module module_;
  ModuleInfo info_;
};

TEST_F(IrInfoTest, EntryPointsAndExecutionModes) {
  ASSERT_EQ(info_.entry_points().size(), 2u);
  const EntryPoint* gemm = info_.FindEntryPoint("gemm");
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->model, spv::ExecutionModel::Kernel);
  EXPECT_EQ(gemm->function_id, FunctionAt(1).id());
  EXPECT_EQ(gemm->interface.size(), 1u);
  EXPECT_EQ(info_.FindEntryPoint("nope"), nullptr);

  const std::optional<ExecutionModeInfo> subgroup =
      info_.FindExecutionMode(gemm->function_id, spv::ExecutionMode::SubgroupSize);
  ASSERT_TRUE(subgroup);
  EXPECT_EQ(std::vector<uint32_t>(subgroup->operands.begin(), subgroup->operands.end()),
            (std::vector<uint32_t>{16}));
  const std::optional<ExecutionModeInfo> local =
      info_.FindExecutionMode(gemm->function_id, spv::ExecutionMode::LocalSize);
  ASSERT_TRUE(local);
  EXPECT_EQ(std::vector<uint32_t>(local->operands.begin(), local->operands.end()),
            (std::vector<uint32_t>{16, 1, 1}));
  EXPECT_FALSE(local->operands_are_ids);
  EXPECT_EQ(info_.GetExecutionModes(gemm->function_id).size(), 2u);

  const EntryPoint* other = info_.FindEntryPoint("other");
  ASSERT_NE(other, nullptr);
  const std::optional<ExecutionModeInfo> local_id =
      info_.FindExecutionMode(other->function_id, spv::ExecutionMode::LocalSizeId);
  ASSERT_TRUE(local_id);
  EXPECT_TRUE(local_id->operands_are_ids);
  EXPECT_EQ(local_id->operands.size(), 3u);
  EXPECT_FALSE(info_.FindExecutionMode(other->function_id, spv::ExecutionMode::SubgroupSize));
}

TEST_F(IrInfoTest, Names) {
  EXPECT_EQ(info_.GetName(FunctionAt(0).id()), "helper");
  EXPECT_EQ(info_.GetName(FunctionAt(2).id()), "");
  const uint32_t st = module_.debug().back().opcode() == spv::Op::OpModuleProcessed
                          ? std::prev(module_.debug().end(), 2)->word(0)
                          : 0;
  EXPECT_EQ(info_.GetName(st), "st");
  EXPECT_EQ(info_.GetMemberName(st, 1), "b");
  EXPECT_EQ(info_.GetMemberName(st, 2), "");
}

TEST_F(IrInfoTest, Decorations) {
  const uint32_t gid = info_.FindEntryPoint("gemm")->interface[0];
  const DecorationInfo* builtin = info_.FindDecoration(gid, spv::Decoration::BuiltIn);
  ASSERT_NE(builtin, nullptr);
  ASSERT_EQ(builtin->operands.size(), 1u);
  EXPECT_EQ(builtin->operands[0], static_cast<uint32_t>(spv::BuiltIn::GlobalInvocationId));
  EXPECT_TRUE(info_.HasDecoration(gid, spv::Decoration::Constant));
  EXPECT_FALSE(info_.HasDecoration(gid, spv::Decoration::Restrict));
  EXPECT_EQ(info_.GetDecorations(gid).size(), 2u);

  // OpGroupDecorate applies the group's Restrict to both helper parameters.
  for (const Instruction& param : FunctionAt(0).parameters) {
    EXPECT_TRUE(info_.HasDecoration(param.result_id(), spv::Decoration::Restrict));
  }

  // A member decoration is listed with its member, and is not a decoration of the struct itself.
  const uint32_t st = std::prev(module_.debug().end(), 2)->word(0);
  ASSERT_EQ(info_.GetDecorations(st).size(), 1u);
  EXPECT_EQ(info_.GetDecorations(st)[0].member, 1u);
  EXPECT_EQ(info_.GetDecorations(st)[0].operands[0], 4u);
  EXPECT_FALSE(info_.HasDecoration(st, spv::Decoration::Offset));

  bool found_alignment_id = false;
  for (const Instruction& inst : module_.annotations()) {
    if (inst.opcode() != spv::Op::OpDecorateId) continue;
    found_alignment_id = info_.HasDecoration(inst.word(0), spv::Decoration::AlignmentId);
  }
  EXPECT_TRUE(found_alignment_id);
}

TEST_F(IrInfoTest, CapabilitiesAndExtensions) {
  EXPECT_TRUE(info_.HasCapability(spv::Capability::Kernel));
  EXPECT_TRUE(info_.HasCapability(spv::Capability::SubgroupMatrixMultiplyAccumulateINTEL));
  EXPECT_FALSE(info_.HasCapability(spv::Capability::Shader));
  EXPECT_TRUE(info_.HasExtension("SPV_INTEL_subgroup_matrix_multiply_accumulate"));
  EXPECT_FALSE(info_.HasExtension("SPV_KHR_cooperative_matrix"));
}

TEST_F(IrInfoTest, CallGraph) {
  const uint32_t helper = FunctionAt(0).id();
  const uint32_t gemm = FunctionAt(1).id();
  EXPECT_EQ(info_.GetFunction(gemm), &FunctionAt(1));
  EXPECT_EQ(info_.GetFunction(12345), nullptr);
  // Two calls, listed once.
  EXPECT_EQ(std::vector<uint32_t>(info_.GetCallees(gemm).begin(), info_.GetCallees(gemm).end()),
            (std::vector<uint32_t>{helper}));
  EXPECT_TRUE(info_.GetCallees(helper).empty());
  EXPECT_TRUE(info_.GetCallees(FunctionAt(2).id()).empty());
}

}  // namespace
}  // namespace xmx::ir
