#include "val/rules.hpp"

namespace xmx::val {

void RunExtensionRules(ValidationContext& context) {
  ValidateDeclarations(context);
  ValidateMatrixMad(context);
  ValidateBlock2d(context);
  ValidateSubgroups(context);
  ValidateSplitMad(context);
  ValidateCooperativeMatrix(context);
  ValidateCooperativeMatrixDevice(context);
}

}  // namespace xmx::val
