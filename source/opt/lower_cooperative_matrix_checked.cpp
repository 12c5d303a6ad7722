// The checked forms of SPV_INTEL_joint_matrix: the matrix is the tile at row X offset, column Y
// offset of a Height x Width matrix at Pointer (rows and columns of the matrix in every layout);
// elements outside it load as zero and are not stored. Each invocation tests each element of its
// slice and loads or stores it only inside (a branch per element, so that no address outside the
// Height x Width matrix is ever touched); ConstructChecked selects Value or zero.
#include <algorithm>
#include <functional>

#include "grammar/grammar.hpp"
#include "opt/lower_cooperative_matrix_memory.hpp"

namespace xmx::opt::lower_coop {
namespace {

constexpr uint32_t kRowMajor = 0, kColumnMajor = 1, kPacked = 2;

struct CheckedOperands {
  uint32_t pointer = 0, x = 0, y = 0, height = 0, width = 0, layout = 0, stride = 0, value = 0;
  uint32_t object = 0;
  const MatrixType* matrix = nullptr;
};

class CheckedAccess {
 public:
  CheckedAccess(Lowering& l, const CheckedOperands& o) : l_(l), b_(l.b), o_(o), m_(*o.matrix) {}

  bool Prepare(bool memory) {
    // One index type for the arithmetic: the widest of the operands' integer types.
    uint32_t bits = 0;
    for (uint32_t id : {o_.x, o_.y, o_.height, o_.width, o_.stride}) {
      if (id != 0) bits = std::max(bits, b_.TypeBits(b_.ValueType(id)));
    }
    if (bits == 0) return l_.Fail("the checked instruction's offsets and sizes are not integers");
    index_ = b_.IntType(bits);
    // Offsets may be negative (the tile hangs over the top or left edge): sign-extended, a
    // negative row or column then compares as a huge unsigned one, outside.
    auto widen_as = [&](spv::Op op, uint32_t id) {
      return b_.TypeBits(b_.ValueType(id)) == bits ? id : b_.Op(op, index_, {id});
    };
    auto widen = [&](uint32_t id) { return widen_as(spv::Op::OpSConvert, id); };
    x_ = widen(o_.x);
    y_ = widen(o_.y);
    height_ = widen(o_.height);
    width_ = widen(o_.width);
    const ElementMapping& map = m_.mapping;
    const uint32_t u32 = b_.IntType(32);
    const uint32_t lane = b_.LaneId();
    uint32_t lane_row =
        b_.Op(spv::Op::OpUDiv, u32, {lane, b_.UIntConstant(32, map.lanes_per_row())});
    uint32_t lane_col =
        b_.Op(spv::Op::OpUMod, u32, {lane, b_.UIntConstant(32, map.lanes_per_row())});
    if (map.fields() != 1) {
      lane_col = b_.Op(spv::Op::OpIMul, u32, {lane_col, b_.UIntConstant(32, map.fields())});
    }
    row0_ = b_.Op(spv::Op::OpIAdd, index_, {x_, widen_as(spv::Op::OpUConvert, lane_row)});
    col0_ = b_.Op(spv::Op::OpIAdd, index_, {y_, widen_as(spv::Op::OpUConvert, lane_col)});
    if (!memory) return true;
    stride_ = widen(o_.stride);
    element_pointer_ = b_.PointerType(storage_, m_.component_type);
    base_ = o_.pointer;
    if (b_.TypeInstruction(b_.ValueType(o_.pointer))->word(1) != m_.component_type) {
      base_ = b_.Op(spv::Op::OpBitcast, element_pointer_, {o_.pointer});
    }
    return true;
  }

  void set_storage(spv::StorageClass storage) { storage_ = storage; }

  // Row, column and whether element `e` is inside the Height x Width matrix.
  void Place(uint32_t e, uint32_t* row, uint32_t* col, uint32_t* inside) {
    const Coord c = m_.mapping.ElementCoord(e, 0);
    const uint32_t bits = b_.TypeBits(index_);
    *row =
        c.row == 0 ? row0_ : b_.Op(spv::Op::OpIAdd, index_, {row0_, b_.UIntConstant(bits, c.row)});
    *col = c.column == 0 ? col0_
                         : b_.Op(spv::Op::OpIAdd, index_, {col0_, b_.UIntConstant(bits, c.column)});
    const uint32_t boolean = b_.BoolType();
    *inside = b_.Op(spv::Op::OpLogicalAnd, boolean,
                    {b_.Op(spv::Op::OpULessThan, boolean, {*row, height_}),
                     b_.Op(spv::Op::OpULessThan, boolean, {*col, width_})});
  }

