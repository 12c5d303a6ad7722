#include "text/assembler.hpp"

#include <algorithm>
#include <string>

#include "text/assembler_context.hpp"
#include "text/literal_parse.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::text {

namespace {

constexpr uint32_t kMagic = 0x07230203u;
// Khronos' SPIR-V Tools Assembler (generator 7), tool version 0, as spirv-as writes it.
constexpr uint32_t kGeneratorWord = 7u << 16;
constexpr size_t kMaxInstructionWords = 0xFFFF;

// The opcodes whose result spirv-as records as a type (spvOpcodeGeneratesType of 2023.1), plus
// the extended type opcodes. OpTypeForwardPointer declares no type.
bool GeneratesType(uint32_t opcode) {
  using spv::Op;
  if (opcode >= static_cast<uint32_t>(Op::OpTypeVoid) &&
      opcode <= static_cast<uint32_t>(Op::OpTypePipe)) {
    return true;
  }
  switch (static_cast<Op>(opcode)) {
    case Op::OpTypePipeStorage:
    case Op::OpTypeNamedBarrier:
    case Op::OpTypeAccelerationStructureKHR:
    case Op::OpTypeCooperativeMatrixNV:
    case Op::OpTypeRayQueryKHR:
    case Op::OpTypeHitObjectNV:
    case Op::OpTypeCooperativeMatrixKHR:
      return true;
    default:
      return false;
  }
}

// Diagnostics are single lines: a word that runs over line ends (an unterminated string) is
// shown with escaped line breaks.
std::string OneLine(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  for (char c : message) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  return out;
}

struct TargetEnvName {
  const char* name;
  uint32_t version;
};

// spvParseTargetEnv's table, in its order: it matches the first name that prefixes the argument.
constexpr TargetEnvName kTargetEnvs[] = {
    {"vulkan1.1spv1.4", 0x00010400},
    {"vulkan1.0", 0x00010000},
    {"vulkan1.1", 0x00010300},
    {"vulkan1.2", 0x00010500},
    {"vulkan1.3", 0x00010600},
    {"spv1.0", 0x00010000},
    {"spv1.1", 0x00010100},
    {"spv1.2", 0x00010200},
    {"spv1.3", 0x00010300},
    {"spv1.4", 0x00010400},
    {"spv1.5", 0x00010500},
    {"spv1.6", 0x00010600},
    {"opencl1.2embedded", 0x00010000},
    {"opencl1.2", 0x00010000},
    {"opencl2.0embedded", 0x00010000},
    {"opencl2.0", 0x00010000},
    {"opencl2.1embedded", 0x00010000},
    {"opencl2.1", 0x00010000},
    {"opencl2.2embedded", 0x00010200},
    {"opencl2.2", 0x00010200},
    {"opengl4.0", 0x00010000},
    {"opengl4.1", 0x00010000},
    {"opengl4.2", 0x00010000},
    {"opengl4.3", 0x00010000},
    {"opengl4.5", 0x00010000},
};

}  // namespace

bool TargetEnvVersion(std::string_view env, uint32_t* version) {
  for (const TargetEnvName& t : kTargetEnvs) {
    if (env.starts_with(t.name)) {
      *version = t.version;
      return true;
    }
  }
  return false;
}

Result<std::vector<uint32_t>> Assemble(std::string_view text, const AssembleOptions& options) {
  return detail::Assembler(text, options).Run();
}

bool Assemble(std::string_view text, const AssembleOptions& options, std::vector<uint32_t>* words,
              Diagnostic* error) {
  Result<std::vector<uint32_t>> result = Assemble(text, options);
  if (!result) {
    words->clear();
    if (error) *error = std::move(result.diagnostics().front());
    return false;
  }
  *words = std::move(result).value();
  return true;
}

