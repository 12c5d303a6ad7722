// Helpers shared by the table lookups: narrowing a set of candidate rows one field at a time and
// recording, when a field fails, the values the remaining rows would have accepted.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/format.hpp"
#include "xmx/device.hpp"

namespace xmx::device::internal {

// "<field> <found> is not supported<context> by <instruction> on device <name>; supported: ..."
std::string FormatMismatch(const Mismatch& mismatch, std::string_view instruction,
                           std::string_view device);
std::string_view ScalarKindName(ScalarKind kind);

// The shapes of `valid` nearest to `shape` (distance in powers of two on M, N and K, so M 4 is as
// far from 8 as from 2; the larger shape first on a tie), at most `count` of them. Shared by the
// native and the cooperative-matrix validation queries so both answer alike.
std::vector<MatrixShape> NearestShapes(std::vector<MatrixShape> valid, const MatrixShape& shape,
                                       size_t count = 3);

// The largest of (shape, subgroup size) candidates by M * N * K, the smaller subgroup size on a
// tie: the "default" query's answer.
std::optional<MatrixShape> LargestShape(
    const std::vector<std::pair<MatrixShape, uint32_t>>& candidates);

// Keeps the rows whose `values(row)` contain `found`. When none does, fills `mismatch` with the
// values of all rows (sorted, printed by `format`) and returns false.
template <typename Row>
bool NarrowByValue(std::vector<const Row*>& rows, uint32_t found,
                   const std::function<std::vector<uint32_t>(const Row&)>& values,
                   std::string field, const std::string& context, Mismatch* mismatch,
                   std::string (*format)(uint32_t) = nullptr) {
  auto print = [&](uint32_t v) { return format ? format(v) : std::to_string(v); };
  std::vector<const Row*> kept;
  std::set<uint32_t> allowed;
  for (const Row* row : rows) {
    std::vector<uint32_t> row_values = values(*row);
    allowed.insert(row_values.begin(), row_values.end());
    if (std::find(row_values.begin(), row_values.end(), found) != row_values.end()) {
      kept.push_back(row);
    }
  }
  if (!kept.empty()) {
    rows = std::move(kept);
    return true;
  }
  mismatch->field = std::move(field);
  mismatch->found = print(found);
  mismatch->context = context;
  mismatch->supported.clear();
  for (uint32_t v : allowed) mismatch->supported.push_back(print(v));
  return false;
}

// The same for a field compared by name (element types, function names): keeps first-seen order.
template <typename Row>
bool NarrowByName(std::vector<const Row*>& rows, const std::string& found,
                  const std::function<std::string(const Row&)>& value, std::string field,
                  const std::string& context, Mismatch* mismatch) {
  std::vector<const Row*> kept;
  std::vector<std::string> allowed;
  for (const Row* row : rows) {
    std::string v = value(*row);
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) allowed.push_back(v);
    if (v == found) kept.push_back(row);
  }
  if (!kept.empty()) {
    rows = std::move(kept);
    return true;
  }
  mismatch->field = std::move(field);
  mismatch->found = found;
  mismatch->context = context;
  mismatch->supported = std::move(allowed);
  return false;
}

}  // namespace xmx::device::internal
