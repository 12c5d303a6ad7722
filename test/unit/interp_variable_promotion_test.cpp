// Promotion of private variables to registers (interp/load/variable_promotion.hpp, issue 13):
//  - each kernel runs loaded with and without promotion and must give the same buffer, the same
//    reports (rule, message, instruction, lane, work-item) and the same error; the buffer is also
//    checked against a model computed here;
//  - PromotionSummary says which variables were promoted, so that a kernel whose variable must
//    stay in memory (its address reaches a call, an access chain, a cast; a volatile access; a
//    read of what an earlier call left) fails the test if it is promoted;
//  - the promoted module is valid SPIR-V (the SSA form the loader builds is checked by the
//    validator), for these kernels and for every kernel of the corpus and the benchmarks.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "interp/load/loader.hpp"
#include "interp/load/variable_promotion.hpp"
#include "interp_launch_support.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"
#include "xmx/interpreter.hpp"
#include "xmx/validator.hpp"

namespace xmx::interp {
namespace {

using testing::LaunchResult;
using testing::Word;

// A module with kernel k(global uint* out, uint n); FUNCTIONS holds it (and any helper), with
// %id the work-item's global id as a uint and %g0 as a ulong when the body computes them.
std::string Module(const std::string& functions, const std::string& annotations = "",
                   const std::string& addressing = "Physical64") {
  return testing::KernelModuleHeader(
             {.capabilities = {"Int64", "Int8"}, .addressing = addressing, .interface = "%gid"}) +
         R"(
               OpName %k "k"
)" + testing::kGlobalIdDecoration +
         annotations +
         testing::TypesNamed(
             {"%void", "%uint", "%ulong", "%uchar", "%bool", "%v2uint", "%v3ulong"}) +
         testing::UintConstants({0, 1, 2, 3, 4, 5, 10, 99}) +
         R"(
         %l1 = OpConstant %ulong 1
         %l2 = OpConstant %ulong 2
       %arr4 = OpTypeArray %uint %c4
)" + testing::OutAndCountDeclarations(R"(
     %f_uint = OpTypePointer Function %uint
    %f_uchar = OpTypePointer Function %uchar
       %f_v2 = OpTypePointer Function %v2uint
      %f_arr = OpTypePointer Function %arr4
     %f_fptr = OpTypePointer Function %f_uint
)") +
         R"(
    %fn_uint = OpTypeFunction %uint
     %fn_ptr = OpTypeFunction %uint %f_uint
)" + functions;
}

// What promotion made of `text`'s kernel k; the promoted module must validate.
PromotionSummary Promote(const std::vector<uint32_t>& words) {
  PromotionSummary summary;
  std::optional<testing::KernelModule> kernel = testing::ReadKernelModule(words);
  if (!kernel) return summary;
  std::optional<ir::Module> promoted =
      PromotePrivateVariables(kernel->module, kernel->function, &summary);
  EXPECT_EQ(promoted.has_value(), summary.variables > 0);
  if (promoted) {
    const val::ValidationResult result = val::Validate(promoted->ToWords(), {});
    EXPECT_TRUE(result.valid) << val::testing::Dump(result);
  }
  return summary;
}

// Runs the kernel promoted and not and expects the same outcome.
testing::TransformedAndPlain RunBothWays(const std::string& text, uint64_t items, uint32_t n,
                                         CheckMode check = CheckMode::kError) {
  LoadOptions memory;
  memory.promote_variables = false;
  return testing::RunTransformedAndPlain(text, LoadOptions(), memory, items, 8, n, check);
}

// RunBothWays, returning the promoted run.
LaunchResult RunBoth(const std::string& text, uint64_t items, uint32_t n,
                     CheckMode check = CheckMode::kError) {
  return RunBothWays(text, items, n, check).transformed;
}

