// Loads and stores of 32- and 64-byte values (uint8 / uint16 vectors: the operands of matrix
// instructions) through pointers the loader knows take the private-access fast path, which on
// AVX2 CPUs moves each lane's bytes in 32-byte registers (exec_memory.cpp). They must move the
// same bytes as the general handlers: every lane of a full subgroup, the lanes of a partial
// subgroup, and the odd lanes only after a branch, at offsets 0 and 32 of the variable, with the
// 64-byte value overlapping both 32-byte ones. The kernel runs in two variants, the "general"
// one reaching the variable through an OpSelect of the pointer with itself (which the loader
// does not follow), and both are checked against a model computed here.
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

// k(global uint* out, uint n): per work-item id, a private uint[16] receives a uint16 vector
// (id * 0x01010101 + i), then, in odd work-items only, a uint8 vector (id * 7 + 100 + i) at
// byte 32; out[id * 40 ..] gets the uint16 vector loaded back (16 words), the uint8 vectors at
// bytes 0 (8 words) and 32 (8 words), and 8 words untouched. `@` stands for the pointers'
// prefix: "%" in the fast variant, "%g_" in the general one.
std::string WideKernel(bool general) {
  std::string body =
      testing::KernelModuleHeader(
          {.capabilities = {"Int64", "Int8", "Vector16"}, .interface = "%gid"}) +
      testing::kGlobalIdDecoration +
      testing::TypesNamed({"%void", "%uint", "%ulong", "%uchar", "%bool", "%v3ulong"}) + R"(
         %v8 = OpTypeVector %uint 8
        %v16 = OpTypeVector %uint 16
)" + testing::UintConstants({0, 1, 2, 3, 4, 5, 6, 7, 16, 24, 32, 40, 100}) +
      R"(
     %c_fill = OpConstant %uint 0x01010101
    %c_magic = OpConstant %uint 12345
        %l32 = OpConstant %ulong 32
      %arr16 = OpTypeArray %uint %c16
)" + testing::OutAndCountDeclarations(R"(
       %p_v8 = OpTypePointer CrossWorkgroup %v8
      %p_v16 = OpTypePointer CrossWorkgroup %v16
      %f_arr = OpTypePointer Function %arr16
       %f_v8 = OpTypePointer Function %v8
      %f_v16 = OpTypePointer Function %v16
    %f_uchar = OpTypePointer Function %uchar
)") + testing::OutAndCountKernelStart("        %var = OpVariable %f_arr Function\n") +
      R"(
       %cond = OpINotEqual %bool %n %c_magic
      %whole = OpBitcast %f_v16 %var
         %lo = OpBitcast %f_v8 %var
      %bytes = OpBitcast %f_uchar %var
       %hi_b = OpInBoundsPtrAccessChain %f_uchar %bytes %l32
         %hi = OpBitcast %f_v8 %hi_b
    %g_whole = OpSelect %f_v16 %cond %whole %whole
       %g_lo = OpSelect %f_v8 %cond %lo %lo
       %g_hi = OpSelect %f_v8 %cond %hi %hi
         %x0 = OpIMul %uint %id %c_fill
         %x1 = OpIAdd %uint %x0 %c1
         %x2 = OpIAdd %uint %x0 %c2
         %x3 = OpIAdd %uint %x0 %c3
         %x4 = OpIAdd %uint %x0 %c4
         %x5 = OpIAdd %uint %x0 %c5
         %x6 = OpIAdd %uint %x0 %c6
         %x7 = OpIAdd %uint %x0 %c7
        %xlo = OpCompositeConstruct %v8 %x0 %x1 %x2 %x3 %x4 %x5 %x6 %x7
         %x8 = OpIAdd %uint %x0 %c16
        %xhi = OpCompositeConstruct %v8 %x8 %x7 %x6 %x5 %x4 %x3 %x2 %x1
       %x16v = OpCompositeConstruct %v16 %xlo %xhi
               OpStore @whole %x16v Aligned 64
        %odd = OpBitwiseAnd %uint %id %c1
      %isodd = OpINotEqual %bool %odd %c0
               OpSelectionMerge %merge None
               OpBranchConditional %isodd %then %merge
       %then = OpLabel
         %y0 = OpIMul %uint %id %c7
         %y1 = OpIAdd %uint %y0 %c100
         %y2 = OpIAdd %uint %y1 %c1
         %y3 = OpIAdd %uint %y1 %c2
          %y = OpCompositeConstruct %v8 %y1 %y2 %y3 %y1 %y2 %y3 %y1 %y2
               OpStore @hi %y Aligned 32
               OpBranch %merge
      %merge = OpLabel
        %r16 = OpLoad %v16 @whole Aligned 64
        %rlo = OpLoad %v8 @lo Aligned 32
        %rhi = OpLoad %v8 @hi Aligned 32
       %base = OpIMul %uint %id %c40
      %base1 = OpIAdd %uint %base %c16
      %base2 = OpIAdd %uint %base %c24
         %o0 = OpPtrAccessChain %p_int %out %base
         %o1 = OpPtrAccessChain %p_int %out %base1
         %o2 = OpPtrAccessChain %p_int %out %base2
        %o0v = OpBitcast %p_v16 %o0
        %o1v = OpBitcast %p_v8 %o1
        %o2v = OpBitcast %p_v8 %o2
               OpStore %o0v %r16 Aligned 4
               OpStore %o1v %rlo Aligned 4
               OpStore %o2v %rhi Aligned 4
               OpReturn
               OpFunctionEnd
)";
  const std::string prefix = general ? "%g_" : "%";
  for (size_t at = body.find('@'); at != std::string::npos; at = body.find('@', at)) {
    body.replace(at, 1, prefix);
    at += prefix.size();
  }
  return body;
}

