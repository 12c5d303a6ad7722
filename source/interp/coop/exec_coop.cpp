// Cooperative matrices (SPV_KHR_cooperative_matrix, SPV_INTEL_joint_matrix) apart from memory
// (exec_coop_memory.cpp) and multiply-add (exec_coop_mad.cpp): fill, the checked construct,
// OpCooperativeMatrixLengthKHR, OpCooperativeMatrixGetElementCoordINTEL and the bfloat16
// conversions (SPV_KHR_bfloat16) of scalars, vectors and matrices.
//
// Each invocation holds its slice of a matrix (coop_layout.hpp), so element-wise arithmetic,
// conversions between matrices of one shape, composite extract/insert, access chains into a
// matrix variable and phis are the vector handlers of the other families, on the slice.
#include <cstring>

#include "common/float_formats.hpp"
#include "common/rule_ids.hpp"
#include "interp/coop/coop_support.hpp"
#include "interp/load/load_checks.hpp"
#include "interp/load/loader.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {

bool BindCoopMemory(Loader& loader, const ir::Instruction& inst, Instr& out);
bool BindCoopMulAdd(Loader& loader, const ir::Instruction& inst, Instr& out);

namespace {

// Fill (OpCompositeConstruct with one constituent): op[0] the value, size its bytes, count the
// matrix's length.
const Instr* ExecCoopFill(Subgroup& sg, const Instr* in) {
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint8_t* v = sg.regs + in->op[0] + lane * in->size;
    uint8_t* out = sg.regs + in->result + lane * in->size * in->count;
    for (uint32_t e = 0; e < in->count; ++e) CopyBytes(out + e * in->size, v, in->size);
  });
  return in + 1;
}

struct ConstructCheckedData {
  CoopLayout layout;
  uint32_t x, y, height, width, value;  // slots
  uint32_t x_bytes, y_bytes, height_bytes, width_bytes;
  uint32_t check_uniform = 0;  // bits 0-3: X, Y, Height, Width
};

// OpCooperativeMatrixConstructCheckedINTEL: Value where the element lies inside the Height x
// Width matrix placed at (X, Y) = (row, column), 0 elsewhere (the checked load's bounds).
const Instr* ExecConstructChecked(Subgroup& sg, const Instr* in) {
  const ConstructCheckedData& d = *static_cast<const ConstructCheckedData*>(in->data);
  if (RequireWholeSubgroup(sg, in, "OpCooperativeMatrixConstructCheckedINTEL")) {
    return StopSubgroup(sg);
  }
  const uint32_t slots[] = {d.x, d.y, d.height, d.width};
  const uint32_t sizes[] = {d.x_bytes, d.y_bytes, d.height_bytes, d.width_bytes};
  const char* names[] = {"X offset", "Y offset", "Height", "Width"};
  for (int i = 0; i < 4; ++i) {
    if ((d.check_uniform >> i & 1) != 0 && RequireUniform(sg, in, slots[i], sizes[i], names[i])) {
      return StopSubgroup(sg);
    }
  }
  const int64_t x = LaneSInt(sg, d.x, d.x_bytes, 0), y = LaneSInt(sg, d.y, d.y_bytes, 0);
  const int64_t height = LaneSInt(sg, d.height, d.height_bytes, 0);
  const int64_t width = LaneSInt(sg, d.width, d.width_bytes, 0);
  const uint32_t eb = d.layout.element_bytes(), length = d.layout.length();
  for (uint32_t lane = 0; lane < sg.lanes; ++lane) {
    const uint8_t* v = sg.regs + d.value + lane * eb;
    uint8_t* out = sg.regs + in->result + lane * eb * length;
    for (uint32_t e = 0; e < length; ++e) {
      const CoopCoord c = d.layout.ElementCoord(e, lane);
      const __int128 row = __int128{x} + c.row, column = __int128{y} + c.column;
      if (row >= 0 && row < height && column >= 0 && column < width) {
        CopyBytes(out + e * eb, v, eb);
      } else {
        std::memset(out + e * eb, 0, eb);
      }
    }
  }
  return in + 1;
}

// OpCooperativeMatrixLengthKHR: aux the length, written as a 32-bit result.
const Instr* ExecCoopLength(Subgroup& sg, const Instr* in) {
  ForEachLane(sg.mask, [&](uint32_t lane) { sg.reg<uint32_t>(in->result)[lane] = in->aux; });
  return in + 1;
}

