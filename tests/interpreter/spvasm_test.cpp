// Hand-written SPIR-V modules (spvasm/*.spvasm) for instructions that clang/llvm-spirv rarely
// or never emit. Every expected value is computed here with plain C++ on the host, from the
// SPIR-V and OpenCL specifications, never from an earlier clref run.
#include "spvasm.hpp"

#include <bit>
#include <climits>
#include <cmath>
#include <limits>

using namespace clref;
using namespace clref::test;

namespace {

// ---------------------------------------------------------------------------------------------
// 1. Specialization constants
// ---------------------------------------------------------------------------------------------

std::vector<uint32_t> expectedSpec(uint32_t a, uint32_t b, bool t, bool f, uint64_t l) {
  return {a,
          b,
          t ? 1u : 0u,
          f ? 1u : 0u,
          a + b,
          a * b,
          0u - a,
          b << (a % 32),  // OpenCL: shift count modulo the width
          t ? a : b,
          f ? a : b,
          a == b ? 1u : 0u,
          b,
          a,
          uint32_t(l),
          uint32_t(l >> 32),
          (a + b) * 2 - 1};
}

}  // namespace

TEST_CASE("spec constants: defaults", "[spvasm][spec]") {
  host::Device device;
  auto program = loadSpvasm(device, "spec_constants");
  host::Kernel kernel(program, "spec_constants");
  CHECK(runToVector<uint32_t>(kernel, 16) == expectedSpec(7, 100, true, false, 0x300000005ull));
}

TEST_CASE("spec constants: after setSpecConstant", "[spvasm][spec]") {
  host::Device device;
  auto program = loadSpvasm(device, "spec_constants");
  {
    host::Kernel kernel(program, "spec_constants");
    CHECK(runToVector<uint32_t>(kernel, 16) == expectedSpec(7, 100, true, false, 0x300000005ull));
  }
  const uint32_t a = 5, b = 0xfffffff0u;
  const uint8_t t = 0, f = 1;
  const uint64_t l = 0xdeadbeefcafef00dull;
  program->setSpecConstant(0, &a, sizeof a);
  program->setSpecConstant(1, &b, sizeof b);
  program->setSpecConstant(2, &t, sizeof t);
  program->setSpecConstant(3, &f, sizeof f);
  program->setSpecConstant(4, &l, sizeof l);
  host::Kernel kernel(program, "spec_constants");
  CHECK(runToVector<uint32_t>(kernel, 16) == expectedSpec(a, b, false, true, l));
  // a == b makes IEqual true.
  program->setSpecConstant(1, &a, sizeof a);
  host::Kernel kernel2(program, "spec_constants");
  CHECK(runToVector<uint32_t>(kernel2, 16) == expectedSpec(a, a, false, true, l));
}

// ---------------------------------------------------------------------------------------------
// 2. Bit-field instructions
// ---------------------------------------------------------------------------------------------

namespace {

// SPIR-V 1.2 §3.32.14 [external], computed bit by bit so that nothing depends on shift-count rules.
template <class T> T lowMask(unsigned count) {
  T m = 0;
  for (unsigned i = 0; i < count; ++i) m |= T(1) << i;
  return m;
}
template <class T> T refInsert(T base, T ins, unsigned off, unsigned cnt) {
  T r = base;
  for (unsigned i = 0; i < cnt; ++i) {
    const T bit = T(1) << (off + i);
    r = (r & ~bit) | (((ins >> i) & 1) ? bit : 0);
  }
  return r;
}
template <class T> T refUExtract(T base, unsigned off, unsigned cnt) {
  T r = 0;
  for (unsigned i = 0; i < cnt; ++i) r |= T((base >> (off + i)) & 1) << i;
  return r;
}
template <class T> T refSExtract(T base, unsigned off, unsigned cnt) {
  if (cnt == 0) return 0;
  T r = refUExtract(base, off, cnt);
  if ((r >> (cnt - 1)) & 1) r |= ~lowMask<T>(cnt);
  return r;
}
template <class T> T refReverse(T v) {
  T r = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; ++i) r |= T((v >> i) & 1) << (sizeof(T) * 8 - 1 - i);
  return r;
}

struct Lcg {
  uint64_t s;
  uint64_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return s ^ (s >> 29);
  }
};

// (offset, count) pairs: the edges (count 0 at both ends, full width, single bits) and a spread.
std::vector<std::pair<unsigned, unsigned>> fieldShapes(unsigned width) {
  std::vector<std::pair<unsigned, unsigned>> v = {
      {0, 0},         {width, 0},     {width / 2, 0},         {0, width}, {0, 1},         {width - 1, 1},
      {1, width - 1}, {0, width - 1}, {width / 2, width / 2}, {3, 5},     {width - 8, 8}, {7, width - 20}};
  for (unsigned off = 0; off < width; off += 5)
    for (unsigned cnt = 1; off + cnt <= width; cnt += 7) v.push_back({off, cnt});
  return v;
}

template <class T> std::vector<T> bitfieldBases() {
  std::vector<T> b = {0,
                      T(~T(0)),
                      T(1),
                      T(T(1) << (sizeof(T) * 8 - 1)),
                      T(0x5555555555555555ull),
                      T(0x8000000180000001ull),
                      T(0x0123456789abcdefull)};
  Lcg r{sizeof(T)};
  while (b.size() < 16) b.push_back(T(r.next()));
  return b;
}

template <class T> void checkScalarBitfield(const char* kernelName) {
  host::Device device;
  auto program = loadSpvasm(device, "bitfield");
  host::Kernel kernel(program, kernelName);
  constexpr unsigned W = sizeof(T) * 8;
  struct Rec {
    T base, ins;
    unsigned off, cnt;
  };
  std::vector<Rec> recs;
  const auto bases = bitfieldBases<T>();
  const auto shapes = fieldShapes(W);
  for (size_t s = 0; s < shapes.size(); ++s)
    for (size_t k = 0; k < 3; ++k)
      recs.push_back({bases[(s + k * 5) % bases.size()], bases[(s * 3 + k + 1) % bases.size()], shapes[s].first,
                      shapes[s].second});
  std::vector<T> in;
  for (const Rec& r : recs) in.insert(in.end(), {r.base, r.ins, T(r.off), T(r.cnt)});
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * sizeof(T)));
  const auto out = runToVector<T>(kernel, recs.size() * 5, recs.size());
  for (size_t i = 0; i < recs.size(); ++i) {
    const Rec& r = recs[i];
    INFO("record " << i << ": base 0x" << std::hex << uint64_t(r.base) << " insert 0x" << uint64_t(r.ins) << std::dec
                   << " offset " << r.off << " count " << r.cnt);
    CHECK(out[5 * i + 0] == refInsert<T>(r.base, r.ins, r.off, r.cnt));
    CHECK(out[5 * i + 1] == refSExtract<T>(r.base, r.off, r.cnt));
    CHECK(out[5 * i + 2] == refUExtract<T>(r.base, r.off, r.cnt));
    CHECK(out[5 * i + 3] == refReverse<T>(r.base));
    CHECK(out[5 * i + 4] == T(std::popcount(r.base)));
  }
}

}  // namespace

