// Rules coop.*: the device-independent cooperative-matrix rules, on the points the invalid
// modules of test/coop/invalid_rules do not show: what must be accepted (null constants as 0,
// specialization constants, Workgroup scope with a LocalSize, PackedINTEL without a Stride,
// a prefetch without one) and what the messages name.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "val_test_support.hpp"
#include "xmx/validator.hpp"

namespace xmx::val {
namespace {

using testing::Assemble;
using testing::CountRule;
using testing::Dump;
using testing::HasRule;

struct Spec {
  std::string capabilities;  // beyond Kernel, Addresses, Int8, Int16, Int64, CooperativeMatrixKHR
  std::string modes;         // execution modes of %k
  std::string constants;     // after the common constants
  // The three matrix types %A, %B, %C (int8 8x32, 32x16, i32 8x16 accumulator by default).
  std::string a_type = "%A = OpTypeCooperativeMatrixKHR %uchar %u3 %u8 %u32 %null";
  std::string b_type = "%B = OpTypeCooperativeMatrixKHR %uchar %u3 %u32 %u16 %u1";
  std::string c_type = "%C = OpTypeCooperativeMatrixKHR %uint %u3 %u8 %u16 %u2";
  std::string body;  // instructions of the kernel's only block
};

std::string Module(const Spec& s) {
  return R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability CooperativeMatrixKHR
)" + s.capabilities +
         R"(OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_INTEL_joint_matrix"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
)" + s.modes +
         R"(OpName %p "p"
OpName %stride "stride"
%uchar = OpTypeInt 8 0
%ushort = OpTypeInt 16 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%void = OpTypeVoid
%ptr = OpTypePointer CrossWorkgroup %uchar
%fn = OpTypeFunction %void %ptr %ulong
%null = OpConstantNull %uint
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u8 = OpConstant %uint 8
%u16 = OpConstant %uint 16
%u32 = OpConstant %uint 32
)" + s.constants +
         s.a_type + "\n" + s.b_type + "\n" + s.c_type + R"(
%k = OpFunction %void None %fn
%p = OpFunctionParameter %ptr
%stride = OpFunctionParameter %ulong
%entry = OpLabel
)" + s.body +
         R"(
OpReturn
OpFunctionEnd
)";
}

ValidationResult ValidateCoop(const Spec& spec) { return Validate(Assemble(Module(spec)), {}); }

int CoopErrors(const ValidationResult& r) {
  int n = 0;
  for (const Diagnostic& d : r.diagnostics) {
    n += d.rule.rfind("coop.", 0) == 0 && d.severity == Severity::kError;
  }
  return n;
}

// A GEMM step: load A and B, fill C with zero, multiply-add, store.
const char* kGemm = R"(%a = OpCooperativeMatrixLoadKHR %A %p %null %stride
%b = OpCooperativeMatrixLoadKHR %B %p %null %stride
%c = OpCompositeConstruct %C %null
%d = OpCooperativeMatrixMulAddKHR %C %a %b %c MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR|SaturatingAccumulationKHR
OpCooperativeMatrixStoreKHR %p %d %null %stride)";

TEST(ValCoop, ValidGemmHasNoCoopError) {
  Spec spec;
  spec.body = kGemm;
  const ValidationResult r = ValidateCoop(spec);
  EXPECT_EQ(CoopErrors(r), 0) << Dump(r);
}

TEST(ValCoop, NullLayoutIsRowMajorAndNeedsAStride) {
  Spec spec;
  spec.body = "%a = OpCooperativeMatrixLoadKHR %A %p %null";
  const ValidationResult r = ValidateCoop(spec);
  ASSERT_EQ(CountRule(r, "coop.stride.required", Severity::kError), 1) << Dump(r);
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule == "coop.stride.required") {
      EXPECT_NE(d.message.find("OpCooperativeMatrixLoadKHR"), std::string::npos) << d.message;
      EXPECT_NE(d.message.find("RowMajorKHR"), std::string::npos) << d.message;
    }
  }
}

TEST(ValCoop, PackedLayoutNeedsNoStrideButItsCapability) {
  Spec spec;
  spec.body = "%b = OpCooperativeMatrixLoadKHR %B %p %u2";
  ValidationResult r = ValidateCoop(spec);
  EXPECT_TRUE(HasRule(r, "coop.layout.capability", Severity::kError)) << Dump(r);
  EXPECT_FALSE(HasRule(r, "coop.stride.required", Severity::kError)) << Dump(r);

  spec.capabilities = "OpCapability PackedCooperativeMatrixINTEL\n";
  r = ValidateCoop(spec);
  EXPECT_EQ(CoopErrors(r), 0) << Dump(r);
}

TEST(ValCoop, PrefetchNeedsNoStride) {
  Spec spec;
  spec.capabilities = "OpCapability CooperativeMatrixPrefetchINTEL\n";
  spec.body = "OpCooperativeMatrixPrefetchINTEL %p %u8 %u32 0 %null";
  const ValidationResult r = ValidateCoop(spec);
  EXPECT_EQ(CoopErrors(r), 0) << Dump(r);
}

TEST(ValCoop, SpecializationConstantDimensionsAreNotCompared) {
  Spec spec;
  spec.constants = "%k16 = OpSpecConstant %uint 16\n";
  spec.a_type = "%A = OpTypeCooperativeMatrixKHR %uchar %u3 %u8 %k16 %null";
  spec.body = kGemm;
  ValidationResult r = ValidateCoop(spec);
  EXPECT_EQ(CoopErrors(r), 0) << Dump(r);

  spec.constants = "%k16 = OpConstant %uint 16\n";
  r = ValidateCoop(spec);
  ASSERT_EQ(CountRule(r, "coop.muladd.k", Severity::kError), 1) << Dump(r);
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule == "coop.muladd.k") {
      EXPECT_NE(d.message.find("A columns 16, B rows 32"), std::string::npos) << d.message;
    }
  }
}

