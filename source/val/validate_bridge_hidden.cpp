// Lift may add the Linkage capability for its imported declarations. Linkage makes two things
// legal that the original module may rely on wrongly; report them as SPIRV-Tools would.
#include "val/rules.hpp"

namespace xmx::val {

void CheckWhatTheBridgeHides(const ir::Module& module, const bridge::LiftRecord& record,
                             std::vector<Diagnostic>* out) {
  if (!record.added_linkage) return;
  if (module.entry_points().empty()) {
    Diagnostic d;
    d.rule = "bridge.entry-point";
    d.message =
        "No OpEntryPoint instruction was found. This is only allowed if the Linkage capability "
        "is being used.";
    out->push_back(std::move(d));
  }
  for (const ir::Instruction& inst : module.annotations()) {
    const bool decorate =
        inst.opcode() == spv::Op::OpDecorate || inst.opcode() == spv::Op::OpMemberDecorate;
    if (!decorate) continue;
    const size_t which = inst.opcode() == spv::Op::OpDecorate ? 1 : 2;
    if (inst.num_operands() <= which ||
        inst.word(which) != static_cast<uint32_t>(spv::Decoration::LinkageAttributes)) {
      continue;
    }
    Diagnostic d;
    d.rule = "bridge.linkage";
    d.message = "Operand " + std::to_string(which + 1) +
                " of Decorate requires one of these capabilities: Linkage";
    d.opcode = static_cast<uint32_t>(inst.opcode());
    if (inst.source_index() != ir::Instruction::kNotFromBinary) {
      d.instruction_index = inst.source_index();
      d.word_offset = inst.source_word_offset();
    }
    out->push_back(std::move(d));
  }
}

}  // namespace xmx::val
