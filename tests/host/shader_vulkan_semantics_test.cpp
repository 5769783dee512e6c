// Vulkan execution semantics of compute shaders run through the host API: the built-in variables (Vulkan's meanings:
// SubgroupSize is the device's for every subgroup, the masks span it), the GroupNonUniform instructions of every
// GL_KHR_shader_subgroup_* extension over full, partial and divergent subgroups of sizes 4, 32 and 128, OpArrayLength,
// barriers and the Vulkan memory model, and atomics on storage buffers and shared memory. Expected values are computed
// on the host from the definitions (GLSL's GL_KHR_shader_subgroup, SPIR-V's instruction descriptions).
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>

#include "host/host.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

struct ShaderRun {
  host::RunResult result;
  std::vector<uint32_t> out;
};

// Runs a GLSL compute shader whose work-group size is local_size_x_id = 0 (`localX`) by local_size_y (in the source)
// on a device of subgroup size `sg`: `groups` work-groups; binding 0 of set 0 is an output of `outWords` uint words
// (zeroed), binding 1, when the shader declares it, the input `in`.
ShaderRun runShader(const std::string& body, uint32_t sg, uint32_t localX, uint32_t groups, size_t outWords,
                    const std::vector<uint32_t>& in = {}) {
  host::DeviceConfig config;
  config.subgroupSize = sg;
  host::Device device(config);
  auto program = host::Program::fromGlsl(device, body);
  program->setSpecConstant(0, &localX, 4);
  host::Kernel k(program, "main");
  auto out = std::make_shared<host::Buffer>(outWords * 4);
  k.setArg(*k.resourceArg(0, 0), out);
  if (auto i = k.resourceArg(0, 1)) {
    std::vector<uint32_t> data = in.empty() ? std::vector<uint32_t>{0} : in;
    k.setArg(*i, std::make_shared<host::Buffer>(data.data(), data.size() * 4));
  }
  ShaderRun r;
  r.result = k.run(k.dispatch({groups, 1, 1}));
  const auto words = out->as<uint32_t>();
  r.out.assign(words.begin(), words.begin() + outWords);
  return r;
}

#define REQUIRE_RAN(run)                                           \
  do {                                                             \
    INFO(((run).result.fault ? (run).result.fault->message : "")); \
    REQUIRE((run).result.ok);                                      \
  } while (0)

// The subgroup of an invocation, as Vulkan and clref form them: consecutive LocalInvocationIndex values, `sg` each; the
// last of a work-group whose size is not a multiple of `sg` has fewer (its other invocations inactive).
struct Subgroup {
  uint32_t first, members;  // LocalInvocationIndex of id 0, and how many invocations it has
};
Subgroup subgroupOf(uint32_t index, uint32_t sg, uint32_t groupSize) {
  const uint32_t first = index / sg * sg;
  return {first, std::min(sg, groupSize - first)};
}

std::array<uint32_t, 4> maskOf(uint32_t from, uint32_t to) {
  std::array<uint32_t, 4> m{0, 0, 0, 0};
  for (uint32_t k = from; k < to; ++k) m[k / 32] |= 1u << (k % 32);
  return m;
}

const char* kHeader = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x_id = 0, local_size_y = 1) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) readonly buffer In { uint v[]; };
)";

std::vector<uint32_t> inputs(size_t n) {
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint32_t((i * 7919 + 13) % 97);
  return v;
}

}  // namespace

