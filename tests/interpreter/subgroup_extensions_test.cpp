// The sub-group extensions (OpenCL C 3.0 §6.15.20 [[sub-group-functions]] and its sections: ballot, non-uniform vote
// and arithmetic, clustered reduce, shuffle, relative shuffle, rotate, extended types), compiled from OpenCL C and run
// at two sub-group sizes with work-groups that leave a partial sub-group, with all work-items active, in a divergent
// branch, and in a loop whose work-items leave one by one. Expected values are computed here from the spec's
// definitions: the sub-groups are consecutive local ids, maxSize each, the last one smaller.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/host.hpp"

using namespace clref;

namespace {

constexpr int K = 40;  // outputs per work-item

const char* kSource = R"CL(
kernel void sg(global const int* in, global int* out, global float* fout) {
  const uint lid = get_local_id(0);
  const int x = in[get_global_id(0)];
  global int* o = out + get_global_id(0) * 40;
  const uint id = get_sub_group_local_id(), size = get_sub_group_size();
  o[0] = sub_group_elect();
  o[1] = sub_group_non_uniform_all(x > -50);
  o[2] = sub_group_non_uniform_any(x > 45);
  o[3] = sub_group_non_uniform_all_equal(x);
  o[4] = sub_group_non_uniform_all_equal(7);
  o[5] = sub_group_non_uniform_broadcast(x, 1);
  o[6] = sub_group_broadcast_first(x);
  const uint4 b = sub_group_ballot(x & 1);
  o[7] = (int)b.x;
  o[8] = (int)b.y;
  o[9] = sub_group_inverse_ballot(b);
  o[10] = sub_group_ballot_bit_extract(b, 2);
  o[11] = (int)sub_group_ballot_bit_count(b);
  o[12] = (int)sub_group_ballot_inclusive_scan(b);
  o[13] = (int)sub_group_ballot_exclusive_scan(b);
  o[14] = (int)sub_group_ballot_find_lsb(b | (uint4)(1u << 3, 0, 0, 0));
  o[15] = (int)sub_group_ballot_find_msb(b | (uint4)(1u, 0, 0, 0));
  o[16] = sub_group_shuffle(x, (id + 3) % size);
  o[17] = sub_group_shuffle_xor(x, 1);
  o[18] = sub_group_shuffle_up(x, 1);
  o[19] = sub_group_shuffle_down(x, 1);
  o[20] = sub_group_non_uniform_reduce_add(x);
  o[21] = sub_group_non_uniform_scan_inclusive_mul(x);
  o[22] = sub_group_non_uniform_scan_exclusive_max(x);
  o[23] = sub_group_non_uniform_reduce_xor(x);
  o[24] = sub_group_non_uniform_reduce_logical_and(x > -40);
  o[25] = sub_group_clustered_reduce_add(x, 4);
  o[26] = sub_group_clustered_reduce_max(x, 2);
  o[27] = sub_group_rotate(x, 2);
  o[28] = sub_group_clustered_rotate(x, -1, 4);
  o[29] = (int)get_sub_group_eq_mask().x;
  o[30] = (int)get_sub_group_lt_mask().x;
  o[31] = (int)get_sub_group_ge_mask().x;
  o[32] = sub_group_broadcast((char)x, 2);
  o[33] = sub_group_reduce_add((short)x);
  o[34] = sub_group_broadcast((int2)(x, -x), 0).y;
  // Divergent: only the work-items whose local id is a multiple of 3 are active.
  o[35] = -1000;
  o[36] = -1000;
  if (lid % 3 == 0) {
    o[35] = sub_group_non_uniform_reduce_add(x);
    o[36] = (int)sub_group_ballot_bit_count(sub_group_ballot(1)) * 100 + sub_group_elect();
  }
  // A loop the work-items leave one by one: iteration k has the work-items with lid % 4 > k.
  int acc = 0;
  for (uint k = 0; k < lid % 4; ++k) acc += sub_group_non_uniform_reduce_add(1);
  o[37] = acc;
  fout[get_global_id(0)] = sub_group_non_uniform_reduce_add((float)x * 0.25f);
}
)CL";

struct Expect {
  size_t maxSize, local, groups;
};

