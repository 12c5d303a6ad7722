// OpSubgroupMatrixMultiplyAccumulateINTEL: the arithmetic is matrix_mad.hpp's, prepared once at
// load time; the executor checks that the whole subgroup runs it (DECISIONS.md 7).
#include "interp/load/loader.hpp"
#include "interp/matrix_mad/matrix_mad.hpp"
#include "interp/run/exec_support.hpp"

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
  MatrixMadShape shape;
  shape.subgroup_size = loader.subgroup_size();
  const std::optional<uint64_t> k = loader.ConstantValue(inst.word(0));
  if (!k) return loader.Fail(inst, "K Dim must be a constant");
  shape.k = static_cast<uint32_t>(*k);
  shape.operands = inst.num_operands() > 4 ? inst.word(4) : 0;
  shape.result = loader.Type(inst.result_type_id()).value;
  shape.a = loader.TypeOfValue(inst.word(1)).value;
  shape.b = loader.TypeOfValue(inst.word(2)).value;
  shape.c = loader.TypeOfValue(inst.word(3)).value;
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
  out.op[0] = loader.Slot(inst.word(1));
  out.op[1] = loader.Slot(inst.word(2));
  out.op[2] = loader.Slot(inst.word(3));
  out.data = loader.program().Own(std::move(*kernel));
  loader.program().uses_matrix = true;
  return true;
}

}  // namespace xmx::interp
