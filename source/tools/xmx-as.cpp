// xmx-as: spirv-as with the extension grammars (CLI.md). Same options and output; exit codes 0
// (ok), 1 (invalid text), 2 (usage).
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"
#include "tools/tool_io.hpp"
#include "xmx/module.hpp"
#include "xmx/text.hpp"

namespace {

using xmx::tools::kExitInvalid;
using xmx::tools::kExitOk;
using xmx::tools::kExitUsage;

constexpr const char* kTargetEnvHelp =
    "Use specified environment: {vulkan1.1spv1.4|vulkan1.0|vulkan1.1|vulkan1.2|vulkan1.3"
    "|spv1.0|spv1.1|spv1.2|spv1.3|spv1.4|spv1.5|spv1.6|opencl1.2embedded|opencl1.2"
    "|opencl2.0embedded|opencl2.0|opencl2.1embedded|opencl2.1|opencl2.2embedded|opencl2.2"
    "|opengl4.0|opengl4.1|opengl4.2|opengl4.3|opengl4.5}";

int Run(int argc, char** argv) {
  CLI::App app{
      "xmx-as - Create a SPIR-V binary module from SPIR-V assembly text, extension "
      "instructions included",
      "xmx-as"};
  std::vector<std::string> inputs;
  // As spirv-as: the module goes to out.spv unless -o says otherwise.
  std::string output = "out.spv";
  std::string target_env;
  bool version = false, preserve_numeric_ids = false;
  app.add_option("input", inputs, "The assembly text; standard input if omitted or \"-\"");
  app.add_option("-o", output, "Set the output filename. Use '-' to mean stdout.");
  app.add_flag("--version", version, "Display assembler version information.");
  app.add_flag("--preserve-numeric-ids", preserve_numeric_ids,
               "Numeric IDs in the binary will have the same values as in the source. "
               "Non-numeric IDs are allocated by filling in the gaps, starting with 1 and going "
               "up.");
  app.add_option("--target-env", target_env, kTargetEnvHelp);
  app.footer("Limits: an input is at most " + std::to_string(xmx::tools::kMaxInputBytes) +
             " bytes.");
  if (auto exit = xmx::tools::ParseCommandLine(app, argc, argv, version, "xmx-as")) return *exit;
  if (inputs.size() > 1) {
    std::cerr << "error: More than one input file specified\n";
    return kExitUsage;
  }
  xmx::text::AssembleOptions options;
  options.preserve_numeric_ids = preserve_numeric_ids;
  if (!target_env.empty() && !xmx::text::TargetEnvVersion(target_env, &options.version)) {
    std::cerr << "error: Unrecognized target env: " << target_env << "\n";
    return kExitUsage;
  }

  const std::optional<std::vector<uint8_t>> bytes =
      xmx::tools::ReadInput(inputs.empty() ? "-" : inputs[0]);
  if (!bytes) return kExitUsage;

  const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  const xmx::Result<std::vector<uint32_t>> words = xmx::text::Assemble(text, options);
  if (!words) {
    for (const xmx::Diagnostic& d : words.diagnostics()) std::cerr << d.Format() << "\n";
    return kExitInvalid;
  }
  const std::vector<uint8_t> out = xmx::BytesFromWords(*words);
  if (!xmx::tools::WriteOutput(
          output, std::string_view(reinterpret_cast<const char*>(out.data()), out.size()))) {
    return kExitInvalid;
  }
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return xmx::tools::GuardedMain(Run, argc, argv); }
