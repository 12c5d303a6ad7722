// Reading SPIR-V binaries in the unit tests: a file's words, or the module they hold. A file that
// does not hold whole words, or a module that does not read, fails the test.
#pragma once

#include <gtest/gtest.h>

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