  uint32_t ElementPointer(uint32_t row, uint32_t col) {
    const uint32_t bits = b_.TypeBits(index_);
    uint32_t offset = 0;
    switch (o_.layout) {
      case kRowMajor:
        offset =
            b_.Op(spv::Op::OpIAdd, index_, {b_.Op(spv::Op::OpIMul, index_, {row, stride_}), col});
        break;
      case kColumnMajor:
        offset =
            b_.Op(spv::Op::OpIAdd, index_, {b_.Op(spv::Op::OpIMul, index_, {col, stride_}), row});
        break;
      default: {
        const uint32_t vf = b_.UIntConstant(bits, 32 / m_.bits);
        const uint32_t packed_row = b_.Op(spv::Op::OpUDiv, index_, {row, vf});
        const uint32_t within = b_.Op(spv::Op::OpUMod, index_, {row, vf});
        offset = b_.Op(
            spv::Op::OpIAdd, index_,
            {b_.Op(spv::Op::OpIMul, index_, {packed_row, stride_}),
             b_.Op(spv::Op::OpIAdd, index_, {b_.Op(spv::Op::OpIMul, index_, {col, vf}), within})});
        break;
      }
    }
    return b_.Op(spv::Op::OpPtrAccessChain, element_pointer_, {base_, offset});
  }

