// Group and non-uniform group instructions at Subgroup scope. OpGroup* need the whole subgroup
// (DECISIONS.md 7); OpGroupNonUniform* work over the active lanes. Reductions and scans combine
// lanes in increasing lane order; exclusive scans start from the operation's identity
// (DECISIONS.md 8).
#include <cmath>
#include <limits>

#include "interp/group/group_combine.hpp"
#include "interp/load/loader.hpp"
#include "interp/run/exec_elementwise.hpp"
#include "interp/run/exec_shared.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

using namespace group_combine;  // Combine, Scan, GroupData, CombineSequence (group_combine.hpp)

const Instr* ExecGroupOperation(Subgroup& sg, const Instr* in) {
  const GroupData& d = *static_cast<const GroupData*>(in->data);
  if (d.whole_subgroup && RequireWholeSubgroup(sg, in, "this group instruction")) {
    return StopSubgroup(sg);
  }
  // The active lanes' values, packed in lane order, combined, and scattered back.
  const uint32_t size = d.components * d.scalar.bytes;
  uint8_t values[kMaxSubgroupSize * 128], results[kMaxSubgroupSize * 128];
  uint32_t count = 0;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    std::memcpy(values + count++ * size, sg.regs + in->op[0] + lane * size, size);
  });
  CombineBytes(d, values, results, count);
  count = 0;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    std::memcpy(sg.regs + in->result + lane * size, results + count++ * size, size);
  });
  return in + 1;
}

// All / Any / AllEqual of a bool (or value) over the active lanes.
const Instr* ExecGroupVote(Subgroup& sg, const Instr* in) {
  const uint32_t kind = in->aux & 0xFF;  // 0 all, 1 any, 2 all-equal
  const bool whole = (in->aux >> 8) != 0;
  if (whole && RequireWholeSubgroup(sg, in, "this group instruction")) return StopSubgroup(sg);
  const uint32_t size = in->size;
  bool all = true, any = false, equal = true;
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(sg.mask));
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint8_t* v = sg.regs + in->op[0] + lane * size;
    bool nonzero = false;
    for (uint32_t b = 0; b < size; ++b) nonzero |= v[b] != 0;
    all &= nonzero;
    any |= nonzero;
    equal &= std::memcmp(v, sg.regs + in->op[0] + first * size, size) == 0;
  });
  const uint8_t result = kind == 0 ? all : kind == 1 ? any : equal;
  ForEachLane(sg.mask, [&](uint32_t lane) { sg.regs[in->result + lane] = result; });
  return in + 1;
}

// Broadcast of lane `id` (op[1]; aux bit 0: id is per lane value, must be uniform) or of the
// first active lane (aux bit 1).
}  // namespace

const Instr* ExecGroupBroadcast(Subgroup& sg, const Instr* in) {
  const bool whole = (in->aux & 4) != 0;
  if (whole && RequireWholeSubgroup(sg, in, "OpGroupBroadcast")) return StopSubgroup(sg);
  const uint32_t size = in->size;
  uint32_t source;
  if ((in->aux & 2) != 0) {
    source = static_cast<uint32_t>(std::countr_zero(sg.mask));
  } else {
    if (RequireUniform(sg, in, in->op[1], in->count, "the broadcast's invocation id")) {
      return StopSubgroup(sg);
    }
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(sg.mask));
    const uint64_t id = LaneUInt(sg, in->op[1], in->count, first);
    if (id >= sg.lanes || ((sg.mask >> id) & 1) == 0) {
      // An undefined value (DECISIONS.md 16): all bits zero, a warning about the first lane.
      WarnUndefinedValue(sg, in, first, kUndefinedSourceRule, [&] {
        return "broadcast from invocation " + std::to_string(id) +
               (id >= sg.lanes ? ", which does not exist" : ", which did not execute it") +
               ": an undefined value, all bits zero";
      });
      ForEachLane(sg.mask,
                  [&](uint32_t lane) { std::memset(sg.regs + in->result + lane * size, 0, size); });
      return in + 1;
    }
    source = static_cast<uint32_t>(id);
  }
  uint8_t value[128];
  std::memcpy(value, sg.regs + in->op[0] + source * size, size);
  ForEachLane(sg.mask,
              [&](uint32_t lane) { std::memcpy(sg.regs + in->result + lane * size, value, size); });
  return in + 1;
}

