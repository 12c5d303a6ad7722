// run_bench's GEMM benchmark set (issue 13): every build of the kernels of bench/kernels/gemm_*
// and the cooperative-matrix GEMMs, run by the interpreter at 512^3 with 1 and 2 threads and,
// single-threaded, at 128^3, 256^3 and 1024^3 (how the time grows), next to a native C++ loop
// computing the same products in the same float model. The kernels' C is checked against a
// host matmul by the bench.gemm.* tests (test/cli/bench_gemm.cmake); here only the time counts.
//
//   BM_GemmSet/<kernel>.<producer>.<opt>/<size>/<threads>   GFLOP_per_s (GOP_per_s for int8)
//   BM_NativeGemm/<type>/<size>/<threads>                   the same for the C++ loop
//
// Time is wall-clock time, CPU time the whole process's (every thread's).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "run_bench_util.hpp"

namespace xmx::bench {
namespace {

enum class Element { kBf16, kFp16, kInt8, kTf32 };
// How the work-items cover C: `kNative` one subgroup of 16 per tile in NDRange (N / tile_n * 16,
// M / tile_m), local (16, 1); `kCoop` test/coop's acceptance GEMMs, (M / tile_m, N / tile_n * 16),
// local (1, 16).
enum class Grid { kNative, kCoop };
// The arguments after the A, B and C buffers.
enum class SizeArgs { kNone, kMnk, kMnkLd, kMnk64 };

struct GemmKernel {
  const char* name;  // the benchmark's name: <kernel>.<producer>.<opt>
  const char* file;  // the module, relative to the source tree
  Element element;
  int tile_m, tile_n;
  Grid grid;
  SizeArgs args;
  int fixed_size;  // the one size a kernel with constant pitches is written for; 0: any
};

#define XMX_GEMM(kernel, build, element, tm, tn, args)                                             \
  GemmKernel {                                                                                     \
#kernel "." #build, "bench/kernels/gemm_" #kernel "." #build ".spv", Element::element, tm, tn, \
        Grid::kNative, SizeArgs::args, 0                                                           \
  }
#define XMX_COOP_ACCEPT(kernel, element, tm, tn)                                  \
  GemmKernel {                                                                    \
    "coop_" #kernel ".llc22.O2", "test/coop/accept_spv/" #kernel ".llc22.O2.spv", \
        Element::element, tm, tn, Grid::kCoop, SizeArgs::kMnk64, 0                \
  }

// bench/kernels/gemm_*.cl say how each is written; the cooperative-matrix GEMMs are
// bench/kernels/coop_gemm_bf16.ll (the 32x32 tile of gemm_bf16_tile32 with joint_matrix-style
// loads) and test/coop's acceptance GEMMs of each element type.
const GemmKernel kGemmKernels[] = {
    XMX_GEMM(bf16_32x32_ldargs_prefetch_cast, llc22.O2, kBf16, 32, 32, kMnkLd),
    XMX_GEMM(bf16_32x32_ldargs_prefetch_cast, llc22.O0, kBf16, 32, 32, kMnkLd),
    XMX_GEMM(bf16_32x32_ldargs_prefetch_cast, spirv15.O0, kBf16, 32, 32, kMnkLd),
    {"bf16_32x32_const.llc22.O2", "bench/kernels/gemm_bf16_32x32_const.llc22.O2.spv",
     Element::kBf16, 32, 32, Grid::kNative, SizeArgs::kNone, 512},
    XMX_GEMM(bf16_8x16_direct, llc22.O2, kBf16, 8, 16, kMnk),
    XMX_GEMM(bf16_8x16_direct, llc22.O0, kBf16, 8, 16, kMnk),
    XMX_GEMM(bf16_8x16_direct, spirv15.O0, kBf16, 8, 16, kMnk),
    XMX_GEMM(bf16_8x16_direct, spirv15.O2, kBf16, 8, 16, kMnk),
    XMX_GEMM(bf16_16x32_builtins, llc22.O2, kBf16, 16, 32, kMnk),
    XMX_GEMM(bf16_16x32_builtins, llc22.O0, kBf16, 16, 32, kMnk),
    XMX_GEMM(bf16_16x32_builtins, spirv15.O0, kBf16, 16, 32, kMnk),
    XMX_GEMM(fp16_16x32_prefetch, llc22.O2, kFp16, 16, 32, kMnk),
    XMX_GEMM(fp16_16x32_prefetch, llc22.O0, kFp16, 16, 32, kMnk),
    XMX_GEMM(fp16_16x32_prefetch, spirv15.O0, kFp16, 16, 32, kMnk),
    XMX_GEMM(int8_32x32_ldargs_cast, llc22.O2, kInt8, 32, 32, kMnkLd),
    XMX_GEMM(int8_32x32_ldargs_cast, spirv15.O0, kInt8, 32, 32, kMnkLd),
    XMX_GEMM(tf32_8x16_plain, llc22.O2, kTf32, 8, 16, kMnk),
    XMX_GEMM(tf32_8x16_plain, llc22.O0, kTf32, 8, 16, kMnk),
    XMX_GEMM(tf32_8x16_plain, spirv15.O0, kTf32, 8, 16, kMnk),
    XMX_GEMM(tf32_8x16_plain, spirv15.O2, kTf32, 8, 16, kMnk),
    XMX_GEMM(tf32_32x16_block2d, llc22.O2, kTf32, 32, 16, kMnk),
    XMX_GEMM(tf32_32x16_block2d, spirv15.O0, kTf32, 32, 16, kMnk),
    {"coop_gemm_bf16.llc22.O2", "bench/kernels/coop_gemm_bf16.spv", Element::kBf16, 32, 32,
     Grid::kNative, SizeArgs::kMnk, 0},
    XMX_COOP_ACCEPT(gemm_bf16_32x64x16, kBf16, 32, 64),
    XMX_COOP_ACCEPT(gemm_f16_f32, kFp16, 8, 16),
    XMX_COOP_ACCEPT(gemm_int8_khr, kInt8, 8, 16),
    XMX_COOP_ACCEPT(gemm_tf32, kTf32, 8, 16),
};
#undef XMX_GEMM
#undef XMX_COOP_ACCEPT

int InputBytes(Element e) {
  switch (e) {
    case Element::kInt8:
      return 1;
    case Element::kBf16:
    case Element::kFp16:
      return 2;
    case Element::kTf32:
      break;
  }
  return 4;
}

// The matrix instruction's K: the block of products it sums before rounding (floats).
int InstructionK(Element e) {
  switch (e) {
    case Element::kInt8:
      return 32;
    case Element::kBf16:
    case Element::kFp16:
      return 16;
    case Element::kTf32:
      break;
  }
  return 8;
}

// The operands: small integers (-8..8), the data a GEMM benchmark uses everywhere (random bit
// patterns would span the whole exponent range and time NaN handling instead).
std::vector<int> SmallIntegers(int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int> values(count);
  for (int& v : values) v = static_cast<int>(rng() % 17) - 8;
  return values;
}

void PutBits(std::vector<uint8_t>& bytes, size_t index, uint32_t bits, int size) {
  for (int b = 0; b < size; ++b) bytes[index * size + b] = static_cast<uint8_t>(bits >> (8 * b));
}

uint32_t FloatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

// A matrix of small integers in the operand type's encoding.
std::vector<uint8_t> Encode(const std::vector<int>& values, Element e) {
  const int size = InputBytes(e);
  std::vector<uint8_t> bytes(values.size() * size);
  for (size_t i = 0; i < values.size(); ++i) {
    const int v = values[i];
    switch (e) {
      case Element::kInt8:
        bytes[i] = static_cast<uint8_t>(static_cast<int8_t>(v));
        break;
      case Element::kBf16:
        PutBits(bytes, i, FloatBits(static_cast<float>(v)) >> 16, 2);
        break;
      case Element::kFp16:
        PutBits(bytes, i, xmx::interp::HalfFromDouble(v), 2);
        break;
      case Element::kTf32:
        PutBits(bytes, i, FloatBits(static_cast<float>(v)), 4);
        break;
    }
  }
  return bytes;
}

const LoadedKernel& Loaded(const GemmKernel& g) {
  static std::map<std::string, LoadedKernel> cache;
  auto it = cache.find(g.file);
  if (it == cache.end()) it = cache.emplace(g.file, Load(g.file, "", 16, "pvc")).first;
  return it->second;
}

void BM_GemmSet(benchmark::State& state, const GemmKernel& g) {
  const int n = static_cast<int>(state.range(0));
  const uint32_t threads = static_cast<uint32_t>(state.range(1));
  const LoadedKernel& k = Loaded(g);
  if (!k.program) {
    state.SkipWithError((std::string("cannot load ") + g.file).c_str());
    return;
  }
  const std::vector<uint8_t> a = Encode(SmallIntegers(n * n, 1), g.element);
  const std::vector<uint8_t> b = Encode(SmallIntegers(n * n, 2), g.element);
  uint64_t gx = static_cast<uint64_t>(n / g.tile_n) * 16, gy = n / g.tile_m, lx = 16, ly = 1;
  if (g.grid == Grid::kCoop) {
    gx = n / g.tile_m;
    gy = static_cast<uint64_t>(n / g.tile_n) * 16;
    lx = 1;
    ly = 16;
  }
  double operations = 0;
  for (auto _ : state) {
    // The caller's side of a launch (filling its input buffers) is not the interpreter's work;
    // untimed, it would otherwise be serial time in the 2-thread figures.
    state.PauseTiming();
    std::vector<xmx::interp::RunArgument> args;
    args.push_back(Buffer(a));
    args.push_back(Buffer(b));
    args.push_back(Buffer(std::vector<uint8_t>(static_cast<size_t>(n) * n * 4)));
    if (g.args == SizeArgs::kMnk64) {
      for (int i = 0; i < 3; ++i) args.push_back(Scalar<int64_t>(n));
    } else if (g.args != SizeArgs::kNone) {
      for (int i = 0; i < (g.args == SizeArgs::kMnkLd ? 6 : 3); ++i) args.push_back(Int32(n));
    }
    state.ResumeTiming();
    const xmx::interp::RunOutcome outcome =
        Launch(*k.program, gx, gy, lx, std::move(args), threads, ly);
    if (!outcome.reports.empty() || !outcome.error.empty()) {
      state.SkipWithError((std::string(g.name) + ": " + outcome.error).c_str());
      return;
    }
    operations += 2.0 * n * n * n;
  }
  state.counters[g.element == Element::kInt8 ? "GOP_per_s" : "GFLOP_per_s"] =
      benchmark::Counter(operations / 1e9, benchmark::Counter::kIsRate);
}

// Sizes: 512^3 on 1 and 2 threads; the growth from 128^3 to 1024^3 on one thread.
void GemmArguments(benchmark::internal::Benchmark* b, int fixed_size) {
  if (fixed_size != 0) {
    b->Args({fixed_size, 1})->Args({fixed_size, 2});
    return;
  }
  b->Args({512, 1})->Args({512, 2})->Args({128, 1})->Args({256, 1})->Args({1024, 1});
}

// The CPU's own figure: plain C++ computing C = A x B for the same operands in the same float
// model. Floats: the products of each instruction's K block summed in double (exact for this
// data, as for any data whose block sums fit 53 bits), added to C and rounded once to float:
// xmx-run's `exact` model. int8: int32 sums (the data cannot overflow them). Row i of C is
// computed in k-blocks over whole rows of B (i-k-j order, which the compiler vectorises);
// `threads` split the rows.
template <class In, class Acc, class Sum>
void NativeRows(const std::vector<In>& a, const std::vector<In>& b, std::vector<Acc>& c, int n,
                int k_block, int row_begin, int row_end) {
  std::vector<Sum> partial(n);
  for (int i = row_begin; i < row_end; ++i) {
    Acc* c_row = &c[static_cast<size_t>(i) * n];
    for (int k0 = 0; k0 < n; k0 += k_block) {
      std::fill(partial.begin(), partial.end(), Sum(0));
      for (int k = k0; k < std::min(n, k0 + k_block); ++k) {
        // int8 operands are numbers: sign-extended on purpose.
        // NOLINTNEXTLINE(bugprone-signed-char-misuse,cert-str34-c)
        const Sum av = static_cast<Sum>(a[static_cast<size_t>(i) * n + k]);
        const In* b_row = &b[static_cast<size_t>(k) * n];
        for (int j = 0; j < n; ++j) partial[j] += av * static_cast<Sum>(b_row[j]);
      }
      for (int j = 0; j < n; ++j)
        c_row[j] = static_cast<Acc>(static_cast<Sum>(c_row[j]) + partial[j]);
    }
  }
}

template <class In, class Acc, class Sum>
void BM_NativeGemm(benchmark::State& state, Element element) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  std::vector<In> a, b;
  for (int v : SmallIntegers(n * n, 1)) a.push_back(static_cast<In>(v));
  for (int v : SmallIntegers(n * n, 2)) b.push_back(static_cast<In>(v));
  std::vector<Acc> c(static_cast<size_t>(n) * n);
  // int8 sums whole rows: integer sums do not depend on the blocks.
  const int k_block = element == Element::kInt8 ? n : InstructionK(element);
  double operations = 0;
  for (auto _ : state) {
    std::fill(c.begin(), c.end(), Acc(0));
    if (threads == 1) {
      // On the benchmark's own thread, so that its CPU time is the loop's (as for the
      // interpreter, which runs a one-thread launch on the calling thread).
      NativeRows<In, Acc, Sum>(a, b, c, n, k_block, 0, n);
      benchmark::DoNotOptimize(c.data());
      benchmark::ClobberMemory();
      operations += 2.0 * n * n * n;
      continue;
    }
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        NativeRows<In, Acc, Sum>(a, b, c, n, k_block, n * t / threads, n * (t + 1) / threads);
      });
    }
    for (std::thread& w : workers) w.join();
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
    operations += 2.0 * n * n * n;
  }
  state.counters[element == Element::kInt8 ? "GOP_per_s" : "GFLOP_per_s"] =
      benchmark::Counter(operations / 1e9, benchmark::Counter::kIsRate);
}

