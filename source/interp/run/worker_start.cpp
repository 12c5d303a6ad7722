// Starting a work-group on a worker (worker.hpp): its ids and size, its private memory from the
// start image or from scratch, and every subgroup's entry state and registers.
#include <algorithm>
#include <cstring>

#include "interp/run/worker.hpp"

namespace xmx::interp {
namespace {

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

}  // namespace

void Worker::RunGroup(uint64_t linear) {
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

BuiltinScope Worker::Scope(const uint64_t size[3]) const {
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
void Worker::MakeStartImages() {
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
void Worker::FillBuiltins(const uint64_t size[3]) {
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
void Worker::StoreGroupBuiltins(const uint64_t size[3]) {
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

void Worker::StoreBuiltins(const uint64_t size[3], const std::vector<const VariableInfo*>& which) {
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

void Worker::StartSubgroup(Subgroup& sg, bool full) {
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
void Worker::FillEntryRegisters(Subgroup& sg, std::vector<RegisterRange>* ranges) {
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

}  // namespace xmx::interp
