// Kernel faults (docs/ARCHITECTURE.md principle 4, "never crash, never guess"): every fault kind aborts the
// NDRange with a diagnostic naming what went wrong, the disassembled instruction, the work-item
// and (with -g) the source line; the host survives, and the same Kernel and a new one run
// correctly afterwards. Expected values are computed on the host in this file.
#include <catch2/catch.hpp>

#include "compile_cl.hpp"
#include "ndrange.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "interpreter/diagnostic.hpp"

using namespace clref;
using Catch::Matchers::Contains;
using interpreter::FaultKind;

namespace {

namespace fs = std::filesystem;

// tests/interpreter/compile_cl.hpp, with the source named faults.cl (the diagnostics name it).
std::vector<uint32_t> compileCL(const std::string& source, const std::string& options,
                                const std::string& spirvVersion = "1.1", unsigned addressBits = 64) {
  return test::compileCL(source, options, spirvVersion, addressBits, "faults.cl");
}

// 1-based line of the first source line containing `marker`.
unsigned lineOf(const std::string& source, const std::string& marker) {
  std::istringstream in(source);
  unsigned n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.find(marker) != std::string::npos) return n;
  }
  FAIL("marker " << marker << " not in the source");
  return 0;
}

// Every fault kernel in one program, compiled once (-O0 so private arrays and
// __builtin_unreachable survive as OpVariable / OpUnreachable; -g for OpLine;
// -fno-discard-value-names so parameters and variables carry OpName).
const std::string kFaultSource = R"CL(
kernel void oob_write(global int* a) {
  size_t i = get_global_id(0);
  a[i] = (int)i * 3;  // @oob_write
}
kernel void oob_read(global const int* src, global int* dst) {
  size_t i = get_global_id(0);
  dst[i] = src[i + 1];  // @oob_read
}
kernel void oob_local(global int* out) {
  local int tmp[16];
  size_t l = get_local_id(0);
  tmp[l] = (int)l;  // @oob_local
  out[get_global_id(0)] = tmp[l];
}
kernel void oob_private(global int* out, int k) {
  int arr[4];
  for (int j = 0; j < 4; ++j) arr[j] = j * 10;
  out[get_global_id(0)] = arr[k + (int)get_global_id(0)];  // @oob_private
}
kernel void null_deref(global int* p) {
  p[get_global_id(0)] = 1;  // @null_deref
}
kernel void misaligned(global int* p) {
  *(global int*)((global char*)p + 1) = 5;  // @misaligned
}
typedef int4 __attribute__((aligned(64))) int4_claimed;  // stores through it say Aligned 64
kernel void overclaim(global int4* p, int byteOffset) {
  *(global int4_claimed*)((global char*)p + byteOffset) = (int4)(byteOffset, 1, 2, 3);  // @overclaim
}
kernel void barrier_div(global int* out) {
  if (get_local_id(0) < 5)
    barrier(CLK_LOCAL_MEM_FENCE);  // @barrier_div
  out[get_global_id(0)] = 1;
}
kernel void barrier_places(global int* out) {
  size_t i = get_global_id(0);
  if (i & 1) {
    out[i] = 1;
    barrier(CLK_GLOBAL_MEM_FENCE);  // @barrier_odd
  } else {
    barrier(CLK_GLOBAL_MEM_FENCE);  // @barrier_even
    out[i] = 2;
  }
}
kernel void runaway(volatile global int* p) {
  while (1) {
    p[0] = p[0] + 1;  // @runaway
  }
}
kernel void unreachable_k(global int* out, int k) {
  if (k > 5)
    __builtin_unreachable();  // @unreachable
  out[0] = k;
}
kernel void divzero(global const int* a, global const int* b, global int* out) {
  size_t i = get_global_id(0);
  out[i] = a[i] / b[i];  // @divzero
}
kernel void write_constant(constant int* c, global int* out) {
  global int* p = (global int*)(size_t)c;
  out[0] = c[0];
  p[0] = 7;  // @write_constant
}
kernel void fine(global int* a) {
  size_t i = get_global_id(0);
  a[i] = (int)i + 100;
}
)CL";

