// Rules subgroups.*: Intel shuffles, block IO, image block IO and the 8/16-bit OpGroup* typings
// (SPEC-NOTES C.2-C.4), on hand-assembled kernels and on the Intel subgroup kernels of the corpus.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "text/assembler.hpp"
#include "val_test_support.hpp"
#include "xmx/device.hpp"
#include "xmx/validator.hpp"

namespace xmx::val {
namespace {

using testing::Assemble;
using testing::CountRule;
using testing::Dump;
using testing::HasRule;

// Any diagnostic of our family (subgroups.*) at `severity`.
bool HasFamily(const ValidationResult& r, Severity severity) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule.rfind("subgroups.", 0) == 0 && d.severity == severity) return true;
  }
  return false;
}

// A kernel whose parameters and constants give every operand the tests need; `body` goes into
// its only block. `float16_cap` replaces the Float16 capability.
std::string Kernel(const std::string& body,
                   const std::string& float16_cap = "OpCapability Float16\n") {
  return R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability Groups
OpCapability Vector16
OpCapability GenericPointer
OpCapability ImageBasic
OpCapability SubgroupShuffleINTEL
OpCapability SubgroupBufferBlockIOINTEL
OpCapability SubgroupImageBlockIOINTEL
)" + float16_cap +
         R"(OpExtension "SPV_INTEL_subgroups"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpExecutionMode %k SubgroupSize 16
%void = OpTypeVoid
%uchar = OpTypeInt 8 0
%ushort = OpTypeInt 16 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%v2uchar = OpTypeVector %uchar 2
%v3uchar = OpTypeVector %uchar 3
%v16uchar = OpTypeVector %uchar 16
%v8ushort = OpTypeVector %ushort 8
%v16ushort = OpTypeVector %ushort 16
%v2uint = OpTypeVector %uint 2
%v3uint = OpTypeVector %uint 3
%v4uint = OpTypeVector %uint 4
%v16uint = OpTypeVector %uint 16
%v2ulong = OpTypeVector %ulong 2
%v2half = OpTypeVector %half 2
%v4float = OpTypeVector %float 4
%p_uint = OpTypePointer CrossWorkgroup %uint
%p_uchar = OpTypePointer CrossWorkgroup %uchar
%p_ushort = OpTypePointer CrossWorkgroup %ushort
%p_ulong = OpTypePointer CrossWorkgroup %ulong
%pl_uint = OpTypePointer Workgroup %uint
%pg_uint = OpTypePointer Generic %uint
%p_v2uint = OpTypePointer CrossWorkgroup %v2uint
%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%img3d = OpTypeImage %void 3D 0 0 0 0 Unknown ReadOnly
%imgw = OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly
%fn = OpTypeFunction %void %p_uint %p_uchar %p_ushort %p_ulong %pl_uint %pg_uint %p_v2uint %img %img3d %imgw %uint %ushort %uchar %ulong %half %float
%sg = OpConstant %uint 3
%wg = OpConstant %uint 2
%c1 = OpConstant %uint 1
%s1 = OpConstant %ushort 1
%coord = OpConstantNull %v2uint
%coord3 = OpConstantNull %v3uint
%v2uchar_0 = OpConstantNull %v2uchar
%v3uchar_0 = OpConstantNull %v3uchar
%v16uchar_0 = OpConstantNull %v16uchar
%v8ushort_0 = OpConstantNull %v8ushort
%v16ushort_0 = OpConstantNull %v16ushort
%v3uint_0 = OpConstantNull %v3uint
%v4uint_0 = OpConstantNull %v4uint
%v16uint_0 = OpConstantNull %v16uint
%v2ulong_0 = OpConstantNull %v2ulong
%v2half_0 = OpConstantNull %v2half
%v4float_0 = OpConstantNull %v4float
%k = OpFunction %void None %fn
%p32 = OpFunctionParameter %p_uint
%p8 = OpFunctionParameter %p_uchar
%p16 = OpFunctionParameter %p_ushort
%p64 = OpFunctionParameter %p_ulong
%plocal = OpFunctionParameter %pl_uint
%pgen = OpFunctionParameter %pg_uint
%pvec = OpFunctionParameter %p_v2uint
%im = OpFunctionParameter %img
%im3d = OpFunctionParameter %img3d
%imw = OpFunctionParameter %imgw
%x32 = OpFunctionParameter %uint
%x16 = OpFunctionParameter %ushort
%x8 = OpFunctionParameter %uchar
%x64 = OpFunctionParameter %ulong
%xh = OpFunctionParameter %half
%xf = OpFunctionParameter %float
%entry = OpLabel
)" + body +
         R"(OpReturn