TEST_CASE("shader built-ins have Vulkan's values, subgroup ones included", "[shader][vulkan]") {
  const uint32_t localX = 25, localY = 2, groups = 3, wg = localX * localY, words = 34;
  for (uint32_t sg : {4u, 32u, 128u}) {
    CAPTURE(sg);
    const auto run = runShader(R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x_id = 0, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
  uint at = (gl_WorkGroupID.x * gl_WorkGroupSize.x * gl_WorkGroupSize.y + gl_LocalInvocationIndex) * 34;
  o[at + 0] = gl_SubgroupSize;
  o[at + 1] = gl_SubgroupInvocationID;
  o[at + 2] = gl_NumSubgroups;
  o[at + 3] = gl_SubgroupID;
  uvec4 m[5] = uvec4[5](gl_SubgroupEqMask, gl_SubgroupGeMask, gl_SubgroupGtMask, gl_SubgroupLeMask, gl_SubgroupLtMask);
  for (int i = 0; i < 5; ++i) for (int c = 0; c < 4; ++c) o[at + 4 + 4 * i + c] = m[i][c];
  o[at + 24] = gl_LocalInvocationIndex;
  o[at + 25] = gl_LocalInvocationID.x;
  o[at + 26] = gl_LocalInvocationID.y;
  o[at + 27] = gl_GlobalInvocationID.x;
  o[at + 28] = gl_GlobalInvocationID.y;
  o[at + 29] = gl_WorkGroupID.x;
  o[at + 30] = gl_NumWorkGroups.x;
  o[at + 31] = gl_NumWorkGroups.y;
  o[at + 32] = gl_WorkGroupSize.x;
  o[at + 33] = gl_WorkGroupSize.y;
}
)",
                               sg, localX, groups, groups * wg * words);
    REQUIRE_RAN(run);
    for (uint32_t g = 0; g < groups; ++g)
      for (uint32_t y = 0; y < localY; ++y)
        for (uint32_t x = 0; x < localX; ++x) {
          const uint32_t index = y * localX + x, id = index % sg;
          CAPTURE(g, index);
          const uint32_t* w = run.out.data() + (g * wg + index) * words;
          CHECK(w[0] == sg);  // the full size, in the partial subgroup too
          CHECK(w[1] == id);
          CHECK(w[2] == (wg + sg - 1) / sg);
          CHECK(w[3] == index / sg);
          const std::array<uint32_t, 4> masks[5] = {maskOf(id, id + 1), maskOf(id, sg), maskOf(id + 1, sg),
                                                    maskOf(0, id + 1), maskOf(0, id)};
          for (int i = 0; i < 5; ++i)
            for (int c = 0; c < 4; ++c) CHECK(w[4 + 4 * i + c] == masks[i][c]);
          CHECK(w[24] == index);
          CHECK(w[25] == x);
          CHECK(w[26] == y);
          CHECK(w[27] == g * localX + x);
          CHECK(w[28] == y);
          CHECK(w[29] == g);
          CHECK(w[30] == groups);
          CHECK(w[31] == 1);
          CHECK(w[32] == localX);
          CHECK(w[33] == localY);
        }
  }
}

TEST_CASE("a subgroup size Vulkan does not allow is refused at launch", "[shader][vulkan]") {
  for (uint32_t sg : {1u, 2u, 24u, 256u}) {
    CAPTURE(sg);
    CHECK_THROWS_WITH(runShader(std::string(kHeader) + "void main() { o[0] = gl_SubgroupSize; }\n", sg, 8, 1, 1),
                      Contains("subgroup size " + std::to_string(sg)) && Contains("power of two from 4 to 128"));
  }
}

