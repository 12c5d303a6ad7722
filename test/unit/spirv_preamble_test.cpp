// The preamble builder of the interpreter's unit tests (spirv_preamble.hpp) writes the text the
// tests wrote by hand: the same instructions, in the same order, and a type it cannot name is a
// failure rather than a silently missing declaration.
#include "spirv_preamble.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>

namespace xmx::interp::testing {
namespace {

// The text with each line's leading blanks removed: the layout is not what is checked.
std::string Trimmed(const std::string& text) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const size_t first = text.find_first_not_of(' ', at);
    if (first < end) out += text.substr(first, end - first);
    out += '\n';
    at = end + 1;
  }
  return out;
}

TEST(SpirvPreamble, HeaderDeclaresCapabilitiesExtensionsMemoryModelAndEntryPoint) {
  EXPECT_EQ(Trimmed(KernelModuleHeader({.capabilities = {"Int64", "Int8"},
                                        .extensions = {"SPV_KHR_cooperative_matrix"},
                                        .addressing = "Physical32",
                                        .interface = "%gid %lid"})),
            "\n"
            "OpCapability Addresses\n"
            "OpCapability Kernel\n"
            "OpCapability Int64\n"
            "OpCapability Int8\n"
            "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
            "OpMemoryModel Physical32 OpenCL\n"
            "OpEntryPoint Kernel %k \"k\" %gid %lid\n");
  EXPECT_EQ(Trimmed(KernelModuleHeader({.entry = "%main"})),
            "\nOpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
            "OpEntryPoint Kernel %main \"k\"\n");
}

TEST(SpirvPreamble, TypesAreDeclaredAsTheirNamesSay) {
  EXPECT_EQ(Trimmed(TypesNamed({"%void", "%bool", "%uchar", "%ushort", "%uint", "%ulong", "%float",
                                "%v3ulong", "%v16uchar"})),
            "%void = OpTypeVoid\n"
            "%bool = OpTypeBool\n"
            "%uchar = OpTypeInt 8 0\n"
            "%ushort = OpTypeInt 16 0\n"
            "%uint = OpTypeInt 32 0\n"
            "%ulong = OpTypeInt 64 0\n"
            "%float = OpTypeFloat 32\n"
            "%v3ulong = OpTypeVector %ulong 3\n"
            "%v16uchar = OpTypeVector %uchar 16\n");
  EXPECT_EQ(Trimmed(UintConstants({0, 40})),
            "%c0 = OpConstant %uint 0\n%c40 = OpConstant %uint 40\n");
}

TEST(SpirvPreamble, ATypeNameItCannotReadFailsTheTest) {
  for (const char* name : {"uint", "%long", "%v3", "%v3long", "%vxuint", "%v"}) {
    EXPECT_NONFATAL_FAILURE(TypesNamed({name}), "names no type it knows");
  }
}

}  // namespace
}  // namespace xmx::interp::testing
