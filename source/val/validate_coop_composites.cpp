// Cooperative matrices as composites, and the per-invocation INTEL instructions (rules
// coop.construct.*, coop.composite.*, coop.access-chain.*, coop.coord.*, coop.apply.*). Upstream
// SPIRV-Tools checks the one-constituent construct and constant and the element access of composite
// extract/insert (validate_composites.cpp, validate_constants.cpp: COOPERATIVE-MATRIX.md A5);
// OpCooperativeMatrixGetElementCoordINTEL and OpCooperativeMatrixApplyFunctionINTEL it does not
// check.
#include <string>

#include "common/rule_ids.hpp"
#include "val/validate_coop.hpp"

namespace xmx::val::coop {
namespace {

std::string OpName(const ir::Instruction& inst) {
  switch (inst.opcode()) {
    case spv::Op::OpAccessChain:
      return "OpAccessChain";
    case spv::Op::OpInBoundsAccessChain:
      return "OpInBoundsAccessChain";
    case spv::Op::OpPtrAccessChain:
      return "OpPtrAccessChain";
    default:
      return "OpInBoundsPtrAccessChain";
  }
}

class CompositeChecker {
 public:
  explicit CompositeChecker(const CoopValues& values)
      : values_(values), context_(values.context()) {}

  // OpCompositeConstruct, OpConstantComposite, OpSpecConstantComposite: a matrix is filled from
  // one value of its component type, given to every element.
  void CheckConstruct(const ir::Instruction& inst, const char* name) {
    std::optional<MatrixType> result = values_.Matrix(inst.result_type_id());
    if (!result) return;
    if (inst.num_operands() != 1) {
      context_.Error(inst, rules::kCoopConstructCount,
                     std::string(name) + " of the cooperative matrix " +
                         context_.IdName(inst.result_type_id()) + " has " +
                         std::to_string(inst.num_operands()) +
                         " constituents; it takes exactly one, of the component type");
      return;
    }
    if (result->component && values_.TypeOf(inst.word(0)) != result->component) {
      context_.Error(inst, rules::kCoopConstructConstituent,
                     "Constituent " + values_.Operand(inst.word(0)) + " of " + name +
                         " must have the matrix's component type " +
                         values_.Describe(result->component));
    }
  }

  // OpCompositeExtract / OpCompositeInsert on a matrix: one index, naming one of the
  // invocation's elements, which have the component type.
  void CheckAccess(const ir::Instruction& inst, bool insert) {
    const size_t composite = insert ? 1 : 0;
    if (inst.num_operands() <= composite) return;
    std::optional<MatrixType> matrix = values_.Matrix(values_.TypeOf(inst.word(composite)));
    if (!matrix) return;
    const char* name = insert ? "OpCompositeInsert" : "OpCompositeExtract";
    const size_t indexes = inst.num_operands() - composite - 1;
    if (indexes != 1) {
      context_.Error(inst, rules::kCoopCompositeIndex,
                     std::string(name) + " into the cooperative matrix " +
                         values_.Operand(inst.word(composite)) + " has " + std::to_string(indexes) +
                         " indexes; it takes exactly one (an element of the invocation)");
    }
    if (!matrix->component) return;
    if (insert) {
      if (values_.TypeOf(inst.word(0)) != matrix->component) {
        context_.Error(inst, rules::kCoopCompositeType,
                       "Object " + values_.Operand(inst.word(0)) + " of " + name +
                           " must have the matrix's component type " +
                           values_.Describe(matrix->component));
      }
      if (inst.result_type_id() != matrix->type->id) {
        context_.Error(inst, rules::kCoopCompositeType,
                       "Result Type " + context_.IdName(inst.result_type_id()) + " of " + name +
                           " must be the type of the Composite, " + values_.Describe(matrix->type));
      }
    } else if (indexes == 1 &&
               context_.types().GetType(inst.result_type_id()) != matrix->component) {
      context_.Error(inst, rules::kCoopCompositeType,
                     "Result Type " + context_.IdName(inst.result_type_id()) + " of " + name +
                         " must be the matrix's component type " +
                         values_.Describe(matrix->component));
    }
  }

  // OpAccessChain and its kin into a Function variable holding a matrix (how DPC++ reaches an
  // element, COOPERATIVE-MATRIX.md A1): as for upstream's access chains, a matrix takes one
  // index, which selects one of the invocation's elements, of the component type. Only chains
  // that pass through a matrix are checked; the rest is the core rules'.
  void CheckAccessChain(const ir::Instruction& inst, size_t first_index) {
    if (inst.num_operands() < first_index) return;
    const ir::Type* base = values_.TypeOf(inst.word(0));
    if (base == nullptr || base->kind != ir::TypeKind::kPointer) return;
    const ir::TypeTable& types = context_.types();
    const ir::Type* type = types.GetType(base->element);
    bool through_matrix = false;
    for (size_t i = first_index; i < inst.num_operands() && type != nullptr; ++i) {
      if (type->kind == ir::TypeKind::kCooperativeMatrix) {
        through_matrix = true;
        type = values_.Matrix(type->id)->component;
        if (type == nullptr) return;  // coop.type.component reports it
        if (i + 1 < inst.num_operands()) {
          context_.Error(inst, rules::kCoopAccessChainIndex,
                         OpName(inst) + " indexes into an element of the cooperative matrix that " +
                             "Base " + values_.Operand(inst.word(0)) +
                             " points to; a matrix takes exactly one index, naming an element "
                             "of the invocation");
          return;
        }
      } else if (type->kind == ir::TypeKind::kStruct) {
        std::optional<uint64_t> member = types.GetConstantUInt(inst.word(i));
        if (!member || *member >= type->members.size()) return;
        type = types.GetType(type->members[*member]);
      } else if (type->kind == ir::TypeKind::kArray || type->kind == ir::TypeKind::kRuntimeArray ||
                 type->kind == ir::TypeKind::kVector || type->kind == ir::TypeKind::kMatrix) {
        type = types.GetType(type->element);
      } else {
        return;
      }
    }
    if (!through_matrix || type == nullptr) return;
    const ir::Type* result = types.GetType(inst.result_type_id());
    if (result == nullptr || result->kind != ir::TypeKind::kPointer ||
        result->element != type->id) {
      context_.Error(inst, rules::kCoopAccessChainType,
                     "Result Type " + context_.IdName(inst.result_type_id()) + " of " +
                         OpName(inst) + " must be a pointer to the matrix's component type " +
                         values_.Describe(type) + "; found " + values_.Describe(result));
    }
  }

