// OpExtInst of the OpenCL.std set: element-wise math, integer, common, geometric and relational
// instructions come from opencl_std.hpp (bound once per instruction); the memory ones (vload*,
// vstore*), shuffles, printf and prefetch are here, since they need the executor's memory.
#include <cinttypes>
#include <cstdio>

#include "interp/load/loader.hpp"
#include "interp/opencl_std/opencl_std.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

enum ExtNumber : uint32_t {
  kVloadN = 171,
  kVstoreN = 172,
  kVloadHalf = 173,
  kVloadHalfN = 174,
  kVstoreHalf = 175,
  kVstoreHalfR = 176,
  kVstoreHalfN = 177,
  kVstoreHalfNR = 178,
  kVloadaHalfN = 179,
  kVstoreaHalfN = 180,
  kVstoreaHalfNR = 181,
  kShuffle = 182,
  kShuffle2 = 183,
  kPrintf = 184,
  kPrefetch = 185,
};

struct ElementwiseData {
  OpenCLStdCall call;
  uint32_t operand_slots[3];
  uint32_t operand_bytes[3];
  uint32_t pointer_slot;  // out-parameter pointer (frexp, modf, ...), 0 when none
  uint32_t second_slot;   // scratch slot for the out-parameter's values
};

const Instr* ExecElementwise(Subgroup& sg, const Instr* in) {
  const ElementwiseData& d = *static_cast<const ElementwiseData*>(in->data);
  const uint32_t result_bytes = d.call.result.lane_bytes();
  const uint32_t second_bytes = d.call.second_result.lane_bytes();
  if (sg.full) {
    const uint8_t* operands[3];
    for (int i = 0; i < 3; ++i) operands[i] = sg.regs + d.operand_slots[i];
    d.call.fn(d.call, sg.regs + in->result, operands, sg.regs + d.second_slot, sg.lanes);
  } else {
    ForEachLane(sg.mask, [&](uint32_t lane) {
      const uint8_t* operands[3];
      for (int i = 0; i < 3; ++i) {
        operands[i] = sg.regs + d.operand_slots[i] + lane * d.operand_bytes[i];
      }
      d.call.fn(d.call, sg.regs + in->result + lane * result_bytes, operands,
                sg.regs + d.second_slot + lane * second_bytes, 1);
    });
  }
  if (d.pointer_slot != 0) {
    bool stop = false;
    const uint64_t* ptr = sg.reg<uint64_t>(d.pointer_slot);
    uint64_t m = sg.mask;
    while (m != 0) {
      const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
      m &= m - 1;
      uint8_t* dst = AccessMemory(sg, in, lane, ptr[lane], second_bytes,
                                  d.call.second_result.scalar.bytes, AccessKind::kWrite, &stop);
      if (dst != nullptr) {
        std::memcpy(dst, sg.regs + d.second_slot + lane * second_bytes, second_bytes);
      } else if (stop) {
        return StopSubgroup(sg);
      }
    }
  }
  return in + 1;
}

// vload/vstore families. in->aux: the ext number; data: VectorMemoryData.
struct VectorMemoryData {
  uint32_t number;
  uint32_t components;     // n
  uint32_t element_bytes;  // of memory elements (2 for the half forms)
  uint32_t value_bytes;    // of register components (half forms: float or double)
  uint32_t stride;         // elements per offset step (vloada/vstorea of 3: 4)
  uint32_t data_slot, offset_slot, offset_bytes, pointer_slot;
  RoundingMode mode;
  bool half;
};

