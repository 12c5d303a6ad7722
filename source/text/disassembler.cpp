// The text follows SPIRV-Tools 2023.1 (source/disassemble.cpp) byte for byte, colours included:
// the module is parsed once into a compact list of instructions while the friendly names are
// collected (names can refer forward, so they must all be known before printing), then the text
// is built in one string.
#include "text/disassembler.hpp"

#include <string_view>
#include <vector>

#include "binary/parser.hpp"
#include "grammar/grammar.hpp"
#include "text/friendly_names.hpp"
#include "text/number_format.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::text {
namespace {

using grammar::OperandCategory;
using grammar::OperandKindId;
using spv::Op;

// The ANSI sequences of SPIRV-Tools' clr:: manipulators.
constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kGrey = "\x1b[1;30m";
constexpr std::string_view kRed = "\x1b[31m";
constexpr std::string_view kGreen = "\x1b[32m";
constexpr std::string_view kYellow = "\x1b[33m";
constexpr std::string_view kBlue = "\x1b[34m";

constexpr int kStandardIndent = 15;

// What printing needs of a parsed instruction; its operands live in one shared vector.
struct Record {
  uint32_t word_offset;
  uint32_t num_words;
  uint32_t first_operand;
  uint32_t num_operands;
  uint32_t result_id;
  const grammar::ExtInstruction* ext_inst;
};

class Collector : public binary::InstructionHandler {
 public:
  Collector(size_t module_words, bool friendly)
      : module_words_(module_words), friendly_(friendly) {}

  bool OnHeader(const binary::Header& header) override {
    header_ = header;
    has_header_ = true;
    if (friendly_) names_.Reset(header.bound, module_words_ + 64);
    records_.reserve(module_words_ / 4);
    operands_.reserve(module_words_ / 2);
    return true;
  }

  bool OnInstruction(const binary::ParsedInstruction& inst) override {
    if (friendly_) names_.OnInstruction(inst);
    // SPIRV-Tools 2023.1 does not map "NonSemantic.DebugPrintf" to its grammar: spirv-dis
    // prints its instruction numbers (its operands are ids either way).
    const grammar::ExtInstruction* ext_inst = inst.ext_inst;
    if (inst.ext_inst_set &&
        std::string_view(inst.ext_inst_set->import_name) == "NonSemantic.DebugPrintf") {
      ext_inst = nullptr;
    }
    records_.push_back({static_cast<uint32_t>(inst.word_offset),
                        static_cast<uint32_t>(inst.words.size()),
                        static_cast<uint32_t>(operands_.size()),
                        static_cast<uint32_t>(inst.operands.size()), inst.result_id, ext_inst});
    operands_.insert(operands_.end(), inst.operands.begin(), inst.operands.end());
    return true;
  }

  size_t module_words_;
  bool friendly_;
  binary::Header header_;
  bool has_header_ = false;
  FriendlyNames names_;
  std::vector<Record> records_;
  std::vector<binary::ParsedOperand> operands_;
};

// spvOpcodeIsDecoration, spvOpcodeIsDebug and spvOpcodeGeneratesType of SPIRV-Tools 2023.1,
// which place the --comment section headings.
bool IsDecoration(Op op) {
  switch (op) {
    case Op::OpDecorate:
    case Op::OpDecorateId:
    case Op::OpMemberDecorate:
    case Op::OpGroupDecorate:
    case Op::OpGroupMemberDecorate:
    case Op::OpDecorateString:
    case Op::OpMemberDecorateString:
      return true;
    default:
      return false;
  }
}

bool IsDebug(Op op) {
  switch (op) {
    case Op::OpName:
    case Op::OpMemberName:
    case Op::OpSource:
    case Op::OpSourceContinued:
    case Op::OpSourceExtension:
    case Op::OpString:
    case Op::OpLine:
    case Op::OpNoLine:
    case Op::OpModuleProcessed:
      return true;
    default:
      return false;
  }
}

bool GeneratesType(Op op) {
  switch (op) {
    case Op::OpTypeVoid:
    case Op::OpTypeBool:
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
    case Op::OpTypeVector:
    case Op::OpTypeMatrix:
    case Op::OpTypeImage:
    case Op::OpTypeSampler:
    case Op::OpTypeSampledImage:
    case Op::OpTypeArray:
    case Op::OpTypeRuntimeArray:
    case Op::OpTypeStruct:
    case Op::OpTypeOpaque:
    case Op::OpTypePointer:
    case Op::OpTypeFunction:
    case Op::OpTypeEvent:
    case Op::OpTypeDeviceEvent:
    case Op::OpTypeReserveId:
    case Op::OpTypeQueue:
    case Op::OpTypePipe:
    case Op::OpTypePipeStorage:
    case Op::OpTypeNamedBarrier:
    case Op::OpTypeAccelerationStructureKHR:
    case Op::OpTypeCooperativeMatrixNV:
    case Op::OpTypeRayQueryKHR:
    case Op::OpTypeHitObjectNV:
    // The type of our extension grammars (the installed SPIRV-Tools predates it).
    case Op::OpTypeCooperativeMatrixKHR:
      return true;
    default:
      return false;
  }
}

// The spelling spirv-dis prints for each opcode. SPIRV-Tools sorts its instruction table by
// opcode and then by name, so of several spellings of one opcode (OpReportIntersectionNV /
// OpReportIntersectionKHR) it prints the alphabetically first; enumerants keep grammar order.
const char* OpcodeName(uint32_t opcode) {
  static const std::vector<const char*> names = [] {
    std::vector<const char*> v;
    for (const grammar::Instruction& inst : grammar::AllInstructions()) {
      if (inst.opcode >= v.size()) v.resize(inst.opcode + 1, nullptr);
      const char*& name = v[inst.opcode];
      if (!name || std::string_view(inst.name) < name) name = inst.name;
    }
    return v;
  }();
  return opcode < names.size() ? names[opcode] : nullptr;
}

class Printer {
 public:
  Printer(const DisassembleOptions& options, const Collector& module, std::string* out)
      : options_(options),
        indent_(options.indent ? kStandardIndent : 0),
        module_(module),
        out_(*out) {}

