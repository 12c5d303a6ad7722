// The facts --fuse-2d-block-loads decides with (source/opt/fuse_2d_block_loads_analysis.cpp),
// the declarations ModuleBuilder adds, and the pass on hand-written modules. The expected payload
// sizes are SPEC-NOTES A.5's per-invocation table, written out here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/def_use.hpp"
#include "ir/type_table.hpp"
#include "opt/fuse_2d_block_loads.hpp"
#include "opt/module_builder.hpp"
#include "opt/passes.hpp"
#include "text/assembler.hpp"

namespace xmx {
namespace {

using opt::fuse_detail::AffineValue;
using opt::fuse_detail::AffineValues;

ir::Module AssembleModule(const std::string& text) {
  std::vector<uint32_t> words;
  Diagnostic error;
  text::AssembleOptions options;
  EXPECT_TRUE(text::Assemble(text, options, &words, &error)) << error.Format();
  std::optional<ir::Module> module = ir::Module::FromWords(words, &error);
  EXPECT_TRUE(module.has_value()) << error.Format();
  return module ? std::move(*module) : ir::Module();
}

// The id an OpName gives `name`.
uint32_t IdOf(const ir::Module& module, const std::string& name) {
  for (const ir::Instruction& inst : module.debug()) {
    if (inst.opcode() == spv::Op::OpName && inst.StringOperand(1) == name) return inst.word(0);
  }
  ADD_FAILURE() << "no OpName " << name;
  return 0;
}

TEST(OptFuse, PayloadBytesFollowTheSpecNotesTable) {
  using device::Block2dOp;
  struct Row {
    Block2dOp op;
    uint32_t e, w, h, count, bytes;
  };
  // A.5's "units per WI" at subgroup size 16, times the unit's bytes.
  const Row rows[] = {
      {Block2dOp::kLoad, 1, 32, 8, 1, 8 * 2},
      {Block2dOp::kLoad, 1, 32, 8, 2, 16 * 2},
      {Block2dOp::kLoad, 1, 16, 8, 4, 32},
      {Block2dOp::kLoad, 1, 16, 32, 4, 128},
      {Block2dOp::kLoad, 2, 16, 8, 1, 8 * 2},
      {Block2dOp::kLoad, 2, 16, 32, 2, 64 * 2},
      {Block2dOp::kLoad, 4, 8, 1, 1, 1 * 4},
      {Block2dOp::kLoad, 4, 8, 2, 1, 1 * 4},
      {Block2dOp::kLoad, 4, 8, 4, 1, 2 * 4},
      {Block2dOp::kLoad, 4, 8, 32, 1, 16 * 4},
      {Block2dOp::kLoad, 4, 8, 1, 2, 2 * 4},
      {Block2dOp::kLoad, 4, 16, 8, 1, 8 * 4},
      {Block2dOp::kLoadTransform, 1, 16, 32, 1, 8 * 4},
      {Block2dOp::kLoadTransform, 1, 16, 32, 4, 32 * 4},
      {Block2dOp::kLoadTransform, 2, 16, 16, 1, 8 * 4},
      {Block2dOp::kLoadTransform, 2, 16, 32, 2, 32 * 4},
      {Block2dOp::kLoadTranspose, 4, 8, 16, 1, 8 * 4},
      {Block2dOp::kLoadTranspose, 4, 8, 32, 1, 16 * 4},
      {Block2dOp::kPrefetch, 2, 16, 8, 2, 0},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(
        opt::fuse_detail::PayloadBytesPerInvocation({row.op, row.e, row.w, row.h, row.count}, 16),
        row.bytes)
        << device::Block2dOpName(row.op) << " E" << row.e << " W" << row.w << " H" << row.h << " x"
        << row.count;
  }
}

constexpr const char* kValues = R"(
OpCapability Kernel
OpCapability Addresses
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %x "x"
OpName %p "p"
OpName %plus16 "plus16"
OpName %back "back"
OpName %shifted "shifted"
OpName %or16 "or16"
OpName %or32 "or32"
OpName %vec "vec"
OpName %inserted "inserted"
OpName %store_private "store_private"
OpName %store_global "store_global"
OpName %barrier "barrier"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%v2uint = OpTypeVector %uint 2
%ptr_g = OpTypePointer CrossWorkgroup %uint
%ptr_f = OpTypePointer Function %uint
%fn = OpTypeFunction %void %uint %ptr_g
%c5 = OpConstant %uint 5
%c16 = OpConstant %uint 16
%c32 = OpConstant %uint 32
%m48 = OpConstant %uint 4294967248
%c2 = OpConstant %uint 2
%k = OpFunction %void None %fn
%x = OpFunctionParameter %uint
%p = OpFunctionParameter %ptr_g
%entry = OpLabel
%var = OpVariable %ptr_f Function
%plus16 = OpIAdd %uint %x %c16
%plus32 = OpIAdd %uint %c16 %plus16
%back = OpIAdd %uint %plus32 %m48
%shifted = OpShiftLeftLogical %uint %x %c5
%or16 = OpBitwiseOr %uint %shifted %c16
%or32 = OpBitwiseOr %uint %shifted %c32
%vec = OpCompositeConstruct %v2uint %or16 %x
%inserted = OpCompositeInsert %v2uint %back %vec 1
%store_private = OpCopyObject %uint %x
OpStore %var %x
OpStore %p %x
OpControlBarrier %c2 %c2 %c2
OpReturn
OpFunctionEnd
)";

TEST(OptFuse, AffineValuesSeeThroughAddsOrsAndComposites) {
  ir::Module module = AssembleModule(kValues);
  const ir::DefUse def_use(module);
  const ir::TypeTable types(module);
  const AffineValues values(def_use, types);
  const uint32_t x = IdOf(module, "x"), shifted = IdOf(module, "shifted");
  EXPECT_EQ(values.Scalar(IdOf(module, "plus16")), (AffineValue{x, AffineValue::kWhole, 16}));
  // x + 16 + 16 - 48 (the constant read as a signed 32-bit value)
  EXPECT_EQ(values.Scalar(IdOf(module, "back")), (AffineValue{x, AffineValue::kWhole, -16}));
  EXPECT_EQ(values.TrailingZeros(shifted), 5u);
  // (x << 5) | 16 adds 16; | 32 sets a bit x << 5 may have: an opaque value of its own.
  EXPECT_EQ(values.Scalar(IdOf(module, "or16")), (AffineValue{shifted, AffineValue::kWhole, 16}));
  const uint32_t or32 = IdOf(module, "or32");
  EXPECT_EQ(values.Scalar(or32), (AffineValue{or32, AffineValue::kWhole, 0}));
  const uint32_t inserted = IdOf(module, "inserted");
  EXPECT_EQ(values.Component(inserted, 0), (AffineValue{shifted, AffineValue::kWhole, 16}));
  EXPECT_EQ(values.Component(inserted, 1), (AffineValue{x, AffineValue::kWhole, -16}));
  EXPECT_EQ(values.Scalar(IdOf(module, "store_private")), (AffineValue{x, AffineValue::kWhole, 0}));
}

TEST(OptFuse, OnlyWritesToSharedMemoryAndSynchronisationStopAGroup) {
  ir::Module module = AssembleModule(kValues);
  const ir::DefUse def_use(module);
  const ir::TypeTable types(module);
  std::vector<opt::fuse_detail::MemoryEffect> effects;
  for (const ir::Instruction& inst : module.functions().front().blocks.front().instructions) {
    effects.push_back(opt::fuse_detail::ClassifyMemoryEffect(inst, def_use, types));
  }
  using opt::fuse_detail::MemoryEffect;
  // OpVariable .. OpCopyObject (10 instructions), OpStore private, OpStore global, barrier,
  // OpReturn.
  ASSERT_EQ(effects.size(), 14u);
  for (size_t i = 0; i < 11; ++i) EXPECT_EQ(effects[i], MemoryEffect::kNone) << i;
  EXPECT_EQ(effects[11], MemoryEffect::kMayWriteShared);
  EXPECT_EQ(effects[12], MemoryEffect::kMayWriteShared);
}

TEST(OptFuse, ModuleBuilderReusesDeclarations) {
  ir::Module module = AssembleModule(kValues);
  const size_t globals = module.globals().size();
  opt::ModuleBuilder builder(module);
  uint32_t declared = 0;
  for (const ir::Instruction& inst : module.globals()) {
    if (inst.opcode() == spv::Op::OpTypeInt) declared = inst.result_id();
  }
  const uint32_t uint_type = builder.IntType(32);
  EXPECT_EQ(uint_type, declared);
  EXPECT_EQ(builder.IntConstant(32, 16), builder.IntConstant(32, 16));
  EXPECT_EQ(builder.VectorType(uint_type, 2), builder.VectorType(uint_type, 2));
  EXPECT_EQ(module.globals().size(), globals);  // all of them were there
  EXPECT_FALSE(module.HasCapability(spv::Capability::Int8));
  builder.IntType(8);
  EXPECT_TRUE(module.HasCapability(spv::Capability::Int8));
  EXPECT_EQ(module.globals().size(), globals + 1);
}

// Two side-by-side loads (E2 W16 H8) and two prefetches; `mode` is the kernel's execution mode
// line (or nothing).
std::string TwoLoads(const std::string& mode) {
  return R"(
OpCapability Kernel
OpCapability Addresses
OpCapability Int16
OpCapability Subgroup2DBlockIOINTEL
OpExtension "SPV_INTEL_2d_block_io"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
)" + mode +
         R"(
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ushort = OpTypeInt 16 0
%v2uint = OpTypeVector %uint 2
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%c8 = OpConstant %uint 8
%c16 = OpConstant %uint 16
%c128 = OpConstant %uint 128
%c256 = OpConstant %uint 256
%arr = OpTypeArray %ushort %c8
%ptr_f = OpTypePointer Function %arr
%ptr_g = OpTypePointer CrossWorkgroup %ushort
%fn = OpTypeFunction %void %ptr_g %uint
%k = OpFunction %void None %fn
%src = OpFunctionParameter %ptr_g
%x = OpFunctionParameter %uint
%entry = OpLabel
%a = OpVariable %ptr_f Function
%b = OpVariable %ptr_f Function
%x16 = OpIAdd %uint %x %c16
%at0 = OpCompositeConstruct %v2uint %x %c8
%at1 = OpCompositeConstruct %v2uint %x16 %c8
OpSubgroup2DBlockLoadINTEL %c2 %c16 %c8 %c1 %src %c128 %c16 %c256 %at0 %a
OpSubgroup2DBlockPrefetchINTEL %c2 %c16 %c8 %c1 %src %c128 %c16 %c256 %at0
OpSubgroup2DBlockLoadINTEL %c2 %c16 %c8 %c1 %src %c128 %c16 %c256 %at1 %b
OpSubgroup2DBlockPrefetchINTEL %c2 %c16 %c8 %c1 %src %c128 %c16 %c256 %at1
OpReturn
OpFunctionEnd
)";
}

