// The friendly id names of spirv-dis (SPIRV-Tools' FriendlyNameMapper): OpName strings and
// BuiltIn decorations first, then names derived from types ("uint", "v3ulong",
// "_ptr_CrossWorkgroup_float", "_arr_float_uint_4") and constants ("uint_4", "float_n0_5"),
// otherwise the id number. Names are sanitised to [A-Za-z0-9_] and made unique with "_0", "_1"...
// in instruction order. Ids that were never defined print as their number.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "binary/parser.hpp"

namespace xmx::text {

class FriendlyNames {
 public:
  // `bound` is the header's id bound; `max_dense` caps the memory a lying bound can claim.
  void Reset(uint32_t bound, size_t max_dense);

  // Records the names an instruction suggests. Call for every instruction, in module order.
  void OnInstruction(const binary::ParsedInstruction& inst);

  // Appends the name of `id` (without '%').
  void Append(uint32_t id, std::string* out) const {
    const Entry* e = Find(id);
    if (e && e->length != kNumeric) {
      out->append(arena_, e->offset, e->length);
    } else {
      AppendDecimal(id, out);
    }
  }
  size_t Length(uint32_t id) const {
    const Entry* e = Find(id);
    return (e && e->length != kNumeric) ? e->length : DecimalLength(id);
  }
  std::string Name(uint32_t id) const {
    std::string s;
    Append(id, &s);
    return s;
  }

  // Replaces every character outside [A-Za-z0-9_] by '_'; the empty name becomes "_".
  static std::string Sanitize(std::string_view name);

 private:
  static constexpr uint32_t kNumeric = 0xFFFFFFFFu;  // the name is the id's own number
  struct Entry {
    uint32_t offset = 0;
    uint32_t length = 0;
    bool present = false;
  };

  static void AppendDecimal(uint32_t value, std::string* out);
  static size_t DecimalLength(uint32_t value);

  const Entry* Find(uint32_t id) const {
    if (id < dense_.size()) return dense_[id].present ? &dense_[id] : nullptr;
    if (sparse_.empty()) return nullptr;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? nullptr : &it->second;
  }
  Entry* Slot(uint32_t id);
  bool Has(uint32_t id) const { return Find(id) != nullptr; }

  // Saves `suggested` (sanitised, uniqued) as the name of `id` unless it already has one.
  void Save(uint32_t id, std::string_view suggested);
  // The id's own number, as the fallback name; uniqued like any other name.
  void SaveNumeric(uint32_t id);
  // Claims `name` if unused; returns false if it was taken.
  bool Claim(std::string_view name);
  // Records `name` (already sanitised and unique) for `id`.
  void Store(uint32_t id, std::string_view name);

  std::string arena_;  // every non-numeric name, back to back
  std::vector<Entry> dense_;
  std::unordered_map<uint32_t, Entry> sparse_;
  // Names in use. Canonical decimal names ("17") are kept as numbers, so that the common case,
  // an id named by its number, costs no allocation.
  std::vector<uint8_t> used_numbers_dense_;
  std::unordered_set<uint32_t> used_numbers_sparse_;
  std::unordered_set<std::string> used_names_;
  std::unordered_map<std::string, uint32_t> next_suffix_;  // base "name_" -> next index to try
  std::string scratch_;
};

}  // namespace xmx::text
