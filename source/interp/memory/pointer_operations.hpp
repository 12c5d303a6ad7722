// The pointer operations of the memory family that move no memory: casts between storage
// classes, conversions to and from integers, comparisons and differences. BindMemory hands them
// here.
#pragma once

#include "interp/load/loader.hpp"

namespace xmx::interp {

// Binds OpPtrCastToGeneric, OpGenericCastToPtr, OpGenericCastToPtrExplicit,
// OpGenericPtrMemSemantics, OpConvertPtrToU, OpConvertUToPtr, OpPtrEqual, OpPtrNotEqual and
// OpPtrDiff; false for any other opcode.
bool BindPointerOperation(Loader& loader, const ir::Instruction& inst, Instr& out);

}  // namespace xmx::interp
