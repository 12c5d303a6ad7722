// The interpreter's loader checks every structural fact its binders rely on, whatever the
// validator said (source/interp/load/load_checks.cpp, loader.cpp): a module that breaks one fails
// to load with an error naming the instruction, instead of running past its code or outside its
// registers. Each case is one small kernel that breaks one fact.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "interp/kernel_access.hpp"
#include "interp/load/loader.hpp"
#include "interp_launch_support.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"
#include "xmx/interpreter.hpp"

namespace xmx::interp {
namespace {

using testing::AssembleAndLoad;
using testing::LoadedKernel;

// A kernel k(global uint* out, uint n) whose body is BODY (ending in the block's terminator),
// with every type the cases need.
std::string Kernel(const std::string& body, const std::string& entry = "%k",
                   const std::string& extra_types = "", const std::string& functions = "") {
  return testing::KernelModuleHeader({.capabilities = {"Int64", "Int8"}, .entry = entry}) +
         testing::TypesNamed(
             {"%void", "%uint", "%ulong", "%float", "%bool", "%v4uint", "%v2uint"}) +
         R"(
      %p_int = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %p_int %uint
    %fn_uint = OpTypeFunction %uint %uint
       %zero = OpConstant %uint 0
        %one = OpConstant %uint 1
    %float_1 = OpConstant %float 1
       %vec4 = OpConstantComposite %v4uint %zero %one %zero %one
)" + extra_types +
         testing::OutAndCountKernelEntry() + body +
         R"(
               OpFunctionEnd
)" + functions;
}

// The helper function %twice(uint) -> uint the call cases call.
const char* const kTwice = R"(
      %twice = OpFunction %uint None %fn_uint
          %a = OpFunctionParameter %uint
         %tb = OpLabel
         %t2 = OpIAdd %uint %a %a
               OpReturnValue %t2
               OpFunctionEnd
)";

// The module fails to load with a message containing `message`, about an instruction.
void ExpectLoadError(const std::string& text, const std::string& message,
                     bool names_instruction = true) {
  LoadedKernel loaded = AssembleAndLoad(text);
  ASSERT_FALSE(loaded.program.has_value()) << "loaded, expected: " << message << "\n" << text;
  EXPECT_NE(loaded.error.message.find(message), std::string::npos)
      << "message: " << loaded.error.message << "\nexpected: " << message;
  EXPECT_EQ(loaded.error.severity, Severity::kError);
  if (names_instruction) EXPECT_TRUE(loaded.error.instruction_index.has_value());
}

TEST(InterpLoadChecks, AWellFormedKernelLoads) {
  LoadedKernel loaded = AssembleAndLoad(Kernel(R"(
          %x = OpIAdd %uint %n %one
          %c = OpULessThan %bool %x %one
          %s = OpSelect %uint %c %x %zero
          %e = OpCompositeExtract %uint %vec4 3
          %v = OpVectorShuffle %v2uint %vec4 %vec4 7 0xFFFFFFFF
          %y = OpFunctionCall %uint %twice %s
          %z = OpIAdd %uint %y %e
               OpStore %out %z
               OpReturn)",
                                               "%k", "", kTwice));
  EXPECT_TRUE(loaded.program.has_value()) << loaded.error.message;
}

TEST(InterpLoadChecks, EntryPointNamingALabel) {
  ExpectLoadError(Kernel("               OpReturn", "%entry"), "OpEntryPoint 'k' names %", true);
  ExpectLoadError(Kernel("               OpReturn", "%entry"), "which is not a function");
}

TEST(InterpLoadChecks, EntryPointNamingAConstant) {
  ExpectLoadError(Kernel("               OpReturn", "%zero"), "which is not a function");
}

TEST(InterpLoadChecks, BlockWithoutTerminator) {
  ExpectLoadError(Kernel("               OpStore %out %n"), "does not end in a terminator");
}

TEST(InterpLoadChecks, TerminatorInTheMiddleOfABlock) {
  ExpectLoadError(Kernel(R"(
               OpReturn
               OpStore %out %n
               OpReturn)"),
                  "a terminator in the middle of block");
}

TEST(InterpLoadChecks, CompositeExtractIndexOutOfRange) {
  ExpectLoadError(Kernel(R"(
          %e = OpCompositeExtract %uint %vec4 1000000
               OpStore %out %e
               OpReturn)"),
                  "indices do not name a part of the composite");
}

