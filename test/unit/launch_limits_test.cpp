// xmx-run's resource limits and file checks as the launch description sees them (issue 9,
// deliverable 6): the memory limit bounding the arguments before they are allocated, byte sizes
// with suffixes, the limit keys of run files, run files that are too large, too deep or hold a
// NUL, and dumps that would land on an input or on each other.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tools/run/launch_spec.hpp"

namespace xmx::tools {
namespace {

namespace fs = std::filesystem;

class LaunchLimits : public testing::Test {
 protected:
  void SetUp() override {
    const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("xmx_launch_limits_" + std::string(info->name()) + "_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "sub");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, std::string_view contents) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary).write(contents.data(), contents.size());
    return path.string();
  }
  // The error of a run file that must be refused ("" when it is accepted).
  std::string RunFileError(std::string_view json) {
    std::string error;
    const bool ok = ReadRunFile(Write("run.json", json), &error).has_value();
    return ok ? std::string() : error;
  }

  fs::path dir_;
};

bool Contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST_F(LaunchLimits, ArgumentsAreBoundedBeforeTheyAreAllocated) {
  std::string error;
  EXPECT_TRUE(ParseArgSpec("buffer:zero:100", {}, &error, 100).has_value()) << error;
  EXPECT_FALSE(ParseArgSpec("buffer:zero:101", {}, &error, 100).has_value());
  EXPECT_TRUE(Contains(error, "is not in 1..100 (what is left of the memory limit")) << error;
  EXPECT_FALSE(ParseArgSpec("local:101", {}, &error, 100).has_value());
  EXPECT_FALSE(ParseArgSpec("buffer:random=1:101", {}, &error, 100).has_value());
  EXPECT_FALSE(ParseArgSpec("image2d:8x4:4:zero", {}, &error, 100).has_value());
  EXPECT_TRUE(Contains(error, "left of the memory limit")) << error;
  // A file larger than what is left is refused, not read.
  const std::string file = Write("data.bin", std::string(101, 'x'));
  EXPECT_FALSE(ParseArgSpec("buffer:file=" + file, {}, &error, 100).has_value());
  EXPECT_TRUE(Contains(error, "larger than 100 bytes")) << error;
  std::optional<ArgSpec> read = ParseArgSpec("buffer:file=" + file, {}, &error, 101);
  ASSERT_TRUE(read.has_value()) << error;
  EXPECT_EQ(read->file, file);
  EXPECT_EQ(read->bytes.size(), 101u);
}

TEST(LaunchLimitsSizes, ByteSizesTakeBinarySuffixes) {
  std::string error;
  EXPECT_EQ(ParseByteSize("4096", "--max-memory", &error), 4096u);
  EXPECT_EQ(ParseByteSize("0x10", "--max-memory", &error), 16u);
  EXPECT_EQ(ParseByteSize("3K", "--max-memory", &error), 3u << 10);
  EXPECT_EQ(ParseByteSize("5m", "--max-memory", &error), 5u << 20);
  EXPECT_EQ(ParseByteSize("8G", "--max-memory", &error), uint64_t{8} << 30);
  EXPECT_EQ(ParseByteSize("2T", "--max-memory", &error), uint64_t{2} << 40);
  EXPECT_EQ(ParseByteSize("0", "--max-memory", &error), 0u);
  EXPECT_FALSE(ParseByteSize("16777216T", "--max-memory", &error).has_value());
  EXPECT_TRUE(Contains(error, "more than 2^64 bytes")) << error;
  EXPECT_FALSE(ParseByteSize("1x", "--max-memory", &error).has_value());
  EXPECT_TRUE(Contains(error, "--max-memory '1x': expected a byte count")) << error;
  EXPECT_FALSE(ParseByteSize("G", "--max-memory", &error).has_value());
}

TEST_F(LaunchLimits, RunFilesCarryTheLimits) {
  std::string error;
  std::optional<LaunchSpec> spec =
      ReadRunFile(Write("run.json", R"({"global": 4, "max-memory": "2K", "max-instructions": 1000,
                            "timeout": 2.5, "threads": 1024})"),
                  &error);
  ASSERT_TRUE(spec.has_value()) << error;
  EXPECT_EQ(spec->max_memory, 2048u);
  EXPECT_EQ(spec->max_instructions, 1000u);
  EXPECT_EQ(spec->timeout, 2.5);
  EXPECT_EQ(spec->threads, 1024u);
  EXPECT_EQ(spec->run_file, (dir_ / "run.json").string());
  spec = ReadRunFile(Write("defaults.json", R"({"global": 4})"), &error);
  ASSERT_TRUE(spec.has_value()) << error;
  EXPECT_EQ(spec->max_memory, kDefaultMaxMemory);
  EXPECT_EQ(spec->max_instructions, kDefaultMaxInstructions);
  EXPECT_EQ(spec->timeout, 0);
  // "max-memory" bounds "args", which come first in key order.
  EXPECT_TRUE(Contains(RunFileError(R"({"global": 4, "args": ["buffer:zero:1000", "local:1000"],
                                        "max-memory": 1500})"),
                       "\"args\": [1] 'local:1000': size 1000 is not in 1..500"));
  EXPECT_TRUE(Contains(RunFileError(R"({"global": 4, "threads": 1025})"),
                       "\"threads\": expected an integer in 0..1024"));
  EXPECT_TRUE(Contains(RunFileError(R"({"global": 4, "timeout": -1})"),
                       "\"timeout\": expected a number of seconds >= 0"));
  EXPECT_TRUE(Contains(RunFileError(R"({"global": 4, "max-memory": "lots"})"),
                       "\"max-memory\": 'lots': expected a byte count"));
}

TEST_F(LaunchLimits, RunFilesRefuseNulCharacters) {
  // A path with a NUL would stop there when opened: "k.spv\u0000x" would run k.spv.
  EXPECT_TRUE(Contains(RunFileError(R"({"global": 4, "module": "k.spv\u0000x"})"),
                       "\"module\": the string contains a NUL character"));
  EXPECT_TRUE(Contains(RunFileError(R"({"global": 4, "kernel": "k\u0000"})"), "NUL character"));
  EXPECT_TRUE(Contains(RunFileError(R"({"global": 4, "args": ["buffer:file=a\u0000b"]})"),
                       "\"args\": [0]: the spec contains a NUL character"));
  EXPECT_TRUE(Contains(
      RunFileError(R"({"global": 4, "args": ["buffer:zero:4"], "dump": {"0": "o\u0000.bin"}})"),
      "NUL character"));
  EXPECT_TRUE(Contains(
      RunFileError(R"({"global": 4, "args": ["buffer:zero:4"], "expect": ["0=e\u0000.bin"]})"),
      "NUL character"));
}

TEST_F(LaunchLimits, RunFilesAreBoundedInSizeAndDepth) {
  std::string deep = R"({"global": 4, "comment": )";
  deep += std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_TRUE(Contains(RunFileError(deep), "nested more than 64 deep"));
  std::string shallow = R"({"global": 4, "comment": )";
  shallow += std::string(62, '[') + std::string(62, ']') + "}";
  // 63 levels: refused for what it holds (a comment is strings), not for its depth.
  EXPECT_TRUE(Contains(RunFileError(shallow), "\"comment\": expected a string"));
  // Larger than 16 MiB: refused before it is read.
  std::string large = R"({"global": 4, "comment": ")";
  large += std::string(kMaxRunFileBytes, 'x') + "\"}";
  EXPECT_TRUE(Contains(RunFileError(large), "larger than the 16777216 bytes xmx-run reads"));
}

