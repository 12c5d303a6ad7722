// `--arg image2d:WIDTHxHEIGHT:TEXELBYTES:CONTENT`: an image argument. The contents are read by
// the buffer forms (ParseArgSpec on the equivalent `buffer:` spec), so zero / fill / random /
// file mean exactly what they mean for buffers.
#include <charconv>

#include "tools/run/launch_spec.hpp"
#include "tools/run/launch_support.hpp"

namespace xmx::tools {
namespace {

using launch_support::Quoted;

bool Fail(std::string* error, std::string message) {
  launch_support::SetError(error, std::move(message));
  return false;
}

bool ParseCount(std::string_view text, uint64_t* value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *value);
  return ec == std::errc() && ptr == end && *value > 0;
}

}  // namespace

std::optional<ArgSpec> ParseImageArg(std::string_view text, std::string_view rest,
                                     const std::filesystem::path& base_dir, std::string* error,
                                     uint64_t max_bytes) {
  const std::string usage = Quoted(text) + ": expected image2d:WIDTHxHEIGHT:TEXELBYTES:CONTENT";
  const size_t first = rest.find(':');
  const size_t second = first == std::string_view::npos ? first : rest.find(':', first + 1);
  if (second == std::string_view::npos) {
    Fail(error, usage + " (CONTENT: zero, fill=HEXBYTE, random=SEED or file=PATH)");
    return std::nullopt;
  }
  const std::string_view size = rest.substr(0, first);
  const std::string_view texel = rest.substr(first + 1, second - first - 1);
  const std::string_view content = rest.substr(second + 1);
  const size_t x = size.find('x');
  ArgSpec arg;
  arg.kind = ArgSpec::Kind::kImage;
  arg.text = std::string(text);
  uint64_t texel_bytes = 0;
  if (x == std::string_view::npos || !ParseCount(size.substr(0, x), &arg.image_width) ||
      !ParseCount(size.substr(x + 1), &arg.image_height)) {
    Fail(error, usage + ": " + Quoted(size) + " is not WIDTHxHEIGHT with both at least 1");
    return std::nullopt;
  }
  if (!ParseCount(texel, &texel_bytes) ||
      (texel_bytes != 1 && texel_bytes != 2 && texel_bytes != 4 && texel_bytes != 8 &&
       texel_bytes != 16)) {
    Fail(error, usage + ": texel size " + Quoted(texel) + " is not 1, 2, 4, 8 or 16 bytes");
    return std::nullopt;
  }
  arg.texel_bytes = static_cast<uint32_t>(texel_bytes);
  constexpr uint64_t kMaxSide = uint64_t{1} << 24;  // keeps the product below 2^52
  if (arg.image_width > kMaxSide || arg.image_height > kMaxSide) {
    Fail(error, usage + ": a side longer than 2^24 texels");
    return std::nullopt;
  }
  const uint64_t row_bytes = arg.image_width * texel_bytes;
  if (row_bytes % 4 != 0) {
    // Image block IO works in 4-byte units (SPEC-NOTES C.3): a row must hold whole units.
    Fail(error, Quoted(text) + ": a row of " + std::to_string(row_bytes) +
                    " bytes is not a multiple of 4 bytes");
    return std::nullopt;
  }
  const uint64_t bytes = row_bytes * arg.image_height;
  if (bytes > max_bytes) {
    Fail(error, Quoted(text) + ": " + std::to_string(bytes) + " bytes is more than the " +
                    std::to_string(max_bytes) + " left of the memory limit (--max-memory)");
    return std::nullopt;
  }
  std::string buffer;
  if (content == "zero") {
    buffer = "buffer:zero:" + std::to_string(bytes);
  } else if (content.rfind("fill=", 0) == 0 || content.rfind("random=", 0) == 0) {
    buffer = "buffer:" + std::string(content) + ":" + std::to_string(bytes);
  } else if (content.rfind("file=", 0) == 0) {
    buffer = "buffer:" + std::string(content);
  } else {
    Fail(error, usage + ": CONTENT " + Quoted(content) +
                    " is not zero, fill=HEXBYTE, random=SEED or file=PATH");
    return std::nullopt;
  }
  std::string why;
  std::optional<ArgSpec> contents = ParseArgSpec(buffer, base_dir, &why, max_bytes);
  if (!contents) {
    // The buffer parser quotes the buffer spec; name the image spec instead.
    const size_t colon = why.find("': ");
    Fail(error, Quoted(text) + (colon == std::string::npos ? ": " + why : why.substr(colon + 1)));
    return std::nullopt;
  }
  if (contents->bytes.size() != bytes) {
    Fail(error, Quoted(text) + ": the file has " + std::to_string(contents->bytes.size()) +
                    " bytes, the image " + std::to_string(bytes) + " (" +
                    std::to_string(arg.image_width) + " x " + std::to_string(arg.image_height) +
                    " x " + std::to_string(texel_bytes) + ")");
    return std::nullopt;
  }
  arg.bytes = std::move(contents->bytes);
  arg.file = std::move(contents->file);
  return arg;
}

}  // namespace xmx::tools
