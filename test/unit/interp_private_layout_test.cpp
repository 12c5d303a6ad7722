// The one private-memory layout (source/interp/model/private_layout.hpp): each variable at the
// next offset its alignment allows, one block per work-item, and the allocation numbering the
// executor and OpVariable share.
#include <gtest/gtest.h>

#include <vector>

#include "interp/model/private_layout.hpp"
#include "interp/model/program.hpp"

namespace xmx::interp {
namespace {

VariableInfo Variable(uint64_t bytes, uint64_t alignment) {
  VariableInfo v;
  v.bytes = bytes;
  v.alignment = alignment;
  return v;
}

TEST(InterpPrivateLayout, VariablesAtAlignedOffsets) {
  // 1 byte at 0; 8 bytes aligned to 8 at 8; 2 bytes at 16; 16 bytes aligned to 16 at 32.
  const std::vector<VariableInfo> variables = {Variable(1, 1), Variable(8, 8), Variable(2, 2),
                                               Variable(16, 16)};
  const PrivateLayout layout = PrivateLayout::Of(variables);
  EXPECT_EQ(layout.variables, 4u);
  EXPECT_EQ(layout.offsets, (std::vector<uint64_t>{0, 8, 16, 32}));
  EXPECT_EQ(layout.bytes_per_item, 48u);
  // Work-item 3's copy of variable 1: three blocks in, then the variable's offset.
  EXPECT_EQ(layout.ByteOffset(3, 1), 3 * 48u + 8);
}

TEST(InterpPrivateLayout, AllocationsAreItemMajor) {
  const std::vector<VariableInfo> variables = {Variable(4, 4), Variable(4, 4), Variable(4, 4)};
  const PrivateLayout layout = PrivateLayout::Of(variables);
  // First private allocation 10: item 0 holds 10..12, item 1 holds 13..15, ...
  EXPECT_EQ(layout.Allocation(10, 0, 0), 10u);
  EXPECT_EQ(layout.Allocation(10, 0, 2), 12u);
  EXPECT_EQ(layout.Allocation(10, 1, 0), 13u);
  EXPECT_EQ(layout.Allocation(10, 5, 1), 10u + 5 * 3 + 1);
  EXPECT_EQ(PrivateAllocation(10, 3, 5, 1), layout.Allocation(10, 5, 1));
}

TEST(InterpPrivateLayout, NoVariables) {
  const PrivateLayout layout = PrivateLayout::Of(std::vector<VariableInfo>{});
  EXPECT_EQ(layout.variables, 0u);
  EXPECT_EQ(layout.bytes_per_item, 0u);
  EXPECT_TRUE(layout.offsets.empty());
}

}  // namespace
}  // namespace xmx::interp