const Instr* ExecVectorMemory(Subgroup& sg, const Instr* in) {
  const VectorMemoryData& d = *static_cast<const VectorMemoryData*>(in->data);
  const bool store = d.data_slot != 0;
  const uint64_t* ptr = sg.reg<uint64_t>(d.pointer_slot);
  const uint32_t bytes = d.components * d.element_bytes;
  bool stop = false;
  uint64_t m = sg.mask;
  while (m != 0) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(m));
    m &= m - 1;
    const uint64_t offset = LaneUInt(sg, d.offset_slot, d.offset_bytes, lane);
    const uint64_t p = MakePointer(PointerAllocation(ptr[lane]),
                                   PointerOffset(ptr[lane]) + offset * d.stride * d.element_bytes);
    const uint32_t align = d.stride != d.components || d.number == kVloadaHalfN ||
                                   d.number == kVstoreaHalfN || d.number == kVstoreaHalfNR
                               ? d.stride * d.element_bytes
                               : d.element_bytes;
    uint8_t* mem = AccessMemory(sg, in, lane, p, bytes, align,
                                store ? AccessKind::kWrite : AccessKind::kRead, &stop);
    if (mem == nullptr) {
      if (stop) return StopSubgroup(sg);
      continue;
    }
    uint8_t* reg =
        sg.regs + (store ? d.data_slot : in->result) + lane * d.components * d.value_bytes;
    if (!d.half) {
      if (store) {
        std::memcpy(mem, reg, bytes);
      } else {
        std::memcpy(reg, mem, bytes);
      }
      continue;
    }
    for (uint32_t c = 0; c < d.components; ++c) {
      if (store) {
        const double v =
            d.value_bytes == 8 ? LoadScalar<double>(reg + c * 8) : LoadScalar<float>(reg + c * 4);
        StoreScalar<uint16_t>(mem + c * 2, FloatToHalf(v, d.mode));
      } else {
        const float v = HalfToFloat(LoadScalar<uint16_t>(mem + c * 2));
        if (d.value_bytes == 8) {
          StoreScalar<double>(reg + c * 8, v);
        } else {
          StoreScalar<float>(reg + c * 4, v);
        }
      }
    }
  }
  return in + 1;
}

// shuffle(x, mask) / shuffle2(x, y, mask): component i of the result is component
// mask[i] mod (n or 2n) of x (then y).
struct ShuffleData {
  uint32_t x_slot, y_slot, mask_slot;
  uint32_t n_in, n_out, element_bytes, mask_bytes;
};
const Instr* ExecShuffle(Subgroup& sg, const Instr* in) {
  const ShuffleData& d = *static_cast<const ShuffleData*>(in->data);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    for (uint32_t i = 0; i < d.n_out; ++i) {
      uint64_t sel = 0;
      std::memcpy(&sel, sg.regs + d.mask_slot + (lane * d.n_out + i) * d.mask_bytes, d.mask_bytes);
      sel %= d.y_slot != 0 ? 2 * d.n_in : d.n_in;
      const uint32_t slot = sel < d.n_in ? d.x_slot : d.y_slot;
      const uint64_t c = sel % d.n_in;
      std::memcpy(sg.regs + in->result + (lane * d.n_out + i) * d.element_bytes,
                  sg.regs + slot + (lane * d.n_in + c) * d.element_bytes, d.element_bytes);
    }
  });
  return in + 1;
}

const Instr* ExecPrefetch(Subgroup&, const Instr* in) { return in + 1; }

}  // namespace

// printf lives in exec_printf.cpp.
bool BindPrintf(Loader& loader, const ir::Instruction& inst, Instr& out);

