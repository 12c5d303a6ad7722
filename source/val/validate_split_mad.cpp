// The split matrix multiply-accumulate built-ins of cl_intel_subgroup_split_matrix_multiply_
// accumulate (SPEC-NOTES D). They have no SPIR-V form: a module imports them as functions
// (`LinkageAttributes "<mangled>" Import`) that IGC's built-in library resolves, so the checks are
// on the imported declaration (signature, device support) and on its calls (subgroup size).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "builtins/itanium_names.hpp"
#include "builtins/recognise.hpp"
#include "common/rule_ids.hpp"
#include "val/rules.hpp"
#include "xmx/device.hpp"

namespace xmx::val {
namespace {

using device::MatchStatus;

struct Builtin {
  const ir::Function* function;
  std::string linkage_name;
  std::string name;                      // the OpenCL C name
  const device::SplitMatrixMadRow* row;  // the device's row for `name`, if any
};

class SplitMadChecker {
 public:
  explicit SplitMadChecker(ValidationContext& context) : context_(context) {}

  void Run() {
    for (const ir::Function& function : context_.module().functions()) FindBuiltin(function);
    if (builtins_.empty()) return;
    for (auto& [id, builtin] : builtins_) CheckDeclaration(builtin);
    context_.ForEachBodyInstruction(spv::Op::OpFunctionCall,
                                    [&](const ir::Function& caller, const ir::Instruction& inst) {
                                      if (inst.num_operands() < 1) return;
                                      auto it = builtins_.find(inst.word(0));
                                      if (it != builtins_.end())
                                        CheckCall(caller, inst, it->second);
                                    });
  }

 private:
  void FindBuiltin(const ir::Function& function) {
    if (!function.IsDeclaration()) return;
    // The built-in table (builtins/builtin_table.hpp) names them; the entry has no instruction.
    std::optional<std::string> linkage_name =
        builtins::ImportedName(context_.info(), function.id());
    if (!linkage_name) return;
    const std::string_view base = builtins::ParseLinkageName(*linkage_name).name.base;
    bool known = false;
    for (const builtins::NameMatch& match : builtins::FindEntries(base)) {
      known = known || match.entry->target == builtins::Target::kSplitMatrixMad;
    }
    if (!known) return;
    Builtin builtin{&function, *linkage_name, std::string(base), nullptr};
    for (const device::SplitMatrixMadRow& row : device().split_matrix_mad.rows) {
      if (row.function == builtin.name) {
        builtin.row = &row;
        break;
      }
    }
    builtins_.emplace(function.id(), std::move(builtin));
  }

  std::optional<device::OperandShape> ShapeOf(uint32_t type_id) const {
    const ir::Type* type = context_.types().GetType(type_id);
    device::OperandShape shape;
    if (type && type->kind == ir::TypeKind::kVector) {
      shape.count = type->count;
      type = context_.types().GetType(type->element);
    }
    if (!type) return std::nullopt;
    std::optional<device::ElementType> element;
    if (type->kind == ir::TypeKind::kInt) {
      element = device::ParseElementType("i" + std::to_string(type->width));
    } else if (type->kind == ir::TypeKind::kFloat && !type->float_encoding) {
      element = device::ParseElementType("f" + std::to_string(type->width));
    }
    if (!element) return std::nullopt;
    shape.type = *element;
    return shape;
  }

  std::string ShapeText(uint32_t type_id) const {
    std::optional<device::OperandShape> shape = ShapeOf(type_id);
    if (!shape) return context_.IdName(type_id);
    std::string text(device::ElementTypeName(shape->type));
    return shape->count > 1 ? text + " x " + std::to_string(shape->count) : text;
  }

