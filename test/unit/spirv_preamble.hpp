// The SPIR-V text the hand-written kernels of the interpreter's unit tests open with, built from
// a few parameters so that each test writes only what its kernel adds: the module's header
// (capabilities, extensions, memory model, the entry point of kernel "k"), and for the kernels
// k(global uint* out, uint n) of interp_launch_support.hpp the start of k and its global id.
// Lines keep the layout the tests write by hand (one instruction a line, the opcode in column
// 16), so a test may still find a line of the header by its text.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xmx::interp::testing {

// What a kernel module's header declares beyond what every one of them does.
struct ModuleHeader {
  // Declared after Addresses and Kernel, which every kernel module declares, in this order.
  std::vector<std::string> capabilities;
  std::vector<std::string> extensions;    // OpExtension names, after the capabilities
  std::string addressing = "Physical64";  // OpMemoryModel's addressing model, with OpenCL
  std::string entry = "%k";               // the id OpEntryPoint names kernel "k"
  std::string interface;                  // OpEntryPoint's interface ids, space-separated
};

// The module's first lines: OpCapability Addresses, Kernel and header.capabilities, the
// OpExtensions, OpMemoryModel and OpEntryPoint Kernel <entry> "k" <interface>; a line each,
// starting with a newline as the tests' raw strings do.
inline std::string KernelModuleHeader(const ModuleHeader& header) {
  const std::string indent(15, ' ');
  std::string text = "\n" + indent + "OpCapability Addresses\n" + indent + "OpCapability Kernel\n";
  for (const std::string& c : header.capabilities) text += indent + "OpCapability " + c + "\n";
  for (const std::string& e : header.extensions) text += indent + "OpExtension \"" + e + "\"\n";
  text += indent + "OpMemoryModel " + header.addressing + " OpenCL\n";
  text += indent + "OpEntryPoint Kernel " + header.entry + " \"k\"";
  if (!header.interface.empty()) text += " " + header.interface;
  return text + "\n";
}

// The decoration of %gid, the GlobalInvocationId variable, to follow the debug names.
inline const char* const kGlobalIdDecoration = R"(
               OpDecorate %gid BuiltIn GlobalInvocationId
)";

// The declarations kernel k(global uint* out, uint n) needs, to follow the types they use
// (%void, %uint, %v3ulong): %gid (through %p_in), the out pointer's type %p_int, then
// `pointer_types`, then k's type %fn.
inline std::string OutAndCountDeclarations(const std::string& pointer_types = "") {
  return R"(
       %p_in = OpTypePointer Input %v3ulong
        %gid = OpVariable %p_in Input
      %p_int = OpTypePointer CrossWorkgroup %uint
)" + pointer_types +
         R"(
         %fn = OpTypeFunction %void %p_int %uint
)";
}

namespace preamble_detail {

// `<id> = <rest>` and a newline, the id right-aligned to column 12 as the tests write it.
inline std::string Line(std::string_view id, std::string_view rest) {
  return std::string(id.size() < 12 ? 12 - id.size() : 0, ' ') + std::string(id) + " = " +
         std::string(rest) + "\n";
}

// The declaration of the scalar type named `name` (no %), or "" for another name.
inline std::string_view ScalarDeclaration(std::string_view name) {
  static const std::pair<std::string_view, std::string_view> kScalars[] = {
      {"void", "OpTypeVoid"},       {"bool", "OpTypeBool"},     {"uchar", "OpTypeInt 8 0"},
      {"ushort", "OpTypeInt 16 0"}, {"uint", "OpTypeInt 32 0"}, {"ulong", "OpTypeInt 64 0"},
      {"float", "OpTypeFloat 32"}};
  for (const auto& [scalar, declaration] : kScalars) {
    if (scalar == name) return declaration;
  }
  return {};
}

}  // namespace preamble_detail

// The declaration of each type in `names`, in that order, from what its name says: %void,
// %bool, %uchar %ushort %uint %ulong (unsigned integers of 8 to 64 bits), %float, and
// %v<N><scalar> (a vector of N of that scalar, declared before it). A name that says no type
// fails the test.
inline std::string TypesNamed(std::initializer_list<std::string_view> names) {
  std::string text;
  for (std::string_view id : names) {
    std::string declaration;
    if (id.starts_with('%')) {
      const std::string_view name = id.substr(1);
      declaration = preamble_detail::ScalarDeclaration(name);
      const size_t count_end = name.find_first_not_of("0123456789", 1);
      if (declaration.empty() && name.starts_with('v') && count_end > 1 &&
          count_end != std::string_view::npos &&
          !preamble_detail::ScalarDeclaration(name.substr(count_end)).empty()) {
        declaration = "OpTypeVector %" + std::string(name.substr(count_end)) + " " +
                      std::string(name.substr(1, count_end - 1));
      }
    }
    if (declaration.empty()) {
      ADD_FAILURE() << "TypesNamed: " << id << " names no type it knows";
      continue;
    }
    text += preamble_detail::Line(id, declaration);
  }
  return text;
}

// `%c<v> = OpConstant %uint <v>` for each of `values`, a line each.
inline std::string UintConstants(std::initializer_list<uint32_t> values) {
  std::string text;
  for (uint32_t v : values) {
    text +=
        preamble_detail::Line("%c" + std::to_string(v), "OpConstant %uint " + std::to_string(v));
  }
  return text;
}

// The start of kernel k(global uint* out, uint n), of type %fn (OutAndCountDeclarations
// declares it): the parameters %out and %n, the label %entry, then the entry block's
// `variables`.
inline std::string OutAndCountKernelEntry(const std::string& variables = "") {
  return R"(
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %p_int
          %n = OpFunctionParameter %uint
      %entry = OpLabel
)" + variables;
}

// OutAndCountKernelEntry, then %id, the work-item's global id x as a uint (%g0 as a ulong, %g
// the loaded %gid).
inline std::string OutAndCountKernelStart(const std::string& variables = "") {
  return OutAndCountKernelEntry(variables) + R"(
          %g = OpLoad %v3ulong %gid
         %g0 = OpCompositeExtract %ulong %g 0
         %id = OpUConvert %uint %g0
)";
}

}  // namespace xmx::interp::testing
