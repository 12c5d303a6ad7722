// -O through xmx-opt's library (xmx::opt::Optimize: our validator on the input, the recipe's
// passes one by one through the bridge's path, our validator on the output) next to what
// spirv-opt -O does in process (SPIRV-Tools' validator on the input, RegisterPerformancePasses),
// on the same core-only corpus modules, which both turn into the same bytes (test
// opt.same-as-spirv-opt-O). Target (issue 12): at most 1.2x spirv-opt's time.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <spirv-tools/optimizer.hpp>
#include <string>
#include <vector>

#include "xmx/module.hpp"
#include "xmx/optimizer.hpp"

namespace {

// clang-15 + llvm-spirv-15 at -O0, where -O has the most to do: the largest corpus module, and
// a portable kernel with loops and helper calls.
const char* const kModules[] = {"builtin_spirv_forms.spirv15.O0.spv", "loops_mixed.spirv15.O0.spv"};

std::vector<uint32_t> ReadCorpusModule(const char* name) {
  const std::filesystem::path path =
      std::filesystem::path(XMX_SOURCE_DIR) / "test" / "corpus" / "spv" / name;
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  xmx::Result<std::vector<uint32_t>> words = xmx::WordsFromBytes(bytes);
  return words ? std::move(*words) : std::vector<uint32_t>{};
}

void BM_SpirvOptO(benchmark::State& state) {
  const std::vector<uint32_t> words = ReadCorpusModule(kModules[state.range(0)]);
  state.SetLabel(kModules[state.range(0)]);
  for (auto _ : state) {
    spvtools::Optimizer optimizer(SPV_ENV_UNIVERSAL_1_5);
    optimizer.RegisterPerformancePasses();
    std::vector<uint32_t> out;
    if (words.empty() || !optimizer.Run(words.data(), words.size(), &out)) {
      state.SkipWithError("spirv-opt -O failed");
      break;
    }
    benchmark::DoNotOptimize(out.data());
  }
}

void BM_XmxOptO(benchmark::State& state) {
  const std::vector<uint32_t> words = ReadCorpusModule(kModules[state.range(0)]);
  state.SetLabel(kModules[state.range(0)]);
  const std::vector<std::string> flags = {"-O"};
  for (auto _ : state) {
    xmx::Result<std::vector<xmx::opt::PassStep>> steps = xmx::opt::ParsePipeline(flags);
    xmx::Result<xmx::opt::OptimizeReport> out =
        steps ? xmx::opt::Optimize(words, *steps, {})
              : xmx::Result<xmx::opt::OptimizeReport>::Failure(steps.diagnostics());
    if (!out) {
      state.SkipWithError("xmx-opt -O failed");
      break;
    }
    benchmark::DoNotOptimize(out->words.data());
  }
}

BENCHMARK(BM_SpirvOptO)->DenseRange(0, 1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_XmxOptO)->DenseRange(0, 1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
