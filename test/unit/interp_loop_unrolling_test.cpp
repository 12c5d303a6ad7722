// Unrolling of constant-trip loops, constant folding and merging of straight-line blocks at load
// time (interp/load/loop_unrolling.hpp, constant_folding.hpp, block_merging.hpp, issue 13):
//  - each kernel runs loaded with and without the unrolling and must give the same buffer, the
//    same reports (rule, message, instruction, lane, work-item) and the same error; the buffer
//    is also checked against values computed here;
//  - UnrollSummary says which loops were unrolled, so a loop that must stay a loop (a trip count
//    known only at run time or per lane, too many trips, a barrier, a second exit) fails the
//    test if it is unrolled;
//  - the unrolled module is valid SPIR-V, for these kernels and for every kernel of the corpus
//    and the benchmarks;
//  - the folder computes what the interpreter computes (widths, signedness, wrapping).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "builtins/upgrade.hpp"
#include "interp/load/constant_folding.hpp"
#include "interp/load/loader.hpp"
#include "interp/load/loop_unrolling.hpp"
#include "interp/load/variable_promotion.hpp"
#include "interp_launch_support.hpp"
#include "ir/type_table.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"
#include "xmx/interpreter.hpp"
#include "xmx/validator.hpp"

namespace xmx::interp {
namespace {

using testing::LaunchResult;
using testing::Word;

// A module with kernel k(global uint* out, uint n); BODY follows the entry label, with %id the
// work-item's global id (uint), %g0 the same as a ulong, and %arr a private uint[4].
std::string Module(const std::string& body, const std::string& annotations = "") {
  return testing::KernelModuleHeader({.capabilities = {"Int64"}, .interface = "%gid"}) +
         testing::kGlobalIdDecoration + annotations +
         testing::TypesNamed({"%void", "%uint", "%ulong", "%bool", "%v3ulong"}) +
         testing::UintConstants({0, 1, 2, 3, 4, 5, 10, 20, 40}) +
         R"(
         %l0 = OpConstant %ulong 0
       %arr4 = OpTypeArray %uint %c4
)" + testing::OutAndCountDeclarations(R"(
     %f_uint = OpTypePointer Function %uint
      %f_arr = OpTypePointer Function %arr4
)") + testing::OutAndCountKernelStart("        %arr = OpVariable %f_arr Function\n") +
         body;
}

// A counted loop: `for (%i = START; %i CMP BOUND; %i += STEP) { BODY }`, then AFTER. The body
// may use %i (uint) and %il (%i as a ulong); the loop's exit block is %exit.
std::string CountedLoop(const std::string& start, const std::string& compare,
                        const std::string& bound, const std::string& step, const std::string& body,
                        const std::string& after) {
  return R"(
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint )" +
         start + R"( %entry %next %latch
       %stay = )" +
         compare + R"( %bool %i )" + bound + R"(
               OpBranchConditional %stay %body %exit
       %body = OpLabel
         %il = OpSConvert %ulong %i
)" + body +
         R"(
               OpBranch %latch
      %latch = OpLabel
       %next = OpIAdd %uint %i )" +
         step + R"(
               OpBranch %header
       %exit = OpLabel
)" + after;
}

// Stores %value to out[id] and returns.
const std::string kStoreAndReturn = R"(
        %dst = OpInBoundsPtrAccessChain %p_int %out %g0
               OpStore %dst %value
               OpReturn
               OpFunctionEnd
)";

// What unrolling makes of `text` (after promotion, as the loader runs them); the result must
// validate.
UnrollSummary Unroll(const std::string& text) {
  UnrollSummary summary;
  std::optional<testing::KernelModule> kernel =
      testing::ReadKernelModule(val::testing::Assemble(text));
  if (!kernel) return summary;
  std::optional<ir::Module> promoted = PromotePrivateVariables(kernel->module, kernel->function);
  ir::Module work = promoted ? std::move(*promoted) : std::move(kernel->module);
  const bool changed = UnrollConstantTripLoops(work, &summary);
  EXPECT_EQ(changed, summary.loops > 0 || summary.merged_blocks > 0);
  const val::ValidationResult result = val::Validate(work.ToWords(), {});
  EXPECT_TRUE(result.valid) << val::testing::Dump(result);
  return summary;
}

