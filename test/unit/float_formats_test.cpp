// The one half-float implementation (common/float_formats) against models written here: decoding
// every binary16 pattern (what the type table reads half constants with), truncating floats to
// binary16 (what the assembler does with decimal half literals, after SPIRV-Tools' HexFloat), and
// the exponent range beyond which the assembler rejects a literal.
#include "common/float_formats.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "text/assembler.hpp"

namespace xmx {
namespace {

// binary16 by its definition: (-1)^s * 2^(e-15) * 1.m, subnormals 2^-14 * 0.m.
double HalfModel(uint16_t bits) {
  const int sign = bits >> 15, exponent = (bits >> 10) & 31, mantissa = bits & 1023;
  double magnitude;
  if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else if (exponent == 0) {
    magnitude = mantissa / 1024.0 / 16384.0;
  } else {
    magnitude = (1.0 + mantissa / 1024.0) * std::pow(2.0, exponent - 15);
  }
  return sign ? -magnitude : magnitude;
}

// The largest binary16 value not above |f| in magnitude (truncation), found by walking the
// ordered patterns; NaN stays a quiet NaN with its sign. Only for |f| < 65536.
uint16_t TruncateModel(float f) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  if (std::isnan(f)) return sign | 0x7E00;
  const double magnitude = std::fabs(static_cast<double>(f));
  uint16_t low = 0, high = 0x7BFF;  // binary search over the finite magnitudes (monotonic)
  if (HalfModel(high) <= magnitude) return sign | high;
  while (high - low > 1) {
    const uint16_t mid = static_cast<uint16_t>((low + high) / 2);
    if (HalfModel(mid) <= magnitude) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return sign | low;
}

TEST(FloatFormats, EveryHalfPatternDecodes) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const double model = HalfModel(static_cast<uint16_t>(bits));
    const double decoded = DecodeFloat(bits, kHalfFormat);
    if (std::isnan(model)) {
      EXPECT_TRUE(std::isnan(decoded)) << std::hex << bits;
      EXPECT_EQ(std::signbit(decoded), std::signbit(model)) << std::hex << bits;
    } else {
      EXPECT_EQ(decoded, model) << std::hex << bits;
    }
  }
}

TEST(FloatFormats, FloatsTruncateToHalf) {
  // Every exponent, both signs, mantissas with the bits that decide truncation (the top 10) and
  // the ones below (which must be dropped) varied.
  for (uint32_t sign = 0; sign < 2; ++sign) {
    for (uint32_t exponent = 0; exponent < 255; ++exponent) {
      for (uint32_t step = 0; step < 4096; ++step) {
        const uint32_t mantissa = (step * 0x9E3779B1u) & 0x7FFFFFu;
        const float f = std::bit_cast<float>(sign << 31 | exponent << 23 | mantissa);
        if (std::fabs(f) >= 65536.0f) {
          EXPECT_TRUE(BeyondExponentRange(f, kHalfFormat)) << f;
          continue;
        }
        EXPECT_FALSE(BeyondExponentRange(f, kHalfFormat)) << f;
        ASSERT_EQ(EncodeFloat(f, kHalfFormat, RoundingMode::kTowardZero), TruncateModel(f))
            << std::hexfloat << f;
      }
    }
  }
  EXPECT_EQ(EncodeFloat(std::bit_cast<float>(0xFFC00001u), kHalfFormat, RoundingMode::kTowardZero),
            0xFE00u);  // a negative NaN
  EXPECT_EQ(EncodeFloat(INFINITY, kHalfFormat, RoundingMode::kTowardZero), 0x7C00u);
  EXPECT_FALSE(BeyondExponentRange(65535.99, kHalfFormat));
  EXPECT_TRUE(BeyondExponentRange(-65536.0, kHalfFormat));
}

// The assembler's decimal half literals: truncated, and an error where the exponent overflows.
TEST(FloatFormats, AssemblerHalfLiterals) {
  auto assemble = [](const std::string& literal, std::vector<uint32_t>* words) {
    text::AssembleOptions options;
    Diagnostic error;
    return text::Assemble("%h = OpTypeFloat 16\n%c = OpConstant %h " + literal + "\n", options,
                          words, &error);
  };
  std::vector<uint32_t> words;
  ASSERT_TRUE(assemble("65535.9", &words));
  EXPECT_EQ(words.back(), 0x7BFFu);
  ASSERT_TRUE(assemble("-1e-7", &words));
  EXPECT_EQ(words.back(), 0x8001u);  // 1.68 units of 2^-24, truncated
  ASSERT_TRUE(assemble("1e-9", &words));
  EXPECT_EQ(words.back(), 0x0000u);
  EXPECT_FALSE(assemble("65536.0", &words));
  EXPECT_FALSE(assemble("-70000", &words));
}

}  // namespace
}  // namespace xmx
