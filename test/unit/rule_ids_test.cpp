// The rule-id registry as code sees it (source/common/rule_ids.def): the constants are the ids,
// every id is registered once, and a lookup finds exactly the registered ones.
#include "common/rule_ids.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace xmx::rules {
namespace {

TEST(RuleIds, ConstantsSpellTheirIds) {
  EXPECT_EQ(std::string(kBlock2dConstant), "block2d.constant");
  EXPECT_EQ(std::string(kCoopDeviceShape), "coop.device.shape");
  EXPECT_EQ(std::string(kMemoryNull), "memory.null");
  EXPECT_EQ(std::string(kCore), "core");
}

TEST(RuleIds, EveryIdOnceWithADescription) {
  std::set<std::string_view> seen;
  for (const RuleInfo& rule : AllRules()) {
    EXPECT_TRUE(seen.insert(rule.id).second) << rule.id;
    EXPECT_FALSE(rule.description.empty()) << rule.id;
    EXPECT_FALSE(rule.severity.empty()) << rule.id;
  }
  EXPECT_GT(seen.size(), 100u);
}

TEST(RuleIds, FindRule) {
  const RuleInfo* rule = FindRule("mma.k-dim.table");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->table, "val");
  EXPECT_EQ(FindRule("coop.device.types")->table, "coop_device");
  EXPECT_EQ(FindRule("mma.k-dim"), nullptr);  // a namespace, not an id
  EXPECT_EQ(FindRule(""), nullptr);
}

}  // namespace
}  // namespace xmx::rules
