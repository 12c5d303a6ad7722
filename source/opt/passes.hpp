// The functions of our passes (one file each in source/opt/), registered in pass_registry.cpp.
#pragma once

#include "opt/pass.hpp"

namespace xmx::opt {

// upgrade_builtin_calls.cpp
PassStatus UpgradeBuiltinCallsPass(ir::Module& module, PassContext& context);
// lower_cooperative_matrix.cpp
PassStatus LowerCooperativeMatrix(ir::Module& module, PassContext& context);

// fuse_2d_block_loads.cpp
PassStatus Fuse2dBlockLoads(ir::Module& module, PassContext& context);

// emulate_xmx.cpp
PassStatus EmulateXmx(ir::Module& module, PassContext& context);

}  // namespace xmx::opt
