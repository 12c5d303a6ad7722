// The disassembler's text as spirv-dis 2023.1 prints it: literal numbers, friendly names, masks,
// layout options, extended instructions, and the text left before an error. Expected strings
// were taken from the installed spirv-dis on the same modules.
#include "text/disassembler.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "binary/parser.hpp"
#include "text/friendly_names.hpp"
#include "text/number_format.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::text {
namespace {

using spv::Op;

// Builds a module word by word.
class Module {
 public:
  explicit Module(uint32_t bound = 100) { words = {binary::kMagic, 0x00010400, 0, bound, 0}; }
  Module& Inst(Op op, std::vector<uint32_t> operands) {
    words.push_back(uint32_t(operands.size() + 1) << 16 | static_cast<uint32_t>(op));
    words.insert(words.end(), operands.begin(), operands.end());
    return *this;
  }
  Module& Named(Op op, std::vector<uint32_t> before, std::string_view s) {
    binary::EncodeString(s, &before);
    return Inst(op, before);
  }
  std::vector<uint32_t> words;
};

// The instruction lines only (no header), as a default spirv-dis run prints them.
std::string Body(const Module& m, DisassembleOptions options = {}) {
  options.header = false;
  std::string text;
  Diagnostic error;
  EXPECT_TRUE(Disassemble(m.words, options, &text, &error)) << error.Format();
  return text;
}

std::string Half(uint16_t bits) {
  std::string s;
  AppendHalf(bits, &s);
  return s;
}
std::string Float(uint32_t bits) {
  std::string s;
  AppendFloat(bits, &s);
  return s;
}
std::string Double(uint64_t bits) {
  std::string s;
  AppendDouble(bits, &s);
  return s;
}

TEST(NumberFormat, HalfIsAlwaysHexFloat) {
  EXPECT_EQ(Half(0x3C00), "0x1p+0");
  EXPECT_EQ(Half(0x3E00), "0x1.8p+0");
  EXPECT_EQ(Half(0x0000), "0x0p+0");
  EXPECT_EQ(Half(0x8000), "-0x0p+0");
  EXPECT_EQ(Half(0x7C00), "0x1p+16");    // +inf
  EXPECT_EQ(Half(0xFC00), "-0x1p+16");   // -inf
  EXPECT_EQ(Half(0x7E00), "0x1.8p+16");  // quiet NaN
  EXPECT_EQ(Half(0x0001), "0x1p-24");    // smallest subnormal
  EXPECT_EQ(Half(0x0010), "0x1p-20");
  EXPECT_EQ(Half(0x7BFF), "0x1.ffcp+15");  // max
}

TEST(NumberFormat, FloatNormalsAsDecimalOthersAsHex) {
  EXPECT_EQ(Float(0x3F800000), "1");
  EXPECT_EQ(Float(0x3F000000), "0.5");
  EXPECT_EQ(Float(0x80000000), "-0");
  EXPECT_EQ(Float(0x40490FDB), "3.14159274");
  EXPECT_EQ(Float(0x4CEB79A3), "123456792");
  EXPECT_EQ(Float(0x501502F9), "1e+10");
  EXPECT_EQ(Float(0x7F7FFFFF), "3.40282347e+38");
  EXPECT_EQ(Float(0x7F800000), "0x1p+128");
  EXPECT_EQ(Float(0xFF800000), "-0x1p+128");
  EXPECT_EQ(Float(0x7FC00000), "0x1.8p+128");
  EXPECT_EQ(Float(0x00000001), "0x1p-149");
  EXPECT_EQ(Float(0x000116C2), "0x1.16c2p-133");  // 1e-40
}

TEST(NumberFormat, Double) {
  EXPECT_EQ(Double(0x3FB999999999999AULL), "0.10000000000000001");
  EXPECT_EQ(Double(0xBFF8000000000000ULL), "-1.5");
  EXPECT_EQ(Double(0x3EE4F8B588E368F1ULL), "1.0000000000000001e-05");
  EXPECT_EQ(Double(0x8000000000000000ULL), "-0");
  EXPECT_EQ(Double(0x7FF0000000000000ULL), "0x1p+1024");
  EXPECT_EQ(Double(0xFFF0000000000001ULL), "-0x1.0000000000001p+1024");
  EXPECT_EQ(Double(0x0000000000000010ULL), "0x1p-1070");
}

TEST(NumberFormat, IntegersBySignednessAndWidth) {
  std::string s;
  const uint32_t minus_one[] = {0xFFFFFFFFu, 0xFFFFFFFFu};
  AppendNumber(binary::NumberKind::kSignedInt, 32, std::span(minus_one, 1), &s);
  s += ' ';
  AppendNumber(binary::NumberKind::kUnsignedInt, 32, std::span(minus_one, 1), &s);
  s += ' ';
  AppendNumber(binary::NumberKind::kSignedInt, 64, minus_one, &s);
  s += ' ';
  AppendNumber(binary::NumberKind::kUnsignedInt, 64, minus_one, &s);
  EXPECT_EQ(s, "-1 4294967295 -1 18446744073709551615");
  s.clear();
  const uint32_t low_first[] = {0x00000001u, 0xFFFFFFFFu};  // low-order word first
  AppendNumber(binary::NumberKind::kUnsignedInt, 64, low_first, &s);
  EXPECT_EQ(s, "18446744069414584321");
}

TEST(FriendlyNames, Sanitize) {
  EXPECT_EQ(FriendlyNames::Sanitize(""), "_");
  EXPECT_EQ(FriendlyNames::Sanitize("a.b-c"), "a_b_c");
  EXPECT_EQ(FriendlyNames::Sanitize("h\xC3\xA9llo"), "h__llo");
}

TEST(Disassembler, FriendlyNamesOfTypesAndConstants) {
  Module m;
  m.Named(Op::OpName, {9}, "uint")         // collides with the type name that comes later
      .Inst(Op::OpDecorate, {20, 11, 28})  // BuiltIn GlobalInvocationId
      .Inst(Op::OpTypeInt, {1, 32, 0})
      .Inst(Op::OpTypeInt, {2, 64, 1})
      .Inst(Op::OpTypeInt, {3, 24, 0})
      .Inst(Op::OpTypeFloat, {4, 16})
      .Inst(Op::OpTypeVector, {5, 2, 3})
      .Inst(Op::OpTypeArray, {6, 4, 8})    // forward reference: the length is not named yet
      .Inst(Op::OpTypePointer, {7, 5, 5})  // CrossWorkgroup
      .Inst(Op::OpConstant, {1, 8, 4})
      .Inst(Op::OpConstant, {2, 9, 0xFFFFFFF9, 0xFFFFFFFF})
      .Inst(Op::OpConstant, {4, 10, 0x3E00})
      .Inst(Op::OpTypeStruct, {11, 1, 4})
      .Inst(Op::OpTypePointer, {12, 1, 1})  // Input
      .Inst(Op::OpVariable, {12, 20, 1})
      .Inst(Op::OpConstant, {1, 13, 4});  // same value again
  EXPECT_EQ(Body(m),
            "               OpName %uint \"uint\"\n"
            "               OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId\n"
            "     %uint_0 = OpTypeInt 32 0\n"
            "       %long = OpTypeInt 64 1\n"
            "        %u24 = OpTypeInt 24 0\n"
            "       %half = OpTypeFloat 16\n"
            "     %v3long = OpTypeVector %long 3\n"
            "%_arr_half_8 = OpTypeArray %half %uint_0_4\n"
            "%_ptr_CrossWorkgroup_v3long = OpTypePointer CrossWorkgroup %v3long\n"
            "   %uint_0_4 = OpConstant %uint_0 4\n"
            "       %uint = OpConstant %long -7\n"
            "%half_0x1_8p_0 = OpConstant %half 0x1.8p+0\n"
            " %_struct_11 = OpTypeStruct %uint_0 %half\n"
            "%_ptr_Input_uint_0 = OpTypePointer Input %uint_0\n"
            "%gl_GlobalInvocationID = OpVariable %_ptr_Input_uint_0 Input\n"
            " %uint_0_4_0 = OpConstant %uint_0 4\n");
}

TEST(Disassembler, NamesStayUniqueInInstructionOrder) {
  Module m;
  m.Named(Op::OpName, {3}, "7")  // takes the number of %7, which then becomes "7_0"
      .Named(Op::OpName, {4}, "")
      .Named(Op::OpName, {5}, "")
      .Inst(Op::OpTypeVoid, {1})
      .Inst(Op::OpTypeVoid, {2})
      .Inst(Op::OpTypeBool, {3})
      .Inst(Op::OpTypeEvent, {4})
      .Inst(Op::OpTypeEvent, {5})
      .Inst(Op::OpTypeSampler, {7});
  EXPECT_EQ(Body(m),
            "               OpName %7 \"7\"\n"
            "               OpName %_ \"\"\n"
            "               OpName %__0 \"\"\n"
            "       %void = OpTypeVoid\n"
            "     %void_0 = OpTypeVoid\n"
            "          %7 = OpTypeBool\n"
            "          %_ = OpTypeEvent\n"
            "        %__0 = OpTypeEvent\n"
            "        %7_0 = OpTypeSampler\n");
}

TEST(Disassembler, MasksEnumsAndLayoutOptions) {
  Module m;
  m.Inst(Op::OpTypeVoid, {1})
      .Inst(Op::OpTypeFunction, {2, 1})
      .Inst(Op::OpFunction, {1, 3, 0, 2})  // FunctionControl None
      .Inst(Op::OpLabel, {4})
      .Inst(Op::OpLoopMerge, {5, 4, 0x9, 2})  // Unroll|DependencyLength 2
      .Inst(Op::OpReturn, {})
      .Inst(Op::OpFunctionEnd, {});
  EXPECT_EQ(Body(m),
            "       %void = OpTypeVoid\n"
            "          %2 = OpTypeFunction %void\n"
            "          %3 = OpFunction %void None %2\n"
            "          %4 = OpLabel\n"
            "               OpLoopMerge %5 %4 Unroll|DependencyLength 2\n"
            "               OpReturn\n"
            "               OpFunctionEnd\n");
  DisassembleOptions options;
  options.indent = false;
  options.friendly_names = false;
  options.offsets = true;
  EXPECT_TRUE(
      Body(m, options)
          .starts_with("%1 = OpTypeVoid ; 0x00000014\n%2 = OpTypeFunction %1 ; 0x0000001c\n"));
  options = {};
  options.color = true;
  EXPECT_TRUE(Body(m, options).starts_with("\x1b[34m       %void\x1b[0m = OpTypeVoid\n"));
}

TEST(Disassembler, HeaderNamesTheGenerator) {
  Module m;
  m.words[2] = 6u << 16 | 14;
  std::string text;
  Diagnostic error;
  ASSERT_TRUE(Disassemble(m.words, {}, &text, &error));
  EXPECT_EQ(text,
            "; SPIR-V\n; Version: 1.4\n; Generator: Khronos LLVM/SPIR-V Translator; 14\n"
            "; Bound: 100\n; Schema: 0\n");
  m.words[2] = 43u << 16 | 22;
  ASSERT_TRUE(Disassemble(m.words, {}, &text, &error));
  EXPECT_NE(text.find("; Generator: Unknown(43); 22\n"), std::string::npos) << text;
}

TEST(Disassembler, StringsAreEscaped) {
  Module m;
  m.Named(Op::OpSourceExtension, {}, "a\"b\\c");
  EXPECT_EQ(Body(m), "               OpSourceExtension \"a\\\"b\\\\c\"\n");
}

TEST(Disassembler, ExtendedInstructionsAndEnumerantsByName) {
  Module m;
  m.Inst(Op::OpCapability, {6228})  // Subgroup2DBlockIOINTEL
      .Inst(Op::OpTypeInt, {1, 32, 0})
      .Inst(Op::OpTypeFloat, {2, 32})
      .Inst(Op::OpConstant, {1, 3, 16})
      .Inst(Op::OpSubgroup2DBlockLoadINTEL, {3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
      .Inst(Op::OpSubgroupMatrixMultiplyAccumulateINTEL, {2, 4, 3, 3, 3, 3, 0x3000});
  EXPECT_EQ(Body(m),
            "               OpCapability Subgroup2DBlockIOINTEL\n"
            "       %uint = OpTypeInt 32 0\n"
            "      %float = OpTypeFloat 32\n"
            "    %uint_16 = OpConstant %uint 16\n"
            "               OpSubgroup2DBlockLoadINTEL %uint_16 %uint_16 %uint_16 %uint_16 "
            "%uint_16 %uint_16 %uint_16 %uint_16 %uint_16 %uint_16\n"
            "          %4 = OpSubgroupMatrixMultiplyAccumulateINTEL %float %uint_16 %uint_16 "
            "%uint_16 %uint_16 MatrixAPackedBFloat16INTEL|MatrixBPackedBFloat16INTEL\n");
}

TEST(Disassembler, ErrorKeepsTheTextBefore) {
  Module m;
  m.Inst(Op::OpTypeVoid, {1});
  m.words.push_back(3u << 16 | static_cast<uint32_t>(Op::OpTypeInt));  // runs past the end
  std::string text;
  Diagnostic error;
  EXPECT_FALSE(Disassemble(m.words, {}, &text, &error));
  EXPECT_TRUE(text.starts_with("; SPIR-V\n")) << text;
  EXPECT_TRUE(text.ends_with("; Schema: 0\n       %void = OpTypeVoid\n")) << text;
  EXPECT_EQ(error.word_offset, 7u);
}

}  // namespace
}  // namespace xmx::text
