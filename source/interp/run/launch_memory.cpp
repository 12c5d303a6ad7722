#include "interp/run/launch_memory.hpp"

#include <algorithm>

#include "interp/kernel_access.hpp"
#include "interp/model/subgroup.hpp"
#include "interp/run/local_race_shadow.hpp"

namespace xmx::interp {

namespace {

// Bytes of race shadow per byte of local memory (LocalRaceShadow keeps about 40).
constexpr uint64_t kShadowBytesPerLocalByte = 48;
// Work-items of one work-group: devices allow 1024; subgroup ids are 32-bit.
constexpr uint64_t kMaxWorkGroupItems = uint64_t{1} << 16;

// Saturating arithmetic: a sum that passes 2^64 sets the flag and stays at the maximum.
struct Counter {
  uint64_t value = 0;
  bool* overflow;
  void Add(uint64_t bytes) {
    if (__builtin_add_overflow(value, bytes, &value)) {
      value = UINT64_MAX;
      *overflow = true;
    }
  }
};
uint64_t Times(uint64_t a, uint64_t b, bool* overflow) {
  uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    *overflow = true;
    return UINT64_MAX;
  }
  return product;
}

std::string Bytes(uint64_t bytes, bool overflow) {
  return overflow ? std::string("over 2^64 bytes") : std::to_string(bytes) + " bytes";
}

}  // namespace

LaunchMemory MeasureLaunchMemory(const RunRequest& request) {
  const Program& p = KernelAccess::ProgramOf(request.kernel);
  const LaunchGeometry& want = request.geometry;
  LaunchMemory m;
  m.work_group_items =
      Times(Times(want.local[0], want.local[1], &m.overflow), want.local[2], &m.overflow);
  Counter shared{0, &m.overflow};
  uint64_t largest = 0;
  for (size_t i = 0; i < request.arguments.size(); ++i) {
    const RunArgument& a = request.arguments[i];
    if (a.kind != RunArgument::Kind::kBuffer && a.kind != RunArgument::Kind::kImage) continue;
    shared.Add(a.bytes.size());
    largest = std::max<uint64_t>(largest, a.bytes.size());
    if (i < p.parameters.size() && p.parameters[i].kind == KernelParameter::Kind::kByValue) {
      shared.Add(a.bytes.size());
    }
  }
  shared.Add(largest);
  for (const VariableInfo& v : p.global_variables) shared.Add(v.bytes);
  m.shared = shared.value;

  Counter local{0, &m.overflow};
  for (const VariableInfo& v : p.local_variables) {
    local.Add(v.bytes);
    local.Add(v.alignment);
  }
  for (const RunArgument& a : request.arguments) {
    if (a.kind == RunArgument::Kind::kLocal) local.Add(a.local_bytes + 128);
  }
  m.local_bytes = local.value;
  Counter per_thread{0, &m.overflow};
  per_thread.Add(local.value);
  if (request.options.check != CheckMode::kOff) {
    per_thread.Add(Times(local.value, kShadowBytesPerLocalByte, &m.overflow));
  }
  const uint64_t private_bytes =
      Times(p.private_layout.bytes_per_item, m.work_group_items, &m.overflow);
  per_thread.Add(private_bytes);
  const uint64_t subgroup_size = std::max<uint32_t>(p.subgroup_size, 1);
  const uint64_t subgroups = m.work_group_items / subgroup_size + 1;
  per_thread.Add(Times(Times(p.register_bytes, subgroups, &m.overflow), 3, &m.overflow));
  // The start images: private memory, and a pointer per lane for every private variable (a bound
  // on the builtins), local and program-scope variable and argument but scalars, which take their
  // own size.
  per_thread.Add(std::min(private_bytes, kMaxPrivateStartImageBytes));
  uint64_t entry_lane_bytes =
      8 * (p.private_variables.size() + p.local_variables.size() + p.global_variables.size());
  for (const KernelParameter& k : p.parameters) {
    entry_lane_bytes += k.kind == KernelParameter::Kind::kScalar ? k.lane_bytes : 8;
  }
  per_thread.Add(
      Times(Times(entry_lane_bytes, subgroup_size, &m.overflow), subgroups, &m.overflow));
  per_thread.Add(Times(subgroups, sizeof(Subgroup), &m.overflow));
  const uint64_t allocations = Times(m.work_group_items, p.private_variables.size(), &m.overflow) +
                               p.local_variables.size() + request.arguments.size() +
                               p.global_variables.size() + 1;
  per_thread.Add(Times(allocations, sizeof(Allocation), &m.overflow));
  m.per_thread = per_thread.value;
  return m;
}

std::optional<std::string> PlanLaunchMemory(const RunRequest& request, uint32_t* threads) {
  const LaunchMemory m = MeasureLaunchMemory(request);
  if (!m.overflow && m.work_group_items > kMaxWorkGroupItems) {
    return "a work-group of " + std::to_string(m.work_group_items) +
           " work-items is more than xmx-run runs (" + std::to_string(kMaxWorkGroupItems) + ")";
  }
  if (request.options.check != CheckMode::kOff && m.local_bytes > kMaxRaceCheckedLocalBytes) {
    return "the work-group's local memory (" + Bytes(m.local_bytes, m.overflow) +
           ") is more than the data-race check covers (" +
           std::to_string(kMaxRaceCheckedLocalBytes >> 20) + " MiB); run it with --check=off";
  }
  const uint64_t limit = request.max_memory == 0 ? UINT64_MAX : request.max_memory;
  if (m.overflow || m.shared > limit || m.per_thread > limit - m.shared) {
    const std::string how =
        " (raise the limit with --max-memory BYTES, or \"max-memory\" in a run file; 0 lifts "
        "it)";
    if (m.overflow) {
      return "the launch needs over 2^64 bytes of memory, more than the limit of " +
             std::to_string(limit) + " bytes" + how;
    }
    return "the launch needs " + std::to_string(m.shared) +
           " bytes for its buffers, images and program-scope variables and " +
           std::to_string(m.per_thread) +
           " bytes for a work-group (private and local memory, registers): more than the "
           "memory limit of " +
           std::to_string(limit) + " bytes" + how;
  }
  const uint64_t fit = m.per_thread == 0 ? UINT64_MAX : (limit - m.shared) / m.per_thread;
  *threads = static_cast<uint32_t>(std::clamp<uint64_t>(fit, 1, *threads));
  return std::nullopt;
}

