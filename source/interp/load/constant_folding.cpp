#include "interp/load/constant_folding.hpp"

#include "ir/id_operands.hpp"

namespace xmx::interp {
namespace {

uint64_t Mask(uint32_t width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

int64_t SignExtend(uint64_t bits, uint32_t width) {
  if (width >= 64) return static_cast<int64_t>(bits);
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>(((bits & Mask(width)) ^ sign) - sign);
}

}  // namespace

ConstantPool::ConstantPool(ir::Module& module, const ir::TypeTable& types)
    : module_(module), types_(types) {
  for (const ir::Instruction& inst : module.globals()) {
    if (!inst.has_result_id()) continue;
    const uint32_t type = inst.result_type_id();
    std::optional<uint64_t> bits;
    switch (inst.opcode()) {
      case spv::Op::OpConstant:
        if (IntWidth(type) != 0 && inst.num_operands() == 1) {
          const std::span<const uint32_t> words = inst.operand(0).words;
          uint64_t v = words.empty() ? 0 : words[0];
          if (words.size() > 1) v |= uint64_t{words[1]} << 32;
          bits = v & Mask(IntWidth(type));
        }
        break;
      case spv::Op::OpConstantNull:
        if (IntWidth(type) != 0 || IsBool(type)) bits = 0;
        break;
      case spv::Op::OpConstantTrue:
        if (IsBool(type)) bits = 1;
        break;
      case spv::Op::OpConstantFalse:
        if (IsBool(type)) bits = 0;
        break;
      default:
        break;
    }
    if (!bits) continue;
    values_[inst.result_id()] = {type, *bits};
    ids_.emplace(std::make_pair(type, *bits), inst.result_id());
  }
}

uint32_t ConstantPool::IntWidth(uint32_t type) const {
  const ir::Type* t = types_.GetType(type);
  if (t == nullptr || t->kind != ir::TypeKind::kInt || t->width == 0 || t->width > 64) return 0;
  return t->width;
}

bool ConstantPool::IsBool(uint32_t type) const {
  const ir::Type* t = types_.GetType(type);
  return t != nullptr && t->kind == ir::TypeKind::kBool;
}

std::optional<ConstantPool::Value> ConstantPool::Get(uint32_t id) const {
  auto it = values_.find(id);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

uint32_t ConstantPool::Make(uint32_t type, uint64_t bits) {
  const bool boolean = IsBool(type);
  bits = boolean ? (bits != 0 ? 1 : 0) : bits & Mask(IntWidth(type));
  auto it = ids_.find({type, bits});
  if (it != ids_.end()) return it->second;
  const uint32_t id = module_.TakeNextId();
  if (boolean) {
    module_.globals().emplace_back(bits != 0 ? spv::Op::OpConstantTrue : spv::Op::OpConstantFalse,
                                   type, id);
  } else {
    ir::Instruction constant(spv::Op::OpConstant, type, id);
    if (IntWidth(type) > 32) {
      constant.AddOperand(grammar::OperandKindId::kLiteralContextDependentNumber,
                          {static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)});
    } else {
      // Narrower than 32 bits, a signed type's literal word holds the sign-extended value.
      const ir::Type* t = types_.GetType(type);
      const uint32_t word = t->is_signed ? static_cast<uint32_t>(SignExtend(bits, t->width))
                                         : static_cast<uint32_t>(bits);
      constant.AddOperand(grammar::OperandKindId::kLiteralContextDependentNumber, {word});
    }
    module_.globals().push_back(std::move(constant));
  }
  values_[id] = {type, bits};
  ids_.emplace(std::make_pair(type, bits), id);
  return id;
}

std::unordered_set<uint32_t> DecoratedIds(const ir::Module& module) {
  std::unordered_set<uint32_t> ids;
  for (const ir::Instruction& inst : module.annotations()) {
    ir::ForEachIdOperand(inst, [&](uint32_t id, size_t) { ids.insert(id); });
  }
  return ids;
}

std::optional<uint32_t> FoldConstantOperands(const ir::Instruction& inst,
                                             const uint32_t* operand_ids, size_t count,
                                             ConstantPool& pool) {
  const spv::Op op = inst.opcode();
  const uint32_t type = inst.result_type_id();
  if (op == spv::Op::OpSelect) {
    // The condition must be a scalar boolean constant; the operands may be anything.
    if (count != 3) return std::nullopt;
    const std::optional<ConstantPool::Value> c = pool.Get(operand_ids[0]);
    if (!c || !pool.IsBool(c->type)) return std::nullopt;
    return c->bits != 0 ? operand_ids[1] : operand_ids[2];
  }
  ConstantPool::Value v[2];
  if (count > 2) return std::nullopt;
  for (size_t i = 0; i < count; ++i) {
    const std::optional<ConstantPool::Value> value = pool.Get(operand_ids[i]);
    if (!value) return std::nullopt;
    v[i] = *value;
  }
  const uint32_t width = pool.IntWidth(type);
  const bool to_bool = pool.IsBool(type);
  if (width == 0 && !to_bool) return std::nullopt;
  // Operands of the integer operations share one width (validation requires it); it is checked
  // so that a module that reaches the loader unvalidated folds nothing wrongly.
  const uint32_t w0 = pool.IntWidth(v[0].type);
  const bool same_width = count == 2 && w0 != 0 && pool.IntWidth(v[1].type) == w0;
  const bool bools = count >= 1 && pool.IsBool(v[0].type) && (count == 1 || pool.IsBool(v[1].type));
  const uint64_t a = v[0].bits, b = v[1].bits;
  const int64_t sa = w0 != 0 ? SignExtend(a, w0) : 0, sb = w0 != 0 ? SignExtend(b, w0) : 0;
  auto integer = [&](uint64_t bits) -> std::optional<uint32_t> {
    if (width == 0) return std::nullopt;
    return pool.Make(type, bits);
  };
  auto boolean = [&](bool value) -> std::optional<uint32_t> {
    if (!to_bool) return std::nullopt;
    return pool.Make(type, value ? 1 : 0);
  };
  switch (op) {
    case spv::Op::OpIAdd:
      if (same_width && w0 == width) return integer(a + b);
      return std::nullopt;
    case spv::Op::OpISub:
      if (same_width && w0 == width) return integer(a - b);
      return std::nullopt;
    case spv::Op::OpIMul:
      if (same_width && w0 == width) return integer(a * b);
      return std::nullopt;
    case spv::Op::OpBitwiseAnd:
      if (same_width && w0 == width) return integer(a & b);
      return std::nullopt;
    case spv::Op::OpBitwiseOr:
      if (same_width && w0 == width) return integer(a | b);
      return std::nullopt;
    case spv::Op::OpBitwiseXor:
      if (same_width && w0 == width) return integer(a ^ b);
      return std::nullopt;
    case spv::Op::OpNot:
      if (count == 1 && w0 == width) return integer(~a);
      return std::nullopt;
    case spv::Op::OpSNegate:
      if (count == 1 && w0 == width) return integer(uint64_t{0} - a);
      return std::nullopt;
    case spv::Op::OpSConvert:
      if (count == 1 && w0 != 0) return integer(static_cast<uint64_t>(sa));
      return std::nullopt;
    case spv::Op::OpUConvert:
      if (count == 1 && w0 != 0) return integer(a);
      return std::nullopt;
    case spv::Op::OpIEqual:
      return same_width ? boolean(a == b) : std::nullopt;
    case spv::Op::OpINotEqual:
      return same_width ? boolean(a != b) : std::nullopt;
    case spv::Op::OpULessThan:
      return same_width ? boolean(a < b) : std::nullopt;
    case spv::Op::OpULessThanEqual:
      return same_width ? boolean(a <= b) : std::nullopt;
    case spv::Op::OpUGreaterThan:
      return same_width ? boolean(a > b) : std::nullopt;
    case spv::Op::OpUGreaterThanEqual:
      return same_width ? boolean(a >= b) : std::nullopt;
    case spv::Op::OpSLessThan:
      return same_width ? boolean(sa < sb) : std::nullopt;
    case spv::Op::OpSLessThanEqual:
      return same_width ? boolean(sa <= sb) : std::nullopt;
    case spv::Op::OpSGreaterThan:
      return same_width ? boolean(sa > sb) : std::nullopt;
    case spv::Op::OpSGreaterThanEqual:
      return same_width ? boolean(sa >= sb) : std::nullopt;
    case spv::Op::OpLogicalNot:
      return count == 1 && bools ? boolean(a == 0) : std::nullopt;
    case spv::Op::OpLogicalAnd:
      return count == 2 && bools ? boolean(a != 0 && b != 0) : std::nullopt;
    case spv::Op::OpLogicalOr:
      return count == 2 && bools ? boolean(a != 0 || b != 0) : std::nullopt;
    case spv::Op::OpLogicalEqual:
      return count == 2 && bools ? boolean(a == b) : std::nullopt;
    case spv::Op::OpLogicalNotEqual:
      return count == 2 && bools ? boolean(a != b) : std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace xmx::interp
