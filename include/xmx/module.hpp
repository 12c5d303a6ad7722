// The in-memory SPIR-V module that the validator, the optimizer, the bridge and the interpreter's
// loader work on: the sections of the logical layout (SPIR-V spec 2.4) as lists of instructions,
// functions made of basic blocks, and an exact round trip: ToWords(FromWords(w)) == w for every
// module FromWords accepts.
//
// Analyses over a module live in source/ir/: DefUse (def_use.hpp), TypeTable (type_table.hpp) and
// ModuleInfo (module_info.hpp: entry points, execution modes, names, decorations, call graph).
// They are snapshots: they hold pointers into the module and are rebuilt after edits (DefUse also
// offers a few editing calls that keep it up to date).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "xmx/diagnostic.hpp"
#include "xmx/inline_vector.hpp"
#include "xmx/operand_kind_ids.hpp"
#include "xmx/result.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx {

// The bytes of a .spv file as host-order words, in either byte order (told by the magic number).
// Fails on a size that is not a multiple of 4 or on a wrong magic number.
Result<std::vector<uint32_t>> WordsFromBytes(std::span<const uint8_t> bytes);
// Words as little-endian bytes, the byte order SPIRV-Tools writes.
std::vector<uint8_t> BytesFromWords(std::span<const uint32_t> words);

}  // namespace xmx

namespace xmx::ir {

// One operand of an instruction: its grammar kind (composite pairs appear as their two bases,
// enumerant parameters as operands of their own kinds, as binary::Parse reports them) and its
// words (a literal string or a 64-bit number keeps all of its words).
struct OperandView {
  grammar::OperandKindId kind;
  std::span<const uint32_t> words;

  uint32_t word() const { return words[0]; }
};

class Instruction {
 public:
  static constexpr size_t kNotFromBinary = static_cast<size_t>(-1);

  // Whether the instruction has a result type and a result id comes from the grammar; for an
  // opcode the grammar does not know, it has them when they are nonzero.
  explicit Instruction(spv::Op opcode, uint32_t result_type_id = 0, uint32_t result_id = 0);

  spv::Op opcode() const { return opcode_; }
  uint32_t result_type_id() const { return result_type_id_; }
  uint32_t result_id() const { return result_id_; }
  bool has_result_type() const { return has_result_type_; }
  bool has_result_id() const { return has_result_id_; }
  void set_result_type_id(uint32_t id) { result_type_id_ = id; }
  void set_result_id(uint32_t id) { result_id_ = id; }

  // Operands after the result type and result id.
  size_t num_operands() const { return operands_.size(); }
  OperandView operand(size_t index) const;
  // The single word of operand `index` (an id, or a one-word literal or enumerant).
  uint32_t word(size_t index) const { return words_[operands_[index].offset]; }
  // The words of all operands, in order.
  std::span<const uint32_t> operand_words() const { return {words_.data(), words_.size()}; }
  std::string StringOperand(size_t index) const;

  void AddOperand(grammar::OperandKindId kind, std::span<const uint32_t> words);
  void AddOperand(grammar::OperandKindId kind, std::initializer_list<uint32_t> words) {
    AddOperand(kind, std::span<const uint32_t>(words.begin(), words.size()));
  }
  void AddIdOperand(uint32_t id) { AddOperand(grammar::OperandKindId::kIdRef, {id}); }
  // Room for `operands` operands of `words` words in all, so that adding them allocates once.
  void ReserveOperands(size_t operands, size_t words) {
    operands_.reserve(operands);
    words_.reserve(words);
  }
  void AddStringOperand(std::string_view text);
  // Replaces operand `index` with one of a possibly different kind and size.
  void SetOperand(size_t index, grammar::OperandKindId kind, std::span<const uint32_t> words);
  // Overwrites the single word of operand `index` (e.g. to rename an id).
  void SetWord(size_t index, uint32_t word) { words_[operands_[index].offset] = word; }
  // Removes operands [first, first + count).
  void RemoveOperands(size_t first, size_t count = 1);

  // OpLine/OpNoLine instructions that came right before this one; emitted right before it, and
  // moved with it.
  std::vector<Instruction>& debug_lines() { return debug_lines_; }
  const std::vector<Instruction>& debug_lines() const { return debug_lines_; }

  // Words this instruction takes in a binary, its debug lines excluded.
  size_t WordCount() const;
  // Appends the binary encoding to *out, with the debug lines first unless told otherwise.
  void AppendWords(std::vector<uint32_t>* out, bool with_debug_lines = true) const;

  // Place in the binary it was read from (for diagnostics), or kNotFromBinary.
  size_t source_index() const { return source_index_; }
  size_t source_word_offset() const { return source_word_offset_; }
  void set_source(size_t index, size_t word_offset) {
    source_index_ = index;
    source_word_offset_ = word_offset;
  }

 private:
  struct OperandSlot {
    uint16_t offset;  // into words_
    uint16_t num_words;
    grammar::OperandKindId kind;
  };

  spv::Op opcode_;
  bool has_result_type_ = false;
  bool has_result_id_ = false;
  uint32_t result_type_id_ = 0;
  uint32_t result_id_ = 0;
  // Operand words (result type and id excluded) and one slot per operand, in order. Most
  // instructions fit in the inline parts, so an instruction is one allocation (its list node).
  InlineVector<uint32_t, 6> words_;
  InlineVector<OperandSlot, 5> operands_;
  std::vector<Instruction> debug_lines_;
  size_t source_index_ = kNotFromBinary;
  size_t source_word_offset_ = kNotFromBinary;
};

using InstructionList = std::list<Instruction>;

// True for the opcodes that end a basic block.
bool IsBlockTerminator(spv::Op opcode);

struct BasicBlock {
  Instruction label{spv::Op::OpLabel};
  InstructionList instructions;  // OpPhis, OpVariables, body, and the terminator last

