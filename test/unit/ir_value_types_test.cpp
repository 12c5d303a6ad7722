// ir::ValueTypes, the one id -> result type analysis: every kind of value (constant, global
// variable, function, parameter, body instruction) and the ids that have no type.
#include <gtest/gtest.h>

#include "ir/value_types.hpp"
#include "val_test_support.hpp"

namespace xmx::ir {
namespace {

using val::testing::Assemble;
using val::testing::NamedId;

TEST(ValueTypes, EveryValueHasItsResultType) {
  const std::string text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kernel "kernel"
               OpName %uint "uint"
               OpName %ptr "ptr"
               OpName %fn "fn"
               OpName %kernel "kernel"
               OpName %one "one"
               OpName %var "var"
               OpName %param "param"
               OpName %sum "sum"
               OpName %label "label"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr
        %one = OpConstant %uint 1
        %var = OpVariable %ptr CrossWorkgroup
     %kernel = OpFunction %void None %fn
      %param = OpFunctionParameter %ptr
      %label = OpLabel
     %loaded = OpLoad %uint %param
        %sum = OpIAdd %uint %loaded %one
               OpStore %param %sum
               OpReturn
               OpFunctionEnd
)";
  Diagnostic error;
  std::optional<Module> module = Module::FromWords(Assemble(text), &error);
  ASSERT_TRUE(module) << error.Format();
  const ValueTypes types(*module);
  const uint32_t uint_type = NamedId(*module, "uint"), ptr = NamedId(*module, "ptr");
  EXPECT_EQ(types.TypeId(NamedId(*module, "one")), uint_type);
  EXPECT_EQ(types.TypeId(NamedId(*module, "var")), ptr);
  EXPECT_EQ(types.TypeId(NamedId(*module, "param")), ptr);
  EXPECT_EQ(types.TypeId(NamedId(*module, "sum")), uint_type);
  EXPECT_NE(types.TypeId(NamedId(*module, "kernel")), 0u);  // a function's type is its return type
  EXPECT_TRUE(types.HasType(NamedId(*module, "kernel")));
  // Types, labels and undefined ids have none.
  EXPECT_EQ(types.TypeId(uint_type), 0u);
  EXPECT_EQ(types.TypeId(NamedId(*module, "label")), 0u);
  EXPECT_EQ(types.TypeId(9999), 0u);
  EXPECT_FALSE(types.HasType(0));
}

}  // namespace
}  // namespace xmx::ir