  void Header(const binary::Header& h) {
    out_ += "; SPIR-V\n; Version: ";
    AppendUnsigned((h.version >> 16) & 0xFF, &out_);
    out_ += '.';
    AppendUnsigned((h.version >> 8) & 0xFF, &out_);
    out_ += "\n; Generator: ";
    const uint32_t tool = h.generator >> 16;
    if (const grammar::Generator* g = grammar::FindGenerator(tool)) {
      out_ += g->vendor;
      if (*g->tool) {
        out_ += ' ';
        out_ += g->tool;
      }
    } else {
      out_ += "Unknown(";
      AppendUnsigned(tool, &out_);
      out_ += ')';
    }
    out_ += "; ";
    AppendUnsigned(h.generator & 0xFFFF, &out_);
    out_ += "\n; Bound: ";
    AppendUnsigned(h.bound, &out_);
    out_ += "\n; Schema: ";
    AppendUnsigned(h.schema, &out_);
    out_ += '\n';
  }

  void Instruction(std::span<const uint32_t> module_words, const Record& r) {
    const std::span<const uint32_t> words = module_words.subspan(r.word_offset, r.num_words);
    const std::span<const binary::ParsedOperand> operands(
        module_.operands_.data() + r.first_operand, r.num_operands);
    const uint32_t opcode = words[0] & 0xFFFF;
    const Op op = static_cast<Op>(opcode);
    if (options_.comment) SectionComment(op, r.result_id);

    if (r.result_id) {
      Color(kBlue);
      if (indent_) {
        const size_t length = NameLength(r.result_id);
        if (length + 4 < static_cast<size_t>(indent_)) out_.append(indent_ - 4 - length, ' ');
      }
      out_ += '%';
      AppendName(r.result_id);
      Color(kReset);
      out_ += " = ";
    } else {
      out_.append(indent_, ' ');
    }
    out_ += OpcodeName(opcode);

    for (const binary::ParsedOperand& operand : operands) {
      if (operand.kind == OperandKindId::kIdResult) continue;
      out_ += ' ';
      Operand(words, r, operand);
    }

    if (options_.comment && op == Op::OpName && words.size() > 1) {
      out_ += "  ; id %";
      AppendUnsigned(words[1], &out_);
    }
    if (options_.offsets) {
      Color(kGrey);
      out_ += " ; 0x";
      AppendHex8(static_cast<uint64_t>(r.word_offset) * 4);
      Color(kReset);
    }
    out_ += '\n';
  }

 private:
  void Color(std::string_view code) {
    if (options_.color) out_ += code;
  }

  size_t NameLength(uint32_t id) const {
    if (options_.friendly_names) return module_.names_.Length(id);
    size_t n = 1;
    for (uint32_t v = id; v >= 10; v /= 10) ++n;
    return n;
  }

  void AppendName(uint32_t id) {
    if (options_.friendly_names) {
      module_.names_.Append(id, &out_);
    } else {
      AppendUnsigned(id, &out_);
    }
  }

  // At least 8 hex digits, as "std::setw(8) << std::setfill('0') << std::hex".
  void AppendHex8(uint64_t value) {
    static constexpr char kHex[] = "0123456789abcdef";
    char buf[16];
    int n = 0;
    do {
      buf[n++] = kHex[value & 0xF];
      value >>= 4;
    } while (value);
    for (int i = n; i < 8; ++i) out_ += '0';
    while (n) out_ += buf[--n];
  }

  void SectionComment(Op op, uint32_t result_id) {
    auto heading = [&](std::string_view text) {
      out_ += '\n';
      out_.append(indent_, ' ');
      out_ += text;
    };
    if (op == Op::OpFunction) {
      heading("; Function ");
      AppendName(result_id);
      out_ += '\n';
    }
    if (!seen_decoration_ && IsDecoration(op)) {
      seen_decoration_ = true;
      heading("; Annotations\n");
    }
    if (!seen_debug_ && IsDebug(op)) {
      seen_debug_ = true;
      heading("; Debug Information\n");
    }
    if (!seen_type_ && GeneratesType(op)) {
      seen_type_ = true;
      heading("; Types, variables and constants\n");
    }
  }

