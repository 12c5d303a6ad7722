// What the lifted form makes legal that the original is not, reported as SPIRV-Tools would:
// - Lift may add the Linkage capability for its imported declarations, which makes a missing
//   entry point and LinkageAttributes legal;
// - a cooperative matrix reaches SPIRV-Tools as a struct, which is exempt from the uniqueness
//   rule that upstream applies to cooperative-matrix types;
// - when a stand-in equals another type (a bfloat16 seen as a half next to the module's half),
//   Lift turns SPIRV-Tools' uniqueness check off altogether.
#include <map>
#include <string>
#include <string_view>
#include <unordered_set>

#include "grammar/grammar.hpp"
#include "val/rules.hpp"

namespace xmx::val {
namespace {

void CheckLinkage(const ir::Module& module, std::vector<Diagnostic>* out) {
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

// SPIRV-Tools' uniqueness rule (SPIR-V 2.8): two declarations of one non-aggregate type are an
// error; arrays, structs and pointers may repeat. `hidden` says which duplicates SPIRV-Tools did
// not see.
template <typename Hidden>
void CheckTypeUniqueness(const ir::Module& module, Hidden&& hidden, std::vector<Diagnostic>* out) {
  std::map<std::vector<uint32_t>, uint32_t> first_declaration;
  for (const ir::Instruction& inst : module.globals()) {
    const grammar::Instruction* desc =
        grammar::FindInstruction(static_cast<uint32_t>(inst.opcode()));
    const std::string_view name = desc ? desc->name : "";
    if (!inst.has_result_id() || inst.has_result_type() || !name.starts_with("OpType")) continue;
    switch (inst.opcode()) {
      case spv::Op::OpTypeArray:
      case spv::Op::OpTypeRuntimeArray:
      case spv::Op::OpTypeStruct:
      case spv::Op::OpTypePointer:
        continue;
      default:
        break;
    }
    std::vector<uint32_t> key{static_cast<uint32_t>(inst.opcode())};
    key.insert(key.end(), inst.operand_words().begin(), inst.operand_words().end());
    auto [first, inserted] = first_declaration.emplace(std::move(key), inst.result_id());
    if (inserted || !hidden(inst)) continue;
    Diagnostic d;
    d.rule = "bridge.unique-type";
    d.message = "Duplicate non-aggregate type declarations are not allowed. Opcode: " +
                std::string(name.substr(2)) + " id: " + std::to_string(inst.result_id()) +
                " (the same type as %" + std::to_string(first->second) + ")";
    d.opcode = static_cast<uint32_t>(inst.opcode());
    if (inst.source_index() != ir::Instruction::kNotFromBinary) {
      d.instruction_index = inst.source_index();
      d.word_offset = inst.source_word_offset();
    }
    out->push_back(std::move(d));
  }
}

}  // namespace

void CheckWhatTheBridgeHides(const ir::Module& module, const bridge::LiftRecord& record,
                             std::vector<Diagnostic>* out) {
  if (record.added_linkage) CheckLinkage(module, out);
  // Types that reach SPIRV-Tools as structs: those the bridge replaced with an extended opcode
  // (a cooperative matrix), whose stand-in is a struct.
  std::unordered_set<uint32_t> as_struct;
  for (const bridge::ReplacedType& replaced : record.types) {
    const grammar::Instruction* desc =
        grammar::FindInstruction(static_cast<uint32_t>(replaced.original.opcode()));
    if (desc && desc->origin == grammar::Origin::kExtended) as_struct.insert(replaced.result_id);
  }
  if (!record.allowed_duplicate_types && as_struct.empty()) return;
  CheckTypeUniqueness(
      module,
      [&](const ir::Instruction& inst) {
        return record.allowed_duplicate_types || as_struct.count(inst.result_id()) != 0;
      },
      out);
}

}  // namespace xmx::val