 private:
  Lowering& l_;
  Builder& b_;
  const CheckedOperands& o_;
  const MatrixType& m_;
  spv::StorageClass storage_ = spv::StorageClass::CrossWorkgroup;
  uint32_t index_ = 0, x_ = 0, y_ = 0, height_ = 0, width_ = 0, stride_ = 0;
  uint32_t row0_ = 0, col0_ = 0, element_pointer_ = 0, base_ = 0;
};

bool ReadLayout(Lowering& l, CheckedOperands& o) {
  auto layout = l.ConstantValue(o.layout);
  if (!layout || *layout > kPacked) {
    return l.Fail("MemoryLayout is not a constant RowMajorKHR, ColumnMajorKHR or PackedINTEL");
  }
  o.layout = static_cast<uint32_t>(*layout);
  if (o.layout == kPacked && (o.matrix->use != MatrixUse::kB || o.matrix->bits > 16)) {
    return l.Fail("PackedINTEL is lowered only for a B matrix of 8- or 16-bit components");
  }
  if (o.stride == 0) return l.Fail("the checked load and store need a Stride here");
  return true;
}

bool StorageOf(Lowering& l, uint32_t pointer, spv::StorageClass* storage) {
  const ir::Instruction* type = l.b.TypeInstruction(l.b.ValueType(pointer));
  if (!type || type->opcode() != spv::Op::OpTypePointer) {
    return l.Fail("the Pointer operand's type is unknown");
  }
  *storage = static_cast<spv::StorageClass>(type->word(0));
  return true;
}

// 2D block IO over the Height x Width surface where it may serve (global memory, 32-bit offsets
// and sizes as the block operands are), with `per_element` as the other branch; else
// `per_element` alone. `stored` is the matrix of a store, null for a load.
uint32_t ThroughBlock2d(Lowering& l, const CheckedOperands& o, spv::StorageClass storage,
                        const MatrixType* stored, const std::function<uint32_t()>& per_element) {
  Builder& b = l.b;
  bool fits = storage == spv::StorageClass::CrossWorkgroup;
  for (uint32_t id : {o.x, o.y, o.height, o.width}) fits &= b.TypeBits(b.ValueType(id)) == 32;
  if (!fits) return per_element();
  MemoryAccess a;
  a.matrix = o.matrix;
  a.store = stored != nullptr;
  a.pointer = o.pointer;
  a.object = o.object;
  a.layout = o.layout;
  a.stride = o.stride;
  a.index_type = b.ValueType(o.stride);
  a.storage = storage;
  const CheckedBounds bounds{o.x, o.y, o.height, o.width};
  return Block2dOrPerElementChecked(l, a, bounds, per_element);
}

}  // namespace

bool LowerCheckedLoad(Lowering& l, const ir::Instruction& inst, uint32_t* result) {
  CheckedOperands o;
  o.matrix = l.MatrixOfType(inst.result_type_id());
  if (!o.matrix) return l.Fail("a checked load or construct of a type that is not a matrix");
  const MatrixType& m = *o.matrix;
  Builder& b = l.b;
  const uint32_t zero = b.NullConstant(m.component_type);
  if (inst.opcode() == spv::Op::OpCooperativeMatrixConstructCheckedINTEL) {
    std::vector<ElementSource> elements;
    o.x = inst.word(0);
    o.y = inst.word(1);
    o.height = inst.word(2);
    o.width = inst.word(3);
    CheckedAccess access(l, o);
    if (!access.Prepare(false)) return false;
    for (uint32_t e = 0; e < m.mapping.length(); ++e) {
      uint32_t row = 0, col = 0, inside = 0;
      access.Place(e, &row, &col, &inside);
      elements.push_back(
          {b.Op(spv::Op::OpSelect, m.component_type, {inside, inst.word(4), zero}), 0, 0});
    }
    *result = Assemble(b, m.rep, elements);
    return true;
  }
  o.pointer = inst.word(0);
  o.x = inst.word(1);
  o.y = inst.word(2);
  o.layout = inst.word(3);
  o.height = inst.word(4);
  o.width = inst.word(5);
  if (inst.num_operands() > 6 && grammar::IsIdKind(inst.operand(6).kind)) o.stride = inst.word(6);
  spv::StorageClass storage;
  if (!ReadLayout(l, o) || !StorageOf(l, o.pointer, &storage)) return false;
  auto per_element = [&]() -> uint32_t {
    CheckedAccess access(l, o);
    access.set_storage(storage);
    if (!access.Prepare(true)) return 0;
    std::vector<ElementSource> elements;
    for (uint32_t e = 0; e < m.mapping.length(); ++e) {
      uint32_t row = 0, col = 0, inside = 0;
      access.Place(e, &row, &col, &inside);
      const uint32_t value = Choose(
          l, inside, m.component_type,
          [&] {
            return b.Op(spv::Op::OpLoad, m.component_type, {access.ElementPointer(row, col)});
          },
          [&] { return zero; });
      elements.push_back({value, 0, 0});
    }
    return Assemble(b, m.rep, elements);
  };
  *result = ThroughBlock2d(l, o, storage, nullptr, per_element);
  return *result != 0;
}

bool LowerCheckedStore(Lowering& l, const ir::Instruction& inst) {
  CheckedOperands o;
  o.matrix = l.MatrixOfValue(inst.word(3));
  if (!o.matrix) return l.Fail("a checked store of an Object that is not a matrix");
  const MatrixType& m = *o.matrix;
  o.pointer = inst.word(0);
  o.x = inst.word(1);
  o.y = inst.word(2);
  o.layout = inst.word(4);
  o.height = inst.word(5);
  o.width = inst.word(6);
  if (inst.num_operands() > 7 && grammar::IsIdKind(inst.operand(7).kind)) o.stride = inst.word(7);
  spv::StorageClass storage;
  if (!ReadLayout(l, o) || !StorageOf(l, o.pointer, &storage)) return false;
  o.object = inst.word(3);
  Builder& b = l.b;
  auto per_element = [&]() -> uint32_t {
    CheckedAccess access(l, o);
    access.set_storage(storage);
    if (!access.Prepare(true)) return 0;
    const std::vector<ElementSource> elements = Elements(b, m.rep, inst.word(3));
    for (uint32_t e = 0; e < m.mapping.length(); ++e) {
      uint32_t row = 0, col = 0, inside = 0;
      access.Place(e, &row, &col, &inside);
      const uint32_t value = ScalarOf(b, m.component_type, elements[e]);
      Choose(
          l, inside, 0,
          [&] {
            b.Op(spv::Op::OpStore, 0, {access.ElementPointer(row, col), value});
            return 0u;
          },
          [] { return 0u; });
    }
    return 0u;
  };
  ThroughBlock2d(l, o, storage, &m, per_element);
  return l.error.empty();
}

}  // namespace xmx::opt::lower_coop
