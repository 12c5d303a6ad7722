// The interpreter's fast paths give exactly what the general handlers give (issue 13):
//  - loads and stores through a pointer the loader knows (an OpVariable, its casts and its
//    constant-index access chains: PrivateAddress, exec_memory.cpp) move the same bytes, and an
//    access past the variable or misaligned still reaches the general handler and its report;
//  - integer OpUConvert / OpSConvert between widths (ExecIntResize, exec_convert.cpp) extend and
//    truncate as the general conversion does, in full, partial and divergent subgroups;
//  - access chains with one dynamic index (ExecAccessChainOneIndex) compute the same pointers
//    for uniform and varying indices, and an offset that cannot be encoded still gives a pointer
//    whose access is reported;
//  - loads and stores whose lanes all fall in one buffer (OneAllocation) gather and scatter as
//    the per-lane path does, stores to one address in lane order, and a lane out of bounds or
//    misaligned is reported as that lane; lanes whose words lie back to back move as one block,
//    and a lane past the buffer's end among them is still reported as that lane;
//  - one-index access chains over a 64-bit index take the unchecked arithmetic only when every
//    lane's index is small: a lane whose index leaves 32 bits or whose offset goes negative still
//    gets the unencodable pointer, and its access is reported as that lane.
// Each kernel comes in two variants that differ in one operand only: the "fast" one accesses
// through the known pointer, the "general" one through an OpSelect of that pointer with itself
// (which the loader does not follow), so every instruction keeps its index and the reports can be
// compared field by field. Results are also checked against a model computed here.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "interp/load/loader.hpp"
#include "interp_launch_support.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"
#include "xmx/interpreter.hpp"

