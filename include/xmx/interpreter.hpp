// xmx-run as a library: load a validated module's kernel into a Program and execute it over an
// NDRange, with undefined-behaviour checks (CLI.md, xmx-run).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "interp/model/program.hpp"
#include "interp/model/run_report.hpp"
#include "interp/model/work_group.hpp"

namespace xmx::interp {

struct RunArgument {
  enum class Kind : uint8_t { kValue, kBuffer, kLocal, kImage };
  Kind kind = Kind::kValue;
  std::vector<uint8_t> bytes;  // kValue: the value; kBuffer, kImage: initial contents
  uint64_t local_bytes = 0;    // kLocal
  // kImage: width and height in texels, bytes per texel; `bytes` holds the rows, tightly packed.
  uint64_t image_width = 0, image_height = 0;
  uint32_t texel_bytes = 0;
};

// Bytes a launch may allocate altogether unless told otherwise (xmx-run --max-memory).
inline constexpr uint64_t kDefaultMaxMemory = uint64_t{4} << 30;
// Instructions a launch may dispatch unless told otherwise (xmx-run --max-instructions): at the
// 3e7 dispatches a second one thread manages on a simple loop, some five minutes of work; the
// largest launch of the test suite and benchmarks dispatches far fewer.
inline constexpr uint64_t kDefaultMaxInstructions = 10'000'000'000;
// Worker threads a launch may ask for (xmx-run --threads); more is a usage error.
inline constexpr uint32_t kMaxThreads = 1024;
// A launch runs at most this many threads per hardware thread: more only adds switching.
inline constexpr uint32_t kThreadsPerCore = 4;

struct RunRequest {
  const Program* program = nullptr;
  LaunchGeometry geometry;
  LaunchOptions options;
  std::vector<RunArgument> arguments;
  // Worker threads asked for. Execute runs no more than there are work-groups, than
  // kThreadsPerCore per hardware thread, and than the memory limit leaves room for (each thread
  // holds one work-group's private and local memory and registers); RunOutcome::threads says how
  // many ran.
  uint32_t threads = 1;
  // The limit on what the launch allocates, checked before allocating (LaunchMemory in
  // launch_memory.hpp lists what it covers); 0: no limit.
  uint64_t max_memory = kDefaultMaxMemory;
};

struct RunStats {
  uint64_t instructions = 0;       // instructions dispatched (once per subgroup)
  uint64_t lane_instructions = 0;  // summed over active lanes
  uint64_t matrix_instructions = 0;
  uint64_t work_groups = 0;
  double seconds = 0;
};

struct RunOutcome {
  // Set when the launch could not start (`run_failed` false: the request is at fault) or was
  // abandoned (`run_failed` true: a limit of LaunchOptions was reached or the host ran out of
  // memory while running).
  std::string error;
  bool run_failed = false;
  std::vector<RunReport> reports;  // undefined behaviour found
  size_t total_reports = 0;
  // Reads of undefined values (DECISIONS.md 16), in every --check mode; never stop the launch.
  std::vector<RunReport> warnings;
  size_t total_warnings = 0;
  bool stopped = false;                       // --check=error stopped the launch
  std::vector<std::vector<uint8_t>> buffers;  // final contents, per argument (empty if none)
  std::string printf_output;
  RunStats stats;
  uint32_t threads = 0;  // worker threads the launch ran on
};

// Checks the arguments against the kernel's parameters and runs every work-group. The request is
// taken by value: a caller that moves it in lets the launch release each argument's bytes once
// they are copied into the launch's memory. Running out of host memory is an error in the
// outcome, not an exception.
RunOutcome Execute(RunRequest request);

// The local size to use when none is given: the kernel's LocalSize, else the largest size of
// at most 256 work-items (a multiple of the subgroup size where possible) that divides the
// global size in each dimension.
void DefaultLocalSize(const Program& program, LaunchGeometry* geometry);

}  // namespace xmx::interp
