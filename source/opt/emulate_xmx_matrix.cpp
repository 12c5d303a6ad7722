// OpSubgroupMatrixMultiplyAccumulateINTEL for devices without the row (emulate_xmx.hpp).
#include "opt/emulate_xmx.hpp"

namespace xmx::opt::emulate_detail {

bool EmulateMatrixMad(EmulationContext&, ir::Function&, ir::BasicBlock&,
                      ir::InstructionList::iterator, uint32_t, std::string* why_not) {
  *why_not = "this build does not emulate the matrix instruction";
  return false;
}

}  // namespace xmx::opt::emulate_detail
