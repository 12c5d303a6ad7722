// OpCooperativeMatrixMulAddKHR: Result = A x B + C, computed by the native matrix instruction's
// arithmetic (matrix_mad.hpp, both --mma-fp models), as IGC lowers it (COOPERATIVE-MATRIX.md A4).
//
// The native operation takes M <= 8 rows, N = subgroup size columns and K = 256 / (A's element
// bits) (8 for tf32). A multiply-add of that shape is one native operation, and its operands'
// slices are already the native operands' registers (the mapping is the native layout, DECISIONS
// 15). A larger shape is a grid of native operations: 8-row blocks of A and C times column blocks
// of B, the K blocks chained through the accumulator in order (the first reads C in its own
// format, the next ones the previous result in Result's format), like IGC's
// __builtin_spriv_OpJointMatrixMadINTEL_<M>x<N>x<K> builtins. The operands' elements are gathered
// into native operand registers through tables made at load time from coop_layout.hpp.
//
// Element formats, from the components and the Cooperative Matrix Operands (A4): 8-bit integers
// (signed per MatrixASignedComponentsKHR / MatrixBSignedComponentsKHR), 16-bit integers (bf16
// patterns, with or without MatrixAAndBBFloat16ComponentsINTEL), half (fp16), bfloat16 (bf16),
// float (tf32, with or without MatrixAAndBTF32ComponentsINTEL). C and Result: 32-bit integers for
// integer data; float, half, bfloat16 or 16-bit integers (bf16) otherwise.
#include <algorithm>
#include <cstring>

#include "interp/coop/coop_runs.hpp"
#include "interp/coop/coop_support.hpp"
#include "interp/load/loader.hpp"
#include "interp/matrix_mad/matrix_mad.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

// Cooperative Matrix Operands bits (SPV_KHR_cooperative_matrix, SPV_INTEL_joint_matrix).
constexpr uint32_t kASigned = 0x1, kBSigned = 0x2, kSaturating = 0x10;
constexpr uint32_t kTf32Bits = 0x20, kBFloat16Bits = 0x40, kCBFloat16 = 0x80,
                   kResultBFloat16 = 0x100;
// The native instruction's operand bits (SPV_INTEL_subgroup_matrix_multiply_accumulate).
constexpr uint32_t kNativeASigned = 0x1, kNativeBSigned = 0x2, kNativeCBFloat16 = 0x4,
                   kNativeResultBFloat16 = 0x8, kNativeInt8 = 0x10 | 0x20,
                   kNativeTf32 = 0x100 | 0x200, kNativeFp16 = 0x400 | 0x800,
                   kNativeBFloat16 = 0x1000 | 0x2000;

struct RowBlockKernels {
  uint32_t rows = 0;
  std::optional<MatrixMadKernel> first;  // reads C's format
  std::optional<MatrixMadKernel> rest;   // reads Result's format (K blocks after the first)
};

struct CoopMadData {
  uint32_t a = 0, b = 0, c = 0, result = 0;  // slots
  bool single = false;                       // one native operation on the slots themselves
  uint32_t m = 0, n = 0, k = 0, native_k = 0, row_blocks = 0, column_blocks = 0, k_blocks = 0;
  uint32_t a_eb = 0, b_eb = 0, c_eb = 0, d_eb = 0;  // element bytes
  uint32_t d_lane_bytes = 0;
  std::vector<RowBlockKernels> kernels;  // per row block
  // The native operands' copies from and to the whole operands' slots.
  std::vector<CoopCopyRuns> a_runs;  // [row block * k_blocks + k block]
  std::vector<CoopCopyRuns> b_runs;  // [k block * column_blocks + column block]
  std::vector<CoopCopyRuns> c_runs;  // [row block * column_blocks + column block]
  std::vector<CoopCopyRuns> d_runs;  // the same, into Result (or its staging)
  // Scratch offsets: every native A block (a_block bytes apart), every native B block, the
  // accumulator, Result's staging.
  uint32_t scratch = 0, a_native = 0, a_block = 0, b_native = 0, b_block = 0, acc = 0, staging = 0;
  // Result's blocks go straight to its slot: it does not overlap C, or is C itself (each block
  // of C is read before the same elements of Result are written).
  bool direct_result = false;
};

