// SPV_INTEL_subgroups (SPEC-NOTES C.2): shuffles, which work in divergent code and read other
// invocations' values (an inactive or out-of-range source gives an undefined value: all bits
// zero, and a warning that never stops the run, DECISIONS.md 16),
// and buffer block reads/writes, which need the whole subgroup and a uniform pointer.
#include "interp/load/loader.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

enum class ShuffleKind : uint32_t { kIndex, kDown, kUp, kXor };

// op[0] data (Current for down, Previous for up), op[1] Next (down) / Current (up), op[2] the
// index/delta/value operand; size = bytes per lane; count = bytes of the index operand.
const Instr* ExecIntelShuffle(Subgroup& sg, const Instr* in) {
  const ShuffleKind kind = static_cast<ShuffleKind>(in->aux);
  const uint32_t size = in->size;
  const uint32_t lanes = sg.lanes;  // SubgroupMaxSize
  // The result has its own slot (SSA), so the operands can be read while it is written.
  const uint8_t* first = sg.regs + in->op[0];
  const uint8_t* second = sg.regs + in->op[1];
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint64_t operand = LaneUInt(sg, in->op[2], in->count, lane);
    const uint8_t* source_data = first;
    int64_t source = -1;
    switch (kind) {
      case ShuffleKind::kIndex:
        source = static_cast<int64_t>(operand);
        break;
      case ShuffleKind::kXor:
        source = static_cast<int64_t>(lane ^ operand);
        break;
      case ShuffleKind::kDown: {
        const uint64_t index = lane + (operand & 0xFFFFFFFF);
        if (index < lanes) {
          source = static_cast<int64_t>(index);
        } else if (index < 2ull * lanes) {
          source = static_cast<int64_t>(index - lanes);
          source_data = second;
        } else {
          source = INT64_MAX;
        }
        break;
      }
      case ShuffleKind::kUp: {
        const int64_t index = static_cast<int64_t>(lane) - static_cast<int32_t>(operand);
        if (index >= 0 && index < lanes) {
          source = index;
          source_data = second;  // Current
        } else if (index < 0 && index >= -static_cast<int64_t>(lanes)) {
          source = index + lanes;  // Previous
        } else {
          source = INT64_MAX;
        }
        break;
      }
    }
    uint8_t* dst = sg.regs + in->result + lane * size;
    if (source < 0 || source >= lanes || ((sg.mask >> source) & 1) == 0) {
      std::memset(dst, 0, size);  // the undefined value's pattern: all bits zero
      WarnUndefinedValue(sg, in, lane, kUndefinedSourceRule, [&] {
        return "shuffle reads invocation " +
               (source == INT64_MAX || source >= lanes || source < 0
                    ? std::string("out of range (operand ") + std::to_string(operand) + ")"
                    : std::to_string(source) + ", which did not execute it") +
               ": an undefined value, all bits zero";
      });
      return;
    }
    std::memcpy(dst, source_data + source * size, size);
  });
  return in + 1;
}

// Block read: component j of lane l = Ptr[l + j * SubgroupMaxSize]. size = component bytes,
// count = components, aux = required alignment.
template <bool kWrite>
const Instr* ExecBlockIO(Subgroup& sg, const Instr* in) {
  if (RequireWholeSubgroup(sg, in,
                           kWrite ? "OpSubgroupBlockWriteINTEL" : "OpSubgroupBlockReadINTEL")) {
    return StopSubgroup(sg);
  }
  if (RequireUniform(sg, in, in->op[0], 8, "the block pointer")) return StopSubgroup(sg);
  const uint32_t element = in->size, n = in->count, lanes = sg.lanes;
  const uint64_t base = sg.reg<uint64_t>(in->op[0])[0];
  bool stop = false;
  if (PointerOffset(base) % in->aux != 0 && sg.group->checking()) {
    if (ReportAt(sg, in, 0, "subgroup.block-alignment",
                 std::string("block ") + (kWrite ? "write" : "read") + " pointer at offset " +
                     std::to_string(PointerOffset(base)) + " is not " + std::to_string(in->aux) +
                     "-byte aligned")) {
      return StopSubgroup(sg);
    }
  }
  uint8_t* mem = AccessMemory(sg, in, 0, base, uint64_t{element} * n * lanes, element,
                              kWrite ? AccessKind::kWrite : AccessKind::kRead, &stop);
  if (mem == nullptr) {
    if (stop) return StopSubgroup(sg);
    return in + 1;
  }
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    for (uint32_t j = 0; j < n; ++j) {
      uint8_t* m = mem + (size_t{lane} + size_t{j} * lanes) * element;
      uint8_t* r = sg.regs + (kWrite ? in->op[1] : in->result) + (lane * n + j) * element;
      if (kWrite) {
        std::memcpy(m, r, element);
      } else {
        std::memcpy(r, m, element);
      }
    }
  }
  return in + 1;
}

}  // namespace

bool BindIntelSubgroups(Loader& loader, const ir::Instruction& inst, Instr& out) {
  using spv::Op;
  switch (inst.opcode()) {
    case Op::OpSubgroupShuffleINTEL:
    case Op::OpSubgroupShuffleXorINTEL:
      out.fn = ExecIntelShuffle;
      out.aux = static_cast<uint32_t>(
          inst.opcode() == Op::OpSubgroupShuffleINTEL ? ShuffleKind::kIndex : ShuffleKind::kXor);
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.op[2] = loader.Slot(inst.word(1));
      out.size = loader.Type(inst.result_type_id()).lane_bytes;
      out.count = loader.TypeOfValue(inst.word(1)).lane_bytes;
      return true;
    case Op::OpSubgroupShuffleDownINTEL:
    case Op::OpSubgroupShuffleUpINTEL:
      out.fn = ExecIntelShuffle;
      out.aux = static_cast<uint32_t>(
          inst.opcode() == Op::OpSubgroupShuffleDownINTEL ? ShuffleKind::kDown : ShuffleKind::kUp);
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.op[1] = loader.Slot(inst.word(1));
      out.op[2] = loader.Slot(inst.word(2));
      out.size = loader.Type(inst.result_type_id()).lane_bytes;
      out.count = loader.TypeOfValue(inst.word(2)).lane_bytes;
      return true;
    case Op::OpSubgroupBlockReadINTEL:
    case Op::OpSubgroupBlockWriteINTEL: {
      const bool write = inst.opcode() == Op::OpSubgroupBlockWriteINTEL;
      const TypeInfo& value =
          write ? loader.TypeOfValue(inst.word(1)) : loader.Type(inst.result_type_id());
      const TypeInfo& pointer = loader.TypeOfValue(inst.word(0));
      out.fn = write ? ExecBlockIO<true> : ExecBlockIO<false>;
      out.op[0] = loader.Slot(inst.word(0));
      if (write) {
        out.op[1] = loader.Slot(inst.word(1));
      } else {
        out.result = loader.Slot(inst.result_id());
      }
      out.size = value.value.scalar.bytes;
      out.count = value.value.components;
      // C.3: reads 4-byte aligned, writes 16-byte aligned; local memory 16 for both.
      out.aux = write || pointer.storage == spv::StorageClass::Workgroup ? 16 : 4;
      return true;
    }
    case Op::OpSubgroupImageMediaBlockReadINTEL:
    case Op::OpSubgroupImageMediaBlockWriteINTEL:
      return loader.Fail(inst,
                         "xmx-run does not execute media block instructions "
                         "(SPV_INTEL_media_block_io)");
    default:
      return false;
  }
}

}  // namespace xmx::interp
