// --compact-ids. SPIRV-Tools' pass renumbers every id, which would break the ids the driver
// records around an installed pass (the bridge's declarations and stand-ins, the declarations'
// placeholder bodies); so the driver renumbers our ir::Module itself, with the installed pass's
// rule (the same words on every core-only corpus module, a unit test checks): ids in order
// of first appearance in the binary (result type, result id, then id operands of each
// instruction, debug lines included), from 1, and a bound of one past the last.
#pragma once

#include "xmx/module.hpp"

namespace xmx::opt {

// Returns whether any id or the bound changed.
bool CompactIds(ir::Module& module);

}  // namespace xmx::opt
