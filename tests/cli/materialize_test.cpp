// Buffer init kinds, checked against values computed here from golden/README.md: the random
// streams use a SplitMix64 written again below from the README's text.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>

#include "numerics/format.hpp"
#include "cli/case_file.hpp"
#include "temp_dir.hpp"

using namespace clref::cli;
using clref::cli::test::TempDir;

namespace {

// golden/README.md "Random streams", transcribed.
struct ReadmeSplitMix64 {
  uint64_t state;
  uint64_t operator()() {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z;
  }
};
double unitOf(uint64_t z) { return std::ldexp(double(z >> 11), -53); }

// Materialises one buffer argument given as JSON (type, count, init).
std::vector<std::byte> bytesOf(const std::string& buffer, TempDir* dir = nullptr) {
  TempDir own;
  TempDir& d = dir ? *dir : own;
  const auto file = d.write("c.json", R"({ "module": "k.spv", "kernel": "k", "ndrange": { "global": [1] },
      "args": [ { "buffer": )" + buffer + " } ] }");
  return materialize(loadCase(file), 0);
}

template <class T> std::vector<T> as(const std::vector<std::byte>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

std::vector<uint32_t> floatBits(const std::vector<std::byte>& bytes) { return as<uint32_t>(bytes); }
uint32_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }
uint64_t bitsOf(double d) { return std::bit_cast<uint64_t>(d); }

}  // namespace

TEST_CASE("SplitMix64 known answers (seed 0) through a full-range ulong random init", "[reference][init]") {
  // The first outputs of SplitMix64 seeded with 0, as published with the algorithm.
  const auto v = as<uint64_t>(bytesOf(R"({ "type": "ulong", "count": 3,
      "init": { "random": { "seed": 0, "min": 0, "max": 18446744073709551615 } } })"));
  CHECK(v == std::vector<uint64_t>{0xe220a8397b1dcdafull, 0x6e789e6aa1b965f4ull, 0x06c45d188009454full});
}

TEST_CASE("no init gives zeros", "[reference][init]") {
  const auto b = bytesOf(R"({ "type": "double", "count": 5 })");
  CHECK(b.size() == 40);
  CHECK(std::all_of(b.begin(), b.end(), [](std::byte x) { return x == std::byte{0}; }));
}

TEST_CASE("values: numbers, hexfloats, bits, inf and nan, repeated cyclically", "[reference][init]") {
  const auto f = floatBits(bytesOf(R"({ "type": "float", "count": 9,
      "init": { "values": [1.5, "0x1.8p+1", "0x3f800000:bits", "inf", "-inf", "nan", -0.0, "-0x1p-149"] } })"));
  CHECK(f == std::vector<uint32_t>{0x3fc00000, 0x40400000, 0x3f800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x80000000,
                                   0x80000001, 0x3fc00000});

  const auto i = as<int32_t>(bytesOf(R"({ "type": "int", "count": 5,
      "init": { "values": [-2147483648, 2147483647, "0xffffffff:bits", "-0x10"] } })"));
  CHECK(i == std::vector<int32_t>{INT32_MIN, INT32_MAX, -1, -16, INT32_MIN});

  const auto d = as<uint64_t>(bytesOf(R"({ "type": "double", "count": 4,
      "init": { "values": [0.1, "-nan", "0x1.0000000000001p0", "1e-320"] } })"));
  CHECK(d == std::vector<uint64_t>{bitsOf(0.1), 0xfff8000000000000ull, 0x3ff0000000000001ull, bitsOf(1e-320)});

  const auto u = as<uint64_t>(bytesOf(R"({ "type": "ulong", "count": 2,
      "init": { "values": [18446744073709551615, "0x8000000000000000"] } })"));
  CHECK(u == std::vector<uint64_t>{UINT64_MAX, 0x8000000000000000ull});
}

