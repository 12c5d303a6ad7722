// OpSubgroupMatrixMultiplyAccumulateINTEL for devices without the row (emulate_xmx.hpp): where
// the instruction stood, every invocation broadcasts its A operand to the others and calls a
// function, written once per operand types, that computes the invocation's column of the result.
#include "opt/emulate_xmx_matrix.hpp"

#include <string>

#include "opt/emulate_xmx.hpp"

namespace xmx::opt::emulate_detail {
namespace {

using spv::Op;

constexpr uint32_t kSubgroupScope = 3;

struct OperandType {
  uint32_t id = 0;
  uint32_t count = 1;  // components (1 for a scalar)
  uint32_t bits = 0;   // component width
  bool is_float = false;
};

std::optional<OperandType> DecodeOperandType(const ir::TypeTable& types, uint32_t type_id) {
  OperandType t;
  t.id = type_id;
  const ir::Type* type = types.GetType(type_id);
  if (type != nullptr && type->kind == ir::TypeKind::kVector) {
    t.count = type->count;
    type = types.GetType(type->element);
  }
  if (type == nullptr || (type->kind != ir::TypeKind::kInt && type->kind != ir::TypeKind::kFloat) ||
      (type->width != 16 && type->width != 32)) {
    return std::nullopt;
  }
  t.bits = type->width;
  t.is_float = type->kind == ir::TypeKind::kFloat;
  return t;
}

// The element format of A (a == true) or B from the operand mask (SPEC-NOTES B.2) and the
// component type.
std::optional<MatrixElement> ElementOf(uint32_t mask, const OperandType& t, bool a,
                                       std::string* why_not) {
  const uint32_t shift = a ? 0 : 1;  // the B bits are the A bits shifted left by one
  const bool is_signed = (mask & (a ? 0x1u : 0x2u)) != 0;
  const uint32_t interpretation = mask & ~0xFu;
  const char* operand = a ? "Matrix A" : "Matrix B";
  if (interpretation & (0x10u << shift)) return is_signed ? MatrixElement::kS8 : MatrixElement::kU8;
  if (interpretation & (0x40u << shift)) return is_signed ? MatrixElement::kS4 : MatrixElement::kU4;
  if (interpretation & (0x400u << shift)) return MatrixElement::kF16;
  if (interpretation & (0x1000u << shift)) return MatrixElement::kBF16;
  if (interpretation & (0x100u << shift)) return MatrixElement::kTF32;
  if (interpretation & (0x4000u << shift)) return MatrixElement::kF8E4M3;
  if (interpretation & (0x10000u << shift)) return MatrixElement::kF8E5M2;
  if (interpretation & (0x40000u << shift)) return MatrixElement::kF4E2M1;
  if (t.is_float && t.bits == 16) return MatrixElement::kF16;
  *why_not = std::string(operand) + " has no interpretation this pass emulates (mask 0x" +
             [](uint32_t v) {
               char text[16];
               std::snprintf(text, sizeof text, "%X", v);
               return std::string(text);
             }(mask) +
             ")";
  return std::nullopt;
}

bool IsIntegerElement(MatrixElement e) {
  return e == MatrixElement::kS8 || e == MatrixElement::kU8 || e == MatrixElement::kS4 ||
         e == MatrixElement::kU4;
}

}  // namespace

bool EmulateMatrixMad(EmulationContext& context, ir::Function& function, ir::BasicBlock& block,
                      ir::InstructionList::iterator inst, uint32_t subgroup_size,
                      std::string* why_not) {
  const ir::TypeTable& types = context.types();
  ModuleBuilder& b = context.builder();
  if (inst->num_operands() < 4) {
    *why_not = "it has fewer than the 4 operands of B.1";
    return false;
  }
  const std::optional<uint32_t> k = types.GetConstantUInt32(inst->word(0));
  if (!k || *k == 0 || *k > 256) {
    *why_not = "K Dim is not a constant from 1 to 256";
    return false;
  }
  const uint32_t mask = inst->num_operands() > 4 ? inst->word(4) : 0;
  const std::optional<OperandType> result = DecodeOperandType(types, inst->result_type_id());
  const std::optional<OperandType> a = DecodeOperandType(types, context.TypeOf(inst->word(1)));
  const std::optional<OperandType> bt = DecodeOperandType(types, context.TypeOf(inst->word(2)));
  const std::optional<OperandType> c = DecodeOperandType(types, context.TypeOf(inst->word(3)));
  if (!result || !a || !bt || !c) {
    *why_not = "an operand is not a scalar or vector of 16- or 32-bit numbers";
    return false;
  }
  MatrixMadPlan plan;
  plan.subgroup_size = subgroup_size;
  plan.k = *k;
  plan.m = result->count;
  if (c->count != plan.m) {
    *why_not = "C and Result do not have the same number of components";
    return false;
  }
  const std::optional<MatrixElement> a_element = ElementOf(mask, *a, true, why_not);
  if (!a_element) return false;
  const std::optional<MatrixElement> b_element = ElementOf(mask, *bt, false, why_not);
  if (!b_element) return false;
  plan.a = *a_element;
  plan.b = *b_element;
  const bool integer = IsIntegerElement(plan.a);
  if (integer != IsIntegerElement(plan.b)) {
    *why_not = "A and B are not both integers or both floats";
    return false;
  }
  // C and Result formats.
  auto accumulator = [&](const OperandType& t, bool bf16_bit) -> std::optional<MatrixAccumulator> {
    if (!t.is_float && t.bits == 32) return MatrixAccumulator::kInt32;
    if (t.is_float && t.bits == 32) return MatrixAccumulator::kFloat32;
    if (t.is_float && t.bits == 16) return MatrixAccumulator::kFloat16;
    if (!t.is_float && t.bits == 16 && bf16_bit) return MatrixAccumulator::kBFloat16;
    return std::nullopt;
  };
  const std::optional<MatrixAccumulator> c_format = accumulator(*c, (mask & 0x4) != 0);
  const std::optional<MatrixAccumulator> r_format = accumulator(*result, (mask & 0x8) != 0);
  if (!c_format || !r_format || (integer != (*c_format == MatrixAccumulator::kInt32)) ||
      (integer != (*r_format == MatrixAccumulator::kInt32))) {
    *why_not = "C or Result is not the accumulator the A and B data call for";
    return false;
  }
  plan.c = *c_format;
  plan.result = *r_format;
  plan.a_component_bits = a->bits;
  plan.b_components = bt->count;
  const uint32_t element_bits = MatrixElementBits(plan.a);
  if (MatrixElementBits(plan.b) != element_bits || bt->bits != 32) {
    *why_not = "B is not packed in 32-bit components of A's element width";
    return false;
  }
  const uint32_t per_component = a->bits / element_bits;
  const uint32_t per_word = 32 / element_bits;
  plan.rows_per_invocation = result->count;
  plan.a_components = a->count;
  if (subgroup_size == 32 && per_component * 16 == plan.k && bt->count * per_word * 2 == plan.k &&
      a->count == result->count) {
    plan.paired = true;
    plan.m = 2 * result->count;
    plan.lane_id_variable = context.LaneIdVariable();
  } else {
    // Invocations N x c cover K columns g times over: g row phases (B.4; tf32 at size 16).
    if (per_component == 0 || plan.k % per_component != 0 ||
        (subgroup_size * per_component) % plan.k != 0) {
      *why_not = "K Dim " + std::to_string(plan.k) +
                 " does not divide the subgroup size times the " + std::to_string(per_component) +
                 " elements of an A component";
      return false;
    }
    plan.a_phases = subgroup_size * per_component / plan.k;
    if (a->count != (plan.m + plan.a_phases - 1) / plan.a_phases) {
      *why_not = "A has " + std::to_string(a->count) + " components, not M / " +
                 std::to_string(plan.a_phases) + " rounded up";
      return false;
    }
    if (plan.b_components * per_word < plan.k) {
      *why_not = "B has fewer than K Dim rows";
      return false;
    }
  }

  // The broadcast operand: A's components widened to 32 bits.
  const uint32_t i32 = b.IntType(32);
  const uint32_t a32 = a->count == 1 ? i32 : b.VectorType(i32, a->count);
  const uint32_t all_a = b.ArrayType(a32, subgroup_size);
  // Paired: every invocation's B too, as 32-bit words.
  const uint32_t b32 = bt->count == 1 ? i32 : b.VectorType(i32, bt->count);
  const uint32_t all_b = b.ArrayType(b32, subgroup_size);
  std::string key =
      std::string(plan.paired ? "paired " : "") + "matrix " + std::to_string(subgroup_size) + " " +
      std::to_string(plan.k) + " " + std::to_string(mask) + " %" + std::to_string(a32) + " %" +
      std::to_string(bt->id) + " %" + std::to_string(c->id) + " %" + std::to_string(result->id);
  uint32_t& helper = context.helpers()[key];
  const std::vector<uint32_t> parameter_types{
      b.PointerType(spv::StorageClass::Function, all_a),
      b.PointerType(spv::StorageClass::Function, plan.paired ? all_b : bt->id),
      b.PointerType(spv::StorageClass::Function, c->id),
      b.PointerType(spv::StorageClass::Function, result->id)};
  if (helper == 0) {
    std::vector<uint32_t> params;
    ir::Function& emulation = context.NewFunction(parameter_types, &params);
    CodeBuilder code(b, emulation, emulation.blocks.front());
    WriteMatrixMadBody(code, plan, params);
    helper = emulation.id();
  }

  CodeBuilder here(b, function, block, inst);
  uint32_t a_value = inst->word(1);
  if (a->is_float) {  // the bits of fp16 or tf32 components
    const uint32_t bits = b.IntType(a->bits);
    a_value =
        here.Op(Op::OpBitcast, a->count == 1 ? bits : b.VectorType(bits, a->count), {a_value});
  }
  if (a->bits != 32) a_value = here.Op(Op::OpUConvert, a32, {a_value});
  b.RequireCapability(spv::Capability::Groups);
  const uint32_t a_all = here.Variable(all_a);
  const uint32_t b_var = here.Variable(plan.paired ? all_b : bt->id);
  const uint32_t c_var = here.Variable(c->id);
  const uint32_t result_var = here.Variable(result->id);
  const uint32_t a32_pointer = b.PointerType(spv::StorageClass::Function, a32);
  for (uint32_t lane = 0; lane < subgroup_size; ++lane) {
    const uint32_t shared =
        here.Op(Op::OpGroupBroadcast, a32, {here.I32(kSubgroupScope), a_value, here.I32(lane)});
    here.Store(here.Op(Op::OpInBoundsAccessChain, a32_pointer, {a_all, here.I32(lane)}), shared);
  }
  if (plan.paired) {
    uint32_t b_value = inst->word(2);
    if (bt->is_float) b_value = here.Op(Op::OpBitcast, b32, {b_value});
    const uint32_t b32_pointer = b.PointerType(spv::StorageClass::Function, b32);
    for (uint32_t lane = 0; lane < subgroup_size; ++lane) {
      const uint32_t shared =
          here.Op(Op::OpGroupBroadcast, b32, {here.I32(kSubgroupScope), b_value, here.I32(lane)});
      here.Store(here.Op(Op::OpInBoundsAccessChain, b32_pointer, {b_var, here.I32(lane)}), shared);
    }
  } else {
    here.Store(b_var, inst->word(2));
  }
  here.Store(c_var, inst->word(3));
  here.Op(Op::OpFunctionCall, b.VoidType(), {helper, a_all, b_var, c_var, result_var});
  // The result keeps its id, so its uses need no change.
  ir::Instruction load(Op::OpLoad, inst->result_type_id(), inst->result_id());
  load.AddIdOperand(result_var);
  load.debug_lines() = std::move(inst->debug_lines());
  *inst = std::move(load);
  return true;
}

}  // namespace xmx::opt::emulate_detail