namespace xmx::interp {
namespace {

using testing::LaunchOutAndCount;
using testing::LaunchResult;
using testing::OutAndCountLaunch;
using testing::Word;

// A kernel k(global uint* out, uint n) over a private uint[4] %var, with %id the global id (a
// uint) and %cond a condition true at run time that the loader cannot see through. In BODY,
// "@name" is the pointer %name in the fast variant and %name_g (an OpSelect of %name with
// itself, which BODY defines) in the general one.
std::string Kernel(std::string body, bool general) {
  for (size_t at = body.find('@'); at != std::string::npos; at = body.find('@', at)) {
    size_t end = at + 1;
    while (end < body.size() &&
           (std::isalnum(static_cast<unsigned char>(body[end])) || body[end] == '_')) {
      ++end;
    }
    const std::string name = body.substr(at + 1, end - at - 1);
    const std::string replacement = "%" + name + (general ? "_g" : "");
    body.replace(at, end - at, replacement);
    at += replacement.size();
  }
  return testing::KernelModuleHeader(
             {.capabilities = {"Int64", "Int16", "Int8", "GenericPointer"}, .interface = "%gid"}) +
         testing::kGlobalIdDecoration +
         testing::TypesNamed(
             {"%void", "%uint", "%ulong", "%ushort", "%uchar", "%bool", "%v3ulong"}) +
         R"(
      %c_dbg = OpConstant %uint 7
)" + testing::UintConstants({0, 1, 2, 3, 4, 8, 16, 24, 47, 1000}) +
         R"(
    %c_magic = OpConstant %uint 12345
     %c_five = OpConstant %uint 5
    %c_bytes = OpConstant %uint 0x04030201
        %l32 = OpConstant %ulong 32
         %l2 = OpConstant %ulong 2
         %l4 = OpConstant %ulong 4
         %l5 = OpConstant %ulong 5
     %l_huge = OpConstant %ulong 0x4000000000000000
      %l_far = OpConstant %ulong 0x4000000000
       %arr4 = OpTypeArray %uint %c4
)" + testing::OutAndCountDeclarations(R"(
      %f_arr = OpTypePointer Function %arr4
     %f_uint = OpTypePointer Function %uint
    %f_uchar = OpTypePointer Function %uchar
   %f_ushort = OpTypePointer Function %ushort
    %p_uchar = OpTypePointer CrossWorkgroup %uchar
     %g_uint = OpTypePointer Generic %uint
)") + testing::OutAndCountKernelStart("        %var = OpVariable %f_arr Function\n") +
         R"(
       %cond = OpINotEqual %bool %n %c_magic
      %var_g = OpSelect %f_arr %cond %var %var
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

LaunchResult Launch(const std::string& text, uint64_t global, uint64_t local, size_t out_bytes,
                    CheckMode check) {
  OutAndCountLaunch launch;
  launch.global = global;
  launch.local = local;
  launch.out_bytes = out_bytes;
  launch.check = check;
  return LaunchOutAndCount(val::testing::Assemble(text), LoadOptions(), launch);
}

// Runs both variants and expects the same buffer and the same reports.
LaunchResult RunBoth(const std::string& body, uint64_t global, uint64_t local, size_t out_bytes,
                     CheckMode check) {
  LaunchResult fast = Launch(Kernel(body, false), global, local, out_bytes, check);
  const LaunchResult general = Launch(Kernel(body, true), global, local, out_bytes, check);
  EXPECT_EQ(fast.load_error, "");
  EXPECT_EQ(general.load_error, "");
  EXPECT_EQ(fast.error, general.error);
  EXPECT_EQ(fast.out, general.out);
  EXPECT_EQ(fast.stopped, general.stopped);
  EXPECT_EQ(fast.reports.size(), general.reports.size());
  for (size_t i = 0; i < std::min(fast.reports.size(), general.reports.size()); ++i) {
    const RunReport& a = fast.reports[i];
    const RunReport& b = general.reports[i];
    EXPECT_EQ(a.rule, b.rule) << i;
    EXPECT_EQ(a.message, b.message) << i;
    EXPECT_EQ(a.instruction_index, b.instruction_index) << i;
    EXPECT_EQ(a.lane, b.lane) << i;
    EXPECT_EQ(a.global_id[0], b.global_id[0]) << i;
  }
  return fast;
}

// Stores through element pointers, a byte pointer and a generic round trip; loads through other
// element types that partly overlap them, some only in the odd lanes. out[id * 8 + j].
const char* const kCastsAndOverlaps = R"(
         %e0 = OpInBoundsAccessChain %f_uint %var %c0
       %e0_g = OpSelect %f_uint %cond %e0 %e0
         %e2 = OpInBoundsAccessChain %f_uint %var %c2
       %e2_g = OpSelect %f_uint %cond %e2 %e2
         %e3 = OpAccessChain %f_uint %var %c3
       %e3_g = OpSelect %f_uint %cond %e3 %e3
      %bytes = OpBitcast %f_uchar %var
         %b5 = OpInBoundsPtrAccessChain %f_uchar %bytes %l5
       %b5_g = OpSelect %f_uchar %cond %b5 %b5
         %b4 = OpPtrAccessChain %f_uchar %bytes %l4
         %h4 = OpBitcast %f_ushort %b4
       %h4_g = OpSelect %f_ushort %cond %h4 %h4
        %gen = OpPtrCastToGeneric %g_uint %e2
       %back = OpGenericCastToPtr %f_uint %gen
     %back_g = OpSelect %f_uint %cond %back %back
         %v0 = OpIMul %uint %id %c_bytes
         %v2 = OpIAdd %uint %v0 %c16
         %vb = OpUConvert %uchar %id
       %negb = OpSNegate %uchar %vb
               OpStore @e0 %v0
               OpStore @back %v2
               OpStore @b5 %negb Aligned 1
          %w = OpLoad %ushort @h4
          %x = OpLoad %uint @e2
          %y = OpLoad %uint @e0 Aligned 4
      %whole = OpLoad %arr4 @var
        %el1 = OpCompositeExtract %uint %whole 1
         %wu = OpUConvert %uint %w
        %odd = OpBitwiseAnd %uint %id %c1
      %isodd = OpINotEqual %bool %odd %c0
               OpSelectionMerge %merge None
               OpBranchConditional %isodd %then %merge
       %then = OpLabel
         %sx = OpSConvert %ushort %negb
        %sxu = OpUConvert %uint %sx
               OpStore @e3 %sxu
               OpBranch %merge
      %merge = OpLabel
         %z3 = OpLoad %uint @e3
        %neg = OpSNegate %uint %id
         %sl = OpSConvert %ulong %neg
         %hi = OpShiftRightLogical %ulong %sl %l32
        %hiu = OpUConvert %uint %hi
       %base = OpIMul %uint %id %c8
      %base1 = OpIAdd %uint %base %c1
      %base2 = OpIAdd %uint %base %c2
      %base3 = OpIAdd %uint %base %c3
      %base4 = OpIAdd %uint %base %c4
         %o0 = OpPtrAccessChain %p_int %out %base
         %o1 = OpPtrAccessChain %p_int %out %base1
         %o2 = OpPtrAccessChain %p_int %out %base2
         %o3 = OpPtrAccessChain %p_int %out %base3
         %o4 = OpPtrAccessChain %p_int %out %base4
               OpStore %o0 %wu
               OpStore %o1 %x
               OpStore %o2 %y
               OpStore %o3 %el1
               OpStore %o4 %z3
        %b5l = OpIAdd %uint %base4 %c1
         %o5 = OpPtrAccessChain %p_int %out %b5l
               OpStore %o5 %hiu
)";

