#include "opt/encoded_positions.hpp"

#include "binary/parser.hpp"

namespace xmx::opt {

void SetEncodedPositions(ir::Module& module) {
  size_t index = 0;
  size_t offset = binary::kHeaderWords;
  module.ForEachInstruction([&index, &offset](ir::Instruction& inst) {
    inst.set_source(index++, offset);
    offset += inst.WordCount();
  });
}

}  // namespace xmx::opt