TEST_CASE("values: half conversions round to nearest even via toHalf", "[reference][init]") {
  const auto h = as<uint16_t>(bytesOf(R"({ "type": "half", "count": 8,
      "init": { "values": [1, 65504, 65519.99, 65520, "0x1p-25", "0x1.8p-24", "0x3555:bits", 0.1] } })"));
  // 65520 is the tie between 65504 and 2^16 (which overflows): even goes to infinity. 2^-25 is
  // the tie between 0 and the smallest subnormal: even goes to zero. 1.5·2^-24 ties to 2·2^-24.
  CHECK(h == std::vector<uint16_t>{0x3c00, 0x7bff, 0x7bff, 0x7c00, 0x0000, 0x0002, 0x3555,
                                   clref::numerics::toHalf(0.1).bits});
  CHECK(clref::numerics::toHalf(0.1).bits == 0x2e66);
}

TEST_CASE("iota", "[reference][init]") {
  const auto f =
      as<float>(bytesOf(R"({ "type": "float", "count": 4, "init": { "iota": { "start": 0, "step": 0.5 } } })"));
  CHECK(f == std::vector<float>{0, 0.5, 1, 1.5});
  const auto d =
      as<double>(bytesOf(R"({ "type": "double", "count": 3, "init": { "iota": { "start": 1, "step": 0.1 } } })"));
  CHECK(d == std::vector<double>{1.0, 1.0 + 1.0 * 0.1, 1.0 + 2.0 * 0.1});
  const auto i =
      as<int16_t>(bytesOf(R"({ "type": "short", "count": 4, "init": { "iota": { "start": -3, "step": 2 } } })"));
  CHECK(i == std::vector<int16_t>{-3, -1, 1, 3});
  // Integers wrap modulo 2^bits, as OpenCL C conversions to unsigned types do.
  const auto c =
      as<uint8_t>(bytesOf(R"({ "type": "uchar", "count": 4, "init": { "iota": { "start": 250, "step": 3 } } })"));
  CHECK(c == std::vector<uint8_t>{250, 253, 0, 3});
  const auto def = as<uint32_t>(bytesOf(R"({ "type": "uint", "count": 3, "init": { "iota": {} } })"));
  CHECK(def == std::vector<uint32_t>{0, 1, 2});
  const auto h =
      as<uint16_t>(bytesOf(R"({ "type": "half", "count": 3, "init": { "iota": { "start": 2048, "step": 1 } } })"));
  CHECK(h == std::vector<uint16_t>{0x6800, 0x6800, 0x6801});  // 2049 ties to even 2048 in binary16
}

TEST_CASE("fill", "[reference][init]") {
  CHECK(as<int64_t>(bytesOf(R"({ "type": "long", "count": 3, "init": { "fill": -7 } })")) ==
        std::vector<int64_t>{-7, -7, -7});
  CHECK(floatBits(bytesOf(R"({ "type": "float", "count": 2, "init": { "fill": "nan" } })")) ==
        std::vector<uint32_t>{0x7fc00000, 0x7fc00000});
}

TEST_CASE("random integers: A + (z mod (B - A + 1))", "[reference][init]") {
  ReadmeSplitMix64 rng{42};
  const auto v = as<uint32_t>(bytesOf(R"({ "type": "uint", "count": 100,
      "init": { "random": { "seed": 42, "min": 10, "max": 20 } } })"));
  for (size_t i = 0; i < v.size(); ++i) CHECK(v[i] == 10 + rng() % 11);

  ReadmeSplitMix64 rng2{7};
  const auto c = as<int8_t>(bytesOf(R"({ "type": "char", "count": 100,
      "init": { "random": { "seed": 7, "min": -128, "max": 127 } } })"));
  for (size_t i = 0; i < c.size(); ++i) CHECK(int(c[i]) == int(-128 + int64_t(rng2() % 256)));

  ReadmeSplitMix64 rng3{3};
  const auto l = as<int64_t>(bytesOf(R"({ "type": "long", "count": 50,
      "init": { "random": { "seed": 3, "min": -9223372036854775808, "max": 9223372036854775807 } } })"));
  // Full range: B - A + 1 = 2^64, so the value is A + z, i.e. z reinterpreted.
  for (size_t i = 0; i < l.size(); ++i) CHECK(uint64_t(l[i]) == uint64_t(INT64_MIN) + rng3());
}