TEST_CASE("bit-field instructions, 32-bit", "[spvasm][bitfield]") {
  checkScalarBitfield<uint32_t>("bitfield32");
}

TEST_CASE("bit-field instructions, 64-bit", "[spvasm][bitfield]") {
  checkScalarBitfield<uint64_t>("bitfield64");
}

TEST_CASE("bit-field instructions, uint4", "[spvasm][bitfield]") {
  host::Device device;
  auto program = loadSpvasm(device, "bitfield");
  host::Kernel kernel(program, "bitfield_v4");
  const auto bases = bitfieldBases<uint32_t>();
  const auto shapes = fieldShapes(32);
  std::vector<uint32_t> in;
  for (size_t s = 0; s < shapes.size(); ++s) {
    for (size_t k = 0; k < 8; ++k) in.push_back(bases[(s + k * 3) % bases.size()]);
    in.push_back(shapes[s].first);
    in.push_back(shapes[s].second);
  }
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * sizeof(uint32_t)));
  const auto out = runToVector<uint32_t>(kernel, shapes.size() * 20, shapes.size());
  for (size_t s = 0; s < shapes.size(); ++s) {
    const uint32_t* rec = &in[10 * s];
    const unsigned off = shapes[s].first, cnt = shapes[s].second;
    for (unsigned c = 0; c < 4; ++c) {
      INFO("record " << s << " lane " << c << " offset " << off << " count " << cnt);
      const uint32_t base = rec[c], ins = rec[4 + c];
      CHECK(out[20 * s + 0 + c] == refInsert(base, ins, off, cnt));
      CHECK(out[20 * s + 4 + c] == refSExtract(base, off, cnt));
      CHECK(out[20 * s + 8 + c] == refUExtract(base, off, cnt));
      CHECK(out[20 * s + 12 + c] == refReverse(base));
      CHECK(out[20 * s + 16 + c] == uint32_t(std::popcount(base)));
    }
  }
}