TEST(InterpLoadChecks, CompositeInsertIndexOutOfRange) {
  ExpectLoadError(Kernel(R"(
          %v = OpCompositeInsert %v4uint %n %vec4 4
          %e = OpCompositeExtract %uint %v 0
               OpStore %out %e
               OpReturn)"),
                  "indices do not name a part of the composite");
}

TEST(InterpLoadChecks, CompositeExtractOfTheWrongType) {
  ExpectLoadError(Kernel(R"(
          %e = OpCompositeExtract %ulong %vec4 1
               OpReturn)"),
                  "the result type is not the type of the part");
}

TEST(InterpLoadChecks, VectorShuffleComponentOutOfRange) {
  ExpectLoadError(Kernel(R"(
          %v = OpVectorShuffle %v2uint %vec4 %vec4 8 0
               OpReturn)"),
                  "component 8 is not one of the 8 components");
}

TEST(InterpLoadChecks, CompositeConstructWithTooFewConstituents) {
  ExpectLoadError(Kernel(R"(
          %v = OpCompositeConstruct %v4uint %n %n
               OpReturn)"),
                  "the constituents do not fill the vector exactly");
}

TEST(InterpLoadChecks, IntegerWiderThan64Bits) {
  ExpectLoadError(Kernel(R"(
          %w = OpUConvert %uint96 %n
          %b = OpUConvert %uint %w
               OpStore %out %b
               OpReturn)",
                         "%k", "     %uint96 = OpTypeInt 96 0\n"),
                  "integers of 8, 16, 32 and 64 bits, not 96");
  ExpectLoadError(Kernel(R"(
          %w = OpUConvert %uint1024 %n
               OpReturn)",
                         "%k", "   %uint1024 = OpTypeInt 1024 0\n"),
                  "not 1024");
}

TEST(InterpLoadChecks, WideIntegerInsideAVector) {
  ExpectLoadError(
      Kernel(R"(
          %w = OpUndef %v2u96
               OpReturn)",
             "%k", "     %uint96 = OpTypeInt 96 0\n      %v2u96 = OpTypeVector %uint96 2\n"),
      "not 96");
}

TEST(InterpLoadChecks, UndefinedOperand) {
  ExpectLoadError(Kernel(R"(
          %x = OpIAdd %uint %n %nowhere
               OpStore %out %x
               OpReturn)"),
                  "is not defined anywhere in the module");
}

TEST(InterpLoadChecks, CallWithTooFewArguments) {
  ExpectLoadError(Kernel(R"(
          %y = OpFunctionCall %uint %twice
               OpStore %out %y
               OpReturn)",
                         "%k", "", kTwice),
                  "passes 0 arguments to a function of 1 parameters");
}

TEST(InterpLoadChecks, CallWithTooManyArguments) {
  ExpectLoadError(Kernel(R"(
          %y = OpFunctionCall %uint %twice %n %n
               OpReturn)",
                         "%k", "", kTwice),
                  "passes 2 arguments");
}

TEST(InterpLoadChecks, CallWithAnArgumentOfTheWrongType) {
  ExpectLoadError(Kernel(R"(
          %y = OpFunctionCall %uint %twice %float_1
               OpReturn)",
                         "%k", "", kTwice),
                  "does not have the type of parameter");
}

TEST(InterpLoadChecks, CallOfSomethingThatIsNotAFunction) {
  ExpectLoadError(Kernel(R"(
          %y = OpFunctionCall %uint %n %n
               OpReturn)"),
                  "the callee is not a function");
}

TEST(InterpLoadChecks, IntegerArithmeticOnFloats) {
  ExpectLoadError(Kernel(R"(
          %x = OpIAdd %float %float_1 %float_1
               OpReturn)"),
                  "the result type must be an integer type");
}

TEST(InterpLoadChecks, FloatArithmeticOnIntegers) {
  ExpectLoadError(Kernel(R"(
          %x = OpFAdd %uint %n %n
               OpReturn)"),
                  "the result type must be a float type");
}

TEST(InterpLoadChecks, OperandOfAnotherWidthThanTheResult) {
  ExpectLoadError(Kernel(R"(
         %wide = OpUConvert %ulong %n
          %x = OpIAdd %uint %n %wide
               OpReturn)"),
                  "does not have the result's type");
}

