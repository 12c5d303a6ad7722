#include "tools/tool_io.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "grammar/grammar.hpp"
#include "spirv-tools/libspirv.h"

namespace xmx::tools {

std::optional<std::vector<uint8_t>> ReadInput(const std::string& path) {
  const bool use_stdin = path.empty() || path == "-";
  FILE* f = use_stdin ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) {
    std::cerr << "error: cannot open '" << path << "': " << std::strerror(errno) << "\n";
    return std::nullopt;
  }
  std::vector<uint8_t> data;
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + n);
  const bool failed = std::ferror(f);
  if (!use_stdin) std::fclose(f);
  if (failed) {
    std::cerr << "error: cannot read '" << (use_stdin ? "<stdin>" : path) << "'\n";
    return std::nullopt;
  }
  return data;
}

bool WriteOutput(const std::string& path, std::string_view data) {
  const bool use_stdout = path == "-";
  FILE* f = use_stdout ? stdout : std::fopen(path.c_str(), "wb");
  if (!f) {
    std::cerr << "error: cannot open '" << path << "' for writing: " << std::strerror(errno)
              << "\n";
    return false;
  }
  bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  ok = (use_stdout ? std::fflush(f) == 0 : std::fclose(f) == 0) && ok;
  if (!ok) std::cerr << "error: cannot write '" << path << "'\n";
  return ok;
}

std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv, const bool& version,
                                    std::string_view tool) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  if (version) {
    std::cout << VersionText(tool);
    return kExitOk;
  }
  return std::nullopt;
}

std::string VersionText(std::string_view tool_name) {
  const auto core = grammar::GetCoreGrammarVersion();
  std::string text(tool_name);
  text += " (xmx-spirv) " XMX_VERSION "\n";
  text += "SPIRV-Tools: ";
  text += spvSoftwareVersionDetailsString();
  text += "\nSPIRV-Headers core grammar: " + std::to_string(core.major) + "." +
          std::to_string(core.minor) + " revision " + std::to_string(core.revision) + "\n";
  return text;
}

}  // namespace xmx::tools
