// Encoding of one operand word (spvTextEncodeOperand of SPIRV-Tools 2023.1).
#include <algorithm>
#include <string>

#include "binary/parser.hpp"
#include "text/assembler_context.hpp"
#include "text/literal_parse.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::text::detail {
namespace {

using grammar::OperandKindId;

// spvOperandTypeStr: how diagnostics name each kind of operand.
const char* KindDescription(OperandKindId kind) {
  switch (kind) {
    case OperandKindId::kImageOperands:
      return "image";
    case OperandKindId::kFPFastMathMode:
      return "floating-point fast math mode";
    case OperandKindId::kSelectionControl:
      return "selection control";
    case OperandKindId::kLoopControl:
      return "loop control";
    case OperandKindId::kFunctionControl:
      return "function control";
    case OperandKindId::kMemorySemantics:
      return "memory semantics ID";
    case OperandKindId::kMemoryAccess:
      return "memory access";
    case OperandKindId::kKernelProfilingInfo:
      return "kernel profiling info";
    case OperandKindId::kRayFlags:
      return "ray flags";
    case OperandKindId::kFragmentShadingRate:
      return "shading rate";
    case OperandKindId::kSourceLanguage:
      return "source language";
    case OperandKindId::kExecutionModel:
      return "execution model";
    case OperandKindId::kAddressingModel:
      return "addressing model";
    case OperandKindId::kMemoryModel:
      return "memory model";
    case OperandKindId::kExecutionMode:
      return "execution mode";
    case OperandKindId::kStorageClass:
      return "storage class";
    case OperandKindId::kDim:
      return "dimensionality";
    case OperandKindId::kSamplerAddressingMode:
      return "sampler addressing mode";
    case OperandKindId::kSamplerFilterMode:
      return "sampler filter mode";
    case OperandKindId::kImageFormat:
      return "image format";
    case OperandKindId::kImageChannelOrder:
      return "image channel order";
    case OperandKindId::kImageChannelDataType:
      return "image channel data type";
    case OperandKindId::kFPRoundingMode:
      return "floating-point rounding mode";
    case OperandKindId::kFPDenormMode:
      return "FP denorm mode";
    case OperandKindId::kQuantizationModes:
      return "quantization mode";
    case OperandKindId::kFPOperationMode:
      return "FP operation mode";
    case OperandKindId::kOverflowModes:
      return "overflow mode";
    case OperandKindId::kLinkageType:
      return "linkage type";
    case OperandKindId::kAccessQualifier:
      return "access qualifier";
    case OperandKindId::kFunctionParameterAttribute:
      return "function parameter attribute";
    case OperandKindId::kDecoration:
      return "decoration";
    case OperandKindId::kBuiltIn:
      return "built-in";
    case OperandKindId::kScope:
      return "scope ID";
    case OperandKindId::kGroupOperation:
      return "group operation";
    case OperandKindId::kKernelEnqueueFlags:
      return "kernel enqeue flags";
    case OperandKindId::kCapability:
      return "capability";
    case OperandKindId::kRayQueryIntersection:
      return "ray query intersection";
    case OperandKindId::kRayQueryCommittedIntersectionType:
      return "ray query committed intersection type";
    case OperandKindId::kRayQueryCandidateIntersectionType:
      return "ray query candidate intersection type";
    case OperandKindId::kPackedVectorFormat:
      return "packed vector format";
    case OperandKindId::kMatrixMultiplyAccumulateOperands:
      return "matrix multiply accumulate operands";
    case OperandKindId::kCooperativeMatrixOperands:
      return "cooperative matrix operands";
    case OperandKindId::kCooperativeMatrixLayout:
      return "cooperative matrix layout";
    case OperandKindId::kCooperativeMatrixUse:
      return "cooperative matrix use";
    case OperandKindId::kDebugInfo_DebugInfoFlags:
    case OperandKindId::kCLDebug100_DebugInfoFlags:
    case OperandKindId::kShaderDebug100_DebugInfoFlags:
      return "debug info flags";
    case OperandKindId::kDebugInfo_DebugBaseTypeAttributeEncoding:
    case OperandKindId::kCLDebug100_DebugBaseTypeAttributeEncoding:
    case OperandKindId::kShaderDebug100_DebugBaseTypeAttributeEncoding:
      return "debug base type encoding";
    case OperandKindId::kDebugInfo_DebugCompositeType:
    case OperandKindId::kCLDebug100_DebugCompositeType:
    case OperandKindId::kShaderDebug100_DebugCompositeType:
      return "debug composite type";
    case OperandKindId::kDebugInfo_DebugTypeQualifier:
    case OperandKindId::kCLDebug100_DebugTypeQualifier:
    case OperandKindId::kShaderDebug100_DebugTypeQualifier:
      return "debug type qualifier";
    case OperandKindId::kDebugInfo_DebugOperation:
    case OperandKindId::kCLDebug100_DebugOperation:
    case OperandKindId::kShaderDebug100_DebugOperation:
      return "debug operation";
    case OperandKindId::kCLDebug100_DebugImportedEntity:
    case OperandKindId::kShaderDebug100_DebugImportedEntity:
      return "debug imported entity";
    default:
      return "unknown";
  }
}

// The bit enums spirv-as parses as `A|B` masks (with "operand" in its diagnostic); it reads the
// others as a single name. We accept `A|B` for every bit enum.
bool IsMaskKind(OperandKindId kind) {
  switch (kind) {
    case OperandKindId::kImageOperands:
    case OperandKindId::kFPFastMathMode:
    case OperandKindId::kSelectionControl:
    case OperandKindId::kLoopControl:
    case OperandKindId::kFunctionControl:
    case OperandKindId::kMemoryAccess:
    case OperandKindId::kDebugInfo_DebugInfoFlags:
    case OperandKindId::kCLDebug100_DebugInfoFlags:
    case OperandKindId::kMatrixMultiplyAccumulateOperands:
    case OperandKindId::kCooperativeMatrixOperands:
      return true;
    default:
      return false;
  }
}

// The opcodes OpSpecConstantOp accepts by name (without "Op"), as spirv-as 2023.1 does, plus the
// KHR cooperative matrix length.
constexpr std::string_view kSpecConstantOpcodes[] = {
    "AccessChain",
    "InBoundsAccessChain",
    "PtrAccessChain",
    "InBoundsPtrAccessChain",
    "VectorShuffle",
    "CompositeExtract",
    "CompositeInsert",
    "ConvertFToU",
    "ConvertFToS",
    "ConvertSToF",
    "ConvertUToF",
    "UConvert",
    "SConvert",
    "FConvert",
    "QuantizeToF16",
    "ConvertPtrToU",
    "ConvertUToPtr",
    "PtrCastToGeneric",
    "GenericCastToPtr",
    "Bitcast",
    "SNegate",
    "FNegate",
    "IAdd",
    "FAdd",
    "ISub",
    "FSub",
    "IMul",
    "FMul",
    "UDiv",
    "SDiv",
    "FDiv",
    "UMod",
    "SRem",
    "SMod",
    "FRem",
    "FMod",
    "LogicalEqual",
    "LogicalNotEqual",
    "LogicalOr",
    "LogicalAnd",
    "LogicalNot",
    "Select",
    "IEqual",
    "INotEqual",
    "UGreaterThan",
    "SGreaterThan",
    "UGreaterThanEqual",
    "SGreaterThanEqual",
    "ULessThan",
    "SLessThan",
    "ULessThanEqual",
    "SLessThanEqual",
    "ShiftRightLogical",
    "ShiftRightArithmetic",
    "ShiftLeftLogical",
    "BitwiseOr",
    "BitwiseXor",
    "BitwiseAnd",
    "Not",
    "CooperativeMatrixLengthNV",
    "CooperativeMatrixLengthKHR",
};

bool IsIdCharacter(char c) {
  return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace

OperandResult Assembler::EncodeOperand(Expected expected, std::string_view word) {
  if (!word.empty() && word[0] == '!') return EncodeImmediate(word);
  switch (expected.what) {
    case Expect::kId:
    case Expect::kTypeId:
    case Expect::kResultId:
    case Expect::kOptionalId:
      return EncodeId(expected, word);
    case Expect::kExtInstNumber:
      return EncodeExtInstNumber(word);
    case Expect::kSpecConstantOpNumber:
      return EncodeSpecConstantOp(word);
    case Expect::kLiteralInteger:
    case Expect::kOptionalLiteralInteger:
      return EncodeNumber(word, {TypeClass::kInt, false, 32},
                          expected.what == Expect::kOptionalLiteralInteger);
    case Expect::kOptionalLiteralNumber:
      return EncodeNumber(word, {}, true);
    case Expect::kTypedLiteralNumber:
    case Expect::kOptionalTypedLiteralInteger:
      return EncodeTypedLiteral(word, expected.what == Expect::kOptionalTypedLiteralInteger);
    case Expect::kLiteralString:
    case Expect::kOptionalLiteralString:
      return EncodeString(word, expected.what == Expect::kOptionalLiteralString);
    case Expect::kCiv:
      return EncodeCiv(word);
    case Expect::kEnum:
    case Expect::kOptionalEnum:
      return EncodeEnum(expected, word);
    default:
      // Variadic kinds are expanded before they reach here.
      return Error("Internal error: unexpanded operand");
  }
}

OperandResult Assembler::EncodeImmediate(std::string_view word) {
  uint32_t value;
  if (!ParseUint32(word.substr(1), &value)) {
    return Error("Invalid immediate integer: " + std::string(word));
  }
  PushWord(value);
  lexer_.SeekForward(word.size());
  // After a raw word the grammar no longer applies: the rest are values of any kind, except that
  // a pending result id stays where it is.
  size_t distance = 0;
  bool found = false;
  for (auto it = expected_.rbegin(); it != expected_.rend(); ++it, ++distance) {
    if (it->what == Expect::kResultId) {
      found = true;
      break;
    }
  }
  if (found) {
    expected_.assign(distance + 2, {Expect::kCiv});
    expected_[1] = {Expect::kResultId};
  } else {
    expected_.assign(1, {Expect::kCiv});
  }
  return OperandResult::kOk;
}

OperandResult Assembler::EncodeId(Expected expected, std::string_view word) {
  if (word.empty() || word[0] != '%') return Error("Expected id to start with %.");
  const std::string_view name = word.substr(1);
  bool valid = !name.empty();
  for (char c : name) valid = valid && IsIdCharacter(c);
  if (!valid) return Error("Invalid ID " + std::string(name));
  const uint32_t key = Intern(name);
  if (expected.what == Expect::kTypeId) result_type_key_ = key;
  PushId(key);
  if (opcode_ == static_cast<uint32_t>(spv::Op::OpExtInst) && InstSize() == 4) {
    const IdEntry& set = ids_[key];
    if (set.ext_kind == grammar::ExtInstSetKind::kNone) {
      const uint32_t result =
          key_at_[2] == kNoKey ? out_->at(inst_start_ + 2) : IdValue(key_at_[2]);
      return Error("Invalid extended instruction import Id " + std::to_string(result));
    }
    ext_set_ = set.ext_set;
    ext_kind_ = set.ext_kind;
  }
  return OperandResult::kOk;
}

OperandResult Assembler::EncodeExtInstNumber(std::string_view word) {
  if (ext_set_ != nullptr) {
    if (const grammar::ExtInstruction* inst = grammar::FindExtInstruction(*ext_set_, word)) {
      PushWord(inst->opcode);
      PushOperands(inst->operands);
      return OperandResult::kOk;
    }
  }
  const bool non_semantic = ext_kind_ == grammar::ExtInstSetKind::kNonSemanticUnknown ||
                            (ext_set_ != nullptr && ext_set_->non_semantic);
  if (!non_semantic) {
    return Error("Invalid extended instruction name '" + std::string(word) + "'.");
  }
  // Every non-semantic instruction is a number followed by ids.
  uint32_t number = 0;
  if (ClassifyLiteral(word, &scratch_, &number) != LiteralClass::kUint32) {
    return Error("Couldn't translate unknown extended instruction name '" + std::string(word) +
                 "' to unsigned integer.");
  }
  PushWord(number);
  expected_.push_back({Expect::kVariableId});
  return OperandResult::kOk;
}

OperandResult Assembler::EncodeSpecConstantOp(std::string_view word) {
  const grammar::Instruction* inst = nullptr;
  for (std::string_view name : kSpecConstantOpcodes) {
    if (name == word) {
      inst = grammar::FindInstruction("Op" + std::string(word));
      break;
    }
  }
  if (inst == nullptr || inst->operands.size() < 2) {
    return Error("Invalid OpSpecConstantOp opcode '" + std::string(word) + "'.");
  }
  PushWord(inst->opcode);
  PushOperands(inst->operands.subspan(2));  // its result type and id are the OpSpecConstantOp's
  return OperandResult::kOk;
}

OperandResult Assembler::EncodeTypedLiteral(std::string_view word, bool optional) {
  NumericType type;
  const auto op = static_cast<spv::Op>(opcode_);
  if (op == spv::Op::OpConstant || op == spv::Op::OpSpecConstant) {
    if (result_type_key_ != kNoKey) type = ids_[result_type_key_].type;
    if (type.type_class != TypeClass::kInt && type.type_class != TypeClass::kFloat) {
      // spirv-as names the opcode without its "Op" prefix here.
      const std::string_view name = std::string_view(inst_->name).substr(2);
      return Error("Type for " + std::string(name) +
                   " must be a scalar floating point or integer type");
    }
  } else if (op == spv::Op::OpSwitch) {
    const uint32_t selector = key_at_[1];
    if (selector != kNoKey && ids_[selector].value_type_key != kNoKey) {
      type = ids_[ids_[selector].value_type_key].type;
    }
    if (type.type_class != TypeClass::kInt) {
      return Error(
          "The selector operand for OpSwitch must be the result of an instruction that "
          "generates an integer scalar");
    }
  }
  return EncodeNumber(word, type, optional);
}

OperandResult Assembler::EncodeNumber(std::string_view word, NumericType type, bool optional) {
  NumberType number_type{32, NumberClass::kUnsignedInt};
  switch (type.type_class) {
    case TypeClass::kOther:
      return Error("Unexpected numeric literal type");
    case TypeClass::kInt:
      number_type = {type.bit_width,
                     type.is_signed ? NumberClass::kSignedInt : NumberClass::kUnsignedInt};
      break;
    case TypeClass::kFloat:
      number_type = {type.bit_width, type.bfloat16 ? NumberClass::kBFloat16 : NumberClass::kFloat};
      break;
    case TypeClass::kUnknown:
      // The type is inferred: a '.' means a float, a leading '-' a signed integer.
      if (word.find('.') != std::string_view::npos) {
        number_type.number_class = NumberClass::kFloat;
      } else if (!word.empty() && word[0] == '-') {
        number_type.number_class = NumberClass::kSignedInt;
      }
      break;
  }
  EncodedNumber number;
  std::string message;
  switch (ParseAndEncodeNumber(word, number_type, &number, &message)) {
    case EncodeStatus::kSuccess:
      for (uint32_t i = 0; i < number.count; ++i) PushWord(number.words[i]);
      return OperandResult::kOk;
    case EncodeStatus::kInvalidText:
      if (optional) return OperandResult::kFailedMatch;
      return Error(message);
    case EncodeStatus::kInvalidUsage:
    case EncodeStatus::kUnsupported:
      break;
  }
  return Error(message);
}

OperandResult Assembler::EncodeString(std::string_view word, bool optional) {
  uint32_t unused;
  switch (ClassifyLiteral(word, &scratch_, &unused)) {
    case LiteralClass::kNone:
      if (optional) return OperandResult::kFailedMatch;
      return Error("Invalid literal string '" + std::string(word) + "'.");
    case LiteralClass::kStringTooLong:
      return Error("Literal string is too long");
    case LiteralClass::kUint32:
    case LiteralClass::kOtherNumber:
      return Error("Expected literal string, found literal number '" + std::string(word) + "'.");
    case LiteralClass::kString:
      break;
  }
  if (opcode_ == static_cast<uint32_t>(spv::Op::OpExtInstImport)) {
    const grammar::ExtInstSet* set = nullptr;
    const grammar::ExtInstSetKind kind = grammar::ClassifyExtInstSet(scratch_, &set);
    if (kind == grammar::ExtInstSetKind::kNone) {
      return Error("Invalid extended instruction import '" + scratch_ + "'");
    }
    if (key_at_[1] != kNoKey) {
      IdEntry& id = ids_[key_at_[1]];
      if (id.ext_kind != grammar::ExtInstSetKind::kNone) {
        return Error("Import Id is being defined a second time");
      }
      id.ext_kind = kind;
      id.ext_set = set;
    }
  }
  const size_t num_words = scratch_.size() / 4 + 1;  // with the terminating NUL
  if (InstSize() + num_words > 0xFFFF) {
    return Error("Instruction too long: more than 65535 words.");
  }
  for (size_t i = InstSize(); i < 4; ++i) key_at_[i] = kNoKey;
  binary::EncodeString(scratch_, out_);
  return OperandResult::kOk;
}

OperandResult Assembler::EncodeEnum(Expected expected, std::string_view word) {
  const grammar::OperandKind& kind = grammar::GetOperandKind(expected.kind);
  if (kind.category != grammar::OperandCategory::kBitEnum) {
    const grammar::Enumerant* e = grammar::FindEnumerant(expected.kind, word);
    if (e == nullptr || !Available(expected.kind, *e)) {
      return Error("Invalid " + std::string(KindDescription(expected.kind)) + " '" +
                   std::string(word) + "'.");
    }
    PushWord(e->value);
    PushOperands(e->parameters);
    return OperandResult::kOk;
  }
  uint32_t value = 0;
  size_t begin = 0;
  while (true) {
    const size_t end = std::min(word.find('|', begin), word.size());
    const grammar::Enumerant* e =
        grammar::FindEnumerant(expected.kind, word.substr(begin, end - begin));
    if (e == nullptr || !Available(expected.kind, *e)) {
      return Error("Invalid " + std::string(KindDescription(expected.kind)) +
                   (IsMaskKind(expected.kind) ? " operand '" : " '") + std::string(word) + "'.");
    }
    value |= e->value;
    if (end == word.size()) break;
    begin = end + 1;
  }
  PushWord(value);
  // Parameters of the lower bits come first, so they go on the stack last.
  for (int bit = 31; bit >= 0; --bit) {
    const uint32_t mask = 1u << bit;
    if (!(value & mask)) continue;
    if (const grammar::Enumerant* e = grammar::FindEnumerant(expected.kind, mask)) {
      PushOperands(e->parameters);
    }
  }
  return OperandResult::kOk;
}

OperandResult Assembler::EncodeCiv(std::string_view word) {
  OperandResult r = EncodeOperand({Expect::kOptionalLiteralNumber}, word);
  if (r == OperandResult::kFailedMatch) r = EncodeOperand({Expect::kOptionalLiteralString}, word);
  if (r == OperandResult::kFailedMatch) r = EncodeOperand({Expect::kOptionalId}, word);
  if (r != OperandResult::kOk) {
    return Error("Invalid word following !<integer>: " + std::string(word));
  }
  if (expected_.empty()) expected_.push_back({Expect::kCiv});
  return OperandResult::kOk;
}

}  // namespace xmx::text::detail
