#include "builtins/builtin_table.hpp"

#include <string>

namespace xmx::builtins {
namespace {

using Kind = Shape::Kind;
using Src = OperandSource::Kind;

constexpr Shape Void() { return {Kind::kVoid, 0, 0}; }
constexpr Shape Int(uint8_t bits = 0, uint8_t count = 0) { return {Kind::kInt, bits, count}; }
constexpr Shape Float(uint8_t bits = 0, uint8_t count = 0) { return {Kind::kFloat, bits, count}; }
constexpr Shape Number(uint8_t count = 0) { return {Kind::kNumber, 0, count}; }
constexpr Shape Pointer() { return {Kind::kPointer, 0, 0}; }
constexpr Shape Image() { return {Kind::kImage, 0, 0}; }
constexpr Shape SameAsResult() { return {Kind::kSameAsResult, 0, 0}; }

OperandSource Arg(uint32_t index) { return {Src::kArgument, index}; }
OperandSource ArgLiteral(uint32_t index) { return {Src::kArgumentLiteral, index}; }
OperandSource Constant(uint32_t value) { return {Src::kConstant, value}; }
OperandSource Field(NameField field) { return {Src::kNameField, field}; }
OperandSource Scope() { return {Src::kSubgroupScope, 0}; }
OperandSource Literal(uint32_t value) { return {Src::kLiteral, value}; }

std::vector<OperandSource> Args(uint32_t first, uint32_t count) {
  std::vector<OperandSource> out;
  for (uint32_t i = first; i < first + count; ++i) out.push_back(Arg(i));
  return out;
}
std::vector<OperandSource> Concat(std::vector<OperandSource> a,
                                  const std::vector<OperandSource>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// cl_intel_subgroup_2d_block_io (SPEC-NOTES A.4): the name gives Element Size, Block Height,
// Width and Count; width and pitch are bytes and the coordinate elements in both the OpenCL C
// functions and the instructions, so the arguments pass through unchanged.
void Add2dBlock(std::vector<BuiltinEntry>& t) {
  const std::vector<OperandSource> shape = {Field(kElementBytes), Field(kWidth), Field(kHeight),
                                            Field(kCount)};
  const std::vector<Shape> surface = {Pointer(), Int(32, 1), Int(32, 1), Int(32, 1), Int(32, 2)};
  std::vector<Shape> with_private = surface;
  with_private.push_back(Pointer());
  const char* kSuffix = "_{E}b_{H}r{W}x{C}c";
  const char* kLoadSignature =
      "void (global void* base, int width, int height, int pitch, int2 coord, private T* dst)";
  const std::pair<const char*, spv::Op> loads[] = {
      {"read", spv::Op::OpSubgroup2DBlockLoadINTEL},
      {"read_transform", spv::Op::OpSubgroup2DBlockLoadTransformINTEL},
      {"read_transpose", spv::Op::OpSubgroup2DBlockLoadTransposeINTEL}};
  for (const auto& [what, opcode] : loads) {
    t.push_back({std::string("intel_sub_group_2d_block_") + what + kSuffix, Target::kInstruction,
                 opcode, std::nullopt, Void(), with_private, Concat(shape, Args(0, 6)),
                 kLoadSignature});
  }
  // The store takes the private source before the global base (A.2).
  t.push_back({std::string("intel_sub_group_2d_block_write") + kSuffix, Target::kInstruction,
               spv::Op::OpSubgroup2DBlockStoreINTEL, std::nullopt, Void(), with_private,
               Concat(shape, {Arg(5), Arg(0), Arg(1), Arg(2), Arg(3), Arg(4)}),
               "void (global void* base, int width, int height, int pitch, int2 coord, "
               "private T* src)"});
  t.push_back({std::string("intel_sub_group_2d_block_prefetch") + kSuffix, Target::kInstruction,
               spv::Op::OpSubgroup2DBlockPrefetchINTEL, std::nullopt, Void(), surface,
               Concat(shape, Args(0, 5)),
               "void (global void* base, int width, int height, int pitch, int2 coord)"});

  // The __spirv_ forms take every operand as an argument, in the instruction's order.
  const std::vector<Shape> dims = {Int(0, 1), Int(0, 1), Int(0, 1), Int(0, 1)};
  const std::vector<Shape> memory = {Int(0, 1), Int(0, 1), Int(0, 1), Int(0, 2)};
  auto spirv = [&](const char* name, spv::Op opcode, std::vector<Shape> pointers,
                   const char* signature) {
    std::vector<Shape> params = dims;
    params.insert(params.end(), pointers.begin(), pointers.begin() + 1);
    if (opcode == spv::Op::OpSubgroup2DBlockStoreINTEL) params.push_back(pointers[1]);
    params.insert(params.end(), memory.begin(), memory.end());
    if (opcode != spv::Op::OpSubgroup2DBlockStoreINTEL && pointers.size() > 1) {
      params.push_back(pointers[1]);
    }
    const uint32_t n = static_cast<uint32_t>(params.size());
    t.push_back({name, Target::kInstruction, opcode, std::nullopt, Void(), std::move(params),
                 Args(0, n), signature});
  };
  const char* kSpirvLoad =
      "void (int element_size, int block_width, int block_height, int block_count, global "
      "void* base, int width, int height, int pitch, int2 coord, private void* dst)";
  spirv("__spirv_Subgroup2DBlockLoadINTEL", spv::Op::OpSubgroup2DBlockLoadINTEL,
        {Pointer(), Pointer()}, kSpirvLoad);
  spirv("__spirv_Subgroup2DBlockLoadTransformINTEL", spv::Op::OpSubgroup2DBlockLoadTransformINTEL,
        {Pointer(), Pointer()}, kSpirvLoad);
  spirv("__spirv_Subgroup2DBlockLoadTransposeINTEL", spv::Op::OpSubgroup2DBlockLoadTransposeINTEL,
        {Pointer(), Pointer()}, kSpirvLoad);
  spirv("__spirv_Subgroup2DBlockStoreINTEL", spv::Op::OpSubgroup2DBlockStoreINTEL,
        {Pointer(), Pointer()},
        "void (int element_size, int block_width, int block_height, int block_count, private "
        "void* src, global void* base, int width, int height, int pitch, int2 coord)");
  spirv("__spirv_Subgroup2DBlockPrefetchINTEL", spv::Op::OpSubgroup2DBlockPrefetchINTEL,
        {Pointer()},
        "void (int element_size, int block_width, int block_height, int block_count, global "
        "void* base, int width, int height, int pitch, int2 coord)");
}

// Matrix built-ins (SPEC-NOTES B.5, B.6): K and the operand mask come from the name (and, for
// bf16, from the accumulator type). Which M, A and B shapes a device has is the instruction's
// rules' business: the signature only fixes what tells the rows apart.
void AddMatrix(std::vector<BuiltinEntry>& t) {
  auto add = [&](const std::string& types, uint32_t k, uint32_t mask, Shape result, Shape a,
                 Shape b, const char* signature) {
    t.push_back({"intel_sub_group_" + types + "_matrix_mad_k" + std::to_string(k),
                 Target::kInstruction,
                 spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL,
                 std::nullopt,
                 result,
                 {a, b, SameAsResult()},
                 {Constant(k), Arg(0), Arg(1), Arg(2), Literal(mask)},
                 signature});
  };
  const std::pair<const char*, uint32_t> int8[] = {
      {"i8_i8", 0x33}, {"i8_u8", 0x31}, {"u8_i8", 0x32}, {"u8_u8", 0x30}};
  for (const auto& [types, mask] : int8) {
    add(types, 32, mask, Int(32), Int(), Int(32, 8), "intN (shortN/intN a, int8 b, intN acc)");
  }
  const std::pair<const char*, uint32_t> int4[] = {
      {"i4_i4", 0xC3}, {"i4_u4", 0xC1}, {"u4_i4", 0xC2}, {"u4_u4", 0xC0}};
  for (const auto& [types, mask] : int4) {
    add(types, 64, mask, Int(32), Int(), Int(32, 8), "intN (shortN/intN a, int8 b, intN acc)");
  }
  add("f16_f16", 16, 0xC00, Float(), Int(), Int(32, 8),
      "floatN/halfN (shortN/intN a, int8 b, floatN/halfN acc)");
  add("bf16_bf16", 16, 0x3000, Float(32), Int(), Int(32, 8),
      "floatN (shortN/intN a, int8 b, floatN acc)");
  add("bf16_bf16", 16, 0x300C, Int(16), Int(16), Int(32, 8),
      "shortN (shortN a, int8 b, shortN acc)");
  add("tf32_tf32", 8, 0x300, Float(32), Float(32), Float(32, 8),
      "floatN (floatN a, float8 b, floatN acc)");

  t.push_back({"__spirv_SubgroupMatrixMultiplyAccumulateINTEL",
               Target::kInstruction,
               spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL,
               std::nullopt,
               Number(),
               {Int(32, 1), Number(), Number(), Number(), Int(32, 1)},
               {Arg(0), Arg(1), Arg(2), Arg(3), ArgLiteral(4)},
               "T (int k, A a, B b, T c, int operands)"});

  // The split forms have no instruction; section D's table is checked by the split-mad rules.
  const char* split[] = {"i8_i8_split_matrix_mad_k32",     "i8_u8_split_matrix_mad_k32",
                         "u8_i8_split_matrix_mad_k32",     "u8_u8_split_matrix_mad_k32",
                         "bf16_bf16_split_matrix_mad_k16", "f16_f16_split_matrix_mad_k16"};
  for (const char* name : split) {
    t.push_back({std::string("intel_sub_group_") + name,
                 Target::kSplitMatrixMad,
                 spv::Op::OpNop,
                 std::nullopt,
                 Number(),
                 {Number(), Number(), Number()},
                 {},
                 "T (A a, B b, T acc)"});
  }
}

// SPV_INTEL_subgroups and cl_intel_subgroups_char/short/long (SPEC-NOTES C.1, C.4).
void AddSubgroups(std::vector<BuiltinEntry>& t) {
  struct Shuffle {
    const char* opencl;
    const char* spirv;
    spv::Op opcode;
    uint32_t data_args;
    const char* signature;
  };
  const Shuffle kShuffles[] = {
      {"intel_sub_group_shuffle", "__spirv_SubgroupShuffleINTEL", spv::Op::OpSubgroupShuffleINTEL,
       1, "T (T data, uint id)"},
      {"intel_sub_group_shuffle_down", "__spirv_SubgroupShuffleDownINTEL",
       spv::Op::OpSubgroupShuffleDownINTEL, 2, "T (T current, T next, uint delta)"},
      {"intel_sub_group_shuffle_up", "__spirv_SubgroupShuffleUpINTEL",
       spv::Op::OpSubgroupShuffleUpINTEL, 2, "T (T previous, T current, uint delta)"},
      {"intel_sub_group_shuffle_xor", "__spirv_SubgroupShuffleXorINTEL",
       spv::Op::OpSubgroupShuffleXorINTEL, 1, "T (T data, uint value)"},
  };
  for (const Shuffle& s : kShuffles) {
    std::vector<Shape> params(s.data_args, SameAsResult());
    params.push_back(Int(0, 1));
    for (const char* name : {s.opencl, s.spirv}) {
      t.push_back({name, Target::kInstruction, s.opcode, std::nullopt, Number(), params,
                   Args(0, s.data_args + 1), s.signature});
    }
  }

  // Block IO: `intel_sub_group_block_read{_uc,_us,,_ui,_ul}{,2,4,8,16}`; a first argument that
  // is an image makes it the image form (C.4, the translator's mapping).
  const std::pair<const char*, uint8_t> kSuffixes[] = {
      {"_uc", 8}, {"_us", 16}, {"", 32}, {"_ui", 32}, {"_ul", 64}};
  const std::pair<const char*, uint8_t> kWidths[] = {
      {"", 1}, {"2", 2}, {"4", 4}, {"8", 8}, {"16", 16}};
  for (const auto& [suffix, bits] : kSuffixes) {
    for (const auto& [width, count] : kWidths) {
      const Shape data = Int(bits, count);
      const std::string tail = std::string(suffix) + width;
      t.push_back({"intel_sub_group_block_read" + tail,
                   Target::kInstruction,
                   spv::Op::OpSubgroupBlockReadINTEL,
                   std::nullopt,
                   data,
                   {Pointer()},
                   Args(0, 1),
                   "T (const global/local T* p)"});
      t.push_back({"intel_sub_group_block_read" + tail,
                   Target::kInstruction,
                   spv::Op::OpSubgroupImageBlockReadINTEL,
                   std::nullopt,
                   data,
                   {Image(), Int(32, 2)},
                   Args(0, 2),
                   "T (image2d_t image, int2 coord)"});
      t.push_back({"intel_sub_group_block_write" + tail,
                   Target::kInstruction,
                   spv::Op::OpSubgroupBlockWriteINTEL,
                   std::nullopt,
                   Void(),
                   {Pointer(), data},
                   Args(0, 2),
                   "void (global/local T* p, T data)"});
      t.push_back({"intel_sub_group_block_write" + tail,
                   Target::kInstruction,
                   spv::Op::OpSubgroupImageBlockWriteINTEL,
                   std::nullopt,
                   Void(),
                   {Image(), Int(32, 2), data},
                   Args(0, 3),
                   "void (image2d_t image, int2 coord, T data)"});
    }
  }
  t.push_back({"__spirv_SubgroupBlockReadINTEL",
               Target::kInstruction,
               spv::Op::OpSubgroupBlockReadINTEL,
               std::nullopt,
               Number(),
               {Pointer()},
               Args(0, 1),
               "T (const global T* p)"});
  t.push_back({"__spirv_SubgroupBlockWriteINTEL",
               Target::kInstruction,
               spv::Op::OpSubgroupBlockWriteINTEL,
               std::nullopt,
               Void(),
               {Pointer(), Number()},
               Args(0, 2),
               "void (global T* p, T data)"});
  t.push_back({"__spirv_SubgroupImageBlockReadINTEL",
               Target::kInstruction,
               spv::Op::OpSubgroupImageBlockReadINTEL,
               std::nullopt,
               Number(),
               {Image(), Int(0, 2)},
               Args(0, 2),
               "T (image2d_t image, int2 coord)"});
  t.push_back({"__spirv_SubgroupImageBlockWriteINTEL",
               Target::kInstruction,
               spv::Op::OpSubgroupImageBlockWriteINTEL,
               std::nullopt,
               Void(),
               {Image(), Int(0, 2), Number()},
               Args(0, 3),
               "void (image2d_t image, int2 coord, T data)"});

  // Broadcast, reductions and scans with Subgroup scope (the char/short forms LLVM's backend
  // leaves as calls; cl_khr_subgroups' sub_group_broadcast too).
  for (const char* name : {"intel_sub_group_broadcast", "sub_group_broadcast"}) {
    t.push_back({name,
                 Target::kInstruction,
                 spv::Op::OpGroupBroadcast,
                 std::nullopt,
                 Number(1),
                 {SameAsResult(), Int(0, 1)},
                 {Scope(), Arg(0), Arg(1)},
                 "T (T value, uint sub_group_local_id)"});
  }
  const std::pair<const char*, spv::GroupOperation> kOperations[] = {
      {"reduce", spv::GroupOperation::Reduce},
      {"scan_inclusive", spv::GroupOperation::InclusiveScan},
      {"scan_exclusive", spv::GroupOperation::ExclusiveScan}};
  struct Combine {
    const char* name;
    spv::Op opcode;
    std::optional<spv::Op> unsigned_opcode;
  };
  const Combine kCombines[] = {{"add", spv::Op::OpGroupIAdd, std::nullopt},
                               {"min", spv::Op::OpGroupSMin, spv::Op::OpGroupUMin},
                               {"max", spv::Op::OpGroupSMax, spv::Op::OpGroupUMax}};
  for (const auto& [operation_name, operation] : kOperations) {
    for (const Combine& c : kCombines) {
      t.push_back({std::string("intel_sub_group_") + operation_name + "_" + c.name,
                   Target::kInstruction,
                   c.opcode,
                   c.unsigned_opcode,
                   Int(0, 1),
                   {SameAsResult()},
                   {Scope(), Literal(static_cast<uint32_t>(operation)), Arg(0)},
                   "T (T x)"});
    }
  }
}

std::vector<BuiltinEntry> MakeTable() {
  std::vector<BuiltinEntry> t;
  Add2dBlock(t);
  AddMatrix(t);
  AddSubgroups(t);
  return t;
}

}  // namespace

std::span<const BuiltinEntry> BuiltinTable() {
  static const std::vector<BuiltinEntry> table = MakeTable();
  return table;
}

bool MatchPattern(std::string_view pattern, std::string_view name, NameFields* fields) {
  NameFields found{};
  size_t p = 0, n = 0;
  while (p < pattern.size()) {
    if (pattern[p] != '{') {
      if (n >= name.size() || name[n] != pattern[p]) return false;
      ++p, ++n;
      continue;
    }
    const size_t close = pattern.find('}', p);
    if (close == std::string_view::npos || close != p + 2) return false;
    const char field = pattern[p + 1];
    p = close + 1;
    uint64_t value = 0;
    const size_t start = n;
    while (n < name.size() && name[n] >= '0' && name[n] <= '9' && n - start < 9) {
      value = value * 10 + static_cast<uint64_t>(name[n++] - '0');
    }
    if (n == start || (name[start] == '0' && n - start > 1)) return false;
    switch (field) {
      case 'E':
        if (value % 8 != 0 || value == 0) return false;
        found[kElementBytes] = static_cast<uint32_t>(value / 8);
        break;
      case 'H':
        found[kHeight] = static_cast<uint32_t>(value);
        break;
      case 'W':
        found[kWidth] = static_cast<uint32_t>(value);
        break;
      case 'C':
        found[kCount] = static_cast<uint32_t>(value);
        break;
      default:
        return false;
    }
  }
  if (n != name.size()) return false;
  if (fields) *fields = found;
  return true;
}

std::vector<NameMatch> FindEntries(std::string_view name) {
  std::vector<NameMatch> out;
  for (const BuiltinEntry& entry : BuiltinTable()) {
    NameFields fields{};
    if (MatchPattern(entry.pattern, name, &fields)) out.push_back({&entry, fields});
  }
  return out;
}

}  // namespace xmx::builtins
