// xmx-opt: spirv-opt for modules with the extensions, plus our passes (CLI.md). The command line
// is spirv-opt's (its options and every pass flag of the installed SPIRV-Tools, same spelling and
// meaning), parsed by hand as spirv-opt does because pass flags form an open, ordered list.
// Exit codes: 0 success, 1 invalid input or a failed or refused pass, 2 usage.
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/tool_io.hpp"
#include "xmx/device.hpp"
#include "xmx/module.hpp"
#include "xmx/optimizer.hpp"

namespace {

using xmx::tools::kExitInvalid;
using xmx::tools::kExitOk;
using xmx::tools::kExitUsage;

// spirv-opt 2023.1's pass flags, listed by --help (each is handed to the installed SPIRV-Tools
// as is; test/opt checks that every one is accepted).
constexpr const char* kInstalledPassFlags[] = {
    "--amd-ext-to-khr",
    "--ccp",
    "--cfg-cleanup",
    "--combine-access-chains",
    "--compact-ids",
    "--convert-local-access-chains",
    "--convert-relaxed-to-half",
    "--convert-to-sampled-image=<set>:<binding> ...",
    "--copy-propagate-arrays",
    "--replace-desc-array-access-using-var-index",
    "--spread-volatile-semantics",
    "--descriptor-scalar-replacement",
    "--eliminate-dead-branches",
    "--eliminate-dead-code-aggressive",
    "--eliminate-dead-const",
    "--eliminate-dead-functions",
    "--eliminate-dead-inserts",
    "--eliminate-dead-input-components",
    "--eliminate-dead-variables",
    "--eliminate-insert-extract",
    "--eliminate-local-multi-store",
    "--eliminate-local-single-block",
    "--eliminate-local-single-store",
    "--fix-func-call-param",
    "--flatten-decorations",
    "--fold-spec-const-op-composite",
    "--freeze-spec-const",
    "--graphics-robust-access",
    "--if-conversion",
    "--inline-entry-points-exhaustive",
    "--legalize-hlsl",
    "--local-redundancy-elimination",
    "--loop-fission=<n>",
    "--loop-fusion=<n>",
    "--loop-invariant-code-motion",
    "--loop-unroll",
    "--loop-unroll-partial=<n>",
    "--loop-peeling",
    "--loop-peeling-threshold=<n>",
    "--merge-blocks",
    "--merge-return",
    "--loop-unswitch",
    "--private-to-local",
    "--reduce-load-size[=<threshold>]",
    "--redundancy-elimination",
    "--relax-float-ops",
    "--remove-duplicates",
    "--remove-unused-interface-variables",
    "--replace-invalid-opcode",
    "--ssa-rewrite",
    "--scalar-replacement[=<n>]",
    "--set-spec-const-default-value=<spec id>:<value> ...",
    "--simplify-instructions",
    "--strength-reduction",
    "--strip-debug",
    "--strip-nonsemantic",
    "--strip-reflect",
    "--upgrade-memory-model",
    "--vector-dce",
    "--workaround-1209",
    "--wrap-opkill",
    "--unify-const"};

// Flags spirv-opt also accepts as "--flag ARG" (it joins them into "--flag=ARG").
constexpr std::string_view kSeparateArgumentFlags[] = {
    "--set-spec-const-default-value", "--loop-fission", "--loop-fusion", "--loop-unroll-partial",
    "--loop-peeling-threshold"};

void PrintHelp() {
  std::cout
      << "xmx-opt - Optimize a SPIR-V binary module, Intel matrix extensions included.\n\n"
         "USAGE: xmx-opt [options] [pass flags] [<input>] -o <output>\n\n"
         "The module is read from <input> (standard input if none or \"-\") and written to\n"
         "<output> (\"-\": standard output). Passes run in command-line order; the input is\n"
         "validated first and the output after (SPIRV-Tools' core validation through the\n"
         "bridge plus the extension rules, as xmx-val). A pass the installed SPIRV-Tools cannot\n"
         "run safely on the module is refused, or skipped with a warning inside -O / -Os.\n\n"
         "Options (as spirv-opt's):\n"
         "  -o <file>                     output file (required)\n"
         "  -O, -Os                       SPIRV-Tools' performance / size recipes\n"
         "  -Oconfig=<file>               the flags listed in <file> ('#' starts a comment line)\n"
         "  --target-env=<env>            target environment (default spv1.5)\n"
         "  --skip-validation             do not validate the input (nor the output)\n"
         "  --validate-after-all          validate after every pass\n"
         "  --print-all                   disassembly before each pass and after the last\n"
         "  --time-report                 time of each pass on standard error\n"
         "  --preserve-bindings, --preserve-spec-constants, --max-id-bound=<n>\n"
         "  --relax-logical-pointer, --relax-block-layout, --relax-struct-store,\n"
         "  --scalar-block-layout, --workgroup-scalar-block-layout, --skip-block-layout,\n"
         "  --before-hlsl-legalization    forwarded to the validator\n"
         "Options of ours:\n"
         "  --device <name>               device tables of the validator, and the device of\n"
         "                                our passes whose flag names none\n"
         "  --device-profile <file>       a device profile JSON file instead\n"
         "  --subgroup-size <n>           subgroup size of kernels that declare none\n"
         "  --version, -h/--help\n\n"
         "Our passes:\n";
  for (const xmx::opt::PassHelp& pass : xmx::opt::OurPassHelp()) {
    std::cout << "  " << pass.usage << "\n               " << pass.help << "\n";
  }
  std::cout << "\nThe installed SPIRV-Tools' passes (meaning: spirv-opt --help):\n";
  for (const char* flag : kInstalledPassFlags) std::cout << "  " << flag << "\n";
}

void PrintDiagnostics(const std::vector<xmx::Diagnostic>& diagnostics) {
  for (const xmx::Diagnostic& d : diagnostics) {
    // spirv-opt says nothing about a valid input; the validator's remarks (rules it skipped)
    // are xmx-val's business.
    if (d.severity == xmx::Severity::kRemark) continue;
    std::ostream& os = std::cerr;  // standard output may be the module (-o -)
    os << xmx::SeverityName(d.severity) << ": ";
    if (d.instruction_index) {
      os << "line " << *d.instruction_index + 1 << ": ";
    } else if (d.word_offset) {
      os << "word " << *d.word_offset << ": ";
    }
    os << d.message << "\n";
    if (!d.instruction_text.empty()) os << "  " << d.instruction_text << "\n";
  }
}

int Usage(const std::string& message) {
  std::cerr << "error: " << message << "\n";
  return kExitUsage;
}

// "--name=VALUE" or "--name VALUE" (advancing *i); nullopt when `arg` is not that option.
std::optional<std::string> OptionValue(std::string_view arg, std::string_view name, int argc,
                                       char** argv, int* i, bool* missing) {
  if (arg == name) {
    if (*i + 1 >= argc) {
      *missing = true;
      return std::string();
    }
    return std::string(argv[++*i]);
  }
  if (arg.size() > name.size() && arg.substr(0, name.size()) == name && arg[name.size()] == '=') {
    return std::string(arg.substr(name.size() + 1));
  }
  return std::nullopt;
}

int Run(int argc, char** argv) {
  xmx::opt::OptimizerOptions options;
  std::vector<std::string> pass_flags;
  std::optional<std::string> input, output;
  std::string device_name, device_profile;
  bool print_all = false, time_report = false;

  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    bool missing = false;
    auto value = [&](std::string_view name) {
      return OptionValue(arg, name, argc, argv, &i, &missing);
    };
    if (arg == "-h" || arg == "--help") {
      PrintHelp();
      return kExitOk;
    }
    if (arg == "--version") {
      std::cout << xmx::tools::VersionText("xmx-opt");
      return kExitOk;
    }
    if (arg == "-o") {
      if (i + 1 >= argc) return Usage("-o needs a file name");
      if (output) return Usage("more than one output file given");
      output = argv[++i];
    } else if (auto env = value("--target-env")) {
      if (missing) return Usage("--target-env needs a value");
      std::optional<xmx::TargetEnv> parsed = xmx::TargetEnv::Parse(*env);
      if (!parsed) return Usage("unrecognized target environment '" + *env + "'");
      options.target_env = *parsed;
    } else if (auto bound = value("--max-id-bound")) {
      if (missing) return Usage("--max-id-bound needs a value");
      char* end = nullptr;
      const uint64_t n = std::strtoull(bound->c_str(), &end, 10);  // saturates
      if (bound->empty() || *end != '\0' || n == 0 || n > UINT32_MAX) {
        return Usage("--max-id-bound needs a positive 32-bit integer, got '" + *bound + "'");
      }
      options.max_id_bound = static_cast<uint32_t>(n);
      options.validator.limits.emplace_back(xmx::val::ValidatorLimit::kMaxIdBound,
                                            static_cast<uint32_t>(n));
    } else if (auto name = value("--device")) {
      if (missing) return Usage("--device needs a name");
      device_name = *name;
    } else if (auto file = value("--device-profile")) {
      if (missing) return Usage("--device-profile needs a file");
      device_profile = *file;
    } else if (auto size = value("--subgroup-size")) {
      if (missing) return Usage("--subgroup-size needs a value");
      char* end = nullptr;
      const uint64_t n = std::strtoull(size->c_str(), &end, 10);  // saturates
      if (size->empty() || *end != '\0' || n > UINT32_MAX) {
        return Usage("--subgroup-size needs an integer, got '" + *size + "'");
      }
      options.validator.subgroup_size = static_cast<uint32_t>(n);
    } else if (arg == "--skip-validation") {
      options.skip_validation = true;
    } else if (arg == "--validate-after-all") {
      options.validate_after_all = true;
    } else if (arg == "--print-all") {
      print_all = true;
    } else if (arg == "--time-report") {
      time_report = true;
    } else if (arg == "--preserve-bindings") {
      options.preserve_bindings = true;
    } else if (arg == "--preserve-spec-constants") {
      options.preserve_spec_constants = true;
    } else if (arg == "--relax-logical-pointer") {
      options.validator.relax_logical_pointer = true;
    } else if (arg == "--relax-block-layout") {
      options.validator.relax_block_layout = true;
    } else if (arg == "--relax-struct-store") {
      options.validator.relax_struct_store = true;
    } else if (arg == "--scalar-block-layout") {
      options.validator.scalar_block_layout = true;
    } else if (arg == "--workgroup-scalar-block-layout") {
      options.validator.workgroup_scalar_block_layout = true;
    } else if (arg == "--skip-block-layout") {
      options.validator.skip_block_layout = true;
    } else if (arg == "--before-hlsl-legalization") {
      options.validator.before_hlsl_legalization = true;
    } else if (arg == "-" || arg.empty() || arg[0] != '-') {
      if (input) return Usage("more than one input file given");
      input = std::string(arg);
    } else {
      std::string flag(arg);
      for (std::string_view joined : kSeparateArgumentFlags) {
        if (arg == joined && i + 1 < argc) flag += "=" + std::string(argv[++i]);
      }
      pass_flags.push_back(std::move(flag));
    }
  }
  if (!output) return Usage("-o required");