const std::vector<uint32_t>& faultWords() {
  static const std::vector<uint32_t> words = compileCL(kFaultSource, "-cl-std=CL1.2 -g -O0 -fno-discard-value-names");
  return words;
}

host::DeviceConfig faultConfig(unsigned threads = 0) {
  host::DeviceConfig c;
  c.instructionBudget = 100000;
  c.threads = threads;
  return c;
}

std::shared_ptr<host::Program> faultProgram(unsigned threads = 0) {
  return host::Program::fromSpirv(host::Device(faultConfig(threads)), faultWords());
}

using test::range1;  // tests/interpreter/ndrange.hpp

std::array<uint64_t, 3> id1(uint64_t x) { return {x, 0, 0}; }

// The common shape of a fault diagnostic: kind, instruction with its word offset, source line.
void checkFault(const host::RunResult& r, FaultKind kind, const std::string& marker) {
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.fault.has_value());
  INFO(r.fault->format());
  CHECK(r.fault->kind == kind);
  CHECK_FALSE(r.fault->isWarning());
  CHECK_THAT(r.fault->instruction, Contains("word "));
  CHECK_THAT(r.fault->instruction, Contains("Op"));
  CHECK_FALSE(r.fault->message.empty());
  const std::string line = ":" + std::to_string(lineOf(kFaultSource, marker));
  CHECK_THAT(r.fault->source, Contains("faults.cl" + line));
  CHECK_THAT(r.fault->format(), Contains(std::string(interpreter::toString(kind))));
}

// The kernel `fine` from the same program still runs and gives a[i] = i + 100.
void checkFreshKernelRuns(const std::shared_ptr<host::Program>& program) {
  host::Kernel k(program, "fine");
  auto buf = std::make_shared<host::Buffer>(64 * sizeof(int));
  k.setArg(0, buf);
  const auto r = k.run(range1(64, 16));
  REQUIRE(r.ok);
  for (int i = 0; i < 64; ++i) CHECK(buf->as<int>()[i] == i + 100);
}

}  // namespace

TEST_CASE("out-of-bounds global write names the argument, offset, size and work-item", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "oob_write");
  auto a = std::make_shared<host::Buffer>(1000 * sizeof(int));
  k.setArg(0, a);
  const auto r = k.run(range1(1024, 8));  // only work-items 1000..1023 overrun; 1000 comes first
  checkFault(r, FaultKind::OutOfBounds, "@oob_write");
  CHECK(r.fault->globalId == id1(1000));
  CHECK(r.fault->localId == id1(0));
  CHECK(r.fault->groupId == id1(125));
  CHECK_THAT(r.fault->message, Contains("write"));
  CHECK_THAT(r.fault->message, Contains("4 bytes"));
  CHECK_THAT(r.fault->message, Contains("offset 4000"));
  CHECK_THAT(r.fault->message, Contains("4000 bytes"));
  CHECK_THAT(r.fault->message, Contains("argument 0"));
  CHECK_THAT(r.fault->message, Contains("(a)"));
  CHECK_THAT(r.fault->message, Contains("global"));
  CHECK_THAT(r.fault->instruction, Contains("OpStore"));
  // Work-items before the faulting one wrote their values.
  for (int i = 0; i < 1000; ++i) REQUIRE(a->as<int>()[i] == i * 3);

  SECTION("the same kernel runs correctly afterwards") {
    auto big = std::make_shared<host::Buffer>(1024 * sizeof(int));
    k.setArg(0, big);
    const auto r2 = k.run(range1(1024, 8));
    REQUIRE(r2.ok);
    CHECK_FALSE(r2.fault.has_value());
    for (int i = 0; i < 1024; ++i) REQUIRE(big->as<int>()[i] == i * 3);
  }
  SECTION("a new kernel of the same program runs correctly afterwards") { checkFreshKernelRuns(program); }
}

