// xmx-query: the SYCL matrix query interface over a device profile (CLI.md, DEVICES.md). Three
// forms: with only the device, every combination (general); with the element types, the sizes
// supported for them and the largest (default); with types and M, N, K, valid or not and the
// nearest valid shapes (validation). Tables: the cooperative-matrix (joint_matrix) rows (the
// default), the native matrix instruction's rows, and the 2D block shapes. Exit codes: 0 valid or
// answered, 1 not valid / not supported, 2 usage.
#include <iostream>
#include <optional>
#include <string>

#include "CLI/CLI.hpp"
#include "tools/query_tables.hpp"
#include "tools/tool_io.hpp"
#include "xmx/device.hpp"

namespace {

using xmx::tools::kExitUsage;

std::optional<xmx::device::ElementType> ParseType(const std::string& option,
                                                  const std::string& text) {
  std::optional<xmx::device::ElementType> type = xmx::device::ParseSyclType(text);
  if (!type) {
    std::cerr << "error: " << option << ": unknown element type '" << text
              << "'; expected one of: s4 u4 s8 u8 s16 s32 s64 fp16 bf16 tf32 fp32 fp64 f8e4m3 "
                 "f8e5m2 f4e2m1\n";
  }
  return type;
}

int Usage(const std::string& message) {
  std::cerr << "error: " << message << "\n";
  return kExitUsage;
}

int Run(int argc, char** argv) {
  CLI::App app{
      "xmx-query - What a device's matrix and 2D block tables support (the SYCL matrix "
      "query forms: general, default, validation)",
      "xmx-query"};
  std::string device_name, device_profile, table = "cooperative-matrix", format = "text";
  std::optional<std::string> a, b, c, d, op;
  std::optional<uint32_t> m, n, k, subgroup_size, element_size, width, height, count;
  bool version = false;
  app.add_flag("--version", version, "Display version information");
  auto* device_opt = app.add_option("--device", device_name, "A built-in device profile");
  app.add_option("--device-profile", device_profile, "A device profile JSON file")
      ->excludes(device_opt);
  app.add_option("--table", table, "Which table (default cooperative-matrix)")
      ->check(CLI::IsMember({"matrix", "cooperative-matrix", "block2d"}));
  app.add_option("--a", a, "Matrix A element type (SYCL spelling: bf16, fp16, tf32, s8, u8, ...)");
  app.add_option("--b", b, "Matrix B element type");
  app.add_option("--c", c, "Matrix C (accumulator) element type");
  app.add_option("--d", d, "Result (D) element type; default: the C type");
  app.add_option("--m", m, "M (rows of A, C, D)");
  app.add_option("--n", n, "N (columns of B, C, D)");
  app.add_option("--k", k, "K (columns of A, rows of B)");
  app.add_option("--subgroup-size", subgroup_size, "Only this subgroup size");
  app.add_option("--op", op, "block2d: load, load_transform, load_transpose, prefetch, store")
      ->check(CLI::IsMember({"load", "load_transform", "load_transpose", "prefetch", "store"}));
  app.add_option("--element-size", element_size, "block2d: Element Size in bytes");
  app.add_option("--width", width, "block2d: Block Width in elements");
  app.add_option("--height", height, "block2d: Block Height in rows");
  app.add_option("--count", count, "block2d: Block Count (default 1)");
  app.add_option("--format", format, "Output format")->check(CLI::IsMember({"text", "json"}));
  app.footer(
      "Forms: only the device: every combination; --a --b --c [--d]: the sizes supported for "
      "those types and the largest; with --m --n --k as well: valid (exit 0) or not (exit 1, "
      "with the nearest valid shapes). block2d: --op / --element-size filter the rows; with "
      "--width --height [--count] as well: valid or not.");
  if (auto exit = xmx::tools::ParseCommandLine(app, argc, argv, version, "xmx-query")) {
    return *exit;
  }

  std::optional<xmx::device::DeviceProfile> user_profile;
  const xmx::device::DeviceProfile* profile = nullptr;
  if (!device_profile.empty()) {
    xmx::Diagnostic error;
    user_profile = xmx::device::LoadProfileFile(device_profile, &error);
    if (!user_profile) {
      std::cerr << error.Format() << "\n";
      return kExitUsage;
    }
    profile = &*user_profile;
  } else if (!device_name.empty()) {
    profile = xmx::device::FindBuiltinProfile(device_name);
    if (!profile) {
      std::cerr << "error: unknown device '" << device_name << "'; known:";
      for (std::string_view name : xmx::device::BuiltinProfileNames()) std::cerr << " " << name;
      std::cerr << "\n";
      return kExitUsage;
    }
  } else {
    return Usage("--device NAME or --device-profile FILE is required");
  }
  if (subgroup_size && *subgroup_size == 0) return Usage("--subgroup-size must be positive");

  xmx::tools::QueryAnswer answer;
  if (table == "block2d") {
    if (a || b || c || d || m || n || k) {
      return Usage("--a/--b/--c/--d and --m/--n/--k are for the matrix tables, not block2d");
    }
    xmx::tools::Block2dQueryInput input;
    if (op) {
      for (auto o : {xmx::device::Block2dOp::kLoad, xmx::device::Block2dOp::kLoadTransform,
                     xmx::device::Block2dOp::kLoadTranspose, xmx::device::Block2dOp::kPrefetch,
                     xmx::device::Block2dOp::kStore}) {
        if (xmx::device::Block2dOpName(o) == *op) input.op = o;
      }
    }
    input.element_size = element_size;
    input.width = width;
    input.height = height;
    input.subgroup_size = subgroup_size;
    if (width.has_value() != height.has_value()) {
      return Usage("--width and --height go together");
    }
    if (count && !width) return Usage("--count needs --width and --height");
    if (width && (!op || !element_size)) {
      return Usage("validating a 2D block shape needs --op and --element-size");
    }
    if (count) input.count = *count;
    answer = xmx::tools::QueryBlock2dTable(*profile, input);
  } else {
    if (op || element_size || width || height || count) {
      return Usage("--op, --element-size, --width, --height and --count are for --table block2d");
    }
    xmx::tools::MatrixQueryInput input;
    input.subgroup_size = subgroup_size;
    const bool any_type = a || b || c || d;
    const bool any_size = m || n || k;
    if (any_type) {
      if (!a || !b || !c) return Usage("the types need --a, --b and --c (--d defaults to --c)");
      auto ta = ParseType("--a", *a), tb = ParseType("--b", *b), tc = ParseType("--c", *c);
      auto td = ParseType("--d", d.value_or(*c));
      if (!ta || !tb || !tc || !td) return kExitUsage;
      input.types = xmx::device::MatrixTypes{*ta, *tb, *tc, *td};
    }
    if (any_size) {
      if (!any_type) return Usage("--m, --n and --k need the element types (--a, --b, --c)");
      if (!m || !n || !k) return Usage("validation needs all of --m, --n and --k");
      input.shape = xmx::device::MatrixShape{*m, *n, *k};
    }
    answer = xmx::tools::QueryMatrixTable(*profile,
                                          table == "matrix" ? xmx::tools::MatrixTable::kNative
                                                            : xmx::tools::MatrixTable::kCooperative,
                                          input);
  }
  if (format == "json") {
    std::cout << answer.json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << answer.text;
  }
  if (!xmx::tools::FinishStandardOutput()) return xmx::tools::kExitInvalid;
  return answer.exit_code;
}

}  // namespace

int main(int argc, char** argv) { return xmx::tools::GuardedMain(Run, argc, argv); }
