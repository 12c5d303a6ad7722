// 2D block IO for cooperative-matrix loads and stores, as IGC's BLOCK2D_IMPL does it
// (COOPERATIVE-MATRIX.md A4): the surface starts at the cache line holding Pointer (base =
// Pointer & ~63, X = the elements before Pointer in that line, Y = 0), its width and pitch are one
// matrix row in memory (Stride components), its height the matrix's rows. Row-major A and
// accumulators are plain loads, row-major B of 8/16-bit components transforming loads (VNNI),
// PackedINTEL B plain 32-bit loads and stores of the packed rows, column-major matrices
// transposing loads (of 32-bit units: the device tables have no narrower transpose, so 8- and
// 16-bit components travel in pairs or fours of rows), row-major stores plain stores; shapes
// larger than a block of the device's table take several blocks.
//
// Which payload element lands in which slice element is not assumed: it is computed from the 2D
// block mapping (SPEC-NOTES A.5) and matched against the element mapping, and an access whose
// blocks do not give every invocation its slice keeps the per-element form. The surface rules
// (64-byte aligned base, width and pitch 64 bytes .. 2^24 and a multiple of 16, X aligned, the
// tile inside one pitch) depend on Pointer and Stride at run time: the code checks them and takes
// the per-element form when they fail.
#include <algorithm>
#include <bit>
#include <functional>

#include "opt/lower_cooperative_matrix_memory.hpp"

