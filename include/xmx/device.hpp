// Device profiles: what a device (or an environment such as "opencl") accepts for Intel's subgroup,
// 2D block IO and matrix multiply-accumulate instructions. Profiles are data
// (grammar/devices/*.json, schema in grammar/devices/schema.md), embedded at build time and parsed
// by the same code that reads a user's --device-profile file. The validator, the interpreter and
// xmx-query all answer from these tables, so a shape is valid in one exactly when it is in the
// others.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xmx/diagnostic.hpp"

namespace xmx::device {

// --- Element types -------------------------------------------------------------------------------
// Both the SPIR-V component types of operands (i16, i32, f16, f32, ...) and the interpretations an
// operand mask selects (i8/u8 packed in an i32, bf16 in an i16, tf32 in an f32, ...).
enum class ElementType : uint8_t {
  kI4,
  kU4,
  kI8,
  kU8,
  kI16,
  kI32,
  kI64,
  kF16,
  kBF16,
  kTF32,
  kF32,
  kF64,
  kF8E4M3,
  kF8E5M2,
  kF4E2M1,
};
std::string_view ElementTypeName(ElementType type);  // "i8", "bf16", "f8e4m3", ...
std::optional<ElementType> ParseElementType(std::string_view name);
// The SYCL matrix_type spellings (sycl_ext_oneapi_matrix) used by the cooperative_matrix rows
// and xmx-query: s4 u4 s8 u8 s16 s32 s64 fp16 bf16 tf32 fp32 fp64 (float8/float4 keep our names).
std::string_view SyclTypeName(ElementType type);
// Accepts the SYCL spellings above, and also our own names ("i8", "f16", ...).
std::optional<ElementType> ParseSyclType(std::string_view name);
// A type that SPIR-V can declare directly (OpTypeInt / OpTypeFloat): i8..i64, f16, f32, f64.
bool IsSpirvScalarType(ElementType type);

// --- Profile data --------------------------------------------------------------------------------
// How sure the sources are about a row. kConvention marks a reading of a point SPEC-NOTES leaves
// UNCONFIRMED (or DECISIONS settles by convention): the validator reports its use as a warning.
enum class Confidence : uint8_t { kSpec, kDraft, kImplementation, kConvention };
std::string_view ConfidenceName(Confidence confidence);

struct Provenance {
  Confidence confidence = Confidence::kSpec;
  std::string source;  // SPEC-NOTES section, e.g. "B.5"
  std::string note;
};

// kNoTable: only the SPIR-V rules apply (profile "spec"); kNone: the device has no such
// instructions at all.
enum class TableKind : uint8_t { kTable, kNoTable, kNone };

template <typename Row>
struct Table {
  TableKind kind = TableKind::kNone;
  std::vector<Row> rows;
};

// How many components an operand has for a given M.
enum class CountRule : uint8_t { kFixed, kM, kHalfM, kCeilHalfM };

struct ComponentSpec {
  ElementType type = ElementType::kI32;
  CountRule rule = CountRule::kM;
  uint32_t fixed = 0;  // kFixed only

  uint32_t Count(uint32_t m) const;
  std::string ToString() const;  // "i16 x M/2"
};

struct MatrixMadRow {
  uint32_t subgroup_size = 0;
  uint32_t k = 0;
  std::vector<uint32_t> m;
  ComponentSpec result, a, b, c;
  std::vector<uint32_t> operands;  // allowed Matrix Multiply Accumulate Operands masks
  std::string extension;           // extension the module must declare, beyond the MMA one
  Provenance provenance;

