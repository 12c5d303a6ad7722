// Operand decoding for the five OpSubgroup2DBlock*INTEL instructions (SPEC-NOTES A.2): which
// operand is which, and what the rules need to know about each value's type. Nothing here
// reports; every lookup tolerates undefined ids and values of the wrong kind.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "ir/type_table.hpp"
#include "xmx/device.hpp"
#include "xmx/module.hpp"

namespace xmx::val {

// Operand indices of one instruction; kAbsent for the pointer an instruction does not have.
struct Block2dLayout {
  static constexpr size_t kAbsent = static_cast<size_t>(-1);

  device::Block2dOp op = device::Block2dOp::kLoad;
  size_t element_size = 0, block_width = 1, block_height = 2, block_count = 3;
  size_t global_pointer = 4;         // Src Base Pointer, or the Store's Dst Base Pointer
  size_t private_pointer = kAbsent;  // Dst Pointer (loads) or Src Pointer (Store)
  size_t memory_width = 5, memory_height = 6, memory_pitch = 7, coordinate = 8;
  size_t operand_count = 9;  // what the encoding has (A.2)
};

// The layout for a 2D block opcode, or nullopt for any other instruction.
std::optional<Block2dLayout> GetBlock2dLayout(spv::Op opcode);

// A pointer type, typed (OpTypePointer) or untyped (OpTypeUntypedPointerKHR, no pointee).
struct PointerInfo {
  spv::StorageClass storage_class = spv::StorageClass::Function;
  const ir::Type* pointee = nullptr;  // nullptr: untyped, or the pointee is not a known type
  bool untyped = false;
};

// Result types of every id in the module, and short type spellings for messages.
class Block2dValues {
 public:
  Block2dValues(const ir::Module& module, const ir::TypeTable& types);

  // The type of the value `id` (nullptr when undefined, a type, or of an unknown type).
  const ir::Type* TypeOf(uint32_t id) const;
  // When `type` is a (typed or untyped) pointer.
  std::optional<PointerInfo> AsPointer(const ir::Type* type) const;
  // "i16", "v2i64", "f32", "ptr CrossWorkgroup i8", "untyped ptr Function", "type %7".
  std::string Describe(const ir::Type* type, int depth = 0) const;

 private:
  const ir::TypeTable& types_;
  std::unordered_map<uint32_t, uint32_t> result_type_;  // value id -> its type id
};

}  // namespace xmx::val
