// OpSubgroupMatrixMultiplyAccumulateINTEL: the arithmetic is matrix_mad.hpp's, prepared once at
// load time; the executor checks that the whole subgroup runs it (DECISIONS.md 7). The private
// loads of its operands and the store of its result that the loader folds into it
// (matrix_operand_folding.hpp) run here, around the arithmetic.
#include "interp/load/loader.hpp"
#include "interp/load/matrix_operand_folding.hpp"
#include "interp/matrix_mad/matrix_mad.hpp"
#include "interp/memory/private_move.hpp"
#include "interp/run/exec_support.hpp"
#include "ir/matrix_mad_operands.hpp"

namespace xmx::interp {
namespace {

struct MatrixMadData {
  MatrixMadKernel kernel;
  FoldedPrivateAccess loads[3];  // of A, B, C (size 0: the operand's own instruction loads it)
  // The store and the count are completed after the program owns the data (which it keeps
  // const), when the loader reaches the store: mutable for that.
  mutable FoldedPrivateAccess store;  // of the Result
  mutable uint32_t folded = 0;        // instructions folded in, counted as executed here
  // Nothing but the store reads the Result (matrix_operand_folding.hpp): once the store is
  // folded, a routine that writes in place may write the Result straight to private memory.
  bool result_stored_only = false;
};

// Every lane of the subgroup is a work-item and active: RequireWholeSubgroup's passing test,
// inline, since it passes on nearly every execution and the call cost more than the test.
inline bool WholeSubgroup(const Subgroup& sg) {
  return sg.mask == sg.live_mask &&
         sg.live_mask == (sg.lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << sg.lanes) - 1);
}

template <bool kStore>
inline __attribute__((always_inline)) void MoveFolded(Subgroup& sg, const SubgroupPrivate& p,
                                                      const FoldedPrivateAccess& f) {
  switch (f.size) {  // a matrix instruction's operands: 8 x 16 or 32 bits, most often
    case 0:
      return;
    case 16:
      return MovePrivate<kStore, 16>(sg, p, f.variable, f.offset, sg.regs + f.slot, 16);
    case 32:
      return MovePrivate<kStore, 32>(sg, p, f.variable, f.offset, sg.regs + f.slot, 32);
    default:
      return MovePrivate<kStore, 0>(sg, p, f.variable, f.offset, sg.regs + f.slot, f.size);
  }
}

// Where lane l of an operand lies for MatrixMadKernel::RunInPlace: at first + l * stride.
struct InPlaceOperand {
  uint8_t* first;
  size_t stride;
};

// A folded operand in the work-items' copies of its private variable, another in its slot.
inline InPlaceOperand OperandInPlace(const Subgroup& sg, const SubgroupPrivate& p,
                                     const FoldedPrivateAccess& f, uint32_t slot,
                                     uint32_t lane_bytes) {
  if (f.size == 0) return {sg.regs + slot, lane_bytes};
  return {p.items + p.offsets[f.variable] + f.offset, p.stride};
}

const Instr* ExecMatrixMad(Subgroup& sg, const Instr* in) {
  if (!WholeSubgroup(sg) &&
      RequireWholeSubgroup(sg, in, "OpSubgroupMatrixMultiplyAccumulateINTEL")) {
    return StopSubgroup(sg);
  }
  const MatrixMadData& d = *static_cast<const MatrixMadData*>(in->data);
  d.kernel.Run(sg.regs + in->op[0], sg.regs + in->op[1], sg.regs + in->op[2], sg.regs + in->result);
  ++sg.matrix_instructions;
  return in + 1;
}

// The same with the folded loads before and the folded store after the arithmetic.
inline __attribute__((always_inline)) const Instr* MatrixMadFolded(Subgroup& sg, const Instr* in) {
  if (!WholeSubgroup(sg) &&
      RequireWholeSubgroup(sg, in, "OpSubgroupMatrixMultiplyAccumulateINTEL")) {
    return StopSubgroup(sg);
  }
  const MatrixMadData& d = *static_cast<const MatrixMadData*>(in->data);
  const SubgroupPrivate p = SubgroupPrivate::Of(sg);
  bool stored = false;  // the Result is already in private memory
  if (d.kernel.runs_in_place() && p.all_lanes) {
    // The routine reads the folded operands in the work-items' private copies, lane by lane at
    // the private stride, and the others in their register slots: the loads' slots have no
    // other reader (matrix_operand_folding.hpp), so they need not be filled. The Result goes
    // straight to private memory when nothing but its folded store reads it.
    const InPlaceOperand a = OperandInPlace(sg, p, d.loads[0], in->op[0], d.kernel.a_lane_bytes());
    const InPlaceOperand b = OperandInPlace(sg, p, d.loads[1], in->op[1], d.kernel.b_lane_bytes());
    const InPlaceOperand c = OperandInPlace(sg, p, d.loads[2], in->op[2], d.kernel.c_lane_bytes());
    stored = d.result_stored_only && d.store.size != 0;
    const InPlaceOperand result =
        stored ? OperandInPlace(sg, p, d.store, in->result, 0)
               : InPlaceOperand{sg.regs + in->result, d.kernel.result_lane_bytes()};
    d.kernel.RunInPlace(a.first, a.stride, b.first, b.stride, c.first, c.stride, result.first,
                        result.stride);
  } else {
    MoveFolded<false>(sg, p, d.loads[0]);
    MoveFolded<false>(sg, p, d.loads[1]);
    MoveFolded<false>(sg, p, d.loads[2]);
    d.kernel.Run(sg.regs + in->op[0], sg.regs + in->op[1], sg.regs + in->op[2],
                 sg.regs + in->result);
  }
  ++sg.matrix_instructions;
  if (!stored) MoveFolded<true>(sg, p, d.store);
  sg.folded_instructions += d.folded;
  sg.lane_instructions += uint64_t{d.folded} * sg.active;
  return in + 1;
}

const Instr* ExecMatrixMadFolded(Subgroup& sg, const Instr* in) { return MatrixMadFolded(sg, in); }

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// On CPUs with AVX2 a lane's 32 bytes move in one register, as the private load and store
// handlers move them (exec_memory.cpp).
__attribute__((target("avx2"))) const Instr* ExecMatrixMadFoldedAvx2(Subgroup& sg,
                                                                     const Instr* in) {
  return MatrixMadFolded(sg, in);
}

Handler FoldedHandler() {
  static const bool avx2 = __builtin_cpu_supports("avx2") != 0;
  return avx2 ? ExecMatrixMadFoldedAvx2 : ExecMatrixMadFolded;
}
#else
Handler FoldedHandler() { return ExecMatrixMadFolded; }
#endif

// The access of `inst` (an OpLoad or OpStore of `bytes` per lane, `alignment` its Aligned
// operand) when its pointer is a known private address the access lies inside at an offset
// the alignment divides: what the load and store binders require before they skip every
// run-time check (exec_memory.cpp, UsePrivateAccess).
std::optional<FoldedPrivateAccess> KnownPrivateAccess(Loader& loader, uint32_t pointer,
                                                      uint32_t value_slot, uint32_t bytes,
                                                      uint32_t alignment) {
  const std::optional<PrivateAddress> address = loader.PrivateAddressOf(pointer);
  if (!address || bytes == 0) return std::nullopt;
  const VariableInfo& v = loader.program().private_variables[address->variable];
  if (v.storage != spv::StorageClass::Function || address->offset > v.bytes ||
      bytes > v.bytes - address->offset || (alignment > 1 && address->offset % alignment != 0)) {
    return std::nullopt;
  }
  return FoldedPrivateAccess{value_slot, address->variable, static_cast<uint32_t>(address->offset),
                             bytes};
}

}  // namespace

