// pocl_run: the PoCL side of the differential test of xmx-run. It reads the same run file as
// `xmx-run --run FILE.json` (source/tools/run/launch_spec.hpp), builds the kernel for PoCL's CPU
// device through the OpenCL ICD, creates the same buffers with the same initial bytes, runs the
// NDRange and writes the --dump buffers (and checks the --expect ones), so that the two outputs can
// be compared byte for byte.
//
//   pocl_run --run FILE.json --source KERNEL.cl [--build-options "-cl-std=CL3.0"]
//   pocl_run --run FILE.json --spir KERNEL.bc   [--build-options "-x spir -spir-std=1.2"]
//
// A `buffer:` argument for a parameter in the private address space (a struct passed by value,
// which SPIR-V makes a ByVal pointer and xmx-run fills from a buffer) is passed as its bytes;
// -cl-kernel-arg-info is appended to the build options to tell such parameters apart.
// --spir takes LLVM bitcode, e.g. from `llvm-spirv-15 -r --spirv-target-env=CL1.2 X.spv`, loaded
// with clCreateProgramWithBinary; its build options default to "-x spir -spir-std=1.2".
// The run file's "module" is ignored (PoCL 3.1 takes no SPIR-V), as are the options that only mean
// something to xmx-run (subgroup-size, device, check, threads, stats, mma-fp).
//
// Exit codes follow xmx-run: 0 success, 1 build/run failure or --expect mismatch (the message,
// with the build log, goes to standard error), 2 usage error.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/run/launch_spec.hpp"

namespace {

using xmx::tools::ArgSpec;
using xmx::tools::LaunchSpec;

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

const char* ClErrorName(cl_int code) {
  switch (code) {
#define XMX_CL_ERROR(name) \
  case name:               \
    return #name;
    XMX_CL_ERROR(CL_DEVICE_NOT_FOUND)
    XMX_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    XMX_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    XMX_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    XMX_CL_ERROR(CL_OUT_OF_RESOURCES)
    XMX_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    XMX_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    XMX_CL_ERROR(CL_INVALID_VALUE)
    XMX_CL_ERROR(CL_INVALID_PLATFORM)
    XMX_CL_ERROR(CL_INVALID_DEVICE)
    XMX_CL_ERROR(CL_INVALID_CONTEXT)
    XMX_CL_ERROR(CL_INVALID_BINARY)
    XMX_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    XMX_CL_ERROR(CL_INVALID_PROGRAM)
    XMX_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    XMX_CL_ERROR(CL_INVALID_KERNEL_NAME)
    XMX_CL_ERROR(CL_INVALID_KERNEL)
    XMX_CL_ERROR(CL_INVALID_ARG_INDEX)
    XMX_CL_ERROR(CL_INVALID_ARG_VALUE)
    XMX_CL_ERROR(CL_INVALID_ARG_SIZE)
    XMX_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    XMX_CL_ERROR(CL_INVALID_WORK_DIMENSION)
    XMX_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    XMX_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
    XMX_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    XMX_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    XMX_CL_ERROR(CL_INVALID_MEM_OBJECT)
    XMX_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    XMX_CL_ERROR(CL_LINK_PROGRAM_FAILURE)
    XMX_CL_ERROR(CL_INVALID_LINKER_OPTIONS)
#undef XMX_CL_ERROR
    default:
      return "unknown OpenCL error";
  }
}

// A failed step: prints "error: <what>: <CL error>" and gives the exit code.
int Fail(std::string_view what, cl_int code) {
  std::cerr << "error: " << what << ": " << ClErrorName(code) << " (" << code << ")\n";
  return kExitFailed;
}

int Fail(std::string_view what) {
  std::cerr << "error: " << what << "\n";
  return kExitFailed;
}

std::string PlatformString(cl_platform_id platform, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS) return {};
  std::string text(size, '\0');
  clGetPlatformInfo(platform, what, size, text.data(), nullptr);
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

std::optional<std::vector<uint8_t>> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

struct Options {
  std::string run;
  std::string source;
  std::string spir;
  std::optional<std::string> build_options;
  std::string platform = "Portable Computing Language";
};

constexpr const char* kUsage =
    "usage: pocl_run --run FILE.json (--source FILE.cl | --spir FILE.bc)\n"
    "                [--build-options OPTIONS] [--platform NAME]\n"
    "  --run FILE.json         the launch description (the xmx-run run file format)\n"
    "  --source FILE.cl        build the kernel from OpenCL C source\n"
    "  --spir FILE.bc          build it from SPIR LLVM bitcode (llvm-spirv-15 -r output)\n"
    "  --build-options OPTS    clBuildProgram options (default: none for --source,\n"
    "                          \"-x spir -spir-std=1.2\" for --spir)\n"
    "  --platform NAME         a substring of the OpenCL platform name\n"
    "                          (default \"Portable Computing Language\")\n";

bool StartsWithDashes(std::string_view arg) { return arg.substr(0, 2) == "--"; }

std::optional<Options> ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    // "--name=value" or "--name value".
    std::optional<std::string_view> inline_value;
    if (size_t equals = arg.find('='); StartsWithDashes(arg) && equals != std::string_view::npos) {
      inline_value = arg.substr(equals + 1);
      arg = arg.substr(0, equals);
    }
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(kExitOk);
    }
    std::string* target = nullptr;
    if (arg == "--run") {
      target = &options.run;
    } else if (arg == "--source") {
      target = &options.source;
    } else if (arg == "--spir") {
      target = &options.spir;
    } else if (arg == "--platform") {
      target = &options.platform;
    } else if (arg == "--build-options") {
      options.build_options.emplace();
      target = &*options.build_options;
    } else {
      std::cerr << "error: unknown option '" << arg << "'\n" << kUsage;
      return std::nullopt;
    }
    if (inline_value) {
      *target = *inline_value;
    } else if (i + 1 < argc) {
      *target = argv[++i];
    } else {
      std::cerr << "error: " << arg << " needs a value\n" << kUsage;
      return std::nullopt;
    }
  }
  if (options.run.empty() || options.source.empty() == options.spir.empty()) {
    std::cerr << "error: give --run and exactly one of --source and --spir\n" << kUsage;
    return std::nullopt;
  }
  return options;
}

