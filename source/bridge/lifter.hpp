// The bridge's lifter, shared by lift.cpp (instructions as calls, set-aside declarations),
// lift_types.cpp (stand-ins for the scalar types SPIRV-Tools cannot hold) and
// lift_cooperative_matrix.cpp (cooperative matrices). Private to source/bridge.
#pragma once

#include <list>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "binary/id_table.hpp"
#include "bridge/bridge.hpp"
#include "ir/type_table.hpp"
#include "ir/value_types.hpp"

namespace xmx::bridge {

// Finds or adds the globals a lifted call needs: void, a 32-bit integer type, its constants and
// function types. Anything added is appended to the globals and recorded for Lower.
class GlobalBuilder {
 public:
  GlobalBuilder(ir::Module& module, LiftRecord& record);

  uint32_t Void();
  uint32_t UInt32();
  uint32_t Constant(uint32_t value);
  uint32_t FunctionType(uint32_t return_type, const std::vector<uint32_t>& params);

 private:
  uint32_t Add(ir::Instruction inst);

  ir::Module& module_;
  LiftRecord& record_;
  uint32_t void_id_ = 0;
  uint32_t uint32_id_ = 0;
  std::map<uint32_t, uint32_t> constants_;
  std::map<std::vector<uint32_t>, uint32_t> function_types_;
};

bool IsExtendedOpcode(spv::Op opcode);
// How many of a core instruction's operands (result type and id aside) the installed SPIRV-Tools
// knows: those before the first one our grammar appends.
size_t CoreOperandCount(const ir::Instruction& inst);
bool HasExtendedOperands(const ir::Instruction& inst);

class Lifter {
 public:
  // `original` is the module `module` was copied from; its types are read, never changed.
  Lifter(const ir::Module& original, ir::Module& module, LiftRecord& record, Diagnostic* error);

  bool Run(bool* changed);

 private:
  bool LiftInstruction(ir::Instruction& inst);
  uint32_t Declaration(const LiftedSignature& sig, uint32_t return_type,
                       const std::vector<uint32_t>& param_types);
  bool Fail(const ir::Instruction& inst, const std::string& why);
  bool IsValue(uint32_t id) const;
  void AddCapability(spv::Capability capability);

  // lift_types.cpp: a bfloat16 as a half, a 4-bit integer as an integer of a width the module
  // does not use.
  bool LiftExtendedOperands(ir::Instruction& inst);
  bool LiftInt4Type(ir::Instruction& inst);
  void AllowDuplicateTypes();

  // lift_cooperative_matrix.cpp.
  bool IsMatrixType(uint32_t type_id) const;
  void LiftMatrixType(ir::Instruction& inst);
  void NameMatrixStandIn(const ir::Type& type);
  // Whether a core instruction in a function must become a call because of matrix operands.
  bool NeedsMatrixCall(const ir::Instruction& inst) const;
  bool IndexesPastMatrixElementZero(const ir::Instruction& inst) const;
  std::vector<size_t> MatrixElementOperands(const ir::Instruction& inst) const;
  std::optional<uint64_t> ConstantIndex(const ir::Instruction& inst, size_t i) const;
  // Inserts before `at` (an element access the bridge lifts) the same access of element 0.
  void AddElementZeroShadow(ir::InstructionList& list, ir::InstructionList::iterator at);
  // Inserts before `at` the same instruction on element 0 of each matrix operand, for
  // SPIRV-Tools to judge the component types (the call that replaces `at` hides them).
  void AddComponentShadow(ir::InstructionList& list, ir::InstructionList::iterator at);

  const ir::Module& original_;
  ir::Module& module_;
  LiftRecord& record_;
  GlobalBuilder globals_;
  Diagnostic* error_;
  const ir::TypeTable types_;     // of the original module
  const ir::ValueTypes type_of_;  // of the module as it was before lifting
  std::unordered_set<uint32_t> function_ids_;
  binary::IdTable<uint8_t> defined_ids_;  // dense: asked for every operand of a lifted call
  // (opcode, has result, return type, operands, parameter types) -> declaration
  std::map<std::vector<uint32_t>, uint32_t> declarations_;
  std::list<ir::Function> new_declarations_;
};

}  // namespace xmx::bridge
