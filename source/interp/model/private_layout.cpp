#include "interp/model/private_layout.hpp"

#include "interp/model/program.hpp"

namespace xmx::interp {

PrivateLayout PrivateLayout::Of(std::span<const VariableInfo> variables) {
  PrivateLayout layout;
  layout.variables = static_cast<uint32_t>(variables.size());
  layout.offsets.reserve(variables.size());
  uint64_t offset = 0;
  for (const VariableInfo& v : variables) {
    offset = (offset + v.alignment - 1) / v.alignment * v.alignment;
    layout.offsets.push_back(offset);
    offset += v.bytes;
  }
  layout.bytes_per_item = offset;
  return layout;
}

}  // namespace xmx::interp