std::optional<std::string> PlaceArguments(RunRequest& request, GlobalMemory* global) {
  const Program& p = KernelAccess::ProgramOf(request.kernel);
  global->buffers.resize(request.arguments.size());
  global->adopted.resize(request.arguments.size());
  global->argument_allocation.assign(request.arguments.size(), 0);
  for (size_t i = 0; i < p.parameters.size(); ++i) {
    const KernelParameter& k = p.parameters[i];
    RunArgument& a = request.arguments[i];
    const std::string which =
        "argument " + std::to_string(i) + (k.name.empty() ? "" : " (" + k.name + ")");
    switch (k.kind) {
      case KernelParameter::Kind::kScalar:
        if (a.kind != RunArgument::Kind::kValue || a.bytes.size() != k.lane_bytes) {
          return which + " needs a value of " + std::to_string(k.lane_bytes) + " bytes";
        }
        break;
      case KernelParameter::Kind::kLocalPointer:
        if (a.kind != RunArgument::Kind::kLocal) {
          return which + " is a local pointer: pass local:BYTES";
        }
        break;
      case KernelParameter::Kind::kImage: {
        if (a.kind != RunArgument::Kind::kImage) {
          return which + " is an image: pass image2d:WIDTHxHEIGHT:TEXELBYTES:...";
        }
        const uint64_t row_bytes = a.image_width * a.texel_bytes;
        if (a.image_height == 0 || row_bytes == 0 || row_bytes % 4 != 0 ||
            a.bytes.size() != row_bytes * a.image_height) {
          return which + ": an image needs rows of a multiple of 4 bytes and " +
                 "width x height x texel bytes of contents";
        }
        global->buffers[i].Resize(a.bytes.size());
        std::memcpy(global->buffers[i].data(), a.bytes.data(), a.bytes.size());
        std::vector<uint8_t>().swap(a.bytes);
        Allocation alloc;
        alloc.data = global->buffers[i].data();
        alloc.size = global->buffers[i].size();
        alloc.storage = spv::StorageClass::UniformConstant;
        alloc.read_only = k.read_only;
        alloc.shared = true;
        alloc.what = "image argument";
        alloc.label = static_cast<uint32_t>(i);
        alloc.image_row_bytes = row_bytes;
        alloc.image_rows = a.image_height;
        alloc.image_texel_bytes = a.texel_bytes;
        global->argument_allocation[i] = global->table.Add(alloc);
        break;
      }
      default: {
        if (a.kind != RunArgument::Kind::kBuffer) {
          return which + " is a pointer: pass a buffer";
        }
        if (k.kind == KernelParameter::Kind::kByValue && a.bytes.size() < k.pointee_bytes) {
          return which + " is passed by value: the buffer needs " +
                 std::to_string(k.pointee_bytes) + " bytes";
        }
        Allocation alloc;
        if (k.kind != KernelParameter::Kind::kByValue && !a.bytes.empty()) {
          global->adopted[i] = std::move(a.bytes);
          a.bytes.clear();  // a moved-from vector is only valid-but-unspecified
          alloc.data = global->adopted[i].data();
          alloc.size = global->adopted[i].size();
        } else {
          global->buffers[i].Resize(a.bytes.size());
          if (!a.bytes.empty())
            std::memcpy(global->buffers[i].data(), a.bytes.data(), a.bytes.size());
          alloc.data = global->buffers[i].data();
          alloc.size = global->buffers[i].size();
        }
        alloc.storage = k.kind == KernelParameter::Kind::kByValue
                            ? spv::StorageClass::Function
                            : (k.kind == KernelParameter::Kind::kConstantPointer
                                   ? spv::StorageClass::UniformConstant
                                   : spv::StorageClass::CrossWorkgroup);
        alloc.read_only = k.kind != KernelParameter::Kind::kGlobalPointer;
        alloc.shared = true;
        alloc.what = "buffer argument";
        alloc.label = static_cast<uint32_t>(i);
        global->argument_allocation[i] = global->table.Add(alloc);
        break;
      }
    }
  }
  global->variables.resize(p.global_variables.size());
  for (size_t i = 0; i < p.global_variables.size(); ++i) {
    const VariableInfo& v = p.global_variables[i];
    global->variables[i].Resize(v.bytes);
    if (!v.initializer.empty()) {
      std::memcpy(global->variables[i].data(), v.initializer.data(), v.initializer.size());
    }
    Allocation alloc;
    alloc.data = global->variables[i].data();
    alloc.size = v.bytes;
    alloc.storage = v.storage;
    alloc.read_only = v.storage == spv::StorageClass::UniformConstant;
    alloc.shared = true;
    alloc.what = "program-scope variable";
    alloc.label = static_cast<uint32_t>(i);
    global->variable_allocation.push_back(global->table.Add(alloc));
  }

  return std::nullopt;
}

}  // namespace xmx::interp
