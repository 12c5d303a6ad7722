// MatrixMadKernel::Run throughput: items per second = matrix instructions per second, one thread.
// Each interpreter figure has, next to it, a plain C++ loop doing the same number of
// multiply-adds on the same element types in a natural layout, compiled with the build's normal
// flags (no -march), as the CPU's reference figure. The native loops round however the compiler
// likes and do not unpack register slots, so they bound what Run could reach, not what it should.
#include <benchmark/benchmark.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "interp/matrix_mad/matrix_mad.hpp"

namespace {

using xmx::interp::MatrixMadKernel;
using xmx::interp::MatrixMadShape;
using xmx::interp::MmaFloatModel;
using xmx::interp::MmaIsa;
using xmx::interp::ScalarKind;
using xmx::interp::ValueType;

ValueType Int(uint8_t bytes, uint32_t components) {
  return {{ScalarKind::kInt, bytes}, components};
}
ValueType Float(uint8_t bytes, uint32_t components) {
  return {{ScalarKind::kFloat, bytes}, components};
}

// Register slots of random bytes for one instruction; `c_pattern` fills C's lanes instead when
// the accumulator's bytes matter (floats must be finite and of a sensible size).
struct Slots {
  std::vector<uint8_t> a, b, c, result;
};

Slots RandomSlots(const MatrixMadShape& shape, uint32_t float_c_bytes, uint32_t seed,
                  uint16_t (*float_element)(std::mt19937&) = nullptr) {
  std::mt19937 rng(seed);
  auto fill = [&](const ValueType& type, bool elements_16) {
    std::vector<uint8_t> bytes(type.lane_bytes() * shape.subgroup_size);
    if (elements_16 && float_element != nullptr) {
      for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
        const uint16_t v = float_element(rng);
        bytes[i] = static_cast<uint8_t>(v);
        bytes[i + 1] = static_cast<uint8_t>(v >> 8);
      }
    } else {
      for (uint8_t& x : bytes) x = static_cast<uint8_t>(rng());
    }
    return bytes;
  };
  Slots s;
  s.a = fill(shape.a, true);
  s.b = fill(shape.b, true);
  s.c = fill(shape.c, false);
  if (float_c_bytes == 4) {  // fp32 C: values in [-64, 64)
    std::uniform_real_distribution<float> dist(-64.0f, 64.0f);
    for (size_t i = 0; i + 3 < s.c.size(); i += 4) {
      const uint32_t v = std::bit_cast<uint32_t>(dist(rng));
      for (int j = 0; j < 4; ++j) s.c[i + j] = static_cast<uint8_t>(v >> (8 * j));
    }
  }
  s.result.resize(shape.result.lane_bytes() * shape.subgroup_size);
  return s;
}

// bf16 values of magnitude 2^-8 .. 2^8 with random signs and mantissas.
uint16_t TypicalBFloat16(std::mt19937& rng) {
  const uint32_t exponent = 127 - 8 + rng() % 17;
  return static_cast<uint16_t>(((rng() & 1) << 15) | (exponent << 7) | (rng() & 0x7F));
}
// bf16 values spread over the whole exponent range, so the exact model's double bound fails
// and every sum takes the fixed-point path.
uint16_t WideBFloat16(std::mt19937& rng) {
  const uint32_t exponent = 1 + rng() % 254;
  return static_cast<uint16_t>(((rng() & 1) << 15) | (exponent << 7) | (rng() & 0x7F));
}

// int8 elements of the GEMM benchmarks (run_bench: -8 .. 8), and of quantized data using the
// symmetric range -127 .. 127. The AVX2 int8 routine sums byte products in 16 bits as far as the
// elements' magnitudes allow (matrix_mad_fast_avx2.cpp): eight quads of k for the first, one for
// the second, and random bytes (with -128) take its 16-bit widening routine. The AVX-512 VNNI
// routine (matrix_mad_fast_avx512_int8.cpp) costs the same for every input.
uint8_t SmallInt8(std::mt19937& rng) {
  return static_cast<uint8_t>(static_cast<int>(rng() % 17) - 8);
}
uint8_t SymmetricInt8(std::mt19937& rng) {
  return static_cast<uint8_t>(static_cast<int>(rng() % 255) - 127);
}

