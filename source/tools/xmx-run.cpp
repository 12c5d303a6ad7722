// xmx-run: runs a kernel of a SPIR-V module on the CPU, the Intel matrix and block
// instructions included, reporting undefined behaviour (CLI.md, xmx-run). The module is
// validated first (DECISIONS.md 13): errors stop it, warnings are printed.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <thread>

#include "tools/run/launch_spec.hpp"
#include "tools/tool_io.hpp"
#include "xmx/device.hpp"
#include "xmx/interpreter.hpp"
#include "xmx/module.hpp"
#include "xmx/text.hpp"

namespace {

using xmx::tools::kExitInvalid;
using xmx::tools::kExitOk;
using xmx::tools::kExitUsage;
namespace interp = xmx::interp;
namespace tools = xmx::tools;

// Lines of the module's disassembly, to show the instruction a report is about.
class InstructionLines {
 public:
  explicit InstructionLines(std::span<const uint32_t> words) : words_(words) {}
  std::string Line(size_t index) {
    if (lines_.empty()) {
      xmx::text::DisassembleOptions options;
      options.indent = false;
      options.header = false;
      // The module is valid, so its disassembly succeeds; were it not, the lines before the
      // error still serve.
      xmx::Result<std::string> text = xmx::text::Disassemble(words_, options, &listing_);
      if (text) listing_ = std::move(*text);
      for (size_t start = 0; start < listing_.size();) {
        size_t end = listing_.find('\n', start);
        if (end == std::string::npos) end = listing_.size();
        lines_.emplace_back(listing_.data() + start, end - start);
        start = end + 1;
      }
    }
    return index < lines_.size() ? std::string(lines_[index]) : std::string();
  }

 private:
  std::span<const uint32_t> words_;
  std::string listing_;
  std::vector<std::string_view> lines_;
};

std::string Triple(const uint64_t v[3]) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
}

void PrintReport(const interp::RunReport& r, bool error, InstructionLines& lines) {
  std::cerr << (error ? "error" : "warning") << ": instruction " << r.instruction_index << ": "
            << r.message << " [" << r.rule << "]\n";
  const std::string text = lines.Line(r.instruction_index);
  if (!text.empty()) std::cerr << "  " << text << "\n";
  if (r.about_work_item) {
    std::cerr << "  work-item global " << Triple(r.global_id) << " local " << Triple(r.local_id)
              << " group " << Triple(r.group_id) << ", subgroup " << r.subgroup << " lane "
              << r.lane << "\n";
  } else {
    std::cerr << "  work-group " << Triple(r.group_id) << ", subgroup " << r.subgroup << "\n";
  }
}

// Compares a buffer with a file, reading the file a chunk at a time (it is never held whole);
// prints the first differing offsets.
bool Expect(uint32_t index, const std::string& path, const std::vector<uint8_t>& actual) {
  std::FILE* in = std::fopen(path.c_str(), "rb");
  if (in == nullptr) {
    std::cerr << "error: --expect " << index << ": cannot read " << path << ": "
              << std::strerror(errno) << "\n";
    return false;
  }
  std::vector<std::string> differences;  // the first 8
  uint64_t expected_size = 0;
  uint8_t chunk[65536];
  size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, in)) > 0) {
    for (size_t i = 0; i < n && differences.size() < 8; ++i) {
      const uint64_t offset = expected_size + i;
      if (offset >= actual.size() || chunk[i] == actual[offset]) continue;
      char line[96];
      std::snprintf(line, sizeof(line), "  offset %llu: 0x%02x, expected 0x%02x\n",
                    static_cast<unsigned long long>(offset), actual[offset], chunk[i]);
      differences.emplace_back(line);
    }
    expected_size += n;
  }
  const bool failed = std::ferror(in);
  std::fclose(in);
  if (failed) {
    std::cerr << "error: --expect " << index << ": cannot read " << path << "\n";
    return false;
  }
  if (expected_size == actual.size() && differences.empty()) return true;
  std::cerr << "error: argument " << index << " differs from " << path;
  if (expected_size != actual.size()) {
    std::cerr << ": " << actual.size() << " bytes, expected " << expected_size;
  }
  std::cerr << "\n";
  for (const std::string& line : differences) std::cerr << line;
  return false;
}

