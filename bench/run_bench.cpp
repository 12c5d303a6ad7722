// xmx-run's figures (issue 4), printed side by side in one run:
//  (a) lane-instructions per second on an ALU-bound kernel (bench/kernels/alu_loop.cl), single
//      thread, at subgroup sizes 8, 16 and 32;
//  (b) GFLOP/s of bf16 GEMMs (2D block loads + the matrix instruction) at 512x512x512 with 1
//      and 2 threads: the example's kernel (examples/gemm_bf16.spv, an 8x32 tile per subgroup)
//      and a 32x32 register tile as production kernels use (corpus gemm_bf16_tile32_sg16), next
//      to PoCL running a plain tiled OpenCL C SGEMM of the same size, and the 32x32 tile written
//      with cooperative matrices (bench/kernels/coop_gemm_bf16.ll);
//  (c) matrix instructions per second for int8 M8xN16xK32 and bf16 M8xN16xK16 through the
//      interpreter (bench/kernels/mma_loop.cl), next to a native loop doing the same arithmetic;
//  (d) the GEMM benchmark set of issue 13 (run_bench_gemm.cpp), next to PoCL running plain
//      OpenCL C GEMMs (float and int8, here) of the same sizes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "run_bench_util.hpp"

#if XMX_BENCH_HAS_OPENCL
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#endif

namespace {

using xmx::bench::Buffer;
using xmx::bench::Int32;
using xmx::bench::Launch;
using xmx::bench::Load;
using xmx::bench::LoadedKernel;

// (a) ALU-bound kernel, single thread.
void BM_LaneInstructions(benchmark::State& state) {
  const uint32_t sg = static_cast<uint32_t>(state.range(0));
  static std::map<uint32_t, LoadedKernel> cache;
  if (!cache.count(sg)) cache[sg] = Load("bench/kernels/alu_loop.spv", "alu_loop", sg);
  const LoadedKernel& k = cache[sg];
  if (!k.program) {
    state.SkipWithError("cannot load bench/kernels/alu_loop.spv");
    return;
  }
  uint64_t lanes = 0;
  for (auto _ : state) {
    auto outcome =
        Launch(*k.program, 256, 1, 256, {Buffer(std::vector<uint8_t>(1024)), Int32(20000)}, 1);
    lanes += outcome.stats.lane_instructions;
  }
  state.counters["lane_instructions_per_s"] =
      benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LaneInstructions)
    ->Arg(8)
    ->Arg(16)
    ->Arg(32)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// (b) bf16 GEMM 512^3 through the interpreter.
constexpr int kGemmSize = 512;

std::vector<uint8_t> Bf16Matrix(int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(count * 2);
  for (int i = 0; i < count; ++i) {
    const float v = static_cast<float>(static_cast<int>(rng() % 17) - 8);
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    const uint16_t b = static_cast<uint16_t>(bits >> 16);
    std::memcpy(&bytes[i * 2], &b, 2);
  }
  return bytes;
}

// One bf16 GEMM kernel (A, B, C, M, N, K; one subgroup of 16 per `tile_rows` x 32 tile of C) at
// 512^3 on state.range(0) threads.
void GemmBf16(benchmark::State& state, const char* file, int tile_rows) {
  const uint32_t threads = static_cast<uint32_t>(state.range(0));
  LoadedKernel k = Load(file, "", 16);
  if (!k.program) {
    state.SkipWithError((std::string("cannot load ") + file).c_str());
    return;
  }
  const int n = kGemmSize;
  const std::vector<uint8_t> a = Bf16Matrix(n * n, 1), b = Bf16Matrix(n * n, 2);
  double flops = 0;
  for (auto _ : state) {
    state.PauseTiming();  // filling the caller's buffers is not the launch (run_bench_gemm.cpp)
    std::vector<xmx::interp::RunArgument> args;
    args.push_back(Buffer(a));
    args.push_back(Buffer(b));
    args.push_back(Buffer(std::vector<uint8_t>(n * n * 4)));
    for (int i = 0; i < 3; ++i) args.push_back(Int32(n));
    state.ResumeTiming();
    auto outcome = Launch(*k.program, n / 2, n / tile_rows, 16, std::move(args), threads);
    if (!outcome.reports.empty() || !outcome.error.empty()) {
      state.SkipWithError("the GEMM reported an error");
      return;
    }
    flops += 2.0 * n * n * n;
  }
  state.counters["GFLOP_per_s"] = benchmark::Counter(flops / 1e9, benchmark::Counter::kIsRate);
}

// The example's kernel: an 8x32 tile, two matrix instructions per K step.
void BM_GemmBf16(benchmark::State& state) { GemmBf16(state, "examples/gemm_bf16.spv", 8); }
BENCHMARK(BM_GemmBf16)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

// A 32x32 register tile, as production kernels block: eight matrix instructions per K step for
// one A and one B load.
void BM_GemmBf16Tile32(benchmark::State& state) {
  GemmBf16(state, "test/corpus/spv/gemm_bf16_tile32_sg16.llc22.O2.spv", 32);
}
BENCHMARK(BM_GemmBf16Tile32)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

// The same 32x32 tile written with cooperative matrices (bench/kernels/coop_gemm_bf16.ll, issue
// 10): four 8x16 A and two 16x16 B loads and eight 8x16x16 multiply-adds per K step. Target:
// within 1.5x of BM_GemmBf16Tile32's time.
void BM_CoopGemmBf16Tile32(benchmark::State& state) {
  GemmBf16(state, "bench/kernels/coop_gemm_bf16.spv", 32);
}
BENCHMARK(BM_CoopGemmBf16Tile32)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

#if XMX_BENCH_HAS_OPENCL
// Plain tiled GEMMs in OpenCL C (16x16 tiles in local memory), as an application would write
// them, run by PoCL on this CPU (on every core: PoCL's own thread pool): float, and int8 with an
// int accumulator for the int8 kernels.
const char* kPoclGemmSource = R"CLC(
#define TILE 16
#define GEMM(name, IN, ACC)                                                                  \
__kernel void name(__global const IN* A, __global const IN* B, __global ACC* C, int N) {      \
  __local IN As[TILE][TILE], Bs[TILE][TILE];                                                 \
  int row = get_global_id(1), col = get_global_id(0);                                        \
  int ly = get_local_id(1), lx = get_local_id(0);                                            \
  ACC acc = 0;                                                                               \
  for (int t = 0; t < N; t += TILE) {                                                        \
    As[ly][lx] = A[row * N + t + lx];                                                        \
    Bs[ly][lx] = B[(t + ly) * N + col];                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    for (int k = 0; k < TILE; ++k) acc += (ACC)As[ly][k] * (ACC)Bs[k][lx];                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                            \
  }                                                                                          \
  C[row * N + col] = acc;                                                                    \
}
GEMM(sgemm, float, float)
GEMM(igemm8, char, int)
)CLC";