namespace {

// Shuffles of core SPIR-V: result = value of lane f(lane, operand). aux: 0 index, 1 xor, 2 up,
// 3 down. Reading a lane that is not active or does not exist gives an undefined value
// (DECISIONS.md 16): all bits zero, with a warning that never stops the run.
const Instr* ExecNonUniformShuffle(Subgroup& sg, const Instr* in) {
  const uint32_t size = in->size;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint64_t operand = LaneUInt(sg, in->op[1], in->count, lane);
    int64_t source;
    switch (in->aux) {
      case 0:
        source = static_cast<int64_t>(operand);
        break;
      case 1:
        source = static_cast<int64_t>(lane ^ operand);
        break;
      case 2:
        source = static_cast<int64_t>(lane) - static_cast<int64_t>(operand);
        break;
      default:
        source = static_cast<int64_t>(lane + operand);
        break;
    }
    uint8_t* dst = sg.regs + in->result + lane * size;
    if (source < 0 || source >= sg.lanes || ((sg.mask >> source) & 1) == 0) {
      std::memset(dst, 0, size);  // the undefined value's pattern: all bits zero
      WarnUndefinedValue(sg, in, lane, kUndefinedSourceRule, [&] {
        return "shuffle reads invocation " + std::to_string(source) +
               (source < 0 || source >= sg.lanes ? ", which does not exist"
                                                 : ", which did not execute it") +
               ": an undefined value, all bits zero";
      });
      return;
    }
    // The result has its own slot (SSA): the values can be read while it is written.
    const uint8_t* src = sg.regs + in->op[0] + source * size;
    std::memcpy(dst, src, size);
  });
  return in + 1;
}

// OpGroup* at Workgroup scope: every subgroup deposits its lanes' values and parks as at a
// barrier; once all have arrived, the first to resume computes every work-item's result in
// local-id order, and each subgroup takes its own. in->aux: 0 combine (data: GroupData),
// 1 all, 2 any, 3 broadcast (op[1]: local id, count: its bytes, or components for a vector id).
const Instr* ExecWorkgroupCollective(Subgroup& sg, const Instr* in) {
  WorkGroup& g = *sg.group;
  const uint32_t value_bytes = in->size;
  const uint32_t result_bytes = in->aux == 0 ? value_bytes : in->aux == 3 ? value_bytes : 1;
  if (!sg.collective_arrived) {
    if (sg.mask != sg.live_mask && g.checking()) {
      if (ReportSubgroup(sg, in, "barrier.divergent",
                         "work-group collective reached by part of subgroup " +
                             std::to_string(sg.id) + " only")) {
        return StopSubgroup(sg);
      }
    }
    const size_t needed = size_t{g.items} * value_bytes;
    if (g.collective.size() < needed) g.collective.resize(needed);
    ForEachLane(sg.mask, [&](uint32_t lane) {
      std::memcpy(g.collective.data() + size_t{sg.first_item + lane} * value_bytes,
                  sg.regs + in->op[0] + lane * value_bytes, value_bytes);
    });
    if (in->aux == 3) {
      // The broadcast's local id must be the same everywhere; keep lane 0's.
      if (RequireUniform(sg, in, in->op[1], (in->count & 0xFF) * (in->count >> 8),
                         "the broadcast's local id")) {
        return StopSubgroup(sg);
      }
    }
    sg.collective_arrived = true;
    sg.state = SubgroupState::kAtBarrier;
    sg.barrier_at = in;
    sg.ip = in;
    return nullptr;
  }
  sg.collective_arrived = false;
  if (g.collective_epoch != g.barrier_epoch) {
    g.collective_epoch = g.barrier_epoch;
    g.collective_result.resize(size_t{g.items} * result_bytes);
    uint8_t* out = g.collective_result.data();
    const uint8_t* values = g.collective.data();
    if (in->aux == 0) {
      CombineBytes(*static_cast<const GroupData*>(in->data), values, out, g.items);
    } else if (in->aux == 1 || in->aux == 2) {
      bool all = true, any = false;
      for (uint32_t i = 0; i < g.items; ++i) {
        bool nonzero = false;
        for (uint32_t b = 0; b < value_bytes; ++b) nonzero |= values[i * value_bytes + b] != 0;
        all &= nonzero;
        any |= nonzero;
      }
      std::memset(out, in->aux == 1 ? all : any, g.items);
    } else {
      // The local id: a scalar linear id in one dimension, else (x, y[, z]).
      const uint32_t first = static_cast<uint32_t>(std::countr_zero(sg.mask));
      const uint32_t component_bytes = in->count & 0xFF, components = in->count >> 8;
      uint64_t id[3] = {0, 0, 0};
      for (uint32_t c = 0; c < components && c < 3; ++c) {
        std::memcpy(&id[c], sg.regs + in->op[1] + (first * components + c) * component_bytes,
                    component_bytes);
      }
      const LaunchGeometry& geo = g.launch->geometry;
      const uint64_t linear = id[0] + geo.local[0] * (id[1] + geo.local[1] * id[2]);
      if (linear >= g.items) {
        if (g.checking() && ReportAt(sg, in, first, "subgroup.non-uniform",
                                     "work-group broadcast from local id " +
                                         std::to_string(linear) + ", outside the work-group")) {
          return StopSubgroup(sg);
        }
        std::memset(out, 0, size_t{g.items} * result_bytes);
      } else {
        for (uint32_t i = 0; i < g.items; ++i) {
          std::memcpy(out + i * result_bytes, values + linear * value_bytes, value_bytes);
        }
      }
    }
  }
  ForEachLane(sg.mask, [&](uint32_t lane) {
    std::memcpy(sg.regs + in->result + lane * result_bytes,
                g.collective_result.data() + size_t{sg.first_item + lane} * result_bytes,
                result_bytes);
  });
  return in + 1;
}

