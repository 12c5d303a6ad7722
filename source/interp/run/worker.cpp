// A worker's storage for one work-group, laid out once per thread: local memory (the module's
// Workgroup variables, then the local-pointer arguments), every work-item's private memory, and
// their entries in the worker's copy of the launch's allocation table.
#include "interp/run/worker.hpp"

#include <cstring>

namespace xmx::interp {

Worker::Worker(LaunchShared& launch, const GlobalMemory& global, const RunRequest& request)
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
  MakeStartImages();
}

}  // namespace xmx::interp
