// An outside program using libxmx through its installed package only: it assembles a small
// OpenCL kernel, disassembles it again, validates it against a device's tables, loads and runs
// it, and checks the buffer it wrote. Exits 0 when every step gives what the kernel computes,
// else prints what differed and exits 1.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "xmx/device.hpp"
#include "xmx/interpreter.hpp"
#include "xmx/module.hpp"
#include "xmx/text.hpp"
#include "xmx/validator.hpp"
#include "xmx/version.hpp"

namespace {

// data[i] = data[i] * 3 + i, for a work-item per element.
constexpr const char* kKernel = R"(
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kernel "scale_add" %gid
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %gid Constant
               OpDecorate %gid BuiltIn GlobalInvocationId
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_3 = OpConstant %uint 3
    %v3ulong = OpTypeVector %ulong 3
     %ptr_in = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
     %ptr_cw = OpTypePointer CrossWorkgroup %uint
    %fn_type = OpTypeFunction %void %ptr_cw
        %gid = OpVariable %ptr_in Input
     %kernel = OpFunction %void None %fn_type
       %data = OpFunctionParameter %ptr_cw
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
          %x = OpCompositeExtract %ulong %ids 0
    %element = OpInBoundsPtrAccessChain %ptr_cw %data %x
      %value = OpLoad %uint %element Aligned 4
     %scaled = OpIMul %uint %value %uint_3
      %index = OpUConvert %uint %x
     %result = OpIAdd %uint %scaled %index
               OpStore %element %result Aligned 4
               OpReturn
               OpFunctionEnd
)";

int Fail(const std::string& what, const std::vector<xmx::Diagnostic>& diagnostics = {}) {
  std::fprintf(stderr, "consumer: %s\n", what.c_str());
  for (const xmx::Diagnostic& d : diagnostics) std::fprintf(stderr, "  %s\n", d.Format().c_str());
  return 1;
}

}  // namespace

int main() {
  std::printf("libxmx %s\n", std::string(xmx::LibraryVersion()).c_str());

  xmx::Result<std::vector<uint32_t>> words = xmx::text::Assemble(kKernel);
  if (!words) return Fail("assembling failed", words.diagnostics());

  // Text -> words -> module -> words is exact, and the disassembly names the kernel.
  xmx::Result<xmx::ir::Module> module = xmx::ir::Module::Parse(*words);
  if (!module) return Fail("parsing failed", module.diagnostics());
  if (module->ToWords() != *words)
    return Fail("the module did not emit the words it was read from");
  xmx::Result<std::string> text = xmx::text::Disassemble(*words);
  if (!text) return Fail("disassembling failed", text.diagnostics());
  if (text->find("\"scale_add\"") == std::string::npos) return Fail("no kernel in:\n" + *text);

  // A device query, and validation against that device's tables.
  const xmx::device::DeviceProfile* pvc = xmx::device::FindBuiltinProfile("pvc");
  if (pvc == nullptr || !pvc->SupportsSubgroupSize(16)) return Fail("no pvc profile");
  xmx::val::ValidatorOptions val_options;
  val_options.device = pvc;
  const xmx::val::ValidationResult validation = xmx::val::Validate(*words, val_options);
  if (!validation.valid) return Fail("the kernel is not valid", validation.diagnostics);

  // A module that is not valid is refused at load, with the validator's reasons.
  std::vector<uint32_t> broken = *words;
  broken.resize(broken.size() - 1);  // OpFunctionEnd loses its word
  xmx::Result<xmx::interp::Kernel> refused = xmx::interp::LoadKernel(broken);
  if (refused || refused.diagnostics().empty()) return Fail("a truncated module was loaded");

  xmx::interp::KernelOptions options;
  options.device = pvc;
  xmx::Result<xmx::interp::Kernel> kernel = xmx::interp::LoadKernel(*words, options);
  if (!kernel) return Fail("loading failed", kernel.diagnostics());
  if (kernel->name() != "scale_add" || kernel->subgroup_size() != 16 ||
      kernel->parameters().size() != 1 ||
      kernel->parameters()[0].kind != xmx::interp::KernelParameterInfo::Kind::kGlobalPointer) {
    return Fail("the loaded kernel is not the one assembled");
  }

  constexpr uint32_t kItems = 100;
  std::vector<uint32_t> input(kItems);
  for (uint32_t i = 0; i < kItems; ++i) input[i] = 1000 + 7 * i;
  xmx::interp::RunArgument buffer;
  buffer.kind = xmx::interp::RunArgument::Kind::kBuffer;
  buffer.bytes.resize(kItems * sizeof(uint32_t));
  std::memcpy(buffer.bytes.data(), input.data(), buffer.bytes.size());

  xmx::interp::RunRequest request;
  request.kernel = *kernel;
  request.geometry.global[0] = kItems;
  xmx::interp::DefaultLocalSize(*kernel, &request.geometry);
  request.arguments.push_back(std::move(buffer));
  request.threads = 2;
  const xmx::interp::RunOutcome outcome = xmx::interp::Execute(std::move(request));
  if (!outcome.error.empty()) return Fail("the launch failed: " + outcome.error);
  if (outcome.total_reports != 0) return Fail("undefined behaviour: " + outcome.reports[0].message);
  if (outcome.buffers.size() != 1 || outcome.buffers[0].size() != kItems * sizeof(uint32_t)) {
    return Fail("no buffer came back");
  }
  std::vector<uint32_t> output(kItems);
  std::memcpy(output.data(), outcome.buffers[0].data(), outcome.buffers[0].size());
  for (uint32_t i = 0; i < kItems; ++i) {
    if (output[i] != input[i] * 3 + i) {
      return Fail("element " + std::to_string(i) + " is " + std::to_string(output[i]) +
                  ", expected " + std::to_string(input[i] * 3 + i));
    }
  }
  std::printf("scale_add ran on %u work-items in %llu work-groups: every element correct\n", kItems,
              static_cast<unsigned long long>(outcome.stats.work_groups));
  return 0;
}
