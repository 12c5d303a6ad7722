// Cooperative-matrix loads and stores as xmx-run executes them (exec_coop_memory.cpp), against a
// model computed here from the definition: element e of invocation j is the matrix element
// CoopLayout::ElementCoord(e, j), at offset row * Stride + column (RowMajor) or (row / 4) *
// Stride + column * 4 + row % 4 (PackedINTEL, 8-bit B) in memory; the checked forms read 0 and
// write nothing outside Height x Width. The positions cover the whole-slice paths (a matrix
// wholly inside Height x Width and its buffer) and the per-element ones (overhanging tiles, a
// packed X inside a VNNI group, stores whose rows overlap in memory, local memory), so a whole-
// slice move that put one byte elsewhere fails here.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "device/coop_layout.hpp"
#include "interp/kernel_access.hpp"
#include "interp/load/loader.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"
#include "xmx/interpreter.hpp"

namespace xmx::interp {
namespace {

// k(global uchar* in, global uchar* out, uint x, uint y, uint height, uint width, ulong stride)
// at subgroup size 16 over an 8-bit 32x16 B matrix: a checked load from `in` at (x, y), a checked
// store of it to `out` at (x, y), and an unchecked store of it to `out` at offset 4096 with the
// same Stride (or, with LOCAL, through a local array copied to `out` lane by lane; with DIVERGENT
// at out + 4096 + the lane's id, a Pointer that differs between invocations). LAYOUT is the
// MemoryLayout constant's name.
std::string Kernel(const std::string& layout, bool local, bool divergent = false) {
  // Local: every lane fills its bytes of the array with 0xEE, the subgroup stores the matrix
  // into it, and every lane copies its bytes to out + 4096.
  const std::string unchecked_store = local ? R"(
      %lane = OpLoad %v3ulong %lid_var
     %lane0 = OpCompositeExtract %ulong %lane 0
              OpBranch %fill
      %fill = OpLabel
         %f = OpPhi %ulong %lane0 %body %fnext %fill
        %fl = OpPtrAccessChain %p_luchar %lp %f
              OpStore %fl %uchar_ee
     %fnext = OpIAdd %ulong %f %l16
     %fmore = OpULessThan %bool %fnext %l4096
              OpBranchConditional %fmore %fill %stored
    %stored = OpLabel
              OpControlBarrier %c2 %c2 %c272
              OpCooperativeMatrixStoreKHR %lp %m %)" +
                                                  layout + R"( %stride
              OpControlBarrier %c2 %c2 %c272
              OpBranch %copy
      %copy = OpLabel
         %i = OpPhi %ulong %lane0 %stored %next %copy
        %lv = OpPtrAccessChain %p_luchar %lp %i
         %v = OpLoad %uchar %lv
        %ov = OpPtrAccessChain %p_uchar %far %i
              OpStore %ov %v
      %next = OpIAdd %ulong %i %l16
      %more = OpULessThan %bool %next %l4096
              OpBranchConditional %more %copy %done
      %done = OpLabel
)"
                                            : std::string(divergent ? R"(
      %lane = OpLoad %v3ulong %lid_var
     %lane0 = OpCompositeExtract %ulong %lane 0
       %dst = OpInBoundsPtrAccessChain %p_uchar %far %lane0
)"
                                                                    : R"(
       %dst = OpCopyObject %p_uchar %far
)") + R"(
               OpCooperativeMatrixStoreKHR %dst %m %)" +
                                                  layout + R"( %stride
               OpBranch %done
       %done = OpLabel
)";
  return testing::KernelModuleHeader(
             {.capabilities = {"Int64", "Int8", "CooperativeMatrixKHR",
                               "CooperativeMatrixCheckedInstructionsINTEL",
                               "PackedCooperativeMatrixINTEL"},
              .extensions = {"SPV_KHR_cooperative_matrix", "SPV_INTEL_joint_matrix"},
              .interface = "%lid_var"}) +
         R"(
               OpDecorate %lid_var BuiltIn LocalInvocationId
)" + testing::TypesNamed({"%void", "%bool", "%uchar", "%uint", "%ulong", "%v3ulong"}) +
         R"(
         %c0 = OpConstant %uint 0
         %c1 = OpConstant %uint 1
         %c2 = OpConstant %uint 2
         %c3 = OpConstant %uint 3
        %c16 = OpConstant %uint 16
        %c32 = OpConstant %uint 32
       %c272 = OpConstant %uint 272
      %c4096 = OpConstant %uint 4096
        %l16 = OpConstant %ulong 16
   %uchar_ee = OpConstant %uchar 238
      %l4096 = OpConstant %ulong 4096
  %RowMajorKHR = OpConstant %uint 0
 %PackedINTEL = OpConstant %uint 2
          %B = OpTypeCooperativeMatrixKHR %uchar %c3 %c32 %c16 %c1
    %p_uchar = OpTypePointer CrossWorkgroup %uchar
   %p_luchar = OpTypePointer Workgroup %uchar
    %a_local = OpTypeArray %uchar %c4096
   %p_alocal = OpTypePointer Workgroup %a_local
       %p_in = OpTypePointer Input %v3ulong
    %lid_var = OpVariable %p_in Input
      %local = OpVariable %p_alocal Workgroup
         %fn = OpTypeFunction %void %p_uchar %p_uchar %uint %uint %uint %uint %ulong
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %p_uchar
        %out = OpFunctionParameter %p_uchar
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
     %height = OpFunctionParameter %uint
      %width = OpFunctionParameter %uint
     %stride = OpFunctionParameter %ulong
       %body = OpLabel
         %lp = OpBitcast %p_luchar %local
        %far = OpInBoundsPtrAccessChain %p_uchar %out %l4096
          %m = OpCooperativeMatrixLoadCheckedINTEL %B %in %x %y %)" +
         layout + R"( %height %width %stride
               OpCooperativeMatrixStoreCheckedINTEL %out %x %y %m %)" +
         layout + R"( %height %width %stride
)" + unchecked_store +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

