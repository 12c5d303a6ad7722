// Which bitcasts may share their operand's slot (source/interp/invariant_bitcasts.hpp): those of
// parameters, entry-block values and such bitcasts, wherever the bitcast stands; never one of a
// value a loop redefines, and nothing in a function whose entry block is a branch target.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "interp/invariant_bitcasts.hpp"
#include "val_test_support.hpp"

namespace xmx::interp {
namespace {

const char* const kKernel = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %of_var "of_var"
               OpName %of_param "of_param"
               OpName %of_cast "of_cast"
               OpName %of_entry "of_entry"
               OpName %of_phi "of_phi"
               OpName %of_loop "of_loop"
               OpName %var "var"
               OpName %out "out"
               OpName %of_var_cast "of_var_cast"
               OpName %n "n"
               OpName %i "i"
               OpName %sum "sum"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
       %bool = OpTypeBool
      %p_int = OpTypePointer CrossWorkgroup %uint
    %p_float = OpTypePointer CrossWorkgroup %float
     %f_uint = OpTypePointer Function %uint
    %f_float = OpTypePointer Function %float
         %fn = OpTypeFunction %void %p_int %uint
       %zero = OpConstant %uint 0
        %one = OpConstant %uint 1
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %p_int
          %n = OpFunctionParameter %uint
      %entry = OpLabel
        %var = OpVariable %f_uint Function
   %of_entry = OpBitcast %float %n
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %zero %entry %i1 %loop
        %sum = OpPhi %uint %zero %entry %s1 %loop
     %of_var = OpBitcast %f_float %var
%of_var_cast = OpBitcast %f_uint %of_var
   %of_param = OpBitcast %p_float %out
    %of_cast = OpBitcast %p_int %of_param
     %of_phi = OpBitcast %float %i
         %s1 = OpIAdd %uint %sum %i
    %of_loop = OpBitcast %float %s1
         %i1 = OpIAdd %uint %i %one
       %done = OpUGreaterThanEqual %bool %i1 %n
               OpBranchConditional %done %exit %loop
       %exit = OpLabel
               OpStore %out %sum
               OpReturn
               OpFunctionEnd
)";

class InvariantBitcastsTest : public ::testing::Test {
 protected:
  std::vector<std::pair<uint32_t, uint32_t>> Pairs(const std::string& text) {
    words_ = val::testing::Assemble(text);
    Diagnostic error;
    module_ = ir::Module::FromWords(words_, &error);
    EXPECT_TRUE(module_) << error.Format();
    if (!module_) return {};
    return InvariantBitcasts(module_->functions().front());
  }
  uint32_t Id(const std::string& name) const {
    for (const ir::Instruction& inst : module_->debug()) {
      if (inst.opcode() == spv::Op::OpName && inst.StringOperand(1) == name) return inst.word(0);
    }
    return 0;
  }
  bool Has(const std::vector<std::pair<uint32_t, uint32_t>>& pairs, const std::string& result,
           const std::string& operand) const {
    return std::count(pairs.begin(), pairs.end(), std::make_pair(Id(result), Id(operand))) == 1;
  }
  bool Shares(const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
              const std::string& result) const {
    return std::any_of(pairs.begin(), pairs.end(),
                       [&](const auto& p) { return p.first == Id(result); });
  }

  std::vector<uint32_t> words_;
  std::optional<ir::Module> module_;
};

TEST_F(InvariantBitcastsTest, ValuesWrittenOncePerActivationAreShared) {
  const auto pairs = Pairs(kKernel);
  EXPECT_TRUE(Has(pairs, "of_var", "var"));          // a Function variable, in a loop
  EXPECT_TRUE(Has(pairs, "of_var_cast", "of_var"));  // a chain of them
  EXPECT_TRUE(Has(pairs, "of_param", "out"));        // a parameter
  EXPECT_TRUE(Has(pairs, "of_cast", "of_param"));
  EXPECT_TRUE(Has(pairs, "of_entry", "n"));  // in the entry block itself
}

TEST_F(InvariantBitcastsTest, ValuesALoopRedefinesAreNotShared) {
  const auto pairs = Pairs(kKernel);
  EXPECT_FALSE(Shares(pairs, "of_phi"));
  EXPECT_FALSE(Shares(pairs, "of_loop"));
  EXPECT_EQ(pairs.size(), 5u);
}

TEST_F(InvariantBitcastsTest, NothingWhenTheEntryBlockIsABranchTarget) {
  // Not a valid module, but the analysis must not rely on the validator to stay sound.
  std::string text = kKernel;
  const std::string back = "OpBranchConditional %done %exit %loop";
  text.replace(text.find(back), back.size(), "OpBranchConditional %done %exit %entry");
  EXPECT_TRUE(Pairs(text).empty());
}

}  // namespace
}  // namespace xmx::interp
