// The rules of xmx-val beyond SPIRV-Tools' core validation, one function per instruction family
// (validate_<family>.cpp). Rule ids are stable: they appear in --format json and the README.
#pragma once

#include <vector>

#include "bridge/bridge.hpp"
#include "common/diagnostic.hpp"
#include "val/validation_context.hpp"

namespace xmx::val {

// What the lifted form would make legal that the original is not: run when Lift changed the
// module (rules bridge.*).
void CheckWhatTheBridgeHides(const ir::Module& module, const bridge::LiftRecord& record,
                             std::vector<Diagnostic>* out);

// Capabilities and extension strings that extended instructions and enumerants need (decl.*).
void ValidateDeclarations(ValidationContext& context);

// Every family, in a fixed order.
void RunExtensionRules(ValidationContext& context);

}  // namespace xmx::val
