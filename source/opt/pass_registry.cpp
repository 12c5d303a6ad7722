// Our passes, one row each (flag, device argument, help, function). Each pass lives in its own
// file in source/opt/ and declares its function in passes.hpp.
#include "opt/pass_registry.hpp"

#include <algorithm>
#include <array>

#include "opt/passes.hpp"

namespace xmx::opt {
namespace {

using Device = PassInfo::DeviceArgument;

constexpr std::array kPasses = {
    PassInfo{"upgrade-builtin-calls", Device::kNone,
             "Replace calls of imported built-ins that stand for an instruction (the 2D block, "
             "matrix, shuffle and block IO built-ins clang-15 + llvm-spirv-15 and llc-22 leave "
             "as calls) by the instruction, adding its capabilities and extensions.",
             UpgradeBuiltinCallsPass},
    PassInfo{"lower-cooperative-matrix", Device::kOptional,
             "Lower cooperative matrices (SPV_KHR_cooperative_matrix, SPV_INTEL_joint_matrix) to "
             "the native matrix instruction and 2D block IO as Intel's compiler does, for the "
             "device's cooperative_matrix table; needs a device (=DEVICE or --device).",
             LowerCooperativeMatrix},
    PassInfo{"fuse-2d-block-loads", Device::kOptional,
             "Join 2D block loads and prefetches of one surface whose blocks lie side by side "
             "into one with Block Count 2 or 4, where the device's table (default: opencl) has "
             "that row.",
             Fuse2dBlockLoads},
    PassInfo{"emulate-xmx", Device::kRequired,
             "Rewrite the matrix instruction and the 2D block instructions DEVICE does not "
             "support as core SPIR-V (subgroup broadcasts, loads, stores, loops, integer "
             "arithmetic) computing the same results, xmx-run's exact float model included.",
             EmulateXmx},
};

}  // namespace

std::span<const PassInfo> OurPasses() { return kPasses; }

const PassInfo* FindOurPass(std::string_view flag) {
  const auto* it = std::ranges::find(kPasses, flag, &PassInfo::flag);
  return it == kPasses.end() ? nullptr : &*it;
}

}  // namespace xmx::opt
