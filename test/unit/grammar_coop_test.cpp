// The cooperative-matrix grammar entries (issue 10): OpCooperativeMatrixPrefetchINTEL as the
// producers implement it (DECISIONS.md 14), SPV_KHR_bfloat16 (capabilities and the FPEncoding
// operand our grammar appends to the core OpTypeFloat) and SPV_INTEL_int4, and how the parser,
// the text tools and the bridge treat a bfloat16 type.
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "binary/parser.hpp"
#include "bridge/bridge.hpp"
#include "grammar/grammar.hpp"
#include "ir/type_table.hpp"
#include "text/assembler.hpp"
#include "text/disassembler.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx {
namespace {

using grammar::OperandKindId;
using grammar::Origin;
using grammar::Quantifier;

// The operands of an instruction after its result type and result id.
std::vector<grammar::Operand> OperandsAfterResult(const grammar::Instruction& inst) {
  std::vector<grammar::Operand> out;
  for (const grammar::Operand& op : inst.operands) {
    if (op.kind != OperandKindId::kIdResultType && op.kind != OperandKindId::kIdResult) {
      out.push_back(op);
    }
  }
  return out;
}

TEST(GrammarCoop, PrefetchHasTheOperandsProducersEmit) {
  const grammar::Instruction* prefetch = grammar::FindInstruction(6449u);
  ASSERT_NE(prefetch, nullptr);
  EXPECT_STREQ(prefetch->name, "OpCooperativeMatrixPrefetchINTEL");
  EXPECT_FALSE(prefetch->has_result);
  const std::vector<grammar::Operand> ops = OperandsAfterResult(*prefetch);
  // Pointer, Rows, Columns, Cache Level (literal), MemoryLayout, [Stride], [Memory Operand].
  const std::vector<std::pair<OperandKindId, Quantifier>> expected = {
      {OperandKindId::kIdRef, Quantifier::kOne},
      {OperandKindId::kIdRef, Quantifier::kOne},
      {OperandKindId::kIdRef, Quantifier::kOne},
      {OperandKindId::kLiteralInteger, Quantifier::kOne},
      {OperandKindId::kIdRef, Quantifier::kOne},
      {OperandKindId::kIdRef, Quantifier::kOptional},
      {OperandKindId::kMemoryAccess, Quantifier::kOptional},
  };
  ASSERT_EQ(ops.size(), expected.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    EXPECT_EQ(ops[i].kind, expected[i].first) << "operand " << i;
    EXPECT_EQ(ops[i].quantifier, expected[i].second) << "operand " << i;
  }
  EXPECT_STREQ(ops[1].name, "'Rows'");
  EXPECT_STREQ(ops[3].name, "'Cache Level'");
}

TEST(GrammarCoop, TypeFloatStaysCoreWithAnExtendedEncodingOperand) {
  const grammar::Instruction* type_float = grammar::FindInstruction("OpTypeFloat");
  ASSERT_NE(type_float, nullptr);
  EXPECT_EQ(type_float->origin, Origin::kCore);
  const std::vector<grammar::Operand> ops = OperandsAfterResult(*type_float);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].kind, OperandKindId::kLiteralInteger);
  EXPECT_EQ(ops[0].origin, Origin::kCore);
  EXPECT_EQ(ops[1].kind, OperandKindId::kFPEncoding);
  EXPECT_EQ(ops[1].quantifier, Quantifier::kOptional);
  EXPECT_EQ(ops[1].origin, Origin::kExtended);

  const grammar::OperandKind* encoding = grammar::FindOperandKind("FPEncoding");
  ASSERT_NE(encoding, nullptr);
  EXPECT_EQ(encoding->origin, Origin::kExtended);
  const grammar::Enumerant* bf16 = grammar::FindEnumerant(OperandKindId::kFPEncoding, 0u);
  ASSERT_NE(bf16, nullptr);
  EXPECT_STREQ(bf16->name, "BFloat16KHR");
  ASSERT_EQ(bf16->capabilities.size(), 1u);
  EXPECT_STREQ(bf16->capabilities[0], "BFloat16TypeKHR");
}