TEST_CASE("OpBitCount on 8/16/32/64-bit and uint2", "[spvasm][bitfield]") {
  host::Device device;
  auto program = loadSpvasm(device, "bitcount");
  host::Kernel kernel(program, "bitcount");
  auto in = bitfieldBases<uint64_t>();
  in.push_back(0xff00ff00ff00ff00ull);
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * sizeof(uint64_t)));
  const auto out = runToVector<uint64_t>(kernel, in.size() * 5, in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const uint64_t x = in[i];
    INFO("x = 0x" << std::hex << x);
    CHECK(out[5 * i + 0] == uint64_t(std::popcount(uint8_t(x))));
    CHECK(out[5 * i + 1] == uint64_t(std::popcount(uint16_t(x))));
    CHECK(out[5 * i + 2] == uint64_t(std::popcount(uint32_t(x))));
    CHECK(out[5 * i + 3] == uint64_t(std::popcount(x)));
    CHECK(out[5 * i + 4] == uint64_t(std::popcount(x)));
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Composites: shuffles, dynamic extract/insert, struct inserts, construct, copy
// ---------------------------------------------------------------------------------------------

TEST_CASE("composite instructions", "[spvasm][composite]") {
  host::Device device;
  auto program = loadSpvasm(device, "composites");
  for (uint32_t k = 0; k < 4; ++k) {
    DYNAMIC_SECTION("dynamic index " << k) {
      host::Kernel kernel(program, "composites");
      const uint32_t a[4] = {101, 102, 103, 104}, b[4] = {205, 206, 207, 208};
      std::vector<uint32_t> in(a, a + 4);
      in.insert(in.end(), b, b + 4);
      in.push_back(k);
      kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
      const auto out = runToVector<uint32_t>(kernel, 39);
      // shuffle 7 0 0xFFFFFFFF 5: lane 2 is undefined and not checked
      CHECK(out[0] == b[3]);
      CHECK(out[1] == a[0]);
      CHECK(out[3] == b[1]);
      const std::vector<uint32_t> sh8(out.begin() + 4, out.begin() + 12);
      CHECK(sh8 == std::vector<uint32_t>{a[3], a[2], a[1], a[0], b[0], b[1], b[2], b[3]});
      CHECK(out[12] == b[2]);
      CHECK(out[13] == a[1]);
      CHECK(out[14] == a[k]);
      std::vector<uint32_t> ins(a, a + 4);
      ins[k] = 99;
      CHECK(std::vector<uint32_t>(out.begin() + 15, out.begin() + 19) == ins);
      CHECK(std::vector<uint32_t>(out.begin() + 19, out.begin() + 26) ==
            std::vector<uint32_t>{77, a[2], a[3], 30, 31, 99, 10});
      CHECK(std::vector<uint32_t>(out.begin() + 26, out.begin() + 30) == std::vector<uint32_t>{a[0], a[1], b[0], 5});
      CHECK(std::vector<uint32_t>(out.begin() + 30, out.begin() + 34) == std::vector<uint32_t>{7, b[2], b[3], a[3]});
      CHECK(std::vector<uint32_t>(out.begin() + 34, out.begin() + 38) == std::vector<uint32_t>(a, a + 4));
      CHECK(out[38] == 31);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 4. OpSwitch on 64-, 16- and 8-bit selectors
// ---------------------------------------------------------------------------------------------

namespace {

std::vector<uint32_t> runSwitch(const char* kernelName, const std::vector<uint64_t>& in) {
  host::Device device;
  auto program = loadSpvasm(device, "switch");
  host::Kernel kernel(program, kernelName);
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 8));
  return runToVector<uint32_t>(kernel, in.size(), in.size());
}

const std::vector<uint64_t> kSelectors = {0,
                                          1,
                                          5,
                                          6,
                                          42,
                                          127,
                                          128,
                                          200,
                                          255,
                                          256,
                                          0x7fff,
                                          0x8000,
                                          0xffff,
                                          0x10000,
                                          0x10001,
                                          0xffffffffull,
                                          0x100000000ull,
                                          0x100000005ull,
                                          0x200000000ull,
                                          0x1000000ffull,
                                          0x7fffffffffffffffull,
                                          0x8000000000000000ull,
                                          0xffffffff00000000ull,
                                          0xffffffffffffffffull,
                                          0x10000000000000c8ull};

}  // namespace

TEST_CASE("OpSwitch with a 64-bit selector", "[spvasm][switch]") {
  const auto out = runSwitch("switch64", kSelectors);
  for (size_t i = 0; i < kSelectors.size(); ++i) {
    uint32_t want = 100;
    switch (kSelectors[i]) {
      case 0: want = 1; break;
      case 5: want = 2; break;
      case 0xffffffffull: want = 3; break;
      case 0x100000000ull: want = 4; break;
      case 0x100000005ull: want = 5; break;
      case 0x8000000000000000ull: want = 6; break;
      case 0xffffffffffffffffull:
      case 42: want = 7; break;
      default: break;
    }
    INFO("selector 0x" << std::hex << kSelectors[i]);
    CHECK(out[i] == want);
  }
}

TEST_CASE("OpSwitch with a 16-bit selector", "[spvasm][switch]") {
  const auto out = runSwitch("switch16", kSelectors);
  for (size_t i = 0; i < kSelectors.size(); ++i) {
    uint32_t want = 100;
    switch (uint16_t(kSelectors[i])) {
      case 1: want = 1; break;
      case 0x8000: want = 2; break;
      case 0xffff: want = 3; break;
      default: break;
    }
    INFO("selector 0x" << std::hex << kSelectors[i]);
    CHECK(out[i] == want);
  }
}

TEST_CASE("OpSwitch with an 8-bit selector", "[spvasm][switch]") {
  const auto out = runSwitch("switch8", kSelectors);
  for (size_t i = 0; i < kSelectors.size(); ++i) {
    uint32_t want = 100;
    switch (uint8_t(kSelectors[i])) {
      case 0: want = 1; break;
      case 200: want = 2; break;
      case 255: want = 3; break;
      case 127: want = 4; break;
      default: break;
    }
    INFO("selector 0x" << std::hex << kSelectors[i]);
    CHECK(out[i] == want);
  }
}

// ---------------------------------------------------------------------------------------------
// 5. OpPhi: parallel copies (the swap problem)
// ---------------------------------------------------------------------------------------------

TEST_CASE("OpPhi swaps and rotates values in parallel", "[spvasm][phi]") {
  host::Device device;
  auto program = loadSpvasm(device, "phi_swap");
  for (uint32_t n : {0u, 1u, 2u, 3u, 7u, 50u}) {
    host::Kernel kernel(program, "phi_swap");
    kernel.setArg(1, n);
    const auto out = runToVector<uint32_t>(kernel, 8);
    uint32_t a = 1, b = 2, x = 10, y = 20, z = 30, f = 0, g = 1;
    for (uint32_t i = 0; i < n; ++i) {
      std::swap(a, b);
      const uint32_t t = x;
      x = y, y = z, z = t;
      const uint32_t fg = f + g;
      f = g, g = fg;
    }
    INFO("n = " << n);
    CHECK(out == std::vector<uint32_t>{a, b, x, y, z, f, g, n});
  }
}

// ---------------------------------------------------------------------------------------------
// 6. OpFunctionCall with return values and pointer parameters
// ---------------------------------------------------------------------------------------------

TEST_CASE("OpFunctionCall with return values and pointer parameters", "[spvasm][call]") {
  host::Device device;
  auto program = loadSpvasm(device, "function_call");
  host::Kernel kernel(program, "function_call");
  const uint32_t x = 123457, y = 0x9876;
  const uint32_t in[2] = {x, y};
  kernel.setArg(1, std::make_shared<host::Buffer>(in, sizeof in));
  const auto out = runToVector<uint32_t>(kernel, 8);
  CHECK(out == std::vector<uint32_t>{x + y, x * y, 55, x * y, (y + y) * 2, y * y, x ^ y, 1003});
}

// ---------------------------------------------------------------------------------------------
// 7. OpCopyMemory / OpCopyMemorySized, initialised variables, program-scope variables
// ---------------------------------------------------------------------------------------------

TEST_CASE("OpCopyMemory, OpCopyMemorySized and initialised Function variables", "[spvasm][memory]") {
  host::Device device;
  auto program = loadSpvasm(device, "memory_copy");
  host::Kernel kernel(program, "memory_copy");
  const std::vector<uint32_t> in = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 8};
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
  // Two work-groups of four: the initialisers must hold afresh for every work-item.
  const size_t n = 8;
  auto outBuf = std::make_shared<host::Buffer>(n * 32 * 4);
  kernel.setArg(0, outBuf);
  host::NDRange range;
  range.global = {n, 1, 1};
  range.local = std::array<size_t, 3>{4, 1, 1};
  const auto r = kernel.run(range);
  INFO((r.fault ? r.fault->format() : std::string()));
  REQUIRE(r.ok);
  const auto out = outBuf->as<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    INFO("work-item " << i);
    const uint32_t* rec = &out[32 * i];
    std::vector<uint32_t> want = {1, 2, 3, 4, 5, 6, 7, 8, 100 + i};
    for (uint32_t k = 0; k < 8; ++k) want.push_back(k == 1 ? i : in[k]);
    for (uint32_t v : {1000 + i, in[0], in[1], in[2], 5u, 6u, 7u, 8u}) want.push_back(v);
    want.push_back(in[0]);
    want.push_back(in[1]);
    want.push_back(40 + i);
    CHECK(std::vector<uint32_t>(rec, rec + 28) == want);
  }
}

