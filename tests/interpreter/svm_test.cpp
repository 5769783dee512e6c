// Shared virtual memory through the host API (host/host.hpp host::svm, interpreter/svm.hpp): a kernel dereferences the
// host's pointers as they are, its accesses are checked against the SVM allocation they fall in, and structs that
// hold pointers to themselves (OpTypeForwardPointer) are laid out as OpenCL C lays them out; a write to
// CL_MEM_READ_ONLY SVM is the choice svm_read_only_write. Expected values are computed on the host.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "host/host.hpp"
#include "compile_cl.hpp"
#include "interpreter/svm.hpp"

using namespace clref;

namespace {

const char* kSource = R"CL(
typedef struct Node { int value; global struct Node* next; } Node;
// One work-item links the nodes of a buffer itself, then walks the list.
kernel void link_and_walk(global Node* nodes, int n, global int* out) {
  for (int i = 0; i < n; ++i) {
    nodes[i].value = 3 * i + 1;
    nodes[i].next = i ? &nodes[i - 1] : 0;
  }
  int s = 0;
  for (global Node* p = &nodes[n - 1]; p; p = p->next) s += p->value;
  out[0] = s;
}
kernel void walk(global Node* head, global int* out) {
  int s = 0;
  for (global Node* p = head; p; p = p->next) s += p->value;
  out[get_global_id(0)] = s;
}
kernel void read_at(global const int* p, long i, global int* out) { out[0] = p[i]; }
kernel void write_at(global int* p, long i) { p[i] = 9; }
)CL";

struct Node {
  int32_t value;
  Node* next;
};

host::NDRange items(size_t n) {
  host::NDRange r;
  r.global = {n, 1, 1};
  return r;
}

std::shared_ptr<host::Program> program() {
  static auto p = host::Program::fromOpenCLC(host::Device(), kSource, "-cl-std=CL3.0");
  return p;
}

}  // namespace

TEST_CASE("a struct holding a pointer to its own type is laid out with the pointer's alignment",
          "[execution][svm][layout]") {
  if (!test::openCLCCompilerOrSkip()) return;
  // OpTypeForwardPointer: the struct is declared before its member's pointer type. OpenCL C puts `next` at offset 8
  // and the node takes 16 bytes (OpenCL C 3.0 §6.3.5 [[alignment-of-types]]).
  constexpr int n = 10;
  host::Kernel k(program(), "link_and_walk");
  auto nodes = std::make_shared<host::Buffer>(n * 16);
  auto out = std::make_shared<host::Buffer>(4);
  k.setArg(0, nodes);
  k.setArg(1, int32_t(n));
  k.setArg(2, out);
  auto r = k.run(items(1));
  REQUIRE(r.ok);
  int expected = 0;
  for (int i = 0; i < n; ++i) {
    expected += 3 * i + 1;
    int32_t v;
    std::memcpy(&v, nodes->as<uint8_t>().data() + 16 * i, 4);
    CHECK(v == 3 * i + 1);
  }
  CHECK(out->as<int32_t>()[0] == expected);
}

TEST_CASE("a kernel follows host pointers in SVM", "[execution][svm]") {
  if (!test::openCLCCompilerOrSkip()) return;
  constexpr int n = 40;
  auto* nodes = static_cast<Node*>(host::svm::allocate(n * sizeof(Node), 16));
  auto* out = static_cast<int32_t*>(host::svm::allocate(4 * sizeof(int32_t), 4));
  REQUIRE((nodes && out));
  CHECK(reinterpret_cast<uintptr_t>(nodes) % 16 == 0);
  CHECK(host::svm::inRange(nodes));
  CHECK(!host::svm::inRange(&n));
  // Zero-filled, and the allocation is found by any address inside it.
  for (int i = 0; i < n; ++i) CHECK(nodes[i].value == 0);
  auto a = host::svm::allocationHolding(reinterpret_cast<char*>(nodes) + 100, 8);
  REQUIRE(a);
  CHECK(a->base == nodes);
  CHECK(a->size == n * sizeof(Node));
  CHECK(!host::svm::allocationHolding(reinterpret_cast<char*>(nodes) + n * sizeof(Node) - 4, 8));
  // Every other node, backwards: 38 → 36 → … → 0.
  int expected = 0;
  for (int i = 0; i < n; i += 2) {
    nodes[i].value = i * i + 5;
    nodes[i].next = i ? &nodes[i - 2] : nullptr;
    expected += i * i + 5;
  }
  host::Kernel k(program(), "walk");
  k.setArgSvm(0, &nodes[n - 2]);
  k.setArgSvm(1, out);
  REQUIRE(k.run(items(4)).ok);
  for (int i = 0; i < 4; ++i) CHECK(out[i] == expected);
  CHECK(host::svm::free(nodes));
  CHECK(!host::svm::free(nodes));  // not live any more
  CHECK(host::svm::free(out));
}

