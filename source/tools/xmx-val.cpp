// xmx-val: spirv-val with the extension rules and device tables (CLI.md). Every spirv-val option
// is passed through to SPIRV-Tools; several files are validated in parallel. Exit codes: 0 all
// valid, 1 any invalid, 2 usage (unknown option, missing file, unknown device).
#include <algorithm>
#include <atomic>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "CLI/CLI.hpp"
#include "nlohmann/json.hpp"
#include "tools/tool_io.hpp"
#include "xmx/device.hpp"
#include "xmx/module.hpp"
#include "xmx/validator.hpp"

namespace {

using xmx::tools::kExitInvalid;
using xmx::tools::kExitOk;
using xmx::tools::kExitUsage;

struct FileResult {
  std::string path;
  bool readable = true;
  xmx::val::ValidationResult result;
};

FileResult ValidateFile(const std::string& path, const xmx::val::ValidatorOptions& options) {
  FileResult out{path, true, {}};
  std::optional<std::vector<uint8_t>> bytes = xmx::tools::ReadInput(path);
  if (!bytes) {
    out.readable = false;
    return out;
  }
  xmx::Result<std::vector<uint32_t>> words = xmx::WordsFromBytes(*bytes);
  if (!words) {
    out.result.valid = false;
    // The error carries its rule id (binary.structure) from the library.
    for (xmx::Diagnostic& error : words.diagnostics()) {
      out.result.diagnostics.push_back(std::move(error));
    }
    return out;
  }
  out.result = xmx::val::Validate(*words, options);
  return out;
}

// As spirv-val prints: "error: line N: message" (N counts instructions from 1), then the
// instruction. Errors go to standard error, warnings and remarks to standard output.
void PrintText(const FileResult& file, bool prefix_file) {
  const std::string prefix = prefix_file ? file.path + ": " : "";
  for (const xmx::Diagnostic& d : file.result.diagnostics) {
    std::ostream& os = d.severity == xmx::Severity::kError ? std::cerr : std::cout;
    os << prefix << xmx::SeverityName(d.severity) << ": ";
    if (d.instruction_index) {
      os << "line " << *d.instruction_index + 1 << ": ";
    } else if (d.word_offset) {
      os << "word " << *d.word_offset << ": ";
    }
    os << d.message << "\n";
    if (!d.instruction_text.empty()) os << prefix << "  " << d.instruction_text << "\n";
  }
}

void PrintJson(const FileResult& file) {
  nlohmann::json diags = nlohmann::json::array();
  for (const xmx::Diagnostic& d : file.result.diagnostics) {
    nlohmann::json j;
    j["severity"] = xmx::SeverityName(d.severity);
    j["message"] = d.message;
    j["instruction_index"] = d.instruction_index ? nlohmann::json(*d.instruction_index) : nullptr;
    j["word_offset"] = d.word_offset ? nlohmann::json(*d.word_offset) : nullptr;
    j["opcode"] = d.opcode ? nlohmann::json(*d.opcode) : nullptr;
    j["instruction"] = d.instruction_text;
    j["rule"] = d.rule;
    diags.push_back(std::move(j));
  }
  nlohmann::json out{{"file", file.path}, {"valid", file.result.valid}, {"diagnostics", diags}};
  std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

int Run(int argc, char** argv) {
  CLI::App app{"xmx-val - Validate SPIR-V binary modules, Intel matrix extensions included",
               "xmx-val"};
  std::vector<std::string> inputs;
  std::string target_env, device_name, device_profile, format = "text";
  std::optional<uint32_t> subgroup_size;
  bool version = false;
  xmx::val::ValidatorOptions options;
  app.add_option("files", inputs, "SPIR-V binaries; standard input if none or \"-\"");
  app.add_flag("--version", version, "Display version information");
  app.add_option("--target-env", target_env, "Use validation rules of this environment");

  using xmx::val::ValidatorLimit;
  const std::pair<const char*, ValidatorLimit> limits[] = {
      {"--max-struct-members", ValidatorLimit::kMaxStructMembers},
      {"--max-struct-depth", ValidatorLimit::kMaxStructDepth},
      {"--max-local-variables", ValidatorLimit::kMaxLocalVariables},
      {"--max-global-variables", ValidatorLimit::kMaxGlobalVariables},
      {"--max-switch-branches", ValidatorLimit::kMaxSwitchBranches},
      {"--max-function-args", ValidatorLimit::kMaxFunctionArgs},
      {"--max-control-flow-nesting-depth", ValidatorLimit::kMaxControlFlowNestingDepth},
      {"--max-access-chain-indexes", ValidatorLimit::kMaxAccessChainIndexes},
      {"--max-id-bound", ValidatorLimit::kMaxIdBound},
  };
  std::map<ValidatorLimit, uint32_t> limit_values;
  for (const auto& [flag, limit] : limits) {
    app.add_option_function<uint32_t>(
        flag, [&limit_values, limit = limit](uint32_t v) { limit_values[limit] = v; },
        "SPIRV-Tools validator limit");
  }
  app.add_flag("--relax-logical-pointer", options.relax_logical_pointer);
  app.add_flag("--relax-block-layout", options.relax_block_layout);
  app.add_flag("--uniform-buffer-standard-layout", options.uniform_buffer_standard_layout);
  app.add_flag("--scalar-block-layout", options.scalar_block_layout);
  app.add_flag("--workgroup-scalar-block-layout", options.workgroup_scalar_block_layout);
  app.add_flag("--skip-block-layout", options.skip_block_layout);
  app.add_flag("--relax-struct-store", options.relax_struct_store);
  app.add_flag("--allow-localsizeid", options.allow_localsizeid);
  app.add_flag("--before-hlsl-legalization", options.before_hlsl_legalization);
  auto* device_opt =
      app.add_option("--device", device_name, "Device tables: opencl (default), spec, pvc, ...");
  app.add_option("--device-profile", device_profile, "A device profile JSON file")
      ->excludes(device_opt);
  app.add_option("--subgroup-size", subgroup_size,
                 "Subgroup size of kernels that declare none (OpExecutionMode SubgroupSize)");
  app.add_option("--format", format, "Output format")->check(CLI::IsMember({"text", "json"}));
  app.footer("Limits: an input is at most " + std::to_string(xmx::tools::kMaxInputBytes) +
             " bytes. A device profile is at most 16 MiB and 64 levels of nesting.");
  if (auto exit = xmx::tools::ParseCommandLine(app, argc, argv, version, "xmx-val")) return *exit;

  if (!target_env.empty()) {
    std::optional<xmx::TargetEnv> env = xmx::TargetEnv::Parse(target_env);
    if (!env) {
      std::cerr << "error: unrecognized target environment '" << target_env << "'\n";
      return kExitUsage;
    }
    options.target_env = *env;
  }
  for (const auto& [limit, value] : limit_values) options.limits.emplace_back(limit, value);
  options.subgroup_size = subgroup_size;

  std::optional<xmx::device::DeviceProfile> user_profile;
  if (!device_profile.empty()) {
    xmx::Diagnostic error;
    user_profile = xmx::device::LoadProfileFile(device_profile, &error);
    if (!user_profile) {
      std::cerr << error.Format() << "\n";
      return kExitUsage;
    }
    options.device = &*user_profile;
  } else if (!device_name.empty()) {
    options.device = xmx::device::FindBuiltinProfile(device_name);
    if (!options.device) {
      std::cerr << "error: unknown device '" << device_name << "'; known:";
      for (std::string_view n : xmx::device::BuiltinProfileNames()) std::cerr << " " << n;
      std::cerr << "\n";
      return kExitUsage;
    }
  }
  if (inputs.empty()) inputs.emplace_back("-");
  if (std::count(inputs.begin(), inputs.end(), "-") > 1) {
    std::cerr << "error: standard input named more than once\n";
    return kExitUsage;
  }

  // Validate in parallel; print in the order given.
  std::vector<FileResult> results(inputs.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < inputs.size();) {
      // An exception must not leave a worker thread (that aborts): out of memory is the
      // file's error.
      try {
        results[i] = ValidateFile(inputs[i], options);
      } catch (const std::bad_alloc&) {
        results[i] = FileResult{inputs[i], true, {}};
        results[i].result.valid = false;
        xmx::Diagnostic d;
        d.severity = xmx::Severity::kError;
        d.message = "out of memory: validating the module needs more memory than the host gives";
        results[i].result.diagnostics.push_back(std::move(d));
      }
    }
  };
  const size_t threads =
      std::min<size_t>(inputs.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();

  int exit_code = kExitOk;
  for (const FileResult& file : results) {
    if (!file.readable) {
      exit_code = kExitUsage;
      continue;
    }
    if (format == "json") {
      PrintJson(file);
    } else {
      PrintText(file, inputs.size() > 1);
    }
    if (!file.result.valid && exit_code == kExitOk) exit_code = kExitInvalid;
  }
  // Warnings and JSON go to standard output: a verdict nobody could read is no success.
  if (!xmx::tools::FinishStandardOutput() && exit_code == kExitOk) exit_code = kExitInvalid;
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) { return xmx::tools::GuardedMain(Run, argc, argv); }