TEST_CASE("random floats: A + (B - A) * u in double, rounded to the type", "[reference][init]") {
  ReadmeSplitMix64 rng{11};
  const auto f = as<float>(bytesOf(R"({ "type": "float", "count": 200,
      "init": { "random": { "seed": 11, "min": -1, "max": 1 } } })"));
  for (float x : f) {
    const double u = unitOf(rng());
    CHECK(bitsOf(x) == bitsOf(float(-1.0 + 2.0 * u)));
    CHECK((x >= -1 && x <= 1));
  }
  ReadmeSplitMix64 rng2{12};
  const auto d = as<double>(bytesOf(R"({ "type": "double", "count": 200,
      "init": { "random": { "seed": 12, "min": 0.5, "max": 100 } } })"));
  for (double x : d) {
    const double scaled = 99.5 * unitOf(rng2());
    CHECK(bitsOf(x) == bitsOf(0.5 + scaled));
  }
  ReadmeSplitMix64 rng3{13};
  const auto h = as<uint16_t>(bytesOf(R"({ "type": "half", "count": 200,
      "init": { "random": { "seed": 13, "min": -10, "max": 10 } } })"));
  for (uint16_t x : h) {
    const double scaled = 20.0 * unitOf(rng3());
    CHECK(x == clref::numerics::toHalf(-10.0 + scaled).bits);
  }
}

namespace {
// The special tables, written out bit by bit (cli/special_values.cpp documents the order).
const uint16_t kHalfSpecials[24] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x03ff, 0x8001,
                                    0x83ff, 0x0400, 0x8400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3800,
                                    0xb800, 0x3e00, 0x4100, 0xc100, 0x4200, 0x6800, 0x1419, 0x4248};
const uint32_t kFloatSpecials[24] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001,
                                     0x007fffff, 0x80000001, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff,
                                     0xff7fffff, 0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x3fc00000,
                                     0x40200000, 0xc0200000, 0x40400000, 0x4b800000, 0x3a83126f, 0x40490fdb};
const uint64_t kDoubleSpecials[24] = {0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
                                      0x7ff8000000000000, 0x0000000000000001, 0x000fffffffffffff, 0x8000000000000001,
                                      0x800fffffffffffff, 0x0010000000000000, 0x8010000000000000, 0x7fefffffffffffff,
                                      0xffefffffffffffff, 0x3ff0000000000000, 0xbff0000000000000, 0x3fe0000000000000,
                                      0xbfe0000000000000, 0x3ff8000000000000, 0x4004000000000000, 0xc004000000000000,
                                      0x4008000000000000, 0x4340000000000000, 0x3f50624dd2f1a9fc, 0x400921fb54442d18};
}  // namespace

TEST_CASE("special: a table entry when the top bit of z is 0, else a second draw from -100 to 100",
          "[reference][init]") {
  SECTION("float") {
    ReadmeSplitMix64 rng{5};
    const auto f = floatBits(bytesOf(R"({ "type": "float", "count": 500, "init": { "special": { "seed": 5 } } })"));
    size_t fromTable = 0;
    for (uint32_t x : f) {
      const uint64_t z = rng();
      if ((z >> 63) == 0) {
        CHECK(x == kFloatSpecials[z % 24]);
        ++fromTable;
      } else {
        CHECK(x == bitsOf(float(-100.0 + 200.0 * unitOf(rng()))));
      }
    }
    CHECK((fromTable > 150 && fromTable < 350));
  }
  SECTION("double") {
    ReadmeSplitMix64 rng{6};
    const auto d = as<uint64_t>(bytesOf(R"({ "type": "double", "count": 500, "init": { "special": { "seed": 6 } } })"));
    for (uint64_t x : d) {
      const uint64_t z = rng();
      if ((z >> 63) == 0)
        CHECK(x == kDoubleSpecials[z % 24]);
      else
        CHECK(x == bitsOf(-100.0 + 200.0 * unitOf(rng())));
    }
  }
  SECTION("half") {
    ReadmeSplitMix64 rng{7};
    const auto h = as<uint16_t>(bytesOf(R"({ "type": "half", "count": 500, "init": { "special": { "seed": 7 } } })"));
    for (uint16_t x : h) {
      const uint64_t z = rng();
      if ((z >> 63) == 0)
        CHECK(x == kHalfSpecials[z % 24]);
      else
        CHECK(x == clref::numerics::toHalf(-100.0 + 200.0 * unitOf(rng())).bits);
    }
  }
}