bool BindExtInst(Loader& loader, const ir::Instruction& inst, Instr& out) {
  if (inst.opcode() != spv::Op::OpExtInst) return false;
  const uint32_t set = inst.word(0);
  const uint32_t number = inst.word(1);
  if (set != loader.opencl_std_set() || loader.opencl_std_set() == 0) {
    // Non-semantic sets (debug information) have no effect on execution.
    const TypeInfo& result = loader.Type(inst.result_type_id());
    if (result.kind == ir::TypeKind::kVoid) {
      out.fn = nullptr;
      return true;
    }
    return loader.Fail(inst, "xmx-run executes only the OpenCL.std extended instruction set");
  }
  auto value_operand = [&](size_t i) { return inst.word(2 + i); };
  const TypeInfo& result = loader.Type(inst.result_type_id());
  switch (number) {
    case kVloadN:
    case kVloadHalf:
    case kVloadHalfN:
    case kVloadaHalfN:
    case kVstoreN:
    case kVstoreHalf:
    case kVstoreHalfR:
    case kVstoreHalfN:
    case kVstoreHalfNR:
    case kVstoreaHalfN:
    case kVstoreaHalfNR: {
      VectorMemoryData d{};
      d.number = number;
      const bool store = number == kVstoreN || (number >= kVstoreHalf && number != kVloadaHalfN);
      d.half = number != kVloadN && number != kVstoreN;
      if (store) {
        const TypeInfo& data = loader.TypeOfValue(value_operand(0));
        d.data_slot = loader.Slot(value_operand(0));
        d.components = data.value.components;
        d.value_bytes = data.value.scalar.bytes;
        d.offset_slot = loader.Slot(value_operand(1));
        d.offset_bytes = loader.TypeOfValue(value_operand(1)).lane_bytes;
        d.pointer_slot = loader.Slot(value_operand(2));
        d.mode = RoundingMode::kNearestEven;
        if (number == kVstoreHalfR || number == kVstoreHalfNR || number == kVstoreaHalfNR) {
          switch (static_cast<spv::FPRoundingMode>(inst.word(5))) {
            case spv::FPRoundingMode::RTZ:
              d.mode = RoundingMode::kTowardZero;
              break;
            case spv::FPRoundingMode::RTP:
              d.mode = RoundingMode::kTowardPositive;
              break;
            case spv::FPRoundingMode::RTN:
              d.mode = RoundingMode::kTowardNegative;
              break;
            default:
              break;
          }
        }
      } else {
        d.components = result.value.components;
        d.value_bytes = result.value.scalar.bytes;
        d.offset_slot = loader.Slot(value_operand(0));
        d.offset_bytes = loader.TypeOfValue(value_operand(0)).lane_bytes;
        d.pointer_slot = loader.Slot(value_operand(1));
        out.result = loader.Slot(inst.result_id());
      }
      d.element_bytes = d.half ? 2 : d.value_bytes;
      d.stride = d.components;
      if ((number == kVloadaHalfN || number == kVstoreaHalfN || number == kVstoreaHalfNR) &&
          d.components == 3) {
        d.stride = 4;
      }
      if (number == kVloadHalf || number == kVstoreHalf || number == kVstoreHalfR) d.stride = 1;
      out.fn = ExecVectorMemory;
      out.data = loader.program().Own(d);
      return true;
    }
    case kShuffle:
    case kShuffle2: {
      ShuffleData d{};
      const bool two = number == kShuffle2;
      const TypeInfo& x = loader.TypeOfValue(value_operand(0));
      d.x_slot = loader.Slot(value_operand(0));
      d.y_slot = two ? loader.Slot(value_operand(1)) : 0;
      const uint32_t mask = value_operand(two ? 2 : 1);
      d.mask_slot = loader.Slot(mask);
      d.mask_bytes = loader.TypeOfValue(mask).value.scalar.bytes;
      d.n_in = x.value.components;
      d.n_out = result.value.components;
      d.element_bytes = x.value.scalar.bytes;
      out.fn = ExecShuffle;
      out.result = loader.Slot(inst.result_id());
      out.data = loader.program().Own(d);
      return true;
    }
    case kPrintf:
      return BindPrintf(loader, inst, out);
    case kPrefetch:
      out.fn = ExecPrefetch;  // a hint: no effect on results
      return true;
    default:
      break;
  }
  // Element-wise: every operand is a value, except a trailing out-parameter pointer.
  std::vector<ValueType> operand_types;
  ElementwiseData d{};
  const size_t count = inst.num_operands() - 2;
  for (size_t i = 0; i < count && i < 3; ++i) {
    const TypeInfo& t = loader.TypeOfValue(value_operand(i));
    if (t.kind == ir::TypeKind::kPointer) {
      d.pointer_slot = loader.Slot(value_operand(i));
      break;
    }
    operand_types.push_back(t.value);
    d.operand_slots[i] = loader.Slot(value_operand(i));
    d.operand_bytes[i] = t.lane_bytes;
  }
  std::string why;
  std::optional<OpenCLStdCall> call = BindOpenCLStd(number, result.value, operand_types, &why);
  if (!call)
    return loader.Fail(inst, "OpenCL.std instruction " + std::to_string(number) + ": " + why);
  d.call = *call;
  if (d.pointer_slot != 0) {
    if (d.call.second_result.components == 0) {
      return loader.Fail(inst, "unexpected pointer operand");
    }
    d.second_slot = loader.ScratchSlot(d.call.second_result.lane_bytes());
  } else {
    d.second_slot = loader.ScratchSlot(std::max<uint32_t>(d.call.second_result.lane_bytes(), 8));
  }
  out.fn = ExecElementwise;
  out.result = loader.Slot(inst.result_id());
  out.data = loader.program().Own(d);
  return true;
}

}  // namespace xmx::interp
