#include "interp/coop/coop_runs.hpp"

#include <cstring>
#include <numeric>

namespace xmx::interp {

CoopCopyRuns::CoopCopyRuns(const std::vector<uint32_t>& table, uint32_t element_bytes) {
  // The maximal stretches: consecutive native elements at consecutive slot elements.
  std::vector<std::pair<uint32_t, uint32_t>> stretches;  // (first element, length)
  for (uint32_t i = 0; i < table.size(); ++i) {
    if (i > 0 && table[i] == table[i - 1] + element_bytes) {
      ++stretches.back().second;
    } else {
      stretches.emplace_back(i, 1);
    }
  }
  uint32_t elements = 0;
  for (const auto& s : stretches) elements = std::gcd(elements, s.second);
  run_bytes_ = elements * element_bytes;
  for (const auto& [first, length] : stretches) {
    for (uint32_t i = first; i < first + length; i += elements) {
      runs_.emplace_back(i * element_bytes, table[i]);
    }
  }
}

namespace {

template <uint32_t kBytes, bool kGather>
void CopyFixed(const std::vector<std::pair<uint32_t, uint32_t>>& runs, uint8_t* native,
               uint8_t* slot) {
  for (const auto& [n, s] : runs) {
    if constexpr (kGather) {
      std::memcpy(native + n, slot + s, kBytes);
    } else {
      std::memcpy(slot + s, native + n, kBytes);
    }
  }
}

}  // namespace

template <bool kGather>
void CoopCopyRuns::Copy(uint8_t* native, uint8_t* slot) const {
  // The lengths Intel's mapping gives: a native row block's rows of one column (8 elements of 1,
  // 2 or 4 bytes), B's K rows (16 or 32 of 2 or 1 bytes, 8 of 4), or whole slices.
  switch (run_bytes_) {
    case 8:
      return CopyFixed<8, kGather>(runs_, native, slot);
    case 16:
      return CopyFixed<16, kGather>(runs_, native, slot);
    case 32:
      return CopyFixed<32, kGather>(runs_, native, slot);
    case 64:
      return CopyFixed<64, kGather>(runs_, native, slot);
    default:
      for (const auto& [n, s] : runs_) {
        if constexpr (kGather) {
          std::memcpy(native + n, slot + s, run_bytes_);
        } else {
          std::memcpy(slot + s, native + n, run_bytes_);
        }
      }
  }
}

void CoopCopyRuns::Gather(uint8_t* native, const uint8_t* slot) const {
  Copy<true>(native, const_cast<uint8_t*>(slot));  // only read when gathering
}

void CoopCopyRuns::Scatter(const uint8_t* native, uint8_t* slot) const {
  Copy<false>(const_cast<uint8_t*>(native), slot);  // only read when scattering
}

}  // namespace xmx::interp
