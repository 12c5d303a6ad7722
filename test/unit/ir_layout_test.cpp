// Module::FromWords rejects modules whose instruction order the sections cannot hold, naming the
// instruction; and accepts the orders LLVM's producers emit.
#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

#include "binary/parser.hpp"
#include "ir/def_use.hpp"
#include "ir/module_info.hpp"
#include "ir/type_table.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {
namespace {

using spv::Op;

// One instruction: opcode then operand words (the word count is added).
struct Inst {
  Op opcode;
  std::vector<uint32_t> operands;
};

std::vector<uint32_t> Words(std::initializer_list<Inst> insts, uint32_t bound = 32) {
  std::vector<uint32_t> words = {binary::kMagic, 0x00010400, 0, bound, 0};
  for (const Inst& inst : insts) {
    words.push_back(static_cast<uint32_t>(inst.operands.size() + 1) << 16 |
                    static_cast<uint32_t>(inst.opcode));
    words.insert(words.end(), inst.operands.begin(), inst.operands.end());
  }
  return words;
}

constexpr uint32_t kAddresses = 4, kKernel = 6, kPhysical64 = 2, kOpenCL = 2;

const Inst kCapAddresses{Op::OpCapability, {kAddresses}};
const Inst kCapKernel{Op::OpCapability, {kKernel}};
const Inst kMemoryModel{Op::OpMemoryModel, {kPhysical64, kOpenCL}};
// %1 = void, %2 = void(), %3 = uint
const Inst kVoid{Op::OpTypeVoid, {1}};
const Inst kFnType{Op::OpTypeFunction, {2, 1}};
const Inst kUint{Op::OpTypeInt, {3, 32, 0}};
const Inst kFunction{Op::OpFunction, {1, 10, 0, 2}};
const Inst kLabel{Op::OpLabel, {11}};
const Inst kReturn{Op::OpReturn, {}};
const Inst kFunctionEnd{Op::OpFunctionEnd, {}};

// Reads `words`, expecting a rejection of instruction `index`; returns the message.
std::string ExpectRejected(const std::vector<uint32_t>& words, size_t index) {
  Diagnostic error;
  EXPECT_FALSE(Module::FromWords(words, &error));
  EXPECT_EQ(error.instruction_index, index) << error.Format();
  EXPECT_NE(error.message.find("instruction " + std::to_string(index)), std::string::npos)
      << error.message;
  return error.message;
}

TEST(IrLayout, AcceptsAWellOrderedModule) {
  const std::vector<uint32_t> words = Words({kCapAddresses, kCapKernel, kMemoryModel, kVoid,
                                             kFnType, kFunction, kLabel, kReturn, kFunctionEnd});
  Diagnostic error;
  const std::optional<Module> module = Module::FromWords(words, &error);
  ASSERT_TRUE(module) << error.Format();
  EXPECT_EQ(module->ToWords(), words);
}

TEST(IrLayout, CapabilityAfterMemoryModel) {
  const std::string message = ExpectRejected(Words({kCapAddresses, kMemoryModel, kCapKernel}), 2);
  EXPECT_NE(message.find("OpCapability"), std::string::npos) << message;
}

TEST(IrLayout, SecondMemoryModel) {
  ExpectRejected(Words({kCapAddresses, kMemoryModel, kMemoryModel}), 2);
}

TEST(IrLayout, TypeAfterTheFirstFunction) {
  const std::string message =
      ExpectRejected(Words({kCapKernel, kMemoryModel, kVoid, kFnType, kFunction, kLabel, kReturn,
                            kFunctionEnd, kUint}),
                     8);
  EXPECT_NE(message.find("OpTypeInt"), std::string::npos) << message;
}

TEST(IrLayout, DecorationAfterTypes) {
  ExpectRejected(Words({kCapKernel, kMemoryModel, kUint, {Op::OpDecorate, {3, 0}}}), 3);
}

TEST(IrLayout, BodyInstructionOutsideAFunction) {
  ExpectRejected(Words({kCapKernel,
                        kMemoryModel,
                        kUint,
                        {Op::OpConstant, {3, 4, 1}},
                        {Op::OpIAdd, {3, 5, 4, 4}}}),
                 4);
}

TEST(IrLayout, InstructionBeforeTheFirstLabel) {
  ExpectRejected(Words({kCapKernel, kMemoryModel, kVoid, kFnType, kFunction, kReturn}), 5);
}

TEST(IrLayout, ParameterAfterTheFirstLabel) {
  ExpectRejected(Words({kCapKernel,
                        kMemoryModel,
                        kVoid,
                        kUint,
                        {Op::OpTypeFunction, {2, 1, 3}},
                        kFunction,
                        kLabel,
                        {Op::OpFunctionParameter, {3, 12}}}),
                 7);
}

TEST(IrLayout, ModuleSectionInstructionInsideAFunction) {
  ExpectRejected(
      Words({kCapKernel, kMemoryModel, kVoid, kFnType, kFunction, kLabel, kCapAddresses}), 6);
  const Inst kSecondFunction{Op::OpFunction, {1, 12, 0, 2}};
  ExpectRejected(
      Words({kCapKernel, kMemoryModel, kVoid, kFnType, kFunction, kLabel, kSecondFunction}), 6);
}

TEST(IrLayout, MissingFunctionEnd) {
  Diagnostic error;
  EXPECT_FALSE(Module::FromWords(
      Words({kCapKernel, kMemoryModel, kVoid, kFnType, kFunction, kLabel, kReturn}), &error));
  EXPECT_EQ(error.instruction_index, 7u);
  EXPECT_NE(error.message.find("OpFunctionEnd"), std::string::npos) << error.message;
}

TEST(IrLayout, ParserErrorsPassThrough) {
  std::vector<uint32_t> words = Words({kCapKernel, kMemoryModel});
  words[0] = 0x12345678;
  Diagnostic error;
  EXPECT_FALSE(Module::FromWords(words, &error));
  EXPECT_FALSE(error.message.empty());
}

// What LLVM's SPIR-V backend and llvm-spirv emit: OpUndef and OpLine among the types, debug lines
// before OpFunction, a Function-storage OpVariable first in the entry block, OpUndef in a block.
TEST(IrLayout, AcceptsTheOrdersLlvmEmits) {
  const std::vector<uint32_t> words = Words({
      kCapAddresses,
      kCapKernel,
      {Op::OpExtInstImport, {20, 0x6E65704F, 0x732E4C43, 0x00006474}},  // "OpenCL.std"
      kMemoryModel,
      {Op::OpString, {21, 0x00632E61}},  // "a.c"
      kVoid,
      kUint,
      {Op::OpUndef, {3, 22}},
      {Op::OpLine, {21, 1, 1}},
      {Op::OpTypePointer, {23, 7, 3}},  // Function
      kFnType,
      {Op::OpNoLine, {}},
      kFunction,
      kLabel,
      {Op::OpVariable, {23, 24, 7}},
      {Op::OpUndef, {3, 25}},
      {Op::OpExtInst, {3, 26, 20, 1, 25}},  // OpenCL.std acos
      kReturn,
      kFunctionEnd,
  });
  Diagnostic error;
  const std::optional<Module> module = Module::FromWords(words, &error);
  ASSERT_TRUE(module) << error.Format();
  EXPECT_EQ(module->ToWords(), words);
  EXPECT_EQ(module->globals().size(), 5u);
  EXPECT_EQ(module->functions().front().def.debug_lines().size(), 1u);
}

// Ids near 2^32 are legal when the bound allows them; the analyses then fall back to hash maps
// instead of allocating tables the size of the bound.
TEST(IrLayout, HugeIdsStayCheap) {
  constexpr uint32_t kType = 0xFFFFFF00, kConstant = 0xFFFFFFF0;
  const std::vector<uint32_t> words = Words({kCapKernel,
                                             kMemoryModel,
                                             {Op::OpTypeInt, {kType, 32, 0}},
                                             {Op::OpConstant, {kType, kConstant, 42}}},
                                            0xFFFFFFFF);
  Diagnostic error;
  std::optional<Module> module = Module::FromWords(words, &error);
  ASSERT_TRUE(module) << error.Format();
  EXPECT_EQ(module->ToWords(), words);
  const DefUse def_use(*module);
  EXPECT_EQ(def_use.GetDef(kConstant), &module->globals().back());
  EXPECT_EQ(def_use.GetUses(kType).size(), 1u);
  const TypeTable types(*module);
  EXPECT_EQ(types.GetConstantUInt32(kConstant), 42u);
  const ModuleInfo info(*module);
  EXPECT_TRUE(info.GetDecorations(kType).empty());
}

}  // namespace
}  // namespace xmx::ir
