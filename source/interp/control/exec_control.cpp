// Control flow under SIMT: branches split the active mask, lanes meet again at the immediate
// post-dominator of the branch (a reconvergence stack, as in SIMT hardware), calls push a frame,
// barriers park the subgroup.
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "interp/load/loader.hpp"
#include "interp/run/exec_shared.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

void CopyPhis(Subgroup& sg, const Edge& e, uint64_t mask) {
  if (e.copies.empty()) return;
  if (!e.through_scratch) {
    for (const PhiCopy& c : e.copies) {
      if (mask == sg.live_mask) {
        const size_t bytes = size_t{c.size} * sg.lanes;
        // The usual slot sizes get a copy of known length (no library call).
        switch (bytes) {
          case 32:
            std::memcpy(sg.regs + c.dst, sg.regs + c.src, 32);
            break;
          case 64:
            std::memcpy(sg.regs + c.dst, sg.regs + c.src, 64);
            break;
          case 128:
            std::memcpy(sg.regs + c.dst, sg.regs + c.src, 128);
            break;
          default:
            std::memcpy(sg.regs + c.dst, sg.regs + c.src, bytes);
            break;
        }
      } else {
        ForEachLane(mask, [&](uint32_t lane) {
          std::memcpy(sg.regs + c.dst + lane * c.size, sg.regs + c.src + lane * c.size, c.size);
        });
      }
    }
    return;
  }
  // A phi reads another phi of the same block: read every source before writing.
  uint8_t* scratch = sg.regs + e.copies.front().dst;  // placeholder, replaced below
  (void)scratch;
  std::vector<uint8_t> saved;
  for (const PhiCopy& c : e.copies) {
    saved.insert(saved.end(), sg.regs + c.src, sg.regs + c.src + size_t{c.size} * sg.lanes);
  }
  size_t at = 0;
  for (const PhiCopy& c : e.copies) {
    ForEachLane(mask, [&](uint32_t lane) {
      std::memcpy(sg.regs + c.dst + lane * c.size, saved.data() + at + lane * c.size, c.size);
    });
    at += size_t{c.size} * sg.lanes;
  }
}

// The active lanes continue at `target`. Pops the reconvergence stack while the lanes reach the
// point where their entry reconverges, and returns from functions whose lanes all returned.
const Instr* Arrive(Subgroup& sg, const Instr* target) {
  for (;;) {
    StackEntry& top = sg.stack.back();
    if (top.reconverge != nullptr && target == top.reconverge) {
      sg.stack.pop_back();
      StackEntry& next = sg.stack.back();
      sg.SetMask(next.mask);
      target = next.pc;
      continue;
    }
    if (target == kExit) {
      const CallFrame frame = sg.frames.back();
      // Every lane of the call has returned when the callee's bottom entry gets here.
      sg.stack.resize(frame.stack_base);
      sg.frames.pop_back();
      if (sg.frames.empty() || sg.stack.empty()) {
        sg.state = SubgroupState::kDone;
        return nullptr;
      }
      sg.SetMask(sg.stack.back().mask);
      return frame.return_to;
    }
    top.pc = target;
    return target;
  }
}

// Lanes `mask` of the active ones go to edges[e]; handles any number of distinct targets.
const Instr* Diverge(Subgroup& sg, const BranchInfo& b, const uint64_t* masks, size_t count) {
  // Edges that share a target are merged by the caller; push the paths in reverse so that the
  // first edge runs first.
  StackEntry& top = sg.stack.back();
  top.pc = b.reconverge;
  const Instr* reconverge = b.reconverge;
  for (size_t i = count; i-- > 0;) {
    if (masks[i] == 0) continue;
    sg.stack.push_back({b.edges[i].target, reconverge, masks[i]});
  }
  StackEntry& first = sg.stack.back();
  sg.SetMask(first.mask);
  return Arrive(sg, first.pc);
}

const Instr* ExecBranch(Subgroup& sg, const Instr* in) {
  const Edge& e = *static_cast<const Edge*>(in->data);
  CopyPhis(sg, e, sg.mask);
  return Arrive(sg, e.target);
}

const Instr* ExecBranchConditional(Subgroup& sg, const Instr* in) {
  const BranchInfo& b = *static_cast<const BranchInfo*>(in->data);
  const uint8_t* cond = sg.regs + in->op[0];
  uint64_t taken = 0;
#if defined(__SSE2__)
  // Sixteen bools at a time: compare with zero and gather the byte signs into a mask.
  uint32_t lane = 0;
  for (; lane + 16 <= sg.lanes; lane += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(cond + lane));
    const uint32_t zero =
        static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())));
    taken |= uint64_t{~zero & 0xFFFFu} << lane;
  }
  for (; lane < sg.lanes; ++lane) taken |= uint64_t{cond[lane] != 0} << lane;
