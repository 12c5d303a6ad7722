// Cooperative-matrix loads and stores (SPV_KHR_cooperative_matrix, SPV_INTEL_joint_matrix):
// OpCooperativeMatrixLoadKHR / StoreKHR, their checked forms and OpCooperativeMatrixPrefetchINTEL.
// Element (row, column) of the matrix is at Pointer + offset * (component bytes), with Stride
// counted in components (as IGC reads it) and
//   RowMajor (0):     offset = row * Stride + column
//   ColumnMajor (1):  offset = column * Stride + row
//   PackedINTEL (2):  offset = (row / VF) * Stride + column * VF + row % VF, VF = 4 / (component
//                     bytes): B's rows VNNI-packed in 32-bit groups (COOPERATIVE-MATRIX.md A4);
//                     only for Use B. Without Stride: Columns * VF.
// The checked forms move the matrix to (X offset, Y offset) = (row, column) of a Height x Width
// matrix in memory (A4): element (r, c) goes to memory row X + r, column Y + c, which is read as 0
// and not written when outside [0, Height) x [0, Width). Height and Width count the matrix's
// rows and columns in every layout. Which invocation holds which element is coop_layout.hpp's.
//
// Undefined behaviour reported: the instruction reached by part of the subgroup; Pointer,
// Stride, X, Y, Height, Width not the same in every invocation; an unchecked access (or a checked
// one inside Height x Width) outside its allocation or misaligned (memory.*).
#include <algorithm>
#include <cstring>
#include <limits>

#include "common/rule_ids.hpp"
#include "interp/coop/coop_slice_move.hpp"
#include "interp/coop/coop_support.hpp"
#include "interp/load/load_checks.hpp"
#include "interp/load/loader.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

enum class CoopAccess : uint8_t { kLoad, kStore, kPrefetch };

constexpr uint32_t kNone = UINT32_MAX;

struct CoopMemoryData {
  CoopLayout layout;
  std::vector<CoopCoord> coords;  // lane * length + element -> its matrix element
  // The same element's offset in memory as p * Stride + q, pairs (p, q) (RowMajor: row, column;
  // ColumnMajor: column, row; PackedINTEL: row / VF, column * VF + row % VF).
  std::vector<uint32_t> parts;
  // The whole-slice form of the move, when the layouts have one (checked forms: when the matrix
  // lies wholly inside Height x Width).
  std::optional<CoopSliceMove> slice_move;
  // The rows whose offsets can be the least or the greatest of all rows' for some Stride: the
  // row part of an offset is linear in the row (r * Stride, r), or linear in the VNNI group plus
  // the row within it (PackedINTEL): the first and last rows of the first and last whole groups
  // and of the last (partial) group.
  std::vector<uint32_t> extreme_rows;
  CoopAccess access = CoopAccess::kLoad;
  CoopMemoryLayout memory_layout = CoopMemoryLayout::kRowMajor;
  bool checked = false;
  uint32_t alignment = 1;  // of the first element (the Aligned memory operand), at least its size
  int64_t default_stride = 0;
  // Register slots (kNone: absent) and byte sizes of the operands.
  uint32_t pointer = kNone, stride = kNone, x = kNone, y = kNone, height = kNone, width = kNone;
  uint32_t stride_bytes = 0, x_bytes = 0, y_bytes = 0, height_bytes = 0, width_bytes = 0;
  uint32_t value = kNone;      // the loaded result or the stored object
  uint32_t check_uniform = 0;  // bit i: operand i of kUniformNames needs the run-time check
};

const char* const kUniformNames[] = {"Pointer",  "Stride", "X offset",
                                     "Y offset", "Height", "Width"};

// Offsets are computed wide: Stride, X, Y, Height and Width may be any 64-bit value.
using Wide = __int128;