namespace xmx::opt::lower_coop {
namespace {

constexpr uint32_t kRowMajor = 0, kPacked = 2;

struct Block {
  uint32_t x = 0, y = 0;  // in block elements / memory rows, from the tile's origin
  uint32_t payload = 0;   // T elements per invocation
};

struct Plan {
  device::Block2dOp op = device::Block2dOp::kLoad;
  uint32_t element_size = 0;  // bytes of a block element
  uint32_t width = 0, height = 0, count = 1;
  uint32_t memory_rows = 0;  // rows of the tile in memory
  uint32_t row_bytes = 0;    // bytes of one tile row in memory
  uint32_t vf = 1;           // T elements per block element (packed) or per word (transform)
  std::vector<Block> blocks;
  // For each slice element, (block, payload element).
  std::vector<std::pair<uint32_t, uint32_t>> sources;
  // A column-major store (MakeTransposedStorePlan): the invocations exchange their elements so
  // that each holds one matrix row; `tiles` are the SG x SG tiles of the matrix, and for each, the
  // slice element that holds (row r0 + i, column c0 + lane), i < SG, the same in every invocation.
  bool transposed_store = false;
  struct Tile {
    uint32_t r0 = 0, c0 = 0;
    std::vector<uint32_t> elements;
  };
  std::vector<Tile> tiles;
};

// The matrix coordinate of payload element p of block `blk` in invocation `lane`, or nullopt for
// padding.
std::optional<Coord> PayloadCoord(const Plan& plan, const Block& blk, uint32_t sg, uint32_t lane,
                                  uint32_t p) {
  // The pre-processed block (A.5 step 2): rows of RW units.
  const bool transform = plan.op == device::Block2dOp::kLoadTransform;
  const bool transpose = plan.op == device::Block2dOp::kLoadTranspose;
  const uint32_t rw = std::bit_ceil(transpose ? plan.height : plan.width);
  const uint32_t row_limit = transpose ? plan.height : plan.width;  // past it: padding
  const uint32_t per_unit = plan.vf;                                // T elements per unit
  const uint32_t unit = p / per_unit, s = p % per_unit;
  const uint32_t rows = transform   ? (plan.height + plan.vf - 1) / plan.vf
                        : transpose ? plan.width
                                    : plan.height;
  const uint32_t units_per_block = rw >= sg ? rows * rw / sg : rows / (sg / rw);
  const uint32_t b = unit / units_per_block, q = unit % units_per_block;
  uint32_t row = 0, col = 0;
  if (rw >= sg) {
    const uint32_t per = rw / sg;
    row = q / per;
    col = lane * per + q % per;
  } else {
    const uint32_t g = sg / rw;
    row = q * g + lane / rw;
    col = lane % rw;
  }
  if (col >= row_limit || b >= plan.count) return std::nullopt;
  // Column-major memory: a memory row is a matrix column; transposed row `row` is memory
  // column blk.x + row (a matrix row), its unit `col` memory row blk.y + col (a matrix column).
  // Narrower components ride in 32-bit units (vf of them, the first in the low bits), which are
  // consecutive matrix rows of one column.
  if (transpose) return Coord{plan.vf * (blk.x + b * plan.width + row) + s, blk.y + col};
  const uint32_t column = blk.x + b * plan.width + col;
  if (transform) return Coord{blk.y + plan.vf * row + s, column};
  if (plan.vf > 1) return Coord{plan.vf * (blk.y + row) + s, column};  // packed rows
  return Coord{blk.y + row, column};
}

uint32_t PayloadLength(const Plan& plan, uint32_t sg) {
  const bool transpose = plan.op == device::Block2dOp::kLoadTranspose;
  const uint32_t rw = std::bit_ceil(transpose ? plan.height : plan.width);
  const uint32_t rows = plan.op == device::Block2dOp::kLoadTransform
                            ? (plan.height + plan.vf - 1) / plan.vf
                        : transpose ? plan.width
                                    : plan.height;
  const uint32_t units = rw >= sg ? rows * rw / sg : rows / (sg / rw);
  return plan.count * units * plan.vf;
}

// Lays the blocks over the tile and finds, for each slice element, the payload element every
// invocation gets it in.
bool MatchSlice(Plan& plan, const MatrixType& m, uint32_t height_units, uint32_t width_units,
                uint32_t sg) {
  plan.blocks.clear();
  plan.sources.clear();
  for (uint32_t y = 0; y < height_units; y += plan.height) {
    for (uint32_t x = 0; x < width_units; x += plan.width * plan.count) {
      plan.blocks.push_back({x, y, PayloadLength(plan, sg)});
    }
  }
  std::map<Coord, std::pair<uint32_t, uint32_t>> lane0;
  for (uint32_t i = 0; i < plan.blocks.size(); ++i) {
    for (uint32_t p = 0; p < plan.blocks[i].payload; ++p) {
      if (auto c = PayloadCoord(plan, plan.blocks[i], sg, 0, p)) {
        lane0.emplace(*c, std::make_pair(i, p));
      }
    }
  }
  for (uint32_t e = 0; e < m.mapping.length(); ++e) {
    auto it = lane0.find(m.mapping.ElementCoord(e, 0));
    if (it == lane0.end()) return false;
    const auto [i, p] = it->second;
    for (uint32_t lane = 1; lane < sg; ++lane) {
      auto c = PayloadCoord(plan, plan.blocks[i], sg, lane, p);
      if (!c || !(*c == m.mapping.ElementCoord(e, lane))) return false;
    }
    plan.sources.push_back(it->second);
  }
  return true;
}

// Picks the block shape from the device's table and checks that the blocks give each invocation
// exactly its slice.
std::optional<Plan> MakePlan(Lowering& l, const MemoryAccess& a, bool checked) {
  const device::DeviceProfile& d = l.device;
  const uint32_t sg = l.subgroup_size;
  if (d.block2d.kind != device::TableKind::kTable) return std::nullopt;
  std::vector<uint32_t> sizes;
  const device::SubgroupSizeRow* size_row = device::MatchBlock2dSubgroupSize(d, sg, &sizes);
  if (!size_row && !d.block2d_limits.subgroup_sizes.empty()) return std::nullopt;
  if (size_row && size_row->provenance.confidence == device::Confidence::kConvention) {
    return std::nullopt;
  }
  if (a.storage != spv::StorageClass::CrossWorkgroup) return std::nullopt;
  const MatrixType& m = *a.matrix;
  const uint32_t t_bytes = m.bits / 8;
  Plan plan;
  uint32_t width_units = m.columns, height_units = m.rows;
  // Column-major stores need the invocations to exchange elements (MakeTransposedStorePlan).
  if (a.store && a.layout != kRowMajor && a.layout != kPacked) return std::nullopt;
  if (a.layout == kPacked) {
    // The packed rows are 32-bit words of vf consecutive rows of one column, which is how B's
    // invocations hold them: plain 32-bit blocks both ways.
    plan.op = a.store ? device::Block2dOp::kStore : device::Block2dOp::kLoad;
    plan.element_size = 4;
    plan.vf = 4 / t_bytes;
    height_units = m.rows / plan.vf;
    if (m.rows % plan.vf != 0) return std::nullopt;
    plan.row_bytes = m.columns * 4;
  } else if (a.layout == kRowMajor) {
    plan.element_size = t_bytes;
    plan.row_bytes = m.columns * t_bytes;
    if (a.store) {
      plan.op = device::Block2dOp::kStore;
    } else if (m.use == MatrixUse::kB && t_bytes < 4) {
      plan.op = device::Block2dOp::kLoadTransform;
      plan.vf = 4 / t_bytes;
    } else {
      plan.op = device::Block2dOp::kLoad;
    }
  } else {
    // Column-major: the memory rows are the matrix's columns, read transposed. The device tables
    // transpose 32-bit elements only; 8- and 16-bit components are read as 32-bit units of 4 or 2
    // consecutive rows of one column (IGC's _transpose_u32), which give B, accumulators and
    // A at 16 rows or more each invocation its column. The checked forms address their surface
    // in components, so they keep the per-element form for narrow components.
    plan.op = device::Block2dOp::kLoadTranspose;
    plan.element_size = 4;
    plan.vf = 4 / t_bytes;
    if (m.rows % plan.vf != 0 || (checked && plan.vf != 1)) return std::nullopt;
    plan.row_bytes = m.rows * t_bytes;
    width_units = m.rows / plan.vf;
    height_units = m.columns;
  }
  plan.memory_rows = height_units;
  // Candidate shapes, best first: the widest blocks (then more blocks per instruction), the
  // smallest height covering the rows (extra rows are outside the surface: zero when loaded,
  // dropped when stored), else the largest dividing them. The first whose payloads give every
  // invocation its slice is taken.
  // Heights after the preferred one: the other dividing ones, largest first (a transposed block
  // of 32 rows gives each invocation two columns, of 16 one).
  struct Shape {
    uint32_t width, count, height;
    bool preferred;
  };
  std::vector<Shape> shapes;
  for (const device::Block2dRow& row : d.block2d.rows) {
    if (row.op != plan.op || row.element_size != plan.element_size) continue;
    if (row.provenance.confidence == device::Confidence::kConvention) continue;
    for (uint32_t w : row.width) {
      if (width_units % w != 0) continue;
      uint32_t h = 0;
      for (uint32_t cand : row.height) {
        if (cand >= height_units && (h == 0 || cand < h)) h = cand;
      }
      if (h == 0) {
        for (uint32_t cand : row.height) {
          if (height_units % cand == 0 && cand > h) h = cand;
        }
      }
      if (h == 0) continue;
      std::vector<uint32_t> heights = {h};
      for (uint32_t cand : row.height) {
        if (cand != h && height_units % cand == 0) heights.push_back(cand);
      }
      std::sort(heights.begin() + 1, heights.end(), std::greater<>());
      for (uint32_t c : row.count) {
        if (width_units % (w * c) != 0) continue;
        for (uint32_t height : heights) shapes.push_back({w, c, height, height == h});
      }
    }
  }
  std::stable_sort(shapes.begin(), shapes.end(), [](const Shape& x, const Shape& y) {
    if (x.width * x.count != y.width * y.count) return x.width * x.count > y.width * y.count;
    if (x.width != y.width) return x.width > y.width;
    return x.preferred && !y.preferred;
  });
  for (const Shape& shape : shapes) {
    plan.width = shape.width;
    plan.count = shape.count;
    plan.height = shape.height;
    if (MatchSlice(plan, m, height_units, width_units, sg)) return plan;
  }
  return std::nullopt;
}

// A column-major store through plain 2D block stores: memory rows are matrix columns, and a
// block of SG elements by H rows needs invocation j to hold matrix row j of H columns, where the
// slice gives it one column. Where every invocation holds one column of each SG x SG tile (B, the
// accumulators, A of 16-bit components at subgroup size 16) and the rows are a multiple of SG,
// the invocations transpose each tile with SG shuffles (step s: invocation j sends its element of
// row j - s and receives from invocation j + s its element of row j), and store it as SG / H
// blocks.
std::optional<Plan> MakeTransposedStorePlan(Lowering& l, const MemoryAccess& a) {
  const device::DeviceProfile& d = l.device;
  const uint32_t sg = l.subgroup_size;
  const MatrixType& m = *a.matrix;
  if (d.block2d.kind != device::TableKind::kTable || !a.store || a.layout != 1) return std::nullopt;
  std::vector<uint32_t> sizes;
  const device::SubgroupSizeRow* size_row = device::MatchBlock2dSubgroupSize(d, sg, &sizes);
  if (!size_row && !d.block2d_limits.subgroup_sizes.empty()) return std::nullopt;
  if (size_row && size_row->provenance.confidence == device::Confidence::kConvention) {
    return std::nullopt;
  }
  if (a.storage != spv::StorageClass::CrossWorkgroup || (sg & (sg - 1)) != 0) return std::nullopt;
  if (m.rows % sg != 0 || m.columns % sg != 0) return std::nullopt;
  Plan plan;
  plan.op = device::Block2dOp::kStore;
  plan.element_size = m.bits / 8;
  plan.width = sg;
  plan.count = 1;
  plan.transposed_store = true;
  plan.row_bytes = m.rows * plan.element_size;
  plan.memory_rows = m.columns;
  for (const device::Block2dRow& row : d.block2d.rows) {
    if (row.op != plan.op || row.element_size != plan.element_size) continue;
    if (row.provenance.confidence == device::Confidence::kConvention) continue;
    if (std::find(row.width.begin(), row.width.end(), sg) == row.width.end()) continue;
    if (std::find(row.count.begin(), row.count.end(), 1u) == row.count.end()) continue;
    for (uint32_t h : row.height) {
      if (sg % h == 0 && h > plan.height) plan.height = h;
    }
  }
  if (plan.height == 0) return std::nullopt;
  std::map<Coord, uint32_t> lane0;
  for (uint32_t e = 0; e < m.mapping.length(); ++e) lane0.emplace(m.mapping.ElementCoord(e, 0), e);
  for (uint32_t c0 = 0; c0 < m.columns; c0 += sg) {
    for (uint32_t r0 = 0; r0 < m.rows; r0 += sg) {
      Plan::Tile tile{r0, c0, {}};
      for (uint32_t i = 0; i < sg; ++i) {
        auto it = lane0.find(Coord{r0 + i, c0});
        if (it == lane0.end()) return std::nullopt;
        for (uint32_t lane = 1; lane < sg; ++lane) {
          if (!(m.mapping.ElementCoord(it->second, lane) == Coord{r0 + i, c0 + lane})) {
            return std::nullopt;
          }
        }
        tile.elements.push_back(it->second);
      }
      plan.tiles.push_back(std::move(tile));
    }
  }
  return plan;
}

class Block2dAccess {
 public:
  Block2dAccess(Lowering& l, const MemoryAccess& a, const Plan& plan,
                const CheckedBounds* bounds = nullptr)
      : b_(l.b), a_(a), m_(*a.matrix), plan_(plan), bounds_(bounds) {}