TEST_CASE("out-of-bounds global read is reported for the last work-item only", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "oob_read");
  std::vector<int> init(256);
  for (int i = 0; i < 256; ++i) init[size_t(i)] = 7 * i - 3;
  auto src = std::make_shared<host::Buffer>(init.data(), init.size() * sizeof(int));
  auto dst = std::make_shared<host::Buffer>(256 * sizeof(int));
  k.setArg(0, src);
  k.setArg(1, dst);
  const auto r = k.run(range1(256, 64));
  checkFault(r, FaultKind::OutOfBounds, "@oob_read");
  CHECK(r.fault->globalId == id1(255));
  CHECK(r.fault->localId == id1(63));
  CHECK(r.fault->groupId == id1(3));
  CHECK_THAT(r.fault->message, Contains("read"));
  CHECK_THAT(r.fault->message, Contains("offset 1024"));
  CHECK_THAT(r.fault->message, Contains("1024 bytes"));
  CHECK_THAT(r.fault->message, Contains("argument 0 (src)"));
  CHECK_THAT(r.fault->instruction, Contains("OpLoad"));
  for (int i = 0; i < 255; ++i) REQUIRE(dst->as<int>()[size_t(i)] == init[size_t(i) + 1]);

  // The same kernel with one work-item fewer is correct.
  auto dst2 = std::make_shared<host::Buffer>(256 * sizeof(int));
  k.setArg(1, dst2);
  const auto r2 = k.run(range1(255, 51));
  REQUIRE(r2.ok);
  for (int i = 0; i < 255; ++i) REQUIRE(dst2->as<int>()[size_t(i)] == init[size_t(i) + 1]);
}

TEST_CASE("out-of-bounds access of a local array", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "oob_local");
  auto out = std::make_shared<host::Buffer>(64 * sizeof(int));
  k.setArg(0, out);
  const auto r = k.run(range1(64, 32));  // local ids 16..31 overrun tmp[16]
  checkFault(r, FaultKind::OutOfBounds, "@oob_local");
  CHECK(r.fault->globalId == id1(16));
  CHECK(r.fault->localId == id1(16));
  CHECK(r.fault->groupId == id1(0));
  CHECK_THAT(r.fault->message, Contains("local"));
  CHECK_THAT(r.fault->message, Contains("offset 64"));
  CHECK_THAT(r.fault->message, Contains("64 bytes"));
  CHECK_THAT(r.fault->message, Contains("tmp"));

  const auto r2 = k.run(range1(64, 16));
  REQUIRE(r2.ok);
  for (int i = 0; i < 64; ++i) CHECK(out->as<int>()[size_t(i)] == i % 16);
}

TEST_CASE("out-of-bounds access of a private array", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "oob_private");
  auto out = std::make_shared<host::Buffer>(8 * sizeof(int));
  k.setArg(0, out);
  k.setArg(1, int(1));  // work-item i reads arr[1 + i]: items 3.. overrun
  const auto r = k.run(range1(8, 8));
  checkFault(r, FaultKind::OutOfBounds, "@oob_private");
  CHECK(r.fault->globalId == id1(3));
  CHECK_THAT(r.fault->message, Contains("read"));
  CHECK_THAT(r.fault->message, Contains("private"));
  CHECK_THAT(r.fault->message, Contains("offset 16"));
  CHECK_THAT(r.fault->message, Contains("16 bytes"));
  CHECK_THAT(r.fault->message, Contains("arr"));
  for (int i = 0; i < 3; ++i) CHECK(out->as<int>()[size_t(i)] == (1 + i) * 10);

  SECTION("a negative index underruns") {
    k.setArg(1, int(-1));  // work-item 0 reads arr[-1]
    const auto r2 = k.run(range1(4, 4));
    REQUIRE_FALSE(r2.ok);
    CHECK(r2.fault->kind == FaultKind::OutOfBounds);
    CHECK(r2.fault->globalId == id1(0));
  }
  SECTION("in-range indices are fine") {
    k.setArg(1, int(-2));  // work-items 2..5 read arr[0..3]
    host::NDRange range = range1(4, 2);
    range.offset = {2, 0, 0};
    const auto r2 = k.run(range);
    REQUIRE(r2.ok);
    for (int i = 2; i < 6; ++i) CHECK(out->as<int>()[size_t(i)] == (i - 2) * 10);
  }
}

