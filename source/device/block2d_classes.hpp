// The device layer's names of the 2D block instructions (xmx::device::Block2dOp, public) and the
// grammar's opcode classes they stand for (grammar/SPV_INTEL_2d_block_io.json's "xmx_class").
#pragma once

#include <optional>

#include "grammar/grammar.hpp"
#include "xmx/device.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::device {

grammar::OpcodeClass OpcodeClassOf(Block2dOp op);
// nullopt for a class that is not a 2D block instruction.
std::optional<Block2dOp> Block2dOpOf(grammar::OpcodeClass op_class);
// The same for an opcode, through the grammar's class of it.
inline std::optional<Block2dOp> Block2dOpOf(spv::Op opcode) {
  return Block2dOpOf(grammar::ClassOf(static_cast<uint32_t>(opcode)));
}

}  // namespace xmx::device
