// Execution through the host API: SPIR-V versions 1.0–1.4, OpenCL C 2.0/3.0 generic address
// space, every work-item and sub-group builtin on a 3D non-uniform NDRange with an offset,
// Physical32, kernel argument kinds, and the uninitialised_memory choice. Expected values come
// from the OpenCL C specification's formulas evaluated on the host in this file.
#include <catch2/catch.hpp>

#include "compile_cl.hpp"
#include "ndrange.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"
#include "interpreter/module.hpp"

using namespace clref;

namespace {

namespace fs = std::filesystem;

using test::compileCL;  // tests/interpreter/compile_cl.hpp

using test::range1;  // tests/interpreter/ndrange.hpp

void requireOk(const host::RunResult& r) {
  INFO((r.fault ? r.fault->format() : std::string()));
  REQUIRE(r.ok);
}

template <class T> std::shared_ptr<host::Buffer> bufferOf(const std::vector<T>& v) {
  return std::make_shared<host::Buffer>(v.data(), v.size() * sizeof(T));
}

}  // namespace

// ---- (b) SPIR-V versions ---------------------------------------------------------------------

namespace {

const char* kVersionSource = R"CL(
typedef struct { int k; float w; } Pair;
int helper(int x, int y) {
  switch (x) {  // no narrowing of the condition: llvm-spirv-15 rejects i2 ("InvalidBitWidth")
    case -1: return x + y;
    case 0: return x * y + 1;
    case 3: return x - y;
    case 7: case 8: return x * y;
    default: return x ^ y;
  }
}
kernel void mix(global const int* a, global const float* f, global int* iout, global float* fout, Pair p) {
  size_t i = get_global_id(0);
  int acc = 0;
  // A fixed trip count, unrolled at -O2: llvm-spirv-15 lays out the exit block of a rotated
  // loop with a variable trip count before the loop, which spirv-val rejects (block order).
  for (int j = 0; j < 5; ++j)
    if (j <= (int)(i % 5)) acc += helper(a[i] + j, j + p.k);
  iout[i] = acc;
  float4 v = (float4)(f[i], f[i] * 2.0f, f[i] + 1.0f, p.w);
  int4 m = (int4)(a[i], a[i] >> 1, a[i] << 2, (int)i);
  v = v * (float4)(0.5f, 0.25f, 2.0f, 3.0f) + convert_float4(m);
  fout[i] = v.x + v.y + v.z + v.w;
}
)CL";

int hostHelper(int x, int y) {
  switch (x) {  // no narrowing of the condition: llvm-spirv-15 rejects i2 ("InvalidBitWidth")
    case -1: return x + y;
    case 0: return x * y + 1;
    case 3: return x - y;
    case 7:
    case 8: return x * y;
    default: return x ^ y;
  }
}

}  // namespace

TEST_CASE("SPIR-V 1.0 to 1.4 from llvm-spirv-15 load and give the same results", "[execution][versions]") {
  constexpr size_t n = 64;
  std::vector<int> a(n);
  std::vector<float> f(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = int(i * 37 % 101) - 50;
    f[i] = float(i) * 0.375f - 7.0f;
  }
  struct Pair {
    int k;
    float w;
  } pair{3, 1.5f};
  // Host reference, each float operation rounded separately (the kernel is compiled with
  // -ffp-contract=off so no multiply-add is contracted).
  std::vector<int> iexp(n);
  std::vector<float> fexp(n);
  for (size_t i = 0; i < n; ++i) {
    int acc = 0;
    for (int j = 0; j <= int(i % 5); ++j) acc += hostHelper(a[i] + j, j + pair.k);
    iexp[i] = acc;
    volatile float v0 = f[i] * 0.5f, v1 = (f[i] * 2.0f) * 0.25f, v2 = (f[i] + 1.0f) * 2.0f, v3 = pair.w * 3.0f;
    volatile float x = v0 + float(a[i]), y = v1 + float(a[i] >> 1), z = v2 + float(a[i] << 2), w = v3 + float(int(i));
    volatile float s1 = x + y;
    volatile float s2 = s1 + z;
    fexp[i] = s2 + w;
  }
  std::set<uint32_t> headers;
  for (const char* version : {"1.0", "1.1", "1.2", "1.3", "1.4"}) {
    for (const char* opt : {"-O0", "-O2"}) {
      INFO("SPIR-V " << version << " " << opt);
      const auto words = compileCL(kVersionSource, std::string("-cl-std=CL1.2 -ffp-contract=off ") + opt, version);
      const uint32_t expectedVersion = 0x00010000u | uint32_t(version[2] - '0') << 8;
      CHECK(words.at(1) <= expectedVersion);  // llvm-spirv may pick a lower version than allowed
      headers.insert(words.at(1));
      std::shared_ptr<host::Program> program;
      try {
        program = host::Program::fromSpirv(host::Device(), words);
      } catch (const std::exception& e) {
        FAIL_CHECK("load failed: " << e.what());
        continue;
      }
      try {
        host::Kernel k(program, "mix");
        auto iout = std::make_shared<host::Buffer>(n * sizeof(int));
        auto fout = std::make_shared<host::Buffer>(n * sizeof(float));
        k.setArg(0, bufferOf(a));
        k.setArg(1, bufferOf(f));
        k.setArg(2, iout);
        k.setArg(3, fout);
        k.setArg(4, pair);
        requireOk(k.run(range1(n, 16)));
        for (size_t i = 0; i < n; ++i) {
          CHECK(iout->as<int>()[i] == iexp[i]);
          CHECK(fout->as<float>()[i] == fexp[i]);
        }
      } catch (const std::exception& e) { FAIL_CHECK("kernel failed: " << e.what()); }
    }
  }
  CHECK(headers.count(0x00010000u) == 1);
  CHECK(headers.count(0x00010400u) == 1);
}

// ---- generic address space (OpenCL C 2.0 / 3.0) ---------------------------------------------

namespace {

const char* kGenericSource = R"CL(
int sum3(int* p) { return p[0] + p[1] + p[2]; }
void bump(int* p, int by) { *p += by; }
kernel void generic_ptrs(global int* g, global int* out) {
  local int l[3];
  int pr[3];
  size_t i = get_global_id(0);
  size_t lid = get_local_id(0);
  if (lid == 0) { l[0] = 10; l[1] = 20; l[2] = 30; }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; j < 3; ++j) pr[j] = 100 * (j + 1) + (int)i;
  global int* o = out + i * 8;
  o[0] = sum3(g);
  o[1] = sum3(l);
  o[2] = sum3(pr);
  int* gp = (i % 3 == 0) ? (int*)g : (i % 3 == 1) ? (int*)l : (int*)pr;
  o[3] = to_global(gp) != 0;
  o[4] = to_local(gp) != 0;
  o[5] = to_private(gp) != 0;
  global int* tg = to_global(gp);
  local int* tl = to_local(gp);
  private int* tp = to_private(gp);
  o[6] = tg ? tg[1] : tl ? tl[1] : tp ? tp[1] : -1;
  bump(&pr[2], 5);
  o[7] = pr[2];
}
)CL";

