// Validation of a module its caller has read already: xmx-opt parses its input once for the
// validator and the passes, and validates its output from the module the passes left.
#pragma once

#include <cstdint>
#include <span>

#include "xmx/module.hpp"
#include "xmx/validator.hpp"

namespace xmx::val {

// Validate(words) without parsing `words` again. `parsed` is what ir::Module::FromWords(words)
// gives: every instruction's source index and word offset are its place in `words`.
ValidationResult ValidateParsed(const ir::Module& parsed, std::span<const uint32_t> words,
                                const ValidatorOptions& options);
// The same for a module the caller drops afterwards (xmx-opt's output): the built-in calls are
// upgraded for our rules in `parsed` itself instead of in a copy, so `parsed` is left unspecified.
ValidationResult ValidateParsed(ir::Module&& parsed, std::span<const uint32_t> words,
                                const ValidatorOptions& options);
// The same for a module the caller needs afterwards (xmx-opt's input, which the passes read):
// the calls are upgraded in `parsed` itself and changed back before it returns, so `parsed` ends
// as it was, instruction for instruction.
ValidationResult ValidateParsedInPlace(ir::Module& parsed, std::span<const uint32_t> words,
                                       const ValidatorOptions& options);

}  // namespace xmx::val