OpFunctionEnd
)";
}

ValidationResult RunOn(const std::string& body, const char* device = "opencl",
                       const std::string& float16_cap = "OpCapability Float16\n") {
  ValidatorOptions options;
  options.device = device::FindBuiltinProfile(device);
  EXPECT_NE(options.device, nullptr) << device;
  return Validate(Assemble(Kernel(body, float16_cap)), options);
}

// --- Required subgroup size ---------------------------------------------------------------------

ValidationResult WithSubgroupSize(const std::string& size, const char* device) {
  std::string text = Kernel("");
  const std::string mode = "OpExecutionMode %k SubgroupSize 16";
  text.replace(text.find(mode), mode.size(), "OpExecutionMode %k SubgroupSize " + size);
  ValidatorOptions options;
  options.device = device::FindBuiltinProfile(device);
  return Validate(Assemble(text), options);
}

TEST(ValSubgroups, RequiredSubgroupSizeMustBeTheDevices) {
  EXPECT_FALSE(HasRule(WithSubgroupSize("16", "pvc"), "subgroups.size", Severity::kError));
  EXPECT_FALSE(HasRule(WithSubgroupSize("32", "pvc"), "subgroups.size", Severity::kError));
  EXPECT_FALSE(HasRule(WithSubgroupSize("8", "dg2"), "subgroups.size", Severity::kError));
  const ValidationResult r = WithSubgroupSize("8", "pvc");
  EXPECT_EQ(CountRule(r, "subgroups.size", Severity::kError), 1) << Dump(r);
  EXPECT_FALSE(r.valid);
  // No size is no invocation, on every device; the spec profile takes any power of two.
  EXPECT_TRUE(HasRule(WithSubgroupSize("0", "opencl"), "subgroups.size", Severity::kError));
  EXPECT_TRUE(HasRule(WithSubgroupSize("0", "spec"), "subgroups.size", Severity::kError));
  EXPECT_TRUE(HasRule(WithSubgroupSize("12", "spec"), "subgroups.size", Severity::kError));
  EXPECT_FALSE(HasRule(WithSubgroupSize("64", "spec"), "subgroups.size", Severity::kError));
}

// --- Shuffles ------------------------------------------------------------------------------------

TEST(ValSubgroups, ShufflesOfSupportedTypesAreValid) {
  const ValidationResult r = RunOn(R"(%a = OpSubgroupShuffleINTEL %uint %x32 %x32
%b = OpSubgroupShuffleDownINTEL %v4float %v4float_0 %v4float_0 %c1
%c = OpSubgroupShuffleUpINTEL %v3uchar %v3uchar_0 %v3uchar_0 %c1
%d = OpSubgroupShuffleXorINTEL %ulong %x64 %c1
%e = OpSubgroupShuffleINTEL %half %xh %c1
%f = OpSubgroupShuffleINTEL %v16ushort %v16ushort_0 %c1
)");
  EXPECT_FALSE(HasFamily(r, Severity::kError)) << Dump(r);
  EXPECT_FALSE(HasFamily(r, Severity::kWarning)) << Dump(r);
}

