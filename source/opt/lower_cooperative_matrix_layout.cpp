// Native blocks inside slices under Intel's element mapping (device/coop_layout.hpp), and moving
// slice elements between SPIR-V values.
#include <algorithm>

#include "opt/lower_cooperative_matrix_builder.hpp"
#include "opt/lower_cooperative_matrix_slices.hpp"

namespace xmx::opt::lower_coop {

std::optional<std::vector<int>> MapElements(const ElementMapping& whole, const ElementMapping& part,
                                            uint32_t row_offset, uint32_t column_offset) {
  std::map<Coord, uint32_t> lane0;
  for (uint32_t e = 0; e < whole.length(); ++e) lane0.emplace(whole.ElementCoord(e, 0), e);
  std::vector<int> out(part.length(), -1);
  for (uint32_t e = 0; e < part.length(); ++e) {
    Coord c = part.ElementCoord(e, 0);
    c.row += row_offset;
    c.column += column_offset;
    if (c.row >= whole.rows() || c.column >= whole.columns()) {
      // Padding: it must be padding in every invocation.
      for (uint32_t lane = 1; lane < part.subgroup_size(); ++lane) {
        const Coord d = part.ElementCoord(e, lane);
        if (d.row + row_offset < whole.rows() && d.column + column_offset < whole.columns()) {
          return std::nullopt;
        }
      }
      continue;
    }
    auto it = lane0.find(c);
    if (it == lane0.end()) return std::nullopt;
    for (uint32_t lane = 1; lane < part.subgroup_size(); ++lane) {
      Coord d = part.ElementCoord(e, lane);
      d.row += row_offset;
      d.column += column_offset;
      if (!(whole.ElementCoord(it->second, lane) == d)) return std::nullopt;
    }
    out[e] = static_cast<int>(it->second);
  }
  return out;
}

LaneKind LaneKindFor(uint32_t length) {
  if (length == 1) return LaneKind::kScalar;
  if (length == 2 || length == 3 || length == 4 || length == 8 || length == 16) {
    return LaneKind::kVector;
  }
  if (length % 16 == 0) return LaneKind::kChunks;
  return LaneKind::kArray;
}

LaneRep MakeLaneRep(Builder& b, uint32_t component_type, uint32_t length) {
  LaneRep rep;
  rep.kind = LaneKindFor(length);
  rep.length = length;
  rep.component_type = component_type;
  switch (rep.kind) {
    case LaneKind::kScalar:
      rep.type_id = component_type;
      rep.piece_type = component_type;
      break;
    case LaneKind::kVector:
      rep.type_id = b.VectorType(component_type, length);
      rep.piece_type = rep.type_id;
      break;
    case LaneKind::kChunks:
      rep.piece_type = b.VectorType(component_type, 16);
      rep.type_id = b.ArrayType(rep.piece_type, length / 16);
      break;
    case LaneKind::kArray:
      rep.piece_type = component_type;
      rep.type_id = b.ArrayType(component_type, length);
      break;
  }
  return rep;
}

std::vector<uint32_t> IndexPath(const LaneRep& rep, uint32_t element) {
  switch (rep.kind) {
    case LaneKind::kScalar:
      return {};
    case LaneKind::kChunks:
      return {element / 16, element % 16};
    default:
      return {element};
  }
}

std::vector<ElementSource> Elements(Builder& b, const LaneRep& rep, uint32_t value) {
  std::vector<ElementSource> out;
  out.reserve(rep.length);
  switch (rep.kind) {
    case LaneKind::kScalar:
      out.push_back({value, 0, 0});
      break;
    case LaneKind::kVector:
      for (uint32_t i = 0; i < rep.length; ++i) out.push_back({value, rep.length, i});
      break;
    case LaneKind::kChunks:
      for (uint32_t c = 0; c < rep.length / 16; ++c) {
        const uint32_t index[] = {c};
        const uint32_t chunk = b.Extract(rep.piece_type, value, index);
        for (uint32_t i = 0; i < 16; ++i) out.push_back({chunk, 16, i});
      }
      break;
    case LaneKind::kArray:
      for (uint32_t i = 0; i < rep.length; ++i) {
        const uint32_t index[] = {i};
        out.push_back({b.Extract(rep.component_type, value, index), 0, 0});
      }
      break;
  }
  return out;
}

uint32_t ScalarOf(Builder& b, uint32_t component_type, const ElementSource& s) {
  if (s.vector_length == 0) return s.value;
  const uint32_t index[] = {s.index};
  return b.Extract(component_type, s.value, index);
}

uint32_t GatherVector(Builder& b, uint32_t component_type, std::span<const ElementSource> srcs) {
  const uint32_t n = static_cast<uint32_t>(srcs.size());
  if (n == 1) return ScalarOf(b, component_type, srcs[0]);
  std::vector<uint32_t> parts;
  size_t i = 0;
  while (i < srcs.size()) {
    size_t j = i + 1;
    while (j < srcs.size() && srcs[j].value == srcs[i].value && srcs[i].vector_length != 0) ++j;
    const uint32_t run = static_cast<uint32_t>(j - i);
    const ElementSource& first = srcs[i];
    bool in_order = first.index == 0 && run == first.vector_length;
    for (size_t k = i; k < j && in_order; ++k) in_order = srcs[k].index == k - i;
    if (in_order) {
      parts.push_back(first.value);
    } else if (run > 1 && LaneKindFor(run) == LaneKind::kVector) {
      ir::Instruction shuffle(spv::Op::OpVectorShuffle, b.VectorType(component_type, run), 0);
      shuffle.AddIdOperand(first.value);
      shuffle.AddIdOperand(first.value);
      for (size_t k = i; k < j; ++k) {
        shuffle.AddOperand(grammar::OperandKindId::kLiteralInteger, {srcs[k].index});
      }
      parts.push_back(b.Insert(std::move(shuffle)));
    } else {
      for (size_t k = i; k < j; ++k) parts.push_back(ScalarOf(b, component_type, srcs[k]));
    }
    i = j;
  }
  if (parts.size() == 1) return parts[0];
  return b.OpSpan(spv::Op::OpCompositeConstruct, b.VectorType(component_type, n), parts);
}

uint32_t Assemble(Builder& b, const LaneRep& rep, std::span<const ElementSource> srcs) {
  if (rep.kind == LaneKind::kScalar || rep.kind == LaneKind::kVector) {
    return GatherVector(b, rep.component_type, srcs);
  }
  const uint32_t piece = rep.piece_length();
  std::vector<uint32_t> pieces;
  for (uint32_t p = 0; p < rep.pieces(); ++p) {
    pieces.push_back(GatherVector(b, rep.component_type, srcs.subspan(p * piece, piece)));
  }
  return b.OpSpan(spv::Op::OpCompositeConstruct, rep.type_id, pieces);
}

uint32_t GatherAs(Builder& b, uint32_t component_type, std::span<const ElementSource> srcs,
                  uint32_t target_scalar, uint32_t target_count) {
  const uint32_t n = static_cast<uint32_t>(srcs.size());
  const uint32_t target_type = b.ScalarOrVector(target_scalar, target_count);
  if (n <= 16 && (n == 1 || LaneKindFor(n) == LaneKind::kVector)) {
    const uint32_t v = GatherVector(b, component_type, srcs);
    if (component_type == target_scalar && n == target_count) return v;
    return b.Op(spv::Op::OpBitcast, target_type, {v});
  }
  // More than a vector holds: 16 components at a time, each reinterpreted, then joined.
  const uint32_t per = target_count * 16 / n;
  std::vector<uint32_t> parts;
  for (uint32_t i = 0; i < n; i += 16) {
    const uint32_t v = GatherVector(b, component_type, srcs.subspan(i, 16));
    parts.push_back(b.Op(spv::Op::OpBitcast, b.ScalarOrVector(target_scalar, per), {v}));
  }
  return b.OpSpan(spv::Op::OpCompositeConstruct, target_type, parts);
}

std::vector<ElementSource> SplitAs(Builder& b, uint32_t value, uint32_t value_scalar,
                                   uint32_t value_count, uint32_t component_type,
                                   uint32_t component_count) {
  std::vector<ElementSource> out;
  if (value_scalar == component_type) {
    if (value_count == 1) return {{value, 0, 0}};
    for (uint32_t i = 0; i < value_count; ++i) out.push_back({value, value_count, i});
    return out;
  }
  if (component_count <= 16) {
    const uint32_t v =
        b.Op(spv::Op::OpBitcast, b.ScalarOrVector(component_type, component_count), {value});
    if (component_count == 1) return {{v, 0, 0}};
    for (uint32_t i = 0; i < component_count; ++i) out.push_back({v, component_count, i});
    return out;
  }
  const uint32_t per_value = value_count * 16 / component_count;
  for (uint32_t i = 0; i < value_count; i += per_value) {
    uint32_t part = value;
    if (per_value != value_count) {
      ir::Instruction shuffle(spv::Op::OpVectorShuffle, b.ScalarOrVector(value_scalar, per_value),
                              0);
      shuffle.AddIdOperand(value);
      shuffle.AddIdOperand(value);
      for (uint32_t k = 0; k < per_value; ++k) {
        shuffle.AddOperand(grammar::OperandKindId::kLiteralInteger, {i + k});
      }
      part = b.Insert(std::move(shuffle));
    }
    const uint32_t v = b.Op(spv::Op::OpBitcast, b.VectorType(component_type, 16), {part});
    for (uint32_t k = 0; k < 16; ++k) out.push_back({v, 16, k});
  }
  return out;
}

}  // namespace xmx::opt::lower_coop
