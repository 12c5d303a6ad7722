// The mma.* rules of xmx-val: static rules of SPV_INTEL_subgroup_matrix_multiply_accumulate
// (SPEC-NOTES B.2, B.3) on every device, table rules (B.5, B.8, DECISIONS 10, 11) per device, and
// the LLVM-made row modules of test/val/rows (kind "mma").
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
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

// Any mma.* diagnostic of that severity.
bool HasMmaDiagnostic(const ValidationResult& r, Severity severity) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule.rfind("mma.", 0) == 0 && d.severity == severity) return true;
  }
  return false;
}

// One matrix multiply-accumulate in a kernel. Types are named %<count><scalar> for vectors
// (%v8uint, %v4ushort, %v3float, ...) or the scalar (%uint, %ushort, %float, %half, %bool).
struct Mad {
  std::string subgroup_size = "16";
  std::string result = "%v8uint", a = "%v8ushort", b = "%v8uint", c = "%v8uint";
  std::string k = "%uint 32";  // the K Dim constant's type and value
  bool k_constant = true;
  std::string operands =
      "MatrixASignedComponentsINTEL|MatrixBSignedComponentsINTEL|"
      "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL";
  std::string extensions;
  bool uncalled = false;  // put the instruction in a function no entry point reaches

  std::string Text() const {
    std::string types;
    for (const char* scalar : {"uint", "ushort", "float", "half"}) {
      for (int n : {2, 3, 4, 8, 16}) {
        types += "%v" + std::to_string(n) + scalar + " = OpTypeVector %" + scalar + " " +
                 std::to_string(n) + "\n";
      }
    }
    std::string k_use = k_constant ? "%kdim" : "%kvar";
    std::string body = std::string(k_constant ? "" : "%kvar = OpIAdd %uint %kdim %kdim\n") +
                       "%r = " + "OpSubgroupMatrixMultiplyAccumulateINTEL " + result + " " + k_use +
                       " %a %b %c " + operands + "\n";
    std::string kernel_body = uncalled ? "" : body;
    std::string helper = uncalled ? "%f = OpFunction %void None %fn\n%fentry = OpLabel\n" + body +
                                        "OpReturn\nOpFunctionEnd\n"
                                  : "";
    return "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int16\n"
           "OpCapability Int64\nOpCapability Float16\nOpCapability Vector16\n"
           "OpCapability SubgroupDispatch\n"
           "OpCapability SubgroupMatrixMultiplyAccumulateINTEL\n"
           "OpExtension \"SPV_INTEL_subgroup_matrix_multiply_accumulate\"\n" +
           extensions +
           "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n"
           "OpExecutionMode %k SubgroupSize " +
           subgroup_size +
           "\n%void = OpTypeVoid\n%bool = OpTypeBool\n%uint = OpTypeInt 32 0\n"
           "%ushort = OpTypeInt 16 0\n%ulong = OpTypeInt 64 0\n%float = OpTypeFloat 32\n"
           "%half = OpTypeFloat 16\n" +
           types + "%fn = OpTypeFunction %void\n%kdim = OpConstant " + k + "\n" +
           "%a = OpConstantNull " + a + "\n%b = OpConstantNull " + b + "\n%c = OpConstantNull " +
           c + "\n%k = OpFunction %void None %fn\n%entry = OpLabel\n" + kernel_body +
           "OpReturn\nOpFunctionEnd\n" + helper;
  }
};

ValidationResult ValidateMad(const Mad& mad, std::string_view device,
                             std::optional<uint32_t> subgroup_size = {}) {
  ValidatorOptions options;
  options.device = device::FindBuiltinProfile(device);
  EXPECT_NE(options.device, nullptr) << device;
  options.subgroup_size = subgroup_size;
  return Validate(Assemble(mad.Text()), options);
}

const char* kInt8 =
    "MatrixASignedComponentsINTEL|MatrixBSignedComponentsINTEL|MatrixAPackedInt8INTEL|"
    "MatrixBPackedInt8INTEL";
const char* kFp16 = "MatrixAPackedFloat16INTEL|MatrixBPackedFloat16INTEL";

// --- Rows that are fine -----------------------------------------------------------------------

