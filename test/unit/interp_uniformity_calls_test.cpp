// The loader's uniformity proof across calls and through phis (source/interp/load/uniformity.hpp):
// a called function's parameters are uniform when every call passes a uniform value, and a phi
// is uniform when no branch of its function can diverge. Above all, what it must not prove: a
// parameter one call passes a lane value, a recursive function's parameters, a phi after a branch
// on a lane value (its incoming values constants), a counter of a loop whose exit differs by lane.
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

// Kernel k(buf, n) calls f(n, lane) and g(n) twice (the second time with the lane id), and h, which
// calls itself. f has a counted loop on n (uniform exit) and a branch on its lane parameter.
const std::string kModule =
    testing::KernelModuleHeader({.capabilities = {"Int64"}, .interface = "%lid"}) + R"(
               OpName %n "n"
               OpName %fn_n "fn_n"
               OpName %fn_lane "fn_lane"
               OpName %scaled "scaled"
               OpName %laned "laned"
               OpName %i "i"
               OpName %next "next"
               OpName %stay "stay"
               OpName %picked "picked"
               OpName %after "after"
               OpName %gn "gn"
               OpName %gv "gv"
               OpName %hn "hn"
               OpName %j "j"
               OpName %jn "jn"
               OpName %jstay "jstay"
               OpDecorate %lid BuiltIn LocalInvocationId
)" + testing::TypesNamed({"%void", "%uint", "%ulong", "%v3ulong", "%bool"}) +
    R"(
 %ptr_global = OpTypePointer CrossWorkgroup %uint
  %ptr_input = OpTypePointer Input %v3ulong
      %k_ty = OpTypeFunction %void %ptr_global %uint
      %f_ty = OpTypeFunction %uint %uint %uint
      %g_ty = OpTypeFunction %uint %uint
         %c0 = OpConstant %uint 0
         %c1 = OpConstant %uint 1
         %c2 = OpConstant %uint 2
         %c3 = OpConstant %uint 3
        %lid = OpVariable %ptr_input Input
          %k = OpFunction %void None %k_ty
        %buf = OpFunctionParameter %ptr_global
          %n = OpFunctionParameter %uint
      %entry = OpLabel
      %local = OpLoad %v3ulong %lid
     %local0 = OpCompositeExtract %ulong %local 0
    %local32 = OpUConvert %uint %local0
         %r1 = OpFunctionCall %uint %f %n %local32
         %r2 = OpFunctionCall %uint %g %n
         %r3 = OpFunctionCall %uint %g %local32
         %r4 = OpFunctionCall %uint %h %n
               OpReturn
               OpFunctionEnd
          %f = OpFunction %uint None %f_ty
       %fn_n = OpFunctionParameter %uint
    %fn_lane = OpFunctionParameter %uint
     %fentry = OpLabel
     %scaled = OpIMul %uint %fn_n %c3
      %laned = OpIAdd %uint %fn_lane %c1
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %c0 %fentry %next %body
       %stay = OpULessThan %bool %i %scaled
               OpBranchConditional %stay %body %out
       %body = OpLabel
       %next = OpIAdd %uint %i %c1
               OpBranch %loop
        %out = OpLabel
       %test = OpIEqual %bool %laned %c1
               OpBranchConditional %test %one %two
        %one = OpLabel
               OpBranch %join
        %two = OpLabel
               OpBranch %join
       %join = OpLabel
     %picked = OpPhi %uint %c1 %one %c2 %two
      %after = OpIAdd %uint %i %c1
               OpReturnValue %picked
               OpFunctionEnd
          %g = OpFunction %uint None %g_ty
         %gn = OpFunctionParameter %uint
     %gentry = OpLabel
         %gv = OpIAdd %uint %gn %c1
               OpReturnValue %gv
               OpFunctionEnd
          %h = OpFunction %uint None %g_ty
         %hn = OpFunctionParameter %uint
     %hentry = OpLabel
       %more = OpULessThan %bool %hn %c3
               OpBranchConditional %more %again %done
      %again = OpLabel
        %hn1 = OpIAdd %uint %hn %c1
        %hr = OpFunctionCall %uint %h %hn1
               OpBranch %done
       %done = OpLabel
               OpReturnValue %hn
               OpFunctionEnd
)";

