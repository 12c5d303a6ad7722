// Which loop-carried values may share their phi's slot (source/interp/load/phi_coalescing.hpp): the
// accumulator shape is taken, every shape where the phi or the value is live elsewhere is not.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "assembled_module_test.hpp"
#include "interp/load/phi_coalescing.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"

namespace xmx::interp {
namespace {

// A kernel with one loop; `body` is the loop block between the phis and the branch back.
// %acc is the phi under test (incoming %zero from %entry, %next from %loop); `extra_phis` and
// `after` add instructions to the loop header and to the exit block.
std::string Kernel(const std::string& body, const std::string& extra_phis = "",
                   const std::string& after = "") {
  return testing::KernelModuleHeader({}) + R"(
               OpName %acc "acc"
               OpName %next "next"
)" + testing::TypesNamed({"%void", "%uint", "%bool"}) +
         R"(
      %p_int = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %p_int %uint
       %zero = OpConstant %uint 0
        %one = OpConstant %uint 1
)" + testing::OutAndCountKernelEntry() +
         R"(
               OpBranch %loop
       %loop = OpLabel
        %acc = OpPhi %uint %zero %entry %next %loop
          %i = OpPhi %uint %zero %entry %i1 %loop
)" + extra_phis +
         body + R"(
         %i1 = OpIAdd %uint %i %one
       %done = OpUGreaterThanEqual %bool %i1 %n
               OpBranchConditional %done %exit %loop
       %exit = OpLabel
)" + after +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

class PhiCoalescingTest : public testing::AssembledModuleTest {
 protected:
  std::vector<std::pair<uint32_t, uint32_t>> Pairs(const std::string& text) {
    if (!Read(text)) return {};
    return CoalescablePhis(module_->functions().front());
  }
  bool Paired(const std::vector<std::pair<uint32_t, uint32_t>>& pairs) const {
    for (const auto& [p, v] : pairs) {
      if (p == Id("acc")) return v == Id("next");
    }
    return false;
  }
};

TEST_F(PhiCoalescingTest, AccumulatorUsedOnlyBeforeItsSuccessorIsPaired) {
  // acc is read once, before next is computed; next is stored after its definition.
  const auto pairs = Pairs(Kernel(R"(
        %sum = OpIAdd %uint %acc %i
       %next = OpIMul %uint %sum %one
               OpStore %out %next
)"));
  EXPECT_TRUE(Paired(pairs));
}

TEST_F(PhiCoalescingTest, PhiReadAfterTheValueIsDefinedIsNotPaired) {
  const auto pairs = Pairs(Kernel(R"(
       %next = OpIAdd %uint %i %one
       %late = OpIAdd %uint %acc %next
               OpStore %out %late
)"));
  EXPECT_FALSE(Paired(pairs));
}

TEST_F(PhiCoalescingTest, ValueDefinedFromThePhiByAnOrdinaryInstructionIsNotPaired) {
  // OpIAdd reading acc and writing next: only instructions known to read before they write may
  // run in place.
  const auto pairs = Pairs(Kernel(R"(
       %next = OpIAdd %uint %acc %i
)"));
  EXPECT_FALSE(Paired(pairs));
}

TEST_F(PhiCoalescingTest, ValueUsedAfterTheLoopIsPairedOnlyThroughAnExitPhi) {
  const std::string body = R"(
        %sum = OpIAdd %uint %acc %i
       %next = OpIMul %uint %sum %one
)";
  // Read directly in the exit block: not paired.
  EXPECT_FALSE(Paired(Pairs(Kernel(body, "", "               OpStore %out %next\n"))));
  // Taken by a phi of the exit block on the edge from the loop: paired.
  EXPECT_TRUE(Paired(Pairs(Kernel(body, "",
                                  "        %res = OpPhi %uint %next %loop\n"
                                  "               OpStore %out %res\n"))));
}

TEST_F(PhiCoalescingTest, PhiFeedingAnotherPhiIsNotPaired) {
  // %prev takes acc's old value on the back edge: acc is live across next's definition.
  const auto pairs = Pairs(Kernel(R"(
        %sum = OpIAdd %uint %acc %i
       %next = OpIMul %uint %sum %one
               OpStore %out %prev
)",
                                  "       %prev = OpPhi %uint %zero %entry %acc %loop\n"));
  EXPECT_FALSE(Paired(pairs));
}

}  // namespace
}  // namespace xmx::interp
