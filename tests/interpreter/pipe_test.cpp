// Pipes through the host API (host::Pipe; interpreter/pipe.hpp, ops_pipe.cpp): packets written by one kernel are read
// by the next in FIFO order, reservations per work-item, work-group and sub-group, the queries, a full and an empty
// pipe, the faults, and the choices pipe_work_group_order and pipe_uncommitted_reservation. Expected values are
// computed on the host from the order the single-threaded schedule gives (work-items of a group in local id order for
// kernels without barriers, groups in ascending order, or descending under pipe_work_group_order=descending).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "compile_cl.hpp"

using namespace clref;

namespace {

const char* kSource = R"CL(
kernel void produce(global const int* in, write_only pipe int p, global int* status) {
  size_t i = get_global_id(0);
  status[i] = write_pipe(p, &in[i]);
}
kernel void consume(read_only pipe int p, global int* out, global int* status) {
  size_t i = get_global_id(0);
  int v = -1;
  status[i] = read_pipe(p, &v);
  out[i] = v;
}
// Each work-item reserves two packets and writes them in reverse index order.
kernel void produce_reserved(global const int* in, write_only pipe int p, global int* ok) {
  size_t i = get_global_id(0);
  reserve_id_t r = reserve_write_pipe(p, 2);
  ok[i] = is_valid_reserve_id(r);
  if (is_valid_reserve_id(r)) {
    write_pipe(p, r, 1u, &in[2 * i + 1]);
    write_pipe(p, r, 0u, &in[2 * i]);
    commit_write_pipe(p, r);
  }
}
// The work-group reserves one packet per work-item; work-item l reads index l.
kernel void consume_group(read_only pipe int p, global int* out, global int* counts) {
  size_t l = get_local_id(0);
  if (l == 0) counts[2 * get_group_id(0)] = get_pipe_num_packets(p);
  reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(r)) {
    read_pipe(p, r, (uint)l, &out[get_global_id(0)]);
    work_group_commit_read_pipe(p, r);
  } else {
    out[get_global_id(0)] = -7;
  }
  if (l == 0) counts[2 * get_group_id(0) + 1] = get_pipe_max_packets(p);
}
kernel void produce_subgroup(write_only pipe int p) {
  reserve_id_t r = sub_group_reserve_write_pipe(p, get_sub_group_size());
  int v = (int)(get_sub_group_id() * 100 + get_sub_group_local_id());
  if (is_valid_reserve_id(r)) {
    write_pipe(p, r, get_sub_group_local_id(), &v);
    sub_group_commit_write_pipe(p, r);
  }
}
kernel void reserve_only(write_only pipe int p) { reserve_write_pipe(p, 1); }
// Each work-item reserves a packet and writes it, but never commits the reservation.
kernel void write_uncommitted(write_only pipe int p) {
  reserve_id_t r = reserve_write_pipe(p, 1);
  int v = (int)get_global_id(0);
  if (is_valid_reserve_id(r)) write_pipe(p, r, 0u, &v);
}
kernel void commit_twice(write_only pipe int p) {
  reserve_id_t r = reserve_write_pipe(p, 1);
  commit_write_pipe(p, r);
  commit_write_pipe(p, r);
}
kernel void produce_long(write_only pipe long p) { long v = 1; write_pipe(p, &v); }
)CL";

host::NDRange range(size_t global, size_t local) {
  host::NDRange r;
  r.global = {global, 1, 1};
  r.local = std::array<size_t, 3>{local, 1, 1};
  return r;
}

std::shared_ptr<host::Program> program(unsigned subgroupSize = 32, const std::string& choice = "") {
  host::DeviceConfig cfg;
  cfg.subgroupSize = subgroupSize;
  if (!choice.empty()) cfg.choices.set(choice);
  return host::Program::fromOpenCLC(host::Device(cfg), kSource, "-cl-std=CL3.0");
}

// The record of `c` in a run's choices, or nullptr.
const interpreter::ChoiceUse* used(const host::RunResult& r, numerics::Choice c) {
  for (const auto& u : r.choicesUsed)
    if (u.choice == c) return &u;
  return nullptr;
}

std::shared_ptr<host::Buffer> ints(const std::vector<int32_t>& v) {
  return std::make_shared<host::Buffer>(v.data(), v.size() * 4);
}
std::vector<int32_t> values(const host::Buffer& b) { return {b.as<int32_t>().begin(), b.as<int32_t>().end()}; }

}  // namespace

