// The five SPV_INTEL_2d_block_io instructions: the block mapping is block2d.hpp's (prepared at
// load time from the constant operands); here the operands are checked for uniformity and the
// A.3 restrictions, and the payload moves between the block and each invocation's private
// memory.
#include "common/rule_ids.hpp"
#include "device/block2d_classes.hpp"
#include "interp/block2d/block2d.hpp"
#include "interp/load/loader.hpp"
#include "interp/run/exec_support.hpp"
#include "ir/block2d_operands.hpp"

namespace xmx::interp {
namespace {

struct Block2dData {
  Block2dPayloadLayout layout;
  // Register slots and byte sizes of base, width, height, pitch, coordinate, private pointer.
  uint32_t base, width, height, pitch, coord, private_pointer;
  uint32_t width_bytes, height_bytes, pitch_bytes, coord_component_bytes;
  uint32_t payload;  // scratch slot for the payload
  // Which of base, width, height, pitch, coordinate (bits 0-4) need the run-time uniformity
  // check: the loader proves the others uniform.
  uint32_t check_uniform = 0;
  // The private pointer when the loader knows it (PrivateAddress, loader.hpp) and the payload
  // of every invocation lies inside its own copy of the variable, suitably aligned: then
  // known_private_variable + 1, else 0.
  uint32_t known_private_variable = 0;
  uint32_t known_private_offset = 0;
};

// Every invocation's payload bytes, lane i's at the result + i * *stride, when they lie in the
// work-items' private memory and the access is plainly allowed; else nullptr.
uint8_t* PrivateLanes(Subgroup& sg, const Block2dData& d, bool write, size_t* stride) {
  const uint32_t per_lane = d.layout.payload_bytes_per_lane();
  if (d.known_private_variable != 0 && sg.lanes <= 64 &&
      sg.mask == (~uint64_t{0} >> (64 - sg.lanes))) {
    const WorkGroup& g = *sg.group;
    const PrivateLayout& layout = g.program->private_layout;
    *stride = layout.bytes_per_item;
    return g.private_base + sg.first_item * *stride + layout.offsets[d.known_private_variable - 1] +
           d.known_private_offset;
  }
  return LaneStridedPrivate(sg, sg.reg<uint64_t>(d.private_pointer), per_lane,
                            d.layout.shape().element_size, write, stride);
}

const char* const kOperandNames[] = {"Base Pointer", "Memory Width", "Memory Height",
                                     "Memory Pitch", "Coordinate"};

// Every lane of the subgroup is a work-item and active: RequireWholeSubgroup's passing test,
// inline, since it passes on nearly every execution and the call cost more than the test.
inline bool WholeSubgroup(const Subgroup& sg) {
  return sg.mask == sg.live_mask &&
         sg.live_mask == (sg.lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << sg.lanes) - 1);
}

const Instr* ExecBlock2d(Subgroup& sg, const Instr* in) {
  const Block2dData& d = *static_cast<const Block2dData*>(in->data);
  const Block2dOp op = d.layout.shape().op;
  if (!WholeSubgroup(sg) && RequireWholeSubgroup(sg, in, "2D block instruction")) {
    return StopSubgroup(sg);
  }
  const uint32_t slots[] = {d.base, d.width, d.height, d.pitch, d.coord};
  const uint32_t bytes[] = {8, d.width_bytes, d.height_bytes, d.pitch_bytes,
                            2 * d.coord_component_bytes};
  for (int i = 0; i < 5; ++i) {
    if ((d.check_uniform >> i & 1) != 0 &&
        RequireUniform(sg, in, slots[i], bytes[i], kOperandNames[i]))
      return StopSubgroup(sg);
  }
  const uint64_t base = sg.reg<uint64_t>(d.base)[0];
  Allocation* a = const_cast<Allocation*>(sg.group->allocations->Find(PointerAllocation(base)));
  Block2dMutableSurface surface;
  surface.data = a != nullptr ? a->data : nullptr;
  surface.allocation_size = a != nullptr ? a->size : 0;
  surface.base_offset = PointerOffset(base);
  surface.width = LaneSInt(sg, d.width, d.width_bytes, 0);
  surface.height = LaneSInt(sg, d.height, d.height_bytes, 0);
  surface.pitch = LaneSInt(sg, d.pitch, d.pitch_bytes, 0);
  surface.x = LaneSInt(sg, d.coord, d.coord_component_bytes, 0);
  surface.y = LaneSInt(sg, d.coord + d.coord_component_bytes, d.coord_component_bytes, 0);
  if (a == nullptr) {
    if (sg.group->checking() &&
        ReportAt(sg, in, 0, base == 0 ? rules::kMemoryNull : rules::kMemoryInvalidPointer,
                 "2D block base pointer " + HexPointer(base) + " points to no allocation")) {
      return StopSubgroup(sg);
    }
    return in + 1;
  }
  // The plain case (no report possible, the block wholly inside, the payload one transposition
  // of the private bytes): straight between memory and the work-items' private bytes. Not when
  // the block itself lies in private memory (a kernel's mistake, but it runs): the general
  // path stages the payload, which keeps overlapping source and destination apart.
  uint64_t first_row_byte = 0;
  if (d.layout.is_covering_transposition() && PlainBlock2d(d.layout, surface, &first_row_byte)) {
    if (op == Block2dOp::kPrefetch) return in + 1;
    const uint32_t block_allocation = PointerAllocation(base);
    const bool private_block =
        block_allocation >= sg.group->private_first && block_allocation < sg.group->private_end;
    size_t stride = 0;
    if (!private_block) {
      if (op == Block2dOp::kStore) {
        if (const uint8_t* lanes = PrivateLanes(sg, d, /*write=*/false, &stride)) {
          if (!a->read_only) {
            TransposeBlockFromLanes(d.layout, lanes, stride, a->data + first_row_byte,
                                    surface.pitch);
          }
          return in + 1;
        }
      } else if (uint8_t* lanes = PrivateLanes(sg, d, /*write=*/true, &stride)) {
        TransposeBlockIntoLanes(d.layout, a->data + first_row_byte, surface.pitch, lanes, stride);
        return in + 1;
      }
    }
  }
  if (sg.group->checking()) {
    if (std::optional<std::string> problem = CheckBlock2d(d.layout, surface)) {
      if (ReportAt(sg, in, 0, rules::kBlock2dRestriction, *problem)) return StopSubgroup(sg);
    }
  }
  if (op == Block2dOp::kPrefetch) return in + 1;
  const uint32_t per_lane = d.layout.payload_bytes_per_lane();
  uint8_t* payload = sg.regs + d.payload;
  const uint64_t* private_pointer = sg.reg<uint64_t>(d.private_pointer);
  const uint32_t align = d.layout.shape().element_size;
  bool stop = false;
  size_t stride = 0;
  if (op == Block2dOp::kStore) {
    if (const uint8_t* src = LaneStridedPrivate(sg, private_pointer, per_lane, align,
                                                /*write=*/false, &stride)) {
      for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
        CopyBytes(payload + lane * per_lane, src + lane * stride, per_lane);
      }
      if (!a->read_only) StoreBlock2d(d.layout, surface, payload);
      return in + 1;
    }
    for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
      const uint8_t* src = AccessMemory(sg, in, lane, private_pointer[lane], per_lane, align,
                                        AccessKind::kRead, &stop);
      if (src == nullptr) {
        if (stop) return StopSubgroup(sg);
        std::memset(payload + lane * per_lane, 0, per_lane);
      } else {
        CopyBytes(payload + lane * per_lane, src, per_lane);
      }
    }
    if (!a->read_only) StoreBlock2d(d.layout, surface, payload);
    return in + 1;
  }
  uint8_t* const strided =
      LaneStridedPrivate(sg, private_pointer, per_lane, align, /*write=*/true, &stride);
  // The usual load (a private array of every work-item, a block wholly inside) goes straight
  // into the work-items' private bytes: no payload to stage and copy. Not when the block itself
  // lies in private memory (a kernel's mistake, but it runs): staging keeps overlapping
  // source and destination apart.
  const uint32_t source = PointerAllocation(base);
  const bool private_source = source >= sg.group->private_first && source < sg.group->private_end;
  if (strided != nullptr && !private_source &&
      LoadBlock2dIntoLanes(d.layout, surface, strided, stride)) {
    return in + 1;
  }
  LoadBlock2d(d.layout, surface, payload);
  if (strided != nullptr) {
    for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
      CopyBytes(strided + lane * stride, payload + lane * per_lane, per_lane);
    }
    return in + 1;
  }
  for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
    uint8_t* dst = AccessMemory(sg, in, lane, private_pointer[lane], per_lane, align,
                                AccessKind::kWrite, &stop);
    if (dst == nullptr) {
      if (stop) return StopSubgroup(sg);
      continue;
    }
    CopyBytes(dst, payload + lane * per_lane, per_lane);
  }
  return in + 1;
}

}  // namespace