TEST(GrammarCoop, BFloat16AndInt4Capabilities) {
  struct Expected {
    uint32_t value;
    const char* name;
    const char* extension;
  };
  for (const Expected& e : {Expected{5112, "Int4TypeINTEL", "SPV_INTEL_int4"},
                            Expected{5114, "Int4CooperativeMatrixINTEL", "SPV_INTEL_int4"},
                            Expected{5116, "BFloat16TypeKHR", "SPV_KHR_bfloat16"},
                            Expected{5117, "BFloat16DotProductKHR", "SPV_KHR_bfloat16"},
                            Expected{5118, "BFloat16CooperativeMatrixKHR", "SPV_KHR_bfloat16"}}) {
    const grammar::Enumerant* cap = grammar::FindEnumerant(OperandKindId::kCapability, e.value);
    ASSERT_NE(cap, nullptr) << e.name;
    EXPECT_STREQ(cap->name, e.name);
    EXPECT_EQ(cap->origin, Origin::kExtended) << e.name;
    ASSERT_EQ(cap->extensions.size(), 1u) << e.name;
    EXPECT_STREQ(cap->extensions[0], e.extension);
    const grammar::ExtensionName* ext = grammar::FindExtension(e.extension);
    ASSERT_NE(ext, nullptr) << e.extension;
    EXPECT_EQ(ext->origin, Origin::kExtended);
  }
  // The cooperative-matrix capabilities imply the type capability and CooperativeMatrixKHR.
  const grammar::Enumerant* coop = grammar::FindEnumerant(OperandKindId::kCapability, 5118u);
  ASSERT_NE(coop, nullptr);
  ASSERT_EQ(coop->capabilities.size(), 2u);
  EXPECT_STREQ(coop->capabilities[0], "BFloat16TypeKHR");
  EXPECT_STREQ(coop->capabilities[1], "CooperativeMatrixKHR");
}

// A Kernel module with a bfloat16 type (and optionally a half), a bfloat16 constant 1.5 and a
// conversion of it to float, in SPIR-V assembly.
std::string BFloat16Module(bool with_half) {
  std::string text =
      "OpCapability Kernel\n"
      "OpCapability Addresses\n"
      "OpCapability Linkage\n"
      "OpCapability BFloat16TypeKHR\n"
      "OpExtension \"SPV_KHR_bfloat16\"\n"
      "OpMemoryModel Physical64 OpenCL\n"
      "%bf = OpTypeFloat 16 BFloat16KHR\n"
      "%f32 = OpTypeFloat 32\n"
      "%void = OpTypeVoid\n"
      "%fn = OpTypeFunction %void\n"
      "%c = OpConstant %bf 1.5\n";
  if (with_half) text += "%half = OpTypeFloat 16\n";
  text +=
      "%main = OpFunction %void None %fn\n"
      "%entry = OpLabel\n"
      "%x = OpFConvert %f32 %c\n"
      "OpReturn\n"
      "OpFunctionEnd\n";
  return text;
}

std::vector<uint32_t> AssembleOrDie(const std::string& text) {
  std::vector<uint32_t> words;
  Diagnostic err;
  EXPECT_TRUE(text::Assemble(text, {}, &words, &err)) << err.Format();
  return words;
}

TEST(GrammarCoop, BFloat16LiteralsReadAndPrintInTheirOwnFormat) {
  const std::vector<uint32_t> words = AssembleOrDie(BFloat16Module(false));
  // 1.5 is 0x3FC0 as a bfloat16 (0x3E00 as a half).
  bool found = false;
  for (size_t i = 5; i < words.size(); i += words[i] >> 16) {
    if ((words[i] & 0xFFFF) == static_cast<uint32_t>(spv::Op::OpConstant)) {
      EXPECT_EQ(words[i + 3], 0x3FC0u);
      found = true;
    }
    ASSERT_NE(words[i] >> 16, 0u);
  }
  EXPECT_TRUE(found);

  std::string text;
  Diagnostic err;
  ASSERT_TRUE(text::Disassemble(words, {}, &text, &err)) << err.Format();
  EXPECT_NE(text.find("%bfloat16 = OpTypeFloat 16 BFloat16KHR"), std::string::npos) << text;
  EXPECT_NE(text.find("OpConstant %bfloat16 0x1.8p+0"), std::string::npos) << text;

  // Decimals truncate toward zero like half literals; out of range is an error.
  std::string truncated = BFloat16Module(false);
  truncated.replace(truncated.find("1.5"), 3, "-3.99");
  const std::vector<uint32_t> t = AssembleOrDie(truncated);
  std::string t_text;
  ASSERT_TRUE(text::Disassemble(t, {}, &t_text, &err));
  EXPECT_NE(t_text.find("OpConstant %bfloat16 -0x1.fep+1"), std::string::npos) << t_text;
  std::string too_big = BFloat16Module(false);
  too_big.replace(too_big.find("1.5"), 3, "1e39");
  std::vector<uint32_t> unused;
  EXPECT_FALSE(text::Assemble(too_big, {}, &unused, &err));
  EXPECT_NE(err.message.find("bfloat16"), std::string::npos) << err.message;
}

