// The OpenCL.std extended instruction set: the element-wise and per-vector instructions (math,
// integer, common, geometric, relational), each bound once at load time to a function that runs
// over a whole run of lanes. The memory ones (vload*, vstore*, prefetch), printf, and shuffle /
// shuffle2 belong to the executor and are refused here.
//
// Operands and results use the register layout of value_layout.hpp. An operand with one component
// where the result has n is broadcast: producers splat the scalar of forms like fmin(floatn,
// float) themselves, but nothing is lost by accepting the unsplatted form too.
//
// Accuracy: half and float are computed from the exactly widened double and rounded once, to
// nearest even, to the result format; double uses the host's libm except where that falls short
// of OpenCL (sinpi/cospi/tanpi reduce their argument exactly, rootn and cbrt use long double,
// remquo computes seven quotient bits). Every function OpenCL requires to be exact is correctly
// rounded in all three formats, and sqrt and division are correctly rounded too. mad is a*b rounded
// to the format, then +c rounded again. OpenCL leaves mad's rounding open, and llvm-spirv turns a
// contractible a*b + c (llvm.fmuladd) into mad: the unfused value is what that expression means
// when nothing fuses it, whichever producer made the module.
//
// Double keeps its accuracy in rootn, cbrt and the geometric functions through a long double
// wider than double (x86-64 Linux: 80-bit); lgamma uses POSIX lgamma_r because std::lgamma writes
// the global signgam.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "common/float_formats.hpp"
#include "interp/model/value_layout.hpp"

namespace xmx::interp {

// One OpExtInst of OpenCL.std bound at load time to a function over lanes.
struct OpenCLStdCall;

// Computes `lanes` consecutive lanes: operand j of lane i is at operands[j] + i *
// call.operands[j].lane_bytes(), the result of lane i at result + i * call.result.lane_bytes(),
// and, for the instructions with a pointer out-parameter, the value to store through the pointer
// at second_result + i * call.second_result.lane_bytes() (the executor does the store).
using OpenCLStdFn = void (*)(const OpenCLStdCall& call, uint8_t* result,
                             const uint8_t* const* operands, uint8_t* second_result,
                             uint32_t lanes);

struct OpenCLStdCall {
  OpenCLStdFn fn = nullptr;
  ValueType result;       // result type
  ValueType operands[3];  // value operand types (the pointer out-parameter is not one)
  uint32_t operand_count = 0;
  // For frexp, modf, fract, sincos, remquo and lgamma_r: the type stored through the pointer
  // (int32 with the result's component count for frexp, remquo and lgamma_r, the result type
  // for the others); components == 0 for every other instruction.
  ValueType second_result{ScalarType{}, 0};
};

// Binds `instruction` (the OpenCL.std number) for these types. `operands` lists the value
// operands; for the instructions with a pointer out-parameter it may also end with the pointer
// operand's type, given either as a kPointer scalar (not checked) or as the pointee's value type
// (checked against second_result). Returns nullopt with a message when the instruction is not an
// element-wise / per-vector one handled here, or the types are not valid for it.
std::optional<OpenCLStdCall> BindOpenCLStd(uint32_t instruction, const ValueType& result,
                                           std::span<const ValueType> operands,
                                           std::string* why_not);

// The grammar's name of an OpenCL.std instruction number ("fmax"), or "" when there is none.
std::string_view OpenCLStdInstructionName(uint32_t instruction);

// Support shared by opencl_std_math.cpp, opencl_std_integer.cpp and opencl_std_common.cpp; not
// for use elsewhere.
namespace opencl_std_internal {

template <class T>
inline T Load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}
template <class T>
inline void Store(uint8_t* p, T value) {
  std::memcpy(p, &value, sizeof value);
}

// A float format as the kernels see it: the storage type, its bit pattern type, an exact widening
// to double and the one rounding (to nearest even) back.
struct F16 {
  using Storage = uint16_t;
  using Bits = uint16_t;
  static constexpr int kMantissaBits = 10;
  static double Widen(uint16_t bits) { return DecodeFloat(bits, kHalfFormat); }
  static uint16_t Narrow(double value) { return FloatToHalf(value); }
};
struct F32 {
  using Storage = float;
  using Bits = uint32_t;
  static constexpr int kMantissaBits = 23;
  static double Widen(float value) { return value; }
  static float Narrow(double value) { return static_cast<float>(value); }
};
struct F64 {
  using Storage = double;
  using Bits = uint64_t;
  static constexpr int kMantissaBits = 52;
  static double Widen(double value) { return value; }
  static double Narrow(double value) { return value; }
};

// `value` rounded to format F and widened again: one arithmetic step carried out in F.
template <class F>
inline double RoundTo(double value) {
  return F::Widen(F::Narrow(value));
}

// Where operand j's elements are: a one-component operand of a vector instruction is broadcast
// (component stride 0).
struct Source {
  const uint8_t* base;
  uint32_t lane_stride;
  uint32_t component_stride;
  const uint8_t* At(uint32_t lane, uint32_t component) const {
    return base + lane * lane_stride + component * component_stride;
  }
};
inline Source SourceOf(const OpenCLStdCall& call, const uint8_t* const* operands, uint32_t j) {
  const ValueType& type = call.operands[j];
  return Source{operands[j], type.lane_bytes(), type.components == 1 ? 0u : type.scalar.bytes};
}

template <class R, class... A, class Kernel, std::size_t... J>
inline void MapElementsImpl(const OpenCLStdCall& call, uint8_t* result,
                            const uint8_t* const* operands, uint32_t lanes, Kernel kernel,
                            std::index_sequence<J...>) {
  const Source sources[sizeof...(A)] = {SourceOf(call, operands, J)...};
  const uint32_t n = call.result.components;
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    uint8_t* out = result + lane * n * sizeof(R);
    for (uint32_t c = 0; c < n; ++c) {
      Store<R>(out + c * sizeof(R), kernel(Load<A>(sources[J].At(lane, c))...));
    }
  }
}

