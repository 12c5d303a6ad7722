// Builds benchmark modules word by word, with fresh ids.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "xmx/module.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::bench {

class Builder {
 public:
  uint32_t Id() { return next_id_++; }
  void Inst(spv::Op op, std::initializer_list<uint32_t> operands) {
    words_.push_back(uint32_t(operands.size() + 1) << 16 | static_cast<uint32_t>(op));
    words_.insert(words_.end(), operands);
  }
  // An instruction whose words `before` (its result id if it has one, then ids or enumerants)
  // are followed by a literal string.
  void Named(spv::Op op, std::initializer_list<uint32_t> before, std::string_view s) {
    ir::Instruction inst(op);
    const uint32_t* word = before.begin();
    if (inst.has_result_id()) inst.set_result_id(*word++);
    for (; word != before.end(); ++word) {
      inst.AddOperand(grammar::OperandKindId::kLiteralInteger, {*word});
    }
    inst.AddStringOperand(s);
    inst.AppendWords(&words_);
  }
  std::vector<uint32_t> Finish() {
    constexpr uint32_t kMagic = 0x07230203u;
    std::vector<uint32_t> module = {kMagic, 0x00010400, 6u << 16, next_id_, 0};
    module.insert(module.end(), words_.begin(), words_.end());
    return module;
  }
  size_t size() const { return words_.size(); }
  // Puts `other`'s instructions before the instruction that starts at word `position` (a value
  // size() had), for sections filled after what follows them, such as debug names.
  void InsertAt(size_t position, const Builder& other) {
    words_.insert(words_.begin() + std::ptrdiff_t(position), other.words_.begin(),
                  other.words_.end());
  }

 private:
  uint32_t next_id_ = 1;
  std::vector<uint32_t> words_;
};

}  // namespace xmx::bench
