// Decoded types and constants of a module, and the byte sizes of types under the OpenCL rules
// (natural alignment; a 3-component vector takes the size and alignment of 4 components; pointer
// size from the addressing model).
//
// A snapshot: it holds pointers into the module's global instructions; build a new one after
// editing types or constants.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "binary/id_table.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {

enum class TypeKind : uint8_t {
  kVoid,
  kBool,
  kInt,
  kFloat,
  kVector,
  kMatrix,
  kArray,
  kRuntimeArray,
  kStruct,
  kOpaque,
  kPointer,
  kForwardPointer,
  kFunction,
  kImage,
  kSampler,
  kSampledImage,
  kEvent,
  kDeviceEvent,
  kReserveId,
  kQueue,
  kPipe,
  kCooperativeMatrix,  // OpTypeCooperativeMatrixKHR
  kOther,              // a type opcode not decoded here; see `inst`
};

struct ImageFormatInfo {
  spv::Dim dim;
  uint32_t depth, arrayed, multisampled, sampled;
  spv::ImageFormat format;
};

struct Type {
  TypeKind kind = TypeKind::kOther;
  uint32_t id = 0;
  const Instruction* inst = nullptr;
  uint32_t width = 0;      // kInt, kFloat: bits
  bool is_signed = false;  // kInt
  // kFloat: the FPEncoding operand when present (e.g. bfloat16).
  std::optional<uint32_t> float_encoding;
  // kVector, kMatrix, kArray, kRuntimeArray, kCooperativeMatrix: the component type;
  // kPointer: the pointee; kForwardPointer: the pointer type; kFunction: the return type;
  // kImage: the sampled type; kSampledImage: the image type.
  uint32_t element = 0;
  uint32_t count = 0;              // kVector: components; kMatrix: columns
  uint32_t length_id = 0;          // kArray: the length constant
  std::optional<uint64_t> length;  // kArray: its value when it is a (non-spec) constant
  spv::StorageClass storage_class = spv::StorageClass::Function;  // kPointer, kForwardPointer
  std::span<const uint32_t> members;  // kStruct: member types; kFunction: parameter types
  // kCooperativeMatrix: constant ids of scope, rows, columns and use.
  uint32_t scope_id = 0, rows_id = 0, columns_id = 0, use_id = 0;
  std::optional<ImageFormatInfo> image;        // kImage
  std::optional<spv::AccessQualifier> access;  // kImage, kPipe, when given
  // Byte size and alignment; no size for opaque, sub-byte, runtime-sized or logical-pointer types.
  std::optional<uint64_t> byte_size;
  uint64_t alignment = 1;
};

enum class ConstantKind : uint8_t {
  kTrue,       // OpConstantTrue, OpSpecConstantTrue
  kFalse,      // OpConstantFalse, OpSpecConstantFalse
  kScalar,     // OpConstant, OpSpecConstant
  kNull,       // OpConstantNull
  kComposite,  // OpConstantComposite, OpSpecConstantComposite
  kSampler,    // OpConstantSampler
  kSpecOp,     // OpSpecConstantOp
  kOther,      // another OpConstant*/OpSpecConstant* opcode; see `inst`
};

struct Constant {
  ConstantKind kind;
  bool is_spec;  // its value may be overridden at specialization time
  uint32_t id;
  uint32_t type_id;
  const Instruction* inst;
  // kScalar: the literal (low-order word first); kComposite: constituent ids; kSpecOp: the
  // opcode then its operands; otherwise the instruction's operand words.
  std::span<const uint32_t> words;
};

class TypeTable {
 public:
  explicit TypeTable(const Module& module);

  const Type* GetType(uint32_t id) const;
  const Constant* GetConstant(uint32_t id) const;

  // The value of a scalar integer constant (OpConstant or OpConstantNull of an int type),
  // zero-extended (UInt) or sign-extended (Int) from the type's width: SPIR-V for OpenCL leaves
  // signedness to the instructions, so both readings are offered. Spec constants give their
  // default only when `allow_spec` is set.
  std::optional<uint64_t> GetConstantUInt(uint32_t id, bool allow_spec = false) const;
  std::optional<int64_t> GetConstantInt(uint32_t id, bool allow_spec = false) const;
  // The value when `id` is a constant of a 32-bit integer type (what most literal-like operands
  // such as scopes, sizes and block dimensions must be).
  std::optional<uint32_t> GetConstantUInt32(uint32_t id) const;
  // Float constants of width 16 (half, or bfloat16 by encoding), 32 or 64.
  std::optional<double> GetConstantFloat(uint32_t id, bool allow_spec = false) const;
  std::optional<bool> GetConstantBool(uint32_t id, bool allow_spec = false) const;

  std::optional<uint64_t> GetByteSize(uint32_t type_id) const;
  std::optional<uint64_t> GetAlignment(uint32_t type_id) const;
  // Bytes of a pointer under the module's addressing model (none when Logical).
  std::optional<uint64_t> pointer_size() const { return pointer_size_; }

 private:
  void AddType(const Instruction& inst);
  void AddConstant(const Instruction& inst, std::string_view name);
  void ComputeLayout(Type& type) const;
  // The scalar bits of a constant whose type is int (want_float false) or float (true).
  std::optional<uint64_t> ScalarBits(uint32_t id, bool allow_spec, bool want_float,
                                     const Type** type) const;

  std::optional<uint64_t> pointer_size_;
  binary::IdTable<uint32_t> type_slot_;
  binary::IdTable<uint32_t> constant_slot_;
  binary::IdTable<uint8_t> packed_structs_;  // CPacked structs: members without padding
  std::vector<Type> types_;
  std::vector<Constant> constants_;
};

}  // namespace xmx::ir
