// xmx-opt's driver (include/xmx/optimizer.hpp): parses a pipeline of spirv-opt's and our pass
// flags, validates the input, runs the steps in order (consecutive installed passes in one run of
// SPIRV-Tools' optimizer, each of ours on the ir::Module) and validates the output.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <ostream>
#include <sstream>

#include "opt/compact_ids.hpp"
#include "opt/encoded_positions.hpp"
#include "opt/installed_pass_safety.hpp"
#include "opt/pass_registry.hpp"
#include "opt/spirv_tools_passes.hpp"
#include "text/disassembler.hpp"
#include "val/validate_parsed.hpp"
#include "xmx/device.hpp"
#include "xmx/optimizer.hpp"

namespace xmx::opt {
namespace {

Diagnostic Message(Severity severity, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.message = std::move(message);
  return d;
}

Diagnostic Error(std::string message) { return Message(Severity::kError, std::move(message)); }

constexpr std::string_view kCompactIds = "--compact-ids";

// Splits "--name=ARG" into its name (without "--") and ARG.
std::pair<std::string, std::optional<std::string>> SplitFlag(std::string_view flag) {
  if (flag.rfind("--", 0) == 0) flag.remove_prefix(2);
  const size_t equals = flag.find('=');
  if (equals == std::string_view::npos) return {std::string(flag), std::nullopt};
  return {std::string(flag.substr(0, equals)), std::string(flag.substr(equals + 1))};
}

// SplitFlag's name, without a copy (asked for every step of every run).
std::string_view FlagName(std::string_view flag) {
  if (flag.rfind("--", 0) == 0) flag.remove_prefix(2);
  return flag.substr(0, flag.find('='));
}

// The passes of -O or -Os as flags, asked of SPIRV-Tools once.
const std::vector<std::string>& RecipeFlags(const std::string& recipe) {
  auto as_flags = [](const std::vector<std::string>& names) {
    std::vector<std::string> flags;
    for (const std::string& name : names) flags.push_back("--" + name);
    return flags;
  };
  static const std::vector<std::string> performance = as_flags(InstalledPassNames("-O"));
  static const std::vector<std::string> size = as_flags(InstalledPassNames("-Os"));
  return recipe == "-O" ? performance : size;
}

struct Parser {
  std::vector<PassStep> steps;
  std::vector<Diagnostic> errors;
  int config_depth = 0;

  void Add(const std::string& flag, const std::string& macro) {
    if (flag.rfind("-Oconfig=", 0) == 0) return AddConfig(flag, macro);
    if (flag == "-O" || flag == "-Os") return AddRecipe(flag, macro);
    if (flag.rfind("--", 0) == 0) {
      const auto [name, argument] = SplitFlag(flag);
      if (const PassInfo* ours = FindOurPass(name)) return AddOurs(*ours, flag, argument, macro);
    }
    std::string why;
    if (!IsInstalledPassFlag(flag, &why)) {
      errors.push_back(Error(why));
      return;
    }
    steps.push_back({PassStep::Kind::kInstalled, flag, "", macro});
  }

  // -O and -Os become the passes they stand for, so that one the module cannot take can be
  // skipped alone (the same flags registered one by one give the same module: test/opt).
  void AddRecipe(const std::string& flag, const std::string& macro) {
    steps.reserve(steps.size() + RecipeFlags(flag).size());
    for (const std::string& name : RecipeFlags(flag)) {
      steps.push_back({PassStep::Kind::kInstalled, name, "", macro.empty() ? flag : macro});
    }
  }

  void AddOurs(const PassInfo& pass, const std::string& flag,
               const std::optional<std::string>& argument, const std::string& macro) {
    using Device = PassInfo::DeviceArgument;
    if (argument && pass.device_argument == Device::kNone) {
      errors.push_back(Error("--" + std::string(pass.flag) + " takes no argument: '" + flag + "'"));
      return;
    }
    if (argument && !device::FindBuiltinProfile(*argument)) {
      std::string known;
      for (std::string_view name : device::BuiltinProfileNames()) known += " " + std::string(name);
      errors.push_back(
          Error("unknown device '" + *argument + "' in '" + flag + "'; known:" + known));
      return;
    }
    steps.push_back(
        {PassStep::Kind::kOurs, "--" + std::string(pass.flag), argument.value_or(""), macro});
  }

