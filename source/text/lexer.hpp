// The word-level reader of the assembler. It reproduces spirv-as's notion of words, whitespace,
// comments and positions exactly (AssemblyContext in SPIRV-Tools' text_handler.cpp), because
// positions appear in diagnostics and word boundaries decide what the text means: a quoted word
// may span spaces and lines, a backslash escapes the next character, and a NUL ends the text.
#pragma once

#include <cstddef>
#include <string_view>

namespace xmx::text {

// 0-based, as spirv-as tracks them; a newline inside a quoted word advances only the column.
struct Position {
  size_t line = 0;
  size_t column = 0;
  size_t index = 0;
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  // Skips whitespace and ';' comments. Returns false at the end of the text (or at a NUL).
  bool Advance();
  // The word starting at the current position; *next receives the position just after it.
  // The current position is left unchanged.
  std::string_view GetWord(Position* next) const;
  // True if the text at the current position starts with "Op" and an upper-case letter.
  bool StartsWithOp() const;
  // True if the next word starts an instruction: "OpX…", or "%id" followed by "=".
  bool IsStartOfNewInst() const;
  bool HasText() const { return pos_.index < text_.size(); }
  char Peek() const { return HasText() ? text_[pos_.index] : '\0'; }

  const Position& position() const { return pos_; }
  void set_position(const Position& pos) { pos_ = pos; }
  // Moves the column and index forward by `n` characters on the current line.
  void SeekForward(size_t n) {
    pos_.column += n;
    pos_.index += n;
  }

 private:
  static bool AdvanceFrom(std::string_view text, Position* pos);
  static std::string_view WordAt(std::string_view text, Position* pos);

  std::string_view text_;
  Position pos_;
};

}  // namespace xmx::text
