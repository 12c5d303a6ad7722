// Validation time, xmx-val next to SPIRV-Tools' validator in process (the library spirv-val is),
// on synthesized kernels of 1 to 8 MB: a core-only module, and one full of 2D block loads and
// matrix multiply-accumulates. The sizes show whether time grows linearly. Figures only.
//
// What SPIRV-Tools is given, so that the comparison is fair and stated:
// - core: the same module. BM_SpirvVal is spirv-val as a user runs it (default options: ids
//   named in its messages by names it derives for every id first); BM_SpirvValUnnamed is how
//   xmx-val calls it for the verdict (without those names; xmx-val repeats the call with them
//   only when there is something to say), i.e. the share of xmx-val's time that is SPIRV-Tools'.
// - extended: SPIRV-Tools cannot read the extended instructions, so it validates what it can:
//   the module the bridge hands it (each extended instruction a call of an imported function),
//   lifted once outside the timing. xmx-val's time on top of that is the parse, the lift and the
//   rules of the extensions, which SPIRV-Tools does not have.
#include <benchmark/benchmark.h>

#include <map>
#include <spirv-tools/libspirv.hpp>
#include <vector>

#include "bridge/bridge.hpp"
#include "module_builder.hpp"
#include "xmx/device.hpp"
#include "xmx/validator.hpp"

