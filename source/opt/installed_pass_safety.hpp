// When the installed SPIRV-Tools (2023.1) optimizer cannot be trusted with a module: the facts of
// the module that its known failures depend on, and per pass whether those facts make it unsafe.
// Decided before a pass runs, so that a crash inside SPIRV-Tools is never reached.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "xmx/module.hpp"

namespace xmx::opt {

struct InstalledPassFacts {
  // A load or store whose pointer was itself loaded from a Function variable (through access
  // chains or not), e.g. `p = *local; x = *p;`. SPIRV-Tools' SSA rewriter finds the variable a
  // memory access refers to by taking operand 0 of the pointer's definition, which for such a
  // load is the local: it then takes *p for a load of the local itself. Where: the function's
  // name or id, for the message.
  std::optional<std::string> deref_of_pointer_in_local;
  // A function with a loop (a branch back to a block at or before the branching one) that
  // writes memory: the installed loop-invariant code motion hoists loads without checking the
  // loop's stores to the same memory (a loop counter kept in memory is then read once, and the
  // loop never ends).
  std::optional<std::string> loop_that_writes_memory;
  // A function with a loop one of whose instructions has a name or a decoration: the installed
  // loop peeling's loop-closed-SSA check asks for the block of every user of a loop instruction,
  // which an OpName or OpDecorate does not have, and crashes (llvm-spirv-15 decorates additions
  // with NoSignedWrap).
  std::optional<std::string> annotated_instruction_in_loop;
  // The Shader capability: RelaxedPrecision decorations need it.
  bool has_shader = false;
  // Types the bridge replaced by stand-ins (a cooperative matrix by a one-member struct, a
  // bfloat16 by a half, a 4-bit integer by a wider one): what they are, for the message. Passes
  // that fold values or split composites would compute with the stand-in's meaning.
  std::optional<std::string> stand_in_types;
  // Whether Lift changed the module at all (ids the bridge records must then keep their meaning).
  bool lifted = false;
};

InstalledPassFacts ComputeInstalledPassFacts(const ir::Module& module);

// Whether SPIRV-Tools' pass `name` (its flag without "--" and without "=ARG") may run on a module
// with `facts`: nullopt when it may, else why not (one sentence, without the pass's name).
std::optional<std::string> WhyUnsafe(std::string_view name, const InstalledPassFacts& facts);

}  // namespace xmx::opt