TEST_CASE("pipes: packets written by one launch are read by the next, oldest first", "[execution][pipes]") {
  if (!test::openCLCCompilerOrSkip()) return;
  auto prog = program();
  auto pipe = std::make_shared<host::Pipe>(4, 100);
  std::vector<int32_t> in(128);
  for (int i = 0; i < 128; ++i) in[i] = i * 13 - 50;
  auto status = ints(std::vector<int32_t>(128, 5));
  host::Kernel produce(prog, "produce");
  produce.setArg(0, ints(in));
  produce.setArg(1, pipe);
  produce.setArg(2, status);
  REQUIRE(produce.run(range(128, 32)).ok);
  // 100 packets fit: the first 100 work-items in schedule order succeed, the other 28 find the pipe full.
  const auto st = values(*status);
  CHECK(std::count(st.begin(), st.end(), 0) == 100);
  for (int i = 0; i < 128; ++i) CHECK((st[i] == 0) == (i < 100));
  CHECK(pipe->numPackets() == 100);
  host::Kernel consume(prog, "consume");
  auto out = ints(std::vector<int32_t>(128, 0));
  consume.setArg(0, pipe);
  consume.setArg(1, out);
  consume.setArg(2, status);
  REQUIRE(consume.run(range(128, 64)).ok);
  const auto got = values(*out), st2 = values(*status);
  for (int i = 0; i < 128; ++i) {
    CHECK((st2[i] == 0) == (i < 100));
    CHECK(got[i] == (i < 100 ? in[i] : -1));
  }
  CHECK(pipe->numPackets() == 0);
}

TEST_CASE("pipes: reservations per work-item, work-group and sub-group", "[execution][pipes]") {
  if (!test::openCLCCompilerOrSkip()) return;
  auto prog = program();
  auto pipe = std::make_shared<host::Pipe>(4, 64);
  std::vector<int32_t> in(64);
  std::iota(in.begin(), in.end(), 1000);
  host::Kernel produce(prog, "produce_reserved");
  auto ok = ints(std::vector<int32_t>(32, -1));
  produce.setArg(0, ints(in));
  produce.setArg(1, pipe);
  produce.setArg(2, ok);
  REQUIRE(produce.run(range(32, 8)).ok);
  for (int32_t v : values(*ok)) CHECK(v == 1);
  CHECK(pipe->numPackets() == 64);
  // Groups of 16 reserve 16 packets each: four groups take all 64 in order; the fifth finds none.
  host::Kernel consume(prog, "consume_group");
  auto out = ints(std::vector<int32_t>(80, 0));
  auto counts = ints(std::vector<int32_t>(10, 0));
  consume.setArg(0, pipe);
  consume.setArg(1, out);
  consume.setArg(2, counts);
  REQUIRE(consume.run(range(80, 16)).ok);
  const auto got = values(*out), c = values(*counts);
  for (int i = 0; i < 64; ++i) CHECK(got[i] == in[i]);  // packet 2k, then 2k+1: index order within each reservation
  for (int i = 64; i < 80; ++i) CHECK(got[i] == -7);
  for (int g = 0; g < 5; ++g) {
    CHECK(c[2 * g] == 64 - 16 * g);
    CHECK(c[2 * g + 1] == 64);
  }
  // Sub-groups of 8: each reserves its size and writes sub-group id * 100 + local id.
  for (unsigned sg : {8u, 32u}) {
    INFO("sub-group size " << sg);
    auto p2 = std::make_shared<host::Pipe>(4, 256);
    host::Kernel sub(program(sg), "produce_subgroup");
    sub.setArg(0, p2);
    REQUIRE(sub.run(range(64, 64)).ok);
    REQUIRE(p2->numPackets() == 64);
    host::Kernel drain(program(sg), "consume");
    auto o = ints(std::vector<int32_t>(64, 0)), s = ints(std::vector<int32_t>(64, 0));
    drain.setArg(0, p2);
    drain.setArg(1, o);
    drain.setArg(2, s);
    REQUIRE(drain.run(range(64, 64)).ok);
    const auto v = values(*o);
    for (int i = 0; i < 64; ++i) CHECK(v[i] == int32_t(i / sg * 100 + i % sg));
  }
}

TEST_CASE("pipes: misuse is reported", "[execution][pipes][faults]") {
  if (!test::openCLCCompilerOrSkip()) return;
  auto prog = program();
  auto pipe = std::make_shared<host::Pipe>(4, 8);
  host::Kernel reserveOnly(prog, "reserve_only");
  reserveOnly.setArg(0, pipe);
  auto r = reserveOnly.run(range(4, 4));
  REQUIRE(r.ok);
  REQUIRE(!r.warnings.empty());
  CHECK_THAT(r.warnings[0].message, Catch::Contains("4 pipe reservations were not committed"));
  CHECK(pipe->numPackets() == 0);
  // The dropped reservations gave their room back: 8 packets fit again.
  host::Kernel twice(prog, "commit_twice");
  twice.setArg(0, pipe);
  auto t = twice.run(range(1, 1));
  REQUIRE(t.fault);
  CHECK_THAT(t.fault->message, Catch::Contains("no live reservation"));
  host::Kernel wrongSize(prog, "produce_long");
  wrongSize.setArg(0, pipe);
  auto w = wrongSize.run(range(1, 1));
  REQUIRE(w.fault);
  CHECK_THAT(w.fault->message, Catch::Contains("packet size is 8 bytes, the pipe's 4"));
  CHECK_THROWS(host::Pipe(0, 4));
}

