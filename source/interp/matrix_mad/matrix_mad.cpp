// MatrixMadKernel::Prepare: reads the instruction's types and Operands mask into a Plan, or says
// why it cannot. The checks go operand by operand (A, B, C, Result) and then the dimensions, so a
// message names the first operand a programmer would have to change.
#include "interp/matrix_mad/matrix_mad.hpp"

#include <optional>
#include <string>

#include "common/format.hpp"
#include "interp/matrix_mad/matrix_mad_internal.hpp"

namespace xmx::interp {
namespace {

using matrix_mad_detail::Accumulator;
using matrix_mad_detail::Element;
using matrix_mad_detail::kMaxColumns;
using matrix_mad_detail::kMaxK;
using matrix_mad_detail::kMaxKTimesRows;
using matrix_mad_detail::kMaxRows;
using matrix_mad_detail::Plan;

// MatrixASignedComponentsINTEL; B's is the next bit up, like every interpretation bit.
constexpr uint32_t kASigned = 0x1;
constexpr uint32_t kCBFloat16 = 0x4, kResultBFloat16 = 0x8;
constexpr uint32_t kScaleBits = 0x100000 | 0x200000;  // the scaled instruction's (L-SC draft)
constexpr uint32_t kKnownBits = 0xFFFFF;

// The interpretation bits of A; B's bit is always the next one up.
struct Interpretation {
  uint32_t a_bit;
  const char* what;       // names the data, for messages
  Element element;        // the unsigned form for integers
  bool float_components;  // tf32 reads float components, every other bit integer ones
};
constexpr Interpretation kInterpretations[] = {
    {0x10, "PackedInt8", Element::kUint8, false},
    {0x40, "PackedInt4", Element::kUint4, false},
    {0x100, "TF32", Element::kTf32, true},
    {0x400, "PackedFloat16", Element::kHalf, false},
    {0x1000, "PackedBFloat16", Element::kBFloat16, false},
    {0x4000, "PackedFloat8E4M3", Element::kFloat8E4M3, false},
    {0x10000, "PackedFloat8E5M2", Element::kFloat8E5M2, false},
    {0x40000, "PackedFloat4E2M1", Element::kFloat4E2M1, false},
};

uint32_t ElementBits(Element e) {
  switch (e) {
    case Element::kUint4:
    case Element::kInt4:
    case Element::kFloat4E2M1:
      return 4;
    case Element::kUint8:
    case Element::kInt8:
    case Element::kFloat8E4M3:
    case Element::kFloat8E5M2:
      return 8;
    case Element::kHalf:
    case Element::kBFloat16:
      return 16;
    case Element::kTf32:
    case Element::kFloat:
      return 32;
  }
  return 0;
}

// Significand bits, implicit bit included.
int ElementPrecision(Element e) {
  switch (e) {
    case Element::kFloat4E2M1:
      return 2;
    case Element::kFloat8E5M2:
      return 3;
    case Element::kFloat8E4M3:
      return 4;
    case Element::kBFloat16:
      return 8;
    case Element::kHalf:
    case Element::kTf32:
      return 11;
    case Element::kFloat:
      return 24;
    default:
      return 0;  // integers
  }
}

const char* ElementName(Element e) {
  switch (e) {
    case Element::kUint4:
      return "uint4";
    case Element::kInt4:
      return "int4";
    case Element::kUint8:
      return "uint8";
    case Element::kInt8:
      return "int8";
    case Element::kFloat4E2M1:
      return "fp4 E2M1";
    case Element::kFloat8E4M3:
      return "fp8 E4M3";
    case Element::kFloat8E5M2:
      return "fp8 E5M2";
    case Element::kHalf:
      return "fp16";
    case Element::kBFloat16:
      return "bf16";
    case Element::kTf32:
      return "tf32";
    case Element::kFloat:
      return "fp32";
  }
  return "?";
}

std::string ComponentName(const ScalarType& s) {
  const std::string bits = std::to_string(s.bytes * 8) + "-bit ";
  switch (s.kind) {
    case ScalarKind::kInt:
      return bits + "integer";
    case ScalarKind::kFloat:
      return bits + "float";
    case ScalarKind::kBool:
      return "bool";
    case ScalarKind::kPointer:
      return "pointer";
  }
  return "?";
}

// Builds the plan, remembering the first failure.
class Planner {
 public:
  Planner(const MatrixMadShape& shape, MmaFloatModel model) : shape_(shape) { plan_.model = model; }

  bool Build();
  const Plan& plan() const { return plan_; }
  const std::string& error() const { return error_; }