// Runs `kernel` (A... -> R, on storage types) over every element of `lanes` lanes, broadcasting
// one-component operands.
template <class R, class... A, class Kernel>
inline void MapElements(const OpenCLStdCall& call, uint8_t* result, const uint8_t* const* operands,
                        uint32_t lanes, Kernel kernel) {
  MapElementsImpl<R, A...>(call, result, operands, lanes, kernel, std::index_sequence_for<A...>{});
}

// One bind request, for the messages.
struct Request {
  uint32_t instruction;
  const ValueType& result;
  std::span<const ValueType> operands;
  std::string* why_not;

  // Writes "OpenCL.std <name>: <reason>" to why_not; returns nullopt for the caller to return.
  std::nullopt_t Fail(const std::string& reason) const;
};

// The per-format kernel of a float instruction, chosen by the element width.
inline OpenCLStdFn ByFloatWidth(uint32_t bytes, OpenCLStdFn f16, OpenCLStdFn f32, OpenCLStdFn f64) {
  return bytes == 2 ? f16 : bytes == 4 ? f32 : bytes == 8 ? f64 : nullptr;
}

// OpenCL fmin/fmax: a NaN operand yields the other one; between zeros of either sign the minimum
// is -0 and the maximum +0 (OpenCL allows either, IEEE 754-2019 minimum/maximum pick these).
inline double FMin(double x, double y) {
  if (x != x) return y;
  if (y != y) return x;
  if (x == y) return std::signbit(x) ? x : y;
  return x < y ? x : y;
}
inline double FMax(double x, double y) {
  if (x != x) return y;
  if (y != y) return x;
  if (x == y) return std::signbit(x) ? y : x;
  return x > y ? x : y;
}

std::string TypeName(const ValueType& type);  // "float4", "int", "half3", "bool"
std::string TypeName(const ScalarType& s);

inline bool IsFloat(const ScalarType& s) {
  return s.kind == ScalarKind::kFloat && (s.bytes == 2 || s.bytes == 4 || s.bytes == 8);
}
inline bool IsInt(const ScalarType& s) {
  return s.kind == ScalarKind::kInt &&
         (s.bytes == 1 || s.bytes == 2 || s.bytes == 4 || s.bytes == 8);
}

// Checks that there are exactly `scalars.size()` value operands, and that operand j has scalar
// type scalars[j] and either `components` components or, when `broadcast`, one.
bool CheckOperands(const Request& request, std::initializer_list<ScalarType> scalars,
                   uint32_t components, bool broadcast = true);

OpenCLStdCall MakeCall(const Request& request, OpenCLStdFn fn,
                       ValueType second_result = ValueType{ScalarType{}, 0});

// Per-file binders: each handles its own instruction numbers and returns nullopt (with the
// message) for a type it does not accept.
std::optional<OpenCLStdCall> BindMath(const Request& request);
std::optional<OpenCLStdCall> BindInteger(const Request& request);
std::optional<OpenCLStdCall> BindCommon(const Request& request);
bool IsMathInstruction(uint32_t instruction);
bool IsIntegerInstruction(uint32_t instruction);

}  // namespace opencl_std_internal
}  // namespace xmx::interp
