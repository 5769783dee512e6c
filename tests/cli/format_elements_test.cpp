// The output text format (golden/README.md "Output text format"), with expected lines
// written out by hand.
#include <catch2/catch.hpp>

#include <cstring>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "cli/case_file.hpp"

using namespace clref::cli;

namespace {
template <class T> std::string format(ScalarType type, std::initializer_list<T> values) {
  std::vector<T> v(values);
  return formatElements(type, reinterpret_cast<const std::byte*>(v.data()), v.size());
}
}  // namespace

TEST_CASE("integers print in decimal with their signedness", "[reference][format]") {
  CHECK(format<int8_t>(ScalarType::Char, {-1, 127, -128}) == "-1\n127\n-128\n");
  CHECK(format<uint8_t>(ScalarType::UChar, {255, 0}) == "255\n0\n");
  CHECK(format<int16_t>(ScalarType::Short, {-32768}) == "-32768\n");
  CHECK(format<uint16_t>(ScalarType::UShort, {65535}) == "65535\n");
  CHECK(format<int32_t>(ScalarType::Int, {INT32_MIN, 7}) == "-2147483648\n7\n");
  CHECK(format<uint32_t>(ScalarType::UInt, {UINT32_MAX}) == "4294967295\n");
  CHECK(format<int64_t>(ScalarType::Long, {INT64_MIN}) == "-9223372036854775808\n");
  CHECK(format<uint64_t>(ScalarType::ULong, {UINT64_MAX}) == "18446744073709551615\n");
  CHECK(format<int32_t>(ScalarType::Int, {}).empty());
}

TEST_CASE("floats print as hexfloat and round-trip decimal", "[reference][format]") {
  CHECK(format<float>(ScalarType::Float, {1.0f, 0.1f, -0.0f, 0x1p-149f, 3.4028235e38f}) ==
        "0x1p+0 1\n"
        "0x1.99999ap-4 0.100000001\n"
        "-0x0p+0 -0\n"
        "0x1p-149 1.40129846e-45\n"
        "0x1.fffffep+127 3.40282347e+38\n");
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(format<float>(ScalarType::Float, {inf, -inf}) == "inf inf\n-inf -inf\n");
}

TEST_CASE("doubles print with 17 significant digits", "[reference][format]") {
  CHECK(format<double>(ScalarType::Double, {0.1, -2.5, 0x1p-1074}) ==
        "0x1.999999999999ap-4 0.10000000000000001\n"
        "-0x1.4p+1 -2.5\n"
        "0x0.0000000000001p-1022 4.9406564584124654e-324\n");  // glibc's %a keeps subnormals denormalised
}

TEST_CASE("halves print their exact value with 5 significant digits", "[reference][format]") {
  // 0x3555 = 0.333251953125, 0x0001 = 2^-24, 0x7bff = 65504, 0xfc00 = -inf.
  CHECK(format<uint16_t>(ScalarType::Half, {0x3c00, 0x3555, 0x0001, 0x7bff, 0xfc00, 0x8000}) ==
        "0x1p+0 1\n"
        "0x1.554p-2 0.33325\n"
        "0x1p-24 5.9605e-08\n"
        "0x1.ffcp+15 65504\n"
        "-inf -inf\n"
        "-0x0p+0 -0\n");
}

TEST_CASE("NaNs print their raw bits at the format's width", "[reference][format]") {
  CHECK(format<uint16_t>(ScalarType::Half, {0x7e00, 0xfc01}) == "nan 0x7e00\nnan 0xfc01\n");
  const uint32_t f[] = {0x7fc00000, 0xffc00001, 0x7f800001};
  CHECK(formatElements(ScalarType::Float, reinterpret_cast<const std::byte*>(f), 3) ==
        "nan 0x7fc00000\nnan 0xffc00001\nnan 0x7f800001\n");
  const uint64_t d[] = {0x7ff8000000000000ull, 0x7ff0000000000001ull};
  CHECK(formatElements(ScalarType::Double, reinterpret_cast<const std::byte*>(d), 2) ==
        "nan 0x7ff8000000000000\nnan 0x7ff0000000000001\n");
}

TEST_CASE("floats and doubles print what printf's \"%a %.*g\" prints, for random bit patterns", "[reference][format]") {
  // The host's printf is the reference: the text format is defined as its output (golden/README.md).
  std::mt19937_64 random(20261130);
  for (int i = 0; i < 200000; ++i) {
    uint64_t bits = random();
    if (i % 4 == 0) bits &= 0x800fffffffffffffull;  // subnormal doubles: glibc's %a keeps them denormalised
    const bool single = i % 2;
    const double value = single ? double(std::bit_cast<float>(uint32_t(bits))) : std::bit_cast<double>(bits);
    if (std::isnan(value)) continue;
    char expected[96];
    std::snprintf(expected, sizeof expected, "%a %.*g\n", value, single ? 9 : 17, value);
    const std::string got = single ? format<float>(ScalarType::Float, {float(value)})
                                   : format<double>(ScalarType::Double, {value});
    INFO(expected);
    REQUIRE(got == expected);
  }
}
