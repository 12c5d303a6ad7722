#include "device/coop_layout.hpp"

#include <algorithm>

namespace xmx::device {
namespace {

const char* UseName(CoopUse use) {
  switch (use) {
    case CoopUse::kA:
      return "A";
    case CoopUse::kB:
      return "B";
    case CoopUse::kAccumulator:
      return "Accumulator";
  }
  return "?";
}

}  // namespace

std::optional<CoopLayout> CoopLayout::Make(CoopUse use, uint32_t rows, uint32_t columns,
                                           uint32_t element_bits, uint32_t subgroup_size,
                                           std::string* why_not) {
  const std::string what = std::to_string(rows) + "x" + std::to_string(columns) + " " +
                           std::to_string(element_bits) + "-bit Use " + UseName(use) +
                           " matrix at subgroup size " + std::to_string(subgroup_size);
  auto fail = [&](const std::string& reason) -> std::optional<CoopLayout> {
    *why_not = "no element mapping for a " + what + ": " + reason;
    return std::nullopt;
  };
  if (subgroup_size != 8 && subgroup_size != 16) {
    return fail("Intel's mapping (DECISIONS.md 15) is defined at subgroup sizes 8 and 16");
  }
  if (element_bits != 8 && element_bits != 16 && element_bits != 32) {
    return fail("components must have 8, 16 or 32 bits");
  }
  // Far above every shape of the device tables (32x64 at most), low enough that a multiply-add
  // of the largest shape stays a few thousand native operations.
  constexpr uint32_t kMaxSide = 256;
  if (rows == 0 || columns == 0 || rows > kMaxSide || columns > kMaxSide) {
    return fail("rows and columns must be 1 to " + std::to_string(kMaxSide));
  }
  CoopLayout l;
  l.use_ = use;
  l.rows_ = rows;
  l.columns_ = columns;
  l.element_bits_ = element_bits;
  l.subgroup_size_ = subgroup_size;
  if (use == CoopUse::kA) {
    const uint32_t contribution = std::max(subgroup_size == 8 ? 32u : 16u, element_bits);
    l.fields_ = contribution / element_bits;
    l.block_columns_ = std::min(columns, subgroup_size * l.fields_);
  } else {
    l.fields_ = 1;
    l.block_columns_ = subgroup_size;
  }
  if (columns % l.block_columns_ != 0 || l.block_columns_ % l.fields_ != 0) {
    return fail("the columns must be a multiple of " + std::to_string(l.block_columns_) +
                ", in units of " + std::to_string(l.fields_));
  }
  l.lanes_per_row_ = l.block_columns_ / l.fields_;
  if (subgroup_size % l.lanes_per_row_ != 0) {
    return fail(std::to_string(l.lanes_per_row_) +
                " invocations per row do not divide the subgroup");
  }
  l.row_phases_ = subgroup_size / l.lanes_per_row_;
  if (rows % l.row_phases_ != 0) {
    return fail("the rows must be a multiple of " + std::to_string(l.row_phases_) +
                " (the invocations take the rows in " + std::to_string(l.row_phases_) + " phases)");
  }
  l.length_ = rows * columns / subgroup_size;
  return l;
}

}  // namespace xmx::device