// Releases the OpenCL objects on every return path.
struct ClObjects {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  std::vector<cl_mem> buffers;  // one per argument; nullptr for non-buffers

  ~ClObjects() {
    for (cl_mem buffer : buffers) {
      if (buffer != nullptr) clReleaseMemObject(buffer);
    }
    if (kernel != nullptr) clReleaseKernel(kernel);
    if (program != nullptr) clReleaseProgram(program);
    if (queue != nullptr) clReleaseCommandQueue(queue);
    if (context != nullptr) clReleaseContext(context);
  }
};

std::string BuildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::string KernelNames(cl_program program) {
  size_t size = 0;
  clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size);
  std::string names(size, '\0');
  clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names.data(), nullptr);
  while (!names.empty() && names.back() == '\0') names.pop_back();
  return names;
}

// True if parameter `index` is in the private address space (a struct passed by value); false if
// not or if the program has no argument information.
bool IsPrivateParameter(cl_kernel kernel, cl_uint index) {
  cl_kernel_arg_address_qualifier qualifier = 0;
  return clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof qualifier,
                            &qualifier, nullptr) == CL_SUCCESS &&
         qualifier == CL_KERNEL_ARG_ADDRESS_PRIVATE;
}

// The bytes handed to clSetKernelArg for a scalar: OpenCL passes a 3-component vector with the
// size of a 4-component one (cl_int3 is cl_int4).
std::vector<uint8_t> ScalarArgBytes(const ArgSpec& arg) {
  std::vector<uint8_t> bytes = arg.bytes;
  if (arg.type.components == 3) bytes.resize(bytes.size() / 3 * 4, 0);
  return bytes;
}

