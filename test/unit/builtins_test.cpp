// The built-in recogniser (source/builtins): the Itanium parameter reader on names real
// producers make, the table's name patterns, and the upgrade of calls into instructions.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "builtins/builtin_table.hpp"
#include "builtins/itanium_names.hpp"
#include "builtins/upgrade.hpp"
#include "text/assembler.hpp"
#include "text/disassembler.hpp"
#include "xmx/module.hpp"

namespace xmx::builtins {
namespace {

// --- Itanium names ------------------------------------------------------------------------------

TEST(ItaniumNames, TwoDBlockReadFromClang) {
  const ParsedName p =
      ParseLinkageName("_Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_iPt");
  ASSERT_TRUE(p.mangled);
  ASSERT_TRUE(p.params_known);
  EXPECT_EQ(p.name.base, "intel_sub_group_2d_block_read_16b_8r16x1c");
  ASSERT_EQ(p.name.params.size(), 6u);
  EXPECT_TRUE(p.name.params[0].pointer);
  EXPECT_EQ(p.name.params[0].address_space, 1u);
  EXPECT_EQ(p.name.params[0].scalar, 'v');
  EXPECT_EQ(p.name.params[1].scalar, 'i');
  EXPECT_EQ(p.name.params[4].vector, 2u);
  EXPECT_EQ(p.name.params[4].scalar, 'i');
  EXPECT_TRUE(p.name.params[5].pointer);
  EXPECT_EQ(p.name.params[5].address_space, 0u);
  EXPECT_EQ(p.name.params[5].scalar, 't');
}

TEST(ItaniumNames, SubstitutionsRepeatVectors) {
  // int8 (short8, int8, int8): S0_ is the second substitution, the int8.
  ParsedName p = ParseLinkageName("_Z36intel_sub_group_i8_i8_matrix_mad_k32Dv8_sDv8_iS0_");
  ASSERT_TRUE(p.params_known);
  ASSERT_EQ(p.name.params.size(), 3u);
  EXPECT_EQ(p.name.params[2].scalar, 'i');
  EXPECT_EQ(p.name.params[2].vector, 8u);
  // short2 (short2, int8, short2): S_ is the first, the short2.
  p = ParseLinkageName("_Z40intel_sub_group_bf16_bf16_matrix_mad_k16Dv2_sDv8_iS_");
  ASSERT_TRUE(p.params_known);
  ASSERT_EQ(p.name.params.size(), 3u);
  EXPECT_EQ(p.name.params[2].scalar, 's');
  EXPECT_EQ(p.name.params[2].vector, 2u);
  // The translator's __spirv_ call: (int, int8, int8, float8, int).
  p = ParseLinkageName("_Z45__spirv_SubgroupMatrixMultiplyAccumulateINTELiDv8_iS_Dv8_fi");
  ASSERT_TRUE(p.params_known);
  ASSERT_EQ(p.name.params.size(), 5u);
  EXPECT_EQ(p.name.params[2].vector, 8u);
  EXPECT_EQ(p.name.params[2].scalar, 'i');
  EXPECT_EQ(p.name.params[3].scalar, 'f');
}

TEST(ItaniumNames, QualifiedPointersAndNamedTypes) {
  const ParsedName p = ParseLinkageName(
      "_Z25atomic_fetch_min_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope");
  ASSERT_TRUE(p.params_known);
  ASSERT_EQ(p.name.params.size(), 4u);
  EXPECT_TRUE(p.name.params[0].pointer);
  EXPECT_EQ(p.name.params[0].address_space, 4u);
  EXPECT_TRUE(p.name.params[0].IsSignedInteger());
  EXPECT_EQ(p.name.params[2].name, "memory_order");
}

TEST(ItaniumNames, SignednessOfSmallTypes) {
  EXPECT_TRUE(ParseLinkageName("_Z26intel_sub_group_reduce_minc").name.params[0].IsSignedInteger());
  EXPECT_TRUE(
      ParseLinkageName("_Z26intel_sub_group_reduce_minh").name.params[0].IsUnsignedInteger());
  EXPECT_TRUE(ParseLinkageName("_Z34intel_sub_group_scan_exclusive_mint")
                  .name.params[0]
                  .IsUnsignedInteger());
}

TEST(ItaniumNames, UnmangledAndBroken) {
  ParsedName p = ParseLinkageName("intel_sub_group_2d_block_prefetch_16b_8r16x1c");
  EXPECT_FALSE(p.mangled);
  EXPECT_EQ(p.name.base, "intel_sub_group_2d_block_prefetch_16b_8r16x1c");
  // A truncated substitution or an unknown code keeps the base name, without parameters.
  p = ParseLinkageName("_Z3fooDv8_iS3_");
  EXPECT_TRUE(p.mangled);
  EXPECT_FALSE(p.params_known);
  EXPECT_EQ(p.name.base, "foo");
  p = ParseLinkageName("_Z3fooDv99999999999_i");
  EXPECT_FALSE(p.params_known);
  p = ParseLinkageName("_Z3fooPPi");  // pointers to pointers are no built-in's parameters
  EXPECT_FALSE(p.params_known);
}

// --- The table
// ------------------------------------------------------------------------------------

TEST(BuiltinTable, TwoDBlockNamesGiveTheShape) {
  std::vector<NameMatch> m = FindEntries("intel_sub_group_2d_block_read_transform_8b_32r16x2c");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].entry->opcode, spv::Op::OpSubgroup2DBlockLoadTransformINTEL);
  EXPECT_EQ(m[0].fields[kElementBytes], 1u);
  EXPECT_EQ(m[0].fields[kHeight], 32u);
  EXPECT_EQ(m[0].fields[kWidth], 16u);
  EXPECT_EQ(m[0].fields[kCount], 2u);
  m = FindEntries("intel_sub_group_2d_block_write_32b_8r16x1c");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].entry->opcode, spv::Op::OpSubgroup2DBlockStoreINTEL);
  // The store's private source comes before the global base (A.2): argument 5 is operand 4.
  ASSERT_EQ(m[0].entry->operands.size(), 10u);
  EXPECT_EQ(m[0].entry->operands[4].kind, OperandSource::Kind::kArgument);
  EXPECT_EQ(m[0].entry->operands[4].value, 5u);
  EXPECT_EQ(m[0].entry->operands[5].value, 0u);
}

