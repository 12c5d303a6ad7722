// Shifts by a constant amount (ExecShiftByConstant, exec_arith.cpp) shift as SPIR-V's shifts with
// the amount reduced modulo the width (as xmx-run does for any amount): left, logical right and
// arithmetic right, on 8-, 16-, 32- and 64-bit integers, by a small amount, by the width plus 3
// and by all ones, in a full subgroup and a partial one. Each result is checked against a model
// computed here; the same shifts by an amount known only at run time must agree.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "interp_launch_support.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"

namespace xmx::interp {
namespace {

using testing::LaunchOutAndCount;
using testing::LaunchResult;
using testing::OutAndCountLaunch;

constexpr uint32_t kWidths[] = {8, 16, 32, 64};
constexpr const char* kTypes[] = {"%uchar", "%ushort", "%uint", "%ulong"};
constexpr uint64_t kMultipliers[] = {0x9D, 0x9E37, 0x9E3779B1, 0x9E3779B97F4A7C15};
constexpr const char* kOps[] = {"OpShiftLeftLogical", "OpShiftRightLogical",
                                "OpShiftRightArithmetic"};
constexpr uint32_t kPerWidth = 3 * 3;             // kinds x amounts
constexpr uint32_t kPerItem = 4 * kPerWidth * 2;  // widths x (constant, run-time amount)

uint64_t Mask(uint32_t bits) { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// The amounts as written: 3, the width plus 3, all ones.
uint64_t Amount(uint32_t width, uint32_t which) {
  return which == 0 ? 3 : which == 1 ? width + 3 : Mask(width);
}

std::string Module() {
  std::string text =
      testing::KernelModuleHeader(
          {.capabilities = {"Int64", "Int16", "Int8"}, .interface = "%gid"}) +
      testing::kGlobalIdDecoration +
      testing::TypesNamed({"%void", "%uint", "%ulong", "%ushort", "%uchar", "%v3ulong"}) + R"(
       %p_in = OpTypePointer Input %v3ulong
        %gid = OpVariable %p_in Input
    %p_ulong = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %p_ulong %uint
    %c_items = OpConstant %uint )" +
      std::to_string(kPerItem) + "\n";
  for (uint32_t w = 0; w < 4; ++w) {
    const std::string t = kTypes[w], suffix = std::to_string(kWidths[w]);
    text += "%mul" + suffix + " = OpConstant " + t + " " + std::to_string(kMultipliers[w]) + "\n";
    for (uint32_t a = 0; a < 3; ++a) {
      text += "%amt" + suffix + "_" + std::to_string(a) + " = OpConstant " + t + " " +
              std::to_string(Amount(kWidths[w], a)) + "\n";
    }
  }
  for (uint32_t slot = 0; slot < kPerItem; ++slot) {
    text += "%s" + std::to_string(slot) + " = OpConstant %uint " + std::to_string(slot) + "\n";
  }
  text += R"(
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %p_ulong
          %n = OpFunctionParameter %uint
      %entry = OpLabel
          %g = OpLoad %v3ulong %gid
        %idl = OpCompositeExtract %ulong %g 0
         %id = OpUConvert %uint %idl
      %first = OpIMul %uint %id %c_items
)";
  uint32_t slot = 0;
  for (uint32_t w = 0; w < 4; ++w) {
    const std::string t = kTypes[w], sw = std::to_string(kWidths[w]);
    if (kWidths[w] == 64) {
      text += "%x" + sw + " = OpIMul %ulong %idl %mul64\n";
      text += "%n" + sw + " = OpUConvert %ulong %n\n";
    } else {
      text += "%t" + sw + " = OpUConvert " + t + " %idl\n";
      text += "%x" + sw + " = OpIMul " + t + " %t" + sw + " %mul" + sw + "\n";
      text += "%n" + sw +
              (kWidths[w] == 32 ? " = OpCopyObject %uint %n\n" : " = OpUConvert " + t + " %n\n");
    }
    for (uint32_t op = 0; op < 3; ++op) {
      for (uint32_t a = 0; a < 3; ++a) {
        const std::string amount = "%amt" + sw + "_" + std::to_string(a);
        // The run-time amount: the constant ORed with n, which is 0 at run time.
        const std::string dynamic = "%dyn" + std::to_string(slot);
        text += dynamic + " = OpBitwiseOr " + t + " " + amount + " %n" + sw + "\n";
        for (uint32_t variant = 0; variant < 2; ++variant, ++slot) {
          const std::string r = "%r" + std::to_string(slot), s = std::to_string(slot);
          text += r + " = " + kOps[op] + " " + t + " %x" + sw + " " +
                  (variant == 0 ? amount : dynamic) + "\n";
          std::string wide = r;
          if (kWidths[w] != 64) {
            wide = "%w" + s;
            text += wide + " = OpUConvert %ulong " + r + "\n";
          }
          text += "%i" + s + " = OpIAdd %uint %first %s" + s + "\n";
          text += "%p" + s + " = OpPtrAccessChain %p_ulong %out %i" + s + "\n";
          text += "OpStore %p" + s + " " + wide + "\n";
        }
      }
    }
  }
  text += R"(
               OpReturn
               OpFunctionEnd
)";
  return text;
}

uint64_t ModelShift(uint32_t width, uint32_t op, uint64_t x, uint64_t written) {
  const uint64_t amount = (written & Mask(width)) % width;
  switch (op) {
    case 0:
      return (x << amount) & Mask(width);
    case 1:
      return x >> amount;
    default: {
      const int shift = 64 - static_cast<int>(width);
      const int64_t sx = static_cast<int64_t>(x << shift) >> shift;
      return static_cast<uint64_t>(sx >> amount) & Mask(width);
    }
  }
}

TEST(InterpShiftByConstant, ShiftsAsTheModelInFullAndPartialSubgroups) {
  const std::vector<uint32_t> words = val::testing::Assemble(Module());
  for (uint64_t local : {20u, 4u}) {
    OutAndCountLaunch launch;
    launch.global = 20;
    launch.local = local;
    launch.out_bytes = 20 * kPerItem * 8;
    launch.n = 0;
    const LaunchResult run = LaunchOutAndCount(words, LoadOptions(), launch);
    ASSERT_EQ(run.load_error, "");
    ASSERT_EQ(run.error, "");
    ASSERT_TRUE(run.reports.empty()) << run.reports.front().message;
    for (uint64_t id = 0; id < 20; ++id) {
      uint32_t slot = 0;
      for (uint32_t w = 0; w < 4; ++w) {
        const uint32_t width = kWidths[w];
        const uint64_t x = (id * kMultipliers[w]) & Mask(width);
        for (uint32_t op = 0; op < 3; ++op) {
          for (uint32_t a = 0; a < 3; ++a) {
            const uint64_t want = ModelShift(width, op, x, Amount(width, a));
            for (uint32_t variant = 0; variant < 2; ++variant, ++slot) {
              uint64_t got = 0;
              std::memcpy(&got, run.out.data() + (id * kPerItem + slot) * 8, 8);
              EXPECT_EQ(got, want) << "id " << id << " width " << width << " " << kOps[op]
                                   << " amount " << Amount(width, a) << " variant " << variant;
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace xmx::interp