void checkGeneric(const std::vector<uint32_t>& words) {
  auto program = host::Program::fromSpirv(host::Device(), words);
  host::Kernel k(program, "generic_ptrs");
  const std::vector<int> g{1, 2, 3};
  constexpr size_t n = 12;
  auto out = std::make_shared<host::Buffer>(n * 8 * sizeof(int));
  k.setArg(0, bufferOf(g));
  k.setArg(1, out);
  requireOk(k.run(range1(n, 4)));
  for (size_t i = 0; i < n; ++i) {
    INFO("work-item " << i);
    const int* o = out->as<int>().data() + i * 8;
    const int pr[3] = {100 + int(i), 200 + int(i), 300 + int(i)};
    CHECK(o[0] == 6);
    CHECK(o[1] == 60);
    CHECK(o[2] == pr[0] + pr[1] + pr[2]);
    CHECK(o[3] == (i % 3 == 0));
    CHECK(o[4] == (i % 3 == 1));
    CHECK(o[5] == (i % 3 == 2));
    CHECK(o[6] == (i % 3 == 0 ? 2 : i % 3 == 1 ? 20 : pr[1]));
    CHECK(o[7] == pr[2] + 5);
  }
}

}  // namespace

TEST_CASE("OpenCL C 2.0 generic address space", "[execution][generic]") {
  for (const char* opt : {"-O0", "-O2"}) {
    INFO(opt);
    checkGeneric(compileCL(kGenericSource, std::string("-cl-std=CL2.0 ") + opt, "1.0"));
  }
}

TEST_CASE("OpenCL C 3.0 generic address space", "[execution][generic]") {
  checkGeneric(compileCL(kGenericSource, "-cl-std=CL3.0 -O2", "1.2"));
  // Through Program::fromOpenCLC as a user would.
  auto program = host::Program::fromOpenCLC(host::Device(), kGenericSource, "-cl-std=CL3.0");
  checkGeneric(program->module().binary());
}

TEST_CASE("a zero-initialised program-scope array larger than the register file", "[execution][globals]") {
  // OpenCL C 3.0 §6.7.7 [[_initialization]]: program-scope variables without an initializer are zero. llvm-spirv-15
  // initialises this one with an OpConstantNull of 64 MiB + 4 KiB, more than a kernel's register file may hold; as
  // an initialiser-only value it takes no register (the conformance suite's progvar capacity test).
  if (!test::openCLCCompilerOrSkip()) return;
  const char* src = R"CL(
global uchar big[(64 << 20) + 4096];
kernel void k(global int* out) {
  out[0] = big[(64 << 20) + 4095];
  big[5] = 3;
  out[1] = big[5] + big[4];
}
)CL";
  auto program = host::Program::fromOpenCLC(host::Device(), src, "-cl-std=CL3.0");
  host::Kernel k(program, "k");
  auto out = std::make_shared<host::Buffer>(8);
  std::memset(out->data(), 0x55, 8);
  k.setArg(0, out);
  host::NDRange r;
  REQUIRE(k.run(r).ok);
  CHECK(out->as<int32_t>()[0] == 0);
  CHECK(out->as<int32_t>()[1] == 3);
}

// ---- (c) work-item builtins --------------------------------------------------------------------

namespace {

// Per work-item, 4 dimensions (the 4th is out of range) × 9 functions, then 3 linear values.
const char* kIdsSource = R"CL(
kernel void ids(global ulong* out, uint dims) {
  global ulong* o = out + get_global_linear_id() * 40;
  for (uint d = 0; d < dims; ++d) {
    o[d * 9 + 0] = get_global_id(d);
    o[d * 9 + 1] = get_local_id(d);
    o[d * 9 + 2] = get_group_id(d);
    o[d * 9 + 3] = get_num_groups(d);
    o[d * 9 + 4] = get_global_size(d);
    o[d * 9 + 5] = get_local_size(d);
    o[d * 9 + 6] = get_enqueued_local_size(d);
    o[d * 9 + 7] = get_global_offset(d);
    o[d * 9 + 8] = 0x5151;
  }
  o[36] = get_global_linear_id();
  o[37] = get_local_linear_id();
  o[38] = get_work_dim();
  o[39] = 0x7777;
}
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void subgroups(global uint* out) {
  global uint* o = out + get_global_linear_id() * 6;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_enqueued_num_sub_groups();
  o[4] = get_sub_group_id();
  o[5] = get_sub_group_local_id();
}
)CL";

struct Expected {
  std::array<uint64_t, 3> gid, lid, group, numGroups, globalSize, localSize, enqLocal, offset;
  uint64_t globalLinear, localLinear;
};

// OpenCL C 3.0 §6.15.1 [[work-item-functions]] Work-Item Functions, for a possibly non-uniform NDRange.
std::vector<Expected> expectedIds(const host::NDRange& r) {
  std::vector<Expected> all;
  const auto& G = r.global;
  const auto& L = *r.local;
  const auto& O = r.offset;
  for (uint64_t z = 0; z < G[2]; ++z)
    for (uint64_t y = 0; y < G[1]; ++y)
      for (uint64_t x = 0; x < G[0]; ++x) {
        Expected e{};
        const std::array<uint64_t, 3> rel{x, y, z};
        for (int d = 0; d < 3; ++d) {
          e.gid[d] = O[d] + rel[d];
          e.group[d] = rel[d] / L[d];
          e.lid[d] = rel[d] % L[d];
          e.numGroups[d] = (G[d] + L[d] - 1) / L[d];
          e.globalSize[d] = G[d];
          // The last work-group of a non-uniform NDRange is the remainder (OpenCL 3.0 API
          // §3.2.1 [[_mapping_work_items_onto_an_nd_range]]).
          e.localSize[d] = std::min<uint64_t>(L[d], G[d] - e.group[d] * L[d]);
          e.enqLocal[d] = L[d];
          e.offset[d] = O[d];
        }
        e.globalLinear = (z * G[1] + y) * G[0] + x;
        e.localLinear = (e.lid[2] * e.localSize[1] + e.lid[1]) * e.localSize[0] + e.lid[0];
        all.push_back(e);
      }
  return all;
}

void checkIds(host::Kernel& k, const host::NDRange& r, unsigned dimsQueried) {
  const auto expected = expectedIds(r);
  auto out = std::make_shared<host::Buffer>(expected.size() * 40 * sizeof(uint64_t));
  k.setArg(0, out);
  k.setArg(1, uint32_t(dimsQueried));
  const auto res = k.run(r);
  requireOk(res);
  CHECK(res.workItems == expected.size());
  // Out-of-range dimensions are defined by OpenCL C (below), so they raise no warning.
  CHECK(res.warningCount == 0);
  for (const auto& e : expected) {
    const uint64_t* o = out->as<uint64_t>().data() + e.globalLinear * 40;
    INFO("global id (" << e.gid[0] << "," << e.gid[1] << "," << e.gid[2] << ")");
    for (unsigned d = 0; d < dimsQueried; ++d) {
      INFO("dimension " << d);
      if (d < 3) {
        CHECK(o[d * 9 + 0] == e.gid[d]);
        CHECK(o[d * 9 + 1] == e.lid[d]);
        CHECK(o[d * 9 + 2] == e.group[d]);
        CHECK(o[d * 9 + 3] == e.numGroups[d]);
        CHECK(o[d * 9 + 4] == e.globalSize[d]);
        CHECK(o[d * 9 + 5] == e.localSize[d]);
        CHECK(o[d * 9 + 6] == e.enqLocal[d]);
        CHECK(o[d * 9 + 7] == e.offset[d]);
      } else {
        // Out-of-range dimension: OpenCL C 3.0 §6.15.1 [[work-item-functions]] gives ids and offsets 0, and sizes and
        // counts 1 (get_num_groups, get_global_size, get_local_size, get_enqueued_local_size),
        // even though llvm-spirv-15 reads them with OpVectorExtractDynamic on the BuiltIn vector.
        const uint64_t want[8] = {0, 0, 0, 1, 1, 1, 1, 0};
        for (int f = 0; f < 8; ++f) CHECK(o[d * 9 + unsigned(f)] == want[f]);
      }
      CHECK(o[d * 9 + 8] == 0x5151);
    }
    CHECK(o[36] == e.globalLinear);
    CHECK(o[37] == e.localLinear);
    CHECK(o[38] == r.dims);
    CHECK(o[39] == 0x7777);
  }
}

