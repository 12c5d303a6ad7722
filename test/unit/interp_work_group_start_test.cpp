// Each work-group starts afresh (README, "Other undefined values"): private and local memory
// zero, each work-item's builtins its own, by-value arguments the caller's bytes, the kernel's
// arguments in their registers. A worker thread reuses one work-group's storage for every
// work-group it runs, a full work-group starting from images made once per launch with only the
// builtins that name the work-group moved (run/worker_start.cpp), a work-group at the edge of
// the NDRange set up from scratch. The kernel here reads everything a stale start would show,
// before writing it, in a 2D launch with a global offset where full and edge work-groups alternate;
// every word is checked against a model computed here, with 64- and 32-bit builtins, on one and two
// threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "interp/kernel_access.hpp"
#include "interp/load/loader.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"
#include "xmx/interpreter.hpp"
#include "xmx/module.hpp"

namespace xmx::interp {
namespace {

constexpr uint32_t kWordsPerItem = 13;
constexpr uint32_t kByValueWord = 0xAB;
constexpr uint32_t kN = 0x5EED;

// k(global uint* out, uint n, ByVal struct {uint, uint}* s, local uint* scratch): work-item
// GlobalLinearId writes kWordsPerItem words at out[GlobalLinearId * kWordsPerItem]:
// GlobalInvocationId x, y, WorkgroupId x, y, LocalInvocationId x, y, WorkgroupSize x,
// SubgroupSize, then what it reads before writing it: its private uint[4]'s element 1, its
// element of a Workgroup uint[64] and of `scratch` (both at LocalInvocationIndex), s's first
// member, and n. `size` is the builtins' integer type (ulong in Physical64, uint in Physical32).
std::string WordIndexConstants() {
  std::string text;
  for (uint32_t word = 0; word < kWordsPerItem; ++word) {
    text += "%k" + std::to_string(word) + " = OpConstant %uint " + std::to_string(word) + "\n";
  }
  return text;
}

std::string StartKernel(bool physical64) {
  const std::string size = physical64 ? "%ulong" : "%uint";
  const std::string to_uint = physical64 ? "OpUConvert %uint" : "OpCopyObject %uint";
  std::string text = testing::KernelModuleHeader(
                         {.capabilities = {"Int64"},
                          .addressing = physical64 ? "Physical64" : "Physical32",
                          .interface = "%gid %wid %lid %wsize %sgsize %linear %lindex %shared"}) +
                     R"(
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %wid BuiltIn WorkgroupId
               OpDecorate %lid BuiltIn LocalInvocationId
               OpDecorate %wsize BuiltIn WorkgroupSize
               OpDecorate %sgsize BuiltIn SubgroupSize
               OpDecorate %linear BuiltIn GlobalLinearId
               OpDecorate %lindex BuiltIn LocalInvocationIndex
               OpDecorate %s FuncParamAttr ByVal
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %v3size = OpTypeVector )" +
                     size + R"( 3
     %struct = OpTypeStruct %uint %uint
         %c0 = OpConstant %uint 0
         %c1 = OpConstant %uint 1
         %c4 = OpConstant %uint 4
        %c64 = OpConstant %uint 64
       %c100 = OpConstant %uint 100
   %c_words = OpConstant %uint )" +
                     std::to_string(kWordsPerItem) + R"(
       %arr4 = OpTypeArray %uint %c4
)" + WordIndexConstants() +
                     R"(
      %arr64 = OpTypeArray %uint %c64
      %p_out = OpTypePointer CrossWorkgroup %uint
   %p_struct = OpTypePointer Function %struct
     %p_fn_u = OpTypePointer Function %uint
   %p_fn_arr = OpTypePointer Function %arr4
     %p_wg_u = OpTypePointer Workgroup %uint
   %p_wg_arr = OpTypePointer Workgroup %arr64
      %p_in3 = OpTypePointer Input %v3size
    %p_in_sz = OpTypePointer Input )" +
                     size + R"(
     %p_in_u = OpTypePointer Input %uint
        %gid = OpVariable %p_in3 Input
        %wid = OpVariable %p_in3 Input
        %lid = OpVariable %p_in3 Input
      %wsize = OpVariable %p_in3 Input
     %sgsize = OpVariable %p_in_u Input
     %linear = OpVariable %p_in_sz Input
     %lindex = OpVariable %p_in_sz Input
     %shared = OpVariable %p_wg_arr Workgroup
         %fn = OpTypeFunction %void %p_out %uint %p_struct %p_wg_u
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %p_out
          %n = OpFunctionParameter %uint
          %s = OpFunctionParameter %p_struct
    %scratch = OpFunctionParameter %p_wg_u
      %entry = OpLabel
       %priv = OpVariable %p_fn_arr Function
)";
  // The values, each as a uint %w<i>.
  auto vector_word = [&](int word, const char* variable, int component) {
    const std::string v = "%v" + std::to_string(word);
    text += v + "_all = OpLoad %v3size " + variable + "\n";
    text += v + "_c = OpCompositeExtract " + size + " " + v + "_all " + std::to_string(component) +
            "\n";
    text += "%w" + std::to_string(word) + " = " + to_uint + " " + v + "_c\n";
  };
  vector_word(0, "%gid", 0);
  vector_word(1, "%gid", 1);
  vector_word(2, "%wid", 0);
  vector_word(3, "%wid", 1);
  vector_word(4, "%lid", 0);
  vector_word(5, "%lid", 1);
  vector_word(6, "%wsize", 0);
  text += R"(
         %w7 = OpLoad %uint %sgsize
   %lindex_s = OpLoad )" +
          size + R"( %lindex
   %lindex_u = )" +
          to_uint + R"( %lindex_s
   %linear_s = OpLoad )" +
          size + R"( %linear
   %linear_u = )" +
          to_uint + R"( %linear_s
       %base = OpIMul %uint %linear_u %c_words
     %priv_1 = OpAccessChain %p_fn_u %priv %c1
         %w8 = OpLoad %uint %priv_1
   %shared_i = OpAccessChain %p_wg_u %shared %lindex_u
         %w9 = OpLoad %uint %shared_i
    %s_first = OpAccessChain %p_fn_u %s %c0
        %w10 = OpLoad %uint %s_first
  %scratch_i = OpPtrAccessChain %p_wg_u %scratch %lindex_u
        %w11 = OpLoad %uint %scratch_i
        %w12 = OpCopyObject %uint %n
)";
  for (uint32_t word = 0; word < kWordsPerItem; ++word) {
    const std::string i = std::to_string(word);
    text += "%at" + i + " = OpIAdd %uint %base %k" + i + "\n";
    text += "%p" + i + " = OpPtrAccessChain %p_out %out %at" + i + "\n";
    text += "OpStore %p" + i + " %w" + i + "\n";
  }
  text += R"(
               OpStore %priv_1 %c100
               OpStore %shared_i %c100
               OpStore %s_first %c100
               OpStore %scratch_i %c100
               OpReturn
               OpFunctionEnd
)";
  return text;
}

