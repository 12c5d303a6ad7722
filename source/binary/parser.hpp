// Binary layer: reads a SPIR-V module word by word, driven by the merged grammar, with the
// structural checks of SPIRV-Tools' binary parser (header, word counts, operand shapes, literal
// widths that depend on types, extended instruction sets, id bound). Errors name the word offset.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "grammar/grammar.hpp"
#include "xmx/diagnostic.hpp"
#include "xmx/result.hpp"

namespace xmx::binary {

inline constexpr uint32_t kMagic = 0x07230203u;
inline constexpr size_t kHeaderWords = 5;

struct Header {
  uint32_t magic = kMagic;
  uint32_t version = 0;    // 0x00MMmm00
  uint32_t generator = 0;  // tool id << 16 | tool version
  uint32_t bound = 0;
  uint32_t schema = 0;
};

// How a literal number operand is to be read.
// kBFloat16: a 16-bit float with the BFloat16KHR encoding (SPV_KHR_bfloat16), i.e. the high half
// of a binary32; kFloat is an IEEE binary16/32/64.
enum class NumberKind : uint8_t { kNone, kUnsignedInt, kSignedInt, kFloat, kBFloat16 };

struct ParsedOperand {
  uint32_t offset;     // index of the operand's first word within the instruction
  uint16_t num_words;  // words the operand occupies
  // The concrete kind: composite pairs are reported as their two bases, enumerant parameters as
  // operands of their own kinds; IdScope / IdMemorySemantics stay as such (they are ids).
  grammar::OperandKindId kind;
  NumberKind number_kind;    // literal numbers only (LiteralInteger, context-dependent, ...)
  uint8_t number_bit_width;  // literal numbers only
};

struct ParsedInstruction {
  std::span<const uint32_t> words;  // host byte order; words[0] holds word count and opcode
  uint32_t opcode;
  const grammar::Instruction* desc;  // never null after a successful parse of the instruction
  uint32_t result_type_id;           // 0 if none
  uint32_t result_id;                // 0 if none
  // For OpExtInst: the instruction set (nullptr for an unknown NonSemantic.* set, whose operands
  // are all ids) and the extended instruction (nullptr likewise).
  const grammar::ExtInstSet* ext_inst_set;
  const grammar::ExtInstruction* ext_inst;
  std::span<const ParsedOperand> operands;
  size_t word_offset;  // offset of words[0] within the module
  size_t index;        // 0-based instruction number
};

class InstructionHandler {
 public:
  virtual ~InstructionHandler() = default;
  // Return false to stop parsing (Parse then returns true with no diagnostic).
  virtual bool OnHeader(const Header& header) = 0;
  virtual bool OnInstruction(const ParsedInstruction& inst) = 0;
};

struct ParseOptions {
  // Ids must be below the header's bound (as the SPIR-V spec requires).
  bool check_id_bound = true;
};

// Parses `words` (host byte order, see BytesToWords). Fails with one diagnostic, the first
// structural error (its word offset and instruction index set); a handler that stops the walk
// early is a success.
Status Parse(std::span<const uint32_t> words, InstructionHandler& handler,
             const ParseOptions& options = {});

// Turns file bytes into host-order words, detecting the module's endianness from the magic
// number. Fails on a size that is not a multiple of 4 or on a wrong magic number.
Result<std::vector<uint32_t>> BytesToWords(std::span<const uint8_t> bytes);

// The same two with the error in *error (may be null) and a verdict, for the callers not yet on
// Result (the tools, fuzzers and benchmarks move to the public API).
bool Parse(std::span<const uint32_t> words, InstructionHandler& handler, Diagnostic* error,
           const ParseOptions& options = {});
bool BytesToWords(std::span<const uint8_t> bytes, std::vector<uint32_t>* words, Diagnostic* error);

// Writes words as little-endian bytes (the byte order SPIRV-Tools emits).
std::vector<uint8_t> WordsToBytes(std::span<const uint32_t> words);

// Decodes a literal string operand (nul-terminated, packed little-end first). Returns the
// characters before the nul.
std::string DecodeString(std::span<const uint32_t> words);

// Encodes `text` as a literal string (with the terminating nul and zero padding) onto *out.
void EncodeString(std::string_view text, std::vector<uint32_t>* out);

}  // namespace xmx::binary
