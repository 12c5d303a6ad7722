// What the interpreter's unit tests share: the valid modules of the corpus and the benchmark
// set, loading kernel "k" of a module assembled from text, and loading kernel "k" of an
// assembled module with chosen LoadOptions and launching it in one
// dimension with the two arguments the hand-written kernels of those tests take, (global uint* out,
// uint n). The tests compare two ways of running the same kernel (promoted or not, unrolled or not,
// fast path or general path), so everything a launch says is kept: the out buffer, the reports, the
// error, whether it stopped, and what it dispatched.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "interp/kernel_access.hpp"
#include "interp/load/loader.hpp"
#include "val_test_support.hpp"
#include "xmx/interpreter.hpp"
#include "xmx/module.hpp"
#include "xmx/validator.hpp"

namespace xmx::interp::testing {

struct CorpusModule {
  std::filesystem::path path;
  ir::Module module;
};

// Every module of the corpus (test/corpus/spv) and of the benchmark set (bench/kernels) that
// validates, read: the corpus keeps producers' bad builds too, which the load-time transforms
// never see. A valid module that does not read fails the test.
inline std::vector<CorpusModule> ValidCorpusAndBenchmarkModules() {
  namespace fs = std::filesystem;
  std::vector<CorpusModule> modules;
  for (const char* dir : {"/test/corpus/spv", "/bench/kernels"}) {
    for (const fs::directory_entry& entry :
         fs::recursive_directory_iterator(std::string(XMX_SOURCE_DIR) + dir)) {
      if (entry.path().extension() != ".spv") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
      std::vector<uint32_t> words(bytes.size() / 4);
      std::memcpy(words.data(), bytes.data(), words.size() * 4);
      if (!val::Validate(words, {}).valid) continue;
      Diagnostic diagnostic;
      std::optional<ir::Module> module = ir::Module::FromWords(words, &diagnostic);
      EXPECT_TRUE(module) << entry.path() << ": " << diagnostic.Format();
      if (module) modules.push_back({entry.path(), std::move(*module)});
    }
  }
  return modules;
}

// A module read from words, with the function of its kernel "k".
struct KernelModule {
  ir::Module module;
  uint32_t function = 0;
};

// Reads `words` and finds kernel "k" in it; nullopt, with the test failed, when either fails.
inline std::optional<KernelModule> ReadKernelModule(const std::vector<uint32_t>& words) {
  Diagnostic diagnostic;
  std::optional<ir::Module> module = ir::Module::FromWords(words, &diagnostic);
  if (!module) {
    ADD_FAILURE() << diagnostic.Format();
    return std::nullopt;
  }
  Result<KernelSummary> kernel = FindKernel(*module, "k");
  EXPECT_TRUE(kernel.ok());
  if (!kernel.ok()) return std::nullopt;
  return KernelModule{std::move(*module), kernel->function_id};
}

// What loading kernel "k" gave: its program, or the loader's error.
struct LoadedKernel {
  std::optional<Program> program;
  Diagnostic error;
};

// Assembles `text` and loads its kernel "k" at `subgroup_size` (when the kernel declares none).
// A module that does not assemble or parse fails the test, and so does a failed load that says
// other than exactly one error.
inline LoadedKernel AssembleAndLoad(const std::string& text, uint32_t subgroup_size = 16) {
  const std::vector<uint32_t> words = val::testing::Assemble(text);
  Diagnostic diagnostic;
  std::optional<ir::Module> module = ir::Module::FromWords(words, &diagnostic);
  EXPECT_TRUE(module.has_value()) << diagnostic.Format();
  LoadedKernel loaded;
  if (!module) return loaded;
  LoadOptions options;
  options.kernel = "k";
  options.subgroup_size = subgroup_size;
  Result<Program> program = LoadProgram(*module, options);
  if (program) {
    loaded.program = std::move(*program);
  } else {
    EXPECT_EQ(program.diagnostics().size(), 1u);
    loaded.error = program.diagnostics().front();
  }
  return loaded;
}

struct LaunchResult {
  std::vector<uint8_t> out;  // the out buffer after the launch
  std::vector<RunReport> reports;
  std::string error;       // the launch's own error
  std::string load_error;  // reading or loading the module failed: nothing ran
  bool stopped = false;
  uint64_t instructions = 0;  // dispatched, as --stats counts them
};

struct OutAndCountLaunch {
  uint64_t global = 16;
  uint64_t local = 16;
  size_t out_bytes = 0;  // the out buffer starts as this many 0xEE bytes
  uint32_t n = 1;
  CheckMode check = CheckMode::kError;
  // A limit keeps a wrongly transformed loop from running for ever; unset keeps the default.
  std::optional<uint64_t> instruction_limit;
};

// Loads kernel "k" of `words` with `options` (its kernel name is set here) and runs it.
inline LaunchResult LaunchOutAndCount(const std::vector<uint32_t>& words, LoadOptions options,
                                      const OutAndCountLaunch& launch) {
  LaunchResult run;
  Diagnostic diagnostic;
  std::optional<ir::Module> module = ir::Module::FromWords(words, &diagnostic);
  if (!module) {
    run.load_error = diagnostic.Format();
    return run;
  }
  options.kernel = "k";
  Result<Program> program = LoadProgram(*module, options);
  if (!program) {
    run.load_error = program.diagnostics().front().message;
    return run;
  }
  RunRequest request;
  request.kernel = KernelAccess::Make(std::move(*program));
  request.geometry.dims = 1;
  request.geometry.global[0] = launch.global;
  request.geometry.local[0] = launch.local;
  request.options.check = launch.check;
  if (launch.instruction_limit) request.options.instruction_limit = *launch.instruction_limit;
  RunArgument out;
  out.kind = RunArgument::Kind::kBuffer;
  out.bytes.assign(launch.out_bytes, 0xEE);
  RunArgument count;
  count.bytes.resize(4);
  std::memcpy(count.bytes.data(), &launch.n, 4);
  request.arguments = {out, count};
  RunOutcome outcome = Execute(std::move(request));
  if (!outcome.buffers.empty()) run.out = std::move(outcome.buffers[0]);
  run.reports = std::move(outcome.reports);
  run.error = std::move(outcome.error);
  run.stopped = outcome.stopped;
  run.instructions = outcome.stats.instructions;
  return run;
}

// The 32-bit word at `index` of a buffer (0 past its end).
inline uint32_t Word(const std::vector<uint8_t>& bytes, size_t index) {
  uint32_t v = 0;
  if ((index + 1) * 4 <= bytes.size()) std::memcpy(&v, &bytes[index * 4], 4);
  return v;
}

// Expects two runs of one kernel to say the same: both loaded, the same error, out buffer and
// stop, and the same reports (rule, message, instruction, lane, work-item) in the same order.
inline void ExpectSameOutcome(const LaunchResult& a, const LaunchResult& b) {
  EXPECT_EQ(a.load_error, "");
  EXPECT_EQ(b.load_error, "");
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.stopped, b.stopped);
  EXPECT_EQ(a.reports.size(), b.reports.size());
  for (size_t i = 0; i < std::min(a.reports.size(), b.reports.size()); ++i) {
    EXPECT_EQ(a.reports[i].rule, b.reports[i].rule) << i;
    EXPECT_EQ(a.reports[i].message, b.reports[i].message) << i;
    EXPECT_EQ(a.reports[i].instruction_index, b.reports[i].instruction_index) << i;
    EXPECT_EQ(a.reports[i].lane, b.reports[i].lane) << i;
    EXPECT_EQ(a.reports[i].global_id[0], b.reports[i].global_id[0]) << i;
  }
}

