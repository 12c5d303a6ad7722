// The files of a launch (launch_spec.hpp, CheckLaunchFiles): a dump never lands on a file the
// launch reads or on another dump, however the two paths are spelled.
#include <sys/stat.h>

#include <string>
#include <utility>
#include <vector>

#include "tools/run/launch_spec.hpp"
#include "tools/run/launch_support.hpp"

namespace xmx::tools {
namespace {

using namespace launch_support;
namespace fs = std::filesystem;

// Where a path leads: the device and inode of an existing file, else the absolute path with
// every symbolic link of its existing part resolved (the file a write would create).
struct FileIdentity {
  bool exists = false;
  bool character_device = false;
  dev_t device = 0;
  ino_t inode = 0;
  fs::path where;

  bool operator==(const FileIdentity& other) const {
    if (exists != other.exists) return false;
    return exists ? device == other.device && inode == other.inode : where == other.where;
  }
};

FileIdentity IdentityOf(const std::string& path) {
  FileIdentity id;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    id.exists = true;
    id.character_device = S_ISCHR(info.st_mode);
    id.device = info.st_dev;
    id.inode = info.st_ino;
    return id;
  }
  std::error_code ec;
  id.where = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) id.where = fs::absolute(path, ec).lexically_normal();
  return id;
}

}  // namespace

bool CheckLaunchFiles(const LaunchSpec& spec, std::string* error) {
  // What the launch reads, each with what names it in a message.
  std::vector<std::pair<std::string, std::string>> inputs;
  if (!spec.module.empty() && spec.module != "-") inputs.emplace_back(spec.module, "the module");
  if (!spec.run_file.empty()) inputs.emplace_back(spec.run_file, "the run file");
  for (size_t i = 0; i < spec.args.size(); ++i) {
    if (!spec.args[i].file.empty()) {
      inputs.emplace_back(spec.args[i].file,
                          "argument " + std::to_string(i) + " (" + Quoted(spec.args[i].text) + ")");
    }
  }
  for (const auto& [index, path] : spec.expects) {
    inputs.emplace_back(path, "--expect " + std::to_string(index) + "=" + path);
  }
  std::vector<std::pair<FileIdentity, std::string>> read;
  for (const auto& [path, what] : inputs) read.emplace_back(IdentityOf(path), what);

  std::vector<std::pair<FileIdentity, std::string>> written;
  for (const auto& [index, path] : spec.dumps) {
    const std::string what = "--dump " + std::to_string(index) + "=" + path;
    const FileIdentity id = IdentityOf(path);
    if (id.character_device) continue;  // /dev/null, /dev/full: nothing there to destroy
    for (const auto& [input, input_what] : read) {
      if (input == id) {
        SetError(error, what + " would overwrite " + input_what +
                            ", which the launch reads: dump to another file");
        return false;
      }
    }
    for (const auto& [output, output_what] : written) {
      if (output == id) {
        SetError(error, what + " writes the same file as " + output_what);
        return false;
      }
    }
    written.emplace_back(id, what);
  }
  return true;
}

}  // namespace xmx::tools
