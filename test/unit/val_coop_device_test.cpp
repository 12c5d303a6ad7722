// Rules coop.device.*: OpCooperativeMatrixMulAddKHR against the device's cooperative_matrix rows,
// with the element types read as COOPERATIVE-MATRIX.md A4 says Intel's compiler reads them.
// Expected verdicts come from A3's lists, written by hand.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "val_test_support.hpp"
#include "xmx/device.hpp"
#include "xmx/validator.hpp"

namespace xmx::val {
namespace {

using testing::Assemble;
using testing::CountRule;
using testing::Dump;
using testing::HasRule;

struct MulAdd {
  // Component type ids: %i8 %i16 %i32 %f16 %f32 %bf16 (OpTypeFloat 16 BFloat16KHR).
  std::string a = "%i16", b = "%i16", c = "%f32", d = "%f32";
  int m = 8, n = 16, k = 16;
  std::string operands = "MatrixAAndBBFloat16ComponentsINTEL";
  std::string execution_mode = "OpExecutionMode %k SubgroupSize 16";
};

std::string Module(const MulAdd& s) {
  const bool same_cd = s.c == s.d;
  return R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int16
OpCapability Int8
OpCapability Float16
OpCapability SubgroupDispatch
OpCapability BFloat16TypeKHR
OpCapability BFloat16CooperativeMatrixKHR
OpCapability CooperativeMatrixKHR
OpCapability CooperativeMatrixBFloat16ComponentTypeINTEL
OpExtension "SPV_KHR_bfloat16"
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_INTEL_joint_matrix"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
)" + s.execution_mode +
         R"(
%void = OpTypeVoid
%i8 = OpTypeInt 8 0
%i16 = OpTypeInt 16 0
%i32 = OpTypeInt 32 0
%f16 = OpTypeFloat 16
%f32 = OpTypeFloat 32
%bf16 = OpTypeFloat 16 BFloat16KHR
%ptr = OpTypePointer CrossWorkgroup %i8
%fnty = OpTypeFunction %void %ptr
%scope = OpConstant %i32 3
%cm = OpConstant %i32 )" +
         std::to_string(s.m) + "\n%cn = OpConstant %i32 " + std::to_string(s.n) +
         "\n%ck = OpConstant %i32 " + std::to_string(s.k) + R"(
%ua = OpConstant %i32 0
%ub = OpConstant %i32 1
%uacc = OpConstant %i32 2
%stride = OpConstant %i32 64
%MA = OpTypeCooperativeMatrixKHR )" +
         s.a + " %scope %cm %ck %ua\n%MB = OpTypeCooperativeMatrixKHR " + s.b +
         " %scope %ck %cn %ub\n%MC = OpTypeCooperativeMatrixKHR " + s.c +
         " %scope %cm %cn %uacc\n" +
         (same_cd ? "" : "%MD = OpTypeCooperativeMatrixKHR " + s.d + " %scope %cm %cn %uacc\n") +
         R"(%k = OpFunction %void None %fnty
%p = OpFunctionParameter %ptr
%entry = OpLabel
%a = OpCooperativeMatrixLoadKHR %MA %p %ua %stride
%b = OpCooperativeMatrixLoadKHR %MB %p %ua %stride
%c = OpCooperativeMatrixLoadKHR %MC %p %ua %stride
%d = OpCooperativeMatrixMulAddKHR )" +
         (same_cd ? "%MC" : "%MD") + " %a %b %c " + s.operands + R"(
OpCooperativeMatrixStoreKHR %p %d %ua %stride
OpReturn
OpFunctionEnd
)";
}

ValidationResult ValidateOn(const MulAdd& s, const char* device) {
  ValidatorOptions options;
  options.device = device::FindBuiltinProfile(device);
  EXPECT_NE(options.device, nullptr);
  return Validate(Assemble(Module(s)), options);
}

int DeviceErrors(const ValidationResult& r) {
  int n = 0;
  for (const Diagnostic& d : r.diagnostics) {
    n += d.rule.rfind("coop.device.", 0) == 0 && d.severity == Severity::kError;
  }
  return n;
}

TEST(ValCoopDeviceTest, JointMatrixShapesTheNativeTableLacks) {
  for (int m : {1, 3, 5, 8}) {
    MulAdd s;
    s.m = m;
    ValidationResult r = ValidateOn(s, "pvc");
    EXPECT_EQ(DeviceErrors(r), 0) << m << "\n" << Dump(r);
  }
  MulAdd big;
  big.m = 32;
  big.n = 64;
  EXPECT_EQ(DeviceErrors(ValidateOn(big, "pvc")), 0);
  MulAdd sg8;
  sg8.m = 32;
  sg8.n = 32;
  sg8.execution_mode = "OpExecutionMode %k SubgroupSize 8";
  EXPECT_EQ(DeviceErrors(ValidateOn(sg8, "dg2")), 0) << Dump(ValidateOn(sg8, "dg2"));
  EXPECT_TRUE(HasRule(ValidateOn(sg8, "pvc"), "coop.device.shape", Severity::kError));
}