  // The subgroup-size-32 form of B.4: two halves of the subgroup share one M x 16 product.
  bool paired() const { return result.rule == CountRule::kHalfM; }
  uint32_t n() const { return paired() ? subgroup_size / 2 : subgroup_size; }
};

enum class Block2dOp : uint8_t { kLoad, kLoadTransform, kLoadTranspose, kPrefetch, kStore };
std::string_view Block2dOpName(Block2dOp op);           // "load_transform" (JSON spelling)
std::string_view Block2dInstructionName(Block2dOp op);  // "OpSubgroup2DBlockLoadTransformINTEL"

struct Block2dRow {
  Block2dOp op = Block2dOp::kLoad;
  uint32_t element_size = 0;
  std::vector<uint32_t> width, height, count;
  Provenance provenance;
};

struct SubgroupSizeRow {
  std::vector<uint32_t> sizes;
  Provenance provenance;
};

struct Range {
  uint64_t min = 0, max = 0;
};

// Per-element-size value (Element Size in bytes -> value); sizes not listed map to `fallback`.
struct PerElementSize {
  std::vector<std::pair<uint32_t, uint32_t>> values;
  uint32_t Get(uint32_t element_size, uint32_t fallback = 1) const;
};

// The run-time restrictions of A.3 / A.4 (undefined behaviour when broken; checked by xmx-run).
// Also: Memory Pitch >= Memory Width, and the private pointer aligned to Element Size.
struct Block2dLimits {
  std::vector<uint32_t> element_sizes;
  PerElementSize block_width_multiple;
  PerElementSize coordinate_x_multiple;
  uint32_t base_alignment = 0;
  Range memory_width, memory_height;
  PerElementSize memory_width_multiple;
  uint32_t pitch_multiple = 0;
  uint32_t operand_bits = 0;                    // required width of Memory */Coordinate; 0 = any
  std::vector<SubgroupSizeRow> subgroup_sizes;  // empty = any size the profile allows
  Provenance provenance;
};

enum class SubgroupOp : uint8_t {
  kShuffle,         // OpSubgroupShuffle{,Down,Up,Xor}INTEL
  kBlockIo,         // OpSubgroupBlockRead/WriteINTEL
  kImageBlockIo,    // OpSubgroupImageBlockRead/WriteINTEL
  kGroupBroadcast,  // OpGroupBroadcast
  kGroupIAdd,       // OpGroupIAdd
  kGroupMinMax,     // OpGroupSMin/UMin/SMax/UMax
};
std::string_view SubgroupOpName(SubgroupOp op);
// The OpGroup* families: widths no row lists are left to the core rules.
bool IsGroupOp(SubgroupOp op);

enum class ScalarKind : uint8_t { kInt, kFloat };
enum class GroupOperation : uint8_t { kReduce = 0, kInclusiveScan = 1, kExclusiveScan = 2 };

struct SubgroupTypeRow {
  std::vector<SubgroupOp> ops;
  std::vector<ScalarKind> kinds;
  std::vector<uint32_t> bits;
  std::vector<uint32_t> vector_sizes;  // 1 = scalar
  std::string feature;     // subgroup_type_features entry the row needs ("char"), or empty
  std::string capability;  // SPIR-V capability the module must declare ("Float16"), or empty
  std::string scope;       // required Execution scope ("Subgroup"), or empty
  std::vector<GroupOperation> group_operations;  // empty = any
  Provenance provenance;
};

struct SplitMatrixMadRow {
  std::string function;  // OpenCL C name, e.g. "intel_sub_group_i8_i8_split_matrix_mad_k32"
  std::optional<uint32_t> subgroup_size;  // absent = any
  uint32_t k = 0;
  std::vector<uint32_t> m;
  ComponentSpec result, a, b, c;
  Provenance provenance;
};

// One row of a device's joint_matrix combinations (COOPERATIVE-MATRIX.md A3: what SYCL's runtime
// reports for the device). Not derived from the matrix_mad rows: a joint_matrix shape such as
// 16x16x16 or 32x64x16 takes several native operations, M may be any value up to 8, and C and D
// may differ. The row accepts every choice of one type from each of `a`, `b`, `c`, `d`.
struct CooperativeMatrixRow {
  std::vector<ElementType> a, b, c, d;  // logical element types (bf16, tf32, i8/u8, ...)
  std::vector<uint32_t> m;              // allowed M values, ascending
  bool m_is_range = false;              // written as {"min", "max"}: printed "1..8"
  uint32_t n = 0, k = 0;
  uint32_t subgroup_size = 0;
  Provenance provenance;

  std::string MText() const;  // "1..8" or "16" or "1, 32"
};

struct ExtensionEntry {
  std::string name;
  Provenance provenance;
};

struct DeviceProfile {
  std::string name;
  std::string description;
  std::vector<std::string> notes;
  bool any_power_of_two_subgroup_size = false;
  std::vector<uint32_t> subgroup_sizes;
  bool any_extension = false;
  std::vector<ExtensionEntry> extensions;
  std::vector<std::string> subgroup_type_features;  // "char", "short", "long"
  Table<SubgroupTypeRow> subgroup_ops;
  Table<MatrixMadRow> matrix_mad;
  Table<Block2dRow> block2d;
  Block2dLimits block2d_limits;
  Table<SplitMatrixMadRow> split_matrix_mad;
  // Absent in a profile without "base": "no_table" (only the SPIR-V rules, like "opencl").
  Table<CooperativeMatrixRow> cooperative_matrix{TableKind::kNoTable, {}};

