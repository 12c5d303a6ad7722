// xmx-run as a library: load a validated module's kernel into a Program and execute it over an
// NDRange, with undefined-behaviour checks (CLI.md, xmx-run).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "interp/program.hpp"
#include "interp/run_report.hpp"
#include "interp/work_group.hpp"

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

struct RunRequest {
  const Program* program = nullptr;
  LaunchGeometry geometry;
  LaunchOptions options;
  std::vector<RunArgument> arguments;
  uint32_t threads = 1;
};

struct RunStats {
  uint64_t instructions = 0;       // instructions dispatched (once per subgroup)
  uint64_t lane_instructions = 0;  // summed over active lanes
  uint64_t matrix_instructions = 0;
  uint64_t work_groups = 0;
  double seconds = 0;
};

struct RunOutcome {
  std::string error;               // set when the launch could not start
  std::vector<RunReport> reports;  // undefined behaviour found
  size_t total_reports = 0;
  // Reads of undefined values (DECISIONS.md 16), in every --check mode; never stop the launch.
  std::vector<RunReport> warnings;
  size_t total_warnings = 0;
  bool stopped = false;                       // --check=error stopped the launch
  std::vector<std::vector<uint8_t>> buffers;  // final contents, per argument (empty if none)
  std::string printf_output;
  RunStats stats;
};

// Checks the arguments against the kernel's parameters and runs every work-group.
RunOutcome Execute(const RunRequest& request);

// The local size to use when none is given: the kernel's LocalSize, else the largest size of
// at most 256 work-items (a multiple of the subgroup size where possible) that divides the
// global size in each dimension.
void DefaultLocalSize(const Program& program, LaunchGeometry* geometry);

}  // namespace xmx::interp
