#include "interp/run/exec_support.hpp"

#include <cstdio>

namespace xmx::interp {

std::string DescribeAllocation(const Allocation& a) {
  return std::string(a.what) + " " + std::to_string(a.label) + " (" + std::to_string(a.size) +
         " bytes)";
}

std::string HexPointer(uint64_t pointer) {
  char text[64];
  std::snprintf(text, sizeof(text), "{allocation %u, offset %llu}", PointerAllocation(pointer),
                static_cast<unsigned long long>(PointerOffset(pointer)));
  return text;
}

uint8_t* ReportBadAccess(Subgroup& sg, const Instr* in, uint32_t lane, uint64_t pointer,
                         uint64_t bytes, uint32_t alignment, AccessKind kind, bool* stop) {
  if (sg.group->launch->options.check == CheckMode::kOff) return nullptr;
  const char* verb = kind == AccessKind::kRead    ? "read"
                     : kind == AccessKind::kWrite ? "write"
                                                  : "atomic access";
  const Allocation* a = sg.group->allocations->Find(PointerAllocation(pointer));
  const uint64_t offset = PointerOffset(pointer);
  std::string message;
  const char* rule;
  if (pointer == 0) {
    rule = "memory.null";
    message = std::string(verb) + " of " + std::to_string(bytes) + " bytes through a null pointer";
  } else if (a == nullptr) {
    rule = "memory.invalid-pointer";
    message = std::string(verb) + " of " + std::to_string(bytes) +
              " bytes through a pointer to no allocation " + HexPointer(pointer);
  } else if (offset == kOffsetMask) {
    rule = "memory.out-of-bounds";
    message = std::string(verb) + " of " + std::to_string(bytes) +
              " bytes through a pointer moved outside " + DescribeAllocation(*a) +
              " (before its start or beyond 2^40 bytes)";
  } else if (offset > a->size || bytes > a->size - offset) {
    rule = "memory.out-of-bounds";
    message = std::string(verb) + " of " + std::to_string(bytes) + " bytes at offset " +
              std::to_string(offset) + " is outside " + DescribeAllocation(*a);
  } else if (alignment > 1 && offset % alignment != 0) {
    rule = "memory.misaligned";
    message = std::string(verb) + " of " + std::to_string(bytes) + " bytes at offset " +
              std::to_string(offset) + " of " + DescribeAllocation(*a) + " is not aligned to " +
              std::to_string(alignment) + " bytes";
  } else {
    rule = "memory.read-only";
    message = std::string(verb) + " to read-only " + DescribeAllocation(*a);
  }
  *stop = ReportAt(sg, in, lane, rule, std::move(message));
  return nullptr;
}

bool RecordLocalAccess(Subgroup& sg, const Instr* in, uint32_t lane, const Allocation& a,
                       uint64_t offset, uint64_t bytes, bool write, bool* stop) {
  LocalRaceShadow& shadow = *sg.group->shadow;
  const uint64_t base = static_cast<uint64_t>(a.data - shadow.base());
  const uint32_t item = sg.first_item + lane;
  std::optional<RaceConflict> c =
      shadow.Access(base + offset, bytes, item, sg.id, sg.subgroup_barriers, write);
  if (!c) return true;
  uint64_t other[3];
  sg.group->LocalId(c->other_item, other);
  const std::string other_text = "local work-item (" + std::to_string(other[0]) + "," +
                                 std::to_string(other[1]) + "," + std::to_string(other[2]) + ")";
  *stop = ReportAt(sg, in, lane, "memory.local-race",
                   std::string(write ? "write" : "read") + " of byte " +
                       std::to_string(c->offset - base) + " of " + DescribeAllocation(a) +
                       " races with " + (c->other_was_write ? "a write" : "a read") + " by " +
                       other_text + " since the last barrier");
  return false;
}

bool RequireWholeSubgroup(Subgroup& sg, const Instr* in, const char* what) {
  if (sg.mask == sg.live_mask &&
      sg.live_mask == (sg.lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << sg.lanes) - 1)) {
    return false;
  }
  if (sg.group->launch->options.check == CheckMode::kOff) return false;
  char mask[40];
  std::snprintf(mask, sizeof(mask), "0x%llx", static_cast<unsigned long long>(sg.mask));
  std::string message = std::string(what) + " needs the whole subgroup, but ";
  if (sg.live_mask != sg.mask) {
    message += "only lanes " + std::string(mask) + " of subgroup " + std::to_string(sg.id) +
               " reach it (the subgroup has diverged)";
  } else {
    message += "subgroup " + std::to_string(sg.id) + " is partial (" +
               std::to_string(std::popcount(sg.live_mask)) + " of " + std::to_string(sg.lanes) +
               " work-items)";
  }
  return ReportSubgroup(sg, in, "subgroup.not-whole", std::move(message));
}

bool RequireUniform(Subgroup& sg, const Instr* in, uint32_t slot, uint32_t bytes,
                    const char* operand) {
  if (sg.group->launch->options.check == CheckMode::kOff) return false;
  uint32_t lane = 0;
  if (LanesUniform(sg, slot, bytes, &lane)) return false;
  const uint32_t first = static_cast<uint32_t>(std::countr_zero(sg.mask));
  auto value = [&](uint32_t l) {
    uint64_t v = 0;
    std::memcpy(&v, sg.regs + slot + l * bytes, std::min<uint32_t>(bytes, 8));
    char text[32];
    std::snprintf(text, sizeof(text), bytes == 8 ? "0x%llx" : "%llu",
                  static_cast<unsigned long long>(v));
    return std::string(text);
  };
  return ReportAt(sg, in, lane, "subgroup.non-uniform",
                  std::string(operand) + " must be the same in every invocation, but lane " +
                      std::to_string(first) + " has " + value(first) + " and lane " +
                      std::to_string(lane) + " has " + value(lane));
}

}  // namespace xmx::interp