  // The run-time check of the surface rules; returns the condition and prepares the operands.
  uint32_t Check() {
    const uint32_t bits = b_.PointerSizeBits();
    intptr_ = b_.IntType(bits);
    auto c = [&](uint64_t v) { return b_.UIntConstant(bits, v); };
    const uint32_t boolean = b_.BoolType();
    const uint32_t address = b_.Op(spv::Op::OpConvertPtrToU, intptr_, {a_.pointer});
    offset_ = b_.Op(spv::Op::OpBitwiseAnd, intptr_, {address, c(63)});
    uint32_t stride = a_.stride;
    if (b_.TypeBits(a_.index_type) != bits) stride = b_.Op(spv::Op::OpUConvert, intptr_, {stride});
    pitch_ = b_.Op(spv::Op::OpIMul, intptr_, {stride, c(m_.bits / 8)});
    auto test = [&](spv::Op op, uint32_t x, uint32_t y) { return b_.Op(op, boolean, {x, y}); };
    const uint32_t aligned = test(
        spv::Op::OpIEqual,
        b_.Op(spv::Op::OpBitwiseAnd, intptr_, {offset_, c(std::max(4u, plan_.element_size) - 1)}),
        c(0));
    const uint32_t pitch16 =
        test(spv::Op::OpIEqual, b_.Op(spv::Op::OpBitwiseAnd, intptr_, {pitch_, c(15)}), c(0));
    const uint32_t wide = test(spv::Op::OpUGreaterThanEqual, pitch_, c(64));
    const uint32_t small = test(spv::Op::OpULessThanEqual, pitch_, c(uint64_t{1} << 24));
    const uint32_t inside =
        test(spv::Op::OpULessThanEqual,
             b_.Op(spv::Op::OpIAdd, intptr_, {offset_, c(plan_.row_bytes)}), pitch_);
    uint32_t all = test(spv::Op::OpLogicalAnd, aligned, pitch16);
    all = test(spv::Op::OpLogicalAnd, all, wide);
    all = test(spv::Op::OpLogicalAnd, all, small);
    return test(spv::Op::OpLogicalAnd, all, inside);
  }