const Instr* ExecElect(Subgroup& sg, const Instr* in) {
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(sg.mask));
  ForEachLane(sg.mask, [&](uint32_t lane) { sg.regs[in->result + lane] = lane == first; });
  return in + 1;
}

// Ballot: a uint4 with bit i set for active lanes whose predicate holds.
const Instr* ExecBallot(Subgroup& sg, const Instr* in) {
  uint64_t bits = 0;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    if (sg.regs[in->op[0] + lane]) bits |= uint64_t{1} << lane;
  });
  const uint32_t words[4] = {static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32), 0, 0};
  ForEachLane(sg.mask,
              [&](uint32_t lane) { std::memcpy(sg.regs + in->result + lane * 16, words, 16); });
  return in + 1;
}

// BallotBitCount (aux 0 reduce, 1 inclusive, 2 exclusive), BallotFindLSB (3), FindMSB (4),
// BallotBitExtract (5), InverseBallot (6).
const Instr* ExecBallotQuery(Subgroup& sg, const Instr* in) {
  ForEachLane(sg.mask, [&](uint32_t lane) {
    uint64_t bits = 0;
    std::memcpy(&bits, sg.regs + in->op[0] + lane * 16, 8);
    uint32_t r = 0;
    const uint64_t below = lane == 0 ? 0 : (lane >= 64 ? ~uint64_t{0} : (uint64_t{1} << lane) - 1);
    switch (in->aux) {
      case 0:
        r = static_cast<uint32_t>(std::popcount(bits));
        break;
      case 1:
        r = static_cast<uint32_t>(std::popcount(bits & (below | (uint64_t{1} << lane))));
        break;
      case 2:
        r = static_cast<uint32_t>(std::popcount(bits & below));
        break;
      case 3:
        r = bits == 0 ? 0 : static_cast<uint32_t>(std::countr_zero(bits));
        break;
      case 4:
        r = bits == 0 ? 0 : 63 - static_cast<uint32_t>(std::countl_zero(bits));
        break;
      case 5: {
        const uint64_t index = LaneUInt(sg, in->op[1], in->count, lane);
        sg.regs[in->result + lane] = index < 64 && ((bits >> index) & 1) != 0;
        return;
      }
      default:
        sg.regs[in->result + lane] = ((bits >> lane) & 1) != 0;
        return;
    }
    std::memcpy(sg.regs + in->result + lane * 4, &r, 4);
  });
  return in + 1;
}

bool ScopeIsSubgroup(Loader& loader, const ir::Instruction& inst) {
  const std::optional<uint64_t> scope = loader.ConstantValue(inst.word(0));
  if (!scope || *scope != static_cast<uint32_t>(spv::Scope::Subgroup)) {
    loader.Fail(inst, "xmx-run executes this group instruction at Subgroup scope only");
    return false;
  }
  return true;
}

bool ScopeIsWorkgroup(Loader& loader, const ir::Instruction& inst) {
  const std::optional<uint64_t> scope = loader.ConstantValue(inst.word(0));
  return scope && *scope == static_cast<uint32_t>(spv::Scope::Workgroup);
}

}  // namespace

