// Memory of a launch: every buffer, variable and local-memory block is an allocation with
// bounds, and a pointer value names its allocation, so every access can be checked.
//
// A pointer is 64 bits in registers: the allocation's index in the high 24 bits, the byte offset
// in the low 40. Index 0 is the null allocation. Pointer arithmetic (OpPtrAccessChain, integer
// round trips through OpConvertPtrToU) moves the offset only; allocations are aligned to 4096
// bytes, so an offset's alignment is the address's alignment. In a Physical32 module a pointer
// in memory or in an integer is 32 bits: 8 bits of index and 24 of offset (see program.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "xmx/spirv_enums.hpp"

namespace xmx::interp {

inline constexpr int kOffsetBits = 40;
inline constexpr uint64_t kOffsetMask = (uint64_t{1} << kOffsetBits) - 1;
inline constexpr int kOffsetBits32 = 24;

inline uint64_t MakePointer(uint32_t allocation, uint64_t offset) {
  return (uint64_t{allocation} << kOffsetBits) | (offset & kOffsetMask);
}
inline uint32_t PointerAllocation(uint64_t pointer) {
  return static_cast<uint32_t>(pointer >> kOffsetBits);
}
inline uint64_t PointerOffset(uint64_t pointer) { return pointer & kOffsetMask; }

// Between the register form and the 32-bit form of Physical32 modules.
inline uint32_t PointerTo32(uint64_t pointer) {
  return static_cast<uint32_t>((PointerAllocation(pointer) << kOffsetBits32) |
                               (PointerOffset(pointer) & ((1u << kOffsetBits32) - 1)));
}
inline uint64_t PointerFrom32(uint32_t value) {
  return MakePointer(value >> kOffsetBits32, value & ((1u << kOffsetBits32) - 1));
}

struct Allocation {
  uint8_t* data = nullptr;
  uint64_t size = 0;
  spv::StorageClass storage = spv::StorageClass::Function;
  bool read_only = false;
  bool shared = false;    // visible to other work-groups (global memory): accessed atomically
  const char* what = "";  // "buffer", "private variable", ... for reports
  uint32_t label = 0;     // parameter index or variable number
  // An image argument (2D, rows tightly packed): its geometry; zero for every other allocation.
  uint64_t image_row_bytes = 0, image_rows = 0;
  uint32_t image_texel_bytes = 0;
};

// The allocations one worker thread can reach. Global ones are the same objects in every
// worker; local and private ones belong to the work-group the worker runs.
class AllocationTable {
 public:
  uint32_t Add(const Allocation& allocation) {
    entries_.push_back(allocation);
    return static_cast<uint32_t>(entries_.size() - 1);
  }
  Allocation& operator[](uint32_t index) { return entries_[index]; }
  const Allocation* Find(uint32_t index) const {
    return index < entries_.size() && index != 0 ? &entries_[index] : nullptr;
  }
  size_t size() const { return entries_.size(); }

 private:
  std::vector<Allocation> entries_{Allocation{}};  // index 0: null
};

}  // namespace xmx::interp