TEST(BuiltinTable, NamesThatAreNotOurs) {
  EXPECT_TRUE(FindEntries("intel_sub_group_2d_block_read_12b_8r16x1c").empty());  // 12 bits
  EXPECT_TRUE(FindEntries("intel_sub_group_2d_block_read_16b_8r16x1").empty());
  EXPECT_TRUE(FindEntries("intel_sub_group_2d_block_read_16b_08r16x1c").empty());
  EXPECT_TRUE(FindEntries("intel_sub_group_2d_block_read_16b_r16x1c").empty());
  EXPECT_TRUE(FindEntries("atomic_inc").empty());
  EXPECT_TRUE(FindEntries("sub_group_barrier").empty());
  EXPECT_TRUE(FindEntries("intel_sub_group_block_read_uc32").empty());
}

TEST(BuiltinTable, MatrixMasksFromTheName) {
  struct Case {
    const char* name;
    uint32_t k, mask;
  };
  const Case cases[] = {{"intel_sub_group_i8_i8_matrix_mad_k32", 32, 0x33},
                        {"intel_sub_group_i8_u8_matrix_mad_k32", 32, 0x31},
                        {"intel_sub_group_u8_i8_matrix_mad_k32", 32, 0x32},
                        {"intel_sub_group_u8_u8_matrix_mad_k32", 32, 0x30},
                        {"intel_sub_group_i4_i4_matrix_mad_k64", 64, 0xC3},
                        {"intel_sub_group_u4_u4_matrix_mad_k64", 64, 0xC0},
                        {"intel_sub_group_f16_f16_matrix_mad_k16", 16, 0xC00},
                        {"intel_sub_group_tf32_tf32_matrix_mad_k8", 8, 0x300}};
  for (const Case& c : cases) {
    std::vector<NameMatch> m = FindEntries(c.name);
    ASSERT_EQ(m.size(), 1u) << c.name;
    EXPECT_EQ(m[0].entry->operands[0].value, c.k) << c.name;
    EXPECT_EQ(m[0].entry->operands[4].value, c.mask) << c.name;
  }
  // bf16 has two forms told apart by the accumulator: float (0x3000) and short (0x300C).
  std::vector<NameMatch> m = FindEntries("intel_sub_group_bf16_bf16_matrix_mad_k16");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].entry->operands[4].value, 0x3000u);
  EXPECT_EQ(m[1].entry->operands[4].value, 0x300Cu);
  EXPECT_EQ(FindEntries("intel_sub_group_f16_f16_split_matrix_mad_k16")[0].entry->target,
            Target::kSplitMatrixMad);
}

