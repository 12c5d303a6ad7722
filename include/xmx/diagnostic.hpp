// A diagnostic with the place it refers to, printed the way SPIRV-Tools prints its own:
// "error: line 3: message" for text, "error: 12: message" (word offset) or an instruction index
// for binaries.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace xmx {

enum class Severity { kError, kWarning, kRemark };

struct TextPosition {
  size_t line = 0;    // 1-based
  size_t column = 0;  // 1-based
};

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string message;
  std::optional<TextPosition> text_position;  // for text input
  std::optional<size_t> word_offset;          // for binary input: index of the word
  std::optional<size_t> instruction_index;    // for binary input: 0-based instruction number
  std::string rule;                           // stable rule id, for validator diagnostics
  std::optional<uint32_t> opcode;             // of the instruction the diagnostic is about
  std::string instruction_text;               // that instruction, disassembled (may be empty)

  // "line 3" / "word 12" / "instruction 4", or empty when no place is known.
  std::string Where() const;
  // "error: <where>: <message>" (or without the place when none is known).
  std::string Format() const;
};

const char* SeverityName(Severity severity);

}  // namespace xmx