const std::vector<uint32_t>& idsWords() {
  static const auto words = compileCL(kIdsSource, "-cl-std=CL3.0 -O2", "1.0");
  return words;
}

}  // namespace

TEST_CASE("work-item functions on a 3D non-uniform NDRange with a global offset", "[execution][builtins]") {
  auto program = host::Program::fromSpirv(host::Device(), idsWords());
  host::Kernel k(program, "ids");
  host::NDRange r;
  r.dims = 3;
  r.global = {7, 5, 3};
  r.local = std::array<size_t, 3>{4, 2, 2};
  r.offset = {3, 1, 2};
  SECTION("dimensions 0-2") { checkIds(k, r, 3); }
  SECTION("an out-of-range dimension index") { checkIds(k, r, 4); }
}

TEST_CASE("work-item functions on 1D and 2D NDRanges", "[execution][builtins]") {
  auto program = host::Program::fromSpirv(host::Device(), idsWords());
  host::Kernel k(program, "ids");
  host::NDRange r1;
  r1.dims = 1;
  r1.global = {10, 1, 1};
  r1.local = std::array<size_t, 3>{3, 1, 1};
  r1.offset = {5, 0, 0};
  checkIds(k, r1, 4);  // dimensions 1 and 2 are size 1, offset 0; dimension 3 is out of range
  host::NDRange r2;
  r2.dims = 2;
  r2.global = {6, 9, 1};
  r2.local = std::array<size_t, 3>{6, 4, 1};
  r2.offset = {0, 100, 0};
  checkIds(k, r2, 3);
}

TEST_CASE("the same kernel compiled from OpenCL C 2.0 at -O0 sees the same ids", "[execution][builtins]") {
  auto program = host::Program::fromSpirv(host::Device(), compileCL(kIdsSource, "-cl-std=CL2.0 -O0", "1.0"));
  host::Kernel k(program, "ids");
  host::NDRange r;
  r.dims = 3;
  r.global = {7, 5, 3};
  r.local = std::array<size_t, 3>{4, 2, 2};
  r.offset = {3, 1, 2};
  checkIds(k, r, 4);
}

TEST_CASE("sub-group functions follow DeviceConfig::subgroupSize", "[execution][builtins][subgroups]") {
  for (uint32_t sgSize : {1u, 4u, 7u, 32u}) {
    INFO("subgroupSize " << sgSize);
    host::DeviceConfig cfg;
    cfg.subgroupSize = sgSize;
    auto program = host::Program::fromSpirv(host::Device(cfg), idsWords());
    host::Kernel k(program, "subgroups");
    host::NDRange r;
    r.dims = 3;
    r.global = {7, 5, 3};
    r.local = std::array<size_t, 3>{4, 2, 2};
    r.offset = {3, 1, 2};
    const auto expected = expectedIds(r);
    auto out = std::make_shared<host::Buffer>(expected.size() * 6 * sizeof(uint32_t));
    k.setArg(0, out);
    requireOk(k.run(r));
    const uint64_t enq = 4 * 2 * 2;
    for (const auto& e : expected) {
      INFO("global id (" << e.gid[0] << "," << e.gid[1] << "," << e.gid[2] << ")");
      const uint32_t* o = out->as<uint32_t>().data() + e.globalLinear * 6;
      const uint64_t wg = e.localSize[0] * e.localSize[1] * e.localSize[2];
      // Sub-groups: consecutive local linear ids, sgSize each; the last one may be smaller.
      const uint64_t sgId = e.localLinear / sgSize;
      const uint64_t numSg = (wg + sgSize - 1) / sgSize;
      CHECK(o[0] == std::min<uint64_t>(sgSize, wg - sgId * sgSize));
      // get_max_sub_group_size: "the maximum size of a sub-group within the dispatch" (OpenCL C 3.0 §6.15.1
      // [[work-item-functions]]): no sub-group of a 16-work-item group is larger than 16.
      CHECK(o[1] == std::min<uint64_t>(sgSize, enq));
      CHECK(o[2] == numSg);
      CHECK(o[3] == (enq + sgSize - 1) / sgSize);
      CHECK(o[4] == sgId);
      CHECK(o[5] == e.localLinear % sgSize);
    }
  }
}

// ---- (d) Physical32 ----------------------------------------------------------------------------

TEST_CASE("Physical32: a 32-bit device runs vadd and size_t arithmetic", "[execution][physical32]") {
  const char* src = R"CL(
kernel void vadd(global const float* a, global const float* b, global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
kernel void sizes(global uint* out, global int* base) {
  size_t i = get_global_id(0);
  size_t big = i * (size_t)0x10000001u + (size_t)0xFFFFFFF0u;  // wraps at 32 bits
  out[i * 6 + 0] = (uint)big;
  out[i * 6 + 1] = (uint)(big >> 28);
  out[i * 6 + 2] = sizeof(size_t);
  out[i * 6 + 3] = sizeof(global int*);
  out[i * 6 + 4] = (uint)((uintptr_t)&base[i] - (uintptr_t)base);
  ptrdiff_t d = &base[i] - &base[20];
  out[i * 6 + 5] = (uint)d;
}
)CL";
  host::DeviceConfig cfg;
  cfg.addressBits = 32;
  const host::Device device(cfg);
  auto program = host::Program::fromOpenCLC(device, src, "-cl-std=CL1.2");
  constexpr size_t n = 40;
  {
    host::Kernel k(program, "vadd");
    std::vector<float> a(n), b(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = float(i) * 1.25f;
      b[i] = 100.0f - float(i) * 3.5f;
    }
    auto c = std::make_shared<host::Buffer>(n * sizeof(float));
    k.setArg(0, bufferOf(a));
    k.setArg(1, bufferOf(b));
    k.setArg(2, c);
    requireOk(k.run(range1(n, 8)));
    for (size_t i = 0; i < n; ++i) CHECK(c->as<float>()[i] == a[i] + b[i]);
  }
  {
    host::Kernel k(program, "sizes");
    auto out = std::make_shared<host::Buffer>(n * 6 * sizeof(uint32_t));
    auto base = std::make_shared<host::Buffer>(n * sizeof(int));
    k.setArg(0, out);
    k.setArg(1, base);
    requireOk(k.run(range1(n, 8)));
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t* o = out->as<uint32_t>().data() + i * 6;
      const uint32_t big = i * 0x10000001u + 0xFFFFFFF0u;
      CHECK(o[0] == big);
      CHECK(o[1] == big >> 28);
      CHECK(o[2] == 4);
      CHECK(o[3] == 4);
      CHECK(o[4] == 4 * i);
      CHECK(o[5] == uint32_t(int32_t(i) - 20));
    }
  }
}

// ---- (e) kernel argument kinds ---------------------------------------------------------------