namespace detail {

bool Assembler::Fail(std::string_view message) {
  failure_ = Diagnostic{};
  failure_.severity = Severity::kError;
  failure_.message = OneLine(message);
  const Position& pos = lexer_.position();
  failure_.text_position = TextPosition{pos.line + 1, pos.column + 1};
  return false;
}

Result<std::vector<uint32_t>> Assembler::Run() {
  std::vector<uint32_t> words;
  if (!Encode(&words)) return Result<std::vector<uint32_t>>::Failure(std::move(failure_));
  return words;
}

uint32_t Assembler::Intern(std::string_view name) {
  auto it = keys_by_name_.find(name);
  if (it != keys_by_name_.end()) return it->second;
  uint32_t key = static_cast<uint32_t>(ids_.size());
  uint32_t number;
  if (options_.preserve_numeric_ids && ParseUint32(name, &number)) {
    // Every spelling of one number ("5", "0x5", octal "05") is the same id.
    auto [num_it, inserted] = keys_by_number_.try_emplace(number, key);
    if (inserted) {
      IdEntry entry;
      entry.fixed_id = number;
      entry.numeric = true;
      ids_.push_back(entry);
    }
    key = num_it->second;
  } else {
    ids_.push_back(IdEntry{});
  }
  keys_by_name_.emplace(name, key);
  return key;
}

uint32_t Assembler::IdValue(uint32_t key) const {
  if (!options_.preserve_numeric_ids) return key + 1;
  if (ids_[key].numeric) return ids_[key].fixed_id;
  // Non-numeric ids fill the gaps between the numeric ones, in order of first appearance.
  uint32_t next = 1;
  for (uint32_t k = 0; k <= key; ++k) {
    if (ids_[k].numeric) continue;
    while (keys_by_number_.count(next)) ++next;
    if (k == key) return next;
    ++next;
  }
  return next;
}

void Assembler::PushWord(uint32_t word) {
  const size_t index = InstSize();
  if (index < 4) key_at_[index] = kNoKey;
  out_->push_back(word);
}

void Assembler::PushId(uint32_t key) {
  const size_t index = InstSize();
  if (options_.preserve_numeric_ids) {
    id_slots_.push_back(out_->size());
    out_->push_back(key);
  } else {
    out_->push_back(key + 1);
  }
  if (index < 4) key_at_[index] = key;
}

bool Assembler::Available(const grammar::Instruction& inst) const {
  return (options_.version >= inst.version && options_.version <= inst.last_version) ||
         !inst.extensions.empty() || !inst.capabilities.empty();
}

bool Assembler::Available(grammar::OperandKindId kind, const grammar::Enumerant& e) const {
  auto available = [this](const grammar::Enumerant& x) {
    return (options_.version >= x.version && options_.version <= x.last_version) ||
           !x.extensions.empty() || !x.capabilities.empty();
  };
  if (available(e)) return true;
  // The tables of the installed SPIRV-Tools list an extension on some enumerants whose alias
  // alone carries it in the installed grammar (UserSemantic / HlslSemanticGOOGLE): an enumerant
  // is also available when an alias with the same value is enabled by an extension.
  for (const grammar::Enumerant& alias : grammar::GetOperandKind(kind).enumerants) {
    if (alias.value == e.value && &alias != &e &&
        (!alias.extensions.empty() || !alias.capabilities.empty())) {
      return true;
    }
  }
  return false;
}

void Assembler::PushOperands(std::span<const grammar::Operand> operands) {
  using grammar::OperandKindId;
  using grammar::Quantifier;
  for (auto it = operands.rbegin(); it != operands.rend(); ++it) {
    const Quantifier q = it->quantifier;
    auto pick = [q](Expect one, Expect optional, Expect variable) {
      return q == Quantifier::kOne ? one : (q == Quantifier::kOptional ? optional : variable);
    };
    Expected e{Expect::kEnum, it->kind, it->origin == grammar::Origin::kExtended};
    switch (it->kind) {
      case OperandKindId::kIdResultType:
        e.what = Expect::kTypeId;
        break;
      case OperandKindId::kIdResult:
        e.what = Expect::kResultId;
        break;
      case OperandKindId::kIdRef:
      case OperandKindId::kIdScope:
      case OperandKindId::kIdMemorySemantics:
      case OperandKindId::kPairIdRefIdRef:
      case OperandKindId::kScope:  // SPIRV-Tools reads these enum kinds as ids, too
      case OperandKindId::kMemorySemantics:
        e.what = pick(Expect::kId, Expect::kOptionalId, Expect::kVariableId);
        break;
      case OperandKindId::kLiteralInteger:
        e.what = pick(Expect::kLiteralInteger, Expect::kOptionalLiteralInteger,
                      Expect::kVariableLiteralInteger);
        break;
      case OperandKindId::kLiteralString:
        e.what = pick(Expect::kLiteralString, Expect::kOptionalLiteralString,
                      Expect::kVariableLiteralString);
        break;
      case OperandKindId::kLiteralContextDependentNumber:
        e.what = q == Quantifier::kOne ? Expect::kTypedLiteralNumber
                                       : Expect::kOptionalTypedLiteralInteger;
        break;
      case OperandKindId::kLiteralExtInstInteger:
        e.what = Expect::kExtInstNumber;
        break;
      case OperandKindId::kLiteralSpecConstantOpInteger:
        e.what = Expect::kSpecConstantOpNumber;
        break;
      case OperandKindId::kPairLiteralIntegerIdRef:
        e.what = Expect::kVariableLiteralIntegerId;
        break;
      case OperandKindId::kPairIdRefLiteralInteger:
        e.what = Expect::kVariableIdLiteralInteger;
        break;
      default:
        e.what = pick(Expect::kEnum, Expect::kOptionalEnum, Expect::kVariableEnum);
        break;
    }
    expected_.push_back(e);
  }
}

bool Assembler::Encode(std::vector<uint32_t>* words) {
  words->clear();
  if (text_.empty()) return Fail("Missing assembly text.");
  out_ = words;
  words->resize(5);
  expected_.reserve(32);
  lexer_.Advance();
  while (lexer_.HasText()) {
    if (!EncodeInstruction()) return false;
    if (!lexer_.Advance()) break;
  }

  uint32_t bound = 1;
  if (options_.preserve_numeric_ids) {
    std::vector<uint32_t> id_of_key(ids_.size());
    uint32_t next = 1;
    for (size_t k = 0; k < ids_.size(); ++k) {
      if (ids_[k].numeric) {
        id_of_key[k] = ids_[k].fixed_id;
      } else {
        while (keys_by_number_.count(next)) ++next;
        id_of_key[k] = next++;
      }
      bound = std::max(bound, id_of_key[k] + 1);
    }
    for (size_t slot : id_slots_) (*words)[slot] = id_of_key[(*words)[slot]];
  } else {
    bound = static_cast<uint32_t>(ids_.size()) + 1;
  }
  (*words)[0] = kMagic;
  (*words)[1] = options_.version;
  (*words)[2] = kGeneratorWord;
  (*words)[3] = bound;
  (*words)[4] = 0;
  return true;
}

bool Assembler::EncodeInstructionStartingWithImmediate() {
  Position next;
  const std::string_view first = lexer_.GetWord(&next);
  inst_start_ = out_->size();
  opcode_ = 0;
  inst_ = nullptr;
  std::fill(std::begin(key_at_), std::end(key_at_), kNoKey);
  if (EncodeImmediate(first) != OperandResult::kOk) return false;
  while (lexer_.Advance()) {
    if (lexer_.IsStartOfNewInst()) return true;
    const std::string_view word = lexer_.GetWord(&next);
    if (word == "=") return Fail(std::string(first) + " not allowed before =.");
    expected_.clear();
    if (EncodeOperand({Expect::kCiv}, word) != OperandResult::kOk) return false;
    lexer_.set_position(next);
  }
  return true;
}

bool Assembler::EncodeInstruction() {
  if (lexer_.Peek() == '!') return EncodeInstructionStartingWithImmediate();

  Position next;
  const std::string_view first = lexer_.GetWord(&next);
  std::string_view result_id;
  if (lexer_.StartsWithOp()) {
    opcode_name_ = first;
  } else {
    result_id = first;
    if (result_id.empty() || result_id.front() != '%') {
      return Fail("Expected <opcode> or <result-id> at the beginning of an instruction, found '" +
                  std::string(first) + "'.");
    }
    lexer_.set_position(next);
    if (!lexer_.Advance()) return Fail("Expected '=', found end of stream.");
    const std::string_view equal_sign = lexer_.GetWord(&next);
    if (equal_sign != "=") return Fail("'=' expected after result id.");
    lexer_.set_position(next);
    if (!lexer_.Advance()) return Fail("Expected opcode, found end of stream.");
    opcode_name_ = lexer_.GetWord(&next);
    if (!lexer_.StartsWithOp()) {
      return Fail("Invalid Opcode prefix '" + std::string(opcode_name_) + "'.");
    }
  }

  inst_ = grammar::FindInstruction(opcode_name_);
  if (inst_ && !Available(*inst_)) inst_ = nullptr;
  if (!inst_) return Fail("Invalid Opcode name '" + std::string(opcode_name_) + "'");
  if (inst_->has_result && result_id.empty()) {
    return Fail("Expected <result-id> at the beginning of an instruction, found '" +
                std::string(first) + "'.");
  }
  if (!inst_->has_result && !result_id.empty()) {
    return Fail("Cannot set ID " + std::string(result_id) + " because " +
                std::string(opcode_name_) + " does not produce a result ID.");
  }
  opcode_ = inst_->opcode;
  lexer_.set_position(next);
  inst_start_ = out_->size();
  out_->push_back(0);  // the word count and opcode, filled in at the end
  std::fill(std::begin(key_at_), std::end(key_at_), kNoKey);
  result_type_key_ = kNoKey;
  ext_set_ = nullptr;
  ext_kind_ = grammar::ExtInstSetKind::kNone;
  expected_.clear();
  PushOperands(inst_->operands);

  while (!expected_.empty()) {
    const Expected e = expected_.back();
    expected_.pop_back();
    // Variadic operands expand lazily into an optional first element and the rest.
    switch (e.what) {
      case Expect::kVariableId:
        expected_.push_back(e);
        expected_.push_back({Expect::kOptionalId});
        continue;
      case Expect::kVariableLiteralInteger:
        expected_.push_back(e);
        expected_.push_back({Expect::kOptionalLiteralInteger});
        continue;
      case Expect::kVariableLiteralString:
        expected_.push_back(e);
        expected_.push_back({Expect::kOptionalLiteralString});
        continue;
      case Expect::kVariableEnum:
        expected_.push_back(e);
        expected_.push_back({Expect::kOptionalEnum, e.kind});
        continue;
      case Expect::kVariableLiteralIntegerId:
        expected_.push_back(e);
        expected_.push_back({Expect::kId});
        expected_.push_back({Expect::kOptionalTypedLiteralInteger});
        continue;
      case Expect::kVariableIdLiteralInteger:
        expected_.push_back(e);
        expected_.push_back({Expect::kLiteralInteger});
        expected_.push_back({Expect::kOptionalId});
        continue;
      default:
        break;
    }
    const bool optional = e.what == Expect::kOptionalId ||
                          e.what == Expect::kOptionalLiteralInteger ||
                          e.what == Expect::kOptionalLiteralString ||
                          e.what == Expect::kOptionalTypedLiteralInteger ||
                          e.what == Expect::kOptionalLiteralNumber ||
                          e.what == Expect::kOptionalEnum || e.what == Expect::kCiv;
    if (e.what == Expect::kResultId && !result_id.empty()) {
      // The result id was read before the opcode; it is encoded in its grammar position.
      if (EncodeOperand(e, result_id) != OperandResult::kOk) return false;
      continue;
    }
    // When an optional operand the installed spirv-as does not know is absent, diagnostics
    // about the instruction point where spirv-as points: after its last operand.
    const Position before_optional = lexer_.position();
    const auto absent = [&] {
      if (e.appended) lexer_.set_position(before_optional);
    };
    if (!lexer_.Advance()) {
      absent();
      if (optional) break;
      return Fail("Expected operand for " + std::string(opcode_name_) +
                  " instruction, but found the end of the stream.");
    }
    if (lexer_.IsStartOfNewInst()) {
      absent();
      if (optional) break;
      return Fail("Expected operand for " + std::string(opcode_name_) +
                  " instruction, but found the next instruction instead.");
    }
    const std::string_view word = lexer_.GetWord(&next);
    const OperandResult r = EncodeOperand(e, word);
    // An optional literal that does not parse ends the instruction without a diagnostic; the
    // word is then read as the start of the next instruction (which always fails).
    if (r == OperandResult::kFailedMatch && optional) return true;
    if (r != OperandResult::kOk) return false;
    lexer_.set_position(next);
  }

  uint32_t* words = out_->data() + inst_start_;
  const size_t size = InstSize();
  if (GeneratesType(opcode_) && key_at_[1] != kNoKey) {
    IdEntry& id = ids_[key_at_[1]];
    if (id.type.type_class != TypeClass::kUnknown) {
      return Fail("Value " + std::to_string(IdValue(key_at_[1])) +
                  " has already been used to generate a type");
    }
    if (opcode_ == static_cast<uint32_t>(spv::Op::OpTypeInt)) {
      if (size != 4) return Fail("Invalid OpTypeInt instruction");
      id.type = {TypeClass::kInt, words[3] != 0, words[2], false};
    } else if (opcode_ == static_cast<uint32_t>(spv::Op::OpTypeFloat)) {
      // Width, and the optional FPEncoding operand of SPV_KHR_bfloat16.
      if (size != 3 && size != 4) return Fail("Invalid OpTypeFloat instruction");
      const bool bfloat16 = size == 4 && words[2] == 16 &&
                            words[3] == static_cast<uint32_t>(spv::FPEncoding::BFloat16KHR);
      id.type = {TypeClass::kFloat, false, words[2], bfloat16};
    } else {
      id.type = {TypeClass::kOther, false, 0, false};
    }
  } else if (inst_->has_result_type && key_at_[2] != kNoKey) {
    ids_[key_at_[2]].value_type_key = key_at_[1];
  }
  if (size > kMaxInstructionWords) {
    return Fail(std::string(opcode_name_) + " Instruction too long: " + std::to_string(size) +
                " words, but the limit is " + std::to_string(kMaxInstructionWords));
  }
  words[0] = static_cast<uint32_t>(size << 16) | (opcode_ & 0xFFFFu);
  return true;
}

}  // namespace detail
}  // namespace xmx::text