// Runs the kernel unrolled and not, expects the same outcome, and returns the unrolled one.
LaunchResult RunBoth(const std::string& text, uint64_t items, uint32_t n,
                     CheckMode check = CheckMode::kError) {
  LoadOptions loops;
  loops.unroll_loops = false;
  testing::TransformedAndPlain runs =
      testing::RunTransformedAndPlain(text, LoadOptions(), loops, items, 4, n, check);
  EXPECT_LE(runs.transformed.instructions, runs.plain.instructions);
  return std::move(runs.transformed);
}

// arr[i] = id * i for i < 4 through a one-index chain on the counter, then the sum of arr:
// out[id] = 6 * id. Both loops unroll; the chains get constant indices.
TEST(LoopUnrolling, CountedLoopsOverPrivateArray) {
  const std::string text = Module(CountedLoop("%c0", "OpULessThan", "%c4", "%c1", R"(
         %pi = OpInBoundsPtrAccessChain %f_uint %arr %l0 %il
         %vi = OpIMul %uint %id %i
               OpStore %pi %vi
)",
                                              R"(
               OpBranch %h2
         %h2 = OpLabel
          %j = OpPhi %uint %c0 %exit %j1 %b2
          %s = OpPhi %uint %c0 %exit %s1 %b2
         %s2 = OpSLessThan %bool %j %c4
               OpBranchConditional %s2 %b2 %e2
         %b2 = OpLabel
         %jl = OpUConvert %ulong %j
         %pj = OpInBoundsPtrAccessChain %f_uint %arr %l0 %jl
         %vj = OpLoad %uint %pj
         %s1 = OpIAdd %uint %s %vj
         %j1 = OpIAdd %uint %j %c1
               OpBranch %h2
         %e2 = OpLabel
      %value = OpCopyObject %uint %s
)") + kStoreAndReturn);
  const UnrollSummary summary = Unroll(text);
  EXPECT_EQ(summary.loops, 2u);
  EXPECT_EQ(summary.iterations, 8u);
  EXPECT_GT(summary.folded, 8u);
  const LaunchResult run = RunBoth(text, 32, 0);
  for (uint32_t id = 0; id < 32; ++id) EXPECT_EQ(Word(run.out, id), 6 * id) << id;
}

// Nested loops (a 2 x 2 tile, as a GEMM's -O0 code has them) over a private uint[4], with the
// counter value used after the loop: out[id] = id * (0+1+2+3) + 4 (the final count).
TEST(LoopUnrolling, NestedLoopsInnerFirstAndCounterUsedAfter) {
  const std::string text = Module(R"(
               OpBranch %oh
         %oh = OpLabel
          %a = OpPhi %uint %c0 %entry %a1 %ol
       %done = OpPhi %uint %c0 %entry %d1 %ol
         %os = OpSLessThan %bool %a %c2
               OpBranchConditional %os %ob %oe
         %ob = OpLabel
               OpBranch %ih
         %ih = OpLabel
          %b = OpPhi %uint %c0 %ob %b1 %il
        %cnt = OpPhi %uint %done %ob %cn1 %il
         %is = OpSLessThan %bool %b %c2
               OpBranchConditional %is %ib %ie
         %ib = OpLabel
        %row = OpIMul %uint %a %c2
        %idx = OpIAdd %uint %row %b
       %idxl = OpSConvert %ulong %idx
          %p = OpInBoundsPtrAccessChain %f_uint %arr %l0 %idxl
          %v = OpIMul %uint %id %idx
               OpStore %p %v
               OpBranch %il
         %il = OpLabel
         %b1 = OpIAdd %uint %b %c1
        %cn1 = OpIAdd %uint %cnt %c1
               OpBranch %ih
         %ie = OpLabel
               OpBranch %ol
         %ol = OpLabel
         %a1 = OpIAdd %uint %a %c1
         %d1 = OpCopyObject %uint %cnt
               OpBranch %oh
         %oe = OpLabel
         %p0 = OpInBoundsAccessChain %f_uint %arr %c0
         %p1 = OpInBoundsAccessChain %f_uint %arr %c1
         %p2 = OpInBoundsAccessChain %f_uint %arr %c2
         %p3 = OpInBoundsAccessChain %f_uint %arr %c3
         %v0 = OpLoad %uint %p0
         %v1 = OpLoad %uint %p1
         %v2 = OpLoad %uint %p2
         %v3 = OpLoad %uint %p3
        %s01 = OpIAdd %uint %v0 %v1
        %s23 = OpIAdd %uint %v2 %v3
        %sum = OpIAdd %uint %s01 %s23
      %value = OpIAdd %uint %sum %done
)" + kStoreAndReturn);
  const UnrollSummary summary = Unroll(text);
  EXPECT_EQ(summary.loops, 2u);
  EXPECT_EQ(summary.iterations, 2u + 2u);
  const LaunchResult run = RunBoth(text, 16, 0);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), 6 * id + 4) << id;
}

