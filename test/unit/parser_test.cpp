// The binary parser: operand shapes from the grammar, type-dependent literal widths, extended
// instruction sets, and the structural errors with their word offsets.
#include "binary/parser.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "xmx/spirv_enums.hpp"

namespace xmx::binary {
namespace {

using grammar::OperandKindId;
using spv::Op;

// Builds a module word by word.
class ModuleWords {
 public:
  explicit ModuleWords(uint32_t bound = 100) { words_ = {kMagic, 0x00010400, 0, bound, 0}; }
  ModuleWords& Inst(Op op, std::vector<uint32_t> operands) {
    words_.push_back(uint32_t(operands.size() + 1) << 16 | static_cast<uint32_t>(op));
    words_.insert(words_.end(), operands.begin(), operands.end());
    return *this;
  }
  ModuleWords& InstWithString(Op op, std::vector<uint32_t> before, std::string_view s,
                              std::vector<uint32_t> after = {}) {
    std::vector<uint32_t> ops = before;
    EncodeString(s, &ops);
    ops.insert(ops.end(), after.begin(), after.end());
    return Inst(op, ops);
  }
  std::vector<uint32_t> words_;
};

struct Recorder : InstructionHandler {
  bool OnHeader(const Header& h) override {
    header = h;
    return true;
  }
  bool OnInstruction(const ParsedInstruction& inst) override {
    opcodes.push_back(inst.opcode);
    operands.emplace_back(inst.operands.begin(), inst.operands.end());
    ext_inst_names.emplace_back(inst.ext_inst ? inst.ext_inst->name : "");
    return true;
  }
  Header header;
  std::vector<uint32_t> opcodes;
  std::vector<std::vector<ParsedOperand>> operands;
  std::vector<std::string> ext_inst_names;
};

bool ParseWords(const std::vector<uint32_t>& words, Recorder* rec, Diagnostic* error) {
  return Parse(words, *rec, error);
}

TEST(Parser, DecodesHeaderAndSimpleInstructions) {
  ModuleWords m;
  m.Inst(Op::OpCapability, {6})  // Kernel
      .Inst(Op::OpMemoryModel, {2, 2})
      .Inst(Op::OpTypeInt, {1, 32, 0});
  Recorder rec;
  Diagnostic err;
  ASSERT_TRUE(ParseWords(m.words_, &rec, &err)) << err.Format();
  EXPECT_EQ(rec.header.version, 0x00010400u);
  ASSERT_EQ(rec.opcodes.size(), 3u);
  EXPECT_EQ(rec.operands[0][0].kind, OperandKindId::kCapability);
  EXPECT_EQ(rec.operands[2][0].kind, OperandKindId::kIdResult);
  EXPECT_EQ(rec.operands[2][1].kind, OperandKindId::kLiteralInteger);
}

TEST(Parser, ConstantWidthFollowsItsType) {
  ModuleWords m;
  m.Inst(Op::OpTypeInt, {1, 64, 1})
      .Inst(Op::OpConstant, {1, 2, 0xFFFFFFFF, 0x7FFFFFFF})
      .Inst(Op::OpTypeFloat, {3, 16})
      .Inst(Op::OpConstant, {3, 4, 0x3C00});
  Recorder rec;
  Diagnostic err;
  ASSERT_TRUE(ParseWords(m.words_, &rec, &err)) << err.Format();
  const ParsedOperand& wide = rec.operands[1][2];
  EXPECT_EQ(wide.num_words, 2);
  EXPECT_EQ(wide.number_kind, NumberKind::kSignedInt);
  EXPECT_EQ(wide.number_bit_width, 64);
  EXPECT_EQ(rec.operands[3][2].number_kind, NumberKind::kFloat);
  EXPECT_EQ(rec.operands[3][2].number_bit_width, 16);
}

TEST(Parser, ConstantOfNonNumericTypeIsAnError) {
  ModuleWords m;
  m.Inst(Op::OpTypeVoid, {1}).Inst(Op::OpConstant, {1, 2, 0});
  Recorder rec;
  Diagnostic err;
  EXPECT_FALSE(ParseWords(m.words_, &rec, &err));
  EXPECT_EQ(err.word_offset, 10u);  // the literal word
  EXPECT_NE(err.message.find("not a scalar integer or float type"), std::string::npos);
}

TEST(Parser, SwitchLiteralsTakeTheSelectorWidth) {
  ModuleWords m;
  m.Inst(Op::OpTypeInt, {1, 64, 0})
      .Inst(Op::OpConstant, {1, 2, 5, 0})
      .Inst(Op::OpSwitch, {2, 10, 1, 0, 11, 2, 0, 12});
  Recorder rec;
  Diagnostic err;
  ASSERT_TRUE(ParseWords(m.words_, &rec, &err)) << err.Format();
  const auto& ops = rec.operands[2];
  ASSERT_EQ(ops.size(), 6u);  // selector, default, (literal, label) x 2
  EXPECT_EQ(ops[2].num_words, 2);
  EXPECT_EQ(ops[2].kind, OperandKindId::kLiteralContextDependentNumber);
  EXPECT_EQ(ops[3].kind, OperandKindId::kIdRef);
  EXPECT_EQ(ops[3].offset, 5u);
}

TEST(Parser, SwitchPairCutShortIsAnError) {
  ModuleWords m;
  m.Inst(Op::OpTypeInt, {1, 32, 0}).Inst(Op::OpConstant, {1, 2, 5}).Inst(Op::OpSwitch, {2, 10, 1});
  Recorder rec;
  Diagnostic err;
  EXPECT_FALSE(ParseWords(m.words_, &rec, &err));
  EXPECT_NE(err.message.find("missing IdRef operand"), std::string::npos) << err.message;
}

TEST(Parser, EnumParametersFollowTheirEnumerant) {
  ModuleWords m;
  // OpDecorate %5 LinkageAttributes "f" Export ; OpLoad with Aligned 4.
  m.InstWithString(Op::OpDecorate, {5, 41}, "f", {0});
  m.Inst(Op::OpLoad, {1, 2, 3, 2, 4});
  Recorder rec;
  Diagnostic err;
  ASSERT_TRUE(ParseWords(m.words_, &rec, &err)) << err.Format();
  ASSERT_EQ(rec.operands[0].size(), 4u);
  EXPECT_EQ(rec.operands[0][2].kind, OperandKindId::kLiteralString);
  EXPECT_EQ(rec.operands[0][3].kind, OperandKindId::kLinkageType);
  ASSERT_EQ(rec.operands[1].size(), 5u);
  EXPECT_EQ(rec.operands[1][3].kind, OperandKindId::kMemoryAccess);
  EXPECT_EQ(rec.operands[1][4].kind, OperandKindId::kLiteralInteger);
}

TEST(Parser, ExtInstOperandsComeFromTheSetGrammar) {
  ModuleWords m;
  m.InstWithString(Op::OpExtInstImport, {1}, "OpenCL.std");
  m.Inst(Op::OpExtInst, {2, 3, 1, 65, 4});  // OpenCL.std 65 = mad? any known number
  Recorder rec;
  Diagnostic err;
  ASSERT_TRUE(ParseWords(m.words_, &rec, &err)) << err.Format();
  EXPECT_FALSE(rec.ext_inst_names[1].empty());
}

TEST(Parser, UnknownNonSemanticSetTakesIds) {
  ModuleWords m;
  m.InstWithString(Op::OpExtInstImport, {1}, "NonSemantic.Something.1");
  m.Inst(Op::OpExtInst, {2, 3, 1, 7, 4, 5, 6});
  Recorder rec;
  Diagnostic err;
  ASSERT_TRUE(ParseWords(m.words_, &rec, &err)) << err.Format();
  EXPECT_EQ(rec.operands[1].size(), 7u);
}

TEST(Parser, UnknownSetIsAnError) {
  ModuleWords m;
  m.InstWithString(Op::OpExtInstImport, {1}, "Foo.bar");
  Recorder rec;
  Diagnostic err;
  EXPECT_FALSE(ParseWords(m.words_, &rec, &err));
  EXPECT_NE(err.message.find("Invalid extended instruction import 'Foo.bar'"), std::string::npos);
}

TEST(Parser, ExtendedInstructionsParse) {
  ModuleWords m;
  m.Inst(Op::OpCapability, {6228});
  m.Inst(Op::OpSubgroup2DBlockLoadINTEL, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  m.Inst(Op::OpSubgroupMatrixMultiplyAccumulateINTEL, {1, 20, 2, 3, 4, 5, 0x3000});
  m.Inst(Op::OpSubgroupMatrixMultiplyAccumulateINTEL, {1, 21, 2, 3, 4, 5});
  Recorder rec;
  Diagnostic err;
  ASSERT_TRUE(ParseWords(m.words_, &rec, &err)) << err.Format();
  EXPECT_EQ(rec.operands[1].size(), 10u);
  EXPECT_EQ(rec.operands[2].back().kind, OperandKindId::kMatrixMultiplyAccumulateOperands);
  EXPECT_EQ(rec.operands[3].size(), 6u);
}

TEST(Parser, UnknownMaskBitIsAnError) {
  ModuleWords m;
  m.Inst(Op::OpSubgroupMatrixMultiplyAccumulateINTEL, {1, 20, 2, 3, 4, 5, 0x80000000u});
  Recorder rec;
  Diagnostic err;
  EXPECT_FALSE(ParseWords(m.words_, &rec, &err));
  EXPECT_NE(err.message.find("unknown bit 0x80000000"), std::string::npos) << err.message;
}

struct BadCase {
  const char* name;
  std::vector<uint32_t> words;
  size_t offset;
  const char* message_part;
};

TEST(Parser, StructuralErrorsNameTheWord) {
  const uint32_t h[] = {kMagic, 0x10000, 0, 10, 0};
  auto with = [&](std::vector<uint32_t> tail) {
    std::vector<uint32_t> w(std::begin(h), std::end(h));
    w.insert(w.end(), tail.begin(), tail.end());
    return w;
  };
  const BadCase cases[] = {
      {"short header", {kMagic, 0x10000}, 0, "header alone needs 5"},
      {"wrong magic", {0x12345678, 0, 0, 1, 0}, 0, "Invalid SPIR-V magic number 0x12345678"},
      {"word count 0", with({0x00000011}), 5, "word count 0"},
      {"past the end", with({0x00050011, 1}), 5, "only 2 words remain"},
      {"unknown opcode", with({0x00017FFF}), 5, "Invalid opcode 32767"},
      {"too many words", with({0x00030011, 6, 7}), 7, "expected no more operands"},
      {"missing operand", with({0x00010011}), 6, "missing Capability operand"},
      {"unterminated string", with({0x0003000B, 1, 0x41414141}), 7, "no terminating nul"},
      {"bad enum", with({0x00020011, 99999}), 6, "Invalid Capability operand 99999"},
      {"id zero", with({0x00040015, 0, 32, 0}), 6, "Result id is 0"},
      {"id past bound", with({0x00040015, 10, 32, 0}), 6, "not below the module's id bound 10"},
      {"id defined twice", with({0x00040015, 1, 32, 0, 0x00040015, 1, 16, 0}), 10,
       "Id 1 is defined more than once"},
      {"literal of a 96-bit type", with({0x00040015, 1, 96, 0, 0x0004002B, 1, 2, 0}), 12,
       "literals of the 96-bit type %1 are not supported"},
  };
  for (const BadCase& c : cases) {
    Recorder rec;
    Diagnostic err;
    EXPECT_FALSE(ParseWords(c.words, &rec, &err)) << c.name;
    EXPECT_EQ(err.word_offset, c.offset) << c.name << ": " << err.message;
    EXPECT_NE(err.message.find(c.message_part), std::string::npos) << c.name << ": " << err.message;
  }
}

TEST(Parser, BytesToWordsHandlesBothEndiannesses) {
  const std::vector<uint8_t> le = {0x03, 0x02, 0x23, 0x07, 1, 0, 0, 0};
  const std::vector<uint8_t> be = {0x07, 0x23, 0x02, 0x03, 0, 0, 0, 1};
  std::vector<uint32_t> a, b;
  Diagnostic err;
  ASSERT_TRUE(BytesToWords(le, &a, &err));
  ASSERT_TRUE(BytesToWords(be, &b, &err));
  EXPECT_EQ(a, b);
  EXPECT_EQ(a[1], 1u);
  EXPECT_FALSE(BytesToWords(std::vector<uint8_t>{1, 2, 3}, &a, &err));
  EXPECT_NE(err.message.find("not a multiple of 4"), std::string::npos);
  EXPECT_FALSE(BytesToWords(std::vector<uint8_t>{1, 2, 3, 4}, &a, &err));
}

// A string ends at its first nul byte, wherever it sits in the word (as SPIRV-Tools reads it).
TEST(Parser, StringEndsAtTheFirstNulByte) {
  ModuleWords m;
  m.Inst(Op::OpString, {1, 0x63006261});  // "ab\0c"
  Recorder rec;
  Diagnostic err;
  ASSERT_TRUE(ParseWords(m.words_, &rec, &err)) << err.Format();
  EXPECT_EQ(rec.operands[0][1].num_words, 1);
  ModuleWords extra;
  extra.Inst(Op::OpString, {1, 0x63006261, 0});  // a word after the string's end
  EXPECT_FALSE(ParseWords(extra.words_, &rec, &err));
  EXPECT_NE(err.message.find("expected no more operands"), std::string::npos) << err.message;
}

TEST(Parser, AnyIntegerWidthIsAcceptedUntilALiteralNeedsIt) {
  ModuleWords m;
  m.Inst(Op::OpTypeInt, {1, 96, 0}).Inst(Op::OpTypeFloat, {2, 0});
  Recorder rec;
  Diagnostic err;
  EXPECT_TRUE(ParseWords(m.words_, &rec, &err)) << err.Format();
}

TEST(Parser, StringsRoundTrip) {
  for (std::string s : {"", "a", "abc", "abcd", "abcde", "OpenCL.std"}) {
    std::vector<uint32_t> w;
    EncodeString(s, &w);
    EXPECT_EQ(w.size(), s.size() / 4 + 1);
    EXPECT_EQ(DecodeString(w), s);
  }
}

// Every module of the corpus parses (the corpus is made by real compilers: utils/build_corpus.sh).
TEST(Parser, ParsesTheWholeCorpus) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(XMX_TEST_DIR) / "corpus" / "spv";
  size_t count = 0;
  ASSERT_TRUE(fs::exists(dir)) << dir;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".spv") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    std::vector<uint32_t> words;
    Diagnostic err;
    ASSERT_TRUE(BytesToWords(bytes, &words, &err)) << entry.path() << ": " << err.Format();
    Recorder rec;
    EXPECT_TRUE(Parse(words, rec, &err)) << entry.path() << ": " << err.Format();
    ++count;
  }
  EXPECT_GE(count, 30u);
}

}  // namespace
}  // namespace xmx::binary

