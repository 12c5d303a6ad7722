// The scheduler: work-groups on a pool of worker threads; inside a work-group, subgroups run one
// after another until each finishes or parks at a barrier, then the barrier is released. The
// result of a run does not depend on the number of threads: work-groups share nothing but
// global memory, and inside one the order is fixed.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "common/rule_ids.hpp"
#include "interp/kernel_access.hpp"
#include "interp/model/run_report.hpp"
#include "interp/model/work_group.hpp"
#include "interp/run/launch_memory.hpp"
#include "interp/run/local_race_shadow.hpp"
#include "interp/run/work_group_start.hpp"
#include "xmx/interpreter.hpp"

namespace xmx::interp {
namespace {

// Dispatches between two checks of the launch's limits: the check (an atomic add, a clock read
// with a timeout) then costs nothing measurable, and a stop comes within microseconds.
constexpr uint64_t kLimitCheckInterval = 1 << 14;

uint64_t LocalArgumentCount(const Program& p) {
  uint64_t n = 0;
  for (const KernelParameter& k : p.parameters) n += k.kind == KernelParameter::Kind::kLocalPointer;
  return n;
}

// A range of a subgroup's register file that the start of a work-group sets.
struct RegisterRange {
  uint32_t offset, bytes;
};

// Adds delta[c] to component c (a T) of the value at `at` in each of `items` work-items'
// blocks, `stride` bytes apart: kComponents of them, or `components` when given.
template <class T, uint32_t kComponents>
void AddToEveryItem(uint8_t* at, uint64_t stride, uint32_t items, const uint64_t delta[3],
                    uint32_t components = kComponents) {
  for (uint32_t item = 0; item < items; ++item, at += stride) {
    for (uint32_t c = 0; c < (kComponents == 3 ? 3 : components); ++c) {
      T v;
      std::memcpy(&v, at + c * sizeof(T), sizeof(T));
      v += static_cast<T>(delta[c]);
      std::memcpy(at + c * sizeof(T), &v, sizeof(T));
    }
  }
}

// A builtin that names the work-group in a full work-group's private start image: `components`
// of `element` (4 or 8) bytes at `offset` of every work-item's block.
struct GroupBuiltinField {
  spv::BuiltIn builtin;
  uint64_t offset;
  uint32_t element, components;
};

// What one worker thread owns: its allocation table and the storage of one work-group, reused by
// every work-group it runs. A work-group of the full local size starts from images made once per
// launch: its private memory from private_start_ (zero but for builtins and by-value arguments),
// where only the builtins naming the work-group are stored again, and the register ranges that
// hold the kernel's arguments and variable pointers from entry_values_. A work-group at the edge
// of the NDRange (fewer work-items) is set up from scratch.
class Worker {
 public:
  Worker(LaunchShared& launch, const GlobalMemory& global, const RunRequest& request)
      : launch_(launch),
        request_(request),
        table_(global.table),
        argument_allocation_(global.argument_allocation),
        global_variable_allocation_(global.variable_allocation) {
    const Program& p = *launch.program;
    const LaunchGeometry& g = launch.geometry;
    max_items_ = static_cast<uint32_t>(g.local[0] * g.local[1] * g.local[2]);
    const uint32_t sg_size = p.subgroup_size;
    const uint32_t subgroup_count = (max_items_ + sg_size - 1) / sg_size;
    registers_.resize(subgroup_count);
    subgroups_.resize(subgroup_count);
    for (uint32_t s = 0; s < subgroup_count; ++s) {
      registers_[s].Resize(p.register_bytes);
      std::memcpy(registers_[s].data(), p.register_image.data(), p.register_bytes);
      subgroups_[s].regs = registers_[s].data();
      subgroups_[s].lanes = sg_size;
      subgroups_[s].id = s;
      subgroups_[s].first_item = s * sg_size;
    }
    // Local memory: the module's Workgroup variables, then the local-pointer arguments.
    uint64_t local_bytes = 0;
    std::vector<uint64_t> local_offsets, local_sizes;
    for (const VariableInfo& v : p.local_variables) {
      local_bytes = (local_bytes + v.alignment - 1) / v.alignment * v.alignment;
      local_offsets.push_back(local_bytes);
      local_sizes.push_back(v.bytes);
      local_bytes += v.bytes;
    }
    for (size_t i = 0; i < p.parameters.size(); ++i) {
      if (p.parameters[i].kind != KernelParameter::Kind::kLocalPointer) continue;
      local_bytes = (local_bytes + 127) / 128 * 128;
      local_offsets.push_back(local_bytes);
      local_sizes.push_back(request.arguments[i].local_bytes);
      local_bytes += request.arguments[i].local_bytes;
    }
    local_.Resize(local_bytes);
    group_.local_first = static_cast<uint32_t>(table_.size());
    for (size_t i = 0; i < local_offsets.size(); ++i) {
      Allocation a;
      a.data = local_.data() + local_offsets[i];
      a.size = local_sizes[i];
      a.storage = spv::StorageClass::Workgroup;
      a.what = i < p.local_variables.size() ? "local variable" : "local argument";
      a.label = static_cast<uint32_t>(i);
      table_.Add(a);
    }
    // Private memory: every Function and Input variable, per work-item.
    const PrivateLayout& layout = p.private_layout;
    private_.Resize(layout.bytes_per_item * max_items_);
    group_.private_first = static_cast<uint32_t>(table_.size());
    for (uint32_t item = 0; item < max_items_; ++item) {
      for (const VariableInfo& v : p.private_variables) {
        // Added in (item, variable) order, so the index is layout.Allocation(first, item, v).
        Allocation a;
        a.data = private_.data() + layout.ByteOffset(item, v.index);
        a.size = v.bytes;
        a.storage = v.storage;
        a.read_only = v.storage == spv::StorageClass::Input;
        a.what = v.builtin ? "builtin variable" : "private variable";
        a.label = v.index;
        table_.Add(a);
      }
    }
    for (const VariableInfo& v : p.private_variables) {
      if (!v.builtin) continue;
      builtins_.push_back(&v);
      if (DependsOnGroupId(*v.builtin)) group_builtins_.push_back(&v);
    }
    group_.private_end = static_cast<uint32_t>(table_.size());
    group_.private_base = private_.data();
    group_.launch = &launch_;
    group_.program = &p;
    group_.allocations = &table_;
    group_.subgroups = &subgroups_;
    group_.split_full_round.resize(subgroups_.size());
    if (launch.options.check != CheckMode::kOff && local_bytes > 0) {
      shadow_ = std::make_unique<LocalRaceShadow>(local_.data(), local_bytes);
      group_.shadow = shadow_.get();
    }
    (void)LocalArgumentCount;
    MakeStartImages();
  }