// Loops that must stay loops: a bound known only at run time (n), a bound that differs per lane
// (the loop diverges), more trips than kMaxUnrolledTrips, and a counter whose step is not a
// constant. Each still runs as before.
TEST(LoopUnrolling, LoopsWithoutAConstantTripCountStay) {
  const std::string sum_body = R"(
         %vi = OpIMul %uint %id %i
)";
  const std::string after = R"(
      %value = OpCopyObject %uint %i
)" + kStoreAndReturn;
  const std::string runtime = Module(CountedLoop("%c0", "OpULessThan", "%n", "%c1", "", after));
  EXPECT_EQ(Unroll(runtime).loops, 0u);
  LaunchResult run = RunBoth(runtime, 16, 3);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), 3u) << id;

  const std::string per_lane =
      Module(CountedLoop("%c0", "OpULessThan", "%id", "%c1", sum_body, after));
  EXPECT_EQ(Unroll(per_lane).loops, 0u);
  run = RunBoth(per_lane, 16, 0);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), id) << id;

  const std::string long_loop =
      Module(CountedLoop("%c0", "OpULessThan", "%c20", "%c1", sum_body, after));
  EXPECT_EQ(Unroll(long_loop).loops, 0u);
  run = RunBoth(long_loop, 16, 0);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), 20u) << id;
  // The same trip count in bigger steps is short enough.
  const std::string strided =
      Module(CountedLoop("%c0", "OpULessThan", "%c40", "%c10", sum_body, after));
  EXPECT_EQ(Unroll(strided).loops, 1u);
  run = RunBoth(strided, 16, 0);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), 40u) << id;

  const std::string variable_step =
      Module(CountedLoop("%c0", "OpULessThan", "%c4", "%n", sum_body, after));
  EXPECT_EQ(Unroll(variable_step).loops, 0u);
  run = RunBoth(variable_step, 16, 2);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), 4u) << id;
}

// A constant loop with a barrier, or with a second exit, stays a loop.
TEST(LoopUnrolling, BarriersAndSecondExitsKeepTheLoop) {
  const std::string after = R"(
      %value = OpCopyObject %uint %i
)" + kStoreAndReturn;
  const std::string barrier = Module(CountedLoop("%c0", "OpULessThan", "%c4", "%c1", R"(
               OpControlBarrier %c2 %c2 %c0
)",
                                                 after));
  EXPECT_EQ(Unroll(barrier).loops, 0u);
  LaunchResult run = RunBoth(barrier, 16, 0);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), 4u) << id;

  // for (i = 0; i < 4; ++i) if (i == n) break;  out[id] = i (a second exit, to %exit).
  const std::string breaks = Module(R"(
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %c0 %entry %next %latch
       %stay = OpULessThan %bool %i %c4
               OpBranchConditional %stay %body %exit
       %body = OpLabel
         %hit = OpIEqual %bool %i %n
               OpBranchConditional %hit %exit %latch
      %latch = OpLabel
       %next = OpIAdd %uint %i %c1
               OpBranch %header
       %exit = OpLabel
      %value = OpCopyObject %uint %i
)" + kStoreAndReturn);
  EXPECT_EQ(Unroll(breaks).loops, 0u);
  run = RunBoth(breaks, 16, 2);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), 2u) << id;
}