// `kernel` of kPoclGemmSource at state.range(0)^3 (default 512), inputs of `in_bytes` bytes each
// holding small integers (2 as float, or 2 as char).
void PoclGemm(benchmark::State& state, const char* kernel_name, size_t in_bytes,
              const char* counter) {
  cl_platform_id platform;
  cl_device_id device;
  cl_uint count = 0;
  if (clGetPlatformIDs(1, &platform, &count) != CL_SUCCESS || count == 0 ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) {
    state.SkipWithError("no OpenCL device (install pocl-opencl-icd)");
    return;
  }
  cl_int err;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  cl_program program = clCreateProgramWithSource(context, 1, &kPoclGemmSource, nullptr, &err);
  if (clBuildProgram(program, 1, &device, "-cl-std=CL1.2", nullptr, nullptr) != CL_SUCCESS) {
    state.SkipWithError("PoCL could not build the GEMMs");
    return;
  }
  cl_kernel kernel = clCreateKernel(program, kernel_name, &err);
  const int n = state.range(0) > 0 ? static_cast<int>(state.range(0)) : kGemmSize;
  std::vector<uint8_t> host(in_bytes * n * n);
  if (in_bytes == 4) {
    const float two = 2.0f;
    for (size_t i = 0; i < host.size(); i += 4) std::memcpy(&host[i], &two, 4);
  } else {
    std::fill(host.begin(), host.end(), uint8_t{2});
  }
  const size_t bytes = in_bytes * n * n;
  cl_mem a =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host.data(), &err);
  cl_mem b =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host.data(), &err);
  cl_mem c =
      clCreateBuffer(context, CL_MEM_WRITE_ONLY, 4 * static_cast<size_t>(n) * n, nullptr, &err);
  clSetKernelArg(kernel, 0, sizeof(cl_mem), &a);
  clSetKernelArg(kernel, 1, sizeof(cl_mem), &b);
  clSetKernelArg(kernel, 2, sizeof(cl_mem), &c);
  clSetKernelArg(kernel, 3, sizeof(int), &n);
  const size_t global[2] = {static_cast<size_t>(n), static_cast<size_t>(n)}, local[2] = {16, 16};
  // One launch outside the timing: PoCL compiles the kernel for the work-group size lazily.
  clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, local, 0, nullptr, nullptr);
  clFinish(queue);
  double operations = 0;
  for (auto _ : state) {
    clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, local, 0, nullptr, nullptr);
    clFinish(queue);
    operations += 2.0 * n * n * n;
  }
  state.counters[counter] = benchmark::Counter(operations / 1e9, benchmark::Counter::kIsRate);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseMemObject(c);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

