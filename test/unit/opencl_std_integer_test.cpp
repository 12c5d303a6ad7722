// OpenCL.std broadcasting and lane layout, saturating and high-half integer arithmetic at every
// width, and the common, geometric and relational functions.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "opencl_std_test_support.hpp"

namespace xmx::interp {
namespace {

using namespace opencl_std_testing;

// ---------------------------------------------------------------------------------------------
// Broadcasting and lane layout

TEST(OpenCLStdLayout, ScalarOperandsBroadcastAcrossVectorComponents) {
  // fmax(float4, float) over two lanes: the scalar of lane i applies to all of lane i.
  const std::vector<float> x = {1, 5, -2, 8, /*lane 1*/ 0, 9, 3, -7};
  const std::vector<float> y = {4, 2};
  EXPECT_EQ(Lanes<float>(kFmax, 2, 4, x, y), (std::vector<float>{4, 5, 4, 8, 2, 9, 3, 2}));
  // ldexp(double3, int), fma(half2, half2, half), clamp(int4, int, int).
  EXPECT_EQ(Lanes<double>(kLdexp, 1, 3, std::vector<double>{1, 2, 3}, std::vector<int32_t>{2}),
            (std::vector<double>{4, 8, 12}));
  const std::vector<Fp16> h = Lanes<Fp16>(kFma, 1, 2, std::vector<Fp16>{H(2), H(3)},
                                          std::vector<Fp16>{H(4), H(5)}, std::vector<Fp16>{H(0.5)});
  EXPECT_EQ(D(h[0]), 8.5);
  EXPECT_EQ(D(h[1]), 15.5);
  EXPECT_EQ(Lanes<int32_t>(kSClamp, 1, 4, std::vector<int32_t>{-9, -1, 3, 9},
                           std::vector<int32_t>{-2}, std::vector<int32_t>{5}),
            (std::vector<int32_t>{-2, -1, 3, 5}));
  EXPECT_EQ(Lanes<float>(kMix, 2, 2, std::vector<float>{0, 10, 0, 10},
                         std::vector<float>{4, 20, 8, 30}, std::vector<float>{0.5f, 0.25f}),
            (std::vector<float>{2, 15, 2, 15}));
  EXPECT_EQ(Lanes<float>(kStep, 1, 3, std::vector<float>{0.5f}, std::vector<float>{0.4f, 0.5f, 1}),
            (std::vector<float>{0, 1, 1}));
}

TEST(OpenCLStdLayout, ThreeComponentVectorsAreTightlyPacked) {
  // Three lanes of float3: 12 bytes per lane, no padding.
  const std::vector<float> x = {1, 4, 9, 16, 25, 36, 49, 64, 81};
  EXPECT_EQ(Lanes<float>(kSqrt, 3, 3, x), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(Lanes<float>(kLength, 3, 1, std::vector<float>{3, 4, 0, 0, 0, 0, 2, 3, 6}),
            (std::vector<float>{5, 0, 7}));
  const auto [r, exps] = RunLanes<float>(kFrexp, 2, 3, std::vector<float>{1, 2, 4, 8, 16, 32});
  EXPECT_EQ(r, (std::vector<float>(6, 0.5f)));
  std::vector<int32_t> e(6);
  std::memcpy(e.data(), exps.data(), 24);
  EXPECT_EQ(e, (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
}

// ---------------------------------------------------------------------------------------------
// Integer instructions at every width

template <class T>
class OpenCLStdInteger : public ::testing::Test {};
using SignedTypes = ::testing::Types<int8_t, int16_t, int32_t, int64_t>;
TYPED_TEST_SUITE(OpenCLStdInteger, SignedTypes);

TYPED_TEST(OpenCLStdInteger, SaturatingArithmetic) {
  using S = TypeParam;
  using U = std::make_unsigned_t<S>;
  const S kMin = std::numeric_limits<S>::min(), kMax = std::numeric_limits<S>::max();
  const U kAllOnes = std::numeric_limits<U>::max();
  EXPECT_EQ(Eval<S>(kSAddSat, kMax, S{1}), kMax);
  EXPECT_EQ(Eval<S>(kSAddSat, kMin, S{-1}), kMin);
  EXPECT_EQ(Eval<S>(kSAddSat, kMax, kMin), S{-1});
  EXPECT_EQ(Eval<U>(kUAddSat, kAllOnes, U{1}), kAllOnes);
  EXPECT_EQ(Eval<U>(kUAddSat, U{3}, U{4}), U{7});
  EXPECT_EQ(Eval<S>(kSSubSat, kMin, S{1}), kMin);
  EXPECT_EQ(Eval<S>(kSSubSat, S{0}, kMin), kMax);
  EXPECT_EQ(Eval<S>(kSSubSat, S{-1}, kMin), kMax);
  EXPECT_EQ(Eval<U>(kUSubSat, U{0}, U{1}), U{0});
  EXPECT_EQ(Eval<U>(kUSubSat, kAllOnes, U{1}), U(kAllOnes - 1));
  EXPECT_EQ(Eval<S>(kSMadSat, kMax, kMax, S{0}), kMax);
  EXPECT_EQ(Eval<S>(kSMadSat, kMin, kMax, kMax), kMin);
  EXPECT_EQ(Eval<S>(kSMadSat, kMin, S{-1}, S{0}), kMax);
  EXPECT_EQ(Eval<S>(kSMadSat, kMin, S{-1}, S{-1}), kMax);  // exactly max
  EXPECT_EQ(Eval<S>(kSMadSat, kMin, S{-1}, S{-2}), S(kMax - 1));
  EXPECT_EQ(Eval<S>(kSMadSat, S{-3}, S{4}, S{5}), S{-7});
  EXPECT_EQ(Eval<U>(kUMadSat, kAllOnes, kAllOnes, kAllOnes), kAllOnes);
  EXPECT_EQ(Eval<U>(kUMadSat, U{2}, U{3}, U{4}), U{10});
  EXPECT_EQ(Eval<U>(kUMadSat, U(kAllOnes / 2), U{2}, U{1}), kAllOnes);
}

TYPED_TEST(OpenCLStdInteger, HighHalvesAndAverages) {
  using S = TypeParam;
  using U = std::make_unsigned_t<S>;
  constexpr int kW = 8 * sizeof(S);
  const S kMin = std::numeric_limits<S>::min(), kMax = std::numeric_limits<S>::max();
  const U kAllOnes = std::numeric_limits<U>::max();
  EXPECT_EQ(Eval<S>(kSMulHi, kMin, kMin), S(U{1} << (kW - 2)));
  EXPECT_EQ(Eval<S>(kSMulHi, S{-1}, S{1}), S{-1});
  EXPECT_EQ(Eval<S>(kSMulHi, kMax, S{2}), S{0});
  EXPECT_EQ(Eval<S>(kSMulHi, kMax, kMin), S(-(S(U{1} << (kW - 2)))));
  EXPECT_EQ(Eval<U>(kUMulHi, kAllOnes, kAllOnes), U(kAllOnes - 1));
  EXPECT_EQ(Eval<U>(kUMulHi, kAllOnes, U{2}), U{1});
  EXPECT_EQ(Eval<S>(kSMadHi, kMin, kMin, S{1}), S((U{1} << (kW - 2)) + 1));
  EXPECT_EQ(Eval<U>(kUMadHi, kAllOnes, kAllOnes, U{2}), U{0});  // wraps
  EXPECT_EQ(Eval<S>(kSHadd, kMax, kMax), kMax);
  EXPECT_EQ(Eval<S>(kSHadd, kMin, kMin), kMin);
  EXPECT_EQ(Eval<S>(kSHadd, S{-1}, S{0}), S{-1});
  EXPECT_EQ(Eval<S>(kSRhadd, S{-1}, S{0}), S{0});
  EXPECT_EQ(Eval<S>(kSRhadd, kMax, kMax), kMax);
  EXPECT_EQ(Eval<S>(kSRhadd, kMin, kMax), S{0});
  EXPECT_EQ(Eval<U>(kUHadd, kAllOnes, kAllOnes), kAllOnes);
  EXPECT_EQ(Eval<U>(kUHadd, kAllOnes, U{0}), U(kAllOnes / 2));
  EXPECT_EQ(Eval<U>(kURhadd, kAllOnes, U{0}), U(kAllOnes / 2 + 1));
  EXPECT_EQ(Eval<U>(kURhadd, kAllOnes, U(kAllOnes - 1)), kAllOnes);
}

TYPED_TEST(OpenCLStdInteger, AbsMinMaxClampAndBits) {
  using S = TypeParam;
  using U = std::make_unsigned_t<S>;
  constexpr int kW = 8 * sizeof(S);
  const S kMin = std::numeric_limits<S>::min(), kMax = std::numeric_limits<S>::max();
  const U kAllOnes = std::numeric_limits<U>::max();
  EXPECT_EQ(Eval<U>(kSAbs, kMin), U(U{1} << (kW - 1)));
  EXPECT_EQ(Eval<U>(kSAbs, S{-5}), U{5});
  EXPECT_EQ(Eval<U>(kUAbs, kAllOnes), kAllOnes);
  EXPECT_EQ(Eval<U>(kSAbsDiff, kMin, kMax), kAllOnes);
  EXPECT_EQ(Eval<U>(kSAbsDiff, kMax, kMin), kAllOnes);
  EXPECT_EQ(Eval<U>(kSAbsDiff, S{-3}, S{4}), U{7});
  EXPECT_EQ(Eval<U>(kUAbsDiff, U{0}, kAllOnes), kAllOnes);
  EXPECT_EQ(Eval<S>(kSMax, S{-1}, S{1}), S{1});
  EXPECT_EQ(Eval<U>(kUMax, kAllOnes, U{1}), kAllOnes);
  EXPECT_EQ(Eval<S>(kSMin, S{-1}, S{1}), S{-1});
  EXPECT_EQ(Eval<U>(kUMin, kAllOnes, U{1}), U{1});
  EXPECT_EQ(Eval<S>(kSClamp, S{-5}, S{-2}, S{3}), S{-2});
  EXPECT_EQ(Eval<S>(kSClamp, kMax, S{-2}, S{3}), S{3});
  EXPECT_EQ(Eval<U>(kUClamp, kAllOnes, U{1}, U{7}), U{7});
  EXPECT_EQ(Eval<U>(kClz, U{0}), U{kW});
  EXPECT_EQ(Eval<U>(kCtz, U{0}), U{kW});
  EXPECT_EQ(Eval<U>(kClz, U{1}), U{kW - 1});
  EXPECT_EQ(Eval<U>(kCtz, U(U{1} << (kW - 1))), U{kW - 1});
  EXPECT_EQ(Eval<U>(kClz, kAllOnes), U{0});
  EXPECT_EQ(Eval<U>(kPopcount, kAllOnes), U{kW});
  EXPECT_EQ(Eval<U>(kPopcount, U{0x55}), U{4});
  const U top = U(U{1} << (kW - 1));
  EXPECT_EQ(Eval<U>(kRotate, U(top | 1), U{1}), U{3});
  EXPECT_EQ(Eval<U>(kRotate, U(top | 1), U{kW + 1}), U{3});  // modulo the width
  EXPECT_EQ(Eval<U>(kRotate, U(top | 1), U{kW}), U(top | 1));
  EXPECT_EQ(Eval<U>(kRotate, U{3}, U(-1)), U(top | 1));  // -1: one to the right
  EXPECT_EQ(Eval<U>(kRotate, U{0x12}, U{4 * kW + 4}), U(U{0x12} << 4 | U{0x12} >> (kW - 4)));
}

TEST(OpenCLStdIntegerFixed, UpsampleAndMul24) {
  EXPECT_EQ(Eval<uint16_t>(kUUpsample, uint8_t{0x12}, uint8_t{0x34}), 0x1234);
  EXPECT_EQ(Eval<int16_t>(kSUpsample, int8_t{-1}, uint8_t{0x01}), -255);
  EXPECT_EQ(Eval<uint32_t>(kUUpsample, uint16_t{0xBEEF}, uint16_t{0xCAFE}), 0xBEEFCAFEu);
  EXPECT_EQ(Eval<uint64_t>(kUUpsample, uint32_t{0xDEADBEEF}, uint32_t{0x01234567}),
            0xDEADBEEF01234567u);
  EXPECT_EQ(Eval<int64_t>(kSUpsample, int32_t{-2}, uint32_t{0xFFFFFFFF}),
            -(int64_t{1} << 33) + 0xFFFFFFFF);
  EXPECT_EQ(Lanes<uint32_t>(kUUpsample, 2, 2, std::vector<uint16_t>{1, 2, 3, 4},
                            std::vector<uint16_t>{5, 6, 7, 8}),
            (std::vector<uint32_t>{0x10005, 0x20006, 0x30007, 0x40008}));
  EXPECT_EQ(Eval<int32_t>(kSMul24, int32_t{-3}, int32_t{5}), -15);
  EXPECT_EQ(Eval<int32_t>(kSMul24, int32_t{0x800000}, int32_t{2}), -(1 << 24));  // low 24 bits
  EXPECT_EQ(Eval<int32_t>(kSMul24, int32_t{-(1 << 23)}, int32_t{-(1 << 23)}), int32_t{0});
  EXPECT_EQ(Eval<uint32_t>(kUMul24, uint32_t{0xFFFFFF}, uint32_t{2}), 0x1FFFFFEu);
  EXPECT_EQ(Eval<uint32_t>(kUMul24, uint32_t{0x1000003}, uint32_t{5}), 15u);
  EXPECT_EQ(Eval<int32_t>(kSMad24, int32_t{-3}, int32_t{5}, int32_t{20}), 5);
  EXPECT_EQ(Eval<uint32_t>(kUMad24, uint32_t{0xFFFFFF}, uint32_t{0xFFFFFF}, uint32_t{1}),
            static_cast<uint32_t>(0xFFFFFFull * 0xFFFFFF + 1));
}

TEST(OpenCLStdIntegerFixed, SixtyFourBitHighHalves) {
  EXPECT_EQ(Eval<uint64_t>(kUMulHi, uint64_t{0x123456789ABCDEF0}, uint64_t{0xFEDCBA9876543210}),
            static_cast<uint64_t>(
                (static_cast<unsigned __int128>(0x123456789ABCDEF0) * 0xFEDCBA9876543210) >> 64));
  EXPECT_EQ(
      Eval<int64_t>(kSMulHi, int64_t{-0x123456789ABCDEF}, int64_t{0x7EDCBA9876543210}),
      static_cast<int64_t>((static_cast<__int128>(-0x123456789ABCDEF) * 0x7EDCBA9876543210) >> 64));
  EXPECT_EQ(Eval<int64_t>(kSMadHi, INT64_MAX, int64_t{-1}, int64_t{5}), 4);
  EXPECT_EQ(Eval<uint64_t>(kUMadHi, UINT64_MAX, uint64_t{3}, uint64_t{10}), 12u);
  EXPECT_EQ(Eval<uint64_t>(kUMadSat, uint64_t{1} << 32, uint64_t{1} << 32, uint64_t{0}),
            UINT64_MAX);
  EXPECT_EQ(Eval<uint64_t>(kUMadSat, uint64_t{1} << 32, (uint64_t{1} << 32) - 1, uint64_t{1} << 32),
            UINT64_MAX);
  EXPECT_EQ(
      Eval<uint64_t>(kUMadSat, uint64_t{1} << 32, (uint64_t{1} << 32) - 1, (uint64_t{1} << 32) - 1),
      UINT64_MAX);
  // The product 2^63 is out of range but the sum is not: no intermediate saturation.
  EXPECT_EQ(Eval<int64_t>(kSMadSat, int64_t{1} << 32, int64_t{1} << 31, INT64_MIN + 5), 5);
}

// ---------------------------------------------------------------------------------------------
// Common, geometric, relational

TEST(OpenCLStdCommon, Functions) {
  EXPECT_EQ(Eval<float>(kFclamp, 5.0f, -1.0f, 2.0f), 2.0f);
  EXPECT_EQ(Eval<float>(kFclamp, kFNaN, -1.0f, 2.0f), -1.0f);  // fmin(fmax(NaN, lo), hi)
  EXPECT_EQ(Eval<double>(kFclamp, -3.0, -1.0, 2.0), -1.0);
  EXPECT_EQ(Eval<float>(kDegrees, static_cast<float>(3.14159265358979)), 180.0f);
  EXPECT_EQ(Eval<float>(kRadians, 180.0f), static_cast<float>(3.14159265358979));
  EXPECT_EQ(Eval<double>(kRadians, 90.0), 3.14159265358979323846 / 2);
  EXPECT_EQ(Eval<float>(kMix, 1.0f, 3.0f, 0.5f), 2.0f);
  EXPECT_EQ(Eval<float>(kStep, 0.5f, 0.4f), 0.0f);
  EXPECT_EQ(Eval<float>(kStep, 0.5f, 0.5f), 1.0f);
  EXPECT_EQ(Eval<float>(kSmoothstep, 0.0f, 1.0f, 0.5f), 0.5f);
  EXPECT_EQ(Eval<float>(kSmoothstep, 0.0f, 1.0f, -1.0f), 0.0f);
  EXPECT_EQ(Eval<float>(kSmoothstep, 0.0f, 1.0f, 7.0f), 1.0f);
  EXPECT_EQ(Eval<double>(kSmoothstep, 0.0, 4.0, 1.0), 0.15625);
  EXPECT_EQ(D(Eval<Fp16>(kSmoothstep, H(0), H(2), H(1))), 0.5);
  EXPECT_EQ(Eval<float>(kSign, -3.0f), -1.0f);
  EXPECT_EQ(Eval<float>(kSign, 1e-40f), 1.0f);
  EXPECT_EQ(Bits(Eval<float>(kSign, -0.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(Eval<float>(kSign, -kFNaN)), Bits(0.0f));
  EXPECT_EQ(Eval<Fp16>(kSign, H(-7)).bits, H(-1).bits);
}

TEST(OpenCLStdGeometric, CrossLengthDistanceNormalize) {
  EXPECT_EQ(Lanes<float>(kCross, 1, 3, std::vector<float>{1, 0, 0}, std::vector<float>{0, 1, 0}),
            (std::vector<float>{0, 0, 1}));
  EXPECT_EQ(
      Lanes<double>(kCross, 1, 4, std::vector<double>{1, 2, 3, 9}, std::vector<double>{4, 5, 6, 9}),
      (std::vector<double>{-3, 6, -3, 0}));
  // Nearly parallel: a plain a*b - c*d would cancel to 0.
  const double e = 0x1p-30;
  EXPECT_EQ(Lanes<double>(kCross, 1, 3, std::vector<double>{1 + e, 1, 0},
                          std::vector<double>{1, 1 - e, 0})[2],
            -e * e);
  EXPECT_EQ(Eval<float>(kLength, 3.0f), 3.0f);
  EXPECT_EQ(Lanes<float>(kLength, 1, 1, std::vector<float>{-3, 4}), std::vector<float>{5});
  EXPECT_EQ(Lanes<float>(kFastLength, 1, 1, std::vector<float>{1e30f, 1e30f}),
            std::vector<float>{static_cast<float>(std::sqrt(2.0) * 1e30)});
  EXPECT_EQ(Lanes<double>(kLength, 1, 1, std::vector<double>{1e300, 1e300, 1e300}),
            std::vector<double>{std::sqrt(3.0) * 1e300});
  EXPECT_EQ(Lanes<double>(kLength, 1, 1, std::vector<double>{3e-310, 4e-310}),
            std::vector<double>{5e-310});
  EXPECT_EQ(Lanes<float>(kLength, 1, 1, std::vector<float>{kFNaN, -kFInf}),
            std::vector<float>{kFInf});
  EXPECT_EQ(Lanes<Fp16>(kLength, 1, 1, std::vector<Fp16>{H(300), H(400)})[0].bits, H(500).bits);
  EXPECT_EQ(
      Lanes<float>(kDistance, 1, 1, std::vector<float>{1, 1, 1, 1}, std::vector<float>{2, 2, 2, 2}),
      std::vector<float>{2});
  EXPECT_EQ(Lanes<double>(kFastDistance, 2, 1, std::vector<double>{0, 0, 6, 8},
                          std::vector<double>{3, 4, 0, 0}),
            (std::vector<double>{5, 10}));
  EXPECT_EQ(Lanes<float>(kNormalize, 1, 2, std::vector<float>{3, 4}),
            (std::vector<float>{0.6f, 0.8f}));
  EXPECT_EQ(Lanes<double>(kNormalize, 1, 2, std::vector<double>{1e308, 1e308}),
            (std::vector<double>{std::sqrt(0.5), std::sqrt(0.5)}));
  EXPECT_EQ(Lanes<float>(kFastNormalize, 1, 3, std::vector<float>{0, -0.0f, 0}),
            (std::vector<float>{0, -0.0f, 0}));
  const std::vector<float> infs =
      Lanes<float>(kNormalize, 1, 4, std::vector<float>{-kFInf, 2, kFInf, -3});
  EXPECT_EQ(infs, (std::vector<float>{-1, 0, 1, -0.0f}));
  EXPECT_TRUE(std::signbit(infs[3]));
  for (float v : Lanes<float>(kNormalize, 1, 3, std::vector<float>{kFNaN, 1, kFInf})) {
    EXPECT_TRUE(std::isnan(v));
  }
}

TEST(OpenCLStdRelational, BitselectAndSelect) {
  EXPECT_EQ(Eval<uint32_t>(kBitselect, 0xAAAAAAAAu, 0x55555555u, 0xFFFF0000u), 0x5555AAAAu);
  EXPECT_EQ(Eval<uint8_t>(kBitselect, uint8_t{0xF0}, uint8_t{0x0F}, uint8_t{0x3C}), 0xCC);
  EXPECT_EQ(Eval<float>(kBitselect, 1.0f, -1.0f, std::bit_cast<float>(0x80000000u)), -1.0f);
  EXPECT_EQ(Eval<double>(kBitselect, 2.0, 0.0, 0.0), 2.0);
  // Scalar: any nonzero condition picks b.
  EXPECT_EQ(Eval<float>(kSelect, 1.0f, 2.0f, int32_t{2}), 2.0f);
  EXPECT_EQ(Eval<float>(kSelect, 1.0f, 2.0f, int32_t{0}), 1.0f);
  EXPECT_EQ(Eval<int64_t>(kSelect, int64_t{1}, int64_t{2}, int64_t{1} << 40), 2);
  // Vector: the most significant bit of each component.
  EXPECT_EQ(
      Lanes<float>(kSelect, 1, 4, std::vector<float>{1, 2, 3, 4}, std::vector<float>{5, 6, 7, 8},
                   std::vector<int32_t>{1, -1, INT32_MIN, INT32_MAX}),
      (std::vector<float>{1, 6, 7, 4}));
  EXPECT_EQ(Lanes<Fp16>(kSelect, 1, 2, std::vector<Fp16>{H(1), H(2)}, std::vector<Fp16>{H(3), H(4)},
                        std::vector<int16_t>{-1, 1})[0]
                .bits,
            H(3).bits);
  EXPECT_EQ(
      Lanes<uint8_t>(kSelect, 2, 2, std::vector<uint8_t>{1, 2, 3, 4},
                     std::vector<uint8_t>{5, 6, 7, 8}, std::vector<uint8_t>{0x80, 0x7F, 0xFF, 0}),
      (std::vector<uint8_t>{5, 2, 7, 4}));
}

}  // namespace
}  // namespace xmx::interp