bool RegisterGemmSet() {
  for (const GemmKernel& g : kGemmKernels) {
    benchmark::internal::Benchmark* b =
        benchmark::RegisterBenchmark((std::string("BM_GemmSet/") + g.name).c_str(),
                                     [&g](benchmark::State& state) { BM_GemmSet(state, g); });
    GemmArguments(b, g.fixed_size);
    // CPU time is every thread's: with 2 threads, against the 1-thread figure, it shows what
    // the threads add to the work, whatever else the machine runs.
    b->ArgNames({"size", "threads"})
        ->UseRealTime()
        ->MeasureProcessCPUTime()
        ->Unit(benchmark::kMillisecond);
  }
  const struct {
    const char* name;
    void (*run)(benchmark::State&, Element);
    Element element;
  } natives[] = {
      {"bf16", BM_NativeGemm<float, float, double>, Element::kBf16},
      {"fp16", BM_NativeGemm<float, float, double>, Element::kFp16},
      {"tf32", BM_NativeGemm<float, float, double>, Element::kTf32},
      {"int8", BM_NativeGemm<int8_t, int32_t, int32_t>, Element::kInt8},
  };
  for (const auto& native : natives) {
    benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(
        (std::string("BM_NativeGemm/") + native.name).c_str(),
        [native](benchmark::State& state) { native.run(state, native.element); });
    GemmArguments(b, 0);
    b->ArgNames({"size", "threads"})->UseRealTime()->Unit(benchmark::kMillisecond);
  }
  return true;
}

const bool kGemmSetRegistered = RegisterGemmSet();

}  // namespace
}  // namespace xmx::bench