TEST_F(LaunchLimits, DumpsNeverOverwriteInputsOrEachOther) {
  LaunchSpec spec;
  spec.global = {4};
  const std::string input = Write("in.bin", "abcd");
  const std::string module = Write("k.spv", "spv");
  std::string error;
  spec.args.push_back(*ParseArgSpec("buffer:file=" + input, {}, &error));
  spec.args.push_back(*ParseArgSpec("buffer:zero:4", {}, &error));
  spec.module = module;
  auto check = [&](std::vector<std::pair<uint32_t, std::string>> dumps,
                   std::vector<std::pair<uint32_t, std::string>> expects = {}) {
    spec.dumps = std::move(dumps);
    spec.expects = std::move(expects);
    std::string message;
    return CheckLaunchFiles(spec, &message) ? std::string() : message;
  };
  const std::string dir = dir_.string();
  EXPECT_EQ(check({{1, dir + "/out.bin"}, {0, dir + "/out0.bin"}}), "");
  EXPECT_TRUE(Contains(check({{1, dir + "/sub/../in.bin"}}),
                       "would overwrite argument 0 ('buffer:file=" + input + "')"));
  EXPECT_TRUE(Contains(check({{1, module}}), "would overwrite the module"));
  // Two spellings of one file not yet written.
  EXPECT_TRUE(Contains(check({{1, dir + "/o.bin"}, {0, dir + "/sub/../o.bin"}}),
                       "writes the same file as --dump 1="));
  EXPECT_TRUE(Contains(check({{1, dir + "/e.bin"}}, {{1, dir + "/./e.bin"}}),
                       "would overwrite --expect 1="));
  // Through a symbolic link.
  fs::create_directory_symlink(dir_ / "sub", dir_ / "link");
  EXPECT_TRUE(Contains(check({{1, dir + "/sub/x.bin"}, {0, dir + "/link/x.bin"}}),
                       "writes the same file as"));
  Write("sub/y.bin", "y");
  EXPECT_TRUE(Contains(check({{1, dir + "/link/y.bin"}}, {{1, dir + "/sub/y.bin"}}),
                       "would overwrite --expect"));
  spec.run_file = Write("run.json", "{}");
  EXPECT_TRUE(Contains(check({{1, dir + "/run.json"}}), "would overwrite the run file"));
  // Character devices are no files to protect.
  EXPECT_EQ(check({{1, "/dev/null"}, {0, "/dev/null"}}), "");
}

}  // namespace
}  // namespace xmx::tools
