// A work-group being executed by one worker thread: its ids, its subgroups, the allocations
// it can reach and the shared launch state.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "common/float_formats.hpp"
#include "interp/model/memory.hpp"
#include "interp/model/program.hpp"
#include "interp/model/run_report.hpp"
#include "interp/model/subgroup.hpp"

namespace xmx::interp {

class LocalRaceShadow;

// LaunchGeometry and LaunchOptions are public (xmx/interpreter.hpp).

// State of the launch that every worker shares.
struct LaunchShared {
  const Program* program = nullptr;
  LaunchGeometry geometry;
  LaunchOptions options;
  ReportSink* reports = nullptr;
  std::mutex output_mutex;                                      // printf
  std::vector<std::pair<uint64_t, std::string>> printf_chunks;  // (work-group, text)
  // Instructions dispatched so far, added by each worker every kLimitCheckInterval dispatches
  // and at the end of each subgroup run.
  std::atomic<uint64_t> instructions{0};
  std::atomic<bool> instruction_limit_reached{false}, timed_out{false};
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

struct WorkGroup {
  LaunchShared* launch = nullptr;
  const Program* program = nullptr;
  AllocationTable* allocations = nullptr;
  std::vector<Subgroup>* subgroups = nullptr;
  uint64_t group_id[3] = {};
  uint64_t group_linear = 0;
  uint32_t items = 0;          // work-items in this group
  uint32_t private_first = 0;  // allocation index of item 0's first private variable
  uint32_t private_end = 0;    // one past the allocation index of the last item's last one
  // Host address of item 0's private block (private_layout.hpp): item i's copy of variable v is
  // at private_base + i * bytes_per_item + offsets[v].
  uint8_t* private_base = nullptr;
  uint32_t local_first = 0;  // allocation index of the first local variable / local argument
  LocalRaceShadow* shadow = nullptr;  // null when --check=off
  uint64_t report_sequence = 0;
  // Scratch for work-group collectives (OpGroup* at Workgroup scope): each subgroup deposits its
  // lanes' values at a barrier-like rendezvous.
  std::vector<uint8_t> collective, collective_result;
  uint32_t collective_epoch = UINT32_MAX;  // barrier epoch whose results collective_result holds
  uint32_t barrier_epoch = 0;
  // Split matrix multiply-accumulate (DECISIONS.md 9): each subgroup's half of A, and per pair of
  // subgroups the assembled A with the round it belongs to.
  std::vector<uint8_t> split_halves, split_full;
  std::vector<uint32_t> split_full_round;

  bool checking() const { return launch->options.check != CheckMode::kOff; }
  // Local id (x, y, z) of the work-item with local linear id `linear`.
  void LocalId(uint64_t linear, uint64_t out[3]) const {
    const LaunchGeometry& g = launch->geometry;
    out[0] = linear % g.local[0];
    out[1] = (linear / g.local[0]) % g.local[1];
    out[2] = linear / (g.local[0] * g.local[1]);
  }
};

// Records undefined behaviour at `in` for `lane` of `sg`. Returns true when execution must stop;
// the handler then returns nullptr.
bool ReportAt(Subgroup& sg, const Instr* in, uint32_t lane, const char* rule, std::string message);
// Records that `lane` read an undefined value at `in` (DECISIONS.md 16): a warning in every
// --check mode, which never stops the run; `message` is called only when the warning is kept.
void WarnUndefinedValue(Subgroup& sg, const Instr* in, uint32_t lane, const char* rule,
                        const std::function<std::string()>& message);
// The same about the whole subgroup (no single work-item).
bool ReportSubgroup(Subgroup& sg, const Instr* in, const char* rule, std::string message);

// Returns a stopping handler result: parks the subgroup as done when the launch must stop.
const Instr* StopSubgroup(Subgroup& sg);

}  // namespace xmx::interp
