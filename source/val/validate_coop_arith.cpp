// OpCooperativeMatrixMulAddKHR, arithmetic and conversions on cooperative matrices (rules
// coop.muladd.*, coop.operands.*, coop.arith.*, coop.convert.*). Upstream SPIRV-Tools checks the
// Uses, scopes and M/N/K of the multiply-add (validate_arithmetics.cpp,
// ValidateCooperativeMatrixMulAddKHR), the operand types of arithmetic and the shapes in
// conversions (CooperativeMatrixShapesMatch), but not the Cooperative Matrix Operands bits at
// all (COOPERATIVE-MATRIX.md A5); coop.operands.* are ours. The INTEL bits' capabilities are the
// grammar's, checked for every enumerant by decl.capability.
#include <string>

#include "common/rule_ids.hpp"
#include "grammar/grammar.hpp"
#include "val/validate_coop.hpp"

namespace xmx::val::coop {
namespace {

constexpr const char* kMulAdd = "OpCooperativeMatrixMulAddKHR";

// Cooperative Matrix Operands bits (SPV_KHR_cooperative_matrix, SPV_INTEL_joint_matrix).
enum : uint32_t {
  kASigned = 0x1,
  kBSigned = 0x2,
  kCSigned = 0x4,
  kResultSigned = 0x8,
  kSaturating = 0x10,
  kTf32 = 0x20,
  kABBfloat16 = 0x40,
  kCBfloat16 = 0x80,
  kResultBfloat16 = 0x100,
};

bool IsFloat32(const ir::Type* type) {
  return IsFloatScalar(type) && type->width == 32 && !type->float_encoding;
}
bool IsInt16(const ir::Type* type) { return IsIntScalar(type) && type->width == 16; }

enum class Kind { kFloat, kInt, kAny };

// What an arithmetic opcode does with cooperative matrices: the component kind it needs, and
// whether it is defined on them at all (upstream: FRem, FMod, SRem, SMod, UMod are not).
struct ArithmeticOp {
  Kind kind;
  bool on_matrices;
};

std::optional<ArithmeticOp> ArithmeticOf(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpFNegate:
    case spv::Op::OpFAdd:
    case spv::Op::OpFSub:
    case spv::Op::OpFMul:
    case spv::Op::OpFDiv:
      return ArithmeticOp{Kind::kFloat, true};
    case spv::Op::OpSNegate:
    case spv::Op::OpIAdd:
    case spv::Op::OpISub:
    case spv::Op::OpIMul:
    case spv::Op::OpSDiv:
    case spv::Op::OpUDiv:
      return ArithmeticOp{Kind::kInt, true};
    case spv::Op::OpFRem:
    case spv::Op::OpFMod:
      return ArithmeticOp{Kind::kFloat, false};
    case spv::Op::OpSRem:
    case spv::Op::OpSMod:
    case spv::Op::OpUMod:
      return ArithmeticOp{Kind::kInt, false};
    default:
      return std::nullopt;
  }
}

// Component kinds of a conversion: operand, result.
std::optional<std::pair<Kind, Kind>> ConversionOf(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpConvertFToU:
    case spv::Op::OpConvertFToS:
      return std::make_pair(Kind::kFloat, Kind::kInt);
    case spv::Op::OpConvertSToF:
    case spv::Op::OpConvertUToF:
      return std::make_pair(Kind::kInt, Kind::kFloat);
    case spv::Op::OpUConvert:
    case spv::Op::OpSConvert:
    case spv::Op::OpSatConvertSToU:
    case spv::Op::OpSatConvertUToS:
      return std::make_pair(Kind::kInt, Kind::kInt);
    case spv::Op::OpFConvert:
      return std::make_pair(Kind::kFloat, Kind::kFloat);
    default:
      return std::nullopt;
  }
}

bool OfKind(const ir::Type* component, Kind kind) {
  switch (kind) {
    case Kind::kFloat:
      return IsFloatScalar(component);
    case Kind::kInt:
      return IsIntScalar(component);
    case Kind::kAny:
      return true;
  }
  return false;
}

const char* KindName(Kind kind) { return kind == Kind::kFloat ? "float" : "integer"; }

std::string OpName(spv::Op opcode) {
  const grammar::Instruction* desc = grammar::FindInstruction(static_cast<uint32_t>(opcode));
  return desc ? std::string(desc->name) : "opcode " + std::to_string(static_cast<uint32_t>(opcode));
}