TEST(ValMatrixMad, TableRowsAreValid) {
  EXPECT_TRUE(ValidateMad(Mad{}, "pvc").valid) << Dump(ValidateMad(Mad{}, "pvc"));
  EXPECT_TRUE(ValidateMad(Mad{}, "opencl").valid);
  EXPECT_TRUE(ValidateMad(Mad{}, "spec").valid);
  Mad sg8{.subgroup_size = "8", .a = "%v8uint"};
  const ValidationResult r = ValidateMad(sg8, "dg2");
  EXPECT_TRUE(r.valid) << Dump(r);
  EXPECT_FALSE(HasMmaDiagnostic(r, Severity::kWarning)) << Dump(r);
  Mad tf32{.result = "%v8float",
           .a = "%v4float",
           .b = "%v8float",
           .c = "%v8float",
           .k = "%uint 8",
           .operands = "MatrixATF32INTEL|MatrixBTF32INTEL"};
  EXPECT_TRUE(ValidateMad(tf32, "pvc").valid) << Dump(ValidateMad(tf32, "pvc"));
}

// --- Static rules ------------------------------------------------------------------------------

TEST(ValMatrixMad, ResultTypeMustBeIntOrFloat) {
  Mad mad{.result = "%bool"};
  const ValidationResult r = ValidateMad(mad, "spec");
  EXPECT_TRUE(HasRule(r, "mma.result-type", Severity::kError)) << Dump(r);
  EXPECT_FALSE(HasRule(ValidateMad(Mad{}, "spec"), "mma.result-type", Severity::kError));
}

TEST(ValMatrixMad, OperandsMustBeIntOrFloat) {
  Mad mad{.b = "%bool"};
  const ValidationResult r = ValidateMad(mad, "spec");
  EXPECT_TRUE(HasRule(r, "mma.operand-type", Severity::kError)) << Dump(r);
  EXPECT_FALSE(HasRule(ValidateMad(Mad{}, "spec"), "mma.operand-type", Severity::kError));
}

TEST(ValMatrixMad, KDimMustBeA32BitConstant) {
  Mad nonconst{.k_constant = false};
  const ValidationResult r = ValidateMad(nonconst, "spec");
  EXPECT_TRUE(HasRule(r, "mma.k-dim.constant", Severity::kError)) << Dump(r);
  Mad wide{.k = "%ulong 32"};
  EXPECT_TRUE(HasRule(ValidateMad(wide, "spec"), "mma.k-dim.constant", Severity::kError));
  EXPECT_FALSE(HasRule(ValidateMad(Mad{}, "spec"), "mma.k-dim.constant", Severity::kError));
}

TEST(ValMatrixMad, ResultTypeMustEqualC) {
  Mad mad{.result = "%v8float", .c = "%v8half", .k = "%uint 16", .operands = kFp16};
  const ValidationResult on_table = ValidateMad(mad, "pvc");
  EXPECT_TRUE(HasRule(on_table, "mma.result-equals-c", Severity::kError)) << Dump(on_table);
  const ValidationResult on_spec = ValidateMad(mad, "spec");
  EXPECT_TRUE(HasRule(on_spec, "mma.result-equals-c", Severity::kWarning)) << Dump(on_spec);
  EXPECT_TRUE(on_spec.valid) << Dump(on_spec);
  EXPECT_EQ(CountRule(ValidateMad(Mad{}, "pvc"), "mma.result-equals-c", Severity::kError), 0);
}

TEST(ValMatrixMad, OperandBitsMustFitTheTypes) {
  auto fires = [](Mad mad) {
    return HasRule(ValidateMad(mad, "spec"), "mma.operands.consistent", Severity::kError);
  };
  // Signed without a packed integer interpretation.
  EXPECT_TRUE(fires(Mad{.operands = "MatrixASignedComponentsINTEL|MatrixAPackedFloat16INTEL|"
                                    "MatrixBPackedFloat16INTEL"}));
  // Two interpretations of A.
  EXPECT_TRUE(fires(Mad{.operands = "MatrixAPackedInt8INTEL|MatrixAPackedInt4INTEL|"
                                    "MatrixBPackedInt8INTEL"}));
  // bf16 Result with float Result Type.
  EXPECT_TRUE(fires(Mad{.result = "%v8float",
                        .c = "%v8float",
                        .operands = "MatrixResultBFloat16INTEL|MatrixAPackedBFloat16INTEL|"
                                    "MatrixBPackedBFloat16INTEL"}));
  // tf32 with integer A.
  EXPECT_TRUE(fires(Mad{.operands = "MatrixATF32INTEL|MatrixBTF32INTEL"}));
  // Packed with float A.
  EXPECT_TRUE(fires(Mad{.a = "%v8float", .operands = kInt8}));
  // Scale bits belong to the scaled instruction.
  EXPECT_TRUE(fires(Mad{.operands = std::string(kInt8) + "|ScaleAFloat8E8M0INTEL"}));
  // Consistent: int8, bf16 with short C/Result, tf32.
  EXPECT_FALSE(fires(Mad{}));
  EXPECT_FALSE(fires(Mad{.result = "%v8ushort",
                         .c = "%v8ushort",
                         .k = "%uint 16",
                         .operands = "MatrixCBFloat16INTEL|MatrixResultBFloat16INTEL|"
                                     "MatrixAPackedBFloat16INTEL|MatrixBPackedBFloat16INTEL"}));
}