TEST_CASE("NULL pointer dereference", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "null_deref");
  k.setArgNull(0);
  const auto r = k.run(range1(4, 4));
  checkFault(r, FaultKind::NullPointer, "@null_deref");
  CHECK(r.fault->globalId == id1(0));
  CHECK_THAT(r.fault->message, Contains("NULL"));
  CHECK_THAT(r.fault->message, Contains("write"));

  auto buf = std::make_shared<host::Buffer>(4 * sizeof(int));
  k.setArg(0, buf);
  REQUIRE(k.run(range1(4, 4)).ok);
  for (int i = 0; i < 4; ++i) CHECK(buf->as<int>()[size_t(i)] == 1);
}

// SPIR-V says nothing of an Aligned memory operand claiming more than the address has; the choice
// aligned_operand_overclaim decides (the conformance suite's op_expect stores a uchar16 at offset 16 with Aligned 64).
TEST_CASE("aligned_operand_overclaim: an address with its type's alignment but not the claimed one",
          "[faults][choices]") {
  auto run = [](const std::string& choice, int32_t byteOffset, std::shared_ptr<host::Buffer> buf) {
    host::DeviceConfig cfg = faultConfig();
    if (!choice.empty()) cfg.choices.set(choice);
    host::Kernel k(host::Program::fromSpirv(host::Device(cfg), faultWords()), "overclaim");
    k.setArg(0, buf);
    k.setArg(1, byteOffset);
    return k.run(range1(1, 1));
  };
  auto recorded = [](const host::RunResult& r) {
    for (const auto& u : r.choicesUsed)
      if (u.choice == numerics::Choice::AlignedOperandOverclaim) return u.count;
    return uint64_t(0);
  };
  auto words = [](const host::Buffer& b) {
    const auto w = b.as<int32_t>();
    return std::vector<int32_t>(w.begin(), w.end());
  };
  // What the store leaves: 0 everywhere but the four ints at byteOffset.
  auto expected = [](int32_t byteOffset) {
    std::vector<int32_t> w(32, 0);
    const int32_t v[4] = {byteOffset, 1, 2, 3};
    for (int j = 0; j < 4; ++j) w[size_t(byteOffset / 4 + j)] = v[j];
    return w;
  };

  SECTION("fault (the default): the claim is false, the store does not happen") {
    auto buf = std::make_shared<host::Buffer>(128);
    const auto r = run("", 16, buf);
    checkFault(r, FaultKind::Misaligned, "@overclaim");
    CHECK_THAT(r.fault->message,
               Contains("offset 16") && Contains("alignment 64 required by its Aligned memory operand"));
    CHECK_THAT(r.fault->message, Contains("aligned_operand_overclaim=fault"));
    CHECK(words(*buf) == std::vector<int32_t>(32, 0));
  }
  SECTION("type_alignment: the store happens at offset 16, with one warning and the choice recorded") {
    auto buf = std::make_shared<host::Buffer>(128);
    const auto r = run("aligned_operand_overclaim=type_alignment", 16, buf);
    REQUIRE(r.ok);
    CHECK(words(*buf) == expected(16));
    REQUIRE(r.warnings.size() == 1);
    CHECK_THAT(r.warnings[0].message, Contains("aligned_operand_overclaim=type_alignment") && Contains("64"));
    CHECK(recorded(r) == 1);
  }
  SECTION("type_alignment: an address without the type's alignment is still misaligned, the claim is not the cause") {
    auto buf = std::make_shared<host::Buffer>(128);
    const auto r = run("aligned_operand_overclaim=type_alignment", 18, buf);
    checkFault(r, FaultKind::Misaligned, "@overclaim");
    CHECK_THAT(r.fault->message, Contains("offset 18"));
    CHECK_THAT(r.fault->message, !Contains("aligned_operand_overclaim"));
    CHECK(words(*buf) == std::vector<int32_t>(32, 0));
  }
  SECTION("either option: an address with the claimed alignment is stored without a word") {
    for (const char* choice : {"", "aligned_operand_overclaim=type_alignment"}) {
      INFO("choice '" << choice << "'");
      auto buf = std::make_shared<host::Buffer>(128);
      const auto r = run(choice, 64, buf);
      REQUIRE(r.ok);
      CHECK(words(*buf) == expected(64));
      CHECK(r.warnings.empty());
      CHECK(recorded(r) == 0);
    }
  }
}