// The element offset (in components) of matrix element (row, column) in memory.
template <typename T>
inline T ElementOffset(CoopMemoryLayout layout, T row, T column, T stride, T vnni) {
  switch (layout) {
    case CoopMemoryLayout::kRowMajor:
      return row * stride + column;
    case CoopMemoryLayout::kColumnMajor:
      return column * stride + row;
    case CoopMemoryLayout::kPacked:
      return (row / vnni) * stride + column * vnni + row % vnni;
  }
  return 0;
}

// Below this |Stride| every offset of a matrix (rows and columns at most 2^16, VNNI factor at
// most 4) fits 64 bits with room to spare; the usual case skips 128-bit arithmetic.
constexpr int64_t kModerateStride = int64_t{1} << 40;

// The least and greatest element offsets of the matrix, computed in T. Offsets are row part +
// column part in every layout, so the extremes add up.
template <typename T>
void RowAndColumnExtremes(const CoopMemoryData& d, int64_t stride, int64_t vnni, Wide* low,
                          Wide* high) {
  T row_low = ElementOffset<T>(d.memory_layout, 0, 0, stride, vnni), row_high = row_low;
  for (const uint32_t r : d.extreme_rows) {
    const T o = ElementOffset<T>(d.memory_layout, r, 0, stride, vnni);
    row_low = std::min(row_low, o);
    row_high = std::max(row_high, o);
  }
  const T last_column = ElementOffset<T>(d.memory_layout, 0, d.layout.columns() - 1, stride, vnni);
  *low = row_low + std::min<T>(0, last_column);
  *high = row_high + std::max<T>(0, last_column);
}

// Moves every element between the slot (lane-major: element i of the slot is element
// i % length of invocation i / length) and memory at (parts[2i] * stride + parts[2i + 1] - low)
// elements from base.
template <uint32_t kBytes, bool kLoad>
void MoveElements(uint8_t* slot, uint8_t* base, const uint32_t* parts, size_t count, int64_t stride,
                  int64_t low) {
  for (size_t i = 0; i < count; ++i) {
    uint8_t* mem = base + (int64_t{parts[2 * i]} * stride + parts[2 * i + 1] - low) * kBytes;
    if constexpr (kLoad) {
      std::memcpy(slot + i * kBytes, mem, kBytes);
    } else {
      std::memcpy(mem, slot + i * kBytes, kBytes);
    }
  }
}

// A checked load or store whose matrix lies wholly inside Height x Width and in one allocation,
// plainly accessible (no report possible), moved as a whole slice: every element is then moved
// exactly as the per-element loop would move it. Returns false, having moved nothing, otherwise.
// Local memory keeps the per-element path, which records each element in the race shadow.
bool MoveWholeChecked(Subgroup& sg, const CoopMemoryData& d, uint64_t pointer, int64_t stride,
                      int64_t x, int64_t y, int64_t height, int64_t width) {
  const int64_t vnni = 4 / d.layout.element_bytes();
  if (!d.slice_move || sg.lanes != d.layout.subgroup_size() || x < 0 || y < 0 ||
      Wide{x} + d.layout.rows() > height || Wide{y} + d.layout.columns() > width ||
      (d.memory_layout == CoopMemoryLayout::kPacked && x % vnni != 0) ||
      (d.access == CoopAccess::kStore && !d.slice_move->CanStore(stride))) {
    return false;
  }
  // Element (x + r, y + c) lies at offset(x, y) + offset(r, c) in every layout (PackedINTEL:
  // with x a whole number of VNNI groups).
  Wide low, high;
  if (stride > -kModerateStride && stride < kModerateStride) {
    RowAndColumnExtremes<int64_t>(d, stride, vnni, &low, &high);
  } else {
    RowAndColumnExtremes<Wide>(d, stride, vnni, &low, &high);
  }
  const Wide corner = ElementOffset<Wide>(d.memory_layout, x, y, stride, vnni);
  constexpr Wide kFarthest = Wide{1} << 56;
  if (corner + low <= -kFarthest || corner + high >= kFarthest) return false;
  const uint32_t eb = d.layout.element_bytes();
  const uint64_t first = pointer + static_cast<uint64_t>(static_cast<int64_t>(corner + low) * eb);
  const uint64_t span = static_cast<uint64_t>(high - low + 1) * eb;
  const Allocation* a = sg.group->allocations->Find(PointerAllocation(first));
  const uint64_t offset = PointerOffset(first);
  if (a == nullptr || a->storage == spv::StorageClass::Workgroup || offset > a->size ||
      span > a->size - offset || Misaligned(offset, eb) ||
      (d.access == CoopAccess::kStore && a->read_only)) {
    return false;
  }
  uint8_t* origin = a->data + offset - static_cast<int64_t>(low) * eb;
  if (d.access == CoopAccess::kLoad) {
    d.slice_move->Load(origin, stride, sg.regs + d.value);
  } else {
    d.slice_move->Store(origin, stride, sg.regs + d.value);
  }
  return true;
}

