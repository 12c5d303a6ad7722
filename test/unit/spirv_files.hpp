// Reading SPIR-V binaries in the unit tests: the .spv files of a directory, a file's words, or
// the module they hold. A file that
// does not hold whole words, or a module that does not read, fails the test.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

#include "binary/parser.hpp"
#include "xmx/module.hpp"

namespace xmx::spirv_files {

// The .spv files of directory `dir`, sorted by name; a missing directory fails the test.
inline std::vector<std::filesystem::path> SpvFilesIn(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(dir)) {
    ADD_FAILURE() << dir << " is not a directory";
    return files;
  }
  for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".spv") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The words of the SPIR-V binary at `path` (either byte order).
inline std::vector<uint32_t> ReadWords(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<uint32_t> words;
  Diagnostic error;
  EXPECT_TRUE(binary::BytesToWords(bytes, &words, &error)) << path << ": " << error.Format();
  return words;
}

// The module the SPIR-V binary at `path` holds (an empty module when it does not read).
inline ir::Module ReadModule(const std::filesystem::path& path) {
  Diagnostic error;
  std::optional<ir::Module> module = ir::Module::FromWords(ReadWords(path), &error);
  EXPECT_TRUE(module) << path << ": " << error.Format();
  return module ? std::move(*module) : ir::Module();
}

}  // namespace xmx::spirv_files
