// Conversions between integer and float types of every width, with the rounding modes and
// saturation that FPRoundingMode / SaturatedConversion decorations ask for, and OpBitcast.
//
// Float to integer outside the result's range is undefined in OpenCL C without _sat; xmx-run
// saturates it (NaN gives 0), as the _sat conversions do, so the result never depends on the
// host's instructions.
#include <cmath>
#include <limits>

#include "interp/load/loader.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

enum class ConvertKind : uint8_t {
  kUToU,  // UConvert, SatConvertUToS (with saturation)
  kSToS,  // SConvert, SatConvertSToU (with saturation)
  kFToF,
  kFToU,
  kFToS,
  kUToF,
  kSToF,
};

struct ConvertData {
  ConvertKind kind;
  uint8_t from_bytes, to_bytes;
  bool saturate;
  bool to_signed;    // for integer saturation: the result is read as signed
  bool from_signed;  // for integer saturation: the source is read as signed
  RoundingMode mode;
};

double ReadFloat(const uint8_t* p, uint32_t bytes) {
  switch (bytes) {
    case 2:
      return HalfToFloat(LoadScalar<uint16_t>(p));
    case 4:
      return LoadScalar<float>(p);
    default:
      return LoadScalar<double>(p);
  }
}

void WriteFloat(uint8_t* p, uint32_t bytes, double v, RoundingMode mode) {
  switch (bytes) {
    case 2:
      StoreScalar<uint16_t>(p, FloatToHalf(v, mode));
      break;
    case 4:
      StoreScalar<float>(p, DoubleToFloat(v, mode));
      break;
    default:
      StoreScalar<double>(p, v);
      break;
  }
}

double RoundToIntegral(double v, RoundingMode mode) {
  switch (mode) {
    case RoundingMode::kNearestEven:
      return std::nearbyint(v);  // host default: to nearest even
    case RoundingMode::kTowardZero:
      return std::trunc(v);
    case RoundingMode::kTowardPositive:
      return std::ceil(v);
    case RoundingMode::kTowardNegative:
      return std::floor(v);
  }
  return v;
}

// Saturates an exact integral double into the integer range of `bytes`/`is_signed`.
uint64_t DoubleToInt(double v, uint32_t bytes, bool is_signed) {
  if (std::isnan(v)) return 0;
  const int bits = 8 * static_cast<int>(bytes);
  if (is_signed) {
    const double hi = std::ldexp(1.0, bits - 1);  // 2^(bits-1)
    if (v >= hi) return (uint64_t{1} << (bits - 1)) - 1;
    if (v < -hi) return uint64_t{1} << (bits - 1);
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
  const double hi = std::ldexp(1.0, bits);
  if (v <= 0) return 0;
  if (v >= hi) return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return static_cast<uint64_t>(v);
}

const Instr* ExecConvert(Subgroup& sg, const Instr* in) {
  const ConvertData& d = *static_cast<const ConvertData*>(in->data);
  const uint32_t n = in->count;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    for (uint32_t c = 0; c < n; ++c) {
      const uint8_t* src = sg.regs + in->op[0] + (lane * n + c) * d.from_bytes;
      uint8_t* dst = sg.regs + in->result + (lane * n + c) * d.to_bytes;
      switch (d.kind) {
        case ConvertKind::kUToU:
        case ConvertKind::kSToS: {
          uint64_t v = 0;
          std::memcpy(&v, src, d.from_bytes);
          const int from_bits = 8 * d.from_bytes, to_bits = 8 * d.to_bytes;
          int64_t sv = 0;
          if (d.kind == ConvertKind::kSToS && from_bits < 64) {
            sv = static_cast<int64_t>(v << (64 - from_bits)) >> (64 - from_bits);
            v = static_cast<uint64_t>(sv);
          } else {
            sv = static_cast<int64_t>(v);
          }
          if (d.saturate) {
            const bool source_signed = d.kind == ConvertKind::kSToS;
            if (d.to_signed) {
              const int64_t hi = to_bits == 64 ? INT64_MAX : (int64_t{1} << (to_bits - 1)) - 1;
              const int64_t lo = to_bits == 64 ? INT64_MIN : -(int64_t{1} << (to_bits - 1));
              if (source_signed) {
                sv = std::clamp(sv, lo, hi);
                v = static_cast<uint64_t>(sv);
              } else {
                v = std::min<uint64_t>(v, static_cast<uint64_t>(hi));
              }
            } else {
              const uint64_t hi = to_bits == 64 ? ~uint64_t{0} : (uint64_t{1} << to_bits) - 1;
              if (source_signed && sv < 0) {
                v = 0;
              } else {
                v = std::min<uint64_t>(v, hi);
              }
            }
          }
          std::memcpy(dst, &v, d.to_bytes);
          break;
        }
        case ConvertKind::kFToF:
          WriteFloat(dst, d.to_bytes, ReadFloat(src, d.from_bytes), d.mode);
          break;
        case ConvertKind::kFToU:
        case ConvertKind::kFToS: {
          const double v = RoundToIntegral(ReadFloat(src, d.from_bytes), d.mode);
          const uint64_t r = DoubleToInt(v, d.to_bytes, d.kind == ConvertKind::kFToS);
          std::memcpy(dst, &r, d.to_bytes);
          break;
        }
        case ConvertKind::kUToF:
        case ConvertKind::kSToF: {
          uint64_t v = 0;
          std::memcpy(&v, src, d.from_bytes);
          double value;
          if (d.kind == ConvertKind::kSToF) {
            const int shift = 64 - 8 * d.from_bytes;
            const int64_t s =
                shift == 0 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << shift) >> shift;
            if (d.to_bytes == 4 && d.mode == RoundingMode::kNearestEven) {
              StoreScalar<float>(dst, static_cast<float>(s));  // one rounding, straight from int
              break;
            }
            value = static_cast<double>(s);
          } else {
            if (d.to_bytes == 4 && d.mode == RoundingMode::kNearestEven) {
              StoreScalar<float>(dst, static_cast<float>(v));
              break;
            }
            value = static_cast<double>(v);
          }
          WriteFloat(dst, d.to_bytes, value, d.mode);
          break;
        }
      }
    }
  });
  return in + 1;
}

