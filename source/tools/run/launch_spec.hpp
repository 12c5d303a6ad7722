// The launch description of xmx-run (CLI.md, section xmx-run): which kernel of which module, the
// NDRange, the kernel arguments written as `--arg SPEC` and the run options. xmx-run fills it from
// its command line (CLI11 there, with the small parsers below) or from a run file
// (`xmx-run --run FILE.json`); the PoCL harness of the differential test (test/pocl/pocl_run.cpp)
// reads the same run files, so both sides start from the same argument bytes.
//
// Everything here is syntax and self-consistency: whether the arguments fit the kernel's
// parameters, whether the sizes suit the device and so on is checked by the interpreter.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xmx/interpreter.hpp"

namespace xmx::tools {

// What the launch description shares with the library's launch (include/xmx/interpreter.hpp).
using interp::CheckMode;  // --check=error|warn|off
using interp::kDefaultMaxInstructions;
using interp::kDefaultMaxMemory;
using interp::kMaxSubgroupSize;
using interp::kMaxThreads;
using interp::kThreadsPerCore;

// The type of a scalar or vector `--arg`: i8..i64, f16..f64, with 1, 2, 3, 4, 8 or 16
// components.
struct ArgType {
  enum class Kind : uint8_t { kInt, kFloat };
  Kind kind = Kind::kInt;
  uint8_t bytes = 4;  // of one component
  uint32_t components = 1;

