#include "val/rules.hpp"

namespace xmx::val {

void RunExtensionRules(ValidationContext& context) { ValidateDeclarations(context); }

}  // namespace xmx::val
