// libFuzzer target: arbitrary bytes through xmx-run's pipeline. A module that xmx-val accepts
// (for the pvc tables at subgroup size 16) has each of its kernels (at most four) loaded and run
// on two work-groups of 32 work-items, every buffer 4 KB of a fixed pattern, every scalar the
// same small value, with --check=error and an instruction limit (a kernel may loop for ever).
// Any crash, leak, sanitizer finding or hang is a bug; a load error, a launch error or a
// report of undefined behaviour is an expected outcome. The seeds cm_*.spv are corpus kernels
// with an unused 4-bit integer type the bridge cannot lift (skip_core_validation.sh), which makes
// xmx-val skip core validation by SPIRV-Tools: their mutants reach the loader unchecked, which
// must then refuse what it cannot run (load_checks.cpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "binary/parser.hpp"
#include "interp/load/loader.hpp"
#include "xmx/device.hpp"
#include "xmx/interpreter.hpp"
#include "xmx/module.hpp"
#include "xmx/validator.hpp"

namespace {

using xmx::interp::KernelParameter;
using xmx::interp::RunArgument;

std::vector<RunArgument> ArgumentsFor(const xmx::interp::Program& program) {
  std::vector<RunArgument> arguments;
  for (const KernelParameter& k : program.parameters) {
    RunArgument a;
    switch (k.kind) {
      case KernelParameter::Kind::kScalar:
        a.kind = RunArgument::Kind::kValue;
        a.bytes.assign(k.lane_bytes, 0);
        if (!a.bytes.empty()) a.bytes[0] = 3;
        break;
      case KernelParameter::Kind::kLocalPointer:
        a.kind = RunArgument::Kind::kLocal;
        a.local_bytes = 1024;
        break;
      case KernelParameter::Kind::kImage:
        a.kind = RunArgument::Kind::kImage;
        a.image_width = 64;
        a.image_height = 8;
        a.texel_bytes = 4;
        a.bytes.resize(64 * 8 * 4);
        for (size_t i = 0; i < a.bytes.size(); ++i) a.bytes[i] = static_cast<uint8_t>(i * 13);
        break;
      default:  // global, constant and by-value aggregates: a buffer
        a.kind = RunArgument::Kind::kBuffer;
        a.bytes.resize(std::max<uint64_t>(4096, k.pointee_bytes));
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
  std::vector<uint32_t> words;
  xmx::Diagnostic error;
  if (!xmx::binary::BytesToWords(std::span<const uint8_t>(data, size), &words, &error)) return 0;
  xmx::val::ValidatorOptions options;
  options.device = xmx::device::FindBuiltinProfile("pvc");
  options.subgroup_size = 16;
  if (!xmx::val::Validate(words, options).valid) return 0;
  std::optional<xmx::ir::Module> module = xmx::ir::Module::FromWords(words, &error);
  if (!module) return 0;
  size_t kernels = 0;
  for (const xmx::ir::Instruction& entry : module->entry_points()) {
    if (++kernels > 4) break;
    xmx::interp::LoadOptions load;
    load.kernel = entry.StringOperand(2);
    xmx::interp::LoadError load_error;
    std::optional<xmx::interp::Program> program =
        xmx::interp::LoadProgram(*module, load, &load_error);
    if (!program) continue;
    xmx::interp::RunRequest request;
    request.program = &*program;
    request.geometry.dims = 1;
    request.geometry.global[0] = 64;
    request.geometry.local[0] = 32;
    for (int d = 0; d < 3; ++d) {
      if (program->required_local_size[d] != 0) {
        request.geometry.local[d] = program->required_local_size[d];
        request.geometry.global[d] = 2 * program->required_local_size[d];
      }
    }
    // xmx-run's own limits (--max-instructions, --max-memory), set low: a kernel may loop for
    // ever or ask for gigabytes of private memory; either is an error in the outcome.
    request.options.instruction_limit = 200000;
    request.max_memory = uint64_t{256} << 20;
    request.arguments = ArgumentsFor(*program);
    xmx::interp::Execute(std::move(request));
  }
  return 0;
}