struct Geometry {
  uint64_t global[2], local[2], offset[2];
};

// The words the model expects, per GlobalLinearId.
std::vector<uint32_t> ModelWords(const Geometry& g, uint32_t subgroup_size) {
  std::vector<uint32_t> words(g.global[0] * g.global[1] * kWordsPerItem);
  for (uint64_t y = 0; y < g.global[1]; ++y) {
    for (uint64_t x = 0; x < g.global[0]; ++x) {
      const uint64_t group[2] = {x / g.local[0], y / g.local[1]};
      const uint64_t lid[2] = {x % g.local[0], y % g.local[1]};
      uint64_t size[2];
      for (int d = 0; d < 2; ++d)
        size[d] = std::min(g.local[d], g.global[d] - group[d] * g.local[d]);
      const uint64_t items = size[0] * size[1];
      const uint64_t index = lid[0] + lid[1] * size[0];
      const uint64_t subgroup_first = index / subgroup_size * subgroup_size;
      const uint32_t expected[kWordsPerItem] = {
          static_cast<uint32_t>(x + g.offset[0]),
          static_cast<uint32_t>(y + g.offset[1]),
          static_cast<uint32_t>(group[0]),
          static_cast<uint32_t>(group[1]),
          static_cast<uint32_t>(lid[0]),
          static_cast<uint32_t>(lid[1]),
          static_cast<uint32_t>(size[0]),
          static_cast<uint32_t>(std::min<uint64_t>(subgroup_size, items - subgroup_first)),
          0,             // private memory
          0,             // the Workgroup variable
          kByValueWord,  // the by-value argument, as the caller passed it
          0,             // the local-pointer argument
          kN};
      const uint64_t linear = x + g.global[0] * y;
      std::copy(expected, expected + kWordsPerItem, words.begin() + linear * kWordsPerItem);
    }
  }
  return words;
}