TEST_CASE("an SVM access outside its allocation is a fault naming it", "[execution][svm][faults]") {
  if (!test::openCLCCompilerOrSkip()) return;
  auto* p = static_cast<int32_t*>(host::svm::allocate(8 * sizeof(int32_t), 4));
  auto* ro = static_cast<int32_t*>(host::svm::allocate(8 * sizeof(int32_t), 4, /*kernelReadOnly=*/true));
  auto* out = static_cast<int32_t*>(host::svm::allocate(4, 4));
  REQUIRE((p && ro && out));
  p[7] = 123;
  host::Kernel r(program(), "read_at");
  auto readAt = [&](int32_t* base, int64_t i) {
    r.setArgSvm(0, base);
    r.setArg(1, i);
    r.setArgSvm(2, out);
    return r.run(items(1));
  };
  auto ok = readAt(p, 7);
  REQUIRE(ok.ok);
  CHECK(*out == 123);
  auto past = readAt(p, 8);  // the byte after the allocation: its guard page
  REQUIRE(past.fault);
  CHECK(past.fault->kind == interpreter::FaultKind::OutOfBounds);
  CHECK_THAT(past.fault->message, Catch::Contains("offset 32 of the SVM allocation"));
  CHECK_THAT(past.fault->message, Catch::Contains("(32 bytes)"));
  auto far = readAt(p, int64_t(1) << 30);  // 4 GiB on: no allocation reaches there
  REQUIRE(far.fault);
  auto misaligned = readAt(reinterpret_cast<int32_t*>(reinterpret_cast<char*>(p) + 2), 0);
  REQUIRE(misaligned.fault);
  CHECK(misaligned.fault->kind == interpreter::FaultKind::Misaligned);
  host::Kernel w(program(), "write_at");
  w.setArgSvm(0, ro);
  w.setArg(1, int64_t(0));
  auto readOnly = w.run(items(1));
  REQUIRE(readOnly.fault);
  CHECK_THAT(readOnly.fault->message, Catch::Contains("CL_MEM_READ_ONLY"));
  CHECK(ro[0] == 0);
  REQUIRE(host::svm::free(p));
  w.setArgSvm(0, p);
  auto freed = w.run(items(1));
  REQUIRE(freed.fault);
  CHECK_THAT(freed.fault->message, Catch::Contains("was freed"));
  host::svm::free(ro);
  host::svm::free(out);
}

TEST_CASE("SVM pointers need a 64-bit module", "[execution][svm]") {
  if (!test::openCLCCompilerOrSkip()) return;
  host::DeviceConfig cfg;
  cfg.addressBits = 32;
  auto prog = host::Program::fromOpenCLC(host::Device(cfg), kSource, "-cl-std=CL3.0");
  auto* p = host::svm::allocate(64, 8);
  REQUIRE(p);
  host::Kernel w(prog, "write_at");
  w.setArgSvm(0, p);
  w.setArg(1, int64_t(0));
  CHECK_THROWS_WITH(w.run(items(1)), Catch::Contains("SVM needs a 64-bit module"));
  host::svm::free(p);
}

