#include "interp/launch_memory.hpp"

#include "interp/local_race_shadow.hpp"

namespace xmx::interp {

// A real device has far less private and local memory than these limits allow.
std::optional<std::string> CheckWorkGroupMemory(const RunRequest& request) {
  const Program& p = *request.program;
  constexpr uint64_t kLimit = uint64_t{1} << 30;
  const LaunchGeometry& want = request.geometry;
  uint64_t items = 0, bytes = 0;
  bool overflow = __builtin_mul_overflow(want.local[0], want.local[1], &items);
  overflow |= __builtin_mul_overflow(items, want.local[2], &items);
  overflow |= __builtin_mul_overflow(p.private_bytes_per_item, items, &bytes);
  uint64_t local = 0;
  for (const VariableInfo& v : p.local_variables)
    overflow |= __builtin_add_overflow(local, v.bytes, &local);
  for (const RunArgument& a : request.arguments) {
    overflow |= __builtin_add_overflow(local, a.local_bytes, &local);
  }
  overflow |= __builtin_add_overflow(bytes, local, &bytes);
  for (const VariableInfo& v : p.global_variables)
    overflow |= __builtin_add_overflow(bytes, v.bytes, &bytes);
  constexpr uint64_t kMaxItems = uint64_t{1} << 16;  // devices allow 1024; subgroup ids are 32-bit
  if (!overflow && items > kMaxItems) {
    return "a work-group of " + std::to_string(items) + " work-items is more than xmx-run runs (" +
           std::to_string(kMaxItems) + ")";
  }
  if (overflow || bytes > kLimit) {
    return "the kernel's private, local and program-scope memory for one work-group (" +
           (overflow ? std::string("over 2^64") : std::to_string(bytes)) +
           " bytes) exceeds xmx-run's limit of 1 GiB";
  }
  if (request.options.check != CheckMode::kOff && local > kMaxRaceCheckedLocalBytes) {
    return "the work-group's local memory (" + std::to_string(local) +
           " bytes) is more than the data-race check covers (" +
           std::to_string(kMaxRaceCheckedLocalBytes >> 20) + " MiB); run it with --check=off";
  }
  return std::nullopt;
}

std::optional<std::string> PlaceArguments(const RunRequest& request, GlobalMemory* global) {
  const Program& p = *request.program;
  global->buffers.resize(request.arguments.size());
  global->argument_allocation.assign(request.arguments.size(), 0);
  for (size_t i = 0; i < p.parameters.size(); ++i) {
    const KernelParameter& k = p.parameters[i];
    const RunArgument& a = request.arguments[i];
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
        Allocation alloc;
        alloc.data = global->buffers[i].data();
        alloc.size = a.bytes.size();
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
        global->buffers[i].Resize(a.bytes.size());
        if (!a.bytes.empty())
          std::memcpy(global->buffers[i].data(), a.bytes.data(), a.bytes.size());
        Allocation alloc;
        alloc.data = global->buffers[i].data();
        alloc.size = a.bytes.size();
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
