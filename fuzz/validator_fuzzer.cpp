// libFuzzer target: arbitrary bytes through xmx-val's whole pipeline (parse, bridge, SPIRV-Tools
// core validation of the lifted module, our rules on the default and a hardware device). Any
// crash, hang, leak or undefined behaviour is a bug; a diagnostic is the expected outcome.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "xmx/device.hpp"
#include "xmx/module.hpp"
#include "xmx/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const xmx::Result<std::vector<uint32_t>> words =
      xmx::WordsFromBytes(std::span<const uint8_t>(data, size));
  if (!words) return 0;
  xmx::val::ValidatorOptions options;
  xmx::val::Validate(*words, options);
  options.device = xmx::device::FindBuiltinProfile("pvc");
  options.subgroup_size = 16;
  xmx::val::Validate(*words, options);
  return 0;
}
