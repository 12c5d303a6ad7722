// Input and output helpers shared by the command-line tools: "-" means a standard stream, and
// failures produce the one-line diagnostics of CLI.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"

namespace xmx::tools {

// Exit codes of every tool (CLI.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitUsage = 2;

// Reads a whole file, or standard input for "-" or an empty path. Prints "error: ..." naming
// the file and returns nullopt when it cannot be read.
std::optional<std::vector<uint8_t>> ReadInput(const std::string& path);

// Writes to a file, or standard output for "-". Prints an error and returns false on failure.
bool WriteOutput(const std::string& path, std::string_view data);

// The text printed by --version: tool name and version, and the SPIRV-Tools and core grammar
// versions the build used.
std::string VersionText(std::string_view tool_name);

// Parses the command line of `tool`, whose --version flag is bound to `version`. Returns the exit
// code when the tool must stop here: 0 after --help or --version (printed), 2 on a usage error
// (CLI11's message printed); nullopt when the tool should go on.
std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv, const bool& version,
                                    std::string_view tool);

}  // namespace xmx::tools