const Instr* ExecCoopMulAdd(Subgroup& sg, const Instr* in) {
  if (RequireWholeSubgroup(sg, in, "OpCooperativeMatrixMulAddKHR")) return StopSubgroup(sg);
  const CoopMadData& d = *static_cast<const CoopMadData*>(in->data);
  if (d.single) {
    d.kernels[0].first->Run(sg.regs + d.a, sg.regs + d.b, sg.regs + d.c, sg.regs + d.result);
    ++sg.matrix_instructions;
    return in + 1;
  }
  uint8_t* scratch = sg.regs + d.scratch;
  uint8_t* a = scratch + d.a_native;
  uint8_t* b = scratch + d.b_native;
  uint8_t* acc = scratch + d.acc;
  uint8_t* out = d.direct_result ? sg.regs + d.result : scratch + d.staging;
  // Every native A and B block once, however many products use it.
  for (size_t i = 0; i < d.a_runs.size(); ++i) d.a_runs[i].Gather(a + i * d.a_block, sg.regs + d.a);
  for (size_t i = 0; i < d.b_runs.size(); ++i) d.b_runs[i].Gather(b + i * d.b_block, sg.regs + d.b);
  for (uint32_t rb = 0; rb < d.row_blocks; ++rb) {
    const RowBlockKernels& kernels = d.kernels[rb];
    for (uint32_t cb = 0; cb < d.column_blocks; ++cb) {
      const uint32_t block = rb * d.column_blocks + cb;
      d.c_runs[block].Gather(acc, sg.regs + d.c);
      for (uint32_t kb = 0; kb < d.k_blocks; ++kb) {
        (kb == 0 ? *kernels.first : *kernels.rest)
            .Run(a + (rb * d.k_blocks + kb) * d.a_block,
                 b + (kb * d.column_blocks + cb) * d.b_block, acc, acc);
        ++sg.matrix_instructions;
      }
      d.d_runs[block].Scatter(acc, out);
    }
  }
  if (!d.direct_result) {
    std::memcpy(sg.regs + d.result, out, size_t{d.d_lane_bytes} * sg.lanes);
  }
  return in + 1;
}

// Where each element of a whole operand lives: the byte offset in its slot of element (row,
// column), at row * columns + column.
std::vector<uint32_t> SlotOffsets(const CoopLayout& whole) {
  std::vector<uint32_t> where(size_t{whole.rows()} * whole.columns());
  const uint32_t eb = whole.element_bytes(), lane_bytes = whole.length() * eb;
  for (uint32_t lane = 0; lane < whole.subgroup_size(); ++lane) {
    for (uint32_t e = 0; e < whole.length(); ++e) {
      const CoopCoord c = whole.ElementCoord(e, lane);
      where[size_t{c.row} * whole.columns() + c.column] = lane * lane_bytes + e * eb;
    }
  }
  return where;
}

// For every element of a native operand of shape `native` whose (0, 0) is (row0, column0) of the
// whole operand (`where` = SlotOffsets(whole)): its byte offset in the whole operand's slot.
std::vector<uint32_t> GatherTable(const CoopLayout& whole, const std::vector<uint32_t>& where,
                                  const CoopLayout& native, uint32_t row0, uint32_t column0) {
  std::vector<uint32_t> table(size_t{native.subgroup_size()} * native.length());
  for (uint32_t lane = 0; lane < native.subgroup_size(); ++lane) {
    for (uint32_t e = 0; e < native.length(); ++e) {
      const CoopCoord c = native.ElementCoord(e, lane);
      table[lane * native.length() + e] =
          where[size_t{row0 + c.row} * whole.columns() + column0 + c.column];
    }
  }
  return table;
}

ValueType Scalar(ScalarKind kind, uint32_t bytes, uint32_t components) {
  return {{kind, static_cast<uint8_t>(bytes)}, components};
}

}  // namespace

