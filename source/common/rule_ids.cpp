#include "common/rule_ids.hpp"

#include <algorithm>

namespace xmx::rules {
namespace {

constexpr RuleInfo kRules[] = {
#define XMX_RULE(constant, id, table, severity, description) \
  RuleInfo{id, #table, severity, description},
#include "common/rule_ids.def"
#undef XMX_RULE
};

}  // namespace

std::span<const RuleInfo> AllRules() { return kRules; }

const RuleInfo* FindRule(std::string_view id) {
  const auto* const it = std::find_if(std::begin(kRules), std::end(kRules),
                                      [&](const RuleInfo& r) { return r.id == id; });
  return it == std::end(kRules) ? nullptr : &*it;
}

}  // namespace xmx::rules