  // SPV_INTEL_joint_matrix: the (row, column) of element Index of this invocation's part of
  // Matrix, as a vector of two 32-bit integers.
  void CheckGetElementCoord(const ir::Instruction& inst) {
    if (inst.num_operands() < 2) return;
    const char* name = "OpCooperativeMatrixGetElementCoordINTEL";
    const ir::Type* result = context_.types().GetType(inst.result_type_id());
    const ir::Type* component =
        result && result->kind == ir::TypeKind::kVector && result->count == 2
            ? context_.types().GetType(result->element)
            : nullptr;
    if (!IsIntScalar(component) || component->width != 32) {
      context_.Error(inst, rules::kCoopCoordResultType,
                     std::string("Result Type ") + context_.IdName(inst.result_type_id()) + " of " +
                         name + " must be a vector of two 32-bit integers; found " +
                         values_.Describe(result));
    }
    if (!values_.Matrix(values_.TypeOf(inst.word(0)))) {
      context_.Error(inst, rules::kCoopCoordMatrix,
                     "Matrix " + values_.Operand(inst.word(0)) + " of " + name +
                         " must be a cooperative matrix");
    }
    if (!IsIntScalar(values_.TypeOf(inst.word(1)))) {
      context_.Error(
          inst, rules::kCoopCoordIndex,
          "Index " + values_.Operand(inst.word(1)) + " of " + name + " must be an integer scalar");
    }
  }

  // SPV_INTEL_joint_matrix (experimental): Function applied to every element of Matrix; the
  // result has Matrix's type.
  void CheckApplyFunction(const ir::Instruction& inst) {
    if (inst.num_operands() < 2) return;
    const char* name = "OpCooperativeMatrixApplyFunctionINTEL";
    const ir::Instruction* function = values_.Def(inst.word(0));
    if (function == nullptr || function->opcode() != spv::Op::OpFunction) {
      context_.Error(
          inst, rules::kCoopApplyOperand,
          "Function " + context_.IdName(inst.word(0)) + " of " + name + " must be an OpFunction");
    }
    const ir::Type* matrix_type = values_.TypeOf(inst.word(1));
    if (!values_.Matrix(matrix_type)) {
      context_.Error(inst, rules::kCoopApplyOperand,
                     "Matrix " + values_.Operand(inst.word(1)) + " of " + name +
                         " must be a cooperative matrix");
    } else if (matrix_type->id != inst.result_type_id()) {
      context_.Error(inst, rules::kCoopApplyOperand,
                     "Result Type " + context_.IdName(inst.result_type_id()) + " of " + name +
                         " must be the type of Matrix, " + values_.Describe(matrix_type));
    }
  }

 private:
  const CoopValues& values_;
  ValidationContext& context_;
};

}  // namespace

void CheckCoopComposites(const CoopValues& values) {
  CompositeChecker checker(values);
  for (const ir::Instruction& inst : values.context().module().globals()) {
    if (inst.opcode() == spv::Op::OpConstantComposite) {
      checker.CheckConstruct(inst, "OpConstantComposite");
    } else if (inst.opcode() == spv::Op::OpSpecConstantComposite) {
      checker.CheckConstruct(inst, "OpSpecConstantComposite");
    }
  }
  values.context().ForEachBodyInstruction([&](const ir::Function&, const ir::Instruction& inst) {
    switch (inst.opcode()) {
      case spv::Op::OpCompositeConstruct:
        checker.CheckConstruct(inst, "OpCompositeConstruct");
        break;
      case spv::Op::OpCompositeExtract:
        checker.CheckAccess(inst, /*insert=*/false);
        break;
      case spv::Op::OpCompositeInsert:
        checker.CheckAccess(inst, /*insert=*/true);
        break;
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain:
        checker.CheckAccessChain(inst, 1);
        break;
      case spv::Op::OpPtrAccessChain:
      case spv::Op::OpInBoundsPtrAccessChain:
        checker.CheckAccessChain(inst, 2);  // the Element operand indexes the pointer itself
        break;
      case spv::Op::OpCooperativeMatrixGetElementCoordINTEL:
        checker.CheckGetElementCoord(inst);
        break;
      case spv::Op::OpCooperativeMatrixApplyFunctionINTEL:
        checker.CheckApplyFunction(inst);
        break;
      default:
        break;
    }
  });
}

}  // namespace xmx::val::coop
