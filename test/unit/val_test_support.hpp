// What the validator's tests share: assembling a module from text, and reading diagnostics.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "text/assembler.hpp"
#include "xmx/module.hpp"
#include "xmx/validator.hpp"

namespace xmx::val::testing {

// Assembles `text` as a SPIR-V 1.4 module (what LLVM's backend emits); a failure fails the test.
inline std::vector<uint32_t> Assemble(const std::string& text) {
  std::vector<uint32_t> words;
  Diagnostic err;
  text::AssembleOptions options;
  options.version = 0x00010400;
  EXPECT_TRUE(text::Assemble(text, options, &words, &err)) << err.Format() << "\n" << text;
  return words;
}

// The id an OpName names `name`; a missing name fails the test (a misspelt name must not make a
// negative check pass).
inline uint32_t NamedId(const ir::Module& module, std::string_view name) {
  for (const ir::Instruction& inst : module.debug()) {
    if (inst.opcode() == spv::Op::OpName && inst.StringOperand(1) == name) return inst.word(0);
  }
  ADD_FAILURE() << "no OpName " << name;
  return 0;
}

// Every diagnostic with its rule, for failure messages.
inline std::string Dump(const ValidationResult& r) {
  std::string s;
  for (const Diagnostic& d : r.diagnostics) s += d.rule + ": " + d.Format() + "\n";
  return s;
}

inline int CountRule(const ValidationResult& r, const std::string& rule, Severity severity) {
  int n = 0;
  for (const Diagnostic& d : r.diagnostics) n += d.rule == rule && d.severity == severity;
  return n;
}

inline bool HasRule(const ValidationResult& r, const std::string& rule, Severity severity) {
  return CountRule(r, rule, severity) > 0;
}

}  // namespace xmx::val::testing