void checkRun(size_t maxSize, size_t local) {
  INFO("sub-group size " << maxSize << ", work-group size " << local);
  host::DeviceConfig cfg;
  cfg.subgroupSize = uint32_t(maxSize);
  const host::Device device(cfg);
  auto program = host::Program::fromOpenCLC(device, kSource, "-cl-std=CL3.0");
  host::Kernel k(program, "sg");
  const size_t n = local * 2;
  std::vector<int32_t> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = int32_t((i * 37 + 11) % 97) - 48;
  auto out = std::make_shared<host::Buffer>(n * K * 4);
  auto fout = std::make_shared<host::Buffer>(n * 4);
  k.setArg(0, std::make_shared<host::Buffer>(in.data(), n * 4));
  k.setArg(1, out);
  k.setArg(2, fout);
  host::NDRange r;
  r.global = {n, 1, 1};
  r.local = std::array<size_t, 3>{local, 1, 1};
  const auto res = k.run(r);
  INFO((res.fault ? res.fault->format() : std::string()));
  REQUIRE(res.ok);
  const auto o = out->as<int32_t>();
  const auto f = fout->as<float>();
  for (size_t g = 0; g < n; ++g) {
    const size_t lid = g % local, base = g - lid % maxSize;  // global index of the sub-group's id 0
    const size_t id = lid % maxSize, size = std::min(maxSize, local - lid / maxSize * maxSize);
    auto X = [&](size_t j) { return in[base + j]; };  // the value of sub-group local id j
    const int32_t* e = o.data() + g * K;
    INFO("work-item " << g << " (sub-group local id " << id << " of " << size << ")");
    bool all = true, any = false, equal = true;
    int32_t sum = 0, x = 0, mx = INT32_MIN, eMax = INT32_MIN;
    uint32_t prod = 1, ballot = 0;
    bool land = true;
    for (size_t j = 0; j < size; ++j) {
      all = all && X(j) > -50;
      any = any || X(j) > 45;
      equal = equal && X(j) == X(0);
      sum += X(j);
      x ^= X(j);
      land = land && X(j) > -40;
      if (X(j) & 1) ballot |= 1u << j;
      if (j <= id) prod *= uint32_t(X(j));
      if (j < id) eMax = std::max(eMax, X(j));
      mx = std::max(mx, X(j));
    }
    CHECK(e[0] == (id == 0));
    CHECK(e[1] == all);
    CHECK(e[2] == any);
    CHECK(e[3] == equal);
    CHECK(e[4] == 1);
    if (size > 1) CHECK(e[5] == X(1));
    CHECK(e[6] == X(0));
    CHECK(uint32_t(e[7]) == ballot);
    CHECK(e[8] == 0);
    CHECK(e[9] == int((ballot >> id) & 1));
    if (size > 2) CHECK(e[10] == int((ballot >> 2) & 1));
    CHECK(e[11] == std::popcount(ballot));
    CHECK(e[12] == std::popcount(ballot & uint32_t((uint64_t(2) << id) - 1)));
    CHECK(e[13] == std::popcount(ballot & uint32_t((uint64_t(1) << id) - 1)));
    CHECK(e[14] == std::countr_zero(ballot | 8u));
    CHECK(e[15] == 31 - std::countl_zero(ballot | 1u));
    CHECK(e[16] == X((id + 3) % size));
    if ((id ^ 1) < size) CHECK(e[17] == X(id ^ 1));
    if (id >= 1) CHECK(e[18] == X(id - 1));
    if (id + 1 < size) CHECK(e[19] == X(id + 1));
    CHECK(e[20] == sum);
    CHECK(uint32_t(e[21]) == prod);
    CHECK(e[22] == eMax);  // the identity INT_MIN for the first
    CHECK(e[23] == x);
    CHECK(e[24] == land);
    {
      const size_t c4 = id / 4 * 4, c2 = id / 2 * 2;
      int32_t s4 = 0, m2 = INT32_MIN;
      for (size_t j = c4; j < c4 + 4 && j < size; ++j) s4 += X(j);
      for (size_t j = c2; j < c2 + 2 && j < size; ++j) m2 = std::max(m2, X(j));
      CHECK(e[25] == s4);
      CHECK(e[26] == m2);
      const size_t rot = (id + 2) % maxSize;
      if (rot < size) CHECK(e[27] == X(rot));
      const size_t crot = c4 + (id - c4 + 3) % 4;
      if (crot < size) CHECK(e[28] == X(crot));
    }
    CHECK(uint32_t(e[29]) == (id < 32 ? 1u << id : 0u));
    CHECK(uint32_t(e[30]) == uint32_t((uint64_t(1) << std::min<size_t>(id, 32)) - 1));
    CHECK(uint32_t(e[31]) ==
          uint32_t(((uint64_t(1) << std::min<size_t>(maxSize, 32)) - 1) & ~((uint64_t(1) << id) - 1)));
    if (size > 2) CHECK(e[32] == int32_t(int8_t(X(2))));
    {
      int16_t s = 0;
      for (size_t j = 0; j < size; ++j) s = int16_t(s + int16_t(X(j)));
      CHECK(e[33] == s);
    }
    CHECK(e[34] == -X(0));
    // The divergent branch: the active work-items are the sub-group's with local id a multiple of 3.
    if (lid % 3 == 0) {
      int32_t s = 0, count = 0, first = -1;
      for (size_t j = 0; j < size; ++j)
        if ((lid - id + j) % 3 == 0) {
          s += X(j);
          ++count;
          if (first < 0) first = int32_t(j);
        }
      CHECK(e[35] == s);
      CHECK(e[36] == count * 100 + (int32_t(id) == first));
    } else {
      CHECK(e[35] == -1000);
      CHECK(e[36] == -1000);
    }
    // The loop: iteration k counts the work-items of the sub-group with lid % 4 > k.
    int32_t acc = 0;
    for (size_t kk = 0; kk < lid % 4; ++kk)
      for (size_t j = 0; j < size; ++j) acc += ((lid - id + j) % 4 > kk);
    CHECK(e[37] == acc);
    // Float: multiples of 1/4 in [-12, 12], so every order gives the exact sum.
    CHECK(f[g] == float(sum) * 0.25f);
  }
}

