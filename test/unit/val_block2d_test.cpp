// Rules block2d.*: the five OpSubgroup2DBlock*INTEL instructions (SPEC-NOTES A.3, A.4, A.7;
// DECISIONS 6, 11, 12), on hand-assembled kernels and on the LLVM-made row modules.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
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

// A kernel taking (uchar global*, uint width, uint height, uint pitch, uint2 coord) with private
// variables %dst8/%dst16/%dst32/%dst64/%dstv (ushort2)/%dstvi (uint2)/%dstf (float)/%dstvf
// (float2)/%dsta2vi (uint2[2]); `body` goes after them.
std::string Kernel(const std::string& body, const std::string& subgroup_size = "16",
                   const std::string& extra_functions = "") {
  std::string mode = subgroup_size.empty()
                         ? std::string()
                         : "OpExecutionMode %k SubgroupSize " + subgroup_size + "\n";
  return R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability SubgroupDispatch
OpCapability Subgroup2DBlockIOINTEL
OpCapability Subgroup2DBlockTransformINTEL
OpCapability Subgroup2DBlockTransposeINTEL
OpExtension "SPV_INTEL_2d_block_io"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
)" + mode +
         R"(%void = OpTypeVoid
%float = OpTypeFloat 32
%uchar = OpTypeInt 8 0
%ushort = OpTypeInt 16 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v2ushort = OpTypeVector %ushort 2
%v2uint = OpTypeVector %uint 2
%v2ulong = OpTypeVector %ulong 2
%gptr = OpTypePointer CrossWorkgroup %uchar
%gptr16 = OpTypePointer CrossWorkgroup %ushort
%p8 = OpTypePointer Function %uchar
%p16 = OpTypePointer Function %ushort
%p32 = OpTypePointer Function %uint
%p64 = OpTypePointer Function %ulong
%pv = OpTypePointer Function %v2ushort
%pvi = OpTypePointer Function %v2uint
%fn = OpTypeFunction %void %gptr %uint %uint %uint %v2uint
%void_fn = OpTypeFunction %void
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_8 = OpConstant %uint 8
%uint_16 = OpConstant %uint 16
%uint_24 = OpConstant %uint 24
%uint_30 = OpConstant %uint 30
%uint_32 = OpConstant %uint 32
%uint_64 = OpConstant %uint 64
%uint_100 = OpConstant %uint 100
%uint_128 = OpConstant %uint 128
%uint_136 = OpConstant %uint 136
%ulong_16 = OpConstant %ulong 16
%ulong_128 = OpConstant %ulong 128
%float_1 = OpConstant %float 1
%xy_3_0 = OpConstantComposite %v2uint %uint_3 %uint_0
%xy_4_0 = OpConstantComposite %v2uint %uint_4 %uint_0
%xy64 = OpConstantComposite %v2ulong %ulong_16 %ulong_16
%null_g16 = OpConstantNull %gptr16
%pf = OpTypePointer Function %float
%v2float = OpTypeVector %float 2
%pvf = OpTypePointer Function %v2float
%a2vi = OpTypeArray %v2uint %uint_2
%pa2vi = OpTypePointer Function %a2vi
%k = OpFunction %void None %fn
%base = OpFunctionParameter %gptr
%mw = OpFunctionParameter %uint
%mh = OpFunctionParameter %uint
%mp = OpFunctionParameter %uint
%xy = OpFunctionParameter %v2uint
%entry = OpLabel
%dst8 = OpVariable %p8 Function
%dst16 = OpVariable %p16 Function
%dst32 = OpVariable %p32 Function
%dst64 = OpVariable %p64 Function
%dstv = OpVariable %pv Function
%dstvi = OpVariable %pvi Function
%dstf = OpVariable %pf Function
%dstvf = OpVariable %pvf Function
%dsta2vi = OpVariable %pa2vi Function
)" + body +
         R"(
OpReturn
OpFunctionEnd
)" + extra_functions;
}

// Load (E 2, W 16, H 8, C 1): an A.4 row. `dims` and `rest` replace the operands.
std::string Load(const std::string& dims = "%uint_2 %uint_16 %uint_8 %uint_1",
                 const std::string& rest = "%base %mw %mh %mp %xy %dst16") {
  return "OpSubgroup2DBlockLoadINTEL " + dims + " " + rest;
}

