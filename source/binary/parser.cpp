#include "binary/parser.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

#include "binary/id_table.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::binary {
namespace {

using grammar::OperandCategory;
using grammar::OperandKindId;
using grammar::Quantifier;

// What a type id tells about the literal numbers typed by it (OpConstant, OpSwitch).
struct NumberType {
  NumberKind kind = NumberKind::kNone;
  uint32_t bit_width = 0;
};

// `text` with control and non-ASCII bytes as \xNN, so that a message stays on one line.
std::string Printable(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7F) {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

// An operand still expected by the instruction being decoded.
struct Expected {
  OperandKindId kind;
  Quantifier quantifier;
};

class Parser {
 public:
  Parser(std::span<const uint32_t> words, InstructionHandler& handler, const ParseOptions& options)
      : words_(words), handler_(handler), options_(options) {}

  // The module read to its end (or until the handler stopped it), or the first structural error.
  Status Run();

 private:
  bool ParseInstruction();
  bool ParseOperand(const Expected& expected);
  inline bool CheckId(uint32_t id, const char* what);
  [[gnu::noinline, gnu::cold]] bool FailId(uint32_t id, const char* what);
  void PushOperands(std::span<const grammar::Operand> operands, bool skip_result);
  void PushEnumParameters(OperandKindId kind, uint32_t value);
  NumberType NumberTypeOf(uint32_t type_id) const;

  // Formats "Op<name> starting at word <n>" for messages about the current instruction.
  std::string InstName() const;
  // Records the structural error that ends the walk; returns false for `return Fail(...)` in the
  // decoding steps, which stop at their first false.
  bool Fail(size_t word_offset, std::string message);
  bool Walk();

  std::span<const uint32_t> words_;
  InstructionHandler& handler_;
  ParseOptions options_;
  Diagnostic failure_;
  Header header_;

  // State of the instruction being decoded.
  size_t inst_offset_ = 0;
  size_t inst_index_ = 0;
  uint16_t word_count_ = 0;
  uint16_t pos_ = 0;  // next word within the instruction
  ParsedInstruction inst_{};
  std::vector<ParsedOperand> operands_;
  std::vector<Expected> expected_;  // a stack: back() is the next operand
  uint32_t switch_selector_type_ = 0;

  // Module-wide facts the grammar alone cannot give.
  IdTable<uint8_t> defined_;                      // result ids seen so far
  IdTable<NumberType> number_types_;              // int and float type ids
  IdTable<uint32_t> type_of_;                     // result id -> result type id
  IdTable<const grammar::ExtInstSet*> ext_sets_;  // OpExtInstImport results (known sets)
  IdTable<uint8_t> non_semantic_unknown_sets_;    // OpExtInstImport of unknown NonSemantic.*
};

bool Parser::Fail(size_t word_offset, std::string message) {
  failure_ = Diagnostic{};
  failure_.message = std::move(message);
  failure_.word_offset = word_offset;
  failure_.instruction_index = inst_index_;
  return false;
}

Status Parser::Run() {
  if (!Walk()) return Status::Failure(std::move(failure_));
  return Done{};
}

std::string Parser::InstName() const {
  std::string name = inst_.desc ? inst_.desc->name : "instruction";
  return name + " starting at word " + std::to_string(inst_offset_);
}

bool Parser::Walk() {
  if (words_.size() < kHeaderWords) {
    return Fail(0, "Module has " + std::to_string(words_.size()) +
                       " words; the header alone needs 5 (magic, version, generator, bound, "
                       "schema)");
  }
  if (words_[0] != kMagic) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", words_[0]);
    return Fail(0, std::string("Invalid SPIR-V magic number ") + buf);
  }
  header_ = {words_[0], words_[1], words_[2], words_[3], words_[4]};
  const size_t max_dense = std::max<size_t>(words_.size() * 2, 1u << 16);
  defined_.Reserve(header_.bound, max_dense);
  number_types_.Reserve(header_.bound, max_dense);
  type_of_.Reserve(header_.bound, max_dense);
  // Nearly every instruction defines an id, most with a type: their tables are made once. (A
  // module has fewer ids than words unless its bound is inflated, which must not size them.)
  defined_.Presize(words_.size());
  type_of_.Presize(words_.size());
  if (!handler_.OnHeader(header_)) return true;
  operands_.reserve(16);
  expected_.reserve(16);

  inst_offset_ = kHeaderWords;
  while (inst_offset_ < words_.size()) {
    if (!ParseInstruction()) return false;
    if (!handler_.OnInstruction(inst_)) return true;
    inst_offset_ += word_count_;
    ++inst_index_;
  }
  return true;
}

bool Parser::ParseInstruction() {
  const uint32_t first = words_[inst_offset_];
  word_count_ = static_cast<uint16_t>(first >> 16);
  const uint32_t opcode = first & 0xFFFFu;
  inst_ = ParsedInstruction{};
  inst_.opcode = opcode;
  inst_.word_offset = inst_offset_;
  inst_.index = inst_index_;
  inst_.desc = grammar::FindInstruction(opcode);
  if (word_count_ == 0) {
    return Fail(inst_offset_, "Invalid instruction word count 0 at word " +
                                  std::to_string(inst_offset_) + " (opcode " +
                                  std::to_string(opcode) + ")");
  }
  if (!inst_.desc) {
    return Fail(inst_offset_, "Invalid opcode " + std::to_string(opcode) + " at word " +
                                  std::to_string(inst_offset_));
  }
  if (inst_offset_ + word_count_ > words_.size()) {
    return Fail(inst_offset_, "End of input reached while decoding " + InstName() +
                                  ": its word count is " + std::to_string(word_count_) +
                                  " but only " + std::to_string(words_.size() - inst_offset_) +
                                  " words remain");
  }
  inst_.words = words_.subspan(inst_offset_, word_count_);

  operands_.clear();
  expected_.clear();
  switch_selector_type_ = 0;
  PushOperands(inst_.desc->operands, false);
  pos_ = 1;
  while (pos_ < word_count_) {
    if (expected_.empty()) {
      return Fail(inst_offset_ + pos_, "Invalid instruction " + InstName() +
                                           ": expected no more operands after " +
                                           std::to_string(pos_) + " words, but its word count is " +
                                           std::to_string(word_count_));
    }
    const Expected next = expected_.back();
    expected_.pop_back();
    // A variadic operand stays expected until the words run out.
    if (next.quantifier == Quantifier::kVariadic) expected_.push_back(next);
    if (!ParseOperand(next)) return false;
  }
  // The words are used up: whatever is still expected must be optional.
  for (auto it = expected_.rbegin(); it != expected_.rend(); ++it) {
    if (it->quantifier == Quantifier::kOne) {
      return Fail(inst_offset_ + pos_, "End of input reached while decoding " + InstName() +
                                           ": missing " + grammar::GetOperandKind(it->kind).name +
                                           " operand at word offset " + std::to_string(pos_));
    }
  }
  inst_.operands = operands_;

  if (inst_.result_id && inst_.result_type_id) type_of_.Set(inst_.result_id, inst_.result_type_id);
  switch (static_cast<spv::Op>(opcode)) {
    case spv::Op::OpTypeInt:
      // Any width is accepted here, as SPIRV-Tools does; a literal of an unsupported width is
      // reported where it is read.
      if (word_count_ >= 4) {
        number_types_.Set(
            inst_.result_id,
            {inst_.words[3] ? NumberKind::kSignedInt : NumberKind::kUnsignedInt, inst_.words[2]});
      }
      break;
    case spv::Op::OpTypeFloat:
      if (word_count_ >= 3) {
        // The optional FPEncoding operand (word 3) changes how literals of the type read.
        const bool bfloat16 = word_count_ >= 4 && inst_.words[2] == 16 &&
                              inst_.words[3] == static_cast<uint32_t>(spv::FPEncoding::BFloat16KHR);
        number_types_.Set(inst_.result_id,
                          {bfloat16 ? NumberKind::kBFloat16 : NumberKind::kFloat, inst_.words[2]});
      }
      break;
    case spv::Op::OpExtInstImport: {
      const std::string name = DecodeString(inst_.words.subspan(2));
      const grammar::ExtInstSet* set = nullptr;
      switch (grammar::ClassifyExtInstSet(name, &set)) {
        case grammar::ExtInstSetKind::kKnown:
          ext_sets_.Set(inst_.result_id, set);
          break;
        case grammar::ExtInstSetKind::kNonSemanticUnknown:
          non_semantic_unknown_sets_.Set(inst_.result_id, 1);
          break;
        case grammar::ExtInstSetKind::kNone:
          return Fail(inst_offset_, "Invalid extended instruction import '" + Printable(name) +
                                        "' in " + InstName());
      }
      break;
    }
    default:
      break;
  }
  return true;
}

void Parser::PushOperands(std::span<const grammar::Operand> operands, bool skip_result) {
  for (auto it = operands.rbegin(); it != operands.rend(); ++it) {
    if (skip_result &&
        (it->kind == OperandKindId::kIdResultType || it->kind == OperandKindId::kIdResult)) {
      continue;
    }
    expected_.push_back({it->kind, it->quantifier});
  }
}

// Whether some enumerant of `kind` takes parameters: most kinds (storage classes, scopes, most
// masks) have none, and their operands need no lookup of the enumerant.
bool HasParameterizedEnumerants(OperandKindId kind) {
  static const std::array<bool, grammar::kNumOperandKinds> table = [] {
    std::array<bool, grammar::kNumOperandKinds> any{};
    for (uint16_t id = 0; id < grammar::kNumOperandKinds; ++id) {
      for (const grammar::Enumerant& e :
           grammar::GetOperandKind(static_cast<OperandKindId>(id)).enumerants) {
        any[id] = any[id] || !e.parameters.empty();
      }
    }
    return any;
  }();
  const auto id = static_cast<uint16_t>(kind);
  return id >= table.size() || table[id];
}

void Parser::PushEnumParameters(OperandKindId kind, uint32_t value) {
  if (!HasParameterizedEnumerants(kind)) return;
  const grammar::OperandKind& desc = grammar::GetOperandKind(kind);
  if (desc.category == OperandCategory::kValueEnum) {
    if (const grammar::Enumerant* e = grammar::FindEnumerant(kind, value)) {
      PushOperands(e->parameters, false);
    }
    return;
  }
  // Bit enums: the parameters of each set bit follow in increasing bit order, so push the
  // highest bit's parameters first.
  for (int bit = 31; bit >= 0; --bit) {
    const uint32_t mask = 1u << bit;
    if (!(value & mask)) continue;
    if (const grammar::Enumerant* e = grammar::FindEnumerant(kind, mask)) {
      PushOperands(e->parameters, false);
    }
  }
}

NumberType Parser::NumberTypeOf(uint32_t type_id) const {
  const NumberType* t = number_types_.Get(type_id);
  return t ? *t : NumberType{};
}

bool Parser::CheckId(uint32_t id, const char* what) {
  // Inlined for the ids every instruction has; the messages are built out of line.
  if (id != 0 && (id < header_.bound || !options_.check_id_bound)) [[likely]] {
    return true;
  }
  return FailId(id, what);
}

bool Parser::FailId(uint32_t id, const char* what) {
  if (id == 0) {
    return Fail(inst_offset_ + pos_, std::string(what) + " is 0 in " + InstName() +
                                         " at word offset " + std::to_string(pos_));
  }
  if (options_.check_id_bound && id >= header_.bound) {
    return Fail(inst_offset_ + pos_, std::string(what) + " %" + std::to_string(id) + " in " +
                                         InstName() + " is not below the module's id bound " +
                                         std::to_string(header_.bound));
  }
  return true;
}

bool Parser::ParseOperand(const Expected& expected) {
  const uint32_t word = inst_.words[pos_];
  const grammar::OperandKind& kind = grammar::GetOperandKind(expected.kind);
  ParsedOperand op{pos_, 1, expected.kind, NumberKind::kNone, 0};

  switch (kind.category) {
    case OperandCategory::kComposite:
      // A pair is its bases in order; OpSwitch's literal takes its width from the selector.
      for (auto it = kind.bases.rbegin(); it != kind.bases.rend(); ++it) {
        const bool switch_literal = *it == OperandKindId::kLiteralInteger &&
                                    inst_.opcode == static_cast<uint32_t>(spv::Op::OpSwitch);
        expected_.push_back({switch_literal ? OperandKindId::kLiteralContextDependentNumber : *it,
                             Quantifier::kOne});
      }
      return true;
    case OperandCategory::kId:
      if (expected.kind == OperandKindId::kIdResultType) {
        if (!CheckId(word, "Result type id")) return false;
        inst_.result_type_id = word;
      } else if (expected.kind == OperandKindId::kIdResult) {
        if (!CheckId(word, "Result id")) return false;
        if (defined_.Get(word)) {
          return Fail(inst_offset_ + pos_, "Id " + std::to_string(word) +
                                               " is defined more than once (again by " +
                                               InstName() + ")");
        }
        defined_.Set(word, 1);
        inst_.result_id = word;
      } else {
        if (!CheckId(word, "Id")) return false;
        if (inst_.opcode == static_cast<uint32_t>(spv::Op::OpSwitch) && pos_ == 1) {
          const uint32_t* type = type_of_.Get(word);
          const NumberType nt = type ? NumberTypeOf(*type) : NumberType{};
          if (nt.kind != NumberKind::kUnsignedInt && nt.kind != NumberKind::kSignedInt) {
            return Fail(inst_offset_ + pos_, "Invalid OpSwitch starting at word " +
                                                 std::to_string(inst_offset_) + ": selector %" +
                                                 std::to_string(word) +
                                                 " is not of a scalar integer type");
          }
          switch_selector_type_ = *type;
        }
        if (inst_.opcode == static_cast<uint32_t>(spv::Op::OpExtInst) && pos_ == 3) {
          const grammar::ExtInstSet* const* set = ext_sets_.Get(word);
          if (set) {
            inst_.ext_inst_set = *set;
          } else if (!non_semantic_unknown_sets_.Get(word)) {
            return Fail(inst_offset_ + pos_,
                        "OpExtInst starting at word " + std::to_string(inst_offset_) + ": set %" +
                            std::to_string(word) + " is not the result of an OpExtInstImport");
          }
        }
      }
      ++pos_;
      break;
    case OperandCategory::kLiteral:
      switch (expected.kind) {
        case OperandKindId::kLiteralString: {
          // The string ends with the word holding its first nul byte.
          auto has_nul = [](uint32_t w) {
            return (w & 0xFFu) == 0 || (w & 0xFF00u) == 0 || (w & 0xFF0000u) == 0 ||
                   (w & 0xFF000000u) == 0;
          };
          uint16_t end = pos_;
          while (end < word_count_ && !has_nul(inst_.words[end])) ++end;
          if (end == word_count_) {
            return Fail(inst_offset_ + pos_, "End of input reached while decoding " + InstName() +
                                                 ": literal string at word offset " +
                                                 std::to_string(pos_) + " has no terminating nul");
          }
          op.num_words = static_cast<uint16_t>(end - pos_ + 1);
          pos_ = end + 1;
          break;
        }
        case OperandKindId::kLiteralContextDependentNumber: {
          const uint32_t type_id = inst_.opcode == static_cast<uint32_t>(spv::Op::OpSwitch)
                                       ? switch_selector_type_
                                       : inst_.result_type_id;
          const NumberType nt = NumberTypeOf(type_id);
          if (nt.kind == NumberKind::kNone) {
            return Fail(inst_offset_ + pos_, InstName() + ": type %" + std::to_string(type_id) +
                                                 " of its literal value is not a scalar integer "
                                                 "or float type");
          }
          if (nt.bit_width == 0 || nt.bit_width > 64) {
            return Fail(inst_offset_ + pos_, InstName() + ": literals of the " +
                                                 std::to_string(nt.bit_width) + "-bit type %" +
                                                 std::to_string(type_id) +
                                                 " are not supported (widths 1 to 64 are)");
          }
          const uint16_t needed = nt.bit_width > 32 ? 2 : 1;
          if (pos_ + needed > word_count_) {
            return Fail(inst_offset_ + pos_, "End of input reached while decoding " + InstName() +
                                                 ": a " + std::to_string(nt.bit_width) +
                                                 "-bit literal needs " + std::to_string(needed) +
                                                 " words at word offset " + std::to_string(pos_));
          }
          op.num_words = needed;
          op.number_kind = nt.kind;
          op.number_bit_width = static_cast<uint8_t>(nt.bit_width);
          pos_ += needed;
          break;
        }
        case OperandKindId::kLiteralExtInstInteger: {
          op.number_kind = NumberKind::kUnsignedInt;
          op.number_bit_width = 32;
          if (inst_.ext_inst_set) {
            inst_.ext_inst = grammar::FindExtInstruction(*inst_.ext_inst_set, word);
            if (inst_.ext_inst) {
              PushOperands(inst_.ext_inst->operands, false);
            } else if (inst_.ext_inst_set->non_semantic) {
              expected_.push_back({OperandKindId::kIdRef, Quantifier::kVariadic});
            } else {
              return Fail(inst_offset_ + pos_,
                          "Invalid extended instruction number " + std::to_string(word) +
                              " for set " + inst_.ext_inst_set->import_name + " in " + InstName());
            }
          } else {
            expected_.push_back({OperandKindId::kIdRef, Quantifier::kVariadic});
          }
          ++pos_;
          break;
        }
        case OperandKindId::kLiteralSpecConstantOpInteger: {
          const grammar::Instruction* target = grammar::FindInstruction(word);
          if (!target) {
            return Fail(inst_offset_ + pos_, "Invalid opcode " + std::to_string(word) +
                                                 " as the operation of " + InstName());
          }
          op.number_kind = NumberKind::kUnsignedInt;
          op.number_bit_width = 32;
          PushOperands(target->operands, true);
          ++pos_;
          break;
        }
        default:  // LiteralInteger and any other one-word literal
          op.number_kind = NumberKind::kUnsignedInt;
          op.number_bit_width = 32;
          ++pos_;
          break;
      }
      break;
    case OperandCategory::kValueEnum:
      if (!grammar::FindEnumerant(expected.kind, word)) {
        return Fail(inst_offset_ + pos_, "Invalid " + std::string(kind.name) + " operand " +
                                             std::to_string(word) + " in " + InstName() +
                                             " at word offset " + std::to_string(pos_));
      }
      ++pos_;
      PushEnumParameters(expected.kind, word);
      break;
    case OperandCategory::kBitEnum:
      for (uint32_t rest = word; rest; rest &= rest - 1) {
        const uint32_t bit = rest & (~rest + 1);
        if (!grammar::FindEnumerant(expected.kind, bit)) {
          char buf[16];
          std::snprintf(buf, sizeof buf, "0x%x", bit);
          return Fail(inst_offset_ + pos_, "Invalid " + std::string(kind.name) + " operand " +
                                               std::to_string(word) + " in " + InstName() +
                                               ": unknown bit " + buf);
        }
      }
      ++pos_;
      PushEnumParameters(expected.kind, word);
      break;
  }
  operands_.push_back(op);
  return true;
}

}  // namespace

