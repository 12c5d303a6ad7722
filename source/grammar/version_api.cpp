// The public version queries (include/xmx/version.hpp).
#include "grammar/grammar.hpp"
#include "xmx/version.hpp"

namespace xmx {

std::string_view LibraryVersion() { return XMX_VERSION; }

GrammarVersion CoreGrammarVersion() {
  const grammar::CoreGrammarVersion core = grammar::GetCoreGrammarVersion();
  return GrammarVersion{core.major, core.minor, core.revision};
}

}  // namespace xmx