TEST_CASE("kernel arguments: vectors, a struct by value, local, NULL and small scalars", "[execution][args]") {
  const char* src = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef struct { int a; float b; char c; long d; short e[3]; } S;
kernel void args(global float* fout, global long* iout, float4 v4, int3 v3, S s, local int* tmp,
                 global const int* maybe, char c, short sh, uchar uc, ushort us, double dd, half2 h2) {
  size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  tmp[l] = (int)(i * 2 + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  global float* f = fout + i * 8;
  global long* o = iout + i * 16;
  f[0] = v4.x; f[1] = v4.y; f[2] = v4.z; f[3] = v4.w;
  f[4] = s.b;
  f[5] = (float)dd;
  f[6] = (float)h2.x + (float)h2.y;
  f[7] = 0.0f;
  o[0] = v3.x; o[1] = v3.y; o[2] = v3.z;
  o[3] = s.a; o[4] = s.c; o[5] = s.d; o[6] = s.e[0] + s.e[1] + s.e[2];
  o[7] = tmp[(l + 1) % n];
  o[8] = maybe ? 1 : 0;
  o[9] = maybe ? maybe[i] : -1;
  o[10] = c; o[11] = sh; o[12] = uc; o[13] = us;
  o[14] = (long)c * sh;
  o[15] = sizeof(S);
}
)CL";
  // Host mirrors of the OpenCL C types (OpenCL C 3.0 §6.3.5 [[alignment-of-types]]: int3 takes 4 slots; a struct's
  // layout follows the members' alignments like C's).
  struct S {
    int32_t a;
    float b;
    int8_t c;
    int64_t d;
    int16_t e[3];
  };
  static_assert(sizeof(S) == 32);
  struct Float4 {
    float v[4];
  };
  struct Int3 {
    int32_t v[4];
  };  // cl_int3 is 16 bytes
  auto program = host::Program::fromOpenCLC(host::Device(), src, "-cl-std=CL1.2");
  host::Kernel k(program, "args");
  REQUIRE(k.argCount() == 13);
  CHECK(k.argInfo(2).size == 16);
  CHECK(k.argInfo(3).size == 16);
  CHECK(k.argInfo(4).size == sizeof(S));
  CHECK(k.argInfo(5).kind == host::ArgKind::Local);
  CHECK(k.argInfo(7).size == 1);
  CHECK(k.argInfo(8).size == 2);
  CHECK(k.argInfo(12).size == 4);

  constexpr size_t n = 12, local = 4;
  const Float4 v4{{1.5f, -2.25f, 1e10f, -0.0f}};
  const Int3 v3{{7, -8, 2147483647, 0x5A5A5A5A}};
  S s{};
  s.a = -123456;
  s.b = 3.75f;
  s.c = -7;
  s.d = -(int64_t(1) << 40) - 5;
  s.e[0] = -300;
  s.e[1] = 12;
  s.e[2] = 32767;
  const uint16_t h2[2] = {0x3C00 /* 1.0 */, 0xC100 /* -2.5 */};
  std::vector<int> maybe(n);
  for (size_t i = 0; i < n; ++i) maybe[i] = int(i * i) - 40;

  auto fout = std::make_shared<host::Buffer>(n * 8 * sizeof(float));
  auto iout = std::make_shared<host::Buffer>(n * 16 * sizeof(int64_t));
  k.setArg(0, fout);
  k.setArg(1, iout);
  k.setArg(2, v4);
  k.setArg(3, v3);
  k.setArg(4, s);
  k.setArgLocal(5, local * sizeof(int));
  k.setArg(7, int8_t(-100));
  k.setArg(8, int16_t(-30000));
  k.setArg(9, uint8_t(250));
  k.setArg(10, uint16_t(65000));
  k.setArg(11, 0.1);
  k.setArg(12, h2);

  for (bool null : {true, false}) {
    INFO("maybe is " << (null ? "NULL" : "a buffer"));
    if (null)
      k.setArgNull(6);
    else
      k.setArg(6, bufferOf(maybe));
    requireOk(k.run(range1(n, local)));
    for (size_t i = 0; i < n; ++i) {
      INFO("work-item " << i);
      const float* f = fout->as<float>().data() + i * 8;
      const int64_t* o = iout->as<int64_t>().data() + i * 16;
      CHECK(f[0] == 1.5f);
      CHECK(f[1] == -2.25f);
      CHECK(f[2] == 1e10f);
      CHECK(std::signbit(f[3]));
      CHECK(f[4] == 3.75f);
      CHECK(f[5] == float(0.1));
      CHECK(f[6] == -1.5f);
      CHECK(o[0] == 7);
      CHECK(o[1] == -8);
      CHECK(o[2] == 2147483647);
      CHECK(o[3] == -123456);
      CHECK(o[4] == -7);
      CHECK(o[5] == s.d);
      CHECK(o[6] == -300 + 12 + 32767);
      const size_t l = i % local, g0 = i - l;
      CHECK(o[7] == int64_t((g0 + (l + 1) % local) * 2 + 1));
      CHECK(o[8] == (null ? 0 : 1));
      CHECK(o[9] == (null ? -1 : maybe[i]));
      CHECK(o[10] == -100);
      CHECK(o[11] == -30000);
      CHECK(o[12] == 250);
      CHECK(o[13] == 65000);
      CHECK(o[14] == int64_t(-100) * -30000);
      CHECK(o[15] == int64_t(sizeof(S)));
    }
  }
}

// ---- (f) uninitialised memory -----------------------------------------------------------------

namespace {

const char* kUninitSource = R"CL(
kernel void uninit_local(global uint* out) {
  local uint tmp[8];
  size_t l = get_local_id(0);
  out[get_global_id(0)] = tmp[l];  // before any store: the uninitialised_memory choice
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = 0x12345678u + (uint)get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0) + get_global_size(0)] = tmp[(l + 1) % get_local_size(0)];
}
kernel void uninit_private(global uint* out, uint k) {
  uint arr[4];
  uchar bytes[3];
  size_t i = get_global_id(0);
  out[i * 3 + 0] = arr[(i + k) % 4];  // before any store
  out[i * 3 + 1] = bytes[(i + k) % 3];
  for (int j = 0; j < 4; ++j) arr[j] = 0xCAFE0000u + (uint)i * 4 + j;
  for (int j = 0; j < 3; ++j) bytes[j] = (uchar)(i + j);
  out[i * 3 + 2] = arr[k % 4] + bytes[k % 3];
}
)CL";

const std::vector<uint32_t>& uninitWords() {
  static const auto words = compileCL(kUninitSource, "-cl-std=CL1.2 -O0", "1.0");
  return words;
}

void checkUninit(const host::DeviceConfig& cfg, uint32_t word, uint32_t byte) {
  auto program = host::Program::fromSpirv(host::Device(cfg), uninitWords());
  {
    host::Kernel k(program, "uninit_local");
    constexpr size_t n = 32, local = 8;
    auto out = std::make_shared<host::Buffer>(2 * n * sizeof(uint32_t));
    k.setArg(0, out);
    for (int rep = 0; rep < 2; ++rep) {  // and again: nothing carried over from the first run
      const auto r = k.run(range1(n, local));
      requireOk(r);
      for (size_t i = 0; i < n; ++i) {
        INFO("work-item " << i);
        CHECK(out->as<uint32_t>()[i] == word);  // every work-group starts afresh
        CHECK(out->as<uint32_t>()[n + i] == 0x12345678u + uint32_t(i / local));
      }
    }
  }
  {
    host::Kernel k(program, "uninit_private");
    constexpr size_t n = 16;
    auto out = std::make_shared<host::Buffer>(3 * n * sizeof(uint32_t));
    k.setArg(0, out);
    k.setArg(1, uint32_t(1));
    for (size_t local : {size_t(1), size_t(4), size_t(16)}) {
      INFO("local size " << local);
      const auto r = k.run(range1(n, local));
      requireOk(r);
      for (size_t i = 0; i < n; ++i) {
        INFO("work-item " << i);
        CHECK(out->as<uint32_t>()[i * 3 + 0] == word);  // every work-item starts afresh
        CHECK(out->as<uint32_t>()[i * 3 + 1] == byte);
        CHECK(out->as<uint32_t>()[i * 3 + 2] == 0xCAFE0000u + uint32_t(i) * 4 + 1 + uint32_t(i + 1));
      }
    }
  }
}

}  // namespace

