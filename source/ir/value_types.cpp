#include "ir/value_types.hpp"

namespace xmx::ir {

ValueTypes::ValueTypes(const Module& module) {
  // A bound of 2^32 in a hostile header must not size the table.
  type_of_.Reserve(module.header().bound, size_t{1} << 22);
  module.ForEachInstruction([this](const Instruction& inst) {
    if (!inst.has_result_id() || !inst.has_result_type() || inst.result_id() == 0 ||
        inst.result_type_id() == 0) {
      return;
    }
    if (type_of_.Get(inst.result_id()) == nullptr)
      type_of_.Set(inst.result_id(), inst.result_type_id());
  });
}

}  // namespace xmx::ir