// Reports from unrolled iterations are those of the loop: an out-of-bounds store at i = 4 of a
// uint[4] (the chain's constant index is past the end), and reads of elements never written.
TEST(LoopUnrolling, ReportsFromUnrolledIterationsAreTheSame) {
  const std::string text = Module(CountedLoop("%c0", "OpULessThan", "%c5", "%c1", R"(
         %pi = OpInBoundsPtrAccessChain %f_uint %arr %l0 %il
         %up = OpIAdd %uint %i %c1
        %upl = OpSConvert %ulong %up
         %pn = OpInBoundsPtrAccessChain %f_uint %arr %l0 %upl
         %vn = OpLoad %uint %pn
         %vi = OpIAdd %uint %vn %id
               OpStore %pi %vi
)",
                                              R"(
         %p0 = OpInBoundsAccessChain %f_uint %arr %c0
      %value = OpLoad %uint %p0
)") + kStoreAndReturn);
  EXPECT_EQ(Unroll(text).loops, 1u);
  const LaunchResult first = RunBoth(text, 16, 0, CheckMode::kError);
  EXPECT_TRUE(first.stopped);
  ASSERT_FALSE(first.reports.empty());
  const LaunchResult all = RunBoth(text, 16, 0, CheckMode::kWarn);
  EXPECT_GE(all.reports.size(), 2u);
}

// NoSignedWrap on the increment (as llvm-spirv writes it) does not stop folding, and the copies
// keep the decoration; SaturatedConversion keeps its instruction (folding would drop it).
TEST(LoopUnrolling, DecoratedInstructions) {
  const std::string text = Module(CountedLoop("%c0", "OpSLessThan", "%c3", "%c1", R"(
         %pi = OpInBoundsPtrAccessChain %f_uint %arr %l0 %il
        %sat = OpUConvert %uint %il
               OpStore %pi %sat
)",
                                              R"(
         %p2 = OpInBoundsAccessChain %f_uint %arr %c2
         %v2 = OpLoad %uint %p2
      %value = OpIAdd %uint %v2 %id
)") + kStoreAndReturn,
                                  R"(
               OpDecorate %next NoSignedWrap
               OpDecorate %sat SaturatedConversion
)");
  const UnrollSummary summary = Unroll(text);
  EXPECT_EQ(summary.loops, 1u);
  const LaunchResult run = RunBoth(text, 16, 0);
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(run.out, id), id + 2) << id;
}

// Blocks %a and %b, each reached by one unconditional branch, a divergent if-else (%t, %f)
// that reconverges at %j, and %z: %value is x * 3 for an odd x = %id + ADDEND, else x + 10.
std::string StraightLineBlocks(const std::string& addend) {
  return R"(
               OpBranch %a
          %a = OpLabel
         %x1 = OpIAdd %uint %id )" +
         addend + R"(
               OpBranch %b
          %b = OpLabel
         %x2 = OpPhi %uint %x1 %a
        %odd = OpBitwiseAnd %uint %x2 %c1
         %is = OpIEqual %bool %odd %c1
               OpBranchConditional %is %t %f
          %t = OpLabel
         %xt = OpIMul %uint %x2 %c3
               OpBranch %j
          %f = OpLabel
         %xf = OpIAdd %uint %x2 %c10
               OpBranch %j
          %j = OpLabel
         %xj = OpPhi %uint %xt %t %xf %f
               OpBranch %z
          %z = OpLabel
      %value = OpIAdd %uint %xj %c0
)";
}