TEST(ValSubgroups, ShuffleDataTypeMustBeTheResultType) {
  const ValidationResult r = RunOn("%a = OpSubgroupShuffleINTEL %uint %xf %x32\n");
  EXPECT_TRUE(HasRule(r, "subgroups.shuffle.types", Severity::kError)) << Dump(r);
  const ValidationResult down = RunOn("%a = OpSubgroupShuffleDownINTEL %uint %x32 %xf %c1\n");
  EXPECT_TRUE(HasRule(down, "subgroups.shuffle.types", Severity::kError)) << Dump(down);
}

TEST(ValSubgroups, ShuffleIndexMustBe32BitScalar) {
  const ValidationResult r = RunOn("%a = OpSubgroupShuffleXorINTEL %uint %x32 %x16\n");
  EXPECT_TRUE(HasRule(r, "subgroups.shuffle.index", Severity::kError)) << Dump(r);
  const ValidationResult up = RunOn("%a = OpSubgroupShuffleUpINTEL %uint %x32 %x32 %x64\n");
  EXPECT_TRUE(HasRule(up, "subgroups.shuffle.index", Severity::kError)) << Dump(up);
  const ValidationResult ok = RunOn("%a = OpSubgroupShuffleUpINTEL %uint %x32 %x32 %x32\n");
  EXPECT_FALSE(HasRule(ok, "subgroups.shuffle.index", Severity::kError)) << Dump(ok);
}

TEST(ValSubgroups, ShuffleTypeTable) {
  // 64-bit integers only as scalars; 16-bit floats only as scalars (C.3).
  const ValidationResult r = RunOn("%a = OpSubgroupShuffleINTEL %v2ulong %v2ulong_0 %x32\n");
  EXPECT_TRUE(HasRule(r, "subgroups.type.table", Severity::kError)) << Dump(r);
  const ValidationResult h = RunOn("%a = OpSubgroupShuffleINTEL %v2half %v2half_0 %x32\n");
  EXPECT_TRUE(HasRule(h, "subgroups.type.table", Severity::kError)) << Dump(h);
  // The profile "spec" has no table: only the SPIR-V rules apply.
  const ValidationResult spec =
      RunOn("%a = OpSubgroupShuffleINTEL %v2ulong %v2ulong_0 %x32\n", "spec");
  EXPECT_FALSE(HasFamily(spec, Severity::kError)) << Dump(spec);
}

TEST(ValSubgroups, HalfShuffleNeedsFloat16) {
  const ValidationResult r = RunOn("%a = OpSubgroupShuffleINTEL %half %xh %x32\n", "opencl", "");
  EXPECT_TRUE(HasRule(r, "subgroups.type.table", Severity::kError)) << Dump(r);
  // Float16Buffer alone (what the LLVM/SPIR-V Translator declares): a warning.
  const ValidationResult buffer = RunOn("%a = OpSubgroupShuffleINTEL %half %xh %x32\n", "opencl",
                                        "OpCapability Float16Buffer\n");
  EXPECT_TRUE(HasRule(buffer, "subgroups.type.table", Severity::kWarning)) << Dump(buffer);
  EXPECT_FALSE(HasFamily(buffer, Severity::kError)) << Dump(buffer);
}

TEST(ValSubgroups, ShufflesValidateOnPvc) {
  const ValidationResult r =
      RunOn("%a = OpSubgroupShuffleINTEL %v16uchar %v16uchar_0 %x32\n", "pvc");
  EXPECT_FALSE(HasFamily(r, Severity::kError)) << Dump(r);
}

// --- Buffer block IO -----------------------------------------------------------------------------