#else
  for (uint32_t lane = 0; lane < sg.lanes; ++lane) taken |= uint64_t{cond[lane] != 0} << lane;
#endif
  taken &= sg.mask;
  const uint64_t not_taken = sg.mask & ~taken;
  if (not_taken == 0 || b.edges[0].target == b.edges[1].target) {
    CopyPhis(sg, b.edges[0], taken);
    if (not_taken != 0) CopyPhis(sg, b.edges[1], not_taken);
    return Arrive(sg, b.edges[0].target);
  }
  if (taken == 0) {
    CopyPhis(sg, b.edges[1], not_taken);
    return Arrive(sg, b.edges[1].target);
  }
  CopyPhis(sg, b.edges[0], taken);
  CopyPhis(sg, b.edges[1], not_taken);
  const uint64_t masks[2] = {taken, not_taken};
  return Diverge(sg, b, masks, 2);
}

const Instr* ExecSwitch(Subgroup& sg, const Instr* in) {
  const BranchInfo& b = *static_cast<const BranchInfo*>(in->data);
  std::vector<uint64_t> masks(b.edges.size(), 0);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint64_t v = LaneUInt(sg, in->op[0], b.selector_bytes, lane);
    size_t edge = 0;
    for (size_t i = 0; i < b.case_values.size(); ++i) {
      if (b.case_values[i] == v) {
        edge = i + 1;
        break;
      }
    }
    // Lanes going to the same block travel together.
    for (size_t i = 0; i < edge; ++i) {
      if (b.edges[i].target == b.edges[edge].target) {
        edge = i;
        break;
      }
    }
    masks[edge] |= uint64_t{1} << lane;
  });
  size_t paths = 0, only = 0;
  for (size_t i = 0; i < masks.size(); ++i) {
    if (masks[i] != 0) {
      ++paths;
      only = i;
      CopyPhis(sg, b.edges[i], masks[i]);
    }
  }
  if (paths == 1) return Arrive(sg, b.edges[only].target);
  return Diverge(sg, b, masks.data(), masks.size());
}

const Instr* ExecReturn(Subgroup& sg, const Instr*) { return Arrive(sg, kExit); }

const Instr* ExecReturnValue(Subgroup& sg, const Instr* in) {
  const CallFrame& frame = sg.frames.back();
  if (frame.result_size != 0) {
    ForEachLane(sg.mask, [&](uint32_t lane) {
      std::memcpy(sg.regs + frame.result + lane * frame.result_size,
                  sg.regs + in->op[0] + lane * frame.result_size, frame.result_size);
    });
  }
  return Arrive(sg, kExit);
}

const Instr* ExecUnreachable(Subgroup& sg, const Instr* in) {
  if (sg.group->checking() && ReportAt(sg, in, static_cast<uint32_t>(std::countr_zero(sg.mask)),
                                       "control.unreachable", "the kernel reached OpUnreachable")) {
    return StopSubgroup(sg);
  }
  return Arrive(sg, kExit);
}

const Instr* ExecCall(Subgroup& sg, const Instr* in) {
  const CallInfo& call = *static_cast<const CallInfo*>(in->data);
  for (const PhiCopy& a : call.arguments) CopyLanes(sg, a.dst, a.src, a.size);
  sg.frames.push_back(
      {in + 1, in->result, call.return_size, static_cast<uint32_t>(sg.stack.size())});
  sg.stack.push_back({call.entry, nullptr, sg.mask});
  if (sg.frames.size() > 256) {
    ReportSubgroup(sg, in, "control.call-depth", "calls nest deeper than 256 (recursion?)");
    return StopSubgroup(sg);
  }
  return call.entry;
}

const Instr* ExecWorkgroupBarrier(Subgroup& sg, const Instr* in) {
  if (sg.mask != sg.live_mask && sg.group->checking()) {
    char text[64];
    std::snprintf(text, sizeof(text), "0x%llx of 0x%llx", static_cast<unsigned long long>(sg.mask),
                  static_cast<unsigned long long>(sg.live_mask));
    if (ReportSubgroup(sg, in, "barrier.divergent",
                       std::string("work-group barrier reached by part of subgroup ") +
                           std::to_string(sg.id) + " only (lanes " + text + ")")) {
      return StopSubgroup(sg);
    }
  }
  sg.state = SubgroupState::kAtBarrier;
  sg.barrier_at = in;
  sg.ip = in + 1;
  return nullptr;
}

}  // namespace

const Instr* ExecSubgroupBarrier(Subgroup& sg, const Instr* in) {
  if (sg.mask != sg.live_mask && sg.group->checking()) {
    if (ReportSubgroup(sg, in, "barrier.divergent",
                       "subgroup barrier reached by part of subgroup " + std::to_string(sg.id))) {
      return StopSubgroup(sg);
    }
  }
  ++sg.subgroup_barriers;
  return in + 1;
}

