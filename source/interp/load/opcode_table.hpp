// The one answer to "who executes opcode X": every opcode xmx-run runs, with the instruction
// family whose binder (exec_*.cpp) turns it into a pre-decoded Instr. The loader looks an
// instruction's opcode up here once, at load time, and calls that family's binder alone; the
// execution loop never sees this table.
//
// An opcode belongs to exactly one family; the build stops when two claim it (the static_assert
// below). The one exception is stated as data: kCoopForms lists the opcodes whose
// cooperative-matrix or bfloat16 form the cooperative-matrix family executes (a fill is an
// OpCompositeConstruct of a matrix; a bfloat16 conversion is an OpFConvert); every other form of
// those opcodes goes to the family that claims them here.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "xmx/spirv_enums.hpp"

namespace xmx::interp {

enum class OpcodeFamily : uint8_t {
  kNoEffect,        // structure hints and lifetime markers: nothing is emitted
  kPhi,             // the loader itself: copies on the incoming edges
  kArith,           // arith/exec_arith.cpp
  kConvert,         // convert/exec_convert.cpp
  kComposite,       // composite/exec_composite.cpp
  kMemory,          // memory/exec_memory.cpp, memory/exec_access_chain.cpp
  kAtomic,          // atomic/exec_atomic.cpp
  kControl,         // control/exec_control.cpp (imported calls: imported/exec_imported.cpp)
  kGroup,           // group/exec_group.cpp
  kIntelSubgroups,  // intel_subgroups/exec_intel_subgroups.cpp
  kImageBlock,      // image_block/exec_image_block.cpp
  kMatrixMad,       // matrix_mad/exec_matrix_mad.cpp
  kBlock2d,         // block2d/exec_block2d.cpp
  kExtInst,         // opencl_std/exec_opencl_std.cpp (printf: printf/exec_printf.cpp)
  kCoop,            // coop/exec_coop*.cpp
};

struct OpcodeClaim {
  spv::Op opcode;
  OpcodeFamily family;
};

// The table. Grouped by family for the reader; the lookup sorts a copy at compile time.
inline constexpr OpcodeClaim kOpcodeClaims[] = {
    // Nothing to execute.
    {spv::Op::OpLoopMerge, OpcodeFamily::kNoEffect},
    {spv::Op::OpSelectionMerge, OpcodeFamily::kNoEffect},
    {spv::Op::OpLine, OpcodeFamily::kNoEffect},
    {spv::Op::OpNoLine, OpcodeFamily::kNoEffect},
    {spv::Op::OpLifetimeStart, OpcodeFamily::kNoEffect},
    {spv::Op::OpLifetimeStop, OpcodeFamily::kNoEffect},
    {spv::Op::OpNop, OpcodeFamily::kNoEffect},
    {spv::Op::OpPhi, OpcodeFamily::kPhi},
    // Integer, float, bit, logical and relational arithmetic.
    {spv::Op::OpIAdd, OpcodeFamily::kArith},
    {spv::Op::OpISub, OpcodeFamily::kArith},
    {spv::Op::OpIMul, OpcodeFamily::kArith},
    {spv::Op::OpUDiv, OpcodeFamily::kArith},
    {spv::Op::OpSDiv, OpcodeFamily::kArith},
    {spv::Op::OpUMod, OpcodeFamily::kArith},
    {spv::Op::OpSMod, OpcodeFamily::kArith},
    {spv::Op::OpSRem, OpcodeFamily::kArith},
    {spv::Op::OpSNegate, OpcodeFamily::kArith},
    {spv::Op::OpFAdd, OpcodeFamily::kArith},
    {spv::Op::OpFSub, OpcodeFamily::kArith},
    {spv::Op::OpFMul, OpcodeFamily::kArith},
    {spv::Op::OpFDiv, OpcodeFamily::kArith},
    {spv::Op::OpFMod, OpcodeFamily::kArith},
    {spv::Op::OpFRem, OpcodeFamily::kArith},
    {spv::Op::OpFNegate, OpcodeFamily::kArith},
    {spv::Op::OpVectorTimesScalar, OpcodeFamily::kArith},
    {spv::Op::OpMatrixTimesScalar, OpcodeFamily::kArith},
    {spv::Op::OpDot, OpcodeFamily::kArith},
    {spv::Op::OpShiftLeftLogical, OpcodeFamily::kArith},
    {spv::Op::OpShiftRightLogical, OpcodeFamily::kArith},
    {spv::Op::OpShiftRightArithmetic, OpcodeFamily::kArith},
    {spv::Op::OpBitwiseAnd, OpcodeFamily::kArith},
    {spv::Op::OpBitwiseOr, OpcodeFamily::kArith},
    {spv::Op::OpBitwiseXor, OpcodeFamily::kArith},
    {spv::Op::OpNot, OpcodeFamily::kArith},
    {spv::Op::OpBitCount, OpcodeFamily::kArith},
    {spv::Op::OpBitReverse, OpcodeFamily::kArith},
    {spv::Op::OpLogicalAnd, OpcodeFamily::kArith},
    {spv::Op::OpLogicalOr, OpcodeFamily::kArith},
    {spv::Op::OpLogicalNot, OpcodeFamily::kArith},
    {spv::Op::OpLogicalEqual, OpcodeFamily::kArith},
    {spv::Op::OpLogicalNotEqual, OpcodeFamily::kArith},
    {spv::Op::OpSelect, OpcodeFamily::kArith},
    {spv::Op::OpAll, OpcodeFamily::kArith},
    {spv::Op::OpAny, OpcodeFamily::kArith},
    {spv::Op::OpIEqual, OpcodeFamily::kArith},
    {spv::Op::OpINotEqual, OpcodeFamily::kArith},
    {spv::Op::OpUGreaterThan, OpcodeFamily::kArith},
    {spv::Op::OpUGreaterThanEqual, OpcodeFamily::kArith},
    {spv::Op::OpULessThan, OpcodeFamily::kArith},
    {spv::Op::OpULessThanEqual, OpcodeFamily::kArith},
    {spv::Op::OpSGreaterThan, OpcodeFamily::kArith},
    {spv::Op::OpSGreaterThanEqual, OpcodeFamily::kArith},
    {spv::Op::OpSLessThan, OpcodeFamily::kArith},
    {spv::Op::OpSLessThanEqual, OpcodeFamily::kArith},
    {spv::Op::OpFOrdEqual, OpcodeFamily::kArith},
    {spv::Op::OpFOrdNotEqual, OpcodeFamily::kArith},
    {spv::Op::OpFOrdLessThan, OpcodeFamily::kArith},
    {spv::Op::OpFOrdLessThanEqual, OpcodeFamily::kArith},
    {spv::Op::OpFOrdGreaterThan, OpcodeFamily::kArith},
    {spv::Op::OpFOrdGreaterThanEqual, OpcodeFamily::kArith},
    {spv::Op::OpFUnordEqual, OpcodeFamily::kArith},
    {spv::Op::OpFUnordNotEqual, OpcodeFamily::kArith},
    {spv::Op::OpFUnordLessThan, OpcodeFamily::kArith},
    {spv::Op::OpFUnordLessThanEqual, OpcodeFamily::kArith},
    {spv::Op::OpFUnordGreaterThan, OpcodeFamily::kArith},
    {spv::Op::OpFUnordGreaterThanEqual, OpcodeFamily::kArith},
    {spv::Op::OpLessOrGreater, OpcodeFamily::kArith},
    {spv::Op::OpOrdered, OpcodeFamily::kArith},
    {spv::Op::OpUnordered, OpcodeFamily::kArith},
    {spv::Op::OpIsNan, OpcodeFamily::kArith},
    {spv::Op::OpIsInf, OpcodeFamily::kArith},
    {spv::Op::OpIsFinite, OpcodeFamily::kArith},
    {spv::Op::OpIsNormal, OpcodeFamily::kArith},
    {spv::Op::OpSignBitSet, OpcodeFamily::kArith},
    // Conversions.
    {spv::Op::OpUConvert, OpcodeFamily::kConvert},
    {spv::Op::OpSConvert, OpcodeFamily::kConvert},
    {spv::Op::OpSatConvertUToS, OpcodeFamily::kConvert},
    {spv::Op::OpSatConvertSToU, OpcodeFamily::kConvert},
    {spv::Op::OpFConvert, OpcodeFamily::kConvert},
    {spv::Op::OpConvertFToU, OpcodeFamily::kConvert},
    {spv::Op::OpConvertFToS, OpcodeFamily::kConvert},
    {spv::Op::OpConvertUToF, OpcodeFamily::kConvert},
    {spv::Op::OpConvertSToF, OpcodeFamily::kConvert},
    {spv::Op::OpBitcast, OpcodeFamily::kConvert},
    // Composites and copies.
    {spv::Op::OpUndef, OpcodeFamily::kComposite},
    {spv::Op::OpCopyObject, OpcodeFamily::kComposite},
    {spv::Op::OpCopyLogical, OpcodeFamily::kComposite},
    {spv::Op::OpCompositeExtract, OpcodeFamily::kComposite},
    {spv::Op::OpCompositeInsert, OpcodeFamily::kComposite},
    {spv::Op::OpCompositeConstruct, OpcodeFamily::kComposite},
    {spv::Op::OpVectorShuffle, OpcodeFamily::kComposite},
    {spv::Op::OpVectorExtractDynamic, OpcodeFamily::kComposite},
    {spv::Op::OpVectorInsertDynamic, OpcodeFamily::kComposite},
    // Memory and pointers.
    {spv::Op::OpVariable, OpcodeFamily::kMemory},
    {spv::Op::OpLoad, OpcodeFamily::kMemory},
    {spv::Op::OpStore, OpcodeFamily::kMemory},
    {spv::Op::OpAccessChain, OpcodeFamily::kMemory},
    {spv::Op::OpInBoundsAccessChain, OpcodeFamily::kMemory},
    {spv::Op::OpPtrAccessChain, OpcodeFamily::kMemory},
    {spv::Op::OpInBoundsPtrAccessChain, OpcodeFamily::kMemory},
    {spv::Op::OpCopyMemory, OpcodeFamily::kMemory},
    {spv::Op::OpCopyMemorySized, OpcodeFamily::kMemory},
    {spv::Op::OpPtrCastToGeneric, OpcodeFamily::kMemory},
    {spv::Op::OpGenericCastToPtr, OpcodeFamily::kMemory},
    {spv::Op::OpGenericCastToPtrExplicit, OpcodeFamily::kMemory},
    {spv::Op::OpGenericPtrMemSemantics, OpcodeFamily::kMemory},
    {spv::Op::OpConvertPtrToU, OpcodeFamily::kMemory},
    {spv::Op::OpConvertUToPtr, OpcodeFamily::kMemory},
    {spv::Op::OpPtrEqual, OpcodeFamily::kMemory},
    {spv::Op::OpPtrNotEqual, OpcodeFamily::kMemory},
    {spv::Op::OpPtrDiff, OpcodeFamily::kMemory},
    // Atomics.
    {spv::Op::OpAtomicLoad, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicStore, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicExchange, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicCompareExchange, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicCompareExchangeWeak, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicIIncrement, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicIDecrement, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicIAdd, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicISub, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicSMin, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicUMin, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicSMax, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicUMax, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicAnd, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicOr, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicXor, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicFlagTestAndSet, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicFlagClear, OpcodeFamily::kAtomic},
    {spv::Op::OpAtomicFAddEXT, OpcodeFamily::kAtomic},
    // Control flow, calls and barriers.
    {spv::Op::OpBranch, OpcodeFamily::kControl},
    {spv::Op::OpBranchConditional, OpcodeFamily::kControl},
    {spv::Op::OpSwitch, OpcodeFamily::kControl},
    {spv::Op::OpReturn, OpcodeFamily::kControl},
    {spv::Op::OpReturnValue, OpcodeFamily::kControl},
    {spv::Op::OpUnreachable, OpcodeFamily::kControl},
    {spv::Op::OpKill, OpcodeFamily::kControl},
    {spv::Op::OpFunctionCall, OpcodeFamily::kControl},
    {spv::Op::OpControlBarrier, OpcodeFamily::kControl},
    {spv::Op::OpMemoryBarrier, OpcodeFamily::kControl},
    // Work-group and subgroup collectives.
    {spv::Op::OpGroupAll, OpcodeFamily::kGroup},
    {spv::Op::OpGroupAny, OpcodeFamily::kGroup},
    {spv::Op::OpGroupBroadcast, OpcodeFamily::kGroup},
    {spv::Op::OpGroupIAdd, OpcodeFamily::kGroup},
    {spv::Op::OpGroupFAdd, OpcodeFamily::kGroup},
    {spv::Op::OpGroupFMin, OpcodeFamily::kGroup},
    {spv::Op::OpGroupUMin, OpcodeFamily::kGroup},
    {spv::Op::OpGroupSMin, OpcodeFamily::kGroup},
    {spv::Op::OpGroupFMax, OpcodeFamily::kGroup},
    {spv::Op::OpGroupUMax, OpcodeFamily::kGroup},
    {spv::Op::OpGroupSMax, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformElect, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformAll, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformAny, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformAllEqual, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformBroadcast, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformBroadcastFirst, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformBallot, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformInverseBallot, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformBallotBitExtract, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformBallotBitCount, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformBallotFindLSB, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformBallotFindMSB, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformShuffle, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformShuffleXor, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformShuffleUp, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformShuffleDown, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformIAdd, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformFAdd, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformIMul, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformFMul, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformSMin, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformUMin, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformFMin, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformSMax, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformUMax, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformFMax, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformBitwiseAnd, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformBitwiseOr, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformBitwiseXor, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformLogicalAnd, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformLogicalOr, OpcodeFamily::kGroup},
    {spv::Op::OpGroupNonUniformLogicalXor, OpcodeFamily::kGroup},
    // SPV_INTEL_subgroups.
    {spv::Op::OpSubgroupShuffleINTEL, OpcodeFamily::kIntelSubgroups},
    {spv::Op::OpSubgroupShuffleDownINTEL, OpcodeFamily::kIntelSubgroups},
    {spv::Op::OpSubgroupShuffleUpINTEL, OpcodeFamily::kIntelSubgroups},
    {spv::Op::OpSubgroupShuffleXorINTEL, OpcodeFamily::kIntelSubgroups},
    {spv::Op::OpSubgroupBlockReadINTEL, OpcodeFamily::kIntelSubgroups},
    {spv::Op::OpSubgroupBlockWriteINTEL, OpcodeFamily::kIntelSubgroups},
    {spv::Op::OpSubgroupImageMediaBlockReadINTEL, OpcodeFamily::kIntelSubgroups},
    {spv::Op::OpSubgroupImageMediaBlockWriteINTEL, OpcodeFamily::kIntelSubgroups},
    {spv::Op::OpSubgroupImageBlockReadINTEL, OpcodeFamily::kImageBlock},
    {spv::Op::OpSubgroupImageBlockWriteINTEL, OpcodeFamily::kImageBlock},
    // The matrix instruction and 2D block IO.
    {spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL, OpcodeFamily::kMatrixMad},
    {spv::Op::OpSubgroup2DBlockLoadINTEL, OpcodeFamily::kBlock2d},
    {spv::Op::OpSubgroup2DBlockLoadTransformINTEL, OpcodeFamily::kBlock2d},
    {spv::Op::OpSubgroup2DBlockLoadTransposeINTEL, OpcodeFamily::kBlock2d},
    {spv::Op::OpSubgroup2DBlockPrefetchINTEL, OpcodeFamily::kBlock2d},
    {spv::Op::OpSubgroup2DBlockStoreINTEL, OpcodeFamily::kBlock2d},
    // Extended instructions (OpenCL.std; non-semantic sets emit nothing).
    {spv::Op::OpExtInst, OpcodeFamily::kExtInst},
    // Cooperative matrices.
    {spv::Op::OpCooperativeMatrixLoadKHR, OpcodeFamily::kCoop},
    {spv::Op::OpCooperativeMatrixStoreKHR, OpcodeFamily::kCoop},
    {spv::Op::OpCooperativeMatrixLoadCheckedINTEL, OpcodeFamily::kCoop},
    {spv::Op::OpCooperativeMatrixStoreCheckedINTEL, OpcodeFamily::kCoop},
    {spv::Op::OpCooperativeMatrixPrefetchINTEL, OpcodeFamily::kCoop},
    {spv::Op::OpCooperativeMatrixMulAddKHR, OpcodeFamily::kCoop},
    {spv::Op::OpCooperativeMatrixConstructCheckedINTEL, OpcodeFamily::kCoop},
    {spv::Op::OpCooperativeMatrixLengthKHR, OpcodeFamily::kCoop},
    {spv::Op::OpCooperativeMatrixGetElementCoordINTEL, OpcodeFamily::kCoop},
};

// Opcodes of other families whose cooperative-matrix or bfloat16 form the cooperative-matrix
// family executes: its binder is asked first and declines the other forms.
inline constexpr spv::Op kCoopForms[] = {spv::Op::OpCompositeConstruct, spv::Op::OpFConvert};

// The first opcode claimed twice in `claims`, if any. constexpr so the build can check the table;
// also run by the unit test on tables made to fail.
constexpr std::optional<spv::Op> FirstDoubleClaim(std::span<const OpcodeClaim> claims) {
  for (size_t i = 0; i < claims.size(); ++i) {
    for (size_t j = i + 1; j < claims.size(); ++j) {
      if (claims[i].opcode == claims[j].opcode) return claims[i].opcode;
    }
  }
  return std::nullopt;
}

// The first entry of `forms` that `claims` does not give to a family other than kCoop (a form
// needs a family that executes the other forms), or that `forms` lists twice.
constexpr std::optional<spv::Op> FirstUnsharedForm(std::span<const OpcodeClaim> claims,
                                                   std::span<const spv::Op> forms) {
  for (size_t i = 0; i < forms.size(); ++i) {
    bool owned = false;
    for (const OpcodeClaim& claim : claims) {
      owned |= claim.opcode == forms[i] && claim.family != OpcodeFamily::kCoop;
    }
    for (size_t j = i + 1; j < forms.size(); ++j) owned &= forms[i] != forms[j];
    if (!owned) return forms[i];
  }
  return std::nullopt;
}

static_assert(!FirstDoubleClaim(kOpcodeClaims).has_value(),
              "kOpcodeClaims: an opcode is claimed by two families");
static_assert(!FirstUnsharedForm(kOpcodeClaims, kCoopForms).has_value(),
              "kCoopForms: every entry must be claimed once by a family other than kCoop");

namespace opcode_table_detail {
constexpr size_t kClaimCount = std::size(kOpcodeClaims);
constexpr std::array<OpcodeClaim, kClaimCount> SortedClaims() {
  std::array<OpcodeClaim, kClaimCount> sorted{};
  std::copy(std::begin(kOpcodeClaims), std::end(kOpcodeClaims), sorted.begin());
  std::sort(sorted.begin(), sorted.end(),
            [](const OpcodeClaim& a, const OpcodeClaim& b) { return a.opcode < b.opcode; });
  return sorted;
}
inline constexpr std::array<OpcodeClaim, kClaimCount> kSortedClaims = SortedClaims();
}  // namespace opcode_table_detail

// The family that executes `opcode`, or nullopt when xmx-run does not execute it.
constexpr std::optional<OpcodeFamily> FamilyOf(spv::Op opcode) {
  const auto& sorted = opcode_table_detail::kSortedClaims;
  const auto* it =
      std::lower_bound(sorted.begin(), sorted.end(), opcode,
                       [](const OpcodeClaim& claim, spv::Op op) { return claim.opcode < op; });
  if (it == sorted.end() || it->opcode != opcode) return std::nullopt;
  return it->family;
}

constexpr bool IsCoopForm(spv::Op opcode) {
  return std::find(std::begin(kCoopForms), std::end(kCoopForms), opcode) != std::end(kCoopForms);
}

}  // namespace xmx::interp
