// libFuzzer target: arbitrary bytes through the binary layer (endianness detection, header and
// instruction decoding). Any crash, hang, leak or undefined behaviour is a bug; a structural
// error is the expected outcome for most inputs.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "binary/parser.hpp"

namespace {

struct OperandWalker : xmx::binary::InstructionHandler {
  bool OnHeader(const xmx::binary::Header&) override { return true; }
  bool OnInstruction(const xmx::binary::ParsedInstruction& inst) override {
    // Touch every operand word so that a wrong offset or length shows up under ASan.
    for (const auto& op : inst.operands) {
      for (size_t i = 0; i < op.num_words; ++i) sum += inst.words[op.offset + i];
    }
    return true;
  }
  uint64_t sum = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint32_t> words;
  xmx::Diagnostic error;
  if (!xmx::binary::BytesToWords(std::span<const uint8_t>(data, size), &words, &error)) return 0;
  OperandWalker walker;
  xmx::binary::Parse(words, walker, &error);
  return 0;
}