  void AddConfig(const std::string& flag, const std::string& macro) {
    const std::string path = flag.substr(std::string_view("-Oconfig=").size());
    if (++config_depth > 16) {
      errors.push_back(Error("-Oconfig files nest more than 16 deep at '" + path + "'"));
      --config_depth;
      return;
    }
    std::ifstream file(path);
    if (!file) {
      errors.push_back(Error("cannot read the -Oconfig file '" + path + "'"));
      --config_depth;
      return;
    }
    // Flags separated by white space; a line starting with '#' is a comment.
    std::string line;
    while (std::getline(file, line)) {
      const size_t first = line.find_first_not_of(" \t\r");
      if (first != std::string::npos && line[first] == '#') continue;
      std::istringstream words(line);
      for (std::string word; words >> word;) Add(word, macro.empty() ? flag : macro);
    }
    --config_depth;
  }
};

std::string Disassembly(const ir::Module& module) {
  text::DisassembleOptions options;
  options.header = false;
  std::string out;
  Diagnostic error;
  if (!text::Disassemble(module.ToWords(), options, &out, &error)) out += error.Format() + "\n";
  return out;
}

class Driver {
 public:
  // `words` is `module` encoded (the input it was read from).
  Driver(ir::Module module, std::span<const uint32_t> words, const OptimizerOptions& options)
      : module_(std::move(module)), options_(options) {
    encoded_.words = words;
    validator_ = options.validator;
    validator_.target_env = options.target_env;
    run_options_.target_env = static_cast<spv_target_env>(options.target_env.spirv_tools_value());
    run_options_.preserve_bindings = options.preserve_bindings;
    run_options_.preserve_spec_constants = options.preserve_spec_constants;
    run_options_.max_id_bound = options.max_id_bound;
    run_options_.time_report = options.time_report;
  }

  bool Run(std::span<const PassStep> steps) {
    // One pass per step when every pass's result must be seen (printed or validated).
    const bool one_by_one = options_.print_all || options_.validate_after_all;
    for (size_t i = 0; i < steps.size();) {
      if (steps[i].kind == PassStep::Kind::kOurs) {
        if (!RunOurs(steps[i])) return false;
        ++i;
        continue;
      }
      // --compact-ids runs alone and is ours (compact_ids.hpp): the installed one would also
      // renumber the placeholders and the bridge's records.
      size_t end = i + 1;
      while (!one_by_one && steps[i].flag != kCompactIds && end < steps.size() &&
             steps[end].kind == PassStep::Kind::kInstalled && steps[end].flag != kCompactIds) {
        ++end;
      }
      if (!RunInstalled(steps.subspan(i, end - i))) return false;
      i = end;
    }
    if (options_.print_all) *options_.print_all << "; IR after last pass\n" << Disassembly(module_);
    return true;
  }

  ir::Module& module() { return module_; }
  // The words of module(); *positions_known tells whether its instructions know their places in
  // them (they were read from them).
  std::vector<uint32_t> TakeWords(bool* positions_known) {
    *positions_known = !encoded_.words.empty();
    if (!encoded_.optimized_words.empty()) return std::move(encoded_.optimized_words);
    if (!encoded_.words.empty()) return {encoded_.words.begin(), encoded_.words.end()};
    return module_.ToWords();
  }
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }
  std::vector<std::string>& skipped() { return skipped_; }
  bool changed() const { return changed_; }

 private:
  void PrintBefore(const std::string& flag) {
    if (options_.print_all) {
      *options_.print_all << "; IR before pass " << flag << "\n" << Disassembly(module_);
    }
  }