// Whether every lane of the (whole) subgroup holds the same 64-bit pointer in `slot`.
bool SamePointer(Subgroup& sg, uint32_t slot) {
  const uint64_t* p = sg.reg<uint64_t>(slot);
  uint64_t differ = 0;
  for (uint32_t lane = 1; lane < sg.lanes; ++lane) differ |= p[lane] ^ p[0];
  return differ == 0;
}

const Instr* ExecCoopMemory(Subgroup& sg, const Instr* in) {
  const CoopMemoryData& d = *static_cast<const CoopMemoryData*>(in->data);
  if (RequireWholeSubgroup(sg, in, "a cooperative-matrix load, store or prefetch")) {
    return StopSubgroup(sg);
  }
  uint32_t check_uniform = d.check_uniform;
  // The usual case, one Pointer the loader could not prove uniform, tested here first: the
  // general check below then has nothing to report.
  if ((check_uniform & 1) != 0 && sg.mask == sg.live_mask && sg.lanes <= 64 &&
      sg.mask == (~uint64_t{0} >> (64 - sg.lanes)) && SamePointer(sg, d.pointer)) {
    check_uniform &= ~1u;
  }
  if (check_uniform != 0) {
    const uint32_t slots[] = {d.pointer, d.stride, d.x, d.y, d.height, d.width};
    const uint32_t sizes[] = {8,         d.stride_bytes, d.x_bytes,
                              d.y_bytes, d.height_bytes, d.width_bytes};
    for (int i = 0; i < 6; ++i) {
      if ((check_uniform >> i & 1) != 0 &&
          RequireUniform(sg, in, slots[i], sizes[i], kUniformNames[i])) {
        return StopSubgroup(sg);
      }
    }
  }
  if (d.access == CoopAccess::kPrefetch) return in + 1;
  const uint64_t pointer = sg.reg<uint64_t>(d.pointer)[0];
  const int64_t stride =
      d.stride == kNone ? d.default_stride : LaneSInt(sg, d.stride, d.stride_bytes, 0);
  const uint32_t eb = d.layout.element_bytes();
  const int64_t vnni = 4 / eb;
  const uint32_t length = d.layout.length();
  const uint32_t lane_bytes = length * eb;
  uint8_t* value = sg.regs + d.value;
  bool stop = false;
  if (d.checked) {
    const int64_t x = LaneSInt(sg, d.x, d.x_bytes, 0), y = LaneSInt(sg, d.y, d.y_bytes, 0);
    const int64_t height = LaneSInt(sg, d.height, d.height_bytes, 0);
    const int64_t width = LaneSInt(sg, d.width, d.width_bytes, 0);
    const AccessKind kind = d.access == CoopAccess::kStore ? AccessKind::kWrite : AccessKind::kRead;
    if (MoveWholeChecked(sg, d, pointer, stride, x, y, height, width)) return in + 1;
    for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
      for (uint32_t e = 0; e < length; ++e) {
        const CoopCoord c = d.coords[lane * length + e];
        const Wide row = Wide{x} + c.row, column = Wide{y} + c.column;
        uint8_t* reg = value + lane * lane_bytes + e * eb;
        if (row < 0 || row >= height || column < 0 || column >= width) {
          if (d.access == CoopAccess::kLoad) std::memset(reg, 0, eb);
          continue;
        }
        // Wraps like pointer arithmetic; the access check then finds no allocation.
        const uint64_t address =
            pointer + static_cast<uint64_t>(
                          ElementOffset<Wide>(d.memory_layout, row, column, stride, vnni) * eb);
        uint8_t* mem = AccessMemory(sg, in, lane, address, eb, eb, kind, &stop);
        if (mem == nullptr) {
          if (stop) return StopSubgroup(sg);
          if (d.access == CoopAccess::kLoad) std::memset(reg, 0, eb);
          continue;
        }
        if (d.access == CoopAccess::kLoad) {
          CopyBytes(reg, mem, eb);
        } else {
          CopyBytes(mem, reg, eb);
        }
      }
    }
    return in + 1;
  }
  // Unchecked: the elements span [first, last] of one allocation exactly when both ends lie in
  // it, so one access check covers the whole matrix.
  Wide low, high;
  if (stride > -kModerateStride && stride < kModerateStride) {
    RowAndColumnExtremes<int64_t>(d, stride, vnni, &low, &high);
  } else {
    RowAndColumnExtremes<Wide>(d, stride, vnni, &low, &high);
  }
  // A span beyond 2^56 elements fits no allocation.
  constexpr Wide kFarthest = Wide{1} << 56;
  const bool representable = low > -kFarthest && high < kFarthest;
  if (!representable) {
    if (sg.group->checking() &&
        ReportAt(sg, in, 0, rules::kMemoryOutOfBounds,
                 "the matrix spans more than 2^56 elements from Pointer " + HexPointer(pointer) +
                     " (Stride " + std::to_string(stride) + "), beyond any allocation")) {
      return StopSubgroup(sg);
    }
    if (d.access == CoopAccess::kLoad) std::memset(value, 0, size_t{lane_bytes} * sg.lanes);
    return in + 1;
  }
  const uint64_t first =
      representable ? pointer + static_cast<uint64_t>(static_cast<int64_t>(low) * eb) : pointer;
  const uint64_t span = representable ? static_cast<uint64_t>(high - low + 1) * eb : ~uint64_t{0};
  // The Aligned operand is about Pointer; the span may start below it (negative strides).
  if (low != 0 && d.alignment > eb) {
    if (AccessMemory(sg, in, 0, pointer, eb, d.alignment, AccessKind::kRead, &stop) == nullptr) {
      return stop ? StopSubgroup(sg) : in + 1;
    }
  }
  uint8_t* base =
      AccessMemory(sg, in, 0, first, span, low == 0 ? d.alignment : eb,
                   d.access == CoopAccess::kStore ? AccessKind::kWrite : AccessKind::kRead, &stop);
  if (base == nullptr) {
    if (stop) return StopSubgroup(sg);
    if (d.access == CoopAccess::kLoad) std::memset(value, 0, size_t{lane_bytes} * sg.lanes);
    return in + 1;
  }
  // Every element lies in [low, high], within the allocation: int64 arithmetic cannot overflow.
  const int64_t low64 = static_cast<int64_t>(low);
  const size_t count = size_t{length} * sg.lanes;
  const bool load = d.access == CoopAccess::kLoad;
  if (d.slice_move && sg.lanes == d.layout.subgroup_size() &&
      (load || d.slice_move->CanStore(stride))) {
    // Element (0, 0) is at offset 0 >= low.
    uint8_t* origin = base - low64 * eb;
    if (load) {
      d.slice_move->Load(origin, stride, value);
    } else {
      d.slice_move->Store(origin, stride, value);
    }
    return in + 1;
  }
  switch (eb) {
    case 1:
      load ? MoveElements<1, true>(value, base, d.parts.data(), count, stride, low64)
           : MoveElements<1, false>(value, base, d.parts.data(), count, stride, low64);
      break;
    case 2:
      load ? MoveElements<2, true>(value, base, d.parts.data(), count, stride, low64)
           : MoveElements<2, false>(value, base, d.parts.data(), count, stride, low64);
      break;
    default:
      load ? MoveElements<4, true>(value, base, d.parts.data(), count, stride, low64)
           : MoveElements<4, false>(value, base, d.parts.data(), count, stride, low64);
      break;
  }
  return in + 1;
}