// --- The upgrade
// ----------------------------------------------------------------------------------

std::optional<ir::Module> Assemble(const std::string& text) {
  std::vector<uint32_t> words;
  Diagnostic error;
  text::AssembleOptions options;
  options.version = 0x00010400;
  EXPECT_TRUE(text::Assemble(text, options, &words, &error)) << error.Format();
  return ir::Module::FromWords(words, &error);
}

std::string Disassemble(const ir::Module& module) {
  std::string listing;
  Diagnostic ignored;
  text::DisassembleOptions options;
  options.header = false;
  options.indent = false;
  text::Disassemble(module.ToWords(), options, &listing, &ignored);
  return listing;
}

// A kernel that calls an imported function `linkage` of type `fn_type` ("OpTypeFunction %R ...")
// with `call`.
std::string CallModule(const std::string& linkage, const std::string& fn_type,
                       const std::string& call) {
  const size_t result_start = fn_type.find('%');
  const std::string result_type =
      fn_type.substr(result_start, fn_type.find(' ', result_start) - result_start);
  return R"(OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpCapability Int8
OpCapability Int16
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpExecutionMode %k SubgroupSize 16
OpName %builtin "builtin"
OpName %base "base"
OpName %coord "coord"
OpName %priv "priv"
OpName %a "a"
OpName %b "b"
OpName %c "c"
OpName %val "val"
OpName %r "r"
OpDecorate %builtin LinkageAttributes ")" +
         linkage + R"(" Import
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%uchar = OpTypeInt 8 0
%ushort = OpTypeInt 16 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%v8uint = OpTypeVector %uint 8
%v8ushort = OpTypeVector %ushort 8
%v8float = OpTypeVector %float 8
%gptr = OpTypePointer CrossWorkgroup %uchar
%pptr = OpTypePointer Function %ushort
%kfn = OpTypeFunction %void %gptr
%uint_0 = OpConstant %uint 0
%uint_64 = OpConstant %uint 64
%coord = OpConstantComposite %v2uint %uint_0 %uint_0
%a = OpConstantNull %v8ushort
%b = OpConstantNull %v8uint
%c = OpConstantNull %v8float
%val = OpConstant %uchar 7
%image_t = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%fn = )" +
         fn_type + R"(
%builtin = OpFunction )" +
         result_type + R"( None %fn
OpFunctionEnd
%k = OpFunction %void None %kfn
%base = OpFunctionParameter %gptr
%entry = OpLabel
%priv = OpVariable %pptr Function
)" + call +
         R"(
OpReturn
OpFunctionEnd
)";
}

TEST(Upgrade, TwoDBlockReadBecomesTheLoadWithNameConstants) {
  std::optional<ir::Module> m =
      Assemble(CallModule("_Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_iPt",
                          "OpTypeFunction %void %gptr %uint %uint %uint %v2uint %pptr",
                          "%r = OpFunctionCall %void %builtin %base %uint_64 %uint_64 %uint_64 "
                          "%coord %priv"));
  ASSERT_TRUE(m);
  ASSERT_TRUE(HasBuiltinImports(*m));
  UpgradeResult r = UpgradeBuiltinCalls(*m);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.replacements.size(), 1u);
  EXPECT_EQ(r.replacements[0].opcode, spv::Op::OpSubgroup2DBlockLoadINTEL);
  const std::string text = Disassemble(r.module);
  // Element Size 2, Block Width 16, Height 8, Count 1, then the arguments in order.
  EXPECT_NE(text.find("OpSubgroup2DBlockLoadINTEL %uint_2 %uint_16 %uint_8 %uint_1 %base "
                      "%uint_64 %uint_64 %uint_64 %coord %priv"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("OpFunctionCall"), std::string::npos) << text;
  // The declaration, its name and its linkage are gone; the requirements are declared.
  EXPECT_EQ(text.find("builtin"), std::string::npos) << text;
  EXPECT_EQ(text.find("\"r\""), std::string::npos) << text;  // the void call's result, gone too
  EXPECT_NE(text.find("OpCapability Subgroup2DBlockIOINTEL"), std::string::npos) << text;
  EXPECT_NE(text.find("OpExtension \"SPV_INTEL_2d_block_io\""), std::string::npos) << text;
  // The replacement keeps the call's place in the original binary.
  size_t call_index = 0, index = 0;
  m->ForEachInstruction([&](const ir::Instruction& inst) {
    if (inst.opcode() == spv::Op::OpFunctionCall) call_index = index;
    ++index;
  });
  EXPECT_EQ(r.replacements[0].source_index, call_index);
  // Without the requirements (the validator's copy) nothing is declared.
  UpgradeOptions bare;
  bare.declare_requirements = false;
  EXPECT_EQ(Disassemble(UpgradeBuiltinCalls(*m, bare).module).find("Subgroup2DBlockIOINTEL"),
            std::string::npos);
}

