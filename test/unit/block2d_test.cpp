// Tests of source/interp/block2d against a reference model of SPEC-NOTES A.5 / A.6 written here
// from the spec text alone. The library goes from each private slot to the memory element it
// holds; the model goes the other way, from each memory element to the invocation and private
// bytes it lands in, and takes the per-invocation payload size from IGC's destination-type
// formula (A.7) instead of from A.5's slot counting.
#include "interp/block2d.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace xmx::interp {
namespace {

using O = Block2dOp;

// ---------------------------------------------------------------------------------------------
// Reference model.

struct RefShape {
  Block2dOp op;
  uint32_t e, w, h, c, sg;
};

std::string Describe(const RefShape& s) {
  return std::string(device::Block2dInstructionName(s.op)) + " E" + std::to_string(s.e) + " " +
         std::to_string(s.h) + "r" + std::to_string(s.w) + "x" + std::to_string(s.c) + "c SG" +
         std::to_string(s.sg);
}

uint32_t RefPow2(uint32_t v) {
  uint32_t p = 1;
  while (p < v) p *= 2;
  return p;
}
uint32_t RefCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// A.7: IGC's destination type, element bits = E*8*max(W/SG, 1), element count =
// Count*max(H/max(SG/W, 1), 1), transform: dwords = max(W*H*E/4/SG, 1)*Count. Written with the
// A.5 padded sizes and a rounding-up division so that it also covers non-power-of-two shapes.
uint32_t RefLaneBytes(const RefShape& s) {
  if (s.op == O::kPrefetch) return 0;
  if (s.op == O::kLoadTransform) {
    const uint32_t words = RefPow2(s.w) * RefCeil(s.h, 4 / s.e);  // Wp columns, Hpad*E/4 rows
    return 4 * std::max(RefCeil(words, s.sg), 1u) * s.c;
  }
  // Transpose: the block the invocations see has W rows of Hp elements.
  const uint32_t w = s.op == O::kLoadTranspose ? RefPow2(s.h) : RefPow2(s.w);
  const uint32_t h = s.op == O::kLoadTranspose ? s.w : s.h;
  const uint32_t element_bytes = s.e * std::max(w / s.sg, 1u);
  const uint32_t count = s.c * std::max(RefCeil(h, std::max(s.sg / w, 1u)), 1u);
  return element_bytes * count;
}

// Where the first byte of memory element (row, column) of block b lands.
struct RefPlace {
  uint32_t lane;
  uint32_t byte;  // within the lane's private data
};

RefPlace RefPlaceOf(const RefShape& s, uint32_t b, uint32_t row, uint32_t column) {
  uint32_t prow = row, pcol = column, part = 0, row_units = RefPow2(s.w), unit = s.e;
  if (s.op == O::kLoadTransform) {  // VNNI: 4/E consecutive rows of a column form one dword
    prow = row / (4 / s.e);
    part = row % (4 / s.e) * s.e;
    unit = 4;
  } else if (s.op == O::kLoadTranspose) {  // memory column -> row of the transposed block
    prow = column;
    pcol = row;
    row_units = RefPow2(s.h);
  }
  const uint32_t block_bytes = RefLaneBytes(s) / s.c;
  if (row_units >= s.sg) {  // each invocation takes row_units/SG consecutive units of each row
    const uint32_t n = row_units / s.sg;
    return {pcol / n, b * block_bytes + (prow * n + pcol % n) * unit + part};
  }
  const uint32_t rows_together = s.sg / row_units;  // SG/RW rows share one slot
  return {prow % rows_together * row_units + pcol,
          b * block_bytes + prow / rows_together * unit + part};
}

struct RefMemory {
  std::vector<uint8_t> bytes;  // the allocation
  uint64_t base = 0;
  int64_t width = 0, height = 0, pitch = 0, x = 0, y = 0;
};

// Byte address of element (block b, row, column) if it is in bounds and inside the allocation.
std::optional<int64_t> RefAddress(const RefShape& s, const RefMemory& m, uint32_t b, uint32_t row,
                                  uint32_t column) {
  const int64_t mx = m.x + int64_t{b} * s.w + column;
  const int64_t my = m.y + row;
  if (mx < 0 || my < 0 || (mx + 1) * s.e > m.width || my >= m.height) return std::nullopt;
  const int64_t address = static_cast<int64_t>(m.base) + my * m.pitch + mx * s.e;
  if (address < 0 || address + s.e > static_cast<int64_t>(m.bytes.size())) return std::nullopt;
  return address;
}

std::vector<uint8_t> RefLoad(const RefShape& s, const RefMemory& m) {
  const uint32_t lane_bytes = RefLaneBytes(s);
  std::vector<uint8_t> payload(size_t{lane_bytes} * s.sg, 0);
  for (uint32_t b = 0; b < s.c; ++b) {
    for (uint32_t row = 0; row < s.h; ++row) {
      for (uint32_t column = 0; column < s.w; ++column) {
        const auto address = RefAddress(s, m, b, row, column);
        if (!address) continue;
        const RefPlace place = RefPlaceOf(s, b, row, column);
        std::memcpy(&payload[size_t{place.lane} * lane_bytes + place.byte], &m.bytes[*address],
                    s.e);
      }
    }
  }
  return payload;
}

void RefStore(const RefShape& s, RefMemory& m, const std::vector<uint8_t>& payload) {
  const uint32_t lane_bytes = RefLaneBytes(s);
  for (uint32_t b = 0; b < s.c; ++b) {
    for (uint32_t row = 0; row < s.h; ++row) {
      for (uint32_t column = 0; column < s.w; ++column) {
        const auto address = RefAddress(s, m, b, row, column);
        if (!address) continue;
        const RefPlace place = RefPlaceOf(s, b, row, column);
        std::memcpy(&m.bytes[*address], &payload[size_t{place.lane} * lane_bytes + place.byte],
                    s.e);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Harness.

Block2dLayout Prepared(const RefShape& s) {
  std::string why;
  auto layout = Block2dLayout::Prepare({s.op, s.e, s.w, s.h, s.c, s.sg}, &why);
  EXPECT_TRUE(layout.has_value()) << Describe(s) << ": " << why;
  if (!layout) std::abort();
  return *layout;
}

template <typename Byte>
Block2dSurfaceOf<Byte> SurfaceOf(RefMemory& m) {
  return {m.bytes.data(), m.bytes.size(), m.base, m.width, m.height, m.pitch, m.x, m.y};
}

std::vector<uint8_t> RandomBytes(std::mt19937& rng, size_t n) {
  std::vector<uint8_t> bytes(n);
  for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(rng());
  return bytes;
}

// A valid surface twice as wide as the block (at least 64 bytes) and a few rows taller, with gap
// bytes between rows and spare bytes before and after, then a set of coordinates: fully inside,
// across each edge, negative, fully outside, and (undefined behaviour, but it must not crash)
// an X that breaks the alignment rule. `truncate` cuts the allocation short after that many
// bytes into the surface, so the surface claims more memory than there is.
struct Scene {
  RefMemory memory;
  std::vector<std::pair<int64_t, int64_t>> coordinates;
};

Scene MakeScene(const RefShape& s, std::mt19937& rng, int64_t truncate = -1) {
  Scene scene;
  RefMemory& m = scene.memory;
  const int64_t row_elements = int64_t{s.w} * s.c;
  m.width = std::max<int64_t>(64, (row_elements * s.e * 2 + 63) / 64 * 64);
  m.height = 2 * s.h + 3;
  m.pitch = m.width + 32;
  m.base = 128;
  const int64_t size =
      truncate >= 0 ? int64_t(m.base) + truncate : m.base + m.height * m.pitch + 64;
  m.bytes = RandomBytes(rng, size);

  const int64_t width_elements = m.width / s.e;
  const int64_t align = s.e == 1 ? 4 : s.e == 2 ? 2 : 1;
  auto aligned = [&](int64_t v) {
    return v >= 0 ? v / align * align : -((-v + align - 1) / align * align);
  };
  const int64_t half_row = std::max<int64_t>(row_elements / 2, align);
  const int64_t h = s.h;
  const int64_t inside_x = aligned(width_elements / 4);
  scene.coordinates = {
      {inside_x, 1},
      {0, 0},
      {aligned(width_elements - row_elements), m.height - h},  // touching the far corner
      {aligned(width_elements - half_row), 2},                 // across the right edge
      {inside_x, m.height - (h + 1) / 2},                      // across the bottom edge
      {inside_x, m.height - 1},
      {aligned(-half_row), 1},                   // negative X
      {inside_x, -(h + 1) / 2},                  // negative Y
      {aligned(-half_row), m.height - 1},        // bottom-left corner
      {aligned(width_elements - half_row), -1},  // top-right corner
      {width_elements, 0},                       // fully outside
      {inside_x, m.height},
      {aligned(-row_elements - 8), 0},
      {inside_x, -h - 2},
      {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()},
      {align == 1 ? inside_x : inside_x + 1, 1},  // misaligned X (E 1 / 2)
  };
  return scene;
}

void ExpectLoadMatchesReference(const RefShape& s, int64_t truncate = -1) {
  std::mt19937 rng(s.e * 1000003 + s.w * 10007 + s.h * 101 + s.c * 7 + s.sg);
  const Block2dLayout layout = Prepared(s);
  ASSERT_EQ(layout.payload_bytes_per_lane(), RefLaneBytes(s)) << Describe(s);
  Scene scene = MakeScene(s, rng, truncate);
  for (const auto& [x, y] : scene.coordinates) {
    scene.memory.x = x;
    scene.memory.y = y;
    std::vector<uint8_t> payload(layout.payload_bytes(), 0xCD);
    LoadBlock2d(layout, SurfaceOf<const uint8_t>(scene.memory), payload.data());
    ASSERT_EQ(payload, RefLoad(s, scene.memory))
        << Describe(s) << " at (" << x << ", " << y << ") width " << scene.memory.width
        << " height " << scene.memory.height << " allocation " << scene.memory.bytes.size();
  }
}

void ExpectStoreMatchesReference(const RefShape& s, int64_t truncate = -1) {
  std::mt19937 rng(s.e * 7919 + s.w * 101 + s.h * 13 + s.c + s.sg * 31);
  const Block2dLayout layout = Prepared(s);
  ASSERT_EQ(layout.payload_bytes_per_lane(), RefLaneBytes(s)) << Describe(s);
  Scene scene = MakeScene(s, rng, truncate);
  for (const auto& [x, y] : scene.coordinates) {
    RefMemory expected = scene.memory;
    RefMemory actual = scene.memory;
    expected.x = actual.x = x;
    expected.y = actual.y = y;
    const std::vector<uint8_t> payload = RandomBytes(rng, layout.payload_bytes());
    StoreBlock2d(layout, SurfaceOf<uint8_t>(actual), payload.data());
    RefStore(s, expected, payload);
    ASSERT_EQ(actual.bytes, expected.bytes) << Describe(s) << " at (" << x << ", " << y << ")";
  }
}

// The A.4 table (OpenCL environment), one entry per (op, E, W) with its heights and counts.
struct TableRow {
  Block2dOp op;
  uint32_t e, w;
  std::vector<uint32_t> heights, counts;
};

const std::vector<TableRow>& A4Table() {
  static const std::vector<TableRow> rows = {
      {O::kLoad, 1, 32, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kLoad, 1, 16, {8, 16, 32}, {4}},
      {O::kLoad, 2, 16, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kLoad, 4, 8, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kLoad, 4, 16, {1, 2, 4, 8, 16, 32}, {1}},
      {O::kLoadTransform, 1, 16, {32}, {1, 2, 4}},
      {O::kLoadTransform, 2, 16, {16, 32}, {1, 2}},
      {O::kLoadTranspose, 4, 8, {16, 32}, {1}},
      {O::kStore, 1, 16, {1, 2, 4, 8}, {1}},
      {O::kStore, 1, 32, {1, 2, 4, 8}, {1}},
      {O::kStore, 2, 16, {1, 2, 4, 8}, {1}},
      {O::kStore, 4, 16, {1, 2, 4, 8}, {1}},
      {O::kPrefetch, 1, 32, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kPrefetch, 1, 16, {32}, {1, 2}},
      {O::kPrefetch, 1, 16, {8, 16, 32}, {4}},
      {O::kPrefetch, 2, 16, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kPrefetch, 4, 8, {1, 2, 4, 8, 16, 32}, {1, 2}},
      {O::kPrefetch, 4, 16, {1, 2, 4, 8, 16, 32}, {1}},
  };
  return rows;
}

// The A.7 table (IGC's limits, every platform's row): all power-of-two W, H, Count in range.
struct IgcRow {
  Block2dOp op;
  uint32_t e, h_min, h_max, w_min, w_max, c_max, wc_min, wc_max;
};

std::vector<RefShape> IgcShapes(uint32_t sg) {
  static const IgcRow rows[] = {
      {O::kLoad, 1, 1, 32, 4, 64, 4, 4, 64},
      {O::kLoad, 2, 1, 32, 2, 32, 4, 2, 32},
      {O::kLoad, 4, 1, 32, 1, 16, 2, 1, 16},
      {O::kLoad, 8, 1, 32, 1, 8, 1, 1, 8},
      {O::kLoadTransform, 1, 4, 32, 4, 64, 4, 4, 64},  // >= Xe2 (includes the PVC rows)
      {O::kLoadTransform, 2, 2, 32, 2, 32, 4, 2, 32},
      {O::kLoadTranspose, 4, 1, 32, 1, 16, 1, 1, 16},  // >= Xe3P (includes < Xe3P)
      {O::kLoadTranspose, 8, 8, 16, 1, 8, 1, 1, 8},
      {O::kStore, 1, 1, 8, 4, 64, 1, 4, 64},
      {O::kStore, 2, 1, 8, 2, 32, 1, 2, 32},
      {O::kStore, 4, 1, 8, 1, 16, 1, 1, 16},
      {O::kStore, 8, 1, 8, 1, 8, 1, 1, 8},
      {O::kPrefetch, 1, 1, 32, 64, 256, 4, 256, 256},  // >= Xe3P 256-byte prefetch
  };
  std::vector<RefShape> shapes;
  for (const IgcRow& row : rows) {
    for (uint32_t h = row.h_min; h <= row.h_max; h *= 2) {
      for (uint32_t w = row.w_min; w <= row.w_max; w *= 2) {
        for (uint32_t c = 1; c <= row.c_max; c *= 2) {
          if (w * c >= row.wc_min && w * c <= row.wc_max) {
            shapes.push_back({row.op, row.e, w, h, c, sg});
          }
        }
      }
    }
  }
  return shapes;
}

bool IsLoad(Block2dOp op) {
  return op == O::kLoad || op == O::kLoadTransform || op == O::kLoadTranspose;
}

// ---------------------------------------------------------------------------------------------
// Payload sizes.

// The per-invocation payload table of A.5 at SG16, literally: {op, E, W, Count, H, bytes}.
TEST(Block2dPayloadTable, MatchesSpecNotesA5AtSubgroup16) {
  struct Entry {
    Block2dOp op;
    uint32_t e, w, c, h, bytes;
  };
  std::vector<Entry> entries;
  for (uint32_t h : {1, 2, 4, 8, 16, 32}) {
    entries.push_back({O::kLoad, 1, 32, 1, h, 2 * h});  // H ushorts
    entries.push_back({O::kLoad, 1, 32, 2, h, 4 * h});  // 2H ushorts
    entries.push_back({O::kLoad, 2, 16, 1, h, 2 * h});
    entries.push_back({O::kLoad, 2, 16, 2, h, 4 * h});
    entries.push_back({O::kLoad, 4, 16, 1, h, 4 * h});  // H uints
  }
  for (auto [h, uints] : {std::pair{1u, 1u}, {2, 1}, {4, 2}, {8, 4}, {16, 8}, {32, 16}}) {
    entries.push_back({O::kLoad, 4, 8, 1, h, 4 * uints});
    entries.push_back({O::kLoad, 4, 8, 2, h, 8 * uints});
  }
  entries.insert(entries.end(), {
                                    {O::kLoad, 1, 16, 4, 8, 32},  // uchars
                                    {O::kLoad, 1, 16, 4, 16, 64},
                                    {O::kLoad, 1, 16, 4, 32, 128},
                                    {O::kLoadTransform, 1, 16, 1, 32, 4 * 8},
                                    {O::kLoadTransform, 1, 16, 2, 32, 4 * 16},
                                    {O::kLoadTransform, 1, 16, 4, 32, 4 * 32},
                                    {O::kLoadTransform, 2, 16, 1, 16, 4 * 8},
                                    {O::kLoadTransform, 2, 16, 1, 32, 4 * 16},
                                    {O::kLoadTransform, 2, 16, 2, 16, 4 * 16},
                                    {O::kLoadTransform, 2, 16, 2, 32, 4 * 32},
                                    {O::kLoadTranspose, 4, 8, 1, 16, 4 * 8},
                                    {O::kLoadTranspose, 4, 8, 1, 32, 4 * 16},
                                });
  for (uint32_t h : {1, 2, 4, 8}) {
    entries.push_back({O::kStore, 1, 16, 1, h, h});  // uchars
    entries.push_back({O::kStore, 1, 32, 1, h, 2 * h});
    entries.push_back({O::kStore, 2, 16, 1, h, 2 * h});
    entries.push_back({O::kStore, 4, 16, 1, h, 4 * h});
  }
  for (const Entry& entry : entries) {
    const RefShape s{entry.op, entry.e, entry.w, entry.h, entry.c, 16};
    EXPECT_EQ(Prepared(s).payload_bytes_per_lane(), entry.bytes) << Describe(s);
    EXPECT_EQ(RefLaneBytes(s), entry.bytes) << Describe(s) << " (reference model)";
  }
}

TEST(Block2dPayloadTable, NamedExamples) {
  EXPECT_EQ(Prepared({O::kLoad, 4, 8, 1, 1, 16}).payload_bytes_per_lane(), 4u);   // one uint
  EXPECT_EQ(Prepared({O::kLoad, 4, 8, 2, 1, 16}).payload_bytes_per_lane(), 4u);   // one uint
  EXPECT_EQ(Prepared({O::kLoad, 4, 8, 1, 2, 16}).payload_bytes_per_lane(), 8u);   // two uints
  EXPECT_EQ(Prepared({O::kLoad, 1, 32, 1, 1, 16}).payload_bytes_per_lane(), 2u);  // one ushort
  EXPECT_EQ(Prepared({O::kStore, 1, 32, 1, 1, 16}).payload_bytes_per_lane(), 2u);
  EXPECT_EQ(Prepared({O::kLoadTranspose, 4, 8, 32, 1, 16}).payload_bytes_per_lane(), 64u);
  const Block2dLayout prefetch = Prepared({O::kPrefetch, 2, 16, 32, 2, 16});
  EXPECT_EQ(prefetch.payload_bytes_per_lane(), 0u);
  EXPECT_EQ(prefetch.payload_bytes(), 0u);
}

TEST(Block2dPayloadTable, ProcessedBlockGeometry) {
  const Block2dLayout transform = Prepared({O::kLoadTransform, 1, 16, 32, 2, 16});
  EXPECT_EQ(transform.processed_rows(), 8u);  // 32 byte rows fold into 8 dword rows
  EXPECT_EQ(transform.processed_row_units(), 16u);
  EXPECT_EQ(transform.unit_bytes(), 4u);
  const Block2dLayout transpose = Prepared({O::kLoadTranspose, 4, 8, 12, 1, 16});
  EXPECT_EQ(transpose.processed_rows(), 8u);        // one per memory column
  EXPECT_EQ(transpose.processed_row_units(), 16u);  // 12 memory rows padded to 16
  EXPECT_EQ(transpose.unit_bytes(), 4u);
  const Block2dLayout padded = Prepared({O::kLoad, 2, 6, 3, 1, 16});
  EXPECT_EQ(padded.processed_rows(), 3u);
  EXPECT_EQ(padded.processed_row_units(), 8u);
}

// The model itself: every element of the block gets its own private bytes, inside the lane.
TEST(Block2dPayloadTable, ReferenceModelPlacesEveryElementOnce) {
  std::vector<RefShape> shapes;
  for (uint32_t sg : {8, 16, 32}) {
    for (const RefShape& s : IgcShapes(sg)) shapes.push_back(s);
  }
  for (const RefShape& s : shapes) {
    if (s.op == O::kPrefetch) continue;
    const uint32_t lane_bytes = RefLaneBytes(s);
    std::vector<int> used(size_t{lane_bytes} * s.sg, 0);
    for (uint32_t b = 0; b < s.c; ++b) {
      for (uint32_t row = 0; row < s.h; ++row) {
        for (uint32_t column = 0; column < s.w; ++column) {
          const RefPlace place = RefPlaceOf(s, b, row, column);
          ASSERT_LT(place.lane, s.sg) << Describe(s);
          ASSERT_LE(place.byte + s.e, lane_bytes) << Describe(s);
          for (uint32_t i = 0; i < s.e; ++i) ++used[place.lane * lane_bytes + place.byte + i];
        }
      }
    }
    EXPECT_EQ(*std::max_element(used.begin(), used.end()), 1) << Describe(s);
    // Power-of-two shapes of at least one unit per invocation leave no slot unused.
    const uint32_t units = s.w * s.h * (s.op == O::kLoadTransform ? s.e : 4) / 4;
    if (units >= s.sg) EXPECT_EQ(*std::min_element(used.begin(), used.end()), 1) << Describe(s);
  }
}

// ---------------------------------------------------------------------------------------------
// Hand-written expectations for the cases A.5 spells out; they pin down the reference model too.

// A 256-byte-wide, 64-row surface at offset 0 whose element (row, column) holds value(row,
// column), little-endian, in E bytes.
template <typename T>
RefMemory PatternSurface(T (*value)(uint32_t, uint32_t)) {
  RefMemory m;
  m.width = m.pitch = 256;
  m.height = 64;
  m.bytes.assign(256 * 64, 0);
  for (uint32_t row = 0; row < 64; ++row) {
    for (uint32_t column = 0; column < 256 / sizeof(T); ++column) {
      const T v = value(row, column);
      std::memcpy(&m.bytes[row * 256 + column * sizeof(T)], &v, sizeof(T));
    }
  }
  return m;
}

template <typename T>
std::vector<T> LoadAs(const RefShape& s, RefMemory& m) {
  const Block2dLayout layout = Prepared(s);
  std::vector<uint8_t> payload(layout.payload_bytes(), 0xCD);
  LoadBlock2d(layout, SurfaceOf<const uint8_t>(m), payload.data());
  std::vector<T> values(payload.size() / sizeof(T));
  std::memcpy(values.data(), payload.data(), payload.size());
  return values;
}

uint32_t Value32(uint32_t row, uint32_t column) { return row * 1000 + column; }
uint16_t Value16(uint32_t row, uint32_t column) {
  return static_cast<uint16_t>(row * 256 + column);
}
uint8_t Value8(uint32_t row, uint32_t column) { return static_cast<uint8_t>(row * 7 + column); }

TEST(Block2dMapping, Width8Dwords_LowerHalfTakesEvenRowsUpperHalfOddRows) {
  RefMemory m = PatternSurface(Value32);
  const std::vector<uint32_t> v = LoadAs<uint32_t>({O::kLoad, 4, 8, 4, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 2);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t j = 0; j < 2; ++j) {
      EXPECT_EQ(v[lane * 2 + j], Value32(2 * j + lane / 8, lane % 8)) << lane << " " << j;
    }
  }
}

TEST(Block2dMapping, Width8DwordsOneRow_UpperHalfReadsZero) {
  RefMemory m = PatternSurface(Value32);
  m.x = 4;
  const std::vector<uint32_t> v = LoadAs<uint32_t>({O::kLoad, 4, 8, 1, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    EXPECT_EQ(v[lane], lane < 8 ? Value32(0, 4 + lane) : 0u) << lane;
  }
}

TEST(Block2dMapping, Bytes32Wide_OneUshortPerRowLowByteEvenColumn) {
  RefMemory m = PatternSurface(Value8);
  const std::vector<uint16_t> v = LoadAs<uint16_t>({O::kLoad, 1, 32, 2, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 2);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t row = 0; row < 2; ++row) {
      EXPECT_EQ(v[lane * 2 + row], Value8(row, 2 * lane) | Value8(row, 2 * lane + 1) << 8);
    }
  }
}

TEST(Block2dMapping, TwoBlocks_Block0ThenBlock1) {
  RefMemory m = PatternSurface(Value16);
  m.x = 2;
  m.y = 3;
  const std::vector<uint16_t> v = LoadAs<uint16_t>({O::kLoad, 2, 16, 8, 2, 16}, m);
  ASSERT_EQ(v.size(), 16u * 16);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t j = 0; j < 16; ++j) {
      const uint32_t block = j / 8;
      EXPECT_EQ(v[lane * 16 + j], Value16(3 + j % 8, 2 + block * 16 + lane)) << lane << " " << j;
    }
  }
}

TEST(Block2dMapping, Transform16Bit_LowerRowInLowHalf) {
  RefMemory m = PatternSurface(Value16);
  const std::vector<uint32_t> v = LoadAs<uint32_t>({O::kLoadTransform, 2, 16, 16, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 8);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t j = 0; j < 8; ++j) {
      EXPECT_EQ(v[lane * 8 + j], Value16(2 * j, lane) | uint32_t{Value16(2 * j + 1, lane)} << 16);
    }
  }
}

TEST(Block2dMapping, Transform8Bit_FourRowsPerDword) {
  RefMemory m = PatternSurface(Value8);
  const std::vector<uint32_t> v = LoadAs<uint32_t>({O::kLoadTransform, 1, 16, 32, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 8);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t j = 0; j < 8; ++j) {
      uint32_t expected = 0;
      for (uint32_t t = 0; t < 4; ++t) expected |= uint32_t{Value8(4 * j + t, lane)} << (8 * t);
      EXPECT_EQ(v[lane * 8 + j], expected);
    }
  }
}