// Vote, ballot, broadcast and elect, reductions and scans, in full subgroups, the partial last one and a divergent
// branch.
TEST_CASE("shader subgroup vote, ballot and broadcast over full, partial and divergent subgroups",
          "[shader][vulkan][subgroup]") {
  const uint32_t groups = 2, words = 20;
  // (subgroup size, work-group size): partial last subgroups, a work-group smaller than one subgroup, whole ones.
  const std::pair<uint32_t, uint32_t> shapes[] = {{4, 50}, {32, 50}, {128, 50}, {32, 64}, {128, 160}};
  for (const auto& [sg, local] : shapes) {
    CAPTURE(sg, local);
    const auto in = inputs(local * groups);
    const auto run = runShader(std::string(kHeader) + R"(
void main() {
  uint g = gl_GlobalInvocationID.x, at = g * 20, x = v[g];
  o[at + 0] = subgroupElect() ? 1 : 0;
  o[at + 1] = subgroupAll(x < 90) ? 1 : 0;
  o[at + 2] = subgroupAny(x > 90) ? 1 : 0;
  o[at + 3] = subgroupAllEqual(x / 100) ? 1 : 0;
  o[at + 4] = subgroupAllEqual(x) ? 1 : 0;
  uvec4 b = subgroupBallot((x & 1) == 1);
  o[at + 5] = b.x; o[at + 6] = b.y; o[at + 7] = b.z; o[at + 8] = b.w;
  o[at + 9] = subgroupInverseBallot(b) ? 1 : 0;
  o[at + 10] = subgroupBallotBitExtract(b, 1) ? 1 : 0;
  o[at + 11] = subgroupBallotBitCount(b);
  o[at + 12] = subgroupBallotInclusiveBitCount(b);
  o[at + 13] = subgroupBallotExclusiveBitCount(b);
  o[at + 14] = subgroupBallotFindLSB(b);
  o[at + 15] = subgroupBallotFindMSB(b);
  o[at + 16] = subgroupBroadcast(x, 1);
  o[at + 17] = subgroupBroadcastFirst(x * 3);
  if (gl_SubgroupInvocationID % 3 == 0) {
    o[at + 18] = subgroupBallotBitCount(subgroupBallot(true));
    o[at + 19] = subgroupBroadcastFirst(gl_SubgroupInvocationID + 100) + (subgroupElect() ? 1000 : 0);
  }
}
)",
                               sg, local, groups, local * groups * words, in);
    REQUIRE_RAN(run);
    for (uint32_t g = 0; g < local * groups; ++g) {
      const uint32_t index = g % local, id = index % sg, base = g - index;
      const Subgroup s = subgroupOf(index, sg, local);
      CAPTURE(g, id);
      std::vector<uint32_t> xs;
      for (uint32_t k = 0; k < s.members; ++k) xs.push_back(in[base + s.first + k]);
      const uint32_t* w = run.out.data() + g * words;
      CHECK(w[0] == (id == 0));
      CHECK(w[1] == std::all_of(xs.begin(), xs.end(), [](uint32_t x) { return x < 90; }));
      CHECK(w[2] == std::any_of(xs.begin(), xs.end(), [](uint32_t x) { return x > 90; }));
      CHECK(w[3] == 1);
      CHECK(w[4] == std::all_of(xs.begin(), xs.end(), [&](uint32_t x) { return x == xs[0]; }));
      std::array<uint32_t, 4> b{0, 0, 0, 0};
      for (uint32_t k = 0; k < s.members; ++k)
        if (xs[k] & 1) b[k / 32] |= 1u << (k % 32);
      for (int c = 0; c < 4; ++c) CHECK(w[5 + c] == b[c]);
      auto bit = [&](uint32_t k) { return (b[k / 32] >> (k % 32)) & 1; };
      uint32_t count = 0, below = 0, lsb = ~0u, msb = ~0u;
      for (uint32_t k = 0; k < 128; ++k)
        if (bit(k)) {
          ++count;
          below += k < id;
          if (lsb == ~0u) lsb = k;
          msb = k;
        }
      CHECK(w[9] == (xs[id] & 1));
      CHECK(w[10] == bit(1));
      CHECK(w[11] == count);
      CHECK(w[12] == below + bit(id));
      CHECK(w[13] == below);
      if (count) {  // undefined for an empty ballot
        CHECK(w[14] == lsb);
        CHECK(w[15] == msb);
      }
      CHECK(w[16] == xs[1]);
      CHECK(w[17] == xs[0] * 3);
      if (id % 3 == 0) {
        CHECK(w[18] == (s.members + 2) / 3);
        CHECK(w[19] == 100 + (id == 0 ? 1000 : 0));
      } else {
        CHECK(w[18] == 0);
      }
    }
  }
}