// The overload for a module the caller gives up upgrades it in place: the same module, the same
// replacements and errors as the copying one, with or without the requirements.
TEST(Upgrade, InPlaceGivesWhatTheCopyGives) {
  const std::vector<std::string> calls = {
      "%r = OpFunctionCall %void %builtin %base %uint_64 %uint_64 %uint_64 %coord %priv",
      // The wrong signature for the name: an error, and the call stays.
      "%r = OpFunctionCall %void %builtin %base %uint_64 %uint_64 %uint_64 %coord"};
  const std::vector<std::string> types = {
      "OpTypeFunction %void %gptr %uint %uint %uint %v2uint %pptr",
      "OpTypeFunction %void %gptr %uint %uint %uint %v2uint"};
  for (size_t i = 0; i < calls.size(); ++i) {
    for (bool declare : {true, false}) {
      std::optional<ir::Module> m = Assemble(CallModule(
          "_Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_iPt", types[i], calls[i]));
      ASSERT_TRUE(m);
      UpgradeOptions options;
      options.declare_requirements = declare;
      const UpgradeResult copied = UpgradeBuiltinCalls(*m, options);
      UpgradeResult in_place = UpgradeBuiltinCalls(std::move(*m), options);
      EXPECT_EQ(Disassemble(in_place.module), Disassemble(copied.module)) << i;
      EXPECT_EQ(in_place.module.header().bound, copied.module.header().bound) << i;
      ASSERT_EQ(in_place.replacements.size(), copied.replacements.size()) << i;
      for (size_t r = 0; r < copied.replacements.size(); ++r) {
        EXPECT_EQ(in_place.replacements[r].source_index, copied.replacements[r].source_index);
        EXPECT_EQ(in_place.replacements[r].opcode, copied.replacements[r].opcode);
      }
      ASSERT_EQ(in_place.errors.size(), copied.errors.size()) << i;
      for (size_t e = 0; e < copied.errors.size(); ++e) {
        EXPECT_EQ(in_place.errors[e].Format(), copied.errors[e].Format());
      }
      EXPECT_EQ(copied.replacements.size(), i == 0 ? 1u : 0u);
      EXPECT_EQ(copied.errors.size(), i == 0 ? 0u : 1u);
    }
  }
}

// Every module of the corpus that imports built-ins: the upgrade in place gives the copy's
// module, and restoring it gives back the module it was, word for word and place for place.
TEST(Upgrade, InPlaceUpgradeIsUndoneExactly) {
  size_t upgraded_modules = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(XMX_SOURCE_DIR) + "/test/corpus/spv")) {
    if (entry.path().extension() != ".spv") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    Result<std::vector<uint32_t>> words = WordsFromBytes(bytes);
    if (!words) continue;
    std::optional<ir::Module> m = ir::Module::FromWords(*words, nullptr);
    if (!m || !HasBuiltinImports(*m)) continue;
    for (bool declare : {true, false}) {
      UpgradeOptions options;
      options.declare_requirements = declare;
      const UpgradeResult copied = UpgradeBuiltinCalls(*m, options);
      UpgradeUndo undo;
      const UpgradeResult in_place = UpgradeBuiltinCallsInPlace(*m, options, &undo);
      EXPECT_EQ(m->ToWords(), copied.module.ToWords()) << entry.path();
      EXPECT_EQ(in_place.replacements.size(), copied.replacements.size()) << entry.path();
      EXPECT_EQ(in_place.errors.size(), copied.errors.size()) << entry.path();
      upgraded_modules += !copied.replacements.empty();
      RestoreBuiltinCalls(*m, undo);
      EXPECT_EQ(m->ToWords(), *words) << entry.path();
      // Each instruction is back with its place in the binary.
      size_t index = 0;
      bool in_place_again = true;
      m->ForEachInstruction(
          [&](const ir::Instruction& inst) { in_place_again &= inst.source_index() == index++; });
      EXPECT_TRUE(in_place_again) << entry.path();
    }
  }
  EXPECT_GT(upgraded_modules, 0u);
}