  bool SupportsSubgroupSize(uint32_t size) const;
  // nullptr when the extension is not exposed (also when any_extension is set).
  const ExtensionEntry* FindExtension(std::string_view extension) const;
  bool ExposesExtension(std::string_view extension) const;
  bool HasFeature(std::string_view feature) const;
};

// --- Loading -------------------------------------------------------------------------------------
inline constexpr std::string_view kDefaultProfileName = "opencl";

// The built-in profiles, parsed once. nullptr for an unknown name.
const DeviceProfile* FindBuiltinProfile(std::string_view name);
std::vector<std::string_view> BuiltinProfileNames();
// Parses a built-in profile afresh, reporting what is wrong with it (for tests and diagnostics).
std::optional<DeviceProfile> LoadBuiltinProfile(std::string_view name, Diagnostic* diagnostic);

// A user profile. Errors are one line: "FILE: matrix_mad[3].k: what is wrong". `source_name`
// names the text in messages. "base" may name a built-in profile.
std::optional<DeviceProfile> LoadProfileFile(const std::filesystem::path& path,
                                             Diagnostic* diagnostic);
std::optional<DeviceProfile> LoadProfileText(std::string_view json_text,
                                             std::string_view source_name, Diagnostic* diagnostic);

// --- Lookups -------------------------------------------------------------------------------------
// kMatched: `row` accepts the query (check its provenance: kConvention -> warning).
// kNoTable: the profile has no table; only the SPIR-V rules apply.
// kNotSupported: the device has no such instructions.
// kCoreRules: the table does not govern this case (OpGroup* at a core width).
// kMismatch: `field` has the value `found`; `supported` lists what the remaining rows allow.
enum class MatchStatus : uint8_t { kMatched, kNoTable, kNotSupported, kCoreRules, kMismatch };

// What a mismatch is about, for a caller that classifies it (xmx-val's rule ids) without reading
// the text meant for people (`field`).
enum class MismatchKind : uint8_t {
  kOther,
  kSubgroupSize,
  kKDim,
  kResultCount,     // the matrix instruction's Result component count (its M)
  kComponentType,   // an operand's component type
  kComponentCount,  // an operand's component count for the matched M
  kOperands,        // the operand bits
  kShape,           // a cooperative matrix's M x N x K
};

struct Mismatch {
  std::string field;  // "K Dim", "Block Width", ...
  std::string found;
  std::string context;  // ", for subgroup size 16" -- the values already matched
  std::vector<std::string> supported;
  MismatchKind kind = MismatchKind::kOther;
};

struct OperandShape {
  ElementType type = ElementType::kI32;
  uint32_t count = 1;  // components; 1 for a scalar
};

struct MatrixMadQuery {
  uint32_t subgroup_size = 0;
  uint32_t k = 0;
  OperandShape result, a, b, c;
  uint32_t operands = 0;  // absent literal = 0 (None)
};

struct MatrixMadMatch {
  MatchStatus status = MatchStatus::kMismatch;
  const MatrixMadRow* row = nullptr;  // kMatched
  uint32_t m = 0;                     // kMatched: M (twice the Result count in the paired form)
  Mismatch mismatch;                  // kMismatch
  std::vector<const MatrixMadRow*> nearest;  // kMismatch: the rows left when the check failed

  // "K Dim 42 is not supported by OpSubgroupMatrixMultiplyAccumulateINTEL for subgroup size 16
  // on device pvc; supported: 8, 16, 32, 64" (empty when matched or no table).
  std::string Message(const DeviceProfile& profile) const;
};
MatrixMadMatch MatchMatrixMad(const DeviceProfile& profile, const MatrixMadQuery& query);

struct Block2dMatch {
  MatchStatus status = MatchStatus::kMismatch;
  const Block2dRow* row = nullptr;
  Mismatch mismatch;
  std::string instruction;  // for the message

