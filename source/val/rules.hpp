// The rules of xmx-val beyond SPIRV-Tools' core validation, one function per instruction family
// (validate_<family>.cpp). Rule ids are stable: they appear in --format json and the README.
#pragma once

#include <vector>

#include "bridge/bridge.hpp"
#include "val/validation_context.hpp"
#include "xmx/diagnostic.hpp"

namespace xmx::val {

// What the lifted form would make legal that the original is not: run when Lift changed the
// module (rules bridge.*).
void CheckWhatTheBridgeHides(const ir::Module& module, const bridge::LiftRecord& record,
                             std::vector<Diagnostic>* out);

// Capabilities and extension strings that extended instructions and enumerants need (decl.*).
void ValidateDeclarations(ValidationContext& context);

// OpSubgroupMatrixMultiplyAccumulateINTEL (mma.*): SPEC-NOTES B.3, B.5, B.8; DECISIONS 1, 10.
void ValidateMatrixMad(ValidationContext& context);

// The five OpSubgroup2DBlock*INTEL (block2d.*): SPEC-NOTES A.3, A.4; DECISIONS 4-6, 12.
void ValidateBlock2d(ValidationContext& context);

// Intel subgroup shuffles, block IO, 8/16/64-bit typings, 8-bit OpGroup* (subgroups.*): C.2-C.4.
void ValidateSubgroups(ValidationContext& context);

// Imported split matrix multiply-accumulate builtins (split-mad.*): SPEC-NOTES D.
void ValidateSplitMad(ValidationContext& context);

// Cooperative matrices, device-independent (coop.*): what upstream SPIRV-Tools checks for Kernel
// modules plus the operand bits and the SPV_INTEL_joint_matrix instructions
// (COOPERATIVE-MATRIX.md A5; DECISIONS 14).
void ValidateCooperativeMatrix(ValidationContext& context);

// Per-device rules for cooperative matrices (coop.device.*): OpCooperativeMatrixMulAddKHR against
// the device's cooperative_matrix rows (COOPERATIVE-MATRIX.md A3, A4), matrix types no row fits.
void ValidateCooperativeMatrixDevice(ValidationContext& context);

// Every family, in a fixed order.
void RunExtensionRules(ValidationContext& context);

}  // namespace xmx::val
