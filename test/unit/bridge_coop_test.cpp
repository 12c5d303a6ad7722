// The bridge on cooperative matrices (issue 10): every module llc-22 made (test/coop/spv) lifts
// into one the installed SPIRV-Tools validates and lowers back to the same words; in a
// hand-written module, exactly the instructions that compute with a matrix become calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "bridge/bridge.hpp"
#include "grammar/grammar.hpp"
#include "spirv_files.hpp"
#include "val_test_support.hpp"

namespace xmx::bridge {
namespace {

namespace fs = std::filesystem;

// SPIRV-Tools' verdict on `words`, with its messages.
bool SpirvToolsValidates(const std::vector<uint32_t>& words, std::string* messages) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  tools.SetMessageConsumer([messages](spv_message_level_t, const char*, const spv_position_t&,
                                      const char* m) { *messages += std::string(m) + "\n"; });
  return tools.Validate(words);
}

// Lift, hand the words over and read them back (as after SPIRV-Tools), Lower: the original words.
void ExpectRoundTrip(const std::vector<uint32_t>& words, const std::string& what) {
  Diagnostic err;
  auto module = ir::Module::FromWords(words, &err);
  ASSERT_TRUE(module) << what << ": " << err.Format();
  auto lifted = Lift(*module, &err);
  ASSERT_TRUE(lifted) << what << ": " << err.Format();
  auto reread = ir::Module::FromWords(lifted->module.ToWords(), &err);
  ASSERT_TRUE(reread) << what << ": " << err.Format();
  ASSERT_TRUE(Lower(*reread, lifted->record, &err)) << what << ": " << err.Format();
  EXPECT_EQ(reread->ToWords(), words) << what;
}

std::vector<fs::path> CoopModules() {
  return spirv_files::SpvFilesIn(fs::path(XMX_TEST_DIR) / "coop" / "spv");
}

TEST(BridgeCoop, EveryLlcModuleLiftsIntoOneSpirvToolsValidates) {
  size_t with_matrices = 0;
  for (const fs::path& path : CoopModules()) {
    const std::vector<uint32_t> words = spirv_files::ReadWords(path);
    Diagnostic err;
    auto module = ir::Module::FromWords(words, &err);
    ASSERT_TRUE(module) << path << ": " << err.Format();
    auto lifted = Lift(*module, &err);
    ASSERT_TRUE(lifted) << path << ": " << err.Format();
    EXPECT_TRUE(lifted->changed) << path;
    bool extended_left = false;
    lifted->module.ForEachInstruction([&](const ir::Instruction& inst) {
      const auto* d = grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
      extended_left |= d && d->origin == grammar::Origin::kExtended;
    });
    EXPECT_FALSE(extended_left) << path;
    std::string messages;
    EXPECT_TRUE(SpirvToolsValidates(lifted->module.ToWords(), &messages))
        << path << ": " << messages;
    with_matrices += std::ranges::any_of(lifted->record.types, [](const ReplacedType& t) {
      return t.original.opcode() == spv::Op::OpTypeCooperativeMatrixKHR;
    });
  }
  EXPECT_GE(with_matrices, 10u);
}

TEST(BridgeCoop, LiftThenLowerIsTheIdentityOnEveryLlcModule) {
  size_t total = 0;
  for (const fs::path& path : CoopModules()) {
    ExpectRoundTrip(spirv_files::ReadWords(path), path.string());
    ++total;
  }
  EXPECT_GE(total, 14u);
}

// The hand-written modules of test/coop/bridge have no OpName: Lift names each stand-in for
// SPIRV-Tools' messages, adds element-0 instructions next to arithmetic, and Lower takes all of
// it away again.
TEST(BridgeCoop, LiftThenLowerIsTheIdentityOnTheHandWrittenModules) {
  size_t total = 0;
  for (const auto& e : fs::directory_iterator(fs::path(XMX_TEST_DIR) / "coop" / "bridge")) {
    if (e.path().extension() != ".spvasm") continue;
    std::ifstream in(e.path());
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    const std::vector<uint32_t> words = val::testing::Assemble(text);
    Diagnostic err;
    auto module = ir::Module::FromWords(words, &err);
    ASSERT_TRUE(module) << e.path() << ": " << err.Format();
    auto lifted = Lift(*module, &err);
    ASSERT_TRUE(lifted) << e.path() << ": " << err.Format();
    EXPECT_FALSE(lifted->record.named_types.empty()) << e.path();
    ExpectRoundTrip(words, e.path().string());
    ++total;
  }
  EXPECT_GE(total, 10u);
}

// A kernel that uses a cooperative matrix every way the bridge distinguishes. Each instruction
// with a result is named for what the lift must do with it: %call_* become calls of the
// bridge's declarations, %keep_* stay as they are.
const char* const kMatrixKernel = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability CooperativeMatrixKHR
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_8 = OpConstant %uint 8
%ulong_8 = OpConstant %ulong 8
%float_2 = OpConstant %float 2
%acc = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_8 %uint_2
%acc_int = OpTypeCooperativeMatrixKHR %uint %uint_3 %uint_8 %uint_8 %uint_2
%acc_again = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_8 %uint_0
%st = OpTypeStruct %acc %float
%ptr = OpTypePointer CrossWorkgroup %float
%ptr_fn_acc = OpTypePointer Function %acc
%ptr_fn_st = OpTypePointer Function %st
%ptr_fn_float = OpTypePointer Function %float
%null = OpConstantNull %acc
%fn = OpTypeFunction %void %ptr %bool %uint
%k = OpFunction %void None %fn
%p = OpFunctionParameter %ptr
%cond = OpFunctionParameter %bool
%i = OpFunctionParameter %uint
%entry = OpLabel
%keep_var = OpVariable %ptr_fn_acc Function
%keep_st_var = OpVariable %ptr_fn_st Function
%call_load = OpCooperativeMatrixLoadKHR %acc %p %uint_0 %ulong_8
%keep_fill = OpCompositeConstruct %acc %float_2
%call_fadd = OpFAdd %acc %call_load %keep_fill
%call_fneg = OpFNegate %acc %call_fadd
%call_scale = OpMatrixTimesScalar %acc %call_fneg %float_2
%call_to_int = OpConvertFToU %acc_int %call_scale
%call_to_float = OpConvertUToF %acc %call_to_int
%keep_e0 = OpCompositeExtract %float %call_to_float 0
%call_e5 = OpCompositeExtract %float %call_to_float 5
%call_ins3 = OpCompositeInsert %acc %call_e5 %call_to_float 3
%keep_ins0 = OpCompositeInsert %acc %keep_e0 %call_ins3 0
%call_length = OpCooperativeMatrixLengthKHR %uint %acc
%call_length_again = OpCooperativeMatrixLengthKHR %uint %acc_again
OpStore %keep_var %keep_ins0
%call_element = OpAccessChain %ptr_fn_float %keep_var %i
%keep_element0 = OpAccessChain %ptr_fn_float %keep_var %uint_0
%call_st_element = OpAccessChain %ptr_fn_float %keep_st_var %uint_0 %uint_2
%keep_st_member = OpAccessChain %ptr_fn_float %keep_st_var %uint_0 %uint_0
%keep_x = OpLoad %float %call_element
OpStore %keep_element0 %keep_x
%keep_copy = OpCopyObject %acc %keep_ins0
%keep_sel = OpSelect %acc %cond %keep_copy %null
OpBranchConditional %cond %then %merge
%then = OpLabel
OpBranch %merge
%merge = OpLabel
%keep_phi = OpPhi %acc %keep_sel %entry %call_load %then
OpCooperativeMatrixStoreKHR %p %keep_phi %uint_0 %ulong_8
OpReturn
OpFunctionEnd
)";