// Blocks reached by one unconditional branch join their predecessor; a block two branches reach
// does not, and a divergent if-else still reconverges where it did.
TEST(LoopUnrolling, StraightLineBlocksMerge) {
  const std::string text = Module(StraightLineBlocks("%c1") + kStoreAndReturn);
  // Without a loop the loader leaves the module alone; transformed, a, b and z merge.
  Diagnostic diagnostic;
  EXPECT_FALSE(MayUnrollLoops(*ir::Module::FromWords(val::testing::Assemble(text), &diagnostic)));
  const UnrollSummary summary = Unroll(text);
  EXPECT_EQ(summary.loops, 0u);
  EXPECT_EQ(summary.merged_blocks, 3u);
  RunBoth(text, 16, 0);
  // With a loop in front, the loader transforms the module and the blocks merge.
  const std::string looped =
      Module(CountedLoop("%c0", "OpULessThan", "%c2", "%c1", "", StraightLineBlocks("%i")) +
             kStoreAndReturn);
  const UnrollSummary merged = Unroll(looped);
  EXPECT_EQ(merged.loops, 1u);
  EXPECT_GE(merged.merged_blocks, 5u);  // the copies, the exit, a and b into the entry; z
  const LaunchResult run = RunBoth(looped, 16, 0);
  for (uint32_t id = 0; id < 16; ++id) {
    const uint32_t x = id + 2;
    EXPECT_EQ(Word(run.out, id), x % 2 == 1 ? x * 3 : x + 10) << id;
  }
}

// The folder against values computed here.
TEST(ConstantFolding, IntegerWidthsSignednessAndWrapping) {
  const std::string text = R"(
               OpCapability Kernel
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Int64
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %bool = OpTypeBool
      %neg32 = OpConstant %uint 4294967293
        %big = OpConstant %uint 3000000000
         %c7 = OpConstant %uint 7
         %u8 = OpConstant %uchar 200
)";
  Diagnostic diagnostic;
  std::optional<ir::Module> module =
      ir::Module::FromWords(val::testing::Assemble(text), &diagnostic);
  ASSERT_TRUE(module) << diagnostic.Format();
  const ir::TypeTable types(*module);
  ConstantPool pool(*module, types);
  auto id_of = [&](const char* name) {
    for (const ir::Instruction& inst : module->globals()) {
      if (inst.opcode() == spv::Op::OpConstant &&
          pool.Get(inst.result_id())->bits == std::stoull(name)) {
        return inst.result_id();
      }
    }
    return 0u;
  };
  auto type_of = [&](uint32_t width) {
    for (const ir::Instruction& inst : module->globals()) {
      if (inst.opcode() == spv::Op::OpTypeInt && inst.word(0) == width) return inst.result_id();
    }
    return 0u;
  };
  uint32_t bool_type = 0;
  for (const ir::Instruction& inst : module->globals()) {
    if (inst.opcode() == spv::Op::OpTypeBool) bool_type = inst.result_id();
  }
  const uint32_t neg = id_of("4294967293"), big = id_of("3000000000"), seven = id_of("7");
  const uint32_t u8 = id_of("200");
  auto fold = [&](spv::Op op, uint32_t type, std::vector<uint32_t> operands) {
    ir::Instruction inst(op, type, 1000);
    for (uint32_t o : operands) inst.AddIdOperand(o);
    const std::optional<uint32_t> result =
        FoldConstantOperands(inst, operands.data(), operands.size(), pool);
    EXPECT_TRUE(result.has_value()) << static_cast<int>(op);
    return result ? pool.Get(*result).value_or(ConstantPool::Value{}).bits : ~uint64_t{0};
  };
  EXPECT_EQ(fold(spv::Op::OpSConvert, type_of(64), {neg}), 0xFFFFFFFFFFFFFFFDull);
  EXPECT_EQ(fold(spv::Op::OpUConvert, type_of(64), {neg}), 0xFFFFFFFDull);
  EXPECT_EQ(fold(spv::Op::OpSConvert, type_of(32), {u8}), 0xFFFFFFC8ull);  // 200 = -56 signed
  EXPECT_EQ(fold(spv::Op::OpUConvert, type_of(8), {big}), 3000000000ull & 0xFF);
  EXPECT_EQ(fold(spv::Op::OpIAdd, type_of(32), {big, big}), (6000000000ull) & 0xFFFFFFFF);
  EXPECT_EQ(fold(spv::Op::OpIMul, type_of(32), {neg, seven}), (0xFFFFFFFDull * 7) & 0xFFFFFFFF);
  EXPECT_EQ(fold(spv::Op::OpISub, type_of(32), {seven, big}), (7 - 3000000000ull) & 0xFFFFFFFF);
  EXPECT_EQ(fold(spv::Op::OpSLessThan, bool_type, {neg, seven}), 1u);  // -3 < 7
  EXPECT_EQ(fold(spv::Op::OpULessThan, bool_type, {neg, seven}), 0u);
  EXPECT_EQ(fold(spv::Op::OpSGreaterThan, bool_type, {big, seven}), 0u);  // negative signed
  EXPECT_EQ(fold(spv::Op::OpUGreaterThanEqual, bool_type, {big, seven}), 1u);
  EXPECT_EQ(fold(spv::Op::OpINotEqual, bool_type, {big, big}), 0u);
  // A new 8-bit constant holds its value; OpSelect picks an operand; floats are not folded.
  const uint32_t made = pool.Make(type_of(8), 0x1F3);
  EXPECT_EQ(pool.Get(made)->bits, 0xF3u);
  const uint32_t yes = pool.Make(bool_type, 1);
  const uint32_t operands[3] = {yes, big, seven};
  ir::Instruction select(spv::Op::OpSelect, type_of(32), 1001);
  for (uint32_t o : operands) select.AddIdOperand(o);
  EXPECT_EQ(FoldConstantOperands(select, operands, 3, pool), std::optional<uint32_t>(big));
  ir::Instruction shift(spv::Op::OpShiftLeftLogical, type_of(32), 1002);
  const uint32_t shift_operands[2] = {seven, big};
  EXPECT_FALSE(FoldConstantOperands(shift, shift_operands, 2, pool).has_value());
  EXPECT_TRUE(val::Validate(module->ToWords(), {}).valid);
}