TEST_CASE("program-scope variables keep their value between runs", "[spvasm][memory]") {
  host::Device device;
  auto program = loadSpvasm(device, "memory_copy");
  host::Kernel kernel(program, "program_scope");
  const std::vector<uint32_t> table = {1, 2, 3, 4, 5, 6, 7, 8};
  for (uint32_t run = 0; run < 3; ++run) {
    const auto out = runToVector<uint32_t>(kernel, 9);
    CHECK(out[0] == 5 + run);
    CHECK(std::vector<uint32_t>(out.begin() + 1, out.end()) == table);
  }
  // A second kernel object on the same program sees the same variable.
  host::Kernel again(program, "program_scope");
  CHECK(runToVector<uint32_t>(again, 9)[0] == 8);
}

// ---------------------------------------------------------------------------------------------
// 8. OpFMod/OpFRem/OpFNegate, class tests, ordered/unordered comparisons, vector OpSelect
// ---------------------------------------------------------------------------------------------

namespace {

// OpFRem: the remainder with the sign of operand 1, i.e. C's fmod (exact). OpFMod: the
// remainder with the sign of operand 2: fmod(x, y) + y when the signs differ and it is not 0.
// The inputs below keep x/y and the sum r + y exact in long double, so one rounding to T.
template <class T> T refFMod(T x, T y) {
  const T r = std::fmod(x, y);
  if (r == 0 || std::isnan(r) || std::signbit(r) == std::signbit(y)) return r;
  return T((long double)r + (long double)y);
}

template <class T, class U> void checkFModFRem(const char* kernelName) {
  host::Device device;
  auto program = loadSpvasm(device, "float_ops");
  host::Kernel kernel(program, kernelName);
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const std::vector<std::pair<T, T>> pairs = {{T(5.5), T(2)},
                                              {T(-5.5), T(2)},
                                              {T(5.5), T(-2)},
                                              {T(-5.5), T(-2)},
                                              {T(7), T(7)},
                                              {T(-7), T(7)},
                                              {T(7), T(-7)},
                                              {T(0.75), T(0.5)},
                                              {T(-0.75), T(0.5)},
                                              {T(0.75), T(-0.5)},
                                              {T(1e6 + 0.25), T(-3)},
                                              {T(-1e6 - 0.25), T(3)},
                                              {T(1), T(1e-3)},
                                              {T(-1), T(1e-3)},
                                              {T(0), T(3)},
                                              {T(-0.0), T(3)},
                                              {T(0), T(-3)},
                                              {T(2.5), T(0.1)},
                                              {T(-2.5), T(0.1)},
                                              {T(3), T(0)},
                                              {inf, T(2)},
                                              {nan, T(2)},
                                              {T(2), nan},
                                              {T(1.5), inf},
                                              {T(-1.5), inf}};
  std::vector<T> in;
  for (auto [x, y] : pairs) in.insert(in.end(), {x, y});
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * sizeof(T)));
  const auto out = runToVector<T>(kernel, pairs.size() * 3, pairs.size());
  const U sign = U(1) << (sizeof(U) * 8 - 1);
  for (size_t i = 0; i < pairs.size(); ++i) {
    const auto [x, y] = pairs[i];
    INFO("x = " << x << ", y = " << y << " (FMod " << out[3 * i] << ", FRem " << out[3 * i + 1] << ")");
    // FRem: C fmod, bit-exact (NaN for y = 0, x infinite or a NaN operand)
    const T rem = std::fmod(x, y);
    if (std::isnan(rem))
      CHECK(std::isnan(out[3 * i + 1]));
    else
      CHECK(bits<U>(out[3 * i + 1]) == bits<U>(rem));
    // FMod: checked where it is finite and well defined (not for an infinite operand 2)
    if (!std::isinf(y)) {
      const T mod = refFMod(x, y);
      if (std::isnan(mod))
        CHECK(std::isnan(out[3 * i]));
      else if (mod == 0)
        CHECK(out[3 * i] == 0);
      else
        CHECK(bits<U>(out[3 * i]) == bits<U>(mod));
    }
    // FNegate flips the sign bit, of zeros and NaNs too
    if (std::isnan(x)) {
      CHECK(std::isnan(out[3 * i + 2]));
      CHECK((bits<U>(out[3 * i + 2]) & sign) == ((bits<U>(x) & sign) ^ sign));
    } else {
      CHECK(bits<U>(out[3 * i + 2]) == (bits<U>(x) ^ sign));
    }
  }
}

// The 16 results of float_class/half_class for (x, y), from IEEE 754 and C++ comparisons.
// `normal` is decided by the caller (for half, from its own exponent field).
std::vector<uint32_t> refClass(float x, float y, bool normal) {
  const bool un = std::isnan(x) || std::isnan(y);
  auto b = [](bool v) { return v ? 1u : 0u; };
  return {
      b(std::isnan(x)), b(std::isinf(x)), b(std::isfinite(x)), b(normal), b(std::signbit(x)), b(!un),         b(un),
      b(x == y),        b(un || x == y),  b(!un && x != y),    b(x != y), b(x < y),           b(un || x < y), b(x >= y),
      b(un || x >= y),  b(x < y || x > y)};
}

// binary16 → float by integer arithmetic (exact).
float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 0x3ff;
  if (exp == 31) return bits<float>(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    const float v = std::ldexp(float(man), -24);
    return sign ? -v : v;
  }
  return bits<float>(sign | ((exp - 15 + 127) << 23) | (man << 13));
}

}  // namespace

TEST_CASE("OpFMod, OpFRem and OpFNegate on floats", "[spvasm][float]") {
  checkFModFRem<float, uint32_t>("fmod_frem_f32");
}

TEST_CASE("OpFMod, OpFRem and OpFNegate on doubles", "[spvasm][float]") {
  checkFModFRem<double, uint64_t>("fmod_frem_f64");
}