TEST_CASE("shader subgroup arithmetic: reductions, scans and clustered reductions, also in a divergent if",
          "[shader][vulkan][subgroup]") {
  const uint32_t groups = 2, words = 22;
  // (subgroup size, work-group size): partial last subgroups, a work-group smaller than one subgroup, whole ones.
  const std::pair<uint32_t, uint32_t> shapes[] = {{4, 50}, {32, 50}, {128, 50}, {32, 64}, {128, 160}};
  for (const auto& [sg, local] : shapes) {
    CAPTURE(sg, local);
    const auto in = inputs(local * groups);
    const auto run = runShader(std::string(kHeader) + R"(
void main() {
  uint g = gl_GlobalInvocationID.x, at = g * 22, x = v[g];
  int s = int(x) - 50;
  o[at + 0] = subgroupAdd(x);
  o[at + 1] = subgroupMul(x % 3 + 1);
  o[at + 2] = uint(subgroupMin(s));
  o[at + 3] = uint(subgroupMax(s));
  o[at + 4] = subgroupMin(x);
  o[at + 5] = subgroupMax(x);
  o[at + 6] = subgroupAnd(x | 64);
  o[at + 7] = subgroupOr(x);
  o[at + 8] = subgroupXor(x);
  o[at + 9] = subgroupInclusiveAdd(x);
  o[at + 10] = subgroupExclusiveAdd(x);
  o[at + 11] = uint(subgroupInclusiveMin(s));
  o[at + 12] = subgroupExclusiveMax(x);
  o[at + 13] = subgroupExclusiveXor(x);
  o[at + 14] = subgroupClusteredAdd(x, 4);
  o[at + 15] = subgroupClusteredMax(x, 2);
  o[at + 16] = subgroupClusteredOr(x, 1);
  o[at + 17] = uint(subgroupAdd(float(x) * 0.5));
  o[at + 18] = subgroupOr(x > 80) ? 1 : 0;
  o[at + 19] = subgroupAnd(x > 1) ? 1 : 0;
  if (gl_SubgroupInvocationID % 3 == 0) {
    o[at + 20] = subgroupAdd(x);
    o[at + 21] = subgroupInclusiveAdd(1);
  }
}
)",
                               sg, local, groups, local * groups * words, in);
    REQUIRE_RAN(run);
    for (uint32_t g = 0; g < local * groups; ++g) {
      const uint32_t index = g % local, id = index % sg, base = g - index;
      const Subgroup sub = subgroupOf(index, sg, local);
      CAPTURE(g, id);
      std::vector<uint32_t> xs;
      for (uint32_t k = 0; k < sub.members; ++k) xs.push_back(in[base + sub.first + k]);
      const uint32_t* w = run.out.data() + g * words;
      uint32_t add = 0, mul = 1, umin = ~0u, umax = 0, band = ~0u, bor = 0, bxor = 0;
      int32_t smin = INT32_MAX, smax = INT32_MIN;
      bool anyBig = false, allAbove1 = true;
      for (uint32_t x : xs) {
        add += x;
        mul *= x % 3 + 1;
        umin = std::min(umin, x);
        umax = std::max(umax, x);
        band &= x | 64;
        bor |= x;
        bxor ^= x;
        smin = std::min(smin, int32_t(x) - 50);
        smax = std::max(smax, int32_t(x) - 50);
        anyBig |= x > 80;
        allAbove1 &= x > 1;
      }
      CHECK(w[0] == add);
      CHECK(w[1] == mul);
      CHECK(int32_t(w[2]) == smin);
      CHECK(int32_t(w[3]) == smax);
      CHECK(w[4] == umin);
      CHECK(w[5] == umax);
      CHECK(w[6] == band);
      CHECK(w[7] == bor);
      CHECK(w[8] == bxor);
      uint32_t incAdd = 0, excMax = 0, excXor = 0;
      int32_t incMin = INT32_MAX;
      for (uint32_t k = 0; k <= id; ++k) {
        incAdd += xs[k];
        incMin = std::min(incMin, int32_t(xs[k]) - 50);
        if (k < id) {
          excMax = std::max(excMax, xs[k]);  // the identity of UMax is 0
          excXor ^= xs[k];
        }
      }
      CHECK(w[9] == incAdd);
      CHECK(w[10] == incAdd - xs[id]);
      CHECK(int32_t(w[11]) == incMin);
      CHECK(w[12] == excMax);
      CHECK(w[13] == excXor);
      uint32_t c4 = 0, c2 = 0;
      for (uint32_t k = id / 4 * 4; k < std::min(id / 4 * 4 + 4, sub.members); ++k) c4 += xs[k];
      for (uint32_t k = id / 2 * 2; k < std::min(id / 2 * 2 + 2, sub.members); ++k) c2 = std::max(c2, xs[k]);
      CHECK(w[14] == c4);
      CHECK(w[15] == c2);
      CHECK(w[16] == xs[id]);
      CHECK(w[17] == uint32_t(float(add) * 0.5f));  // halves of integers below 2^24: exact in any order
      CHECK(w[18] == anyBig);
      CHECK(w[19] == allAbove1);
      if (id % 3 == 0) {
        uint32_t divergent = 0, rank = 0;
        for (uint32_t k = 0; k < sub.members; k += 3) {
          divergent += xs[k];
          rank += k <= id;
        }
        CHECK(w[20] == divergent);
        CHECK(w[21] == rank);
      } else {
        CHECK(w[20] == 0);
        CHECK(w[21] == 0);
      }
    }
  }
}

