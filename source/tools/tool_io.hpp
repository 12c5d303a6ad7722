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

// Largest input xmx-as, xmx-dis and xmx-val read (xmx-run: its --max-memory): 1 GiB, far beyond
// any real module, and what the tools' own memory for an input of that size still fits in.
inline constexpr uint64_t kMaxInputBytes = uint64_t{1} << 30;

// Reads a whole file, or standard input for "-" or an empty path, of at most `max_bytes` (a
// larger regular file is refused before it is read, a stream when reading passes the limit).
// Prints "error: ..." naming the file and returns nullopt when it cannot be read.
std::optional<std::vector<uint8_t>> ReadInput(const std::string& path,
                                              uint64_t max_bytes = kMaxInputBytes);

// Writes to a file, or standard output for "-", checking the write, the flush and the close
// (a full disk shows only there). Prints an error and returns false on failure.
bool WriteOutput(const std::string& path, std::string_view data);

// Writes `data` to the file `path` (never standard output: "-" is a file name here), checking
// as WriteOutput does. Prints "error: cannot write PATH: reason" and returns false on failure.
bool WriteFile(const std::string& path, std::string_view data);

// Flushes standard output and tells whether everything written to it (std::cout or stdout) got
// out; prints an error when not. A tool calls it last: its exit code must say so.
bool FinishStandardOutput();

// A tool's main: runs `run` and turns an exception escaping it into a one-line error and exit 1
// (std::bad_alloc: the input asked for more memory than the host gives; `memory_hint`, if not
// empty, follows that message in parentheses). Never an abort.
int GuardedMain(int (*run)(int, char**), int argc, char** argv, std::string_view memory_hint = {});

// The text printed by --version: tool name and version, and the SPIRV-Tools and core grammar
// versions the build used.
std::string VersionText(std::string_view tool_name);

// Parses the command line of `tool`, whose --version flag is bound to `version`. Returns the exit
// code when the tool must stop here: 0 after --help or --version (printed), 2 on a usage error
// (CLI11's message printed); nullopt when the tool should go on.
std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv, const bool& version,
                                    std::string_view tool);

}  // namespace xmx::tools
