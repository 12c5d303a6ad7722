// What works on each element of the slice: fills, element access (CompositeExtract / Insert and
// access chains into a matrix variable; element i of an invocation is element i of its slice,
// DECISIONS.md 15), arithmetic and conversions, and OpCooperativeMatrixGetElementCoordINTEL.
#include "opt/lower_cooperative_matrix_lowering.hpp"

namespace xmx::opt::lower_coop {
namespace {

// Applies `opcode` piece by piece (the whole value for a scalar or vector slice, each chunk or
// element of an array): `operands` are slice values of reps with the same shape as `result`, or
// (scalar_operand) one scalar passed unchanged.
uint32_t PieceWise(Lowering& l, spv::Op opcode, const LaneRep& result,
                   const std::vector<std::pair<uint32_t, const LaneRep*>>& operands) {
  Builder& b = l.b;
  if (result.kind == LaneKind::kScalar || result.kind == LaneKind::kVector) {
    std::vector<uint32_t> ids;
    for (const auto& [id, rep] : operands) ids.push_back(id);
    return b.OpSpan(opcode, result.type_id, ids);
  }
  std::vector<uint32_t> pieces;
  for (uint32_t p = 0; p < result.pieces(); ++p) {
    std::vector<uint32_t> ids;
    for (const auto& [id, rep] : operands) {
      if (rep == nullptr) {
        ids.push_back(id);
        continue;
      }
      const uint32_t index[] = {p};
      ids.push_back(b.Extract(rep->piece_type, id, index));
    }
    pieces.push_back(b.OpSpan(opcode, result.piece_type, ids));
  }
  return b.OpSpan(spv::Op::OpCompositeConstruct, result.type_id, pieces);
}

uint32_t Splat(Lowering& l, const LaneRep& rep, uint32_t scalar) {
  std::vector<ElementSource> srcs(rep.length, ElementSource{scalar, 0, 0});
  return Assemble(l.b, rep, srcs);
}

bool ElementAccessChain(Lowering& l, const ir::Instruction& inst, uint32_t* result) {
  Builder& b = l.b;
  const ir::Instruction* pointer_type = b.TypeInstruction(b.ValueType(inst.word(0)));
  const MatrixType* m = pointer_type ? l.MatrixOfType(pointer_type->word(1)) : nullptr;
  if (!m) return l.Fail("an access chain through a matrix that is not its base");
  if (inst.num_operands() != 2) {
    return l.Fail("an access chain into a matrix variable with other than one index");
  }
  const uint32_t index = inst.word(1);
  std::vector<uint32_t> indices;
  switch (m->rep.kind) {
    case LaneKind::kScalar:
      *result = inst.word(0);
      return true;
    case LaneKind::kChunks: {
      const uint32_t type = b.ValueType(index);
      const uint32_t bits = b.TypeBits(type);
      indices.push_back(b.Op(spv::Op::OpUDiv, type, {index, b.UIntConstant(bits, 16)}));
      indices.push_back(b.Op(spv::Op::OpUMod, type, {index, b.UIntConstant(bits, 16)}));
      break;
    }
    default:
      indices.push_back(index);
      break;
  }
  std::vector<uint32_t> ids = {inst.word(0)};
  ids.insert(ids.end(), indices.begin(), indices.end());
  *result = b.OpSpan(inst.opcode(), inst.result_type_id(), ids);
  return true;
}

// OpCooperativeMatrixGetElementCoordINTEL: (row, column) of element Index of this invocation,
// the mapping's formula evaluated with the run-time index and lane.
uint32_t ElementCoord(Lowering& l, const MatrixType& m, uint32_t result_type, uint32_t index) {
  Builder& b = l.b;
  const ElementMapping& map = m.mapping;
  const uint32_t u32 = b.IntType(32);
  auto c = [&](uint32_t v) { return b.UIntConstant(32, v); };
  uint32_t idx = index;
  if (b.TypeBits(b.ValueType(index)) != 32) idx = b.Op(spv::Op::OpUConvert, u32, {index});
  const uint32_t lane = b.LaneId();
  const uint32_t t = b.Op(spv::Op::OpUDiv, u32, {idx, c(map.fields())});
  const uint32_t rows_per_block = map.rows() / map.row_phases();
  const uint32_t row =
      b.Op(spv::Op::OpIAdd, u32,
           {b.Op(spv::Op::OpIMul, u32,
                 {b.Op(spv::Op::OpUMod, u32, {t, c(rows_per_block)}), c(map.row_phases())}),
            b.Op(spv::Op::OpUDiv, u32, {lane, c(map.lanes_per_row())})});
  const uint32_t block =
      b.Op(spv::Op::OpIMul, u32,
           {b.Op(spv::Op::OpUDiv, u32, {t, c(rows_per_block)}), c(map.block_columns())});
  const uint32_t within =
      b.Op(spv::Op::OpIMul, u32,
           {b.Op(spv::Op::OpUMod, u32, {lane, c(map.lanes_per_row())}), c(map.fields())});
  const uint32_t column = b.Op(spv::Op::OpIAdd, u32,
                               {b.Op(spv::Op::OpIAdd, u32, {block, within}),
                                b.Op(spv::Op::OpUMod, u32, {idx, c(map.fields())})});
  return b.Op(spv::Op::OpCompositeConstruct, result_type, {row, column});
}

}  // namespace

bool LowerElementwise(Lowering& l, const ir::Instruction& inst, uint32_t* result) {
  Builder& b = l.b;
  const MatrixType* out = inst.has_result_type() ? l.MatrixOfType(inst.result_type_id()) : nullptr;
  switch (inst.opcode()) {
    case spv::Op::OpCompositeConstruct: {
      if (!out || inst.num_operands() != 1) {
        return l.Fail("OpCompositeConstruct of a matrix needs exactly one constituent");
      }
      *result = Splat(l, out->rep, inst.word(0));
      return true;
    }
    case spv::Op::OpCompositeExtract: {
      const MatrixType* m = l.MatrixOfValue(inst.word(0));
      if (!m || inst.num_operands() != 2) return l.Fail("OpCompositeExtract of a matrix element");
      const std::vector<uint32_t> path = IndexPath(m->rep, inst.word(1));
      if (inst.word(1) >= m->rep.length) return l.Fail("element index past the slice");
      *result = path.empty() ? inst.word(0) : b.Extract(inst.result_type_id(), inst.word(0), path);
      return true;
    }
    case spv::Op::OpCompositeInsert: {
      if (!out || inst.num_operands() != 3) return l.Fail("OpCompositeInsert of a matrix element");
      if (inst.word(2) >= out->rep.length) return l.Fail("element index past the slice");
      const std::vector<uint32_t> path = IndexPath(out->rep, inst.word(2));
      *result = path.empty() ? inst.word(0)
                             : b.Insert(out->rep.type_id, inst.word(0), inst.word(1), path);
      return true;
    }
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
      return ElementAccessChain(l, inst, result);
    case spv::Op::OpCooperativeMatrixGetElementCoordINTEL: {
      const MatrixType* m = l.MatrixOfValue(inst.word(0));
      if (!m) return l.Fail("GetElementCoordINTEL of a value that is not a matrix");
      *result = ElementCoord(l, *m, inst.result_type_id(), inst.word(1));
      return true;
    }
    case spv::Op::OpMatrixTimesScalar: {
      const MatrixType* m = l.MatrixOfValue(inst.word(0));
      if (!out || !m) return l.Fail("OpMatrixTimesScalar of a value that is not a matrix");
      const spv::Op op = out->is_float ? spv::Op::OpFMul : spv::Op::OpIMul;
      const uint32_t scalar = Splat(l, out->rep, inst.word(1));
      *result = PieceWise(l, op, out->rep, {{inst.word(0), &m->rep}, {scalar, &out->rep}});
      return true;
    }
    default:
      break;
  }
  if (!out) return l.Fail("an element-wise instruction whose result is not a matrix");
  std::vector<std::pair<uint32_t, const LaneRep*>> operands;
  for (size_t i = 0; i < inst.num_operands(); ++i) {
    const MatrixType* m = l.MatrixOfValue(inst.word(i));
    if (!m || m->rep.length != out->rep.length) {
      return l.Fail("an element-wise operand is not a matrix of the result's shape");
    }
    operands.emplace_back(inst.word(i), &m->rep);
  }
  *result = PieceWise(l, inst.opcode(), out->rep, operands);
  return true;
}

}  // namespace xmx::opt::lower_coop