namespace {

const Instr* ExecNothing(Subgroup&, const Instr* in) { return in + 1; }

Edge* MakeEdge(Loader& loader, uint32_t from, uint32_t to) {
  Program& p = loader.program();
  Edge& e = p.edges.emplace_back();
  e.copies = loader.EdgeCopies(from, to, &e.through_scratch);
  loader.ResolveLater(&e.target, to);
  return &e;
}

}  // namespace

bool BindControl(Loader& loader, const ir::Instruction& inst, Instr& out) {
  Program& p = loader.program();
  const uint32_t block = loader.CurrentBlock();
  switch (inst.opcode()) {
    case spv::Op::OpBranch:
      out.fn = ExecBranch;
      out.data = MakeEdge(loader, block, inst.word(0));
      return true;
    case spv::Op::OpBranchConditional:
    case spv::Op::OpSwitch: {
      BranchInfo& b = p.branches.emplace_back();
      const bool conditional = inst.opcode() == spv::Op::OpBranchConditional;
      std::vector<uint32_t> targets;
      if (conditional) {
        targets = {inst.word(1), inst.word(2)};
      } else {
        targets.push_back(inst.word(1));
        b.selector_bytes = loader.TypeOfValue(inst.word(0)).lane_bytes;
        for (size_t i = 2; i + 1 < inst.num_operands(); i += 2) {
          const ir::OperandView lit = inst.operand(i);
          uint64_t v = lit.words[0];
          if (lit.words.size() > 1) v |= uint64_t{lit.words[1]} << 32;
          b.case_values.push_back(v);
          targets.push_back(inst.word(i + 1));
        }
      }
      for (uint32_t t : targets) {
        Edge& e = b.edges.emplace_back();
        e.copies = loader.EdgeCopies(block, t, &e.through_scratch);
      }
      for (size_t i = 0; i < targets.size(); ++i)
        loader.ResolveLater(&b.edges[i].target, targets[i]);
      loader.ReconvergenceLater(&b.reconverge, block);
      out.fn = conditional ? ExecBranchConditional : ExecSwitch;
      out.op[0] = loader.Slot(inst.word(0));
      out.data = &b;
      return true;
    }
    case spv::Op::OpReturn:
      out.fn = ExecReturn;
      return true;
    case spv::Op::OpReturnValue:
      out.fn = ExecReturnValue;
      out.op[0] = loader.Slot(inst.word(0));
      return true;
    case spv::Op::OpUnreachable:
    case spv::Op::OpKill:
      out.fn = ExecUnreachable;
      return true;
    case spv::Op::OpFunctionCall: {
      const uint32_t callee = inst.word(0);
      const ir::Function* f = loader.info().GetFunction(callee);
      if (f == nullptr) return loader.Fail(inst, "call of an unknown function");
      if (f->IsDeclaration()) {
        return BindImportedCall(loader, inst, out);
      }
      CallInfo& call = p.calls.emplace_back();
      size_t i = 1;
      for (const ir::Instruction& param : f->parameters) {
        if (i >= inst.num_operands()) break;
        const uint32_t size = std::max<uint32_t>(loader.Type(param.result_type_id()).lane_bytes, 1);
        call.arguments.push_back({loader.Slot(param.result_id()), loader.Slot(inst.word(i)), size});
        ++i;
      }
      const TypeInfo& ret = loader.Type(inst.result_type_id());
      call.return_size = ret.kind == ir::TypeKind::kVoid ? 0 : ret.lane_bytes;
      loader.ResolveFunctionLater(&call.entry, callee);
      out.fn = ExecCall;
      out.result = call.return_size != 0 ? loader.Slot(inst.result_id()) : 0;
      out.data = &call;
      return true;
    }
    case spv::Op::OpControlBarrier: {
      const std::optional<uint64_t> scope = loader.ConstantValue(inst.word(0));
      if (!scope) return loader.Fail(inst, "the barrier's execution scope must be a constant");
      if (*scope == static_cast<uint32_t>(spv::Scope::Subgroup)) {
        out.fn = ExecSubgroupBarrier;
      } else if (*scope == static_cast<uint32_t>(spv::Scope::Workgroup)) {
        out.fn = ExecWorkgroupBarrier;
      } else {
        return loader.Fail(inst, "xmx-run supports barriers of Workgroup and Subgroup scope");
      }
      return true;
    }
    case spv::Op::OpMemoryBarrier:
      // Work-items of a work-group run one after another between barriers, and memory is
      // sequentially consistent: a fence has nothing to order.
      out.fn = ExecNothing;
      return true;
    default:
      return false;
  }
}

}  // namespace xmx::interp