TEST_CASE("pipe_work_group_order: work-groups reach a pipe in ascending or descending linear id order",
          "[execution][pipes][choices]") {
  if (!test::openCLCCompilerOrSkip()) return;
  std::vector<int32_t> in(32);
  for (int i = 0; i < 32; ++i) in[i] = 7 * i + 3;
  for (const bool descending : {false, true}) {
    INFO((descending ? "descending" : "ascending"));
    auto prog = program(32, descending ? "pipe_work_group_order=descending" : "");
    auto pipe = std::make_shared<host::Pipe>(4, 32);
    // Four groups of 8 write their in[] values; one group then reads the pipe in local id order.
    host::Kernel produce(prog, "produce");
    auto status = ints(std::vector<int32_t>(32, 5));
    produce.setArg(0, ints(in));
    produce.setArg(1, pipe);
    produce.setArg(2, status);
    const auto wrote = produce.run(range(32, 8));
    REQUIRE(wrote.ok);
    for (int32_t v : values(*status)) CHECK(v == 0);
    // Each group after the first in the schedule follows another group's writes: three decisions, the first by the
    // second group to run.
    const auto* order = used(wrote, numerics::Choice::PipeWorkGroupOrder);
    REQUIRE(order);
    CHECK(order->count == 3);
    CHECK(order->first.groupId[0] == (descending ? 2u : 1u));
    host::Kernel consume(prog, "consume");
    auto out = ints(std::vector<int32_t>(32, 0));
    consume.setArg(0, pipe);
    consume.setArg(1, out);
    consume.setArg(2, status);
    const auto read = consume.run(range(32, 32));
    REQUIRE(read.ok);
    CHECK(used(read, numerics::Choice::PipeWorkGroupOrder) == nullptr);  // one group: no order between groups
    std::vector<int32_t> expected;
    for (int k = 0; k < 4; ++k) {
      const int g = descending ? 3 - k : k;
      for (int l = 0; l < 8; ++l) expected.push_back(in[g * 8 + l]);
    }
    CHECK(values(*out) == expected);
  }
}

TEST_CASE("pipe_work_group_order: the first group to run reports its fault, the later ones do not run",
          "[execution][pipes][choices][faults]") {
  if (!test::openCLCCompilerOrSkip()) return;
  // commit_twice: each work-item's first commit adds a packet, its second faults. Four groups of one work-item.
  for (const bool descending : {false, true}) {
    INFO((descending ? "descending" : "ascending"));
    auto pipe = std::make_shared<host::Pipe>(4, 8);
    host::Kernel twice(program(32, descending ? "pipe_work_group_order=descending" : ""), "commit_twice");
    twice.setArg(0, pipe);
    const auto r = twice.run(range(4, 1));
    REQUIRE(r.fault);
    CHECK(r.fault->groupId[0] == (descending ? 3u : 0u));
    CHECK(pipe->numPackets() == 1);
  }
}

TEST_CASE("pipe_uncommitted_reservation: dropped with a warning or a fault naming them, the pipe stays usable",
          "[execution][pipes][choices]") {
  if (!test::openCLCCompilerOrSkip()) return;
  for (const bool fault : {false, true}) {
    INFO((fault ? "fault" : "drop"));
    auto prog = program(32, fault ? "pipe_uncommitted_reservation=fault" : "");
    auto pipe = std::make_shared<host::Pipe>(4, 8);
    // Six work-items in two groups each reserve and write a packet, and commit none.
    host::Kernel uncommitted(prog, "write_uncommitted");
    uncommitted.setArg(0, pipe);
    const auto r = uncommitted.run(range(6, 3));
    const interpreter::Diagnostic* d = nullptr;
    if (fault) {
      REQUIRE(r.fault);
      CHECK(!r.ok);
      CHECK(r.fault->kind == interpreter::FaultKind::UndefinedBehaviour);
      CHECK_THAT(r.fault->message, Catch::Contains("pipe_uncommitted_reservation=fault"));
      d = &*r.fault;
    } else {
      REQUIRE(r.ok);
      REQUIRE(r.warnings.size() == 1);
      CHECK_THAT(r.warnings[0].message, Catch::Contains("pipe_uncommitted_reservation=drop"));
      d = &r.warnings[0];
    }
    CHECK_THAT(d->message, Catch::Contains("6 pipe reservations were not committed"));
    CHECK_THAT(d->instruction, Catch::Contains("OpReserveWritePipePackets"));  // where the first was made: work-item 0
    CHECK(d->globalId == std::array<uint64_t, 3>{0, 0, 0});
    const auto* record = used(r, numerics::Choice::PipeUncommittedReservation);
    REQUIRE(record);
    CHECK(record->count == 6);
    // Either way the written packets never joined the pipe, and the reserved room is free again: 8 packets fit.
    CHECK(pipe->numPackets() == 0);
    host::Kernel produce(prog, "produce");
    std::vector<int32_t> in(8);
    std::iota(in.begin(), in.end(), 40);
    auto status = ints(std::vector<int32_t>(8, 5));
    produce.setArg(0, ints(in));
    produce.setArg(1, pipe);
    produce.setArg(2, status);
    REQUIRE(produce.run(range(8, 8)).ok);
    for (int32_t v : values(*status)) CHECK(v == 0);
    CHECK(pipe->numPackets() == 8);
  }
}