TEST(InterpFastPaths, PrivateAccessThroughCastsMatchesTheGeneralPath) {
  // 20 work-items in one work-group: a full subgroup of 16 and a partial one of 4.
  for (uint64_t local : {20u, 4u}) {
    const LaunchResult run = RunBoth(kCastsAndOverlaps, 20, local, 20 * 8 * 4, CheckMode::kError);
    ASSERT_TRUE(run.reports.empty()) << run.reports.front().message;
    for (uint32_t id = 0; id < 20; ++id) {
      const uint32_t v0 = id * 0x04030201u;
      const uint8_t negb = static_cast<uint8_t>(-static_cast<int>(id));
      // Bytes 4 and 5 of the array: 0 and the byte stored at 5.
      EXPECT_EQ(Word(run.out, id * 8 + 0), uint32_t{negb} << 8) << id;
      EXPECT_EQ(Word(run.out, id * 8 + 1), v0 + 16) << id;
      EXPECT_EQ(Word(run.out, id * 8 + 2), v0) << id;
      EXPECT_EQ(Word(run.out, id * 8 + 3), uint32_t{negb} << 8) << id;
      // Odd lanes stored negb sign-extended to 16 bits; even lanes left the zero.
      const uint32_t sx = static_cast<uint16_t>(static_cast<int16_t>(static_cast<int8_t>(negb)));
      EXPECT_EQ(Word(run.out, id * 8 + 4), id % 2 != 0 ? sx : 0u) << id;
      EXPECT_EQ(Word(run.out, id * 8 + 5), id == 0 ? 0u : 0xFFFFFFFFu) << id;
      EXPECT_EQ(Word(run.out, id * 8 + 6), 0xEEEEEEEEu) << id;
    }
  }
}

