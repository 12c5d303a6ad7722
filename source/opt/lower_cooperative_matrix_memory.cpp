// Loads and stores of cooperative matrices. Each invocation moves the elements of its slice: with
// 2D block IO where the device's block2d table has the shape and the surface allows it at run
// time (lower_cooperative_matrix_block2d.cpp), else one load or store per element at the address
// the element mapping gives (always correct: any storage class, stride, alignment).
#include "opt/lower_cooperative_matrix_memory.hpp"

#include "grammar/grammar.hpp"

namespace xmx::opt::lower_coop {
namespace {

constexpr uint32_t kRowMajor = 0, kColumnMajor = 1, kPacked = 2;

}  // namespace

std::optional<MemoryAccess> DescribeAccess(Lowering& l, const ir::Instruction& inst,
                                           const MatrixType& m) {
  MemoryAccess a;
  a.matrix = &m;
  size_t pointer = 0, layout = 1, stride = 2;
  a.store = inst.opcode() == spv::Op::OpCooperativeMatrixStoreKHR;
  if (a.store) {
    a.object = inst.word(1);
    layout = 2;
    stride = 3;
  }
  a.pointer = inst.word(pointer);
  auto layout_value = l.ConstantValue(inst.word(layout));
  if (!layout_value || *layout_value > kPacked) {
    l.Fail("MemoryLayout is not a constant RowMajorKHR, ColumnMajorKHR or PackedINTEL");
    return std::nullopt;
  }
  a.layout = static_cast<uint32_t>(*layout_value);
  if (a.layout == kPacked && (m.use != MatrixUse::kB || m.bits > 16)) {
    l.Fail("PackedINTEL is lowered only for a B matrix of 8- or 16-bit components");
    return std::nullopt;
  }
  const ir::Instruction* pointer_type = l.b.TypeInstruction(l.b.ValueType(a.pointer));
  if (!pointer_type || pointer_type->opcode() != spv::Op::OpTypePointer) {
    l.Fail("the Pointer operand's type is unknown");
    return std::nullopt;
  }
  a.storage = static_cast<spv::StorageClass>(pointer_type->word(0));
  if (inst.num_operands() > stride && grammar::IsIdKind(inst.operand(stride).kind)) {
    a.stride = inst.word(stride);
    a.index_type = l.b.ValueType(a.stride);
    if (l.b.TypeBits(a.index_type) == 0) {
      l.Fail("Stride is not an integer scalar");
      return std::nullopt;
    }
  } else {
    if (a.layout != kPacked) {
      l.Fail("RowMajorKHR and ColumnMajorKHR need a Stride");
      return std::nullopt;
    }
    a.index_type = l.b.IntType(l.b.PointerSizeBits());
    a.stride = l.b.UIntConstant(l.b.TypeBits(a.index_type), m.columns * (32 / m.bits));
  }
  return a;
}

namespace {

// Per element: the address the element mapping gives, one scalar load or store each.
class PerLaneAccess {
 public:
  PerLaneAccess(Lowering& l, const MemoryAccess& a) : l_(l), a_(a), m_(*a.matrix) {}

  bool Prepare() {
    Builder& b = l_.b;
    index_type_ = a_.index_type;
    const uint32_t bits = b.TypeBits(index_type_);
    const ElementMapping& map = m_.mapping;
    const uint32_t u32 = b.IntType(32);
    const uint32_t lane = b.LaneId();
    uint32_t lane_row = b.Op(spv::Op::OpUDiv, u32, {lane, b.UIntConstant(32, map.lanes_per_row())});
    uint32_t lane_col = b.Op(spv::Op::OpUMod, u32, {lane, b.UIntConstant(32, map.lanes_per_row())});
    if (map.fields() != 1) {
      lane_col = b.Op(spv::Op::OpIMul, u32, {lane_col, b.UIntConstant(32, map.fields())});
    }
    if (bits != 32) {
      lane_row = b.Op(spv::Op::OpUConvert, index_type_, {lane_row});
      lane_col = b.Op(spv::Op::OpUConvert, index_type_, {lane_col});
    }
    switch (a_.layout) {
      case kRowMajor:
        lane_offset_ = b.Op(spv::Op::OpIAdd, index_type_,
                            {b.Op(spv::Op::OpIMul, index_type_, {lane_row, a_.stride}), lane_col});
        break;
      case kColumnMajor:
        lane_offset_ = b.Op(spv::Op::OpIAdd, index_type_,
                            {b.Op(spv::Op::OpIMul, index_type_, {lane_col, a_.stride}), lane_row});
        break;
      default:
        // B's invocations each hold one column (lanes_per_row is the subgroup size).
        vf_ = 32 / m_.bits;
        lane_offset_ = b.Op(spv::Op::OpIMul, index_type_, {lane_col, b.UIntConstant(bits, vf_)});
        break;
    }
    element_pointer_type_ = b.PointerType(a_.storage, m_.component_type);
    base_ = a_.pointer;
    const ir::Instruction* pointer_type = b.TypeInstruction(b.ValueType(a_.pointer));
    if (pointer_type->word(1) != m_.component_type) {
      base_ = b.Op(spv::Op::OpBitcast, element_pointer_type_, {a_.pointer});
    }
    return true;
  }

