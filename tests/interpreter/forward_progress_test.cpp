// Independent forward progress of sub-groups (cl_khr_subgroups: OpenCL Extension Specification 3.0.12 §28.3
// "Additions to section 3.2 — Execution Model"): a work-item that spins until another sub-group of its work-group sets
// a flag must let that sub-group run. Before the scheduler time-sliced such work-items, the first kernel below never
// ended (the spinning work-item ran alone until the instruction budget stopped it). Expected values are the kernels'
// plain meaning: each group's flag is set, every spin ends, the counts of the work-items that ran are the group sizes.
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
// The first work-item of each group waits for the last one (another sub-group when the group is larger than a
// sub-group), with no barrier in the kernel.
kernel void spin_without_barrier(global atomic_int* flag, global int* seen) {
  size_t l = get_local_id(0), g = get_group_id(0);
  if (l == 0) {
    while (atomic_load_explicit(&flag[g], memory_order_acquire, memory_scope_work_group) == 0) {}
    seen[g] = 1;
  } else if (l == get_local_size(0) - 1) {
    atomic_store_explicit(&flag[g], 1, memory_order_release, memory_scope_work_group);
  }
}

// Each sub-group but the last waits for the next one to arrive (a chain), then all meet at a barrier and count
// themselves.
kernel void chain_then_barrier(global atomic_int* arrived, global int* count) {
  local atomic_int total;
  size_t g = get_group_id(0);
  uint sg = get_sub_group_id(), n = get_num_sub_groups();
  if (get_local_id(0) == 0) atomic_init(&total, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (sg + 1 < n)
    while (atomic_load_explicit(&arrived[g * 64 + sg + 1], memory_order_acquire, memory_scope_work_group) == 0) {}
  atomic_store_explicit(&arrived[g * 64 + sg], 1, memory_order_release, memory_scope_work_group);
  atomic_fetch_add_explicit(&total, 1, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) count[g] = atomic_load_explicit(&total, memory_order_relaxed, memory_scope_work_group);
}
)CL";

}  // namespace

TEST_CASE("a work-item spinning on another sub-group's flag lets it run", "[execution][subgroups][forward-progress]") {
  if (!test::openCLCCompilerOrSkip()) return;
  for (uint32_t sgSize : {8u, 32u}) {
    INFO("sub-group size " << sgSize);
    host::DeviceConfig cfg;
    cfg.subgroupSize = sgSize;
    auto program = host::Program::fromOpenCLC(host::Device(cfg), kSource, "-cl-std=CL3.0");
    host::Kernel k(program, "spin_without_barrier");
    constexpr size_t groups = 3, local = 64;
    auto flag = std::make_shared<host::Buffer>(groups * 4);
    auto seen = std::make_shared<host::Buffer>(groups * 4);
    k.setArg(0, flag);
    k.setArg(1, seen);
    host::NDRange r;
    r.global = {groups * local, 1, 1};
    r.local = std::array<size_t, 3>{local, 1, 1};
    const auto res = k.run(r);
    INFO((res.fault ? res.fault->format() : std::string()));
    REQUIRE(res.ok);
    for (size_t g = 0; g < groups; ++g) {
      CHECK(flag->as<int32_t>()[g] == 1);
      CHECK(seen->as<int32_t>()[g] == 1);
    }
  }
}

TEST_CASE("sub-groups waiting for each other in a chain, then a barrier", "[execution][subgroups][forward-progress]") {
  if (!test::openCLCCompilerOrSkip()) return;
  host::DeviceConfig cfg;
  cfg.subgroupSize = 8;
  auto program = host::Program::fromOpenCLC(host::Device(cfg), kSource, "-cl-std=CL3.0");
  host::Kernel k(program, "chain_then_barrier");
  // Groups of 40: five sub-groups of 8; the last group (of 24 work-items, non-uniform) three.
  constexpr size_t groups = 3;
  auto arrived = std::make_shared<host::Buffer>(groups * 64 * 4);
  auto count = std::make_shared<host::Buffer>(groups * 4);
  k.setArg(0, arrived);
  k.setArg(1, count);
  host::NDRange r;
  r.global = {104, 1, 1};
  r.local = std::array<size_t, 3>{40, 1, 1};
  const auto res = k.run(r);
  INFO((res.fault ? res.fault->format() : std::string()));
  REQUIRE(res.ok);
  const std::vector<int32_t> expected = {40, 40, 24};
  for (size_t g = 0; g < groups; ++g) CHECK(count->as<int32_t>()[g] == expected[g]);
}

TEST_CASE("the device reports cl_khr_subgroups", "[execution][subgroups][forward-progress]") {
  const auto ext = host::openCLCExtensions(host::DeviceConfig());
  CHECK(std::count(ext.begin(), ext.end(), "cl_khr_subgroups") == 1);
}
