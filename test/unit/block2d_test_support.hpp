// What the 2D block tests share: a reference model of SPEC-NOTES A.5 / A.6 written from the
// spec text alone, sharing no code with source/interp (the library goes from each private slot
// to the memory element it holds; the model goes the other way, from each memory element to the
// invocation and private bytes it lands in, and takes the per-invocation payload size from
// IGC's destination-type formula (A.7) instead of from A.5's slot counting), the harness that
// runs the library on a surface, and the shape tables (A.4 and IGC's rows).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "interp/block2d/block2d.hpp"

namespace xmx::interp::block2d_testing {

using O = Block2dOp;

// ---------------------------------------------------------------------------------------------
// Reference model.

struct RefShape {
  Block2dOp op;
  uint32_t e, w, h, c, sg;
};

inline std::string Describe(const RefShape& s) {
  return std::string(device::Block2dInstructionName(s.op)) + " E" + std::to_string(s.e) + " " +
         std::to_string(s.h) + "r" + std::to_string(s.w) + "x" + std::to_string(s.c) + "c SG" +
         std::to_string(s.sg);
}

inline uint32_t RefPow2(uint32_t v) {
  uint32_t p = 1;
  while (p < v) p *= 2;
  return p;
}
inline uint32_t RefCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// A.7: IGC's destination type, element bits = E*8*max(W/SG, 1), element count =
// Count*max(H/max(SG/W, 1), 1), transform: dwords = max(W*H*E/4/SG, 1)*Count. Written with the
// A.5 padded sizes and a rounding-up division so that it also covers non-power-of-two shapes.
inline uint32_t RefLaneBytes(const RefShape& s) {
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

inline RefPlace RefPlaceOf(const RefShape& s, uint32_t b, uint32_t row, uint32_t column) {
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
inline std::optional<int64_t> RefAddress(const RefShape& s, const RefMemory& m, uint32_t b,
                                         uint32_t row, uint32_t column) {
  const int64_t mx = m.x + int64_t{b} * s.w + column;
  const int64_t my = m.y + row;
  if (mx < 0 || my < 0 || (mx + 1) * s.e > m.width || my >= m.height) return std::nullopt;
  const int64_t address = static_cast<int64_t>(m.base) + my * m.pitch + mx * s.e;
  if (address < 0 || address + s.e > static_cast<int64_t>(m.bytes.size())) return std::nullopt;
  return address;
}

inline std::vector<uint8_t> RefLoad(const RefShape& s, const RefMemory& m) {
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

inline void RefStore(const RefShape& s, RefMemory& m, const std::vector<uint8_t>& payload) {
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

inline Block2dPayloadLayout Prepared(const RefShape& s) {
  std::string why;
  auto layout = Block2dPayloadLayout::Prepare({s.op, s.e, s.w, s.h, s.c, s.sg}, &why);
  EXPECT_TRUE(layout.has_value()) << Describe(s) << ": " << why;
  if (!layout) std::abort();
  return *layout;
}

template <typename Byte>
Block2dSurfaceOf<Byte> SurfaceOf(RefMemory& m) {
  return {m.bytes.data(), m.bytes.size(), m.base, m.width, m.height, m.pitch, m.x, m.y};
}

inline std::vector<uint8_t> RandomBytes(std::mt19937& rng, size_t n) {
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

inline Scene MakeScene(const RefShape& s, std::mt19937& rng, int64_t truncate = -1) {
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

inline void ExpectLoadMatchesReference(const RefShape& s, int64_t truncate = -1) {
  std::mt19937 rng(s.e * 1000003 + s.w * 10007 + s.h * 101 + s.c * 7 + s.sg);
  const Block2dPayloadLayout layout = Prepared(s);
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

inline void ExpectStoreMatchesReference(const RefShape& s, int64_t truncate = -1) {
  std::mt19937 rng(s.e * 7919 + s.w * 101 + s.h * 13 + s.c + s.sg * 31);
  const Block2dPayloadLayout layout = Prepared(s);
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

inline const std::vector<TableRow>& A4Table() {
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

inline std::vector<RefShape> IgcShapes(uint32_t sg) {
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

inline bool IsLoad(Block2dOp op) {
  return op == O::kLoad || op == O::kLoadTransform || op == O::kLoadTranspose;
}

// A 256-byte-wide, 64-row surface at offset 0 whose element (row, column) holds value(row,
// column), little-endian, in E bytes; and loads viewed as T.
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
  const Block2dPayloadLayout layout = Prepared(s);
  std::vector<uint8_t> payload(layout.payload_bytes(), 0xCD);
  LoadBlock2d(layout, SurfaceOf<const uint8_t>(m), payload.data());
  std::vector<T> values(payload.size() / sizeof(T));
  std::memcpy(values.data(), payload.data(), payload.size());
  return values;
}

inline uint32_t Value32(uint32_t row, uint32_t column) { return row * 1000 + column; }
inline uint16_t Value16(uint32_t row, uint32_t column) {
  return static_cast<uint16_t>(row * 256 + column);
}
inline uint8_t Value8(uint32_t row, uint32_t column) {
  return static_cast<uint8_t>(row * 7 + column);
}

}  // namespace xmx::interp::block2d_testing