// Known pointers whose access the fast path must not take: one past the variable's end (known,
// but a load of 4 bytes there is out of bounds) and one 2 bytes in, read as an aligned uint.
TEST(InterpFastPaths, OutOfBoundsAndMisalignedAccessesAreStillReported) {
  const char* const kPastEnd = R"(
         %e0 = OpInBoundsAccessChain %f_uint %var %c0
       %past = OpPtrAccessChain %f_uint %e0 %c4
     %past_g = OpSelect %f_uint %cond %past %past
          %x = OpLoad %uint @past
         %o0 = OpPtrAccessChain %p_int %out %id
               OpStore %o0 %x
)";
  for (CheckMode check : {CheckMode::kError, CheckMode::kWarn, CheckMode::kOff}) {
    const LaunchResult run = RunBoth(kPastEnd, 16, 16, 16 * 4, check);
    if (check == CheckMode::kOff) {
      EXPECT_TRUE(run.reports.empty());
      continue;
    }
    ASSERT_FALSE(run.reports.empty());
    EXPECT_EQ(run.reports.front().rule, "memory.out-of-bounds");
  }
  const char* const kMisaligned = R"(
      %bytes = OpBitcast %f_uchar %var
         %b2 = OpInBoundsPtrAccessChain %f_uchar %bytes %l2
        %mis = OpBitcast %f_uint %b2
      %mis_g = OpSelect %f_uint %cond %mis %mis
               OpStore @mis %id Aligned 4
          %x = OpLoad %uint @mis
         %o0 = OpPtrAccessChain %p_int %out %id
               OpStore %o0 %x
)";
  for (CheckMode check : {CheckMode::kError, CheckMode::kWarn}) {
    const LaunchResult run = RunBoth(kMisaligned, 16, 16, 16 * 4, check);
    ASSERT_FALSE(run.reports.empty());
    EXPECT_EQ(run.reports.front().rule, "memory.misaligned");
  }
  // Without the Aligned operand a uint access 2 bytes in is misaligned all the same (natural
  // alignment); through a ushort it is fine and reads what the uint store wrote.
  const char* const kHalves = R"(
      %bytes = OpBitcast %f_uchar %var
         %b2 = OpInBoundsPtrAccessChain %f_uchar %bytes %l2
         %h2 = OpBitcast %f_ushort %b2
       %h2_g = OpSelect %f_ushort %cond %h2 %h2
         %e0 = OpInBoundsAccessChain %f_uint %var %c0
       %e0_g = OpSelect %f_uint %cond %e0 %e0
         %v0 = OpIMul %uint %id %c_bytes
               OpStore @e0 %v0
          %h = OpLoad %ushort @h2
         %hu = OpUConvert %uint %h
         %o0 = OpPtrAccessChain %p_int %out %id
               OpStore %o0 %hu
)";
  const LaunchResult halves = RunBoth(kHalves, 16, 16, 16 * 4, CheckMode::kError);
  ASSERT_TRUE(halves.reports.empty()) << halves.reports.front().message;
  for (uint32_t id = 0; id < 16; ++id) EXPECT_EQ(Word(halves.out, id), (id * 0x04030201u) >> 16);
}

