// libFuzzer target: arbitrary bytes through the binary layer (endianness detection, header and
// instruction decoding) into the in-memory module, through the public API. Any crash, hang, leak
// or undefined behaviour is a bug; a structural error is the expected outcome for most inputs.
// A module that parses must emit exactly the words it was read from (module.hpp's promise).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "xmx/module.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const xmx::Result<std::vector<uint32_t>> words =
      xmx::WordsFromBytes(std::span<const uint8_t>(data, size));
  if (!words) return 0;
  const xmx::Result<xmx::ir::Module> module = xmx::ir::Module::Parse(*words);
  if (!module) {
    if (module.diagnostics().empty()) __builtin_trap();  // a failure must say why
    return 0;
  }
  if (module->ToWords() != *words) __builtin_trap();
  return 0;
}
