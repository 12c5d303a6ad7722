// Handlers that more than one way of writing an operation reaches: the core instruction and an
// imported OpenCL builtin that a producer left as a call (exec_imported.cpp).
#pragma once

#include <cstdint>
#include <string_view>

#include "interp/model/program.hpp"
#include "xmx/module.hpp"

namespace xmx::interp {

enum class AtomicOp : uint8_t {
  kLoad,
  kStore,
  kExchange,
  kCompareExchange,
  kIIncrement,
  kIDecrement,
  kIAdd,
  kISub,
  kSMin,
  kUMin,
  kSMax,
  kUMax,
  kAnd,
  kOr,
  kXor,
  kFAdd,
  kFlagTestAndSet,
  kFlagClear,
};
// in->aux: the AtomicOp; op[0] pointer, op[1] value (UINT32_MAX: none), op[2] comparator;
// result 0 when there is none. nullptr for widths other than 4 and 8 bytes.
Handler AtomicHandler(uint32_t bytes);

// in->aux bit 2: needs the whole subgroup; op[0] value, op[1] invocation id (count: its bytes),
// size: bytes per lane.
const Instr* ExecGroupBroadcast(Subgroup& sg, const Instr* in);
const Instr* ExecSubgroupBarrier(Subgroup& sg, const Instr* in);
// in->aux: the storage class asked for; op[0] the generic pointer.
const Instr* ExecGenericCastExplicit(Subgroup& sg, const Instr* in);

class Loader;
// intel_sub_group_*_split_matrix_mad_k* (SPEC-NOTES D), given the demangled name: false when
// `name` is not one of them.
bool BindSplitMatrixMad(Loader& loader, const ir::Instruction& inst, std::string_view name,
                        Instr& out);

}  // namespace xmx::interp