  // "Block Width 24 is not supported for Element Size 2 by OpSubgroup2DBlockLoadINTEL on device
  // pvc; supported: 16"
  std::string Message(const DeviceProfile& profile) const;
};
Block2dMatch MatchBlock2d(const DeviceProfile& profile, Block2dOp op, uint32_t element_size,
                          uint32_t width, uint32_t height, uint32_t count);
// The subgroup sizes the 2D block instructions may run at (block2d_limits.subgroup_sizes).
const SubgroupSizeRow* MatchBlock2dSubgroupSize(const DeviceProfile& profile, uint32_t size,
                                                std::vector<uint32_t>* supported);

struct SubgroupTypeQuery {
  SubgroupOp op = SubgroupOp::kShuffle;
  ScalarKind kind = ScalarKind::kInt;
  uint32_t bits = 32;
  uint32_t components = 1;
  std::optional<GroupOperation> group_operation;
};

struct SubgroupTypeMatch {
  MatchStatus status = MatchStatus::kMismatch;
  const SubgroupTypeRow* row = nullptr;
  Mismatch mismatch;
  std::string Message(const DeviceProfile& profile, const SubgroupTypeQuery& query) const;
};
SubgroupTypeMatch MatchSubgroupType(const DeviceProfile& profile, const SubgroupTypeQuery& query);

struct SplitMatrixMadMatch {
  MatchStatus status = MatchStatus::kMismatch;
  const SplitMatrixMadRow* row = nullptr;
  uint32_t m = 0;
  Mismatch mismatch;
  std::string Message(const DeviceProfile& profile) const;
};
// `function` is the OpenCL C name (see ItaniumBaseName for a mangled linkage name); M comes from
// the Result count.
SplitMatrixMadMatch MatchSplitMatrixMad(const DeviceProfile& profile, std::string_view function,
                                        uint32_t subgroup_size, const OperandShape& result,
                                        const OperandShape& a, const OperandShape& b,
                                        const OperandShape& c);
// "_Z42intel_sub_group_i8_i8_split_matrix_mad_k32iDv8_iDv2_i" -> the function name; other
// strings are returned unchanged.
std::string_view ItaniumBaseName(std::string_view linkage_name);

// --- SYCL-style matrix queries (sycl_ext_oneapi_matrix, SPEC-NOTES E.2) ------------------------
// These answer for the native instruction (OpSubgroupMatrixMultiplyAccumulateINTEL): they are
// derived from the matrix_mad rows, so M is in {1, 2, 4, 8}, C equals D, and the int4 rows are
// there. They are xmx-query's `--table matrix`. What joint_matrix (cooperative matrices)
// supports is the cooperative_matrix table and its queries further below (issue 10).
// The logical element types of A, B, C and D (= Result), as an operand mask selects them.
struct MatrixTypes {
  ElementType a, b, c, d;
  friend bool operator==(const MatrixTypes&, const MatrixTypes&) = default;
};
std::string ToString(const MatrixTypes& types);  // "A u8, B i8, C i32, D i32"
// The interpretation of `operands` for a row (B.2): e.g. 0x31 with i16 A -> A i8, B u8.
MatrixTypes InterpretOperands(const MatrixMadRow& row, uint32_t operands);

struct MatrixShape {
  uint32_t m = 0, n = 0, k = 0;
  friend bool operator==(const MatrixShape&, const MatrixShape&) = default;
};

// One row and one operand mask: M takes any value in `m`, N and K are fixed.
struct MatrixCombination {
  MatrixTypes types;
  std::vector<uint32_t> m;
  uint32_t n = 0, k = 0;
  uint32_t subgroup_size = 0;
  uint32_t operands = 0;
  const MatrixMadRow* row = nullptr;
};

// "general": every combination of the profile.
std::vector<MatrixCombination> MatrixCombinations(const DeviceProfile& profile);
// "default": the largest shape (by M*N*K, then by smaller subgroup size) for the given types.
std::optional<MatrixShape> DefaultMatrixShape(const DeviceProfile& profile,
                                              const MatrixTypes& types,
                                              std::optional<uint32_t> subgroup_size = {});

struct MatrixShapeCheck {
  MatchStatus status = MatchStatus::kMismatch;   // kMatched, kNoTable, kNotSupported, kMismatch
  std::optional<MatrixCombination> combination;  // kMatched
  std::vector<MatrixShape> nearest;              // kMismatch: closest valid shapes, best first
  std::string message;                           // kMismatch / kNoTable / kNotSupported
};
// "validation": whether types + M, N, K are supported; if not, the nearest valid shapes.
MatrixShapeCheck ValidateMatrixShape(const DeviceProfile& profile, const MatrixTypes& types,
                                     const MatrixShape& shape,
                                     std::optional<uint32_t> subgroup_size = {});

// --- Cooperative matrix (joint_matrix) queries: the cooperative_matrix rows --------------------
// The same three forms as the native table above, answered from the joint_matrix rows. xmx-val's
// coop.device.* rules and xmx-query both go through MatchCooperativeMatrix, so a combination is
// valid in one exactly when it is in the other.

// One row and one choice of A, B, C, D types (SYCL's `combination`).
struct CooperativeMatrixCombination {
  MatrixTypes types;
  std::vector<uint32_t> m;  // allowed M values
  bool m_is_range = false;
  uint32_t n = 0, k = 0;
  uint32_t subgroup_size = 0;
  const CooperativeMatrixRow* row = nullptr;
};
std::string ToSyclString(const MatrixTypes& types);  // "A bf16, B bf16, C fp32, D fp32"

// "general": every combination of the profile (empty without a table).
std::vector<CooperativeMatrixCombination> CooperativeMatrixCombinations(
    const DeviceProfile& profile);

struct CooperativeMatrixQuery {
  MatrixTypes types;
  MatrixShape shape;
  uint32_t subgroup_size = 0;  // 0: any subgroup size of the rows
};

// kMatched: `row` accepts the query (kConvention rows -> warning in xmx-val). kMismatch: the
// first field that fails, in the order A, B, C, D types, shape (M x N x K), subgroup size, with
// what the rows left at that point support.
struct CooperativeMatrixMatch {
  MatchStatus status = MatchStatus::kMismatch;
  const CooperativeMatrixRow* row = nullptr;
  Mismatch mismatch;  // field: "Matrix A type", ..., "Shape (M x N x K)", "Subgroup size"
  // "Matrix A type fp32 is not supported by OpCooperativeMatrixMulAddKHR on device pvc;
  // supported: u8, s8, fp16, bf16, tf32"; for kNotSupported: "device X has no cooperative
  // matrix (joint_matrix) support"; empty when matched or no table.
  std::string Message(const DeviceProfile& profile) const;
};
CooperativeMatrixMatch MatchCooperativeMatrix(const DeviceProfile& profile,
                                              const CooperativeMatrixQuery& query);

// "default": the largest shape (by M*N*K, then the smaller subgroup size) for the types.
std::optional<MatrixShape> DefaultCooperativeMatrixShape(
    const DeviceProfile& profile, const MatrixTypes& types,
    std::optional<uint32_t> subgroup_size = {});

struct CooperativeMatrixShapeCheck {
  MatchStatus status = MatchStatus::kMismatch;  // kMatched, kNoTable, kNotSupported, kMismatch
  std::optional<CooperativeMatrixCombination> combination;  // kMatched
  std::vector<MatrixShape> nearest;  // kMismatch: closest valid shapes for the types, best first
  std::string message;               // kMismatch / kNoTable / kNotSupported
};
// "validation": MatchCooperativeMatrix, plus the nearest valid shapes when it fails.
CooperativeMatrixShapeCheck ValidateCooperativeMatrixShape(
    const DeviceProfile& profile, const MatrixTypes& types, const MatrixShape& shape,
    std::optional<uint32_t> subgroup_size = {});

// The Use of a cooperative matrix (SPV_KHR_cooperative_matrix: 0 A, 1 B, 2 Accumulator).
enum class MatrixUse : uint8_t { kA, kB, kAccumulator };
// Whether some row, at any subgroup size, takes a matrix of this use, one of `types` (the
// readings its component type allows) and rows x cols (A: M x K, B: K x N, accumulator: M x N
// with the row's C or D type). When none does, `supported` gets the "ROWSxCOLS" shapes the rows
// with one of these types allow for the use (empty: no row has the types).
bool CooperativeMatrixUseFits(const DeviceProfile& profile, MatrixUse use,
                              const std::vector<ElementType>& types, uint32_t rows, uint32_t cols,
                              std::vector<std::string>* supported);

}  // namespace xmx::device
