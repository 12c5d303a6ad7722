// Rules for OpSubgroupMatrixMultiplyAccumulateINTEL (mma.*). The static rules are those of the
// SPIR-V extension (SPEC-NOTES B.2, B.3) and hold on every device; the table rules look the
// instruction up in the device's matrix_mad rows (B.5, B.8) once per subgroup size that can reach
// it, since N is the subgroup size and the rows differ per size.
#include <array>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_set>

#include "common/format.hpp"
#include "common/rule_ids.hpp"
#include "grammar/grammar.hpp"
#include "ir/matrix_mad_operands.hpp"
#include "val/matrix_mad_operands.hpp"
#include "val/rules.hpp"
#include "xmx/device.hpp"

namespace xmx::val {
namespace {

constexpr const char* kInstruction = "OpSubgroupMatrixMultiplyAccumulateINTEL";

// The rule a failing field of the device lookup belongs to.
const char* RuleFor(device::MismatchKind kind) {
  switch (kind) {
    case device::MismatchKind::kKDim:
      return rules::kMmaKDimTable;
    case device::MismatchKind::kResultCount:
      return rules::kMmaMTable;
    case device::MismatchKind::kOperands:
      return rules::kMmaOperandsTable;
    case device::MismatchKind::kSubgroupSize:
      return rules::kMmaSubgroupSizeTable;
    default:
      return rules::kMmaTypesTable;  // component types, and the A/B/C counts for the matched M
  }
}

class MatrixMadChecker {
 public:
  explicit MatrixMadChecker(ValidationContext& context) : context_(context) {}

  void Check(const ir::Function& function, const ir::Instruction& inst) {
    reported_.clear();
    // nullopt: a malformed instruction, which the core rules report.
    const std::optional<ir::MatrixMadOperands> mad = ir::DecodeMatrixMadOperands(inst);
    if (!mad) return;
    const ir::TypeTable& types = context_.types();
    const uint32_t operands = mad->operands;

    // --- Static rules (B.3) ---
    std::optional<MadOperandType> result = DecodeMadOperandType(types, inst.result_type_id());
    if (!result) {
      context_.Error(inst, rules::kMmaResultType,
                     "Result Type " + context_.IdName(inst.result_type_id()) + " of " +
                         kInstruction + " must be a scalar or vector of int or float type");
    }
    std::optional<MadOperandType> a = OperandType(inst, mad->a, "Matrix A");
    std::optional<MadOperandType> b = OperandType(inst, mad->b, "Matrix B");
    std::optional<MadOperandType> c = OperandType(inst, mad->c, "Matrix C");
    std::optional<uint32_t> k = KDim(inst, mad->k_dim);

    const bool has_table = context_.device().matrix_mad.kind == device::TableKind::kTable;
    if (result && c && inst.result_type_id() != ValueType(mad->c)) {
      // B.3 leaves this open; the OpenCL tables always use one type and IGC rejects a mismatch.
      std::string message = "Result Type (" + result->name + ") of " + kInstruction +
                            " differs from the type of Matrix C (" + c->name + ")";
      if (has_table) {
        context_.Error(inst, rules::kMmaResultEqualsC,
                       message + "; device " + context_.device().name + " requires them equal");
      } else {
        context_.Warning(inst, rules::kMmaResultEqualsC,
                         message +
                             "; the SPIR-V rules allow it, but every device table and "
                             "IGC require them equal");
      }
    }
    if (result && a && b && c) {
      for (const std::string& problem : CheckOperandBits(operands, *result, *a, *b, *c)) {
        context_.Error(inst, rules::kMmaOperandsConsistent, problem);
      }
    }

    // --- Table rules (B.5, B.8), per subgroup size ---
    if (!has_table && context_.device().matrix_mad.kind == device::TableKind::kNoTable) return;
    if (!result || !a || !b || !c || !k) return;  // already reported; nothing to look up
    const std::vector<uint32_t>& sizes = context_.SubgroupSizes(function.id());
    if (sizes.empty()) {
      if (unknown_size_functions_.insert(function.id()).second) {
        context_.Remark(inst, rules::kMmaSubgroupSizeUnknown,
                        "no entry point reaches function " + context_.IdName(function.id()) +
                            " and no --subgroup-size was given: the subgroup-size-dependent "
                            "rules of " +
                            kInstruction + " (device tables) were skipped");
      }
      return;
    }
    if (!result->element || !a->element || !b->element || !c->element) {
      const MadOperandType* odd = !result->element ? &*result
                                  : !a->element    ? &*a
                                  : !b->element    ? &*b
                                                   : &*c;
      Report(inst, Severity::kError, rules::kMmaTypesTable,
             "component type " + odd->name + " is in no row of " + kInstruction + " on device " +
                 context_.device().name);
      return;
    }
    device::MatrixMadQuery query;
    query.k = *k;
    query.operands = operands;
    query.result = {*result->element, result->count};
    query.a = {*a->element, a->count};
    query.b = {*b->element, b->count};
    query.c = {*c->element, c->count};
    for (uint32_t size : sizes) CheckAtSize(inst, query, size);
  }