TEST(ValSubgroups, BlockIoOfSupportedTypesIsValid) {
  const ValidationResult r = RunOn(R"(%a = OpSubgroupBlockReadINTEL %v4uint %p32
%b = OpSubgroupBlockReadINTEL %v16uchar %p8
%c = OpSubgroupBlockReadINTEL %v8ushort %p16
%d = OpSubgroupBlockReadINTEL %ulong %p64
%e = OpSubgroupBlockReadINTEL %uint %plocal
OpSubgroupBlockWriteINTEL %p32 %v4uint_0
OpSubgroupBlockWriteINTEL %p8 %x8
)");
  EXPECT_FALSE(HasFamily(r, Severity::kError)) << Dump(r);
  EXPECT_FALSE(HasFamily(r, Severity::kWarning)) << Dump(r);
}

TEST(ValSubgroups, BlockIoComponentTypeMustBeThePointee) {
  const ValidationResult r = RunOn("%a = OpSubgroupBlockReadINTEL %v4uint %p16\n");
  EXPECT_TRUE(HasRule(r, "subgroups.block.pointee", Severity::kError)) << Dump(r);
  const ValidationResult w = RunOn("OpSubgroupBlockWriteINTEL %p16 %x32\n");
  EXPECT_TRUE(HasRule(w, "subgroups.block.pointee", Severity::kError)) << Dump(w);
  const ValidationResult wide = RunOn("%a = OpSubgroupBlockReadINTEL %v8ushort %p32\n");
  EXPECT_TRUE(HasRule(wide, "subgroups.block.pointee", Severity::kError)) << Dump(wide);
}

// DECISIONS 12: an 8-bit integer pointee is void* as producers spell it; the data type decides.
TEST(ValSubgroups, BlockIoReadsAnEightBitPointeeAsUntyped) {
  const ValidationResult r = RunOn(R"(%a = OpSubgroupBlockReadINTEL %v4uint %p8
%b = OpSubgroupBlockReadINTEL %v8ushort %p8
%c = OpSubgroupBlockReadINTEL %ulong %p8
OpSubgroupBlockWriteINTEL %p8 %x32
OpSubgroupBlockWriteINTEL %p8 %v4uint_0
)");
  EXPECT_FALSE(HasFamily(r, Severity::kError)) << Dump(r);
  EXPECT_FALSE(HasFamily(r, Severity::kWarning)) << Dump(r);
}

TEST(ValSubgroups, BlockIoPointerMustPointToAScalar) {
  const ValidationResult r = RunOn("%a = OpSubgroupBlockReadINTEL %v2uint %pvec\n");
  EXPECT_TRUE(HasRule(r, "subgroups.block.pointee", Severity::kError)) << Dump(r);
  const ValidationResult s = RunOn("%a = OpSubgroupBlockReadINTEL %uint %x32\n");
  EXPECT_TRUE(HasRule(s, "subgroups.block.pointee", Severity::kError)) << Dump(s);
}

TEST(ValSubgroups, BlockIoStorageClass) {
  const ValidationResult r = RunOn("%a = OpSubgroupBlockReadINTEL %uint %pgen\n");
  EXPECT_TRUE(HasRule(r, "subgroups.block.storage-class", Severity::kError)) << Dump(r);
  // Environment rule (C.3): not on the profile "spec".
  const ValidationResult spec = RunOn("%a = OpSubgroupBlockReadINTEL %uint %pgen\n", "spec");
  EXPECT_FALSE(HasRule(spec, "subgroups.block.storage-class", Severity::kError)) << Dump(spec);
}

TEST(ValSubgroups, BlockIoTypeTable) {
  // No 3- or 16-vectors of 32-bit (C.3).
  const ValidationResult r = RunOn("%a = OpSubgroupBlockReadINTEL %v16uint %p32\n");
  EXPECT_TRUE(HasRule(r, "subgroups.type.table", Severity::kError)) << Dump(r);
  const ValidationResult w = RunOn("OpSubgroupBlockWriteINTEL %p32 %v3uint_0\n");
  EXPECT_TRUE(HasRule(w, "subgroups.type.table", Severity::kError)) << Dump(w);
}