void BM_PoclSgemm(benchmark::State& state) { PoclGemm(state, "sgemm", 4, "GFLOP_per_s"); }
BENCHMARK(BM_PoclSgemm)
    ->Arg(512)
    ->Arg(128)
    ->Arg(256)
    ->Arg(1024)
    ->ArgName("size")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
void BM_PoclIgemm8(benchmark::State& state) { PoclGemm(state, "igemm8", 1, "GOP_per_s"); }
BENCHMARK(BM_PoclIgemm8)
    ->Arg(512)
    ->Arg(128)
    ->Arg(256)
    ->Arg(1024)
    ->ArgName("size")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
#endif

// (c) matrix instructions per second through the interpreter, single thread.
void BM_MatrixInstructions(benchmark::State& state, const char* kernel) {
  static std::map<std::string, LoadedKernel> cache;
  if (!cache.count(kernel)) cache[kernel] = Load("bench/kernels/mma_loop.spv", kernel, 16);
  const LoadedKernel& k = cache[kernel];
  if (!k.program) {
    state.SkipWithError("cannot load bench/kernels/mma_loop.spv");
    return;
  }
  // Small integers: int8 values in -8..7, or bf16 patterns of small integers, the data a GEMM
  // sees (random bf16 bit patterns would span the whole exponent range).
  const bool bf16 = std::string(kernel).find("bf16") != std::string::npos;
  std::vector<uint8_t> a(16 * 16), b(16 * 32);
  std::mt19937 rng(3);
  auto fill = [&](std::vector<uint8_t>& bytes) {
    if (!bf16) {
      for (uint8_t& v : bytes) v = static_cast<uint8_t>(static_cast<int>(rng() % 16) - 8);
      return;
    }
    for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
      const float f = static_cast<float>(static_cast<int>(rng() % 9) - 4);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      bytes[i] = static_cast<uint8_t>(bits >> 16);
      bytes[i + 1] = static_cast<uint8_t>(bits >> 24);
    }
  };
  fill(a);
  fill(b);
  uint64_t matrix = 0;
  for (auto _ : state) {
    auto outcome =
        Launch(*k.program, 16, 1, 16,
               {Buffer(a), Buffer(b), Buffer(std::vector<uint8_t>(16 * 32)), Int32(20000)}, 1);
    matrix += outcome.stats.matrix_instructions;
  }
  state.counters["matrix_instructions_per_s"] =
      benchmark::Counter(static_cast<double>(matrix), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_MatrixInstructions, int8_m8n16k32, "mma_int8_loop")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MatrixInstructions, bf16_m8n16k16, "mma_bf16_loop")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// The CPU's own figure for the same arithmetic: plain C++ computing one M8xN16 tile of
// C += A x B per "instruction" (K = 32 int8 / K = 16 bf16 as float), compiled like the rest.
template <class In, class Acc, int K>
void BM_NativeTile(benchmark::State& state) {
  constexpr int M = 8, N = 16;
  std::vector<In> a(M * K), b(K * N);
  std::mt19937 rng(4);
  for (In& v : a) v = static_cast<In>(static_cast<int>(rng() % 16) - 8);
  for (In& v : b) v = static_cast<In>(static_cast<int>(rng() % 16) - 8);
  std::vector<Acc> c(M * N, Acc(0));
  uint64_t tiles = 0;
  for (auto _ : state) {
    for (int m = 0; m < M; ++m) {
      for (int k = 0; k < K; ++k) {
        // int8 operands are numbers: sign-extended on purpose.
        // NOLINTNEXTLINE(bugprone-signed-char-misuse,cert-str34-c)
        const Acc av = static_cast<Acc>(a[m * K + k]);
        for (int n = 0; n < N; ++n) c[m * N + n] += av * static_cast<Acc>(b[k * N + n]);
      }
    }
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
    ++tiles;
  }
  state.counters["matrix_instructions_per_s"] =
      benchmark::Counter(static_cast<double>(tiles), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NativeTile<int8_t, int32_t, 32>)->Name("BM_NativeTile/int8_m8n16k32");
BENCHMARK(BM_NativeTile<float, float, 16>)->Name("BM_NativeTile/bf16_as_float_m8n16k16");

}  // namespace

BENCHMARK_MAIN();