  void RunGroup(uint64_t linear) {
    const Program& p = *launch_.program;
    const LaunchGeometry& g = launch_.geometry;
    group_.group_linear = linear;
    group_.group_id[0] = linear % g.groups[0];
    group_.group_id[1] = (linear / g.groups[0]) % g.groups[1];
    group_.group_id[2] = linear / (g.groups[0] * g.groups[1]);
    uint64_t size[3];
    for (int d = 0; d < 3; ++d) {
      const uint64_t start = group_.group_id[d] * g.local[d];
      size[d] = std::min(g.local[d], g.global[d] - start);
    }
    group_.items = static_cast<uint32_t>(size[0] * size[1] * size[2]);
    group_.report_sequence = 0;
    group_.barrier_epoch = 0;
    group_.collective_epoch = UINT32_MAX;
    std::fill(group_.split_full_round.begin(), group_.split_full_round.end(), UINT32_MAX);
    if (local_.size() != 0) std::memset(local_.data(), 0, local_.size());
    const bool full = group_.items == max_items_;
    if (full && private_start_.size() != 0) {
      std::memcpy(private_.data(), private_start_.data(), private_start_.size());
      StoreGroupBuiltins(size);
    } else {
      std::memset(private_.data(), 0, private_.size());
      FillBuiltins(size);
    }
    if (shadow_) shadow_->Reset();
    const uint32_t sg_size = p.subgroup_size;
    const uint32_t count = (group_.items + sg_size - 1) / sg_size;
    active_subgroups_ = count;
    for (uint32_t s = 0; s < count; ++s) StartSubgroup(subgroups_[s], full);
    Schedule(count);
  }

  void AddStats(RunStats* stats) const { *stats = stats_; }

 private:
  BuiltinScope Scope(const uint64_t size[3]) const {
    BuiltinScope scope;
    scope.geometry = &launch_.geometry;
    for (int d = 0; d < 3; ++d) {
      scope.group_id[d] = group_.group_id[d];
      scope.size[d] = size[d];
    }
    scope.items = group_.items;
    scope.max_items = max_items_;
    scope.subgroup_size = launch_.program->subgroup_size;
    return scope;
  }