TEST_CASE("class tests and ordered/unordered comparisons on floats", "[spvasm][float]") {
  host::Device device;
  auto program = loadSpvasm(device, "float_ops");
  host::Kernel kernel(program, "float_class");
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float den = std::numeric_limits<float>::denorm_min(), fmin = std::numeric_limits<float>::min();
  const std::vector<float> values = {0.0f, -0.0f, 1.0f, -2.5f, inf,   -inf,    nan,
                                     -nan, den,   -den, fmin,  -fmin, 3.4e38f, bits<float>(0x7f800001u)};
  std::vector<float> in;
  for (float x : values)
    for (float y : {x, 1.0f, -0.0f, nan, inf}) in.insert(in.end(), {x, y});
  const size_t n = in.size() / 2;
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
  const auto out = runToVector<uint32_t>(kernel, n * 16, n);
  for (size_t i = 0; i < n; ++i) {
    const float x = in[2 * i], y = in[2 * i + 1];
    INFO("x = 0x" << std::hex << bits<uint32_t>(x) << ", y = 0x" << bits<uint32_t>(y));
    CHECK(std::vector<uint32_t>(out.begin() + 16 * i, out.begin() + 16 * i + 16) == refClass(x, y, std::isnormal(x)));
  }
}

namespace {

void checkHalfClass(spv_target_env env, uint32_t version) {
  host::Device device;
  const auto words = assembleSpvasm("half_class", env);
  REQUIRE(words.at(1) == version);  // the SPIR-V version the case is about
  auto program = host::Program::fromSpirv(device, words);
  host::Kernel kernel(program, "half_class");
  // zero, -zero, one, -2.5, inf, -inf, qNaN, -qNaN, sNaN, smallest subnormal, largest subnormal,
  // smallest normal, -smallest normal, largest finite 65504
  const std::vector<uint16_t> values = {0x0000, 0x8000, 0x3c00, 0xc100, 0x7c00, 0xfc00, 0x7e00,
                                        0xfe00, 0x7c01, 0x0001, 0x03ff, 0x0400, 0x8400, 0x7bff};
  std::vector<uint16_t> in;
  for (uint16_t x : values)
    for (uint16_t y : {x, uint16_t(0x3c00), uint16_t(0x8000), uint16_t(0x7e00), uint16_t(0x0001)})
      in.insert(in.end(), {x, y});
  const size_t n = in.size() / 2;
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 2));
  const auto out = runToVector<uint32_t>(kernel, n * 16, n);
  for (size_t i = 0; i < n; ++i) {
    const uint16_t x = in[2 * i], y = in[2 * i + 1];
    const unsigned exp = (x >> 10) & 31;
    INFO("x = 0x" << std::hex << x << ", y = 0x" << y);
    CHECK(std::vector<uint32_t>(out.begin() + 16 * i, out.begin() + 16 * i + 16) ==
          refClass(halfToFloat(x), halfToFloat(y), exp != 0 && exp != 31));
  }
}

}  // namespace

TEST_CASE("class tests and ordered/unordered comparisons on halfs", "[spvasm][float][half]") {
  checkHalfClass(SPV_ENV_UNIVERSAL_1_3, 0x00010300);
}

// OpenCL SPIR-V Environment §5 [[opencl_extensions]] cl_khr_fp16: the environment "must accept modules that declare"
// Float16, in any SPIR-V version it consumes, 1.0 to 1.2 included (llvm-spirv emits those), although SPIRV-Tools'
// OpenCL 2.2 environment refuses the capability (interpreter/module_validate.cpp validates such modules otherwise).
TEST_CASE("Float16 capability in a SPIR-V 1.2 module", "[spvasm][float][half]") {
  checkHalfClass(SPV_ENV_OPENCL_2_2, 0x00010200);
}

TEST_CASE("OpSelect with a vector condition", "[spvasm][float]") {
  host::Device device;
  auto program = loadSpvasm(device, "float_ops");
  host::Kernel kernel(program, "select_vec");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<uint32_t> in = {5, 0xffffffff, 7, bits<uint32_t>(nan), 9, 3, 7, bits<uint32_t>(nan)};
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
  const auto out = runToVector<uint32_t>(kernel, 8);
  std::vector<uint32_t> want;
  for (int c = 0; c < 4; ++c) want.push_back(std::min(in[c], in[4 + c]));
  for (int c = 0; c < 4; ++c) want.push_back(bits<float>(in[c]) == bits<float>(in[4 + c]) ? 1 : 2);
  CHECK(out == want);
}

// ---------------------------------------------------------------------------------------------
// 9. Pointer conversions and generic pointers
// ---------------------------------------------------------------------------------------------

TEST_CASE("pointer conversions and generic pointers", "[spvasm][pointer]") {
  host::Device device;
  auto program = loadSpvasm(device, "pointers");
  host::Kernel kernel(program, "pointers");
  const uint32_t in[4] = {0x1111, 0x2222, 0x3333, 0x4444};
  kernel.setArg(1, std::make_shared<host::Buffer>(in, sizeof in));
  kernel.setArgLocal(2, 16);
  const auto out = runToVector<uint64_t>(kernel, 13);
  CHECK(out[0] == in[1]);
  CHECK(out[1] == in[0]);
  CHECK(out[2] == 0);
  CHECK(out[3] == 77);
  CHECK(out[4] == 0);
  CHECK(out[5] == 0x100);  // WorkgroupMemory
  CHECK(out[6] == 0x200);  // CrossWorkgroupMemory
  CHECK(out[7] == 0);
  CHECK(out[8] == 0);
  CHECK(out[9] == 0);
  CHECK(out[10] == 12);
  CHECK(out[11] == 0);
  CHECK(out[12] == 31);
}

// ---------------------------------------------------------------------------------------------
// 10. Physical32 addressing
// ---------------------------------------------------------------------------------------------

TEST_CASE("Physical32 module on a 32-bit device", "[spvasm][physical32]") {
  host::DeviceConfig config;
  config.addressBits = 32;
  host::Device device(config);
  auto program = loadSpvasm(device, "physical32");
  host::Kernel kernel(program, "physical32");
  const uint32_t n = 12;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = 0xabc000 + i * i;
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
  const auto out = runToVector<uint32_t>(kernel, 4 * n, n);
  for (uint32_t i = 0; i < n; ++i) {
    INFO("work-item " << i);
    CHECK(std::vector<uint32_t>(out.begin() + 4 * i, out.begin() + 4 * i + 4) ==
          std::vector<uint32_t>{i, n, 4 * i, in[i]});
  }
}

