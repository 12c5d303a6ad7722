// libFuzzer entry: arbitrary bytes as assembly text, with and without --preserve-numeric-ids and
// for an older target (version-gated lookups), through the public API. The assembler must
// return, never crash or hang.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "xmx/text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  xmx::text::AssembleOptions options;
  // The first byte picks the options, so that the corpus explores all of them.
  if (size > 0) {
    options.preserve_numeric_ids = (data[0] & 1) != 0;
    if (data[0] & 2) options.version = 0x00010000;
  }
  const xmx::Result<std::vector<uint32_t>> words = xmx::text::Assemble(text, options);
  if (words) {
    // A success always has a header and whole instructions.
    if (words->size() < 5 || (*words)[3] == 0) __builtin_trap();
  } else if (words.diagnostics().empty() || words.diagnostics()[0].message.empty() ||
             !words.diagnostics()[0].text_position) {
    __builtin_trap();
  }
  return 0;
}
