// Internal state of one run of text::Assemble, shared by the instruction-level parser
// (assembler.cpp) and the operand encoder (assembler_operands.cpp). The behaviour mirrors
// spirv-as 2023.1 step by step (spvTextEncodeOpcode / spvTextEncodeOperand), because ids are
// numbered in the order they are first encoded and diagnostics carry the position the reader is
// at when a check fails.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "grammar/grammar.hpp"
#include "text/assembler.hpp"
#include "text/lexer.hpp"
#include "xmx/diagnostic.hpp"

namespace xmx::text::detail {

// What the next operand is expected to be: SPIRV-Tools' operand types, which refine the grammar's
// kinds (result/type ids, typed literals, lazily expanded variadic pairs, raw-word values).
enum class Expect : uint8_t {
  kId,
  kTypeId,
  kResultId,
  kOptionalId,
  kVariableId,
  kLiteralInteger,
  kOptionalLiteralInteger,
  kVariableLiteralInteger,
  kLiteralString,
  kOptionalLiteralString,
  kVariableLiteralString,
  kTypedLiteralNumber,           // OpConstant / OpSpecConstant value
  kOptionalTypedLiteralInteger,  // OpSwitch case literal
  kVariableLiteralIntegerId,     // (literal, id) pairs of OpSwitch
  kVariableIdLiteralInteger,     // (id, literal) pairs
  kExtInstNumber,
  kSpecConstantOpNumber,
  kOptionalLiteralNumber,  // a 32-bit number of inferred type (after a '!' word)
  kCiv,                    // any value after a '!' word: number, string or id
  kEnum,
  kOptionalEnum,
  kVariableEnum,
};

struct Expected {
  Expect what;
  grammar::OperandKindId kind = grammar::OperandKindId::kIdRef;  // enums only
  // An operand our grammar appends to a core instruction (e.g. OpTypeFloat's FPEncoding).
  bool appended = false;
};

enum class TypeClass : uint8_t { kUnknown, kInt, kFloat, kOther };

struct NumericType {
  TypeClass type_class = TypeClass::kUnknown;
  bool is_signed = false;
  uint32_t bit_width = 0;
  bool bfloat16 = false;  // kFloat with the BFloat16KHR encoding (SPV_KHR_bfloat16)
};

inline constexpr uint32_t kNoKey = 0xFFFFFFFFu;

// One distinct id spelling (or, with --preserve-numeric-ids, one numeric id value).
struct IdEntry {
  uint32_t fixed_id = 0;  // the id itself for a preserved numeric id
  bool numeric = false;
  NumericType type;                              // when this id is a type
  uint32_t value_type_key = kNoKey;              // when this id is a value: its type's key
  const grammar::ExtInstSet* ext_set = nullptr;  // when this id is an OpExtInstImport
  grammar::ExtInstSetKind ext_kind = grammar::ExtInstSetKind::kNone;
};

enum class OperandResult : uint8_t { kOk, kFailedMatch, kError };

class Assembler {
 public:
  Assembler(std::string_view text, const AssembleOptions& options)
      : lexer_(text), text_(text), options_(options) {}

  // The module's words, or the first error (with its line and column).
  Result<std::vector<uint32_t>> Run();

 private:
  // --- assembler.cpp: instructions and ids ---
  bool EncodeInstruction();
  bool EncodeInstructionStartingWithImmediate();
  // Records the error that ends assembly; returns false for `return Fail(...)` in the encoding
  // steps, which stop at their first false.
  bool Fail(std::string_view message);
  bool Encode(std::vector<uint32_t>* words);
  uint32_t Intern(std::string_view name);
  uint32_t IdValue(uint32_t key) const;
  void PushId(uint32_t key);
  void PushWord(uint32_t word);
  size_t InstSize() const { return out_->size() - inst_start_; }
  bool Available(const grammar::Instruction& inst) const;
  bool Available(grammar::OperandKindId kind, const grammar::Enumerant& e) const;
  void PushOperands(std::span<const grammar::Operand> operands);

  // --- assembler_operands.cpp: one operand ---
  OperandResult EncodeOperand(Expected expected, std::string_view word);
  OperandResult EncodeId(Expected expected, std::string_view word);
  OperandResult EncodeNumber(std::string_view word, NumericType type, bool optional);
  OperandResult EncodeString(std::string_view word, bool optional);
  OperandResult EncodeEnum(Expected expected, std::string_view word);
  OperandResult EncodeExtInstNumber(std::string_view word);
  OperandResult EncodeSpecConstantOp(std::string_view word);
  OperandResult EncodeTypedLiteral(std::string_view word, bool optional);
  OperandResult EncodeCiv(std::string_view word);
  OperandResult EncodeImmediate(std::string_view word);
  OperandResult Error(std::string_view message) {
    Fail(message);
    return OperandResult::kError;
  }

  Lexer lexer_;
  std::string_view text_;
  AssembleOptions options_;
  Diagnostic failure_;
  std::vector<uint32_t>* out_ = nullptr;

  // Ids: spellings in order of first encoding; numbering happens at the end.
  std::vector<IdEntry> ids_;
  std::unordered_map<std::string_view, uint32_t> keys_by_name_;
  std::unordered_map<uint32_t, uint32_t> keys_by_number_;  // --preserve-numeric-ids only
  std::vector<size_t> id_slots_;                           // --preserve-numeric-ids only

  // The instruction being encoded.
  size_t inst_start_ = 0;
  uint32_t opcode_ = 0;
  std::string_view opcode_name_;
  const grammar::Instruction* inst_ = nullptr;
  uint32_t result_type_key_ = kNoKey;
  uint32_t key_at_[4] = {kNoKey, kNoKey, kNoKey, kNoKey};  // ids among the first words
  const grammar::ExtInstSet* ext_set_ = nullptr;
  grammar::ExtInstSetKind ext_kind_ = grammar::ExtInstSetKind::kNone;
  std::vector<Expected> expected_;  // a stack: back() is the next operand
  std::string scratch_;             // unescaped string literals
};

}  // namespace xmx::text::detail
