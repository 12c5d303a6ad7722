// Text layer, text → binary: the spirv-as syntax, extended opcodes, operand kinds and
// enumerants included. For text the installed spirv-as accepts, the words are identical.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "xmx/diagnostic.hpp"
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

// The module's words, or the first error (one diagnostic with its line and column).
Result<std::vector<uint32_t>> Assemble(std::string_view text, const AssembleOptions& options);

// The same with the error in *error (may be null) and a verdict, for the callers not yet on Result
// (the tools, fuzzers and tests move to the public API).
bool Assemble(std::string_view text, const AssembleOptions& options, std::vector<uint32_t>* words,
              Diagnostic* error);

}  // namespace xmx::text