Status Parse(std::span<const uint32_t> words, InstructionHandler& handler,
             const ParseOptions& options) {
  return Parser(words, handler, options).Run();
}

bool Parse(std::span<const uint32_t> words, InstructionHandler& handler, Diagnostic* error,
           const ParseOptions& options) {
  Status status = Parse(words, handler, options);
  if (!status && error) *error = std::move(status.diagnostics().front());
  return status.ok();
}

Result<std::vector<uint32_t>> BytesToWords(std::span<const uint8_t> bytes) {
  auto fail = [](std::string message) {
    Diagnostic error;
    error.message = std::move(message);
    error.word_offset = 0;
    return Result<std::vector<uint32_t>>::Failure(std::move(error));
  };
  if (bytes.size() % 4 != 0) {
    return fail("Module size " + std::to_string(bytes.size()) +
                " bytes is not a multiple of 4 (a truncated or corrupt file)");
  }
  if (bytes.size() < 4) return fail("Module is empty: no SPIR-V magic number");
  const size_t n = bytes.size() / 4;
  std::vector<uint32_t> words(n);
  auto le = [&](size_t i) {
    return uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 |
           uint32_t(bytes[4 * i + 2]) << 16 | uint32_t(bytes[4 * i + 3]) << 24;
  };
  auto be = [&](size_t i) {
    return uint32_t(bytes[4 * i + 3]) | uint32_t(bytes[4 * i + 2]) << 8 |
           uint32_t(bytes[4 * i + 1]) << 16 | uint32_t(bytes[4 * i]) << 24;
  };
  if (le(0) == kMagic) {
    for (size_t i = 0; i < n; ++i) words[i] = le(i);
  } else if (be(0) == kMagic) {
    for (size_t i = 0; i < n; ++i) words[i] = be(i);
  } else {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", le(0));
    return fail(std::string("Invalid SPIR-V magic number ") + buf);
  }
  return words;
}