TEST_CASE("misaligned access", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "misaligned");
  auto buf = std::make_shared<host::Buffer>(16);
  k.setArg(0, buf);
  const auto r = k.run(range1(1, 1));
  checkFault(r, FaultKind::Misaligned, "@misaligned");
  CHECK_THAT(r.fault->message, Contains("offset 1"));
  CHECK_THAT(r.fault->message, Contains("alignment 4"));
  CHECK_THAT(r.fault->message, Contains("argument 0 (p)"));
  for (auto b : std::span<const std::byte>(buf->data(), buf->size())) CHECK(b == std::byte{0});
  checkFreshKernelRuns(program);
}

TEST_CASE("barrier divergence: a barrier inside a branch only some work-items take", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "barrier_div");
  auto out = std::make_shared<host::Buffer>(16 * sizeof(int));
  k.setArg(0, out);
  const auto r = k.run(range1(16, 8));
  checkFault(r, FaultKind::BarrierDivergence, "@barrier_div");
  CHECK(r.fault->groupId == id1(0));
  CHECK_THAT(r.fault->instruction, Contains("OpControlBarrier"));
  CHECK_THAT(r.fault->message, Contains("(5,0,0)"));  // the first work-item that did not wait
  CHECK_THAT(r.fault->message, Contains("returned without reaching it"));

  // With a work-group of 5 everybody takes the branch: no divergence.
  auto out2 = std::make_shared<host::Buffer>(15 * sizeof(int));
  k.setArg(0, out2);
  const auto r2 = k.run(range1(15, 5));
  REQUIRE(r2.ok);
  for (int i = 0; i < 15; ++i) CHECK(out2->as<int>()[size_t(i)] == 1);
}

TEST_CASE("barrier divergence: every work-item reaches a barrier, but not the same one", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "barrier_places");
  auto out = std::make_shared<host::Buffer>(8 * sizeof(int));
  k.setArg(0, out);
  const auto r = k.run(range1(8, 4));
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.fault.has_value());
  INFO(r.fault->format());
  CHECK(r.fault->kind == FaultKind::BarrierDivergence);
  CHECK(r.fault->groupId == id1(0));
  CHECK_THAT(r.fault->instruction, Contains("OpControlBarrier"));
  CHECK_THAT(r.fault->message, Contains("different barrier"));
  // The report names both barriers: one as the instruction, the other in the message.
  const std::string odd = ":" + std::to_string(lineOf(kFaultSource, "@barrier_odd"));
  const std::string even = ":" + std::to_string(lineOf(kFaultSource, "@barrier_even"));
  CHECK(((r.fault->source.ends_with(odd) && r.fault->message.find(even) != std::string::npos) ||
         (r.fault->source.ends_with(even) && r.fault->message.find(odd) != std::string::npos)));
  CHECK_THAT(r.fault->message, Contains("word "));
  // Work-group size 1: each work-item is alone, no divergence.
  const auto r2 = k.run(range1(8, 1));
  REQUIRE(r2.ok);
  for (int i = 0; i < 8; ++i) CHECK(out->as<int>()[size_t(i)] == (i & 1 ? 1 : 2));
}

TEST_CASE("instruction budget exceeded by a runaway loop", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "runaway");
  auto p = std::make_shared<host::Buffer>(sizeof(int));
  k.setArg(0, p);
  const auto r = k.run(range1(1, 1));
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.fault.has_value());
  INFO(r.fault->format());
  CHECK(r.fault->kind == FaultKind::InstructionBudget);
  CHECK_THAT(r.fault->instruction, Contains("word "));
  CHECK_THAT(r.fault->message, Contains("instructionBudget"));
  // The loop body ran many times but the budget bounds it: each iteration costs more than one
  // instruction, so fewer than 100000 increments happened.
  const int count = p->as<int>()[0];
  CHECK(count > 1000);
  CHECK(count < 100000);
  checkFreshKernelRuns(program);
}

