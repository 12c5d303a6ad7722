// --emulate-xmx=DEVICE: what DEVICE lacks of the matrix instruction, 2D block IO and the 8- and
// 16-bit subgroup typings becomes core SPIR-V with the same results, so that the kernel runs where
// those instructions do not exist.
//
// * 2D block IO (SPEC-NOTES A.5, A.6, DECISIONS 4, 5): a load, load-transform, load-transpose or
//   store the device's table does not list (every one on a device without the extension) becomes
//   a call of a function written for its shape: each invocation walks its own payload, finds the
//   memory element every slot holds (the A.5 mapping backwards), and moves it with a plain load or
//   store when it is inside Memory Width and Height; slots of padding, of rows no block has and of
//   out-of-bounds elements read as zero, and out-of-bounds elements are not stored. A prefetch has
//   no effect on results and is dropped.
// * The matrix instruction (SPEC-NOTES B.4, B.7, DECISIONS 1-3): a shape the device's table does
//   not list becomes a call of a function written for its operand types: the invocations share
//   their A operands with OpGroupBroadcast (one 32-bit vector per invocation; in the paired
//   subgroup-size-32 form B too), and each invocation computes its column of the result, for
//   every element type of B.2 (int8, int4, fp16, bf16, tf32, fp8 E4M3 / E5M2, fp4). Integer data:
//   exact products summed in 32 bits (the low 32 bits of the exact sum, as DECISIONS 2 says). Float
//   data: the exact model of DECISIONS 3 and xmx-run's `--mma-fp exact`: every product exact, C
//   plus all products summed exactly in a fixed-point accumulator of 32-bit digits (carry-save in
//   64-bit integers) and rounded once, to nearest even, to the Result format, subnormals kept; a
//   NaN, infinity times zero or infinities of both signs give the format's canonical quiet NaN,
//   another infinity that infinity; an exactly zero sum is +0 unless every term is -0.
//
// * The 8- and 16-bit typings of the Intel shuffles and buffer block IO and of the subgroup
//   OpGroupBroadcast / IAdd / min / max (SPEC-NOTES C.4), where the device's subgroup table has
//   no row for them: see emulate_xmx_subgroups.cpp. Image block reads at these widths become
//   32-bit image block reads and shuffles; image block writes at these widths are refused.
//
// All but the 8- and 16-bit shuffles and collectives need the subgroup size of the function they
// are in: every kernel reaching it must fix the same one with OpExecutionMode SubgroupSize (a
// function no kernel reaches never runs and is written for a size its instructions fit). Otherwise,
// or for a form not covered (an image block write at 8 or 16 bits), the pass fails naming the
// instruction and leaves the module as it was.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/def_use.hpp"
#include "ir/type_table.hpp"
#include "opt/emulate_xmx_code.hpp"
#include "opt/module_builder.hpp"
#include "opt/pass.hpp"

namespace xmx::opt::emulate_detail {

// What the functions below share over one run of the pass.
class EmulationContext {
 public:
  EmulationContext(ir::Module& module, const ir::DefUse& def_use, const ir::TypeTable& types)
      : module_(module), builder_(module), def_use_(def_use), types_(types) {}

  ir::Module& module() { return module_; }
  ModuleBuilder& builder() { return builder_; }
  const ir::TypeTable& types() const { return types_; }
  // The type id of the value `id` of the original module (0 when unknown).
  uint32_t TypeOf(uint32_t id) const;

  // The Input variable of BuiltIn SubgroupLocalInvocationId (an existing one, or a new one),
  // listed in every entry point's interface.
  uint32_t LaneIdVariable();

  // A new function returning void with parameters of `parameter_types`, appended to the module;
  // its entry block is empty. Returns the function (its parameters' ids in `parameters`).
  ir::Function& NewFunction(const std::vector<uint32_t>& parameter_types,
                            std::vector<uint32_t>* parameters);

  // Functions already written, by a key naming what they compute.
  std::map<std::string, uint32_t>& helpers() { return helpers_; }

 private:
  ir::Module& module_;
  ModuleBuilder builder_;
  const ir::DefUse& def_use_;
  const ir::TypeTable& types_;
  uint32_t lane_id_ = 0;
  std::map<std::string, uint32_t> helpers_;
};

// Replaces the 2D block instruction `inst` by core SPIR-V (see the file comment). Returns false
// with the reason in *why_not when it cannot.
bool EmulateBlock2d(EmulationContext& context, ir::Function& function, ir::BasicBlock& block,
                    ir::InstructionList::iterator inst, uint32_t subgroup_size,
                    std::string* why_not);

// Replaces the OpSubgroupMatrixMultiplyAccumulateINTEL `inst` likewise.
bool EmulateMatrixMad(EmulationContext& context, ir::Function& function, ir::BasicBlock& block,
                      ir::InstructionList::iterator inst, uint32_t subgroup_size,
                      std::string* why_not);

// Replaces each OpSubgroupMatrixMultiplyAccumulateINTEL of the module whose result id is in
// `results` by its emulation at `subgroup_size`, whatever the device has (for another pass that
// needs an instruction no device table lists: --lower-cooperative-matrix's exact rounding from an
// fp32 accumulator to a 16-bit Result). False with the reason when one cannot be emulated.
bool EmulateMatrixMadsOf(ir::Module& module, const std::set<uint32_t>& results,
                         uint32_t subgroup_size, std::string* why_not);

// The 8- and 16-bit subgroup typings (emulate_xmx_subgroups.cpp): the query a device's
// subgroup table answers for `inst`, when it is such an instruction at such a width.
std::optional<device::SubgroupTypeQuery> SubgroupTypeQueryOf(const EmulationContext& context,
                                                             const ir::Instruction& inst);
// Replaces it by its 32-bit form, or by plain loads and stores.
bool EmulateNarrowSubgroupOp(EmulationContext& context, ir::Function& function,
                             ir::BasicBlock& block, ir::InstructionList::iterator inst,
                             uint32_t subgroup_size, std::string* why_not);

// The float formats the matrix emulation reads and writes, as bit fields.
struct FloatFormat {
  uint32_t bits;           // of the stored pattern
  uint32_t exponent_bits;  // 8 (fp32, bf16, tf32), 5 (fp16, fp8 E5M2), 4 (E4M3), 2 (fp4)
  uint32_t mantissa_bits;  // stored fraction bits
  int32_t bias;
  uint32_t quiet_nan;  // the canonical quiet NaN written as a result
  // false: the all-ones exponent holds finite numbers, and the one NaN (if any) is the magnitude
  // `nan_magnitude` (OCP fp8 E4M3, fp4 E2M1).
  bool has_infinity = true;
  uint32_t nan_magnitude = 0;
  uint32_t ignored_low_bits = 0;  // tf32: the low 13 bits of the fp32 pattern are not read
};
inline constexpr FloatFormat kFloat32{32, 8, 23, 127, 0x7FC00000u};
inline constexpr FloatFormat kFloat16{16, 5, 10, 15, 0x7E00u};
inline constexpr FloatFormat kBFloat16{16, 8, 7, 127, 0x7FC0u};
inline constexpr FloatFormat kTensorFloat32{32, 8, 10, 127, 0, true, 0, 13};
inline constexpr FloatFormat kFloat8E4M3{8, 4, 3, 7, 0, false, 0x7F};
inline constexpr FloatFormat kFloat8E5M2{8, 5, 2, 15, 0};
inline constexpr FloatFormat kFloat4E2M1{4, 2, 1, 1, 0, false, 0};

}  // namespace xmx::opt::emulate_detail