// The MemoryLayout operand at `index`: a constant 0, 1 or 2 (2 only for Use B).
bool ReadMemoryLayout(Loader& loader, const ir::Instruction& inst, size_t index,
                      const CoopLayout& layout, CoopMemoryData& d) {
  const std::optional<uint64_t> v = loader.ConstantValue(inst.word(index));
  if (!v) return loader.Fail(inst, "MemoryLayout must be a constant");
  if (*v > 2) {
    return loader.Fail(inst,
                       "xmx-run knows MemoryLayout RowMajor (0), ColumnMajor (1) and "
                       "PackedINTEL (2), not " +
                           std::to_string(*v));
  }
  d.memory_layout = static_cast<CoopMemoryLayout>(*v);
  if (d.memory_layout == CoopMemoryLayout::kPacked && layout.use() != CoopUse::kB) {
    return loader.Fail(inst,
                       "MemoryLayout PackedINTEL is the VNNI layout of Use B matrices; "
                       "this matrix has another Use");
  }
  return true;
}

// Stride (optional) at `index` and the memory operand after it.
bool ReadStrideAndMemoryOperand(Loader& loader, const ir::Instruction& inst, size_t index,
                                CoopMemoryData& d) {
  const uint32_t eb = d.layout.element_bytes();
  d.alignment = eb;
  d.default_stride =
      d.memory_layout == CoopMemoryLayout::kPacked ? int64_t{d.layout.columns()} * (4 / eb) : 0;
  if (inst.num_operands() > index) {
    const TypeInfo& t = loader.TypeOfValue(inst.word(index));
    if (t.kind != ir::TypeKind::kInt) return loader.Fail(inst, "Stride must be an integer scalar");
    d.stride = loader.Slot(inst.word(index));
    d.stride_bytes = t.lane_bytes;
    if (!loader.KnownUniform(inst.word(index))) d.check_uniform |= 2;
  } else if (d.memory_layout != CoopMemoryLayout::kPacked) {
    return loader.Fail(inst, "RowMajor and ColumnMajor need a Stride");
  }
  if (inst.num_operands() > index + 1) {
    const uint32_t mask = inst.word(index + 1);
    if ((mask & static_cast<uint32_t>(spv::MemoryAccess::Aligned)) != 0) {
      if (inst.num_operands() <= index + 2) {
        return loader.Fail(inst, "the Aligned memory operand has no alignment");
      }
      d.alignment = std::max(d.alignment, inst.word(index + 2));
    }
  }
  return true;
}