bool FoldIntoMatrixMad(Loader& loader, const ir::Instruction& inst, const Instr& bound) {
  MatrixOperandFolds& folds = loader.matrix_folds();
  if (inst.opcode() == spv::Op::OpLoad && folds.loads.count(&inst) != 0) {
    const TypeInfo& t = loader.Type(inst.result_type_id());
    if (t.kind == ir::TypeKind::kPointer || bound.size != t.lane_bytes) return false;
    const std::optional<FoldedPrivateAccess> access =
        KnownPrivateAccess(loader, inst.word(0), bound.result, bound.size, bound.aux);
    if (!access) return false;
    folds.folded_loads[inst.result_id()] = *access;
    return true;
  }
  auto target = folds.store_targets.find(&inst);
  if (inst.opcode() != spv::Op::OpStore || target == folds.store_targets.end()) return false;
  const TypeInfo& t = loader.TypeOfValue(inst.word(1));
  if (t.kind == ir::TypeKind::kPointer) return false;
  const std::optional<FoldedPrivateAccess> access =
      KnownPrivateAccess(loader, inst.word(0), loader.Slot(inst.word(1)), t.lane_bytes, bound.aux);
  if (!access) return false;
  *target->second.access = *access;
  ++*target->second.folded_count;
  return true;
}

