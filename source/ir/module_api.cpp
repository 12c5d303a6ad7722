// The public forms of reading and writing a module's words (include/xmx/module.hpp), with the
// library's error convention, Result<T>.
#include "binary/parser.hpp"
#include "common/rule_ids.hpp"
#include "xmx/module.hpp"

namespace xmx {

Result<std::vector<uint32_t>> WordsFromBytes(std::span<const uint8_t> bytes) {
  std::vector<uint32_t> words;
  Diagnostic error;
  if (!binary::BytesToWords(bytes, &words, &error)) {
    error.rule = rules::kBinaryStructure;  // as the validator names a broken binary
    return Result<std::vector<uint32_t>>::Failure(std::move(error));
  }
  return words;
}

std::vector<uint8_t> BytesFromWords(std::span<const uint32_t> words) {
  return binary::WordsToBytes(words);
}

namespace ir {

Result<Module> Module::Parse(std::span<const uint32_t> words) {
  Diagnostic error;
  std::optional<Module> module = FromWords(words, &error);
  if (!module) {
    error.rule = rules::kBinaryStructure;
    return Result<Module>::Failure(std::move(error));
  }
  return std::move(*module);
}

}  // namespace ir
}  // namespace xmx