namespace {

using xmx::bench::Builder;
using xmx::spv::Op;

// Kernels that load, multiply and store floats; with `extended`, each step also does a 2D block
// load and a bf16 matrix multiply-accumulate (SG16, M 8), as a GEMM's inner loop does.
std::vector<uint32_t> SynthesizeKernels(size_t target_bytes, bool extended) {
  Builder b;
  // Addresses, Kernel, Int64, Int16, Vector16, SubgroupDispatch.
  for (uint32_t cap : {4u, 6u, 11u, 22u, 7u, 58u}) b.Inst(Op::OpCapability, {cap});
  if (extended) {
    b.Inst(Op::OpCapability, {6228});  // Subgroup2DBlockIOINTEL
    b.Inst(Op::OpCapability, {6236});  // SubgroupMatrixMultiplyAccumulateINTEL
    b.Named(Op::OpExtension, {}, "SPV_INTEL_2d_block_io");
    b.Named(Op::OpExtension, {}, "SPV_INTEL_subgroup_matrix_multiply_accumulate");
  }
  b.Inst(Op::OpMemoryModel, {2, 2});
  std::vector<uint32_t> kernels;
  const size_t kernel_count_guess = target_bytes / 3000 + 1;
  for (size_t i = 0; i < kernel_count_guess; ++i) kernels.push_back(b.Id());
  for (size_t i = 0; i < kernels.size(); ++i) {
    b.Named(Op::OpEntryPoint, {6, kernels[i]}, "k" + std::to_string(i));
  }
  for (uint32_t k : kernels) b.Inst(Op::OpExecutionMode, {k, 35, 16});  // SubgroupSize 16
  const uint32_t t_void = b.Id(), t_uint = b.Id(), t_ulong = b.Id(), t_float = b.Id(),
                 t_ushort = b.Id(), t_ptr = b.Id(), t_fn = b.Id(), c_1 = b.Id(), c_2 = b.Id(),
                 c_8 = b.Id(), c_16 = b.Id(), c_64 = b.Id(), t_v8ushort = b.Id(), t_v8uint = b.Id(),
                 t_v8float = b.Id(), t_v2uint = b.Id(), t_pv8us = b.Id(), c_coord = b.Id(),
                 c_bnull = b.Id(), c_cnull = b.Id(), t_pus = b.Id();
  b.Inst(Op::OpTypeVoid, {t_void});
  b.Inst(Op::OpTypeInt, {t_uint, 32, 0});
  b.Inst(Op::OpTypeInt, {t_ulong, 64, 0});
  b.Inst(Op::OpTypeInt, {t_ushort, 16, 0});
  b.Inst(Op::OpTypeFloat, {t_float, 32});
  b.Inst(Op::OpTypePointer, {t_ptr, 5, t_float});  // CrossWorkgroup
  b.Inst(Op::OpTypeFunction, {t_fn, t_void, t_ptr, t_ptr, t_uint});
  for (auto [id, v] : {std::pair{c_1, 1u}, {c_2, 2u}, {c_8, 8u}, {c_16, 16u}, {c_64, 64u}}) {
    b.Inst(Op::OpConstant, {t_uint, id, v});
  }
  b.Inst(Op::OpTypeVector, {t_v8ushort, t_ushort, 8});
  b.Inst(Op::OpTypeVector, {t_v8uint, t_uint, 8});
  b.Inst(Op::OpTypeVector, {t_v8float, t_float, 8});
  b.Inst(Op::OpTypeVector, {t_v2uint, t_uint, 2});
  b.Inst(Op::OpTypePointer, {t_pv8us, 7, t_v8ushort});  // Function
  b.Inst(Op::OpTypePointer, {t_pus, 5, t_ushort});      // CrossWorkgroup
  b.Inst(Op::OpConstantNull, {t_v2uint, c_coord});
  b.Inst(Op::OpConstantNull, {t_v8uint, c_bnull});
  b.Inst(Op::OpConstantNull, {t_v8float, c_cnull});
  for (uint32_t k : kernels) {
    const uint32_t in = b.Id(), out = b.Id(), n = b.Id(), entry = b.Id(), var = b.Id();
    b.Inst(Op::OpFunction, {t_void, k, 0, t_fn});
    b.Inst(Op::OpFunctionParameter, {t_ptr, in});
    b.Inst(Op::OpFunctionParameter, {t_ptr, out});
    b.Inst(Op::OpFunctionParameter, {t_uint, n});
    b.Inst(Op::OpLabel, {entry});
    b.Inst(Op::OpVariable, {t_pv8us, var, 7});
    const uint32_t src = b.Id();  // the 2D loads read 2-byte elements
    b.Inst(Op::OpBitcast, {t_pus, src, in});
    uint32_t acc = c_cnull;
    for (int i = 0; i < 20; ++i) {
      const uint32_t idx = b.Id(), wide = b.Id(), p = b.Id(), v = b.Id(), m = b.Id();
      b.Inst(Op::OpIMul, {t_uint, idx, n, c_16});
      b.Inst(Op::OpUConvert, {t_ulong, wide, idx});
      b.Inst(Op::OpInBoundsPtrAccessChain, {t_ptr, p, in, wide});
      b.Inst(Op::OpLoad, {t_float, v, p, 2, 4});
      b.Inst(Op::OpFMul, {t_float, m, v, v});
      b.Inst(Op::OpStore, {out, m, 2, 4});
      if (extended) {
        const uint32_t a = b.Id(), r = b.Id();
        b.Inst(Op::OpSubgroup2DBlockLoadINTEL,
               {c_2, c_16, c_8, c_1, src, c_64, c_8, c_64, c_coord, var});
        b.Inst(Op::OpLoad, {t_v8ushort, a, var});
        b.Inst(Op::OpSubgroupMatrixMultiplyAccumulateINTEL,
               {t_v8float, r, c_16, a, c_bnull, acc, 0x3000});
        acc = r;
      }
    }
    b.Inst(Op::OpReturn, {});
    b.Inst(Op::OpFunctionEnd, {});
  }
  return b.Finish();
}

const std::vector<uint32_t>& Kernels(int64_t megabytes, bool extended) {
  static std::map<std::pair<int64_t, bool>, std::vector<uint32_t>> cache;
  auto& m = cache[{megabytes, extended}];
  if (m.empty()) m = SynthesizeKernels(size_t(megabytes) << 20, extended);
  return m;
}

void BM_XmxVal(benchmark::State& state, bool extended) {
  const auto& words = Kernels(state.range(0), extended);
  xmx::val::ValidatorOptions options;
  options.device = xmx::device::FindBuiltinProfile("pvc");
  for (auto _ : state) {
    const xmx::val::ValidationResult r = xmx::val::Validate(words, options);
    if (!r.valid) {
      state.SkipWithError(r.diagnostics.front().Format().c_str());
      break;
    }
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(words.size() * 4));
}

// What SPIRV-Tools validates: the module itself, or for the extended one the lifted module.
const std::vector<uint32_t>& SpirvToolsInput(int64_t megabytes, bool extended) {
  if (!extended) return Kernels(megabytes, false);
  static std::map<int64_t, std::vector<uint32_t>> cache;
  auto& lifted = cache[megabytes];
  if (lifted.empty()) {
    xmx::Diagnostic error;
    std::optional<xmx::ir::Module> module =
        xmx::ir::Module::FromWords(Kernels(megabytes, true), &error);
    std::optional<xmx::bridge::LiftedModule> l =
        module ? xmx::bridge::Lift(*module, &error) : std::nullopt;
    if (l) lifted = l->module.ToWords();
  }
  return lifted;
}

void TimeSpirvTools(benchmark::State& state, bool extended, bool friendly_names) {
  const auto& words = SpirvToolsInput(state.range(0), extended);
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  spvtools::ValidatorOptions options;
  options.SetFriendlyNames(friendly_names);
  for (auto _ : state) {
    if (words.empty() || !tools.Validate(words.data(), words.size(), options)) {
      state.SkipWithError("SPIRV-Tools rejected the synthesized module");
      break;
    }
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(words.size() * 4));
}

void BM_SpirvVal(benchmark::State& state, bool extended) { TimeSpirvTools(state, extended, true); }
void BM_SpirvValUnnamed(benchmark::State& state, bool extended) {
  TimeSpirvTools(state, extended, false);
}

void Sizes(benchmark::internal::Benchmark* b) {
  b->Arg(1)->Arg(2)->Arg(4)->Arg(8)->ArgName("MB")->Unit(benchmark::kMillisecond);
}

BENCHMARK_CAPTURE(BM_SpirvVal, core, false)->Apply(Sizes);
BENCHMARK_CAPTURE(BM_SpirvValUnnamed, core, false)->Apply(Sizes);
BENCHMARK_CAPTURE(BM_XmxVal, core, false)->Apply(Sizes);
BENCHMARK_CAPTURE(BM_SpirvVal, extended, true)->Apply(Sizes);
BENCHMARK_CAPTURE(BM_SpirvValUnnamed, extended, true)->Apply(Sizes);
BENCHMARK_CAPTURE(BM_XmxVal, extended, true)->Apply(Sizes);

}  // namespace

BENCHMARK_MAIN();