// --- Table rules -------------------------------------------------------------------------------

TEST(ValMatrixMad, KDimMustBeInTheTable) {
  Mad mad{.k = "%uint 42"};
  const ValidationResult r = ValidateMad(mad, "pvc");
  ASSERT_TRUE(HasRule(r, "mma.k-dim.table", Severity::kError)) << Dump(r);
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule == "mma.k-dim.table") {
      EXPECT_NE(d.message.find("K Dim 42"), std::string::npos) << d.message;
      EXPECT_NE(d.message.find("pvc"), std::string::npos) << d.message;
    }
  }
  EXPECT_TRUE(ValidateMad(mad, "spec").valid) << Dump(ValidateMad(mad, "spec"));
  EXPECT_FALSE(HasRule(ValidateMad(Mad{}, "pvc"), "mma.k-dim.table", Severity::kError));
}

TEST(ValMatrixMad, MMustBeInTheTable) {
  Mad m3{.result = "%v3uint", .a = "%v3ushort", .c = "%v3uint"};
  const ValidationResult r = ValidateMad(m3, "opencl");
  EXPECT_TRUE(HasRule(r, "mma.m.table", Severity::kError)) << Dump(r);
  Mad m4{.result = "%v4uint", .a = "%v4ushort", .c = "%v4uint"};
  EXPECT_FALSE(HasRule(ValidateMad(m4, "opencl"), "mma.m.table", Severity::kError));
}

TEST(ValMatrixMad, TypesMustBeInTheTable) {
  // The SG8 A layout (int per row) at SG16 on a device without SG8 rows.
  Mad wide_a{.a = "%v8uint"};
  const ValidationResult r = ValidateMad(wide_a, "pvc");
  EXPECT_TRUE(HasRule(r, "mma.types.table", Severity::kError)) << Dump(r);
  // A component count that does not fit M (tf32 A must have ceil(M/2) components).
  Mad full_a{.result = "%v8float",
             .a = "%v8float",
             .b = "%v8float",
             .c = "%v8float",
             .k = "%uint 8",
             .operands = "MatrixATF32INTEL|MatrixBTF32INTEL"};
  EXPECT_TRUE(HasRule(ValidateMad(full_a, "pvc"), "mma.types.table", Severity::kError));
  EXPECT_FALSE(HasRule(ValidateMad(Mad{}, "pvc"), "mma.types.table", Severity::kError));
}

TEST(ValMatrixMad, OperandsMaskMustBeInTheTable) {
  Mad none{.operands = "None"};
  const ValidationResult r = ValidateMad(none, "pvc");
  EXPECT_TRUE(HasRule(r, "mma.operands.table", Severity::kError)) << Dump(r);
  EXPECT_TRUE(ValidateMad(none, "spec").valid);
  EXPECT_FALSE(HasRule(ValidateMad(Mad{}, "pvc"), "mma.operands.table", Severity::kError));
}