int Run(int argc, char** argv) {
  CLI::App app{"xmx-run - Run a kernel of a SPIR-V module, Intel matrix instructions included",
               "xmx-run"};
  std::string module_path, run_file, kernel, global, local, device_name, check = "error";
  std::string mma_fp = "exact", max_memory_text;
  std::optional<uint32_t> subgroup_size, threads;
  std::optional<uint64_t> max_instructions;
  std::optional<double> timeout;
  std::vector<std::string> args, dumps, expects;
  bool stats = false, version = false;
  app.add_option("module", module_path, "SPIR-V module (\"-\" for standard input)");
  app.add_flag("--version", version, "Display version information");
  app.add_option("--run", run_file, "Read the launch from a JSON file (same content as options)");
  app.add_option("--kernel", kernel, "Kernel to run (optional when the module has one)");
  app.add_option("--global", global, "Global size X[,Y[,Z]]");
  app.add_option("--local", local, "Local size X[,Y[,Z]]");
  app.add_option("--subgroup-size", subgroup_size, "Subgroup size of a kernel that declares none");
  app.add_option("--device", device_name, "Device tables (validation, default subgroup size)");
  app.add_option("--arg", args, "Kernel argument, one per parameter in order (see --help)");
  app.add_option("--dump", dumps, "INDEX=PATH: write buffer argument INDEX to PATH");
  app.add_option("--expect", expects, "INDEX=PATH: compare buffer argument INDEX with PATH");
  app.add_option("--check", check, "Undefined behaviour: error (stop), warn or off")
      ->check(CLI::IsMember({"error", "warn", "off"}));
  app.add_option("--threads", threads,
                 "Worker threads for work-groups, 0.." + std::to_string(interp::kMaxThreads) +
                     " (default or 0: one per core; never more than work-groups, nor than " +
                     std::to_string(interp::kThreadsPerCore) +
                     " per core, nor than --max-memory leaves room for)");
  app.add_flag("--stats", stats, "Print instructions executed, lane-instructions, time");
  app.add_option("--mma-fp", mma_fp, "Float model of the matrix instruction: exact or ordered")
      ->check(CLI::IsMember({"exact", "ordered"}));
  app.add_option("--max-memory", max_memory_text,
                 "BYTES (K, M, G, T suffixes) the launch may use altogether: buffers, images, "
                 "each thread's work-group memory, the module (default 4G; 0: no limit)");
  app.add_option("--max-instructions", max_instructions,
                 "Instructions (as --stats counts them) the launch may execute before it is "
                 "stopped (default " +
                     std::to_string(interp::kDefaultMaxInstructions) + "; 0: no limit)");
  app.add_option("--timeout", timeout,
                 "Seconds the launch may run before it is stopped (default and 0: no limit)");
  app.footer(
      "Arguments: i8:V i16:V i32:V i64:V f16:V f32:V f64:V, vectors i32x4:1,2,3,4; "
      "buffer:file=PATH buffer:zero:BYTES buffer:fill=HEXBYTE:BYTES buffer:random=SEED:BYTES; "
      "local:BYTES; image2d:WIDTHxHEIGHT:TEXELBYTES:zero|fill=HEXBYTE|random=SEED|file=PATH.\n"
      "Limits: a run file is at most 16 MiB, its JSON at most 64 levels deep; a --dump may not "
      "name a file the launch reads or another dump; --local must equal the kernel's LocalSize "
      "when it declares one.");
  if (auto exit = xmx::tools::ParseCommandLine(app, argc, argv, version, "xmx-run")) return *exit;

  std::string error;
  tools::LaunchSpec spec;
  if (!run_file.empty()) {
    // The file holds the whole launch: an option given beside it would be silently ignored.
    for (const char* option : {"--kernel", "--global", "--local", "--subgroup-size", "--device",
                               "--arg", "--dump", "--expect", "--check", "--threads", "--stats",
                               "--mma-fp", "--max-memory", "--max-instructions", "--timeout"}) {
      if (app.count(option) != 0) {
        std::cerr << "error: " << option
                  << " cannot be combined with --run: the JSON file holds the whole launch\n";
        return kExitUsage;
      }
    }
    std::optional<tools::LaunchSpec> file = tools::ReadRunFile(run_file, &error);
    if (!file) {
      std::cerr << "error: " << error << "\n";
      return kExitUsage;
    }
    spec = std::move(*file);
    if (!module_path.empty()) spec.module = module_path;
  } else {
    spec.module = module_path;
    spec.kernel = kernel;
    if (global.empty()) {
      std::cerr << "error: --global is required (or --run FILE.json)\n";
      return kExitUsage;
    }
    auto g = tools::ParseSizes(global, "--global", &error);
    if (!g) {
      std::cerr << "error: " << error << "\n";
      return kExitUsage;
    }
    spec.global = *g;
    if (!local.empty()) {
      auto l = tools::ParseSizes(local, "--local", &error);
      if (!l) {
        std::cerr << "error: " << error << "\n";
        return kExitUsage;
      }
      spec.local = *l;
    }
    spec.subgroup_size = subgroup_size;
    spec.device = device_name;
    if (!max_memory_text.empty()) {
      std::optional<uint64_t> bytes = tools::ParseByteSize(max_memory_text, "--max-memory", &error);
      if (!bytes) {
        std::cerr << "error: " << error << "\n";
        return kExitUsage;
      }
      spec.max_memory = *bytes;
    }
    spec.max_instructions = max_instructions.value_or(spec.max_instructions);
    spec.timeout = timeout.value_or(spec.timeout);
    uint64_t argument_bytes = 0;  // taken from the memory limit as the arguments are made
    for (const std::string& a : args) {
      const uint64_t left = spec.max_memory == 0 ? UINT64_MAX : spec.max_memory - argument_bytes;
      auto parsed = tools::ParseArgSpec(a, {}, &error, left);
      if (!parsed) {
        std::cerr << "error: " << error << "\n";
        return kExitUsage;
      }
      argument_bytes += parsed->bytes.size();
      spec.args.push_back(std::move(*parsed));
    }
    for (const auto& [list, out] : {std::pair{&dumps, &spec.dumps}, {&expects, &spec.expects}}) {
      for (const std::string& d : *list) {
        auto parsed = tools::ParseIndexPath(d, list == &dumps ? "--dump" : "--expect", {}, &error);
        if (!parsed) {
          std::cerr << "error: " << error << "\n";
          return kExitUsage;
        }
        out->push_back(*parsed);
      }
    }
    spec.check = *tools::ParseCheckMode(check, &error);
    spec.threads = threads.value_or(0);
    spec.stats = stats;
    spec.mma_fp = mma_fp;
    if (!tools::ValidateLaunchSpec(spec, &error)) {
      std::cerr << "error: " << error << "\n";
      return kExitUsage;
    }
  }
  if (spec.module.empty()) {
    std::cerr << "error: no module given\n";
    return kExitUsage;
  }
  if (!tools::CheckLaunchFiles(spec, &error)) {
    std::cerr << "error: " << error << "\n";
    return kExitUsage;
  }

  const xmx::device::DeviceProfile* device = nullptr;
  if (!spec.device.empty()) {
    device = xmx::device::FindBuiltinProfile(spec.device);
    if (device == nullptr) {
      std::cerr << "error: unknown device '" << spec.device << "'\n";
      return kExitUsage;
    }
  }
  uint64_t argument_bytes = 0;
  for (const tools::ArgSpec& a : spec.args) argument_bytes += a.bytes.size();
  std::optional<std::vector<uint8_t>> bytes = xmx::tools::ReadInput(
      spec.module, spec.max_memory == 0 ? UINT64_MAX : spec.max_memory - argument_bytes);
  if (!bytes) return kExitUsage;
  const xmx::Result<std::vector<uint32_t>> words = xmx::WordsFromBytes(*bytes);
  if (!words) {
    for (const xmx::Diagnostic& d : words.diagnostics()) std::cerr << d.Format() << "\n";
    return kExitInvalid;
  }

  // Validation first (DECISIONS.md 13), inside LoadKernel: its warnings are printed, its errors
  // stop the run.
  interp::KernelOptions load;
  load.kernel = spec.kernel;
  load.device = device;
  load.subgroup_size = spec.subgroup_size;
  load.ordered_matrix_fp = spec.mma_fp == "ordered";
  xmx::Result<interp::Kernel> loaded = interp::LoadKernel(*words, load);
  std::vector<xmx::Diagnostic> diagnostics = loaded.TakeDiagnostics();
  std::optional<xmx::Diagnostic> failure;
  if (!loaded) {
    failure = std::move(diagnostics.back());
    diagnostics.pop_back();
  }
  for (const xmx::Diagnostic& d : diagnostics) {
    if (d.severity == xmx::Severity::kRemark) continue;
    std::cerr << d.Format() << "\n";
    if (!d.instruction_text.empty()) std::cerr << "  " << d.instruction_text << "\n";
  }
  if (failure) {
    if (failure->rule == interp::kRuleModuleInvalid) {
      std::cerr << "error: " << spec.module << " is not valid; xmx-run runs only valid modules\n";
      return kExitInvalid;
    }
    if (failure->rule == interp::kRuleKernelNotFound) {
      std::cerr << "error: " << failure->message << "\n";
      return kExitUsage;
    }
    std::cerr << failure->Format() << "\n";
    if (!failure->instruction_text.empty()) std::cerr << "  " << failure->instruction_text << "\n";
    return kExitInvalid;
  }

  interp::RunRequest request;
  request.kernel = *loaded;
  request.geometry.dims = static_cast<uint32_t>(spec.global.size());
  for (size_t d = 0; d < spec.global.size(); ++d) request.geometry.global[d] = spec.global[d];
  if (spec.local.empty()) {
    interp::DefaultLocalSize(*loaded, &request.geometry);
  } else {
    for (size_t d = 0; d < spec.local.size(); ++d) request.geometry.local[d] = spec.local[d];
  }
  request.options.check = spec.check;
  request.options.instruction_limit = spec.max_instructions;
  request.options.timeout_seconds = spec.timeout;
  request.max_memory = spec.max_memory;
  request.threads =
      spec.threads != 0 ? spec.threads : std::max(1u, std::thread::hardware_concurrency());
  for (tools::ArgSpec& a : spec.args) {
    interp::RunArgument arg;
    switch (a.kind) {
      case tools::ArgSpec::Kind::kScalar:
        arg.kind = interp::RunArgument::Kind::kValue;
        break;
      case tools::ArgSpec::Kind::kBuffer:
        arg.kind = interp::RunArgument::Kind::kBuffer;
        break;
      case tools::ArgSpec::Kind::kLocal:
        arg.kind = interp::RunArgument::Kind::kLocal;
        break;
      case tools::ArgSpec::Kind::kImage:
        arg.kind = interp::RunArgument::Kind::kImage;
        break;
    }
    arg.bytes = std::move(a.bytes);  // the launch releases each buffer once it has its copy
    arg.local_bytes = a.local_bytes;
    arg.image_width = a.image_width;
    arg.image_height = a.image_height;
    arg.texel_bytes = a.texel_bytes;
    request.arguments.push_back(std::move(arg));
  }
  interp::RunOutcome outcome = interp::Execute(std::move(request));
  if (!outcome.error.empty()) {
    // A launch refused up front is a usage error; one stopped at a limit an invalid run.
    std::cerr << "error: " << outcome.error << "\n";
    return outcome.run_failed ? kExitInvalid : kExitUsage;
  }
  std::cout << outcome.printf_output;
  InstructionLines lines(*words);
  // Undefined-value reads first (warnings in every mode, DECISIONS.md 16), then undefined
  // behaviour, which alone decides the exit code.
  for (const interp::RunReport& r : outcome.warnings) PrintReport(r, false, lines);
  if (outcome.total_warnings > outcome.warnings.size()) {
    std::cerr << "warning: " << outcome.total_warnings - outcome.warnings.size()
              << " more undefined-value warnings not shown\n";
  }
  const bool fatal = spec.check == interp::CheckMode::kError;
  for (const interp::RunReport& r : outcome.reports) PrintReport(r, fatal, lines);
  if (outcome.total_reports > outcome.reports.size() && !fatal) {
    std::cerr << "warning: " << outcome.total_reports - outcome.reports.size()
              << " more reports not shown\n";
  }
  int exit_code = fatal && outcome.total_reports > 0 ? kExitInvalid : kExitOk;
  if (exit_code == kExitOk) {
    for (const auto& [index, path] : spec.dumps) {
      const std::vector<uint8_t>& buffer = outcome.buffers[index];
      if (!xmx::tools::WriteFile(
              path,
              std::string_view(reinterpret_cast<const char*>(buffer.data()), buffer.size()))) {
        exit_code = kExitInvalid;
      }
    }
    for (const auto& [index, path] : spec.expects) {
      if (!Expect(index, path, outcome.buffers[index])) exit_code = kExitInvalid;
    }
  }
  if (spec.stats) {
    const double seconds = outcome.stats.seconds;
    std::fprintf(stderr,
                 "instructions: %llu\nlane-instructions: %llu\nmatrix instructions: %llu\n"
                 "work-groups: %llu\nwall time: %.6f s\nlane-instructions per second: %.3g\n"
                 "threads: %u\n",
                 static_cast<unsigned long long>(outcome.stats.instructions),
                 static_cast<unsigned long long>(outcome.stats.lane_instructions),
                 static_cast<unsigned long long>(outcome.stats.matrix_instructions),
                 static_cast<unsigned long long>(outcome.stats.work_groups), seconds,
                 seconds > 0 ? static_cast<double>(outcome.stats.lane_instructions) / seconds : 0.0,
                 outcome.threads);
  }
  if (!xmx::tools::FinishStandardOutput()) exit_code = kExitInvalid;  // printf output
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  return xmx::tools::GuardedMain(Run, argc, argv, "lower --max-memory to be told first");
}