bool BindGroup(Loader& loader, const ir::Instruction& inst, Instr& out) {
  using spv::Op;
  const Op op = inst.opcode();
  std::optional<Combine> combine;
  bool whole = false;
  switch (op) {
    case Op::OpGroupIAdd:
      combine = Combine::kIAdd;
      whole = true;
      break;
    case Op::OpGroupFAdd:
      combine = Combine::kFAdd;
      whole = true;
      break;
    case Op::OpGroupFMin:
      combine = Combine::kFMin;
      whole = true;
      break;
    case Op::OpGroupUMin:
      combine = Combine::kUMin;
      whole = true;
      break;
    case Op::OpGroupSMin:
      combine = Combine::kSMin;
      whole = true;
      break;
    case Op::OpGroupFMax:
      combine = Combine::kFMax;
      whole = true;
      break;
    case Op::OpGroupUMax:
      combine = Combine::kUMax;
      whole = true;
      break;
    case Op::OpGroupSMax:
      combine = Combine::kSMax;
      whole = true;
      break;
    case Op::OpGroupNonUniformIAdd:
      combine = Combine::kIAdd;
      break;
    case Op::OpGroupNonUniformFAdd:
      combine = Combine::kFAdd;
      break;
    case Op::OpGroupNonUniformIMul:
      combine = Combine::kIMul;
      break;
    case Op::OpGroupNonUniformFMul:
      combine = Combine::kFMul;
      break;
    case Op::OpGroupNonUniformSMin:
      combine = Combine::kSMin;
      break;
    case Op::OpGroupNonUniformUMin:
      combine = Combine::kUMin;
      break;
    case Op::OpGroupNonUniformFMin:
      combine = Combine::kFMin;
      break;
    case Op::OpGroupNonUniformSMax:
      combine = Combine::kSMax;
      break;
    case Op::OpGroupNonUniformUMax:
      combine = Combine::kUMax;
      break;
    case Op::OpGroupNonUniformFMax:
      combine = Combine::kFMax;
      break;
    case Op::OpGroupNonUniformBitwiseAnd:
      combine = Combine::kAnd;
      break;
    case Op::OpGroupNonUniformBitwiseOr:
      combine = Combine::kOr;
      break;
    case Op::OpGroupNonUniformBitwiseXor:
      combine = Combine::kXor;
      break;
    case Op::OpGroupNonUniformLogicalAnd:
      combine = Combine::kLogicalAnd;
      break;
    case Op::OpGroupNonUniformLogicalOr:
      combine = Combine::kLogicalOr;
      break;
    case Op::OpGroupNonUniformLogicalXor:
      combine = Combine::kLogicalXor;
      break;
    default:
      break;
  }
  if (combine) {
    const bool workgroup = whole && ScopeIsWorkgroup(loader, inst);
    if (!workgroup && !ScopeIsSubgroup(loader, inst)) return true;
    GroupData d{};
    d.combine = *combine;
    d.whole_subgroup = whole;
    const uint32_t operation = inst.word(1);
    if (operation == static_cast<uint32_t>(spv::GroupOperation::Reduce)) {
      d.scan = Scan::kReduce;
    } else if (operation == static_cast<uint32_t>(spv::GroupOperation::InclusiveScan)) {
      d.scan = Scan::kInclusive;
    } else if (operation == static_cast<uint32_t>(spv::GroupOperation::ExclusiveScan)) {
      d.scan = Scan::kExclusive;
    } else {
      return loader.Fail(inst, "xmx-run supports Reduce, InclusiveScan and ExclusiveScan");
    }
    if (inst.num_operands() > 3) return loader.Fail(inst, "clustered operations are not supported");
    const TypeInfo& t = loader.Type(inst.result_type_id());
    d.scalar = t.value.scalar;
    if (d.scalar.kind == ScalarKind::kBool) d.scalar = {ScalarKind::kInt, 1};
    d.components = t.value.components;
    if (t.lane_bytes > 128) return loader.Fail(inst, "group operation on a value over 128 bytes");
    out.fn = workgroup ? ExecWorkgroupCollective : ExecGroupOperation;
    out.size = t.lane_bytes;
    out.result = loader.Slot(inst.result_id());
    out.op[0] = loader.Slot(inst.word(2));
    out.data = loader.program().Own(d);
    return true;
  }
  switch (op) {
    case Op::OpGroupAll:
    case Op::OpGroupAny:
    case Op::OpGroupNonUniformAll:
    case Op::OpGroupNonUniformAny:
    case Op::OpGroupNonUniformAllEqual: {
      const bool all = op == Op::OpGroupAll || op == Op::OpGroupNonUniformAll;
      const bool any = op == Op::OpGroupAny || op == Op::OpGroupNonUniformAny;
      const bool group = op == Op::OpGroupAll || op == Op::OpGroupAny;
      if (group && ScopeIsWorkgroup(loader, inst)) {
        out.fn = ExecWorkgroupCollective;
        out.aux = all ? 1 : 2;
        out.result = loader.Slot(inst.result_id());
        out.op[0] = loader.Slot(inst.word(1));
        out.size = std::max<uint32_t>(loader.TypeOfValue(inst.word(1)).lane_bytes, 1);
        return true;
      }
      if (!ScopeIsSubgroup(loader, inst)) return true;
      out.fn = ExecGroupVote;
      out.aux = (all ? 0 : any ? 1 : 2) | (group ? 0x100 : 0);
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(1));
      out.size = std::max<uint32_t>(loader.TypeOfValue(inst.word(1)).lane_bytes, 1);
      return true;
    }
    case Op::OpGroupBroadcast:
    case Op::OpGroupNonUniformBroadcast:
    case Op::OpGroupNonUniformBroadcastFirst: {
      if (op == Op::OpGroupBroadcast && ScopeIsWorkgroup(loader, inst)) {
        const TypeInfo& id = loader.TypeOfValue(inst.word(2));
        out.fn = ExecWorkgroupCollective;
        out.aux = 3;
        out.result = loader.Slot(inst.result_id());
        out.op[0] = loader.Slot(inst.word(1));
        out.op[1] = loader.Slot(inst.word(2));
        out.size = loader.Type(inst.result_type_id()).lane_bytes;
        out.count = id.value.scalar.bytes | (id.value.components << 8);
        return true;
      }
      if (!ScopeIsSubgroup(loader, inst)) return true;
      out.fn = ExecGroupBroadcast;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(1));
      out.size = loader.Type(inst.result_type_id()).lane_bytes;
      if (out.size > 128) return loader.Fail(inst, "broadcast value larger than 128 bytes");
      if (op == Op::OpGroupNonUniformBroadcastFirst) {
        out.aux = 2;
      } else {
        const TypeInfo& id = loader.TypeOfValue(inst.word(2));
        if (id.kind == ir::TypeKind::kVector) {
          return loader.Fail(inst, "xmx-run broadcasts with a scalar invocation id only");
        }
        out.op[1] = loader.Slot(inst.word(2));
        out.count = id.lane_bytes;
        out.aux = op == Op::OpGroupBroadcast ? 4 : 0;
      }
      return true;
    }
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor:
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown:
      if (!ScopeIsSubgroup(loader, inst)) return true;
      out.fn = ExecNonUniformShuffle;
      out.aux = op == Op::OpGroupNonUniformShuffle      ? 0
                : op == Op::OpGroupNonUniformShuffleXor ? 1
                : op == Op::OpGroupNonUniformShuffleUp  ? 2
                                                        : 3;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(1));
      out.op[1] = loader.Slot(inst.word(2));
      out.size = loader.Type(inst.result_type_id()).lane_bytes;
      out.count = loader.TypeOfValue(inst.word(2)).lane_bytes;
      return true;
    case Op::OpGroupNonUniformElect:
      if (!ScopeIsSubgroup(loader, inst)) return true;
      out.fn = ExecElect;
      out.result = loader.Slot(inst.result_id());
      return true;
    case Op::OpGroupNonUniformBallot:
      if (!ScopeIsSubgroup(loader, inst)) return true;
      out.fn = ExecBallot;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(1));
      return true;
    case Op::OpGroupNonUniformBallotBitCount:
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB:
    case Op::OpGroupNonUniformBallotBitExtract:
    case Op::OpGroupNonUniformInverseBallot: {
      if (!ScopeIsSubgroup(loader, inst)) return true;
      out.fn = ExecBallotQuery;
      out.result = loader.Slot(inst.result_id());
      if (op == Op::OpGroupNonUniformBallotBitCount) {
        const uint32_t operation = inst.word(1);
        out.aux = operation == static_cast<uint32_t>(spv::GroupOperation::Reduce)          ? 0
                  : operation == static_cast<uint32_t>(spv::GroupOperation::InclusiveScan) ? 1
                                                                                           : 2;
        out.op[0] = loader.Slot(inst.word(2));
      } else {
        out.aux = op == Op::OpGroupNonUniformBallotFindLSB      ? 3
                  : op == Op::OpGroupNonUniformBallotFindMSB    ? 4
                  : op == Op::OpGroupNonUniformBallotBitExtract ? 5
                                                                : 6;
        out.op[0] = loader.Slot(inst.word(1));
        if (op == Op::OpGroupNonUniformBallotBitExtract) {
          out.op[1] = loader.Slot(inst.word(2));
          out.count = loader.TypeOfValue(inst.word(2)).lane_bytes;
        }
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace xmx::interp
