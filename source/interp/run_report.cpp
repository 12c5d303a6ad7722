#include "interp/run_report.hpp"

#include <algorithm>

#include "interp/work_group.hpp"

namespace xmx::interp {

std::vector<RunReport> ReportSink::Take() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::stable_sort(reports_.begin(), reports_.end(), [](const RunReport& a, const RunReport& b) {
    return a.group_linear != b.group_linear ? a.group_linear < b.group_linear
                                            : a.sequence < b.sequence;
  });
  if (reports_.size() > limit_) reports_.resize(limit_);
  if (mode_ == CheckMode::kError && reports_.size() > 1) reports_.resize(1);
  return std::move(reports_);
}

namespace {

RunReport MakeReport(Subgroup& sg, const Instr* in, const char* rule, std::string message) {
  RunReport r;
  r.rule = rule;
  r.message = std::move(message);
  r.instruction_index = in != nullptr ? in->source_index : 0;
  WorkGroup& g = *sg.group;
  for (int d = 0; d < 3; ++d) r.group_id[d] = g.group_id[d];
  r.group_linear = g.group_linear;
  r.sequence = g.report_sequence++;
  r.subgroup = sg.id;
  return r;
}

}  // namespace

bool ReportAt(Subgroup& sg, const Instr* in, uint32_t lane, const char* rule, std::string message) {
  RunReport r = MakeReport(sg, in, rule, std::move(message));
  WorkGroup& g = *sg.group;
  const LaunchGeometry& geo = g.launch->geometry;
  r.about_work_item = true;
  r.lane = lane;
  g.LocalId(sg.first_item + lane, r.local_id);
  for (int d = 0; d < 3; ++d) {
    r.global_id[d] = g.group_id[d] * geo.local[d] + r.local_id[d] + geo.offset[d];
  }
  return g.launch->reports->Add(std::move(r));
}

bool ReportSubgroup(Subgroup& sg, const Instr* in, const char* rule, std::string message) {
  return sg.group->launch->reports->Add(MakeReport(sg, in, rule, std::move(message)));
}

const Instr* StopSubgroup(Subgroup& sg) {
  sg.state = SubgroupState::kDone;
  return nullptr;
}

}  // namespace xmx::interp
