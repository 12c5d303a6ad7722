// The pointer operations (pointer_operations.hpp). Pointers are the interpreter's own encoding
// (allocation and offset, model/memory.hpp): a cast keeps the value, and the storage class a
// generic pointer points into is the storage of the allocation it names.
#include <algorithm>
#include <cstring>

#include "interp/memory/pointer_operations.hpp"
#include "interp/run/exec_shared.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {

// OpGenericCastToPtrExplicit: null unless the pointer points into the storage class asked for.
const Instr* ExecGenericCastExplicit(Subgroup& sg, const Instr* in) {
  const uint64_t* src = sg.reg<uint64_t>(in->op[0]);
  uint64_t* result = sg.reg<uint64_t>(in->result);
  const auto storage = static_cast<spv::StorageClass>(in->aux);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const Allocation* a = sg.group->allocations->Find(PointerAllocation(src[lane]));
    bool match = a != nullptr && a->storage == storage;
    if (a != nullptr && storage == spv::StorageClass::Function) {
      match = a->storage == spv::StorageClass::Function || a->storage == spv::StorageClass::Input;
    }
    result[lane] = match ? src[lane] : 0;
  });
  return in + 1;
}

namespace {

const Instr* ExecCopyPointer(Subgroup& sg, const Instr* in) {
  CopyLanes(sg, in->result, in->op[0], 8);
  return in + 1;
}

const Instr* ExecGenericPtrMemSemantics(Subgroup& sg, const Instr* in) {
  const uint64_t* src = sg.reg<uint64_t>(in->op[0]);
  uint32_t* result = sg.reg<uint32_t>(in->result);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const Allocation* a = sg.group->allocations->Find(PointerAllocation(src[lane]));
    uint32_t bits = 0;
    if (a != nullptr && a->storage == spv::StorageClass::Workgroup) bits = 0x100;
    if (a != nullptr && a->storage == spv::StorageClass::CrossWorkgroup) bits = 0x200;
    result[lane] = bits;
  });
  return in + 1;
}

// in->size: bytes of the integer; in->count: 1 for a Physical32 module.
const Instr* ExecConvertPtrToU(Subgroup& sg, const Instr* in) {
  const uint64_t* src = sg.reg<uint64_t>(in->op[0]);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint64_t v = in->count != 0 ? PointerTo32(src[lane]) : src[lane];
    std::memcpy(sg.regs + in->result + lane * in->size, &v, in->size);
  });
  return in + 1;
}

const Instr* ExecConvertUToPtr(Subgroup& sg, const Instr* in) {
  uint64_t* result = sg.reg<uint64_t>(in->result);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint64_t v = LaneUInt(sg, in->op[0], in->size, lane);
    result[lane] = in->count != 0 ? PointerFrom32(static_cast<uint32_t>(v)) : v;
  });
  return in + 1;
}

template <bool kEqual>
const Instr* ExecPtrCompare(Subgroup& sg, const Instr* in) {
  const uint64_t* a = sg.reg<uint64_t>(in->op[0]);
  const uint64_t* b = sg.reg<uint64_t>(in->op[1]);
  uint8_t* result = sg.regs + in->result;
  ForEachLane(sg.mask, [&](uint32_t lane) { result[lane] = (a[lane] == b[lane]) == kEqual; });
  return in + 1;
}

// OpPtrDiff: (a - b) / element size, as a signed integer of in->size bytes.
const Instr* ExecPtrDiff(Subgroup& sg, const Instr* in) {
  const uint64_t* a = sg.reg<uint64_t>(in->op[0]);
  const uint64_t* b = sg.reg<uint64_t>(in->op[1]);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const int64_t diff = (static_cast<int64_t>(PointerOffset(a[lane])) -
                          static_cast<int64_t>(PointerOffset(b[lane]))) /
                         static_cast<int64_t>(std::max<uint32_t>(in->aux, 1));
    std::memcpy(sg.regs + in->result + lane * in->size, &diff, in->size);
  });
  return in + 1;
}

}  // namespace

bool BindPointerOperation(Loader& loader, const ir::Instruction& inst, Instr& out) {
  const bool physical32 = loader.program().pointer_bytes == 4;
  switch (inst.opcode()) {
    case spv::Op::OpPtrCastToGeneric:
    case spv::Op::OpGenericCastToPtr:
      if (const std::optional<PrivateAddress> a = loader.PrivateAddressOf(inst.word(0))) {
        loader.RecordPrivateAddress(inst.result_id(), *a);
      }
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      // A result that shares its operand's slot (invariant_code.hpp) needs no copy.
      if (out.result != out.op[0]) out.fn = ExecCopyPointer;
      return true;
    case spv::Op::OpGenericCastToPtrExplicit:
      out.fn = ExecGenericCastExplicit;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.aux = inst.word(1);
      return true;
    case spv::Op::OpGenericPtrMemSemantics:
      out.fn = ExecGenericPtrMemSemantics;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      return true;
    case spv::Op::OpConvertPtrToU:
      out.fn = ExecConvertPtrToU;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.size = loader.Type(inst.result_type_id()).lane_bytes;
      out.count = physical32;
      return true;
    case spv::Op::OpConvertUToPtr:
      out.fn = ExecConvertUToPtr;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.size = loader.TypeOfValue(inst.word(0)).lane_bytes;
      out.count = physical32;
      return true;
    case spv::Op::OpPtrEqual:
    case spv::Op::OpPtrNotEqual:
      out.fn = inst.opcode() == spv::Op::OpPtrEqual ? ExecPtrCompare<true> : ExecPtrCompare<false>;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.op[1] = loader.Slot(inst.word(1));
      return true;
    case spv::Op::OpPtrDiff:
      out.fn = ExecPtrDiff;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      out.op[1] = loader.Slot(inst.word(1));
      out.size = loader.Type(inst.result_type_id()).lane_bytes;
      out.aux =
          static_cast<uint32_t>(loader.Type(loader.TypeOfValue(inst.word(0)).pointee).memory_bytes);
      return true;
    default:
      return false;
  }
}

}  // namespace xmx::interp
