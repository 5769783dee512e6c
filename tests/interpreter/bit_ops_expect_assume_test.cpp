// cl_khr_extended_bit_ops (OpenCL C 3.0 §6.15.3.1 [[extended-bit-operations]]) and cl_khr_expect_assume from OpenCL C
// source: the device reports both, the compiler keeps their instructions (OpBitFieldInsert and the rest,
// OpExpectKHR/OpAssumeTrueKHR) and the interpreter runs them. Expected values: the extension's definitions evaluated
// bit by bit here; a false __builtin_assume is undefined behaviour, which clref reports as a fault.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "host/host.hpp"
#include "compile_cl.hpp"

using namespace clref;

namespace {

const char* kSource = R"CL(
kernel void bits(global const uint* a, global const uint* b, global uint* out, global int* sout) {
  size_t i = get_global_id(0);
  // offset + count stays within the 32 bits (beyond them the result is undefined).
  uint off = b[i] % 32, cnt = 1 + (b[i] >> 8) % (32 - off);
  if (__builtin_expect(off + cnt > 32, 0)) cnt = 32 - off;
  out[4 * i] = bitfield_insert(a[i], b[i], off, cnt);
  out[4 * i + 1] = bitfield_extract_unsigned(a[i], off, cnt);
  out[4 * i + 2] = bit_reverse(a[i]);
  out[4 * i + 3] = (uint)bit_reverse((uchar)a[i]);
  sout[i] = bitfield_extract_signed((int)a[i], off, cnt);
}

kernel void assumes(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  __builtin_assume(in[i] >= 0);
  out[i] = in[i] / 4;
}
)CL";

// The extension's definitions for 32-bit operands: insert replaces bits [offset, offset + count) of base with the low
// count bits of insert; extract takes bits [offset, offset + count) to the low end, zero- or sign-extended; reverse
// mirrors bit k to bit width - 1 - k.
uint32_t mask(uint32_t count) { return count >= 32 ? ~0u : (1u << count) - 1; }
uint32_t insertBits(uint32_t base, uint32_t ins, uint32_t off, uint32_t cnt) {
  const uint32_t m = mask(cnt) << off;
  return (base & ~m) | ((ins << off) & m);
}
uint32_t extractUnsigned(uint32_t v, uint32_t off, uint32_t cnt) { return (v >> off) & mask(cnt); }
int32_t extractSigned(uint32_t v, uint32_t off, uint32_t cnt) {
  const uint32_t u = extractUnsigned(v, off, cnt);
  const bool negative = (u >> (cnt - 1)) & 1;
  return int32_t(negative ? (u | ~mask(cnt)) : u);
}
uint32_t reverse(uint32_t v, unsigned width) {
  uint32_t r = 0;
  for (unsigned k = 0; k < width; ++k)
    if ((v >> k) & 1) r |= 1u << (width - 1 - k);
  return r;
}

}  // namespace

TEST_CASE("the device reports cl_khr_extended_bit_ops and cl_khr_expect_assume", "[execution][bit-ops]") {
  const auto ext = host::openCLCExtensions(host::DeviceConfig());
  CHECK(std::count(ext.begin(), ext.end(), "cl_khr_extended_bit_ops") == 1);
  CHECK(std::count(ext.begin(), ext.end(), "cl_khr_expect_assume") == 1);
}

TEST_CASE("bitfield_insert, bitfield_extract_* and bit_reverse from OpenCL C", "[execution][bit-ops]") {
  if (!test::openCLCCompilerOrSkip()) return;
  auto program = host::Program::fromOpenCLC(host::Device(), kSource, "-cl-std=CL3.0");
  host::Kernel k(program, "bits");
  constexpr size_t n = 512;
  std::vector<uint32_t> a(n), b(n);
  uint32_t x = 0x9e3779b9;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    a[i] = x;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    b[i] = x;
  }
  auto out = std::make_shared<host::Buffer>(n * 16);
  auto sout = std::make_shared<host::Buffer>(n * 4);
  k.setArg(0, std::make_shared<host::Buffer>(a.data(), n * 4));
  k.setArg(1, std::make_shared<host::Buffer>(b.data(), n * 4));
  k.setArg(2, out);
  k.setArg(3, sout);
  host::NDRange r;
  r.global = {n, 1, 1};
  const auto res = k.run(r);
  INFO((res.fault ? res.fault->format() : std::string()));
  REQUIRE(res.ok);
  const auto o = out->as<uint32_t>();
  const auto s = sout->as<int32_t>();
  for (size_t i = 0; i < n; ++i) {
    INFO("a " << a[i] << " b " << b[i]);
    const uint32_t off = b[i] % 32, cnt = 1 + (b[i] >> 8) % (32 - off);
    CHECK(o[4 * i] == insertBits(a[i], b[i], off, cnt));
    CHECK(o[4 * i + 1] == extractUnsigned(a[i], off, cnt));
    CHECK(o[4 * i + 2] == reverse(a[i], 32));
    CHECK(o[4 * i + 3] == reverse(a[i] & 0xff, 8));
    CHECK(s[i] == extractSigned(a[i], off, cnt));
  }
}

TEST_CASE("__builtin_assume: a kept promise runs, a broken one is a fault", "[execution][bit-ops]") {
  if (!test::openCLCCompilerOrSkip()) return;
  auto program = host::Program::fromOpenCLC(host::Device(), kSource, "-cl-std=CL3.0");
  // The compiler kept the assumption: OpCapability ExpectAssumeKHR (5629), an instruction of two words, opcode 17.
  const auto& words = program->spirv();
  bool declared = false;
  for (size_t w = 5; w + 1 < words.size(); ++w)
    declared = declared || (words[w] == ((2u << 16) | 17u) && words[w + 1] == 5629);
  CHECK(declared);
  host::Kernel k(program, "assumes");
  std::vector<int32_t> in(64);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 5);
  auto out = std::make_shared<host::Buffer>(in.size() * 4);
  k.setArg(0, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
  k.setArg(1, out);
  host::NDRange r;
  r.global = {in.size(), 1, 1};
  auto res = k.run(r);
  REQUIRE(res.ok);
  for (size_t i = 0; i < in.size(); ++i) CHECK(out->as<int32_t>()[i] == in[i] / 4);
  in[37] = -8;
  k.setArg(0, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
  res = k.run(r);
  REQUIRE_FALSE(res.ok);
  REQUIRE(res.fault);
  CHECK(res.fault->message.find("OpAssumeTrueKHR") != std::string::npos);
  CHECK(res.fault->globalId[0] == 37);
}
