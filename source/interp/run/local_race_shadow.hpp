// Data races on local memory (--check): a byte-level shadow of the work-group's local memory
// that remembers, for each byte, who last wrote it and who read it since the last barrier.
// Two accesses by different work-items to the same byte, at least one a write, with no
// work-group barrier between them (nor a subgroup barrier, when both are in one subgroup) race.
// Atomic accesses are not recorded.
//
// The shadow is paged: a page of cells is allocated when a byte of it is first touched, and a new
// work-group clears only the pages the last one touched, so a kernel that declares much local
// memory and uses little pays for what it uses.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace xmx::interp {

// Local memory a work-group may have when the race check is on (Execute refuses more): 32 times
// the 128 KiB of shared local memory of the largest Intel GPUs, and a bound on the shadow (about
// 40 bytes a byte of local memory).
constexpr uint64_t kMaxRaceCheckedLocalBytes = uint64_t{4} << 20;

struct RaceConflict {
  uint64_t offset;      // byte offset in the local memory block
  uint32_t other_item;  // local linear id of the earlier access's work-item
  bool other_was_write;
};

class LocalRaceShadow {
 public:
  LocalRaceShadow(const uint8_t* base, uint64_t bytes)
      : base_(base),
        bytes_(bytes),
        pages_((bytes + kPageCells - 1) / kPageCells),
        dirty_(pages_.size(), false) {}

  void Reset() {
    for (const uint64_t page : touched_) {
      std::fill_n(pages_[page].get(), kPageCells, Cell{});
      dirty_[page] = false;
    }
    touched_.clear();
    epoch_ = 1;
  }
  void NextEpoch() { ++epoch_; }
  const uint8_t* base() const { return base_; }

  // Records an access of `bytes` at `offset` by work-item `item` of subgroup `subgroup`, whose
  // subgroup-barrier count is `subgroup_epoch`. Returns the first conflicting byte, if any.
  std::optional<RaceConflict> Access(uint64_t offset, uint64_t bytes, uint32_t item,
                                     uint32_t subgroup, uint32_t subgroup_epoch, bool write) {
    std::optional<RaceConflict> conflict;
    for (uint64_t b = offset; b < offset + bytes && b < bytes_; ++b) {
      Cell& c = At(b);
      auto ordered = [&](uint32_t other_subgroup, uint32_t other_subgroup_epoch) {
        return other_subgroup == subgroup && other_subgroup_epoch != subgroup_epoch;
      };
      if (!conflict && c.write_epoch == epoch_ && c.writer != item &&
          !ordered(c.writer_subgroup, c.writer_subgroup_epoch)) {
        conflict = RaceConflict{b, c.writer, true};
      }
      const bool readers_race = c.read_epoch == epoch_ && (c.reader != item || c.several_readers) &&
                                !ordered(c.reader_subgroup, c.reader_subgroup_epoch);
      if (write && !conflict && readers_race) {
        // Name a reader other than the writer; with several readers one of them is.
        conflict = RaceConflict{b, c.reader != item ? c.reader : c.other_reader, false};
      }
      if (write) {
        c.writer = item;
        c.write_epoch = epoch_;
        c.writer_subgroup = subgroup;
        c.writer_subgroup_epoch = subgroup_epoch;
      } else if (c.read_epoch != epoch_) {
        c.reader = item;
        c.read_epoch = epoch_;
        c.several_readers = false;
        c.reader_subgroup = subgroup;
        c.reader_subgroup_epoch = subgroup_epoch;
      } else if (c.reader != item) {
        // Several readers: a later write by any work-item in this epoch races with one of them,
        // unless all of them are in the writer's subgroup and a subgroup barrier came between.
        c.several_readers = true;
        c.other_reader = item;
        if (c.reader_subgroup != subgroup || c.reader_subgroup_epoch != subgroup_epoch) {
          c.reader_subgroup = UINT32_MAX;
        }
      }
    }
    return conflict;
  }

 private:
  struct Cell {
    uint32_t writer, write_epoch, writer_subgroup, writer_subgroup_epoch;
    uint32_t reader, read_epoch, reader_subgroup, reader_subgroup_epoch;
    uint32_t other_reader;  // a reader other than `reader`, when several_readers
    bool several_readers;
  };
  static constexpr uint64_t kPageCells = 4096;

  Cell& At(uint64_t byte) {
    const uint64_t page = byte / kPageCells;
    if (!dirty_[page]) {
      if (!pages_[page]) pages_[page] = std::make_unique<Cell[]>(kPageCells);  // zeroed
      dirty_[page] = true;
      touched_.push_back(page);
    }
    return pages_[page][byte % kPageCells];
  }

  const uint8_t* base_;
  uint64_t bytes_;
  std::vector<std::unique_ptr<Cell[]>> pages_;
  std::vector<bool> dirty_;        // touched since the last Reset
  std::vector<uint64_t> touched_;  // the dirty pages
  uint32_t epoch_ = 1;
};

}  // namespace xmx::interp