struct Outcome {
  std::vector<uint8_t> out;
  std::vector<RunReport> reports;
  std::string error;
};

Outcome RunKernel(const std::string& text, const std::vector<uint8_t>& in, uint32_t x, uint32_t y,
                  uint32_t height, uint32_t width, uint64_t stride) {
  Outcome o;
  const std::vector<uint32_t> words = val::testing::Assemble(text);
  Diagnostic diagnostic;
  std::optional<ir::Module> module = ir::Module::FromWords(words, &diagnostic);
  EXPECT_TRUE(module) << diagnostic.Format();
  if (!module) return o;
  LoadOptions options;
  options.kernel = "k";
  Result<Program> program = LoadProgram(*module, options);
  EXPECT_TRUE(program) << (program ? "" : program.diagnostics().front().message);
  if (!program) return o;
  RunRequest request;
  request.kernel = KernelAccess::Make(std::move(*program));
  request.geometry.dims = 1;
  request.geometry.global[0] = 16;
  request.geometry.local[0] = 16;
  auto value = [](uint64_t v, size_t bytes) {
    RunArgument a;
    for (size_t i = 0; i < bytes; ++i) a.bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return a;
  };
  RunArgument in_arg, out_arg;
  in_arg.kind = out_arg.kind = RunArgument::Kind::kBuffer;
  in_arg.bytes = in;
  out_arg.bytes.assign(8192, 0xEE);
  request.arguments = {in_arg,           out_arg,         value(x, 4),     value(y, 4),
                       value(height, 4), value(width, 4), value(stride, 8)};
  RunOutcome outcome = Execute(std::move(request));
  o.out = outcome.buffers.size() > 1 ? outcome.buffers[1] : std::vector<uint8_t>();
  o.reports = outcome.reports;
  o.error = outcome.error;
  return o;
}

int64_t Offset(bool packed, int64_t row, int64_t column, int64_t stride) {
  return packed ? row / 4 * stride + column * 4 + row % 4 : row * stride + column;
}

