// OpCompositeInsert and OpCompositeExtract of small composites run through fixed-size handlers
// (ExecInsertFixed / ExecExtractFixed, exec_composite.cpp) instead of the general copy plan. The
// kernel computes every insert twice, once as OpCompositeInsert and once as the equivalent
// OpVectorShuffle (which keeps the copy plan), and every extract as OpCompositeExtract and as
// OpVectorExtractDynamic with a constant index, in a divergent branch (odd lanes only) and in
// all lanes; the test expects the two ways to agree byte for byte and both to match a model of
// the values computed here.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "interp/load/loader.hpp"
#include "interp_launch_support.hpp"
#include "spirv_preamble.hpp"
#include "val_test_support.hpp"

namespace xmx::interp {
namespace {

using testing::LaunchOutAndCount;
using testing::LaunchResult;
using testing::OutAndCountLaunch;

constexpr uint32_t kRecordBytes = 1024;  // per work-item: section 0 (odd lanes), section 1
constexpr uint32_t kSectionBytes = 512;

// One section of a record: SECTION is its byte offset, X the object inserted, I the component
// index the inserts use (0 or the last-but-one), S the shuffle operands that pick X at I.
std::string Section(const std::string& tag, uint32_t section, const std::string& x, uint32_t index,
                    uint32_t extract_index) {
  auto name = [&](const std::string& base) { return "%" + base + "_" + tag; };
  // Byte offset `at` of the section, as a pointer to `type`.
  auto at = [&](uint32_t offset, const std::string& pointer_type) {
    const std::string p = name("p" + std::to_string(offset));
    return "     " + name("a" + std::to_string(offset)) + " = OpIAdd %ulong %rec %l" +
           std::to_string(section + offset) + "\n     " + name("b" + std::to_string(offset)) +
           " = OpPtrAccessChain %p_uchar %bytes " + name("a" + std::to_string(offset)) + "\n     " +
           p + " = OpBitcast " + pointer_type + " " + name("b" + std::to_string(offset)) + "\n";
  };
  auto shuffle = [&](uint32_t components) {  // components of the first operand but X at index
    std::string s;
    for (uint32_t c = 0; c < components; ++c) {
      s += " " + std::to_string(c == index % components ? components : c);
    }
    return s;
  };
  const uint32_t i2 = index % 2, i4 = index % 4, i8 = index % 8;
  std::string t;
  // X in each component type, and splats of it for the shuffles.
  t += "     " + name("x16") + " = OpUConvert %ushort " + x + "\n";
  t += "     " + name("x8") + " = OpUConvert %uchar " + x + "\n";
  t += "     " + name("x64") + " = OpUConvert %ulong " + x + "\n";
  t += "     " + name("s2") + " = OpCompositeConstruct %v2uint " + x + " " + x + "\n";
  t += "     " + name("s4") + " = OpCompositeConstruct %v4uint " + x + " " + x + " " + x + " " + x +
       "\n";
  t += "     " + name("s8") + " = OpCompositeConstruct %v8ushort" + std::string() + [&] {
    std::string r;
    for (int c = 0; c < 8; ++c) r += " " + name("x16");
    return r;
  }() + "\n";
  t += "     " + name("sc") + " = OpCompositeConstruct %v4uchar " + name("x8") + " " + name("x8") +
       " " + name("x8") + " " + name("x8") + "\n";
  t += "     " + name("sl") + " = OpCompositeConstruct %v4ulong " + name("x64") + " " +
       name("x64") + " " + name("x64") + " " + name("x64") + "\n";
  // v2uint (8 bytes, 4-byte part)
  t += "     " + name("i2") + " = OpCompositeInsert %v2uint " + x + " %a2 " + std::to_string(i2) +
       "\n";
  t += "     " + name("h2") + " = OpVectorShuffle %v2uint %a2 " + name("s2") + shuffle(2) + "\n";
  // v4uint (16 bytes, 4-byte part)
  t += "     " + name("i4") + " = OpCompositeInsert %v4uint " + x + " %a4 " + std::to_string(i4) +
       "\n";
  t += "     " + name("h4") + " = OpVectorShuffle %v4uint %a4 " + name("s4") + shuffle(4) + "\n";
  // v8ushort (16 bytes, 2-byte part)
  t += "     " + name("i8") + " = OpCompositeInsert %v8ushort " + name("x16") + " %a8 " +
       std::to_string(i8) + "\n";
  t += "     " + name("h8") + " = OpVectorShuffle %v8ushort %a8 " + name("s8") + shuffle(8) + "\n";
  // v4uchar (4 bytes, 1-byte part)
  t += "     " + name("ic") + " = OpCompositeInsert %v4uchar " + name("x8") + " %ac " +
       std::to_string(i4) + "\n";
  t += "     " + name("hc") + " = OpVectorShuffle %v4uchar %ac " + name("sc") + shuffle(4) + "\n";
  // v4ulong (32 bytes, 8-byte part)
  t += "     " + name("il") + " = OpCompositeInsert %v4ulong " + name("x64") + " %al " +
       std::to_string(i4) + "\n";
  t += "     " + name("hl") + " = OpVectorShuffle %v4ulong %al " + name("sl") + shuffle(4) + "\n";
  // Extracts: a 2-byte component of the inserted v8ushort, an 8-byte one of the v4ulong.
  t += "     " + name("e16") + " = OpCompositeExtract %ushort " + name("i8") + " " +
       std::to_string(extract_index % 8) + "\n";
  t += "     " + name("d16") + " = OpVectorExtractDynamic %ushort " + name("h8") + " %c" +
       std::to_string(extract_index % 8) + "\n";
  t += "     " + name("e64") + " = OpCompositeExtract %ulong " + name("il") + " " +
       std::to_string(extract_index % 4) + "\n";
  t += "     " + name("d64") + " = OpVectorExtractDynamic %ulong " + name("hl") + " %c" +
       std::to_string(extract_index % 4) + "\n";
  const struct {
    uint32_t offset;
    const char* value;
    const char* pointer;
  } stores[] = {{0, "i2", "%p_v2uint"},    {32, "h2", "%p_v2uint"},    {64, "i4", "%p_v4uint"},
                {96, "h4", "%p_v4uint"},   {128, "i8", "%p_v8ushort"}, {160, "h8", "%p_v8ushort"},
                {192, "ic", "%p_v4uchar"}, {224, "hc", "%p_v4uchar"},  {256, "il", "%p_v4ulong"},
                {288, "hl", "%p_v4ulong"}, {320, "e16", "%p_ushort"},  {324, "d16", "%p_ushort"},
                {328, "e64", "%p_ulong"},  {336, "d64", "%p_ulong"}};
  for (const auto& s : stores) {
    t += at(s.offset, s.pointer);
    t += "     OpStore " + name("p" + std::to_string(s.offset)) + " " + name(s.value) + "\n";
  }
  return t;
}

std::string Kernel() {
  std::string constants = testing::UintConstants({0, 1, 2, 3, 4, 5, 6, 7});
  for (uint32_t section : {0u, kSectionBytes}) {
    for (uint32_t offset : {0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 324, 328, 336}) {
      const uint32_t v = section + offset;
      if (constants.find("%l" + std::to_string(v) + " ") == std::string::npos) {
        constants +=
            "  %l" + std::to_string(v) + " = OpConstant %ulong " + std::to_string(v) + "\n";
      }
    }
  }
  return testing::KernelModuleHeader(
             {.capabilities = {"Int64", "Int16", "Int8", "Vector16"}, .interface = "%gid"}) +
         testing::kGlobalIdDecoration +
         testing::TypesNamed({"%void", "%uint", "%ulong", "%ushort", "%uchar", "%bool", "%v3ulong",
                              "%v2uint", "%v4uint", "%v8ushort", "%v4uchar", "%v4ulong"}) +
         constants +
         R"(
      %c1000 = OpConstant %uint 1000
        %c77 = OpConstant %uint 77
    %c_bytes = OpConstant %uint 0x04030201
     %c_mask = OpConstant %uint 0x00FF00FF
     %l1024 = OpConstant %ulong 1024
)" + testing::OutAndCountDeclarations(R"(
    %p_uchar = OpTypePointer CrossWorkgroup %uchar
   %p_ushort = OpTypePointer CrossWorkgroup %ushort
    %p_ulong = OpTypePointer CrossWorkgroup %ulong
   %p_v2uint = OpTypePointer CrossWorkgroup %v2uint
   %p_v4uint = OpTypePointer CrossWorkgroup %v4uint
 %p_v8ushort = OpTypePointer CrossWorkgroup %v8ushort
  %p_v4uchar = OpTypePointer CrossWorkgroup %v4uchar
  %p_v4ulong = OpTypePointer CrossWorkgroup %v4ulong
)") + testing::OutAndCountKernelStart() +
         R"(
        %rec = OpIMul %ulong %g0 %l1024
      %bytes = OpBitcast %p_uchar %out
        %id3 = OpIMul %uint %id %c3
        %id7 = OpIAdd %uint %id %c7
        %idb = OpIMul %uint %id %c_bytes
         %a2 = OpCompositeConstruct %v2uint %id %id3
         %a4 = OpCompositeConstruct %v4uint %id %id3 %id7 %idb
         %a8 = OpBitcast %v8ushort %a4
       %idm = OpBitwiseXor %uint %idb %c_mask
         %ac = OpBitcast %v4uchar %idm
         %al = OpUConvert %v4ulong %a4
         %x0 = OpIMul %uint %id %c1000
          %x = OpIAdd %uint %x0 %c1
         %y0 = OpIMul %uint %id %c77
          %y = OpIAdd %uint %y0 %c5
        %odd = OpBitwiseAnd %uint %id %c1
      %isodd = OpINotEqual %bool %odd %c0
               OpSelectionMerge %merge None
               OpBranchConditional %isodd %then %merge
       %then = OpLabel
)" + Section("d", 0, "%x", 6, 5) +
         R"(
               OpBranch %merge
      %merge = OpLabel
)" + Section("a", kSectionBytes, "%y", 0, 3) +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