TEST(ValSubgroups, BlockIoOf16ShortsIsAConvention) {
  // G.7: accepted with a warning.
  const ValidationResult r = RunOn("%a = OpSubgroupBlockReadINTEL %v16ushort %p16\n");
  EXPECT_TRUE(HasRule(r, "subgroups.type.table", Severity::kWarning)) << Dump(r);
  EXPECT_FALSE(HasFamily(r, Severity::kError)) << Dump(r);
}

// --- Image block IO ------------------------------------------------------------------------------

TEST(ValSubgroups, ImageBlockIoIsValid) {
  const ValidationResult r = RunOn(R"(%a = OpSubgroupImageBlockReadINTEL %v4uint %im %coord
%b = OpSubgroupImageBlockReadINTEL %v16uchar %im %coord
OpSubgroupImageBlockWriteINTEL %imw %coord %v8ushort_0
)");
  EXPECT_FALSE(HasFamily(r, Severity::kError)) << Dump(r);
}

TEST(ValSubgroups, ImageBlockIoOperands) {
  const ValidationResult dim = RunOn("%a = OpSubgroupImageBlockReadINTEL %uint %im3d %coord\n");
  EXPECT_TRUE(HasRule(dim, "subgroups.image.operands", Severity::kError)) << Dump(dim);
  const ValidationResult coord = RunOn("%a = OpSubgroupImageBlockReadINTEL %uint %im %coord3\n");
  EXPECT_TRUE(HasRule(coord, "subgroups.image.operands", Severity::kError)) << Dump(coord);
  const ValidationResult not_image =
      RunOn("%a = OpSubgroupImageBlockReadINTEL %uint %p32 %coord\n");
  EXPECT_TRUE(HasRule(not_image, "subgroups.image.operands", Severity::kError)) << Dump(not_image);
}

TEST(ValSubgroups, ImageBlockIoTypeTable) {
  const ValidationResult r = RunOn("OpSubgroupImageBlockWriteINTEL %imw %coord %v4float_0\n");
  EXPECT_TRUE(HasRule(r, "subgroups.type.table", Severity::kError)) << Dump(r);
}

// --- 8/16-bit OpGroup* ---------------------------------------------------------------------------

TEST(ValSubgroups, EightBitGroupOpsAtSubgroupScopeAreValid) {
  const ValidationResult r = RunOn(R"(%a = OpGroupBroadcast %uchar %sg %x8 %c1
%b = OpGroupIAdd %uchar %sg Reduce %x8
%c = OpGroupSMin %uchar %sg InclusiveScan %x8
%d = OpGroupUMax %uchar %sg Reduce %x8
%e = OpGroupIAdd %ushort %sg ExclusiveScan %x16
%f = OpGroupIAdd %uint %wg Reduce %x32
)");
  EXPECT_FALSE(HasFamily(r, Severity::kError)) << Dump(r);
  EXPECT_FALSE(HasFamily(r, Severity::kWarning)) << Dump(r);
}

TEST(ValSubgroups, EightBitGroupOpsNeedSubgroupScope) {
  const ValidationResult r = RunOn("%a = OpGroupIAdd %uchar %wg Reduce %x8\n");
  EXPECT_TRUE(HasRule(r, "subgroups.group8.scope", Severity::kError)) << Dump(r);
  // Not a constant.
  const ValidationResult v = RunOn("%a = OpGroupBroadcast %uchar %x32 %x8 %c1\n");
  EXPECT_TRUE(HasRule(v, "subgroups.group8.scope", Severity::kError)) << Dump(v);
  // The 16-bit row (cl_intel_subgroups_short) has its own id.
  const ValidationResult s = RunOn("%a = OpGroupIAdd %ushort %wg Reduce %x16\n");
  EXPECT_TRUE(HasRule(s, "subgroups.group16.scope", Severity::kError)) << Dump(s);
  EXPECT_FALSE(HasRule(s, "subgroups.group8.scope", Severity::kError)) << Dump(s);
  // 32-bit group ops are left to the core rules.
  const ValidationResult w = RunOn("%a = OpGroupIAdd %uint %wg Reduce %x32\n");
  EXPECT_FALSE(HasFamily(w, Severity::kError)) << Dump(w);
}

