// Matching the 2D block IO instructions (SPEC-NOTES A.4) and the typing of the Intel subgroup
// instructions (C.3, C.4) against a profile's rows.
#include <algorithm>

#include "device/match_support.hpp"
#include "xmx/device.hpp"

namespace xmx::device {
namespace {

using internal::NarrowByName;
using internal::NarrowByValue;

template <typename T>
bool Contains(const std::vector<T>& values, const T& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::string_view SubgroupInstructionName(SubgroupOp op) {
  switch (op) {
    case SubgroupOp::kShuffle:
      return "OpSubgroupShuffle*INTEL";
    case SubgroupOp::kBlockIo:
      return "OpSubgroupBlockRead/WriteINTEL";
    case SubgroupOp::kImageBlockIo:
      return "OpSubgroupImageBlockRead/WriteINTEL";
    case SubgroupOp::kGroupBroadcast:
      return "OpGroupBroadcast";
    case SubgroupOp::kGroupIAdd:
      return "OpGroupIAdd";
    case SubgroupOp::kGroupMinMax:
      return "OpGroupSMin/UMin/SMax/UMax";
  }
  return "";
}

std::string_view GroupOperationName(GroupOperation operation) {
  switch (operation) {
    case GroupOperation::kReduce:
      return "Reduce";
    case GroupOperation::kInclusiveScan:
      return "InclusiveScan";
    case GroupOperation::kExclusiveScan:
      return "ExclusiveScan";
  }
  return "";
}

}  // namespace

Block2dMatch MatchBlock2d(const DeviceProfile& profile, Block2dOp op, uint32_t element_size,
                          uint32_t width, uint32_t height, uint32_t count) {
  Block2dMatch match;
  match.instruction = std::string(Block2dInstructionName(op));
  if (profile.block2d.kind != TableKind::kTable) {
    match.status = profile.block2d.kind == TableKind::kNoTable ? MatchStatus::kNoTable
                                                               : MatchStatus::kNotSupported;
    return match;
  }
  std::vector<const Block2dRow*> rows;
  for (const Block2dRow& row : profile.block2d.rows) {
    if (row.op == op) rows.push_back(&row);
  }
  if (rows.empty()) {
    match.status = MatchStatus::kNotSupported;
    return match;
  }
  using Values = std::function<std::vector<uint32_t>(const Block2dRow&)>;
  Mismatch* mismatch = &match.mismatch;
  match.status = MatchStatus::kMismatch;
  if (!NarrowByValue<Block2dRow>(rows, element_size, Values([](const Block2dRow& r) {
                                   return std::vector<uint32_t>{r.element_size};
                                 }),
                                 "Element Size", "", mismatch)) {
    return match;
  }
  std::string context = " for Element Size " + std::to_string(element_size);
  if (!NarrowByValue<Block2dRow>(rows, width, Values([](const Block2dRow& r) { return r.width; }),
                                 "Block Width", context, mismatch)) {
    return match;
  }
  context += ", Block Width " + std::to_string(width);
  if (!NarrowByValue<Block2dRow>(rows, height, Values([](const Block2dRow& r) { return r.height; }),
                                 "Block Height", context, mismatch)) {
    return match;
  }
  context += ", Block Height " + std::to_string(height);
  if (!NarrowByValue<Block2dRow>(rows, count, Values([](const Block2dRow& r) { return r.count; }),
                                 "Block Count", context, mismatch)) {
    return match;
  }
  match.status = MatchStatus::kMatched;
  match.row = rows.front();
  return match;
}

std::string Block2dMatch::Message(const DeviceProfile& profile) const {
  switch (status) {
    case MatchStatus::kMismatch:
      return internal::FormatMismatch(mismatch, instruction, profile.name);
    case MatchStatus::kNotSupported:
      return instruction + " is not supported on device " + profile.name;
    default:
      return {};
  }
}

const SubgroupSizeRow* MatchBlock2dSubgroupSize(const DeviceProfile& profile, uint32_t size,
                                                std::vector<uint32_t>* supported) {
  // Without rows, any subgroup size of the profile will do; the caller checks that one.
  static const SubgroupSizeRow kAnySize;
  if (profile.block2d_limits.subgroup_sizes.empty()) return &kAnySize;
  if (supported != nullptr) supported->clear();
  for (const SubgroupSizeRow& row : profile.block2d_limits.subgroup_sizes) {
    if (Contains(row.sizes, size)) return &row;
    if (supported != nullptr)
      supported->insert(supported->end(), row.sizes.begin(), row.sizes.end());
  }
  if (supported != nullptr) std::sort(supported->begin(), supported->end());
  return nullptr;
}

SubgroupTypeMatch MatchSubgroupType(const DeviceProfile& profile, const SubgroupTypeQuery& query) {
  SubgroupTypeMatch match;
  if (profile.subgroup_ops.kind != TableKind::kTable) {
    match.status = profile.subgroup_ops.kind == TableKind::kNoTable ? MatchStatus::kNoTable
                                                                    : MatchStatus::kNotSupported;
    return match;
  }
  std::vector<const SubgroupTypeRow*> rows;
  bool width_listed = false;
  std::string missing_feature;  // of a row that would list the width, if the device had it
  for (const SubgroupTypeRow& row : profile.subgroup_ops.rows) {
    if (!Contains(row.ops, query.op)) continue;
    width_listed = width_listed || Contains(row.bits, query.bits);
    // A row that needs a feature the device lacks (e.g. "char") does not exist on that device.
    if (row.feature.empty() || profile.HasFeature(row.feature)) {
      rows.push_back(&row);
    } else if (Contains(row.bits, query.bits)) {
      missing_feature = row.feature;
    }
  }
  // The OpGroup* rows only list the widths the Intel extensions add (C.4); the core rules
  // decide the others.
  if (IsGroupOp(query.op) && !width_listed) {
    match.status = MatchStatus::kCoreRules;
    return match;
  }
  match.status = MatchStatus::kMismatch;
  if (rows.empty() && missing_feature.empty()) {
    match.status = MatchStatus::kNotSupported;
    return match;
  }
  using Values = std::function<std::vector<uint32_t>(const SubgroupTypeRow&)>;
  using Name = std::function<std::string(const SubgroupTypeRow&)>;
  Mismatch* mismatch = &match.mismatch;
  const std::string kind(internal::ScalarKindName(query.kind));
  std::string width_context = " for " + kind + " components";
  if (!missing_feature.empty()) {
    width_context += " (needs the subgroup type feature \"" + missing_feature + "\")";
  }
  if (!NarrowByValue<SubgroupTypeRow>(rows, query.bits,
                                      Values([](const SubgroupTypeRow& r) { return r.bits; }),
                                      "Component width", width_context, mismatch)) {
    return match;
  }
  std::string context = " for " + std::to_string(query.bits) + "-bit components";
  if (!NarrowByName<SubgroupTypeRow>(
          rows, kind, Name([&](const SubgroupTypeRow& r) {
            return std::string(
                Contains(r.kinds, query.kind) ? kind : internal::ScalarKindName(r.kinds.front()));
          }),
          "Component type", context, mismatch)) {
    return match;
  }
  context = " for " + std::to_string(query.bits) + "-bit " + kind;
  if (!NarrowByValue<SubgroupTypeRow>(
          rows, query.components, Values([](const SubgroupTypeRow& r) { return r.vector_sizes; }),
          "Component count", context, mismatch)) {
    return match;
  }
  if (query.group_operation) {
    const GroupOperation operation = *query.group_operation;
    std::vector<const SubgroupTypeRow*> kept;
    std::vector<std::string> allowed;
    for (const SubgroupTypeRow* row : rows) {
      if (row->group_operations.empty() || Contains(row->group_operations, operation)) {
        kept.push_back(row);
      }
      for (GroupOperation g : row->group_operations) {
        std::string name(GroupOperationName(g));
        if (!Contains(allowed, name)) allowed.push_back(name);
      }
    }
    if (kept.empty()) {
      *mismatch = {"Group Operation", std::string(GroupOperationName(operation)), context, allowed};
      return match;
    }
    rows = std::move(kept);
  }
  match.status = MatchStatus::kMatched;
  match.row = rows.front();
  return match;
}

std::string SubgroupTypeMatch::Message(const DeviceProfile& profile,
                                       const SubgroupTypeQuery& query) const {
  switch (status) {
    case MatchStatus::kMismatch:
      return internal::FormatMismatch(mismatch, SubgroupInstructionName(query.op), profile.name);
    case MatchStatus::kNotSupported:
      return std::string(SubgroupInstructionName(query.op)) + " is not supported on device " +
             profile.name;
    default:
      return {};
  }
}

}  // namespace xmx::device