TEST(ValCoop, WorkgroupScopeNeedsALocalSizeDefinedBeforeTheType) {
  Spec spec;
  spec.c_type = "%C = OpTypeCooperativeMatrixKHR %uint %u2 %u8 %u16 %u2";
  ValidationResult r = ValidateCoop(spec);
  EXPECT_EQ(CountRule(r, "coop.type.workgroup", Severity::kError), 1) << Dump(r);

  spec.modes = "OpExecutionMode %k LocalSize 16 1 1\n";
  r = ValidateCoop(spec);
  EXPECT_EQ(CoopErrors(r), 0) << Dump(r);

  // LocalSizeId's constants must come before the type (upstream's rule).
  spec.modes = "OpExecutionModeId %k LocalSizeId %u16 %u1 %late\n";
  spec.b_type += "\n%late = OpConstant %uint 1";
  std::swap(spec.b_type, spec.c_type);  // %C (Workgroup), then %B and %late
  r = ValidateCoop(spec);
  ASSERT_EQ(CountRule(r, "coop.type.workgroup", Severity::kError), 1) << Dump(r);
  EXPECT_NE(Dump(r).find(", a LocalSizeId operand of entry point"), std::string::npos) << Dump(r);
}

TEST(ValCoop, IntelBfloat16BitsReadIntegersOnly) {
  Spec spec;
  spec.capabilities =
      "OpCapability CooperativeMatrixBFloat16ComponentTypeINTEL\n"
      "OpCapability BFloat16TypeKHR\nOpCapability BFloat16CooperativeMatrixKHR\n";
  spec.constants = "%bf16 = OpTypeFloat 16 BFloat16KHR\n";
  spec.a_type = "%A = OpTypeCooperativeMatrixKHR %ushort %u3 %u8 %u16 %null";
  spec.b_type = "%B = OpTypeCooperativeMatrixKHR %ushort %u3 %u16 %u16 %u1";
  spec.c_type = "%C = OpTypeCooperativeMatrixKHR %float %u3 %u8 %u16 %u2";
  spec.body = R"(%a = OpCooperativeMatrixLoadKHR %A %p %null %stride
%b = OpCooperativeMatrixLoadKHR %B %p %null %stride
%c = OpCompositeConstruct %C %zero
%d = OpCooperativeMatrixMulAddKHR %C %a %b %c MatrixAAndBBFloat16ComponentsINTEL)";
  spec.constants += "%zero = OpConstantNull %float\n";
  ValidationResult r = ValidateCoop(spec);
  EXPECT_EQ(CoopErrors(r), 0) << Dump(r);

  // The same bit on KHR bfloat16 components: they are floats, which the bit does not read.
  spec.a_type = "%A = OpTypeCooperativeMatrixKHR %bf16 %u3 %u8 %u16 %null";
  spec.b_type = "%B = OpTypeCooperativeMatrixKHR %bf16 %u3 %u16 %u16 %u1";
  r = ValidateCoop(spec);
  EXPECT_EQ(CountRule(r, "coop.operands.bf16", Severity::kError), 1) << Dump(r);
}

TEST(ValCoop, MessagesNameTheInstructionAndTheOperand) {
  Spec spec;
  spec.body = "%a = OpCooperativeMatrixLoadKHR %A %stride %null %stride";
  const ValidationResult r = ValidateCoop(spec);
  ASSERT_EQ(CountRule(r, "coop.pointer.type", Severity::kError), 1) << Dump(r);
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule != "coop.pointer.type") continue;
    EXPECT_EQ(d.message, "Pointer %stride (i64) of OpCooperativeMatrixLoadKHR must be a pointer");
    EXPECT_EQ(d.opcode, static_cast<uint32_t>(spv::Op::OpCooperativeMatrixLoadKHR));
  }
}

// DPC++ reaches an element through an access chain into a Function variable holding the matrix.
TEST(ValCoop, AccessChainsIntoAMatrixReachOneElement) {
  Spec spec;
  spec.c_type +=
      "\n%ptrC = OpTypePointer Function %C\n%ptrU = OpTypePointer Function %uint"
      "\n%ptrL = OpTypePointer Function %ulong";
  const std::string fill =
      "%var = OpVariable %ptrC Function\n%c = OpCompositeConstruct %C %u1\n"
      "OpStore %var %c\n";
  spec.body = fill +
              "%e = OpAccessChain %ptrU %var %u2\n"
              "%f = OpInBoundsPtrAccessChain %ptrU %var %null %u3";
  ValidationResult r = ValidateCoop(spec);
  EXPECT_EQ(CoopErrors(r), 0) << Dump(r);

  spec.body = fill + "%e = OpPtrAccessChain %ptrU %var %null %u2 %u1";
  r = ValidateCoop(spec);
  EXPECT_EQ(CountRule(r, "coop.access-chain.index", Severity::kError), 1) << Dump(r);

  spec.body = fill + "%e = OpAccessChain %ptrL %var %u2";
  r = ValidateCoop(spec);
  EXPECT_EQ(CountRule(r, "coop.access-chain.type", Severity::kError), 1) << Dump(r);
}

}  // namespace
}  // namespace xmx::val