  // The start images of a full work-group (the class comment). Images taken right after the
  // set-up from scratch, so a full work-group starts from the same bytes either way.
  void MakeStartImages() {
    const LaunchGeometry& g = launch_.geometry;
    const uint64_t size[3] = {g.local[0], g.local[1], g.local[2]};
    group_.items = max_items_;
    for (int d = 0; d < 3; ++d) group_.group_id[d] = 0;
    if (private_.size() != 0 && private_.size() <= kMaxPrivateStartImageBytes) {
      FillBuiltins(size);
      private_start_.Resize(private_.size());
      std::memcpy(private_start_.data(), private_.data(), private_.size());
      const PrivateLayout& layout = launch_.program->private_layout;
      for (const VariableInfo* v : group_builtins_) {
        const BuiltinFields fields = BuiltinFieldsOf(*v->builtin, v->bytes);
        if (fields.element == 4 || fields.element == 8) {
          group_fields_.push_back(
              {*v->builtin, layout.offsets[v->index], fields.element, fields.components});
        } else {
          group_builtins_stored_.push_back(v);
        }
      }
    }
    entry_values_.resize(subgroups_.size());
    for (size_t s = 0; s < subgroups_.size(); ++s) {
      Subgroup& sg = subgroups_[s];
      std::vector<RegisterRange> ranges;
      FillEntryRegisters(sg, &ranges);
      if (s == 0) entry_ranges_ = ranges;  // the same slots and lanes in every subgroup
      for (const RegisterRange& r : ranges) {
        entry_values_[s].insert(entry_values_[s].end(), sg.regs + r.offset,
                                sg.regs + r.offset + r.bytes);
      }
    }
  }

  // Every work-item's by-value arguments and builtins, in zeroed private memory.
  void FillBuiltins(const uint64_t size[3]) {
    const Program& p = *launch_.program;
    for (size_t i = 0; i < p.parameters.size(); ++i) {
      const KernelParameter& k = p.parameters[i];
      if (k.kind != KernelParameter::Kind::kByValue) continue;
      const std::vector<uint8_t>& bytes = request_.arguments[i].bytes;
      for (uint32_t item = 0; item < group_.items; ++item) {
        Allocation& a =
            table_[p.private_layout.Allocation(group_.private_first, item, k.private_variable)];
        std::memcpy(a.data, bytes.data(), std::min<uint64_t>(a.size, bytes.size()));
      }
    }
    StoreBuiltins(size, builtins_);
  }

  // A full work-group's builtins that name it, over the start image (taken in work-group 0):
  // its components move by GroupIdDelta; the rare widths other than 4 and 8 are stored anew.
  void StoreGroupBuiltins(const uint64_t size[3]) {
    const uint64_t stride = launch_.program->private_layout.bytes_per_item;
    for (const GroupBuiltinField& f : group_fields_) {
      uint64_t delta[3];
      GroupIdDelta(f.builtin, group_.group_id, launch_.geometry, delta);
      uint8_t* at = private_.data() + f.offset;
      const uint32_t items = group_.items;
      if (f.element == 8 && f.components == 3) {
        AddToEveryItem<uint64_t, 3>(at, stride, items, delta);
      } else if (f.element == 4 && f.components == 3) {
        AddToEveryItem<uint32_t, 3>(at, stride, items, delta);
      } else if (f.element == 8) {
        AddToEveryItem<uint64_t, 1>(at, stride, items, delta, f.components);
      } else {
        AddToEveryItem<uint32_t, 1>(at, stride, items, delta, f.components);
      }
    }
    if (!group_builtins_stored_.empty()) StoreBuiltins(size, group_builtins_stored_);
  }

  void StoreBuiltins(const uint64_t size[3], const std::vector<const VariableInfo*>& which) {
    const PrivateLayout& layout = launch_.program->private_layout;
    const BuiltinScope scope = Scope(size);
    uint64_t local_id[3] = {0, 0, 0};
    for (uint32_t item = 0; item < group_.items; ++item) {
      for (const VariableInfo* v : which) {
        StoreBuiltin(*v->builtin, item, local_id, scope,
                     private_.data() + layout.ByteOffset(item, v->index), v->bytes);
      }
      // The next work-item's local id: x fastest, then y, then z.
      if (++local_id[0] == size[0]) {
        local_id[0] = 0;
        if (++local_id[1] == size[1]) {
          local_id[1] = 0;
          ++local_id[2];
        }
      }
    }
  }