TEST_CASE("shader subgroup shuffles, relative shuffles and quad operations", "[shader][vulkan][subgroup]") {
  const uint32_t local = 50, groups = 2, words = 12;
  const auto in = inputs(local * groups);
  for (uint32_t sg : {4u, 32u, 128u}) {
    CAPTURE(sg);
    const auto run = runShader(std::string(kHeader) + R"(
void main() {
  uint g = gl_GlobalInvocationID.x, at = g * 12, x = v[g], id = gl_SubgroupInvocationID;
  o[at + 0] = subgroupShuffle(x, id / 2);
  o[at + 1] = subgroupShuffleXor(x, 1);
  o[at + 2] = subgroupShuffleUp(x, id == 0 ? 0 : 1);
  o[at + 3] = subgroupShuffleDown(x, id % 2 == 0 ? 1 : 0);
  o[at + 4] = subgroupQuadBroadcast(x, 0);
  o[at + 5] = subgroupQuadSwapHorizontal(x);
  o[at + 6] = subgroupQuadBroadcast(x, 1);
  o[at + 7] = uint(subgroupQuadSwapHorizontal(float(x) + 0.25) * 4.0);
  // Only in whole quads: the last two invocations of the work-group have no partners 2 and 3.
  if ((gl_LocalInvocationIndex | 3) < gl_WorkGroupSize.x) {
    o[at + 8] = subgroupQuadSwapVertical(x);
    o[at + 9] = subgroupQuadSwapDiagonal(x);
    o[at + 10] = subgroupQuadBroadcast(x, 3);
    o[at + 11] = subgroupShuffleXor(x, 2);
  }
}
)",
                               sg, local, groups, local * groups * words, in);
    REQUIRE_RAN(run);
    for (uint32_t g = 0; g < local * groups; ++g) {
      const uint32_t index = g % local, id = index % sg, first = g - id;
      CAPTURE(g, id);
      auto at = [&](uint32_t k) { return in[first + k]; };
      const uint32_t* w = run.out.data() + g * words;
      const uint32_t quad = id / 4 * 4;
      CHECK(w[0] == at(id / 2));
      CHECK(w[1] == at(id ^ 1));
      CHECK(w[2] == at(id - std::min(id, 1u)));
      CHECK(w[3] == at(id % 2 == 0 ? id + 1 : id));
      CHECK(w[4] == at(quad));
      CHECK(w[5] == at(id ^ 1));
      CHECK(w[6] == at(quad + 1));
      CHECK(w[7] == at(id ^ 1) * 4 + 1);
      if ((index | 3) < local) {
        CHECK(w[8] == at(id ^ 2));
        CHECK(w[9] == at(id ^ 3));
        CHECK(w[10] == at(quad + 3));
        CHECK(w[11] == at(id ^ 2));
      } else {
        CHECK(w[8] == 0);
      }
    }
  }
}

// SPIR-V 1.0 §3.32.8 [external] OpArrayLength: the length of a runtime array member, from the size of the buffer
// bound: (size − member offset) / stride, rounded down.
TEST_CASE("shader .length() of a runtime array is the bound buffer's whole elements past the member's offset",
          "[shader][vulkan]") {
  host::Device device;
  auto program = host::Program::fromGlsl(device, R"(#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Out { uint o[]; };
layout(std430, set = 0, binding = 1) buffer Data { uint head[3]; vec4 tail[]; } d;
layout(std430, set = 0, binding = 2) readonly buffer Plain { uint p[]; };
void main() {
  o[0] = d.tail.length();
  o[1] = p.length();
  o[2] = o.length();
}
)");
  host::Kernel k(program, "main");
  for (size_t dataBytes : {16u, 31u, 16u + 16u * 5 + 15u, 16u + 16u * 7}) {
    for (size_t plainBytes : {4u, 4u * 9 + 3}) {
      CAPTURE(dataBytes, plainBytes);
      auto out = std::make_shared<host::Buffer>(4 * 5 + 2);
      k.setArg(*k.resourceArg(0, 0), out);
      k.setArg(*k.resourceArg(0, 1), std::make_shared<host::Buffer>(dataBytes));
      k.setArg(*k.resourceArg(0, 2), std::make_shared<host::Buffer>(plainBytes));
      const auto result = k.run(k.dispatch({1, 1, 1}));
      INFO((result.fault ? result.fault->message : ""));
      REQUIRE(result.ok);
      // tail: offset 16 (vec4's alignment after 12 bytes), stride 16.
      CHECK(out->as<uint32_t>()[0] == (dataBytes - 16) / 16);
      CHECK(out->as<uint32_t>()[1] == plainBytes / 4);
      CHECK(out->as<uint32_t>()[2] == 5);
    }
  }
}

