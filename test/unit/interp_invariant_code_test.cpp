// Which pointer arithmetic runs once per activation (source/interp/load/invariant_code.hpp):
// bitcasts, casts and access chains of parameters, entry-block values, constants and such results,
// wherever they stand and in any block order; never one that reads a value a loop redefines or
// a value sharing a phi's slot, and nothing in a function whose entry block is a branch target.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "assembled_module_test.hpp"
#include "interp/load/invariant_code.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"

namespace xmx::interp {
namespace {

// The exit block stands before the loop that dominates it, as llvm-spirv-15 -O2 may order blocks.
const std::string kKernel = testing::KernelModuleHeader({.capabilities = {"GenericPointer"}}) + R"(
               OpName %of_var "of_var"
               OpName %of_param "of_param"
               OpName %of_cast "of_cast"
               OpName %of_entry "of_entry"
               OpName %of_phi "of_phi"
               OpName %of_loop "of_loop"
               OpName %var "var"
               OpName %out "out"
               OpName %n "n"
               OpName %of_var_cast "of_var_cast"
               OpName %element "element"
               OpName %element_cast "element_cast"
               OpName %generic "generic"
               OpName %dynamic "dynamic"
               OpName %in_exit "in_exit"
)" + testing::TypesNamed({"%void", "%uint", "%float", "%bool"}) +
                            R"(
      %arr_4 = OpTypeArray %uint %uint_4
      %p_int = OpTypePointer CrossWorkgroup %uint
    %p_float = OpTypePointer CrossWorkgroup %float
     %f_uint = OpTypePointer Function %uint
    %f_float = OpTypePointer Function %float
      %f_arr = OpTypePointer Function %arr_4
     %g_uint = OpTypePointer Generic %uint
         %fn = OpTypeFunction %void %p_int %uint
       %zero = OpConstant %uint 0
        %one = OpConstant %uint 1
     %uint_4 = OpConstant %uint 4
)" + testing::OutAndCountKernelEntry(R"(
        %var = OpVariable %f_uint Function
      %array = OpVariable %f_arr Function
)") + R"(
   %of_entry = OpBitcast %float %n
               OpBranch %loop
       %exit = OpLabel
    %in_exit = OpBitcast %p_float %of_cast
               OpStore %out %sum
               OpReturn
       %loop = OpLabel
          %i = OpPhi %uint %zero %entry %i1 %loop
        %sum = OpPhi %uint %zero %entry %s1 %loop
     %of_var = OpBitcast %f_float %var
%of_var_cast = OpBitcast %f_uint %of_var
    %element = OpInBoundsAccessChain %f_uint %array %one
%element_cast = OpBitcast %f_float %element
    %generic = OpPtrCastToGeneric %g_uint %element
   %of_param = OpBitcast %p_float %out
    %of_cast = OpBitcast %p_int %of_param
    %dynamic = OpInBoundsAccessChain %f_uint %array %i
     %of_phi = OpBitcast %float %i
         %s1 = OpIAdd %uint %sum %i
    %of_loop = OpBitcast %float %s1
         %i1 = OpIAdd %uint %i %one
       %done = OpUGreaterThanEqual %bool %i1 %n
               OpBranchConditional %done %exit %loop
               OpFunctionEnd
)";

class InvariantCodeTest : public testing::AssembledModuleTest {
 protected:
  InvariantCode Find(const std::string& text, const std::vector<std::string>& excluded = {}) {
    if (!Read(text)) return {};
    std::unordered_set<uint32_t> ids;
    for (const std::string& name : excluded) ids.insert(Id(name));
    return FindInvariantCode(module_->functions().front(), ids);
  }
  // The position of `name` among the hoisted instructions, or -1.
  int Hoisted(const InvariantCode& code, const std::string& name) const {
    for (size_t i = 0; i < code.hoisted.size(); ++i) {
      if (code.hoisted[i]->result_id() == Id(name)) return static_cast<int>(i);
    }
    return -1;
  }
  bool Copy(const InvariantCode& code, const std::string& result,
            const std::string& operand) const {
    return std::count(code.copies.begin(), code.copies.end(),
                      std::make_pair(Id(result), Id(operand))) == 1;
  }
};

TEST_F(InvariantCodeTest, PointerArithmeticOfOncePerActivationValuesIsHoisted) {
  const InvariantCode code = Find(kKernel);
  for (const char* name : {"of_var", "of_var_cast", "element", "element_cast", "generic",
                           "of_param", "of_cast", "in_exit"}) {
    EXPECT_GE(Hoisted(code, name), 0) << name;
  }
  EXPECT_EQ(code.hoisted.size(), 8u);
  // Each after what it reads, whatever the block order.
  EXPECT_LT(Hoisted(code, "of_var"), Hoisted(code, "of_var_cast"));
  EXPECT_LT(Hoisted(code, "element"), Hoisted(code, "element_cast"));
  EXPECT_LT(Hoisted(code, "element"), Hoisted(code, "generic"));
  EXPECT_LT(Hoisted(code, "of_param"), Hoisted(code, "of_cast"));
  EXPECT_LT(Hoisted(code, "of_cast"), Hoisted(code, "in_exit"));
}

TEST_F(InvariantCodeTest, CopiesAmongThemAreListed) {
  const InvariantCode code = Find(kKernel);
  EXPECT_TRUE(Copy(code, "of_var", "var"));
  EXPECT_TRUE(Copy(code, "of_var_cast", "of_var"));
  EXPECT_TRUE(Copy(code, "element_cast", "element"));
  EXPECT_TRUE(Copy(code, "generic", "element"));
  EXPECT_TRUE(Copy(code, "of_param", "out"));
  EXPECT_TRUE(Copy(code, "of_cast", "of_param"));
  EXPECT_TRUE(Copy(code, "in_exit", "of_cast"));
  EXPECT_EQ(code.copies.size(), 7u);  // the access chain is not a copy
}

TEST_F(InvariantCodeTest, WhatReadsALoopValueOrStandsInTheEntryStays) {
  const InvariantCode code = Find(kKernel);
  for (const char* name : {"dynamic", "of_phi", "of_loop", "of_entry"}) {
    EXPECT_EQ(Hoisted(code, name), -1) << name;
  }
}

TEST_F(InvariantCodeTest, ExcludedValuesAndWhatReadsThemStay) {
  const InvariantCode code = Find(kKernel, {"of_param"});
  EXPECT_EQ(Hoisted(code, "of_param"), -1);
  EXPECT_EQ(Hoisted(code, "of_cast"), -1);
  EXPECT_EQ(Hoisted(code, "in_exit"), -1);
  EXPECT_GE(Hoisted(code, "of_var"), 0);
}

TEST_F(InvariantCodeTest, NothingWhenTheEntryBlockIsABranchTarget) {
  // Not a valid module, but the analysis must not rely on the validator to stay sound.
  std::string text = kKernel;
  const std::string back = "OpBranchConditional %done %exit %loop";
  text.replace(text.find(back), back.size(), "OpBranchConditional %done %exit %entry");
  const InvariantCode code = Find(text);
  EXPECT_TRUE(code.hoisted.empty());
  EXPECT_TRUE(code.copies.empty());
}

}  // namespace
}  // namespace xmx::interp