bool BindCoopMulAdd(Loader& loader, const ir::Instruction& inst, Instr& out) {
  if (inst.num_operands() < 3) return loader.Fail(inst, "missing operands");
  const uint32_t bits = inst.num_operands() > 3 ? inst.word(3) : 0;
  const uint32_t type_ids[] = {loader.ValueTypeId(inst.word(0)), loader.ValueTypeId(inst.word(1)),
                               loader.ValueTypeId(inst.word(2)), inst.result_type_id()};
  const char* names[] = {"A", "B", "C", "the Result Type"};
  std::optional<CoopLayout> layouts[4];
  for (int i = 0; i < 4; ++i) {
    std::string why;
    layouts[i] = loader.CoopLayoutOf(type_ids[i], &why);
    if (!layouts[i]) return loader.Fail(inst, std::string(names[i]) + ": " + why);
  }
  const CoopLayout &la = *layouts[0], &lb = *layouts[1], &lc = *layouts[2], &ld = *layouts[3];
  if (la.use() != CoopUse::kA || lb.use() != CoopUse::kB || lc.use() != CoopUse::kAccumulator ||
      ld.use() != CoopUse::kAccumulator) {
    return loader.Fail(inst, "A, B, C and the result must have Use A, B, Accumulator, Accumulator");
  }
  const uint32_t m = la.rows(), k = la.columns(), n = lb.columns();
  if (lb.rows() != k || lc.rows() != m || ld.rows() != m || lc.columns() != n ||
      ld.columns() != n) {
    return loader.Fail(inst, "the shapes of A (MxK), B (KxN), C and the result (MxN) disagree");
  }
  if ((bits & kSaturating) != 0) {
    return loader.Fail(inst,
                       "xmx-run does not execute SaturatingAccumulationKHR (Intel's matrix "
                       "hardware wraps integer sums)");
  }
  const ir::TypeTable& types = loader.types();
  const CoopComponent ca = ComponentOf(types, type_ids[0]), cb = ComponentOf(types, type_ids[1]);
  const CoopComponent cc = ComponentOf(types, type_ids[2]), cd = ComponentOf(types, type_ids[3]);
  if (ca != cb) return loader.Fail(inst, "A and B must have the same component type");
  const uint32_t sg = loader.subgroup_size();
  MatrixMadShape shape;
  shape.subgroup_size = sg;
  const bool wide_a = sg == 8;  // A's native components: 32 bits at SG8, 16 at SG16
  bool integer_data = false;
  bool tf32 = false;
  if (ca == CoopComponent::kInt8) {
    integer_data = true;
    shape.operands = kNativeInt8 | ((bits & kASigned) != 0 ? kNativeASigned : 0) |
                     ((bits & kBSigned) != 0 ? kNativeBSigned : 0);
  } else if ((bits & kBFloat16Bits) != 0 || ca == CoopComponent::kBFloat16 ||
             ca == CoopComponent::kInt16) {
    if (ca == CoopComponent::kFloat || ca == CoopComponent::kInt32) {
      return loader.Fail(inst, "MatrixAAndBBFloat16ComponentsINTEL needs 16-bit components");
    }
    shape.operands = kNativeBFloat16;
  } else if ((bits & kTf32Bits) != 0 || ca == CoopComponent::kFloat) {
    if (ca != CoopComponent::kFloat) {
      return loader.Fail(inst, "MatrixAAndBTF32ComponentsINTEL needs float components");
    }
    shape.operands = kNativeTf32;
    tf32 = true;
  } else if (ca == CoopComponent::kHalf) {
    shape.operands = kNativeFp16;
  } else {
    return loader.Fail(inst,
                       "A and B must hold 8-bit integers, 16-bit integers (bf16), half, "
                       "bfloat16 or float (tf32)");
  }
  const uint32_t element_bits = la.element_bytes() * 8;
  const uint32_t native_k = 256 / element_bits;
  // C and Result.
  auto accumulator = [&](CoopComponent c, uint32_t bf16_bit, uint32_t native_bit, const char* what,
                         ValueType* type) {
    if (integer_data) {
      if (c != CoopComponent::kInt32) {
        return loader.Fail(inst, std::string(what) +
                                     ": integer data accumulates into 32-bit "
                                     "integers");
      }
      *type = Scalar(ScalarKind::kInt, 4, 0);
      return true;
    }
    if (c == CoopComponent::kBFloat16 || c == CoopComponent::kInt16 || (bits & bf16_bit) != 0) {
      if (c != CoopComponent::kBFloat16 && c != CoopComponent::kInt16) {
        return loader.Fail(inst, std::string(what) + ": a bf16 accumulator has 16-bit components");
      }
      shape.operands |= native_bit;
      *type = Scalar(ScalarKind::kInt, 2, 0);
      return true;
    }
    if (c == CoopComponent::kFloat || c == CoopComponent::kHalf) {
      *type = Scalar(ScalarKind::kFloat, c == CoopComponent::kFloat ? 4 : 2, 0);
      return true;
    }
    return loader.Fail(inst, std::string(what) +
                                 ": float data accumulates into float, half or "
                                 "bf16");
  };
  ValueType c_type, d_type;
  if (!accumulator(cc, kCBFloat16, kNativeCBFloat16, "C", &c_type) ||
      !accumulator(cd, kResultBFloat16, kNativeResultBFloat16, "the Result Type", &d_type)) {
    return false;
  }
  if (k % native_k != 0 || n % sg != 0) {
    return loader.Fail(inst, "xmx-run splits a multiply-add into native operations of K = " +
                                 std::to_string(native_k) + " and N = " + std::to_string(sg) +
                                 "; K = " + std::to_string(k) + ", N = " + std::to_string(n));
  }
  CoopMadData d;
  d.m = m;
  d.n = n;
  d.k = k;
  d.native_k = native_k;
  d.row_blocks = (m + 7) / 8;
  d.column_blocks = n / sg;
  d.k_blocks = k / native_k;
  d.a_eb = la.element_bytes();
  d.b_eb = lb.element_bytes();
  d.c_eb = lc.element_bytes();
  d.d_eb = ld.element_bytes();
  d.d_lane_bytes = ld.length() * d.d_eb;
  const MmaFloatModel model =
      loader.options().ordered_matrix_fp ? MmaFloatModel::kOrdered : MmaFloatModel::kExact;
  uint32_t max_a_bytes = 0, max_acc_bytes = 0, b_bytes = 0;
  const std::vector<uint32_t> where_a = SlotOffsets(la), where_b = SlotOffsets(lb),
                              where_c = SlotOffsets(lc), where_d = SlotOffsets(ld);
  for (uint32_t rb = 0; rb < d.row_blocks; ++rb) {
    const uint32_t rows = std::min(8u, m - rb * 8);
    std::string why;
    const std::optional<CoopLayout> native_a =
        CoopLayout::Make(CoopUse::kA, rows, native_k, element_bits, sg, &why);
    const std::optional<CoopLayout> native_b =
        CoopLayout::Make(CoopUse::kB, native_k, sg, element_bits, sg, &why);
    const std::optional<CoopLayout> native_c =
        CoopLayout::Make(CoopUse::kAccumulator, rows, sg, d.c_eb * 8, sg, &why);
    const std::optional<CoopLayout> native_d =
        CoopLayout::Make(CoopUse::kAccumulator, rows, sg, d.d_eb * 8, sg, &why);
    if (!native_a || !native_b || !native_c || !native_d) {
      return loader.Fail(inst,
                         "xmx-run cannot split this multiply-add into native operations: " + why);
    }
    // Native operand types (matrix_mad.hpp's mapping).
    MatrixMadShape s = shape;
    s.k = native_k;
    if (tf32) {
      s.a = Scalar(ScalarKind::kFloat, 4, native_a->length());
      s.b = Scalar(ScalarKind::kFloat, 4, native_k);
    } else {
      const uint32_t a_component = wide_a ? 4 : 2;
      s.a = Scalar(ScalarKind::kInt, a_component, native_a->length() * d.a_eb / a_component);
      s.b = Scalar(ScalarKind::kInt, 4, native_k * d.b_eb / 4);
    }
    s.c = Scalar(c_type.scalar.kind, c_type.scalar.bytes, rows);
    s.result = Scalar(d_type.scalar.kind, d_type.scalar.bytes, rows);
    RowBlockKernels kernels;
    kernels.rows = rows;
    kernels.first = MatrixMadKernel::Prepare(s, model, &why);
    if (kernels.first && d.k_blocks > 1) {
      MatrixMadShape chained = s;
      chained.c = s.result;
      chained.operands = (s.operands & ~kNativeCBFloat16) |
                         ((s.operands & kNativeResultBFloat16) != 0 ? kNativeCBFloat16 : 0);
      kernels.rest = MatrixMadKernel::Prepare(chained, model, &why);
    }
    if (!kernels.first || (d.k_blocks > 1 && !kernels.rest)) {
      return loader.Fail(inst, "xmx-run cannot execute this multiply-add: " + why);
    }
    d.kernels.push_back(kernels);
    max_a_bytes = std::max(max_a_bytes, s.a.lane_bytes());
    b_bytes = s.b.lane_bytes();
    max_acc_bytes = std::max({max_acc_bytes, s.c.lane_bytes(), s.result.lane_bytes()});
    for (uint32_t kb = 0; kb < d.k_blocks; ++kb) {
      d.a_runs.emplace_back(GatherTable(la, where_a, *native_a, rb * 8, kb * native_k), d.a_eb);
    }
    for (uint32_t cb = 0; cb < d.column_blocks; ++cb) {
      d.c_runs.emplace_back(GatherTable(lc, where_c, *native_c, rb * 8, cb * sg), d.c_eb);
      d.d_runs.emplace_back(GatherTable(ld, where_d, *native_d, rb * 8, cb * sg), d.d_eb);
    }
    if (rb == 0) {
      for (uint32_t kb = 0; kb < d.k_blocks; ++kb) {
        for (uint32_t cb = 0; cb < d.column_blocks; ++cb) {
          d.b_runs.emplace_back(GatherTable(lb, where_b, *native_b, kb * native_k, cb * sg),
                                d.b_eb);
        }
      }
    }
  }
  d.a = loader.Slot(inst.word(0));
  d.b = loader.Slot(inst.word(1));
  d.c = loader.Slot(inst.word(2));
  d.result = loader.Slot(inst.result_id());
  d.single = d.row_blocks == 1 && d.column_blocks == 1 && d.k_blocks == 1;
  if (!d.single) {
    auto round = [](uint64_t v) { return (v + 63) / 64 * 64; };
    const uint64_t c_bytes = uint64_t{lc.length()} * d.c_eb * sg;
    const uint64_t d_bytes = uint64_t{d.d_lane_bytes} * sg;
    d.direct_result = d.result + d_bytes <= d.c || d.c + c_bytes <= d.result ||
                      (d.result == d.c && d_bytes == c_bytes && d.c_eb == d.d_eb);
    d.a_block = static_cast<uint32_t>(round(uint64_t{max_a_bytes} * sg));
    d.b_block = static_cast<uint32_t>(round(uint64_t{b_bytes} * sg));
    d.a_native = 0;
    d.b_native = static_cast<uint32_t>(d.a_block * d.a_runs.size());
    d.acc = static_cast<uint32_t>(d.b_native + d.b_block * d.b_runs.size());
    d.staging = static_cast<uint32_t>(d.acc + round(uint64_t{max_acc_bytes} * sg));
    const uint64_t total = d.staging + (d.direct_result ? 0 : round(d_bytes));
    d.scratch = loader.ScratchSlot(static_cast<uint32_t>((total + sg - 1) / sg));
  }
  out.fn = ExecCoopMulAdd;
  out.data = loader.program().Own(std::move(d));
  loader.program().uses_matrix = true;
  return true;
}

}  // namespace xmx::interp
