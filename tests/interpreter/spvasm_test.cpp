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

// SPIR-V 1.2 §3.32.14, computed bit by bit so that nothing depends on shift-count rules.
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
      {0, 0}, {width, 0}, {width / 2, 0}, {0, width}, {0, 1}, {width - 1, 1}, {1, width - 1},
      {0, width - 1}, {width / 2, width / 2}, {3, 5}, {width - 8, 8}, {7, width - 20}};
  for (unsigned off = 0; off < width; off += 5)
    for (unsigned cnt = 1; off + cnt <= width; cnt += 7) v.push_back({off, cnt});
  return v;
}

template <class T> std::vector<T> bitfieldBases() {
  std::vector<T> b = {0, T(~T(0)), T(1), T(T(1) << (sizeof(T) * 8 - 1)), T(0x5555555555555555ull),
                      T(0x8000000180000001ull), T(0x0123456789abcdefull)};
  Lcg r{sizeof(T)};
  while (b.size() < 16) b.push_back(T(r.next()));
  return b;
}

template <class T> void checkScalarBitfield(const char* kernelName) {
  host::Device device;
  auto program = loadSpvasm(device, "bitfield");
  host::Kernel kernel(program, kernelName);
  constexpr unsigned W = sizeof(T) * 8;
  struct Rec { T base, ins; unsigned off, cnt; };
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
    INFO("record " << i << ": base 0x" << std::hex << uint64_t(r.base) << " insert 0x" << uint64_t(r.ins)
                   << std::dec << " offset " << r.off << " count " << r.cnt);
    CHECK(out[5 * i + 0] == refInsert<T>(r.base, r.ins, r.off, r.cnt));
    CHECK(out[5 * i + 1] == refSExtract<T>(r.base, r.off, r.cnt));
    CHECK(out[5 * i + 2] == refUExtract<T>(r.base, r.off, r.cnt));
    CHECK(out[5 * i + 3] == refReverse<T>(r.base));
    CHECK(out[5 * i + 4] == T(std::popcount(r.base)));
  }
}

}  // namespace

TEST_CASE("bit-field instructions, 32-bit", "[spvasm][bitfield][!mayfail]") { checkScalarBitfield<uint32_t>("bitfield32"); }

TEST_CASE("bit-field instructions, 64-bit", "[spvasm][bitfield][!mayfail]") { checkScalarBitfield<uint64_t>("bitfield64"); }

TEST_CASE("bit-field instructions, uint4", "[spvasm][bitfield][!mayfail]") {
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

const std::vector<uint64_t> kSelectors = {
    0, 1, 5, 6, 42, 127, 128, 200, 255, 256, 0x7fff, 0x8000, 0xffff, 0x10000, 0x10001, 0xffffffffull,
    0x100000000ull, 0x100000005ull, 0x200000000ull, 0x1000000ffull, 0x7fffffffffffffffull,
    0x8000000000000000ull, 0xffffffff00000000ull, 0xffffffffffffffffull, 0x10000000000000c8ull};

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
      case 0xffffffffffffffffull: case 42: want = 7; break;
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
