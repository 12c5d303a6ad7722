// A worker's scheduler inside one work-group (worker.hpp): runs the subgroups in a fixed order
// until each finishes or parks, releases barriers and subgroup pairs, reports barriers that
// diverge or can never be passed, and passes its instruction counts on to the launch's limits.
#include <chrono>
#include <string>
#include <utility>

#include "common/rule_ids.hpp"
#include "interp/model/run_report.hpp"
#include "interp/run/worker.hpp"

namespace xmx::interp {

// Runs `sg` until it yields or finishes, or the launch is abandoned. The loop only compares a
// counter: every kLimitCheckInterval dispatches (and when the subgroup yields) the count is
// taken (CountInstructions), and the launch's limits are checked as often.
void Worker::RunSubgroup(Subgroup& sg) {
  const Instr* ip = sg.ip;
  uint64_t lanes = 0, total = 0;
  while (ip != nullptr) {
    uint64_t instructions = 0;
    while (ip != nullptr && instructions != kLimitCheckInterval) {
      ++instructions;
      lanes += sg.active;
      ip = ip->fn(sg, ip);
    }
    instructions += std::exchange(sg.folded_instructions, 0);
    total += instructions;
    if (!CountInstructions(instructions)) {
      sg.state = SubgroupState::kDone;
      break;
    }
  }
  sg.instructions += total;
  sg.lane_instructions += lanes;
}

// Adds to the worker's count of instructions not yet in the launch's; passes them on once
// there are kLimitCheckInterval of them (a subgroup that yields often costs no atomic each
// time). False when the launch has stopped.
bool Worker::CountInstructions(uint64_t instructions) {
  pending_instructions_ += instructions;
  if (pending_instructions_ >= kLimitCheckInterval) return FlushInstructions();
  return !launch_.reports->stopped();
}

// Passes the worker's instructions on to the launch's count and checks its limits: the
// instruction limit (exceeded only when the launch really executed more, so whether a launch
// stops there does not depend on the threads) and the deadline. False, with the launch
// stopped, when either is passed or another worker stopped it.
bool Worker::FlushInstructions() {
  const uint64_t limit = launch_.options.instruction_limit;
  const uint64_t count =
      launch_.instructions.fetch_add(pending_instructions_) + pending_instructions_;
  pending_instructions_ = 0;
  if (limit != 0 && count > limit) {
    launch_.instruction_limit_reached = true;
    launch_.reports->Stop();
  } else if (launch_.options.timeout_seconds > 0 &&
             std::chrono::steady_clock::now() > launch_.deadline) {
    launch_.timed_out = true;
    launch_.reports->Stop();
  }
  return !launch_.reports->stopped();
}

void Worker::Schedule(uint32_t count) {
  for (;;) {
    for (uint32_t s = 0; s < count; ++s) {
      Subgroup& sg = subgroups_[s];
      if (sg.state == SubgroupState::kRunning) RunSubgroup(sg);
      if (launch_.reports->stopped()) break;
    }
    if (launch_.reports->stopped()) break;
    uint32_t done = 0, waiting = 0, paired = 0;
    for (uint32_t s = 0; s < count; ++s) {
      done += subgroups_[s].state == SubgroupState::kDone;
      waiting += subgroups_[s].state == SubgroupState::kAtBarrier;
      paired += subgroups_[s].state == SubgroupState::kAtPairBarrier;
    }
    if (done == count) break;
    bool released = false;
    if (waiting > 0 && waiting + done + paired == count && paired == 0) {
      const Subgroup* first_waiting = nullptr;
      for (uint32_t s = 0; s < count; ++s) {
        Subgroup& sg = subgroups_[s];
        if (sg.state != SubgroupState::kAtBarrier) continue;
        if (first_waiting == nullptr) {
          first_waiting = &sg;
        } else if (sg.barrier_at != first_waiting->barrier_at && group_.checking()) {
          if (ReportSubgroup(sg, sg.barrier_at, rules::kBarrierDivergent,
                             "subgroup " + std::to_string(sg.id) +
                                 " waits at a different barrier than subgroup " +
                                 std::to_string(first_waiting->id) + " (instruction " +
                                 std::to_string(first_waiting->barrier_at->source_index) + ")")) {
            break;
          }
        }
      }
      if (done > 0 && group_.checking()) {
        for (uint32_t s = 0; s < count; ++s) {
          if (subgroups_[s].state != SubgroupState::kDone) continue;
          ReportSubgroup(const_cast<Subgroup&>(*first_waiting), first_waiting->barrier_at,
                         rules::kBarrierDivergent,
                         "subgroup " + std::to_string(s) +
                             " finished the kernel while other subgroups of its work-group "
                             "wait at this barrier");
          break;
        }
      }
      if (launch_.reports->stopped()) break;
      for (uint32_t s = 0; s < count; ++s) {
        if (subgroups_[s].state == SubgroupState::kAtBarrier) {
          subgroups_[s].state = SubgroupState::kRunning;
        }
      }
      ++group_.barrier_epoch;
      if (shadow_) shadow_->NextEpoch();
      released = true;
    }
    if (!released && paired > 0) {
      // Split matrix instructions: subgroups 2k and 2k+1 meet (DECISIONS.md 9).
      for (uint32_t s = 0; s + 1 < count; s += 2) {
        Subgroup& a = subgroups_[s];
        Subgroup& b = subgroups_[s + 1];
        if (a.state == SubgroupState::kAtPairBarrier && b.state == SubgroupState::kAtPairBarrier) {
          a.state = b.state = SubgroupState::kRunning;
          released = true;
        }
      }
    }
    if (!released) {
      // Nothing can move: a subgroup waits for a partner or a barrier no one else reaches.
      for (uint32_t s = 0; s < count; ++s) {
        Subgroup& sg = subgroups_[s];
        if (sg.state == SubgroupState::kAtPairBarrier || sg.state == SubgroupState::kAtBarrier) {
          if (group_.checking())
            ReportSubgroup(
                sg, sg.barrier_at, rules::kBarrierDeadlock,
                "subgroup " + std::to_string(sg.id) + " waits for subgroups that can never arrive");
          sg.state = SubgroupState::kDone;
          break;
        }
      }
      if (launch_.reports->stopped()) break;
    }
  }
  FlushInstructions();
  for (uint32_t s = 0; s < count; ++s) {
    Subgroup& sg = subgroups_[s];
    stats_.instructions += sg.instructions;
    stats_.lane_instructions += sg.lane_instructions;
    stats_.matrix_instructions += sg.matrix_instructions;
    sg.instructions = sg.lane_instructions = sg.matrix_instructions = 0;
  }
  ++stats_.work_groups;
}

}  // namespace xmx::interp