// Block Counts of the module's 2D block instructions with opcode `opcode`, in order.
std::vector<uint32_t> BlockCounts(const ir::Module& module, spv::Op opcode) {
  const ir::TypeTable types(module);
  std::vector<uint32_t> counts;
  for (const ir::Instruction& inst : module.functions().front().blocks.front().instructions) {
    if (inst.opcode() == opcode) counts.push_back(*types.GetConstantUInt32(inst.word(3)));
  }
  return counts;
}

TEST(OptFuse, LoadsFuseWhereTheSubgroupSizeIsFixed) {
  ir::Module module = AssembleModule(TwoLoads("OpExecutionMode %k SubgroupSize 16"));
  opt::PassContext context;
  context.device = device::FindBuiltinProfile("pvc");
  EXPECT_EQ(opt::Fuse2dBlockLoads(module, context), opt::PassStatus::kChanged);
  EXPECT_EQ(BlockCounts(module, spv::Op::OpSubgroup2DBlockLoadINTEL), std::vector<uint32_t>{2});
  EXPECT_EQ(BlockCounts(module, spv::Op::OpSubgroup2DBlockPrefetchINTEL), std::vector<uint32_t>{2});
  // Each member copies its 16 bytes (8 rows of one ushort per invocation) out of the staging
  // array: two copies, where the loads stood.
  size_t copies = 0;
  for (const ir::Instruction& inst : module.functions().front().blocks.front().instructions) {
    copies += inst.opcode() == spv::Op::OpCopyMemorySized;
  }
  EXPECT_EQ(copies, 2u);
}