// OpCooperativeMatrixGetElementCoordINTEL: op[1] the index (count: its bytes); the result is
// (row, column) as two 32-bit integers. An index past the slice names no element.
const Instr* ExecGetElementCoord(Subgroup& sg, const Instr* in) {
  const CoopLayout& layout = *static_cast<const CoopLayout*>(in->data);
  bool stop = false;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    if (stop) return;
    const uint64_t index = LaneUInt(sg, in->op[1], in->count, lane);
    uint32_t* out = sg.reg<uint32_t>(in->result) + 2 * lane;
    if (index >= layout.length()) {
      out[0] = out[1] = 0;
      if (sg.group->checking()) {
        stop = ReportAt(sg, in, lane, rules::kCoopElementIndex,
                        "element index " + std::to_string(index) +
                            " is not an element of the invocation's slice (length " +
                            std::to_string(layout.length()) + ")");
      }
      return;
    }
    const CoopCoord c = layout.ElementCoord(static_cast<uint32_t>(index), lane);
    out[0] = c.row;
    out[1] = c.column;
  });
  return stop ? StopSubgroup(sg) : in + 1;
}

struct FloatConversion {
  CoopComponent from, to;
  RoundingMode mode;
};

double ReadFloat(CoopComponent c, const uint8_t* p) {
  switch (c) {
    case CoopComponent::kHalf:
      return DecodeFloat(LoadScalar<uint16_t>(p), kHalfFormat);
    case CoopComponent::kBFloat16:
      return DecodeFloat(LoadScalar<uint16_t>(p), kBFloat16Format);
    default:
      return LoadScalar<float>(p);
  }
}

void WriteFloat(CoopComponent c, uint8_t* p, double v, RoundingMode mode) {
  switch (c) {
    case CoopComponent::kHalf:
      StoreScalar<uint16_t>(p, static_cast<uint16_t>(EncodeFloat(v, kHalfFormat, mode)));
      break;
    case CoopComponent::kBFloat16:
      StoreScalar<uint16_t>(p, static_cast<uint16_t>(EncodeFloat(v, kBFloat16Format, mode)));
      break;
    default:
      StoreScalar<float>(p, DoubleToFloat(v, mode));
  }
}

uint32_t ComponentBytes(CoopComponent c) { return c == CoopComponent::kFloat ? 4 : 2; }

// OpFConvert from or to bfloat16: count elements per lane; one rounding, in the decoration's
// mode (to nearest even without one), straight from the exact value.
const Instr* ExecBFloat16Convert(Subgroup& sg, const Instr* in) {
  const FloatConversion& f = *static_cast<const FloatConversion*>(in->data);
  const uint32_t from_bytes = ComponentBytes(f.from), to_bytes = ComponentBytes(f.to);
  ForEachLane(sg.mask, [&](uint32_t lane) {
    const uint8_t* src = sg.regs + in->op[0] + lane * from_bytes * in->count;
    uint8_t* dst = sg.regs + in->result + lane * to_bytes * in->count;
    for (uint32_t e = 0; e < in->count; ++e) {
      WriteFloat(f.to, dst + e * to_bytes, ReadFloat(f.from, src + e * from_bytes), f.mode);
    }
  });
  return in + 1;
}

bool BindBFloat16Convert(Loader& loader, const ir::Instruction& inst, Instr& out) {
  const ir::TypeTable& types = loader.types();
  const uint32_t from_type = loader.ValueTypeId(inst.word(0));
  FloatConversion f{ComponentOf(types, from_type), ComponentOf(types, inst.result_type_id()),
                    RoundingMode::kNearestEven};
  auto supported = [](CoopComponent c) {
    return c == CoopComponent::kHalf || c == CoopComponent::kBFloat16 || c == CoopComponent::kFloat;
  };
  if (!supported(f.from) || !supported(f.to)) {
    return loader.Fail(inst, "xmx-run converts bfloat16 to and from half and float only");
  }
  if (std::optional<spv::FPRoundingMode> m = loader.RoundingMode(inst.result_id())) {
    f.mode = static_cast<RoundingMode>(static_cast<uint32_t>(*m) & 3);
  }
  out.fn = ExecBFloat16Convert;
  out.op[0] = loader.Slot(inst.word(0));
  out.result = loader.Slot(inst.result_id());
  out.count = loader.Type(inst.result_type_id()).value.components;
  out.data = loader.program().Own(f);
  return true;
}

bool IsMatrix(Loader& loader, uint32_t type_id) {
  const ir::Type* t = loader.types().GetType(type_id);
  return t != nullptr && t->kind == ir::TypeKind::kCooperativeMatrix;
}

bool IntegerOperand(Loader& loader, const ir::Instruction& inst, size_t i, const char* what) {
  if (loader.TypeOfValue(inst.word(i)).kind != ir::TypeKind::kInt) {
    return loader.Fail(inst, std::string(what) + " must be an integer scalar");
  }
  return true;
}

}  // namespace