// The output buffer the definition gives: the checked store at (x, y) into 0xEE bytes, then the
// unchecked store at 4096 of every element in slice order (the last write to a location wins).
std::vector<uint8_t> Model(const std::vector<uint8_t>& in, bool packed, int64_t x, int64_t y,
                           int64_t height, int64_t width, int64_t stride) {
  std::string why;
  const device::CoopLayout layout =
      *device::CoopLayout::Make(device::CoopUse::kB, 32, 16, 8, 16, &why);
  std::vector<uint8_t> out(8192, 0xEE);
  std::vector<uint8_t> slot(512);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t e = 0; e < layout.length(); ++e) {
      const device::CoopCoord c = layout.ElementCoord(e, lane);
      const int64_t row = x + c.row, column = y + c.column;
      const bool inside = row >= 0 && row < height && column >= 0 && column < width;
      const uint8_t v = inside ? in.at(Offset(packed, row, column, stride)) : 0;
      slot[lane * layout.length() + e] = v;
      if (inside) out.at(Offset(packed, row, column, stride)) = v;
    }
  }
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t e = 0; e < layout.length(); ++e) {
      const device::CoopCoord c = layout.ElementCoord(e, lane);
      out.at(4096 + Offset(packed, c.row, c.column, stride)) = slot[lane * layout.length() + e];
    }
  }
  return out;
}

struct Position {
  uint32_t x, y, height, width;
  uint64_t stride;
};

void Check(bool packed, bool local, const std::vector<Position>& positions) {
  std::mt19937 rng(packed ? 5 : 3);
  std::vector<uint8_t> in(4096);
  for (uint8_t& b : in) b = static_cast<uint8_t>(rng());
  const std::string text = Kernel(packed ? "PackedINTEL" : "RowMajorKHR", local);
  for (const Position& p : positions) {
    const Outcome o = RunKernel(text, in, p.x, p.y, p.height, p.width, p.stride);
    EXPECT_EQ(o.error, "");
    EXPECT_TRUE(o.reports.empty()) << o.reports.front().message;
    EXPECT_EQ(o.out, Model(in, packed, p.x, p.y, p.height, p.width, p.stride))
        << (packed ? "packed" : "row-major") << (local ? " through local memory" : "") << " at ("
        << p.x << ", " << p.y << ") of " << p.height << "x" << p.width << ", stride " << p.stride;
  }
}

TEST(InterpCoopMemory, RowMajorInsideAndOverhanging) {
  Check(false, false,
        {{0, 0, 32, 16, 16},    // the whole surface, exact stride
         {5, 7, 60, 40, 64},    // wholly inside
         {40, 30, 60, 40, 64},  // overhanging the bottom and the right
         {3, 0, 34, 16, 48},    // touching the bottom edge
         {0, 0, 64, 64, 7}});   // rows overlapping in memory (Stride < Columns)
}

TEST(InterpCoopMemory, PackedInsideAndOverhanging) {
  Check(true, false,
        {{0, 0, 32, 16, 64},     // exact: Columns * 4
         {8, 3, 64, 24, 100},    // wholly inside, X on a VNNI group
         {6, 3, 64, 24, 100},    // wholly inside, X inside a VNNI group
         {28, 10, 40, 20, 100},  // overhanging
         {0, 0, 32, 16, 50}});   // packed rows overlapping in memory
}

TEST(InterpCoopMemory, LocalMemoryStores) {
  Check(false, true, {{4, 4, 64, 64, 64}, {0, 0, 64, 64, 9}});
}

// A checked load inside Height x Width but past the buffer is reported as before, per element
// (the whole-slice path declines it).
TEST(InterpCoopMemory, CheckedAccessPastTheBufferIsReported) {
  std::vector<uint8_t> in(4096, 1);
  const Outcome o = RunKernel(Kernel("RowMajorKHR", false), in, 100, 0, 200, 64, 64);
  ASSERT_FALSE(o.reports.empty());
  // Lane 0's first element, (100, 0), one byte: the per-element check's report.
  EXPECT_NE(o.reports.front().message.find("read of 1 bytes at offset 6400"), std::string::npos)
      << o.reports.front().message;
}

// A Pointer that differs between invocations is reported, naming the first lane that differs.
TEST(InterpCoopMemory, DivergentPointerIsReported) {
  std::vector<uint8_t> in(4096, 1);
  const Outcome o = RunKernel(Kernel("RowMajorKHR", false, true), in, 0, 0, 32, 16, 16);
  ASSERT_EQ(o.reports.size(), 1u);
  EXPECT_EQ(o.reports.front().rule, "subgroup.non-uniform");
  EXPECT_NE(o.reports.front().message.find("Pointer must be the same in every invocation, but "
                                           "lane 0 has"),
            std::string::npos)
      << o.reports.front().message;
  EXPECT_EQ(o.reports.front().lane, 1u);
}

}  // namespace
}  // namespace xmx::interp
