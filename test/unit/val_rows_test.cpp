// The modules LLVM's SPIR-V backend made for every matrix, 2D block, Intel subgroup and split
// matrix MAD table row (test/val/rows, utils/build_val_rows.py): each validates on the devices
// of its `valid_on` list and fails on those of its `invalid_on` list.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "binary/parser.hpp"
#include "nlohmann/json.hpp"
#include "val_test_support.hpp"
#include "xmx/device.hpp"
#include "xmx/validator.hpp"

namespace xmx::val {
namespace {

std::vector<uint32_t> ReadWords(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<uint32_t> words;
  Diagnostic err;
  EXPECT_TRUE(binary::BytesToWords(bytes, &words, &err)) << path << ": " << err.Format();
  return words;
}

// Checks every module of `kind`; returns how many (module, device) verdicts were compared.
int CheckRows(const std::string& kind) {
  const std::filesystem::path dir = std::filesystem::path(XMX_TEST_DIR) / "val" / "rows";
  std::ifstream in(dir / "manifest.json");
  EXPECT_TRUE(in) << dir;
  const nlohmann::json manifest = nlohmann::json::parse(in);
  int checked = 0;
  for (const nlohmann::json& module : manifest.at("modules")) {
    if (module.at("kind") != kind) continue;
    const std::string file = module.at("file");
    const std::vector<uint32_t> words = ReadWords(dir / file);
    for (const auto& [list, want_valid] : {std::pair{"valid_on", true}, {"invalid_on", false}}) {
      for (const nlohmann::json& entry : module.at(list)) {
        const std::string device = entry.get<std::string>();
        ValidatorOptions options;
        options.device = device::FindBuiltinProfile(device);
        EXPECT_NE(options.device, nullptr) << device;
        if (!options.device) continue;
        const ValidationResult r = Validate(words, options);
        EXPECT_EQ(r.valid, want_valid) << file << " on " << device << "\n" << testing::Dump(r);
        ++checked;
      }
    }
  }
  return checked;
}

TEST(ValRows, MatrixMadRowsGiveTheManifestsVerdicts) { EXPECT_GT(CheckRows("mma"), 1000); }

TEST(ValRows, Block2dRowsGiveTheManifestsVerdicts) { EXPECT_GT(CheckRows("block2d"), 1000); }

// 275 modules x 9 devices, less the convention rows (16-bit 16-vector block IO, 8-bit
// exclusive scans) that are asserted on `spec` only.
TEST(ValRows, SubgroupRowsGiveTheManifestsVerdicts) { EXPECT_GT(CheckRows("subgroups"), 2300); }

// 19 modules x 9 devices (split matrix MAD built-ins, imported functions).
TEST(ValRows, SplitMadRowsGiveTheManifestsVerdicts) { EXPECT_GE(CheckRows("split-mad"), 171); }

}  // namespace
}  // namespace xmx::val