// Kernel `k` of `src` on a device with sub-groups of 8 and `choice` set ("" for the defaults): n work-items in one
// work-group, argument 0 a buffer of `outInts` ints.
struct ChoiceRun {
  host::RunResult res;
  std::shared_ptr<host::Buffer> out;
};
ChoiceRun runWithChoice(const char* src, const char* choice, size_t n, size_t outInts) {
  host::DeviceConfig cfg;
  cfg.subgroupSize = 8;
  if (*choice) cfg.choices.set(choice);
  const host::Device device(cfg);
  auto program = host::Program::fromOpenCLC(device, src, "-cl-std=CL3.0");
  host::Kernel k(program, "k");
  auto out = std::make_shared<host::Buffer>(outInts * 4);
  k.setArg(0, out);
  host::NDRange r;
  r.global = {n, 1, 1};
  r.local = std::array<size_t, 3>{n, 1, 1};
  return {k.run(r), out};
}

}  // namespace

TEST_CASE("sub-group extensions at two sub-group sizes, with partial sub-groups, divergence and loops",
          "[execution][subgroups]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  checkRun(16, 24);  // a full sub-group and one of 8
  checkRun(8, 24);   // three full sub-groups
  checkRun(8, 13);   // one of 5
  checkRun(32, 40);  // 32 and 8
}

TEST_CASE("a sub-group shuffle from an inactive work-item follows sub_group_inactive_source",
          "[execution][subgroups][choices]") {
  if (!host::Program::openCLCCompilerAvailable()) return;
  const char* src = R"CL(
kernel void k(global int* out) {
  uint id = get_sub_group_local_id();
  out[get_global_id(0)] = -1;
  if (id < 4) out[get_global_id(0)] = sub_group_shuffle((int)id + 10, id + 4);
}
)CL";
  for (const char* choice : {"", "sub_group_inactive_source=fault"}) {
    INFO(choice);
    const auto [res, out] = runWithChoice(src, choice, 8, 8);
    if (*choice) {
      REQUIRE_FALSE(res.ok);
      REQUIRE(res.fault);
      CHECK_THAT(res.fault->format(), Catch::Contains("inactive"));
    } else {
      REQUIRE(res.ok);
      for (int i = 0; i < 4; ++i) CHECK(out->as<int32_t>()[i] == 0);
      REQUIRE_FALSE(res.warnings.empty());
      CHECK_THAT(res.warnings.front().format(), Catch::Contains("sub_group_inactive_source"));
    }
  }
}

