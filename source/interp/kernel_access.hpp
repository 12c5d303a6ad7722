// The library's side of the public Kernel handle (include/xmx/interpreter.hpp): the compiled
// Program inside it, which the executor runs and users never see.
#pragma once

#include "interp/model/program.hpp"
#include "xmx/interpreter.hpp"

namespace xmx::interp {

struct KernelAccess {
  // The program of a loaded kernel (kernel.loaded() must hold).
  static const Program& ProgramOf(const Kernel& kernel) { return *kernel.program_; }
  // A handle owning `program` (interpreter_api.cpp); tests that load through LoadProgram use it
  // to launch what they loaded.
  static Kernel Make(Program program);
};

// DefaultLocalSize (xmx/interpreter.hpp) on the program itself (executor.cpp).
void DefaultLocalSize(const Program& program, LaunchGeometry* geometry);

}  // namespace xmx::interp