  // The checked forms: the surface is the Height x Width matrix at Pointer itself (its
  // out-of-bounds elements read as zero and are not written, as the checked forms want), so
  // Pointer must be 64-byte aligned; column-major memory swaps the surface's axes.
  uint32_t CheckChecked() {
    const uint32_t bits = b_.PointerSizeBits();
    intptr_ = b_.IntType(bits);
    const uint32_t u32 = b_.IntType(32);
    auto c = [&](uint64_t v) { return b_.UIntConstant(bits, v); };
    auto c32 = [&](uint32_t v) { return b_.UIntConstant(32, v); };
    const uint32_t boolean = b_.BoolType();
    auto test = [&](spv::Op op, uint32_t x, uint32_t y) { return b_.Op(op, boolean, {x, y}); };
    const uint32_t e = plan_.element_size;
    const uint32_t address = b_.Op(spv::Op::OpConvertPtrToU, intptr_, {a_.pointer});
    offset_ = c(0);
    uint32_t stride = a_.stride;
    if (b_.TypeBits(a_.index_type) != bits) stride = b_.Op(spv::Op::OpUConvert, intptr_, {stride});
    pitch_ = b_.Op(spv::Op::OpIMul, intptr_, {stride, c(e)});
    const bool transposed = plan_.op == device::Block2dOp::kLoadTranspose;
    // Surface columns are the matrix's columns (row-major) or rows (column-major).
    const uint32_t columns = transposed ? bounds_->height : bounds_->width;
    surface_rows_ = transposed ? bounds_->width : bounds_->height;
    x_ = transposed ? bounds_->x : bounds_->y;
    y_ = transposed ? bounds_->y : bounds_->x;
    surface_width_ = b_.Op(spv::Op::OpIMul, u32, {columns, c32(e)});
    const uint32_t wide_width =
        bits == 32 ? surface_width_ : b_.Op(spv::Op::OpUConvert, intptr_, {surface_width_});
    std::vector<uint32_t> all = {
        test(spv::Op::OpIEqual, b_.Op(spv::Op::OpBitwiseAnd, intptr_, {address, c(63)}), c(0)),
        // Width and Height below 2^24 first, so that Width * e cannot wrap.
        test(spv::Op::OpULessThan, columns, c32(1u << 22)),
        test(spv::Op::OpUGreaterThanEqual, surface_width_, c32(64)),
        test(spv::Op::OpIEqual,
             b_.Op(spv::Op::OpBitwiseAnd, u32, {surface_width_, c32(std::max(4u, e) - 1)}), c32(0)),
        test(spv::Op::OpUGreaterThanEqual, surface_rows_, c32(1)),
        test(spv::Op::OpULessThanEqual, surface_rows_, c32(1u << 24)),
        test(spv::Op::OpUGreaterThanEqual, pitch_, wide_width),
        test(spv::Op::OpULessThanEqual, pitch_, c(uint64_t{1} << 24)),
        test(spv::Op::OpIEqual, b_.Op(spv::Op::OpBitwiseAnd, intptr_, {pitch_, c(15)}), c(0))};
    if (e <= 2) {
      all.push_back(
          test(spv::Op::OpIEqual, b_.Op(spv::Op::OpBitwiseAnd, u32, {x_, c32(4 / e - 1)}), c32(0)));
    }
    uint32_t ok = all[0];
    for (size_t i = 1; i < all.size(); ++i) ok = test(spv::Op::OpLogicalAnd, ok, all[i]);
    return ok;
  }

