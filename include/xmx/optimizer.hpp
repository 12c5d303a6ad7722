// xmx-opt as a library: the installed SPIRV-Tools optimizer's passes, run on modules with the
// extensions through the bridge, interleaved with our own passes, in the order given.
//
// A pipeline is a list of pass flags spelled as on spirv-opt's command line ("--ccp", "-O",
// "--scalar-replacement=50", "-Oconfig=FILE") or as our passes' flags ("--upgrade-builtin-calls",
// "--lower-cooperative-matrix=pvc"). ParsePipeline turns it into steps (a failure is a usage
// error); Optimize validates the input, runs the steps and validates the output (a failure is an
// invalid input or a failed pass). A step the installed SPIRV-Tools cannot run safely on a module
// (it would crash, hang or miscompile: see README, "xmx-opt") is refused with an error naming the
// pass and why, or, inside -O / -Os, skipped with a warning saying the same.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "xmx/result.hpp"
#include "xmx/validator.hpp"

namespace xmx::device {
struct DeviceProfile;
}

namespace xmx::opt {

// One pass of a pipeline.
struct PassStep {
  enum class Kind { kInstalled, kOurs };
  Kind kind = Kind::kInstalled;
  // The flag as SPIRV-Tools' RegisterPassFromFlag takes it ("--ccp", "--loop-unroll-partial=2"),
  // or ours without its argument ("--lower-cooperative-matrix").
  std::string flag;
  // Ours: the =DEVICE argument (empty when none was given).
  std::string device;
  // The macro the step came from ("-O", "-Os", "-Oconfig=FILE", "--legalize-hlsl"), empty when
  // the flag was given itself. A step from a macro that cannot run safely is skipped with a
  // warning instead of failing the pipeline.
  std::string macro;
};

// Expands the macros and checks every flag: unknown flags, arguments the pass does not take and
// unknown devices are failures (usage errors), named in the diagnostic.
Result<std::vector<PassStep>> ParsePipeline(std::span<const std::string> flags);

// The pass names SPIRV-Tools' -O (performance) and -Os (size) recipes run, as flags, in order.
std::vector<std::string> PerformancePassFlags();
std::vector<std::string> SizePassFlags();

struct OptimizerOptions {
  // spirv-opt's default environment is spv1.5.
  TargetEnv target_env = TargetEnv::Spv15();
  bool skip_validation = false;     // --skip-validation: the input is not validated
  bool validate_after_all = false;  // --validate-after-all: validate after every pass
  bool preserve_bindings = false;
  bool preserve_spec_constants = false;
  std::optional<uint32_t> max_id_bound;  // --max-id-bound=N
  // The validator (xmx-val's: SPIRV-Tools' core validation plus our rules) used on the input,
  // the output and, with validate_after_all, after each pass. Its target_env is set from
  // target_env above.
  val::ValidatorOptions validator;
  // The device of our passes whose flag names none (null: none).
  const device::DeviceProfile* device = nullptr;
  // --print-all: the module's disassembly before each pass and after the last one.
  std::ostream* print_all = nullptr;
  // --time-report: one line per pass with its CPU and wall time.
  std::ostream* time_report = nullptr;
};

// What Optimize did, besides the module.
struct OptimizeReport {
  std::vector<uint32_t> words;
  // Steps that were skipped (from -O / -Os) because the installed optimizer cannot run them
  // safely on this module; the diagnostics say why.
  std::vector<std::string> skipped;
};

// Runs `steps` on `words` in order. Warnings (skipped steps, the validator's warnings) ride along
// with the result; a failure carries the validator's errors (invalid input or output) or the
// error of the pass that failed or was refused.
Result<OptimizeReport> Optimize(std::span<const uint32_t> words, std::span<const PassStep> steps,
                                const OptimizerOptions& options);

// Our passes as --help lists them: "--flag[=DEVICE]" and one line of help.
struct PassHelp {
  std::string usage;
  std::string help;
};
std::vector<PassHelp> OurPassHelp();

}  // namespace xmx::opt