// One dynamic index: uniform (from the argument) and varying (the id), and offsets that cannot be
// encoded: an index whose product with the stride overflows 64 bits, and one past 2^40 bytes.
TEST(InterpFastPaths, OneIndexAccessChainsComputeTheGeneralPointers) {
  const char* const kIndexed = R"(
         %e0 = OpInBoundsAccessChain %f_uint %var %c0
       %e0_g = OpSelect %f_uint %cond %e0 %e0
         %e1 = OpInBoundsAccessChain %f_uint %var %c1
       %e1_g = OpSelect %f_uint %cond %e1 %e1
         %v0 = OpIMul %uint %id %c_bytes
               OpStore @e0 %id
               OpStore @e1 %v0
        %sel = OpBitwiseAnd %uint %id %c1
        %dyn = OpAccessChain %f_uint @var %sel
          %a = OpLoad %uint %dyn
         %un = OpAccessChain %f_uint @var %n
          %b = OpLoad %uint %un
       %base = OpIMul %uint %id %c2
      %base1 = OpIAdd %uint %base %c1
         %o0 = OpPtrAccessChain %p_int %out %base
         %o1 = OpPtrAccessChain %p_int %out %base1
               OpStore %o0 %a
               OpStore %o1 %b
)";
  const LaunchResult run = RunBoth(kIndexed, 20, 20, 20 * 2 * 4, CheckMode::kError);
  ASSERT_TRUE(run.reports.empty()) << run.reports.front().message;
  for (uint32_t id = 0; id < 20; ++id) {
    EXPECT_EQ(Word(run.out, id * 2), id % 2 == 0 ? id : id * 0x04030201u) << id;
    EXPECT_EQ(Word(run.out, id * 2 + 1), id * 0x04030201u) << id;
  }
  // Into the private array with uniform indices that leave it: below its start, a product that
  // overflows, an offset past 2^40.
  for (const char* index : {"%minus_one", "%huge", "%far"}) {
    const std::string kOutside = std::string(R"(
         %nl = OpUConvert %ulong %n
  %minus_one = OpISub %ulong %nl %l2
       %huge = OpIMul %ulong %nl %l_huge
        %far = OpIMul %ulong %nl %l_far
        %bad = OpInBoundsAccessChain %f_uint @var )") +
                                 index + R"(
          %x = OpLoad %uint %bad
         %o0 = OpPtrAccessChain %p_int %out %id
               OpStore %o0 %x
)";
    for (CheckMode check : {CheckMode::kError, CheckMode::kWarn}) {
      const LaunchResult bad = RunBoth(kOutside, 16, 16, 16 * 4, check);
      ASSERT_FALSE(bad.reports.empty()) << index;
      EXPECT_EQ(bad.reports.front().rule, "memory.out-of-bounds") << index;
      EXPECT_EQ(bad.reports.size(), check == CheckMode::kError ? 1u : 16u) << index;
    }
  }
  for (const char* index : {"%l_huge", "%l_far"}) {
    // The index is computed at run time (a constant one is folded, wrapping like the address).
    const std::string kFar = std::string(R"(
         %o0 = OpPtrAccessChain %p_int %out %id
       %o0_g = OpSelect %p_int %cond %o0 %o0
         %nl = OpUConvert %ulong %n
        %idx = OpIMul %ulong %nl )") +
                             index + R"(
        %far = OpPtrAccessChain %p_int @o0 %idx
               OpStore %far %id
)";
    for (CheckMode check : {CheckMode::kError, CheckMode::kWarn}) {
      const LaunchResult far = RunBoth(kFar, 16, 16, 16 * 4, check);
      ASSERT_FALSE(far.reports.empty()) << index;
      EXPECT_EQ(far.reports.front().rule, "memory.out-of-bounds") << index;
      EXPECT_EQ(far.reports.size(), check == CheckMode::kError ? 1u : 16u) << index;
    }
  }
}

