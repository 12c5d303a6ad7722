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

// The Result form (xmx/text.hpp) with the error in *error (may be null) and a verdict, for the
// callers not yet on Result.
bool Assemble(std::string_view text, const AssembleOptions& options, std::vector<uint32_t>* words,
              Diagnostic* error);

}  // namespace xmx::text