  void StartSubgroup(Subgroup& sg, bool full) {
    const Program& p = *launch_.program;
    const uint32_t items_here = std::min<uint32_t>(sg.lanes, group_.items - sg.first_item);
    sg.live_mask = items_here >= 64 ? ~uint64_t{0} : (uint64_t{1} << items_here) - 1;
    sg.SetMask(sg.live_mask);
    sg.group = &group_;
    sg.state = SubgroupState::kRunning;
    sg.stack.clear();
    sg.frames.clear();
    sg.collective_arrived = false;
    sg.subgroup_barriers = 0;
    sg.split_round = 0;
    sg.stack.push_back({p.kernel_entry, nullptr, sg.live_mask});
    sg.frames.push_back({nullptr, 0, 0, 0});
    sg.ip = p.kernel_entry;
    if (!full) {
      FillEntryRegisters(sg, nullptr);
      return;
    }
    const uint8_t* value = entry_values_[sg.id].data();
    for (const RegisterRange& r : entry_ranges_) {
      std::memcpy(sg.regs + r.offset, value, r.bytes);
      value += r.bytes;
    }
  }

  // Stores the pointer values of module-scope variables and the kernel's arguments in `sg`'s
  // registers; adds the ranges it stores to *ranges when given (adjacent ones merged).
  void FillEntryRegisters(Subgroup& sg, std::vector<RegisterRange>* ranges) {
    const Program& p = *launch_.program;
    auto record = [&](uint32_t offset, uint32_t bytes) {
      if (ranges == nullptr || bytes == 0) return;
      if (!ranges->empty() && ranges->back().offset + ranges->back().bytes == offset) {
        ranges->back().bytes += bytes;
      } else {
        ranges->push_back({offset, bytes});
      }
    };
    auto fill = [&](uint32_t slot, auto lane_value) {
      uint64_t* dst = sg.reg<uint64_t>(slot);
      for (uint32_t lane = 0; lane < sg.lanes; ++lane) dst[lane] = lane_value(lane);
      record(slot, sg.lanes * 8);
    };
    for (const VariableInfo* v : builtins_) {  // function variables are set by OpVariable
      fill(v->slot, [&](uint32_t lane) {
        const uint32_t item = std::min(sg.first_item + lane, group_.items - 1);
        return MakePointer(p.private_layout.Allocation(group_.private_first, item, v->index), 0);
      });
    }
    for (const VariableInfo& v : p.local_variables) {
      fill(v.slot, [&](uint32_t) { return MakePointer(group_.local_first + v.index, 0); });
    }
    for (size_t i = 0; i < p.global_variables.size(); ++i) {
      const uint32_t allocation = global_variable_allocation_[i];
      fill(p.global_variables[i].slot, [&](uint32_t) { return MakePointer(allocation, 0); });
    }
    uint32_t local_index = static_cast<uint32_t>(p.local_variables.size());
    for (size_t i = 0; i < p.parameters.size(); ++i) {
      const KernelParameter& k = p.parameters[i];
      switch (k.kind) {
        case KernelParameter::Kind::kScalar: {
          const std::vector<uint8_t>& bytes = request_.arguments[i].bytes;
          const uint32_t n = static_cast<uint32_t>(std::min<size_t>(bytes.size(), k.lane_bytes));
          for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
            std::memcpy(sg.regs + k.slot + lane * k.lane_bytes, bytes.data(), n);
            record(k.slot + lane * k.lane_bytes, n);
          }
          break;
        }
        case KernelParameter::Kind::kLocalPointer: {
          const uint32_t allocation = group_.local_first + local_index++;
          fill(k.slot, [&](uint32_t) { return MakePointer(allocation, 0); });
          break;
        }
        case KernelParameter::Kind::kByValue:
          fill(k.slot, [&](uint32_t lane) {
            const uint32_t item = std::min(sg.first_item + lane, group_.items - 1);
            return MakePointer(
                p.private_layout.Allocation(group_.private_first, item, k.private_variable), 0);
          });
          break;
        default: {
          const uint32_t allocation = argument_allocation_[i];
          fill(k.slot, [&](uint32_t) { return MakePointer(allocation, 0); });
          break;
        }
      }
    }
  }

