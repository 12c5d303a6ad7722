// 2D block IO for cooperative-matrix loads and stores.
#include "opt/lower_cooperative_matrix_memory.hpp"

namespace xmx::opt::lower_coop {

uint32_t Block2dOrPerLaneLoad(Lowering& l, const MemoryAccess& a) { return PerLaneLoad(l, a); }

bool Block2dOrPerLaneStore(Lowering& l, const MemoryAccess& a) {
  PerLaneStore(l, a);
  return true;
}

}  // namespace xmx::opt::lower_coop