bool ReadPointer(Loader& loader, const ir::Instruction& inst, size_t index, CoopMemoryData& d) {
  if (loader.TypeOfValue(inst.word(index)).kind != ir::TypeKind::kPointer) {
    return loader.Fail(inst, "Pointer must be a pointer");
  }
  d.pointer = loader.Slot(inst.word(index));
  if (!loader.KnownUniform(inst.word(index))) d.check_uniform |= 1;
  return true;
}

// An integer operand of the checked forms (bit `bit` of check_uniform).
bool ReadCheckedOperand(Loader& loader, const ir::Instruction& inst, size_t index, int bit,
                        uint32_t* slot, uint32_t* bytes, CoopMemoryData& d) {
  const TypeInfo& t = loader.TypeOfValue(inst.word(index));
  if (t.kind != ir::TypeKind::kInt) {
    return loader.Fail(inst, std::string(kUniformNames[bit]) + " must be an integer scalar");
  }
  *slot = loader.Slot(inst.word(index));
  *bytes = t.lane_bytes;
  if (!loader.KnownUniform(inst.word(index))) d.check_uniform |= 1u << bit;
  return true;
}

std::vector<CoopCoord> AllCoords(const CoopLayout& layout) {
  std::vector<CoopCoord> coords(size_t{layout.subgroup_size()} * layout.length());
  for (uint32_t lane = 0; lane < layout.subgroup_size(); ++lane) {
    for (uint32_t e = 0; e < layout.length(); ++e) {
      coords[lane * layout.length() + e] = layout.ElementCoord(e, lane);
    }
  }
  return coords;
}

