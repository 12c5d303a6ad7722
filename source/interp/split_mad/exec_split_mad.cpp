// The split matrix multiply-accumulate builtins (SPEC-NOTES D): two subgroups share A, each
// supplying half of its rows, while B, C and the result stay per subgroup. There is no SPIR-V
// instruction: producers leave calls to imported functions such as
// _Z42intel_sub_group_i8_i8_split_matrix_mad_k32Dv4_iDv8_iS0_.
//
// Pairing (DECISIONS.md 9): subgroups 2k and 2k+1 of a work-group pair up; 2k supplies rows
// 0 .. M/2-1 of A, 2k+1 rows M/2 .. M-1. Each computes C + A x B with its own B and C exactly as
// the non-split instruction does at subgroup size 8 (matrix_mad.hpp). A subgroup without a
// partner waits for ever, which the scheduler reports (barrier.deadlock).
#include <string>

#include "interp/load/loader.hpp"
#include "interp/matrix_mad/matrix_mad.hpp"
#include "interp/run/exec_shared.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

struct SplitData {
  MatrixMadKernel kernel;
  uint32_t half_bytes;  // bytes per lane of each subgroup's A (M/2 32-bit components)
  uint32_t full;        // scratch slot for the assembled A
};

// op[0] A half, op[1] B, op[2] C; result.
const Instr* ExecSplitMatrixMad(Subgroup& sg, const Instr* in) {
  const SplitData& d = *static_cast<const SplitData*>(in->data);
  WorkGroup& g = *sg.group;
  const size_t slot_bytes = size_t{d.half_bytes} * sg.lanes;
  if (!sg.collective_arrived) {
    if (RequireWholeSubgroup(sg, in, "a split matrix multiply-accumulate")) {
      return StopSubgroup(sg);
    }
    const size_t needed = g.subgroups->size() * slot_bytes;
    if (g.split_halves.size() < needed) g.split_halves.resize(needed);
    std::memcpy(g.split_halves.data() + sg.id * slot_bytes, sg.regs + in->op[0], slot_bytes);
    sg.collective_arrived = true;
    sg.state = SubgroupState::kAtPairBarrier;
    sg.barrier_at = in;
    sg.ip = in;
    return nullptr;
  }
  // Both subgroups of the pair have deposited their half: the first to resume assembles A.
  sg.collective_arrived = false;
  const uint32_t pair = sg.id / 2;
  const size_t full_bytes = 2 * slot_bytes;
  if (g.split_full.size() < (pair + 1) * full_bytes) g.split_full.resize((pair + 1) * full_bytes);
  uint8_t* full = g.split_full.data() + pair * full_bytes;
  if (g.split_full_round[pair] != sg.split_round) {
    g.split_full_round[pair] = sg.split_round;
    const uint8_t* low = g.split_halves.data() + (2 * pair) * slot_bytes;
    const uint8_t* high = g.split_halves.data() + (2 * pair + 1) * slot_bytes;
    for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
      std::memcpy(full + lane * 2 * d.half_bytes, low + lane * d.half_bytes, d.half_bytes);
      std::memcpy(full + lane * 2 * d.half_bytes + d.half_bytes, high + lane * d.half_bytes,
                  d.half_bytes);
    }
  }
  ++sg.split_round;
  std::memcpy(sg.regs + d.full, full, full_bytes);
  d.kernel.Run(sg.regs + d.full, sg.regs + in->op[1], sg.regs + in->op[2], sg.regs + in->result);
  ++sg.matrix_instructions;
  return in + 1;
}

struct SplitFamily {
  std::string_view types;
  uint32_t k;
  uint32_t operands;  // the Matrix Multiply Accumulate Operands of the same arithmetic
};
constexpr SplitFamily kFamilies[] = {
    {"i8_i8", 32, 0x33}, {"i8_u8", 32, 0x31},       {"u8_i8", 32, 0x32},
    {"u8_u8", 32, 0x30}, {"bf16_bf16", 16, 0x3000}, {"f16_f16", 16, 0xC00},
};

}  // namespace

bool BindSplitMatrixMad(Loader& loader, const ir::Instruction& inst, std::string_view name,
                        Instr& out) {
  constexpr std::string_view kPrefix = "intel_sub_group_";
  constexpr std::string_view kMiddle = "_split_matrix_mad_k";
  if (name.substr(0, kPrefix.size()) != kPrefix) return false;
  const size_t middle = name.find(kMiddle);
  if (middle == std::string_view::npos) return false;
  const std::string_view types = name.substr(kPrefix.size(), middle - kPrefix.size());
  const std::string_view k_text = name.substr(middle + kMiddle.size());
  const SplitFamily* family = nullptr;
  for (const SplitFamily& f : kFamilies) {
    if (f.types == types && std::to_string(f.k) == k_text) family = &f;
  }
  if (family == nullptr) {
    return loader.Fail(inst, "unknown split matrix function '" + std::string(name) + "'");
  }
  if (inst.num_operands() != 4) {
    return loader.Fail(inst, std::string(name) + " takes three arguments (a, b, acc)");
  }
  if (loader.subgroup_size() != 8) {
    return loader.Fail(inst,
                       "the split matrix functions need subgroup size 8 (SPEC-NOTES D); "
                       "this kernel runs at " +
                           std::to_string(loader.subgroup_size()));
  }
  const TypeInfo& a = loader.TypeOfValue(inst.word(1));
  const TypeInfo& result = loader.Type(inst.result_type_id());
  MatrixMadShape shape;
  shape.subgroup_size = 8;
  shape.k = family->k;
  shape.operands = family->operands;
  shape.result = result.value;
  shape.a = {a.value.scalar, a.value.components * 2};
  shape.b = loader.TypeOfValue(inst.word(2)).value;
  shape.c = loader.TypeOfValue(inst.word(3)).value;
  if (a.value.scalar.bytes != 4 || result.value.components != shape.a.components) {
    return loader.Fail(inst, std::string(name) +
                                 ": a must have M/2 32-bit components for a "
                                 "result of M components");
  }
  std::string why;
  std::optional<MatrixMadKernel> kernel = MatrixMadKernel::Prepare(
      shape, loader.options().ordered_matrix_fp ? MmaFloatModel::kOrdered : MmaFloatModel::kExact,
      &why);
  if (!kernel) return loader.Fail(inst, std::string(name) + ": " + why);
  SplitData data{*kernel, a.lane_bytes, 0};
  data.full = loader.ScratchSlot(2 * a.lane_bytes);
  out.fn = ExecSplitMatrixMad;
  out.result = loader.Slot(inst.result_id());
  out.op[0] = loader.Slot(inst.word(1));
  out.op[1] = loader.Slot(inst.word(2));
  out.op[2] = loader.Slot(inst.word(3));
  out.data = loader.program().Own(data);
  loader.program().uses_matrix = true;
  return true;
}

}  // namespace xmx::interp
