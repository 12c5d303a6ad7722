// Parsing of xmx-run's launch description: `--arg` specs and the small option values (run files:
// launch_run_file.cpp; images: launch_image.cpp).
#include "tools/run/launch_spec.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>

#include "tools/run/launch_support.hpp"

namespace xmx::tools {

bool launch_support::ReadWholeFile(const std::filesystem::path& path, std::vector<uint8_t>* bytes,
                                   uint64_t max_bytes, std::string* reason) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    *reason = "is a directory";
    return false;
  }
  const std::string too_large = "larger than " + std::to_string(max_bytes) +
                                " bytes, what is left of the memory limit (--max-memory)";
  // A regular file too large is refused before reading; a pipe or device when reading passes
  // the limit.
  if (std::filesystem::is_regular_file(path, ec)) {
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size > max_bytes) {
      *reason = too_large;
      return false;
    }
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    *reason = std::strerror(errno);
    return false;
  }
  bytes->clear();
  uint8_t chunk[65536];
  bool ok = true;
  while (true) {
    size_t n = std::fread(chunk, 1, sizeof chunk, file);
    if (n > max_bytes - bytes->size()) {
      *reason = too_large;
      ok = false;
      break;
    }
    bytes->insert(bytes->end(), chunk, chunk + n);
    if (n < sizeof chunk) {
      if (std::ferror(file)) {
        *reason = std::strerror(errno);
        ok = false;
      }
      break;
    }
  }
  std::fclose(file);
  if (!ok) std::vector<uint8_t>().swap(*bytes);
  return ok;
}

namespace {

using namespace launch_support;

namespace fs = std::filesystem;

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits at every `separator`, keeping empty pieces.
std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  while (true) {
    size_t at = text.find(separator);
    pieces.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return pieces;
    text.remove_prefix(at + 1);
  }
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

enum class NumberStatus : uint8_t { kOk, kMalformed, kTooLarge };

// An unsigned integer, decimal or 0x hex, nothing around it.
NumberStatus ParseUnsigned(std::string_view text, uint64_t* value) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return NumberStatus::kMalformed;
  auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), *value, base);
  if (status == std::errc::result_out_of_range) return NumberStatus::kTooLarge;
  if (status != std::errc() || end != text.data() + text.size()) return NumberStatus::kMalformed;
  return NumberStatus::kOk;
}

// A byte count or seed inside an arg spec: the message names the spec.
bool ParseNumberIn(std::string_view spec, std::string_view what, std::string_view text,
                   uint64_t* value, std::string* error) {
  switch (ParseUnsigned(Trim(text), value)) {
    case NumberStatus::kOk:
      return true;
    case NumberStatus::kTooLarge:
      SetError(error,
               Quoted(spec) + ": " + std::string(what) + " " + Quoted(text) + " is too large");
      return false;
    case NumberStatus::kMalformed:
      break;
  }
  SetError(error, Quoted(spec) + ": " + std::string(what) + " " + Quoted(text) +
                      " is not a decimal or 0x hex integer");
  return false;
}

bool ParseByteCount(std::string_view spec, std::string_view text, uint64_t max_bytes,
                    uint64_t* bytes, std::string* error) {
  if (!ParseNumberIn(spec, "size", text, bytes, error)) return false;
  if (*bytes == 0 || *bytes > max_bytes) {
    SetError(error, Quoted(spec) + ": size " + std::to_string(*bytes) + " is not in 1.." +
                        std::to_string(max_bytes) +
                        (*bytes == 0 ? "" : " (what is left of the memory limit, --max-memory)"));
    return false;
  }
  return true;
}

void AppendLittleEndian(uint64_t value, uint32_t bytes, std::vector<uint8_t>* out) {
  for (uint32_t i = 0; i < bytes; ++i) out->push_back(static_cast<uint8_t>(value >> (8 * i)));
}

std::string TypeName(const ArgType& type) {
  std::string name = type.kind == ArgType::Kind::kFloat ? "f" : "i";
  name += std::to_string(type.bytes * 8);
  if (type.components > 1) name += "x" + std::to_string(type.components);
  return name;
}

