// cl_khr_integer_dot_product (OpenCL C 3.0 §6.15.3 [[integer-functions]] dot, dot_acc_sat and the packed forms;
// SPV_KHR_integer_dot_product [external] OpSDot/OpUDot/OpSUDot and the AccSat forms): every built-in through the host
// compiler, on random operands and on the extremes that saturate, and a hand-written module with
// PackedVectorFormat4x8Bit and 16-bit components. Expected values are the sums of products computed here in 64-bit
// integers, saturated by comparison.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "host/host.hpp"
#include "spvasm.hpp"

using namespace clref;

namespace {

const char* kSource = R"CL(
kernel void dots(global const uint* a, global const uint* b, global const int* acc, global int* out) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  int c = acc[i];
  uchar4 ux = as_uchar4(x), uy = as_uchar4(y);
  char4 sx = as_char4(x), sy = as_char4(y);
  global int* o = out + i * 16;
  o[0] = (int)dot(ux, uy);
  o[1] = dot(sx, sy);
  o[2] = dot(ux, sy);
  o[3] = dot(sx, uy);
  o[4] = (int)dot_acc_sat(ux, uy, (uint)c);
  o[5] = dot_acc_sat(sx, sy, c);
  o[6] = dot_acc_sat(ux, sy, c);
  o[7] = dot_acc_sat(sx, uy, c);
  o[8] = (int)dot_4x8packed_uu_uint(x, y);
  o[9] = dot_4x8packed_ss_int(x, y);
  o[10] = dot_4x8packed_us_int(x, y);
  o[11] = dot_4x8packed_su_int(x, y);
  o[12] = (int)dot_acc_sat_4x8packed_uu_uint(x, y, (uint)c);
  o[13] = dot_acc_sat_4x8packed_ss_int(x, y, c);
  o[14] = dot_acc_sat_4x8packed_us_int(x, y, c);
  o[15] = dot_acc_sat_4x8packed_su_int(x, y, c);
}
)CL";

// Component k of the packed word: byte k, least significant first.
int64_t byteOf(uint32_t w, int k, bool isSigned) {
  const uint8_t b = uint8_t(w >> (8 * k));
  return isSigned ? int64_t(int8_t(b)) : int64_t(b);
}
int64_t dotOf(uint32_t x, uint32_t y, bool sx, bool sy) {
  int64_t s = 0;
  for (int k = 0; k < 4; ++k) s += byteOf(x, k, sx) * byteOf(y, k, sy);
  return s;
}
int64_t clampTo(int64_t v, int64_t lo, int64_t hi) { return std::min(hi, std::max(lo, v)); }

}  // namespace