  std::optional<xmx::device::DeviceProfile> user_profile;
  if (!device_profile.empty() && !device_name.empty()) {
    return Usage("--device and --device-profile exclude each other");
  }
  if (!device_profile.empty()) {
    xmx::Diagnostic error;
    user_profile = xmx::device::LoadProfileFile(device_profile, &error);
    if (!user_profile) return Usage(error.message);
    options.device = &*user_profile;
  } else if (!device_name.empty()) {
    options.device = xmx::device::FindBuiltinProfile(device_name);
    if (!options.device) return Usage("unknown device '" + device_name + "'");
  }
  options.validator.device = options.device;

  xmx::Result<std::vector<xmx::opt::PassStep>> steps = xmx::opt::ParsePipeline(pass_flags);
  if (!steps) {
    PrintDiagnostics(steps.diagnostics());
    return kExitUsage;
  }

  // A file that cannot be read is a usage error, as in the project's other tools.
  std::optional<std::vector<uint8_t>> bytes = xmx::tools::ReadInput(input.value_or("-"));
  if (!bytes) return kExitUsage;
  xmx::Result<std::vector<uint32_t>> words = xmx::WordsFromBytes(*bytes);
  if (!words) {
    PrintDiagnostics(words.diagnostics());
    return kExitInvalid;
  }
  if (print_all) options.print_all = &std::cerr;
  if (time_report) options.time_report = &std::cerr;
  xmx::Result<xmx::opt::OptimizeReport> result = xmx::opt::Optimize(*words, *steps, options);
  PrintDiagnostics(result.diagnostics());
  if (!result) return kExitInvalid;
  const std::vector<uint8_t> out = xmx::BytesFromWords(result->words);
  if (!xmx::tools::WriteOutput(
          *output, std::string_view(reinterpret_cast<const char*>(out.data()), out.size()))) {
    return kExitInvalid;
  }
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return xmx::tools::GuardedMain(Run, argc, argv); }