// A counter and an accumulator in private variables, a loop whose trip count differs per lane
// (n + id % 4), so lanes leave it at different iterations: the phis run in divergent SIMT
// execution. out[id] = 1 + id * (0 + 1 + ... + (trip - 1)).
TEST(VariablePromotion, DivergentLoopCounterAndAccumulator) {
  const std::string text = Module(testing::OutAndCountKernelStart(R"(
          %i = OpVariable %f_uint Function
        %acc = OpVariable %f_uint Function
)") + R"(
         %m4 = OpUMod %uint %id %c4
       %trip = OpIAdd %uint %n %m4
               OpStore %i %c0
               OpStore %acc %c1 Aligned 4
               OpBranch %head
       %head = OpLabel
         %iv = OpLoad %uint %i
       %more = OpULessThan %bool %iv %trip
               OpLoopMerge %exit %latch None
               OpBranchConditional %more %body %exit
       %body = OpLabel
          %a = OpLoad %uint %acc Aligned 4
        %iv2 = OpLoad %uint %i
          %t = OpIMul %uint %iv2 %id
         %a2 = OpIAdd %uint %a %t
               OpStore %acc %a2 Aligned 4
        %inc = OpIAdd %uint %iv2 %c1
               OpStore %i %inc
               OpBranch %latch
      %latch = OpLabel
               OpBranch %head
       %exit = OpLabel
        %res = OpLoad %uint %acc
        %dst = OpInBoundsPtrAccessChain %p_int %out %g0
               OpStore %dst %res
               OpReturn
               OpFunctionEnd
)",
                                  "OpDecorate %acc Alignment 4\n");
  const PromotionSummary summary = Promote(val::testing::Assemble(text));
  EXPECT_EQ(summary.variables, 2u);
  EXPECT_EQ(summary.loads, 4u);
  EXPECT_EQ(summary.stores, 4u);
  EXPECT_EQ(summary.phis, 2u);  // i and acc at %head; none where they are dead
  const testing::TransformedAndPlain runs = RunBothWays(text, 32, 3);
  for (uint32_t id = 0; id < 32; ++id) {
    const uint32_t trip = 3 + id % 4;
    EXPECT_EQ(Word(runs.transformed.out, id), 1 + id * (trip * (trip - 1) / 2)) << id;
  }
  // The promoted loads and stores are no longer dispatched.
  EXPECT_LT(runs.transformed.instructions, runs.plain.instructions);
}

// In the kernel function a load no store reaches reads the variable's memory as the work-group
// started it: zero. x is stored on odd lanes only; y is read at the top of each iteration
// before the iteration stores it. out[2 id] = odd ? 5 : 0, out[2 id + 1] = 3 id.
TEST(VariablePromotion, KernelReadsBeforeStoresReadZero) {
  const std::string text = Module(testing::OutAndCountKernelStart(R"(
          %x = OpVariable %f_uint Function
          %y = OpVariable %f_uint Function
          %j = OpVariable %f_uint Function
)") + R"(
               OpStore %j %c0
        %odd = OpBitwiseAnd %uint %id %c1
      %isodd = OpINotEqual %bool %odd %c0
               OpSelectionMerge %join None
               OpBranchConditional %isodd %set %join
        %set = OpLabel
               OpStore %x %c5
               OpBranch %join
       %join = OpLabel
         %xv = OpLoad %uint %x
         %i2 = OpIMul %uint %id %c2
       %dst0 = OpPtrAccessChain %p_int %out %i2
               OpStore %dst0 %xv
               OpBranch %head
       %head = OpLabel
         %jv = OpLoad %uint %j
       %more = OpULessThan %bool %jv %c3
               OpLoopMerge %exit %body None
               OpBranchConditional %more %body %exit
       %body = OpLabel
         %yv = OpLoad %uint %y
        %yv2 = OpIAdd %uint %yv %id
               OpStore %y %yv2
        %jv2 = OpIAdd %uint %jv %c1
               OpStore %j %jv2
               OpBranch %head
       %exit = OpLabel
         %yf = OpLoad %uint %y
        %i21 = OpIAdd %uint %i2 %c1
       %dst1 = OpPtrAccessChain %p_int %out %i21
               OpStore %dst1 %yf
               OpReturn
               OpFunctionEnd
)");
  EXPECT_EQ(Promote(val::testing::Assemble(text)).variables, 3u);
  const LaunchResult run = RunBoth(text, 32, 0);
  for (uint32_t id = 0; id < 32; ++id) {
    EXPECT_EQ(Word(run.out, 2 * id), id % 2 ? 5u : 0u) << id;
    EXPECT_EQ(Word(run.out, 2 * id + 1), 3 * id) << id;
  }
}

// A function other than the kernel: its variable keeps what the previous call left, so %count
// (read before written) stays in memory, while %t (written before every read) is promoted.
// The kernel calls it twice: out[id] = 10 * 1 + 2.
TEST(VariablePromotion, CalledFunctionKeepsVariablesReadBeforeWritten) {
  const std::string text = Module(R"(
      %count = OpFunction %uint None %fn_uint
         %ce = OpLabel
         %cv = OpVariable %f_uint Function
          %t = OpVariable %f_uint Function
        %old = OpLoad %uint %cv
        %new = OpIAdd %uint %old %c1
               OpStore %cv %new
               OpStore %t %new
         %tv = OpLoad %uint %t
               OpReturnValue %tv
               OpFunctionEnd
)" + testing::OutAndCountKernelStart("") +
                                  R"(
         %r1 = OpFunctionCall %uint %count
         %r2 = OpFunctionCall %uint %count
        %r10 = OpIMul %uint %r1 %c10
          %r = OpIAdd %uint %r10 %r2
        %dst = OpInBoundsPtrAccessChain %p_int %out %g0
               OpStore %dst %r
               OpReturn
               OpFunctionEnd
)");
  EXPECT_EQ(Promote(val::testing::Assemble(text)).variables, 1u);
  const LaunchResult run = RunBoth(text, 16, 0);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), 12u) << id;
}