// `text` with an OpName for every id it defines, so that a test can find them after assembly.
std::string WithNames(const std::string& text) {
  std::string names;
  for (size_t pos = 0; (pos = text.find("\n%", pos)) != std::string::npos;) {
    const size_t end = text.find(' ', pos);
    const std::string name = text.substr(pos + 2, end - pos - 2);
    names += "OpName %" + name + " \"" + name + "\"\n";
    pos = end;
  }
  std::string named = text;
  named.insert(named.find("%void = "), names);
  return named;
}

TEST(BridgeCoop, InstructionsThatComputeWithAMatrixBecomeCalls) {
  const std::vector<uint32_t> words = val::testing::Assemble(WithNames(kMatrixKernel));
  Diagnostic err;
  auto module = ir::Module::FromWords(words, &err);
  ASSERT_TRUE(module) << err.Format();
  std::map<uint32_t, std::string> names;
  for (const ir::Instruction& inst : module->debug()) {
    if (inst.opcode() == spv::Op::OpName) names[inst.word(0)] = inst.StringOperand(1);
  }
  auto lifted = Lift(*module, &err);
  ASSERT_TRUE(lifted) << err.Format();

  size_t calls = 0, kept = 0;
  for (const ir::Function& function : lifted->module.functions()) {
    for (const ir::BasicBlock& block : function.blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        if (!inst.has_result_id() || !names.count(inst.result_id())) continue;
        const std::string& name = names[inst.result_id()];
        const bool is_call = inst.opcode() == spv::Op::OpFunctionCall;
        if (name.rfind("call_", 0) == 0) {
          EXPECT_TRUE(is_call) << "%" << name << " should have become a call";
          ++calls;
        } else if (name.rfind("keep_", 0) == 0) {
          EXPECT_FALSE(is_call) << "%" << name << " should have stayed";
          ++kept;
        }
      }
    }
  }
  // Element-0 forms: of the operations whose operands are all matrices (FAdd, FNegate and the two
  // conversions; OpMatrixTimesScalar mixes in a scalar), four operations on five extracts; of the
  // four element accesses past element 0, the same access of element 0.
  EXPECT_EQ(lifted->record.added_instructions.size(), 13u);
  EXPECT_EQ(calls, 12u);
  EXPECT_EQ(kept, 11u);

  // Length holds its type operand in the declaration: a call without arguments, one
  // declaration per type.
  std::vector<uint32_t> length_callees;
  for (const auto& [decl, sig] : lifted->record.declarations) {
    if (sig.opcode != spv::Op::OpCooperativeMatrixLengthKHR) continue;
    ASSERT_EQ(sig.operands.size(), 1u);
    EXPECT_NE(sig.operands[0].fixed_id, 0u);
    length_callees.push_back(decl);
  }
  EXPECT_EQ(length_callees.size(), 2u);

  // The two matrix types of one component stay two types (structs are not unique).
  std::string messages;
  EXPECT_TRUE(SpirvToolsValidates(lifted->module.ToWords(), &messages)) << messages;
  ExpectRoundTrip(words, "the matrix kernel");
}