TEST(ValCoopDeviceTest, ElementTypesAreReadAsIntelsCompilerReadsThem) {
  MulAdd khr;  // KHR bfloat16 components need no operand bit
  khr.a = khr.b = "%bf16";
  khr.operands = "";
  EXPECT_EQ(DeviceErrors(ValidateOn(khr, "pvc")), 0) << Dump(ValidateOn(khr, "pvc"));
  MulAdd plain = khr;  // 16-bit integers without bits are bf16 too
  plain.a = plain.b = "%i16";
  EXPECT_EQ(DeviceErrors(ValidateOn(plain, "pvc")), 0);
  MulAdd tf32;  // fp32 A and B multiply as tf32: K 8 only
  tf32.a = tf32.b = "%f32";
  tf32.operands = "";
  tf32.k = 8;
  EXPECT_EQ(DeviceErrors(ValidateOn(tf32, "pvc")), 0);
  tf32.k = 16;
  ValidationResult r = ValidateOn(tf32, "pvc");
  ASSERT_TRUE(HasRule(r, "coop.device.shape", Severity::kError)) << Dump(r);
  MulAdd int8;
  int8.a = int8.b = "%i8";
  int8.c = int8.d = "%i32";
  int8.k = 32;
  for (const char* bits : {"", "MatrixASignedComponentsKHR", "MatrixBSignedComponentsKHR",
                           "MatrixASignedComponentsKHR|MatrixBSignedComponentsKHR"}) {
    int8.operands = bits;
    EXPECT_EQ(DeviceErrors(ValidateOn(int8, "pvc")), 0) << bits;
  }
  int8.c = int8.d = "%f32";
  r = ValidateOn(int8, "pvc");
  EXPECT_EQ(CountRule(r, "coop.device.types", Severity::kError), 1) << Dump(r);
}

TEST(ValCoopDeviceTest, MessagesListWhatTheDeviceSupports) {
  MulAdd s;
  s.c = "%f16";  // fp16 accumulator with bf16 A/B: in no row
  ValidationResult r = ValidateOn(s, "pvc");
  bool found = false;
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule != "coop.device.types") continue;
    found = true;
    EXPECT_EQ(d.message,
              "Matrix C type fp16 is not supported for A bf16, B bf16 by "
              "OpCooperativeMatrixMulAddKHR on device pvc; supported: bf16, fp32 (the operands "
              "read as A bf16, B bf16, C fp16, D fp32, COOPERATIVE-MATRIX A4)");
  }
  EXPECT_TRUE(found) << Dump(r);
}

TEST(ValCoopDeviceTest, SubgroupSizeOfEveryKernelThatReachesIt) {
  MulAdd s;
  s.execution_mode = "";  // pvc runs it at 16 or 32; the rows are for 16
  ValidationResult r = ValidateOn(s, "pvc");
  EXPECT_TRUE(HasRule(r, "coop.device.subgroup-size", Severity::kError)) << Dump(r);
  ValidatorOptions options;
  options.device = device::FindBuiltinProfile("pvc");
  options.subgroup_size = 16;
  r = Validate(Assemble(Module(s)), options);
  EXPECT_EQ(DeviceErrors(r), 0) << Dump(r);
}

TEST(ValCoopDeviceTest, MatrixTypesNoRowCanTake) {
  MulAdd s;
  // bf16 with K 32 is only in the 1x64x32 and 32x64x32 tiles: neither A 8x32 nor B 32x16 fits a
  // row, and the multiply-add's shape is in none.
  s.k = 32;
  ValidationResult r = ValidateOn(s, "pvc");
  EXPECT_TRUE(HasRule(r, "coop.device.type-shape", Severity::kError)) << Dump(r);
  EXPECT_TRUE(HasRule(r, "coop.device.shape", Severity::kError)) << Dump(r);
}

TEST(ValCoopDeviceTest, TablelessAndTableFreeDevices) {
  MulAdd s;
  s.m = 24;  // in no row anywhere
  for (const char* device : {"spec", "opencl"}) {
    EXPECT_EQ(DeviceErrors(ValidateOn(s, device)), 0) << device;
  }
  std::optional<device::DeviceProfile> none = device::LoadProfileText(
      R"({"name": "nojm", "base": "pvc", "cooperative_matrix": "none"})", "nojm.json", nullptr);
  ASSERT_TRUE(none);
  ValidatorOptions options;
  options.device = &*none;
  ValidationResult r = Validate(Assemble(Module(MulAdd{})), options);
  // The three loads, the multiply-add and the store each say the device has none.
  EXPECT_EQ(CountRule(r, "coop.device.unsupported", Severity::kError), 5) << Dump(r);
}

TEST(ValCoopDeviceTest, ConventionRowsWarn) {
  ValidationResult r = ValidateOn(MulAdd{}, "xe3p");
  EXPECT_EQ(DeviceErrors(r), 0) << Dump(r);
  EXPECT_EQ(CountRule(r, "coop.device.convention", Severity::kWarning), 1) << Dump(r);
}

}  // namespace
}  // namespace xmx::val