// Variables whose address escapes or whose accesses are not whole plain loads and stores stay
// in memory: one passed to a call, one stored through a byte cast (a partial store), a vector
// with one component stored through an access chain, one read with a Volatile load, one whose
// address is itself stored, and one decorated Volatile.
TEST(VariablePromotion, EscapingOrPartialVariablesStayInMemory) {
  const std::string text = Module(R"(
       %read = OpFunction %uint None %fn_ptr
          %p = OpFunctionParameter %f_uint
         %re = OpLabel
         %pv = OpLoad %uint %p
               OpReturnValue %pv
               OpFunctionEnd
)" + testing::OutAndCountKernelStart(R"(
         %va = OpVariable %f_uint Function
         %vb = OpVariable %f_uint Function
         %vc = OpVariable %f_v2 Function
         %vd = OpVariable %f_uint Function
         %ve = OpVariable %f_uint Function
         %pe = OpVariable %f_fptr Function
         %vf = OpVariable %f_uint Function
)") + R"(
               OpStore %va %id
         %ra = OpFunctionCall %uint %read %va
               OpStore %vb %c0
      %bytes = OpBitcast %f_uchar %vb
         %b1 = OpPtrAccessChain %f_uchar %bytes %l1
        %low = OpUConvert %uchar %id
               OpStore %b1 %low
         %rb = OpLoad %uint %vb
         %v2 = OpCompositeConstruct %v2uint %c1 %c2
               OpStore %vc %v2
         %c_1 = OpInBoundsAccessChain %f_uint %vc %c1
               OpStore %c_1 %id
         %rv = OpLoad %v2uint %vc
         %rc = OpCompositeExtract %uint %rv 1
               OpStore %vd %c3
         %rd = OpLoad %uint %vd Volatile
               OpStore %ve %c4
               OpStore %pe %ve
        %pev = OpLoad %f_uint %pe
         %re_ = OpLoad %uint %pev
               OpStore %vf %c5
         %rf = OpLoad %uint %vf
         %s1 = OpIAdd %uint %ra %rb
         %s2 = OpIAdd %uint %s1 %rc
         %s3 = OpIAdd %uint %s2 %rd
         %s4 = OpIAdd %uint %s3 %re_
         %s5 = OpIAdd %uint %s4 %rf
        %dst = OpInBoundsPtrAccessChain %p_int %out %g0
               OpStore %dst %s5
               OpReturn
               OpFunctionEnd
)",
                                  "OpDecorate %vf Volatile\n");
  // Only %pe, the variable holding %ve's address, is promoted.
  const PromotionSummary summary = Promote(val::testing::Assemble(text));
  EXPECT_EQ(summary.variables, 1u);
  EXPECT_EQ(summary.loads, 1u);
  const LaunchResult run = RunBoth(text, 16, 0);
  for (uint32_t id = 0; id < 16; ++id) {
    const uint32_t rb = (id & 0xFF) << 8;
    EXPECT_EQ(Word(run.out, id), id + rb + id + 3 + 4 + 5) << id;
  }
}

