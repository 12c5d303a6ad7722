// CoopCopyRuns (interp/coop/coop_runs.hpp): the run-wise copies between a whole cooperative
// matrix's slot and a native operand's registers move exactly the bytes the per-element table
// names, for tables with stretches of every length (including mixed lengths and single
// elements) and for the tables of Intel's mapping that the multiply-add uses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "interp/coop/coop_runs.hpp"

namespace xmx::interp {
namespace {

// A table over a slot of `slot_elements` elements: a random permutation of the slot's
// elements cut into stretches of random lengths (1 to max_stretch), each stretch consecutive
// in the slot.
std::vector<uint32_t> RandomTable(std::mt19937& rng, uint32_t slot_elements, uint32_t eb,
                                  uint32_t max_stretch) {
  std::vector<uint32_t> starts;
  std::vector<uint32_t> lengths;
  for (uint32_t e = 0; e < slot_elements;) {
    const uint32_t len = std::min<uint32_t>(1 + rng() % max_stretch, slot_elements - e);
    starts.push_back(e);
    lengths.push_back(len);
    e += len;
  }
  std::vector<uint32_t> order(starts.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<uint32_t> table;
  for (uint32_t s : order) {
    for (uint32_t i = 0; i < lengths[s]; ++i) table.push_back((starts[s] + i) * eb);
  }
  return table;
}

void CheckTable(std::mt19937& rng, const std::vector<uint32_t>& table, uint32_t eb,
                uint32_t slot_bytes) {
  const CoopCopyRuns runs(table, eb);
  std::vector<uint8_t> slot(slot_bytes), native(table.size() * eb);
  for (uint8_t& b : slot) b = static_cast<uint8_t>(rng());
  // Gather: native element i is the slot's element at table[i].
  std::vector<uint8_t> gathered(native.size(), 0x5A);
  runs.Gather(gathered.data(), slot.data());
  for (size_t i = 0; i < table.size(); ++i) {
    ASSERT_EQ(0, std::memcmp(gathered.data() + i * eb, slot.data() + table[i], eb))
        << "element " << i << " of " << table.size() << ", element bytes " << eb;
  }
  // Scatter: the slot's element at table[i] becomes native element i; other bytes stay.
  for (uint8_t& b : native) b = static_cast<uint8_t>(rng());
  std::vector<uint8_t> want = slot, got = slot;
  for (size_t i = 0; i < table.size(); ++i) {
    std::memcpy(want.data() + table[i], native.data() + i * eb, eb);
  }
  runs.Scatter(native.data(), got.data());
  ASSERT_EQ(got, want) << table.size() << " elements of " << eb << " bytes";
}

TEST(CoopCopyRuns, MovesWhatTheTableNames) {
  std::mt19937 rng(7);
  for (uint32_t eb : {1u, 2u, 4u}) {
    for (uint32_t max_stretch : {1u, 2u, 3u, 8u, 16u, 64u}) {
      for (int round = 0; round < 50; ++round) {
        const uint32_t slot_elements = 1 + rng() % 600;
        const std::vector<uint32_t> table = RandomTable(rng, slot_elements, eb, max_stretch);
        // Only part of the slot (a native block of a larger operand).
        const std::vector<uint32_t> part(table.begin(), table.begin() + (table.size() + 1) / 2);
        CheckTable(rng, part, eb, slot_elements * eb);
        CheckTable(rng, table, eb, slot_elements * eb);
      }
    }
  }
}

// An accumulator 32x64 of floats at SG16 holds C[e % 32][(e / 32) * 16 + j] in invocation j;
// the native 8x16 block (rb, cb) holds C[rb * 8 + e][cb * 16 + j]: 16 runs of 32 bytes.
TEST(CoopCopyRuns, MergesTheRowsOfANativeBlock) {
  const uint32_t eb = 4, length = 32 * 64 / 16;
  std::mt19937 rng(11);
  for (uint32_t rb = 0; rb < 4; ++rb) {
    for (uint32_t cb = 0; cb < 4; ++cb) {
      std::vector<uint32_t> table;
      for (uint32_t j = 0; j < 16; ++j) {
        for (uint32_t e = 0; e < 8; ++e) table.push_back((j * length + cb * 32 + rb * 8 + e) * eb);
      }
      const CoopCopyRuns runs(table, eb);
      EXPECT_EQ(runs.run_bytes(), 32u);
      EXPECT_EQ(runs.runs(), 16u);
      CheckTable(rng, table, eb, 16 * length * eb);
    }
  }
}

}  // namespace
}  // namespace xmx::interp