TEST_CASE("OpUnreachable executed", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "unreachable_k");
  auto out = std::make_shared<host::Buffer>(sizeof(int));
  k.setArg(0, out);
  k.setArg(1, int(9));
  const auto r = k.run(range1(1, 1));
  checkFault(r, FaultKind::Unreachable, "@unreachable");
  CHECK_THAT(r.fault->instruction, Contains("OpUnreachable"));
  CHECK(out->as<int>()[0] == 0);

  k.setArg(1, int(4));
  REQUIRE(k.run(range1(1, 1)).ok);
  CHECK(out->as<int>()[0] == 4);
}

TEST_CASE("integer division by zero is a warning with the int_div_by_zero choice's value", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "divzero");
  constexpr int n = 64;
  std::vector<int> a(n), b(n);
  int zeros = 0;
  for (int i = 0; i < n; ++i) {
    a[size_t(i)] = 1000 + 37 * i;
    b[size_t(i)] = i % 3 == 0 ? 0 : i - 20;
    zeros += b[size_t(i)] == 0;
  }
  auto A = std::make_shared<host::Buffer>(a.data(), n * sizeof(int));
  auto B = std::make_shared<host::Buffer>(b.data(), n * sizeof(int));
  std::vector<int> init(n, -1);
  auto out = std::make_shared<host::Buffer>(init.data(), n * sizeof(int));
  k.setArg(0, A);
  k.setArg(1, B);
  k.setArg(2, out);
  const auto r = k.run(range1(n, 16));
  REQUIRE(r.ok);
  CHECK_FALSE(r.fault.has_value());
  REQUIRE_FALSE(r.warnings.empty());
  CHECK(r.warningCount == uint64_t(zeros));
  CHECK(r.warnings.size() <= r.warningCount);
  const auto& w = r.warnings.front();
  INFO(w.format());
  CHECK(w.isWarning());
  CHECK(w.kind == FaultKind::Warning);
  CHECK(w.globalId == id1(0));  // the lowest work-item dividing by zero comes first
  CHECK_THAT(w.instruction, Contains("OpSDiv"));
  CHECK_THAT(w.source, Contains(":" + std::to_string(lineOf(kFaultSource, "@divzero"))));
  for (int i = 0; i < n; ++i) {
    const int expected = b[size_t(i)] == 0 ? 0 : a[size_t(i)] / b[size_t(i)];
    CHECK(out->as<int>()[size_t(i)] == expected);
  }
}

TEST_CASE("integer division by zero honours the int_div_by_zero choice", "[faults]") {
  host::DeviceConfig cfg = faultConfig();
  cfg.choices.set("int_div_by_zero=dividend");
  auto program = host::Program::fromSpirv(host::Device(cfg), faultWords());
  host::Kernel k(program, "divzero");
  const int a[2] = {41, -9}, b[2] = {0, 0};
  auto A = std::make_shared<host::Buffer>(a, sizeof a);
  auto B = std::make_shared<host::Buffer>(b, sizeof b);
  auto out = std::make_shared<host::Buffer>(sizeof a);
  k.setArg(0, A);
  k.setArg(1, B);
  k.setArg(2, out);
  const auto r = k.run(range1(2, 2));
  REQUIRE(r.ok);
  CHECK(r.warningCount == 2);
  CHECK(out->as<int>()[0] == 41);
  CHECK(out->as<int>()[1] == -9);
}

TEST_CASE("a write to a constant buffer through a cast pointer is a fault", "[faults]") {
  auto program = faultProgram();
  host::Kernel k(program, "write_constant");
  const int c = 1234;
  auto C = std::make_shared<host::Buffer>(&c, sizeof c);
  auto out = std::make_shared<host::Buffer>(sizeof(int));
  k.setArg(0, C);
  k.setArg(1, out);
  const auto r = k.run(range1(1, 1));
  checkFault(r, FaultKind::InvalidPointer, "@write_constant");
  CHECK_THAT(r.fault->message, Contains("read-only"));
  CHECK_THAT(r.fault->message, Contains("argument 0 (c)"));
  CHECK(C->as<int>()[0] == 1234);    // the constant buffer is unchanged
  CHECK(out->as<int>()[0] == 1234);  // the read before the faulting write happened
}