 private:
  bool Fail(std::string message) {
    error_ = std::move(message);
    return false;
  }
  std::optional<Element> ReadElement(char operand, const ValueType& type, uint32_t shift);
  std::optional<Accumulator> ReadAccumulator(const char* operand, const ValueType& type,
                                             uint32_t bf16_bit, const char* bf16_name,
                                             bool integer_data);
  bool MapA();
  bool MapB();

  const MatrixMadShape& shape_;
  Plan plan_;
  std::string error_;
};

// The element A (shift 0) or B (shift 1) holds, from its bits and its component type.
std::optional<Element> Planner::ReadElement(char operand, const ValueType& type, uint32_t shift) {
  const std::string name = std::string("Matrix ") + operand;
  const std::string bit_prefix = std::string("Matrix") + operand;
  const ScalarType& s = type.scalar;
  if (s.kind != ScalarKind::kInt && s.kind != ScalarKind::kFloat) {
    Fail(name + ": components must be integers or floats, found " + ComponentName(s));
    return std::nullopt;
  }
  if (s.bytes != 1 && s.bytes != 2 && s.bytes != 4) {
    Fail(name + ": " + ComponentName(s) + " components are not supported (8, 16 or 32 bits)");
    return std::nullopt;
  }
  const Interpretation* chosen = nullptr;
  for (const Interpretation& i : kInterpretations) {
    if ((shape_.operands & (i.a_bit << shift)) == 0) continue;
    if (chosen != nullptr) {
      Fail("Matrix Multiply Accumulate Operands: both " + bit_prefix + chosen->what + "INTEL and " +
           bit_prefix + i.what + "INTEL are set; " + name + " takes at most one interpretation");
      return std::nullopt;
    }
    chosen = &i;
  }
  const bool is_signed = (shape_.operands & (kASigned << shift)) != 0;
  Element element;
  if (chosen == nullptr) {
    if (s.kind == ScalarKind::kInt) {
      Fail(name + ": integer components need an interpretation bit in the Matrix Multiply " +
           "Accumulate Operands (" + bit_prefix + "PackedInt8INTEL, " + bit_prefix +
           "PackedInt4INTEL, " + bit_prefix + "PackedFloat16INTEL, " + bit_prefix +
           "PackedBFloat16INTEL, ...)");
      return std::nullopt;
    }
    if (s.bytes == 1) {
      Fail(name + ": 8-bit float components have no defined format");
      return std::nullopt;
    }
    element = s.bytes == 2 ? Element::kHalf : Element::kFloat;
  } else {
    const std::string bit_name = bit_prefix + chosen->what + "INTEL";
    if (chosen->float_components && (s.kind != ScalarKind::kFloat || s.bytes != 4)) {
      Fail(name + ": " + bit_name + " needs 32-bit float components, found " + ComponentName(s));
      return std::nullopt;
    }
    if (!chosen->float_components && s.kind != ScalarKind::kInt) {
      Fail(name + ": " + bit_name + " needs integer components, found " + ComponentName(s));
      return std::nullopt;
    }
    element = chosen->element;
    if (ElementBits(element) > s.bytes * 8u) {
      Fail(name + ": " + ComponentName(s) + " components cannot hold " +
           std::to_string(ElementBits(element)) + "-bit " + ElementName(element) + " elements");
      return std::nullopt;
    }
  }
  if (is_signed) {
    if (element == Element::kUint8) {
      element = Element::kInt8;
    } else if (element == Element::kUint4) {
      element = Element::kInt4;
    } else {
      Fail("Matrix Multiply Accumulate Operands: " + bit_prefix +
           "SignedComponentsINTEL applies to integer data, but " + name + " holds " +
           ElementName(element));
      return std::nullopt;
    }
  }
  return element;
}

// The format of C or Result, given whether A and B hold integers.
std::optional<Accumulator> Planner::ReadAccumulator(const char* operand, const ValueType& type,
                                                    uint32_t bf16_bit, const char* bf16_name,
                                                    bool integer_data) {
  const ScalarType& s = type.scalar;
  const std::string found = ", found " + ComponentName(s);
  if (integer_data) {
    if ((shape_.operands & bf16_bit) != 0) {
      Fail(std::string("Matrix Multiply Accumulate Operands: ") + bf16_name +
           " applies to floating-point data, but A and B hold integers");
      return std::nullopt;
    }
    if (s.kind != ScalarKind::kInt || s.bytes != 4) {
      Fail(std::string(operand) + ": integer data accumulates into 32-bit integers" + found);
      return std::nullopt;
    }
    return Accumulator::kInt32;
  }
  if ((shape_.operands & bf16_bit) != 0) {
    if (s.kind != ScalarKind::kInt || s.bytes != 2) {
      Fail(std::string(operand) + ": " + bf16_name +
           " needs 16-bit integer components (bf16 bit patterns)" + found);
      return std::nullopt;
    }
    return Accumulator::kBFloat16;
  }
  if (s.kind == ScalarKind::kFloat && s.bytes == 4) return Accumulator::kFloat;
  if (s.kind == ScalarKind::kFloat && s.bytes == 2) return Accumulator::kHalf;
  Fail(std::string(operand) + ": floating-point data accumulates into 32-bit or 16-bit floats, " +
       "or bf16 in 16-bit integers with " + bf16_name + found);
  return std::nullopt;
}

// A's columns over the lanes of one half (SPEC-NOTES B.4, the three cases of the extension).
bool Planner::MapA() {
  Plan& p = plan_;
  const uint32_t component_bits = shape_.a.scalar.bytes * 8u;
  p.a_component_bytes = shape_.a.scalar.bytes;
  p.a_element_bits = ElementBits(p.a_element);
  p.a_fields = component_bits / p.a_element_bits;
  p.a_lane_bytes = shape_.a.lane_bytes();
  const uint32_t c = p.a_fields, k = p.k;
  const std::string holds = "a " + ComponentName(shape_.a.scalar) +
                            " component of Matrix A holds " + std::to_string(c) + " " +
                            ElementName(p.a_element) + " element" + (c == 1 ? "" : "s");
  if (p.columns * c < k) {
    return Fail("K Dim: K = " + std::to_string(k) + " columns of Matrix A do not fit in " +
                std::to_string(p.columns) + " invocations: " + holds +
                " (K = " + std::to_string(p.columns * c) + ")");
  }
  if (k % c != 0 || p.columns % (k / c) != 0) {
    return Fail("K Dim: K = " + std::to_string(k) + " does not spread evenly over " +
                std::to_string(p.columns) + " invocations when " + holds);
  }
  p.a_lanes_per_phase = k / c;
  p.a_phases = p.columns / p.a_lanes_per_phase;
  p.a_components = (p.half_rows + p.a_phases - 1) / p.a_phases;
  if (shape_.a.components != p.a_components) {
    const std::string g = std::to_string(p.a_phases);
    std::string rule;
    if (p.halves == 1) {
      rule = p.a_phases == 1 ? "one per row" : "ceil(M/" + g + ") for " + g + " row phases";
      rule += ", M = " + std::to_string(p.m);
    } else {
      rule = p.a_phases == 1 ? "one per row of its half"
                             : "ceil((M/2)/" + g + ") for " + g + " row phases in each half";
      rule += ", M/2 = " + std::to_string(p.half_rows);
    }
    return Fail("Matrix A: expected " + std::to_string(p.a_components) + " components (" + rule +
                "), found " + std::to_string(shape_.a.components));
  }
  return true;
}

// B's rows over the components of each lane.
bool Planner::MapB() {
  Plan& p = plan_;
  p.b_element_bits = ElementBits(p.b_element);
  p.b_rows_per_word = p.b_element_bits <= 16 ? 32 / p.b_element_bits : 1;
  p.b_lane_bytes = shape_.b.lane_bytes();
  if (shape_.b.scalar.bytes != 4) {
    const std::string rows =
        p.b_rows_per_word == 1
            ? std::string("one ") + ElementName(p.b_element) + " row"
            : std::to_string(p.b_rows_per_word) + " packed " + ElementName(p.b_element) + " rows";
    return Fail("Matrix B: components must be 32 bits (" + rows + " each), found " +
                ComponentName(shape_.b.scalar));
  }
  if (p.k % p.b_rows_per_word != 0) {
    return Fail("K Dim: K = " + std::to_string(p.k) + " is not a whole number of Matrix B " +
                "components (" + std::to_string(p.b_rows_per_word) + " " +
                ElementName(p.b_element) + " rows each)");
  }
  const uint32_t words = p.k / p.b_rows_per_word;
  if (p.halves == 2 && words % 2 != 0) {
    return Fail("K Dim: K = " + std::to_string(p.k) + " gives an odd number of packed Matrix B " +
                "rows, which the paired subgroup-size-32 form cannot split between its halves");
  }
  p.b_components = words / p.halves;
  if (shape_.b.components != p.b_components) {
    return Fail("Matrix B: expected " + std::to_string(p.b_components) + " components (K = " +
                std::to_string(p.k) + " rows, " + std::to_string(p.b_rows_per_word) +
                " per component" + (p.halves == 2 ? ", split between the two halves" : "") +
                "), found " + std::to_string(shape_.b.components));
  }
  return true;
}

bool Planner::Build() {
  Plan& p = plan_;
  const uint32_t n = shape_.subgroup_size;
  if (n == 0 || (n > kMaxColumns && n != 32)) {
    return Fail("subgroup size " + std::to_string(n) + ": the matrix multiply-accumulate takes " +
                "1 to 16 invocations, or 32 in the paired form");
  }
  p.subgroup_size = n;
  p.halves = n == 32 ? 2 : 1;
  p.columns = n / p.halves;
  p.k = shape_.k;
  if ((shape_.operands & kScaleBits) != 0) {
    return Fail("Matrix Multiply Accumulate Operands: " + Hex(shape_.operands & kScaleBits) +
                " (ScaleA/BFloat8E8M0INTEL) belongs to the scaled multiply-accumulate");
  }
  if ((shape_.operands & ~kKnownBits) != 0) {
    return Fail("Matrix Multiply Accumulate Operands: bits " + Hex(shape_.operands & ~kKnownBits) +
                " are not defined");
  }

  const std::optional<Element> a = ReadElement('A', shape_.a, 0);
  if (!a) return false;
  const std::optional<Element> b = ReadElement('B', shape_.b, 1);
  if (!b) return false;
  p.a_element = *a;
  p.b_element = *b;
  const bool integer_data = matrix_mad_detail::IsSmallInteger(*a);
  if (integer_data != matrix_mad_detail::IsSmallInteger(*b)) {
    return Fail(std::string("Matrix B: holds ") + ElementName(*b) + " but Matrix A holds " +
                ElementName(*a) + "; both must be integers or both floating-point");
  }
  const std::optional<Accumulator> c =
      ReadAccumulator("Matrix C", shape_.c, kCBFloat16, "MatrixCBFloat16INTEL", integer_data);
  if (!c) return false;
  const std::optional<Accumulator> result = ReadAccumulator(
      "Result Type", shape_.result, kResultBFloat16, "MatrixResultBFloat16INTEL", integer_data);
  if (!result) return false;
  p.c_format = *c;
  p.result_format = *result;

  // Rows: the Result's components, per half.
  p.half_rows = shape_.result.components;
  if (p.half_rows == 0 || p.half_rows > kMaxRows) {
    return Fail("Result Type: " + std::to_string(p.half_rows) + " components; M must be 1 to " +
                std::to_string(kMaxRows) + (p.halves == 2 ? " per half" : ""));
  }
  p.m = p.half_rows * p.halves;
  if (shape_.c.components != p.half_rows) {
    return Fail("Matrix C: expected " + std::to_string(p.half_rows) +
                " components, as many as the Result Type, found " +
                std::to_string(shape_.c.components));
  }
  p.c_lane_bytes = shape_.c.lane_bytes();
  p.result_lane_bytes = shape_.result.lane_bytes();
  p.padded_rows = 1;
  while (p.padded_rows < p.half_rows) p.padded_rows *= 2;

  if (p.k == 0) return Fail("K Dim: K must be at least 1");
  if (!MapA() || !MapB()) return false;
  p.padded_k = p.k + (p.k & 1);
  if (p.k > kMaxK || p.padded_k * p.padded_rows > kMaxKTimesRows) {
    return Fail("K Dim: K = " + std::to_string(p.k) + " with " + std::to_string(p.half_rows) +
                " rows is beyond this interpreter's limits (K <= " + std::to_string(kMaxK) +
                ", K x rows <= " + std::to_string(kMaxKTimesRows) + ")");
  }

  p.a_precision = ElementPrecision(*a);
  p.b_precision = ElementPrecision(*b);
  p.c_precision = *c == Accumulator::kFloat ? 24 : *c == Accumulator::kHalf ? 11 : 8;
  p.terms_log2 = 0;
  while ((1u << p.terms_log2) < p.k + 1) ++p.terms_log2;
  return true;
}

}  // namespace

std::optional<MatrixMadKernel> MatrixMadKernel::Prepare(const MatrixMadShape& shape,
                                                        MmaFloatModel model, std::string* why_not,
                                                        MmaIsa isa) {
  Planner planner(shape, model);
  if (!planner.Build()) {
    if (why_not != nullptr) *why_not = planner.error();
    return std::nullopt;
  }
  MatrixMadKernel kernel;
  kernel.plan_ = planner.plan();
  const MmaIsa best = matrix_mad_detail::BestIsa();
  kernel.isa_ = isa == MmaIsa::kBest || isa > best ? best : isa;
  matrix_mad_detail::SelectKernels(&kernel.plan_, kernel.isa_);
  return kernel;
}

}  // namespace xmx::interp
