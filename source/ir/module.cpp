#include "xmx/module.hpp"

#include <algorithm>
#include <string>
#include <string_view>

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
  for (std::string_view prefix :
       {"OpType", "OpConstant", "OpSpecConstant", "OpExtInst", "OpUntypedVariable"}) {
    if (StartsWith(name, prefix)) return Section::kGlobal;
  }
  return Section::kFunctionBody;
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
  bool Place(Instruction inst, Section section);
  // Reports "<opcode name> (instruction <index>) <problem>".
  bool Fail(const Instruction& inst, std::string problem);

  Module& module_;
  Diagnostic* error_;
  bool failed_ = false;
  Section current_ = Section::kCapability;
  Function* function_ = nullptr;  // the function being read, if any
  std::vector<Instruction> pending_lines_;
};

bool ModuleReader::Fail(const Instruction& inst, std::string problem) {
  failed_ = true;
  if (error_) {
    *error_ = Diagnostic{};
    const grammar::Instruction* desc =
        grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
    error_->message = std::string(desc ? desc->name : "instruction");
    if (inst.source_index() != Instruction::kNotFromBinary) {
      error_->message += " (instruction " + std::to_string(inst.source_index()) + ")";
      error_->instruction_index = inst.source_index();
      error_->word_offset = inst.source_word_offset();
    }
    error_->message += " " + problem;
  }
  return false;
}

bool ModuleReader::OnInstruction(const binary::ParsedInstruction& parsed) {
  Instruction inst(static_cast<spv::Op>(parsed.opcode), parsed.result_type_id, parsed.result_id);
  inst.set_source(parsed.index, parsed.word_offset);
  // Every operand but the result type and id, and all words but those three.
  const size_t result_words = (inst.has_result_type() ? 1 : 0) + (inst.has_result_id() ? 1 : 0);
  inst.ReserveOperands(parsed.operands.size() - std::min(result_words, parsed.operands.size()),
                       parsed.words.size() - 1 - std::min(result_words, parsed.words.size() - 1));
  size_t covered = 1;
  for (const binary::ParsedOperand& operand : parsed.operands) {
    covered += operand.num_words;
    if (operand.kind == grammar::OperandKindId::kIdResultType ||
        operand.kind == grammar::OperandKindId::kIdResult) {
      continue;
    }
    inst.AddOperand(operand.kind, parsed.words.subspan(operand.offset, operand.num_words));
  }
  // Emitting rebuilds the words from the operands, so every word must belong to one.
  if (covered != parsed.words.size() || inst.WordCount() != parsed.words.size()) {
    return Fail(inst, "cannot be represented: its operands cover " + std::to_string(covered) +
                          " of its " + std::to_string(parsed.words.size()) + " words");
  }
  const Section section = Classify(inst.opcode(), parsed.desc->name);
  if (section == Section::kDebugLine) {
    pending_lines_.push_back(std::move(inst));
    return true;
  }
  inst.debug_lines() = std::move(pending_lines_);
  pending_lines_.clear();
  return Place(std::move(inst), section);
}

bool ModuleReader::Place(Instruction inst, Section section) {
  if (function_) {
    switch (inst.opcode()) {
      case spv::Op::OpFunctionParameter:
        if (!function_->blocks.empty()) {
          return Fail(inst, "cannot appear after the first OpLabel of its function");
        }
        function_->parameters.push_back(std::move(inst));
        return true;
      case spv::Op::OpLabel:
        function_->blocks.emplace_back();
        function_->blocks.back().label = std::move(inst);
        return true;
      case spv::Op::OpFunctionEnd:
        function_->end = std::move(inst);
        function_ = nullptr;
        return true;
      default:
        break;
    }
    if (section < Section::kGlobal || inst.opcode() == spv::Op::OpFunction) {
      return Fail(inst, std::string("cannot appear inside a function (it belongs to the ") +
                            SectionName(section) + " section)");
    }
    if (function_->blocks.empty()) {
      return Fail(inst, "cannot appear before the first OpLabel of a function");
    }
    function_->blocks.back().instructions.push_back(std::move(inst));
    return true;
  }

  if (section == Section::kFunctionBody ||
      (section == Section::kFunctions && inst.opcode() != spv::Op::OpFunction)) {
    return Fail(inst, "cannot appear outside a function");
  }
  if (section < current_) {
    return Fail(inst, std::string("(") + SectionName(section) + ") cannot appear after the " +
                          SectionName(current_) + " in the logical layout");
  }
  current_ = section;
  switch (section) {
    case Section::kCapability:
      module_.capabilities().push_back(std::move(inst));
      break;
    case Section::kExtension:
      module_.extensions().push_back(std::move(inst));
      break;
    case Section::kExtInstImport:
      module_.ext_inst_imports().push_back(std::move(inst));
      break;
    case Section::kMemoryModel:
      if (module_.memory_model()) return Fail(inst, "appears twice: a module has one");
      module_.memory_model() = std::move(inst);
      break;
    case Section::kEntryPoint:
      module_.entry_points().push_back(std::move(inst));
      break;
    case Section::kExecutionMode:
      module_.execution_modes().push_back(std::move(inst));
      break;
    case Section::kDebug:
      module_.debug().push_back(std::move(inst));
      break;
    case Section::kAnnotation:
      module_.annotations().push_back(std::move(inst));
      break;
    case Section::kGlobal:
      module_.globals().push_back(std::move(inst));
      break;
    case Section::kFunctions:
      module_.functions().emplace_back();
      function_ = &module_.functions().back();
      function_->def = std::move(inst);
      break;
    default:
      break;
  }
  return true;
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