template <class T>
void Put(std::vector<uint8_t>& bytes, size_t at, const T& value) {
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}

// The section a work-item with id `id` writes, inserting x at `index` and extracting at
// `extract_index`, into record bytes [at, at + 344).
void ModelSection(std::vector<uint8_t>& out, size_t at, uint32_t id, uint32_t x, uint32_t index,
                  uint32_t extract_index) {
  uint32_t a4[4] = {id, id * 3, id + 7, id * 0x04030201u};
  uint32_t v2[2] = {a4[0], a4[1]};
  v2[index % 2] = x;
  uint32_t v4[4] = {a4[0], a4[1], a4[2], a4[3]};
  v4[index % 4] = x;
  uint16_t v8[8];
  std::memcpy(v8, a4, 16);
  v8[index % 8] = static_cast<uint16_t>(x);
  uint32_t c = (id * 0x04030201u) ^ 0x00FF00FFu;
  uint8_t vc[4];
  std::memcpy(vc, &c, 4);
  vc[index % 4] = static_cast<uint8_t>(x);
  uint64_t vl[4] = {a4[0], a4[1], a4[2], a4[3]};
  vl[index % 4] = x;
  for (uint32_t copy = 0; copy < 2; ++copy) {  // the insert, then the shuffle
    std::memcpy(out.data() + at + 0 + 32 * copy, v2, 8);
    std::memcpy(out.data() + at + 64 + 32 * copy, v4, 16);
    std::memcpy(out.data() + at + 128 + 32 * copy, v8, 16);
    std::memcpy(out.data() + at + 192 + 32 * copy, vc, 4);
    std::memcpy(out.data() + at + 256 + 32 * copy, vl, 32);
    Put(out, at + 320 + 4 * copy, v8[extract_index % 8]);
    Put(out, at + 328 + 8 * copy, vl[extract_index % 4]);
  }
}