 private:
  // The type of the value `id` (instruction result or constant), 0 if unknown.
  uint32_t ValueType(uint32_t id) const { return context_.ValueTypeId(id); }

  std::optional<MadOperandType> OperandType(const ir::Instruction& inst, uint32_t id,
                                            const char* what) {
    const uint32_t type_id = ValueType(id);
    if (type_id == 0) return std::nullopt;  // undefined id: the core rules say so
    std::optional<MadOperandType> type = DecodeMadOperandType(context_.types(), type_id);
    if (!type) {
      context_.Error(inst, rules::kMmaOperandType,
                     std::string(what) + " " + context_.IdName(id) + " of " + kInstruction +
                         " must be a scalar or vector of int or float type; found type " +
                         context_.IdName(type_id));
    }
    return type;
  }

  std::optional<uint32_t> KDim(const ir::Instruction& inst, uint32_t id) {
    const ir::Constant* constant = context_.types().GetConstant(id);
    const ir::Type* type = constant ? context_.types().GetType(constant->type_id) : nullptr;
    if (!constant || !type || type->kind != ir::TypeKind::kInt || type->width != 32 ||
        (constant->kind != ir::ConstantKind::kScalar &&
         constant->kind != ir::ConstantKind::kNull)) {
      context_.Error(inst, rules::kMmaKDimConstant,
                     "K Dim " + context_.IdName(id) + " of " + kInstruction +
                         " must come from a constant instruction of scalar 32-bit integer type");
      return std::nullopt;
    }
    // A spec constant is a constant instruction; the tables are checked at its default.
    std::optional<uint64_t> value = context_.types().GetConstantUInt(id, /*allow_spec=*/true);
    if (!value) return std::nullopt;
    return static_cast<uint32_t>(*value);
  }

  void CheckAtSize(const ir::Instruction& inst, device::MatrixMadQuery query, uint32_t size) {
    const device::DeviceProfile& profile = context_.device();
    query.subgroup_size = size;
    const device::MatrixMadMatch& match = Match(query);
    switch (match.status) {
      case device::MatchStatus::kNoTable:
      case device::MatchStatus::kCoreRules:
        return;
      case device::MatchStatus::kNotSupported:
        Report(inst, Severity::kError, rules::kMmaSubgroupSizeTable, match.Message(profile));
        return;
      case device::MatchStatus::kMatched:
        CheckMatchedRow(inst, *match.row, size);
        return;
      case device::MatchStatus::kMismatch:
        break;
    }
    // Would the same operands fit a row of another subgroup size? Then the size is the problem,
    // whatever field the lookup stopped at.
    std::vector<uint32_t> other_sizes;
    const device::MatrixMadRow* other_row = nullptr;
    std::set<uint32_t> row_sizes;
    for (const device::MatrixMadRow& row : profile.matrix_mad.rows) {
      row_sizes.insert(row.subgroup_size);
    }
    bool paired_at_size = false;
    for (const device::MatrixMadRow& row : profile.matrix_mad.rows) {
      if (row.subgroup_size == size && row.paired()) paired_at_size = true;
    }
    for (uint32_t other : row_sizes) {
      if (other == size) continue;
      device::MatrixMadQuery q = query;
      q.subgroup_size = other;
      const device::MatrixMadMatch& m = Match(q);
      if (m.status == device::MatchStatus::kMatched) {
        other_sizes.push_back(other);
        if (!other_row || other * 2 == size) other_row = m.row;
      }
    }
    if (other_sizes.empty()) {
      Report(inst, Severity::kError, RuleFor(match.mismatch.kind), match.Message(profile));
      return;
    }
    const std::string at = "the operands of " + std::string(kInstruction) +
                           " fit a row for subgroup size " + Join(other_sizes) + " on device " +
                           profile.name +
                           ", but the instruction can run at "
                           "subgroup size " +
                           std::to_string(size);
    if (paired_at_size && other_row && !other_row->paired() &&
        other_row->subgroup_size * 2 == size) {
      // DECISIONS 10: at this size the device takes only the paired form; rejecting the
      // unpaired layout is a convention, hence a warning.
      Report(inst, Severity::kWarning, rules::kMmaSubgroupSizeTable,
             at + ", where only the paired form is accepted (DECISIONS 10: M even; Result, A "
                  "and C with M/2 components; B with 4 components)");
      return;
    }
    Report(inst, Severity::kError, rules::kMmaSubgroupSizeTable, at);
  }