// Lanes of one buffer: a scatter, a permuted gather of what it wrote, and every lane storing to
// one word (the last lane's value stays, as lane by lane). 20 work-items: a full subgroup and a
// partial one.
TEST(InterpFastPaths, AccessesWithinOneBufferMatchTheModel) {
  const char* const kGather = R"(
         %w7 = OpIMul %uint %id %c_dbg
         %o0 = OpPtrAccessChain %p_int %out %id
               OpStore %o0 %w7
         %x3 = OpBitwiseXor %uint %id %c3
        %src = OpPtrAccessChain %p_int %out %x3
          %v = OpLoad %uint %src
         %v1 = OpIAdd %uint %v %c1
        %d24 = OpIAdd %uint %id %c24
        %dst = OpPtrAccessChain %p_int %out %d24
               OpStore %dst %v1
       %same = OpPtrAccessChain %p_int %out %c47
               OpStore %same %id
)";
  for (uint64_t local : {20u, 4u}) {
    const LaunchResult run = Launch(Kernel(kGather, false), 20, local, 48 * 4, CheckMode::kError);
    ASSERT_EQ(run.load_error, "");
    ASSERT_TRUE(run.reports.empty()) << run.reports.front().message;
    for (uint32_t id = 0; id < 20; ++id) {
      EXPECT_EQ(Word(run.out, id), id * 7) << id;
      EXPECT_EQ(Word(run.out, 24 + id), (id ^ 3) * 7 + 1) << id;
    }
    EXPECT_EQ(Word(run.out, 47), 19u);
  }
  // Lane 5 reads past the buffer, lane 7 two bytes into a word: each is reported as that lane,
  // and with --check=warn the other lanes still read their words.
  const char* const kStray = R"(
         %w7 = OpIMul %uint %id %c_dbg
         %o0 = OpPtrAccessChain %p_int %out %id
               OpStore %o0 %w7
       %is5 = OpIEqual %bool %id %c_five
       %far = OpSelect %uint %is5 %c1000 %c0
        %at = OpIAdd %uint %id %far
        %src = OpPtrAccessChain %p_int %out %at
          %v = OpLoad %uint %src
        %d24 = OpIAdd %uint %id %c24
        %dst = OpPtrAccessChain %p_int %out %d24
               OpStore %dst %v
      %bytes = OpBitcast %p_uchar %out
        %is7 = OpIEqual %bool %id %c_dbg
       %skew = OpSelect %uint %is7 %c2 %c0
         %b4 = OpIMul %uint %id %c4
        %byte = OpIAdd %uint %b4 %skew
         %bp = OpPtrAccessChain %p_uchar %bytes %byte
         %wp = OpBitcast %p_int %bp
          %u = OpLoad %uint %wp
)";
  std::string stray = kStray;
  const LaunchResult first = Launch(Kernel(stray, false), 16, 16, 48 * 4, CheckMode::kError);
  ASSERT_EQ(first.load_error, "");
  ASSERT_EQ(first.reports.size(), 1u);
  EXPECT_EQ(first.reports[0].rule, "memory.out-of-bounds");
  EXPECT_EQ(first.reports[0].lane, 5u);
  const LaunchResult warn = Launch(Kernel(stray, false), 16, 16, 48 * 4, CheckMode::kWarn);
  ASSERT_EQ(warn.reports.size(), 2u);
  EXPECT_EQ(warn.reports[0].rule, "memory.out-of-bounds");
  EXPECT_EQ(warn.reports[0].lane, 5u);
  EXPECT_EQ(warn.reports[1].rule, "memory.misaligned");
  EXPECT_EQ(warn.reports[1].lane, 7u);
  for (uint32_t id = 0; id < 16; ++id) {
    EXPECT_EQ(Word(warn.out, 24 + id), id == 5 ? 0u : id * 7) << id;
  }
}

