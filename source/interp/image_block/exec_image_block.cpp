// Intel image block read/write (OpSubgroupImageBlockReadINTEL / WriteINTEL, SPEC-NOTES C.2,
// C.3): a subgroup moves a block of an image without format conversion. The Coordinate is
// (x, y) with x a BYTE column and y a row; component j of invocation i is the S bytes (S: the
// size of the data's component type) at byte column x + i * S of row y + j.
//
// Bounds (C.3): the hardware checks them in units of 4 bytes (a uint), which is exact only for
// 4-byte texel formats. Our reading, for every image: a read takes each byte from its 4-byte
// unit clamped to the row ([0, row bytes / 4 - 1]) and its row clamped to [0, height - 1]
// ("clamp to edge"), keeping the byte's place within the unit; a written byte whose unit or row
// lies outside the image is dropped. Undefined behaviour reported (rules): a subgroup that is not
// whole (subgroup.not-whole), an image or coordinate that differs between invocations
// (subgroup.non-uniform), a write whose x is not a multiple of 4 (image.misaligned-write), an
// image whose texels are wider than 4 bytes (image.texel-size), a write to a read_only image
// (memory.read-only).
#include <algorithm>

#include "interp/load/loader.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

// op[0]: image, op[1]: coordinate, op[2]: data (write); result: data (read). size: bytes per
// component, count: components, aux: bytes per coordinate component. op[3]: which operands need
// the run-time uniformity check (bit 0 image, bit 1 coordinate).
template <bool kWrite>
const Instr* ExecImageBlock(Subgroup& sg, const Instr* in) {
  const char* const name =
      kWrite ? "OpSubgroupImageBlockWriteINTEL" : "OpSubgroupImageBlockReadINTEL";
  if (RequireWholeSubgroup(sg, in, name)) return StopSubgroup(sg);
  const uint32_t check = in->op[3];
  if ((check & 1) != 0 && RequireUniform(sg, in, in->op[0], 8, "the image")) {
    return StopSubgroup(sg);
  }
  const uint32_t coord_bytes = in->aux;
  if ((check & 2) != 0 && RequireUniform(sg, in, in->op[1], 2 * coord_bytes, "the coordinate")) {
    return StopSubgroup(sg);
  }
  const uint64_t handle = sg.reg<uint64_t>(in->op[0])[0];
  const Allocation* a = sg.group->allocations->Find(PointerAllocation(handle));
  if (a == nullptr || a->image_rows == 0) {
    if (sg.group->checking() &&
        ReportAt(sg, in, 0, "memory.invalid-pointer",
                 "image operand " + HexPointer(handle) + " is not an image argument")) {
      return StopSubgroup(sg);
    }
    return in + 1;
  }
  const int64_t x = LaneSInt(sg, in->op[1], coord_bytes, 0);
  const int64_t y = LaneSInt(sg, in->op[1] + coord_bytes, coord_bytes, 0);
  if (sg.group->checking()) {
    if (a->image_texel_bytes > 4 &&
        ReportAt(sg, in, 0, "image.texel-size",
                 std::string(name) + " on an image of " + std::to_string(a->image_texel_bytes) +
                     "-byte texels: bounds are checked in 4-byte units, so only texels of at "
                     "most 4 bytes are defined")) {
      return StopSubgroup(sg);
    }
    if (kWrite && x % 4 != 0 &&
        ReportAt(sg, in, 0, "image.misaligned-write",
                 "image block write at byte column " + std::to_string(x) +
                     ", which is not a multiple of 4")) {
      return StopSubgroup(sg);
    }
    if (kWrite && a->read_only &&
        ReportAt(sg, in, 0, "memory.read-only",
                 "image block write to " + DescribeAllocation(*a) + ", declared read_only")) {
      return StopSubgroup(sg);
    }
  }
  if (kWrite && a->read_only) return in + 1;  // never written, even with --check=off
  const int64_t row_bytes = static_cast<int64_t>(a->image_row_bytes);
  const int64_t rows = static_cast<int64_t>(a->image_rows);
  const int64_t units = row_bytes / 4;
  const uint32_t element = in->size, n = in->count;
  uint8_t* data = a->data;
  uint8_t* regs = sg.regs + (kWrite ? in->op[2] : in->result);
  for (uint32_t j = 0; j < n; ++j) {
    int64_t row = y + j;
    if (!kWrite) row = std::clamp<int64_t>(row, 0, rows - 1);
    if (kWrite && (row < 0 || row >= rows)) continue;
    uint8_t* row_data = data + row * row_bytes;
    for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
      uint8_t* value = regs + (size_t{lane} * n + j) * element;
      const int64_t first = x + int64_t{lane} * element;
      for (uint32_t b = 0; b < element; ++b) {
        const int64_t byte = first + b;
        const int64_t unit = byte >= 0 ? byte / 4 : -((-byte + 3) / 4);
        const int64_t within = byte - unit * 4;
        if (kWrite) {
          if (unit >= 0 && unit < units) row_data[unit * 4 + within] = value[b];
        } else {
          value[b] = row_data[std::clamp<int64_t>(unit, 0, units - 1) * 4 + within];
        }
      }
    }
  }
  return in + 1;
}

}  // namespace

bool BindImageBlock(Loader& loader, const ir::Instruction& inst, Instr& out) {
  const bool write = inst.opcode() == spv::Op::OpSubgroupImageBlockWriteINTEL;
  if (!write && inst.opcode() != spv::Op::OpSubgroupImageBlockReadINTEL) return false;
  const TypeInfo& value =
      write ? loader.TypeOfValue(inst.word(2)) : loader.Type(inst.result_type_id());
  const TypeInfo& coordinate = loader.TypeOfValue(inst.word(1));
  if (coordinate.value.components != 2 || coordinate.value.scalar.kind != ScalarKind::kInt) {
    return loader.Fail(inst, "the coordinate must be a 2-component integer vector");
  }
  out.fn = write ? ExecImageBlock<true> : ExecImageBlock<false>;
  out.op[0] = loader.Slot(inst.word(0));
  out.op[1] = loader.Slot(inst.word(1));
  if (write) {
    out.op[2] = loader.Slot(inst.word(2));
  } else {
    out.result = loader.Slot(inst.result_id());
  }
  out.size = value.value.scalar.bytes;
  out.count = value.value.components;
  out.aux = coordinate.value.scalar.bytes;
  // Which operands the loader could not prove uniform (uniformity.hpp).
  out.op[3] =
      (loader.KnownUniform(inst.word(0)) ? 0 : 1) | (loader.KnownUniform(inst.word(1)) ? 0 : 2);
  return true;
}

}  // namespace xmx::interp