  void Operand(std::span<const uint32_t> words, const Record& r,
               const binary::ParsedOperand& operand) {
    const uint32_t word = words[operand.offset];
    const grammar::OperandKind& kind = grammar::GetOperandKind(operand.kind);
    switch (kind.category) {
      case OperandCategory::kId:
        Color(kYellow);
        out_ += '%';
        AppendName(word);
        break;
      case OperandCategory::kLiteral:
        Literal(words, r, operand);
        break;
      case OperandCategory::kValueEnum:
        if (const grammar::Enumerant* e = grammar::FindEnumerant(operand.kind, word)) {
          out_ += e->name;
        } else {
          AppendUnsigned(word, &out_);  // only reachable with a grammar the parser did not use
        }
        break;
      case OperandCategory::kBitEnum:
        Mask(operand.kind, word);
        break;
      case OperandCategory::kComposite:
        break;  // the parser reports a pair as its two parts
    }
    Color(kReset);
  }

  void Literal(std::span<const uint32_t> words, const Record& r,
               const binary::ParsedOperand& operand) {
    const uint32_t word = words[operand.offset];
    switch (operand.kind) {
      case OperandKindId::kLiteralString:
        out_ += '"';
        Color(kGreen);
        EscapedString(words.subspan(operand.offset, operand.num_words));
        Color(kReset);
        out_ += '"';
        return;
      case OperandKindId::kLiteralExtInstInteger:
        Color(kRed);
        if (r.ext_inst) {
          out_ += r.ext_inst->name;
        } else {
          AppendUnsigned(word, &out_);  // an instruction of an unknown non-semantic set
        }
        return;
      case OperandKindId::kLiteralSpecConstantOpInteger: {
        Color(kRed);
        if (const char* name = OpcodeName(word)) {
          out_ += std::string_view(name).substr(2);  // without "Op"
        } else {
          AppendUnsigned(word, &out_);
        }
        return;
      }
      default:
        Color(kRed);
        AppendNumber(operand.number_kind, operand.number_bit_width,
                     words.subspan(operand.offset, operand.num_words), &out_);
        Color(kReset);
        return;
    }
  }

  // The characters before the nul, with '"' and '\\' escaped by a backslash.
  void EscapedString(std::span<const uint32_t> words) {
    for (uint32_t w : words) {
      for (int shift = 0; shift < 32; shift += 8) {
        const char c = static_cast<char>((w >> shift) & 0xFF);
        if (c == 0) return;
        if (c == '"' || c == '\\') out_ += '\\';
        out_ += c;
      }
    }
  }

  // Set bits from the least significant, joined by '|'; zero as the kind's zero enumerant
  // ("None"), or nothing when the kind has none. Bits unknown to the grammar (which the parser
  // rejects, so only a future grammar mismatch could bring them here) print together as one
  // hexadecimal number, so that nothing is silently dropped.
  void Mask(OperandKindId kind, uint32_t word) {
    bool first = true;
    uint32_t unknown = 0;
    for (uint32_t rest = word; rest; rest &= rest - 1) {
      const uint32_t bit = rest & (~rest + 1);
      const grammar::Enumerant* e = grammar::FindEnumerant(kind, bit);
      if (!e) {
        unknown |= bit;
        continue;
      }
      if (!first) out_ += '|';
      out_ += e->name;
      first = false;
    }
    if (unknown) {
      if (!first) out_ += '|';
      out_ += "0x";
      AppendHex8(unknown);
      first = false;
    }
    if (first) {
      if (const grammar::Enumerant* e = grammar::FindEnumerant(kind, 0)) out_ += e->name;
    }
  }

  const DisassembleOptions& options_;
  const int indent_;
  const Collector& module_;
  std::string& out_;
  bool seen_decoration_ = false;
  bool seen_debug_ = false;
  bool seen_type_ = false;
};

}  // namespace

bool Disassemble(std::span<const uint32_t> words, const DisassembleOptions& options,
                 std::string* out, Diagnostic* error) {
  Collector module(words.size(), options.friendly_names);
  binary::ParseOptions parse_options;
  parse_options.check_id_bound = false;  // spirv-dis does not check ids against the bound
  Status parsed = binary::Parse(words, module, parse_options);
  const bool ok = parsed.ok();
  if (!ok && error) *error = std::move(parsed.diagnostics().front());

  out->clear();
  // Text is typically 2 to 3 times the size of the binary.
  out->reserve(words.size() * 4 * 3 + 256);
  Printer printer(options, module, out);
  if (module.has_header_ && options.header) printer.Header(module.header_);
  for (const Record& r : module.records_) printer.Instruction(words, r);
  return ok;
}

}  // namespace xmx::text