LaunchResult RunWide(const std::string& text, uint64_t global, uint64_t local) {
  OutAndCountLaunch launch;
  launch.global = global;
  launch.local = local;
  launch.out_bytes = global * 40 * 4;
  return LaunchOutAndCount(val::testing::Assemble(text), LoadOptions(), launch);
}

TEST(InterpPrivateWide, VectorsOf32And64BytesMoveAsTheGeneralPathMovesThem) {
  // 20 work-items: a full subgroup of 16 and a partial one of 4; then groups of 4 (partial only).
  for (uint64_t local : {20u, 4u}) {
    const LaunchResult fast = RunWide(WideKernel(false), 20, local);
    const LaunchResult general = RunWide(WideKernel(true), 20, local);
    ASSERT_EQ(fast.load_error + fast.error, "");
    ASSERT_EQ(general.load_error + general.error, "");
    EXPECT_TRUE(fast.reports.empty());
    EXPECT_TRUE(general.reports.empty());
    EXPECT_EQ(fast.out, general.out);
    for (uint32_t id = 0; id < 20; ++id) {
      // The private words after both stores.
      uint32_t words[16];
      const uint32_t x0 = id * 0x01010101u;
      for (uint32_t i = 0; i < 8; ++i) words[i] = x0 + i;
      words[8] = x0 + 16;
      for (uint32_t i = 9; i < 16; ++i) words[i] = x0 + (16 - i);
      if (id % 2 != 0) {
        const uint32_t y1 = id * 7 + 100;
        const uint32_t y[8] = {y1, y1 + 1, y1 + 2, y1, y1 + 1, y1 + 2, y1, y1 + 1};
        for (uint32_t i = 0; i < 8; ++i) words[8 + i] = y[i];
      }
      for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(Word(fast.out, id * 40 + i), words[i]) << id;
      for (uint32_t i = 0; i < 8; ++i) {
        EXPECT_EQ(Word(fast.out, id * 40 + 16 + i), words[i]) << id;
        EXPECT_EQ(Word(fast.out, id * 40 + 24 + i), words[8 + i]) << id;
        EXPECT_EQ(Word(fast.out, id * 40 + 32 + i), 0xEEEEEEEEu) << id;
      }
    }
  }
}

}  // namespace
}  // namespace xmx::interp
