#include "text/lexer.hpp"

namespace xmx::text {

bool Lexer::AdvanceFrom(std::string_view text, Position* pos) {
  while (pos->index < text.size()) {
    switch (text[pos->index]) {
      case '\0':
        return false;
      case ';':
        // A comment runs to the end of the line; the newline is consumed with it.
        while (true) {
          if (pos->index >= text.size() || text[pos->index] == '\0') return false;
          if (text[pos->index] == '\n') {
            pos->column = 0;
            ++pos->line;
            ++pos->index;
            break;
          }
          ++pos->column;
          ++pos->index;
        }
        continue;
      case ' ':
      case '\t':
      case '\r':
        ++pos->column;
        ++pos->index;
        continue;
      case '\n':
        pos->column = 0;
        ++pos->line;
        ++pos->index;
        continue;
      default:
        return true;
    }
  }
  return false;
}

std::string_view Lexer::WordAt(std::string_view text, Position* pos) {
  const size_t start = pos->index;
  bool quoting = false;
  bool escaping = false;
  while (pos->index < text.size()) {
    const char ch = text[pos->index];
    if (ch == '\\') {
      escaping = !escaping;
    } else {
      switch (ch) {
        case '"':
          if (!escaping) quoting = !quoting;
          break;
        case ' ':
        case ';':
        case '\t':
        case '\n':
        case '\r':
          if (escaping || quoting) break;
          return text.substr(start, pos->index - start);
        case '\0':
          return text.substr(start, pos->index - start);
        default:
          break;
      }
      escaping = false;
    }
    ++pos->column;
    ++pos->index;
  }
  return text.substr(start, pos->index - start);
}

bool Lexer::Advance() { return AdvanceFrom(text_, &pos_); }

std::string_view Lexer::GetWord(Position* next) const {
  *next = pos_;
  return WordAt(text_, next);
}

bool Lexer::StartsWithOp() const {
  if (text_.size() < pos_.index + 3) return false;
  const char c2 = text_[pos_.index + 2];
  return text_[pos_.index] == 'O' && text_[pos_.index + 1] == 'p' && c2 >= 'A' && c2 <= 'Z';
}

bool Lexer::IsStartOfNewInst() const {
  Position pos = pos_;
  if (!AdvanceFrom(text_, &pos)) return false;
  Lexer at(text_);
  at.pos_ = pos;
  if (at.StartsWithOp()) return true;
  // spirv-as reads this word from the unadvanced position; callers have always advanced.
  pos = pos_;
  const std::string_view word = WordAt(text_, &pos);
  if (word.empty() || word.front() != '%') return false;
  if (!AdvanceFrom(text_, &pos)) return false;
  return WordAt(text_, &pos) == "=";
}

}  // namespace xmx::text