TEST_CASE("uninitialised local and private memory read as zero by default", "[execution][uninitialised]") {
  checkUninit(host::DeviceConfig{}, 0, 0);
}

TEST_CASE("uninitialised_memory=pattern fills local and private memory with 0xA5", "[execution][uninitialised]") {
  host::DeviceConfig cfg;
  cfg.choices.set("uninitialised_memory=pattern");
  checkUninit(cfg, 0xA5A5A5A5u, 0xA5u);
}

// llvm-spirv-15 lays out a rotated -O2 loop with a variable trip count with its exit block
// before the header, so spirv-val reports a use before definition; clref accepts the module
// when it validates with the blocks in dominance order, and runs it as given.
TEST_CASE("an -O2 loop whose blocks llvm-spirv-15 misorders still loads and runs", "[execution][versions]") {
  const char* src = R"CL(
int helper(int x, int y) {
  switch (x) {
    case -1: return x + y;
    case 0: return x * y + 1;
    case 3: return x - y;
    case 7: case 8: return x * y;
    default: return x ^ y;
  }
}
kernel void mix(global const int* a, global int* out, int k) {
  size_t i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j <= (int)(i % 5); ++j) acc += helper(a[i] + j, j + k);
  out[i] = acc;
}
)CL";
  host::Device device;
  auto program = host::Program::fromOpenCLC(device, src, "-cl-std=CL1.2 -O2");
  host::Kernel kernel(program, "mix");
  const std::vector<int32_t> a{-1, 0, 3, 7, 8, 2, -3, 5, 11, -8};
  auto in = bufferOf(a);
  auto out = std::make_shared<host::Buffer>(a.size() * 4);
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  kernel.setArg(2, int32_t(2));
  host::NDRange r;
  r.global = {a.size(), 1, 1};
  requireOk(kernel.run(r));
  auto hostHelperLocal = [](int x, int y) {
    switch (x) {
      case -1: return x + y;
      case 0: return x * y + 1;
      case 3: return x - y;
      case 7:
      case 8: return x * y;
      default: return x ^ y;
    }
  };
  for (size_t i = 0; i < a.size(); ++i) {
    int acc = 0;
    for (int j = 0; j <= int(i % 5); ++j) acc += hostHelperLocal(a[i] + j, j + 2);
    CHECK(out->as<int32_t>()[i] == acc);
  }
}

// opencl_unroll_hint becomes OpLoopMerge instructions that llvm-spirv-15 places in the middle of
// a latch block or with equal merge and continue targets (SPIR-V 1.0 §2.16.2 [external]); merges mean
// nothing to a Kernel module, so the module loads and runs (the CTS's compiler/pragma_unroll).
// clang-15 -O2 narrows this switch on `op & 0xf` to an i4 switch, which llvm-spirv-15 cannot translate: the compiler
// builds such a program unoptimised. Expected values: the switch evaluated on the host.
TEST_CASE("a switch clang narrows to an odd bit width still builds and runs", "[execution][versions]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const char* src = R"CL(
kernel void k(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int v = in[i], r;
  switch ((v >> 4) & 0xf) {
    case 0: r = v; break;
    case 1: r = v * 3; break;
    case 2: r = v - 7; break;
    case 3: r = -v; break;
    default: r = 42; break;
  }
  out[i] = r;
}
)CL";
  auto program = host::Program::fromOpenCLC(host::Device(), src, "-cl-std=CL1.2");
  host::Kernel k(program, "k");
  std::vector<int32_t> in(256);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 13 % 256);
  auto out = std::make_shared<host::Buffer>(in.size() * 4);
  k.setArg(0, std::make_shared<host::Buffer>(in.data(), in.size() * 4));
  k.setArg(1, out);
  host::NDRange r;
  r.global = {in.size(), 1, 1};
  requireOk(k.run(r));
  for (size_t i = 0; i < in.size(); ++i) {
    const int32_t v = in[i];
    const int32_t sel = (v >> 4) & 0xf;
    const int32_t want = sel == 0 ? v : sel == 1 ? v * 3 : sel == 2 ? v - 7 : sel == 3 ? -v : 42;
    CHECK(out->as<int32_t>()[i] == want);
  }
}

// clang-15 -O2 folds the comparison of a global NULL with a generic pointer holding a local NULL into an addrspacecast
// of the local NULL to global, which llvm-spirv-15 refuses: the compiler builds such a program unoptimised (the CTS's
// generic_address_space compare_pointers). Expected values: NULL pointers of every address space compare equal
// through the generic space, other pointers compare by address (OpenCL C 3.0 §6.7.5 [[the-generic-address-space]]).
TEST_CASE("NULL pointers of two address spaces compared through the generic space build and compare equal",
          "[execution][versions]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const char* src = R"CL(
kernel void k(global uint* r) {
  local int* l = NULL;
  global int* g = NULL;
  int* p = l;
  r[0] = (g == p);
  int* q = (int*)r;
  r[1] = (q == p);
}
)CL";
  auto program = host::Program::fromOpenCLC(host::Device(), src, "-cl-std=CL3.0");
  host::Kernel k(program, "k");
  auto out = std::make_shared<host::Buffer>(8);
  k.setArg(0, out);
  requireOk(k.run(host::NDRange{}));
  CHECK(out->as<uint32_t>()[0] == 1);
  CHECK(out->as<uint32_t>()[1] == 0);
}