// OpUConvert / OpSConvert without saturation between the integer widths of 1, 2, 4 and 8 bytes:
// the value read as `From` (signed for OpSConvert, so it sign-extends), converted to `To`
// (truncating or extending). ExecConvert computes the same; this form has no per-element switch
// or variable-length copy, which made index widening (every access of -O0 code converts its
// index to 64 bits) one of the costliest instructions. Elements go in the same order as
// ExecConvert's, so even a result sharing its operand's slot ends up the same.
template <class From, class To>
const Instr* ExecIntResize(Subgroup& sg, const Instr* in) {
  const uint8_t* src = sg.regs + in->op[0];
  uint8_t* dst = sg.regs + in->result;
  const uint32_t n = in->count;
  auto convert = [&](uint32_t element) {
    StoreScalar<To>(dst + element * sizeof(To),
                    static_cast<To>(LoadScalar<From>(src + element * sizeof(From))));
  };
  if (sg.full && n == 1) {
    ForAllLanes(sg.lanes, convert);
    return in + 1;
  }
  if (sg.full) {
    const uint32_t elements = sg.lanes * n;
    for (uint32_t e = 0; e < elements; ++e) convert(e);
    return in + 1;
  }
  ForEachLane(sg.mask, [&](uint32_t lane) {
    for (uint32_t c = 0; c < n; ++c) convert(lane * n + c);
  });
  return in + 1;
}

template <class From>
Handler IntResizeTo(uint32_t to_bytes) {
  switch (to_bytes) {
    case 1:
      return ExecIntResize<From, uint8_t>;
    case 2:
      return ExecIntResize<From, uint16_t>;
    case 4:
      return ExecIntResize<From, uint32_t>;
    case 8:
      return ExecIntResize<From, uint64_t>;
    default:
      return nullptr;
  }
}

// The ExecIntResize for a plain (unsaturated) integer conversion, or nullptr.
Handler IntResizeHandler(const ConvertData& d) {
  if (d.saturate || (d.kind != ConvertKind::kUToU && d.kind != ConvertKind::kSToS)) return nullptr;
  const bool is_signed = d.kind == ConvertKind::kSToS;
  switch (d.from_bytes) {
    case 1:
      return is_signed ? IntResizeTo<int8_t>(d.to_bytes) : IntResizeTo<uint8_t>(d.to_bytes);
    case 2:
      return is_signed ? IntResizeTo<int16_t>(d.to_bytes) : IntResizeTo<uint16_t>(d.to_bytes);
    case 4:
      return is_signed ? IntResizeTo<int32_t>(d.to_bytes) : IntResizeTo<uint32_t>(d.to_bytes);
    case 8:
      return is_signed ? IntResizeTo<int64_t>(d.to_bytes) : IntResizeTo<uint64_t>(d.to_bytes);
    default:
      return nullptr;
  }
}

