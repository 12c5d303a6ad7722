#include "xmx/module.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "binary/parser.hpp"
#include "grammar/grammar.hpp"

namespace xmx::ir {
namespace {

// Where an instruction goes when it appears outside a function, in logical layout order.
enum class Section : uint8_t {
  kCapability,
  kExtension,
  kExtInstImport,
  kMemoryModel,
  kEntryPoint,
  kExecutionMode,
  kDebug,
  kAnnotation,
  kGlobal,
  kFunctions,
  kFunctionBody,  // only inside a function: it has no place at module scope
  kDebugLine,     // OpLine/OpNoLine: attached to the next instruction wherever that goes
};

const char* SectionName(Section section) {
  switch (section) {
    case Section::kCapability:
      return "capabilities";
    case Section::kExtension:
      return "extensions";
    case Section::kExtInstImport:
      return "extended instruction set imports";
    case Section::kMemoryModel:
      return "memory model";
    case Section::kEntryPoint:
      return "entry points";
    case Section::kExecutionMode:
      return "execution modes";
    case Section::kDebug:
      return "debug instructions";
    case Section::kAnnotation:
      return "annotations";
    case Section::kGlobal:
      return "types, constants and global variables";
    case Section::kFunctions:
      return "functions";
    case Section::kFunctionBody:
      return "function bodies";
    case Section::kDebugLine:
      return "debug lines";
  }
  return "";
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

Section Classify(spv::Op opcode, std::string_view name) {
  switch (opcode) {
    case spv::Op::OpCapability:
      return Section::kCapability;
    case spv::Op::OpExtension:
      return Section::kExtension;
    case spv::Op::OpExtInstImport:
      return Section::kExtInstImport;
    case spv::Op::OpMemoryModel:
      return Section::kMemoryModel;
    case spv::Op::OpEntryPoint:
      return Section::kEntryPoint;
    case spv::Op::OpExecutionMode:
    case spv::Op::OpExecutionModeId:
      return Section::kExecutionMode;
    case spv::Op::OpString:
    case spv::Op::OpSourceExtension:
    case spv::Op::OpSource:
    case spv::Op::OpSourceContinued:
    case spv::Op::OpName:
    case spv::Op::OpMemberName:
    case spv::Op::OpModuleProcessed:
      return Section::kDebug;
    case spv::Op::OpDecorate:
    case spv::Op::OpMemberDecorate:
    case spv::Op::OpDecorationGroup:
    case spv::Op::OpGroupDecorate:
    case spv::Op::OpGroupMemberDecorate:
    case spv::Op::OpDecorateId:
    case spv::Op::OpDecorateString:
    case spv::Op::OpMemberDecorateString:
      return Section::kAnnotation;
    case spv::Op::OpLine:
    case spv::Op::OpNoLine:
      return Section::kDebugLine;
    case spv::Op::OpFunction:
    case spv::Op::OpFunctionParameter:
    case spv::Op::OpFunctionEnd:
    case spv::Op::OpLabel:
      return Section::kFunctions;
    case spv::Op::OpVariable:
    case spv::Op::OpUndef:
    case spv::Op::OpAsmTargetINTEL:
    case spv::Op::OpAsmINTEL:
      return Section::kGlobal;
    default:
      break;
  }
  // By name, so that type and constant opcodes of future extensions (OpTypeFooINTEL,
  // OpConstantBarINTEL, OpUntypedVariableKHR, OpExtInstWithForwardRefsKHR) find their section.
  // (Most opcodes are body instructions whose third letter starts none of the prefixes.)
  if (name.size() < 3 || std::string_view("TCSEU").find(name[2]) == std::string_view::npos) {
    return Section::kFunctionBody;
  }
  for (std::string_view prefix :
       {"OpType", "OpConstant", "OpSpecConstant", "OpExtInst", "OpUntypedVariable"}) {
    if (StartsWith(name, prefix)) return Section::kGlobal;
  }
  return Section::kFunctionBody;
}

// Classify, worked out once per opcode: reading a module asks it for every instruction, and the
// name tests cost more than the rest of placing an instruction. `name` is the parser's entry for
// `opcode` (grammar::FindInstruction's), the same for every instruction with that opcode.
Section SectionOf(uint32_t opcode, std::string_view name) {
  // Classify tests names, so each opcode's section is remembered when the first instruction with
  // it is read. (A table of every opcode of the grammar, made up front, cost a short-lived
  // process such as one xmx-opt run more than it saved.) Readers on several threads may both
  // classify an opcode; they store the same value. Zero: not classified yet; else section + 1.
  static std::array<std::atomic<uint8_t>, 8192> known{};
  if (opcode >= known.size()) return Classify(static_cast<spv::Op>(opcode), name);
  uint8_t seen = known[opcode].load(std::memory_order_relaxed);
  if (seen == 0) {
    seen = static_cast<uint8_t>(Classify(static_cast<spv::Op>(opcode), name)) + 1;
    known[opcode].store(seen, std::memory_order_relaxed);
  }
  return static_cast<Section>(seen - 1);
}

class ModuleReader : public binary::InstructionHandler {
 public:
  ModuleReader(Module* module, Diagnostic* error) : module_(*module), error_(error) {}

  bool OnHeader(const binary::Header& header) override {
    module_.header() = {header.version, header.generator, header.bound, header.schema};
    return true;
  }

  bool OnInstruction(const binary::ParsedInstruction& parsed) override;

  // Checks what can only be checked at the end; returns false if the module is rejected.
  bool Finish(size_t num_instructions);
  bool failed() const { return failed_; }

 private:
  // The instruction `parsed` made in its place in the module (operands still to be added), or
  // nullptr when it has no place there. Made in place: moving an instruction costs about as
  // much as the rest of reading it.
  Instruction* Place(const binary::ParsedInstruction& parsed, Section section);
  // Reports "<opcode name> (instruction <index>) <problem>".
  bool Fail(const binary::ParsedInstruction& parsed, std::string problem);

  Module& module_;
  Diagnostic* error_;
  bool failed_ = false;
  Section current_ = Section::kCapability;
  Function* function_ = nullptr;  // the function being read, if any
  std::vector<Instruction> pending_lines_;
};

bool ModuleReader::Fail(const binary::ParsedInstruction& parsed, std::string problem) {
  failed_ = true;
  if (error_) {
    *error_ = Diagnostic{};
    error_->message = std::string(parsed.desc ? parsed.desc->name : "instruction");
    error_->message += " (instruction " + std::to_string(parsed.index) + ")";
    error_->instruction_index = parsed.index;
    error_->word_offset = parsed.word_offset;
    error_->message += " " + problem;
  }
  return false;
}

bool ModuleReader::OnInstruction(const binary::ParsedInstruction& parsed) {
  const auto opcode = static_cast<spv::Op>(parsed.opcode);
  // Every operand but the result type and id, and all words but those three.
  size_t covered = 1;
  size_t result_words = 0;
  for (const binary::ParsedOperand& operand : parsed.operands) {
    covered += operand.num_words;
    if (operand.kind == grammar::OperandKindId::kIdResultType ||
        operand.kind == grammar::OperandKindId::kIdResult) {
      result_words += operand.num_words;
    }
  }
  // Emitting rebuilds the words from the operands, so every word must belong to one, and the
  // result type and id must be where the grammar puts them (one word each).
  const size_t grammar_result_words =
      (parsed.desc->has_result_type ? 1 : 0) + (parsed.desc->has_result ? 1 : 0);
  if (covered != parsed.words.size() || result_words != grammar_result_words) {
    return Fail(parsed, "cannot be represented: its operands cover " + std::to_string(covered) +
                            " of its " + std::to_string(parsed.words.size()) + " words");
  }
  const Section section = SectionOf(parsed.opcode, parsed.desc->name);
  Instruction* inst = nullptr;
  if (section == Section::kDebugLine) {
    inst = &pending_lines_.emplace_back(opcode, parsed.result_type_id, parsed.result_id);
  } else {
    inst = Place(parsed, section);
    if (!inst) return false;
    inst->debug_lines() = std::move(pending_lines_);
    pending_lines_.clear();
  }
  inst->set_source(parsed.index, parsed.word_offset);
  inst->ReserveOperands(parsed.operands.size() - std::min(result_words, parsed.operands.size()),
                        parsed.words.size() - 1 - result_words);
  for (const binary::ParsedOperand& operand : parsed.operands) {
    if (operand.kind == grammar::OperandKindId::kIdResultType ||
        operand.kind == grammar::OperandKindId::kIdResult) {
      continue;
    }
    inst->AddOperand(operand.kind, parsed.words.subspan(operand.offset, operand.num_words));
  }
  return true;
}

Instruction* ModuleReader::Place(const binary::ParsedInstruction& parsed, Section section) {
  const auto opcode = static_cast<spv::Op>(parsed.opcode);
  auto make = [&parsed, opcode](auto& list) -> Instruction* {
    return &list.emplace_back(opcode, parsed.result_type_id, parsed.result_id);
  };
  auto assign = [&parsed, opcode](Instruction& slot) -> Instruction* {
    slot = Instruction(opcode, parsed.result_type_id, parsed.result_id);
    return &slot;
  };
  if (function_) {
    switch (opcode) {
      case spv::Op::OpFunctionParameter:
        if (!function_->blocks.empty()) {
          Fail(parsed, "cannot appear after the first OpLabel of its function");
          return nullptr;
        }
        return make(function_->parameters);
      case spv::Op::OpLabel:
        return assign(function_->blocks.emplace_back().label);
      case spv::Op::OpFunctionEnd: {
        Instruction* end = assign(function_->end);
        function_ = nullptr;
        return end;
      }
      default:
        break;
    }
    if (section < Section::kGlobal || opcode == spv::Op::OpFunction) {
      Fail(parsed, std::string("cannot appear inside a function (it belongs to the ") +
                       SectionName(section) + " section)");
      return nullptr;
    }
    if (function_->blocks.empty()) {
      Fail(parsed, "cannot appear before the first OpLabel of a function");
      return nullptr;
    }
    return make(function_->blocks.back().instructions);
  }

  if (section == Section::kFunctionBody ||
      (section == Section::kFunctions && opcode != spv::Op::OpFunction)) {
    Fail(parsed, "cannot appear outside a function");
    return nullptr;
  }
  if (section < current_) {
    Fail(parsed, std::string("(") + SectionName(section) + ") cannot appear after the " +
                     SectionName(current_) + " in the logical layout");
    return nullptr;
  }
  current_ = section;
  switch (section) {
    case Section::kCapability:
      return make(module_.capabilities());
    case Section::kExtension:
      return make(module_.extensions());
    case Section::kExtInstImport:
      return make(module_.ext_inst_imports());
    case Section::kMemoryModel:
      if (module_.memory_model()) {
        Fail(parsed, "appears twice: a module has one");
        return nullptr;
      }
      return &module_.memory_model().emplace(opcode, parsed.result_type_id, parsed.result_id);
    case Section::kEntryPoint:
      return make(module_.entry_points());
    case Section::kExecutionMode:
      return make(module_.execution_modes());
    case Section::kDebug:
      return make(module_.debug());
    case Section::kAnnotation:
      return make(module_.annotations());
    case Section::kGlobal:
      return make(module_.globals());
    case Section::kFunctions:
      function_ = &module_.functions().emplace_back();
      return assign(function_->def);
    default:
      break;
  }
  // Not reached: function bodies and debug lines are handled above.
  Fail(parsed, std::string("has no place in the ") + SectionName(section) + " section");
  return nullptr;
}

bool ModuleReader::Finish(size_t num_instructions) {
  if (function_) {
    failed_ = true;
    if (error_) {
      *error_ = Diagnostic{};
      error_->message = "The module ends inside a function: missing OpFunctionEnd";
      error_->instruction_index = num_instructions;
    }
    return false;
  }
  module_.trailing_lines() = std::move(pending_lines_);
  return true;
}

// Counts instructions without decoding them, to place an end-of-module diagnostic.
size_t CountInstructions(std::span<const uint32_t> words) {
  size_t count = 0;
  for (size_t at = binary::kHeaderWords; at < words.size(); ++count) {
    const size_t word_count = words[at] >> 16;
    if (word_count == 0) break;
    at += word_count;
  }
  return count;
}

}  // namespace

std::optional<Module> Module::FromWords(std::span<const uint32_t> words, Diagnostic* error) {
  Module module;
  ModuleReader reader(&module, error);
  if (!binary::Parse(words, reader, error) || reader.failed()) return std::nullopt;
  if (!reader.Finish(CountInstructions(words))) return std::nullopt;
  return module;
}

std::vector<uint32_t> Module::ToWords() const {
  std::vector<uint32_t> words = {binary::kMagic, header_.version, header_.generator, header_.bound,
                                 header_.schema};
  ForEachInstruction([&words](const Instruction& inst) { inst.AppendWords(&words, false); });
  return words;
}

bool Module::HasCapability(spv::Capability capability) const {
  for (const Instruction& inst : capabilities_) {
    if (inst.word(0) == static_cast<uint32_t>(capability)) return true;
  }
  return false;
}

bool Module::HasExtension(std::string_view name) const {
  for (const Instruction& inst : extensions_) {
    if (inst.StringOperand(0) == name) return true;
  }
  return false;
}

size_t Module::InstructionCount() const {
  size_t count = 0;
  ForEachInstruction([&count](const Instruction&) { ++count; });
  return count;
}

spv::AddressingModel Module::addressing_model() const {
  if (!memory_model_ || memory_model_->num_operands() < 1) return spv::AddressingModel::Logical;
  return static_cast<spv::AddressingModel>(memory_model_->word(0));
}

}  // namespace xmx::ir
