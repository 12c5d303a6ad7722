// What the installed SPIRV-Tools (2023.1) assumes of a module without checking it (rule
// core.precondition). Its validator dereferences the type of some operands before it has
// checked that the operand has a type of the kind it expects, and crashes (a null pointer) on
// modules that break the assumption; xmx-val and xmx-run must not. The facts are checked here
// first; a module that breaks one gets an error naming the instruction and is not handed over.
#pragma once

#include <vector>

#include "xmx/diagnostic.hpp"
#include "xmx/module.hpp"

namespace xmx::val {

// Errors (rule core.precondition) for the instructions of `module`, the module exactly as
// SPIRV-Tools would be given it, that the installed validator would crash on. Each carries the
// 0-based index of its instruction in `module` (Module::ForEachInstruction order, which is how
// SPIRV-Tools counts). Empty when the module is safe to hand over.
std::vector<Diagnostic> CheckCorePreconditions(const ir::Module& module);

}  // namespace xmx::val
