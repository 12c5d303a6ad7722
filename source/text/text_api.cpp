// The public forms of the assembler and the disassembler (include/xmx/text.hpp): the same calls
// with the error convention of the library, Result<T>.
#include "text/assembler.hpp"
#include "text/disassembler.hpp"
#include "xmx/text.hpp"

namespace xmx::text {

Result<std::vector<uint32_t>> Assemble(std::string_view text, const AssembleOptions& options) {
  std::vector<uint32_t> words;
  Diagnostic error;
  if (!Assemble(text, options, &words, &error)) {
    return Result<std::vector<uint32_t>>::Failure(std::move(error));
  }
  return words;
}

Result<std::string> Disassemble(std::span<const uint32_t> words, const DisassembleOptions& options,
                                std::string* partial_text) {
  std::string text;
  Diagnostic error;
  if (!Disassemble(words, options, &text, &error)) {
    if (partial_text != nullptr) *partial_text = std::move(text);
    return Result<std::string>::Failure(std::move(error));
  }
  return text;
}

}  // namespace xmx::text