TEST_CASE("shader atomics on storage buffers and shared memory: a histogram, a counter, a CAS loop, 64-bit and float",
          "[shader][vulkan][atomic]") {
  const uint32_t local = 64, groups = 4, n = local * groups;
  const auto in = inputs(n);
  for (bool races : {false, true}) {
    CAPTURE(races);
    host::DeviceConfig config;
    if (races) config.checks.add(interpreter::Check::Races);
    host::Device device(config);
    auto program = host::Program::fromGlsl(device, R"(#version 450
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) readonly buffer In { uint v[]; };
layout(set = 0, binding = 2) buffer Wide { int64_t total; uint64_t top; float fsum; int smin; } wide;
shared uint hist[16];
shared uint band;
shared uint lo;
shared int64_t groupTotal;
void main() {
  uint g = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex, x = v[g];
  if (l < 16) hist[l] = 0;
  if (l == 0) { band = ~0u; lo = ~0u; groupTotal = 0; }
  barrier();
  atomicAdd(hist[x % 16], 1u);
  atomicAnd(band, x | 0xFFFFFF80u);
  atomicMin(lo, x);
  atomicAdd(groupTotal, int64_t(x));
  barrier();
  if (l < 16) atomicAdd(o[l], hist[l]);
  if (l == 0) { atomicOr(o[23], band); atomicAdd(o[24], uint(groupTotal)); atomicOr(o[25], lo); }
  uint ticket = atomicAdd(o[16], 1u);
  o[1024 + ticket] = g + 1;
  atomicMax(o[17], ~x);
  atomicMax(o[18], x);
  atomicOr(o[19], 1u << (x % 32));
  atomicXor(o[20], x);
  o[512 + g] = atomicExchange(o[21], g + 1);
  uint cur = atomicOr(o[22], 0u);
  for (;;) {
    uint seen = atomicCompSwap(o[22], cur, cur + x);
    if (seen == cur) break;
    cur = seen;
  }
  atomicAdd(wide.total, int64_t(x) - 50);
  atomicMax(wide.top, uint64_t(x) << 40);
  atomicAdd(wide.fsum, float(x));
  atomicMin(wide.smin, int(x) - 50);
}
)");
    program->setSpecConstant(0, &local, 4);
    host::Kernel k(program, "main");
    auto out = std::make_shared<host::Buffer>(4 * (1024 + n));
    auto wide = std::make_shared<host::Buffer>(32);
    k.setArg(*k.resourceArg(0, 0), out);
    k.setArg(*k.resourceArg(0, 1), std::make_shared<host::Buffer>(in.data(), in.size() * 4));
    k.setArg(*k.resourceArg(0, 2), wide);
    const auto result = k.run(k.dispatch({groups, 1, 1}));
    INFO((result.fault ? result.fault->message : ""));
    for (const auto& f : result.findings) UNSCOPED_INFO(f.format());
    REQUIRE(result.ok);
    CHECK(result.findings.empty());
    const uint32_t* o = out->as<uint32_t>().data();
    std::array<uint32_t, 16> hist{};
    uint32_t maxX = 0, minX = ~0u, bits = 0, x0r = 0, sum = 0, band = 0, groupMins = 0;
    int64_t total = 0;
    int32_t smin = 0;
    for (uint32_t gr = 0; gr < groups; ++gr) {
      uint32_t groupAnd = ~0u, groupMin = ~0u;
      for (uint32_t l = 0; l < local; ++l) {
        groupAnd &= in[gr * local + l] | 0xFFFFFF80u;
        groupMin = std::min(groupMin, in[gr * local + l]);
      }
      band |= groupAnd;
      groupMins |= groupMin;
    }
    for (uint32_t x : in) {
      ++hist[x % 16];
      maxX = std::max(maxX, x);
      minX = std::min(minX, x);
      bits |= 1u << (x % 32);
      x0r ^= x;
      sum += x;
      total += int64_t(x) - 50;
      smin = std::min(smin, int32_t(x) - 50);
    }
    for (int b = 0; b < 16; ++b) CHECK(o[b] == hist[b]);
    CHECK(o[16] == n);
    std::vector<uint32_t> tickets(o + 1024, o + 1024 + n);  // every ticket taken once: each g + 1 once
    std::sort(tickets.begin(), tickets.end());
    for (uint32_t i = 0; i < n; ++i) CHECK(tickets[i] == i + 1);
    CHECK(o[17] == ~minX);
    CHECK(o[18] == maxX);
    CHECK(o[19] == bits);
    CHECK(o[20] == x0r);
    // The exchanges form one chain: the values returned and the last one left are 0 and every g + 1, once each.
    std::vector<uint32_t> chain(o + 512, o + 512 + n);
    chain.push_back(o[21]);
    std::sort(chain.begin(), chain.end());
    for (uint32_t i = 0; i <= n; ++i) CHECK(chain[i] == i);
    CHECK(o[22] == sum);
    CHECK(o[23] == band);
    CHECK(o[24] == sum);
    CHECK(o[25] == groupMins);
    int64_t wideTotal;
    uint64_t top;
    float fsum;
    int32_t wideMin;
    std::memcpy(&wideTotal, wide->as<uint8_t>().data(), 8);
    std::memcpy(&top, wide->as<uint8_t>().data() + 8, 8);
    std::memcpy(&fsum, wide->as<uint8_t>().data() + 16, 4);
    std::memcpy(&wideMin, wide->as<uint8_t>().data() + 20, 4);
    CHECK(wideTotal == total);
    CHECK(top == uint64_t(maxX) << 40);
    CHECK(fsum == float(sum));  // integers below 2^24: exact in any order
    CHECK(wideMin == smin);
  }
}