  uint32_t Load() {
    Surface();
    std::vector<std::vector<ElementSource>> payloads;
    for (uint32_t i = 0; i < plan_.blocks.size(); ++i) {
      const LaneRep rep = MakeLaneRep(b_, m_.component_type, plan_.blocks[i].payload);
      const uint32_t var = b_.FunctionVariable(rep.type_id);
      uint32_t dst = var;
      if (plan_.op == device::Block2dOp::kLoadTransform) {
        dst = b_.Op(spv::Op::OpBitcast, b_.PointerType(spv::StorageClass::Function, b_.IntType(32)),
                    {var});
      }
      const spv::Op op = plan_.op == device::Block2dOp::kLoadTransform
                             ? spv::Op::OpSubgroup2DBlockLoadTransformINTEL
                         : plan_.op == device::Block2dOp::kLoadTranspose
                             ? spv::Op::OpSubgroup2DBlockLoadTransposeINTEL
                             : spv::Op::OpSubgroup2DBlockLoadINTEL;
      Emit(op, plan_.blocks[i], dst, /*load=*/true);
      payloads.push_back(Elements(b_, rep, b_.Op(spv::Op::OpLoad, rep.type_id, {var})));
    }
    std::vector<ElementSource> elements;
    for (const auto& [i, p] : plan_.sources) elements.push_back(payloads[i][p]);
    return Assemble(b_, m_.rep, elements);
  }

