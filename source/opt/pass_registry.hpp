// The table of our passes (pass_registry.cpp): one PassInfo row per pass, in the order --help
// lists them. A new pass adds its row there and nothing else in the driver.
#pragma once

#include <span>
#include <string_view>

#include "opt/pass.hpp"

namespace xmx::opt {

std::span<const PassInfo> OurPasses();

// The row whose flag is `flag` (without "--" and without "=DEVICE"), or nullptr.
const PassInfo* FindOurPass(std::string_view flag);

}  // namespace xmx::opt