TEST(InterpCompositeFixed, InsertsAndExtractsMatchTheCopyPlanAndTheModel) {
  for (const uint64_t global : {16u, 32u, 13u}) {  // full subgroups, and a partial one
    SCOPED_TRACE(global);
    OutAndCountLaunch launch;
    launch.global = global;
    launch.local = global == 32 ? 16 : global;
    launch.out_bytes = kRecordBytes * global;
    const LaunchResult run =
        LaunchOutAndCount(val::testing::Assemble(Kernel()), LoadOptions(), launch);
    ASSERT_EQ(run.load_error, "");
    ASSERT_EQ(run.error, "");
    EXPECT_TRUE(run.reports.empty()) << (run.reports.empty() ? "" : run.reports[0].message);
    std::vector<uint8_t> expected(launch.out_bytes, 0xEE);
    for (uint32_t id = 0; id < global; ++id) {
      if (id % 2 == 1) ModelSection(expected, size_t{id} * kRecordBytes, id, id * 1000 + 1, 6, 5);
      ModelSection(expected, size_t{id} * kRecordBytes + kSectionBytes, id, id * 77 + 5, 0, 3);
    }
    ASSERT_EQ(run.out.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(run.out[i], expected[i])
          << "work-item " << i / kRecordBytes << " byte " << i % kRecordBytes;
    }
  }
}

}  // namespace
}  // namespace xmx::interp