class ArithmeticChecker {
 public:
  explicit ArithmeticChecker(const CoopValues& values)
      : values_(values), context_(values.context()) {}

  void CheckMulAdd(const ir::Instruction& inst) {
    if (inst.num_operands() < 3) return;
    static const char* const kNames[] = {"A", "B", "C"};
    static const uint32_t kUses[] = {kUseA, kUseB, kUseAccumulator};
    std::optional<MatrixType> m[4];  // A, B, C, Result
    bool all = true;
    for (size_t i = 0; i < 3; ++i) {
      m[i] = values_.Matrix(values_.TypeOf(inst.word(i)));
      if (!m[i]) {
        all = false;
        context_.Error(inst, rules::kCoopMuladdType,
                       std::string(kNames[i]) + " " + values_.Operand(inst.word(i)) + " of " +
                           kMulAdd + " must be a cooperative matrix");
      }
    }
    m[3] = values_.Matrix(inst.result_type_id());
    if (!m[3]) {
      all = false;
      context_.Error(inst, rules::kCoopMuladdType,
                     "Result Type " + context_.IdName(inst.result_type_id()) + " of " + kMulAdd +
                         " must be an OpTypeCooperativeMatrixKHR");
    }
    if (!all) return;

    // Upstream checks the Uses of A, B and C; the KHR text also makes the Result an
    // accumulator.
    for (size_t i = 0; i < 4; ++i) {
      const uint32_t want = i < 3 ? kUses[i] : kUseAccumulator;
      if (m[i]->use && *m[i]->use != want) {
        const std::string what = i < 3
                                     ? std::string(kNames[i]) + " " + context_.IdName(inst.word(i))
                                     : "Result Type " + context_.IdName(inst.result_type_id());
        context_.Error(inst, rules::kCoopMuladdUse,
                       what + " of " + kMulAdd + " has Use " + UseName(*m[i]->use) +
                           "; it must be " + UseName(want));
      }
    }
    static const char* const kWhat[] = {"A", "B", "C", "Result Type"};
    auto scope_name = [](uint32_t s) {
      return std::string(s == kScopeWorkgroup ? "Workgroup" : "Subgroup") + " (" +
             std::to_string(s) + ")";
    };
    size_t first = 4;  // the first matrix whose scope is known
    for (size_t i = 0; i < 4; ++i) {
      if (!m[i]->scope) continue;
      if (first == 4) {
        first = i;
      } else if (*m[i]->scope != *m[first]->scope) {
        context_.Error(inst, rules::kCoopMuladdScope,
                       std::string("the scopes of ") + kMulAdd + "'s matrices differ: " +
                           kWhat[first] + " has " + scope_name(*m[first]->scope) + ", " + kWhat[i] +
                           " " + scope_name(*m[i]->scope));
        break;
      }
    }
    // A is M x K, B is K x N, C and Result are M x N.
    CheckAgree(inst, rules::kCoopMuladdM, "M",
               {{"A rows", m[0]->rows}, {"C rows", m[2]->rows}, {"Result rows", m[3]->rows}});
    CheckAgree(inst, rules::kCoopMuladdN, "N",
               {{"B columns", m[1]->columns},
                {"C columns", m[2]->columns},
                {"Result columns", m[3]->columns}});
    CheckAgree(inst, rules::kCoopMuladdK, "K",
               {{"A columns", m[0]->columns}, {"B rows", m[1]->rows}});

    const uint32_t bits = inst.num_operands() > 3 ? inst.word(3) : 0;
    CheckOperandBits(inst, bits, m[0]->component, m[1]->component, m[2]->component,
                     m[3]->component);
  }

