// The launch: checks the request, plans the NDRange and the launch's memory, runs the
// work-groups on a pool of worker threads (worker.hpp) and gathers what they found. The result
// of a run does not depend on the number of threads: work-groups share nothing but global
// memory, and inside one the order is fixed.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "interp/kernel_access.hpp"
#include "interp/model/run_report.hpp"
#include "interp/model/work_group.hpp"
#include "interp/run/launch_memory.hpp"
#include "interp/run/worker.hpp"
#include "xmx/interpreter.hpp"

namespace xmx::interp {

void DefaultLocalSize(const Program& program, LaunchGeometry* g) {
  if (program.required_local_size[0] != 0) {
    for (int d = 0; d < 3; ++d) g->local[d] = std::max<uint32_t>(program.required_local_size[d], 1);
    return;
  }
  uint64_t budget = 256;
  for (int d = 0; d < 3; ++d) {
    uint64_t best = 1;
    for (uint64_t l = 1; l <= std::min(budget, g->global[d]); ++l) {
      if (g->global[d] % l == 0) best = l;
    }
    g->local[d] = best;
    budget /= best;
  }
}

namespace {

// The launch's NDRange: work-groups per dimension and in all, refusing what cannot be counted
// (a product past 2^64 would wrap to a launch of no work-group, silently) and a local size that
// contradicts the kernel's LocalSize (the kernel is written for that size).
std::optional<std::string> PlanGeometry(const Program& p, LaunchGeometry* g,
                                        uint64_t* total_groups) {
  uint64_t items = 1;
  *total_groups = 1;
  for (int d = 0; d < 3; ++d) {
    if (g->global[d] == 0 || g->local[d] == 0) return "global and local sizes must be positive";
    g->groups[d] = g->global[d] / g->local[d] + (g->global[d] % g->local[d] != 0);
    if (__builtin_mul_overflow(items, g->global[d], &items) ||
        __builtin_mul_overflow(*total_groups, g->groups[d], total_groups)) {
      return "the global size (" + std::to_string(g->global[0]) + "," +
             std::to_string(g->global[1]) + "," + std::to_string(g->global[2]) +
             ") has more than 2^64 work-items";
    }
  }
  if (p.required_local_size[0] != 0) {
    for (int d = 0; d < 3; ++d) {
      if (g->local[d] == std::max<uint64_t>(p.required_local_size[d], 1)) continue;
      return "the local size (" + std::to_string(g->local[0]) + "," + std::to_string(g->local[1]) +
             "," + std::to_string(g->local[2]) + ") contradicts kernel " + p.kernel_name +
             "'s LocalSize " + std::to_string(p.required_local_size[0]) + " " +
             std::to_string(p.required_local_size[1]) + " " +
             std::to_string(p.required_local_size[2]) +
             " (OpExecutionMode): give that size or leave the local size out";
    }
  }
  return std::nullopt;
}

// Worker threads that can help: no more than work-groups, nor than kThreadsPerCore per hardware
// thread.
uint32_t UsefulThreads(uint32_t asked, uint64_t total_groups) {
  const uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<uint32_t>(std::clamp<uint64_t>(
      std::min<uint64_t>({asked, total_groups, cores * kThreadsPerCore, kMaxThreads}), 1,
      kMaxThreads));
}

void Launch(RunRequest& request, RunOutcome& outcome) {
  if (!request.kernel.loaded()) {
    outcome.error = "no kernel: the request's kernel was never loaded";
    return;
  }
  const Program& p = KernelAccess::ProgramOf(request.kernel);
  if (request.arguments.size() != p.parameters.size()) {
    outcome.error = "kernel " + p.kernel_name + " takes " + std::to_string(p.parameters.size()) +
                    " arguments, " + std::to_string(request.arguments.size()) + " given";
    return;
  }
  LaunchShared launch;
  launch.program = &p;
  launch.geometry = request.geometry;
  launch.options = request.options;
  uint64_t total_groups = 0;
  if (std::optional<std::string> error = PlanGeometry(p, &launch.geometry, &total_groups)) {
    outcome.error = std::move(*error);
    return;
  }
  uint32_t threads = UsefulThreads(request.threads, total_groups);
  if (std::optional<std::string> error = PlanLaunchMemory(request, &threads)) {
    outcome.error = std::move(*error);
    return;
  }
  GlobalMemory global;
  if (std::optional<std::string> error = PlaceArguments(request, &global)) {
    outcome.error = std::move(*error);
    return;
  }

  ReportSink sink(request.options.check);
  launch.reports = &sink;
  const auto start = std::chrono::steady_clock::now();
  if (request.options.timeout_seconds > 0) {
    const std::chrono::duration<double> timeout(request.options.timeout_seconds);
    if (timeout < std::chrono::hours(24 * 365 * 100)) {
      launch.deadline = start + std::chrono::duration_cast<std::chrono::nanoseconds>(timeout);
    }
  }
  std::atomic<uint64_t> next{0};
  std::vector<RunStats> stats(threads);
  std::mutex failure_mutex;
  std::string failure;  // the first worker's exception (out of memory)
  auto work = [&](uint32_t t) {
    try {
      Worker worker(launch, global, request);
      for (;;) {
        const uint64_t group = next.fetch_add(1);
        if (group >= total_groups || sink.stopped()) break;
        worker.RunGroup(group);
      }
      worker.AddStats(&stats[t]);
    } catch (const std::exception& e) {
      // Nothing may leave a worker thread (that aborts): a storage request the host refuses
      // (bad_alloc, or length_error for one past what a vector can hold) stops the launch.
      const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr ||
                          dynamic_cast<const std::length_error*>(&e) != nullptr;
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (failure.empty()) {
        failure = memory ? "the host ran out of memory while running the kernel"
                         : std::string("the launch failed: ") + e.what();
      }
      sink.Stop();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (uint32_t t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(work, t);
    } catch (const std::exception&) {
      break;  // the host gives no more threads (system_error, bad_alloc): run on those it gave
    }
  }
  outcome.threads = static_cast<uint32_t>(pool.size()) + 1;
  work(0);
  for (std::thread& t : pool) t.join();
  outcome.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const RunStats& s : stats) {
    outcome.stats.instructions += s.instructions;
    outcome.stats.lane_instructions += s.lane_instructions;
    outcome.stats.matrix_instructions += s.matrix_instructions;
    outcome.stats.work_groups += s.work_groups;
  }
  std::stable_sort(launch.printf_chunks.begin(), launch.printf_chunks.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& chunk : launch.printf_chunks) outcome.printf_output += chunk.second;
  if (!failure.empty()) {
    outcome.error = failure;
  } else if (launch.instruction_limit_reached) {
    outcome.error = "the launch executed more than " +
                    std::to_string(request.options.instruction_limit) +
                    " instructions, its limit (raise it with --max-instructions N, or "
                    "\"max-instructions\" in a run file; 0 lifts it)";
  } else if (launch.timed_out) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", request.options.timeout_seconds);
    outcome.error = std::string("the launch ran longer than its time limit of ") + seconds +
                    " seconds (raise it with --timeout SECONDS, or \"timeout\" in a run file; "
                    "0 lifts it)";
  }
  outcome.run_failed = !outcome.error.empty();
  outcome.stopped = sink.stopped();
  outcome.total_reports = sink.total();
  outcome.reports = sink.Take();
  outcome.total_warnings = sink.total_warnings();
  outcome.warnings = sink.TakeWarnings();
  outcome.buffers.resize(request.arguments.size());
  for (size_t i = 0; i < request.arguments.size(); ++i) {
    if (global.argument_allocation[i] == 0) continue;
    if (!global.adopted[i].empty()) {
      outcome.buffers[i] = std::move(global.adopted[i]);
      continue;
    }
    const uint8_t* data = global.buffers[i].data();
    outcome.buffers[i].assign(data, data + global.buffers[i].size());
    global.buffers[i].Release();
  }
}

}  // namespace

RunOutcome Execute(RunRequest request) {
  RunOutcome outcome;
  try {
    Launch(request, outcome);
  } catch (const std::bad_alloc&) {
    outcome = RunOutcome{};
    outcome.error =
        "the host ran out of memory for the launch (lower --max-memory to be told "
        "before allocating)";
    outcome.run_failed = true;
  }
  return outcome;
}

}  // namespace xmx::interp
