// Matching OpSubgroupMatrixMultiplyAccumulateINTEL and the split matrix MAD built-ins against a
// profile's rows. Fields are checked in the order IGC checks them (SPEC-NOTES B.8): subgroup
// size, K, component types, operands, then M and the component counts, so a message names the
// first field a programmer would have to change.
#include <algorithm>
#include <charconv>

#include "device/match_support.hpp"
#include "xmx/device.hpp"

namespace xmx::device {
namespace {

using internal::NarrowByName;
using internal::NarrowByValue;

constexpr std::string_view kMatrixMadInstruction = "OpSubgroupMatrixMultiplyAccumulateINTEL";

std::string TypeName(ElementType type) { return std::string(ElementTypeName(type)); }

std::string CountWithM(uint32_t count, uint32_t m) {
  std::string out = std::to_string(count);
  if (count != m) out += " (M = " + std::to_string(m) + ")";
  return out;
}

// The M values of `rows` whose Result has `count` components; fills `mismatch` when there is none.
template <typename Row>
std::optional<uint32_t> MatchM(std::vector<const Row*>& rows, uint32_t count,
                               const std::string& context, Mismatch* mismatch) {
  std::vector<std::string> supported;
  for (const Row* row : rows) {
    for (uint32_t m : row->m) {
      if (row->result.Count(m) == count) {
        rows = {row};
        return m;
      }
      std::string text = CountWithM(row->result.Count(m), m);
      if (std::find(supported.begin(), supported.end(), text) == supported.end()) {
        supported.push_back(text);
      }
    }
  }
  mismatch->field = "Result component count";
  mismatch->found = std::to_string(count);
  mismatch->context = context;
  mismatch->supported = std::move(supported);
  return std::nullopt;
}

// The count of one operand against the row's rule for M.
bool MatchCount(const ComponentSpec& spec, uint32_t m, uint32_t count, std::string field,
                const std::string& context, Mismatch* mismatch) {
  if (spec.Count(m) == count) return true;
  mismatch->field = std::move(field);
  mismatch->found = std::to_string(count);
  mismatch->context = context + ", M " + std::to_string(m);
  mismatch->supported = {std::to_string(spec.Count(m))};
  return false;
}

}  // namespace

MatrixMadMatch MatchMatrixMad(const DeviceProfile& profile, const MatrixMadQuery& query) {
  MatrixMadMatch match;
  if (profile.matrix_mad.kind != TableKind::kTable) {
    match.status = profile.matrix_mad.kind == TableKind::kNoTable ? MatchStatus::kNoTable
                                                                  : MatchStatus::kNotSupported;
    return match;
  }
  std::vector<const MatrixMadRow*> rows;
  for (const MatrixMadRow& row : profile.matrix_mad.rows) rows.push_back(&row);
  if (rows.empty()) {
    match.status = MatchStatus::kNotSupported;
    return match;
  }
  Mismatch* mismatch = &match.mismatch;
  auto fail = [&](MismatchKind kind) {
    mismatch->kind = kind;
    match.status = MatchStatus::kMismatch;
    match.nearest = rows;
    return match;
  };
  using Values = std::function<std::vector<uint32_t>(const MatrixMadRow&)>;
  using Name = std::function<std::string(const MatrixMadRow&)>;
  std::string context;
  if (!NarrowByValue<MatrixMadRow>(rows, query.subgroup_size, Values([](const MatrixMadRow& r) {
                                     return std::vector<uint32_t>{r.subgroup_size};
                                   }),
                                   "Subgroup size", context, mismatch)) {
    return fail(MismatchKind::kSubgroupSize);
  }
  context = " for subgroup size " + std::to_string(query.subgroup_size);
  if (!NarrowByValue<MatrixMadRow>(
          rows, query.k, Values([](const MatrixMadRow& r) { return std::vector<uint32_t>{r.k}; }),
          "K Dim", context, mismatch)) {
    return fail(MismatchKind::kKDim);
  }
  context += ", K Dim " + std::to_string(query.k);
  const struct {
    const char* field;
    const char* label;
    ElementType found;
    const ComponentSpec MatrixMadRow::*spec;
  } types[] = {
      {"Result component type", "Result", query.result.type, &MatrixMadRow::result},
      {"Matrix A component type", "A", query.a.type, &MatrixMadRow::a},
      {"Matrix B component type", "B", query.b.type, &MatrixMadRow::b},
      {"Matrix C component type", "C", query.c.type, &MatrixMadRow::c},
  };
  for (const auto& t : types) {
    auto spec = t.spec;
    if (!NarrowByName<MatrixMadRow>(rows, TypeName(t.found), Name([spec](const MatrixMadRow& r) {
                                      return TypeName((r.*spec).type);
                                    }),
                                    t.field, context, mismatch)) {
      return fail(MismatchKind::kComponentType);
    }
    context += std::string(", ") + t.label + " " + TypeName(t.found);
  }
  if (!NarrowByValue<MatrixMadRow>(rows, query.operands,
                                   Values([](const MatrixMadRow& r) { return r.operands; }),
                                   "Matrix Multiply Accumulate Operands", context, mismatch,
                                   [](uint32_t v) { return Hex(v); })) {
    return fail(MismatchKind::kOperands);
  }
  context += ", Operands " + Hex(query.operands);
  std::optional<uint32_t> m = MatchM(rows, query.result.count, context, mismatch);
  if (!m) return fail(MismatchKind::kResultCount);
  const MatrixMadRow& row = *rows.front();
  if (!MatchCount(row.a, *m, query.a.count, "Matrix A component count", context, mismatch) ||
      !MatchCount(row.b, *m, query.b.count, "Matrix B component count", context, mismatch) ||
      !MatchCount(row.c, *m, query.c.count, "Matrix C component count", context, mismatch)) {
    return fail(MismatchKind::kComponentCount);
  }
  match.status = MatchStatus::kMatched;
  match.row = &row;
  match.m = *m;
  return match;
}

std::string MatrixMadMatch::Message(const DeviceProfile& profile) const {
  switch (status) {
    case MatchStatus::kMismatch:
      return internal::FormatMismatch(mismatch, kMatrixMadInstruction, profile.name);
    case MatchStatus::kNotSupported:
      return std::string(kMatrixMadInstruction) + " is not supported on device " + profile.name;
    default:
      return {};
  }
}

SplitMatrixMadMatch MatchSplitMatrixMad(const DeviceProfile& profile, std::string_view function,
                                        uint32_t subgroup_size, const OperandShape& result,
                                        const OperandShape& a, const OperandShape& b,
                                        const OperandShape& c) {
  SplitMatrixMadMatch match;
  if (profile.split_matrix_mad.kind != TableKind::kTable) {
    match.status = profile.split_matrix_mad.kind == TableKind::kNoTable
                       ? MatchStatus::kNoTable
                       : MatchStatus::kNotSupported;
    return match;
  }
  std::vector<const SplitMatrixMadRow*> rows;
  for (const SplitMatrixMadRow& row : profile.split_matrix_mad.rows) rows.push_back(&row);
  Mismatch* mismatch = &match.mismatch;
  using Name = std::function<std::string(const SplitMatrixMadRow&)>;
  if (!NarrowByName<SplitMatrixMadRow>(rows, std::string(function),
                                       Name([](const SplitMatrixMadRow& r) { return r.function; }),
                                       "Function", "", mismatch)) {
    match.status = MatchStatus::kMismatch;
    return match;
  }
  std::string context = " for " + std::string(function);
  const SplitMatrixMadRow& row = *rows.front();
  if (row.subgroup_size && *row.subgroup_size != subgroup_size) {
    match.status = MatchStatus::kMismatch;
    *mismatch = {"Subgroup size",
                 std::to_string(subgroup_size),
                 context,
                 {std::to_string(*row.subgroup_size)}};
    return match;
  }
  std::optional<uint32_t> m = MatchM(rows, result.count, context, mismatch);
  const struct {
    const char* label;
    const OperandShape& found;
    const ComponentSpec& spec;
  } operands[] = {
      {"Result", result, row.result}, {"a", a, row.a}, {"b", b, row.b}, {"acc", c, row.c}};
  for (const auto& o : operands) {
    if (o.found.type != o.spec.type) {
      match.status = MatchStatus::kMismatch;
      *mismatch = {std::string(o.label) + " component type",
                   TypeName(o.found.type),
                   context,
                   {TypeName(o.spec.type)}};
      return match;
    }
    if (!m) {
      match.status = MatchStatus::kMismatch;
      return match;
    }
    if (!MatchCount(o.spec, *m, o.found.count, std::string(o.label) + " component count", context,
                    mismatch)) {
      match.status = MatchStatus::kMismatch;
      return match;
    }
  }
  match.status = MatchStatus::kMatched;
  match.row = &row;
  match.m = *m;
  return match;
}

std::string SplitMatrixMadMatch::Message(const DeviceProfile& profile) const {
  switch (status) {
    case MatchStatus::kMismatch:
      return internal::FormatMismatch(mismatch, "the split matrix multiply-accumulate built-ins",
                                      profile.name);
    case MatchStatus::kNotSupported:
      return "the split matrix multiply-accumulate built-ins are not supported on device " +
             profile.name;
    default:
      return {};
  }
}

std::string_view ItaniumBaseName(std::string_view linkage_name) {
  if (linkage_name.substr(0, 2) != "_Z") return linkage_name;
  std::string_view rest = linkage_name.substr(2);
  size_t length = 0;
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), length);
  if (ec != std::errc() || length == 0) return linkage_name;
  const size_t digits = static_cast<size_t>(end - rest.data());
  if (digits + length > rest.size()) return linkage_name;
  return rest.substr(digits, length);
}

}  // namespace xmx::device