TEST_CASE("the device reports the sub-group extensions", "[execution][subgroups]") {
  const auto ext = host::openCLCExtensions(host::DeviceConfig());
  for (const char* e :
       {"cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
        "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
        "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate"})
    CHECK(std::count(ext.begin(), ext.end(), e) == 1);
}

TEST_CASE("choice sub_group_active_set: converged work-items meet again after a loop, alone ones never meet",
          "[execution][subgroups][choices]") {
  if (!host::Program::openCLCCompilerAvailable()) return;
  const char* src = R"CL(
kernel void k(global int* out) {
  uint lid = get_local_id(0);
  int acc = 0;
  for (uint k = 0; k < lid % 4; ++k) acc += sub_group_non_uniform_reduce_add(1);
  out[2 * lid] = acc;
  out[2 * lid + 1] = sub_group_non_uniform_reduce_add(1);
}
)CL";
  for (const char* choice : {"", "sub_group_active_set=alone"}) {
    INFO((*choice ? choice : "default"));
    const auto [res, out] = runWithChoice(src, choice, 16, 32);
    REQUIRE(res.ok);
    const auto o = out->as<int32_t>();
    for (int lid = 0; lid < 16; ++lid) {
      INFO("work-item " << lid);
      if (*choice) {
        CHECK(o[2 * lid] == lid % 4);
        CHECK(o[2 * lid + 1] == 1);
      } else {
        int acc = 0;  // iteration kk: the sub-group's work-items with local id % 4 > kk (two of each residue)
        for (int kk = 0; kk < lid % 4; ++kk) acc += 2 * (3 - kk);
        CHECK(o[2 * lid] == acc);
        CHECK(o[2 * lid + 1] == 8);
      }
    }
  }
}

// clang-15 -O2 merges the calls of the two arms of a branch (and of a switch's cases) into one call after them unless
// the compiler stops it (compiler/opencl_c.cpp): the half sub-groups' broadcasts would become one broadcast with divergent
// ids, and the clustered reductions one with a ClusterSize that is not a constant. Expected values: the program's
// meaning evaluated on the host, for sub-groups of 8.
TEST_CASE("sub-group calls in the arms of a branch or a switch stay apart", "[execution][subgroups]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const char* src = R"CL(
kernel void k(global const int* in, global int* out, uint cluster) {
  size_t gid = get_global_id(0);
  int x = in[gid], r = 0;
  switch (cluster) {
    case 4: r = sub_group_clustered_reduce_add(x, 4); break;
    case 8: r = sub_group_clustered_reduce_add(x, 8); break;
    case 2: r = sub_group_clustered_reduce_add(x, 2); break;
  }
  if (get_sub_group_local_id() < 4) out[gid] = r + 1000 * sub_group_non_uniform_broadcast(x, 1);
  else out[gid] = r + 1000 * sub_group_non_uniform_broadcast(x, 5);
}
)CL";
  host::DeviceConfig cfg;
  cfg.subgroupSize = 8;
  auto program = host::Program::fromOpenCLC(host::Device(cfg), src, "-cl-std=CL3.0");
  constexpr size_t n = 32;
  std::vector<int32_t> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = int32_t(i * 3 + 1);
  for (uint32_t cluster : {2u, 4u, 8u}) {
    INFO("cluster " << cluster);
    host::Kernel k(program, "k");
    auto out = std::make_shared<host::Buffer>(n * 4);
    k.setArg(0, std::make_shared<host::Buffer>(in.data(), n * 4));
    k.setArg(1, out);
    k.setArg(2, cluster);
    host::NDRange r;
    r.global = {n, 1, 1};
    r.local = std::array<size_t, 3>{16, 1, 1};
    const auto res = k.run(r);
    INFO((res.fault ? res.fault->format() : std::string()));
    REQUIRE(res.ok);
    for (size_t i = 0; i < n; ++i) {
      const size_t first = i / cluster * cluster, sg = i / 8 * 8;
      int32_t sum = 0;
      for (size_t j = first; j < first + cluster; ++j) sum += in[j];
      const int32_t lane = in[sg + (i % 8 < 4 ? 1 : 5)];
      CHECK(out->as<int32_t>()[i] == sum + 1000 * lane);
    }
  }
}
