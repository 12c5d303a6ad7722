// SPIR-V assembly text: the spirv-as syntax in, the spirv-dis format out, with every extended
// opcode, operand kind and enumerant of grammar/ (xmx-as and xmx-dis are these two calls). For
// what the installed spirv-as accepts the words are identical; for what spirv-dis reads, the text.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "xmx/result.hpp"

namespace xmx::text {

struct AssembleOptions {
  // SPIR-V version word written to the header (0x00010600 for spv1.6, the spirv-as default).
  uint32_t version = 0x00010600;
  bool preserve_numeric_ids = false;  // --preserve-numeric-ids
};

// Parses a --target-env name (the spellings spirv-as accepts) into the header version word.
// Returns false for an unknown name.
bool TargetEnvVersion(std::string_view env, uint32_t* version);

// The module's words (host byte order). A failure carries one error with its line and column.
Result<std::vector<uint32_t>> Assemble(std::string_view text, const AssembleOptions& options = {});

struct DisassembleOptions {
  bool indent = true;          // --no-indent turns this off
  bool header = true;          // --no-header turns this off
  bool friendly_names = true;  // --raw-id turns this off
  bool offsets = false;        // --offsets
  bool color = false;          // --color
  bool comment = false;        // --comment
};

// The text of `words` (host byte order). A structural error fails with one error naming the word;
// `partial_text`, when given, then receives the text of the instructions before it (what
// spirv-dis prints before its error).
Result<std::string> Disassemble(std::span<const uint32_t> words,
                                const DisassembleOptions& options = {},
                                std::string* partial_text = nullptr);

}  // namespace xmx::text
