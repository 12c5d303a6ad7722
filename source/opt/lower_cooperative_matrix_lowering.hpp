// The state of one run of --lower-cooperative-matrix, shared by the files that lower each
// instruction family.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "ir/type_table.hpp"
#include "opt/lower_cooperative_matrix_builder.hpp"
#include "opt/lower_cooperative_matrix_slices.hpp"

namespace xmx::opt::lower_coop {

struct Lowering {
  Lowering(ir::Module& module, const device::DeviceProfile& device, uint32_t subgroup_size)
      : module(module), device(device), subgroup_size(subgroup_size), types(module), b(module) {}

  ir::Module& module;
  const device::DeviceProfile& device;
  uint32_t subgroup_size;
  ir::TypeTable types;  // of the input module (constants, operand types)
  Builder b;
  std::map<uint32_t, MatrixType> matrices;  // by the id of the OpTypeCooperativeMatrixKHR
  std::map<uint32_t, uint32_t> renames;     // old id -> the id that replaces it
  std::string error;                        // set when lowering fails
  // Native instructions from fp32 C to a 16-bit Result (no device row has them), replaced by
  // their exact emulation once the module is lowered.
  std::set<uint32_t> exact_mads;

  const MatrixType* MatrixOfType(uint32_t type) const {
    auto it = matrices.find(type);
    return it == matrices.end() ? nullptr : &it->second;
  }
  const MatrixType* MatrixOfValue(uint32_t value) const { return MatrixOfType(b.ValueType(value)); }
  // The value of an integer constant operand.
  std::optional<uint64_t> ConstantValue(uint32_t id) const { return types.GetConstantUInt(id); }
  bool Fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return false;
  }
};

// Each lowers `inst` at the builder's insertion point (right before `inst`), leaving the insertion
// point right before `inst` again (in the block that holds it after any split). On success the
// caller erases `inst`; its result, if any, is renamed to *result.
bool LowerLoad(Lowering& l, const ir::Instruction& inst, uint32_t* result);
bool LowerStore(Lowering& l, const ir::Instruction& inst);
bool LowerMulAdd(Lowering& l, const ir::Instruction& inst, uint32_t* result);
bool LowerElementwise(Lowering& l, const ir::Instruction& inst, uint32_t* result);

}  // namespace xmx::opt::lower_coop