TEST_CASE("file and text inits are read relative to the case file", "[reference][init]") {
  TempDir dir;
  const unsigned char raw[8] = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  dir.write("in.bin", std::string(reinterpret_cast<const char*>(raw), 8));
  CHECK(as<int32_t>(bytesOf(R"({ "type": "int", "count": 2, "init": { "file": "in.bin" } })", &dir)) ==
        std::vector<int32_t>{1, -1});
  CHECK_THROWS_WITH(bytesOf(R"({ "type": "int", "count": 3, "init": { "file": "in.bin" } })", &dir),
                    Catch::Matchers::Contains("args[0].buffer.init.file:") &&
                        Catch::Matchers::Contains("has 8 bytes, the buffer needs 12"));

  dir.write("in.txt", "# header comment\n1.5\n\n  0x1p-2  \ninf\n\"nan\"\n0x3f800000:bits\n");
  CHECK(floatBits(bytesOf(R"({ "type": "float", "count": 6, "init": { "text": "in.txt" } })", &dir)) ==
        std::vector<uint32_t>{0x3fc00000, 0x3e800000, 0x7f800000, 0x7fc00000, 0x3f800000, 0x3fc00000});

  dir.write("bad.txt", "1\n2\nthree\n");
  CHECK_THROWS_WITH(bytesOf(R"({ "type": "int", "count": 3, "init": { "text": "bad.txt" } })", &dir),
                    Catch::Matchers::Contains("args[0].buffer.init.text (bad.txt line 3): not an integer: 'three'"));
  CHECK_THROWS_WITH(bytesOf(R"({ "type": "int", "count": 3, "init": { "text": "none.txt" } })", &dir),
                    Catch::Matchers::Contains("args[0].buffer.init.text: cannot read"));
}

TEST_CASE("materialize refuses arguments that are not buffers", "[reference][init]") {
  TempDir dir;
  const auto c = loadCase(dir.write("c.json", R"({ "module": "k.spv", "kernel": "k", "ndrange": { "global": [1] },
      "args": [ { "local": 16 } ] })"));
  CHECK_THROWS_AS(materialize(c, 0), CaseError);
  CHECK_THROWS_AS(materialize(c, 1), CaseError);
}

TEST_CASE("materializeInto writes the init into the memory it is given, and leaves it for no init", "[reference][init]") {
  TempDir d;
  const auto file = d.write("c.json", R"({ "module": "k.spv", "kernel": "k", "ndrange": { "global": [1] },
      "args": [ { "buffer": { "type": "int", "count": 4, "init": { "iota": { "start": 5, "step": -2 } } } },
                { "buffer": { "type": "int", "count": 2 } } ] })");
  const Case c = loadCase(file);
  std::vector<int32_t> a(4, 0), b{7, 9};
  materializeInto(c, 0, reinterpret_cast<std::byte*>(a.data()));
  CHECK(a == std::vector<int32_t>{5, 3, 1, -1});
  materializeInto(c, 1, reinterpret_cast<std::byte*>(b.data()));  // its caller's zeros stand for no init
  CHECK(b == std::vector<int32_t>{7, 9});
  CHECK_THROWS_AS(materializeInto(c, 2, reinterpret_cast<std::byte*>(b.data())), CaseError);
}
