// The memory of a launch outside the work-groups: the up-front limits on what one work-group
// needs, and the buffers, images and program-scope variables every work-group shares, placed in
// one allocation table that each worker copies.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interp/memory.hpp"
#include "xmx/interpreter.hpp"

namespace xmx::interp {

constexpr uint64_t kAllocationAlignment = 4096;

// Zeroed storage aligned for any access and for the allocation rule of memory.hpp.
class AlignedBytes {
 public:
  AlignedBytes() = default;
  explicit AlignedBytes(uint64_t size) { Resize(size); }
  void Resize(uint64_t size) {
    size_ = size;
    const uint64_t rounded = (std::max<uint64_t>(size, 1) + kAllocationAlignment - 1) /
                             kAllocationAlignment * kAllocationAlignment;
    data_.reset(static_cast<uint8_t*>(std::aligned_alloc(kAllocationAlignment, rounded)));
    std::memset(data_.get(), 0, rounded);
  }
  uint8_t* data() { return data_.get(); }
  uint64_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> data_;
  uint64_t size_ = 0;
};

struct GlobalMemory {
  std::vector<AlignedBytes> buffers;  // per argument (empty for non-buffers)
  std::vector<AlignedBytes> variables;
  AllocationTable table;                      // null, buffers, global variables
  std::vector<uint32_t> argument_allocation;  // per argument, 0 when none
  std::vector<uint32_t> variable_allocation;
};

// Refuses a launch whose work-group needs more than the host should be asked for: more than
// 65536 work-items, more than 1 GiB of private, local and program-scope memory, or (while
// checking) more local memory than the race shadow covers. Returns the error, or nullopt.
std::optional<std::string> CheckWorkGroupMemory(const RunRequest& request);

// Checks each argument against its kernel parameter and places the buffers, images and
// program-scope variables in `global`. Returns the error naming the argument, or nullopt.
std::optional<std::string> PlaceArguments(const RunRequest& request, GlobalMemory* global);

}  // namespace xmx::interp
