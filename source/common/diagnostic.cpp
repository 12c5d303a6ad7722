#include "xmx/diagnostic.hpp"

namespace xmx {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kRemark:
      return "remark";
  }
  return "error";
}

std::string Diagnostic::Where() const {
  if (text_position) {
    return "line " + std::to_string(text_position->line) + ", column " +
           std::to_string(text_position->column);
  }
  if (word_offset) return "word " + std::to_string(*word_offset);
  if (instruction_index) return "instruction " + std::to_string(*instruction_index);
  return {};
}

std::string Diagnostic::Format() const {
  std::string where = Where();
  std::string out = SeverityName(severity);
  out += ": ";
  if (!where.empty()) out += where + ": ";
  out += message;
  return out;
}

}  // namespace xmx