// "i32", "f16x4", ...: nullopt if `text` is no scalar type name.
std::optional<ArgType> ParseTypeName(std::string_view text) {
  if (text.size() < 2 || (text[0] != 'i' && text[0] != 'f')) return std::nullopt;
  const bool is_float = text[0] == 'f';
  text.remove_prefix(1);
  std::string_view width = text.substr(0, text.find('x'));
  std::string_view count = width.size() == text.size() ? "" : text.substr(width.size() + 1);
  ArgType type;
  type.kind = is_float ? ArgType::Kind::kFloat : ArgType::Kind::kInt;
  if (width == "8" && !is_float) {
    type.bytes = 1;
  } else if (width == "16") {
    type.bytes = 2;
  } else if (width == "32") {
    type.bytes = 4;
  } else if (width == "64") {
    type.bytes = 8;
  } else {
    return std::nullopt;
  }
  if (width.size() != text.size()) {
    uint64_t n = 0;
    // OpenCL vector sizes, decimal digits only ("i32x0x4" is no type).
    if (count.empty() || count.find_first_not_of("0123456789") != std::string_view::npos ||
        ParseUnsigned(count, &n) != NumberStatus::kOk ||
        (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)) {
      return std::nullopt;
    }
    type.components = static_cast<uint32_t>(n);
  }
  return type;
}

bool ParseIntegerComponent(std::string_view spec, const ArgType& type, std::string_view text,
                           std::vector<uint8_t>* out, std::string* error) {
  std::string_view digits = Trim(text);
  const bool negative = !digits.empty() && digits.front() == '-';
  if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) digits.remove_prefix(1);
  const uint32_t bits = type.bytes * 8u;
  const uint64_t max_unsigned =
      bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
  const uint64_t max_negative = uint64_t{1} << (bits - 1);  // magnitude of the minimum
  uint64_t magnitude = 0;
  NumberStatus status = ParseUnsigned(digits, &magnitude);
  if (status == NumberStatus::kMalformed) {
    SetError(error, Quoted(spec) + ": " + Quoted(Trim(text)) +
                        " is not an integer (decimal or 0x hex, optional sign)");
    return false;
  }
  if (status == NumberStatus::kTooLarge || (negative && magnitude > max_negative) ||
      (!negative && magnitude > max_unsigned)) {
    SetError(error, Quoted(spec) + ": " + std::string(Trim(text)) + " is out of range for i" +
                        std::to_string(bits) + " (-" + std::to_string(max_negative) + ".." +
                        std::to_string(max_unsigned) + ")");
    return false;
  }
  const uint64_t value = negative ? ~magnitude + 1 : magnitude;
  AppendLittleEndian(value, type.bytes, out);
  return true;
}

bool ParseFloatComponent(std::string_view spec, const ArgType& type, std::string_view text,
                         std::vector<uint8_t>* out, std::string* error) {
  const std::string value_text(Trim(text));
  const char* begin = value_text.c_str();
  char* end = nullptr;
  const std::string type_name = "f" + std::to_string(type.bytes * 8);
  auto malformed = [&] {
    SetError(error, Quoted(spec) + ": " + Quoted(value_text) +
                        " is not a number (decimal, hex float, inf or nan)");
    return false;
  };
  auto overflow = [&] {
    SetError(error, Quoted(spec) + ": " + value_text + " overflows " + type_name +
                        " (write inf for an infinity)");
    return false;
  };
  if (value_text.empty() || std::isspace(static_cast<unsigned char>(value_text[0]))) {
    return malformed();
  }
  errno = 0;
  if (type.bytes == 4) {
    const float value = std::strtof(begin, &end);
    if (end != begin + value_text.size()) return malformed();
    if (std::isinf(value) && errno == ERANGE) return overflow();
    uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    AppendLittleEndian(bits, 4, out);
    return true;
  }
  const double value = std::strtod(begin, &end);
  if (end != begin + value_text.size()) return malformed();
  if (std::isinf(value) && errno == ERANGE) return overflow();
  if (type.bytes == 8) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    AppendLittleEndian(bits, 8, out);
    return true;
  }
  const uint16_t half = interp::HalfFromDouble(value);
  if ((half & 0x7FFFu) == 0x7C00u && !std::isinf(value)) return overflow();
  AppendLittleEndian(half, 2, out);
  return true;
}