TEST(Block2dMapping, Transpose32Rows_EachLaneTakesMemoryRows2iAnd2iPlus1) {
  RefMemory m = PatternSurface(Value32);
  const std::vector<uint32_t> v = LoadAs<uint32_t>({O::kLoadTranspose, 4, 8, 32, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 16);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t column = 0; column < 8; ++column) {
      EXPECT_EQ(v[lane * 16 + 2 * column], Value32(2 * lane, column));
      EXPECT_EQ(v[lane * 16 + 2 * column + 1], Value32(2 * lane + 1, column));
    }
  }
}

TEST(Block2dMapping, PaddedWidth_LanesPastTheWidthReadZero) {
  RefMemory m = PatternSurface(Value16);
  const std::vector<uint16_t> v = LoadAs<uint16_t>({O::kLoad, 2, 12, 2, 1, 16}, m);
  ASSERT_EQ(v.size(), 16u * 2);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    for (uint32_t row = 0; row < 2; ++row) {
      EXPECT_EQ(v[lane * 2 + row], lane < 12 ? Value16(row, lane) : 0) << lane;
    }
  }
}

TEST(Block2dMapping, StoreBytes16Wide_OneUcharPerRow) {
  RefMemory m;
  m.width = m.pitch = 64;
  m.height = 4;
  m.bytes.assign(64 * 4, 0xEE);
  m.x = 8;
  m.y = 1;
  const Block2dLayout layout = Prepared({O::kStore, 1, 16, 2, 1, 16});
  std::vector<uint8_t> payload(32);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    payload[lane * 2] = static_cast<uint8_t>(lane);
    payload[lane * 2 + 1] = static_cast<uint8_t>(0x80 + lane);
  }
  StoreBlock2d(layout, SurfaceOf<uint8_t>(m), payload.data());
  for (uint32_t row = 0; row < 4; ++row) {
    for (uint32_t column = 0; column < 64; ++column) {
      uint8_t expected = 0xEE;
      if (row == 1 && column >= 8 && column < 24) expected = static_cast<uint8_t>(column - 8);
      if (row == 2 && column >= 8 && column < 24)
        expected = static_cast<uint8_t>(0x80 + column - 8);
      EXPECT_EQ(m.bytes[row * 64 + column], expected) << row << " " << column;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The library against the reference model.

TEST(Block2dLoad, EveryA4RowMatchesReference) {
  for (const TableRow& row : A4Table()) {
    if (!IsLoad(row.op)) continue;
    for (uint32_t h : row.heights) {
      for (uint32_t c : row.counts) ExpectLoadMatchesReference({row.op, row.e, row.w, h, c, 16});
    }
  }
}

TEST(Block2dStore, EveryA4RowMatchesReference) {
  for (const TableRow& row : A4Table()) {
    if (row.op != O::kStore) continue;
    for (uint32_t h : row.heights) {
      for (uint32_t c : row.counts) ExpectStoreMatchesReference({row.op, row.e, row.w, h, c, 16});
    }
  }
}

TEST(Block2dLoad, IgcRowsMatchReferenceAtSubgroups8To32) {
  for (uint32_t sg : {8, 16, 32}) {
    for (const RefShape& s : IgcShapes(sg)) {
      if (IsLoad(s.op)) ExpectLoadMatchesReference(s);
    }
  }
}

TEST(Block2dStore, IgcRowsMatchReferenceAtSubgroups8To32) {
  for (uint32_t sg : {8, 16, 32}) {
    for (const RefShape& s : IgcShapes(sg)) {
      if (s.op == O::kStore) ExpectStoreMatchesReference(s);
    }
  }
}

// Shapes A.5 pads (width not a power of two; transform heights not a multiple of 4 / 2;
// transpose heights not a power of two; a count of 3), at every subgroup size.
const std::vector<RefShape> kOddShapes = {
    {O::kLoad, 1, 12, 3, 1, 0},          {O::kLoad, 2, 6, 5, 3, 0},
    {O::kLoad, 4, 3, 7, 2, 0},           {O::kLoad, 8, 5, 3, 1, 0},
    {O::kLoadTransform, 1, 12, 6, 2, 0}, {O::kLoadTransform, 2, 10, 3, 1, 0},
    {O::kLoadTranspose, 4, 3, 12, 1, 0}, {O::kLoadTranspose, 8, 2, 5, 1, 0},
    {O::kLoadTranspose, 1, 4, 12, 1, 0}, {O::kLoadTranspose, 2, 6, 10, 1, 0},
    {O::kStore, 1, 20, 3, 1, 0},         {O::kStore, 2, 6, 5, 3, 0},
    {O::kStore, 4, 3, 7, 2, 0},          {O::kStore, 8, 24, 2, 1, 0},
};

TEST(Block2dLoad, PaddedShapesMatchReferenceAtEverySubgroupSize) {
  for (uint32_t sg : {1, 2, 4, 8, 16, 32, 64}) {
    for (RefShape s : kOddShapes) {
      s.sg = sg;
      if (IsLoad(s.op)) ExpectLoadMatchesReference(s);
    }
  }
}

TEST(Block2dStore, PaddedShapesMatchReferenceAtEverySubgroupSize) {
  for (uint32_t sg : {1, 2, 4, 8, 16, 32, 64}) {
    for (RefShape s : kOddShapes) {
      s.sg = sg;
      if (s.op == O::kStore) ExpectStoreMatchesReference(s);
    }
  }
}

// A surface that claims more rows than the allocation holds: elements past its end read as zero
// and are never written.
TEST(Block2dLoad, ElementsOutsideTheAllocationReadZero) {
  for (const RefShape& s : {RefShape{O::kLoad, 2, 16, 8, 2, 16},
                            {O::kLoad, 1, 32, 32, 2, 16},
                            {O::kLoadTransform, 2, 16, 16, 2, 16},
                            {O::kLoadTranspose, 4, 8, 32, 1, 16},
                            {O::kLoad, 8, 4, 5, 1, 8}}) {
    for (int64_t truncate : {0, 1, 77, 1000, 2345, 5001}) ExpectLoadMatchesReference(s, truncate);
  }
}

TEST(Block2dStore, NeverWritesOutsideTheAllocation) {
  for (const RefShape& s : {RefShape{O::kStore, 2, 16, 8, 1, 16},
                            {O::kStore, 1, 32, 8, 1, 16},
                            {O::kStore, 4, 16, 8, 1, 32},
                            {O::kStore, 8, 4, 5, 1, 8}}) {
    for (int64_t truncate : {0, 1, 77, 1000, 2345, 5001}) ExpectStoreMatchesReference(s, truncate);
  }
}

TEST(Block2dLoad, PrefetchTouchesNothing) {
  const Block2dLayout layout = Prepared({O::kPrefetch, 1, 32, 8, 2, 16});
  RefMemory m = PatternSurface(Value8);
  LoadBlock2d(layout, SurfaceOf<const uint8_t>(m), nullptr);
}

// Hostile surfaces: extreme coordinates and sizes must neither crash nor touch memory outside
// the allocation (the sanitizer build would catch a stray access).
TEST(Block2dLoad, ExtremeOperandsStayInsideTheAllocation) {
  const RefShape s{O::kLoad, 4, 8, 4, 2, 16};
  const Block2dLayout layout = Prepared(s);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  std::mt19937 rng(5);
  RefMemory m;
  m.bytes = RandomBytes(rng, 4096);
  for (int64_t width : {kMin, int64_t{-64}, int64_t{256}, kMax}) {
    for (int64_t pitch : {kMin, int64_t{-1024}, int64_t{-256}, int64_t{256}, kMax}) {
      for (int64_t x : {kMin, int64_t{-3}, int64_t{5}, kMax}) {
        for (int64_t y : {kMin, int64_t{-2}, int64_t{3}, kMax}) {
          m.width = width;
          m.height = kMax;
          m.pitch = pitch;
          m.x = x;
          m.y = y;
          m.base = 2048;
          std::vector<uint8_t> payload(layout.payload_bytes());
          LoadBlock2d(layout, SurfaceOf<const uint8_t>(m), payload.data());
          if (width > 0 && pitch > -4096 && pitch < 4096 && x > -100 && x < 100 && y > -100 &&
              y < 100) {
            EXPECT_EQ(payload, RefLoad(s, m)) << width << " " << pitch << " " << x << " " << y;
          }
          RefMemory copy = m;
          const Block2dLayout store = Prepared({O::kStore, 4, 8, 4, 1, 16});
          StoreBlock2d(store, SurfaceOf<uint8_t>(copy), payload.data());
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Prepare: the static rules on the constant operands.

std::string WhyNot(const Block2dShape& shape) {
  std::string why;
  EXPECT_FALSE(Block2dLayout::Prepare(shape, &why).has_value());
  return why;
}

TEST(Block2dPrepare, RejectsWhatTheRulesForbid) {
  EXPECT_EQ(WhyNot({O::kLoad, 3, 16, 8, 1, 16}), "Element Size 3 is not 1, 2, 4 or 8");
  EXPECT_EQ(WhyNot({O::kLoad, 16, 16, 8, 1, 16}), "Element Size 16 is not 1, 2, 4 or 8");
  EXPECT_EQ(WhyNot({O::kLoad, 2, 0, 8, 1, 16}), "Block Width 0 is not positive");
  EXPECT_EQ(WhyNot({O::kLoad, 2, 16, 0, 1, 16}), "Block Height 0 is not positive");
  EXPECT_EQ(WhyNot({O::kLoad, 2, 16, 8, 0, 16}), "Block Count 0 is not positive");
  EXPECT_EQ(WhyNot({O::kLoad, 1, 6, 8, 1, 16}),
            "Block Width 6 is not a multiple of 4 for 1-byte elements");
  EXPECT_EQ(WhyNot({O::kStore, 2, 7, 8, 1, 16}),
            "Block Width 7 is not a multiple of 2 for 2-byte elements");
  EXPECT_EQ(WhyNot({O::kLoad, 2, 16, 8, 1, 12}),
            "subgroup size 12 is not a power of two no larger than 64");
  EXPECT_EQ(WhyNot({O::kLoad, 2, 16, 8, 1, 128}),
            "subgroup size 128 is not a power of two no larger than 64");
  EXPECT_EQ(WhyNot({O::kLoadTransform, 4, 16, 8, 1, 16}),
            "Element Size 4 cannot be transformed: LoadTransform packs 1- or 2-byte elements into "
            "32-bit words");
  EXPECT_EQ(WhyNot({O::kLoad, 4, 70000, 8, 1, 16}),
            "Block Width 70000 exceeds the interpreter's limit of 65536");
  EXPECT_EQ(WhyNot({O::kLoad, 8, 65536, 65536, 1, 16}),
            "the block (Block Height 65536 x Block Count 1 x Block Width 65536 x Element Size 8) "
            "exceeds the interpreter's limit of 1048576 bytes");
  EXPECT_TRUE(Block2dLayout::Prepare({O::kLoad, 2, 16, 8, 1, 16}, nullptr).has_value());
  EXPECT_FALSE(Block2dLayout::Prepare({O::kLoad, 3, 16, 8, 1, 16}, nullptr).has_value());
}

TEST(Block2dPrepare, AcceptsEveryA4AndIgcShape) {
  for (const TableRow& row : A4Table()) {
    for (uint32_t h : row.heights) {
      for (uint32_t c : row.counts) Prepared({row.op, row.e, row.w, h, c, 16});
    }
  }
  for (uint32_t sg : {8, 16, 32}) {
    for (const RefShape& s : IgcShapes(sg)) Prepared(s);
  }
}

// ---------------------------------------------------------------------------------------------
// CheckBlock2d: each undefined-behaviour rule of A.3, violated and respected.

class Block2dCheck : public ::testing::Test {
 protected:
  // A valid surface for E2 W16 H8 x2: 256 bytes wide, 64 rows, pitch 320, in a buffer that fits.
  Block2dCheck() : layout_(Prepared({O::kLoad, 2, 16, 8, 2, 16})) {
    memory_.assign(64 + 64 * 320, 0);
    surface_ = {memory_.data(), memory_.size(), 64, 256, 64, 320, 8, 4};
  }
  std::optional<std::string> Check() const { return CheckBlock2d(layout_, surface_); }
  std::optional<std::string> CheckAs(const RefShape& s) const {
    return CheckBlock2d(Prepared(s), surface_);
  }

  Block2dLayout layout_;
  std::vector<uint8_t> memory_;
  Block2dSurface surface_;
};

TEST_F(Block2dCheck, ValidSurfacePasses) { EXPECT_EQ(Check(), std::nullopt); }

TEST_F(Block2dCheck, BasePointerAlignment) {
  surface_.base_offset = 32;
  EXPECT_EQ(Check(),
            "Src Base Pointer is not 64-byte aligned: it points to byte 32 of its "
            "allocation");
  EXPECT_EQ(CheckAs({O::kStore, 2, 16, 8, 1, 16}),
            "Dst Base Pointer is not 64-byte aligned: it points to byte 32 of its allocation");
  surface_.base_offset = 0;
  EXPECT_EQ(Check(), std::nullopt);
}

TEST_F(Block2dCheck, MemoryWidthRange) {
  surface_.width = 60;
  EXPECT_EQ(Check(), "Memory Width 60 is less than 64 bytes");
  surface_.width = -64;
  EXPECT_EQ(Check(), "Memory Width -64 is less than 64 bytes");
  surface_.width = 64;
  EXPECT_EQ(Check(), std::nullopt);
  surface_.width = surface_.pitch = (1 << 24) + 16;
  EXPECT_EQ(Check(), "Memory Width 16777232 exceeds 2^24 bytes");
  surface_.width = surface_.pitch = 1 << 24;
  surface_.height = 1;
  surface_.y = 0;
  memory_.resize(64 + (1 << 24));
  surface_.data = memory_.data();
  surface_.allocation_size = memory_.size();
  EXPECT_EQ(Check(), std::nullopt);
}

TEST_F(Block2dCheck, MemoryWidthMultiple) {
  surface_.width = 258;
  EXPECT_EQ(Check(), "Memory Width 258 is not a multiple of 4 for 2-byte elements");
  EXPECT_EQ(CheckAs({O::kLoad, 1, 32, 8, 1, 16}),
            "Memory Width 258 is not a multiple of 4 for 1-byte elements");
  surface_.width = 260;
  EXPECT_EQ(Check(), std::nullopt);
  EXPECT_EQ(CheckAs({O::kLoad, 4, 8, 8, 1, 16}), std::nullopt);
  EXPECT_EQ(CheckAs({O::kLoad, 8, 8, 8, 1, 16}),
            "Memory Width 260 is not a multiple of 8 for 8-byte elements");
  surface_.width = 264;
  EXPECT_EQ(CheckAs({O::kLoad, 8, 8, 8, 1, 16}), std::nullopt);
}

TEST_F(Block2dCheck, MemoryHeightRange) {
  surface_.height = 0;
  EXPECT_EQ(Check(), "Memory Height 0 is not positive");
  surface_.height = -3;
  EXPECT_EQ(Check(), "Memory Height -3 is not positive");
  surface_.height = (1 << 24) + 1;
  EXPECT_EQ(Check(), "Memory Height 16777217 exceeds 2^24 rows");
  surface_.height = 1 << 24;  // the block itself stays inside the buffer
  EXPECT_EQ(Check(), std::nullopt);
  surface_.height = 1;
  surface_.y = 0;
  EXPECT_EQ(Check(), std::nullopt);
}

TEST_F(Block2dCheck, MemoryPitch) {
  surface_.pitch = 240;
  EXPECT_EQ(Check(), "Memory Pitch 240 is less than Memory Width 256");
  surface_.pitch = 264;
  EXPECT_EQ(Check(), "Memory Pitch 264 is not a multiple of 16");
  surface_.pitch = 256;
  EXPECT_EQ(Check(), std::nullopt);
  surface_.pitch = 272;
  EXPECT_EQ(Check(), std::nullopt);
}

TEST_F(Block2dCheck, CoordinateXAlignment) {
  surface_.x = 3;
  EXPECT_EQ(Check(), "Coordinate X 3 is not a multiple of 2 for 2-byte elements");
  EXPECT_EQ(CheckAs({O::kLoad, 4, 8, 8, 1, 16}), std::nullopt);
  surface_.x = -6;
  EXPECT_EQ(Check(), std::nullopt);
  EXPECT_EQ(CheckAs({O::kLoad, 1, 32, 8, 1, 16}),
            "Coordinate X -6 is not a multiple of 4 for 1-byte elements");
  surface_.x = -8;
  EXPECT_EQ(CheckAs({O::kLoad, 1, 32, 8, 1, 16}), std::nullopt);
  surface_.x = 1;  // Y has no alignment rule
  surface_.y = 3;
  EXPECT_EQ(CheckAs({O::kLoad, 8, 4, 8, 1, 16}), std::nullopt);
}

TEST_F(Block2dCheck, InBoundsElementsOutsideTheAllocation) {
  // 64 rows of pitch 320 after byte 64 fill the buffer exactly; one more row does not fit, but
  // only matters when the block reaches it.
  surface_.height = 65;
  EXPECT_EQ(Check(), std::nullopt);
  surface_.y = 60;  // rows 60..64 are in bounds, row 64 is past the buffer
  EXPECT_EQ(Check(),
            "Memory Width 256, Memory Height 65 and Memory Pitch 320 put the in-bounds element at "
            "row 64, column 8 at bytes 20560..20561, beyond the 20544-byte allocation of the Src "
            "Base Pointer");
  surface_.y = 65;  // wholly out of bounds: nothing is read
  EXPECT_EQ(Check(), std::nullopt);
  // A buffer that ends inside a row: the first element that does not fit is named.
  surface_.height = 64;
  surface_.y = 56;
  surface_.allocation_size -= 320 - 40;  // row 63 keeps 40 bytes = columns 0..19
  EXPECT_EQ(Check(),
            "Memory Width 256, Memory Height 64 and Memory Pitch 320 put the in-bounds element at "
            "row 63, column 20 at bytes 20264..20265, beyond the 20264-byte allocation of the Src "
            "Base Pointer");
  surface_.x = -32;  // the block covers columns 0..-1 only: out of bounds, nothing read
  EXPECT_EQ(Check(), std::nullopt);
  surface_.x = -16;  // columns 0..15 in bounds, all within the 40 bytes
  EXPECT_EQ(Check(), std::nullopt);
  surface_.base_offset = 1 << 20;  // base pointer past the end of its buffer
  EXPECT_NE(Check(), std::nullopt);
}

TEST_F(Block2dCheck, StoreAndPrefetchFollowTheSameRules) {
  surface_.pitch = 264;
  EXPECT_EQ(CheckAs({O::kStore, 2, 16, 8, 1, 16}), "Memory Pitch 264 is not a multiple of 16");
  EXPECT_EQ(CheckAs({O::kPrefetch, 2, 16, 8, 1, 16}), "Memory Pitch 264 is not a multiple of 16");
  surface_.pitch = 320;
  EXPECT_EQ(CheckAs({O::kPrefetch, 2, 16, 8, 1, 16}), std::nullopt);
  std::vector<uint8_t> writable(memory_.size());
  const Block2dMutableSurface store{writable.data(), writable.size(), 64, 256, 64, 320, 8, 4};
  EXPECT_EQ(CheckBlock2d(Prepared({O::kStore, 2, 16, 8, 1, 16}), store), std::nullopt);
}

}  // namespace
}  // namespace xmx::interp
