// xmx-val as a library: SPIRV-Tools' core validation through the bridge, plus the rules of the
// extensions (operand types, dimensions, alignment) and the device tables.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "xmx/diagnostic.hpp"
#include "xmx/target_env.hpp"

namespace xmx::device {
struct DeviceProfile;
}

namespace xmx::val {

// SPIRV-Tools' validator limits, one per spirv-val option of the same name (--max-struct-members,
// ...).
enum class ValidatorLimit {
  kMaxStructMembers,
  kMaxStructDepth,
  kMaxLocalVariables,
  kMaxGlobalVariables,
  kMaxSwitchBranches,
  kMaxFunctionArgs,
  kMaxControlFlowNestingDepth,
  kMaxAccessChainIndexes,
  kMaxIdBound,
};

struct ValidatorOptions {
  TargetEnv target_env = TargetEnv::Spv16();  // spirv-val's default
  // The spirv-val options, passed through to SPIRV-Tools unchanged.
  std::vector<std::pair<ValidatorLimit, uint32_t>> limits;
  bool relax_logical_pointer = false;
  bool relax_block_layout = false;
  bool uniform_buffer_standard_layout = false;
  bool scalar_block_layout = false;
  bool workgroup_scalar_block_layout = false;
  bool skip_block_layout = false;
  bool relax_struct_store = false;
  bool allow_localsizeid = false;
  bool before_hlsl_legalization = false;

  // The device whose tables apply; nullptr means the default profile (`opencl`).
  const device::DeviceProfile* device = nullptr;
  // The subgroup size of kernels that declare none (--subgroup-size).
  std::optional<uint32_t> subgroup_size;
};

struct ValidationResult {
  bool valid = true;  // no diagnostic of error severity
  // In the order found: binary and layout errors, the bridge's checks, SPIRV-Tools' core
  // validation, then our rules. Each carries its rule id, the instruction index and word offset
  // when it is about one instruction, and that instruction disassembled (`instruction_text`).
  std::vector<Diagnostic> diagnostics;
};

ValidationResult Validate(std::span<const uint32_t> words, const ValidatorOptions& options);

}  // namespace xmx::val