// A promoted pointer variable set on divergent paths to two elements of a private array, then
// stepped by n: with n = 1 the odd lanes step past the array. A division by a promoted value is
// zero on even lanes. Both runs must report the same instruction, lane and work-item, stopping
// at the first report (error) or going on (warn).
TEST(VariablePromotion, ReportsThroughPromotedValuesAreTheSame) {
  const std::string text = Module(testing::OutAndCountKernelStart(R"(
        %arr = OpVariable %f_arr Function
         %pp = OpVariable %f_fptr Function
          %d = OpVariable %f_uint Function
)") + R"(
        %odd = OpBitwiseAnd %uint %id %c1
               OpStore %d %odd
      %isodd = OpINotEqual %bool %odd %c0
               OpSelectionMerge %join None
               OpBranchConditional %isodd %last %first
      %first = OpLabel
         %e0 = OpInBoundsAccessChain %f_uint %arr %c0
               OpStore %pp %e0
               OpBranch %join
       %last = OpLabel
         %e3 = OpInBoundsAccessChain %f_uint %arr %c3
               OpStore %pp %e3
               OpBranch %join
       %join = OpLabel
          %p = OpLoad %f_uint %pp
         %nl = OpUConvert %ulong %n
          %q = OpPtrAccessChain %f_uint %p %nl
               OpStore %q %id
         %qv = OpLoad %uint %q
         %dv = OpLoad %uint %d
        %quo = OpUDiv %uint %c99 %dv
          %r = OpIAdd %uint %qv %quo
        %dst = OpInBoundsPtrAccessChain %p_int %out %g0
               OpStore %dst %r
               OpReturn
               OpFunctionEnd
)");
  EXPECT_EQ(Promote(val::testing::Assemble(text)).variables, 2u);
  const LaunchResult first = RunBoth(text, 16, 1, CheckMode::kError);
  EXPECT_TRUE(first.stopped);
  ASSERT_FALSE(first.reports.empty());
  EXPECT_EQ(first.reports[0].rule, "memory.out-of-bounds");
  const LaunchResult all = RunBoth(text, 16, 1, CheckMode::kWarn);
  EXPECT_GE(all.reports.size(), 2u);
  // Without the faulty step (n = 0) the pointer variable selects per lane.
  const LaunchResult clean = RunBoth(text, 16, 0, CheckMode::kWarn);
  for (uint32_t id = 1; id < 16; id += 2) EXPECT_EQ(Word(clean.out, id), id + 99) << id;
}

// In a Physical32 module a pointer is 4 bytes in memory and 8 in registers: a pointer variable
// is not promoted there (its load widens what the store narrowed), the uint one is.
TEST(VariablePromotion, Physical32PointerVariablesStayInMemory) {
  const std::string functions = testing::OutAndCountKernelStart(R"(
          %v = OpVariable %f_uint Function
         %pp = OpVariable %f_fptr Function
)") + R"(
               OpStore %v %id
               OpStore %pp %v
          %p = OpLoad %f_uint %pp
         %pv = OpLoad %uint %p
        %dst = OpInBoundsPtrAccessChain %p_int %out %g0
               OpStore %dst %pv
               OpReturn
               OpFunctionEnd
)";
  // %v's address is stored, so %v stays in memory either way; %pp only in Physical64.
  const std::string physical32 = Module(functions, "", "Physical32");
  EXPECT_EQ(Promote(val::testing::Assemble(physical32)).variables, 0u);
  const LaunchResult run = RunBoth(physical32, 16, 0);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), id) << id;
  EXPECT_EQ(Promote(val::testing::Assemble(Module(functions))).variables, 1u);
}

// A module that reaches the loader without core validation (the fuzzer's) may store a value of
// another type than the variable's: such a variable is not promoted, or its loads would give
// values of the wrong register size.
TEST(VariablePromotion, MistypedStoresKeepTheVariableInMemory) {
  const std::string text = Module(testing::OutAndCountKernelStart(R"(
          %v = OpVariable %f_uint Function
)") + R"(
               OpStore %v %g0
         %vv = OpLoad %uint %v
        %dst = OpInBoundsPtrAccessChain %p_int %out %g0
               OpStore %dst %vv
               OpReturn
               OpFunctionEnd
)");
  EXPECT_EQ(Promote(val::testing::Assemble(text)).variables, 0u);
}

// Every kernel of the corpus and of the benchmark set: the promoted module still validates.
TEST(VariablePromotion, PromotedModulesOfCorpusAndBenchmarksValidate) {
  int promoted_modules = 0;
  for (const testing::CorpusModule& corpus : testing::ValidCorpusAndBenchmarkModules()) {
    for (const ir::Instruction& e : corpus.module.entry_points()) {
      if (e.num_operands() < 2) continue;
      std::optional<ir::Module> promoted = PromotePrivateVariables(corpus.module, e.word(1));
      if (!promoted) continue;
      ++promoted_modules;
      const val::ValidationResult result = val::Validate(promoted->ToWords(), {});
      EXPECT_TRUE(result.valid) << corpus.path << "\n" << val::testing::Dump(result);
    }
  }
  EXPECT_GT(promoted_modules, 10);
}

}  // namespace
}  // namespace xmx::interp
