// The built-ins that stand for one of our instructions when a producer leaves them as calls of
// imported functions (Intel's driver resolves them by name): one entry per name pattern and
// signature. An entry says what the declaration's types must be, which instruction the call
// becomes, and where each operand of that instruction comes from: a call argument, a constant
// the name encodes (the 2D block shape, the matrix K), the Subgroup scope, or a literal.
//
// Sources: SPEC-NOTES A.2/A.4 (2D block built-ins, width and pitch in bytes like the SPIR-V
// operands, coordinate in elements), B.5/B.6 (matrix built-ins and their operand masks), C.1/C.4
// (Intel subgroup built-ins), D (split matrix built-ins, which have no instruction).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "xmx/spirv_enums.hpp"

namespace xmx::builtins {

// What a parameter or the result must be in the declaration's OpTypeFunction.
struct Shape {
  enum class Kind : uint8_t {
    kVoid,
    kInt,      // integer scalar or vector
    kFloat,    // float scalar or vector
    kNumber,   // integer or float, scalar or vector
    kPointer,  // any storage class (the instruction's rules check it)
    kImage,
    kSameAsResult,
  };
  Kind kind = Kind::kNumber;
  uint8_t bits = 0;   // component width; 0: any
  uint8_t count = 0;  // 1 scalar, N an N-vector; 0: any
};

// Where one operand of the instruction comes from.
struct OperandSource {
  enum class Kind : uint8_t {
    kArgument,         // call argument `value`
    kArgumentLiteral,  // call argument `value`, which must be a constant: a literal operand
    kConstant,         // an OpConstant of 32-bit int `value`
    kNameField,        // an OpConstant of the name's field `value` (NameField)
    kSubgroupScope,    // an OpConstant Scope Subgroup
    kLiteral,          // the literal `value` (e.g. a GroupOperation or an operand mask)
  };
  Kind kind;
  uint32_t value = 0;
};

// Numbers a pattern captures from the name: `{E}` element bits (stored as bytes), `{H}`, `{W}`,
// `{C}` the 2D block height, width and count.
enum NameField : uint8_t { kElementBytes, kHeight, kWidth, kCount, kNumNameFields };
using NameFields = std::array<uint32_t, kNumNameFields>;

enum class Target : uint8_t {
  kInstruction,     // the call becomes `opcode`
  kSplitMatrixMad,  // no instruction: the split matrix calls stay calls (SPEC-NOTES D)
};

struct BuiltinEntry {
  std::string pattern;  // the OpenCL C / __spirv_ name, with {E} {H} {W} {C} fields
  Target target = Target::kInstruction;
  spv::Op opcode = spv::Op::OpNop;
  // When set, the opcode for unsigned integer data (min/max): the first parameter's mangled
  // type says which, and an unmangled name cannot.
  std::optional<spv::Op> unsigned_opcode;
  Shape result;
  std::vector<Shape> params;
  std::vector<OperandSource> operands;
  std::string signature;  // the declaration as a user writes it, for messages
};

// Every entry, in a fixed order.
std::span<const BuiltinEntry> BuiltinTable();

// Matches `name` (a base name, not mangled) against `pattern`; fills the captured fields.
bool MatchPattern(std::string_view pattern, std::string_view name, NameFields* fields);

// The entries whose pattern matches `name`, with their fields.
struct NameMatch {
  const BuiltinEntry* entry;
  NameFields fields;
};
std::vector<NameMatch> FindEntries(std::string_view name);

}  // namespace xmx::builtins
