// Named constants for the rule ids of common/rule_ids.def, the one registry of them: code writes
// rules::kBlock2dConstant, never the string, so an id cannot drift from the README's tables and
// the tests that expect it.
#pragma once

#include <span>
#include <string_view>

namespace xmx::rules {

#define XMX_RULE(constant, id, table, severity, description) inline constexpr char constant[] = id;
#include "common/rule_ids.def"
#undef XMX_RULE

// One registered id, as the registry states it.
struct RuleInfo {
  std::string_view id;
  std::string_view table;  // val, coop, coop_device, run_ub, run_value, other
  std::string_view severity;
  std::string_view description;
};

// Every registered id, in registry order.
std::span<const RuleInfo> AllRules();
// The registered rule `id`, or nullptr.
const RuleInfo* FindRule(std::string_view id);

}  // namespace xmx::rules