TEST_CASE("a shader with the Vulkan memory model, its barriers, coherent and volatile buffers and scoped atomics",
          "[shader][vulkan]") {
  const uint32_t local = 48, groups = 3, n = local * groups;
  const auto in = inputs(n);
  for (uint32_t sg : {4u, 32u}) {
    CAPTURE(sg);
    const auto run = runShader(R"(#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) coherent buffer Out { uint o[]; };
layout(set = 0, binding = 1) volatile readonly buffer In { uint v[]; };
shared uint s[gl_WorkGroupSize.x];
shared uint t[gl_WorkGroupSize.x];
void main() {
  uint l = gl_LocalInvocationIndex, g = gl_GlobalInvocationID.x, size = gl_WorkGroupSize.x;
  s[l] = v[g];
  memoryBarrierShared();
  barrier();
  t[l] = s[(l + 1) % size] + s[(l + size - 1) % size];
  groupMemoryBarrier();
  memoryBarrierBuffer();
  memoryBarrier();
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
  uint u = t[size - 1 - l];
  subgroupBarrier();
  subgroupMemoryBarrier();
  subgroupMemoryBarrierShared();
  atomicStore(o[g], u, gl_ScopeQueueFamily, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
  uint back = atomicLoad(o[g], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
  o[g + gl_NumWorkGroups.x * size] = back * 2 + 1;
  atomicAdd(o[2 * gl_NumWorkGroups.x * size], back, gl_ScopeQueueFamily, gl_StorageSemanticsBuffer,
            gl_SemanticsRelaxed);
  memoryBarrier(gl_ScopeQueueFamily, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
}
)",
                               sg, local, groups, 2 * n + 1, in);
    REQUIRE_RAN(run);
    uint32_t total = 0;
    for (uint32_t g = 0; g < n; ++g) {
      const uint32_t gr = g / local, l = g % local, m = local - 1 - l;
      const uint32_t expect = in[gr * local + (m + 1) % local] + in[gr * local + (m + local - 1) % local];
      CAPTURE(g);
      CHECK(run.out[g] == expect);
      CHECK(run.out[n + g] == expect * 2 + 1);
      total += expect;
    }
    CHECK(run.out[2 * n] == total);
  }
}

// SPIR-V's GroupNonUniform arithmetic, votes and moves take vectors ("a scalar or vector of ..."); GLSL's genType
// overloads make them.
TEST_CASE("shader subgroup operations on vectors act component by component", "[shader][vulkan][subgroup]") {
  const uint32_t local = 50, groups = 1, words = 16;
  const auto in = inputs(local * groups);
  for (uint32_t sg : {4u, 32u}) {
    CAPTURE(sg);
    const auto run = runShader(std::string(kHeader) + R"(
void main() {
  uint g = gl_GlobalInvocationID.x, at = g * 16, x = v[g], id = gl_SubgroupInvocationID;
  uvec2 a = subgroupAdd(uvec2(x, 2 * x + 1));
  ivec3 m = subgroupInclusiveMax(ivec3(int(x) - 50, -int(x), int(id)));
  vec2 f = subgroupClusteredAdd(vec2(float(x), 0.5 * float(x)), 4);
  uvec4 s = subgroupShuffleXor(uvec4(x, x + 1, x + 2, x + 3), 1);
  vec3 b = subgroupBroadcast(vec3(float(x), 1.0, -float(x)), 1);
  bvec2 l = subgroupOr(bvec2(x > 80, x > 200));
  o[at + 0] = a.x; o[at + 1] = a.y;
  o[at + 2] = uint(m.x); o[at + 3] = uint(m.y); o[at + 4] = uint(m.z);
  o[at + 5] = uint(f.x * 2.0); o[at + 6] = uint(f.y * 2.0);
  o[at + 7] = s.x; o[at + 8] = s.w;
  o[at + 9] = uint(b.x); o[at + 10] = uint(-b.z);
  o[at + 11] = (l.x ? 1 : 0) + (l.y ? 2 : 0);
  o[at + 12] = subgroupAllEqual(vec2(1.0, id % 2 == 0 ? 0.0 : -0.0)) ? 1 : 0;
  o[at + 13] = subgroupAllEqual(uvec2(7, id / 64)) ? 1 : 0;
  o[at + 14] = subgroupAllEqual(vec2(1.0, float(id))) ? 1 : 0;
}
)",
                               sg, local, groups, local * groups * words, in);
    REQUIRE_RAN(run);
    for (uint32_t g = 0; g < local * groups; ++g) {
      const uint32_t id = g % sg;
      const Subgroup sub = subgroupOf(g, sg, local);
      CAPTURE(g, id);
      std::vector<uint32_t> xs;
      for (uint32_t k = 0; k < sub.members; ++k) xs.push_back(in[sub.first + k]);
      const uint32_t* w = run.out.data() + g * words;
      uint32_t sum = 0, sum2 = 0;
      for (uint32_t x : xs) {
        sum += x;
        sum2 += 2 * x + 1;
      }
      int32_t m0 = INT32_MIN, m1 = INT32_MIN;
      for (uint32_t k = 0; k <= id; ++k) {
        m0 = std::max(m0, int32_t(xs[k]) - 50);
        m1 = std::max(m1, -int32_t(xs[k]));
      }
      uint32_t c4 = 0;
      for (uint32_t k = id / 4 * 4; k < std::min(id / 4 * 4 + 4, sub.members); ++k) c4 += xs[k];
      const bool any80 = std::any_of(xs.begin(), xs.end(), [](uint32_t x) { return x > 80; });
      CHECK(w[0] == sum);
      CHECK(w[1] == sum2);
      CHECK(int32_t(w[2]) == m0);
      CHECK(int32_t(w[3]) == m1);
      CHECK(w[4] == id);
      CHECK(w[5] == 2 * c4);
      CHECK(w[6] == c4);
      CHECK(w[7] == xs[id ^ 1]);
      CHECK(w[8] == xs[id ^ 1] + 3);
      CHECK(w[9] == xs[1]);
      CHECK(w[10] == xs[1]);
      CHECK(w[11] == (any80 ? 1u : 0u));
      CHECK(w[12] == 1);  // -0 equals +0
      CHECK(w[13] == 1);
      CHECK(w[14] == 0);
    }
  }
}

// Vulkan [[shaders-group-operations-arithmetic]] [external]: "The order in which these operators are applied is
// implementation-dependent". clref's order is the choice work_group_reduction_order, as for OpenCL's group functions:
// left to right (linear) or pairwise (tree).
TEST_CASE("a shader's floating-point subgroup reduction follows work_group_reduction_order",
          "[shader][vulkan][subgroup]") {
  // 1e8 + 1 rounds to 1e8 in binary32 (its spacing there is 8): linearly ((1e8 + 1) − 1e8) + 1 = 1, as a tree
  // (1e8 + 1) + (−1e8 + 1) = 0.
  const float values[4] = {1e8f, 1.0f, -1e8f, 1.0f};
  std::vector<uint32_t> in(4);
  std::memcpy(in.data(), values, sizeof values);
  const std::string src = std::string(kHeader) + R"(
void main() {
  uint g = gl_GlobalInvocationID.x;
  o[g] = floatBitsToUint(subgroupAdd(uintBitsToFloat(v[g])));
}
)";
  for (const char* order : {"linear", "tree"}) {
    CAPTURE(order);
    host::DeviceConfig config;
    config.subgroupSize = 4;
    config.choices.set(std::string("work_group_reduction_order=") + order);
    host::Device device(config);
    auto program = host::Program::fromGlsl(device, src);
    const uint32_t local = 4;
    program->setSpecConstant(0, &local, 4);
    host::Kernel k(program, "main");
    auto out = std::make_shared<host::Buffer>(16);
    k.setArg(*k.resourceArg(0, 0), out);
    k.setArg(*k.resourceArg(0, 1), std::make_shared<host::Buffer>(in.data(), 16));
    const auto result = k.run(k.dispatch({1, 1, 1}));
    INFO((result.fault ? result.fault->message : ""));
    REQUIRE(result.ok);
    const bool linear = std::string(order) == "linear";
    const float expect = linear ? ((1e8f + 1.0f) - 1e8f) + 1.0f : (1e8f + 1.0f) + (-1e8f + 1.0f);
    CHECK(expect == (linear ? 1.0f : 0.0f));
    for (int i = 0; i < 4; ++i) {
      float r;
      std::memcpy(&r, out->as<uint8_t>().data() + 4 * i, 4);
      CHECK(r == expect);
    }
  }
}