struct StartRun {
  std::vector<uint32_t> words;
  std::vector<RunReport> reports;
  std::string error;
  uint64_t work_groups = 0;
};

StartRun RunStartKernel(bool physical64, const Geometry& g, uint32_t threads) {
  StartRun run;
  const std::vector<uint32_t> binary = val::testing::Assemble(StartKernel(physical64));
  Diagnostic diagnostic;
  std::optional<ir::Module> module = ir::Module::FromWords(binary, &diagnostic);
  if (!module) {
    run.error = diagnostic.Format();
    return run;
  }
  LoadOptions options;
  options.kernel = "k";
  Result<Program> program = LoadProgram(*module, options);
  if (!program) {
    run.error = program.diagnostics().front().message;
    return run;
  }
  RunRequest request;
  request.kernel = KernelAccess::Make(std::move(*program));
  request.geometry.dims = 2;
  for (int d = 0; d < 2; ++d) {
    request.geometry.global[d] = g.global[d];
    request.geometry.local[d] = g.local[d];
    request.geometry.offset[d] = g.offset[d];
  }
  request.threads = threads;
  RunArgument out;
  out.kind = RunArgument::Kind::kBuffer;
  out.bytes.assign(g.global[0] * g.global[1] * kWordsPerItem * 4, 0xEE);
  RunArgument n;
  n.bytes.resize(4);
  std::memcpy(n.bytes.data(), &kN, 4);
  RunArgument by_value;  // passed as a buffer of the struct's bytes
  by_value.kind = RunArgument::Kind::kBuffer;
  by_value.bytes.assign(8, 0);
  std::memcpy(by_value.bytes.data(), &kByValueWord, 4);
  RunArgument scratch;
  scratch.kind = RunArgument::Kind::kLocal;
  scratch.local_bytes = 64 * 4;
  request.arguments = {out, n, by_value, scratch};
  RunOutcome outcome = Execute(std::move(request));
  run.error = outcome.error;
  run.reports = outcome.reports;
  run.work_groups = outcome.stats.work_groups;
  if (!outcome.buffers.empty()) {
    run.words.resize(outcome.buffers[0].size() / 4);
    std::memcpy(run.words.data(), outcome.buffers[0].data(), run.words.size() * 4);
  }
  return run;
}

void ExpectModel(bool physical64, const Geometry& g, uint32_t threads, uint64_t work_groups) {
  const StartRun run = RunStartKernel(physical64, g, threads);
  ASSERT_EQ(run.error, "");
  EXPECT_TRUE(run.reports.empty()) << run.reports.front().message;
  EXPECT_EQ(run.work_groups, work_groups);
  const std::vector<uint32_t> want = ModelWords(g, 16);
  ASSERT_EQ(run.words.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(run.words[i], want[i])
        << "work-item " << i / kWordsPerItem << " word " << i % kWordsPerItem;
  }
}

// Work-groups of 16 x 2 (two subgroups), three across (the third 8 wide) and two down: full and
// edge work-groups alternate, so each kind starts after the other.
const Geometry kAlternating = {{40, 4}, {16, 2}, {3, 5}};

TEST(WorkGroupStartTest, EveryWorkGroupStartsAfresh64BitBuiltins) {
  ExpectModel(true, kAlternating, 1, 6);
}

TEST(WorkGroupStartTest, EveryWorkGroupStartsAfresh32BitBuiltins) {
  ExpectModel(false, kAlternating, 1, 6);
}

TEST(WorkGroupStartTest, EveryWorkerStartsItsWorkGroupsAfresh) {
  ExpectModel(true, kAlternating, 2, 6);
  ExpectModel(false, kAlternating, 2, 6);
}

// Only full work-groups, many of them: each starts from the images, its ids moved from group 0's.
TEST(WorkGroupStartTest, FullWorkGroupsMoveOnlyTheirIds) {
  ExpectModel(true, {{64, 6}, {16, 2}, {0, 7}}, 1, 12);
  ExpectModel(false, {{64, 6}, {16, 2}, {0xFFFFFFF0, 0}}, 1, 12);  // ids wrap at 32 bits
}

}  // namespace
}  // namespace xmx::interp