namespace xmx::binary {
namespace {

// The Result forms: a failure carries exactly one diagnostic, the first structural error.
TEST(Parser, ResultFormsCarryTheFirstError) {
  ModuleWords good;
  good.Inst(Op::OpCapability, {6});
  Recorder rec;
  const Status ok = Parse(good.words_, rec);
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(ok.diagnostics().empty());

  std::vector<uint32_t> truncated = good.words_;
  truncated.pop_back();  // OpCapability's word count now runs past the end
  const Status bad = Parse(truncated, rec);
  ASSERT_FALSE(bad.ok());
  ASSERT_EQ(bad.diagnostics().size(), 1u);
  EXPECT_EQ(bad.diagnostics()[0].severity, Severity::kError);
  EXPECT_EQ(bad.diagnostics()[0].word_offset, 5u) << bad.diagnostics()[0].message;

  const Result<std::vector<uint32_t>> words =
      BytesToWords(std::vector<uint8_t>{0x03, 0x02, 0x23, 0x07, 9, 0, 0, 0});
  ASSERT_TRUE(words.ok());
  EXPECT_EQ(*words, (std::vector<uint32_t>{kMagic, 9}));
  const Result<std::vector<uint32_t>> magic = BytesToWords(std::vector<uint8_t>{1, 2, 3, 4});
  ASSERT_FALSE(magic.ok());
  ASSERT_EQ(magic.diagnostics().size(), 1u);
  EXPECT_NE(magic.diagnostics()[0].message.find("magic number 0x04030201"), std::string::npos)
      << magic.diagnostics()[0].message;
}

}  // namespace
}  // namespace xmx::binary
