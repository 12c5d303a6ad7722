// What the block2d.* rules need to know about the types of the operands of the
// OpSubgroup2DBlock*INTEL instructions (which operand is which: ir/block2d_operands.hpp). Nothing
// here reports; every lookup tolerates undefined ids and values of the wrong kind.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/type_table.hpp"
#include "ir/value_types.hpp"
#include "xmx/module.hpp"

namespace xmx::val {

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
  ir::ValueTypes value_types_;
};

}  // namespace xmx::val
