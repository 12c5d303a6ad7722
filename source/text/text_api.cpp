// The public form of the disassembler (include/xmx/text.hpp): the same call with the error
// convention of the library, Result<T>. The assembler's Result form is assembler.cpp's own.
#include "text/assembler.hpp"
#include "text/disassembler.hpp"
#include "xmx/text.hpp"

namespace xmx::text {

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