namespace {

// Loading, creating the kernel and running it: the mismatch may be caught at any step, but it
// must be a ModuleError whose message names both addressing widths.
std::string addressingMismatch(unsigned deviceBits, const std::string& module) {
  host::DeviceConfig config;
  config.addressBits = deviceBits;
  host::Device device(config);
  try {
    auto program = loadSpvasm(device, module);
    host::Kernel kernel(program, module);
    auto out = std::make_shared<host::Buffer>(64);
    kernel.setArg(0, out);
    if (kernel.argCount() > 1) kernel.setArg(1, std::make_shared<host::Buffer>(64));
    if (kernel.argCount() > 2) kernel.setArgLocal(2, 16);
    kernel.run(range1(1));
  } catch (const interpreter::ModuleError& e) { return e.what(); }
  return "";
}

}  // namespace

TEST_CASE("addressing model must match the device's address bits", "[spvasm][physical32]") {
  const std::string a = addressingMismatch(64, "physical32");
  INFO(a);
  CHECK(a.find("Physical32") != std::string::npos);
  CHECK(a.find("64") != std::string::npos);
  const std::string b = addressingMismatch(32, "pointers");
  INFO(b);
  CHECK(b.find("Physical64") != std::string::npos);
  CHECK(b.find("32") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// 11. Integer division and shifts at their edges
// ---------------------------------------------------------------------------------------------

namespace {

struct DivRun {
  std::vector<uint32_t> out;
  host::RunResult result;
};

DivRun runIntDiv(const std::vector<int32_t>& pairs, const char* choice = nullptr) {
  host::DeviceConfig config;
  if (choice) config.choices.set(choice);
  host::Device device(config);
  auto program = loadSpvasm(device, "int_edge");
  host::Kernel kernel(program, "int_div");
  const size_t n = pairs.size() / 2;
  kernel.setArg(1, std::make_shared<host::Buffer>(pairs.data(), pairs.size() * 4));
  auto out = std::make_shared<host::Buffer>(n * 5 * 4);
  kernel.setArg(0, out);
  DivRun r;
  r.result = kernel.run(range1(n));
  auto s = out->as<uint32_t>();
  r.out.assign(s.begin(), s.end());
  return r;
}

}  // namespace

TEST_CASE("OpSDiv, OpSRem, OpSMod, OpUDiv, OpUMod with negative operands", "[spvasm][int]") {
  const int32_t MIN = std::numeric_limits<int32_t>::min(), MAX = std::numeric_limits<int32_t>::max();
  const std::vector<int32_t> pairs = {7,   2,  -7,  2,   7,  -2,  -7,  -2,  6,         3,     -6,  3,  5,   7,
                                      -5,  7,  5,   -7,  0,  -5,  MIN, 1,   MIN,       2,     MIN, -2, MIN, 3,
                                      MAX, -1, MAX, MIN, -1, MIN, MIN, MAX, 123456789, -1000, -1,  1};
  const DivRun r = runIntDiv(pairs);
  INFO((r.result.fault ? r.result.fault->format() : std::string()));
  REQUIRE(r.result.ok);
  CHECK(r.result.warnings.empty());
  for (size_t i = 0; i < pairs.size() / 2; ++i) {
    const int32_t a = pairs[2 * i], b = pairs[2 * i + 1];
    INFO("a = " << a << ", b = " << b);
    int32_t mod = a % b;
    if (mod != 0 && (mod < 0) != (b < 0)) mod += b;
    CHECK(int32_t(r.out[5 * i + 0]) == a / b);  // truncation toward zero
    CHECK(int32_t(r.out[5 * i + 1]) == a % b);  // sign of the dividend
    CHECK(int32_t(r.out[5 * i + 2]) == mod);    // sign of the divisor
    CHECK(r.out[5 * i + 3] == uint32_t(a) / uint32_t(b));
    CHECK(r.out[5 * i + 4] == uint32_t(a) % uint32_t(b));
  }
}

TEST_CASE("integer division by zero warns and follows int_div_by_zero", "[spvasm][int]") {
  const std::vector<int32_t> pairs = {7, 0, -9, 0};
  SECTION("default: zero") {
    const DivRun r = runIntDiv(pairs);
    REQUIRE(r.result.ok);
    CHECK(!r.result.warnings.empty());
    CHECK(r.result.warningCount >= 2);
    for (const auto& w : r.result.warnings) CHECK(w.isWarning());
    CHECK(r.out == std::vector<uint32_t>(10, 0));
  }
  SECTION("all_ones") {
    const DivRun r = runIntDiv(pairs, "int_div_by_zero=all_ones");
    REQUIRE(r.result.ok);
    CHECK(!r.result.warnings.empty());
    for (size_t i = 0; i < 2; ++i) {
      CHECK(r.out[5 * i + 0] == 0xffffffffu);  // SDiv
      CHECK(r.out[5 * i + 3] == 0xffffffffu);  // UDiv
    }
  }
  SECTION("dividend") {
    const DivRun r = runIntDiv(pairs, "int_div_by_zero=dividend");
    REQUIRE(r.result.ok);
    for (size_t i = 0; i < 2; ++i) {
      CHECK(r.out[5 * i + 0] == uint32_t(pairs[2 * i]));
      CHECK(r.out[5 * i + 3] == uint32_t(pairs[2 * i]));
    }
  }
}

TEST_CASE("INT_MIN / -1 warns and follows int_div_overflow", "[spvasm][int]") {
  const int32_t MIN = std::numeric_limits<int32_t>::min();
  const std::vector<int32_t> pairs = {MIN, -1};
  SECTION("default: wrap") {
    const DivRun r = runIntDiv(pairs);
    REQUIRE(r.result.ok);
    CHECK(!r.result.warnings.empty());
    CHECK(r.out[0] == uint32_t(MIN));  // SDiv wraps
    CHECK(r.out[1] == 0);              // SRem
    CHECK(r.out[2] == 0);              // SMod
    CHECK(r.out[3] == 0);              // UDiv 0x80000000 / 0xffffffff: defined
    CHECK(r.out[4] == 0x80000000u);    // UMod: defined
  }
  SECTION("zero") {
    const DivRun r = runIntDiv(pairs, "int_div_overflow=zero");
    REQUIRE(r.result.ok);
    CHECK(!r.result.warnings.empty());
    CHECK(r.out[0] == 0);
    CHECK(r.out[1] == 0);
  }
}

TEST_CASE("shift counts are taken modulo the width (OpenCL rule)", "[spvasm][int]") {
  host::Device device;
  auto program = loadSpvasm(device, "int_edge");
  host::Kernel kernel(program, "shifts");
  std::vector<uint64_t> in;
  for (uint64_t x : {0x8123456789abcdefull, 0x00000000f0000081ull, 1ull, 0xffffffffffffffffull})
    for (uint64_t n : {0ull, 1ull, 7ull, 8ull, 9ull, 31ull, 32ull, 33ull, 63ull, 64ull, 65ull, 100ull, 0xffffffffull,
                       0x100000001ull})
      in.insert(in.end(), {x, n});
  const size_t count = in.size() / 2;
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 8));
  const auto out = runToVector<uint64_t>(kernel, count * 9, count);
  for (size_t i = 0; i < count; ++i) {
    const uint64_t x = in[2 * i], n = in[2 * i + 1];
    const unsigned n64 = unsigned(n % 64), n32 = unsigned(uint32_t(n) % 32), n8 = unsigned(uint8_t(n) % 8);
    const uint32_t x32 = uint32_t(x);
    const uint8_t x8 = uint8_t(x);
    INFO("x = 0x" << std::hex << x << ", n = 0x" << n);
    CHECK(out[9 * i + 0] == x << n64);
    CHECK(out[9 * i + 1] == x >> n64);
    CHECK(out[9 * i + 2] == uint64_t(int64_t(x) >> n64));
    CHECK(out[9 * i + 3] == uint32_t(x32 << n32));
    CHECK(out[9 * i + 4] == uint32_t(x32 >> n32));
    CHECK(out[9 * i + 5] == uint32_t(int32_t(x32) >> n32));
    CHECK(out[9 * i + 6] == uint8_t(x8 << n8));
    CHECK(out[9 * i + 7] == uint8_t(x8 >> n8));
    CHECK(out[9 * i + 8] == uint8_t(int8_t(x8) >> unsigned(n % 8)));
  }
}