  void StoreTransposed() {
    Surface();
    const uint32_t sg = plan_.width;
    const uint32_t u32 = b_.IntType(32);
    const uint32_t words = b_.VectorType(u32, sg);
    const uint32_t lane = b_.LaneId();
    const uint32_t bits = m_.bits;
    const uint32_t narrow = bits == 32 ? u32 : b_.IntType(bits);
    auto c = [&](uint32_t v) { return b_.UIntConstant(32, v); };
    const std::vector<ElementSource> elements = Elements(b_, m_.rep, a_.object);
    // A component as a 32-bit word, and back.
    auto widen = [&](uint32_t value) {
      if (b_.IsFloatType(m_.component_type)) value = b_.Op(spv::Op::OpBitcast, narrow, {value});
      return bits == 32 ? value : b_.Op(spv::Op::OpUConvert, u32, {value});
    };
    auto narrow_back = [&](uint32_t word) {
      uint32_t value = bits == 32 ? word : b_.Op(spv::Op::OpUConvert, narrow, {word});
      if (b_.IsFloatType(m_.component_type)) {
        value = b_.Op(spv::Op::OpBitcast, m_.component_type, {value});
      }
      return value;
    };
    // Step s: invocation j sends its element of row j - s (to invocation j - s) and receives
    // the element of row j of invocation j + s, which is column j + s of its row.
    std::vector<uint32_t> send_index, from;
    for (uint32_t step = 0; step < sg; ++step) {
      send_index.push_back(b_.Op(spv::Op::OpBitwiseAnd, u32,
                                 {b_.Op(spv::Op::OpISub, u32, {lane, c(step)}), c(sg - 1)}));
      from.push_back(b_.Op(spv::Op::OpBitwiseAnd, u32,
                           {b_.Op(spv::Op::OpIAdd, u32, {lane, c(step)}), c(sg - 1)}));
    }
    for (const Plan::Tile& tile : plan_.tiles) {
      std::vector<uint32_t> column;
      for (uint32_t e : tile.elements) {
        column.push_back(widen(ScalarOf(b_, m_.component_type, elements[e])));
      }
      const uint32_t mine = b_.OpSpan(spv::Op::OpCompositeConstruct, words, column);
      uint32_t row = b_.NullConstant(words);
      for (uint32_t step = 0; step < sg; ++step) {
        const uint32_t sent = b_.Op(spv::Op::OpVectorExtractDynamic, u32, {mine, send_index[step]});
        const uint32_t got = b_.Op(spv::Op::OpSubgroupShuffleINTEL, u32, {sent, from[step]});
        row = b_.Op(spv::Op::OpVectorInsertDynamic, words, {row, got, from[step]});
      }
      // The tile's memory rows (its columns), plan_.height at a time.
      for (uint32_t h0 = 0; h0 < sg; h0 += plan_.height) {
        std::vector<ElementSource> payload;
        for (uint32_t h = 0; h < plan_.height; ++h) {
          const uint32_t index[] = {h0 + h};
          payload.push_back({narrow_back(b_.Extract(u32, row, index)), 0, 0});
        }
        const LaneRep rep = MakeLaneRep(b_, m_.component_type, plan_.height);
        const uint32_t var = b_.FunctionVariable(rep.type_id);
        b_.Op(spv::Op::OpStore, 0, {var, Assemble(b_, rep, payload)});
        Emit(spv::Op::OpSubgroup2DBlockStoreINTEL, Block{tile.r0, tile.c0 + h0, plan_.height}, var,
             /*load=*/false);
      }
    }
  }