std::optional<ArgSpec> ParseScalar(std::string_view spec, std::string_view type_text,
                                   std::string_view values_text, std::string* error) {
  std::optional<ArgType> type = ParseTypeName(type_text);
  if (!type) {
    SetError(error, Quoted(spec) + ": unknown argument kind " + Quoted(type_text) +
                        " (expected i8, i16, i32, i64, f16, f32, f64, a vector of 2, 3, 4, 8 or "
                        "16 of them such as i32x4, buffer: or local:)");
    return std::nullopt;
  }
  std::vector<std::string_view> values = Split(values_text, ',');
  if (values.size() != type->components) {
    SetError(error, Quoted(spec) + ": " + TypeName(*type) + " takes " +
                        std::to_string(type->components) + " value" +
                        (type->components == 1 ? "" : "s") + ", got " +
                        std::to_string(values.size()));
    return std::nullopt;
  }
  ArgSpec arg;
  arg.kind = ArgSpec::Kind::kScalar;
  arg.type = *type;
  arg.text = std::string(spec);
  for (std::string_view value : values) {
    const bool ok = type->kind == ArgType::Kind::kFloat
                        ? ParseFloatComponent(spec, *type, value, &arg.bytes, error)
                        : ParseIntegerComponent(spec, *type, value, &arg.bytes, error);
    if (!ok) return std::nullopt;
  }
  return arg;
}

std::optional<ArgSpec> ParseBuffer(std::string_view spec, std::string_view rest,
                                   const fs::path& base_dir, uint64_t max_bytes,
                                   std::string* error) {
  ArgSpec arg;
  arg.kind = ArgSpec::Kind::kBuffer;
  arg.text = std::string(spec);
  if (StartsWith(rest, "file=")) {
    std::string_view path_text = rest.substr(5);
    if (path_text.empty()) {
      SetError(error, Quoted(spec) + ": no file name after file=");
      return std::nullopt;
    }
    const std::string path = Resolve(base_dir, path_text);
    std::string reason;
    arg.file = path;
    if (!ReadWholeFile(path, &arg.bytes, max_bytes, &reason)) {
      SetError(error, Quoted(spec) + ": cannot read " + Quoted(path) + ": " + reason);
      return std::nullopt;
    }
    if (arg.bytes.empty()) {
      SetError(error, Quoted(spec) + ": " + Quoted(path) + " is empty (a buffer needs a byte)");
      return std::nullopt;
    }
    return arg;
  }
  uint64_t size = 0;
  if (StartsWith(rest, "zero:")) {
    if (!ParseByteCount(spec, rest.substr(5), max_bytes, &size, error)) return std::nullopt;
    arg.bytes.assign(size, 0);
    return arg;
  }
  if (StartsWith(rest, "fill=") || StartsWith(rest, "random=")) {
    const bool fill = rest[0] == 'f';
    rest.remove_prefix(fill ? 5 : 7);
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) {
      SetError(error, Quoted(spec) + ": expected " +
                          (fill ? "buffer:fill=HEXBYTE:BYTES" : "buffer:random=SEED:BYTES"));
      return std::nullopt;
    }
    std::string_view first = Trim(rest.substr(0, colon));
    if (!ParseByteCount(spec, rest.substr(colon + 1), max_bytes, &size, error)) {
      return std::nullopt;
    }
    if (fill) {
      if (StartsWith(first, "0x") || StartsWith(first, "0X")) first.remove_prefix(2);
      uint64_t byte = 0;
      if (first.empty() || first.size() > 2 ||
          ParseUnsigned("0x" + std::string(first), &byte) != NumberStatus::kOk) {
        SetError(error, Quoted(spec) + ": fill byte " + Quoted(rest.substr(0, colon)) +
                            " is not one or two hex digits");
        return std::nullopt;
      }
      arg.bytes.assign(size, static_cast<uint8_t>(byte));
    } else {
      uint64_t seed = 0;
      if (!ParseNumberIn(spec, "seed", first, &seed, error)) return std::nullopt;
      arg.bytes = RandomBytes(seed, size);
    }
    return arg;
  }
  SetError(error, Quoted(spec) +
                      ": unknown buffer form (expected buffer:file=PATH, "
                      "buffer:zero:BYTES, buffer:fill=HEXBYTE:BYTES or "
                      "buffer:random=SEED:BYTES)");
  return std::nullopt;
}

}  // namespace

