// The joint_matrix queries over a profile's cooperative_matrix rows (COOPERATIVE-MATRIX.md A3):
// MatchCooperativeMatrix is the one lookup behind xmx-val's coop.device.* rules and xmx-query's
// validation form; the general and default forms list the same rows. The rows are the SYCL
// runtime's combinations, so shapes here are joint_matrix tiles (16x16x16, 32x64x16, M any value
// up to 8), not the single native instruction's shapes of matrix_query.cpp.
#include <algorithm>
#include <array>
#include <set>

#include "device/match_support.hpp"
#include "xmx/device.hpp"

namespace xmx::device {
namespace {

constexpr std::string_view kMulAdd = "OpCooperativeMatrixMulAddKHR";

constexpr std::array<std::pair<ElementType, std::string_view>, 15> kSyclNames = {{
    {ElementType::kI4, "s4"},
    {ElementType::kU4, "u4"},
    {ElementType::kI8, "s8"},
    {ElementType::kU8, "u8"},
    {ElementType::kI16, "s16"},
    {ElementType::kI32, "s32"},
    {ElementType::kI64, "s64"},
    {ElementType::kF16, "fp16"},
    {ElementType::kBF16, "bf16"},
    {ElementType::kTF32, "tf32"},
    {ElementType::kF32, "fp32"},
    {ElementType::kF64, "fp64"},
    {ElementType::kF8E4M3, "f8e4m3"},
    {ElementType::kF8E5M2, "f8e5m2"},
    {ElementType::kF4E2M1, "f4e2m1"},
}};

std::string Sycl(ElementType type) { return std::string(SyclTypeName(type)); }

bool Contains(const std::vector<ElementType>& types, ElementType type) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

std::string ShapeText(uint32_t m, uint32_t n, uint32_t k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

std::string RowShapeText(const CooperativeMatrixRow& row) {
  return row.MText() + "x" + std::to_string(row.n) + "x" + std::to_string(row.k);
}

// Narrows `rows` to those whose `field` types contain `found`; records the mismatch otherwise.
bool NarrowByType(std::vector<const CooperativeMatrixRow*>& rows, ElementType found,
                  std::vector<ElementType> CooperativeMatrixRow::*field, const std::string& label,
                  const std::string& context, Mismatch* mismatch) {
  std::vector<const CooperativeMatrixRow*> kept;
  std::vector<std::string> allowed;
  for (const CooperativeMatrixRow* row : rows) {
    for (ElementType t : row->*field) {
      if (std::find(allowed.begin(), allowed.end(), Sycl(t)) == allowed.end()) {
        allowed.push_back(Sycl(t));
      }
    }
    if (Contains(row->*field, found)) kept.push_back(row);
  }
  if (!kept.empty()) {
    rows = std::move(kept);
    return true;
  }
  *mismatch = {label, Sycl(found), context, std::move(allowed)};
  return false;
}

std::vector<CooperativeMatrixCombination> CombinationsFor(const DeviceProfile& profile,
                                                          const MatrixTypes& types,
                                                          std::optional<uint32_t> subgroup_size) {
  std::vector<CooperativeMatrixCombination> result;
  if (profile.cooperative_matrix.kind != TableKind::kTable) return result;
  for (const CooperativeMatrixRow& row : profile.cooperative_matrix.rows) {
    if (Contains(row.a, types.a) && Contains(row.b, types.b) && Contains(row.c, types.c) &&
        Contains(row.d, types.d) && (!subgroup_size || row.subgroup_size == *subgroup_size)) {
      result.push_back({types, row.m, row.m_is_range, row.n, row.k, row.subgroup_size, &row});
    }
  }
  return result;
}

}  // namespace

std::string_view SyclTypeName(ElementType type) {
  for (const auto& [t, name] : kSyclNames) {
    if (t == type) return name;
  }
  return "?";
}

std::optional<ElementType> ParseSyclType(std::string_view name) {
  for (const auto& [t, n] : kSyclNames) {
    if (n == name) return t;
  }
  return ParseElementType(name);
}

std::string CooperativeMatrixRow::MText() const {
  if (m.empty()) return "";
  if (m_is_range) return std::to_string(m.front()) + ".." + std::to_string(m.back());
  std::vector<std::string> texts;
  for (uint32_t v : m) texts.push_back(std::to_string(v));
  return Join(texts);
}

std::string ToSyclString(const MatrixTypes& types) {
  return "A " + Sycl(types.a) + ", B " + Sycl(types.b) + ", C " + Sycl(types.c) + ", D " +
         Sycl(types.d);
}

std::vector<CooperativeMatrixCombination> CooperativeMatrixCombinations(
    const DeviceProfile& profile) {
  std::vector<CooperativeMatrixCombination> result;
  if (profile.cooperative_matrix.kind != TableKind::kTable) return result;
  for (const CooperativeMatrixRow& row : profile.cooperative_matrix.rows) {
    for (ElementType a : row.a) {
      for (ElementType b : row.b) {
        for (ElementType c : row.c) {
          for (ElementType d : row.d) {
            result.push_back(
                {{a, b, c, d}, row.m, row.m_is_range, row.n, row.k, row.subgroup_size, &row});
          }
        }
      }
    }
  }
  return result;
}

CooperativeMatrixMatch MatchCooperativeMatrix(const DeviceProfile& profile,
                                              const CooperativeMatrixQuery& query) {
  CooperativeMatrixMatch match;
  if (profile.cooperative_matrix.kind != TableKind::kTable ||
      profile.cooperative_matrix.rows.empty()) {
    match.status = profile.cooperative_matrix.kind == TableKind::kNoTable
                       ? MatchStatus::kNoTable
                       : MatchStatus::kNotSupported;
    return match;
  }
  std::vector<const CooperativeMatrixRow*> rows;
  for (const CooperativeMatrixRow& row : profile.cooperative_matrix.rows) rows.push_back(&row);
  Mismatch* mismatch = &match.mismatch;
  std::string context;
  const struct {
    const char* label;
    const char* short_label;
    ElementType found;
    std::vector<ElementType> CooperativeMatrixRow::*field;
  } fields[] = {
      {"Matrix A type", "A", query.types.a, &CooperativeMatrixRow::a},
      {"Matrix B type", "B", query.types.b, &CooperativeMatrixRow::b},
      {"Matrix C type", "C", query.types.c, &CooperativeMatrixRow::c},
      {"Result (D) type", "D", query.types.d, &CooperativeMatrixRow::d},
  };
  for (const auto& f : fields) {
    if (!NarrowByType(rows, f.found, f.field, f.label, context, mismatch)) {
      mismatch->kind = MismatchKind::kComponentType;
      return match;
    }
    context += std::string(context.empty() ? " for " : ", ") + f.short_label + " " + Sycl(f.found);
  }
  // M, N and K together: the rows are tiles, and which dimension to change depends on the others.
  std::vector<const CooperativeMatrixRow*> kept;
  std::vector<std::string> shapes;
  for (const CooperativeMatrixRow* row : rows) {
    std::string text = RowShapeText(*row);
    if (std::find(shapes.begin(), shapes.end(), text) == shapes.end()) shapes.push_back(text);
    if (row->n == query.shape.n && row->k == query.shape.k &&
        std::binary_search(row->m.begin(), row->m.end(), query.shape.m)) {
      kept.push_back(row);
    }
  }
  if (kept.empty()) {
    *mismatch = {"Shape (M x N x K)", ShapeText(query.shape.m, query.shape.n, query.shape.k),
                 context, std::move(shapes)};
    mismatch->kind = MismatchKind::kShape;
    return match;
  }
  rows = std::move(kept);
  context += ", shape " + ShapeText(query.shape.m, query.shape.n, query.shape.k);
  if (query.subgroup_size != 0) {
    std::set<uint32_t> sizes;
    const CooperativeMatrixRow* found = nullptr;
    for (const CooperativeMatrixRow* row : rows) {
      sizes.insert(row->subgroup_size);
      if (row->subgroup_size == query.subgroup_size && found == nullptr) found = row;
    }
    if (found == nullptr) {
      std::vector<std::string> texts;
      for (uint32_t s : sizes) texts.push_back(std::to_string(s));
      *mismatch = {"Subgroup size", std::to_string(query.subgroup_size), context, std::move(texts)};
      mismatch->kind = MismatchKind::kSubgroupSize;
      return match;
    }
    rows = {found};
  }
  match.status = MatchStatus::kMatched;
  match.row = rows.front();
  return match;
}

std::string CooperativeMatrixMatch::Message(const DeviceProfile& profile) const {
  switch (status) {
    case MatchStatus::kMismatch:
      return internal::FormatMismatch(mismatch, kMulAdd, profile.name);
    case MatchStatus::kNotSupported:
      return "device " + profile.name + " has no cooperative matrix (joint_matrix) support";
    default:
      return {};
  }
}

std::optional<MatrixShape> DefaultCooperativeMatrixShape(const DeviceProfile& profile,
                                                         const MatrixTypes& types,
                                                         std::optional<uint32_t> subgroup_size) {
  std::vector<std::pair<MatrixShape, uint32_t>> candidates;
  for (const CooperativeMatrixCombination& c : CombinationsFor(profile, types, subgroup_size)) {
    candidates.push_back({{c.m.back(), c.n, c.k}, c.subgroup_size});
  }
  return internal::LargestShape(candidates);
}

CooperativeMatrixShapeCheck ValidateCooperativeMatrixShape(const DeviceProfile& profile,
                                                           const MatrixTypes& types,
                                                           const MatrixShape& shape,
                                                           std::optional<uint32_t> subgroup_size) {
  CooperativeMatrixShapeCheck check;
  const CooperativeMatrixMatch match =
      MatchCooperativeMatrix(profile, {types, shape, subgroup_size.value_or(0)});
  check.status = match.status;
  if (match.status == MatchStatus::kNoTable) {
    check.message =
        "device " + profile.name + " has no cooperative matrix table; only the SPIR-V rules apply";
    return check;
  }
  if (match.status == MatchStatus::kNotSupported) {
    check.message = match.Message(profile);
    return check;
  }
  if (match.status == MatchStatus::kMatched) {
    const CooperativeMatrixRow& row = *match.row;
    check.combination = CooperativeMatrixCombination{
        types, row.m, row.m_is_range, row.n, row.k, row.subgroup_size, &row};
    return check;
  }
  check.message = match.Message(profile);
  std::vector<MatrixShape> valid;
  for (const CooperativeMatrixCombination& c : CombinationsFor(profile, types, subgroup_size)) {
    for (uint32_t m : c.m) {
      const MatrixShape candidate{m, c.n, c.k};
      if (std::find(valid.begin(), valid.end(), candidate) == valid.end()) {
        valid.push_back(candidate);
      }
    }
  }
  check.nearest = internal::NearestShapes(std::move(valid), shape);
  if (!check.nearest.empty()) {
    std::vector<std::string> texts;
    for (const MatrixShape& s : check.nearest) texts.push_back(ShapeText(s.m, s.n, s.k));
    check.message += "; nearest valid (M x N x K): " + Join(texts);
  }
  return check;
}

bool CooperativeMatrixUseFits(const DeviceProfile& profile, MatrixUse use,
                              const std::vector<ElementType>& types, uint32_t rows, uint32_t cols,
                              std::vector<std::string>* supported) {
  if (supported) supported->clear();
  if (profile.cooperative_matrix.kind != TableKind::kTable) return true;  // nothing to check
  std::vector<std::string> shapes;
  for (const CooperativeMatrixRow& row : profile.cooperative_matrix.rows) {
    auto has_type = [&](const std::vector<ElementType>& row_types) {
      return std::any_of(types.begin(), types.end(),
                         [&](ElementType t) { return Contains(row_types, t); });
    };
    bool typed = false;
    std::string text;
    bool fits = false;
    const bool m_fits = std::binary_search(row.m.begin(), row.m.end(), rows);
    switch (use) {
      case MatrixUse::kA:
        typed = has_type(row.a);
        fits = m_fits && cols == row.k;
        text = row.MText() + "x" + std::to_string(row.k);
        break;
      case MatrixUse::kB:
        typed = has_type(row.b);
        fits = rows == row.k && cols == row.n;
        text = std::to_string(row.k) + "x" + std::to_string(row.n);
        break;
      case MatrixUse::kAccumulator:
        typed = has_type(row.c) || has_type(row.d);
        fits = m_fits && cols == row.n;
        text = row.MText() + "x" + std::to_string(row.n);
        break;
    }
    if (!typed) continue;
    if (fits) return true;
    if (std::find(shapes.begin(), shapes.end(), text) == shapes.end()) shapes.push_back(text);
  }
  if (supported) *supported = std::move(shapes);
  return false;
}

}  // namespace xmx::device
