// What the instruction families share: checked memory access and lane loops.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "interp/model/memory.hpp"
#include "interp/model/subgroup.hpp"
#include "interp/model/work_group.hpp"
#include "interp/run/local_race_shadow.hpp"

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

// Whether `offset` is not a multiple of `alignment` (0 and 1: no requirement). Alignments are
// almost always powers of two (the Aligned operand must be one), tested with a mask: a division
// on every access of every lane would cost more than the rest of the check.
inline bool Misaligned(uint64_t offset, uint32_t alignment) {
  if (alignment <= 1) return false;
  if ((alignment & (alignment - 1)) == 0) return (offset & (alignment - 1)) != 0;
  return offset % alignment != 0;
}

// The host address of `bytes` at `pointer` for `lane`, or nullptr when the access is undefined
// behaviour (reported unless --check=off; with --check=off the access is still refused, so a
// broken kernel cannot corrupt the interpreter).
inline uint8_t* AccessMemory(Subgroup& sg, const Instr* in, uint32_t lane, uint64_t pointer,
                             uint64_t bytes, uint32_t alignment, AccessKind kind, bool* stop) {
  const Allocation* a = sg.group->allocations->Find(PointerAllocation(pointer));
  const uint64_t offset = PointerOffset(pointer);
  if (a == nullptr || offset > a->size || bytes > a->size - offset ||
      Misaligned(offset, alignment) || (kind != AccessKind::kRead && a->read_only)) {
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

// The fast path of a whole subgroup's access to private memory. Lanes are consecutive
// work-items and every item's private variables are allocations in the same order over one
// host array (model/private_layout.hpp), so when lane l's pointer is lane 0's moved by l items'
// worth of allocation indices, every lane addresses the same byte of its own copy of one variable:
// lane l's bytes lie at the returned address plus l * *stride. Returns nullptr when the pointers do
// not have that form or the access is not plainly allowed; the caller then takes the per-lane
// path, which also diagnoses.
inline uint8_t* LaneStridedPrivate(const Subgroup& sg, const uint64_t* pointers, uint64_t bytes,
                                   uint32_t alignment, bool write, size_t* stride) {
  const WorkGroup& g = *sg.group;
  const PrivateLayout& layout = g.program->private_layout;
  const uint64_t variables = layout.variables;
  if (sg.lanes > 64 || sg.mask != (~uint64_t{0} >> (64 - sg.lanes)) || variables == 0) {
    return nullptr;
  }
  const uint32_t first = PointerAllocation(pointers[0]);
  if (first < g.private_first || first + (sg.lanes - 1) * variables >= g.private_end) {
    return nullptr;
  }
  const uint64_t step = variables << kOffsetBits;
  bool strided = true;
  const uint64_t first_pointer = pointers[0];
  ForAllLanes(sg.lanes,
              [&](uint32_t lane) { strided &= pointers[lane] == first_pointer + lane * step; });
  if (!strided) return nullptr;
  const Allocation& a = *g.allocations->Find(first);
  const uint64_t offset = PointerOffset(pointers[0]);
  if (offset > a.size || bytes > a.size - offset || Misaligned(offset, alignment) ||
      (write && a.read_only)) {
    return nullptr;
  }
  *stride = layout.bytes_per_item;
  return a.data + offset;
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

// Copies `size` bytes from `src` to `dst` (which do not overlap). The sizes the instructions
// move most (scalars, vectors, builtin 3-vectors, 2D block payloads) become fixed-size moves
// instead of a library call.
inline __attribute__((always_inline)) void CopyBytes(uint8_t* dst, const uint8_t* src,
                                                     uint32_t size) {
  switch (size) {
    case 1:
      *dst = *src;
      return;
    case 2:
      std::memcpy(dst, src, 2);
      return;
    case 4:
      std::memcpy(dst, src, 4);
      return;
    case 8:
      std::memcpy(dst, src, 8);
      return;
    case 12:
      std::memcpy(dst, src, 12);
      return;
    case 16:
      std::memcpy(dst, src, 16);
      return;
    case 24:
      std::memcpy(dst, src, 24);
      return;
    case 32:
      std::memcpy(dst, src, 32);
      return;
    case 64:
      std::memcpy(dst, src, 64);
      return;
    default:
      std::memcpy(dst, src, size);
  }
}

// Copies `size` bytes per lane from slot `src` to slot `dst` for the active lanes.
inline void CopyLanes(Subgroup& sg, uint32_t dst, uint32_t src, uint32_t size) {
  if (sg.full) {
    std::memmove(sg.regs + dst, sg.regs + src, size_t{size} * sg.lanes);
    return;
  }
  if (dst == src) return;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    CopyBytes(sg.regs + dst + lane * size, sg.regs + src + lane * size, size);
  });
}

// The 64-bit value of an integer operand of `bytes` bytes for `lane`, zero-extended.
inline uint64_t LaneUInt(const Subgroup& sg, uint32_t slot, uint32_t bytes, uint32_t lane) {
  const uint8_t* p = sg.regs + slot + lane * bytes;
  switch (bytes) {  // fixed-size reads: a variable-length memcpy would be a library call
    case 1:
      return *p;
    case 2:
      return LoadScalar<uint16_t>(p);
    case 4:
      return LoadScalar<uint32_t>(p);
    case 8:
      return LoadScalar<uint64_t>(p);
    default: {
      uint64_t v = 0;
      std::memcpy(&v, p, bytes < 8 ? bytes : 8);
      return v;
    }
  }
}
inline int64_t LaneSInt(const Subgroup& sg, uint32_t slot, uint32_t bytes, uint32_t lane) {
  const uint64_t v = LaneUInt(sg, slot, bytes, lane);
  const int shift = 64 - 8 * static_cast<int>(bytes);
  return shift == 0 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << shift) >> shift;
}

