// The assembler against spirv-as 2023.1: literal parsing corner cases, id numbering, diagnostics
// with positions, and the extended instructions. Expected words and messages were taken from the
// installed spirv-as on the same text (test/cli/compare_as.py checks many more).
#include "text/assembler.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "text/literal_parse.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::text {
namespace {

using spv::Op;

std::vector<uint32_t> Assembled(std::string_view text, AssembleOptions options = {}) {
  Result<std::vector<uint32_t>> words = Assemble(text, options);
  EXPECT_TRUE(words.ok()) << (words.ok() ? "" : words.diagnostics()[0].Format());
  return words.ok() ? *words : std::vector<uint32_t>{};
}

// The one error of a failed assembly, formatted.
std::string ErrorOf(std::string_view text, AssembleOptions options = {}) {
  const Result<std::vector<uint32_t>> words = Assemble(text, options);
  if (words.ok()) return "(no error)";
  EXPECT_EQ(words.diagnostics().size(), 1u);
  return words.diagnostics()[0].Format();
}

// The verdict-and-pointer form is the Result form's adapter: same words, same error.
TEST(Assembler, BoolFormAgreesWithResultForm) {
  std::vector<uint32_t> words;
  Diagnostic error;
  ASSERT_TRUE(Assemble("OpCapability Kernel\n", {}, &words, &error)) << error.Format();
  EXPECT_EQ(words, Assembled("OpCapability Kernel\n"));
  EXPECT_FALSE(Assemble("OpCapability Kernel\nOpNoSuchThing\n", {}, &words, &error));
  EXPECT_TRUE(words.empty());
  EXPECT_EQ(error.Format(), ErrorOf("OpCapability Kernel\nOpNoSuchThing\n"));
  EXPECT_EQ(error.text_position->line, 2u);
}

// The words of the instruction that starts at word `index` of the module body (after the header).
std::vector<uint32_t> Body(const std::vector<uint32_t>& words) {
  return std::vector<uint32_t>(words.begin() + 5, words.end());
}

uint32_t Head(Op op, uint32_t count) { return count << 16 | static_cast<uint32_t>(op); }

TEST(AssemblerTest, HeaderMatchesSpirvAs) {
  const auto words = Assembled("OpCapability Shader\n");
  ASSERT_EQ(words.size(), 7u);
  EXPECT_EQ(words[0], 0x07230203u);
  EXPECT_EQ(words[1], 0x00010600u);
  EXPECT_EQ(words[2], 0x00070000u);  // SPIR-V Tools Assembler, version 0
  EXPECT_EQ(words[3], 1u);
  EXPECT_EQ(words[4], 0u);
  EXPECT_EQ(words[5], Head(Op::OpCapability, 2));
  EXPECT_EQ(words[6], 1u);
}

TEST(AssemblerTest, WhitespaceOnlyIsAnEmptyModuleButEmptyTextIsAnError) {
  EXPECT_EQ(Assembled("  ; just a comment\n\n").size(), 5u);
  EXPECT_EQ(ErrorOf(""), "error: line 1, column 1: Missing assembly text.");
}

TEST(AssemblerTest, TargetEnvNames) {
  uint32_t v = 0;
  EXPECT_TRUE(TargetEnvVersion("vulkan1.1spv1.4", &v));
  EXPECT_EQ(v, 0x00010400u);
  EXPECT_TRUE(TargetEnvVersion("vulkan1.1", &v));
  EXPECT_EQ(v, 0x00010300u);
  EXPECT_TRUE(TargetEnvVersion("opencl2.2", &v));
  EXPECT_EQ(v, 0x00010200u);
  EXPECT_TRUE(TargetEnvVersion("opengl4.5", &v));
  EXPECT_EQ(v, 0x00010000u);
  EXPECT_TRUE(TargetEnvVersion("spv1.3junk", &v));  // spirv-as matches a prefix
  EXPECT_EQ(v, 0x00010300u);
  EXPECT_FALSE(TargetEnvVersion("spv1.7", &v));
  EXPECT_FALSE(TargetEnvVersion("universal1.0", &v));
}

TEST(AssemblerTest, IdsAreNumberedInOrderOfFirstUse) {
  // The result type is encoded before the result id, so %t gets 1 and %r gets 2.
  const auto words = Assembled("%r = OpUndef %t\n%t = OpTypeInt 32 0\n%100 = OpTypeVoid\n");
  EXPECT_EQ(words[3], 4u);
  EXPECT_EQ(Body(words), (std::vector<uint32_t>{Head(Op::OpUndef, 3), 1, 2, Head(Op::OpTypeInt, 4),
                                                1, 32, 0, Head(Op::OpTypeVoid, 2), 3}));
}

TEST(AssemblerTest, PreservedNumericIdsAndGapFilling) {
  AssembleOptions options;
  options.preserve_numeric_ids = true;
  const auto words = Assembled(
      "%a = OpTypeVoid\n%2 = OpTypeBool\n%b = OpTypeInt 32 0\n"
      "%0x10 = OpTypeFloat 32\n%c = OpTypeFloat 16\n",
      options);
  EXPECT_EQ(words[3], 17u);  // bound: 0x10 + 1
  const auto body = Body(words);
  EXPECT_EQ(body[1], 1u);   // %a
  EXPECT_EQ(body[3], 2u);   // %2
  EXPECT_EQ(body[5], 3u);   // %b skips 2
  EXPECT_EQ(body[9], 16u);  // %0x10
  EXPECT_EQ(body[12], 4u);  // %c
  // Spellings of one number are one id: %5 and octal %05.
  EXPECT_EQ(ErrorOf("%5 = OpTypeInt 32 0\n%05 = OpTypeInt 32 1\n", options),
            "error: line 2, column 21: Value 5 has already been used to generate a type");
}

TEST(AssemblerTest, IntegerLiteralCornerCases) {
  const auto words = Assembled(
      "%i8 = OpTypeInt 8 1\n%u64 = OpTypeInt 64 0\n%i64 = OpTypeInt 64 1\n"
      "%a = OpConstant %i8 0xFF\n%b = OpConstant %i8 -128\n%c = OpConstant %u64 0x123456789\n"
      "%d = OpConstant %i64 -2\n%e = OpConstant %i8 010\n");
  const auto body = Body(words);
  EXPECT_EQ(body[15], 0xFFFFFFFFu);  // hex sign-extends for signed types
  EXPECT_EQ(body[19], 0xFFFFFF80u);
  EXPECT_EQ(body[23], 0x23456789u);  // 64-bit: low word first
  EXPECT_EQ(body[24], 0x1u);
  EXPECT_EQ(body[28], 0xFFFFFFFEu);
  EXPECT_EQ(body[29], 0xFFFFFFFFu);
  EXPECT_EQ(body[33], 8u);  // leading 0 is octal, as in spirv-as
}

TEST(AssemblerTest, FloatLiteralCornerCases) {
  const auto words = Assembled(
      "%h = OpTypeFloat 16\n%f = OpTypeFloat 32\n%d = OpTypeFloat 64\n"
      "%a = OpConstant %h 65519.0\n%b = OpConstant %h 0x1p16\n%c = OpConstant %h -3.3\n"
      "%e = OpConstant %f 0x1.8p1\n%g = OpConstant %f -0.0\n%k = OpConstant %d 1.5\n");
  const auto body = Body(words);
  EXPECT_EQ(body[12], 0x7BFFu);  // decimal half floats round toward zero
  EXPECT_EQ(body[16], 0x7C00u);  // a hex float may overflow to infinity
  EXPECT_EQ(body[20], 0xC299u);
  EXPECT_EQ(body[24], 0x40400000u);
  EXPECT_EQ(body[28], 0x80000000u);
  EXPECT_EQ(body[32], 0u);
  EXPECT_EQ(body[33], 0x3FF80000u);
}

TEST(AssemblerTest, LiteralParserDirectly) {
  uint32_t u32 = 0;
  EXPECT_TRUE(ParseUint32("0x10", &u32));
  EXPECT_EQ(u32, 16u);
  EXPECT_FALSE(ParseUint32("4294967296", &u32));
  EXPECT_FALSE(ParseUint32("-1", &u32));
  EXPECT_FALSE(ParseUint32("12abc", &u32));
  EncodedNumber n;
  std::string error;
  EXPECT_EQ(ParseAndEncodeNumber("0x1p", {32, NumberClass::kFloat}, &n, &error),
            EncodeStatus::kInvalidText);
  EXPECT_EQ(error, "Invalid 32-bit float literal: 0x1p");
  EXPECT_EQ(
      ParseAndEncodeNumber("0x1.00000000000000000001p0", {32, NumberClass::kFloat}, &n, &error),
      EncodeStatus::kSuccess);
  EXPECT_EQ(n.words[0], 0x3F800000u);
  EXPECT_EQ(ParseAndEncodeNumber("-5", {32, NumberClass::kUnsignedInt}, &n, &error),
            EncodeStatus::kInvalidUsage);
  EXPECT_EQ(ParseAndEncodeNumber("0x100", {8, NumberClass::kSignedInt}, &n, &error),
            EncodeStatus::kInvalidText);
  EXPECT_EQ(error, "Integer 0x100 does not fit in a 8-bit signed integer");
}

TEST(AssemblerTest, StringsWithEscapes) {
  const auto words = Assembled("%s = OpString \"a\\\"b\\\\c\"\n");
  // a " b \ c, NUL-terminated, packed little-end first.
  EXPECT_EQ(Body(words), (std::vector<uint32_t>{Head(Op::OpString, 4), 1, 0x5C622261u, 0x63u}));
}

TEST(AssemblerTest, SwitchLiteralsFollowTheSelectorWidth) {
  const auto words =
      Assembled("%i64 = OpTypeInt 64 1\n%x = OpUndef %i64\nOpSwitch %x %d -1 %a 5 %b\n");
  const auto body = Body(words);
  EXPECT_EQ(body[7], Head(Op::OpSwitch, 9));
  EXPECT_EQ(body[10], 0xFFFFFFFFu);
  EXPECT_EQ(body[11], 0xFFFFFFFFu);
  EXPECT_EQ(body[13], 5u);
  EXPECT_EQ(body[14], 0u);
}

TEST(AssemblerTest, RawWords) {
  const auto words = Assembled("!0x00020011 1\nOpCapability !6\n");
  EXPECT_EQ(Body(words), (std::vector<uint32_t>{0x00020011u, 1u, Head(Op::OpCapability, 2), 6u}));
}

TEST(AssemblerTest, DiagnosticsCarryLineAndColumn) {
  EXPECT_EQ(ErrorOf("OpCapability Shader\n%1 = OpTypeInt 32 0\n%2 = OpConstant %1 99999999999\n"),
            "error: line 3, column 20: Integer 99999999999 does not fit in a 32-bit unsigned "
            "integer");
  EXPECT_EQ(ErrorOf("OpCapability Foo\n"), "error: line 1, column 14: Invalid capability 'Foo'.");
  EXPECT_EQ(ErrorOf("OpFoo\n"), "error: line 1, column 1: Invalid Opcode name 'OpFoo'");
  EXPECT_EQ(ErrorOf("%1 = Foo\n"), "error: line 1, column 6: Invalid Opcode prefix 'Foo'.");
  EXPECT_EQ(ErrorOf("%1 = OpTypeInt 32\n"),
            "error: line 2, column 1: Expected operand for OpTypeInt instruction, but found the "
            "end of the stream.");
  EXPECT_EQ(ErrorOf("OpCapability Kernel Addresses\n"),
            "error: line 1, column 21: Expected <opcode> or <result-id> at the beginning of an "
            "instruction, found 'Addresses'.");
  EXPECT_EQ(ErrorOf("%1 = OpTypeInt 32 0\n%1 = OpTypeFloat 32\n"),
            "error: line 2, column 20: Value 1 has already been used to generate a type");
  EXPECT_EQ(ErrorOf("%1 = OpLoad %2 %3 Volatile|Foo\n"),
            "error: line 1, column 19: Invalid memory access operand 'Volatile|Foo'.");
  EXPECT_EQ(ErrorOf("%a.b = OpTypeVoid\n"), "error: line 1, column 18: Invalid ID a.b");
  // An unterminated string swallows the rest of the text; the message stays on one line.
  EXPECT_EQ(ErrorOf("OpName %x \"abc\nOpCapability Shader\n"),
            "error: line 1, column 11: Invalid literal string '\"abc\\nOpCapability Shader\\n'.");
  EXPECT_EQ(ErrorOf("%c = OpConstant %t 1\n"),
            "error: line 1, column 20: Type for Constant must be a scalar floating point or "
            "integer type");
}

TEST(AssemblerTest, EnumerantsAreVersionGatedLikeSpirvAs) {
  AssembleOptions spv13;
  spv13.version = 0x00010300;
  EXPECT_EQ(ErrorOf("OpLoopMerge %1 %2 PartialCount 4\n", spv13),
            "error: line 1, column 19: Invalid loop control operand 'PartialCount'.");
  Assembled("OpLoopMerge %1 %2 PartialCount 4\n");
  // An alias enabled by an extension makes the spelling available everywhere.
  Assembled("OpDecorate %x UserSemantic \"s\"\n", spv13);
}

TEST(AssemblerTest, ExtendedInstructionsAndOperands) {
  const auto words = Assembled(
      "OpCapability Subgroup2DBlockIOINTEL\n"
      "OpSubgroup2DBlockLoadINTEL %es %w %h %c %src %mw %mh %mp %coord %dst\n"
      "%r = OpSubgroupMatrixMultiplyAccumulateINTEL %v8float %k %a %b %c\n"
      "%s = OpSubgroupMatrixMultiplyAccumulateINTEL %v8float %k %a %b %c "
      "MatrixAPackedBFloat16INTEL|MatrixBPackedBFloat16INTEL\n");
  const auto body = Body(words);
  EXPECT_EQ(body[0], Head(Op::OpCapability, 2));
  EXPECT_EQ(body[1], 6228u);
  EXPECT_EQ(body[2], Head(Op::OpSubgroup2DBlockLoadINTEL, 11));
  EXPECT_EQ(body[13], Head(Op::OpSubgroupMatrixMultiplyAccumulateINTEL, 7));
  EXPECT_EQ(body[20], Head(Op::OpSubgroupMatrixMultiplyAccumulateINTEL, 8));
  EXPECT_EQ(body[27], 0x1000u | 0x2000u);
}

TEST(AssemblerTest, ExtendedFilesAssemble) {
  const char* files[] = {"block_io_2d", "matrix_mad", "cooperative_matrix"};
  for (const char* name : files) {
    std::ifstream in(std::string(XMX_TEST_DIR) + "/as/extended/" + name + ".spvasm");
    ASSERT_TRUE(in) << name;
    std::stringstream text;
    text << in.rdbuf();
    const auto words = Assembled(text.str());
    bool found = false;
    for (size_t i = 5; i < words.size(); i += words[i] >> 16) {
      const uint32_t op = words[i] & 0xFFFF;
      found = found || op == static_cast<uint32_t>(Op::OpSubgroup2DBlockStoreINTEL) ||
              op == static_cast<uint32_t>(Op::OpSubgroupScaledMatrixMultiplyAccumulateINTEL) ||
              op == static_cast<uint32_t>(Op::OpCooperativeMatrixMulAddKHR);
      if ((words[i] >> 16) == 0) break;
    }
    EXPECT_TRUE(found) << name;
  }
}

}  // namespace
}  // namespace xmx::text
