// Stand-ins for the scalar types SPIRV-Tools 2023.1 cannot hold: a bfloat16 (SPV_KHR_bfloat16)
// becomes a half, a 4-bit integer (SPV_INTEL_int4) an integer of a width the module does not
// use. Each keeps its result id, so every use of it stays as it was.
#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "bridge/lifter.hpp"
#include "grammar/grammar.hpp"

namespace xmx::bridge {

using spv::Op;

// Sets aside the operands our grammar appends to a core module-level instruction. For
// OpTypeFloat 16 BFloat16KHR the rest is a plain 16-bit float, for SPIRV-Tools a half: correct
// for everything SPIRV-Tools checks on it (conversions, OpDot, loads and stores). When the module
// has a half of its own, the two are separate types that SPIRV-Tools would call duplicates, so
// its uniqueness check is turned off (the validator checks uniqueness on the original instead).
bool Lifter::LiftExtendedOperands(ir::Instruction& inst) {
  if (!inst.has_result_id()) {
    return Fail(inst, "SPIRV-Tools has no form for its extended operands");
  }
  if (inst.opcode() == Op::OpTypeFloat && inst.word(0) != 16) {
    // SPIRV-Tools would check a plain float of that width and miss the error.
    return Fail(inst, "the BFloat16KHR encoding is for 16-bit floats, but Width is " +
                          std::to_string(inst.word(0)));
  }
  const size_t core = CoreOperandCount(inst);
  SetAsideOperands aside{inst.result_id(), {}};
  for (size_t i = core; i < inst.num_operands(); ++i) {
    const ir::OperandView op = inst.operand(i);
    aside.operands.emplace_back(op.kind, std::vector<uint32_t>(op.words.begin(), op.words.end()));
  }
  ir::Instruction stripped = inst;
  stripped.RemoveOperands(core, inst.num_operands() - core);
  // A type that was a different one in the original module (a half next to the bfloat16) would
  // now be its duplicate. Another type with the same encoding stays a duplicate after the lift
  // and SPIRV-Tools reports it while its check is on.
  for (const ir::Instruction& other : original_.globals()) {
    if (other.result_id() != inst.result_id() && other.opcode() == stripped.opcode() &&
        other.num_operands() == core &&
        std::ranges::equal(other.operand_words(), stripped.operand_words())) {
      AllowDuplicateTypes();
    }
  }
  if (inst.opcode() == Op::OpTypeFloat && !module_.HasCapability(spv::Capability::Float16Buffer)) {
    AddCapability(spv::Capability::Float16);
  }
  record_.operands.push_back(std::move(aside));
  inst = std::move(stripped);
  return true;
}

// A 4-bit integer becomes an integer of the same signedness and of a width no other integer type
// of the module has, so that conversions between it and the module's other integers keep
// changing the width (OpUConvert/OpSConvert require that).
bool Lifter::LiftInt4Type(ir::Instruction& inst) {
  struct Width {
    uint32_t bits;
    std::optional<spv::Capability> capability;  // what SPIRV-Tools requires for it
  };
  static const std::array<Width, 4> kWidths = {{{8, spv::Capability::Int8},
                                                {16, spv::Capability::Int16},
                                                {32, std::nullopt},
                                                {64, spv::Capability::Int64}}};
  const auto used = [this](uint32_t bits) {
    return std::ranges::any_of(original_.globals(), [bits](const ir::Instruction& other) {
      return other.opcode() == Op::OpTypeInt && other.num_operands() >= 1 && other.word(0) == bits;
    });
  };
  const auto* const free =
      std::ranges::find_if(kWidths, [&](const Width& w) { return !used(w.bits); });
  if (free == kWidths.end()) {
    return Fail(inst,
                "SPIRV-Tools has no 4-bit integer type (SPV_INTEL_int4), and the module uses "
                "every integer width it knows (8, 16, 32, 64), so none can stand in for it");
  }
  record_.types.push_back({inst.result_id(), inst});
  ir::Instruction stand_in(Op::OpTypeInt, 0, inst.result_id());
  stand_in.AddOperand(grammar::OperandKindId::kLiteralInteger, {free->bits});
  stand_in.AddOperand(grammar::OperandKindId::kLiteralInteger, {inst.word(1)});
  stand_in.set_source(inst.source_index(), inst.source_word_offset());
  stand_in.debug_lines() = std::move(inst.debug_lines());
  inst = std::move(stand_in);
  if (free->capability) AddCapability(*free->capability);
  return true;
}

void Lifter::AllowDuplicateTypes() {
  if (record_.allowed_duplicate_types) return;
  for (const ir::Instruction& ext : module_.extensions()) {
    if (ext.StringOperand(0) == kIgnoreTypeUniquenessExtension) return;  // the module's own
  }
  ir::Instruction ext(Op::OpExtension);
  ext.AddStringOperand(kIgnoreTypeUniquenessExtension);
  module_.extensions().push_back(std::move(ext));
  record_.allowed_duplicate_types = true;
}

}  // namespace xmx::bridge