  // The pointer to element `e` of the invocation's slice.
  uint32_t ElementPointer(uint32_t e) {
    Builder& b = l_.b;
    const uint32_t bits = b.TypeBits(index_type_);
    const Coord c = m_.mapping.ElementCoord(e, 0);
    uint32_t key = 0, constant = 0;
    switch (a_.layout) {
      case kRowMajor:
        key = c.row;
        constant = c.column;
        break;
      case kColumnMajor:
        key = c.column;
        constant = c.row;
        break;
      default:
        key = c.row / vf_;
        constant = vf_ * c.column + c.row % vf_;
        break;
    }
    auto it = row_starts_.find(key);
    if (it == row_starts_.end()) {
      uint32_t start = lane_offset_;
      if (key != 0) {
        const uint32_t term =
            b.Op(spv::Op::OpIMul, index_type_, {a_.stride, b.UIntConstant(bits, key)});
        start = b.Op(spv::Op::OpIAdd, index_type_, {lane_offset_, term});
      }
      it = row_starts_.emplace(key, start).first;
    }
    uint32_t offset = it->second;
    if (constant != 0) {
      offset = b.Op(spv::Op::OpIAdd, index_type_, {offset, b.UIntConstant(bits, constant)});
    }
    return b.Op(spv::Op::OpPtrAccessChain, element_pointer_type_, {base_, offset});
  }

 private:
  Lowering& l_;
  const MemoryAccess& a_;
  const MatrixType& m_;
  uint32_t index_type_ = 0, lane_offset_ = 0, element_pointer_type_ = 0, base_ = 0, vf_ = 1;
  std::map<uint32_t, uint32_t> row_starts_;
};

}  // namespace

uint32_t PerLaneLoad(Lowering& l, const MemoryAccess& a) {
  PerLaneAccess access(l, a);
  access.Prepare();
  const MatrixType& m = *a.matrix;
  std::vector<ElementSource> elements;
  for (uint32_t e = 0; e < m.mapping.length(); ++e) {
    const uint32_t pointer = access.ElementPointer(e);
    elements.push_back({l.b.Op(spv::Op::OpLoad, m.component_type, {pointer}), 0, 0});
  }
  return Assemble(l.b, m.rep, elements);
}

void PerLaneStore(Lowering& l, const MemoryAccess& a) {
  PerLaneAccess access(l, a);
  access.Prepare();
  const MatrixType& m = *a.matrix;
  const std::vector<ElementSource> elements = Elements(l.b, m.rep, a.object);
  for (uint32_t e = 0; e < m.mapping.length(); ++e) {
    const uint32_t pointer = access.ElementPointer(e);
    const uint32_t value = ScalarOf(l.b, m.component_type, elements[e]);
    l.b.Op(spv::Op::OpStore, 0, {pointer, value});
  }
}

bool LowerLoad(Lowering& l, const ir::Instruction& inst, uint32_t* result) {
  if (inst.opcode() != spv::Op::OpCooperativeMatrixLoadKHR) {
    return LowerCheckedLoad(l, inst, result);
  }
  const MatrixType* m = l.MatrixOfType(inst.result_type_id());
  if (!m) return l.Fail("OpCooperativeMatrixLoadKHR of a type that is not a matrix");
  auto access = DescribeAccess(l, inst, *m);
  if (!access) return false;
  *result = Block2dOrPerLaneLoad(l, *access);
  return *result != 0;
}

bool LowerStore(Lowering& l, const ir::Instruction& inst) {
  if (inst.opcode() != spv::Op::OpCooperativeMatrixStoreKHR) return LowerCheckedStore(l, inst);
  const MatrixType* m = l.MatrixOfValue(inst.word(1));
  if (!m) return l.Fail("OpCooperativeMatrixStoreKHR of an Object that is not a matrix");
  auto access = DescribeAccess(l, inst, *m);
  if (!access) return false;
  return Block2dOrPerLaneStore(l, *access);
}

}  // namespace xmx::opt::lower_coop