int Run(const Options& options) {
  std::string error;
  std::optional<LaunchSpec> spec = xmx::tools::ReadRunFile(options.run, &error);
  if (!spec) {
    std::cerr << "error: " << error << "\n";
    return kExitUsage;
  }

  // The platform and its first device.
  cl_uint platform_count = 0;
  clGetPlatformIDs(0, nullptr, &platform_count);
  std::vector<cl_platform_id> platforms(platform_count);
  if (platform_count == 0 ||
      clGetPlatformIDs(platform_count, platforms.data(), nullptr) != CL_SUCCESS) {
    return Fail("no OpenCL platform (is pocl-opencl-icd installed?)");
  }
  cl_platform_id platform = nullptr;
  std::string names;
  for (cl_platform_id candidate : platforms) {
    const std::string name = PlatformString(candidate, CL_PLATFORM_NAME);
    names += " '" + name + "'";
    if (platform == nullptr && name.find(options.platform) != std::string::npos) {
      platform = candidate;
    }
  }
  if (platform == nullptr) {
    return Fail("no OpenCL platform name contains '" + options.platform + "' (found" + names + ")");
  }
  cl_device_id device = nullptr;
  cl_int status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
  if (status != CL_SUCCESS) return Fail("clGetDeviceIDs", status);

  ClObjects cl;
  cl.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) return Fail("clCreateContext", status);
  cl.queue = clCreateCommandQueueWithProperties(cl.context, device, nullptr, &status);
  if (status != CL_SUCCESS) return Fail("clCreateCommandQueueWithProperties", status);

  // The program.
  const bool from_source = !options.source.empty();
  const std::string& input = from_source ? options.source : options.spir;
  std::optional<std::vector<uint8_t>> text = ReadFile(input);
  if (!text) return Fail("cannot read '" + input + "': " + std::strerror(errno));
  if (from_source) {
    const char* source = reinterpret_cast<const char*>(text->data());
    const size_t length = text->size();
    cl.program = clCreateProgramWithSource(cl.context, 1, &source, &length, &status);
    if (status != CL_SUCCESS) return Fail("clCreateProgramWithSource", status);
  } else {
    const unsigned char* binary = text->data();
    const size_t length = text->size();
    cl_int binary_status = CL_SUCCESS;
    cl.program = clCreateProgramWithBinary(cl.context, 1, &device, &length, &binary, &binary_status,
                                           &status);
    if (status != CL_SUCCESS) {
      return Fail("clCreateProgramWithBinary('" + input + "')",
                  binary_status != CL_SUCCESS ? binary_status : status);
    }
  }
  // -cl-kernel-arg-info: the address qualifiers tell by-value struct parameters from buffers.
  const std::string build_options =
      options.build_options.value_or(from_source ? "" : "-x spir -spir-std=1.2") +
      " -cl-kernel-arg-info";
  status = clBuildProgram(cl.program, 1, &device, build_options.c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS) {
    std::cerr << "error: building '" << input << "' with options '" << build_options
              << "' failed: " << ClErrorName(status) << " (" << status << ")\n"
              << "build log:\n"
              << BuildLog(cl.program, device) << "\n";
    return kExitFailed;
  }

  // The kernel.
  std::string kernel_name = spec->kernel;
  const std::string available = KernelNames(cl.program);
  if (kernel_name.empty()) {
    if (available.empty() || available.find(';') != std::string::npos) {
      return Fail("the run file names no kernel and the program has kernels '" + available +
                  "' (add \"kernel\")");
    }
    kernel_name = available;
  }
  cl.kernel = clCreateKernel(cl.program, kernel_name.c_str(), &status);
  if (status != CL_SUCCESS) {
    return Fail("clCreateKernel('" + kernel_name + "'; the program has '" + available + "')",
                status);
  }
  cl_uint arg_count = 0;
  clGetKernelInfo(cl.kernel, CL_KERNEL_NUM_ARGS, sizeof arg_count, &arg_count, nullptr);
  if (arg_count != spec->args.size()) {
    return Fail("kernel '" + kernel_name + "' has " + std::to_string(arg_count) +
                " parameters but the run file gives " + std::to_string(spec->args.size()) +
                " args");
  }

  // The arguments.
  cl.buffers.assign(spec->args.size(), nullptr);
  for (size_t i = 0; i < spec->args.size(); ++i) {
    const ArgSpec& arg = spec->args[i];
    const std::string what = "argument " + std::to_string(i) + " ('" + arg.text + "')";
    switch (arg.kind) {
      case ArgSpec::Kind::kBuffer: {
        if (IsPrivateParameter(cl.kernel, static_cast<cl_uint>(i))) {
          // A struct passed by value: in SPIR-V a ByVal pointer, which xmx-run takes as a buffer
          // holding the struct's bytes; OpenCL takes the bytes themselves.
          status = clSetKernelArg(cl.kernel, static_cast<cl_uint>(i), arg.bytes.size(),
                                  arg.bytes.data());
          break;
        }
        // COPY_HOST_PTR copies the initial bytes; the source vector is not written.
        cl.buffers[i] =
            clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, arg.bytes.size(),
                           const_cast<uint8_t*>(arg.bytes.data()), &status);
        if (status != CL_SUCCESS) return Fail("clCreateBuffer for " + what, status);
        status = clSetKernelArg(cl.kernel, static_cast<cl_uint>(i), sizeof(cl_mem), &cl.buffers[i]);
        break;
      }
      case ArgSpec::Kind::kLocal:
        status = clSetKernelArg(cl.kernel, static_cast<cl_uint>(i), arg.local_bytes, nullptr);
        break;
      case ArgSpec::Kind::kScalar: {
        std::vector<uint8_t> bytes = ScalarArgBytes(arg);
        status = clSetKernelArg(cl.kernel, static_cast<cl_uint>(i), bytes.size(), bytes.data());
        break;
      }
      case ArgSpec::Kind::kImage:
        // The differential runs core kernels only: images come with the Intel image block
        // instructions, which PoCL does not have.
        return Fail(what + ": the PoCL oracle takes no image arguments");
    }
    if (status != CL_SUCCESS) return Fail("clSetKernelArg for " + what, status);
  }

  // The launch.
  std::vector<size_t> global(spec->global.begin(), spec->global.end());
  std::vector<size_t> local(spec->local.begin(), spec->local.end());
  status = clEnqueueNDRangeKernel(cl.queue, cl.kernel, static_cast<cl_uint>(global.size()), nullptr,
                                  global.data(), local.empty() ? nullptr : local.data(), 0, nullptr,
                                  nullptr);
  if (status != CL_SUCCESS) return Fail("clEnqueueNDRangeKernel('" + kernel_name + "')", status);
  status = clFinish(cl.queue);
  if (status != CL_SUCCESS) return Fail("clFinish", status);

  auto read_back = [&](uint32_t index, std::vector<uint8_t>* bytes) {
    if (cl.buffers[index] == nullptr) {  // passed by value: the caller's bytes do not change
      *bytes = spec->args[index].bytes;
      return CL_SUCCESS;
    }
    bytes->resize(spec->args[index].bytes.size());
    return clEnqueueReadBuffer(cl.queue, cl.buffers[index], CL_TRUE, 0, bytes->size(),
                               bytes->data(), 0, nullptr, nullptr);
  };
  for (const auto& [index, path] : spec->dumps) {
    std::vector<uint8_t> bytes;
    status = read_back(index, &bytes);
    if (status != CL_SUCCESS) return Fail("reading buffer " + std::to_string(index), status);
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) return Fail("cannot write '" + path + "': " + std::strerror(errno));
  }
  int exit_code = kExitOk;
  for (const auto& [index, path] : spec->expects) {
    std::vector<uint8_t> bytes;
    status = read_back(index, &bytes);
    if (status != CL_SUCCESS) return Fail("reading buffer " + std::to_string(index), status);
    std::optional<std::vector<uint8_t>> want = ReadFile(path);
    if (!want) return Fail("cannot read '" + path + "': " + std::strerror(errno));
    if (*want == bytes) continue;
    exit_code = kExitFailed;
    std::cerr << "error: buffer " << index << " differs from '" << path << "' (" << bytes.size()
              << " bytes, expected " << want->size() << ")";
    int shown = 0;
    for (size_t k = 0; k < std::min(bytes.size(), want->size()) && shown < 8; ++k) {
      if (bytes[k] == (*want)[k]) continue;
      std::fprintf(stderr, "%s offset %zu: 0x%02x, expected 0x%02x", shown == 0 ? ":" : ",", k,
                   bytes[k], (*want)[k]);
      ++shown;
    }
    std::cerr << "\n";
  }
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<Options> options = ParseOptions(argc, argv);
  if (!options) return kExitUsage;
  return Run(*options);
}
