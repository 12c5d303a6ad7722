#include "interp/load/matrix_operand_folding.hpp"

#include <vector>

#include "ir/id_operands.hpp"
#include "ir/matrix_mad_operands.hpp"

namespace xmx::interp {
namespace {

// Instructions that only compute a register value from registers: no memory, no report, no
// effect on other invocations.
bool RegistersOnly(spv::Op op) {
  using spv::Op;
  switch (op) {
    case Op::OpBitcast:
    case Op::OpCopyObject:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
    case Op::OpPtrCastToGeneric:
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpCompositeConstruct:
    case Op::OpVectorShuffle:
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpShiftLeftLogical:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpBitwiseAnd:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
      return true;
    default:
      return false;
  }
}

bool IsMatrixMad(const ir::Instruction& inst) {
  return inst.opcode() == spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL;
}

}  // namespace

MatrixOperandFolds FindMatrixOperandFolds(const ir::Function& function) {
  MatrixOperandFolds folds;
  std::unordered_map<uint32_t, uint32_t> uses;  // id -> operands naming it, phis included
  for (const ir::BasicBlock& block : function.blocks) {
    for (const ir::Instruction& inst : block.instructions) {
      ir::ForEachIdOperand(inst, [&](uint32_t id, size_t) { ++uses[id]; });
    }
  }
  for (const ir::BasicBlock& block : function.blocks) {
    std::vector<const ir::Instruction*> code;
    for (const ir::Instruction& inst : block.instructions) code.push_back(&inst);
    // Where each load of the block is, by result id.
    std::unordered_map<uint32_t, size_t> load_at;
    for (size_t at = 0; at < code.size(); ++at) {
      const ir::Instruction& inst = *code[at];
      if (inst.opcode() == spv::Op::OpLoad && inst.has_result_id()) {
        load_at[inst.result_id()] = at;
        continue;
      }
      if (!IsMatrixMad(inst)) continue;
      const std::optional<ir::MatrixMadOperands> operands = ir::DecodeMatrixMadOperands(inst);
      if (!operands) continue;
      for (uint32_t id : {operands->a, operands->b, operands->c}) {
        auto load = load_at.find(id);
        if (load == load_at.end() || uses[id] != 1) continue;
        bool quiet = true;  // nothing between writes memory
        for (size_t i = load->second + 1; i < at && quiet; ++i) {
          const spv::Op op = code[i]->opcode();
          quiet = RegistersOnly(op) || op == spv::Op::OpLoad || IsMatrixMad(*code[i]);
        }
        if (quiet) folds.loads[code[load->second]] = &inst;
      }
      if (!inst.has_result_id()) continue;
      for (size_t i = at + 1; i < code.size(); ++i) {
        const ir::Instruction& next = *code[i];
        if (next.opcode() == spv::Op::OpStore && next.num_operands() >= 2 &&
            next.word(1) == inst.result_id()) {
          folds.stores[&inst] = &next;
          if (uses[inst.result_id()] == 1) folds.stored_only.insert(&inst);
          break;
        }
        if (!RegistersOnly(next.opcode())) break;
      }
    }
  }
  return folds;
}

}  // namespace xmx::interp
