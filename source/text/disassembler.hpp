// Text layer, binary → text: the spirv-dis format (header comment, right-aligned result ids,
// friendly names), extended opcodes and operands included.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "xmx/diagnostic.hpp"
#include "xmx/text.hpp"

namespace xmx::text {

// Disassembles `words` (host byte order). On a structural error returns false, fills *error,
// and leaves in *out the text of the instructions before the error (as spirv-dis prints it).
bool Disassemble(std::span<const uint32_t> words, const DisassembleOptions& options,
                 std::string* out, Diagnostic* error);

}  // namespace xmx::text