  void CheckArithmetic(const ir::Instruction& inst, const ArithmeticOp& op) {
    std::optional<MatrixType> result = values_.Matrix(inst.result_type_id());
    bool any_matrix = result.has_value();
    for (size_t i = 0; i < inst.num_operands(); ++i) {
      any_matrix = any_matrix || values_.Matrix(values_.TypeOf(inst.word(i))).has_value();
    }
    if (!any_matrix) return;
    const std::string name = OpName(inst.opcode());
    if (!op.on_matrices) {
      context_.Error(inst, rules::kCoopArithOpcode,
                     name +
                         " is not defined on cooperative matrices (only FNegate, FAdd, FSub, "
                         "FMul, FDiv, SNegate, IAdd, ISub, IMul, SDiv, UDiv and "
                         "MatrixTimesScalar are)");
      return;
    }
    if (!result) {
      context_.Error(inst, rules::kCoopArithType,
                     "Result Type " + context_.IdName(inst.result_type_id()) + " of " + name +
                         " must be a cooperative matrix, as its operands are");
      return;
    }
    if (result->component && !OfKind(result->component, op.kind)) {
      context_.Error(inst, rules::kCoopArithComponent,
                     name + " needs " + KindName(op.kind) + " components; Result Type " +
                         context_.IdName(inst.result_type_id()) + " is a " +
                         values_.Describe(result->type));
    }
    for (size_t i = 0; i < inst.num_operands(); ++i) {
      const uint32_t id = inst.word(i);
      std::optional<MatrixType> operand = values_.Matrix(values_.TypeOf(id));
      if (!operand || operand->component != result->component || !SameShape(*operand, *result)) {
        context_.Error(inst, rules::kCoopArithType,
                       "Operand " + values_.Operand(id) + " of " + name +
                           " must have the Result Type " + values_.Describe(result->type));
      }
    }
  }

  // Upstream: the matrix operand has the Result Type, the scalar its component type.
  void CheckMatrixTimesScalar(const ir::Instruction& inst) {
    if (inst.num_operands() < 2) return;
    std::optional<MatrixType> result = values_.Matrix(inst.result_type_id());
    std::optional<MatrixType> matrix = values_.Matrix(values_.TypeOf(inst.word(0)));
    if (!result && !matrix) return;  // an ordinary matrix: the core rules
    const char* name = "OpMatrixTimesScalar";
    if (!result || !matrix || matrix->type != result->type) {
      context_.Error(inst, rules::kCoopArithType,
                     "Matrix " + values_.Operand(inst.word(0)) + " of " + name +
                         " must have the Result Type " +
                         values_.Describe(context_.types().GetType(inst.result_type_id())));
      return;
    }
    if (values_.TypeOf(inst.word(1)) != result->component) {
      context_.Error(inst, rules::kCoopArithType,
                     "Scalar " + values_.Operand(inst.word(1)) + " of " + name +
                         " must have the matrix's component type " +
                         values_.Describe(result->component));
    }
  }

  // Upstream: a conversion keeps the shape (scope, rows, columns) and the Use.
  void CheckConversion(const ir::Instruction& inst, std::pair<Kind, Kind> kinds) {
    if (inst.num_operands() < 1) return;
    std::optional<MatrixType> result = values_.Matrix(inst.result_type_id());
    std::optional<MatrixType> operand = values_.Matrix(values_.TypeOf(inst.word(0)));
    if (!result && !operand) return;
    const std::string name = OpName(inst.opcode());
    if (!result || !operand || !SameShape(*result, *operand)) {
      context_.Error(inst, rules::kCoopConvertShape,
                     name + " converts " + values_.Operand(inst.word(0)) + " to Result Type " +
                         values_.Describe(context_.types().GetType(inst.result_type_id())) +
                         "; both must be cooperative matrices of the same scope, rows, columns "
                         "and Use");
      return;
    }
    if (operand->component && !OfKind(operand->component, kinds.first)) {
      context_.Error(inst, rules::kCoopConvertComponent,
                     name + " needs an operand of " + KindName(kinds.first) + " components; " +
                         values_.Operand(inst.word(0)) + " is not");
    }
    if (result->component && !OfKind(result->component, kinds.second)) {
      context_.Error(inst, rules::kCoopConvertComponent,
                     name + " needs a Result Type of " + KindName(kinds.second) + " components; " +
                         values_.Describe(result->type) + " is not");
    }
  }

 private:
  void CheckAgree(const ir::Instruction& inst, const char* rule, const char* dimension,
                  std::initializer_list<std::pair<const char*, std::optional<uint32_t>>> sizes) {
    const std::pair<const char*, std::optional<uint32_t>>* first = nullptr;
    for (const auto& size : sizes) {
      if (!size.second) continue;  // a specialization constant: not known here
      if (!first) {
        first = &size;
      } else if (*size.second != *first->second) {
        context_.Error(inst, rule,
                       std::string("'") + dimension + "' of " + kMulAdd +
                           " differs: " + first->first + " " + std::to_string(*first->second) +
                           ", " + size.first + " " + std::to_string(*size.second));
        return;
      }
    }
  }