ValidationResult ValidateOn(const std::string& text, const char* device = "opencl",
                            std::optional<uint32_t> subgroup_size = std::nullopt) {
  ValidatorOptions options;
  options.device = device::FindBuiltinProfile(device);
  EXPECT_NE(options.device, nullptr) << device;
  options.subgroup_size = subgroup_size;
  return Validate(Assemble(text), options);
}

bool HasBlock2d(const ValidationResult& r) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule.rfind("block2d.", 0) == 0) return true;
  }
  return false;
}
std::string MessageOf(const ValidationResult& r, const std::string& rule) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule == rule) return d.message;
  }
  return {};
}

constexpr Severity kError = Severity::kError;
constexpr Severity kWarning = Severity::kWarning;

TEST(ValBlock2d, TableRowIsCleanOnEveryTableDevice) {
  for (const char* device : {"spec", "opencl", "pvc", "bmg", "lnl", "ptl", "xe3p"}) {
    const ValidationResult r = ValidateOn(Kernel(Load()), device);
    EXPECT_TRUE(r.valid) << device << "\n" << Dump(r);
    EXPECT_FALSE(HasBlock2d(r)) << device << "\n" << Dump(r);
  }
}

TEST(ValBlock2d, NonConstantBlockDimensionIsAnError) {
  const ValidationResult r = ValidateOn(Kernel(Load("%uint_2 %uint_16 %mh %uint_1")), "spec");
  EXPECT_TRUE(HasRule(r, "block2d.constant", kError)) << Dump(r);
  const ValidationResult wide =
      ValidateOn(Kernel(Load("%uint_2 %ulong_16 %uint_8 %uint_1")), "spec");
  EXPECT_TRUE(HasRule(wide, "block2d.constant", kError)) << Dump(wide);
}

TEST(ValBlock2d, NonConstantElementSizeIsAWarning) {  // DECISIONS 6
  const ValidationResult r = ValidateOn(Kernel(Load("%mh %uint_16 %uint_8 %uint_1")), "opencl");
  EXPECT_TRUE(HasRule(r, "block2d.constant", kWarning)) << Dump(r);
  EXPECT_FALSE(HasRule(r, "block2d.constant", kError)) << Dump(r);
  EXPECT_TRUE(r.valid) << Dump(r);
}

TEST(ValBlock2d, ElementSizeOutsideTheSpecSet) {
  const ValidationResult r = ValidateOn(Kernel(Load("%uint_3 %uint_16 %uint_8 %uint_1")), "spec");
  EXPECT_TRUE(HasRule(r, "block2d.element-size", kError)) << Dump(r);
  EXPECT_NE(MessageOf(r, "block2d.element-size").find("Element Size 3"), std::string::npos);
  const ValidationResult e8 = ValidateOn(
      Kernel(Load("%uint_8 %uint_8 %uint_8 %uint_1", "%base %mw %mh %mp %xy %dst64")), "spec");
  EXPECT_FALSE(HasBlock2d(e8)) << Dump(e8);
}

TEST(ValBlock2d, BlockWidthMultiple) {
  const ValidationResult r = ValidateOn(
      Kernel(Load("%uint_1 %uint_30 %uint_8 %uint_1", "%base %mw %mh %mp %xy %dst8")), "spec");
  EXPECT_TRUE(HasRule(r, "block2d.block-width.multiple", kError)) << Dump(r);
  const ValidationResult ok = ValidateOn(
      Kernel(Load("%uint_1 %uint_32 %uint_8 %uint_1", "%base %mw %mh %mp %xy %dst8")), "spec");
  EXPECT_FALSE(HasBlock2d(ok)) << Dump(ok);
}

TEST(ValBlock2d, PointerStorageClasses) {
  const ValidationResult global_private = ValidateOn(
      Kernel(Load("%uint_2 %uint_16 %uint_8 %uint_1", "%dst8 %mw %mh %mp %xy %dst16")), "spec");
  EXPECT_TRUE(HasRule(global_private, "block2d.pointer.storage-class", kError))
      << Dump(global_private);
  const ValidationResult private_global = ValidateOn(
      Kernel("OpSubgroup2DBlockStoreINTEL %uint_2 %uint_16 %uint_8 %uint_1 %base %base %mw %mh "
             "%mp %xy"),
      "spec");
  EXPECT_EQ(CountRule(private_global, "block2d.pointer.storage-class", kError), 1)
      << Dump(private_global);
  const ValidationResult store = ValidateOn(
      Kernel("OpSubgroup2DBlockStoreINTEL %uint_2 %uint_16 %uint_8 %uint_1 %dst16 %base %mw %mh "
             "%mp %xy"),
      "pvc");
  EXPECT_FALSE(HasBlock2d(store)) << Dump(store);
}