TEST_CASE("svm_read_only_write: a kernel's write to CL_MEM_READ_ONLY SVM faults, or happens with a warning",
          "[execution][svm][choices]") {
  if (!test::openCLCCompilerOrSkip()) return;
  auto* ro = static_cast<int32_t*>(host::svm::allocate(4 * sizeof(int32_t), 4, /*kernelReadOnly=*/true));
  auto* rw = static_cast<int32_t*>(host::svm::allocate(4 * sizeof(int32_t), 4));
  REQUIRE((ro && rw));
  auto run = [&](const std::string& choice, int32_t* base, int64_t i) {
    host::DeviceConfig cfg;
    if (!choice.empty()) cfg.choices.set(choice);
    host::Kernel w(host::Program::fromOpenCLC(host::Device(cfg), kSource, "-cl-std=CL3.0"), "write_at");
    w.setArgSvm(0, base);
    w.setArg(1, i);
    return w.run(items(1));
  };
  auto recorded = [](const host::RunResult& r) {
    for (const auto& u : r.choicesUsed)
      if (u.choice == numerics::Choice::SvmReadOnlyWrite) return u.count;
    return uint64_t(0);
  };

  // fault (the default): the work-item stops at the store, the memory keeps its zero.
  const auto refused = run("", ro, 1);
  REQUIRE(refused.fault);
  CHECK(refused.fault->kind == interpreter::FaultKind::InvalidPointer);
  CHECK_THAT(refused.fault->message,
             Catch::Contains("CL_MEM_READ_ONLY") && Catch::Contains("svm_read_only_write=fault"));
  CHECK_THAT(refused.fault->instruction, Catch::Contains("OpStore"));
  CHECK(ro[1] == 0);

  // write: the kernel's value (9, write_at's constant) is stored, with a warning and the choice recorded.
  const auto written = run("svm_read_only_write=write", ro, 1);
  REQUIRE(written.ok);
  CHECK(ro[1] == 9);
  CHECK((ro[0] == 0 && ro[2] == 0 && ro[3] == 0));
  REQUIRE(written.warnings.size() == 1);
  CHECK_THAT(written.warnings[0].message,
             Catch::Contains("CL_MEM_READ_ONLY") && Catch::Contains("svm_read_only_write=write"));
  CHECK(recorded(written) == 1);

  // A read-write allocation is written under either option, and the choice decides nothing.
  for (const char* choice : {"", "svm_read_only_write=write"}) {
    INFO("choice '" << choice << "'");
    rw[2] = 0;
    const auto plain = run(choice, rw, 2);
    REQUIRE(plain.ok);
    CHECK(rw[2] == 9);
    CHECK(plain.warnings.empty());
    CHECK(recorded(plain) == 0);
  }
  host::svm::free(ro);
  host::svm::free(rw);
}

namespace {
// The protection of the page holding `p` as /proc/self/maps shows it ("rw-p", "---p"), or "" when unmapped: read
// from the kernel's own account, not from clref's bookkeeping.
std::string protectionOf(const void* p) {
  std::ifstream maps("/proc/self/maps");
  const auto address = reinterpret_cast<uintptr_t>(p);
  for (std::string line; std::getline(maps, line);) {
    std::istringstream fields(line);
    std::string span, perms;
    fields >> span >> perms;
    const auto dash = span.find('-');
    const uintptr_t lo = std::stoull(span.substr(0, dash), nullptr, 16);
    const uintptr_t hi = std::stoull(span.substr(dash + 1), nullptr, 16);
    if (lo <= address && address < hi) return perms;
  }
  return "";
}
}  // namespace

TEST_CASE("SVM freed while a launch runs stays mapped until the last launch ends", "[execution][svm]") {
  // A kernel running beside the host checks an access, then makes it; a clSVMFree in between must not turn the
  // checked access into a crash (interpreter/svm.hpp PagesKept). Lookups see the free at once.
  auto* p = static_cast<int32_t*>(host::svm::allocate(3 * 4096, 64));
  auto* q = static_cast<int32_t*>(host::svm::allocate(64, 64));
  REQUIRE((p && q));
  p[4096 / 4] = 5;
  {
    interpreter::svm::PagesKept outer;
    {
      interpreter::svm::PagesKept inner;
      REQUIRE(host::svm::free(p));
      CHECK(!host::svm::allocationHolding(p, 4));  // freed for every later lookup (a kernel's access is reported)
      CHECK(protectionOf(p + 4096 / 4) == "rw-p");
      CHECK(p[4096 / 4] == 5);  // still readable: the pages are kept
    }
    CHECK(protectionOf(p) == "rw-p");  // the outer launch still runs
    REQUIRE(host::svm::free(q));
  }
  CHECK(protectionOf(p) == "---p");
  CHECK(protectionOf(p + 2 * 4096 / 4) == "---p");
  CHECK(protectionOf(q) == "---p");
  // Without a running launch the pages go at once.
  auto* r = host::svm::allocate(64, 64);
  REQUIRE(r);
  CHECK(protectionOf(r) == "rw-p");
  REQUIRE(host::svm::free(r));
  CHECK(protectionOf(r) == "---p");
}