// The same kernel's shape with a loop whose exit test reads the lane id: no phi is proven.
const std::string kLaneLoop =
    testing::KernelModuleHeader({.capabilities = {"Int64"}, .interface = "%lid"}) + R"(
               OpName %j "j"
               OpName %jn "jn"
               OpName %count "count"
               OpDecorate %lid BuiltIn LocalInvocationId
)" + testing::TypesNamed({"%void", "%uint", "%ulong", "%v3ulong", "%bool"}) +
    R"(
  %ptr_input = OpTypePointer Input %v3ulong
      %k_ty = OpTypeFunction %void %uint
         %c0 = OpConstant %uint 0
         %c1 = OpConstant %uint 1
        %lid = OpVariable %ptr_input Input
          %k = OpFunction %void None %k_ty
          %n = OpFunctionParameter %uint
      %entry = OpLabel
      %local = OpLoad %v3ulong %lid
     %local0 = OpCompositeExtract %ulong %local 0
    %local32 = OpUConvert %uint %local0
               OpBranch %loop
       %loop = OpLabel
          %j = OpPhi %uint %c0 %entry %jn %loop
      %count = OpPhi %uint %n %entry %count1 %loop
         %jn = OpIAdd %uint %j %c1
     %count1 = OpIAdd %uint %count %n
       %more = OpULessThan %bool %jn %local32
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
)";

class UniformityCallsTest : public testing::AssembledModuleTest {
 protected:
  void Load(const std::string& text) {
    ASSERT_TRUE(Read(text));
    info_.emplace(*module_);
  }
  uint32_t Kernel() const { return module_->functions().front().id(); }

  std::optional<ir::ModuleInfo> info_;
};

TEST_F(UniformityCallsTest, ParametersEveryCallPassesUniformAreUniform) {
  Load(kModule);
  UniformValues uniform(*module_, *info_, Kernel());
  for (const char* name : {"n", "fn_n", "scaled"}) {
    EXPECT_TRUE(uniform.Contains(Id(name))) << name;
  }
  // g is also called with the lane id; h calls itself.
  for (const char* name : {"fn_lane", "laned", "gn", "gv", "hn"}) {
    EXPECT_FALSE(uniform.Contains(Id(name))) << name;
  }
}

TEST_F(UniformityCallsTest, PhisOnlyWhereNoBranchDiverges) {
  Load(kModule);
  UniformValues uniform(*module_, *info_, Kernel());
  // f branches on its lane parameter: neither its loop counter nor the phi after the branch
  // (whose incoming values are constants) is proven.
  for (const char* name : {"i", "next", "stay", "picked", "after"}) {
    EXPECT_FALSE(uniform.Contains(Id(name))) << name;
  }
  Load(kLaneLoop);
  UniformValues lane_loop(*module_, *info_, Kernel());
  for (const char* name : {"j", "jn", "count"}) {
    EXPECT_FALSE(lane_loop.Contains(Id(name))) << name;
  }
}

// f without its branch on the lane: the counted loop's counter, its step and its exit test prove
// each other uniform.
TEST_F(UniformityCallsTest, CounterOfALoopWithAUniformExitIsUniform) {
  std::string text = kModule;
  const std::string branch = "               OpBranchConditional %test %one %two";
  text.replace(text.find(branch), branch.size(), "               OpBranch %one");
  const std::string phi = "%picked = OpPhi %uint %c1 %one %c2 %two";
  text.replace(text.find(phi), phi.size(), "%picked = OpPhi %uint %c1 %one");
  const std::string join = "        %two = OpLabel\n               OpBranch %join\n";
  text.replace(text.find(join), join.size(), "");
  Load(text);
  UniformValues uniform(*module_, *info_, Kernel());
  for (const char* name : {"i", "next", "stay", "picked", "after"}) {
    EXPECT_TRUE(uniform.Contains(Id(name))) << name;
  }
  EXPECT_FALSE(uniform.Contains(Id("laned")));
}

}  // namespace
}  // namespace xmx::interp
