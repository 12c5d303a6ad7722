// 2D block loads and stores as plain per-invocation loads and stores (emulate_xmx.hpp): one
// function per shape and operand types, called where the instruction stood.
#include <bit>
#include <string>

#include "device/block2d_classes.hpp"
#include "ir/block2d_operands.hpp"
#include "opt/emulate_xmx.hpp"

namespace xmx::opt::emulate_detail {
namespace {

using spv::Op;

// The emulation function's parameters, in this order whatever the instruction's encoding order
// (ir::DecodeBlock2dOperands finds each by its role): the surface's base pointer, width, height
// and pitch, the coordinate, and the private pointer (a load's destination, a store's source).
struct EmulationParams {
  uint32_t base, width, height, pitch, coordinate, private_pointer;
};

// The payload mapping of A.5 for one block, at one subgroup size.
struct PayloadMap {
  device::Block2dOp op;
  uint32_t e, w, h, count, sg;
  uint32_t rows = 0;        // of the pre-processed block
  uint32_t row_units = 0;   // RW: units per pre-processed row (a power of two)
  uint32_t unit_bytes = 0;  // E, or 4 after the transform
  uint32_t units_per_lane_row = 0, rows_per_slot = 0, slots = 0;
  uint32_t lane_units_per_block = 0;  // units one invocation holds of one block
};

PayloadMap MapOf(device::Block2dOp op, uint32_t e, uint32_t w, uint32_t h, uint32_t count,
                 uint32_t sg) {
  PayloadMap m{op, e, w, h, count, sg};
  switch (op) {
    case device::Block2dOp::kLoadTransform:
      m.rows = (h + 4 / e - 1) / (4 / e);
      m.row_units = std::bit_ceil(w);
      m.unit_bytes = 4;
      break;
    case device::Block2dOp::kLoadTranspose:
      m.rows = w;
      m.row_units = std::bit_ceil(h);
      m.unit_bytes = e;
      break;
    default:
      m.rows = h;
      m.row_units = std::bit_ceil(w);
      m.unit_bytes = e;
      break;
  }
  m.units_per_lane_row = std::max(m.row_units / sg, 1u);
  m.rows_per_slot = std::max(sg / m.row_units, 1u);
  m.slots = (m.rows + m.rows_per_slot - 1) / m.rows_per_slot;
  m.lane_units_per_block = m.slots * m.units_per_lane_row;
  return m;
}

// The body of the emulation function: for each unit j of the invocation's payload, the memory
// elements it holds, each moved when in bounds (loads write zero otherwise).
void WriteBody(EmulationContext& context, CodeBuilder& code, const PayloadMap& m,
               const std::vector<uint32_t>& params, const std::vector<uint32_t>& param_types) {
  ModuleBuilder& b = context.builder();
  const ir::TypeTable& types = context.types();
  const bool store = m.op == device::Block2dOp::kStore;
  const uint32_t i32 = b.IntType(32), i64 = b.IntType(64), bool_type = b.BoolType();
  const uint32_t element_type = b.IntType(m.e * 8);
  const uint32_t global_i8 = b.PointerType(spv::StorageClass::CrossWorkgroup, b.IntType(8));
  const uint32_t private_i8 = b.PointerType(spv::StorageClass::Function, b.IntType(8));
  const uint32_t global_element = b.PointerType(spv::StorageClass::CrossWorkgroup, element_type);
  const uint32_t private_element = b.PointerType(spv::StorageClass::Function, element_type);
  const EmulationParams p{params[0], params[1], params[2], params[3], params[4], params[5]};
  const uint32_t base_type = param_types[0];
  const uint32_t private_type = param_types[5];
  auto as = [&](uint32_t pointer, uint32_t from, uint32_t to) {
    return from == to ? pointer : code.Op(Op::OpBitcast, to, {pointer});
  };
  // Integers as signed 64-bit values (OpenCL passes them as int).
  auto widen = [&](uint32_t value, uint32_t type_id) {
    const ir::Type* type = types.GetType(type_id);
    if (type != nullptr && type->width == 64) return value;
    return code.Op(Op::OpSConvert, i64, {value});
  };
  const ir::Type* coordinate_type = types.GetType(param_types[4]);
  const uint32_t coordinate_component = coordinate_type != nullptr ? coordinate_type->element : i32;

  const uint32_t lane = code.Load(i32, context.LaneIdVariable());
  const uint32_t base = as(p.base, base_type, global_i8);
  const uint32_t private_bytes = as(p.private_pointer, private_type, private_i8);
  const uint32_t width = widen(p.width, param_types[1]);
  const uint32_t height = widen(p.height, param_types[2]);
  const uint32_t pitch = widen(p.pitch, param_types[3]);
  const uint32_t x0 =
      widen(code.Op(Op::OpCompositeExtract, coordinate_component, {p.coordinate, 0}),
            coordinate_component);
  const uint32_t y0 =
      widen(code.Op(Op::OpCompositeExtract, coordinate_component, {p.coordinate, 1}),
            coordinate_component);
  // Elements of a row in bounds: Memory Width in whole elements.
  const uint32_t width_elements =
      code.Op(Op::OpShiftRightArithmetic, i64, {width, code.I64(std::countr_zero(m.e))});
  const uint32_t zero64 = code.I64(0);

  const uint32_t total_units = m.count * m.lane_units_per_block;
  code.For(code.I32(0), code.I32(total_units), [&](uint32_t j) {
    const uint32_t block = code.Op(Op::OpUDiv, i32, {j, code.I32(m.lane_units_per_block)});
    const uint32_t unit = code.Op(Op::OpUMod, i32, {j, code.I32(m.lane_units_per_block)});
    uint32_t row, column, row_exists;
    if (m.row_units >= m.sg) {  // A.5 case 1 / 3: a row spreads over the whole subgroup
      const uint32_t slot = code.Op(Op::OpUDiv, i32, {unit, code.I32(m.units_per_lane_row)});
      const uint32_t q = code.Op(Op::OpUMod, i32, {unit, code.I32(m.units_per_lane_row)});
      row = slot;
      column = code.Op(Op::OpIAdd, i32,
                       {code.Op(Op::OpIMul, i32, {lane, code.I32(m.units_per_lane_row)}), q});
      row_exists = b.BoolConstant(true);
    } else {  // case 2: a slot holds several rows, consecutive invocations one row each
      row = code.Op(Op::OpIAdd, i32,
                    {code.Op(Op::OpIMul, i32, {unit, code.I32(m.rows_per_slot)}),
                     code.Op(Op::OpUDiv, i32, {lane, code.I32(m.row_units)})});
      column = code.Op(Op::OpUMod, i32, {lane, code.I32(m.row_units)});
      row_exists = code.Op(Op::OpULessThan, bool_type, {row, code.I32(m.rows)});
    }
    const uint32_t elements_per_unit = m.op == device::Block2dOp::kLoadTransform ? 4 / m.e : 1;
    for (uint32_t t = 0; t < elements_per_unit; ++t) {
      uint32_t memory_row = row, memory_column = column;
      if (m.op == device::Block2dOp::kLoadTransform) {
        memory_row = code.Op(Op::OpIAdd, i32,
                             {code.Op(Op::OpIMul, i32, {row, code.I32(4 / m.e)}), code.I32(t)});
      } else if (m.op == device::Block2dOp::kLoadTranspose) {
        memory_row = column;
        memory_column = row;
      }
      // Padding (rows or columns past the block's own) is never memory.
      uint32_t real =
          code.Op(Op::OpLogicalAnd, bool_type,
                  {row_exists, code.Op(Op::OpULessThan, bool_type, {memory_row, code.I32(m.h)})});
      real = code.Op(Op::OpLogicalAnd, bool_type,
                     {real, code.Op(Op::OpULessThan, bool_type, {memory_column, code.I32(m.w)})});
      // Block `block` starts Block Width elements after the one before it (A.5 step 4).
      const uint32_t x = code.Op(
          Op::OpIAdd, i64,
          {x0,
           code.Op(Op::OpUConvert, i64,
                   {code.Op(Op::OpIAdd, i32,
                            {code.Op(Op::OpIMul, i32, {block, code.I32(m.w)}), memory_column})})});
      const uint32_t y = code.Op(Op::OpIAdd, i64, {y0, code.Op(Op::OpUConvert, i64, {memory_row})});
      uint32_t inside = real;
      for (auto [op, a, bound] : {std::tuple{Op::OpSGreaterThanEqual, x, zero64},
                                  std::tuple{Op::OpSLessThan, x, width_elements},
                                  std::tuple{Op::OpSGreaterThanEqual, y, zero64},
                                  std::tuple{Op::OpSLessThan, y, height}}) {
        inside = code.Op(Op::OpLogicalAnd, bool_type, {inside, code.Op(op, bool_type, {a, bound})});
      }
      const uint32_t private_offset =
          code.Op(Op::OpIAdd, i32,
                  {code.Op(Op::OpIMul, i32, {j, code.I32(m.unit_bytes)}), code.I32(t * m.e)});
      const uint32_t private_element_pointer =
          as(code.PtrAdd(private_i8, private_bytes, private_offset), private_i8, private_element);
      auto global_element_pointer = [&]() {
        const uint32_t offset = code.Op(
            Op::OpIAdd, i64,
            {code.Op(Op::OpIMul, i64, {y, pitch}), code.Op(Op::OpIMul, i64, {x, code.I64(m.e)})});
        return as(code.PtrAdd(global_i8, base, offset), global_i8, global_element);
      };
      if (store) {
        code.If(inside, [&]() {
          code.Store(global_element_pointer(), code.Load(element_type, private_element_pointer));
        });
      } else {
        code.Store(private_element_pointer, code.Int(m.e * 8, 0));
        code.If(inside, [&]() {
          code.Store(private_element_pointer, code.Load(element_type, global_element_pointer()));
        });
      }
    }
  });
  code.Return();
}

}  // namespace

bool EmulateBlock2d(EmulationContext& context, ir::Function& function, ir::BasicBlock& block,
                    ir::InstructionList::iterator inst, uint32_t subgroup_size,
                    std::string* why_not) {
  const ir::TypeTable& types = context.types();
  const std::optional<ir::Block2dOperands> decoded = ir::DecodeBlock2dOperands(*inst);
  const std::optional<device::Block2dOp> class_op =
      decoded ? device::Block2dOpOf(decoded->positions->op_class) : std::nullopt;
  if (!class_op || *class_op == device::Block2dOp::kPrefetch) {
    *why_not = "not a 2D block load or store";
    return false;
  }
  const device::Block2dOp op = *class_op;
  if (inst->num_operands() != decoded->positions->operand_count) {
    *why_not = "it does not have the " + std::to_string(decoded->positions->operand_count) +
               " operands of A.2";
    return false;
  }
  uint32_t dims[4];
  const uint32_t dim_ids[] = {decoded->element_size, decoded->block_width, decoded->block_height,
                              decoded->block_count};
  const char* names[] = {"Element Size", "Block Width", "Block Height", "Block Count"};
  for (int i = 0; i < 4; ++i) {
    const std::optional<uint32_t> value = types.GetConstantUInt32(dim_ids[i]);
    if (!value || *value == 0 || *value > 64) {
      *why_not = std::string(names[i]) + " is not a constant from 1 to 64";
      return false;
    }
    dims[i] = *value;
  }
  const uint32_t e = dims[0];
  if (e != 1 && e != 2 && e != 4 && e != 8) {
    *why_not = "Element Size " + std::to_string(e) + " is not 1, 2, 4 or 8";
    return false;
  }
  if (op == device::Block2dOp::kLoadTransform && e > 2) {
    *why_not = "LoadTransform of " + std::to_string(e) + "-byte elements";
    return false;
  }
  if (!std::has_single_bit(subgroup_size)) {
    *why_not = "subgroup size " + std::to_string(subgroup_size) + " is not a power of two";
    return false;
  }
  // In EmulationParams' order.
  const std::vector<uint32_t> operands = {decoded->base_pointer,  decoded->memory_width,
                                          decoded->memory_height, decoded->memory_pitch,
                                          decoded->coordinate,    decoded->private_pointer};
  std::vector<uint32_t> operand_types;
  for (uint32_t id : operands) {
    operand_types.push_back(context.TypeOf(id));
    if (operand_types.back() == 0) {
      *why_not = "operand %" + std::to_string(id) + " has no known type";
      return false;
    }
  }
  std::string key = "block2d " + std::to_string(static_cast<int>(op));
  for (uint32_t v : {dims[0], dims[1], dims[2], dims[3], subgroup_size}) {
    key += " " + std::to_string(v);
  }
  for (uint32_t t : operand_types) key += " %" + std::to_string(t);
  uint32_t& helper = context.helpers()[key];
  if (helper == 0) {
    std::vector<uint32_t> params;
    ir::Function& emulation = context.NewFunction(operand_types, &params);
    CodeBuilder code(context.builder(), emulation, emulation.blocks.front());
    WriteBody(context, code, MapOf(op, dims[0], dims[1], dims[2], dims[3], subgroup_size), params,
              operand_types);
    helper = emulation.id();
  }
  CodeBuilder here(context.builder(), function, block, inst);
  std::vector<uint32_t> call{helper};
  call.insert(call.end(), operands.begin(), operands.end());
  here.Op(Op::OpFunctionCall, context.builder().VoidType(), call);
  std::prev(inst)->debug_lines() = std::move(inst->debug_lines());  // the call takes its place
  block.instructions.erase(inst);
  return true;
}

}  // namespace xmx::opt::emulate_detail