bool BindBlock2d(Loader& loader, const ir::Instruction& inst, Instr& out) {
  const ir::Block2dOperandPositions* positions = ir::FindBlock2dOperandPositions(inst.opcode());
  if (positions == nullptr) return false;
  const std::optional<ir::Block2dOperands> operands = ir::DecodeBlock2dOperands(inst);
  if (!operands) return loader.Fail(inst, "too few operands for a 2D block instruction");
  const std::optional<Block2dOp> op = device::Block2dOpOf(positions->op_class);
  if (!op) return loader.Fail(inst, "xmx-run has no semantics for this 2D block instruction");
  Block2dShape shape;
  shape.op = *op;
  const std::pair<const char*, uint32_t> dimensions[] = {{"Element Size", operands->element_size},
                                                         {"Block Width", operands->block_width},
                                                         {"Block Height", operands->block_height},
                                                         {"Block Count", operands->block_count}};
  uint32_t* fields[] = {&shape.element_size, &shape.block_width, &shape.block_height,
                        &shape.block_count};
  for (int i = 0; i < 4; ++i) {
    const std::optional<uint64_t> v = loader.ConstantValue(dimensions[i].second);
    if (!v) return loader.Fail(inst, std::string(dimensions[i].first) + " must be a constant");
    *fields[i] = static_cast<uint32_t>(*v);
  }
  shape.subgroup_size = loader.subgroup_size();
  std::string why;
  std::optional<Block2dPayloadLayout> layout = Block2dPayloadLayout::Prepare(shape, &why);
  if (!layout) return loader.Fail(inst, "xmx-run cannot execute this 2D block shape: " + why);
  Block2dData d{*layout, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  d.base = loader.Slot(operands->base_pointer);
  d.width = loader.Slot(operands->memory_width);
  d.height = loader.Slot(operands->memory_height);
  d.pitch = loader.Slot(operands->memory_pitch);
  d.coord = loader.Slot(operands->coordinate);
  d.width_bytes = loader.TypeOfValue(operands->memory_width).lane_bytes;
  d.height_bytes = loader.TypeOfValue(operands->memory_height).lane_bytes;
  d.pitch_bytes = loader.TypeOfValue(operands->memory_pitch).lane_bytes;
  d.coord_component_bytes = loader.TypeOfValue(operands->coordinate).value.scalar.bytes;
  if (shape.op != Block2dOp::kPrefetch) d.private_pointer = loader.Slot(operands->private_pointer);
  // In the order ExecBlock2d checks them (kOperandNames).
  const uint32_t checked[] = {operands->base_pointer, operands->memory_width,
                              operands->memory_height, operands->memory_pitch,
                              operands->coordinate};
  for (uint32_t i = 0; i < 5; ++i) {
    if (!loader.KnownUniform(checked[i])) d.check_uniform |= 1u << i;
  }
  if (shape.op != Block2dOp::kPrefetch) {
    if (const std::optional<PrivateAddress> address =
            loader.PrivateAddressOf(operands->private_pointer)) {
      const VariableInfo& v = loader.program().private_variables[address->variable];
      const uint32_t per_lane = layout->payload_bytes_per_lane();
      if (v.storage == spv::StorageClass::Function && address->offset <= v.bytes &&
          per_lane <= v.bytes - address->offset && address->offset % shape.element_size == 0) {
        d.known_private_variable = address->variable + 1;
        d.known_private_offset = static_cast<uint32_t>(address->offset);
      }
    }
  }
  d.payload = loader.ScratchSlot(std::max<uint32_t>(layout->payload_bytes_per_lane(), 1));
  out.fn = ExecBlock2d;
  out.data = loader.program().Own(std::move(d));
  return true;
}

}  // namespace xmx::interp