  // Ours (upstream checks no bit): each bit must describe the components it is about.
  void CheckOperandBits(const ir::Instruction& inst, uint32_t bits, const ir::Type* a,
                        const ir::Type* b, const ir::Type* c, const ir::Type* result) {
    if (!a || !b || !c || !result) return;  // a component type coop.type.component rejects
    struct Signed {
      uint32_t bit;
      const char* bit_name;
      const char* matrix;
      const ir::Type* component;
    };
    const Signed kSigned[] = {{kASigned, "MatrixASignedComponentsKHR", "A", a},
                              {kBSigned, "MatrixBSignedComponentsKHR", "B", b},
                              {kCSigned, "MatrixCSignedComponentsKHR", "C", c},
                              {kResultSigned, "MatrixResultSignedComponentsKHR", "Result", result}};
    for (const Signed& s : kSigned) {
      if ((bits & s.bit) && !IsIntScalar(s.component)) {
        Bits(inst, rules::kCoopOperandsSignedness,
             std::string(s.bit_name) + " is set, but " + s.matrix + "'s components are " +
                 values_.Describe(s.component) + "; signedness applies to integers only");
      }
    }
    if ((bits & kSaturating) && (!IsIntScalar(c) || !IsIntScalar(result))) {
      Bits(inst, rules::kCoopOperandsSaturating,
           "SaturatingAccumulationKHR is set, but C and Result have components " +
               values_.Describe(c) + " and " + values_.Describe(result) +
               "; saturation applies to integer accumulation only");
    }
    if ((bits & kTf32) && (!IsFloat32(a) || !IsFloat32(b))) {
      Bits(inst, rules::kCoopOperandsTf32,
           "MatrixAAndBTF32ComponentsINTEL is set, but A and B have components " +
               values_.Describe(a) + " and " + values_.Describe(b) +
               "; tf32 is read from 32-bit float components");
    }
    if ((bits & kABBfloat16) && (!IsInt16(a) || !IsInt16(b))) {
      Bits(inst, rules::kCoopOperandsBf16,
           "MatrixAAndBBFloat16ComponentsINTEL is set, but A and B have components " +
               values_.Describe(a) + " and " + values_.Describe(b) +
               "; the bit reads 16-bit integer components as bfloat16");
    }
    if ((bits & kCBfloat16) && !IsInt16(c)) {
      Bits(inst, rules::kCoopOperandsBf16,
           "MatrixCBFloat16ComponentsINTEL is set, but C has components " + values_.Describe(c) +
               "; the bit reads 16-bit integer components as bfloat16");
    }
    if ((bits & kResultBfloat16) && !IsInt16(result)) {
      Bits(inst, rules::kCoopOperandsBf16,
           "MatrixResultBFloat16ComponentsINTEL is set, but the Result has components " +
               values_.Describe(result) + "; the bit reads 16-bit integer components as bfloat16");
    }
  }

  void Bits(const ir::Instruction& inst, const char* rule, const std::string& problem) {
    context_.Error(inst, rule,
                   "Cooperative Matrix Operands of " + std::string(kMulAdd) + ": " + problem);
  }

  const CoopValues& values_;
  ValidationContext& context_;
};

}  // namespace

void CheckCoopArithmetic(const CoopValues& values) {
  ArithmeticChecker checker(values);
  values.context().ForEachBodyInstruction([&](const ir::Function&, const ir::Instruction& inst) {
    if (inst.opcode() == spv::Op::OpCooperativeMatrixMulAddKHR) {
      checker.CheckMulAdd(inst);
    } else if (inst.opcode() == spv::Op::OpMatrixTimesScalar) {
      checker.CheckMatrixTimesScalar(inst);
    } else if (std::optional<ArithmeticOp> op = ArithmeticOf(inst.opcode())) {
      checker.CheckArithmetic(inst, *op);
    } else if (auto kinds = ConversionOf(inst.opcode())) {
      checker.CheckConversion(inst, *kinds);
    }
  });
}

}  // namespace xmx::val::coop
