#include "val/matrix_mad_operands.hpp"

#include <bit>

#include "common/format.hpp"
#include "grammar/grammar.hpp"

namespace xmx::val {
namespace {

// The FPEncoding value of bfloat16 (SPV_KHR_bfloat16); the installed grammar may predate it.
constexpr uint32_t kBFloat16Encoding = 0;

// Matrix Multiply Accumulate Operands bits (SPEC-NOTES B.2).
enum Bits : uint32_t {
  kASigned = 0x1,
  kBSigned = 0x2,
  kCBFloat16 = 0x4,
  kResultBFloat16 = 0x8,
  kAInt8 = 0x10,
  kBInt8 = 0x20,
  kAInt4 = 0x40,
  kBInt4 = 0x80,
  kATf32 = 0x100,
  kBTf32 = 0x200,
  kAFloat16 = 0x400,
  kBFloat16 = 0x800,
  kABFloat16 = 0x1000,
  kBBFloat16 = 0x2000,
  kAFloat8E4M3 = 0x4000,
  kBFloat8E4M3 = 0x8000,
  kAFloat8E5M2 = 0x10000,
  kBFloat8E5M2 = 0x20000,
  kAFloat4 = 0x40000,
  kBFloat4 = 0x80000,
  kScaleA = 0x100000,
  kScaleB = 0x200000,
};

constexpr uint32_t kAPackedInt = kAInt8 | kAInt4;
constexpr uint32_t kBPackedInt = kBInt8 | kBInt4;
constexpr uint32_t kAPacked =
    kAPackedInt | kAFloat16 | kABFloat16 | kAFloat8E4M3 | kAFloat8E5M2 | kAFloat4;
constexpr uint32_t kBPacked =
    kBPackedInt | kBFloat16 | kBBFloat16 | kBFloat8E4M3 | kBFloat8E5M2 | kBFloat4;
constexpr uint32_t kAInterpretation = kAPacked | kATf32;
constexpr uint32_t kBInterpretation = kBPacked | kBTf32;
constexpr uint32_t kScale = kScaleA | kScaleB;
constexpr uint32_t kKnown = 0x3FFFFF;

std::string BitNames(uint32_t bits) {
  std::string out;
  for (uint32_t rest = bits; rest; rest &= rest - 1) {
    const uint32_t bit = rest & (~rest + 1);
    const grammar::Enumerant* e =
        grammar::FindEnumerant(grammar::OperandKindId::kMatrixMultiplyAccumulateOperands, bit);
    if (!out.empty()) out += "|";
    out += e ? std::string(e->name) : Hex(bit);
  }
  return out;
}

std::optional<device::ElementType> ElementOf(const ir::Type& scalar) {
  using device::ElementType;
  if (scalar.kind == ir::TypeKind::kInt) {
    switch (scalar.width) {
      case 8:
        return ElementType::kI8;
      case 16:
        return ElementType::kI16;
      case 32:
        return ElementType::kI32;
      case 64:
        return ElementType::kI64;
      default:
        return std::nullopt;
    }
  }
  if (scalar.float_encoding) {
    if (scalar.width == 16 && *scalar.float_encoding == kBFloat16Encoding) {
      return ElementType::kBF16;
    }
    return std::nullopt;  // float8 encodings and the like: in no table
  }
  switch (scalar.width) {
    case 16:
      return ElementType::kF16;
    case 32:
      return ElementType::kF32;
    case 64:
      return ElementType::kF64;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<MadOperandType> DecodeMadOperandType(const ir::TypeTable& types, uint32_t type_id) {
  const ir::Type* type = types.GetType(type_id);
  if (!type) return std::nullopt;
  MadOperandType out;
  if (type->kind == ir::TypeKind::kVector) {
    out.count = type->count;
    type = types.GetType(type->element);
    if (!type) return std::nullopt;
  }
  if (type->kind != ir::TypeKind::kInt && type->kind != ir::TypeKind::kFloat) return std::nullopt;
  out.component = type;
  out.element = ElementOf(*type);
  out.name = out.element ? std::string(device::ElementTypeName(*out.element))
                         : std::string(type->kind == ir::TypeKind::kInt ? "i" : "f") +
                               std::to_string(type->width);
  if (out.count != 1) out.name += " x " + std::to_string(out.count);
  return out;
}

std::string DescribeOperandBits(uint32_t operands) {
  if (operands == 0) return "0x0 (None)";
  return Hex(operands) + " (" + BitNames(operands) + ")";
}

std::vector<std::string> CheckOperandBits(uint32_t operands, const MadOperandType& result,
                                          const MadOperandType& a, const MadOperandType& b,
                                          const MadOperandType& c) {
  std::vector<std::string> problems;
  auto add = [&](uint32_t bits, const std::string& why) {
    problems.push_back("Matrix Multiply Accumulate Operands " + BitNames(bits) + " " + why);
  };
  if (uint32_t unknown = operands & ~kKnown) add(unknown, "are not defined bits");
  if (uint32_t scale = operands & kScale) {
    add(scale,
        "apply only to OpSubgroupScaledMatrixMultiplyAccumulateINTEL, which has Scale operands");
  }
  // Signedness is a property of packed integers only (B.2: "integer types only").
  if ((operands & kASigned) && !(operands & kAPackedInt)) {
    add(kASigned,
        "needs a packed integer interpretation of Matrix A (MatrixAPackedInt8INTEL or "
        "MatrixAPackedInt4INTEL)");
  }
  if ((operands & kBSigned) && !(operands & kBPackedInt)) {
    add(kBSigned,
        "needs a packed integer interpretation of Matrix B (MatrixBPackedInt8INTEL or "
        "MatrixBPackedInt4INTEL)");
  }
  if (std::popcount(operands & kAInterpretation) > 1) {
    add(operands & kAInterpretation, "give Matrix A more than one interpretation; at most one");
  }
  if (std::popcount(operands & kBInterpretation) > 1) {
    add(operands & kBInterpretation, "give Matrix B more than one interpretation; at most one");
  }
  // bf16 C/Result data lives in 16-bit integers (B.5: "M x int16 (bf16)").
  auto is_int16 = [](const MadOperandType& t) { return t.is_int() && t.component->width == 16; };
  if ((operands & kCBFloat16) && !is_int16(c)) {
    add(kCBFloat16, "needs Matrix C of 16-bit integer components; found " + c.name);
  }
  if ((operands & kResultBFloat16) && !is_int16(result)) {
    add(kResultBFloat16, "needs a Result Type of 16-bit integer components; found " + result.name);
  }
  // tf32 reads float components; the packed forms read bit fields of integer components.
  if ((operands & kATf32) && !a.is_float()) {
    add(kATf32, "needs Matrix A of float components; found " + a.name);
  }
  if ((operands & kBTf32) && !b.is_float()) {
    add(kBTf32, "needs Matrix B of float components; found " + b.name);
  }
  if ((operands & kAPacked) && !a.is_int()) {
    add(operands & kAPacked, "needs Matrix A of integer components; found " + a.name);
  }
  if ((operands & kBPacked) && !b.is_int()) {
    add(operands & kBPacked, "needs Matrix B of integer components; found " + b.name);
  }
  return problems;
}

}  // namespace xmx::val