namespace support_detail {
template <class T>
inline bool LanesEqual(const Subgroup& sg, uint32_t slot, uint32_t* differing) {
  const T* v = reinterpret_cast<const T*>(sg.regs + slot);
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(sg.mask));
  const T want = v[first];
  if (sg.full) {
    // No early exit: a branch-free loop over every lane is cheaper than one per lane.
    bool all = true;
    for (uint32_t lane = 0; lane < sg.lanes; ++lane) all &= v[lane] == want;
    if (all) return true;
  }
  for (uint64_t m = sg.mask; m != 0; m &= m - 1) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    if (v[lane] != want) {
      *differing = lane;
      return false;
    }
  }
  return true;
}
}  // namespace support_detail

// Whether every active lane holds the same `bytes` at `slot` (a dynamically uniform operand).
// Otherwise *differing is the first lane that differs from the first active one.
inline bool LanesUniform(const Subgroup& sg, uint32_t slot, uint32_t bytes, uint32_t* differing) {
  switch (bytes) {
    case 1:
      return support_detail::LanesEqual<uint8_t>(sg, slot, differing);
    case 2:
      return support_detail::LanesEqual<uint16_t>(sg, slot, differing);
    case 4:
      return support_detail::LanesEqual<uint32_t>(sg, slot, differing);
    case 8:
      return support_detail::LanesEqual<uint64_t>(sg, slot, differing);
    default:
      break;
  }
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(sg.mask));
  for (uint64_t m = sg.mask; m != 0; m &= m - 1) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    if (std::memcmp(sg.regs + slot + lane * bytes, sg.regs + slot + first * bytes, bytes) != 0) {
      *differing = lane;
      return false;
    }
  }
  return true;
}

// Reports that an instruction needing the whole subgroup runs with part of it (DECISIONS.md 7).
// Returns true when execution must stop.
bool RequireWholeSubgroup(Subgroup& sg, const Instr* in, const char* what);
// Reports an operand that must be dynamically uniform but is not.
bool RequireUniform(Subgroup& sg, const Instr* in, uint32_t slot, uint32_t bytes,
                    const char* operand);

}  // namespace xmx::interp