  uint32_t lane_bytes() const { return components * bytes; }
};

// One kernel argument, one `--arg SPEC`.
struct ArgSpec {
  enum class Kind : uint8_t { kScalar, kBuffer, kLocal, kImage };
  Kind kind = Kind::kScalar;
  // kScalar: component type and count. Integers are ArgType::Kind::kInt of 1, 2, 4 or 8 bytes,
  // floats ArgType::Kind::kFloat of 2, 4 or 8 bytes. Unused for buffers and local memory.
  ArgType type;
  // kScalar: the value, components consecutive, each little-endian (lane_bytes() bytes: a 3-vector
  // takes 12 bytes, no padding). kBuffer: the buffer's initial contents (its size is the buffer's
  // size).
  std::vector<uint8_t> bytes;
  // kLocal: the size of the Workgroup allocation.
  uint64_t local_bytes = 0;
  // kImage: width and height in texels and bytes per texel; `bytes` holds the rows, packed.
  uint64_t image_width = 0, image_height = 0;
  uint32_t texel_bytes = 0;
  // The spec as written, for messages.
  std::string text;
  // `buffer:file=` and `image2d:...:file=`: the file read, as resolved (outputs must not name it).
  std::string file;
};

// Parses one `--arg` spec:
//   scalars    `i8:V` `i16:V` `i32:V` `i64:V` `f16:V` `f32:V` `f64:V`, vectors `i32x4:1,2,3,4`
//              (2, 3, 4, 8 or 16 components, one value each). A struct passed by value is a ByVal
//              pointer in SPIR-V: give it as a buffer holding the struct's bytes.
//              Integers are signless: decimal or 0x hex, with an optional sign, accepted when they
//              fit the width read as signed or as unsigned (i8: -128..255). Floats are anything
//              strtod reads (decimal, hex floats such as 0x1.8p1, inf, nan), rounded to nearest
//              even to the type; a finite value that overflows the type is an error. f16 values
//              are read as double first, then rounded (a decimal within 2^-53 of a half midpoint
//              may round twice: give such values as hex floats).
//   buffers    `buffer:file=PATH` (the file's bytes; a relative PATH is resolved against
//              base_dir), `buffer:zero:BYTES`, `buffer:fill=HEXBYTE:BYTES` (HEXBYTE: one or two hex
//              digits, 0x optional), `buffer:random=SEED:BYTES` (RandomBytes below).
//   local      `local:BYTES`.
//   images     `image2d:WIDTHxHEIGHT:TEXELBYTES:CONTENT` (ParseImageArg).
// BYTES and SEED are decimal or 0x hex; sizes run from 1 to `max_bytes`, what is left of the
// launch's memory limit (--max-memory): nothing larger is allocated or read. On failure returns
// nullopt and sets *error (if not null) to a message quoting the spec and saying what is wrong.
std::optional<ArgSpec> ParseArgSpec(std::string_view text, const std::filesystem::path& base_dir,
                                    std::string* error, uint64_t max_bytes = kDefaultMaxMemory);

// `image2d:WIDTHxHEIGHT:TEXELBYTES:CONTENT` (launch_image.cpp; `text` is the whole spec, `rest`
// what follows "image2d:"): a 2D image of WIDTH x HEIGHT texels of TEXELBYTES (1, 2, 4, 8 or 16)
// bytes, rows tightly packed, whose row (WIDTH x TEXELBYTES bytes) is a multiple of 4 bytes.
// CONTENT is `zero`, `fill=HEXBYTE`, `random=SEED` (as for buffers) or `file=PATH`, a file of
// exactly WIDTH x HEIGHT x TEXELBYTES bytes.
std::optional<ArgSpec> ParseImageArg(std::string_view text, std::string_view rest,
                                     const std::filesystem::path& base_dir, std::string* error,
                                     uint64_t max_bytes);

// The contents of `buffer:random=SEED:BYTES`: the outputs of splitmix64 (Steele, Lea and Flood;
// state += 0x9E3779B97F4A7C15, then the two xor-shift-multiply rounds with 0xBF58476D1CE4E5B9 and
// 0x94D049BB133111EB) with the state starting at SEED, each 64-bit output written little-endian,
// the last one truncated to fit `count`. Seed 0 starts with af cd 1d 7b 39 a8 20 e2.
std::vector<uint8_t> RandomBytes(uint64_t seed, uint64_t count);

struct LaunchSpec {
  std::string module;                     // path; may be empty in a run file (see ReadRunFile)
  std::string kernel;                     // empty: the module's only kernel
  std::vector<uint64_t> global;           // 1..3 entries
  std::vector<uint64_t> local;            // empty: default; else as many entries as global
  std::optional<uint32_t> subgroup_size;  // --subgroup-size
  std::string device;                     // empty: default
  std::vector<ArgSpec> args;              // one per kernel parameter, in order
  std::vector<std::pair<uint32_t, std::string>> dumps, expects;  // INDEX=PATH
  CheckMode check = CheckMode::kError;
  uint32_t threads = 0;          // 0: default (hardware concurrency); at most kMaxThreads
  bool stats = false;            // --stats
  std::string mma_fp = "exact";  // "exact" | "ordered" (--mma-fp)
  // Resource limits, 0 lifting each: bytes allocated (RunRequest::max_memory), instructions
  // dispatched and wall-clock seconds (LaunchOptions).
  uint64_t max_memory = kDefaultMaxMemory;              // --max-memory
  uint64_t max_instructions = kDefaultMaxInstructions;  // --max-instructions
  double timeout = 0;                                   // --timeout
  std::string run_file;  // the run file this came from (ReadRunFile), else empty
};

// Largest JSON input read (run files; device profiles have their own): 16 MiB, and nesting
// deeper than kMaxJsonDepth is refused while parsing, before it costs memory.
inline constexpr uint64_t kMaxRunFileBytes = uint64_t{16} << 20;
inline constexpr int kMaxJsonDepth = 64;

// Helpers for the command line. Each names `option` (e.g. "--global") in its message.
// "X[,Y[,Z]]": one to three sizes, each a decimal or 0x hex integer >= 1.
std::optional<std::vector<uint64_t>> ParseSizes(std::string_view text, std::string_view option,
                                                std::string* error);
// "INDEX=PATH" (--dump, --expect); a relative PATH is resolved against base_dir (pass an empty
// path to keep it relative to the working directory).
std::optional<std::pair<uint32_t, std::string>> ParseIndexPath(
    std::string_view text, std::string_view option, const std::filesystem::path& base_dir,
    std::string* error);
// A byte count for --max-memory: decimal or 0x hex, optionally followed by K, M, G or T (2^10,
// 2^20, 2^30, 2^40).
std::optional<uint64_t> ParseByteSize(std::string_view text, std::string_view option,
                                      std::string* error);
// "error" | "warn" | "off".
std::optional<CheckMode> ParseCheckMode(std::string_view text, std::string* error);
std::string_view CheckModeName(CheckMode mode);
// "exact" | "ordered".
bool IsMmaFpMode(std::string_view text);

// Consistency of a complete description, whichever way it was given: 1..3 global sizes, a local
// size with as many entries (if any), every --dump/--expect index naming a buffer argument, no
// buffer dumped twice, a known --mma-fp mode, a subgroup size in 1..kMaxSubgroupSize, threads
// in 0..kMaxThreads, a finite timeout >= 0. The module is not required here (ReadRunFile).
// Returns false and sets *error on the first problem.
bool ValidateLaunchSpec(const LaunchSpec& spec, std::string* error);

// The files of a complete description (the module known): no two dumps write the same file and
// no dump writes a file the launch reads (the module, the run file, a buffer or image file, an
// --expect file), whatever the spellings: paths that exist are compared by device and inode,
// others where they would be created (symbolic links of existing parents resolved). A character
// device (/dev/null, /dev/full) is no file to protect. Returns false and sets *error naming both.
bool CheckLaunchFiles(const LaunchSpec& spec, std::string* error);

// A run file: one JSON object with the content of an xmx-run command line, keys named like the
// options:
//   {"module": "k.spv", "kernel": "name", "global": [64, 2] (or "64,2" or 64), "local": [16],
//    "subgroup-size": 16, "device": "pvc", "args": ["buffer:random=1:256", "i32:4"],
//    "dump": {"1": "out.bin"} (or ["1=out.bin"]), "expect": {...} (same forms),
//    "check": "warn", "threads": 1, "stats": true, "mma-fp": "ordered"}
// plus "comment" (a string or an array of strings), which is ignored. Relative paths (module,
// buffer:file=, dump, expect) are resolved against the directory of `file`. Any other key is an
// error naming it. "global" is required; "module" may be left out, for a description that applies
// to several builds of the same kernel: the caller then supplies the module (xmx-run from its
// positional argument, the test harness by writing it in) and reports its absence. The result
// passes ValidateLaunchSpec. Errors start with the file name.
std::optional<LaunchSpec> ReadRunFile(const std::filesystem::path& file, std::string* error);

// ReadRunFile on JSON text already in memory: `source_name` starts the messages, relative paths
// are resolved against base_dir.
std::optional<LaunchSpec> ParseRunJson(std::string_view json_text, std::string_view source_name,
                                       const std::filesystem::path& base_dir, std::string* error);

}  // namespace xmx::tools