struct NumberKinds : binary::InstructionHandler {
  bool OnHeader(const binary::Header&) override { return true; }
  bool OnInstruction(const binary::ParsedInstruction& inst) override {
    if (inst.opcode == static_cast<uint32_t>(spv::Op::OpConstant)) {
      kinds.push_back(inst.operands[2].number_kind);
    }
    return true;
  }
  std::vector<binary::NumberKind> kinds;
};

TEST(GrammarCoop, ParserTellsBFloat16FromHalf) {
  const std::vector<uint32_t> words = {binary::kMagic, 0x00010400, 0, 10, 0,
                                       // %1 = OpTypeFloat 16 BFloat16KHR ; %2 = OpTypeFloat 16
                                       4u << 16 | 22, 1, 16, 0, 3u << 16 | 22, 2, 16,
                                       // OpConstant %1 %3 ; OpConstant %2 %4
                                       4u << 16 | 43, 1, 3, 0x3FC0, 4u << 16 | 43, 2, 4, 0x3E00};
  NumberKinds handler;
  Diagnostic err;
  ASSERT_TRUE(binary::Parse(words, handler, &err)) << err.Format();
  ASSERT_EQ(handler.kinds.size(), 2u);
  EXPECT_EQ(handler.kinds[0], binary::NumberKind::kBFloat16);
  EXPECT_EQ(handler.kinds[1], binary::NumberKind::kFloat);
}

TEST(GrammarCoop, BridgeLiftsBFloat16ToAHalfSpirvToolsValidates) {
  const std::vector<uint32_t> words = AssembleOrDie(BFloat16Module(false));
  Diagnostic err;
  auto module = ir::Module::FromWords(words, &err);
  ASSERT_TRUE(module) << err.Format();
  ASSERT_TRUE(bridge::HasExtendedContent(*module));
  auto lifted = bridge::Lift(*module, &err);
  ASSERT_TRUE(lifted) << err.Format();
  EXPECT_TRUE(lifted->changed);

  const std::vector<uint32_t> lifted_words = lifted->module.ToWords();
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&,
                               const char* m) { messages += std::string(m) + "\n"; });
  EXPECT_TRUE(tools.Validate(lifted_words)) << messages;
  std::string lifted_text;
  ASSERT_TRUE(tools.Disassemble(lifted_words, &lifted_text));
  EXPECT_NE(lifted_text.find("OpCapability Float16"), std::string::npos) << lifted_text;

  auto reread = ir::Module::FromWords(lifted_words, &err);
  ASSERT_TRUE(reread) << err.Format();
  ASSERT_TRUE(bridge::Lower(*reread, lifted->record, &err)) << err.Format();
  EXPECT_EQ(reread->ToWords(), words);
}

TEST(GrammarCoop, TypeTableKeepsBFloat16AndHalfApart) {
  const std::vector<uint32_t> words = AssembleOrDie(BFloat16Module(true));
  Diagnostic err;
  auto module = ir::Module::FromWords(words, &err);
  ASSERT_TRUE(module) << err.Format();
  const ir::TypeTable types(*module);
  std::vector<const ir::Type*> halves;
  uint32_t constant_type = 0;
  for (const ir::Instruction& inst : module->globals()) {
    if (inst.opcode() == spv::Op::OpTypeFloat && inst.word(0) == 16) {
      halves.push_back(types.GetType(inst.result_id()));
    }
    if (inst.opcode() == spv::Op::OpConstant) constant_type = inst.result_type_id();
  }
  ASSERT_EQ(halves.size(), 2u);
  ASSERT_TRUE(halves[0] && halves[1]);
  EXPECT_NE(halves[0]->id, halves[1]->id);
  EXPECT_EQ(halves[0]->float_encoding, std::optional<uint32_t>(0u));  // BFloat16KHR
  EXPECT_EQ(halves[1]->float_encoding, std::nullopt);
  EXPECT_EQ(halves[0]->byte_size, std::optional<uint64_t>(2u));
  // The constant is 1.5 read as a bfloat16 (0x3FC0), not as a half (1.9375).
  ASSERT_EQ(constant_type, halves[0]->id);
  for (const ir::Instruction& inst : module->globals()) {
    if (inst.opcode() == spv::Op::OpConstant) {
      EXPECT_EQ(types.GetConstantFloat(inst.result_id()), std::optional<double>(1.5));
    }
  }
}

