// What run_bench's programs share: loading a kernel from the source tree and launching it through
// the public interpreter API (include/xmx), with the arguments built in memory.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "xmx/device.hpp"
#include "xmx/interpreter.hpp"
#include "xmx/module.hpp"

namespace xmx::bench {

inline std::vector<uint32_t> ReadWords(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  xmx::Result<std::vector<uint32_t>> words = xmx::WordsFromBytes(bytes);
  return words ? std::move(*words) : std::vector<uint32_t>();
}

// A kernel loaded (validated, then compiled) once; empty when the module does not load.
struct LoadedKernel {
  std::optional<xmx::interp::Kernel> program;
};

// `file` is relative to the source tree; `device` names a built-in profile ("" for the default,
// "opencl").
inline LoadedKernel Load(const std::string& file, const std::string& kernel, uint32_t subgroup_size,
                         const std::string& device = "") {
  LoadedKernel k;
  const std::vector<uint32_t> words = ReadWords(std::string(XMX_SOURCE_DIR) + "/" + file);
  xmx::interp::KernelOptions options;
  options.kernel = kernel;
  options.subgroup_size = subgroup_size;
  if (!device.empty()) {
    options.device = xmx::device::FindBuiltinProfile(device);
    if (options.device == nullptr) return k;
  }
  xmx::Result<xmx::interp::Kernel> loaded = xmx::interp::LoadKernel(words, options);
  if (loaded) k.program = std::move(*loaded);
  return k;
}

inline xmx::interp::RunArgument Buffer(std::vector<uint8_t> bytes) {
  xmx::interp::RunArgument a;
  a.kind = xmx::interp::RunArgument::Kind::kBuffer;
  a.bytes = std::move(bytes);
  return a;
}

template <class T>
xmx::interp::RunArgument Scalar(T v) {
  xmx::interp::RunArgument a;
  a.bytes.resize(sizeof(T));
  std::memcpy(a.bytes.data(), &v, sizeof(T));
  return a;
}
inline xmx::interp::RunArgument Int32(int32_t v) { return Scalar(v); }

// A launch of global (gx, gy) work-items in work-groups of (lx, ly) on `threads` threads.
inline xmx::interp::RunOutcome Launch(const xmx::interp::Kernel& kernel, uint64_t gx, uint64_t gy,
                                      uint64_t lx, std::vector<xmx::interp::RunArgument> args,
                                      uint32_t threads, uint64_t ly = 1) {
  xmx::interp::RunRequest request;
  request.kernel = kernel;
  request.geometry.dims = gy > 1 || ly > 1 ? 2 : 1;
  request.geometry.global[0] = gx;
  request.geometry.global[1] = gy;
  request.geometry.local[0] = lx;
  request.geometry.local[1] = ly;
  request.arguments = std::move(args);
  request.threads = threads;
  return xmx::interp::Execute(std::move(request));  // a copy would copy every buffer
}

}  // namespace xmx::bench