  void Store() {
    Surface();
    const std::vector<ElementSource> elements = Elements(b_, m_.rep, a_.object);
    std::vector<std::vector<ElementSource>> payloads(plan_.blocks.size());
    for (uint32_t i = 0; i < plan_.blocks.size(); ++i) {
      payloads[i].assign(plan_.blocks[i].payload,
                         ElementSource{b_.NullConstant(m_.component_type), 0, 0});
    }
    for (uint32_t e = 0; e < plan_.sources.size(); ++e) {
      payloads[plan_.sources[e].first][plan_.sources[e].second] = elements[e];
    }
    for (uint32_t i = 0; i < plan_.blocks.size(); ++i) {
      const LaneRep rep = MakeLaneRep(b_, m_.component_type, plan_.blocks[i].payload);
      const uint32_t var = b_.FunctionVariable(rep.type_id);
      b_.Op(spv::Op::OpStore, 0, {var, Assemble(b_, rep, payloads[i])});
      Emit(spv::Op::OpSubgroup2DBlockStoreINTEL, plan_.blocks[i], var, /*load=*/false);
    }
  }

 private:
  void Surface() {
    const uint32_t bits = b_.PointerSizeBits();
    const uint32_t u8 = b_.IntType(8);
    const uint32_t byte_pointer = b_.PointerType(spv::StorageClass::CrossWorkgroup, u8);
    const uint32_t bytes = b_.Op(spv::Op::OpBitcast, byte_pointer, {a_.pointer});
    if (bounds_ != nullptr) {
      base_ = bytes;
      pitch32_ = bits == 32 ? pitch_ : b_.Op(spv::Op::OpUConvert, b_.IntType(32), {pitch_});
      return;
    }
    const uint32_t back = b_.Op(spv::Op::OpISub, intptr_, {b_.UIntConstant(bits, 0), offset_});
    base_ = b_.Op(spv::Op::OpPtrAccessChain, byte_pointer, {bytes, back});
    const uint32_t u32 = b_.IntType(32);
    pitch32_ = bits == 32 ? pitch_ : b_.Op(spv::Op::OpUConvert, u32, {pitch_});
    uint32_t x =
        b_.Op(spv::Op::OpUDiv, intptr_, {offset_, b_.UIntConstant(bits, plan_.element_size)});
    x_ = bits == 32 ? x : b_.Op(spv::Op::OpUConvert, u32, {x});
  }

