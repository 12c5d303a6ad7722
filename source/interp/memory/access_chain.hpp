// The access-chain part of the memory family (exec_access_chain.cpp), which BindMemory hands
// the four access-chain opcodes to.
#pragma once

#include "interp/load/loader.hpp"

namespace xmx::interp {

// Binds OpAccessChain / OpInBoundsAccessChain (with_element false) or OpPtrAccessChain /
// OpInBoundsPtrAccessChain (with_element true, the first index steps over whole pointees).
// Records the result's private address when the base has one and every index is constant.
bool BindAccessChain(Loader& loader, const ir::Instruction& inst, Instr& out, bool with_element);

}  // namespace xmx::interp
