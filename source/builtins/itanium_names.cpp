#include "builtins/itanium_names.hpp"

#include <string_view>

#include "xmx/device.hpp"

namespace xmx::builtins {
namespace {

constexpr std::string_view kBuiltinCodes = "vbcahstijlmfd";

class ParamParser {
 public:
  explicit ParamParser(std::string_view text) : text_(text) {}

  bool ParseAll(std::vector<MangledType>* out) {
    if (text_ == "v") return true;  // no parameters
    while (pos_ < text_.size()) {
      std::optional<MangledType> type = ParseType();
      if (!type) return false;
      out->push_back(std::move(*type));
    }
    return !out->empty();
  }

 private:
  bool Number(uint32_t* value) {
    size_t start = pos_;
    uint64_t n = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      n = n * 10 + static_cast<uint64_t>(text_[pos_++] - '0');
      if (n > UINT32_MAX) return false;
    }
    *value = static_cast<uint32_t>(n);
    return pos_ > start;
  }

  // <length><identifier>
  bool SourceName(std::string* name) {
    uint32_t length = 0;
    if (!Number(&length) || length == 0 || pos_ + length > text_.size()) return false;
    *name = std::string(text_.substr(pos_, length));
    pos_ += length;
    return true;
  }

  std::optional<MangledType> ParseType() {
    if (pos_ >= text_.size()) return std::nullopt;
    const char c = text_[pos_];
    if (kBuiltinCodes.find(c) != std::string_view::npos) {
      ++pos_;
      MangledType t;
      t.scalar = c;
      return t;
    }
    if (c == 'D' && pos_ + 1 < text_.size()) {
      const char d = text_[pos_ + 1];
      pos_ += 2;
      if (d == 'h') {
        MangledType t;
        t.scalar = 'H';
        return t;
      }
      if (d != 'v') return std::nullopt;
      uint32_t count = 0;
      if (!Number(&count) || pos_ >= text_.size() || text_[pos_] != '_') return std::nullopt;
      ++pos_;
      std::optional<MangledType> element = ParseType();
      if (!element || element->vector != 0 || element->pointer) return std::nullopt;
      element->vector = count;
      substitutions_.push_back(*element);
      return element;
    }
    if (c == 'P') {
      ++pos_;
      std::optional<MangledType> pointee = ParseType();
      if (!pointee || pointee->pointer) return std::nullopt;  // no pointers to pointers here
      pointee->pointer = true;
      substitutions_.push_back(*pointee);
      return pointee;
    }
    if (c == 'U' || c == 'K' || c == 'V' || c == 'r') {
      // One group of qualifiers (vendor ones such as the address space first, then CV) and the
      // type they qualify: the qualified type is one substitution candidate.
      uint32_t address_space = 0;
      while (pos_ < text_.size() && (text_[pos_] == 'U' || text_[pos_] == 'K' ||
                                     text_[pos_] == 'V' || text_[pos_] == 'r')) {
        if (text_[pos_++] != 'U') continue;
        std::string qualifier;
        if (!SourceName(&qualifier)) return std::nullopt;
        if (qualifier.rfind("AS", 0) == 0 && qualifier.size() > 2) {
          address_space = 0;
          for (char digit : std::string_view(qualifier).substr(2)) {
            if (digit < '0' || digit > '9') return std::nullopt;
            address_space = address_space * 10 + static_cast<uint32_t>(digit - '0');
          }
        }
        // Other vendor qualifiers (_Atomic is `U7_Atomic`) do not change what is read.
      }
      std::optional<MangledType> inner = ParseType();
      if (!inner) return std::nullopt;
      inner->address_space = address_space;
      substitutions_.push_back(*inner);
      return inner;
    }
    if (c >= '1' && c <= '9') {
      MangledType t;
      if (!SourceName(&t.name)) return std::nullopt;
      substitutions_.push_back(t);
      return t;
    }
    if (c == 'S') {
      ++pos_;
      size_t index = 0;
      if (pos_ < text_.size() && text_[pos_] != '_') {
        size_t seq = 0;
        while (pos_ < text_.size() && text_[pos_] != '_') {
          const char s = text_[pos_++];
          size_t digit = 0;
          if (s >= '0' && s <= '9') {
            digit = static_cast<size_t>(s - '0');
          } else if (s >= 'A' && s <= 'Z') {
            digit = static_cast<size_t>(s - 'A') + 10;
          } else {
            return std::nullopt;  // St, Sa, ...: std:: abbreviations are not built-in types
          }
          seq = seq * 36 + digit;
          if (seq > 1000) return std::nullopt;
        }
        index = seq + 1;
      }
      if (pos_ >= text_.size() || index >= substitutions_.size()) return std::nullopt;
      ++pos_;  // '_'
      return substitutions_[index];
    }
    return std::nullopt;
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::vector<MangledType> substitutions_;
};

}  // namespace

bool MangledType::IsUnsignedInteger() const {
  return scalar == 'h' || scalar == 't' || scalar == 'j' || scalar == 'm';
}
bool MangledType::IsSignedInteger() const {
  return scalar == 'c' || scalar == 'a' || scalar == 's' || scalar == 'i' || scalar == 'l';
}

ParsedName ParseLinkageName(std::string_view linkage_name) {
  ParsedName parsed;
  // One reader of `_Z<length><name>` for the project: the device layer's (it names split
  // matrix rows by it); the parameters after it are read here.
  parsed.name.base = device::ItaniumBaseName(linkage_name);
  if (parsed.name.base.data() == linkage_name.data()) return parsed;  // not mangled
  parsed.mangled = true;
  const size_t params_start =
      static_cast<size_t>(parsed.name.base.data() - linkage_name.data()) + parsed.name.base.size();
  ParamParser parser(linkage_name.substr(params_start));
  parsed.params_known = parser.ParseAll(&parsed.name.params);
  if (!parsed.params_known) parsed.name.params.clear();
  return parsed;
}

}  // namespace xmx::builtins