TEST(ValMatrixMad, SubgroupSizeMustFitTheRow) {
  // The SG8 int8 row in a SG16 kernel on a device with both tables.
  Mad sg8_row{.a = "%v8uint"};
  const ValidationResult r = ValidateMad(sg8_row, "opencl");
  EXPECT_TRUE(HasRule(r, "mma.subgroup-size.table", Severity::kError)) << Dump(r);
  // The SG16 row in a SG8 kernel.
  Mad sg16_at_8{.subgroup_size = "8"};
  EXPECT_TRUE(
      HasRule(ValidateMad(sg16_at_8, "opencl"), "mma.subgroup-size.table", Severity::kError));
  // On a device with SG8 rows only, the lookup names the first field that differs.
  EXPECT_TRUE(HasRule(ValidateMad(sg16_at_8, "dg2"), "mma.types.table", Severity::kError));
  EXPECT_FALSE(HasRule(ValidateMad(Mad{}, "opencl"), "mma.subgroup-size.table", Severity::kError));
}

TEST(ValMatrixMad, PairedFormAtSubgroupSize32IsAConvention) {
  Mad paired{
      .subgroup_size = "32", .result = "%v4uint", .a = "%v4ushort", .b = "%v4uint", .c = "%v4uint"};
  const ValidationResult r = ValidateMad(paired, "pvc");
  EXPECT_TRUE(r.valid) << Dump(r);
  EXPECT_TRUE(HasRule(r, "mma.subgroup-size.table", Severity::kWarning)) << Dump(r);
  // The OpenCL environment has no subgroup-size-32 rows at all.
  EXPECT_FALSE(ValidateMad(paired, "opencl").valid);
  // The unpaired SG16 layout at SG32: rejected by DECISIONS 10 only, so a warning on pvc.
  Mad unpaired{.subgroup_size = "32"};
  const ValidationResult u = ValidateMad(unpaired, "pvc");
  EXPECT_TRUE(u.valid) << Dump(u);
  EXPECT_TRUE(HasRule(u, "mma.subgroup-size.table", Severity::kWarning)) << Dump(u);
  EXPECT_TRUE(
      HasRule(ValidateMad(unpaired, "opencl"), "mma.subgroup-size.table", Severity::kError));
  // The paired shapes at SG16 are an error.
  paired.subgroup_size = "16";
  EXPECT_TRUE(HasRule(ValidateMad(paired, "pvc"), "mma.subgroup-size.table", Severity::kError));
}

TEST(ValMatrixMad, DraftRowsOnlyWhereTheDeviceHasThem) {
  Mad fp8{.result = "%v8float",
          .c = "%v8float",
          .operands = "MatrixAPackedFloat8E4M3INTEL|MatrixBPackedFloat8E4M3INTEL",
          .extensions = "OpExtension \"SPV_INTEL_subgroup_matrix_multiply_accumulate_float8\"\n"};
  const ValidationResult xe3p = ValidateMad(fp8, "xe3p");
  EXPECT_FALSE(HasMmaDiagnostic(xe3p, Severity::kError)) << Dump(xe3p);
  const ValidationResult pvc = ValidateMad(fp8, "pvc");
  EXPECT_TRUE(HasMmaDiagnostic(pvc, Severity::kError)) << Dump(pvc);
}

TEST(ValMatrixMad, UnreachedFunctionSkipsTheTablesWithOneRemark) {
  Mad mad{.k = "%uint 42", .uncalled = true};
  const ValidationResult r = ValidateMad(mad, "pvc");
  EXPECT_EQ(CountRule(r, "mma.subgroup-size.unknown", Severity::kRemark), 1) << Dump(r);
  EXPECT_FALSE(HasRule(r, "mma.k-dim.table", Severity::kError)) << Dump(r);
  // With --subgroup-size the tables apply.
  const ValidationResult sized = ValidateMad(mad, "pvc", 16);
  EXPECT_FALSE(HasRule(sized, "mma.subgroup-size.unknown", Severity::kRemark)) << Dump(sized);
  EXPECT_TRUE(HasRule(sized, "mma.k-dim.table", Severity::kError)) << Dump(sized);
  // Reached functions: no remark.
  EXPECT_FALSE(HasRule(ValidateMad(Mad{}, "pvc"), "mma.subgroup-size.unknown", Severity::kRemark));
}

TEST(ValMatrixMad, OneReportPerProblem) {
  // No SubgroupSize mode would give every size of the device; here one size, one report.
  Mad mad{.k = "%uint 42"};
  EXPECT_EQ(CountRule(ValidateMad(mad, "pvc"), "mma.k-dim.table", Severity::kError), 1);
}

// --- The LLVM-made row modules ----------------------------------------------------------------

}  // namespace
}  // namespace xmx::val