std::vector<uint8_t> RandomBytes(uint64_t seed, uint64_t count) {
  std::vector<uint8_t> bytes;
  bytes.reserve(count);
  uint64_t state = seed;
  while (bytes.size() < count) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    for (int i = 0; i < 8 && bytes.size() < count; ++i) {
      bytes.push_back(static_cast<uint8_t>(z >> (8 * i)));
    }
  }
  return bytes;
}

std::optional<ArgSpec> ParseArgSpec(std::string_view text, const fs::path& base_dir,
                                    std::string* error, uint64_t max_bytes) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    SetError(error, Quoted(text) + ": expected TYPE:VALUE, buffer:... or local:BYTES");
    return std::nullopt;
  }
  std::string_view head = text.substr(0, colon);
  std::string_view rest = text.substr(colon + 1);
  if (head == "buffer") return ParseBuffer(text, rest, base_dir, max_bytes, error);
  if (head == "image2d") return ParseImageArg(text, rest, base_dir, error, max_bytes);
  if (head == "local") {
    ArgSpec arg;
    arg.kind = ArgSpec::Kind::kLocal;
    arg.text = std::string(text);
    if (!ParseByteCount(text, rest, max_bytes, &arg.local_bytes, error)) return std::nullopt;
    return arg;
  }
  return ParseScalar(text, head, rest, error);
}

std::optional<std::vector<uint64_t>> ParseSizes(std::string_view text, std::string_view option,
                                                std::string* error) {
  std::vector<std::string_view> pieces = Split(text, ',');
  if (pieces.size() > 3) {
    SetError(error,
             std::string(option) + " " + Quoted(text) + ": expected one to three sizes X[,Y[,Z]]");
    return std::nullopt;
  }
  std::vector<uint64_t> sizes;
  for (std::string_view piece : pieces) {
    uint64_t size = 0;
    NumberStatus status = ParseUnsigned(Trim(piece), &size);
    if (status != NumberStatus::kOk) {
      SetError(error, std::string(option) + " " + Quoted(text) + ": " + Quoted(Trim(piece)) +
                          (status == NumberStatus::kTooLarge ? " is too large"
                                                             : " is not a size (X[,Y[,Z]])"));
      return std::nullopt;
    }
    if (size == 0) {
      SetError(error, std::string(option) + " " + Quoted(text) + ": sizes must be at least 1");
      return std::nullopt;
    }
    sizes.push_back(size);
  }
  return sizes;
}

std::optional<std::pair<uint32_t, std::string>> ParseIndexPath(std::string_view text,
                                                               std::string_view option,
                                                               const fs::path& base_dir,
                                                               std::string* error) {
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    SetError(error, std::string(option) + " " + Quoted(text) + ": expected INDEX=PATH");
    return std::nullopt;
  }
  std::string_view index_text = Trim(text.substr(0, equals));
  std::string_view path = text.substr(equals + 1);
  uint64_t index = 0;
  if (index_text.find_first_not_of("0123456789") != std::string_view::npos ||
      ParseUnsigned(index_text, &index) != NumberStatus::kOk ||
      index > std::numeric_limits<uint32_t>::max()) {
    SetError(error, std::string(option) + " " + Quoted(text) + ": " + Quoted(index_text) +
                        " is not an argument index (0-based, decimal)");
    return std::nullopt;
  }
  if (path.empty()) {
    SetError(error, std::string(option) + " " + Quoted(text) + ": no path after '='");
    return std::nullopt;
  }
  return std::make_pair(static_cast<uint32_t>(index), Resolve(base_dir, path));
}

std::optional<uint64_t> ParseByteSize(std::string_view text, std::string_view option,
                                      std::string* error) {
  std::string_view digits = Trim(text);
  int shift = 0;
  if (!digits.empty() && !StartsWith(digits, "0x") && !StartsWith(digits, "0X")) {
    const std::string_view suffixes = "KMGT";
    if (size_t at = suffixes.find(static_cast<char>(std::toupper(digits.back())));
        at != std::string_view::npos) {
      shift = 10 * static_cast<int>(at + 1);
      digits.remove_suffix(1);
    }
  }
  uint64_t value = 0;
  const NumberStatus status = ParseUnsigned(digits, &value);
  if (status == NumberStatus::kOk && (value << shift >> shift) == value) return value << shift;
  SetError(error, std::string(option) + " " + Quoted(text) +
                      (status == NumberStatus::kMalformed
                           ? ": expected a byte count (decimal or 0x hex, optional K, M, G or T)"
                           : ": more than 2^64 bytes"));
  return std::nullopt;
}

