// MatrixMadKernel against the reference model of matrix_mad_reference.hpp on every row of
// SPEC-NOTES B.5 at every M, the paired SG32 form, other consistent shapes, and random inputs.
#include "interp/matrix_mad/matrix_mad.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "matrix_mad_test_support.hpp"

namespace xmx::interp {
namespace {

using namespace mma_reference;

// --- The rows of SPEC-NOTES B.5 ----------------------------------------------------------------

std::vector<Case> B5Rows() {
  std::vector<Case> rows;
  for (uint32_t signs = 0; signs < 4; ++signs) {
    rows.push_back(IntRow(8, 32, 0x30 | signs, 4, false));
    rows.push_back(IntRow(8, 64, 0xC0 | signs, 4, true));
    rows.push_back(IntRow(16, 32, 0x30 | signs, 2, false));
    rows.push_back(IntRow(16, 64, 0xC0 | signs, 2, true));
  }
  using F = Fmt;
  // name, sg, k, mask, a, b, c, result, a_bytes, a float type, c/result float type
  rows.push_back({"SG8 fp16", 8, 16, 0xC00, F::kF16, F::kF16, F::kF32, F::kF32, 4, false, true, 0});
  rows.push_back(
      {"SG8 bf16", 8, 16, 0x3000, F::kBF16, F::kBF16, F::kF32, F::kF32, 4, false, true, 0});
  rows.push_back(
      {"SG16 fp16", 16, 16, 0xC00, F::kF16, F::kF16, F::kF32, F::kF32, 2, false, true, 0});
  rows.push_back(
      {"SG16 bf16", 16, 16, 0x3000, F::kBF16, F::kBF16, F::kF32, F::kF32, 2, false, true, 0});
  rows.push_back(
      {"SG16 fp16 -> fp16", 16, 16, 0xC00, F::kF16, F::kF16, F::kF16, F::kF16, 2, false, true, 0});
  rows.push_back({"SG16 bf16 -> bf16", 16, 16, 0x300C, F::kBF16, F::kBF16, F::kBF16, F::kBF16, 2,
                  false, false, 0});
  rows.push_back(
      {"SG16 tf32", 16, 8, 0x300, F::kTF32, F::kTF32, F::kF32, F::kF32, 4, true, true, 0});
  const std::pair<uint32_t, F> fp8[] = {{0x4000, F::kE4M3}, {0x10000, F::kE5M2}};
  for (const auto& [a_bit, a_fmt] : fp8) {
    for (const auto& [b_bit, b_fmt] : fp8) {
      const std::string name = std::string("SG16 fp8 ") + (a_fmt == F::kE4M3 ? "E4M3" : "E5M2") +
                               " x " + (b_fmt == F::kE4M3 ? "E4M3" : "E5M2");
      const uint32_t mask = a_bit | (b_bit << 1);
      rows.push_back({name, 16, 32, mask, a_fmt, b_fmt, F::kF32, F::kF32, 2, false, true, 0});
      rows.push_back({name + " -> bf16", 16, 32, mask | 0xC, a_fmt, b_fmt, F::kBF16, F::kBF16, 2,
                      false, false, 0});
    }
  }
  rows.push_back(
      {"SG16 fp4", 16, 64, 0xC0000, F::kE2M1, F::kE2M1, F::kF32, F::kF32, 2, false, true, 0});
  rows.push_back({"SG16 fp4 -> bf16", 16, 64, 0xC000C, F::kE2M1, F::kE2M1, F::kBF16, F::kBF16, 2,
                  false, false, 0});
  return rows;
}

// The SG16 rows in the paired subgroup-size-32 form (DECISIONS 10).
std::vector<Case> PairedRows() {
  std::vector<Case> rows;
  for (Case t : B5Rows()) {
    if (t.sg != 16) continue;
    t.sg = 32;
    t.name = "SG32 paired " + t.name.substr(5);
    rows.push_back(t);
  }
  return rows;
}

std::vector<uint32_t> MsFor(const Case& t) {
  return t.sg == 32 ? std::vector<uint32_t>{2, 4, 8} : std::vector<uint32_t>{1, 2, 4, 8};
}

void CheckRows(const std::vector<Case>& rows, uint32_t repeats) {
  uint32_t seed = 1;
  for (Case t : rows) {
    for (uint32_t m : MsFor(t)) {
      t.m = m;
      for (uint32_t rep = 0; rep < repeats; ++rep) {
        std::mt19937 rng(++seed);
        const Matrices x = SmallValued(t, rng);
        for (MmaIsa isa : kIsas) {
          for (MmaFloatModel model : kModels) {
            if (IsInt(t.a) && model == MmaFloatModel::kOrdered) continue;
            CheckCase(t, x, model, isa, seed);
          }
        }
      }
    }
  }
}

TEST(MatrixMadRows, EveryB5RowAndM) { CheckRows(B5Rows(), 3); }

TEST(MatrixMadRows, PairedSubgroup32) { CheckRows(PairedRows(), 3); }

// Shapes B.3/B.4 define beyond the B.5 table: M not a power of two, subgroup size 8 with a
// 32-bit tf32 A, 32-bit components holding four int8 at subgroup size 16, int8 A against int4 B,
// fp16 A against bf16 B, fp32 elements read as they are, a subgroup of 4 (the extension's
// examples), and row phases with packed elements.
TEST(MatrixMadRows, OtherConsistentShapes) {
  using F = Fmt;
  std::vector<Case> rows = {
      {"SG16 int8 M3", 16, 32, 0x33, F::kS8, F::kS8, F::kU8, F::kU8, 2, false, false, 3},
      {"SG16 bf16 M5", 16, 16, 0x3000, F::kBF16, F::kBF16, F::kF32, F::kF32, 2, false, true, 5},
      {"SG16 bf16 -> bf16 M7", 16, 16, 0x300C, F::kBF16, F::kBF16, F::kBF16, F::kBF16, 2, false,
       false, 7},
      {"SG16 fp16 M6", 16, 16, 0xC00, F::kF16, F::kF16, F::kF32, F::kF32, 2, false, true, 6},
      {"SG16 tf32 M3", 16, 8, 0x300, F::kTF32, F::kTF32, F::kF32, F::kF32, 4, true, true, 3},
      {"SG16 tf32 M5", 16, 8, 0x300, F::kTF32, F::kTF32, F::kF32, F::kF32, 4, true, true, 5},
      {"SG32 paired int8 M6", 32, 32, 0x31, F::kS8, F::kU8, F::kU8, F::kU8, 2, false, false, 6},
      {"SG32 paired tf32 M6", 32, 8, 0x300, F::kTF32, F::kTF32, F::kF32, F::kF32, 4, true, true, 6},
      {"SG8 tf32", 8, 8, 0x300, F::kTF32, F::kTF32, F::kF32, F::kF32, 4, true, true, 8},
      {"SG16 int8 in int32", 16, 64, 0x33, F::kS8, F::kS8, F::kU8, F::kU8, 4, false, false, 8},
      {"SG16 int8 x int4", 16, 32, 0x93, F::kS8, F::kS4, F::kU8, F::kU8, 2, false, false, 4},
      {"SG16 fp16 x bf16", 16, 16, 0x2400, F::kF16, F::kBF16, F::kF32, F::kF32, 2, false, true, 8},
      {"SG16 fp32 as typed", 16, 16, 0, F::kF32, F::kF32, F::kF32, F::kF32, 4, true, true, 4},
      {"SG16 fp16 as typed", 16, 16, 0, F::kF16, F::kF32, F::kF32, F::kF32, 2, true, true, 4},
      {"SG4 int8", 4, 8, 0x30, F::kU8, F::kU8, F::kU8, F::kU8, 2, false, false, 2},
      {"SG16 int8 phases", 16, 16, 0x33, F::kS8, F::kS8, F::kU8, F::kU8, 2, false, false, 5},
      {"SG16 fp8 phases", 16, 16, 0xC000, F::kE4M3, F::kE4M3, F::kF32, F::kF32, 2, false, true, 3},
      {"SG16 M16 bf16", 16, 16, 0x3000, F::kBF16, F::kBF16, F::kF32, F::kF32, 2, false, true, 16},
      {"SG16 M16 int4", 16, 64, 0xC3, F::kS4, F::kS4, F::kU8, F::kU8, 2, false, false, 16},
      {"SG16 M12 int8", 16, 32, 0x30, F::kU8, F::kU8, F::kU8, F::kU8, 2, false, false, 12},
  };
  uint32_t seed = 100;
  for (const Case& t : rows) {
    for (int rep = 0; rep < 3; ++rep) {
      std::mt19937 rng(++seed);
      const Matrices x = SmallValued(t, rng);
      for (MmaIsa isa : kIsas) {
        for (MmaFloatModel model : kModels) {
          if (IsInt(t.a) && model == MmaFloatModel::kOrdered) continue;
          CheckCase(t, x, model, isa, seed);
        }
      }
    }
  }
}

// Random integers over their whole ranges (fixed seeds), C over all of int32: signedness and
// wrap-around in bulk.
TEST(MatrixMadIntegers, RandomInputs) {
  uint32_t seed = 500;
  for (Case t : B5Rows()) {
    if (!IsInt(t.a)) continue;
    t.m = 8;
    for (int rep = 0; rep < 4; ++rep) {
      std::mt19937 rng(++seed);
      const Matrices x = SmallValued(t, rng);  // integer inputs are random bits
      for (MmaIsa isa : kIsas) CheckCase(t, x, MmaFloatModel::kExact, isa, seed);
    }
  }
}

// Random patterns over the float formats' whole ranges: products far apart (the exact slow
// path), subnormals, overflow, rounding of the exact sum to fp32, fp16 and bf16, against the
// big-integer reference; the ordered model against fmaf steps.
TEST(MatrixMadFloats, WideRandomInputs) {
  uint32_t seed = 900;
  std::vector<Case> rows;
  for (const std::vector<Case>& group : {B5Rows(), PairedRows()}) {
    for (const Case& t : group) {
      if (!IsInt(t.a)) rows.push_back(t);
    }
  }
  using F = Fmt;
  rows.push_back(
      {"SG16 fp32 as typed", 16, 16, 0, F::kF32, F::kF32, F::kF32, F::kF32, 4, true, true, 0});
  rows.push_back(
      {"SG16 fp16 x fp32", 16, 16, 0, F::kF16, F::kF32, F::kF16, F::kF32, 2, true, true, 0});
  rows.push_back({"SG8 tf32 x fp32 -> fp16", 8, 8, 0x100, F::kTF32, F::kF32, F::kF32, F::kF16, 4,
                  true, true, 0});
  for (Case t : rows) {
    t.m = 8;
    for (int rep = 0; rep < 3; ++rep) {
      std::mt19937 rng(++seed);
      const Matrices x = WideRandom(t, rng, /*specials=*/rep == 2);
      for (MmaIsa isa : kIsas) {
        for (MmaFloatModel model : kModels) CheckCase(t, x, model, isa, seed);
      }
    }
  }
}

}  // namespace
}  // namespace xmx::interp