TEST_CASE("the reported fault does not depend on the thread count", "[faults][determinism]") {
  // 4096 work-items in 256 work-groups of 16; the buffer holds 1000 ints, so work-groups 62..255
  // all fault. The lowest faulting work-group (62, global id 1000 = 62*16 + 8) is reported.
  for (unsigned threads : {1u, 2u, 4u}) {
    INFO("threads " << threads);
    auto program = faultProgram(threads);
    host::Kernel k(program, "oob_write");
    auto a = std::make_shared<host::Buffer>(1000 * sizeof(int));
    k.setArg(0, a);
    for (int rep = 0; rep < 3; ++rep) {
      const auto r = k.run(range1(4096, 16));
      REQUIRE_FALSE(r.ok);
      REQUIRE(r.fault.has_value());
      CHECK(r.fault->kind == FaultKind::OutOfBounds);
      CHECK(r.fault->globalId == id1(1000));
      CHECK(r.fault->localId == id1(8));
      CHECK(r.fault->groupId == id1(62));
      CHECK_THAT(r.fault->message, Contains("offset 4000"));
      for (int i = 0; i < 1000; ++i) REQUIRE(a->as<int>()[size_t(i)] == i * 3);
    }
  }
}

TEST_CASE("barrier-divergence report does not depend on the thread count", "[faults][determinism]") {
  std::string first;
  for (unsigned threads : {1u, 2u, 4u}) {
    INFO("threads " << threads);
    auto program = faultProgram(threads);
    host::Kernel k(program, "barrier_div");
    auto out = std::make_shared<host::Buffer>(256 * sizeof(int));
    k.setArg(0, out);
    const auto r = k.run(range1(256, 8));  // every work-group diverges
    REQUIRE_FALSE(r.ok);
    CHECK(r.fault->kind == FaultKind::BarrierDivergence);
    CHECK(r.fault->groupId == id1(0));
    if (first.empty()) first = r.fault->format();
    CHECK(r.fault->format() == first);
  }
}

TEST_CASE("Program::fromOpenCLC with -g keeps source lines in fault reports", "[faults]") {
  // llvm-spirv-15 aborts (assertion in SPIRVModuleImpl::setSPIRVVersion) on modules with debug
  // info at --spirv-max-version=1.0, so fromOpenCLC must pick 1.1 for -g.
  const std::string src = "kernel void w(global int* a) {\n  a[get_global_id(0)] = 1;\n}\n";
  std::shared_ptr<host::Program> program;
  REQUIRE_NOTHROW(program = host::Program::fromOpenCLC(host::Device(), src, "-cl-std=CL1.2 -g -O0"));
  host::Kernel k(program, "w");
  auto a = std::make_shared<host::Buffer>(2 * sizeof(int));
  k.setArg(0, a);
  const auto r = k.run(range1(3, 1));
  REQUIRE_FALSE(r.ok);
  CHECK(r.fault->globalId == id1(2));
  CHECK(r.fault->source == "program source line 2");
  CHECK(r.fault->sourceLine == "  a[get_global_id(0)] = 1;");
}

TEST_CASE("without -g a fault has no source line but still the instruction", "[faults]") {
  const std::string src = "kernel void w(global int* a) {\n  a[get_global_id(0)] = 1;\n}\n";
  auto program = host::Program::fromOpenCLC(host::Device(), src, "-cl-std=CL1.2 -O0");
  host::Kernel k(program, "w");
  auto a = std::make_shared<host::Buffer>(2 * sizeof(int));
  k.setArg(0, a);
  const auto r = k.run(range1(3, 1));
  REQUIRE_FALSE(r.ok);
  CHECK(r.fault->kind == FaultKind::OutOfBounds);
  CHECK(r.fault->globalId == id1(2));
  CHECK(r.fault->groupId == id1(2));
  CHECK(r.fault->source.empty());
  CHECK_THAT(r.fault->instruction, Contains("word "));
  CHECK_THAT(r.fault->instruction, Contains("OpStore"));
}