// Same-size reinterpretation; pointers and 32-bit integers convert in Physical32 modules.
const Instr* ExecBitcast(Subgroup& sg, const Instr* in) {
  CopyLanes(sg, in->result, in->op[0], in->size);
  return in + 1;
}
const Instr* ExecBitcastToPointer32(Subgroup& sg, const Instr* in) {
  ForEachLane(sg.mask, [&](uint32_t lane) {
    sg.reg<uint64_t>(in->result)[lane] = PointerFrom32(sg.reg<uint32_t>(in->op[0])[lane]);
  });
  return in + 1;
}
const Instr* ExecBitcastFromPointer32(Subgroup& sg, const Instr* in) {
  ForEachLane(sg.mask, [&](uint32_t lane) {
    sg.reg<uint32_t>(in->result)[lane] = PointerTo32(sg.reg<uint64_t>(in->op[0])[lane]);
  });
  return in + 1;
}

RoundingMode ToRounding(spv::FPRoundingMode m) {
  switch (m) {
    case spv::FPRoundingMode::RTZ:
      return RoundingMode::kTowardZero;
    case spv::FPRoundingMode::RTP:
      return RoundingMode::kTowardPositive;
    case spv::FPRoundingMode::RTN:
      return RoundingMode::kTowardNegative;
    default:
      return RoundingMode::kNearestEven;
  }
}

}  // namespace

bool BindConvert(Loader& loader, const ir::Instruction& inst, Instr& out) {
  using spv::Op;
  ConvertData d{};
  const Op op = inst.opcode();
  switch (op) {
    case Op::OpUConvert:
      d.kind = ConvertKind::kUToU;
      break;
    case Op::OpSConvert:
      d.kind = ConvertKind::kSToS;
      break;
    case Op::OpSatConvertUToS:
      d.kind = ConvertKind::kUToU;
      d.saturate = true;
      d.to_signed = true;
      break;
    case Op::OpSatConvertSToU:
      d.kind = ConvertKind::kSToS;
      d.saturate = true;
      d.to_signed = false;
      break;
    case Op::OpFConvert:
      d.kind = ConvertKind::kFToF;
      break;
    case Op::OpConvertFToU:
      d.kind = ConvertKind::kFToU;
      break;
    case Op::OpConvertFToS:
      d.kind = ConvertKind::kFToS;
      break;
    case Op::OpConvertUToF:
      d.kind = ConvertKind::kUToF;
      break;
    case Op::OpConvertSToF:
      d.kind = ConvertKind::kSToF;
      break;
    case Op::OpBitcast: {
      const TypeInfo& to = loader.Type(inst.result_type_id());
      const TypeInfo& from = loader.TypeOfValue(inst.word(0));
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(0));
      if (to.kind == ir::TypeKind::kPointer && from.kind != ir::TypeKind::kPointer &&
          from.lane_bytes == 4) {
        out.fn = ExecBitcastToPointer32;
        return true;
      }
      if (from.kind == ir::TypeKind::kPointer && to.kind != ir::TypeKind::kPointer &&
          to.lane_bytes == 4) {
        out.fn = ExecBitcastFromPointer32;
        return true;
      }
      if (to.lane_bytes != from.lane_bytes) {
        return loader.Fail(inst, "OpBitcast between types of different sizes");
      }
      if (to.kind == ir::TypeKind::kPointer && from.kind == ir::TypeKind::kPointer) {
        if (const std::optional<PrivateAddress> a = loader.PrivateAddressOf(inst.word(0))) {
          loader.RecordPrivateAddress(inst.result_id(), *a);
        }
      }
      // A result that shares its operand's slot (invariant_code.hpp) needs no copy.
      if (out.result == out.op[0]) return true;
      out.fn = ExecBitcast;
      out.size = to.lane_bytes;
      return true;
    }
    default:
      return false;
  }
  const TypeInfo& to = loader.Type(inst.result_type_id());
  const TypeInfo& from = loader.TypeOfValue(inst.word(0));
  d.from_bytes = from.value.scalar.bytes;
  d.to_bytes = to.value.scalar.bytes;
  d.saturate = d.saturate || loader.Saturated(inst.result_id());
  if (d.kind == ConvertKind::kUToU && d.saturate && op == Op::OpUConvert) d.to_signed = false;
  if (d.kind == ConvertKind::kSToS && d.saturate && op == Op::OpSConvert) d.to_signed = true;
  const std::optional<spv::FPRoundingMode> mode = loader.RoundingMode(inst.result_id());
  d.mode = mode ? ToRounding(*mode)
                : (d.kind == ConvertKind::kFToU || d.kind == ConvertKind::kFToS
                       ? RoundingMode::kTowardZero
                       : RoundingMode::kNearestEven);
  const Handler resize = IntResizeHandler(d);
  out.fn = resize != nullptr ? resize : ExecConvert;
  out.result = loader.Slot(inst.result_id());
  out.op[0] = loader.Slot(inst.word(0));
  out.count = to.value.components;
  out.data = loader.program().Own(d);
  return true;
}

}  // namespace xmx::interp