// Every OpenCL C version the device reports builds (the CTS's compiler/opencl_c_versions): the compiler's prelude
// declares its helpers without `static` before OpenCL C 1.2, which has no static storage class before it.
TEST_CASE("a program builds and runs under every OpenCL C version the device reports", "[execution][versions]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const char* src = "kernel void k(global int* out) { out[get_global_id(0)] = (int)get_global_id(0) * 7; }\n";
  for (const char* std : {"-cl-std=CL1.0", "-cl-std=CL1.1", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    INFO(std);
    auto program = host::Program::fromOpenCLC(host::Device(), src, std);
    host::Kernel k(program, "k");
    auto out = std::make_shared<host::Buffer>(16 * 4);
    k.setArg(0, out);
    host::NDRange r;
    r.global = {16, 1, 1};
    requireOk(k.run(r));
    for (int i = 0; i < 16; ++i) CHECK(out->as<int32_t>()[i] == 7 * i);
  }
}

TEST_CASE("loops with opencl_unroll_hint load and run", "[execution][versions]") {
  for (const char* hint : {"", "(1)", "(10)", "(100)"}) {
    INFO("opencl_unroll_hint" << hint);
    const std::string src =
        std::string("kernel void unrolled(global uint* dst) {\n size_t n = (get_global_id(0) + 1) * 100;\n") +
        " __attribute__((opencl_unroll_hint" + hint + "))\n for (size_t i = 0; i < n; ++i) dst[i] = i;\n}\n";
    host::Device device;
    auto program = host::Program::fromOpenCLC(device, src, "-cl-std=CL1.2");
    host::Kernel kernel(program, "unrolled");
    auto out = std::make_shared<host::Buffer>(100 * 4);
    kernel.setArg(0, out);
    host::NDRange r;
    r.global = {1, 1, 1};
    requireOk(kernel.run(r));
    for (uint32_t i = 0; i < 100; ++i) CHECK(out->as<uint32_t>()[i] == i);
  }
}

// Program-scope variables keep their values between launches and between kernels (OpenCL C
// 3.0 §6.7.7 [[_initialization]]), including pointers to one another set by initialisers (OpSpecConstantOp pointer
// chains): a pointer stored by one kernel must still name the same variable in another kernel
// whose parameters differ.
TEST_CASE("program-scope pointers persist across kernels with different parameters", "[execution][globals]") {
  const char* src = R"CL(
global int a_var[4] = {10, 20, 30, 40};
global int* p = &a_var[1];
kernel void first(global int* out) { out[0] = *p; out[1] = p[1]; p = &a_var[3]; }
kernel void second(int unused0, global int* out, int unused1) { out[0] = *p; out[1] = (int)(p == &a_var[3]); }
)CL";
  host::Device device;
  auto program = host::Program::fromOpenCLC(device, src, "-cl-std=CL2.0");
  host::Kernel first(program, "first"), second(program, "second");
  auto out1 = std::make_shared<host::Buffer>(8), out2 = std::make_shared<host::Buffer>(8);
  first.setArg(0, out1);
  second.setArg(0, int32_t(0));
  second.setArg(1, out2);
  second.setArg(2, int32_t(0));
  host::NDRange r;
  requireOk(first.run(r));
  requireOk(second.run(r));
  CHECK(out1->as<int32_t>()[0] == 20);
  CHECK(out1->as<int32_t>()[1] == 30);
  CHECK(out2->as<int32_t>()[0] == 40);
  CHECK(out2->as<int32_t>()[1] == 1);
}

// OpenCL C 3.0 §6.2.1 [[features]]: the compiler defines an extension's or optional feature's macro only when
// the device supports it (the CTS's compiler/features_macro); clang-15 alone defines them all.
TEST_CASE("OpenCL C feature and extension macros follow the device", "[execution][versions]") {
  const char* src = R"CL(
#if defined(__opencl_c_device_enqueue) != DEVICE_ENQUEUE
#error the device-side enqueue feature does not follow the device
#endif
#if !defined(__opencl_c_pipes) || !defined(__opencl_c_atomic_scope_all_devices) || \
    !defined(__opencl_c_generic_address_space) || !defined(__opencl_c_program_scope_global_variables) || \
    !defined(__opencl_c_int64) || !defined(cl_khr_global_int32_base_atomics) || !defined(__opencl_c_atomic_scope_device) || \
    !defined(__opencl_c_atomic_order_seq_cst) || !defined(__opencl_c_atomic_order_acq_rel) || \
    !defined(__opencl_c_images) || !defined(__opencl_c_3d_image_writes) || !defined(cl_khr_3d_image_writes) || \
    !defined(cl_khr_depth_images) || !defined(cl_khr_mipmap_image) || !defined(cl_khr_int64_base_atomics) || \
    !defined(cl_khr_int64_extended_atomics) || !defined(__opencl_c_work_group_collective_functions) || \
    !defined(cl_khr_work_group_uniform_arithmetic) || !defined(__opencl_c_subgroups) || !defined(cl_khr_subgroups) || \
    !defined(cl_khr_extended_bit_ops) || !defined(cl_khr_expect_assume)
#error a feature the device supports is missing
#endif
#if defined(__opencl_c_fp64) != defined(cl_khr_fp64)
#error fp64 feature and extension disagree
#endif
kernel void k(global int* out) {
#ifdef cl_khr_fp64
  out[0] = 1;
#else
  out[0] = 0;
#endif
}
)CL";
  for (bool fp64 : {true, false}) {
    INFO("fp64 and device-side enqueue " << fp64);
    host::DeviceConfig cfg;
    cfg.fp64 = fp64;
    cfg.deviceEnqueue = fp64;
    host::Device device(cfg);
    auto program =
        host::Program::fromOpenCLC(device, src, std::string("-cl-std=CL3.0 -DDEVICE_ENQUEUE=") + (fp64 ? "1" : "0"));
    host::Kernel kernel(program, "k");
    auto out = std::make_shared<host::Buffer>(4);
    kernel.setArg(0, out);
    host::NDRange r;
    r.global = {1, 1, 1};
    requireOk(kernel.run(r));
    CHECK(out->as<int32_t>()[0] == (fp64 ? 1 : 0));
  }
}