  // Signature against the table (D) and device support.
  void CheckDeclaration(const Builtin& builtin) {
    const ir::Instruction& def = builtin.function->def;
    const std::string who = builtin.name + " (imported as \"" + builtin.linkage_name + "\")";
    if (device().split_matrix_mad.kind == device::TableKind::kNone) {
      context_.Error(def, rules::kSplitMadUnsupported,
                     who +
                         ": the split matrix multiply-accumulate built-ins are not supported "
                         "on device " +
                         device().name);
      return;
    }
    if (device().split_matrix_mad.kind != device::TableKind::kTable) return;
    if (def.num_operands() < 2) return;
    const ir::Type* fn_type = context_.types().GetType(def.word(1));
    if (!fn_type || fn_type->kind != ir::TypeKind::kFunction) return;  // core validation's job
    if (fn_type->members.size() != 3) {
      context_.Error(def, rules::kSplitMadSignature,
                     who + " is declared with " + std::to_string(fn_type->members.size()) +
                         " parameters; it takes 3 (a, b, acc)");
      return;
    }
    const uint32_t types[4] = {fn_type->element, fn_type->members[0], fn_type->members[1],
                               fn_type->members[2]};
    const char* labels[4] = {"Result", "a", "b", "acc"};
    device::OperandShape shapes[4];
    for (int i = 0; i < 4; ++i) {
      std::optional<device::OperandShape> shape = ShapeOf(types[i]);
      if (!shape) {
        context_.Error(def, rules::kSplitMadSignature,
                       std::string(labels[i]) + " type " + context_.IdName(types[i]) + " of " +
                           who + " is not a scalar or vector of integer or floating-point type");
        return;
      }
      shapes[i] = *shape;
    }
    // The subgroup size is checked at each call (it depends on the caller): match the row's own.
    const uint32_t size =
        builtin.row && builtin.row->subgroup_size ? *builtin.row->subgroup_size : 0;
    const device::SplitMatrixMadMatch match = device::MatchSplitMatrixMad(
        device(), builtin.name, size, shapes[0], shapes[1], shapes[2], shapes[3]);
    if (match.status == MatchStatus::kMismatch) {
      context_.Error(def, rules::kSplitMadSignature,
                     who + " (Result " + ShapeText(types[0]) + ", a " + ShapeText(types[1]) +
                         ", b " + ShapeText(types[2]) + ", acc " + ShapeText(types[3]) +
                         "): " + match.Message(device()));
    } else if (match.status == MatchStatus::kNotSupported) {
      context_.Error(def, rules::kSplitMadUnsupported, who + ": " + match.Message(device()));
    } else if (match.status == MatchStatus::kMatched && match.row &&
               match.row->provenance.confidence == device::Confidence::kConvention) {
      // What the built-in computes rests on our pairing of subgroups (DECISIONS 9).
      context_.Warning(def, rules::kSplitMadSignature,
                       who + " with M = " + std::to_string(match.m) + " is accepted on device " +
                           device().name +
                           "; its semantics rest on a convention: " + match.row->provenance.note);
    }
  }

  void CheckCall(const ir::Function& caller, const ir::Instruction& call, const Builtin& builtin) {
    if (device().split_matrix_mad.kind != device::TableKind::kTable) return;
    if (!builtin.row || !builtin.row->subgroup_size) return;
    const uint32_t required = *builtin.row->subgroup_size;
    const std::vector<uint32_t>& sizes = context_.SubgroupSizes(caller.id());
    if (sizes.empty()) {
      if (!context_.ReachedByEntryPoint(caller.id()) &&
          unknown_reported_.insert(caller.id()).second) {
        context_.Remark(call, rules::kSplitMadSubgroupSizeUnknown,
                        "no entry point reaches " + context_.IdName(caller.id()) +
                            " and no --subgroup-size was given: the subgroup size of its split "
                            "matrix multiply-accumulate calls is not checked");
      }
      return;
    }
    for (uint32_t size : sizes) {
      if (size == required) continue;
      context_.Error(call, rules::kSplitMadSubgroupSize,
                     "Subgroup size " + std::to_string(size) + " is not supported by " +
                         builtin.name + " called in " + context_.IdName(caller.id()) +
                         " on device " + device().name +
                         "; supported: " + std::to_string(required));
    }
  }

  // The device is looked up when an instruction needs it (validation_context.hpp).
  const device::DeviceProfile& device() const { return context_.device(); }

  ValidationContext& context_;
  std::map<uint32_t, Builtin> builtins_;  // by function id, in id order for stable output
  std::set<uint32_t> unknown_reported_;
};

}  // namespace

void ValidateSplitMad(ValidationContext& context) { SplitMadChecker(context).Run(); }

}  // namespace xmx::val
