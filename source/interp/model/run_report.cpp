#include "interp/model/run_report.hpp"

#include <algorithm>
#include <functional>

#include "interp/model/work_group.hpp"

namespace xmx::interp {

namespace {

void SortByWorkGroup(std::vector<RunReport>* reports) {
  std::stable_sort(reports->begin(), reports->end(), [](const RunReport& a, const RunReport& b) {
    return a.group_linear != b.group_linear ? a.group_linear < b.group_linear
                                            : a.sequence < b.sequence;
  });
}

}  // namespace

std::vector<RunReport> ReportSink::Take() {
  std::lock_guard<std::mutex> lock(mutex_);
  SortByWorkGroup(&reports_);
  if (reports_.size() > limit_) reports_.resize(limit_);
  if (mode_ == CheckMode::kError && reports_.size() > 1) reports_.resize(1);
  return std::move(reports_);
}

std::vector<RunReport> ReportSink::TakeWarnings() {
  std::lock_guard<std::mutex> lock(mutex_);
  SortByWorkGroup(&warnings_);
  if (warnings_.size() > limit_) warnings_.resize(limit_);
  return std::move(warnings_);
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

void FillWorkItem(Subgroup& sg, uint32_t lane, RunReport* r) {
  WorkGroup& g = *sg.group;
  const LaunchGeometry& geo = g.launch->geometry;
  r->about_work_item = true;
  r->lane = lane;
  g.LocalId(sg.first_item + lane, r->local_id);
  for (int d = 0; d < 3; ++d) {
    r->global_id[d] = g.group_id[d] * geo.local[d] + r->local_id[d] + geo.offset[d];
  }
}

}  // namespace

bool ReportAt(Subgroup& sg, const Instr* in, uint32_t lane, const char* rule, std::string message) {
  RunReport r = MakeReport(sg, in, rule, std::move(message));
  FillWorkItem(sg, lane, &r);
  return sg.group->launch->reports->Add(std::move(r));
}

void WarnUndefinedValue(Subgroup& sg, const Instr* in, uint32_t lane, const char* rule,
                        const std::function<std::string()>& message) {
  ReportSink& sink = *sg.group->launch->reports;
  if (!sink.CountWarning()) return;
  RunReport r = MakeReport(sg, in, rule, message());
  FillWorkItem(sg, lane, &r);
  sink.AddWarning(std::move(r));
}

bool ReportSubgroup(Subgroup& sg, const Instr* in, const char* rule, std::string message) {
  return sg.group->launch->reports->Add(MakeReport(sg, in, rule, std::move(message)));
}

const Instr* StopSubgroup(Subgroup& sg) {
  sg.state = SubgroupState::kDone;
  return nullptr;
}

}  // namespace xmx::interp