// A 4-bit integer gets a width the module does not use, so conversions still change the width;
// with every width in use it cannot be lifted.
TEST(BridgeCoop, Int4StandsInAsAnUnusedIntegerWidth) {
  const std::string head = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Int4TypeINTEL
)";
  const std::string rest = R"(OpExtension "SPV_INTEL_int4"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%u4 = OpTypeInt 4 0
%uchar_3 = OpConstant %uchar 3
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%entry = OpLabel
%small = OpUConvert %u4 %uchar_3
%wide = OpUConvert %uint %small
OpReturn
OpFunctionEnd
)";
  const std::vector<uint32_t> words = val::testing::Assemble(head + rest);
  Diagnostic err;
  auto module = ir::Module::FromWords(words, &err);
  ASSERT_TRUE(module) << err.Format();
  auto lifted = Lift(*module, &err);
  ASSERT_TRUE(lifted) << err.Format();
  std::string text;
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  ASSERT_TRUE(tools.Disassemble(lifted->module.ToWords(), &text));
  EXPECT_NE(text.find("OpTypeInt 16 0"), std::string::npos) << text;
  EXPECT_NE(text.find("OpCapability Int16"), std::string::npos) << text;
  std::string messages;
  EXPECT_TRUE(SpirvToolsValidates(lifted->module.ToWords(), &messages)) << messages;
  ExpectRoundTrip(words, "the int4 kernel");

  std::string every_width = head + "OpCapability Int16\nOpCapability Int64\n" + rest;
  every_width.replace(every_width.find("%u4 = "), 0,
                      "%ushort = OpTypeInt 16 0\n%ulong = OpTypeInt 64 0\n");
  auto full = ir::Module::FromWords(val::testing::Assemble(every_width), &err);
  ASSERT_TRUE(full) << err.Format();
  EXPECT_FALSE(Lift(*full, &err));
  EXPECT_NE(err.message.find("every integer width"), std::string::npos) << err.message;
}

}  // namespace
}  // namespace xmx::bridge
