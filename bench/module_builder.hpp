// Builds benchmark modules word by word, with fresh ids.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "binary/parser.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::bench {

class Builder {
 public:
  uint32_t Id() { return next_id_++; }
  void Inst(spv::Op op, std::initializer_list<uint32_t> operands) {
    words_.push_back(uint32_t(operands.size() + 1) << 16 | static_cast<uint32_t>(op));
    words_.insert(words_.end(), operands);
  }
  void Named(spv::Op op, std::vector<uint32_t> before, std::string_view s) {
    xmx::binary::EncodeString(s, &before);
    words_.push_back(uint32_t(before.size() + 1) << 16 | static_cast<uint32_t>(op));
    words_.insert(words_.end(), before.begin(), before.end());
  }
  std::vector<uint32_t> Finish() {
    std::vector<uint32_t> module = {xmx::binary::kMagic, 0x00010400, 6u << 16, next_id_, 0};
    module.insert(module.end(), words_.begin(), words_.end());
    return module;
  }
  size_t size() const { return words_.size(); }

 private:
  uint32_t next_id_ = 1;
  std::vector<uint32_t> words_;
};

}  // namespace xmx::bench