TEST(Upgrade, StoreTakesThePrivateSourceFirst) {
  std::optional<ir::Module> m =
      Assemble(CallModule("intel_sub_group_2d_block_write_16b_8r16x1c",
                          "OpTypeFunction %void %gptr %uint %uint %uint %v2uint %pptr",
                          "%r = OpFunctionCall %void %builtin %base %uint_64 %uint_64 %uint_64 "
                          "%coord %priv"));
  ASSERT_TRUE(m);
  UpgradeResult r = UpgradeBuiltinCalls(*m);
  ASSERT_TRUE(r.ok());
  EXPECT_NE(Disassemble(r.module).find("OpSubgroup2DBlockStoreINTEL %uint_2 %uint_16 %uint_8 "
                                       "%uint_1 %priv %base %uint_64 %uint_64 %uint_64 %coord"),
            std::string::npos)
      << Disassemble(r.module);
}

TEST(Upgrade, MatrixGetsKAndTheMask) {
  std::optional<ir::Module> m =
      Assemble(CallModule("_Z40intel_sub_group_bf16_bf16_matrix_mad_k16Dv8_sDv8_iDv8_f",
                          "OpTypeFunction %v8float %v8ushort %v8uint %v8float",
                          "%r = OpFunctionCall %v8float %builtin %a %b %c"));
  ASSERT_TRUE(m);
  UpgradeResult r = UpgradeBuiltinCalls(*m);
  ASSERT_TRUE(r.ok());
  const std::string text = Disassemble(r.module);
  EXPECT_NE(text.find("%r = OpSubgroupMatrixMultiplyAccumulateINTEL %v8float %uint_16 %a %b %c "
                      "MatrixAPackedBFloat16INTEL|MatrixBPackedBFloat16INTEL"),
            std::string::npos)
      << text;
  // The new constant reuses the module's 32-bit integer type.
  EXPECT_NE(text.find("%uint_16 = OpConstant %uint 16"), std::string::npos) << text;
}

TEST(Upgrade, WrongSignatureIsAnErrorAndTheCallStays) {
  // The 2D block read without its private pointer.
  std::optional<ir::Module> m =
      Assemble(CallModule("_Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_i",
                          "OpTypeFunction %void %gptr %uint %uint %uint %v2uint",
                          "%r = OpFunctionCall %void %builtin %base %uint_64 %uint_64 %uint_64 "
                          "%coord"));
  ASSERT_TRUE(m);
  UpgradeResult r = UpgradeBuiltinCalls(*m);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].rule, "builtin.signature");
  EXPECT_NE(r.errors[0].message.find("'intel_sub_group_2d_block_read_16b_8r16x1c'"),
            std::string::npos);
  EXPECT_NE(r.errors[0].message.find("private T* dst"), std::string::npos) << r.errors[0].message;
  EXPECT_TRUE(r.replacements.empty());
  EXPECT_NE(Disassemble(r.module).find("OpFunctionCall"), std::string::npos);
}

TEST(Upgrade, MinMaxSignednessFromTheMangledType) {
  const std::string fn = "OpTypeFunction %uchar %uchar";
  const std::string call = "%r = OpFunctionCall %uchar %builtin %val";
  std::optional<ir::Module> m = Assemble(CallModule("_Z26intel_sub_group_reduce_minh", fn, call));
  ASSERT_TRUE(m);
  EXPECT_NE(Disassemble(UpgradeBuiltinCalls(*m).module)
                .find("%r = OpGroupUMin %uchar %uint_3 Reduce %val"),
            std::string::npos);
  m = Assemble(CallModule("_Z34intel_sub_group_scan_inclusive_maxc", fn, call));
  ASSERT_TRUE(m);
  EXPECT_NE(Disassemble(UpgradeBuiltinCalls(*m).module)
                .find("%r = OpGroupSMax %uchar %uint_3 InclusiveScan %val"),
            std::string::npos);
  // Unmangled, the name cannot say which.
  m = Assemble(CallModule("intel_sub_group_reduce_min", fn, call));
  ASSERT_TRUE(m);
  UpgradeResult r = UpgradeBuiltinCalls(*m);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("signed"), std::string::npos);
}

