// Emitting code for --lower-cooperative-matrix: types and constants (found in the module or
// appended to its globals; the pass orders the globals afterwards so that every id is defined
// before its use), instructions inserted before a position in a block, blocks split for run-time
// choices, and the per-function values the lowering keeps asking for (the invocation's lane id).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <list>
#include <map>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "opt/lower_cooperative_matrix.hpp"

namespace xmx::opt::lower_coop {

class Builder {
 public:
  explicit Builder(ir::Module& module);

  ir::Module& module() { return module_; }

  // --- Types and constants (module scope) ---
  uint32_t VoidType();
  uint32_t BoolType();
  uint32_t IntType(uint32_t bits);  // unsigned (signedness 0), as OpenCL modules declare them
  uint32_t FloatType(uint32_t bits);
  uint32_t VectorType(uint32_t component, uint32_t count);
  uint32_t ArrayType(uint32_t element, uint32_t count);
  uint32_t PointerType(spv::StorageClass storage, uint32_t pointee);
  // A scalar (count 1) or vector (2, 3, 4, 8, 16) of `component`.
  uint32_t ScalarOrVector(uint32_t component, uint32_t count) {
    return count == 1 ? component : VectorType(component, count);
  }
  uint32_t UIntConstant(uint32_t bits, uint64_t value);
  uint32_t NullConstant(uint32_t type);
  uint32_t TypeBits(uint32_t type) const;  // bits of a scalar int/float type
  bool IsFloatType(uint32_t type) const;
  // The opcode and operand words of a type id (what the type instruction says).
  const ir::Instruction* TypeInstruction(uint32_t type) const;
  uint32_t PointerSizeBits() const;
  // The type id of a value id (its result type), 0 when unknown.
  uint32_t ValueType(uint32_t value) const;
  void NoteValueType(uint32_t value, uint32_t type) { value_types_[value] = type; }

  // --- Emission ---
  void SetInsertPoint(ir::Function* function, std::list<ir::BasicBlock>::iterator block,
                      ir::InstructionList::iterator position);
  std::list<ir::BasicBlock>::iterator block() const { return block_; }
  ir::InstructionList::iterator position() const { return position_; }
  ir::Function* function() const { return function_; }

  // Inserts `inst` before the insertion point; returns its result id (a fresh one is assigned when
  // it has a result and none was set).
  uint32_t Insert(ir::Instruction inst);
  // An instruction whose operands are all ids.
  uint32_t Op(spv::Op opcode, uint32_t type, std::initializer_list<uint32_t> ids);
  uint32_t OpSpan(spv::Op opcode, uint32_t type, std::span<const uint32_t> ids);
  uint32_t Extract(uint32_t type, uint32_t composite, std::span<const uint32_t> indices);
  uint32_t Insert(uint32_t type, uint32_t object, uint32_t composite,
                  std::span<const uint32_t> indices);
  // A Function-storage variable at the start of the function's entry block.
  uint32_t FunctionVariable(uint32_t pointee);
  // The invocation's lane (SubgroupLocalInvocationId, 32-bit), loaded once per function.
  uint32_t LaneId();

  // Splits the current block before the insertion point: the instructions from there to the end
  // (the terminator included) move to a new block, which is returned; the insertion point becomes
  // the end of the (now unterminated) current block. Phis of the moved terminator's successors
  // are updated to name the new block.
  std::list<ir::BasicBlock>::iterator SplitBlock();
  // A new empty block after `after`; returns it.
  std::list<ir::BasicBlock>::iterator NewBlockAfter(std::list<ir::BasicBlock>::iterator after);
  // Makes the end of `block` the insertion point.
  void MoveToEnd(std::list<ir::BasicBlock>::iterator block);

  // Opcodes emitted, for the capabilities and extensions they need.
  const std::set<spv::Op>& emitted() const { return emitted_; }

 private:
  uint32_t FindOrAddType(spv::Op opcode, std::vector<uint32_t> words,
                         std::vector<grammar::OperandKindId> kinds);
  uint32_t AddGlobal(ir::Instruction inst);

  ir::Module& module_;
  std::map<std::pair<spv::Op, std::vector<uint32_t>>, uint32_t> types_;
  std::map<uint32_t, const ir::Instruction*> type_defs_;
  std::map<std::tuple<uint32_t, uint64_t>, uint32_t> uint_constants_;
  std::map<uint32_t, uint32_t> null_constants_;
  std::map<uint32_t, uint32_t> value_types_;
  std::map<const ir::Function*, uint32_t> lane_ids_;
  uint32_t lane_variable_ = 0;
  std::set<spv::Op> emitted_;

  ir::Function* function_ = nullptr;
  std::list<ir::BasicBlock>::iterator block_;
  ir::InstructionList::iterator position_;
};

}  // namespace xmx::opt::lower_coop
