// Writing new code into a function for --emulate-xmx: instructions appended to a current block
// (or inserted before a given instruction of an existing block), and, in functions the pass
// writes from scratch, loops and conditionals as plain branches between new blocks. Kernel
// modules need no structured control flow, and xmx-run reconverges at immediate
// post-dominators, so no merge instructions are written.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <vector>

#include "opt/module_builder.hpp"
#include "xmx/module.hpp"

namespace xmx::opt::emulate_detail {

class CodeBuilder {
 public:
  // Appends to the end of `block` (a function under construction).
  CodeBuilder(ModuleBuilder& module, ir::Function& function, ir::BasicBlock& block);
  // Inserts before `before` in `block` (straight-line code at an existing instruction).
  CodeBuilder(ModuleBuilder& module, ir::Function& function, ir::BasicBlock& block,
              ir::InstructionList::iterator before);

  ModuleBuilder& module() { return module_; }

  // An instruction with a result; `operands` are its words after the result id, their kinds
  // taken from the grammar. Returns the result id (0 when the id bound is exhausted).
  uint32_t Op(spv::Op opcode, uint32_t result_type, std::initializer_list<uint32_t> operands);
  uint32_t Op(spv::Op opcode, uint32_t result_type, const std::vector<uint32_t>& operands);
  // An instruction without a result.
  void Do(spv::Op opcode, std::initializer_list<uint32_t> operands);

  // Shorthands.
  uint32_t Int(uint32_t width, uint64_t value) { return module_.IntConstant(width, value); }
  uint32_t I32(uint64_t value) { return Int(32, value); }
  uint32_t I64(uint64_t value) { return Int(64, value); }
  uint32_t Load(uint32_t type, uint32_t pointer) { return Op(spv::Op::OpLoad, type, {pointer}); }
  void Store(uint32_t pointer, uint32_t value) { Do(spv::Op::OpStore, {pointer, value}); }
  // `base` + `index` elements of its pointee, as a pointer of type `pointer_type`.
  uint32_t PtrAdd(uint32_t pointer_type, uint32_t base, uint32_t index) {
    return Op(spv::Op::OpPtrAccessChain, pointer_type, {base, index});
  }
  uint32_t Select(uint32_t type, uint32_t condition, uint32_t if_true, uint32_t if_false) {
    return Op(spv::Op::OpSelect, type, {condition, if_true, if_false});
  }
  // A private variable of `pointee` type at the top of the function.
  uint32_t Variable(uint32_t pointee) { return module_.AddFunctionVariable(function_, pointee); }

  // Control flow, only where the builder appends (functions under construction): the current
  // block ends and code continues in a new block after the construct.
  // for (counter = begin; counter < end; ++counter) body(counter)   (32-bit signed compare)
  void For(uint32_t begin, uint32_t end, const std::function<void(uint32_t counter)>& body);
  // if (condition) then()
  void If(uint32_t condition, const std::function<void()>& then);
  void Return() { Do(spv::Op::OpReturn, {}); }

 private:
  uint32_t StartBlock();  // appends a new block, makes it current, returns its label
  void Emit(ir::Instruction inst);

  ModuleBuilder& module_;
  ir::Function& function_;
  ir::BasicBlock* block_;
  bool appending_;
  ir::InstructionList::iterator before_;
};

}  // namespace xmx::opt::emulate_detail
