// Execution state as data (ARCHITECTURE.md): a subgroup is a register file, an active-lane mask,
// a reconvergence stack and a call stack. Nothing here is a host thread or fibre: a barrier
// parks a subgroup by returning to the scheduler, which resumes it later.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "interp/model/memory.hpp"
#include "interp/model/program.hpp"
#include "interp/model/run_report.hpp"

namespace xmx::interp {

class LocalRaceShadow;
struct WorkGroup;

// One level of the reconvergence stack: the lanes in `mask` continue at `pc`, and the entry is
// popped when they reach `reconverge` (the immediate post-dominator of the branch that split
// them). The bottom entry of a call has reconverge == nullptr.
struct StackEntry {
  const Instr* pc;
  const Instr* reconverge;
  uint64_t mask;
};

struct CallFrame {
  const Instr* return_to;
  uint32_t result;       // register offset of the call's result
  uint32_t result_size;  // bytes per lane
  uint32_t stack_base;   // index of the callee's bottom stack entry
};

enum class SubgroupState : uint8_t { kRunning, kAtBarrier, kAtPairBarrier, kDone };

struct Subgroup {
  // Register file (value_layout.hpp), 64-byte aligned.
  uint8_t* regs = nullptr;
  uint32_t lanes = 0;      // subgroup size (lanes of the register file)
  uint64_t live_mask = 0;  // lanes that are work-items (a last subgroup may be partial)
  uint64_t mask = 0;       // active lanes
  uint32_t active = 0;     // popcount(mask)
  bool full = false;       // mask == live_mask: element-wise handlers may run every lane
  const Instr* ip = nullptr;
  std::vector<StackEntry> stack;
  std::vector<CallFrame> frames;
  SubgroupState state = SubgroupState::kRunning;
  uint32_t id = 0;                    // SubgroupId within the work-group
  uint32_t first_item = 0;            // local linear id of lane 0
  const Instr* barrier_at = nullptr;  // the barrier instruction it waits at
  uint32_t subgroup_barriers = 0;
  bool collective_arrived = false;  // deposited its values at a work-group collective
  uint32_t split_round = 0;         // split matrix calls completed (pairs meet round by round)  //
                                    // subgroup-scope barriers passed (orders local accesses)
  WorkGroup* group = nullptr;
  // Statistics.
  uint64_t instructions = 0;
  uint64_t lane_instructions = 0;
  uint64_t matrix_instructions = 0;
  // Instructions a handler executed beside its own (the loads and store a matrix instruction
  // performs: matrix_operand_folding.hpp), not yet in the launch's count: the scheduler adds
  // them to it, so that --max-instructions counts what --stats counts.
  uint64_t folded_instructions = 0;

  template <class T>
  T* reg(uint32_t offset) {
    return reinterpret_cast<T*>(regs + offset);
  }
  void SetMask(uint64_t m) {
    mask = m;
    active = static_cast<uint32_t>(std::popcount(m));
    full = m == live_mask;
  }
};

// Calls f(lane) for lanes 0 .. lanes-1 in order. A subgroup of 16 (the usual size) gets a loop
// of fixed length, which the compiler unrolls: handlers whose per-lane work is a few
// instructions would otherwise spend as much on the loop.
template <class F>
inline __attribute__((always_inline)) void ForAllLanes(uint32_t lanes, F&& f) {
  if (lanes == 16) {
    for (uint32_t lane = 0; lane < 16; ++lane) f(lane);
    return;
  }
  for (uint32_t lane = 0; lane < lanes; ++lane) f(lane);
}

// Calls f(lane) for every set bit of `mask`, lowest first.
template <class F>
inline void ForEachLane(uint64_t mask, F&& f) {
  while (mask != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(mask));
    f(lane);
    mask &= mask - 1;
  }
}

}  // namespace xmx::interp
