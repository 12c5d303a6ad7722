// OpSubgroupMatrixMultiplyAccumulateINTEL: the arithmetic is matrix_mad.hpp's, prepared once at
// load time; the executor checks that the whole subgroup runs it (DECISIONS.md 7).
#include "interp/load/loader.hpp"
#include "interp/matrix_mad/matrix_mad.hpp"
#include "interp/run/exec_support.hpp"
#include "ir/matrix_mad_operands.hpp"

namespace xmx::interp {
namespace {

const Instr* ExecMatrixMad(Subgroup& sg, const Instr* in) {
  if (RequireWholeSubgroup(sg, in, "OpSubgroupMatrixMultiplyAccumulateINTEL")) {
    return StopSubgroup(sg);
  }
  const MatrixMadKernel& kernel = *static_cast<const MatrixMadKernel*>(in->data);
  kernel.Run(sg.regs + in->op[0], sg.regs + in->op[1], sg.regs + in->op[2], sg.regs + in->result);
  ++sg.matrix_instructions;
  return in + 1;
}

}  // namespace

bool BindMatrixMad(Loader& loader, const ir::Instruction& inst, Instr& out) {
  if (inst.opcode() != spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL) return false;
  const std::optional<ir::MatrixMadOperands> operands = ir::DecodeMatrixMadOperands(inst);
  if (!operands) return loader.Fail(inst, "too few operands for a matrix instruction");
  MatrixMadShape shape;
  shape.subgroup_size = loader.subgroup_size();
  const std::optional<uint64_t> k = loader.ConstantValue(operands->k_dim);
  if (!k) return loader.Fail(inst, "K Dim must be a constant");
  shape.k = static_cast<uint32_t>(*k);
  shape.operands = operands->operands;
  shape.result = loader.Type(inst.result_type_id()).value;
  shape.a = loader.TypeOfValue(operands->a).value;
  shape.b = loader.TypeOfValue(operands->b).value;
  shape.c = loader.TypeOfValue(operands->c).value;
  std::string why;
  std::optional<MatrixMadKernel> kernel = MatrixMadKernel::Prepare(
      shape, loader.options().ordered_matrix_fp ? MmaFloatModel::kOrdered : MmaFloatModel::kExact,
      &why);
  if (!kernel) {
    return loader.Fail(inst, "xmx-run cannot execute this matrix instruction at subgroup size " +
                                 std::to_string(shape.subgroup_size) + ": " + why);
  }
  out.fn = ExecMatrixMad;
  out.result = loader.Slot(inst.result_id());
  out.op[0] = loader.Slot(operands->a);
  out.op[1] = loader.Slot(operands->b);
  out.op[2] = loader.Slot(operands->c);
  out.data = loader.program().Own(*kernel);
  loader.program().uses_matrix = true;
  return true;
}

}  // namespace xmx::interp
