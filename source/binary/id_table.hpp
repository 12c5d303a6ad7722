// A map from SPIR-V ids to small values: a dense vector for the ids a module of this size can
// reasonably use, a hash map beyond, so that a header claiming a bound of 2^32 cannot make us
// allocate gigabytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace xmx::binary {

template <typename T>
class IdTable {
 public:
  // Ids below min(bound, max_dense) are stored densely.
  void Reserve(uint32_t bound, size_t max_dense) {
    dense_limit_ = std::min<size_t>(bound, max_dense);
  }
  // Makes room for the ids below min(count, the dense limit) at once, for a table that will
  // be set for most ids of the module: growing it step by step allocates several times.
  void Presize(size_t count) {
    const size_t size = std::min(count, dense_limit_);
    if (size > dense_.size()) {
      dense_.resize(size);
      present_.resize(size, 0);
    }
  }

  void Set(uint32_t id, const T& value) {
    if (id < dense_limit_) {
      if (id >= dense_.size()) {
        dense_.resize(std::max<size_t>(id + 1, std::min(dense_limit_, dense_.size() * 2 + 64)));
        present_.resize(dense_.size(), 0);
      }
      dense_[id] = value;
      present_[id] = 1;
    } else {
      sparse_[id] = value;
    }
  }

  const T* Get(uint32_t id) const {
    if (id < dense_.size()) return present_[id] ? &dense_[id] : nullptr;
    if (id < dense_limit_ || sparse_.empty()) return nullptr;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? nullptr : &it->second;
  }

 private:
  size_t dense_limit_ = 1u << 16;
  std::vector<T> dense_;
  std::vector<uint8_t> present_;
  std::unordered_map<uint32_t, T> sparse_;
};

}  // namespace xmx::binary