bool BindMatrixMad(Loader& loader, const ir::Instruction& inst, Instr& out) {
  if (inst.opcode() != spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL) return false;
  const std::optional<ir::MatrixMadOperands> operands = ir::DecodeMatrixMadOperands(inst);
  if (!operands) return loader.Fail(inst, "too few operands for a matrix instruction");
  MatrixMadShape shape;
  shape.subgroup_size = loader.subgroup_size();
  const std::optional<uint64_t> k = loader.ConstantValue(operands->k_dim);
  if (!k) return loader.Fail(inst, "K Dim must be a constant");
  shape.k = static_cast<uint32_t>(*k);
  shape.operands = operands->operands;
  shape.result = loader.Type(inst.result_type_id()).value;
  shape.a = loader.TypeOfValue(operands->a).value;
  shape.b = loader.TypeOfValue(operands->b).value;
  shape.c = loader.TypeOfValue(operands->c).value;
  std::string why;
  std::optional<MatrixMadKernel> kernel = MatrixMadKernel::Prepare(
      shape, loader.options().ordered_matrix_fp ? MmaFloatModel::kOrdered : MmaFloatModel::kExact,
      &why);
  if (!kernel) {
    return loader.Fail(inst, "xmx-run cannot execute this matrix instruction at subgroup size " +
                                 std::to_string(shape.subgroup_size) + ": " + why);
  }
  out.fn = ExecMatrixMad;
  out.result = loader.Slot(inst.result_id());
  out.op[0] = loader.Slot(operands->a);
  out.op[1] = loader.Slot(operands->b);
  out.op[2] = loader.Slot(operands->c);
  MatrixOperandFolds& folds = loader.matrix_folds();
  MatrixMadData data{*kernel, {}, {}, 0, false};
  const uint32_t ids[] = {operands->a, operands->b, operands->c};
  for (int i = 0; i < 3; ++i) {
    auto folded = folds.folded_loads.find(ids[i]);
    if (folded == folds.folded_loads.end()) continue;
    data.loads[i] = folded->second;
    ++data.folded;
    folds.folded_loads.erase(folded);
  }
  data.result_stored_only = folds.stored_only.count(&inst) != 0;
  // The store, if the loader folds it when it reaches it, completes this instruction's data.
  const MatrixMadData* owned = loader.program().Own(data);
  if (auto store = folds.stores.find(&inst); store != folds.stores.end()) {
    folds.store_targets[store->second] = {&owned->store, &owned->folded};
    out.fn = FoldedHandler();
  }
  if (owned->folded != 0) out.fn = FoldedHandler();
  out.data = owned;
  loader.program().uses_matrix = true;
  return true;
}

}  // namespace xmx::interp