TEST_CASE("dot products of 4x8-bit vectors, plain, saturating and packed", "[execution][dot-product]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const host::Device device;
  auto program = host::Program::fromOpenCLC(device, kSource, "-cl-std=CL3.0");
  // The packed built-ins became the same instructions as the vector ones: nothing is left to link.
  host::Kernel k(program, "dots");
  std::vector<uint32_t> a, b;
  std::vector<int32_t> acc;
  // The extremes: all components at their limits, with accumulators that push past INT_MAX/INT_MIN and UINT_MAX.
  for (uint32_t x : {0u, 0x7f7f7f7fu, 0x80808080u, 0xffffffffu})
    for (uint32_t y : {0u, 0x7f7f7f7fu, 0x80808080u, 0xffffffffu})
      for (int32_t c : {0, 1, -1, std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(),
                        std::numeric_limits<int32_t>::max() - 1000})
        a.push_back(x), b.push_back(y), acc.push_back(c);
  std::mt19937 rng(12);
  for (int n = 0; n < 400; ++n) a.push_back(rng()), b.push_back(rng()), acc.push_back(int32_t(rng()));
  const size_t n = a.size();
  auto out = std::make_shared<host::Buffer>(n * 16 * sizeof(int32_t));
  k.setArg(0, std::make_shared<host::Buffer>(a.data(), n * 4));
  k.setArg(1, std::make_shared<host::Buffer>(b.data(), n * 4));
  k.setArg(2, std::make_shared<host::Buffer>(acc.data(), n * 4));
  k.setArg(3, out);
  host::NDRange r;
  r.global = {n, 1, 1};
  const auto res = k.run(r);
  INFO((res.fault ? res.fault->format() : std::string()));
  REQUIRE(res.ok);
  const auto o = out->as<int32_t>();
  constexpr int64_t kIntMin = std::numeric_limits<int32_t>::min(), kIntMax = std::numeric_limits<int32_t>::max();
  constexpr int64_t kUintMax = std::numeric_limits<uint32_t>::max();
  for (size_t i = 0; i < n; ++i) {
    INFO("a = " << a[i] << ", b = " << b[i] << ", acc = " << acc[i]);
    const int64_t uu = dotOf(a[i], b[i], false, false), ss = dotOf(a[i], b[i], true, true);
    const int64_t us = dotOf(a[i], b[i], false, true), su = dotOf(a[i], b[i], true, false);
    const int64_t c = acc[i];
    for (int packed = 0; packed < 2; ++packed) {
      const int32_t* p = o.data() + i * 16 + packed * 8;
      INFO((packed ? "packed" : "vectors"));
      CHECK(uint32_t(p[0]) == uint32_t(uu));
      CHECK(p[1] == ss);
      CHECK(p[2] == us);
      CHECK(p[3] == su);
      CHECK(uint32_t(p[4]) == uint32_t(clampTo(uu + int64_t(uint32_t(c)), 0, kUintMax)));
      CHECK(p[5] == clampTo(ss + c, kIntMin, kIntMax));
      CHECK(p[6] == clampTo(us + c, kIntMin, kIntMax));
      CHECK(p[7] == clampTo(su + c, kIntMin, kIntMax));
    }
  }
}

TEST_CASE("the device reports cl_khr_integer_dot_product and its features", "[execution][dot-product]") {
  const host::DeviceConfig cfg;
  const auto ext = host::openCLCExtensions(cfg);
  CHECK(std::count(ext.begin(), ext.end(), "cl_khr_integer_dot_product") == 1);
  const auto features = host::openCLCFeatures(cfg);
  CHECK(std::count(features.begin(), features.end(), "__opencl_c_integer_dot_product_input_4x8bit") == 1);
  CHECK(std::count(features.begin(), features.end(), "__opencl_c_integer_dot_product_input_4x8bit_packed") == 1);
}

TEST_CASE("OpSDot with PackedVectorFormat4x8Bit, and OpUDotAccSat/OpSUDotAccSat of 16-bit components",
          "[spvasm][dot-product]") {
  const host::Device device;
  auto program = test::loadSpvasm(device, "dot_product");
  host::Kernel k(program, "dot_product");
  // in: x, y (packed words), then two short2 vectors as words (p, q) and an accumulator.
  const std::vector<uint32_t> cases[] = {
      {0x80ff7f01u, 0x7f80ff02u, 0x8000ffffu, 0x7fff8000u, 0x7ffffff0u},
      {0x01020304u, 0xfffefdfcu, 0x00020003u, 0x00040005u, 0xfffffff0u},
  };
  for (const auto& in : cases) {
    k.setArg(1, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
    const auto out = test::runToVector<uint32_t>(k, 3);
    const uint32_t x = in[0], y = in[1], p = in[2], q = in[3];
    const auto c = int32_t(in[4]);
    CHECK(int32_t(out[0]) == int32_t(dotOf(x, y, true, true)));
    auto comp = [](uint32_t w, int k2, bool s) {
      const uint16_t h = uint16_t(w >> (16 * k2));
      return s ? int64_t(int16_t(h)) : int64_t(h);
    };
    const int64_t uu = comp(p, 0, false) * comp(q, 0, false) + comp(p, 1, false) * comp(q, 1, false);
    const int64_t su = comp(p, 0, true) * comp(q, 0, false) + comp(p, 1, true) * comp(q, 1, false);
    CHECK(out[1] == uint32_t(clampTo(uu + int64_t(uint32_t(c)), 0, std::numeric_limits<uint32_t>::max())));
    CHECK(int32_t(out[2]) == clampTo(su + c, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
  }
}