  void Emit(spv::Op op, const Block& blk, uint32_t private_pointer, bool load) {
    const uint32_t u32 = b_.IntType(32);
    auto c = [&](uint32_t v) { return b_.UIntConstant(32, v); };
    const uint32_t x = blk.x == 0 ? x_ : b_.Op(spv::Op::OpIAdd, u32, {x_, c(blk.x)});
    uint32_t y = c(blk.y);
    if (y_ != 0) y = blk.y == 0 ? y_ : b_.Op(spv::Op::OpIAdd, u32, {y_, c(blk.y)});
    const uint32_t coordinate = b_.Op(spv::Op::OpCompositeConstruct, b_.VectorType(u32, 2), {x, y});
    const uint32_t width = bounds_ ? surface_width_ : pitch32_;
    const uint32_t height = bounds_ ? surface_rows_ : c(plan_.memory_rows);
    ir::Instruction inst(op);
    for (uint32_t v : {plan_.element_size, plan_.width, plan_.height, plan_.count}) {
      inst.AddIdOperand(c(v));
    }
    if (!load) inst.AddIdOperand(private_pointer);
    for (uint32_t v : {base_, width, height, pitch32_, coordinate}) {
      inst.AddIdOperand(v);
    }
    if (load) inst.AddIdOperand(private_pointer);
    b_.Insert(std::move(inst));
  }

  Builder& b_;
  const MemoryAccess& a_;
  const MatrixType& m_;
  const Plan& plan_;
  const CheckedBounds* bounds_;
  uint32_t intptr_ = 0, offset_ = 0, pitch_ = 0, pitch32_ = 0, base_ = 0, x_ = 0, y_ = 0;
  uint32_t surface_width_ = 0, surface_rows_ = 0;  // the checked forms'
};

}  // namespace

uint32_t Block2dOrPerLaneLoad(Lowering& l, const MemoryAccess& a) {
  const std::optional<Plan> plan = MakePlan(l, a, /*checked=*/false);
  if (!plan) return PerLaneLoad(l, a);
  Block2dAccess access(l, a, *plan);
  const uint32_t ok = access.Check();
  return Choose(
      l, ok, a.matrix->rep.type_id, [&] { return access.Load(); },
      [&] { return PerLaneLoad(l, a); });
}

uint32_t Block2dOrPerElementChecked(Lowering& l, const MemoryAccess& a, const CheckedBounds& bounds,
                                    const std::function<uint32_t()>& per_element) {
  std::optional<Plan> plan;
  if (a.layout != kPacked) plan = MakePlan(l, a, /*checked=*/true);
  if (!plan) return per_element();
  Block2dAccess access(l, a, *plan, &bounds);
  const uint32_t ok = access.CheckChecked();
  return Choose(
      l, ok, a.store ? 0 : a.matrix->rep.type_id,
      [&] {
        if (!a.store) return access.Load();
        access.Store();
        return 0u;
      },
      per_element);
}

bool Block2dOrPerLaneStore(Lowering& l, const MemoryAccess& a) {
  std::optional<Plan> plan = MakePlan(l, a, /*checked=*/false);
  if (!plan) plan = MakeTransposedStorePlan(l, a);
  if (!plan) {
    PerLaneStore(l, a);
    return true;
  }
  Block2dAccess access(l, a, *plan);
  const uint32_t ok = access.Check();
  Choose(
      l, ok, 0,
      [&] {
        if (plan->transposed_store) {
          access.StoreTransposed();
        } else {
          access.Store();
        }
        return 0u;
      },
      [&] {
        PerLaneStore(l, a);
        return 0u;
      });
  return true;
}

}  // namespace xmx::opt::lower_coop