// Next to a half, the bfloat16's stand-in would be its duplicate: the bridge turns SPIRV-Tools'
// uniqueness check off (the validator checks uniqueness itself, rule bridge.unique-type).
TEST(GrammarCoop, BridgeLiftsABFloat16NextToAHalfWithoutTheUniquenessCheck) {
  const std::vector<uint32_t> words = AssembleOrDie(BFloat16Module(true));
  Diagnostic err;
  auto module = ir::Module::FromWords(words, &err);
  ASSERT_TRUE(module) << err.Format();
  auto lifted = bridge::Lift(*module, &err);
  ASSERT_TRUE(lifted) << err.Format();
  EXPECT_TRUE(lifted->record.allowed_duplicate_types);
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&,
                               const char* m) { messages += std::string(m) + "\n"; });
  EXPECT_TRUE(tools.Validate(lifted->module.ToWords())) << messages;
  ASSERT_TRUE(bridge::Lower(lifted->module, lifted->record, &err)) << err.Format();
  EXPECT_EQ(lifted->module.ToWords(), words);
}

TEST(GrammarCoop, TwoBFloat16TypesStayDuplicatesForSpirvTools) {
  std::string text = BFloat16Module(false);
  text.replace(text.find("%f32 = "), 0, "%bf2 = OpTypeFloat 16 BFloat16KHR\n");
  Diagnostic err;
  auto module = ir::Module::FromWords(AssembleOrDie(text), &err);
  ASSERT_TRUE(module) << err.Format();
  auto lifted = bridge::Lift(*module, &err);
  ASSERT_TRUE(lifted) << err.Format();
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&,
                               const char* m) { messages += std::string(m) + "\n"; });
  EXPECT_FALSE(tools.Validate(lifted->module.ToWords()));
  EXPECT_NE(messages.find("Duplicate non-aggregate type"), std::string::npos) << messages;
}

TEST(GrammarCoop, BridgeRefusesABFloat16EncodingOnAnotherWidth) {
  std::string text = BFloat16Module(false);
  text.replace(text.find("OpTypeFloat 16 BFloat16KHR"), 26, "OpTypeFloat 32 BFloat16KHR");
  Diagnostic err;
  auto module = ir::Module::FromWords(AssembleOrDie(text), &err);
  ASSERT_TRUE(module) << err.Format();
  EXPECT_FALSE(bridge::Lift(*module, &err));
  EXPECT_NE(err.message.find("Width is 32"), std::string::npos) << err.message;
}

TEST(GrammarCoop, BridgeLiftsInt4OnlyWithItsCapability) {
  const std::string capabilities =
      "OpCapability Kernel\n"
      "OpCapability Addresses\n"
      "OpCapability Linkage\n";
  const std::string body =
      "OpMemoryModel Physical64 OpenCL\n"
      "%u4 = OpTypeInt 4 0\n";
  Diagnostic err;
  // With Int4TypeINTEL, an integer of a width the module does not use stands in for it.
  auto with_cap = ir::Module::FromWords(
      AssembleOrDie(capabilities + "OpCapability Int4TypeINTEL\nOpExtension \"SPV_INTEL_int4\"\n" +
                    body),
      &err);
  ASSERT_TRUE(with_cap) << err.Format();
  auto lifted = bridge::Lift(*with_cap, &err);
  ASSERT_TRUE(lifted) << err.Format();
  ASSERT_EQ(lifted->record.types.size(), 1u);

  // Without Int4TypeINTEL the width is an error SPIRV-Tools reports: Lift leaves it alone.
  auto without_cap = ir::Module::FromWords(AssembleOrDie(capabilities + body), &err);
  ASSERT_TRUE(without_cap) << err.Format();
  EXPECT_FALSE(bridge::HasExtendedContent(*without_cap));
}

}  // namespace
}  // namespace xmx