  void CheckMatchedRow(const ir::Instruction& inst, const device::MatrixMadRow& row,
                       uint32_t size) {
    const device::DeviceProfile& profile = context_.device();
    if (!row.extension.empty() && !profile.ExposesExtension(row.extension)) {
      Report(inst, Severity::kError, rules::kMmaOperandsTable,
             "the row of " + std::string(kInstruction) + " for these operands is provisional (" +
                 row.extension + "), which device " + profile.name + " does not expose");
    }
    if (row.provenance.confidence == device::Confidence::kConvention) {
      std::string message = std::string(kInstruction) + " at subgroup size " +
                            std::to_string(size) + " matches a row of device " + profile.name +
                            " that rests on a convention";
      if (!row.provenance.note.empty()) {
        message += ": " + row.provenance.note;
      } else if (row.paired()) {
        message += " (DECISIONS 10: the paired subgroup-size-32 form)";
      }
      Report(inst, Severity::kWarning, rules::kMmaSubgroupSizeTable, message);
    }
  }

  // The device table's answer for `query`. A kernel repeats the same few operand shapes in
  // every instruction of its loops; the lookup walks the whole table, so each shape is looked
  // up once per module.
  const device::MatrixMadMatch& Match(const device::MatrixMadQuery& query) {
    using device::ElementType;
    auto type = [](ElementType t) { return static_cast<uint32_t>(t); };
    const MatchKey key = {query.subgroup_size, query.k,
                          query.operands,      type(query.result.type),
                          query.result.count,  type(query.a.type),
                          query.a.count,       type(query.b.type),
                          query.b.count,       type(query.c.type),
                          query.c.count};
    auto found = matches_.find(key);
    if (found == matches_.end()) {
      found = matches_.emplace(key, device::MatchMatrixMad(context_.device(), query)).first;
    }
    return found->second;
  }

  // Reports a problem once per instruction, however many subgroup sizes hit it.
  void Report(const ir::Instruction& inst, Severity severity, const std::string& rule,
              const std::string& message) {
    if (!reported_.insert(std::make_tuple(severity, rule, message)).second) return;
    context_.Report(severity, &inst, rule, message);
  }

  ValidationContext& context_;
  std::unordered_set<uint32_t> unknown_size_functions_;
  std::set<std::tuple<Severity, std::string, std::string>> reported_;
  using MatchKey = std::array<uint32_t, 11>;
  std::map<MatchKey, device::MatrixMadMatch> matches_;
};

}  // namespace

void ValidateMatrixMad(ValidationContext& context) {
  MatrixMadChecker checker(context);
  context.ForEachBodyInstruction(spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL,
                                 [&](const ir::Function& function, const ir::Instruction& inst) {
                                   checker.Check(function, inst);
                                 });
}

}  // namespace xmx::val
