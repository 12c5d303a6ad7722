// What xmx-run's loader refuses in cooperative-matrix code (source/interp/exec_coop*.cpp,
// loader_coop.cpp), each with an error naming the instruction and the reason: shapes and scopes
// without Intel's mapping, PackedINTEL on another Use than B, SaturatingAccumulation, mismatched
// multiply-add shapes, bfloat16 arithmetic; and the cases that load.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "interp/load/loader.hpp"
#include "interp_launch_support.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"

namespace xmx::interp {
namespace {

using testing::AssembleAndLoad;
using testing::LoadedKernel;

// A kernel k(global float* p, ulong stride) at subgroup size 16 with matrix types A (bf16 8x16),
// B (bf16 16x16), C (float 8x16), CW (Workgroup scope), A3 (bf16 3x16, Use A), C12 (float 8x12,
// Accumulator) and scalar bfloat16 %bf; BODY ends in the block's terminator.
std::string Kernel(const std::string& body) {
  return testing::KernelModuleHeader(
             {.capabilities = {"Int64", "BFloat16TypeKHR", "BFloat16CooperativeMatrixKHR",
                               "CooperativeMatrixKHR"},
              .extensions = {"SPV_KHR_bfloat16", "SPV_KHR_cooperative_matrix"}}) +
         testing::TypesNamed({"%void", "%uint", "%ulong", "%float"}) + R"(
         %bf = OpTypeFloat 16 BFloat16KHR
          %0 = OpConstant %uint 0
          %1 = OpConstant %uint 1
          %2 = OpConstant %uint 2
          %3 = OpConstant %uint 3
          %8 = OpConstant %uint 8
         %12 = OpConstant %uint 12
         %16 = OpConstant %uint 16
  %workgroup = OpConstant %uint 2
          %A = OpTypeCooperativeMatrixKHR %bf %3 %8 %16 %0
          %B = OpTypeCooperativeMatrixKHR %bf %3 %16 %16 %1
          %C = OpTypeCooperativeMatrixKHR %float %3 %8 %16 %2
         %CW = OpTypeCooperativeMatrixKHR %float %workgroup %8 %16 %2
         %A3 = OpTypeCooperativeMatrixKHR %bf %3 %3 %16 %0
        %C12 = OpTypeCooperativeMatrixKHR %float %3 %8 %12 %2
      %p_f32 = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %p_f32 %ulong
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %p_f32
          %s = OpFunctionParameter %ulong
      %entry = OpLabel
)" + body +
         R"(
               OpFunctionEnd
)";
}

void ExpectLoadError(const std::string& body, const std::string& message,
                     uint32_t subgroup_size = 16) {
  LoadedKernel loaded = AssembleAndLoad(Kernel(body), subgroup_size);
  ASSERT_FALSE(loaded.program.has_value()) << "loaded, expected: " << message;
  EXPECT_NE(loaded.error.message.find(message), std::string::npos)
      << "message: " << loaded.error.message << "\nexpected: " << message;
  EXPECT_TRUE(loaded.error.instruction_index.has_value());
  EXPECT_TRUE(loaded.error.opcode.has_value());  // the instruction's opcode rides along
}

const char* const kLoadAB = R"(
         %ma = OpCooperativeMatrixLoadKHR %A %p %0 %s
         %mb = OpCooperativeMatrixLoadKHR %B %p %0 %s
         %mc = OpCooperativeMatrixLoadKHR %C %p %0 %s
)";

TEST(InterpCoopLoad, AGemmStepLoads) {
  LoadedKernel loaded = AssembleAndLoad(Kernel(std::string(kLoadAB) + R"(
         %md = OpCooperativeMatrixMulAddKHR %C %ma %mb %mc
               OpCooperativeMatrixStoreKHR %p %md %1 %s
               OpReturn)"));
  EXPECT_TRUE(loaded.program.has_value()) << loaded.error.message;
  // The same kernel at subgroup size 8 maps 8x16 accumulators as two column blocks and splits
  // the multiply-add into two native operations (N = 8 each).
  LoadedKernel sg8 = AssembleAndLoad(Kernel(std::string(kLoadAB) + R"(
         %md = OpCooperativeMatrixMulAddKHR %C %ma %mb %mc
               OpReturn)"),
                                     8);
  EXPECT_TRUE(sg8.program.has_value()) << sg8.error.message;
}

TEST(InterpCoopLoad, SubgroupSizeWithoutAMapping) {
  ExpectLoadError(std::string(kLoadAB) + "               OpReturn", "subgroup sizes 8 and 16", 32);
}

TEST(InterpCoopLoad, WorkgroupScopeIsRefused) {
  ExpectLoadError(R"(
          %m = OpCooperativeMatrixLoadKHR %CW %p %0 %s
               OpReturn)",
                  "Subgroup-scope cooperative matrices only");
}

TEST(InterpCoopLoad, ColumnsThatDoNotSpreadOverTheSubgroup) {
  ExpectLoadError(R"(
          %m = OpCooperativeMatrixLoadKHR %C12 %p %0 %s
               OpReturn)",
                  "multiple of 16");
}

TEST(InterpCoopLoad, PackedLayoutOnlyForB) {
  ExpectLoadError(R"(
          %m = OpCooperativeMatrixLoadKHR %A %p %2 %s
               OpReturn)",
                  "PackedINTEL is the VNNI layout of Use B");
}

TEST(InterpCoopLoad, RowMajorNeedsAStride) {
  ExpectLoadError(R"(
          %m = OpCooperativeMatrixLoadKHR %C %p %0
               OpReturn)",
                  "need a Stride");
}

TEST(InterpCoopLoad, SaturatingAccumulationIsRefused) {
  ExpectLoadError(std::string(kLoadAB) + R"(
         %md = OpCooperativeMatrixMulAddKHR %C %ma %mb %mc MatrixASignedComponentsKHR|SaturatingAccumulationKHR
               OpReturn)",
                  "SaturatingAccumulationKHR");
}

TEST(InterpCoopLoad, MulAddShapesMustAgree) {
  ExpectLoadError(std::string(kLoadAB) + R"(
         %m3 = OpCooperativeMatrixLoadKHR %A3 %p %0 %s
         %md = OpCooperativeMatrixMulAddKHR %C %m3 %mb %mc
               OpReturn)",
                  "shapes of A (MxK), B (KxN), C and the result (MxN) disagree");
}

TEST(InterpCoopLoad, BFloat16ArithmeticIsRefusedButConversionLoads) {
  LoadedKernel converts = AssembleAndLoad(Kernel(R"(
          %f = OpLoad %float %p
          %b = OpFConvert %bf %f
          %g = OpFConvert %float %b
               OpStore %p %g
               OpReturn)"));
  EXPECT_TRUE(converts.program.has_value()) << converts.error.message;
  ExpectLoadError(R"(
          %f = OpLoad %float %p
          %b = OpFConvert %bf %f
          %c = OpFAdd %bf %b %b
               OpReturn)",
                  "computes with bfloat16");
}

}  // namespace
}  // namespace xmx::interp