  // Runs `sg` until it yields or finishes, or the launch is abandoned. The loop only compares a
  // counter: every kLimitCheckInterval dispatches (and when the subgroup yields) the count is
  // taken (CountInstructions), and the launch's limits are checked as often.
  void RunSubgroup(Subgroup& sg) {
    const Instr* ip = sg.ip;
    uint64_t lanes = 0, total = 0;
    while (ip != nullptr) {
      uint64_t instructions = 0;
      while (ip != nullptr && instructions != kLimitCheckInterval) {
        ++instructions;
        lanes += sg.active;
        ip = ip->fn(sg, ip);
      }
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
  bool CountInstructions(uint64_t instructions) {
    pending_instructions_ += instructions;
    if (pending_instructions_ >= kLimitCheckInterval) return FlushInstructions();
    return !launch_.reports->stopped();
  }

  // Passes the worker's instructions on to the launch's count and checks its limits: the
  // instruction limit (exceeded only when the launch really executed more, so whether a launch
  // stops there does not depend on the threads) and the deadline. False, with the launch
  // stopped, when either is passed or another worker stopped it.
  bool FlushInstructions() {
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

  void Schedule(uint32_t count);

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

}  // namespace

void DefaultLocalSize(const Program& program, LaunchGeometry* g) {
  if (program.required_local_size[0] != 0) {
    for (int d = 0; d < 3; ++d) g->local[d] = std::max<uint32_t>(program.required_local_size[d], 1);
    return;
  }
  uint64_t budget = 256;
  for (int d = 0; d < 3; ++d) {
    uint64_t best = 1;
    for (uint64_t l = 1; l <= std::min(budget, g->global[d]); ++l) {
      if (g->global[d] % l == 0) best = l;
    }
    g->local[d] = best;
    budget /= best;
  }
}

namespace {

// The launch's NDRange: work-groups per dimension and in all, refusing what cannot be counted
// (a product past 2^64 would wrap to a launch of no work-group, silently) and a local size that
// contradicts the kernel's LocalSize (the kernel is written for that size).
std::optional<std::string> PlanGeometry(const Program& p, LaunchGeometry* g,
                                        uint64_t* total_groups) {
  uint64_t items = 1;
  *total_groups = 1;
  for (int d = 0; d < 3; ++d) {
    if (g->global[d] == 0 || g->local[d] == 0) return "global and local sizes must be positive";
    g->groups[d] = g->global[d] / g->local[d] + (g->global[d] % g->local[d] != 0);
    if (__builtin_mul_overflow(items, g->global[d], &items) ||
        __builtin_mul_overflow(*total_groups, g->groups[d], total_groups)) {
      return "the global size (" + std::to_string(g->global[0]) + "," +
             std::to_string(g->global[1]) + "," + std::to_string(g->global[2]) +
             ") has more than 2^64 work-items";
    }
  }
  if (p.required_local_size[0] != 0) {
    for (int d = 0; d < 3; ++d) {
      if (g->local[d] == std::max<uint64_t>(p.required_local_size[d], 1)) continue;
      return "the local size (" + std::to_string(g->local[0]) + "," + std::to_string(g->local[1]) +
             "," + std::to_string(g->local[2]) + ") contradicts kernel " + p.kernel_name +
             "'s LocalSize " + std::to_string(p.required_local_size[0]) + " " +
             std::to_string(p.required_local_size[1]) + " " +
             std::to_string(p.required_local_size[2]) +
             " (OpExecutionMode): give that size or leave the local size out";
    }
  }
  return std::nullopt;
}

// Worker threads that can help: no more than work-groups, nor than kThreadsPerCore per hardware
// thread.
uint32_t UsefulThreads(uint32_t asked, uint64_t total_groups) {
  const uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<uint32_t>(std::clamp<uint64_t>(
      std::min<uint64_t>({asked, total_groups, cores * kThreadsPerCore, kMaxThreads}), 1,
      kMaxThreads));
}

void Launch(RunRequest& request, RunOutcome& outcome) {
  if (!request.kernel.loaded()) {
    outcome.error = "no kernel: the request's kernel was never loaded";
    return;
  }
  const Program& p = KernelAccess::ProgramOf(request.kernel);
  if (request.arguments.size() != p.parameters.size()) {
    outcome.error = "kernel " + p.kernel_name + " takes " + std::to_string(p.parameters.size()) +
                    " arguments, " + std::to_string(request.arguments.size()) + " given";
    return;
  }
  LaunchShared launch;
  launch.program = &p;
  launch.geometry = request.geometry;
  launch.options = request.options;
  uint64_t total_groups = 0;
  if (std::optional<std::string> error = PlanGeometry(p, &launch.geometry, &total_groups)) {
    outcome.error = std::move(*error);
    return;
  }
  uint32_t threads = UsefulThreads(request.threads, total_groups);
  if (std::optional<std::string> error = PlanLaunchMemory(request, &threads)) {
    outcome.error = std::move(*error);
    return;
  }
  GlobalMemory global;
  if (std::optional<std::string> error = PlaceArguments(request, &global)) {
    outcome.error = std::move(*error);
    return;
  }

  ReportSink sink(request.options.check);
  launch.reports = &sink;
  const auto start = std::chrono::steady_clock::now();
  if (request.options.timeout_seconds > 0) {
    const std::chrono::duration<double> timeout(request.options.timeout_seconds);
    if (timeout < std::chrono::hours(24 * 365 * 100)) {
      launch.deadline = start + std::chrono::duration_cast<std::chrono::nanoseconds>(timeout);
    }
  }
  std::atomic<uint64_t> next{0};
  std::vector<RunStats> stats(threads);
  std::mutex failure_mutex;
  std::string failure;  // the first worker's exception (out of memory)
  auto work = [&](uint32_t t) {
    try {
      Worker worker(launch, global, request);
      for (;;) {
        const uint64_t group = next.fetch_add(1);
        if (group >= total_groups || sink.stopped()) break;
        worker.RunGroup(group);
      }
      worker.AddStats(&stats[t]);
    } catch (const std::exception& e) {
      // Nothing may leave a worker thread (that aborts): a storage request the host refuses
      // (bad_alloc, or length_error for one past what a vector can hold) stops the launch.
      const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr ||
                          dynamic_cast<const std::length_error*>(&e) != nullptr;
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (failure.empty()) {
        failure = memory ? "the host ran out of memory while running the kernel"
                         : std::string("the launch failed: ") + e.what();
      }
      sink.Stop();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (uint32_t t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(work, t);
    } catch (const std::exception&) {
      break;  // the host gives no more threads (system_error, bad_alloc): run on those it gave
    }
  }
  outcome.threads = static_cast<uint32_t>(pool.size()) + 1;
  work(0);
  for (std::thread& t : pool) t.join();
  outcome.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const RunStats& s : stats) {
    outcome.stats.instructions += s.instructions;
    outcome.stats.lane_instructions += s.lane_instructions;
    outcome.stats.matrix_instructions += s.matrix_instructions;
    outcome.stats.work_groups += s.work_groups;
  }
  std::stable_sort(launch.printf_chunks.begin(), launch.printf_chunks.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& chunk : launch.printf_chunks) outcome.printf_output += chunk.second;
  if (!failure.empty()) {
    outcome.error = failure;
  } else if (launch.instruction_limit_reached) {
    outcome.error = "the launch executed more than " +
                    std::to_string(request.options.instruction_limit) +
                    " instructions, its limit (raise it with --max-instructions N, or "
                    "\"max-instructions\" in a run file; 0 lifts it)";
  } else if (launch.timed_out) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", request.options.timeout_seconds);
    outcome.error = std::string("the launch ran longer than its time limit of ") + seconds +
                    " seconds (raise it with --timeout SECONDS, or \"timeout\" in a run file; "
                    "0 lifts it)";
  }
  outcome.run_failed = !outcome.error.empty();
  outcome.stopped = sink.stopped();
  outcome.total_reports = sink.total();
  outcome.reports = sink.Take();
  outcome.total_warnings = sink.total_warnings();
  outcome.warnings = sink.TakeWarnings();
  outcome.buffers.resize(request.arguments.size());
  for (size_t i = 0; i < request.arguments.size(); ++i) {
    if (global.argument_allocation[i] == 0) continue;
    if (!global.adopted[i].empty()) {
      outcome.buffers[i] = std::move(global.adopted[i]);
      continue;
    }
    const uint8_t* data = global.buffers[i].data();
    outcome.buffers[i].assign(data, data + global.buffers[i].size());
    global.buffers[i].Release();
  }
}

}  // namespace

RunOutcome Execute(RunRequest request) {
  RunOutcome outcome;
  try {
    Launch(request, outcome);
  } catch (const std::bad_alloc&) {
    outcome = RunOutcome{};
    outcome.error =
        "the host ran out of memory for the launch (lower --max-memory to be told "
        "before allocating)";
    outcome.run_failed = true;
  }
  return outcome;
}

}  // namespace xmx::interp