// Every kernel of the corpus and of the benchmark set: the module the loader runs still
// validates, and the -O0 GEMMs of the benchmark set lose their constant loops.
TEST(LoopUnrolling, UnrolledModulesOfCorpusAndBenchmarksValidate) {
  int unrolled_modules = 0;
  for (testing::CorpusModule& corpus : testing::ValidCorpusAndBenchmarkModules()) {
    ir::Module& module = corpus.module;
    // As the loader runs them: built-in calls upgraded to instructions, then promotion.
    if (builtins::HasBuiltinImports(module)) {
      builtins::UpgradeResult upgraded = builtins::UpgradeBuiltinCalls(module);
      if (!upgraded.ok()) continue;
      module = std::move(upgraded.module);
    }
    for (const ir::Instruction& e : module.entry_points()) {
      if (e.num_operands() < 2) continue;
      std::optional<ir::Module> promoted = PromotePrivateVariables(module, e.word(1));
      ir::Module work = promoted ? std::move(*promoted) : module;
      UnrollSummary summary;
      if (!MayUnrollLoops(work) || !UnrollConstantTripLoops(work, &summary)) continue;
      ++unrolled_modules;
      const std::string name = corpus.path.filename().string();
      if (name.find("32x32") != std::string::npos && name.find(".O0.") != std::string::npos) {
        EXPECT_GE(summary.loops, 6u) << name;  // acc init, the 4 x 2 tile, the stores
      }
      const val::ValidationResult result = val::Validate(work.ToWords(), {});
      EXPECT_TRUE(result.valid) << corpus.path << "\n" << val::testing::Dump(result);
    }
  }
  EXPECT_GT(unrolled_modules, 10);
}

}  // namespace
}  // namespace xmx::interp