std::optional<CheckMode> ParseCheckMode(std::string_view text, std::string* error) {
  if (text == "error") return CheckMode::kError;
  if (text == "warn") return CheckMode::kWarn;
  if (text == "off") return CheckMode::kOff;
  SetError(error, "--check " + Quoted(text) + ": expected error, warn or off");
  return std::nullopt;
}

std::string_view CheckModeName(CheckMode mode) {
  switch (mode) {
    case CheckMode::kError:
      return "error";
    case CheckMode::kWarn:
      return "warn";
    case CheckMode::kOff:
      return "off";
  }
  return "error";
}

bool IsMmaFpMode(std::string_view text) { return text == "exact" || text == "ordered"; }

bool ValidateLaunchSpec(const LaunchSpec& spec, std::string* error) {
  auto check_sizes = [&](const std::vector<uint64_t>& sizes, std::string_view option) {
    if (sizes.size() > 3 || (option == "--global" && sizes.empty())) {
      SetError(error, std::string(option) + ": expected one to three sizes X[,Y[,Z]]");
      return false;
    }
    for (uint64_t size : sizes) {
      if (size == 0) {
        SetError(error, std::string(option) + ": sizes must be at least 1");
        return false;
      }
    }
    return true;
  };
  if (!check_sizes(spec.global, "--global") || !check_sizes(spec.local, "--local")) return false;
  if (!spec.local.empty() && spec.local.size() != spec.global.size()) {
    SetError(error, "--local has " + std::to_string(spec.local.size()) +
                        " dimension(s) but --global has " + std::to_string(spec.global.size()));
    return false;
  }
  if (spec.subgroup_size && (*spec.subgroup_size < 1 || *spec.subgroup_size > kMaxSubgroupSize)) {
    SetError(error, "--subgroup-size " + std::to_string(*spec.subgroup_size) + " is not in 1.." +
                        std::to_string(kMaxSubgroupSize));
    return false;
  }
  if (spec.threads > kMaxThreads) {
    SetError(error, "--threads " + std::to_string(spec.threads) + " is not in 0.." +
                        std::to_string(kMaxThreads) +
                        " (0: one per core; a launch runs no more threads than work-groups, nor "
                        "than " +
                        std::to_string(kThreadsPerCore) + " per core)");
    return false;
  }
  if (!std::isfinite(spec.timeout) || spec.timeout < 0) {
    SetError(error, "--timeout: expected a number of seconds >= 0 (0: no limit)");
    return false;
  }
  if (!IsMmaFpMode(spec.mma_fp)) {
    SetError(error, "--mma-fp " + Quoted(spec.mma_fp) + ": expected exact or ordered");
    return false;
  }
  auto check_buffers = [&](const std::vector<std::pair<uint32_t, std::string>>& list,
                           std::string_view option) {
    std::set<uint32_t> indices;
    std::set<std::string> paths;
    for (const auto& [index, path] : list) {
      const std::string what = std::string(option) + " " + std::to_string(index) + "=" + path;
      if (index >= spec.args.size()) {
        SetError(error, what + ": there are " + std::to_string(spec.args.size()) +
                            " arguments (indices are 0-based)");
        return false;
      }
      if (spec.args[index].kind != ArgSpec::Kind::kBuffer &&
          spec.args[index].kind != ArgSpec::Kind::kImage) {
        SetError(error, what + ": argument " + std::to_string(index) + " (" +
                            Quoted(spec.args[index].text) + ") is not a buffer or an image");
        return false;
      }
      if (!indices.insert(index).second) {
        SetError(error, what + ": buffer " + std::to_string(index) + " is named twice");
        return false;
      }
      if (!paths.insert(path).second) {
        SetError(error, what + ": " + Quoted(path) + " is used twice");
        return false;
      }
    }
    return true;
  };
  return check_buffers(spec.dumps, "--dump") && check_buffers(spec.expects, "--expect");
}

}  // namespace xmx::tools