// DECISIONS 12 (revised): scalar i32 as the extension requires, i8 read as untyped, arrays and
// vectors of i32 (LLVM's `int8 b[2]`) a warning, anything else an error.
TEST(ValBlock2d, LoadTransformDestinationPointee) {
  auto transform = [](const std::string& dst) {
    return ValidateOn(Kernel("OpSubgroup2DBlockLoadTransformINTEL %uint_2 %uint_16 %uint_16 "
                             "%uint_1 %base %mw %mh %mp %xy " +
                             dst),
                      "pvc");
  };
  for (const char* clean : {"%dst32", "%dst8"}) {
    const ValidationResult r = transform(clean);
    EXPECT_FALSE(HasBlock2d(r)) << clean << "\n" << Dump(r);
  }
  for (const char* composite : {"%dstvi", "%dsta2vi"}) {
    const ValidationResult r = transform(composite);
    EXPECT_EQ(CountRule(r, "block2d.transform.pointee", kWarning), 1) << composite << Dump(r);
    EXPECT_TRUE(r.valid) << composite << "\n" << Dump(r);
  }
  for (const char* wrong : {"%dst16", "%dst64", "%dstf", "%dstv", "%dstvf"}) {
    const ValidationResult r = transform(wrong);
    EXPECT_TRUE(HasRule(r, "block2d.transform.pointee", kError)) << wrong << "\n" << Dump(r);
  }
  EXPECT_NE(MessageOf(transform("%dstf"), "block2d.transform.pointee").find("points to f32"),
            std::string::npos);
}

// DECISIONS 12 (revised): the private data of a plain load, a transposed load and a store may
// have any type; the OpenCL C built-ins pass ushort* for 8-bit rows 32 wide.
TEST(ValBlock2d, PlainLoadTransposeAndStoreAcceptAnyPrivatePointee) {
  const char* const pointees[] = {"%dst8",  "%dst16", "%dst32", "%dst64",  "%dstv",
                                  "%dstvi", "%dstf",  "%dstvf", "%dsta2vi"};
  for (const char* p : pointees) {
    const std::string body =
        Load("%uint_1 %uint_32 %uint_8 %uint_1", std::string("%base %mw %mh %mp %xy ") + p) + "\n" +
        Load("%uint_2 %uint_16 %uint_8 %uint_1", std::string("%base %mw %mh %mp %xy ") + p) +
        "\nOpSubgroup2DBlockLoadTransposeINTEL %uint_4 %uint_8 %uint_16 %uint_1 %base %mw %mh %mp "
        "%xy " +
        p + "\nOpSubgroup2DBlockStoreINTEL %uint_4 %uint_16 %uint_8 %uint_1 " + p +
        " %base %mw %mh %mp %xy";
    for (const char* device : {"spec", "opencl", "pvc"}) {
      const ValidationResult r = ValidateOn(Kernel(body), device);
      EXPECT_FALSE(HasBlock2d(r)) << p << " on " << device << "\n" << Dump(r);
      EXPECT_TRUE(r.valid) << p << " on " << device << "\n" << Dump(r);
    }
  }
}

// The global pointer keeps the rule of the A.4 table's pointer types: Element Size bytes or i8.
TEST(ValBlock2d, GlobalPointeeMustMatchElementSize) {
  const ValidationResult global = ValidateOn(
      Kernel(Load("%uint_4 %uint_16 %uint_8 %uint_1", "%null_g16 %mw %mh %mp %xy %dst32")));
  EXPECT_TRUE(HasRule(global, "block2d.pointee", kError)) << Dump(global);
  const ValidationResult same = ValidateOn(
      Kernel(Load("%uint_2 %uint_16 %uint_8 %uint_1", "%null_g16 %mw %mh %mp %xy %dst32")));
  EXPECT_FALSE(HasBlock2d(same)) << Dump(same);
}

