#include "tools/tool_io.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include "spirv-tools/libspirv.h"
#include "xmx/version.hpp"

namespace xmx::tools {

std::optional<std::vector<uint8_t>> ReadInput(const std::string& path, uint64_t max_bytes) {
  const bool use_stdin = path.empty() || path == "-";
  const std::string name = use_stdin ? "<stdin>" : path;
  auto too_large = [&] {
    std::cerr << "error: '" << name << "' is larger than the " << max_bytes
              << " bytes this tool reads\n";
    return std::nullopt;
  };
  FILE* f = use_stdin ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) {
    std::cerr << "error: cannot open '" << path << "': " << std::strerror(errno) << "\n";
    return std::nullopt;
  }
  struct stat info {};
  if (!use_stdin && ::fstat(fileno(f), &info) == 0 && S_ISREG(info.st_mode) &&
      static_cast<uint64_t>(info.st_size) > max_bytes) {
    std::fclose(f);
    return too_large();
  }
  std::vector<uint8_t> data;
  uint8_t buf[1 << 16];
  size_t n;
  bool over = false;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    if (n > max_bytes - data.size()) {
      over = true;
      break;
    }
    data.insert(data.end(), buf, buf + n);
  }
  const bool failed = std::ferror(f);
  if (!use_stdin) std::fclose(f);
  if (over) return too_large();
  if (failed) {
    std::cerr << "error: cannot read '" << name << "'\n";
    return std::nullopt;
  }
  return data;
}

namespace {

// Writes, flushes and closes `f` (unless it is stdout); the first failure's errno, or 0.
int WriteAll(FILE* f, std::string_view data, bool close) {
  int error = 0;
  if (std::fwrite(data.data(), 1, data.size(), f) != data.size()) error = errno;
  if (std::fflush(f) != 0 && error == 0) error = errno;
  if (close && std::fclose(f) != 0 && error == 0) error = errno;
  return error;
}

}  // namespace

bool WriteFile(const std::string& path, std::string_view data) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::cerr << "error: cannot open '" << path << "' for writing: " << std::strerror(errno)
              << "\n";
    return false;
  }
  if (const int error = WriteAll(f, data, true); error != 0) {
    std::cerr << "error: cannot write '" << path << "': " << std::strerror(error) << "\n";
    return false;
  }
  return true;
}

bool WriteOutput(const std::string& path, std::string_view data) {
  if (path != "-") return WriteFile(path, data);
  if (const int error = WriteAll(stdout, data, false); error != 0) {
    std::cerr << "error: cannot write standard output: " << std::strerror(error) << "\n";
    return false;
  }
  return true;
}

bool FinishStandardOutput() {
  std::cout.flush();
  const bool ok = !std::cout.fail() && std::fflush(stdout) == 0 && !std::ferror(stdout);
  if (!ok) std::cerr << "error: cannot write standard output: " << std::strerror(errno) << "\n";
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
  const xmx::GrammarVersion core = xmx::CoreGrammarVersion();
  std::string text(tool_name);
  text += " (xmx-spirv) ";
  text += xmx::LibraryVersion();
  text += "\n";
  text += "SPIRV-Tools: ";
  text += spvSoftwareVersionDetailsString();
  text += "\nSPIRV-Headers core grammar: " + std::to_string(core.major) + "." +
          std::to_string(core.minor) + " revision " + std::to_string(core.revision) + "\n";
  return text;
}

int GuardedMain(int (*run)(int, char**), int argc, char** argv, std::string_view memory_hint) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of memory: the input needs more memory than the host gives";
    if (!memory_hint.empty()) std::cerr << " (" << memory_hint << ")";
    std::cerr << "\n";
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return kExitInvalid;
}

}  // namespace xmx::tools
