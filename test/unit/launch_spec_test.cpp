// The launch description of xmx-run: every --arg spec form, the option helpers, the fixed random
// buffer generator and run files.
#include "tools/run/launch_spec.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace xmx::tools {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

// A scratch directory per test, removed afterwards.
class LaunchSpecFiles : public testing::Test {
 protected:
  void SetUp() override {
    const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("xmx_launch_spec_" + std::string(info->name()) + "_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path Write(const std::string& name, std::string_view contents) {
    fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary).write(contents.data(), contents.size());
    return path;
  }

  fs::path dir_;
};

ArgSpec Parse(std::string_view text, const fs::path& base = {}) {
  std::string error;
  std::optional<ArgSpec> arg = ParseArgSpec(text, base, &error);
  EXPECT_TRUE(arg.has_value()) << text << ": " << error;
  return arg.value_or(ArgSpec{});
}

// The error message for a spec that must be rejected.
std::string Reject(std::string_view text, const fs::path& base = {}) {
  std::string error;
  EXPECT_FALSE(ParseArgSpec(text, base, &error).has_value()) << text;
  EXPECT_NE(error.find(std::string(text)), std::string::npos)
      << "message must quote the spec: " << error;
  return error;
}

TEST(LaunchSpecArgTest, IntegerScalarsAreSignless) {
  ArgSpec arg = Parse("i32:-1");
  EXPECT_EQ(arg.kind, ArgSpec::Kind::kScalar);
  EXPECT_EQ(arg.type.kind, ArgType::Kind::kInt);
  EXPECT_EQ(arg.type.bytes, 4);
  EXPECT_EQ(arg.type.components, 1u);
  EXPECT_EQ(arg.bytes, (Bytes{0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(arg.text, "i32:-1");
  EXPECT_EQ(Parse("i32:4294967295").bytes, (Bytes{0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(Parse("i32:0x12345678").bytes, (Bytes{0x78, 0x56, 0x34, 0x12}));
  EXPECT_EQ(Parse("i32:+7").bytes, (Bytes{7, 0, 0, 0}));
  EXPECT_EQ(Parse("i32:-0x10").bytes, (Bytes{0xF0, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(Parse("i8:-128").bytes, (Bytes{0x80}));
  EXPECT_EQ(Parse("i8:255").bytes, (Bytes{0xFF}));
  EXPECT_EQ(Parse("i16:-2").bytes, (Bytes{0xFE, 0xFF}));
  EXPECT_EQ(Parse("i16:0XBEEF").bytes, (Bytes{0xEF, 0xBE}));
  EXPECT_EQ(Parse("i64:-9223372036854775808").bytes, (Bytes{0, 0, 0, 0, 0, 0, 0, 0x80}));
  EXPECT_EQ(Parse("i64:18446744073709551615").bytes, Bytes(8, 0xFF));
  EXPECT_EQ(Parse("i64:0x0102030405060708").bytes, (Bytes{8, 7, 6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(Parse("i8:-0").bytes, (Bytes{0}));
}

TEST(LaunchSpecArgTest, IntegerRangeErrors) {
  EXPECT_NE(Reject("i8:256").find("out of range for i8 (-128..255)"), std::string::npos);
  EXPECT_NE(Reject("i8:-129").find("out of range"), std::string::npos);
  EXPECT_NE(Reject("i16:65536").find("out of range for i16"), std::string::npos);
  EXPECT_NE(Reject("i32:-2147483649").find("out of range for i32"), std::string::npos);
  EXPECT_NE(Reject("i32:0x100000000").find("out of range"), std::string::npos);
  EXPECT_NE(Reject("i64:18446744073709551616").find("out of range for i64"), std::string::npos);
  EXPECT_NE(Reject("i64:-9223372036854775809").find("out of range"), std::string::npos);
  EXPECT_NE(Reject("i32:1.5").find("is not an integer"), std::string::npos);
  EXPECT_NE(Reject("i32:").find("is not an integer"), std::string::npos);
  EXPECT_NE(Reject("i32:abc").find("is not an integer"), std::string::npos);
  EXPECT_NE(Reject("i32:0x").find("is not an integer"), std::string::npos);
  EXPECT_NE(Reject("i32:--1").find("is not an integer"), std::string::npos);
}

TEST(LaunchSpecArgTest, Vectors) {
  ArgSpec arg = Parse("i32x4:1,2,-1,0x10");
  EXPECT_EQ(arg.type.components, 4u);
  EXPECT_EQ(arg.type.lane_bytes(), 16u);
  EXPECT_EQ(arg.bytes, (Bytes{1, 0, 0, 0, 2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x10, 0, 0, 0}));
  EXPECT_EQ(Parse("i8x3:1, 2 ,3").bytes, (Bytes{1, 2, 3}));  // no padding, spaces allowed
  EXPECT_EQ(Parse("i16x2:1,-1").bytes, (Bytes{1, 0, 0xFF, 0xFF}));
  EXPECT_EQ(Parse("f32x2:1,-2").bytes, (Bytes{0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0}));
  EXPECT_EQ(Parse("i8x16:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15").bytes.size(), 16u);
  EXPECT_EQ(Parse("f64x8:0,1,2,3,4,5,6,7").bytes.size(), 64u);
  EXPECT_NE(Reject("i32x5:1,2,3,4,5").find("unknown argument kind"), std::string::npos);
  EXPECT_NE(Reject("i32x1:1").find("unknown argument kind"), std::string::npos);
  EXPECT_NE(Reject("i32x4:1,2,3").find("i32x4 takes 4 values, got 3"), std::string::npos);
  EXPECT_NE(Reject("i32:1,2").find("i32 takes 1 value, got 2"), std::string::npos);
  EXPECT_NE(Reject("i32x4:1,2,,4").find("is not an integer"), std::string::npos);
  EXPECT_NE(Reject("i32x0:").find("unknown argument kind"), std::string::npos);
  EXPECT_NE(Reject("i32x17:1").find("unknown argument kind"), std::string::npos);
  EXPECT_NE(Reject("i32x0x4:1").find("unknown argument kind"), std::string::npos);
}

TEST(LaunchSpecArgTest, Floats) {
  ArgSpec arg = Parse("f32:1.5");
  EXPECT_EQ(arg.type.kind, ArgType::Kind::kFloat);
  EXPECT_EQ(arg.type.bytes, 4);
  EXPECT_EQ(arg.bytes, (Bytes{0x00, 0x00, 0xC0, 0x3F}));
  EXPECT_EQ(Parse("f32:0x1.8p1").bytes, (Bytes{0x00, 0x00, 0x40, 0x40}));  // 3.0
  EXPECT_EQ(Parse("f32:0.1").bytes, (Bytes{0xCD, 0xCC, 0xCC, 0x3D}));      // rounded once
  EXPECT_EQ(Parse("f32:inf").bytes, (Bytes{0x00, 0x00, 0x80, 0x7F}));
  EXPECT_EQ(Parse("f32:-inf").bytes, (Bytes{0x00, 0x00, 0x80, 0xFF}));
  EXPECT_EQ(Parse("f32:nan").bytes, (Bytes{0x00, 0x00, 0xC0, 0x7F}));
  EXPECT_EQ(Parse("f32:-0").bytes, (Bytes{0x00, 0x00, 0x00, 0x80}));
  EXPECT_EQ(Parse("f32:1e-50").bytes, (Bytes{0, 0, 0, 0}));  // underflow is fine
  EXPECT_EQ(Parse("f64:0.1").bytes, (Bytes{0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F}));
  EXPECT_EQ(Parse("f64:-0x1p-1074").bytes, (Bytes{1, 0, 0, 0, 0, 0, 0, 0x80}));
  EXPECT_EQ(Parse("f64:nan").bytes, (Bytes{0, 0, 0, 0, 0, 0, 0xF8, 0x7F}));
  EXPECT_EQ(Parse("f16:1").bytes, (Bytes{0x00, 0x3C}));
  EXPECT_EQ(Parse("f16:-2.5").bytes, (Bytes{0x00, 0xC1}));
  EXPECT_EQ(Parse("f16:65504").bytes, (Bytes{0xFF, 0x7B}));
  EXPECT_EQ(Parse("f16:0x1p-24").bytes, (Bytes{0x01, 0x00}));  // smallest subnormal
  EXPECT_EQ(Parse("f16:inf").bytes, (Bytes{0x00, 0x7C}));
  EXPECT_EQ(Parse("f16:nan").bytes, (Bytes{0x00, 0x7E}));
  EXPECT_EQ(Parse("f16x2:0.5,1").bytes, (Bytes{0x00, 0x38, 0x00, 0x3C}));

  EXPECT_NE(Reject("f16:65520").find("overflows f16"), std::string::npos);  // ties to inf
  EXPECT_NE(Reject("f32:1e39").find("overflows f32"), std::string::npos);
  EXPECT_NE(Reject("f64:1e400").find("overflows f64"), std::string::npos);
  EXPECT_NE(Reject("f32:1.5f").find("is not a number"), std::string::npos);
  EXPECT_NE(Reject("f32:").find("is not a number"), std::string::npos);
  EXPECT_NE(Reject("f32:1 2").find("is not a number"), std::string::npos);
  EXPECT_NE(Reject("f8:1").find("unknown argument kind"), std::string::npos);
}

TEST(LaunchSpecArgTest, UnknownKinds) {
  EXPECT_NE(Reject("i32").find("expected TYPE:VALUE"), std::string::npos);
  EXPECT_NE(Reject("u32:1").find("unknown argument kind 'u32'"), std::string::npos);
  EXPECT_NE(Reject("i12:1").find("unknown argument kind"), std::string::npos);
  EXPECT_NE(Reject("int:1").find("unknown argument kind"), std::string::npos);
  EXPECT_NE(Reject("buffer:bogus:4").find("unknown buffer form"), std::string::npos);
  EXPECT_NE(Reject("buffer:zero=4").find("unknown buffer form"), std::string::npos);
}

TEST(LaunchSpecArgTest, GeneratedBuffers) {
  ArgSpec zero = Parse("buffer:zero:16");
  EXPECT_EQ(zero.kind, ArgSpec::Kind::kBuffer);
  EXPECT_EQ(zero.bytes, Bytes(16, 0));
  EXPECT_EQ(Parse("buffer:zero:0x10").bytes, Bytes(16, 0));
  EXPECT_EQ(Parse("buffer:fill=ab:5").bytes, Bytes(5, 0xAB));
  EXPECT_EQ(Parse("buffer:fill=0x7:3").bytes, Bytes(3, 0x07));
  EXPECT_EQ(Parse("buffer:fill=FF:1").bytes, Bytes(1, 0xFF));
  EXPECT_EQ(Parse("buffer:random=1:12").bytes, RandomBytes(1, 12));
  EXPECT_EQ(Parse("buffer:random=0x1:12").bytes, RandomBytes(1, 12));

  EXPECT_NE(Reject("buffer:zero:0").find("size 0 is not in 1..4294967296"), std::string::npos);
  EXPECT_NE(Reject("buffer:zero:4294967297").find("is not in 1.."), std::string::npos);
  EXPECT_NE(Reject("buffer:zero:99999999999999999999").find("too large"), std::string::npos);
  EXPECT_NE(Reject("buffer:zero:abc").find("size 'abc' is not a decimal or 0x hex integer"),
            std::string::npos);
  EXPECT_NE(Reject("buffer:zero:-4").find("is not a decimal"), std::string::npos);
  EXPECT_NE(Reject("buffer:fill=abc:3").find("is not one or two hex digits"), std::string::npos);
  EXPECT_NE(Reject("buffer:fill=:3").find("is not one or two hex digits"), std::string::npos);
  EXPECT_NE(Reject("buffer:fill=zz:3").find("is not one or two hex digits"), std::string::npos);
  EXPECT_NE(Reject("buffer:fill=ab").find("expected buffer:fill=HEXBYTE:BYTES"), std::string::npos);
  EXPECT_NE(Reject("buffer:random=1").find("expected buffer:random=SEED:BYTES"), std::string::npos);
  EXPECT_NE(Reject("buffer:random=x:8").find("seed 'x'"), std::string::npos);
}

TEST(LaunchSpecArgTest, LocalMemory) {
  ArgSpec arg = Parse("local:256");
  EXPECT_EQ(arg.kind, ArgSpec::Kind::kLocal);
  EXPECT_EQ(arg.local_bytes, 256u);
  EXPECT_TRUE(arg.bytes.empty());
  EXPECT_EQ(Parse("local:0x40").local_bytes, 64u);
  EXPECT_NE(Reject("local:0").find("size 0"), std::string::npos);
  EXPECT_NE(Reject("local:").find("is not a decimal"), std::string::npos);
}

TEST(LaunchSpecArgTest, Images) {
  ArgSpec image = Parse("image2d:16x4:4:zero");
  EXPECT_EQ(image.kind, ArgSpec::Kind::kImage);
  EXPECT_EQ(image.image_width, 16u);
  EXPECT_EQ(image.image_height, 4u);
  EXPECT_EQ(image.texel_bytes, 4u);
  EXPECT_EQ(image.bytes, Bytes(256, 0));
  EXPECT_EQ(Parse("image2d:8x2:1:fill=7f").bytes, Bytes(16, 0x7F));
  EXPECT_EQ(Parse("image2d:2x3:2:random=9").bytes, RandomBytes(9, 12));

  EXPECT_NE(Reject("image2d:16x4:3:zero").find("texel size '3' is not 1, 2, 4, 8 or 16"),
            std::string::npos);
  EXPECT_NE(Reject("image2d:3x4:2:zero").find("a row of 6 bytes is not a multiple of 4"),
            std::string::npos);
  EXPECT_NE(Reject("image2d:16:4:zero").find("is not WIDTHxHEIGHT"), std::string::npos);
  EXPECT_NE(Reject("image2d:0x4:4:zero").find("is not WIDTHxHEIGHT"), std::string::npos);
  EXPECT_NE(Reject("image2d:16x4:4:ones").find("CONTENT 'ones'"), std::string::npos);
  EXPECT_NE(Reject("image2d:16x4:4").find("expected image2d:WIDTHxHEIGHT:TEXELBYTES:CONTENT"),
            std::string::npos);
  EXPECT_NE(Reject("image2d:16x4:4:fill=zz").find("'image2d:16x4:4:fill=zz': fill byte"),
            std::string::npos);
  EXPECT_NE(Reject("image2d:65536x65536:16:zero").find("bytes is more than"), std::string::npos);
}

TEST_F(LaunchSpecFiles, BufferFromFile) {
  Write("data/in.bin", std::string("\x01\x02\x00\xff", 4));
  ArgSpec arg = Parse("buffer:file=data/in.bin", dir_);
  EXPECT_EQ(arg.kind, ArgSpec::Kind::kBuffer);
  EXPECT_EQ(arg.bytes, (Bytes{1, 2, 0, 0xFF}));
  EXPECT_EQ(Parse("buffer:file=" + (dir_ / "data/in.bin").string(), "/nonexistent").bytes.size(),
            4u);  // absolute paths ignore the base

  Write("data/image.bin", std::string(8, '\x05'));
  EXPECT_EQ(Parse("image2d:2x1:4:file=data/image.bin", dir_).bytes, Bytes(8, 5));
  EXPECT_NE(Reject("image2d:4x1:4:file=data/image.bin", dir_)
                .find("the file has 8 bytes, the image 16 (4 x 1 x 4)"),
            std::string::npos);

  std::string missing = Reject("buffer:file=data/none.bin", dir_);
  EXPECT_NE(missing.find("cannot read '" + (dir_ / "data/none.bin").string() + "'"),
            std::string::npos)
      << missing;
  EXPECT_NE(missing.find("No such file"), std::string::npos) << missing;
  EXPECT_NE(Reject("buffer:file=data", dir_).find("is a directory"), std::string::npos);
  Write("empty.bin", "");
  EXPECT_NE(Reject("buffer:file=empty.bin", dir_).find("is empty"), std::string::npos);
  EXPECT_NE(Reject("buffer:file=", dir_).find("no file name"), std::string::npos);
}

TEST(LaunchSpecRandomTest, SplitMix64Stream) {
  // splitmix64 from state 0: first output 0xE220A8397B1DCDAF, little-endian.
  EXPECT_EQ(RandomBytes(0, 8), (Bytes{0xAF, 0xCD, 0x1D, 0x7B, 0x39, 0xA8, 0x20, 0xE2}));
  // Seed 1: outputs 0x910A2DEC89025CC1, 0xBEEB8DA1658EEC67; the second one truncated.
  EXPECT_EQ(RandomBytes(1, 12),
            (Bytes{0xC1, 0x5C, 0x02, 0x89, 0xEC, 0x2D, 0x0A, 0x91, 0x67, 0xEC, 0x8E, 0x65}));
  Bytes longer = RandomBytes(12345, 37);
  Bytes shorter = RandomBytes(12345, 5);
  EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), longer.begin()));
  EXPECT_TRUE(RandomBytes(7, 0).empty());
  EXPECT_NE(RandomBytes(2, 8), RandomBytes(1, 8));
}

TEST(LaunchSpecOptionTest, Sizes) {
  std::string error;
  EXPECT_EQ(ParseSizes("64", "--global", &error), (std::vector<uint64_t>{64}));
  EXPECT_EQ(ParseSizes("64,2,0x3", "--global", &error), (std::vector<uint64_t>{64, 2, 3}));
  EXPECT_FALSE(ParseSizes("0", "--global", &error));
  EXPECT_EQ(error, "--global '0': sizes must be at least 1");
  EXPECT_FALSE(ParseSizes("1,2,3,4", "--local", &error));
  EXPECT_EQ(error, "--local '1,2,3,4': expected one to three sizes X[,Y[,Z]]");
  EXPECT_FALSE(ParseSizes("64,", "--global", &error));
  EXPECT_NE(error.find("'' is not a size"), std::string::npos) << error;
  EXPECT_FALSE(ParseSizes("x", "--global", &error));
  EXPECT_NE(error.find("--global 'x'"), std::string::npos) << error;
  EXPECT_FALSE(ParseSizes("-4", "--global", &error));
}

TEST(LaunchSpecOptionTest, IndexPathAndCheck) {
  std::string error;
  auto entry = ParseIndexPath("1=out.bin", "--dump", "/tmp/base", &error);
  ASSERT_TRUE(entry) << error;
  EXPECT_EQ(entry->first, 1u);
  EXPECT_EQ(entry->second, "/tmp/base/out.bin");
  entry = ParseIndexPath("0=/abs/x=y.bin", "--dump", "/tmp/base", &error);
  ASSERT_TRUE(entry) << error;
  EXPECT_EQ(entry->second, "/abs/x=y.bin");
  entry = ParseIndexPath("2=rel.bin", "--dump", "", &error);
  ASSERT_TRUE(entry) << error;
  EXPECT_EQ(entry->second, "rel.bin");
  EXPECT_FALSE(ParseIndexPath("out.bin", "--expect", "", &error));
  EXPECT_EQ(error, "--expect 'out.bin': expected INDEX=PATH");
  EXPECT_FALSE(ParseIndexPath("x=out.bin", "--dump", "", &error));
  EXPECT_NE(error.find("'x' is not an argument index"), std::string::npos) << error;
  EXPECT_FALSE(ParseIndexPath("-1=out.bin", "--dump", "", &error));
  EXPECT_FALSE(ParseIndexPath("4294967296=out.bin", "--dump", "", &error));
  EXPECT_FALSE(ParseIndexPath("1=", "--dump", "", &error));
  EXPECT_NE(error.find("no path"), std::string::npos);

  EXPECT_EQ(ParseCheckMode("error", &error), CheckMode::kError);
  EXPECT_EQ(ParseCheckMode("warn", &error), CheckMode::kWarn);
  EXPECT_EQ(ParseCheckMode("off", &error), CheckMode::kOff);
  EXPECT_FALSE(ParseCheckMode("Warn", &error));
  EXPECT_EQ(error, "--check 'Warn': expected error, warn or off");
  EXPECT_EQ(CheckModeName(CheckMode::kWarn), "warn");
  EXPECT_TRUE(IsMmaFpMode("ordered"));
  EXPECT_FALSE(IsMmaFpMode("fast"));
}

TEST_F(LaunchSpecFiles, FullRunFile) {
  Write("in/a.bin", "abcd");
  fs::path run = Write("runs/k.json", R"({
    "comment": ["what this run checks", "second line"],
    "module": "../mods/k.spv", "kernel": "k", "global": [64, 2], "local": "16,1",
    "subgroup-size": 16, "device": "pvc",
    "args": ["buffer:file=../in/a.bin", "i32:-4", "buffer:zero:8", "local:64"],
    "dump": {"0": "out0.bin", "2": "/abs/out2.bin"}, "expect": ["2=want.bin"],
    "check": "warn", "threads": 1, "stats": true, "mma-fp": "ordered"})");
  std::string error;
  std::optional<LaunchSpec> spec = ReadRunFile(run, &error);
  ASSERT_TRUE(spec) << error;
  EXPECT_EQ(spec->module, (dir_ / "mods/k.spv").string());
  EXPECT_EQ(spec->kernel, "k");
  EXPECT_EQ(spec->global, (std::vector<uint64_t>{64, 2}));
  EXPECT_EQ(spec->local, (std::vector<uint64_t>{16, 1}));
  EXPECT_EQ(spec->subgroup_size, 16u);
  EXPECT_EQ(spec->device, "pvc");
  ASSERT_EQ(spec->args.size(), 4u);
  EXPECT_EQ(spec->args[0].bytes, (Bytes{'a', 'b', 'c', 'd'}));
  EXPECT_EQ(spec->args[1].bytes, (Bytes{0xFC, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(spec->args[2].bytes, Bytes(8, 0));
  EXPECT_EQ(spec->args[3].local_bytes, 64u);
  ASSERT_EQ(spec->dumps.size(), 2u);
  EXPECT_EQ(spec->dumps[0], std::make_pair(0u, (dir_ / "runs/out0.bin").string()));
  EXPECT_EQ(spec->dumps[1], std::make_pair(2u, std::string("/abs/out2.bin")));
  ASSERT_EQ(spec->expects.size(), 1u);
  EXPECT_EQ(spec->expects[0], std::make_pair(2u, (dir_ / "runs/want.bin").string()));
  EXPECT_EQ(spec->check, CheckMode::kWarn);
  EXPECT_EQ(spec->threads, 1u);
  EXPECT_TRUE(spec->stats);
  EXPECT_EQ(spec->mma_fp, "ordered");
}

TEST_F(LaunchSpecFiles, MinimalRunFileHasDefaults) {
  std::string error;
  std::optional<LaunchSpec> spec = ReadRunFile(Write("m.json", R"({"global": 8})"), &error);
  ASSERT_TRUE(spec) << error;
  EXPECT_TRUE(spec->module.empty());  // the caller supplies it
  EXPECT_TRUE(spec->kernel.empty());
  EXPECT_EQ(spec->global, (std::vector<uint64_t>{8}));
  EXPECT_TRUE(spec->local.empty());
  EXPECT_FALSE(spec->subgroup_size);
  EXPECT_TRUE(spec->args.empty());
  EXPECT_EQ(spec->check, CheckMode::kError);
  EXPECT_EQ(spec->threads, 0u);
  EXPECT_FALSE(spec->stats);
  EXPECT_EQ(spec->mma_fp, "exact");
}

TEST_F(LaunchSpecFiles, RunFileErrors) {
  auto error_of = [&](std::string_view json) {
    fs::path file = Write("bad.json", json);
    std::string error;
    EXPECT_FALSE(ReadRunFile(file, &error).has_value()) << json;
    EXPECT_EQ(error.rfind(file.string() + ": ", 0), 0u) << "must start with the file: " << error;
    return error.substr(file.string().size() + 2);
  };
  EXPECT_EQ(error_of(R"({"global": [4], "globl": [4]})").rfind("unknown key \"globl\"", 0), 0u);
  EXPECT_EQ(error_of(R"({"kernel": "k"})"), "missing \"global\" (the NDRange size)");
  EXPECT_EQ(error_of(R"({"global": [4],)").rfind("invalid JSON: ", 0), 0u);
  EXPECT_EQ(error_of(R"([1, 2])"), "expected a JSON object");
  EXPECT_EQ(error_of(R"({"global": [0]})").rfind("\"global\": expected sizes >= 1", 0), 0u);
  EXPECT_EQ(error_of(R"({"global": [1, 2, 3, 4]})"), "\"global\": expected one to three sizes");
  EXPECT_EQ(error_of(R"({"global": "4,x"})"), "\"global\": '4,x': 'x' is not a size (X[,Y[,Z]])");
  EXPECT_EQ(error_of(R"({"global": [4, 4], "local": [2]})"),
            "--local has 1 dimension(s) but --global has 2");
  EXPECT_EQ(error_of(R"({"global": 4, "kernel": 3})"), "\"kernel\": expected a string");
  EXPECT_EQ(error_of(R"({"global": 4, "args": "i32:1"})"),
            "\"args\": expected an array of argument specs");
  EXPECT_EQ(error_of(R"({"global": 4, "args": ["i32:1", "i8:300"]})"),
            "\"args\": [1] 'i8:300': 300 is out of range for i8 (-128..255)");
  EXPECT_EQ(error_of(R"({"global": 4, "args": ["i32:1"], "dump": {"0": "o.bin"}})"),
            "--dump 0=" + (dir_ / "o.bin").string() +
                ": argument 0 ('i32:1') is not a buffer or an image");
  EXPECT_NE(error_of(R"({"global": 4, "args": ["buffer:zero:4"], "dump": ["1=o.bin"]})")
                .find("there are 1 arguments"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"global": 4, "args": ["buffer:zero:4"], "dump": ["0=a", "0=b"]})")
                .find("named twice"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"global": 4, "args": ["buffer:zero:4", "buffer:zero:4"],
                         "dump": ["0=a", "1=a"]})")
                .find("is used twice"),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"global": 4, "dump": "0=a"})").rfind("\"dump\": expected an object", 0),
            0u);
  EXPECT_EQ(error_of(R"({"global": 4, "check": "loud"})"),
            "\"check\": 'loud': expected error, warn or off");
  EXPECT_EQ(error_of(R"({"global": 4, "stats": 1})"), "\"stats\": expected true or false");
  EXPECT_EQ(
      error_of(R"({"global": 4, "threads": -1})").rfind("\"threads\": expected an integer", 0), 0u);
  EXPECT_EQ(error_of(R"({"global": 4, "subgroup-size": 128})"),
            "\"subgroup-size\": expected an integer in 0..64");
  EXPECT_EQ(error_of(R"({"global": 4, "subgroup-size": 0})"), "--subgroup-size 0 is not in 1..64");
  EXPECT_EQ(error_of(R"({"global": 4, "mma-fp": "fast"})"),
            "\"mma-fp\": 'fast': expected exact or ordered");
  EXPECT_EQ(error_of(R"({"global": 4, "comment": 5})"),
            "\"comment\": expected a string or an array of strings");
  EXPECT_NE(error_of(R"({"global": 4, "args": ["buffer:file=nothere.bin"]})")
                .find("cannot read '" + (dir_ / "nothere.bin").string() + "'"),
            std::string::npos);

  std::string error;
  EXPECT_FALSE(ReadRunFile(dir_ / "missing.json", &error));
  EXPECT_NE(error.find("missing.json: cannot read run file: No such file"), std::string::npos)
      << error;
}

TEST(LaunchSpecValidateTest, CommandLineShape) {
  LaunchSpec spec;
  std::string error;
  EXPECT_FALSE(ValidateLaunchSpec(spec, &error));
  EXPECT_EQ(error, "--global: expected one to three sizes X[,Y[,Z]]");
  spec.global = {64};
  EXPECT_TRUE(ValidateLaunchSpec(spec, &error)) << error;
  spec.args.push_back(*ParseArgSpec("buffer:zero:4", {}, &error));
  spec.expects.emplace_back(0, "want.bin");
  EXPECT_TRUE(ValidateLaunchSpec(spec, &error)) << error;
  spec.expects.emplace_back(1, "want2.bin");
  EXPECT_FALSE(ValidateLaunchSpec(spec, &error));
  EXPECT_EQ(error.rfind("--expect 1=want2.bin: there are 1 arguments", 0), 0u) << error;
}

// The run descriptions of the differential test (test/run): each parses, leaves the module to the
// harness, names its kernel, dumps something, and has its manifest entry.
TEST(LaunchSpecCorpusTest, EveryRunFileParsesAndIsInTheManifest) {
  const fs::path dir = fs::path(XMX_TEST_DIR) / "run";
  std::ifstream manifest_file(dir / "manifest.json");
  ASSERT_TRUE(manifest_file.good());
  const nlohmann::json manifest = nlohmann::json::parse(manifest_file);
  const nlohmann::json& entries = manifest.at("entries");
  size_t count = 0;
  for (const fs::directory_entry& file : fs::directory_iterator(dir)) {
    if (file.path().extension() != ".json" || file.path().filename() == "manifest.json") continue;
    const std::string name = file.path().stem().string();
    std::string error;
    std::optional<LaunchSpec> spec = ReadRunFile(file.path(), &error);
    ASSERT_TRUE(spec) << error;
    EXPECT_TRUE(spec->module.empty()) << name << ": the harness supplies the module";
    EXPECT_FALSE(spec->dumps.empty()) << name;
    ASSERT_TRUE(entries.contains(name)) << name << " is missing from manifest.json";
    EXPECT_EQ(entries[name].at("kernel").get<std::string>(), spec->kernel) << name;
    EXPECT_EQ(entries[name].at("run").get<std::string>(), name + ".json");
    ++count;
  }
  EXPECT_EQ(count, entries.size());
  EXPECT_GE(count, 30u);
}

}  // namespace
}  // namespace xmx::tools