// ---------------------------------------------------------------------------------------------
// 12. Conversions
// ---------------------------------------------------------------------------------------------

namespace {

// binary64 → binary16 rounded to nearest even, by integer arithmetic on the double's bits.
uint16_t doubleToHalfRne(double d) {
  const uint64_t b = bits<uint64_t>(d);
  const uint16_t sign = uint16_t((b >> 63) << 15);
  const int e = int((b >> 52) & 0x7ff);
  uint64_t m = b & ((uint64_t(1) << 52) - 1);
  if (e == 0x7ff) return uint16_t(sign | 0x7c00 | (m ? 0x200 : 0));
  if (e == 0 && m == 0) return sign;
  int k;  // value = m · 2^k
  if (e == 0)
    k = -1074;
  else
    m |= uint64_t(1) << 52, k = e - 1075;
  const int log2v = (63 - std::countl_zero(m)) + k;  // floor(log2 |value|)
  const int q = std::max(-24, log2v - 10);           // the half quantum 2^q at this magnitude
  uint64_t n;
  if (k >= q) {
    if (k - q > 20) return uint16_t(sign | 0x7c00);  // far beyond the half range
    n = m << (k - q);
  } else {
    const int s = q - k;
    if (s >= 64) {
      n = 0;
    } else {
      n = m >> s;
      const uint64_t rem = m & ((uint64_t(1) << s) - 1), halfway = uint64_t(1) << (s - 1);
      if (rem > halfway || (rem == halfway && (n & 1))) ++n;
    }
  }
  // n counts quanta: below 2^-14 the encoding is n itself; above, n is in [1024, 2048] and a
  // carry into 2048 moves to the next binade by itself.
  const uint64_t enc = q == -24 ? n : (uint64_t(q + 10 + 15) << 10) + (n - 1024);
  if (enc >= 0x7c00) return uint16_t(sign | 0x7c00);
  return uint16_t(sign | enc);
}

}  // namespace

TEST_CASE("OpSConvert and OpUConvert between widths", "[spvasm][convert]") {
  host::Device device;
  auto program = loadSpvasm(device, "conversions", SPV_ENV_UNIVERSAL_1_3);
  host::Kernel kernel(program, "int_convert");
  const std::vector<uint64_t> in = {0,
                                    1,
                                    0x7f,
                                    0x80,
                                    0xff,
                                    0x7fff,
                                    0x8000,
                                    0xffff,
                                    0x7fffffff,
                                    0x80000000ull,
                                    0xffffffffull,
                                    0x123456789abcdef0ull,
                                    0xfedcba9876543210ull,
                                    ~0ull,
                                    0x8000000000000080ull};
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 8));
  const auto out = runToVector<uint64_t>(kernel, in.size() * 6, in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const uint64_t x = in[i];
    INFO("x = 0x" << std::hex << x);
    CHECK(out[6 * i + 0] == uint64_t(int64_t(int8_t(uint8_t(x)))));
    CHECK(out[6 * i + 1] == uint64_t(int64_t(int16_t(uint16_t(x)))));
    CHECK(out[6 * i + 2] == uint64_t(int64_t(int32_t(uint32_t(x)))));
    CHECK(out[6 * i + 3] == uint64_t(uint8_t(x)));
    CHECK(out[6 * i + 4] == uint64_t(uint16_t(x)));
    CHECK(out[6 * i + 5] == uint64_t(uint32_t(x)));
  }
}

TEST_CASE("OpConvertFToS/FToU truncate toward zero and saturate by default", "[spvasm][convert]") {
  host::Device device;
  auto program = loadSpvasm(device, "conversions", SPV_ENV_UNIVERSAL_1_3);
  host::Kernel kernel(program, "f_to_i");
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> in = {0.0f,           -0.0f,         0.5f,          -0.5f,         0.999f,
                                 -0.999f,        1.5f,          -1.5f,         2.5f,          -2.5f,
                                 123456.7f,      -123456.7f,    2147483520.0f, 2147483648.0f, -2147483648.0f,
                                 -2147483904.0f, 4294967040.0f, 4294967296.0f, 9.2233715e18f, 9.223372e18f,
                                 -9.223372e18f,  -1e19f,        1e30f,         -1e30f,        inf,
                                 -inf,           nan,           -nan,          1e-40f};
  kernel.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
  const auto out = runToVector<uint64_t>(kernel, in.size() * 3, in.size());
  // Saturating conversion (the default choice), with truncation toward zero in range.
  auto sat = [](float f, double lo, double hi) -> double {
    if (std::isnan(f)) return 0;
    const double t = std::trunc(double(f));
    return t < lo ? lo : t > hi ? hi : t;
  };
  for (size_t i = 0; i < in.size(); ++i) {
    const float f = in[i];
    INFO("x = " << f);
    CHECK(int32_t(uint32_t(out[3 * i + 0])) == int32_t(sat(f, INT32_MIN, INT32_MAX)));
    CHECK(uint32_t(out[3 * i + 1]) == uint32_t(sat(f, 0, UINT32_MAX)));
    const double s64 = sat(f, -9223372036854775808.0, 9223372036854775807.0);
    const int64_t want64 = s64 >= 9223372036854775807.0 ? INT64_MAX : int64_t(s64);
    CHECK(int64_t(out[3 * i + 2]) == want64);
  }
}