// Lanes back to back: each lane stores to word id + 24 and loads it back, then stores to word
// id. In a buffer of 48 words with 20 work-items everything is in bounds (the partial subgroup
// takes the lane-by-lane moves); in one of 39 words lane 15's store and load fall past the end.
TEST(InterpFastPaths, BackToBackLanesMoveAsOneBlockAndAStrayLaneIsReported) {
  const char* const kShifted = R"(
         %w7 = OpIMul %uint %id %c_dbg
        %id24 = OpIAdd %uint %id %c24
         %o1 = OpPtrAccessChain %p_int %out %id24
               OpStore %o1 %w7
          %v = OpLoad %uint %o1
       %v1000 = OpIAdd %uint %v %c1000
         %o0 = OpPtrAccessChain %p_int %out %id
               OpStore %o0 %v1000
)";
  const LaunchResult inside = Launch(Kernel(kShifted, false), 20, 20, 48 * 4, CheckMode::kError);
  ASSERT_EQ(inside.load_error, "");
  ASSERT_TRUE(inside.reports.empty()) << inside.reports.front().message;
  for (uint32_t id = 0; id < 20; ++id) {
    EXPECT_EQ(Word(inside.out, id), id * 7 + 1000) << id;
    EXPECT_EQ(Word(inside.out, 24 + id), id * 7) << id;
  }
  for (CheckMode check : {CheckMode::kError, CheckMode::kWarn}) {
    const LaunchResult stray = Launch(Kernel(kShifted, false), 16, 16, 39 * 4, check);
    ASSERT_EQ(stray.load_error, "");
    ASSERT_EQ(stray.reports.size(), check == CheckMode::kError ? 1u : 2u);
    for (const RunReport& report : stray.reports) {
      EXPECT_EQ(report.rule, "memory.out-of-bounds");
      EXPECT_EQ(report.lane, 15u);
    }
    if (check == CheckMode::kWarn) {
      // The other lanes read back their words; lane 15's load gave zero.
      for (uint32_t id = 0; id < 16; ++id) {
        EXPECT_EQ(Word(stray.out, id), (id == 15 ? 0u : id * 7) + 1000) << id;
      }
    }
  }
  const char* const kStoreShifted = R"(
        %id1 = OpIAdd %uint %id %c1
         %o1 = OpPtrAccessChain %p_int %out %id1
               OpStore %o1 %id1
)";
  const LaunchResult store = Launch(Kernel(kStoreShifted, false), 16, 16, 16 * 4, CheckMode::kWarn);
  ASSERT_EQ(store.reports.size(), 1u);
  EXPECT_EQ(store.reports[0].rule, "memory.out-of-bounds");
  EXPECT_EQ(store.reports[0].lane, 15u);
  EXPECT_EQ(Word(store.out, 0), 0xEEEEEEEEu);  // the harness's fill: no lane stores there
  for (uint32_t id = 1; id < 16; ++id) EXPECT_EQ(Word(store.out, id), id) << id;
}

// A 64-bit index: lane 3's is -1 (an offset below the buffer) and lane 5's 2^38 + 5 (past 32
// bits; times 4 past 2^40); the other lanes read out[id]. Both stray lanes are reported, in lane
// order, and read zero.
TEST(InterpFastPaths, WideIndexAccessChainsReportStrayLanes) {
  const char* const kWide = R"(
         %w7 = OpIMul %uint %id %c_dbg
         %o0 = OpPtrAccessChain %p_int %out %id
               OpStore %o0 %w7
         %il = OpUConvert %ulong %id
         %lz = OpISub %ulong %l2 %l2
        %is5 = OpIEqual %bool %id %c_five
        %is3 = OpIEqual %bool %id %c3
      %plus = OpSelect %ulong %is5 %l_far %lz
     %minus = OpSelect %ulong %is3 %l4 %lz
        %up = OpIAdd %ulong %il %plus
        %idx = OpISub %ulong %up %minus
         %at = OpPtrAccessChain %p_int %out %idx
          %x = OpLoad %uint %at
        %d24 = OpIAdd %uint %id %c24
        %dst = OpPtrAccessChain %p_int %out %d24
               OpStore %dst %x
)";
  const LaunchResult first = Launch(Kernel(kWide, false), 16, 16, 48 * 4, CheckMode::kError);
  ASSERT_EQ(first.load_error, "");
  ASSERT_EQ(first.reports.size(), 1u);
  EXPECT_EQ(first.reports[0].rule, "memory.out-of-bounds");
  EXPECT_EQ(first.reports[0].lane, 3u);
  const LaunchResult warn = Launch(Kernel(kWide, false), 16, 16, 48 * 4, CheckMode::kWarn);
  ASSERT_EQ(warn.reports.size(), 2u);
  EXPECT_EQ(warn.reports[0].lane, 3u);
  EXPECT_EQ(warn.reports[1].lane, 5u);
  EXPECT_EQ(warn.reports[1].rule, "memory.out-of-bounds");
  for (uint32_t id = 0; id < 16; ++id) {
    EXPECT_EQ(Word(warn.out, 24 + id), id == 3 || id == 5 ? 0u : id * 7) << id;
  }
}

}  // namespace
}  // namespace xmx::interp