TEST(ValBlock2d, MemoryOperandTypes) {
  const ValidationResult f = ValidateOn(
      Kernel(Load("%uint_2 %uint_16 %uint_8 %uint_1", "%base %float_1 %mh %mp %xy %dst16")),
      "spec");
  EXPECT_TRUE(HasRule(f, "block2d.operand-type", kError)) << Dump(f);
  const ValidationResult scalar_xy = ValidateOn(
      Kernel(Load("%uint_2 %uint_16 %uint_8 %uint_1", "%base %mw %mh %mp %mw %dst16")), "spec");
  EXPECT_TRUE(HasRule(scalar_xy, "block2d.operand-type", kError)) << Dump(scalar_xy);
}

TEST(ValBlock2d, OpenclRequires32BitMemoryOperands) {
  const std::string text =
      Kernel(Load("%uint_2 %uint_16 %uint_8 %uint_1", "%base %ulong_128 %mh %mp %xy64 %dst16"));
  const ValidationResult spec = ValidateOn(text, "spec");
  EXPECT_FALSE(HasBlock2d(spec)) << Dump(spec);
  const ValidationResult opencl = ValidateOn(text, "opencl");
  EXPECT_EQ(CountRule(opencl, "block2d.operand-type.opencl", kError), 2) << Dump(opencl);
}

TEST(ValBlock2d, ConstantMemoryWidthHeightPitch) {
  auto load = [](const std::string& e, const std::string& w, const std::string& h,
                 const std::string& p, const std::string& dst) {
    return Kernel(
        Load(e + " %uint_16 %uint_8 %uint_1", "%base " + w + " " + h + " " + p + " %xy " + dst));
  };
  const ValidationResult ok =
      ValidateOn(load("%uint_2", "%uint_128", "%uint_1", "%uint_128", "%dst16"));
  EXPECT_FALSE(HasBlock2d(ok)) << Dump(ok);
  const ValidationResult narrow = ValidateOn(load("%uint_2", "%uint_32", "%mh", "%mp", "%dst16"));
  EXPECT_TRUE(HasRule(narrow, "block2d.memory-width", kError)) << Dump(narrow);
  const ValidationResult odd =
      ValidateOn(load("%uint_1", "%uint_100", "%mh", "%uint_128", "%dst8"), "spec");
  EXPECT_FALSE(HasRule(odd, "block2d.memory-width", kError)) << Dump(odd);  // 100 % 4 == 0
  const ValidationResult odd8 =
      ValidateOn(load("%uint_8", "%uint_100", "%mh", "%mp", "%dst64"), "spec");
  EXPECT_TRUE(HasRule(odd8, "block2d.memory-width", kError)) << Dump(odd8);  // not a multiple of 8
  const ValidationResult zero_rows = ValidateOn(load("%uint_2", "%mw", "%uint_0", "%mp", "%dst16"));
  EXPECT_TRUE(HasRule(zero_rows, "block2d.memory-height", kError)) << Dump(zero_rows);
  const ValidationResult short_pitch =
      ValidateOn(load("%uint_2", "%uint_128", "%mh", "%uint_64", "%dst16"));
  EXPECT_TRUE(HasRule(short_pitch, "block2d.memory-pitch", kError)) << Dump(short_pitch);
  const ValidationResult odd_pitch =
      ValidateOn(load("%uint_2", "%mw", "%mh", "%uint_136", "%dst16"));
  EXPECT_TRUE(HasRule(odd_pitch, "block2d.memory-pitch", kError)) << Dump(odd_pitch);
}

TEST(ValBlock2d, ConstantCoordinateX) {
  const ValidationResult bad = ValidateOn(
      Kernel(Load("%uint_2 %uint_16 %uint_8 %uint_1", "%base %mw %mh %mp %xy_3_0 %dst16")), "spec");
  EXPECT_TRUE(HasRule(bad, "block2d.coordinate", kError)) << Dump(bad);
  const ValidationResult ok = ValidateOn(
      Kernel(Load("%uint_2 %uint_16 %uint_8 %uint_1", "%base %mw %mh %mp %xy_4_0 %dst16")), "spec");
  EXPECT_FALSE(HasBlock2d(ok)) << Dump(ok);
}