// OpenCL C 3.0 §6.2.1 [[features]]: every OpenCL C extension the device reports (CL_DEVICE_EXTENSIONS takes them from
// host::openCLCExtensions) has its macro, whether or not clang-15 knows the extension (the CTS's
// compiler_defines_for_extensions checks each reported language extension so): in OpenCL C 2.0 and 3.0 all of them, in
// OpenCL C 1.2 (the default) all but those whose language additions are to OpenCL C 2.0: the sub-group extensions,
// OpenCL Extension Specification 3.0.12 §28 "Subgroups" and
// OpenCL Extension Specification 3.0.12 §38 "Extended Subgroup Functions";
// OpenCL Extension Specification 3.0.12 §29 "Mipmaps" and sRGB writes; cl_khr_work_group_uniform_arithmetic and
// cl_khr_subgroup_rotate "require OpenCL 2.0"; cl_ext_float_atomics extends OpenCL C 2.0's atomics.
// cl_khr_image2d_from_buffer is an API extension: it adds nothing to the language, so no macro.
TEST_CASE("every OpenCL C extension the device reports has its macro", "[execution][versions]") {
  if (!test::openCLCCompilerOrSkip()) return;
  const std::set<std::string> openCLC20Only = {"cl_khr_subgroups",
                                               "cl_khr_mipmap_image",
                                               "cl_khr_mipmap_image_writes",
                                               "cl_khr_srgb_image_writes",
                                               "cl_khr_subgroup_extended_types",
                                               "cl_khr_subgroup_non_uniform_vote",
                                               "cl_khr_subgroup_ballot",
                                               "cl_khr_subgroup_non_uniform_arithmetic",
                                               "cl_khr_subgroup_shuffle",
                                               "cl_khr_subgroup_shuffle_relative",
                                               "cl_khr_subgroup_clustered_reduce",
                                               "cl_khr_subgroup_rotate",
                                               "cl_khr_subgroup_named_barrier",
                                               "cl_khr_work_group_uniform_arithmetic",
                                               "cl_ext_float_atomics"};
  for (bool fp64 : {true, false}) {
    host::DeviceConfig cfg;
    cfg.fp64 = fp64;
    cfg.fp16 = fp64;
    const auto extensions = host::openCLCExtensions(cfg);
    REQUIRE(extensions.size() > 20);
    for (const char* std : {"-cl-std=CL1.2", "", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
      const bool openCLC20 =
          std::string(std).find("CL2.0") != std::string::npos || std::string(std).find("CL3.0") != std::string::npos;
      std::string src;
      for (const auto& e : extensions)
        if (e != "cl_khr_image2d_from_buffer" && (openCLC20 || !openCLC20Only.count(e)))
          src += "#ifndef " + e + "\n#error " + e + " is not defined\n#endif\n";
      src += "kernel void k(global int* out) { out[0] = 1; }\n";
      INFO("fp64 and fp16 " << fp64 << ", options '" << std << "'");
      CHECK_NOTHROW(host::Program::fromOpenCLC(host::Device(cfg), src, std));
    }
  }
}

// The two extensions that need only OpenCL 1.0 and that clang-15 declares for OpenCL C 2.0 and newer only
// (compiler/opencl_c.cpp) work in OpenCL C 1.x. Expected values from the extensions' definitions, computed here:
// OpenCL C 3.0 §6.15.3 [[integer-functions]] bitfield_insert, bit_reverse, dot, dot_4x8packed_ss_int.
TEST_CASE("cl_khr_extended_bit_ops and cl_khr_integer_dot_product in OpenCL C 1.x", "[execution][versions]") {
  if (!test::openCLCCompilerOrSkip()) return;
  const char* src = R"CL(
kernel void k(global uint* u, global int* d) {
  u[0] = bitfield_insert(u[0], 5u, 3, 4);
  u[1] = bit_reverse(u[1]);
  u[2] = bitfield_extract_unsigned(u[2], 4, 8);
  d[0] = dot((char4)(1, -2, 3, -4), (char4)(5, 6, -7, 8));
  d[1] = dot_4x8packed_ss_int(0x01FE03FCu, 0x050607F9u);
}
)CL";
  const uint32_t u0 = 0xFFFFFFFFu, u1 = 0x00000013u, u2 = 0x12345678u;
  uint32_t reversed = 0;
  for (int b = 0; b < 32; ++b)
    if (u1 >> b & 1) reversed |= 1u << (31 - b);
  // Packed operands: component 0 in the least significant byte (0xFC = -4, 0x03, 0xFE = -2, 0x01 and 0xF9 = -7, 0x07,
  // 0x06, 0x05).
  const int8_t a[4] = {-4, 3, -2, 1}, b[4] = {-7, 7, 6, 5};
  int32_t packed = 0;
  for (int i = 0; i < 4; ++i) packed += int32_t(a[i]) * int32_t(b[i]);
  for (const char* std : {"-cl-std=CL1.1", "-cl-std=CL1.2"}) {
    INFO(std);
    host::Kernel kernel(host::Program::fromOpenCLC(host::Device(), src, std), "k");
    const uint32_t init[3] = {u0, u1, u2};
    auto u = std::make_shared<host::Buffer>(init, sizeof init);
    auto d = std::make_shared<host::Buffer>(8);
    kernel.setArg(0, u);
    kernel.setArg(1, d);
    host::NDRange r;
    r.global = {1, 1, 1};
    requireOk(kernel.run(r));
    CHECK(u->as<uint32_t>()[0] == ((u0 & ~(0xFu << 3)) | (5u << 3)));
    CHECK(u->as<uint32_t>()[1] == reversed);
    CHECK(u->as<uint32_t>()[2] == ((u2 >> 4) & 0xFFu));
    CHECK(d->as<int32_t>()[0] == 1 * 5 + -2 * 6 + 3 * -7 + -4 * 8);
    CHECK(d->as<int32_t>()[1] == packed);
  }
}

// OpenCL C 3.0 §6.15.12 [[atomic-functions]] atomics with the default (seq_cst, device) and explicit orders and
// scopes, counted across work-groups that run on different host threads.
TEST_CASE("OpenCL C 3.0 atomics: default, acq_rel and relaxed orders at device scope", "[execution][atomics]") {
  const char* src = R"CL(
kernel void count(global atomic_int* total, global atomic_uint* maxId, global int* seen) {
  int id = (int)get_global_id(0);
  atomic_fetch_add(total, 1);                                                           // seq_cst, device
  atomic_fetch_max_explicit(maxId, (uint)id, memory_order_acq_rel, memory_scope_device);
  int old = atomic_fetch_add_explicit(total + 1, 2, memory_order_relaxed, memory_scope_work_group);
  seen[id] = old % 2;                                                                   // always even
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
}
)CL";
  host::DeviceConfig cfg;
  cfg.threads = 3;
  host::Device device(cfg);
  auto program = host::Program::fromOpenCLC(device, src, "-cl-std=CL3.0");
  host::Kernel kernel(program, "count");
  constexpr size_t n = 4096;
  auto total = std::make_shared<host::Buffer>(8);
  auto maxId = std::make_shared<host::Buffer>(4);
  auto seen = std::make_shared<host::Buffer>(n * 4);
  kernel.setArg(0, total);
  kernel.setArg(1, maxId);
  kernel.setArg(2, seen);
  host::NDRange r;
  r.global = {n, 1, 1};
  r.local = std::array<size_t, 3>{64, 1, 1};
  requireOk(kernel.run(r));
  CHECK(total->as<int32_t>()[0] == int32_t(n));
  CHECK(total->as<int32_t>()[1] == int32_t(2 * n));
  CHECK(maxId->as<uint32_t>()[0] == n - 1);
  for (size_t i = 0; i < n; ++i) CHECK(seen->as<int32_t>()[i] == 0);
}

// ---- kernels calling kernels ----------------------------------------------------------------
// llvm-spirv-15 gives each kernel an entry point that only calls the kernel's own function, and a kernel that calls
// another calls that function; work-items start in the function (KernelLowering::bodyOf). Both kernels must see their
// own arguments, with pointer, scalar, by-value struct and local arguments, at -O0 and -O2.

TEST_CASE("a kernel that calls another kernel, and the callee run on its own", "[execution][calls]") {
  const char* src = R"CL(
typedef struct { int add; int mul; } Step;
kernel void inner(global int* p, int k, Step s, local int* scratch) {
  size_t i = get_global_id(0);
  scratch[get_local_id(0)] = p[i] * s.mul;
  p[i] = scratch[get_local_id(0)] + s.add + k;
}
kernel void outer(global int* p, int k, Step s, local int* scratch) {
  inner(p, k + 1, s, scratch);
  p[get_global_id(0)] *= 2;
}
)CL";
  struct Step {
    int add, mul;
  } step{5, 3};
  constexpr size_t n = 32;
  std::vector<int> input(n);
  for (size_t i = 0; i < n; ++i) input[i] = int(i) * 7 - 100;
  for (const char* opt : {"-O0", "-O2"}) {
    INFO(opt);
    auto program = host::Program::fromSpirv(host::Device(), compileCL(src, std::string("-cl-std=CL1.2 ") + opt, "1.0"));
    for (const char* name : {"inner", "outer"}) {
      INFO(name);
      const bool outer = std::string(name) == "outer";
      host::Kernel k(program, name);
      auto p = bufferOf(input);
      k.setArg(0, p);
      k.setArg(1, int32_t(10));
      k.setArg(2, step);
      k.setArgLocal(3, 8 * sizeof(int));
      requireOk(k.run(range1(n, 8)));
      for (size_t i = 0; i < n; ++i) {
        const int once = input[i] * step.mul + step.add + (outer ? 11 : 10);
        CHECK(p->as<int>()[i] == (outer ? 2 * once : once));
      }
    }
  }
}

// ---- llvm-spirv-15 output that breaks a validation rule in a way with one meaning --------------------------------
// A switch whose cases branch to one block: the OpPhi there lists the (value, switch block) pair once per case
// (SPIR-V 1.0 §3.32.17 [external] OpPhi wants one pair per parent). A ?: with a scalar condition and vector operands:
// an OpSelect with a scalar condition, which SPIR-V 1.4 §3.32.15 [external] defines and 1.0 does not allow. Both load
// (module_validate.cpp appendFixed) and run as their one meaning says; the CTS's test_integer_ops met both.

