// What the instruction families share: checked memory access and lane loops.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "interp/local_race_shadow.hpp"
#include "interp/memory.hpp"
#include "interp/subgroup.hpp"
#include "interp/work_group.hpp"

namespace xmx::interp {

enum class AccessKind : uint8_t { kRead, kWrite, kAtomic };

// Describes an allocation for a report: "buffer argument 1 (256 bytes)".
std::string DescribeAllocation(const Allocation& a);
std::string HexPointer(uint64_t pointer);

// Slow path of AccessMemory: diagnoses a failed access and reports it. Returns nullptr; sets
// *stop when the launch must stop.
uint8_t* ReportBadAccess(Subgroup& sg, const Instr* in, uint32_t lane, uint64_t pointer,
                         uint64_t bytes, uint32_t alignment, AccessKind kind, bool* stop);
// Records a local-memory access in the race shadow; reports a race.
bool RecordLocalAccess(Subgroup& sg, const Instr* in, uint32_t lane, const Allocation& a,
                       uint64_t offset, uint64_t bytes, bool write, bool* stop);

// The host address of `bytes` at `pointer` for `lane`, or nullptr when the access is undefined
// behaviour (reported unless --check=off; with --check=off the access is still refused, so a
// broken kernel cannot corrupt the interpreter).
inline uint8_t* AccessMemory(Subgroup& sg, const Instr* in, uint32_t lane, uint64_t pointer,
                             uint64_t bytes, uint32_t alignment, AccessKind kind, bool* stop) {
  const Allocation* a = sg.group->allocations->Find(PointerAllocation(pointer));
  const uint64_t offset = PointerOffset(pointer);
  if (a == nullptr || offset > a->size || bytes > a->size - offset ||
      (alignment > 1 && offset % alignment != 0) || (kind != AccessKind::kRead && a->read_only)) {
    return ReportBadAccess(sg, in, lane, pointer, bytes, alignment, kind, stop);
  }
  if (a->storage == spv::StorageClass::Workgroup && sg.group->shadow != nullptr &&
      kind != AccessKind::kAtomic) {
    if (!RecordLocalAccess(sg, in, lane, *a, offset, bytes, kind == AccessKind::kWrite, stop)) {
      if (*stop) return nullptr;
    }
  }
  return a->data + offset;
}

template <class T>
inline T LoadScalar(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
inline void StoreScalar(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// Copies `size` bytes per lane from slot `src` to slot `dst` for the active lanes.
inline void CopyLanes(Subgroup& sg, uint32_t dst, uint32_t src, uint32_t size) {
  if (sg.full) {
    std::memmove(sg.regs + dst, sg.regs + src, size_t{size} * sg.lanes);
    return;
  }
  ForEachLane(sg.mask, [&](uint32_t lane) {
    std::memmove(sg.regs + dst + lane * size, sg.regs + src + lane * size, size);
  });
}

// The 64-bit value of an integer operand of `bytes` bytes for `lane`, zero-extended.
inline uint64_t LaneUInt(const Subgroup& sg, uint32_t slot, uint32_t bytes, uint32_t lane) {
  uint64_t v = 0;
  std::memcpy(&v, sg.regs + slot + lane * bytes, bytes);
  return v;
}
inline int64_t LaneSInt(const Subgroup& sg, uint32_t slot, uint32_t bytes, uint32_t lane) {
  const uint64_t v = LaneUInt(sg, slot, bytes, lane);
  const int shift = 64 - 8 * static_cast<int>(bytes);
  return shift == 0 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << shift) >> shift;
}

// Whether every active lane holds the same `bytes` at `slot` (a dynamically uniform operand).
inline bool LanesUniform(const Subgroup& sg, uint32_t slot, uint32_t bytes, uint32_t* differing) {
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(sg.mask));
  bool uniform = true;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    if (uniform &&
        std::memcmp(sg.regs + slot + lane * bytes, sg.regs + slot + first * bytes, bytes) != 0) {
      uniform = false;
      *differing = lane;
    }
  });
  return uniform;
}

// Reports that an instruction needing the whole subgroup runs with part of it (DECISIONS.md 7).
// Returns true when execution must stop.
bool RequireWholeSubgroup(Subgroup& sg, const Instr* in, const char* what);
// Reports an operand that must be dynamically uniform but is not.
bool RequireUniform(Subgroup& sg, const Instr* in, uint32_t slot, uint32_t bytes,
                    const char* operand);

}  // namespace xmx::interp