TEST_CASE("OpConvertUToF/SToF of 64-bit values round to nearest even", "[spvasm][convert]") {
  host::Device device;
  auto program = loadSpvasm(device, "conversions", SPV_ENV_UNIVERSAL_1_3);
  host::Kernel kernel(program, "u_to_f");
  std::vector<uint64_t> in = {0,
                              1,
                              0xffffff,
                              0x1000001,
                              0x1000003,
                              0x7fffffffffffffffull,
                              0x8000000000000000ull,
                              0xffffffffffffffffull,
                              0xfffffffffffff800ull,
                              0xfffffffffffffc00ull,
                              0x20000000000001ull,
                              0x20000000000003ull,
                              0x8000008000000000ull,
                              0x8000018000000000ull,
                              0x8000008000000001ull,
                              0xffffff7fffffffffull,
                              0xffffff8000000000ull,
                              0x8000000000000400ull,
                              0x8000000000000c00ull};
  Lcg r{99};
  for (int k = 0; k < 40; ++k) in.push_back(r.next() >> (k % 40));
  kernel.setArg(2, std::make_shared<host::Buffer>(in.data(), in.size() * 8));
  auto outd = std::make_shared<host::Buffer>(in.size() * 16);
  kernel.setArg(1, outd);
  const auto outf = runToVector<float>(kernel, in.size() * 2, in.size());
  const auto od = outd->as<double>();
  for (size_t i = 0; i < in.size(); ++i) {
    const uint64_t x = in[i];
    INFO("x = 0x" << std::hex << x);
    // The host's conversions (x86-64, round to nearest even) are correctly rounded.
    CHECK(bits<uint32_t>(outf[2 * i + 0]) == bits<uint32_t>(float(x)));
    CHECK(bits<uint32_t>(outf[2 * i + 1]) == bits<uint32_t>(float(int64_t(x))));
    CHECK(bits<uint64_t>(od[2 * i + 0]) == bits<uint64_t>(double(x)));
    CHECK(bits<uint64_t>(od[2 * i + 1]) == bits<uint64_t>(double(int64_t(x))));
  }
}

TEST_CASE("OpFConvert double and float to half rounds to nearest even", "[spvasm][convert][half]") {
  host::Device device;
  auto program = loadSpvasm(device, "conversions", SPV_ENV_UNIVERSAL_1_3);
  host::Kernel kernel(program, "f_to_half");
  std::vector<double> ind = {0.0,
                             -0.0,
                             1.0,
                             -1.0,
                             65504.0,
                             65519.0,
                             65519.99,
                             65520.0,
                             -65520.0,
                             1e6,
                             1e-10,
                             -1e-10,
                             1.0 + std::ldexp(1.0, -11),                         // tie: to even 1.0
                             1.0 + 3 * std::ldexp(1.0, -11),                     // tie: to even 1 + 2^-9
                             1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),  // above the tie (float(x) is the tie)
                             std::ldexp(1.0, -25),                         // tie between 0 and the smallest subnormal
                             3 * std::ldexp(1.0, -25),                     // tie: to even 2^-23
                             std::ldexp(1.0, -25) + std::ldexp(1.0, -60),  // just above: smallest subnormal
                             std::ldexp(1.0, -14) - std::ldexp(1.0, -25),  // tie at the subnormal/normal edge
                             std::ldexp(1023.5, -24),                      // tie: to even 2^-14 (largest subnormal + 1)
                             std::ldexp(1.0, -26),
                             0.1,
                             -0.3,
                             3.14159265358979,
                             2049.0,
                             2051.0,
                             4097.0,
                             4099.0,
                             6143.0,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::denorm_min()};
  Lcg r{7};
  for (int k = 0; k < 60; ++k) {
    // random values across the half range, some exactly at ties
    const double v = std::ldexp(double(r.next() >> 11), int(r.next() % 44) - 80);
    ind.push_back((k & 1) ? -v : v);
  }
  std::vector<float> inf;
  for (double d : ind) inf.push_back(float(d));
  kernel.setArg(1, std::make_shared<host::Buffer>(ind.data(), ind.size() * 8));
  kernel.setArg(2, std::make_shared<host::Buffer>(inf.data(), inf.size() * 4));
  const auto out = runToVector<uint16_t>(kernel, ind.size() * 2, ind.size());
  for (size_t i = 0; i < ind.size(); ++i) {
    INFO("x = " << ind[i] << " (0x" << std::hex << bits<uint64_t>(ind[i]) << "), float 0x" << bits<uint32_t>(inf[i]));
    if (std::isnan(ind[i])) {
      CHECK((out[2 * i] & 0x7c00) == 0x7c00);
      CHECK((out[2 * i] & 0x3ff) != 0);
      continue;
    }
    CHECK(out[2 * i + 0] == doubleToHalfRne(ind[i]));
    CHECK(out[2 * i + 1] == doubleToHalfRne(double(inf[i])));
  }
  // The reference itself, on values fixed by hand.
  CHECK(doubleToHalfRne(1.0) == 0x3c00);
  CHECK(doubleToHalfRne(65504.0) == 0x7bff);
  CHECK(doubleToHalfRne(65520.0) == 0x7c00);
  CHECK(doubleToHalfRne(std::ldexp(1.0, -24)) == 0x0001);
  CHECK(doubleToHalfRne(std::ldexp(1.0, -14)) == 0x0400);
  CHECK(doubleToHalfRne(-2.0) == 0xc000);
  CHECK(doubleToHalfRne(1.0 + 3 * std::ldexp(1.0, -11)) == 0x3c02);
}