TEST(ValSubgroups, EightBitGroupOpsAreScalarOnly) {
  const ValidationResult r = RunOn("%a = OpGroupBroadcast %v2uchar %sg %v2uchar_0 %c1\n");
  EXPECT_TRUE(HasRule(r, "subgroups.type.table", Severity::kError)) << Dump(r);
}

TEST(ValSubgroups, EightBitExclusiveScanIsAConvention) {
  const ValidationResult r = RunOn("%a = OpGroupUMin %uchar %sg ExclusiveScan %x8\n");
  EXPECT_TRUE(HasRule(r, "subgroups.type.table", Severity::kWarning)) << Dump(r);
  EXPECT_FALSE(HasFamily(r, Severity::kError)) << Dump(r);
}

TEST(ValSubgroups, EightBitNeedsTheCharFeature) {
  device::DeviceProfile profile = *device::FindBuiltinProfile("opencl");
  profile.subgroup_type_features = {"short", "long"};
  ValidatorOptions options;
  options.device = &profile;
  const ValidationResult r =
      Validate(Assemble(Kernel("%a = OpGroupIAdd %uchar %sg Reduce %x8\n"
                               "%b = OpSubgroupShuffleINTEL %uchar %x8 %x32\n")),
               options);
  EXPECT_TRUE(HasRule(r, "subgroups.type.table", Severity::kError)) << Dump(r);
  size_t errors = 0;
  for (const Diagnostic& d : r.diagnostics) errors += d.rule == "subgroups.type.table";
  EXPECT_EQ(errors, 2u) << Dump(r);
}

// --- Malformed input -----------------------------------------------------------------------------

TEST(ValSubgroups, UndefinedOperandsDoNotCrash) {
  // Ids of the wrong kind: a type as data, a constant as pointer or image.
  const ValidationResult r = RunOn(R"(%a = OpSubgroupShuffleINTEL %uint %uint %void
%b = OpSubgroupBlockReadINTEL %uint %c1
%c = OpSubgroupImageBlockReadINTEL %uint %c1 %c1
%d = OpGroupIAdd %uchar %uchar Reduce %x8
)");
  EXPECT_FALSE(r.valid);
}

// --- The Intel subgroup kernels of the corpus ----------------------------------------------------

std::vector<uint32_t> ReadWords(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

TEST(ValSubgroups, CorpusIntelSubgroupKernelsAreValid) {
  const std::filesystem::path dir = std::filesystem::path(XMX_TEST_DIR) / "corpus" / "spv";
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("intel_", 0) != 0 || entry.path().extension() != ".spv") continue;
    if (name.find(".spirv15.") == std::string::npos && name.find(".llc22.") == std::string::npos) {
      continue;
    }
    const std::vector<uint32_t> words = ReadWords(entry.path());
    for (const char* device : {"opencl", "pvc"}) {
      ValidatorOptions options;
      options.device = device::FindBuiltinProfile(device);
      const ValidationResult r = Validate(words, options);
      // The SG8 kernels require a size Xe-HPC does not have: that, and only that, is an error.
      if (std::string(device) == "pvc" && name.find("_sg8.") != std::string::npos) {
        EXPECT_FALSE(r.valid) << name << " on " << device;
        EXPECT_EQ(CountRule(r, "subgroups.size", Severity::kError), 1) << name << ":\n" << Dump(r);
        continue;
      }
      EXPECT_TRUE(r.valid) << name << " on " << device << ":\n" << Dump(r);
      EXPECT_FALSE(HasFamily(r, Severity::kError)) << name << " on " << device;
    }
    ++checked;
  }
  EXPECT_GE(checked, 20u);
}

}  // namespace
}  // namespace xmx::val