TEST(ValBlock2d, ShapeOutsideTheDeviceTable) {
  const std::string text = Kernel(Load("%uint_2 %uint_24 %uint_8 %uint_1"));
  const ValidationResult pvc = ValidateOn(text, "pvc");
  EXPECT_EQ(MessageOf(pvc, "block2d.shape.table"),
            "Block Width 24 is not supported for Element Size 2 by OpSubgroup2DBlockLoadINTEL "
            "on device pvc; supported: 16")
      << Dump(pvc);
  EXPECT_TRUE(HasRule(pvc, "block2d.shape.table", kError));
  const ValidationResult spec = ValidateOn(text, "spec");
  EXPECT_FALSE(HasBlock2d(spec)) << Dump(spec);
}

TEST(ValBlock2d, DeviceWithout2dBlockIo) {
  const ValidationResult dg2 = ValidateOn(Kernel(Load()), "dg2");
  EXPECT_TRUE(HasRule(dg2, "block2d.unsupported", kError)) << Dump(dg2);
  EXPECT_NE(MessageOf(dg2, "block2d.unsupported").find("dg2"), std::string::npos);
  const ValidationResult opencl = ValidateOn(Kernel(Load()), "opencl");
  EXPECT_FALSE(HasRule(opencl, "block2d.unsupported", kError)) << Dump(opencl);
}

TEST(ValBlock2d, SubgroupSize) {
  const ValidationResult sg8 = ValidateOn(Kernel(Load(), "8"), "opencl");
  EXPECT_TRUE(HasRule(sg8, "block2d.subgroup-size", kError)) << Dump(sg8);
  const ValidationResult sg32 = ValidateOn(Kernel(Load(), "32"), "opencl");  // G.6: convention row
  EXPECT_TRUE(HasRule(sg32, "block2d.subgroup-size", kWarning)) << Dump(sg32);
  EXPECT_FALSE(HasRule(sg32, "block2d.subgroup-size", kError)) << Dump(sg32);
  const ValidationResult spec = ValidateOn(Kernel(Load(), "8"), "spec");
  EXPECT_FALSE(HasBlock2d(spec)) << Dump(spec);
  // Without a SubgroupSize mode the kernel may run at every size of the device.
  const ValidationResult any = ValidateOn(Kernel(Load(), ""), "opencl");
  EXPECT_EQ(CountRule(any, "block2d.subgroup-size", kError), 1) << Dump(any);
  EXPECT_EQ(CountRule(any, "block2d.subgroup-size", kWarning), 1) << Dump(any);
}

TEST(ValBlock2d, UnreachedFunctionGetsOneRemark) {  // DECISIONS 11
  const std::string copy = R"(%g = OpFunction %void None %fn
%gbase = OpFunctionParameter %gptr
%gmw = OpFunctionParameter %uint
%gmh = OpFunctionParameter %uint
%gmp = OpFunctionParameter %uint
%gxy = OpFunctionParameter %v2uint
%gentry = OpLabel
%gdst = OpVariable %p16 Function
OpSubgroup2DBlockLoadINTEL %uint_2 %uint_16 %uint_8 %uint_1 %gbase %gmw %gmh %gmp %gxy %gdst
OpSubgroup2DBlockLoadINTEL %uint_2 %uint_16 %uint_8 %uint_1 %gbase %gmw %gmh %gmp %gxy %gdst
OpReturn
OpFunctionEnd
)";
  const std::string text = "OpCapability Linkage\n" + Kernel(Load(), "16", copy);
  const ValidationResult r = ValidateOn(text, "opencl");
  EXPECT_EQ(CountRule(r, "block2d.subgroup-size.unknown", Severity::kRemark), 1) << Dump(r);
  EXPECT_TRUE(r.valid) << Dump(r);
  const ValidationResult given = ValidateOn(text, "opencl", 8);
  EXPECT_EQ(CountRule(given, "block2d.subgroup-size.unknown", Severity::kRemark), 0) << Dump(given);
  EXPECT_EQ(CountRule(given, "block2d.subgroup-size", kError), 2) << Dump(given);
}

TEST(ValBlock2d, MalformedOperandsDoNotCrash) {
  const ValidationResult r = ValidateOn(
      Kernel(Load("%uint_2 %undefined_w %uint_8 %uint_1", "%void %mw %uint %mp %float_1 %k")),
      "pvc");
  EXPECT_FALSE(r.valid);
}

}  // namespace
}  // namespace xmx::val
