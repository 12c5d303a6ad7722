// What a build of libxmx is: its own version and the SPIR-V grammar its tables were generated
// from (the tools' --version prints both).
#pragma once

#include <cstdint>
#include <string_view>

namespace xmx {

// "MAJOR.MINOR.PATCH", the version of the xmx-spirv project the library was built from.
std::string_view LibraryVersion();

struct GrammarVersion {
  uint32_t major = 0, minor = 0, revision = 0;
};
// The SPIRV-Headers core grammar the tables were generated from (e.g. 1.6 revision 1).
GrammarVersion CoreGrammarVersion();

}  // namespace xmx
