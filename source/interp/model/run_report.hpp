// What xmx-run finds while running, reported with the instruction, the work-item and the values
// (CLI.md, --check): undefined behaviour, which --check=error stops at, and reads of undefined
// values (DECISIONS.md 16), which are warnings under every --check mode and never stop a run.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "xmx/interpreter.hpp"

namespace xmx::interp {

// CheckMode and RunReport are public (xmx/interpreter.hpp).

// Collects the reports of every worker. With CheckMode::kError the first report of undefined
// behaviour stops the launch; the one kept is the report of the lowest work-group, so the output
// does not depend on the thread count. Undefined-value warnings are kept apart: they are
// collected in every mode and never stop anything.
class ReportSink {
 public:
  explicit ReportSink(CheckMode mode, size_t limit = 100) : mode_(mode), limit_(limit) {}
  CheckMode mode() const { return mode_; }
  // Returns true when execution must stop.
  bool Add(RunReport report) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++total_;
    if (reports_.size() < limit_ * 4) reports_.push_back(std::move(report));
    if (mode_ == CheckMode::kError) stop_.store(true, std::memory_order_relaxed);
    return mode_ == CheckMode::kError;
  }
  bool stopped() const { return stop_.load(std::memory_order_relaxed); }
  void Stop() { stop_.store(true, std::memory_order_relaxed); }
  // Sorted by work-group, then by order of detection, at most `limit` of them.
  std::vector<RunReport> Take();
  size_t total() const { return total_; }

  // Counts an undefined-value read; true when the caller should build and add its warning (the
  // first few thousand are kept, the rest only counted, so a kernel whose every subgroup reads
  // one costs an atomic increment per read).
  bool CountWarning() {
    return warning_total_.fetch_add(1, std::memory_order_relaxed) < limit_ * 40;
  }
  void AddWarning(RunReport warning) {
    std::lock_guard<std::mutex> lock(mutex_);
    warnings_.push_back(std::move(warning));
  }
  // Sorted like Take(), at most `limit` of them.
  std::vector<RunReport> TakeWarnings();
  size_t total_warnings() const { return warning_total_.load(std::memory_order_relaxed); }

 private:
  CheckMode mode_;
  size_t limit_;
  std::mutex mutex_;
  std::vector<RunReport> reports_, warnings_;
  size_t total_ = 0;
  std::atomic<size_t> warning_total_{0};
  std::atomic<bool> stop_{false};
};

}  // namespace xmx::interp
