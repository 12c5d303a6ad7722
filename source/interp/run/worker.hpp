// What one worker thread of a launch owns and does (the scheduler's side of the executor): its
// allocation table and the storage of one work-group, reused by every work-group it runs. A
// work-group of the full local size starts from images made once per launch: its private memory
// from private_start_ (zero but for builtins and by-value arguments), where only the builtins
// naming the work-group are stored again, and the register ranges that hold the kernel's
// arguments and variable pointers from entry_values_. A work-group at the edge of the NDRange
// (fewer work-items) is set up from scratch.
//
// Inside a work-group, subgroups run one after another until each finishes or parks at a
// barrier, then the barrier is released; the order is fixed, so the result does not depend on
// the number of threads. The parts live by what they do:
//   worker.cpp           the storage and allocation table of a work-group (once per thread)
//   worker_start.cpp     starting a work-group: start images, builtins, entry registers
//   worker_schedule.cpp  the dispatch loop, the launch's limits, barriers and subgroup pairs
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "interp/model/work_group.hpp"
#include "interp/run/launch_memory.hpp"
#include "interp/run/local_race_shadow.hpp"
#include "interp/run/work_group_start.hpp"
#include "xmx/interpreter.hpp"

namespace xmx::interp {

// Dispatches between two checks of the launch's limits: the check (an atomic add, a clock read
// with a timeout) then costs nothing measurable, and a stop comes within microseconds.
inline constexpr uint64_t kLimitCheckInterval = 1 << 14;

class Worker {
 public:
  Worker(LaunchShared& launch, const GlobalMemory& global, const RunRequest& request);

  // Runs work-group `linear` (x fastest) to its end, or until the launch stops.
  void RunGroup(uint64_t linear);

  void AddStats(RunStats* stats) const { *stats = stats_; }

 private:
  // A range of a subgroup's register file that the start of a work-group sets.
  struct RegisterRange {
    uint32_t offset, bytes;
  };

  // A builtin that names the work-group in a full work-group's private start image: `components`
  // of `element` (4 or 8) bytes at `offset` of every work-item's block.
  struct GroupBuiltinField {
    spv::BuiltIn builtin;
    uint64_t offset;
    uint32_t element, components;
  };

  // worker_start.cpp
  BuiltinScope Scope(const uint64_t size[3]) const;
  void MakeStartImages();
  void FillBuiltins(const uint64_t size[3]);
  void StoreGroupBuiltins(const uint64_t size[3]);
  void StoreBuiltins(const uint64_t size[3], const std::vector<const VariableInfo*>& which);
  void StartSubgroup(Subgroup& sg, bool full);
  void FillEntryRegisters(Subgroup& sg, std::vector<RegisterRange>* ranges);

  // worker_schedule.cpp
  void Schedule(uint32_t count);
  void RunSubgroup(Subgroup& sg);
  bool CountInstructions(uint64_t instructions);
  bool FlushInstructions();

  LaunchShared& launch_;
  const RunRequest& request_;
  AllocationTable table_;
  std::vector<uint32_t> argument_allocation_;
  std::vector<uint32_t> global_variable_allocation_;
  uint32_t max_items_ = 0;
  std::vector<AlignedBytes> registers_;
  std::vector<Subgroup> subgroups_;
  AlignedBytes local_, private_;
  std::vector<const VariableInfo*> builtins_;        // the private variables that are builtins
  std::vector<const VariableInfo*> group_builtins_;  // those of them that name the work-group
  // With a private start image: where those lie in it, and those of widths it cannot move.
  std::vector<GroupBuiltinField> group_fields_;
  std::vector<const VariableInfo*> group_builtins_stored_;
  // Start images of a full work-group: its private memory (empty past
  // kMaxPrivateStartImageBytes), and per subgroup the bytes of entry_ranges_ in its registers.
  AlignedBytes private_start_;
  std::vector<RegisterRange> entry_ranges_;
  std::vector<std::vector<uint8_t>> entry_values_;
  std::unique_ptr<LocalRaceShadow> shadow_;
  WorkGroup group_;
  uint32_t active_subgroups_ = 0;
  uint64_t pending_instructions_ = 0;  // executed, not yet in the launch's count
  RunStats stats_;
};

}  // namespace xmx::interp
