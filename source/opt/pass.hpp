// What every pass of ours (source/opt/<pass>.cpp) looks like to xmx-opt's driver: a function that
// edits an ir::Module in place and says whether it changed it. SPIRV-Tools' own passes do not go
// through this interface: the driver runs them on the lifted module through the bridge.
#pragma once

#include <string_view>
#include <vector>

#include "xmx/device.hpp"
#include "xmx/diagnostic.hpp"
#include "xmx/module.hpp"

namespace xmx::opt {

struct PassContext {
  // The device named by the flag's =DEVICE argument (or by --device), null when none was given;
  // a pass that needs one and gets none fails with a diagnostic saying so.
  const device::DeviceProfile* device = nullptr;
  // What the pass has to say: errors make the pass fail, warnings and remarks are printed.
  std::vector<Diagnostic> diagnostics;
};

enum class PassStatus {
  kUnchanged,  // the module is exactly as it was
  kChanged,    // the module was rewritten and is valid whenever the input was
  kFailed,     // the pass could not do its work; context.diagnostics says why, and the module
               // must be left as it was given (the driver then exits 1, like spirv-opt)
};

using PassFunction = PassStatus (*)(ir::Module& module, PassContext& context);

// One of our passes as the command line sees it.
struct PassInfo {
  std::string_view flag;  // "upgrade-builtin-calls" (spelled --flag or --flag=DEVICE)
  enum class DeviceArgument { kNone, kOptional, kRequired } device_argument;
  std::string_view help;  // one line for --help
  PassFunction run;
};

}  // namespace xmx::opt