TEST_CASE("a switch with cases sharing a block, and vector selects with a scalar condition, load and run",
          "[execution][versions]") {
  const char* src = R"CL(
kernel void sw(global int* out, global const int* x) {
  size_t i = get_global_id(0);
  int v;
  switch (x[i]) { case 1: case 2: v = 5; break; case 3: v = 7; break; case 4: v = 11; break; default: v = 9; }
  out[i] = v;
}
kernel void sel(global int4* a, global const int* c, global float2* f) {
  size_t i = get_global_id(0);
  a[i] = c[i] ? a[i] : a[i] + (int4)(1, 2, 3, 4);
  float2 x = f[i];
  f[i] = (c[i] > 3) ? x * 2.0f : x;
}
)CL";
  const std::vector<int> x{0, 1, 2, 3, 4, 5, -1, 2};
  const size_t n = x.size();
  for (const char* version : {"1.0", "1.4"}) {
    INFO("SPIR-V " << version);
    auto program = host::Program::fromSpirv(host::Device(), compileCL(src, "-cl-std=CL1.2 -O2", version));
    host::Kernel sw(program, "sw");
    auto out = std::make_shared<host::Buffer>(n * sizeof(int));
    sw.setArg(0, out);
    sw.setArg(1, bufferOf(x));
    requireOk(sw.run(range1(n, n)));
    for (size_t i = 0; i < n; ++i) {
      const int expected = x[i] == 1 || x[i] == 2 ? 5 : x[i] == 3 ? 7 : x[i] == 4 ? 11 : 9;
      CHECK(out->as<int>()[i] == expected);
    }
    host::Kernel sel(program, "sel");
    std::vector<int> a(4 * n);
    std::vector<float> f(2 * n);
    for (size_t i = 0; i < a.size(); ++i) a[i] = int(i) * 3 - 20;
    for (size_t i = 0; i < f.size(); ++i) f[i] = float(i) * 0.75f - 2.0f;
    auto abuf = bufferOf(a), fbuf = bufferOf(f);
    sel.setArg(0, abuf);
    sel.setArg(1, bufferOf(x));
    sel.setArg(2, fbuf);
    requireOk(sel.run(range1(n, n)));
    for (size_t i = 0; i < n; ++i) {
      for (size_t k = 0; k < 4; ++k) CHECK(abuf->as<int>()[4 * i + k] == a[4 * i + k] + (x[i] ? 0 : int(k) + 1));
      for (size_t k = 0; k < 2; ++k) CHECK(fbuf->as<float>()[2 * i + k] == (x[i] > 3 ? 2.0f : 1.0f) * f[2 * i + k]);
    }
  }
}

// ---- 64-bit atomics (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics) ----------------------------------
// Every work-item of several work-groups updates the same global and local 64-bit counters; the final values are
// independent of the order (OpenCL Extension Specification 3.0.12 §8 "64-bit Atomics"), computed here on the host.

TEST_CASE("64-bit atomics on global and local memory", "[execution][atomics]") {
  const char* src = R"CL(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void atomics64(global long* g, global ulong* u, global long* olds, global long* lout) {
  local long l[2];
  size_t i = get_global_id(0), lid = get_local_id(0);
  if (lid == 0) { l[0] = 0; l[1] = -1; }
  barrier(CLK_LOCAL_MEM_FENCE);
  long v = ((long)i << 33) - (long)i * 7;
  atom_add(&g[0], v);
  atom_sub(&g[1], v);
  atom_inc(&g[2]);
  atom_dec(&g[3]);
  atom_min(&g[4], v);
  atom_max(&g[5], v);
  atom_and(&u[0], ~((ulong)1 << (i % 60)));
  atom_or(&u[1], (ulong)1 << (i % 60));
  atom_xor(&u[2], (ulong)i << 32);
  atom_min(&u[3], (ulong)v);
  olds[i] = atom_cmpxchg(&g[6], (long)i, (long)i + 1);  // advances only from i to i + 1
  atom_add(&l[0], v);
  atom_and(&l[1], ~((long)1 << (lid + 40)));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) { lout[get_group_id(0) * 2] = l[0]; lout[get_group_id(0) * 2 + 1] = l[1]; }
}
)CL";
  const size_t n = 64, local = 16;
  const int64_t g0[7] = {5, 0, 0, 0, INT64_MAX, INT64_MIN, 0};
  const uint64_t u0[4] = {~uint64_t(0), 0, 0, UINT64_MAX};
  for (const char* opt : {"-O0", "-O2"}) {
    INFO(opt);
    auto program = host::Program::fromOpenCLC(host::Device(), src, std::string("-cl-std=CL1.2 ") + opt);
    host::Kernel k(program, "atomics64");
    auto g = std::make_shared<host::Buffer>(g0, sizeof g0);
    auto u = std::make_shared<host::Buffer>(u0, sizeof u0);
    auto olds = std::make_shared<host::Buffer>(n * 8);
    auto lout = std::make_shared<host::Buffer>(n / local * 2 * 8);
    k.setArg(0, g);
    k.setArg(1, u);
    k.setArg(2, olds);
    k.setArg(3, lout);
    requireOk(k.run(range1(n, local)));
    int64_t sum = 0, mn = INT64_MAX, mx = INT64_MIN;
    uint64_t andv = ~uint64_t(0), orv = 0, xorv = 0, umin = UINT64_MAX;
    for (size_t i = 0; i < n; ++i) {
      const int64_t v = (int64_t(i) << 33) - int64_t(i) * 7;
      sum += v;
      mn = std::min(mn, v);
      mx = std::max(mx, v);
      andv &= ~(uint64_t(1) << (i % 60));
      orv |= uint64_t(1) << (i % 60);
      xorv ^= uint64_t(i) << 32;
      umin = std::min(umin, uint64_t(v));
    }
    const auto gv = g->as<int64_t>();
    CHECK(gv[0] == 5 + sum);
    CHECK(gv[1] == -sum);
    CHECK(gv[2] == int64_t(n));
    CHECK(gv[3] == -int64_t(n));
    CHECK(gv[4] == mn);
    CHECK(gv[5] == mx);
    const auto uv = u->as<uint64_t>();
    CHECK(uv[0] == andv);
    CHECK(uv[1] == orv);
    CHECK(uv[2] == xorv);
    CHECK(uv[3] == umin);
    // The compare-exchange chain: only work-item c moves the counter from c to c + 1, so g[6] ends at the length of
    // the run 0, 1, 2, ... of work-items that found their own index there (which depends on the order the work-groups
    // ran in). Each old value is the counter at that moment: work-item i found i exactly when i < end, and never a
    // value above the end.
    const int64_t end = gv[6];
    REQUIRE(end >= 1);  // work-item 0 always finds 0
    const auto ov = olds->as<int64_t>();
    for (size_t i = 0; i < n; ++i) {
      INFO("work-item " << i);
      CHECK(ov[i] >= 0);
      CHECK(ov[i] <= end);
      CHECK((ov[i] == int64_t(i)) == (int64_t(i) < end));
    }
    for (size_t grp = 0; grp < n / local; ++grp) {
      int64_t lsum = 0;
      int64_t land = -1;
      for (size_t j = 0; j < local; ++j) {
        const size_t i = grp * local + j;
        lsum += (int64_t(i) << 33) - int64_t(i) * 7;
        land &= ~(int64_t(1) << (j + 40));
      }
      CHECK(lout->as<int64_t>()[grp * 2] == lsum);
      CHECK(lout->as<int64_t>()[grp * 2 + 1] == land);
    }
  }
}
