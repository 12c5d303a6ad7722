// The SYCL-style matrix queries (sycl_ext_oneapi_matrix, SPEC-NOTES E.2) over the same
// matrix_mad rows the validator uses: "general" (every combination), "default" (largest shape
// for given element types) and "validation" (valid or not, with the nearest valid shapes). The
// shapes are those of one OpSubgroupMatrixMultiplyAccumulateINTEL (M x N x K with N the
// subgroup size, or half of it in the paired form), not the larger joint_matrix tiles of E.3
// that a compiler builds out of several of them.
#include <algorithm>

#include "device/match_support.hpp"
#include "xmx/device.hpp"

namespace xmx::device {
namespace {

// Operand mask bits of B.2.
constexpr uint32_t kASigned = 0x1, kBSigned = 0x2, kCBFloat16 = 0x4, kResultBFloat16 = 0x8;

struct PackedBits {
  uint32_t bit;
  ElementType type;
};

// A packed interpretation of one operand (A bits; the B bit is the next one up).
constexpr PackedBits kAInterpretations[] = {
    {0x100, ElementType::kTF32},     {0x400, ElementType::kF16},
    {0x1000, ElementType::kBF16},    {0x4000, ElementType::kF8E4M3},
    {0x10000, ElementType::kF8E5M2}, {0x40000, ElementType::kF4E2M1},
};

ElementType Interpret(uint32_t operands, bool matrix_b, ElementType component) {
  const uint32_t shift = matrix_b ? 1 : 0;
  const bool is_signed = (operands & (matrix_b ? kBSigned : kASigned)) != 0;
  if (operands & (0x10u << shift)) return is_signed ? ElementType::kI8 : ElementType::kU8;
  if (operands & (0x40u << shift)) return is_signed ? ElementType::kI4 : ElementType::kU4;
  for (const PackedBits& p : kAInterpretations) {
    if (operands & (p.bit << shift)) return p.type;
  }
  return component;
}

std::string ShapeText(const MatrixShape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

std::vector<MatrixCombination> CombinationsFor(const DeviceProfile& profile,
                                               const MatrixTypes& types,
                                               std::optional<uint32_t> subgroup_size) {
  std::vector<MatrixCombination> result;
  for (MatrixCombination& c : MatrixCombinations(profile)) {
    if (c.types == types && (!subgroup_size || c.subgroup_size == *subgroup_size)) {
      result.push_back(std::move(c));
    }
  }
  return result;
}

}  // namespace

MatrixTypes InterpretOperands(const MatrixMadRow& row, uint32_t operands) {
  MatrixTypes types;
  types.a = Interpret(operands, false, row.a.type);
  types.b = Interpret(operands, true, row.b.type);
  types.c = (operands & kCBFloat16) ? ElementType::kBF16 : row.c.type;
  types.d = (operands & kResultBFloat16) ? ElementType::kBF16 : row.result.type;
  return types;
}

std::string ToString(const MatrixTypes& types) {
  return "A " + std::string(ElementTypeName(types.a)) + ", B " +
         std::string(ElementTypeName(types.b)) + ", C " + std::string(ElementTypeName(types.c)) +
         ", D " + std::string(ElementTypeName(types.d));
}

std::vector<MatrixCombination> MatrixCombinations(const DeviceProfile& profile) {
  std::vector<MatrixCombination> result;
  if (profile.matrix_mad.kind != TableKind::kTable) return result;
  for (const MatrixMadRow& row : profile.matrix_mad.rows) {
    for (uint32_t operands : row.operands) {
      result.push_back({InterpretOperands(row, operands), row.m, row.n(), row.k, row.subgroup_size,
                        operands, &row});
    }
  }
  return result;
}

std::optional<MatrixShape> DefaultMatrixShape(const DeviceProfile& profile,
                                              const MatrixTypes& types,
                                              std::optional<uint32_t> subgroup_size) {
  std::vector<std::pair<MatrixShape, uint32_t>> candidates;
  for (const MatrixCombination& c : CombinationsFor(profile, types, subgroup_size)) {
    candidates.push_back({{*std::max_element(c.m.begin(), c.m.end()), c.n, c.k}, c.subgroup_size});
  }
  return internal::LargestShape(candidates);
}

MatrixShapeCheck ValidateMatrixShape(const DeviceProfile& profile, const MatrixTypes& types,
                                     const MatrixShape& shape,
                                     std::optional<uint32_t> subgroup_size) {
  MatrixShapeCheck check;
  if (profile.matrix_mad.kind != TableKind::kTable) {
    const bool no_table = profile.matrix_mad.kind == TableKind::kNoTable;
    check.status = no_table ? MatchStatus::kNoTable : MatchStatus::kNotSupported;
    check.message = "device " + profile.name +
                    (no_table ? " has no matrix table; only the SPIR-V rules apply"
                              : " has no matrix multiply-accumulate");
    return check;
  }
  const std::vector<MatrixCombination> combinations =
      CombinationsFor(profile, types, subgroup_size);
  std::vector<MatrixShape> valid;
  for (const MatrixCombination& c : combinations) {
    for (uint32_t m : c.m) {
      const MatrixShape candidate{m, c.n, c.k};
      if (candidate == shape) {
        check.status = MatchStatus::kMatched;
        check.combination = c;
        return check;
      }
      if (std::find(valid.begin(), valid.end(), candidate) == valid.end()) {
        valid.push_back(candidate);
      }
    }
  }
  check.status = MatchStatus::kMismatch;
  const std::string what = "M " + std::to_string(shape.m) + ", N " + std::to_string(shape.n) +
                           ", K " + std::to_string(shape.k) + " with " + ToString(types);
  if (valid.empty()) {
    check.message = what + " is not supported on device " + profile.name +
                    ": no matrix combination has these element types";
    return check;
  }
  valid = internal::NearestShapes(std::move(valid), shape);
  check.nearest = valid;
  std::vector<std::string> texts;
  for (const MatrixShape& s : valid) texts.push_back(ShapeText(s));
  check.message = what + " is not supported on device " + profile.name +
                  "; nearest (M x N x K): " + Join(texts);
  return check;
}

}  // namespace xmx::device
