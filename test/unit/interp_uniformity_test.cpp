// The loader's uniformity proof (source/interp/load/uniformity.hpp): what it may prove uniform, and
// above all what it must not, since a value wrongly proven uniform skips a run-time check.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "assembled_module_test.hpp"
#include "interp/load/uniformity.hpp"
#include "ir/module_info.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"

namespace xmx::interp {
namespace {

// A kernel with a buffer, a by-value int and a by-value struct parameter; values derived from
// each kind of source, a loop phi, and a load from memory.
const std::string kKernel =
    testing::KernelModuleHeader({.capabilities = {"Int64"}, .interface = "%wgid %lid"}) + R"(
               OpName %uint_8 "uint_8"
               OpName %buf "buf"
               OpName %n "n"
               OpName %group "group"
               OpName %group32 "group32"
               OpName %from_n "from_n"
               OpName %from_both "from_both"
               OpName %mem_ptr "mem_ptr"
               OpName %local "local"
               OpName %local32 "local32"
               OpName %from_lane "from_lane"
               OpName %loaded "loaded"
               OpName %i "i"
               OpName %next "next"
               OpName %done "done"
               OpName %undef "undef"
               OpName %from_undef "from_undef"
               OpName %byval "byval"
               OpName %xy0 "xy0"
               OpName %xy "xy"
               OpName %xx "xx"
               OpName %xy_lane "xy_lane"
               OpName %lane_x "lane_x"
               OpName %lane_then_uniform "lane_then_uniform"
               OpName %overwritten "overwritten"
               OpName %pair "pair"
               OpName %on_pair "on_pair"
               OpName %lanes "lanes"
               OpName %on_lanes "on_lanes"
               OpName %v3_partial "v3_partial"
               OpName %lid "lid"
               OpName %wgid "wgid"
               OpDecorate %wgid BuiltIn WorkgroupId
               OpDecorate %lid BuiltIn LocalInvocationId
               OpDecorate %byval FuncParamAttr ByVal
)" + testing::TypesNamed({"%void", "%uint", "%ulong", "%v3ulong", "%bool"}) +
    R"(
     %struct = OpTypeStruct %uint %uint
     %v2uint = OpTypeVector %uint 2
     %v3uint = OpTypeVector %uint 3
 %ptr_global = OpTypePointer CrossWorkgroup %uint
 %ptr_struct = OpTypePointer Function %struct
  %ptr_input = OpTypePointer Input %v3ulong
      %fn_ty = OpTypeFunction %void %ptr_global %uint %ptr_struct
     %uint_1 = OpConstant %uint 1
     %uint_8 = OpConstant %uint 8
      %undef = OpUndef %uint
     %vundef = OpUndef %v2uint
    %v3undef = OpUndef %v3uint
       %wgid = OpVariable %ptr_input Input
        %lid = OpVariable %ptr_input Input
          %k = OpFunction %void None %fn_ty
        %buf = OpFunctionParameter %ptr_global
          %n = OpFunctionParameter %uint
      %byval = OpFunctionParameter %ptr_struct
      %entry = OpLabel
      %group = OpLoad %v3ulong %wgid
     %group0 = OpCompositeExtract %ulong %group 0
    %group32 = OpUConvert %uint %group0
      %local = OpLoad %v3ulong %lid
     %local0 = OpCompositeExtract %ulong %local 0
    %local32 = OpUConvert %uint %local0
    %from_n = OpIMul %uint %n %uint_8
  %from_both = OpIAdd %uint %from_n %group32
  %from_lane = OpIAdd %uint %from_n %local32
    %mem_ptr = OpPtrAccessChain %ptr_global %buf %from_both
    %loaded = OpLoad %uint %mem_ptr
 %from_undef = OpIAdd %uint %undef %uint_1
        %xy0 = OpCompositeInsert %v2uint %group32 %vundef 0
         %xy = OpCompositeInsert %v2uint %from_n %xy0 1
         %xx = OpCompositeInsert %v2uint %from_n %xy0 0
    %xy_lane = OpCompositeInsert %v2uint %local32 %xy0 1
     %lane_x = OpCompositeInsert %v2uint %local32 %vundef 0
%lane_then_uniform = OpCompositeInsert %v2uint %group32 %lane_x 1
%overwritten = OpCompositeInsert %v2uint %from_n %lane_then_uniform 0
       %pair = OpCompositeConstruct %v2uint %n %n
    %on_pair = OpCompositeInsert %v2uint %group32 %pair 0
      %lanes = OpCompositeConstruct %v2uint %local32 %n
   %on_lanes = OpCompositeInsert %v2uint %group32 %lanes 1
      %v3_x = OpCompositeInsert %v3uint %n %v3undef 0
 %v3_partial = OpCompositeInsert %v3uint %n %v3_x 2
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_1 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %done = OpUGreaterThan %bool %next %from_n
               OpBranchConditional %done %exit %loop
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
)";

class UniformityTest : public testing::AssembledModuleTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Read(kKernel));
    info_.emplace(*module_);
  }
  uint32_t Kernel() const { return module_->functions().front().id(); }

  std::optional<ir::ModuleInfo> info_;
};

TEST_F(UniformityTest, ProvesConstantsParametersAndSharedBuiltins) {
  UniformValues uniform(*module_, *info_, Kernel());
  for (const char* name :
       {"uint_8", "buf", "n", "group", "group32", "from_n", "from_both", "mem_ptr", "i", "next",
        "done"}) {  // the loop's exit test is uniform: the counter is
    EXPECT_TRUE(uniform.Contains(Id(name))) << name;
  }
}

TEST_F(UniformityTest, NeverProvesLaneValuesMemoryUndefOrByValPointers) {
  UniformValues uniform(*module_, *info_, Kernel());
  for (const char* name :
       {"local", "local32", "from_lane", "loaded", "undef", "from_undef", "byval", "lid", "wgid"}) {
    EXPECT_FALSE(uniform.Contains(Id(name))) << name;
  }
}

// Both producers build an int2 such as a 2D block coordinate by inserting its components into an
// OpUndef vector: the vector is uniform when the inserts write every component with a uniform
// value, whatever the chain started from; a component left undefined, or written last with a
// lane's value, keeps it from being proven.
TEST_F(UniformityTest, ProvesInsertChainsThatWriteEveryComponentUniformly) {
  UniformValues uniform(*module_, *info_, Kernel());
  for (const char* name : {"xy", "overwritten", "pair", "on_pair"}) {
    EXPECT_TRUE(uniform.Contains(Id(name))) << name;
  }
  for (const char* name :
       {"xy0", "xx", "xy_lane", "lane_x", "lane_then_uniform", "lanes", "on_lanes", "v3_partial"}) {
    EXPECT_FALSE(uniform.Contains(Id(name))) << name;
  }
}

TEST_F(UniformityTest, ProvesNothingOfAnotherFunction) {
  UniformValues uniform(*module_, *info_, /*kernel_id=*/0);
  EXPECT_TRUE(uniform.Contains(Id("uint_8")));  // module-scope constants still are
  EXPECT_FALSE(uniform.Contains(Id("n")));
  EXPECT_FALSE(uniform.Contains(Id("from_n")));
}

}  // namespace
}  // namespace xmx::interp