// Two runs of one kernel, loaded with the load-time transform under test and without it.
struct TransformedAndPlain {
  LaunchResult transformed;
  LaunchResult plain;
};

// Runs kernel "k" of `text`, which must validate, loaded with `transformed` and with `plain`
// options, over `items` work-items (at most 16 a work-group) with `out_bytes_per_item` bytes of
// out buffer each and `n`, under an instruction limit that stops a wrongly transformed loop;
// expects both runs to say the same.
inline TransformedAndPlain RunTransformedAndPlain(const std::string& text,
                                                  const LoadOptions& transformed,
                                                  const LoadOptions& plain, uint64_t items,
                                                  size_t out_bytes_per_item, uint32_t n,
                                                  CheckMode check) {
  const std::vector<uint32_t> words = val::testing::Assemble(text);
  const val::ValidationResult valid = val::Validate(words, {});
  EXPECT_TRUE(valid.valid) << val::testing::Dump(valid);
  OutAndCountLaunch launch;
  launch.global = items;
  launch.local = items < 16 ? items : 16;
  launch.out_bytes = items * out_bytes_per_item;
  launch.n = n;
  launch.check = check;
  launch.instruction_limit = 1000000;
  TransformedAndPlain runs{LaunchOutAndCount(words, transformed, launch),
                           LaunchOutAndCount(words, plain, launch)};
  ExpectSameOutcome(runs.transformed, runs.plain);
  return runs;
}

}  // namespace xmx::interp::testing
