// Text layer, text → binary: the spirv-as syntax, extended opcodes, operand kinds and
// enumerants included. For text the installed spirv-as accepts, the words are identical.
// AssembleOptions, TargetEnvVersion and the public Result form are in include/xmx/text.hpp.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "xmx/diagnostic.hpp"
#include "xmx/text.hpp"

namespace xmx::text {

// On error returns false and fills *error with the line and column.
bool Assemble(std::string_view text, const AssembleOptions& options, std::vector<uint32_t>* words,
              Diagnostic* error);

}  // namespace xmx::text