  // With --validate-after-all: the module `flag` wrote must be valid.
  bool ValidateAfter(const std::string& flag) {
    if (!options_.validate_after_all) return true;
    val::ValidationResult result = val::Validate(module_.ToWords(), validator_);
    if (result.valid) return true;
    diagnostics_.push_back(Error(flag + " wrote an invalid module:"));
    for (Diagnostic& d : result.diagnostics) diagnostics_.push_back(std::move(d));
    return false;
  }

  bool RunOurs(const PassStep& step) {
    const PassInfo* pass = FindOurPass(SplitFlag(step.flag).first);
    PassContext context;
    context.device =
        step.device.empty() ? options_.device : device::FindBuiltinProfile(step.device);
    if (!context.device && pass->device_argument == PassInfo::DeviceArgument::kRequired) {
      diagnostics_.push_back(Error(step.flag + " needs a device: " + step.flag + "=DEVICE"));
      return false;
    }
    PrintBefore(step.flag);
    const auto start = std::chrono::steady_clock::now();
    ir::Module copy = module_;
    const PassStatus status = pass->run(copy, context);
    if (options_.time_report) {
      const std::chrono::duration<double, std::milli> took =
          std::chrono::steady_clock::now() - start;
      *options_.time_report << step.flag.substr(2) << ": wall " << took.count() << " ms\n";
    }
    for (Diagnostic& d : context.diagnostics) {
      d.message = step.flag + ": " + d.message;
      diagnostics_.push_back(std::move(d));
    }
    if (status == PassStatus::kFailed) return false;
    if (status == PassStatus::kChanged) {
      module_ = std::move(copy);
      changed_ = true;
      ForgetWords();
    }
    return ValidateAfter(step.flag);
  }

  bool RunInstalled(std::span<const PassStep> steps) {
    const InstalledPassFacts facts = ComputeInstalledPassFacts(module_);
    struct Skip {
      std::string macro, why;
      std::vector<std::string> flags;
    };
    std::vector<Skip> skips;
    if (steps.size() == 1 && steps[0].flag == kCompactIds) {
      PrintBefore(steps[0].flag);
      if (CompactIds(module_)) {
        changed_ = true;
        ForgetWords();
      }
      return ValidateAfter(steps[0].flag);
    }
    std::vector<std::string> flags;
    for (const PassStep& step : steps) {
      std::optional<std::string> why;
      for (const std::string& name : InstalledPassNames(step.flag)) {
        if ((why = WhyUnsafe(FlagName(name), facts))) break;
      }
      if (!why) {
        flags.push_back(step.flag);
        continue;
      }
      if (step.macro.empty()) {
        diagnostics_.push_back(Error(step.flag + " refused: " + *why));
        return false;
      }
      // A recipe runs some passes several times, and one fact skips several: one warning per
      // reason, naming each pass once.
      auto same = [&](const Skip& skip) { return skip.macro == step.macro && skip.why == *why; };
      auto skip = std::ranges::find_if(skips, same);
      if (skip == skips.end()) skip = skips.insert(skips.end(), Skip{step.macro, *why, {}});
      if (std::ranges::find(skip->flags, step.flag) == skip->flags.end()) {
        skip->flags.push_back(step.flag);
      }
      if (std::ranges::find(skipped_, step.flag) == skipped_.end()) skipped_.push_back(step.flag);
    }
    for (const Skip& skip : skips) {
      std::string names = skip.flags[0];
      for (size_t i = 1; i < skip.flags.size(); ++i) names += ", " + skip.flags[i];
      diagnostics_.push_back(
          Message(Severity::kWarning, skip.macro + ": skipped " + names + ": " + skip.why));
    }
    if (flags.empty()) return true;
    std::string what = flags[0];
    for (size_t i = 1; i < flags.size(); ++i) what += " " + flags[i];
    if (flags.size() > 4) what = flags.front() + " ... " + flags.back();
    PrintBefore(what);
    const PassStatus status = RunInstalledPasses(module_, facts.lifted, encoded_, flags, what,
                                                 run_options_, diagnostics_);
    if (status == PassStatus::kFailed) return false;
    if (status == PassStatus::kChanged) {
      changed_ = true;
      // The optimizer's output, when it is the new module word for word; else unknown.
      encoded_.words = encoded_.optimized_words;
    }
    return ValidateAfter(what);
  }

