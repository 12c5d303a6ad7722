// The public interpreter API on top of the engine (include/xmx/interpreter.hpp): LoadKernel
// validates the module, finds the kernel and compiles it; a Kernel shares the compiled program.
#include <utility>

#include "common/float_formats.hpp"
#include "interp/kernel_access.hpp"
#include "interp/load/loader.hpp"
#include "text/disassembler.hpp"
#include "xmx/device.hpp"
#include "xmx/interpreter.hpp"
#include "xmx/module.hpp"
#include "xmx/validator.hpp"

namespace xmx::interp {
namespace {

// A kernel without a SubgroupSize execution mode runs at 16 where the device allows it, else at
// the device's first size.
uint32_t DefaultSubgroupSize(const device::DeviceProfile* device) {
  if (device == nullptr || device->any_power_of_two_subgroup_size) return 16;
  if (device->SupportsSubgroupSize(16)) return 16;
  return device->subgroup_sizes.empty() ? 16 : device->subgroup_sizes.front();
}

KernelParameterInfo::Kind PublicKind(KernelParameter::Kind kind) {
  switch (kind) {
    case KernelParameter::Kind::kScalar:
      return KernelParameterInfo::Kind::kScalar;
    case KernelParameter::Kind::kGlobalPointer:
      return KernelParameterInfo::Kind::kGlobalPointer;
    case KernelParameter::Kind::kLocalPointer:
      return KernelParameterInfo::Kind::kLocalPointer;
    case KernelParameter::Kind::kConstantPointer:
      return KernelParameterInfo::Kind::kConstantPointer;
    case KernelParameter::Kind::kByValue:
      return KernelParameterInfo::Kind::kByValue;
    case KernelParameter::Kind::kImage:
      return KernelParameterInfo::Kind::kImage;
  }
  return KernelParameterInfo::Kind::kScalar;
}

// Instruction `index` of the module as xmx-run shows it (no indentation, no header), or empty.
std::string InstructionLine(std::span<const uint32_t> words, size_t index) {
  text::DisassembleOptions options;
  options.indent = false;
  options.header = false;
  std::string listing;
  Diagnostic ignored;  // the module is valid; were it not, the lines before the error serve
  text::Disassemble(words, options, &listing, &ignored);
  size_t start = 0;
  for (size_t line = 0; line < index && start < listing.size(); ++line) {
    const size_t end = listing.find('\n', start);
    start = end == std::string::npos ? listing.size() : end + 1;
  }
  if (start >= listing.size()) return {};
  const size_t end = listing.find('\n', start);
  return listing.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

const std::string& EmptyName() {
  static const std::string empty;
  return empty;
}

}  // namespace

Kernel KernelAccess::Make(Program program) {
  auto parameters = std::make_shared<std::vector<KernelParameterInfo>>();
  for (const KernelParameter& parameter : program.parameters) {
    KernelParameterInfo info;
    info.kind = PublicKind(parameter.kind);
    if (parameter.kind == KernelParameter::Kind::kScalar) info.value_bytes = parameter.lane_bytes;
    if (parameter.kind == KernelParameter::Kind::kByValue) {
      info.value_bytes = static_cast<uint32_t>(parameter.pointee_bytes);
    }
    info.name = parameter.name;
    parameters->push_back(std::move(info));
  }
  Kernel kernel;
  kernel.program_ = std::make_shared<const Program>(std::move(program));
  kernel.parameters_ = std::move(parameters);
  return kernel;
}

const std::string& Kernel::name() const { return program_ ? program_->kernel_name : EmptyName(); }

uint32_t Kernel::subgroup_size() const { return program_ ? program_->subgroup_size : 0; }

std::array<uint32_t, 3> Kernel::required_local_size() const {
  if (!program_) return {0, 0, 0};
  return {program_->required_local_size[0], program_->required_local_size[1],
          program_->required_local_size[2]};
}

const std::vector<KernelParameterInfo>& Kernel::parameters() const {
  static const std::vector<KernelParameterInfo> none;
  return parameters_ ? *parameters_ : none;
}

Result<Kernel> LoadKernel(std::span<const uint32_t> words, const KernelOptions& options) {
  val::ValidatorOptions validator_options;
  validator_options.device = options.device;
  validator_options.subgroup_size = options.subgroup_size;
  val::ValidationResult validation = val::Validate(words, validator_options);
  std::vector<Diagnostic> diagnostics = std::move(validation.diagnostics);
  auto fail = [&diagnostics](Diagnostic error) {
    error.severity = Severity::kError;
    diagnostics.push_back(std::move(error));
    return Result<Kernel>::Failure(std::move(diagnostics));
  };
  if (!validation.valid) {
    Diagnostic error;
    error.rule = kRuleModuleInvalid;
    error.message = "the module is not valid; only valid modules run";
    return fail(std::move(error));
  }
  Diagnostic parse_error;
  std::optional<ir::Module> module = ir::Module::FromWords(words, &parse_error);
  if (!module) {
    parse_error.rule = kRuleModuleInvalid;
    return fail(std::move(parse_error));
  }
  Result<KernelSummary> summary = FindKernel(*module, options.kernel);
  if (!summary) {
    Diagnostic error = summary.diagnostics().empty() ? Diagnostic{} : summary.diagnostics().back();
    error.rule = kRuleKernelNotFound;
    return fail(std::move(error));
  }

  LoadOptions load;
  load.kernel = summary->name;
  load.subgroup_size = options.subgroup_size.value_or(DefaultSubgroupSize(options.device));
  load.ordered_matrix_fp = options.ordered_matrix_fp;
  Result<Program> program = LoadProgram(*module, load);
  if (!program) {
    // The loader's own errors (a built-in call it cannot upgrade keeps its builtin.* rule) come
    // first; the last one says the load failed.
    std::vector<Diagnostic> errors = program.TakeDiagnostics();
    if (errors.empty()) errors.emplace_back().message = "the kernel cannot be loaded";
    for (Diagnostic& error : errors) {
      if (error.instruction_index && error.instruction_text.empty()) {
        error.instruction_text = InstructionLine(words, *error.instruction_index);
      }
    }
    Diagnostic last = std::move(errors.back());
    errors.pop_back();
    for (Diagnostic& error : errors) diagnostics.push_back(std::move(error));
    if (last.rule.empty()) last.rule = kRuleLoadFailed;
    return fail(std::move(last));
  }
  return Result<Kernel>(KernelAccess::Make(std::move(*program)), std::move(diagnostics));
}

uint16_t HalfFromDouble(double value) { return FloatToHalf(value); }

void DefaultLocalSize(const Kernel& kernel, LaunchGeometry* geometry) {
  if (kernel.loaded()) DefaultLocalSize(KernelAccess::ProgramOf(kernel), geometry);
}

}  // namespace xmx::interp