TEST(InterpLoadChecks, ComparisonOfMixedOperands) {
  ExpectLoadError(Kernel(R"(
          %c = OpULessThan %bool %n %float_1
               OpReturn)"),
                  "must have the same type");
}

TEST(InterpLoadChecks, LoadThroughANonPointer) {
  ExpectLoadError(Kernel(R"(
          %x = OpLoad %uint %n
               OpReturn)"),
                  "must be a pointer");
}

TEST(InterpLoadChecks, BranchToALabelOfAnotherFunction) {
  ExpectLoadError(Kernel(R"(
               OpBranch %tb)",
                         "%k", "", kTwice),
                  "is not a block of this function");
}

TEST(InterpLoadChecks, ReturnValueOfTheWrongType) {
  const std::string twice_float = R"(
      %twice = OpFunction %uint None %fn_uint
          %a = OpFunctionParameter %uint
         %tb = OpLabel
               OpReturnValue %float_1
               OpFunctionEnd
)";
  ExpectLoadError(Kernel(R"(
          %y = OpFunctionCall %uint %twice %n
               OpReturn)",
                         "%k", "", twice_float),
                  "does not have the function's return type");
}

TEST(InterpLoadChecks, ShuffleOfAnotherTypeThanItsResult) {
  ExpectLoadError(Kernel(R"(
          %s = OpGroupNonUniformShuffle %ulong %uint_3 %n %zero
               OpReturn)",
                         "%k", "     %uint_3 = OpConstant %uint 3\n"),
                  "does not have the result's type");
}

// OpenCL.std vstoren whose pointer is not a pointer (operands are read at fixed places) and a
// shuffle whose mask is not as wide as its result.
TEST(InterpLoadChecks, OpenCLStdMemoryOperands) {
  const std::string import = "%cl = OpExtInstImport \"OpenCL.std\"\n";
  auto kernel = [&](const std::string& body) {
    std::string text = Kernel(body);
    return text.insert(text.find("               OpMemoryModel"), import);
  };
  ExpectLoadError(kernel(R"(
          %x = OpExtInst %void %cl vstoren %vec4 %zero %n
               OpReturn)"),
                  "must be a pointer");
  ExpectLoadError(kernel(R"(
         %v2 = OpVectorShuffle %v2uint %vec4 %vec4 0 1
          %x = OpExtInst %v4uint %cl shuffle %vec4 %v2
               OpReturn)"),
                  "the mask must be an integer vector");
}

// An atomic whose value is wider than the pointee it is stored into.
TEST(InterpLoadChecks, AtomicValueOfAnotherSize) {
  ExpectLoadError(Kernel(R"(
       %wide = OpUConvert %ulong %n
          %x = OpAtomicIAdd %uint %out %one %zero %wide
               OpReturn)"),
                  "must have the pointee's size");
  ExpectLoadError(Kernel(R"(
          %x = OpAtomicIAdd %uint %n %one %zero %n
               OpReturn)"),
                  "must be a pointer");
}

// A program-scope variable whose initializer is narrower than the variable.
TEST(InterpLoadChecks, InitializerOfAnotherType) {
  ExpectLoadError(Kernel("               OpReturn", "%k",
                         "    %p_long = OpTypePointer CrossWorkgroup %ulong\n"
                         "    %global = OpVariable %p_long CrossWorkgroup %one\n"),
                  "the initializer does not have the variable's type");
}

// A kernel with no values at all still has a register file (UBSan once found a copy from a
// null register image), and runs.
TEST(InterpLoadChecks, KernelWithoutRegistersRuns) {
  const std::string text = testing::KernelModuleHeader({}) + testing::TypesNamed({"%void"}) + R"(
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  LoadedKernel loaded = AssembleAndLoad(text);
  ASSERT_TRUE(loaded.program.has_value()) << loaded.error.message;
  EXPECT_GT(loaded.program->register_bytes, 0u);
  EXPECT_EQ(loaded.program->register_image.size(), loaded.program->register_bytes);
  RunRequest request;
  request.kernel = KernelAccess::Make(std::move(*loaded.program));
  request.geometry.dims = 1;
  request.geometry.global[0] = 32;
  request.geometry.local[0] = 16;
  RunOutcome outcome = Execute(request);
  EXPECT_TRUE(outcome.error.empty()) << outcome.error;
  EXPECT_EQ(outcome.stats.work_groups, 2u);
}

}  // namespace
}  // namespace xmx::interp