bool BytesToWords(std::span<const uint8_t> bytes, std::vector<uint32_t>* words, Diagnostic* error) {
  Result<std::vector<uint32_t>> result = BytesToWords(bytes);
  if (!result) {
    if (error) *error = std::move(result.diagnostics().front());
    return false;
  }
  *words = std::move(result).value();
  return true;
}

std::vector<uint8_t> WordsToBytes(std::span<const uint32_t> words) {
  std::vector<uint8_t> bytes(words.size() * 4);
  for (size_t i = 0; i < words.size(); ++i) {
    bytes[4 * i] = static_cast<uint8_t>(words[i]);
    bytes[4 * i + 1] = static_cast<uint8_t>(words[i] >> 8);
    bytes[4 * i + 2] = static_cast<uint8_t>(words[i] >> 16);
    bytes[4 * i + 3] = static_cast<uint8_t>(words[i] >> 24);
  }
  return bytes;
}

std::string DecodeString(std::span<const uint32_t> words) {
  std::string s;
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((w >> (8 * b)) & 0xFF);
      if (c == 0) return s;
      s.push_back(c);
    }
  }
  return s;
}

void EncodeString(std::string_view text, std::vector<uint32_t>* out) {
  const size_t nwords = text.size() / 4 + 1;  // room for the terminating nul
  const size_t base = out->size();
  out->resize(base + nwords, 0);
  for (size_t i = 0; i < text.size(); ++i) {
    (*out)[base + i / 4] |= uint32_t(static_cast<uint8_t>(text[i])) << (8 * (i % 4));
  }
}

}  // namespace xmx::binary
