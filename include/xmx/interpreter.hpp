// xmx-run as a library: load a kernel of a module (validated first), run it over an NDRange with
// its arguments, and read back its buffers and what was found while running (CLI.md, xmx-run).
//
//   xmx::interp::KernelOptions options;             // the module's only kernel, device "opencl"
//   xmx::Result<xmx::interp::Kernel> kernel = xmx::interp::LoadKernel(words, options);
//   if (!kernel) { /* kernel.diagnostics(): why */ }
//   xmx::interp::RunRequest request;
//   request.kernel = *kernel;
//   request.geometry.global[0] = 64;
//   xmx::interp::DefaultLocalSize(*kernel, &request.geometry);
//   request.arguments = {...};                     // one per kernel parameter, in order
//   xmx::interp::RunOutcome outcome = xmx::interp::Execute(std::move(request));
//   // outcome.error, outcome.reports, outcome.buffers[i] ...
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "xmx/result.hpp"

namespace xmx::device {
struct DeviceProfile;
}

namespace xmx::interp {

// --- Loading ---------------------------------------------------------------------------------

struct KernelOptions {
  std::string kernel;  // the entry point's name; empty: the module's only kernel
  // The device whose tables the module is validated against (nullptr: "opencl"); it also picks
  // the subgroup size of a kernel that declares none and is given none below.
  const device::DeviceProfile* device = nullptr;
  // The subgroup size of a kernel without OpExecutionMode SubgroupSize (xmx-run
  // --subgroup-size); unset: 16 when the device allows it, else its first size.
  std::optional<uint32_t> subgroup_size;
  // The float model of the matrix instruction's fp32 accumulation (xmx-run --mma-fp): exact
  // (one rounding per dot product) or ordered (a rounding after each product, in K order).
  bool ordered_matrix_fp = false;
};

// The compiled form of a kernel: opaque, owned by the Kernel handles that share it.
struct Program;

// A kernel parameter as the launch sees it: what argument it takes (RunArgument::Kind).
struct KernelParameterInfo {
  enum class Kind : uint8_t {
    kScalar,           // a value (RunArgument::Kind::kValue) of `value_bytes` bytes
    kGlobalPointer,    // a buffer (kBuffer)
    kConstantPointer,  // a buffer (kBuffer), read only
    kLocalPointer,     // local memory (kLocal)
    kByValue,          // a struct passed by value: a buffer (kBuffer) of its `value_bytes`
    kImage,            // a 2D image (kImage)
  };
  Kind kind = Kind::kScalar;
  uint32_t value_bytes = 0;  // kScalar: the value's size (vectors: all components); kByValue
  std::string name;          // from OpName, or empty
};

// A loaded kernel: a handle to its compiled program (copies share it). Default-constructed, it
// holds none (loaded() false) and Execute refuses it.
class Kernel {
 public:
  Kernel() = default;

  bool loaded() const { return program_ != nullptr; }
  const std::string& name() const;
  uint32_t subgroup_size() const;
  // The kernel's LocalSize execution mode, zeros when it declares none.
  std::array<uint32_t, 3> required_local_size() const;
  const std::vector<KernelParameterInfo>& parameters() const;

 private:
  friend struct KernelAccess;  // the library's own access to the program (source/interp)
  std::shared_ptr<const Program> program_;
  std::shared_ptr<const std::vector<KernelParameterInfo>> parameters_;
};

// The rule ids of a LoadKernel failure's last diagnostic (the ones before it are the
// validator's own diagnostics, warnings and errors, each with its rule id).
inline constexpr char kRuleModuleInvalid[] = "load.module-invalid";     // the validator refused it
inline constexpr char kRuleKernelNotFound[] = "load.kernel-not-found";  // no such kernel
inline constexpr char kRuleLoadFailed[] = "load.unsupported";  // valid, but xmx-run cannot run it

// Validates `words` (the options' device and subgroup size; DECISIONS.md 13: only valid modules
// run), finds the kernel and compiles it. The result carries the validator's warnings and
// remarks; a failure ends with an error of one of the rules above, naming the instruction (with
// its text) when it is about one.
Result<Kernel> LoadKernel(std::span<const uint32_t> words, const KernelOptions& options = {});

// --- Running ---------------------------------------------------------------------------------

// What to do on undefined behaviour (xmx-run --check): stop at the first (kError), report and
// go on (kWarn), or not check (kOff).
enum class CheckMode : uint8_t { kError, kWarn, kOff };

// One finding of a launch: undefined behaviour, or the read of an undefined value (a warning,
// DECISIONS.md 16), with the instruction and the work-item.
struct RunReport {
  std::string rule;     // stable id, e.g. "memory.out-of-bounds" or "value.undefined-source"
  std::string message;  // names the operands and values
  uint32_t instruction_index = 0;
  bool about_work_item = false;
  uint64_t global_id[3] = {};
  uint64_t local_id[3] = {};
  uint64_t group_id[3] = {};
  uint32_t subgroup = 0;
  uint32_t lane = 0;
  uint64_t group_linear = 0;  // orders reports deterministically whatever the thread count
  uint64_t sequence = 0;      // order within the work-group
};

struct LaunchGeometry {
  uint32_t dims = 1;
  uint64_t global[3] = {1, 1, 1};
  uint64_t local[3] = {1, 1, 1};
  uint64_t groups[3] = {1, 1, 1};  // set by Execute
  uint64_t offset[3] = {0, 0, 0};
};

struct LaunchOptions {
  CheckMode check = CheckMode::kError;
  // Instructions (dispatched once per subgroup, as RunStats counts them) the whole launch may
  // execute before it is abandoned with an error; 0: no limit. A kernel may loop for ever, as on
  // a GPU: xmx-run's --max-instructions, the fuzzer's fixed limit. The launch stops exactly when
  // its instruction count exceeds the limit, so whether it does is independent of the threads.
  uint64_t instruction_limit = 0;
  // Wall-clock seconds the launch may run before it is abandoned with an error; 0: no limit.
  double timeout_seconds = 0;
};

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
// The largest subgroup size a kernel may run at.
inline constexpr uint32_t kMaxSubgroupSize = 64;

// The bits of an f16 argument (RunArgument::Kind::kValue, little-endian) holding `value`
// rounded once to the nearest half, ties to even: xmx-run's `--arg f16:V`.
uint16_t HalfFromDouble(double value);

struct RunRequest {
  Kernel kernel;
  LaunchGeometry geometry;
  LaunchOptions options;
  std::vector<RunArgument> arguments;  // one per kernel parameter, in order
  // Worker threads asked for. Execute runs no more than there are work-groups, than
  // kThreadsPerCore per hardware thread, and than the memory limit leaves room for (each thread
  // holds one work-group's private and local memory and registers); RunOutcome::threads says how
  // many ran.
  uint32_t threads = 1;
  // The limit on what the launch allocates (arguments, each thread's work-group memory and
  // registers, the program), checked before allocating; 0: no limit.
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
void DefaultLocalSize(const Kernel& kernel, LaunchGeometry* geometry);

}  // namespace xmx::interp
