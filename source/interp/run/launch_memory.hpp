// The memory of a launch outside the work-groups: the up-front limits on what one work-group
// needs, and the buffers, images and program-scope variables every work-group shares, placed in
// one allocation table that each worker copies.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "interp/model/memory.hpp"
#include "xmx/interpreter.hpp"

namespace xmx::interp {

constexpr uint64_t kAllocationAlignment = 4096;

// A worker thread keeps a start image of a full work-group's private memory (worker_start.cpp) when
// that memory is at most this size: copying the image costs less than zeroing the memory and
// storing every work-item's builtins again. Past it the memory is zeroed and set anew each
// work-group, which costs little beside the zeroing, and the image is not worth its memory.
constexpr uint64_t kMaxPrivateStartImageBytes = uint64_t{64} << 10;

// Zeroed storage aligned for any access and for the allocation rule of memory.hpp. A failed
// allocation throws std::bad_alloc, as `new` does (Execute turns it into an error).
class AlignedBytes {
 public:
  AlignedBytes() = default;
  explicit AlignedBytes(uint64_t size) { Resize(size); }
  void Resize(uint64_t size) {
    data_.reset();
    size_ = 0;
    if (size > UINT64_MAX - kAllocationAlignment) throw std::bad_alloc();
    const uint64_t rounded = (std::max<uint64_t>(size, 1) + kAllocationAlignment - 1) /
                             kAllocationAlignment * kAllocationAlignment;
    data_.reset(static_cast<uint8_t*>(std::aligned_alloc(kAllocationAlignment, rounded)));
    if (data_ == nullptr) throw std::bad_alloc();
    std::memset(data_.get(), 0, rounded);
    size_ = size;
  }
  void Release() {
    data_.reset();
    size_ = 0;
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
  // Per argument: images, by-value arguments and empty buffers are copied into `buffers`; every
  // other buffer runs in the caller's own storage, moved from the request into `adopted` and
  // handed back as the outcome's buffer. Copying it in and out again would cost two passes over
  // memory fresh from the host (page faults included) on the launching thread alone, before and
  // after the worker threads run: for a 512^3 GEMM about as long as a fifth of the kernel's work.
  // The caller's storage is aligned for any scalar (operator new's 16 bytes); nothing in the
  // interpreter depends on the host address beyond that, only on offsets.
  std::vector<AlignedBytes> buffers;
  std::vector<std::vector<uint8_t>> adopted;
  std::vector<AlignedBytes> variables;
  AllocationTable table;                      // null, buffers, global variables
  std::vector<uint32_t> argument_allocation;  // per argument, 0 when none
  std::vector<uint32_t> variable_allocation;
};

// What a launch allocates, in bytes, as Execute counts it against RunRequest::max_memory before
// allocating anything:
//   shared      every buffer and image argument, once more the largest of them (an image's
//               result is copied out one argument at a time; buffers, which the launch runs in
//               the caller's storage, are counted the same so that the limit a launch passes
//               stays what it was), by-value arguments twice (every work-item
//               reads the caller's copy), the program-scope variables;
//   per_thread  what each worker thread holds for the work-group it runs: private memory of every
//               work-item, local memory and (while checking) its race shadow, the register file
//               of every subgroup three times (the registers, and scratch of work-group
//               collectives and split matrix instructions, each at most that size), the table of
//               allocations, and the start images of a full work-group (private memory up to
//               kMaxPrivateStartImageBytes, the registers holding arguments and variable
//               pointers).
struct LaunchMemory {
  uint64_t shared = 0;
  uint64_t per_thread = 0;
  uint64_t work_group_items = 0;
  uint64_t local_bytes = 0;
  bool overflow = false;  // a sum or product passed 2^64
};
LaunchMemory MeasureLaunchMemory(const RunRequest& request);

// Refuses a launch the host should not be asked for: a work-group of more than 65536 work-items,
// (while checking) more local memory than the race shadow covers, or memory beyond
// request.max_memory with one worker thread. Otherwise lowers *threads, if need be, to as many
// workers as the limit leaves room for. Returns the error, or nullopt.
std::optional<std::string> PlanLaunchMemory(const RunRequest& request, uint32_t* threads);

// Checks each argument against its kernel parameter and places the buffers, images and
// program-scope variables in `global`: a non-empty buffer's bytes move from the request into
// global->adopted, an image's are copied and released in the request, and by-value arguments
// keep theirs (every work-item copies them). Returns the error naming the argument, or nullopt.
std::optional<std::string> PlaceArguments(RunRequest& request, GlobalMemory* global);

}  // namespace xmx::interp