  uint32_t id() const { return label.result_id(); }
  // The last instruction if it ends the block, else nullptr (a block being built).
  Instruction* terminator();
  const Instruction* terminator() const;
};

struct Function {
  Instruction def{spv::Op::OpFunction};
  InstructionList parameters;  // OpFunctionParameter
  std::list<BasicBlock> blocks;
  Instruction end{spv::Op::OpFunctionEnd};

  uint32_t id() const { return def.result_id(); }
  uint32_t function_type_id() const { return def.word(1); }
  bool IsDeclaration() const { return blocks.empty(); }
};

struct ModuleHeader {
  uint32_t version = 0x00010000;  // 0x00MMmm00
  uint32_t generator = 0;
  uint32_t bound = 1;
  uint32_t schema = 0;
};

class Module {
 public:
  // Reads a module (host-order words). Fails with a diagnostic naming the instruction index on a
  // structural error (from binary::Parse) or on an instruction the sections cannot hold, e.g. a
  // type after the first function or an instruction outside any block.
  static std::optional<Module> FromWords(std::span<const uint32_t> words, Diagnostic* error);
  // The same, as a Result carrying the error.
  static Result<Module> Parse(std::span<const uint32_t> words);
  // Emits the module (host-order words): ToWords(FromWords(w)) == w.
  std::vector<uint32_t> ToWords() const;

  ModuleHeader& header() { return header_; }
  const ModuleHeader& header() const { return header_; }
  // A fresh id: the current bound, which grows by one.
  uint32_t TakeNextId() { return header_.bound++; }

  // The sections, in logical layout order.
  InstructionList& capabilities() { return capabilities_; }
  InstructionList& extensions() { return extensions_; }
  InstructionList& ext_inst_imports() { return ext_inst_imports_; }
  std::optional<Instruction>& memory_model() { return memory_model_; }
  InstructionList& entry_points() { return entry_points_; }
  InstructionList& execution_modes() { return execution_modes_; }  // incl. OpExecutionModeId
  // OpString, OpSource*, OpName, OpMemberName, OpModuleProcessed, in their original order.
  InstructionList& debug() { return debug_; }
  InstructionList& annotations() { return annotations_; }  // OpDecorate*, OpGroup*Decorate...
  // Types, constants, global variables, global OpUndef and OpExtInst, as interleaved in the input.
  InstructionList& globals() { return globals_; }
  std::list<Function>& functions() { return functions_; }
  // OpLine/OpNoLine after the last OpFunctionEnd (they have no instruction to attach to).
  std::vector<Instruction>& trailing_lines() { return trailing_lines_; }

  const InstructionList& capabilities() const { return capabilities_; }
  const InstructionList& extensions() const { return extensions_; }
  const InstructionList& ext_inst_imports() const { return ext_inst_imports_; }
  const std::optional<Instruction>& memory_model() const { return memory_model_; }
  const InstructionList& entry_points() const { return entry_points_; }
  const InstructionList& execution_modes() const { return execution_modes_; }
  const InstructionList& debug() const { return debug_; }
  const InstructionList& annotations() const { return annotations_; }
  const InstructionList& globals() const { return globals_; }
  const std::list<Function>& functions() const { return functions_; }
  const std::vector<Instruction>& trailing_lines() const { return trailing_lines_; }

  bool HasCapability(spv::Capability capability) const;
  bool HasExtension(std::string_view name) const;
  // From OpMemoryModel; Logical when there is none.
  spv::AddressingModel addressing_model() const;

  // Instructions in the module, debug lines included.
  size_t InstructionCount() const;
  // How many ids the per-id tables of an analysis should hold densely: the ids a module of this
  // size can define, so that an absurd bound cannot make them allocate gigabytes.
  size_t DenseIdLimit() const { return 2 * InstructionCount() + 1024; }

  // Calls visit(Instruction&) on every instruction in binary order, debug lines included (each
  // right before the instruction it is attached to).
  template <typename Visit>
  void ForEachInstruction(Visit&& visit) {
    ForEachInstructionImpl(*this, visit);
  }
  template <typename Visit>
  void ForEachInstruction(Visit&& visit) const {
    ForEachInstructionImpl(*this, visit);
  }

 private:
  template <typename Self, typename Visit>
  static void ForEachInstructionImpl(Self& self, Visit& visit);

  ModuleHeader header_;
  InstructionList capabilities_;
  InstructionList extensions_;
  InstructionList ext_inst_imports_;
  std::optional<Instruction> memory_model_;
  InstructionList entry_points_;
  InstructionList execution_modes_;
  InstructionList debug_;
  InstructionList annotations_;
  InstructionList globals_;
  std::list<Function> functions_;
  std::vector<Instruction> trailing_lines_;
};

template <typename Self, typename Visit>
void Module::ForEachInstructionImpl(Self& self, Visit& visit) {
  auto one = [&visit](auto& inst) {
    for (auto& line : inst.debug_lines()) visit(line);
    visit(inst);
  };
  auto all = [&one](auto& list) {
    for (auto& inst : list) one(inst);
  };
  all(self.capabilities_);
  all(self.extensions_);
  all(self.ext_inst_imports_);
  if (self.memory_model_) one(*self.memory_model_);
  all(self.entry_points_);
  all(self.execution_modes_);
  all(self.debug_);
  all(self.annotations_);
  all(self.globals_);
  for (auto& function : self.functions_) {
    one(function.def);
    all(function.parameters);
    for (auto& block : function.blocks) {
      one(block.label);
      all(block.instructions);
    }
    one(function.end);
  }
  for (auto& line : self.trailing_lines_) visit(line);
}

}  // namespace xmx::ir
