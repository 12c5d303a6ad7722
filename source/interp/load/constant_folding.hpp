// Load-time evaluation of integer and boolean instructions whose operands are all constants,
// for the unrolling of loops (loop_unrolling.hpp): once a loop counter is a constant in each
// copy of the body, the index arithmetic built on it (multiplies, resizes to 64 bits, compares)
// becomes constants too, and the access chains into private arrays it fed get constant indices
// (which the loader resolves once: invariant_code.hpp, Loader::RecordPrivateAddress).
//
// Only instructions that can never report or fail are folded, and each exactly as the
// interpreter computes it: integer add, subtract and multiply modulo 2^width, the integer
// resizes (sign- or zero-extension, truncation), bitwise operations, integer compares, the
// logical operations on booleans, and OpSelect with a constant condition (which picks one of
// its operands, whatever their type). Scalars only, integers of at most 64 bits. The caller
// leaves alone an instruction with a decoration the interpreter acts on (SaturatedConversion,
// say); NoSignedWrap and NoUnsignedWrap change nothing it computes. Spec constants are not
// constants here (a launch may not have fixed them).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ir/type_table.hpp"
#include "xmx/module.hpp"

namespace xmx::interp {

// The scalar integer and boolean constants of a module, and new ones added on demand (at the end
// of its global section). `types` must be a table of `module`; the module must outlive this.
class ConstantPool {
 public:
  ConstantPool(ir::Module& module, const ir::TypeTable& types);

  struct Value {
    uint32_t type = 0;  // an OpTypeInt (width <= 64) or OpTypeBool
    uint64_t bits = 0;  // the value, zero-extended from its width (booleans: 0 or 1)
  };
  // The value of `id` when it is such a constant.
  std::optional<Value> Get(uint32_t id) const;
  // The id of a constant of `type` holding `bits` (truncated to the type's width), added when
  // the module has none.
  uint32_t Make(uint32_t type, uint64_t bits);
  // Width in bits of a scalar integer type (0 for anything else) and whether it is OpTypeBool.
  uint32_t IntWidth(uint32_t type) const;
  bool IsBool(uint32_t type) const;

 private:
  ir::Module& module_;
  const ir::TypeTable& types_;
  std::unordered_map<uint32_t, Value> values_;
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> ids_;
};

// The ids with a decoration (OpDecorate, OpDecorateId, OpDecorateString or through a decoration
// group): folding and cloning leave their instructions as they are.
std::unordered_set<uint32_t> DecoratedIds(const ir::Module& module);

// What `inst` evaluates to when `operand(id)` gives each id operand's value (an id) and every
// operand it needs is a constant of `pool`: the id of the result (a constant, or for OpSelect
// the chosen operand). nullopt when `inst` is not foldable.
template <typename Operand>
std::optional<uint32_t> FoldConstant(const ir::Instruction& inst, ConstantPool& pool,
                                     Operand&& operand);

// The non-template part: the same, over operand ids already resolved.
std::optional<uint32_t> FoldConstantOperands(const ir::Instruction& inst,
                                             const uint32_t* operand_ids, size_t count,
                                             ConstantPool& pool);

template <typename Operand>
std::optional<uint32_t> FoldConstant(const ir::Instruction& inst, ConstantPool& pool,
                                     Operand&& operand) {
  if (!inst.has_result_id() || inst.num_operands() == 0 || inst.num_operands() > 3) {
    return std::nullopt;
  }
  uint32_t ids[3] = {0, 0, 0};
  for (size_t i = 0; i < inst.num_operands(); ++i) ids[i] = operand(inst.word(i));
  return FoldConstantOperands(inst, ids, inst.num_operands(), pool);
}

}  // namespace xmx::interp
