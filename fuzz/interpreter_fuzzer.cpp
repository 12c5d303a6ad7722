// libFuzzer target: arbitrary bytes through xmx-run's pipeline. A module that xmx-val accepts
// (for the pvc tables at subgroup size 16) has each of its kernels (at most four) loaded and run
// on two work-groups of 32 work-items, every buffer 4 KB of a fixed pattern, every scalar the
// same small value, with --check=error and an instruction limit (a kernel may loop for ever).
// Any crash, leak, sanitizer finding or hang is a bug; a load error, a launch error or a
// report of undefined behaviour is an expected outcome. The seeds cm_*.spv are corpus kernels
// with an unused 4-bit integer type the bridge cannot lift (skip_core_validation.sh), which makes
// xmx-val skip core validation by SPIRV-Tools: their mutants reach the loader unchecked, which
// must then refuse what it cannot run (load_checks.cpp).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "xmx/device.hpp"
#include "xmx/interpreter.hpp"
#include "xmx/module.hpp"

namespace {

using xmx::interp::KernelParameterInfo;
using xmx::interp::RunArgument;

std::vector<RunArgument> ArgumentsFor(const xmx::interp::Kernel& kernel) {
  std::vector<RunArgument> arguments;
  for (const KernelParameterInfo& k : kernel.parameters()) {
    RunArgument a;
    switch (k.kind) {
      case KernelParameterInfo::Kind::kScalar:
        a.kind = RunArgument::Kind::kValue;
        a.bytes.assign(k.value_bytes, 0);
        if (!a.bytes.empty()) a.bytes[0] = 3;
        break;
      case KernelParameterInfo::Kind::kLocalPointer:
        a.kind = RunArgument::Kind::kLocal;
        a.local_bytes = 1024;
        break;
      case KernelParameterInfo::Kind::kImage:
        a.kind = RunArgument::Kind::kImage;
        a.image_width = 64;
        a.image_height = 8;
        a.texel_bytes = 4;
        a.bytes.resize(64 * 8 * 4);
        for (size_t i = 0; i < a.bytes.size(); ++i) a.bytes[i] = static_cast<uint8_t>(i * 13);
        break;
      default:  // global, constant and by-value aggregates: a buffer
        a.kind = RunArgument::Kind::kBuffer;
        a.bytes.resize(std::max<uint64_t>(4096, k.value_bytes));
        for (size_t i = 0; i < a.bytes.size(); ++i) a.bytes[i] = static_cast<uint8_t>(i * 7);
        break;
    }
    arguments.push_back(std::move(a));
  }
  return arguments;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;  // the corpus modules are far smaller; keep runs short
  const xmx::Result<std::vector<uint32_t>> words =
      xmx::WordsFromBytes(std::span<const uint8_t>(data, size));
  if (!words) return 0;
  xmx::Result<xmx::ir::Module> module = xmx::ir::Module::Parse(*words);
  if (!module) return 0;
  size_t kernels = 0;
  for (const xmx::ir::Instruction& entry : module->entry_points()) {
    if (++kernels > 4) break;
    if (entry.num_operands() < 3) continue;  // not validated yet: the name may be missing
    // LoadKernel validates first: a module the validator refuses is done with.
    xmx::interp::KernelOptions load;
    load.kernel = entry.StringOperand(2);
    load.device = xmx::device::FindBuiltinProfile("pvc");
    load.subgroup_size = 16;
    xmx::Result<xmx::interp::Kernel> kernel = xmx::interp::LoadKernel(*words, load);
    if (!kernel) {
      if (kernel.diagnostics().back().rule == xmx::interp::kRuleModuleInvalid) return 0;
      continue;
    }
    xmx::interp::RunRequest request;
    request.kernel = *kernel;
    request.geometry.dims = 1;
    request.geometry.global[0] = 64;
    request.geometry.local[0] = 32;
    const std::array<uint32_t, 3> required = kernel->required_local_size();
    for (int d = 0; d < 3; ++d) {
      if (required[d] != 0) {
        request.geometry.local[d] = required[d];
        request.geometry.global[d] = 2 * uint64_t{required[d]};
      }
    }
    // xmx-run's own limits (--max-instructions, --max-memory), set low: a kernel may loop for
    // ever or ask for gigabytes of private memory; either is an error in the outcome.
    request.options.instruction_limit = 200000;
    request.max_memory = uint64_t{256} << 20;
    request.arguments = ArgumentsFor(*kernel);
    xmx::interp::Execute(std::move(request));
  }
  return 0;
}
