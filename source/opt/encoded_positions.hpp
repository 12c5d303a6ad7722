// The places an edited module's instructions have in its encoding, for the validator: xmx-opt
// validates its output from the module the passes left rather than parsing what it wrote.
#pragma once

#include "xmx/module.hpp"

namespace xmx::opt {

// Gives every instruction (debug lines included) the instruction index and word offset it has in
// module.ToWords(), as ir::Module::FromWords(module.ToWords()) would.
void SetEncodedPositions(ir::Module& module);

}  // namespace xmx::opt