void RunKernel(benchmark::State& state, const MatrixMadShape& shape, MmaFloatModel model,
               MmaIsa isa, uint32_t float_c_bytes, uint16_t (*float_element)(std::mt19937&),
               uint8_t (*int8_element)(std::mt19937&) = nullptr) {
  std::string why;
  const auto kernel = MatrixMadKernel::Prepare(shape, model, &why, isa);
  if (!kernel) {
    state.SkipWithError(why.c_str());
    return;
  }
  Slots s = RandomSlots(shape, float_c_bytes, 7, float_element);
  if (int8_element != nullptr) {
    std::mt19937 rng(11);
    for (uint8_t& x : s.a) x = int8_element(rng);
    for (uint8_t& x : s.b) x = int8_element(rng);
  }
  for (auto _ : state) {
    kernel->Run(s.a.data(), s.b.data(), s.c.data(), s.result.data());
    benchmark::DoNotOptimize(s.result.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
  // The family, and "hand-vectorized" when Prepare chose one of the routines written for the
  // shapes GEMMs use most (matrix_mad_fast_*.cpp) over the generic templates.
  std::string label = kernel->isa() == MmaIsa::kAvx512 ? "avx512"
                      : kernel->isa() == MmaIsa::kAvx2 ? "avx2"
                                                       : "portable";
  if (kernel->hand_vectorized()) label += " hand-vectorized";
  state.SetLabel(label);
}

// SG16 M8 K32 int8 x int8 (s8 x s8), int32 accumulator: 4096 multiply-adds. Random register
// bytes unless the benchmark names its data.
const MatrixMadShape kInt8Shape{16, 32, 0x33, Int(4, 8), Int(2, 8), Int(4, 8), Int(4, 8)};
// SG16 M8 K16 bf16 x bf16, fp32 accumulator: 2048 multiply-adds.
const MatrixMadShape kBf16Shape{16, 16, 0x3000, Float(4, 8), Int(2, 8), Int(4, 8), Float(4, 8)};

void BM_Int8_M8N16K32(benchmark::State& state) {
  RunKernel(state, kInt8Shape, MmaFloatModel::kExact, MmaIsa::kBest, 0, nullptr);
}
void BM_Int8_M8N16K32_GemmData(benchmark::State& state) {
  RunKernel(state, kInt8Shape, MmaFloatModel::kExact, MmaIsa::kBest, 0, nullptr, SmallInt8);
}
void BM_Int8_M8N16K32_Symmetric127(benchmark::State& state) {
  RunKernel(state, kInt8Shape, MmaFloatModel::kExact, MmaIsa::kBest, 0, nullptr, SymmetricInt8);
}
void BM_Int8_M8N16K32_Portable(benchmark::State& state) {
  RunKernel(state, kInt8Shape, MmaFloatModel::kExact, MmaIsa::kPortable, 0, nullptr);
}
void BM_Bf16_M8N16K16(benchmark::State& state) {
  RunKernel(state, kBf16Shape, MmaFloatModel::kExact, MmaIsa::kBest, 4, TypicalBFloat16);
}
void BM_Bf16_M8N16K16_Portable(benchmark::State& state) {
  RunKernel(state, kBf16Shape, MmaFloatModel::kExact, MmaIsa::kPortable, 4, TypicalBFloat16);
}
void BM_Bf16_M8N16K16_Ordered(benchmark::State& state) {
  RunKernel(state, kBf16Shape, MmaFloatModel::kOrdered, MmaIsa::kBest, 4, TypicalBFloat16);
}
// Every sum on the exact fixed-point path: the worst case of the exact model.
void BM_Bf16_M8N16K16_ExactSlowPath(benchmark::State& state) {
  RunKernel(state, kBf16Shape, MmaFloatModel::kExact, MmaIsa::kBest, 4, WideBFloat16);
}

// Native reference: C[8][16] += A[8][32] * B[32][16], int8 inputs, int32 accumulators.
void BM_NativeLoop_Int8_M8N16K32(benchmark::State& state) {
  std::mt19937 rng(3);
  int8_t a[8][32], b[32][16];
  int32_t c[8][16] = {};
  for (auto& row : a) {
    for (int8_t& x : row) x = static_cast<int8_t>(rng());
  }
  for (auto& row : b) {
    for (int8_t& x : row) x = static_cast<int8_t>(rng());
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(&a[0][0]);
    benchmark::DoNotOptimize(&b[0][0]);
    for (int m = 0; m < 8; ++m) {
      for (int k = 0; k < 32; ++k) {
        // The int8 value, sign-extended by arithmetic (the compiler emits one sign extension).
        const int32_t x = (static_cast<int32_t>(static_cast<uint8_t>(a[m][k])) ^ 0x80) - 0x80;
        for (int n = 0; n < 16; ++n) c[m][n] += x * b[k][n];
      }
    }
    benchmark::DoNotOptimize(&c[0][0]);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}

// Native reference: C[8][16] += A[8][16] * B[16][16], bf16 inputs widened to float in the loop,
// float accumulators.
void BM_NativeLoop_Bf16_M8N16K16(benchmark::State& state) {
  std::mt19937 rng(3);
  uint16_t a[8][16], b[16][16];
  float c[8][16] = {};
  for (auto& row : a) {
    for (uint16_t& x : row) x = TypicalBFloat16(rng);
  }
  for (auto& row : b) {
    for (uint16_t& x : row) x = TypicalBFloat16(rng);
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(&a[0][0]);
    benchmark::DoNotOptimize(&b[0][0]);
    for (int m = 0; m < 8; ++m) {
      for (int k = 0; k < 16; ++k) {
        const float x = std::bit_cast<float>(uint32_t{a[m][k]} << 16);
        for (int n = 0; n < 16; ++n) c[m][n] += x * std::bit_cast<float>(uint32_t{b[k][n]} << 16);
      }
    }
    benchmark::DoNotOptimize(&c[0][0]);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_Int8_M8N16K32);
BENCHMARK(BM_Int8_M8N16K32_GemmData);
BENCHMARK(BM_Int8_M8N16K32_Symmetric127);
BENCHMARK(BM_Int8_M8N16K32_Portable);
BENCHMARK(BM_NativeLoop_Int8_M8N16K32);
BENCHMARK(BM_Bf16_M8N16K16);
BENCHMARK(BM_Bf16_M8N16K16_Portable);
BENCHMARK(BM_Bf16_M8N16K16_Ordered);
BENCHMARK(BM_Bf16_M8N16K16_ExactSlowPath);
BENCHMARK(BM_NativeLoop_Bf16_M8N16K16);

}  // namespace

BENCHMARK_MAIN();
