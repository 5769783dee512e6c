// Scalar values as clref run --trace prints them (cli/value_format.hpp), against decimal and hex-float
// spellings worked out by hand from the values' bits.
#include <catch2/catch.hpp>

#include "cli/value_format.hpp"

using namespace clref::cli;

TEST_CASE("trace values: floats as the shortest round-trip decimal and the exact hex-float", "[reference][trace]") {
  // 0.1 rounded to each format: float 0x3dcccccd = 1.10011001100110011001101b x 2^-4, so its hex digits are
  // 1.99999a; double 0x3fb999999999999a; half 0x2e66 = 1.1001100110b x 2^-4, hex 1.998.
  CHECK(formatFloat(0x3dcccccdu) == "0.1 (0x1.99999ap-4)");
  CHECK(formatDouble(0x3fb999999999999aull) == "0.1 (0x1.999999999999ap-4)");
  CHECK(formatHalf(0x2e66) == "0.1 (0x1.998p-4)");
  // Exact small values: 1, -2.5 = -1.01b x 2^1, 7 = 1.11b x 2^2.
  CHECK(formatHalf(0x3c00) == "1 (0x1p+0)");
  CHECK(formatFloat(0xc0200000u) == "-2.5 (-0x1.4p+1)");
  CHECK(formatDouble(0x401c000000000000ull) == "7 (0x1.cp+2)");
  // The smallest subnormal float, 2^-149 = 1.4012984...e-45: one digit reads back as it.
  CHECK(formatFloat(0x00000001u) == "1e-45 (0x1p-149)");
  // The largest half, 65504: 65500 is nearer to it than to 65472, the next half below, and rounds back to it (66000
  // would overflow). 1/3 in half is 0x3555 = 0.333251953125: 0.333 rounds to 0x3554, 0.3333 back to it.
  CHECK(formatHalf(0x7bff) == "65500 (0x1.ffcp+15)");
  CHECK(formatHalf(0x3555) == "0.3333 (0x1.554p-2)");
  // Infinities, and NaNs with their bits.
  CHECK(formatFloat(0x7f800000u) == "inf");
  CHECK(formatDouble(0xfff0000000000000ull) == "-inf");
  CHECK(formatFloat(0x7fc00001u) == "nan (0x7fc00001)");
  CHECK(formatHalf(0xfe00) == "nan (0xfe00)");
}