TEST(OptFuse, WithoutASubgroupSizeOnlyPrefetchesFuse) {
  ir::Module module = AssembleModule(TwoLoads(""));
  opt::PassContext context;
  context.device = device::FindBuiltinProfile("pvc");
  EXPECT_EQ(opt::Fuse2dBlockLoads(module, context), opt::PassStatus::kChanged);
  EXPECT_EQ(BlockCounts(module, spv::Op::OpSubgroup2DBlockLoadINTEL),
            (std::vector<uint32_t>{1, 1}));
  EXPECT_EQ(BlockCounts(module, spv::Op::OpSubgroup2DBlockPrefetchINTEL), std::vector<uint32_t>{2});
}

TEST(OptFuse, DeviceWithoutTheRowLeavesTheModule) {
  // 16-bit loads 16 wide have Block Count 2 on pvc but no 2D block IO at all on dg2.
  ir::Module module = AssembleModule(TwoLoads("OpExecutionMode %k SubgroupSize 16"));
  const std::vector<uint32_t> before = module.ToWords();
  opt::PassContext context;
  context.device = device::FindBuiltinProfile("dg2");
  EXPECT_EQ(opt::Fuse2dBlockLoads(module, context), opt::PassStatus::kUnchanged);
  EXPECT_EQ(module.ToWords(), before);
}

}  // namespace
}  // namespace xmx