TEST(Upgrade, SpirvMatrixFormNeedsAConstantOperandsArgument) {
  const std::string fn = "OpTypeFunction %v8float %uint %v8ushort %v8uint %v8float %uint";
  std::optional<ir::Module> m =
      Assemble(CallModule("__spirv_SubgroupMatrixMultiplyAccumulateINTEL", fn,
                          "%r = OpFunctionCall %v8float %builtin %uint_64 %a %b %c %uint_0"));
  ASSERT_TRUE(m);
  UpgradeResult r = UpgradeBuiltinCalls(*m);
  ASSERT_TRUE(r.ok());
  EXPECT_NE(Disassemble(r.module).find("OpSubgroupMatrixMultiplyAccumulateINTEL %v8float "
                                       "%uint_64 %a %b %c None"),
            std::string::npos)
      << Disassemble(r.module);
  m = Assemble(CallModule("__spirv_SubgroupMatrixMultiplyAccumulateINTEL", fn,
                          "%ops = OpLoad %uint %base\n"
                          "%r = OpFunctionCall %v8float %builtin %uint_64 %a %b %c %ops"));
  ASSERT_TRUE(m);
  r = UpgradeBuiltinCalls(*m);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].rule, "builtin.literal-argument");
  EXPECT_NE(r.errors[0].message.find("call of '__spirv_SubgroupMatrixMultiplyAccumulateINTEL'"),
            std::string::npos);
}

TEST(Upgrade, BlockReadOfAnImageIsTheImageForm) {
  // The same name reads a buffer or an image; the first parameter's type picks the instruction.
  std::optional<ir::Module> m = Assemble(CallModule("_Z29intel_sub_group_block_read_usPU3AS1Kt",
                                                    "OpTypeFunction %ushort %gptr",
                                                    "%r = OpFunctionCall %ushort %builtin %base"));
  ASSERT_TRUE(m);
  EXPECT_NE(Disassemble(UpgradeBuiltinCalls(*m).module)
                .find("%r = OpSubgroupBlockReadINTEL %ushort %base"),
            std::string::npos);
  m = Assemble(CallModule("_Z29intel_sub_group_block_read_us14ocl_image2d_roDv2_i",
                          "OpTypeFunction %ushort %image_t %v2uint",
                          "%img = OpUndef %image_t\n"
                          "%r = OpFunctionCall %ushort %builtin %img %coord"));
  ASSERT_TRUE(m);
  EXPECT_NE(
      Disassemble(UpgradeBuiltinCalls(*m).module).find("= OpSubgroupImageBlockReadINTEL %ushort"),
      std::string::npos)
      << Disassemble(UpgradeBuiltinCalls(*m).module);
  // A 32-bit result for the 16-bit name fits no form.
  m = Assemble(CallModule("_Z29intel_sub_group_block_read_usPU3AS1Kt", "OpTypeFunction %uint %gptr",
                          "%r = OpFunctionCall %uint %builtin %base"));
  ASSERT_TRUE(m);
  UpgradeResult r = UpgradeBuiltinCalls(*m);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].rule, "builtin.signature");
}

TEST(Upgrade, NoIdsLeftIsAnErrorNotAWrap) {
  std::optional<ir::Module> m =
      Assemble(CallModule("_Z40intel_sub_group_bf16_bf16_matrix_mad_k16Dv8_sDv8_iDv8_f",
                          "OpTypeFunction %v8float %v8ushort %v8uint %v8float",
                          "%r = OpFunctionCall %v8float %builtin %a %b %c"));
  ASSERT_TRUE(m);
  m->header().bound = UINT32_MAX - 1;  // K = 16 needs a new constant
  UpgradeResult r = UpgradeBuiltinCalls(*m);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].rule, "builtin.id-bound");
  EXPECT_EQ(r.module.header().bound, UINT32_MAX - 1);
  EXPECT_NE(Disassemble(r.module).find("OpFunctionCall"), std::string::npos);
}

TEST(Upgrade, ModulesWithoutBuiltinsAreLeftAlone) {
  std::optional<ir::Module> m =
      Assemble(CallModule("_Z10atomic_incPU3AS1Vi", "OpTypeFunction %uint %gptr",
                          "%r = OpFunctionCall %uint %builtin %base"));
  ASSERT_TRUE(m);
  EXPECT_FALSE(HasBuiltinImports(*m));
  UpgradeResult r = UpgradeBuiltinCalls(*m);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.replacements.empty());
  EXPECT_EQ(r.module.ToWords(), m->ToWords());
}

}  // namespace
}  // namespace xmx::builtins
