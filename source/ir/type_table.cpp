#include "ir/type_table.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <string_view>

#include "common/align.hpp"
#include "common/float_formats.hpp"
#include "grammar/grammar.hpp"

namespace xmx::ir {
namespace {

// FPEncoding BFloat16KHR (SPV_KHR_bfloat16); the installed grammar may predate the enum.
constexpr uint32_t kBFloat16Encoding = 0;

bool IsConstantOpcode(std::string_view name) {
  return name.starts_with("OpConstant") || name.starts_with("OpSpecConstant");
}

}  // namespace

TypeTable::TypeTable(const Module& module) {
  switch (module.addressing_model()) {
    case spv::AddressingModel::Physical32:
      pointer_size_ = 4;
      break;
    case spv::AddressingModel::Physical64:
    case spv::AddressingModel::PhysicalStorageBuffer64:
      pointer_size_ = 8;
      break;
    default:
      break;
  }
  const size_t limit = module.DenseIdLimit();
  type_slot_.Reserve(module.header().bound, limit);
  constant_slot_.Reserve(module.header().bound, limit);
  packed_structs_.Reserve(module.header().bound, limit);
  for (const Instruction& inst : module.annotations()) {
    if (inst.opcode() == spv::Op::OpDecorate && inst.num_operands() >= 2 &&
        inst.word(1) == static_cast<uint32_t>(spv::Decoration::CPacked)) {
      packed_structs_.Set(inst.word(0), 1);
    }
  }
  for (const Instruction& inst : module.globals()) {
    const grammar::Instruction* desc =
        grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
    const std::string_view name = desc ? desc->name : "";
    if (name.starts_with("OpType")) {
      AddType(inst);
    } else if (IsConstantOpcode(name)) {
      AddConstant(inst, name);
    }
  }
}

void TypeTable::AddType(const Instruction& inst) {
  Type type;
  type.kind = TypeKind::kOther;
  type.id = inst.result_id();
  type.inst = &inst;
  const size_t n = inst.num_operands();
  auto word = [&inst, n](size_t i) { return i < n ? inst.word(i) : 0; };
  switch (inst.opcode()) {
    case spv::Op::OpTypeVoid:
      type.kind = TypeKind::kVoid;
      break;
    case spv::Op::OpTypeBool:
      type.kind = TypeKind::kBool;
      break;
    case spv::Op::OpTypeInt:
      type.kind = TypeKind::kInt;
      type.width = word(0);
      type.is_signed = word(1) != 0;
      break;
    case spv::Op::OpTypeFloat:
      type.kind = TypeKind::kFloat;
      type.width = word(0);
      if (n > 1) type.float_encoding = word(1);
      break;
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeMatrix:
      type.kind = inst.opcode() == spv::Op::OpTypeVector ? TypeKind::kVector : TypeKind::kMatrix;
      type.element = word(0);
      type.count = word(1);
      break;
    case spv::Op::OpTypeArray:
      type.kind = TypeKind::kArray;
      type.element = word(0);
      type.length_id = word(1);
      type.length = GetConstantUInt(type.length_id);
      break;
    case spv::Op::OpTypeRuntimeArray:
      type.kind = TypeKind::kRuntimeArray;
      type.element = word(0);
      break;
    case spv::Op::OpTypeStruct:
      type.kind = TypeKind::kStruct;
      type.members = inst.operand_words();
      break;
    case spv::Op::OpTypeOpaque:
      type.kind = TypeKind::kOpaque;
      break;
    case spv::Op::OpTypePointer:
      type.kind = TypeKind::kPointer;
      type.storage_class = static_cast<spv::StorageClass>(word(0));
      type.element = word(1);
      break;
    case spv::Op::OpTypeForwardPointer:
      // It has no result: it announces the pointer type id, which OpTypePointer defines later
      // (and then replaces this entry).
      type.kind = TypeKind::kForwardPointer;
      type.id = word(0);
      type.element = word(0);
      type.storage_class = static_cast<spv::StorageClass>(word(1));
      break;
    case spv::Op::OpTypeFunction:
      type.kind = TypeKind::kFunction;
      type.element = word(0);
      if (n > 0) type.members = inst.operand_words().subspan(1);
      break;
    case spv::Op::OpTypeImage:
      type.kind = TypeKind::kImage;
      type.element = word(0);
      type.image =
          ImageFormatInfo{static_cast<spv::Dim>(word(1)),        word(2), word(3), word(4), word(5),
                          static_cast<spv::ImageFormat>(word(6))};
      if (n > 7) type.access = static_cast<spv::AccessQualifier>(word(7));
      break;
    case spv::Op::OpTypeSampler:
      type.kind = TypeKind::kSampler;
      break;
    case spv::Op::OpTypeSampledImage:
      type.kind = TypeKind::kSampledImage;
      type.element = word(0);
      break;
    case spv::Op::OpTypeEvent:
      type.kind = TypeKind::kEvent;
      break;
    case spv::Op::OpTypeDeviceEvent:
      type.kind = TypeKind::kDeviceEvent;
      break;
    case spv::Op::OpTypeReserveId:
      type.kind = TypeKind::kReserveId;
      break;
    case spv::Op::OpTypeQueue:
      type.kind = TypeKind::kQueue;
      break;
    case spv::Op::OpTypePipe:
      type.kind = TypeKind::kPipe;
      type.access = static_cast<spv::AccessQualifier>(word(0));
      break;
    case spv::Op::OpTypeCooperativeMatrixKHR:
      type.kind = TypeKind::kCooperativeMatrix;
      type.element = word(0);
      type.scope_id = word(1);
      type.rows_id = word(2);
      type.columns_id = word(3);
      type.use_id = word(4);
      break;
    default:
      break;
  }
  ComputeLayout(type);
  if (const uint32_t* slot = type_slot_.Get(type.id)) {
    types_[*slot] = type;
  } else {
    type_slot_.Set(type.id, static_cast<uint32_t>(types_.size()));
    types_.push_back(type);
  }
}

void TypeTable::ComputeLayout(Type& type) const {
  auto set = [&type](std::optional<uint64_t> size, uint64_t alignment) {
    type.byte_size = size;
    type.alignment = alignment;
  };
  const Type* element = GetType(type.element);
  switch (type.kind) {
    case TypeKind::kBool:
      // Not storable in OpenCL buffers; one byte where a private variable needs a size.
      set(1, 1);
      break;
    case TypeKind::kInt:
    case TypeKind::kFloat:
      // Sub-byte integers (e.g. 4-bit) have no size of their own.
      if (type.width % 8 == 0 && type.width > 0) set(type.width / 8, type.width / 8);
      break;
    case TypeKind::kVector:
      if (element && element->byte_size) {
        const uint64_t size = *element->byte_size * (type.count == 3 ? 4 : type.count);
        set(size, size);
      }
      break;
    case TypeKind::kMatrix:
      if (element && element->byte_size) set(*element->byte_size * type.count, element->alignment);
      break;
    case TypeKind::kArray:
      if (element && element->byte_size && type.length) {
        // An array too large for 64 bits has no size (nested arrays can multiply past 2^64).
        uint64_t size = 0;
        if (!__builtin_mul_overflow(*element->byte_size, *type.length, &size)) {
          set(size, element->alignment);
        }
      }
      break;
    case TypeKind::kPointer:
      if (pointer_size_) set(pointer_size_, *pointer_size_);
      break;
    case TypeKind::kStruct: {
      const bool packed = packed_structs_.Get(type.id) != nullptr;
      uint64_t offset = 0;
      uint64_t alignment = 1;
      for (uint32_t member_id : type.members) {
        const Type* member = GetType(member_id);
        if (!member || !member->byte_size) return;
        const uint64_t member_alignment = packed ? 1 : member->alignment;
        offset = AlignUp<uint64_t>(offset, member_alignment) + *member->byte_size;
        alignment = std::max(alignment, member_alignment);
      }
      set(AlignUp<uint64_t>(offset, alignment), alignment);
      break;
    }
    default:
      break;
  }
}

void TypeTable::AddConstant(const Instruction& inst, std::string_view name) {
  Constant constant{ConstantKind::kOther,  false, inst.result_id(),
                    inst.result_type_id(), &inst, inst.operand_words()};
  switch (inst.opcode()) {
    case spv::Op::OpSpecConstantTrue:
      constant.is_spec = true;
      [[fallthrough]];
    case spv::Op::OpConstantTrue:
      constant.kind = ConstantKind::kTrue;
      break;
    case spv::Op::OpSpecConstantFalse:
      constant.is_spec = true;
      [[fallthrough]];
    case spv::Op::OpConstantFalse:
      constant.kind = ConstantKind::kFalse;
      break;
    case spv::Op::OpSpecConstant:
      constant.is_spec = true;
      [[fallthrough]];
    case spv::Op::OpConstant:
      constant.kind = ConstantKind::kScalar;
      if (inst.num_operands() > 0) constant.words = inst.operand(0).words;
      break;
    case spv::Op::OpConstantNull:
      constant.kind = ConstantKind::kNull;
      break;
    case spv::Op::OpSpecConstantComposite:
      constant.is_spec = true;
      [[fallthrough]];
    case spv::Op::OpConstantComposite:
      constant.kind = ConstantKind::kComposite;
      break;
    case spv::Op::OpConstantSampler:
      constant.kind = ConstantKind::kSampler;
      break;
    case spv::Op::OpSpecConstantOp:
      constant.kind = ConstantKind::kSpecOp;
      constant.is_spec = true;
      break;
    default:
      constant.is_spec = name.starts_with("OpSpecConstant");
      break;
  }
  constant_slot_.Set(constant.id, static_cast<uint32_t>(constants_.size()));
  constants_.push_back(constant);
}

const Type* TypeTable::GetType(uint32_t id) const {
  const uint32_t* slot = type_slot_.Get(id);
  return slot ? &types_[*slot] : nullptr;
}

const Constant* TypeTable::GetConstant(uint32_t id) const {
  const uint32_t* slot = constant_slot_.Get(id);
  return slot ? &constants_[*slot] : nullptr;
}

std::optional<uint64_t> TypeTable::ScalarBits(uint32_t id, bool allow_spec, bool want_float,
                                              const Type** type_out) const {
  const Constant* constant = GetConstant(id);
  if (!constant || (constant->is_spec && !allow_spec)) return std::nullopt;
  const Type* type = GetType(constant->type_id);
  if (!type || type->kind != (want_float ? TypeKind::kFloat : TypeKind::kInt)) return std::nullopt;
  if (type->width == 0 || type->width > 64) return std::nullopt;
  *type_out = type;
  if (constant->kind == ConstantKind::kNull) return 0;
  if (constant->kind != ConstantKind::kScalar || constant->words.empty()) return std::nullopt;
  uint64_t bits = constant->words[0];
  if (constant->words.size() > 1) bits |= static_cast<uint64_t>(constant->words[1]) << 32;
  if (type->width < 64) bits &= (uint64_t{1} << type->width) - 1;
  return bits;
}

std::optional<uint64_t> TypeTable::GetConstantUInt(uint32_t id, bool allow_spec) const {
  const Type* type = nullptr;
  return ScalarBits(id, allow_spec, false, &type);
}

std::optional<int64_t> TypeTable::GetConstantInt(uint32_t id, bool allow_spec) const {
  const Type* type = nullptr;
  const std::optional<uint64_t> bits = ScalarBits(id, allow_spec, false, &type);
  if (!bits) return std::nullopt;
  const unsigned shift = 64 - type->width;
  return static_cast<int64_t>(*bits << shift) >> shift;
}

std::optional<uint32_t> TypeTable::GetConstantUInt32(uint32_t id) const {
  const Type* type = nullptr;
  const std::optional<uint64_t> bits = ScalarBits(id, false, false, &type);
  if (!bits || type->width != 32) return std::nullopt;
  return static_cast<uint32_t>(*bits);
}

std::optional<double> TypeTable::GetConstantFloat(uint32_t id, bool allow_spec) const {
  const Type* type = nullptr;
  const std::optional<uint64_t> bits = ScalarBits(id, allow_spec, true, &type);
  if (!bits) return std::nullopt;
  switch (type->width) {
    case 16:
      if (type->float_encoding == kBFloat16Encoding) {
        return std::bit_cast<float>(static_cast<uint32_t>(*bits) << 16);
      }
      if (type->float_encoding) return std::nullopt;
      return DecodeFloat(static_cast<uint32_t>(*bits), kHalfFormat);
    case 32:
      return std::bit_cast<float>(static_cast<uint32_t>(*bits));
    case 64:
      return std::bit_cast<double>(*bits);
    default:
      return std::nullopt;
  }
}

std::optional<bool> TypeTable::GetConstantBool(uint32_t id, bool allow_spec) const {
  const Constant* constant = GetConstant(id);
  if (!constant || (constant->is_spec && !allow_spec)) return std::nullopt;
  const Type* type = GetType(constant->type_id);
  if (!type || type->kind != TypeKind::kBool) return std::nullopt;
  switch (constant->kind) {
    case ConstantKind::kTrue:
      return true;
    case ConstantKind::kFalse:
    case ConstantKind::kNull:
      return false;
    default:
      return std::nullopt;
  }
}

std::optional<uint64_t> TypeTable::GetByteSize(uint32_t type_id) const {
  const Type* type = GetType(type_id);
  return type ? type->byte_size : std::nullopt;
}

std::optional<uint64_t> TypeTable::GetAlignment(uint32_t type_id) const {
  const Type* type = GetType(type_id);
  if (!type || !type->byte_size) return std::nullopt;
  return type->alignment;
}

}  // namespace xmx::ir
