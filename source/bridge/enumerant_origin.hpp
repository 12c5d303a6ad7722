// Whether an instruction names something only our grammar knows (an extended operand kind or
// enumerant), so that the bridge must keep it away from SPIRV-Tools.
#pragma once

#include "xmx/module.hpp"

namespace xmx::bridge {

bool UsesExtendedEnumerant(const ir::Instruction& inst);

}  // namespace xmx::bridge
