// xmx-query's answers. Every verdict comes from the device layer's own lookups: the
// cooperative-matrix validation form is device::ValidateCooperativeMatrixShape (which is
// MatchCooperativeMatrix, the function xmx-val's coop.device.* rules call), the native one
// device::ValidateMatrixShape, the 2D block one device::MatchBlock2d (block2d.shape.table).
#include "tools/query_tables.hpp"

#include <algorithm>
#include <sstream>

namespace xmx::tools {
namespace {

using nlohmann::json;

std::string Sycl(device::ElementType type) { return std::string(device::SyclTypeName(type)); }

std::string ShapeText(const device::MatrixShape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

std::string JoinNumbers(const std::vector<uint32_t>& values) {
  std::string out;
  for (uint32_t v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return out;
}

// Columns padded to the widest cell, two spaces apart.
std::string Table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

json TypesJson(const device::MatrixTypes& t) {
  return {{"a", Sycl(t.a)}, {"b", Sycl(t.b)}, {"c", Sycl(t.c)}, {"d", Sycl(t.d)}};
}

json ShapeJson(const device::MatrixShape& s) { return {{"m", s.m}, {"n", s.n}, {"k", s.k}}; }

json ProvenanceJson(const device::Provenance& p) {
  json out{{"confidence", device::ConfidenceName(p.confidence)}, {"source", p.source}};
  if (!p.note.empty()) out["note"] = p.note;
  return out;
}

std::string MText(const std::vector<uint32_t>& m, bool range) {
  if (range && !m.empty()) return std::to_string(m.front()) + ".." + std::to_string(m.back());
  return JoinNumbers(m);
}

// One combination of either table, in the form both outputs print.
struct Combination {
  device::MatrixTypes types;
  std::vector<uint32_t> m;
  bool m_range = false;
  uint32_t n = 0, k = 0, subgroup_size = 0;
  std::optional<uint32_t> operands;  // native table only
  device::Provenance provenance;
};

Combination FromCooperative(const device::CooperativeMatrixCombination& c) {
  return {c.types, c.m, c.m_is_range, c.n, c.k, c.subgroup_size, std::nullopt, c.row->provenance};
}

Combination FromNative(const device::MatrixCombination& c) {
  return {c.types, c.m, false, c.n, c.k, c.subgroup_size, c.operands, c.row->provenance};
}

std::string Hex(uint32_t v) {
  std::ostringstream out;
  out << "0x" << std::uppercase << std::hex << v;
  return out.str();
}

json CombinationJson(const Combination& c) {
  json out = TypesJson(c.types);
  out["m"] = c.m;
  out["m_text"] = MText(c.m, c.m_range);
  out["n"] = c.n;
  out["k"] = c.k;
  out["subgroup_size"] = c.subgroup_size;
  if (c.operands) out["operands"] = Hex(*c.operands);
  out["provenance"] = ProvenanceJson(c.provenance);
  return out;
}

std::string CombinationsText(const std::vector<Combination>& combinations, bool native) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"A", "B", "C", "D", "M", "N", "K", "subgroup", "confidence"};
  if (native) header.insert(header.begin() + 8, "operands");
  rows.push_back(header);
  for (const Combination& c : combinations) {
    std::vector<std::string> row = {Sycl(c.types.a),
                                    Sycl(c.types.b),
                                    Sycl(c.types.c),
                                    Sycl(c.types.d),
                                    MText(c.m, c.m_range),
                                    std::to_string(c.n),
                                    std::to_string(c.k),
                                    std::to_string(c.subgroup_size),
                                    std::string(device::ConfidenceName(c.provenance.confidence))};
    if (native) row.insert(row.begin() + 8, Hex(c.operands.value_or(0)));
    rows.push_back(std::move(row));
  }
  return Table(rows);
}

const char* TableName(MatrixTable table) {
  return table == MatrixTable::kCooperative ? "cooperative-matrix" : "matrix";
}

const char* TableTitle(MatrixTable table) {
  return table == MatrixTable::kCooperative
             ? "cooperative matrix (joint_matrix) combinations"
             : "OpSubgroupMatrixMultiplyAccumulateINTEL combinations (one native instruction)";
}

device::TableKind KindOf(const device::DeviceProfile& profile, MatrixTable table) {
  return table == MatrixTable::kCooperative ? profile.cooperative_matrix.kind
                                            : profile.matrix_mad.kind;
}

std::vector<Combination> AllCombinations(const device::DeviceProfile& profile, MatrixTable table,
                                         std::optional<uint32_t> subgroup_size) {
  std::vector<Combination> out;
  if (table == MatrixTable::kCooperative) {
    for (const auto& c : device::CooperativeMatrixCombinations(profile)) {
      out.push_back(FromCooperative(c));
    }
  } else {
    for (const auto& c : device::MatrixCombinations(profile)) out.push_back(FromNative(c));
  }
  if (subgroup_size) {
    std::erase_if(out, [&](const Combination& c) { return c.subgroup_size != *subgroup_size; });
  }
  return out;
}

QueryAnswer Start(const device::DeviceProfile& profile, const char* table, const char* form) {
  QueryAnswer answer;
  answer.json = {{"device", profile.name}, {"table", table}, {"form", form}};
  return answer;
}

// A device without the table: "no_table" (only the SPIR-V rules: every shape is left to them,
// as xmx-val leaves it) or "none" (no such instructions: nothing is valid).
bool AnswerWithoutTable(const device::DeviceProfile& profile, device::TableKind kind,
                        const std::string& what, QueryAnswer& answer) {
  if (kind == device::TableKind::kTable) return false;
  const bool no_table = kind == device::TableKind::kNoTable;
  answer.json["table_kind"] = no_table ? "no_table" : "none";
  const std::string text =
      no_table ? "device " + profile.name + " has no " + what +
                     " table: only the SPIR-V rules apply, and xmx-val checks no device shape"
               : "device " + profile.name + " has no " + what;
  answer.json["message"] = text;
  const std::string form = answer.json["form"];
  if (form == "validation") answer.json["valid"] = no_table;
  // The general form only describes the device; the others answer "not supported" for "none".
  answer.exit_code = (no_table || form == "general") ? 0 : 1;
  answer.text = text + "\n";
  return true;
}

}  // namespace

QueryAnswer QueryMatrixTable(const device::DeviceProfile& profile, MatrixTable table,
                             const MatrixQueryInput& input) {
  const char* form = !input.types ? "general" : !input.shape ? "default" : "validation";
  QueryAnswer answer = Start(profile, TableName(table), form);
  if (input.subgroup_size) answer.json["subgroup_size"] = *input.subgroup_size;
  if (input.types) answer.json["types"] = TypesJson(*input.types);
  if (input.shape) answer.json["shape"] = ShapeJson(*input.shape);
  const std::string what = table == MatrixTable::kCooperative ? "cooperative matrix (joint_matrix)"
                                                              : "matrix multiply-accumulate";
  if (AnswerWithoutTable(profile, KindOf(profile, table), what, answer)) return answer;
  std::vector<Combination> combinations = AllCombinations(profile, table, input.subgroup_size);
  const std::string sg_text =
      input.subgroup_size ? " at subgroup size " + std::to_string(*input.subgroup_size) : "";

  if (!input.types) {  // general
    answer.json["combinations"] = json::array();
    for (const Combination& c : combinations) {
      answer.json["combinations"].push_back(CombinationJson(c));
    }
    answer.text = "device " + profile.name + ": " + TableTitle(table) + sg_text + "\n" +
                  CombinationsText(combinations, table == MatrixTable::kNative);
    return answer;
  }

  const device::MatrixTypes& types = *input.types;
  std::erase_if(combinations, [&](const Combination& c) { return !(c.types == types); });
  const std::string types_text = device::ToSyclString(types);
  if (!input.shape) {  // default
    answer.json["combinations"] = json::array();
    for (const Combination& c : combinations) {
      answer.json["combinations"].push_back(CombinationJson(c));
    }
    const std::optional<device::MatrixShape> best =
        table == MatrixTable::kCooperative
            ? device::DefaultCooperativeMatrixShape(profile, types, input.subgroup_size)
            : device::DefaultMatrixShape(profile, types, input.subgroup_size);
    answer.json["supported"] = best.has_value();
    if (!best) {
      answer.exit_code = 1;
      answer.json["message"] =
          "no combination of device " + profile.name + " has " + types_text + sg_text;
      answer.text = answer.json["message"].get<std::string>() + "\n";
      return answer;
    }
    answer.json["default"] = ShapeJson(*best);
    answer.text = "device " + profile.name + ", " + types_text + sg_text +
                  ": default (largest) M x N x K " + ShapeText(*best) + "\nsupported:\n" +
                  CombinationsText(combinations, table == MatrixTable::kNative);
    return answer;
  }

  // validation
  const device::MatrixShape& shape = *input.shape;
  bool valid = false;
  std::string message;
  std::vector<device::MatrixShape> nearest;
  std::optional<Combination> matched;
  if (table == MatrixTable::kCooperative) {
    const device::CooperativeMatrixShapeCheck check =
        device::ValidateCooperativeMatrixShape(profile, types, shape, input.subgroup_size);
    valid = check.status == device::MatchStatus::kMatched;
    message = check.message;
    nearest = check.nearest;
    if (check.combination) matched = FromCooperative(*check.combination);
  } else {
    const device::MatrixShapeCheck check =
        device::ValidateMatrixShape(profile, types, shape, input.subgroup_size);
    valid = check.status == device::MatchStatus::kMatched;
    message = check.message;
    nearest = check.nearest;
    if (check.combination) matched = FromNative(*check.combination);
  }
  answer.json["valid"] = valid;
  answer.json["nearest"] = json::array();
  for (const device::MatrixShape& s : nearest) answer.json["nearest"].push_back(ShapeJson(s));
  if (valid) {
    answer.json["combination"] = CombinationJson(*matched);
    answer.text = "valid: M x N x K " + ShapeText(shape) + " with " + types_text + " on device " +
                  profile.name + " (subgroup size " + std::to_string(matched->subgroup_size) +
                  ", " + std::string(device::ConfidenceName(matched->provenance.confidence)) +
                  (matched->provenance.source.empty() ? "" : ": " + matched->provenance.source) +
                  ")\n";
    if (matched->provenance.confidence == device::Confidence::kConvention) {
      answer.text += "note: a convention row (xmx-val warns): " + matched->provenance.note + "\n";
    }
    return answer;
  }
  answer.exit_code = 1;
  answer.json["message"] = message;
  answer.text = "not valid: " + message + "\n";
  return answer;
}

QueryAnswer QueryBlock2dTable(const device::DeviceProfile& profile,
                              const Block2dQueryInput& input) {
  const bool validation = input.width.has_value();
  const char* form = validation                         ? "validation"
                     : (input.op || input.element_size) ? "default"
                                                        : "general";
  QueryAnswer answer = Start(profile, "block2d", form);
  if (AnswerWithoutTable(profile, profile.block2d.kind, "2D block IO", answer)) return answer;

  std::vector<const device::Block2dRow*> rows;
  for (const device::Block2dRow& row : profile.block2d.rows) {
    if ((!input.op || row.op == *input.op) &&
        (!input.element_size || row.element_size == *input.element_size)) {
      rows.push_back(&row);
    }
  }
  json rows_json = json::array();
  std::vector<std::vector<std::string>> text_rows = {
      {"op", "element size", "width", "height", "count", "confidence"}};
  for (const device::Block2dRow* row : rows) {
    rows_json.push_back({{"op", device::Block2dOpName(row->op)},
                         {"element_size", row->element_size},
                         {"width", row->width},
                         {"height", row->height},
                         {"count", row->count},
                         {"provenance", ProvenanceJson(row->provenance)}});
    text_rows.push_back({std::string(device::Block2dOpName(row->op)),
                         std::to_string(row->element_size), JoinNumbers(row->width),
                         JoinNumbers(row->height), JoinNumbers(row->count),
                         std::string(device::ConfidenceName(row->provenance.confidence))});
  }
  std::vector<uint32_t> sizes;
  for (const device::SubgroupSizeRow& row : profile.block2d_limits.subgroup_sizes) {
    sizes.insert(sizes.end(), row.sizes.begin(), row.sizes.end());
  }
  if (sizes.empty()) sizes = profile.subgroup_sizes;
  std::sort(sizes.begin(), sizes.end());
  answer.json["subgroup_sizes"] = sizes;
  answer.json["rows"] = rows_json;

  if (!validation) {
    if (rows.empty()) {
      answer.exit_code = 1;
      answer.json["message"] =
          "no 2D block row of device " + profile.name + " has this operation and element size";
      answer.text = answer.json["message"].get<std::string>() + "\n";
      return answer;
    }
    answer.text = "device " + profile.name + ": 2D block shapes (subgroup sizes " +
                  JoinNumbers(sizes) + ")\n" + Table(text_rows);
    return answer;
  }

  answer.json["block"] = {{"op", device::Block2dOpName(*input.op)},
                          {"element_size", *input.element_size},
                          {"width", *input.width},
                          {"height", *input.height},
                          {"count", input.count}};
  const device::Block2dMatch match = device::MatchBlock2d(profile, *input.op, *input.element_size,
                                                          *input.width, *input.height, input.count);
  bool valid = match.status == device::MatchStatus::kMatched;
  std::string message = valid ? "" : match.Message(profile);
  const device::SubgroupSizeRow* size_row = nullptr;
  if (valid && input.subgroup_size) {
    std::vector<uint32_t> supported;
    if (profile.SupportsSubgroupSize(*input.subgroup_size)) {
      size_row = device::MatchBlock2dSubgroupSize(profile, *input.subgroup_size, &supported);
    }
    if (size_row == nullptr) {
      valid = false;
      message = "subgroup size " + std::to_string(*input.subgroup_size) +
                " is not one the 2D block instructions run at on device " + profile.name +
                "; supported: " + JoinNumbers(supported.empty() ? sizes : supported);
    }
  }
  answer.json["valid"] = valid;
  const std::string block = std::string(device::Block2dInstructionName(*input.op)) +
                            " Element Size " + std::to_string(*input.element_size) +
                            ", Block Width " + std::to_string(*input.width) + ", Block Height " +
                            std::to_string(*input.height) + ", Block Count " +
                            std::to_string(input.count);
  if (valid) {
    answer.text = "valid: " + block + " on device " + profile.name + "\n";
    if (match.row->provenance.confidence == device::Confidence::kConvention) {
      answer.text += "note: a convention row (xmx-val warns): " + match.row->provenance.note + "\n";
    }
    if (size_row && size_row->provenance.confidence == device::Confidence::kConvention) {
      answer.text +=
          "note: the subgroup size is a convention (xmx-val warns): " + size_row->provenance.note +
          "\n";
    }
    return answer;
  }
  answer.exit_code = 1;
  answer.json["message"] = message;
  answer.text = "not valid: " + message + "\n";
  if (!rows.empty())
    answer.text += "rows for this operation and element size:\n" + Table(text_rows);
  return answer;
}

}  // namespace xmx::tools