  void ForgetWords() {
    encoded_.words = {};
    encoded_.optimized_words.clear();
  }

  ir::Module module_;
  // The module's words while they are known without emitting it.
  EncodedModule encoded_;
  const OptimizerOptions& options_;
  val::ValidatorOptions validator_;
  InstalledRunOptions run_options_;
  std::vector<Diagnostic> diagnostics_;
  std::vector<std::string> skipped_;
  bool changed_ = false;
};

}  // namespace

std::vector<std::string> PerformancePassFlags() { return RecipeFlags("-O"); }
std::vector<std::string> SizePassFlags() { return RecipeFlags("-Os"); }

Result<std::vector<PassStep>> ParsePipeline(std::span<const std::string> flags) {
  Parser parser;
  for (const std::string& flag : flags) parser.Add(flag, "");
  if (!parser.errors.empty()) return Result<std::vector<PassStep>>::Failure(parser.errors);
  return std::move(parser.steps);
}

Result<OptimizeReport> Optimize(std::span<const uint32_t> words, std::span<const PassStep> steps,
                                const OptimizerOptions& options) {
  using Out = Result<OptimizeReport>;
  Diagnostic error;
  std::optional<ir::Module> module = ir::Module::FromWords(words, &error);
  if (!module) return Out::Failure(error);

  std::vector<Diagnostic> said;
  val::ValidatorOptions validator = options.validator;
  validator.target_env = options.target_env;
  if (!options.skip_validation) {
    // The validator reads the module the passes start from, not a second parse of `words`, and
    // leaves it as it was.
    val::ValidationResult input = val::ValidateParsedInPlace(*module, words, validator);
    said = std::move(input.diagnostics);
    if (!input.valid) return Out::Failure(std::move(said));
  }

  Driver driver(std::move(*module), words, options);
  const bool ran = driver.Run(steps);
  for (Diagnostic& d : driver.diagnostics()) said.push_back(std::move(d));
  if (!ran) return Out::Failure(std::move(said));

  OptimizeReport report;
  bool positions_known = false;
  report.words = driver.TakeWords(&positions_known);
  report.skipped = std::move(driver.skipped());
  if (!options.skip_validation && driver.changed()) {
    // spirv-opt trusts its passes; we do not: an invalid result is never written. (A module no
    // pass changed is the input, validated above.) The module the passes left is what
    // report.words encodes; once its instructions know their places there (they do when it was
    // read from them), the validator reads it as it would have read report.words. The module is
    // not needed after (report.words is the result), so the validator may change it.
    if (!positions_known) SetEncodedPositions(driver.module());
    val::ValidationResult output =
        val::ValidateParsed(std::move(driver.module()), report.words, validator);
    if (!output.valid) {
      said.push_back(Error("the optimized module is invalid (a pass wrote it wrongly):"));
      for (Diagnostic& d : output.diagnostics) said.push_back(std::move(d));
      return Out::Failure(std::move(said));
    }
  }
  return Out(std::move(report), std::move(said));
}

std::vector<PassHelp> OurPassHelp() {
  std::vector<PassHelp> help;
  for (const PassInfo& pass : OurPasses()) {
    std::string usage = "--" + std::string(pass.flag);
    if (pass.device_argument == PassInfo::DeviceArgument::kOptional) usage += "[=DEVICE]";
    if (pass.device_argument == PassInfo::DeviceArgument::kRequired) usage += "=DEVICE";
    help.push_back({usage, std::string(pass.help)});
  }
  return help;
}

}  // namespace xmx::opt
