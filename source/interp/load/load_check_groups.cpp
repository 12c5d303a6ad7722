// The load-time checks of the subgroup and group instructions, the atomics and OpenCL.std's
// memory instructions (the rest of the per-instruction checks: load_checks.cpp), and the types
// xmx-run has a layout for.
#include <string>

#include "interp/load/load_checks.hpp"

namespace xmx::interp {
namespace load_checks {

bool InstructionCheck::Atomic(size_t value, size_t comparator) {
  if (!Pointer(0)) return false;
  const TypeInfo& pointee = loader_.Type(Operand(0).pointee);
  if ((pointee.kind != Kind::kInt && pointee.kind != Kind::kFloat) ||
      (pointee.lane_bytes != 4 && pointee.lane_bytes != 8)) {
    return Fail("atomics need a pointer to a 32- or 64-bit integer or float");
  }
  for (size_t i : {value, comparator}) {
    if (i == SIZE_MAX) continue;
    if (!RequireValue(i) || Operand(i).lane_bytes != pointee.lane_bytes) {
      return Fail("operand " + Id(i < inst_.num_operands() ? inst_.word(i) : 0) +
                  " must have the pointee's size");
    }
  }
  if (inst_.has_result_type() && Result().lane_bytes != pointee.lane_bytes) {
    return Fail("the result must have the pointee's size");
  }
  return true;
}

// The OpenCL.std instructions bound outside the element-wise tables (exec_opencl_std.cpp):
// vload*/vstore* and shuffle/shuffle2, whose operands are read at fixed places. (The
// element-wise ones are checked against their signatures when they are bound.)
bool InstructionCheck::OpenCLStdMemory() {
  if (inst_.num_operands() < 2 || inst_.word(0) != loader_.opencl_std_set() ||
      loader_.opencl_std_set() == 0) {
    return true;
  }
  const uint32_t number = inst_.word(1);
  // Operand i of the extended instruction is operand i + 2 of OpExtInst.
  auto ext_operands = [&](size_t count) {
    if (inst_.num_operands() < count + 2) {
      return Fail("OpenCL.std instruction " + std::to_string(number) + " needs " +
                  std::to_string(count) + " operands");
    }
    for (size_t i = 0; i < count; ++i) {
      if (!RequireValue(i + 2)) return false;
    }
    return true;
  };
  auto offset_and_pointer = [&](size_t offset) {
    if (Operand(offset + 2).kind != Kind::kInt) return Fail("the offset must be an integer scalar");
    return Pointer(offset + 3);
  };
  auto scalar_or_vector = [&](const TypeInfo& t, bool half) {
    if ((t.kind != Kind::kVector && t.kind != Kind::kInt && t.kind != Kind::kFloat) ||
        (half && t.value.scalar.kind != ScalarKind::kFloat)) {
      return Fail(half ? "the data must be a float scalar or vector"
                       : "the data must be a scalar or vector");
    }
    return true;
  };
  switch (number) {
    case 171:  // vloadn
    case 173:  // vload_half
    case 174:  // vload_halfn
    case 179:  // vloada_halfn
      return ext_operands(2) && offset_and_pointer(0) && scalar_or_vector(Result(), number != 171);
    case 172:  // vstoren
    case 175:  // vstore_half
    case 176:  // vstore_half_r
    case 177:  // vstore_halfn
    case 178:  // vstore_halfn_r
    case 180:  // vstorea_halfn
    case 181:  // vstorea_halfn_r
      if (!ext_operands(3) || !offset_and_pointer(1)) return false;
      if ((number == 176 || number == 178 || number == 181) && inst_.num_operands() < 6) {
        return Fail("the rounding mode is missing");
      }
      return scalar_or_vector(Operand(2), number != 172);
    case 182:    // shuffle
    case 183: {  // shuffle2
      const size_t values = number == 183 ? 2 : 1;
      if (!ext_operands(values + 1)) return false;
      const TypeInfo& x = Operand(2);
      const TypeInfo& mask = Operand(2 + values);
      if (x.kind != Kind::kVector || Result().kind != Kind::kVector ||
          (values == 2 && !SameShape(Operand(3), x))) {
        return Fail("shuffle takes vectors and gives a vector");
      }
      if (x.value.scalar.kind != Result().value.scalar.kind ||
          x.value.scalar.bytes != Result().value.scalar.bytes) {
        return Fail("the result must have the vectors' component type");
      }
      if (!IsScalarOrVectorOf(mask, ScalarKind::kInt) ||
          mask.value.components != Result().value.components) {
        return Fail("the mask must be an integer vector with the result's component count");
      }
      return true;
    }
    default:
      return true;
  }
}

// Group, non-uniform group and Intel subgroup instructions: the value operand has the result's
// type, ids and deltas are integer scalars, ballots are vectors of four 32-bit integers.
bool InstructionCheck::SubgroupOpcode() {
  auto ballot = [&](size_t i) {
    if (!IsValue(i) || Operand(i).kind != Kind::kVector ||
        Operand(i).value.scalar.kind != ScalarKind::kInt || Operand(i).lane_bytes != 16) {
      return Fail("the ballot must be a vector of four 32-bit integers");
    }
    return true;
  };
  auto integer = [&](size_t i, const char* what) {
    if (!IsValue(i) || Operand(i).kind != Kind::kInt) {
      return Fail(std::string(what) + " must be an integer scalar");
    }
    return true;
  };
  auto boolean_result = [&] {
    return Result().kind == Kind::kBool || Fail("the result must be a boolean");
  };
  auto int32_result = [&] {
    return (Result().kind == Kind::kInt && Result().lane_bytes == 4) ||
           Fail("the result must be a 32-bit integer");
  };
  switch (inst_.opcode()) {
    case Op::OpGroupIAdd:
    case Op::OpGroupUMin:
    case Op::OpGroupSMin:
    case Op::OpGroupUMax:
    case Op::OpGroupSMax:
    case Op::OpGroupNonUniformIAdd:
    case Op::OpGroupNonUniformIMul:
    case Op::OpGroupNonUniformSMin:
    case Op::OpGroupNonUniformUMin:
    case Op::OpGroupNonUniformSMax:
    case Op::OpGroupNonUniformUMax:
    case Op::OpGroupNonUniformBitwiseAnd:
    case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformBitwiseXor:
      return RequireValue(2) && ResultIs(ScalarKind::kInt, "an integer type") &&
             OperandsLikeResult(2, 1);
    case Op::OpGroupFAdd:
    case Op::OpGroupFMin:
    case Op::OpGroupFMax:
    case Op::OpGroupNonUniformFAdd:
    case Op::OpGroupNonUniformFMul:
    case Op::OpGroupNonUniformFMin:
    case Op::OpGroupNonUniformFMax:
      return RequireValue(2) && ResultIs(ScalarKind::kFloat, "a float type") &&
             OperandsLikeResult(2, 1);
    case Op::OpGroupNonUniformLogicalAnd:
    case Op::OpGroupNonUniformLogicalOr:
    case Op::OpGroupNonUniformLogicalXor:
      return RequireValue(2) && ResultIs(ScalarKind::kBool, "a boolean type") &&
             OperandsLikeResult(2, 1);
    case Op::OpGroupAll:
    case Op::OpGroupAny:
    case Op::OpGroupNonUniformAll:
    case Op::OpGroupNonUniformAny:
      if (!RequireOperands(2) || Result().kind != Kind::kBool || Operand(1).kind != Kind::kBool) {
        return Fail("the predicate and the result must be booleans");
      }
      return true;
    case Op::OpGroupNonUniformAllEqual:
      if (!RequireOperands(2) || Result().kind != Kind::kBool) {
        return Fail("the result must be a boolean");
      }
      return Sized(Operand(1), "the value");
    case Op::OpGroupBroadcast:
    case Op::OpGroupNonUniformBroadcast:
      if (!RequireOperands(3) || !Sized(Result(), "the result") || !OperandsLikeResult(1, 1)) {
        return false;
      }
      if (!IsScalarOrVectorOf(Operand(2), ScalarKind::kInt)) {
        return Fail("the invocation id must be an integer scalar or vector");
      }
      return true;
    case Op::OpGroupNonUniformBroadcastFirst:
      return RequireOperands(2) && Sized(Result(), "the result") && OperandsLikeResult(1, 1);
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor:
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown:
      return RequireOperands(3) && Sized(Result(), "the result") && OperandsLikeResult(1, 1) &&
             integer(2, "the invocation id or delta");
    case Op::OpSubgroupShuffleINTEL:
    case Op::OpSubgroupShuffleXorINTEL:
      return RequireOperands(2) && Sized(Result(), "the result") && OperandsLikeResult(0, 1) &&
             integer(1, "the invocation id or value");
    case Op::OpSubgroupShuffleDownINTEL:
    case Op::OpSubgroupShuffleUpINTEL:
      return RequireOperands(3) && Sized(Result(), "the result") && OperandsLikeResult(0, 2) &&
             integer(2, "the delta");
    case Op::OpGroupNonUniformElect:
      if (Result().kind != Kind::kBool) return Fail("the result must be a boolean");
      return true;
    case Op::OpGroupNonUniformBallot:
      if (!RequireOperands(2) || Operand(1).kind != Kind::kBool || Result().kind != Kind::kVector ||
          Result().lane_bytes != 16) {
        return Fail("OpGroupNonUniformBallot takes a boolean and gives four 32-bit integers");
      }
      return true;
    case Op::OpGroupNonUniformInverseBallot:
      return ballot(1) && boolean_result();
    case Op::OpGroupNonUniformBallotBitExtract:
      return ballot(1) && integer(2, "the index") && boolean_result();
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB:
      return ballot(1) && int32_result();
    case Op::OpGroupNonUniformBallotBitCount:
      return ballot(2) && int32_result();
    default:
      return true;
  }
}

}  // namespace load_checks

using load_checks::Id;
using Kind = ir::TypeKind;

bool Loader::SupportedType(uint32_t type_id, std::string* why) {
  auto it = supported_types_.find(type_id);
  if (it != supported_types_.end()) {
    if (!it->second.empty()) *why = it->second;
    return it->second.empty();
  }
  supported_types_[type_id] = "";  // a struct reached again through a pointer is fine
  const ir::Type* type = types_.GetType(type_id);
  std::string problem;
  if (type == nullptr) {
    problem = Id(type_id) + " is not a type";
  } else {
    switch (type->kind) {
      case Kind::kInt:
        if (type->width != 8 && type->width != 16 && type->width != 32 && type->width != 64) {
          problem = "xmx-run supports integers of 8, 16, 32 and 64 bits, not " +
                    std::to_string(type->width) + " (type " + Id(type_id) + ")";
        }
        break;
      case Kind::kFloat:
        // A bfloat16 (SPV_KHR_bfloat16) has a half's width but not its arithmetic: computing
        // with it as a half would give wrong results without a word.
        // bfloat16 (SPV_KHR_bfloat16) is carried as 16-bit patterns; InstructionCheck::Run lets
        // it reach only the instructions that move it or convert it (a half's arithmetic on it
        // would give wrong results without a word).
        if (type->float_encoding && !(type->width == 16 && *type->float_encoding == 0)) {
          problem = "xmx-run does not compute with floats of an FP encoding (type " + Id(type_id) +
                    ", OpTypeFloat " + std::to_string(type->width) + " with encoding " +
                    std::to_string(*type->float_encoding) + "; it knows BFloat16KHR, 0)";
        } else if (type->width != 16 && type->width != 32 && type->width != 64) {
          problem = "xmx-run supports floats of 16, 32 and 64 bits, not " +
                    std::to_string(type->width) + " (type " + Id(type_id) + ")";
        }
        break;
      case Kind::kVector: {
        const ir::Type* element = types_.GetType(type->element);
        if (element == nullptr ||
            (element->kind != Kind::kInt && element->kind != Kind::kFloat &&
             element->kind != Kind::kBool) ||
            type->count < 2 || type->count > 16) {
          problem = "vector type " + Id(type_id) +
                    " must have 2 to 16 integer, float or boolean components";
        } else if (!SupportedType(type->element, &problem)) {
          problem = "vector type " + Id(type_id) + ": " + problem;
        }
        break;
      }
      case Kind::kCooperativeMatrix:
        if (!SupportedType(type->element, &problem)) {
          problem = "cooperative-matrix type " + Id(type_id) + ": " + problem;
        } else {
          CoopLayoutOf(type_id, &problem);
        }
        break;
      case Kind::kArray:
      case Kind::kRuntimeArray:
        if (!SupportedType(type->element, &problem)) {
          problem = "array type " + Id(type_id) + ": " + problem;
        }
        break;
      case Kind::kStruct:
        for (uint32_t member : type->members) {
          if (!SupportedType(member, &problem)) {
            problem = "struct type " + Id(type_id) + ": " + problem;
            break;
          }
        }
        break;
      default:
        break;
    }
  }
  supported_types_[type_id] = problem;
  if (!problem.empty()) *why = problem;
  return problem.empty();
}

}  // namespace xmx::interp