bool BindCoop(Loader& loader, const ir::Instruction& inst, Instr& out) {
  using spv::Op;
  switch (inst.opcode()) {
    case Op::OpCooperativeMatrixLoadKHR:
    case Op::OpCooperativeMatrixStoreKHR:
    case Op::OpCooperativeMatrixLoadCheckedINTEL:
    case Op::OpCooperativeMatrixStoreCheckedINTEL:
    case Op::OpCooperativeMatrixPrefetchINTEL:
      return BindCoopMemory(loader, inst, out);
    case Op::OpCooperativeMatrixMulAddKHR:
      return BindCoopMulAdd(loader, inst, out);
    case Op::OpCompositeConstruct: {
      if (!IsMatrix(loader, inst.result_type_id())) return false;
      const TypeInfo& result = loader.Type(inst.result_type_id());
      if (inst.num_operands() != 1 || loader.ValueTypeId(inst.word(0)) != result.type->element) {
        return loader.Fail(inst,
                           "a cooperative matrix is constructed from one value of its "
                           "component type");
      }
      out.fn = ExecCoopFill;
      out.op[0] = loader.Slot(inst.word(0));
      out.result = loader.Slot(inst.result_id());
      out.size = result.value.scalar.bytes;
      out.count = result.value.components;
      return true;
    }
    case Op::OpCooperativeMatrixConstructCheckedINTEL: {
      if (inst.num_operands() < 5) return loader.Fail(inst, "missing operands");
      std::string why;
      std::optional<CoopLayout> layout = loader.CoopLayoutOf(inst.result_type_id(), &why);
      if (!layout) return loader.Fail(inst, "the Result Type: " + why);
      const TypeInfo& result = loader.Type(inst.result_type_id());
      if (loader.ValueTypeId(inst.word(4)) != result.type->element) {
        return loader.Fail(inst, "Value must have the matrix's component type");
      }
      ConstructCheckedData d{*layout, 0, 0, 0, 0, 0, 0, 0, 0, 0};
      const char* names[] = {"X offset", "Y offset", "Height", "Width"};
      uint32_t* slots[] = {&d.x, &d.y, &d.height, &d.width};
      uint32_t* sizes[] = {&d.x_bytes, &d.y_bytes, &d.height_bytes, &d.width_bytes};
      for (int i = 0; i < 4; ++i) {
        if (!IntegerOperand(loader, inst, i, names[i])) return false;
        *slots[i] = loader.Slot(inst.word(i));
        *sizes[i] = loader.TypeOfValue(inst.word(i)).lane_bytes;
        if (!loader.KnownUniform(inst.word(i))) d.check_uniform |= 1u << i;
      }
      d.value = loader.Slot(inst.word(4));
      out.fn = ExecConstructChecked;
      out.result = loader.Slot(inst.result_id());
      out.data = loader.program().Own(d);
      return true;
    }
    case Op::OpCooperativeMatrixLengthKHR: {
      // The operand is the matrix type (a value id, as older producers wrote, is read as its
      // type: the validator reports it).
      if (inst.num_operands() < 1) return loader.Fail(inst, "missing the Type operand");
      uint32_t type = inst.word(0);
      if (!IsMatrix(loader, type)) type = loader.ValueTypeId(type);
      std::string why;
      std::optional<CoopLayout> layout = loader.CoopLayoutOf(type, &why);
      if (!layout) return loader.Fail(inst, "Type: " + why);
      if (loader.Type(inst.result_type_id()).kind != ir::TypeKind::kInt ||
          loader.Type(inst.result_type_id()).lane_bytes != 4) {
        return loader.Fail(inst, "the result must be a 32-bit integer");
      }
      out.fn = ExecCoopLength;
      out.result = loader.Slot(inst.result_id());
      out.aux = layout->length();
      return true;
    }
    case Op::OpCooperativeMatrixGetElementCoordINTEL: {
      if (inst.num_operands() < 2) return loader.Fail(inst, "missing operands");
      std::string why;
      std::optional<CoopLayout> layout =
          loader.CoopLayoutOf(loader.ValueTypeId(inst.word(0)), &why);
      if (!layout) return loader.Fail(inst, "Matrix: " + why);
      const TypeInfo& result = loader.Type(inst.result_type_id());
      if (result.kind != ir::TypeKind::kVector || result.value.components != 2 ||
          result.value.scalar.kind != ScalarKind::kInt || result.value.scalar.bytes != 4) {
        return loader.Fail(inst, "the result must be a vector of two 32-bit integers");
      }
      if (!IntegerOperand(loader, inst, 1, "Element Index")) return false;
      out.fn = ExecGetElementCoord;
      out.result = loader.Slot(inst.result_id());
      out.op[1] = loader.Slot(inst.word(1));
      out.count = loader.TypeOfValue(inst.word(1)).lane_bytes;
      out.data = loader.program().Own(*layout);
      return true;
    }
    case Op::OpFConvert:
      if (inst.num_operands() < 1 ||
          (!HasBFloat16Components(loader.types(), inst.result_type_id()) &&
           !HasBFloat16Components(loader.types(), loader.ValueTypeId(inst.word(0))))) {
        return false;
      }
      return BindBFloat16Convert(loader, inst, out);
    default:
      return false;
  }
}

}  // namespace xmx::interp
