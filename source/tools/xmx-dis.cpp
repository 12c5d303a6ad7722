// xmx-dis: spirv-dis with the extension grammars (CLI.md). Same options, same text, same choice
// of colour; exit codes 0 (ok), 1 (invalid module), 2 (usage).
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "tools/tool_io.hpp"
#include "xmx/module.hpp"
#include "xmx/text.hpp"

namespace {

using xmx::tools::kExitInvalid;
using xmx::tools::kExitOk;
using xmx::tools::kExitUsage;

int Run(int argc, char** argv) {
  CLI::App app{"xmx-dis - Disassemble a SPIR-V binary module, extension instructions included",
               "xmx-dis"};
  std::vector<std::string> inputs;
  std::string output = "-";
  bool version = false, color = false, no_color = false, no_indent = false, no_header = false,
       raw_id = false, offsets = false, comment = false;
  app.add_option("input", inputs, "The SPIR-V binary; standard input if omitted or \"-\"");
  app.add_option("-o", output, "Output file; standard output if omitted or \"-\"");
  app.add_flag("--version", version, "Display version information");
  CLI::Option* color_opt = app.add_flag(
      "--color", color, "Force colour output (the default when printing to a terminal)");
  CLI::Option* no_color_opt = app.add_flag("--no-color", no_color, "Don't print in colour");
  app.add_flag("--no-indent", no_indent, "Don't indent instructions");
  app.add_flag("--no-header", no_header, "Don't output the header as leading comments");
  app.add_flag("--raw-id", raw_id, "Show raw id values instead of friendly names");
  app.add_flag("--offsets", offsets, "Show byte offsets for each instruction");
  app.add_flag("--comment", comment, "Add comments to make reading easier");
  app.footer("Limits: an input is at most " + std::to_string(xmx::tools::kMaxInputBytes) +
             " bytes.");
  if (auto exit = xmx::tools::ParseCommandLine(app, argc, argv, version, "xmx-dis")) return *exit;
  if (inputs.size() > 1) {
    std::cerr << "error: more than one input file specified\n";
    return kExitUsage;
  }

  xmx::text::DisassembleOptions options;
  options.indent = !no_indent;
  options.header = !no_header;
  options.friendly_names = !raw_id;
  options.offsets = offsets;
  options.comment = comment;
  // As spirv-dis: colour only when printing to standard output, and then by default when it is
  // a terminal; the later of --color / --no-color wins.
  const bool to_stdout = output == "-";
  if (to_stdout) {
    bool use_color = isatty(fileno(stdout));
    for (const CLI::Option* opt : app.parse_order()) {
      if (opt == color_opt) use_color = true;
      if (opt == no_color_opt) use_color = false;
    }
    options.color = use_color;
  }

  const std::optional<std::vector<uint8_t>> bytes =
      xmx::tools::ReadInput(inputs.empty() ? "-" : inputs[0]);
  if (!bytes) return kExitUsage;

  const xmx::Result<std::vector<uint32_t>> words = xmx::WordsFromBytes(*bytes);
  if (!words) {
    for (const xmx::Diagnostic& d : words.diagnostics()) std::cerr << d.Format() << "\n";
    return kExitInvalid;
  }
  std::string partial_text;
  const xmx::Result<std::string> text = xmx::text::Disassemble(*words, options, &partial_text);
  // Like spirv-dis, standard output gets the instructions before an error; a file gets nothing.
  if (text || to_stdout) {
    if (!xmx::tools::WriteOutput(output, text ? *text : partial_text)) return kExitInvalid;
  }
  if (!text) {
    for (const xmx::Diagnostic& d : text.diagnostics()) std::cerr << d.Format() << "\n";
    return kExitInvalid;
  }
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return xmx::tools::GuardedMain(Run, argc, argv); }
