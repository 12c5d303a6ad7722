// What the OpenCL.std unit tests share: instruction numbers, operand types, binding and
// running an instruction over lanes, bit views and special values.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "interp/opencl_std/opencl_std.hpp"

namespace xmx::interp::opencl_std_testing {

// Instruction numbers, from extinst.opencl.std.100.grammar.json.
// clang-format off
enum Op : uint32_t {
  kAcos = 0, kAcosh = 1, kAcospi = 2, kAsin = 3, kAsinh = 4, kAsinpi = 5, kAtan = 6, kAtan2 = 7,
  kAtanh = 8, kAtanpi = 9, kAtan2pi = 10, kCbrt = 11, kCeil = 12, kCopysign = 13, kCos = 14,
  kCosh = 15, kCospi = 16, kErfc = 17, kErf = 18, kExp = 19, kExp2 = 20, kExp10 = 21, kExpm1 = 22,
  kFabs = 23, kFdim = 24, kFloor = 25, kFma = 26, kFmax = 27, kFmin = 28, kFmod = 29, kFract = 30,
  kFrexp = 31, kHypot = 32, kIlogb = 33, kLdexp = 34, kLgamma = 35, kLgammaR = 36, kLog = 37,
  kLog2 = 38, kLog10 = 39, kLog1p = 40, kLogb = 41, kMad = 42, kMaxmag = 43, kMinmag = 44,
  kModf = 45, kNan = 46, kNextafter = 47, kPow = 48, kPown = 49, kPowr = 50, kRemainder = 51,
  kRemquo = 52, kRint = 53, kRootn = 54, kRound = 55, kRsqrt = 56, kSin = 57, kSincos = 58,
  kSinh = 59, kSinpi = 60, kSqrt = 61, kTan = 62, kTanh = 63, kTanpi = 64, kTgamma = 65,
  kTrunc = 66, kHalfCos = 67, kHalfDivide = 68, kHalfSqrt = 79, kNativeDivide = 82,
  kNativeSqrt = 93, kFclamp = 95, kDegrees = 96, kFmaxCommon = 97, kFminCommon = 98, kMix = 99,
  kRadians = 100, kStep = 101, kSmoothstep = 102, kSign = 103, kCross = 104, kDistance = 105,
  kLength = 106, kNormalize = 107, kFastDistance = 108, kFastLength = 109, kFastNormalize = 110,
  kSAbs = 141, kSAbsDiff = 142, kSAddSat = 143, kUAddSat = 144, kSHadd = 145, kUHadd = 146,
  kSRhadd = 147, kURhadd = 148, kSClamp = 149, kUClamp = 150, kClz = 151, kCtz = 152, kSMadHi = 153,
  kUMadSat = 154, kSMadSat = 155, kSMax = 156, kUMax = 157, kSMin = 158, kUMin = 159, kSMulHi = 160,
  kRotate = 161, kSSubSat = 162, kUSubSat = 163, kUUpsample = 164, kSUpsample = 165,
  kPopcount = 166, kSMad24 = 167, kUMad24 = 168, kSMul24 = 169, kUMul24 = 170, kVloadn = 171,
  kShuffle = 182, kPrintf = 184, kPrefetch = 185, kBitselect = 186, kSelect = 187, kUAbs = 201,
  kUAbsDiff = 202, kUMulHi = 203, kUMadHi = 204,
};
// clang-format on

struct Fp16 {  // a half operand or result, by its bits
  uint16_t bits;
};
inline Fp16 H(double value) { return Fp16{FloatToHalf(value)}; }
inline double D(Fp16 h) { return HalfToFloat(h.bits); }

template <class T>
inline ScalarType ScalarOf() {
  if constexpr (std::is_same_v<T, Fp16>) {
    return {ScalarKind::kFloat, 2};
  } else if constexpr (std::is_floating_point_v<T>) {
    return {ScalarKind::kFloat, sizeof(T)};
  } else {
    return {ScalarKind::kInt, sizeof(T)};
  }
}
inline const ScalarType kF16{ScalarKind::kFloat, 2}, kF32{ScalarKind::kFloat, 4},
    kF64{ScalarKind::kFloat, 8}, kI8{ScalarKind::kInt, 1}, kI16{ScalarKind::kInt, 2},
    kI32{ScalarKind::kInt, 4}, kI64{ScalarKind::kInt, 8};
inline ValueType V(ScalarType s, uint32_t n = 1) { return ValueType{s, n}; }

inline OpenCLStdCall MustBind(uint32_t op, ValueType result, std::vector<ValueType> operands) {
  std::string why;
  std::optional<OpenCLStdCall> call = BindOpenCLStd(op, result, operands, &why);
  EXPECT_TRUE(call.has_value()) << why;
  return call.value_or(OpenCLStdCall{});
}

inline std::string BindError(uint32_t op, ValueType result, std::vector<ValueType> operands) {
  std::string why;
  EXPECT_FALSE(BindOpenCLStd(op, result, operands, &why).has_value());
  return why;
}

// Runs `lanes` lanes with n result components; each operand's component count is its size
// divided by the lanes, so a one-element-per-lane operand of a vector instruction is broadcast.
// Returns the results and the bytes written for the pointer out-parameter.
template <class R, class... A>
std::pair<std::vector<R>, std::vector<uint8_t>> RunLanes(uint32_t op, uint32_t lanes, uint32_t n,
                                                         const std::vector<A>&... args) {
  const OpenCLStdCall call = MustBind(
      op, V(ScalarOf<R>(), n), {V(ScalarOf<A>(), static_cast<uint32_t>(args.size() / lanes))...});
  std::vector<R> out(lanes * n);
  std::vector<uint8_t> second(lanes * n * 8 + 8);
  if (!call.fn) return {out, second};
  const uint8_t* operands[] = {reinterpret_cast<const uint8_t*>(args.data())..., nullptr};
  call.fn(call, reinterpret_cast<uint8_t*>(out.data()), operands, second.data(), lanes);
  return {out, second};
}

template <class R, class... A>
std::vector<R> Lanes(uint32_t op, uint32_t lanes, uint32_t n, const std::vector<A>&... args) {
  return RunLanes<R>(op, lanes, n, args...).first;
}

template <class R, class... A>
R Eval(uint32_t op, A... args) {
  return Lanes<R>(op, 1, 1, std::vector<A>{args}...)[0];
}

// The result and the value stored through the pointer operand.
template <class R, class R2, class... A>
std::pair<R, R2> EvalOut(uint32_t op, A... args) {
  auto [out, second] = RunLanes<R>(op, 1, 1, std::vector<A>{args}...);
  R2 stored;
  std::memcpy(&stored, second.data(), sizeof stored);
  return {out[0], stored};
}

inline uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t Bits(double d) { return std::bit_cast<uint64_t>(d); }
inline uint16_t Bits(Fp16 h) { return h.bits; }

inline const float kFInf = std::numeric_limits<float>::infinity();
inline const double kDInf = std::numeric_limits<double>::infinity();
inline const float kFNaN = std::numeric_limits<float>::quiet_NaN();
inline const double kDNaN = std::numeric_limits<double>::quiet_NaN();
inline const float kFDenormMin = std::numeric_limits<float>::denorm_min();

}  // namespace xmx::interp::opencl_std_testing
