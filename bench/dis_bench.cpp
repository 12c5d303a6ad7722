// Disassembly throughput on synthesized modules of 1, 2, 4 and 8 MB: our parser (into the
// in-memory module) and our disassembler (default and --raw-id) at each size, so that the growth
// with size shows, and, side by side on the 8 MB file, whole-process runs of xmx-dis and the
// installed spirv-dis. Figures only; nothing here asserts a time.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "module_builder.hpp"
#include "xmx/module.hpp"
#include "xmx/spirv_enums.hpp"
#include "xmx/text.hpp"

extern char** environ;

namespace {

using xmx::bench::Builder;
using xmx::spv::Op;

// An OpenCL-style module: shared types and constants, then kernels whose bodies mix loads,
// integer and float arithmetic, OpenCL.std calls, conversions, branches and named values, until
// the module reaches `target_bytes`.
std::vector<uint32_t> SynthesizeModule(size_t target_bytes) {
  Builder b;
  b.Inst(Op::OpCapability, {4});   // Addresses
  b.Inst(Op::OpCapability, {6});   // Kernel
  b.Inst(Op::OpCapability, {11});  // Int64
  const uint32_t ocl = b.Id();
  b.Named(Op::OpExtInstImport, {ocl}, "OpenCL.std");
  b.Inst(Op::OpMemoryModel, {2, 2});
  // The names go where the logical layout puts them, before the types, once all are known.
  const size_t debug_section = b.size();
  Builder names;
  const uint32_t t_void = b.Id(), t_uint = b.Id(), t_ulong = b.Id(), t_float = b.Id(),
                 t_ptr = b.Id(), t_fn = b.Id(), c_4 = b.Id(), c_half = b.Id();
  b.Inst(Op::OpTypeVoid, {t_void});
  b.Inst(Op::OpTypeInt, {t_uint, 32, 0});
  b.Inst(Op::OpTypeInt, {t_ulong, 64, 0});
  b.Inst(Op::OpTypeFloat, {t_float, 32});
  b.Inst(Op::OpTypePointer, {t_ptr, 5, t_float});  // CrossWorkgroup
  b.Inst(Op::OpTypeFunction, {t_fn, t_void, t_ptr, t_ptr, t_uint});
  b.Inst(Op::OpConstant, {t_uint, c_4, 4});
  b.Inst(Op::OpConstant, {t_float, c_half, 0x3F000000});
  for (uint32_t k = 0; (b.size() + names.size()) * 4 < target_bytes; ++k) {
    const uint32_t fn = b.Id(), in = b.Id(), out = b.Id(), n = b.Id(), entry = b.Id();
    // Distinct names: spirv-dis uniquifies repeated names in quadratic time, which would flatter
    // the comparison.
    names.Named(Op::OpName, {in}, "in" + std::to_string(k));
    b.Inst(Op::OpFunction, {t_void, fn, 0, t_fn});
    b.Inst(Op::OpFunctionParameter, {t_ptr, in});
    b.Inst(Op::OpFunctionParameter, {t_ptr, out});
    b.Inst(Op::OpFunctionParameter, {t_uint, n});
    b.Inst(Op::OpLabel, {entry});
    uint32_t acc = c_half;
    for (int i = 0; i < 40; ++i) {
      const uint32_t idx = b.Id(), wide = b.Id(), p = b.Id(), v = b.Id(), m = b.Id(), f = b.Id();
      b.Inst(Op::OpIMul, {t_uint, idx, n, c_4});
      b.Inst(Op::OpUConvert, {t_ulong, wide, idx});
      b.Inst(Op::OpInBoundsPtrAccessChain, {t_ptr, p, in, wide});
      b.Inst(Op::OpLoad, {t_float, v, p, 2, 4});  // Aligned 4
      b.Inst(Op::OpFMul, {t_float, m, v, acc});
      b.Inst(Op::OpExtInst, {t_float, f, ocl, 26, m, v, acc});  // fma
      b.Inst(Op::OpStore, {out, f, 2, 4});
      acc = f;
    }
    b.Inst(Op::OpReturn, {});
    b.Inst(Op::OpFunctionEnd, {});
  }
  b.InsertAt(debug_section, names);
  return b.Finish();
}

// The module of `mb` megabytes (1, 2, 4 or 8), made once.
const std::vector<uint32_t>& Module(int64_t mb = 8) {
  static std::vector<uint32_t> modules[4];
  const int slot = mb >= 8 ? 3 : mb >= 4 ? 2 : mb >= 2 ? 1 : 0;
  if (modules[slot].empty()) modules[slot] = SynthesizeModule(size_t{1} << (20 + slot));
  return modules[slot];
}

// The module as a file, for the whole-process runs.
const std::string& ModuleFile() {
  static const std::string path = [] {
    std::string p = (std::filesystem::temp_directory_path() /
                     ("xmx_dis_bench_" + std::to_string(getpid()) + ".spv"))
                        .string();
    const std::vector<uint8_t> bytes = xmx::BytesFromWords(Module());
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return p;
  }();
  return path;
}

void BM_ParseModule(benchmark::State& state) {
  const auto& words = Module(state.range(0));
  for (auto _ : state) {
    const xmx::Result<xmx::ir::Module> module = xmx::ir::Module::Parse(words);
    if (!module) state.SkipWithError(module.diagnostics()[0].Format().c_str());
    benchmark::DoNotOptimize(&module);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(words.size() * 4));
}
BENCHMARK(BM_ParseModule)
    ->ArgName("MB")
    ->RangeMultiplier(2)
    ->Range(1, 8)
    ->Unit(benchmark::kMillisecond);

void BM_Disassemble(benchmark::State& state) {
  const auto& words = Module(state.range(1));
  xmx::text::DisassembleOptions options;
  options.friendly_names = state.range(0) != 0;
  size_t text_bytes = 0;
  for (auto _ : state) {
    const xmx::Result<std::string> text = xmx::text::Disassemble(words, options);
    if (!text) {
      state.SkipWithError(text.diagnostics()[0].Format().c_str());
      break;
    }
    text_bytes = text->size();
    benchmark::DoNotOptimize(text->data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(words.size() * 4));
  state.counters["text_MB"] = double(text_bytes) / 1e6;
}
BENCHMARK(BM_Disassemble)
    ->ArgNames({"friendly", "MB"})
    ->ArgsProduct({{1, 0}, {1, 2, 4, 8}})
    ->Unit(benchmark::kMillisecond);

// Runs `argv` with its output to /dev/null; returns the wall time in seconds, or -1.
double TimeProcess(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid;
  int status = 0;
  const bool ok = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0 &&
                  waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  const auto end = std::chrono::steady_clock::now();
  posix_spawn_file_actions_destroy(&actions);
  return ok ? std::chrono::duration<double>(end - start).count() : -1;
}

std::string XmxDisPath() {
  // The benchmark lives in <build>/bench/, the tool in <build>/.
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return (self.parent_path().parent_path() / "xmx-dis").string();
}

void RunProcess(benchmark::State& state, const std::string& tool) {
  const auto& words = Module();
  for (auto _ : state) {
    const double seconds = TimeProcess({tool, ModuleFile()});
    if (seconds < 0) {
      state.SkipWithError(("cannot run " + tool).c_str());
      break;
    }
    state.SetIterationTime(seconds);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(words.size() * 4));
}

void BM_ProcessXmxDis(benchmark::State& state) { RunProcess(state, XmxDisPath()); }
void BM_ProcessSpirvDis(benchmark::State& state) { RunProcess(state, "spirv-dis"); }
BENCHMARK(BM_ProcessXmxDis)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProcessSpirvDis)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  // The acceptance figure: whole-process time of xmx-dis over spirv-dis, best of 5 each.
  double ours = 1e9, theirs = 1e9;
  for (int i = 0; i < 5; ++i) {
    const double x = TimeProcess({XmxDisPath(), ModuleFile()});
    const double s = TimeProcess({"spirv-dis", ModuleFile()});
    if (x >= 0) ours = std::min(ours, x);
    if (s >= 0) theirs = std::min(theirs, s);
  }
  const double mb = double(Module().size() * 4) / 1e6;
  if (ours < 1e9 && theirs < 1e9) {
    std::printf(
        "\n%.1f MB module: xmx-dis %.1f ms (%.0f MB/s), spirv-dis %.1f ms (%.0f MB/s), "
        "ratio xmx-dis/spirv-dis = %.2f\n",
        mb, ours * 1e3, mb / ours, theirs * 1e3, mb / theirs, ours / theirs);
  } else {
    std::printf("\nxmx-dis or spirv-dis could not be run; no side-by-side figure\n");
  }
  std::remove(ModuleFile().c_str());
  return 0;
}