std::optional<CoopLayout> MatrixLayout(Loader& loader, const ir::Instruction& inst,
                                       uint32_t type_id, const char* what) {
  std::string why;
  std::optional<CoopLayout> layout = loader.CoopLayoutOf(type_id, &why);
  if (!layout) loader.Fail(inst, std::string(what) + ": " + why);
  return layout;
}

}  // namespace

// Binds the loads, stores and prefetch (exec_coop.cpp dispatches here).
bool BindCoopMemory(Loader& loader, const ir::Instruction& inst, Instr& out) {
  using spv::Op;
  CoopMemoryData d;
  std::optional<CoopLayout> layout;
  switch (inst.opcode()) {
    case Op::OpCooperativeMatrixLoadKHR:
    case Op::OpCooperativeMatrixLoadCheckedINTEL: {
      const bool checked = inst.opcode() == Op::OpCooperativeMatrixLoadCheckedINTEL;
      if (inst.num_operands() < (checked ? 6u : 2u)) return loader.Fail(inst, "missing operands");
      layout = MatrixLayout(loader, inst, inst.result_type_id(), "the Result Type");
      if (!layout) return false;
      d.layout = *layout;
      d.access = CoopAccess::kLoad;
      d.checked = checked;
      d.value = loader.Slot(inst.result_id());
      if (!ReadPointer(loader, inst, 0, d)) return false;
      if (checked) {
        if (!ReadCheckedOperand(loader, inst, 1, 2, &d.x, &d.x_bytes, d) ||
            !ReadCheckedOperand(loader, inst, 2, 3, &d.y, &d.y_bytes, d) ||
            !ReadMemoryLayout(loader, inst, 3, d.layout, d) ||
            !ReadCheckedOperand(loader, inst, 4, 4, &d.height, &d.height_bytes, d) ||
            !ReadCheckedOperand(loader, inst, 5, 5, &d.width, &d.width_bytes, d) ||
            !ReadStrideAndMemoryOperand(loader, inst, 6, d)) {
          return false;
        }
      } else if (!ReadMemoryLayout(loader, inst, 1, d.layout, d) ||
                 !ReadStrideAndMemoryOperand(loader, inst, 2, d)) {
        return false;
      }
      break;
    }
    case Op::OpCooperativeMatrixStoreKHR:
    case Op::OpCooperativeMatrixStoreCheckedINTEL: {
      const bool checked = inst.opcode() == Op::OpCooperativeMatrixStoreCheckedINTEL;
      if (inst.num_operands() < (checked ? 7u : 3u)) return loader.Fail(inst, "missing operands");
      const size_t object = checked ? 3 : 1;
      layout = MatrixLayout(loader, inst, loader.ValueTypeId(inst.word(object)), "the Object");
      if (!layout) return false;
      d.layout = *layout;
      d.access = CoopAccess::kStore;
      d.checked = checked;
      d.value = loader.Slot(inst.word(object));
      if (!ReadPointer(loader, inst, 0, d)) return false;
      if (checked) {
        if (!ReadCheckedOperand(loader, inst, 1, 2, &d.x, &d.x_bytes, d) ||
            !ReadCheckedOperand(loader, inst, 2, 3, &d.y, &d.y_bytes, d) ||
            !ReadMemoryLayout(loader, inst, 4, d.layout, d) ||
            !ReadCheckedOperand(loader, inst, 5, 4, &d.height, &d.height_bytes, d) ||
            !ReadCheckedOperand(loader, inst, 6, 5, &d.width, &d.width_bytes, d) ||
            !ReadStrideAndMemoryOperand(loader, inst, 7, d)) {
          return false;
        }
      } else if (!ReadMemoryLayout(loader, inst, 2, d.layout, d) ||
                 !ReadStrideAndMemoryOperand(loader, inst, 3, d)) {
        return false;
      }
      break;
    }
    case Op::OpCooperativeMatrixPrefetchINTEL: {  // no layout: nothing moves
      // DECISIONS.md 14: Pointer, Rows, Columns, Cache Level (literal), MemoryLayout, [Stride].
      // A prefetch changes nothing the program can observe and cannot fault (2D block prefetch
      // clamps to its surface): xmx-run checks that the whole subgroup reaches it with the same
      // Pointer and Stride, and moves nothing.
      if (inst.num_operands() < 5) return loader.Fail(inst, "missing operands");
      if (loader.TypeOfValue(inst.word(1)).kind != ir::TypeKind::kInt ||
          loader.TypeOfValue(inst.word(2)).kind != ir::TypeKind::kInt) {
        return loader.Fail(inst, "Rows and Columns must be integer scalars");
      }
      d.access = CoopAccess::kPrefetch;
      if (!ReadPointer(loader, inst, 0, d)) return false;
      const std::optional<uint64_t> memory_layout = loader.ConstantValue(inst.word(4));
      if (!memory_layout || *memory_layout > 2) {
        return loader.Fail(inst, "MemoryLayout must be a constant 0, 1 or 2");
      }
      if (inst.num_operands() > 5) {
        const TypeInfo& t = loader.TypeOfValue(inst.word(5));
        if (t.kind != ir::TypeKind::kInt) return loader.Fail(inst, "Stride must be an integer");
        d.stride = loader.Slot(inst.word(5));
        d.stride_bytes = t.lane_bytes;
        if (!loader.KnownUniform(inst.word(5))) d.check_uniform |= 2;
      }
      break;
    }
    default:
      return false;
  }
  if (d.access != CoopAccess::kPrefetch) {
    d.slice_move = CoopSliceMove::Make(d.layout, d.memory_layout);
    const uint32_t rows = d.layout.rows(), group = 4 / d.layout.element_bytes();
    const uint32_t whole_groups_end = rows / group * group;  // past the last whole group
    for (const uint32_t r : {std::min(group, rows) - 1, std::max(whole_groups_end, 1u) - 1,
                             (rows - 1) / group * group, rows - 1}) {
      if (r != 0 &&
          std::find(d.extreme_rows.begin(), d.extreme_rows.end(), r) == d.extreme_rows.end()) {
        d.extreme_rows.push_back(r);
      }
    }
    d.coords = AllCoords(d.layout);
    const uint32_t vnni = 4 / d.layout.element_bytes();
    for (const CoopCoord& c : d.coords) {
      switch (d.memory_layout) {
        case CoopMemoryLayout::kRowMajor:
          d.parts.insert(d.parts.end(), {c.row, c.column});
          break;
        case CoopMemoryLayout::kColumnMajor:
          d.parts.insert(d.parts.end(), {c.column, c.row});
          break;
        case CoopMemoryLayout::kPacked:
          d.parts.insert(d.parts.end(), {c.row / vnni, c.column * vnni + c.row % vnni});
          break;
      }
    }
  }
  out.fn = ExecCoopMemory;
  out.data = loader.program().Own(std::move(d));
  return true;
}

}  // namespace xmx::interp
