// Copies between a whole cooperative matrix's slot and the registers of one native operand of a
// multiply-add split into native operations (exec_coop_mad.cpp). A native operand is a block of
// the whole matrix; in Intel's mapping each of its invocations' elements is a stretch of
// consecutive elements of the same invocation's slice (rows in order within a column block), so
// the copy is a few runs of bytes contiguous on both sides: made once at load time from the
// per-element table, copied at run time with a fixed run length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace xmx::interp {

class CoopCopyRuns {
 public:
  CoopCopyRuns() = default;
  // `table[i]` is the byte offset in the slot of the native operand's element i, which lies at
  // byte i * element_bytes of the native registers.
  CoopCopyRuns(const std::vector<uint32_t>& table, uint32_t element_bytes);

  // native <- slot, and slot <- native. The two do not overlap.
  void Gather(uint8_t* native, const uint8_t* slot) const;
  void Scatter(const uint8_t* native, uint8_t* slot) const;

  uint32_t run_bytes() const { return run_bytes_; }
  size_t runs() const { return runs_.size(); }

 private:
  template <bool kGather>
  void Copy(uint8_t* native, uint8_t* slot) const;

  uint32_t run_bytes_ = 0;  // every run's length: the greatest common divisor of the stretches
  std::vector<std::pair<uint32_t, uint32_t>> runs_;  // (native offset, slot offset)
};

}  // namespace xmx::interp
