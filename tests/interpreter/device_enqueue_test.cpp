// Device-side enqueue (interpreter/device_enqueue.hpp, ops_enqueue.cpp): blocks enqueued by kernels run after their
// parent with the variables they captured, local arguments, ND-ranges of 1 to 3 dimensions, event wait lists, user
// events, markers, nesting, the queue's capacity, the block kernel queries, profiling, and the faults. The kernels are
// OpenCL C compiled by clang-15 + llvm-spirv-15; expected values are host computations from the spec's rules.
#include <catch2/catch.hpp>

#include <cstring>
#include <numeric>

#include "compile_cl.hpp"
#include "interpreter/device_enqueue.hpp"
#include "interpreter/module.hpp"

using namespace clref;
using Catch::Matchers::Contains;

namespace {

const char* kSource = R"CL(
kernel void fan_out(global int* out, global int* status, int base, int m) {
  int g = (int)get_global_id(0);
  status[g] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D((size_t)m),
                             ^{ out[g * m + (int)get_global_id(0)] = base + g * 100 + (int)get_global_id(0); });
}
// Two local arguments: each work-item stores its id, the group reads its neighbour's after a barrier.
kernel void locals(global int* out) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(32, 8),
      ^(local void* a, local void* b) {
        local int* ia = (local int*)a;
        local long* lb = (local long*)b;
        size_t l = get_local_id(0);
        ia[l] = (int)get_global_id(0) * 3;
        lb[l] = 1000 + (long)l;
        barrier(CLK_LOCAL_MEM_FENCE);
        size_t n = (l + 1) % get_local_size(0);
        out[get_global_id(0)] = ia[n] + (int)lb[n];
      }, 8u * 4u, 8u * 8u);
}
kernel void two_d(global int* out) {
  size_t g[2] = {6, 4};
  size_t l[2] = {3, 2};
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(g, l),
      ^{ out[get_global_id(1) * 6 + get_global_id(0)] =
             (int)(get_global_id(0) * 10 + get_global_id(1) + 100 * get_local_id(0) + 1000 * get_group_id(1) +
                   10000 * get_work_dim()); });
}
// Y waits for X's event; X waits for a user event the parent completes after enqueueing both.
kernel void ordered(global int* out, global int* status) {
  clk_event_t user = create_user_event();
  clk_event_t x;
  status[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &user, &x,
                             ^{ out[0] = out[2] * 2; });
  status[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &x, NULL,
                             ^{ out[1] = out[0] + 1; });
  clk_event_t marker;
  status[2] = enqueue_marker(get_default_queue(), 1, &x, &marker);
  status[3] = is_valid_event(marker) ? 1 : 0;
  out[2] = 21;
  set_user_event_status(user, CL_COMPLETE);
  release_event(user);
  release_event(x);
  status[4] = is_valid_event(x) ? 1 : 0;
  release_event(marker);
}
kernel void never_set(global int* out) {
  clk_event_t user = create_user_event();
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &user, NULL, ^{ out[0] = 1; });
}
kernel void failed_user_event(global int* out) {
  clk_event_t user = create_user_event();
  clk_event_t x;
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &user, &x, ^{ out[0] = 1; });
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &x, NULL, ^{ out[1] = 1; });
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[2] = 1; });
  set_user_event_status(user, -5);
  release_event(x);
  release_event(user);
}
void level_fn(int level, global int* res) {
  if (--level < 0) return;
  res[level] = level + 1;
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{ level_fn(level, res); });
}
kernel void nested(global int* res, int level) { level_fn(level, res); }
kernel void fill_queue(global int* status, int n) {
  for (int i = 0; i < n; ++i)
    status[i] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ status[i] += 1000; });
}
kernel void one_child(global int* out, global int* status) {
  int g = (int)get_global_id(0);
  status[g] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{ out[g] = g + 1; });
}
// Enqueues alternately into q and the default queue.
kernel void two_queues(queue_t q, global int* status, int n) {
  for (int i = 0; i < n; ++i) {
    void (^blk)(void) = ^{ status[i] += 1000; };
    if (i % 2)
      status[i] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), blk);
    else
      status[i] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), blk);
  }
}
kernel void queries(global uint* out) {
  void (^blk)(void) = ^{ out[9] = 1; };
  out[0] = get_kernel_work_group_size(blk);
  out[1] = get_kernel_preferred_work_group_size_multiple(blk);
}
kernel void argument_queue(queue_t q, global int* out) {
  out[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[0] = 77; });
}
kernel void child_out_of_bounds(global int* out) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), ^{ out[get_global_id(0) + 2] = 1; });
}
kernel void private_capture(global int* out) {
  int local_copy[4] = {1, 2, 3, (int)get_global_id(0)};
  int* p = local_copy;
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[0] = p[3]; });
}
kernel void profiling(global ulong* value) {
  clk_event_t e;
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64), 0, NULL, &e,
                 ^{ value[4 + get_global_id(0)] = get_global_id(0); });
  capture_event_profiling_info(e, CLK_PROFILING_COMMAND_EXEC_TIME, value);
  release_event(e);
}
kernel void release_twice(global int* out) {
  clk_event_t user = create_user_event();
  release_event(user);
  release_event(user);
}
)CL";

const std::vector<uint32_t>& words() {
  static const std::vector<uint32_t> w = test::compileCL(kSource, "-cl-std=CL2.0 -O2", "1.2");
  return w;
}

interpreter::ArgBinding buffer(std::vector<int32_t>& v) {
  interpreter::ArgBinding a;
  a.base = reinterpret_cast<uint8_t*>(v.data());
  a.size = v.size() * 4;
  return a;
}
template <class T> interpreter::ArgBinding value(T v) {
  interpreter::ArgBinding a;
  a.value.resize(sizeof v);
  std::memcpy(a.value.data(), &v, sizeof v);
  return a;
}

struct Options {
  std::optional<interpreter::DeviceQueueBinding> defaultQueue = interpreter::DeviceQueueBinding{1};
  bool detailed = false;
  uint32_t threads = 2;
  const char* choice = nullptr;  // "name=option"
  uint64_t maxPending = interpreter::kMaxPendingDeviceCommands;
};

interpreter::ExecResult run(const std::string& kernel, const std::vector<interpreter::ArgBinding>& args,
                            uint64_t global = 1, uint64_t local = 1, const Options& o = {}) {
  static const interpreter::Module module = interpreter::Module::load(words());
  interpreter::LowerOptions opt;
  opt.detailedEnqueueErrors = o.detailed;
  if (o.choice) opt.choices.set(o.choice);
  const auto k = interpreter::lowerKernel(module, kernel, opt);
  interpreter::NDRangeSpec range;
  range.global = {global, 1, 1};
  range.local = {local, 1, 1};
  interpreter::ExecConfig config;
  config.threads = o.threads;
  config.defaultDeviceQueue = o.defaultQueue;
  config.maxPendingDeviceCommands = o.maxPending;
  return interpreter::execute(*k, args, range, config);
}

}  // namespace

TEST_CASE("device enqueue: every work-item's block runs with the values it captured", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  const int n = 12, m = 5, base = 7000;
  std::vector<int32_t> out(n * m, -1), status(n, 99);
  const auto r = run("fan_out", {buffer(out), buffer(status), value<int32_t>(base), value<int32_t>(m)}, n, 4);
  REQUIRE_FALSE(r.fault);
  for (int g = 0; g < n; ++g) {
    CHECK(status[g] == 0);  // CLK_SUCCESS
    for (int j = 0; j < m; ++j) CHECK(out[g * m + j] == base + g * 100 + j);
  }
  CHECK(r.workItems == uint64_t(n + n * m));
}

TEST_CASE("device enqueue: unoptimised and 32-bit modules", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  for (const unsigned bits : {64u, 32u}) {
    CAPTURE(bits);
    const auto module = interpreter::Module::load(test::compileCL(kSource, "-cl-std=CL2.0 -O0", "1.2", bits));
    interpreter::LowerOptions opt;
    opt.addressBits = bits;
    for (const char* name : {"fan_out", "ordered"}) {
      CAPTURE(name);
      const auto k = interpreter::lowerKernel(module, name, opt);
      interpreter::ExecConfig config;
      config.defaultDeviceQueue = interpreter::DeviceQueueBinding{1};
      interpreter::NDRangeSpec range;
      std::vector<int32_t> out(12, -1), status(5, 99);
      std::vector<interpreter::ArgBinding> args{buffer(out), buffer(status)};
      if (std::string(name) == "fan_out") {
        range.global = {3, 1, 1};
        args.push_back(value<int32_t>(50));
        args.push_back(value<int32_t>(4));
      }
      const auto r = interpreter::execute(*k, args, range, config);
      REQUIRE_FALSE(r.fault);
      if (std::string(name) == "fan_out") {
        for (int g = 0; g < 3; ++g)
          for (int j = 0; j < 4; ++j) CHECK(out[g * 4 + j] == 50 + g * 100 + j);
      } else {
        CHECK(out[0] == 42);
        CHECK(out[1] == 43);
        CHECK(status[4] == 0);
      }
    }
  }
}

TEST_CASE("device enqueue: local pointer arguments of the sizes given", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  std::vector<int32_t> out(32, -1);
  const auto r = run("locals", {buffer(out)});
  REQUIRE_FALSE(r.fault);
  for (int g = 0; g < 32; ++g) {
    const int group = g / 8, n = (g % 8 + 1) % 8;
    CHECK(out[g] == (group * 8 + n) * 3 + 1000 + n);
  }
}

TEST_CASE("device enqueue: a 2D ND-range with a local size", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  std::vector<int32_t> out(24, -1);
  const auto r = run("two_d", {buffer(out)});
  REQUIRE_FALSE(r.fault);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 6; ++x) CHECK(out[y * 6 + x] == x * 10 + y + 100 * (x % 3) + 1000 * (y / 2) + 20000);
}

TEST_CASE("device enqueue: wait lists, user events and markers order the children", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  std::vector<int32_t> out(3, 0), status(5, 99);
  const auto r = run("ordered", {buffer(out), buffer(status)});
  REQUIRE_FALSE(r.fault);
  // X runs once the user event completes (after the parent stored 21), Y after X.
  CHECK(out[0] == 42);
  CHECK(out[1] == 43);
  CHECK(status[0] == 0);
  CHECK(status[1] == 0);
  CHECK(status[2] == 0);
  CHECK(status[3] == 1);
  CHECK(status[4] == 0);  // released: no longer a valid event
}

TEST_CASE("device enqueue: a child waiting for a user event nobody sets is reported", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  std::vector<int32_t> out(1, 0);
  const auto r = run("never_set", {buffer(out)});
  REQUIRE(r.fault);
  CHECK_THAT(r.fault->message, Contains("can never start"));
  CHECK(out[0] == 0);
}

TEST_CASE("device enqueue: an error status in a wait list keeps the command, and those after it, from running",
          "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  std::vector<int32_t> out(3, 0);
  const auto r = run("failed_user_event", {buffer(out)});
  REQUIRE_FALSE(r.fault);
  CHECK(out[0] == 0);
  CHECK(out[1] == 0);
  CHECK(out[2] == 1);
  REQUIRE(r.warningCount >= 2);
  CHECK_THAT(r.warnings[0].message, Contains("error status"));
}

TEST_CASE("device enqueue: a block that enqueues itself, level by level", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  std::vector<int32_t> res(8, 0);
  const auto r = run("nested", {buffer(res), value<int32_t>(6)});
  REQUIRE_FALSE(r.fault);
  for (int i = 0; i < 8; ++i) CHECK(res[i] == (i < 6 ? i + 1 : 0));
}

TEST_CASE("device enqueue: a full queue, an absent default queue, and the -g error codes", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  // CL_QUEUE_SIZE of 5 commands at the choice's bytes per command: the sixth enqueue finds the queue full. A queue
  // of 5 * 16 bytes holds 5 commands by default and none at 128 bytes a command (80 / 128 = 0).
  struct Case {
    const char* choice;
    uint64_t bytesPerCommand;
  };
  for (const Case& c : {Case{nullptr, 16}, Case{"device_queue_command_bytes=16", 16},
                        Case{"device_queue_command_bytes=128", 128}}) {
    INFO((c.choice ? c.choice : "default"));
    Options o;
    o.choice = c.choice;
    o.defaultQueue = interpreter::DeviceQueueBinding{3, 5 * c.bytesPerCommand};
    std::vector<int32_t> status(8, 0);
    auto r = run("fill_queue", {buffer(status), value<int32_t>(8)}, 1, 1, o);
    REQUIRE_FALSE(r.fault);
    for (int i = 0; i < 8; ++i) CHECK(status[i] == (i < 5 ? 1000 : -101));  // CLK_ENQUEUE_FAILURE
    CHECK_THAT(r.warnings.at(0).message, Contains("CLK_DEVICE_QUEUE_FULL with -g"));
    CHECK_THAT(r.warnings.at(0).message,
               Contains("choice device_queue_command_bytes=" + std::to_string(c.bytesPerCommand)));
    o.detailed = true;
    status.assign(8, 0);
    r = run("fill_queue", {buffer(status), value<int32_t>(8)}, 1, 1, o);
    for (int i = 0; i < 8; ++i) CHECK(status[i] == (i < 5 ? 1000 : -161));  // CLK_DEVICE_QUEUE_FULL
  }
  // The other option's capacity: 5 * 16 bytes hold no 128-byte command.
  Options o;
  o.choice = "device_queue_command_bytes=128";
  o.defaultQueue = interpreter::DeviceQueueBinding{3, 5 * 16};
  std::vector<int32_t> status(8, 0);
  auto r = run("fill_queue", {buffer(status), value<int32_t>(2)}, 1, 1, o);
  CHECK(status[0] == -101);
  CHECK(status[1] == -101);
  CHECK_THAT(r.warnings.at(0).message, Contains("holds 0 commands"));
  o.defaultQueue.reset();
  o.detailed = true;
  status.assign(2, 0);
  r = run("fill_queue", {buffer(status), value<int32_t>(2)}, 1, 1, o);
  CHECK(status[0] == -102);  // CLK_INVALID_QUEUE: get_default_queue is CLK_NULL_QUEUE
  CHECK_THAT(r.warnings.at(0).message, Contains("CLK_NULL_QUEUE"));
}

TEST_CASE("device enqueue: the preferred-size default queue holds what device_queue_command_bytes says",
          "[execution][enqueue][choices]") {
  if (!test::openCLCCompilerOrSkip()) return;
  // As the conformance suite's test_cl_khr_command_buffer device_enqueue: every work-item enqueues one child into the
  // default queue of CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE (256 KiB). 256 KiB / 16 = 16 384 commands fit by
  // default, 256 KiB / 128 = 2 048 with the other option; the work-items past them find the queue full.
  const uint64_t preferred = 256 * 1024, n = 16384 + 64;
  struct Case {
    const char* choice;
    uint64_t held;
  };
  for (const Case& c : {Case{nullptr, preferred / 16}, Case{"device_queue_command_bytes=128", preferred / 128}}) {
    INFO((c.choice ? c.choice : "default"));
    Options o;
    o.choice = c.choice;
    o.detailed = true;
    o.defaultQueue = interpreter::DeviceQueueBinding{4, interpreter::kDeviceQueuePreferredSize};
    std::vector<int32_t> out(n, 0), status(n, 99);
    const auto r = run("one_child", {buffer(out), buffer(status)}, n, 64, o);
    REQUIRE_FALSE(r.fault);
    uint64_t succeeded = 0, full = 0, ran = 0;
    bool childrenMatch = true;
    for (uint64_t g = 0; g < n; ++g) {
      succeeded += status[g] == 0;  // CLK_SUCCESS
      full += status[g] == -161;    // CLK_DEVICE_QUEUE_FULL
      ran += out[g] != 0;
      childrenMatch = childrenMatch && out[g] == (status[g] == 0 ? int32_t(g) + 1 : 0);
    }
    CHECK(succeeded == c.held);
    CHECK(full == n - c.held);
    CHECK(ran == c.held);
    CHECK(childrenMatch);
    CHECK(r.workItems == n + c.held);
    // The capacity decided some enqueues' results: the choice is recorded.
    bool recorded = false;
    for (const auto& u : r.choicesUsed) recorded = recorded || u.choice == numerics::Choice::DeviceQueueCommandBytes;
    CHECK(recorded);
  }
}

TEST_CASE("device enqueue: a queue_t argument", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  Options o;
  o.defaultQueue.reset();
  std::vector<int32_t> out(2, 0);
  interpreter::ArgBinding q;
  q.queue = interpreter::DeviceQueueBinding{9};
  const auto r = run("argument_queue", {q, buffer(out)}, 1, 1, o);
  REQUIRE_FALSE(r.fault);
  CHECK(out[0] == 77);
  CHECK(out[1] == 0);
  CHECK_THROWS_WITH(run("argument_queue", {interpreter::ArgBinding{}, buffer(out)}, 1, 1, o),
                    Contains("no device queue"));
}

TEST_CASE("device enqueue: the block kernel queries", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  std::vector<int32_t> out(10, 0);
  const auto r = run("queries", {buffer(out)});
  REQUIRE_FALSE(r.fault);
  CHECK(out[0] == 1024);  // ExecConfig::deviceMaxWorkGroupSize: a small kernel fits it
  CHECK(out[1] == 32);    // the sub-group size
}

TEST_CASE("device enqueue: a child's fault names the child and where it was enqueued", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  std::vector<int32_t> out(4, 0);
  auto r = run("child_out_of_bounds", {buffer(out)});
  REQUIRE(r.fault);
  CHECK(r.fault->kind == interpreter::FaultKind::OutOfBounds);
  CHECK_THAT(r.fault->message, Contains("in child kernel") && Contains("OpEnqueueKernel") &&
                                   Contains("'argument 0' of kernel child_out_of_bounds"));
  r = run("private_capture", {buffer(out)});
  REQUIRE(r.fault);
  CHECK_THAT(r.fault->message, Contains("private memory of the parent"));
}

TEST_CASE("device enqueue: profiling information and invalid events", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  std::vector<int32_t> raw(2 * 68, 0);
  auto r = run("profiling", {buffer(raw)});
  REQUIRE_FALSE(r.fault);
  uint64_t v[68];
  std::memcpy(v, raw.data(), sizeof v);
  CHECK(v[0] > 0);
  CHECK(v[1] >= v[0]);
  for (uint64_t i = 0; i < 64; ++i) CHECK(v[4 + i] == i);
  std::vector<int32_t> out(1, 0);
  r = run("release_twice", {buffer(out)});
  REQUIRE(r.fault);
  CHECK(r.fault->kind == interpreter::FaultKind::UndefinedBehaviour);
  CHECK_THAT(r.fault->message, Contains("release_event of a value that is not a valid event"));
}

TEST_CASE("device enqueue: the commands pending over all queues are bounded by host memory", "[execution][enqueue]") {
  if (!test::openCLCCompilerOrSkip()) return;
  // Two queues of 5 commands each (16 bytes a command by default), enqueued alternately: 10 fit. With a bound of 6
  // pending commands over both, the seventh enqueue finds the resources exhausted though neither queue is full.
  Options o;
  o.detailed = true;
  o.defaultQueue = interpreter::DeviceQueueBinding{1, 5 * 16};
  interpreter::ArgBinding q;
  q.queue = interpreter::DeviceQueueBinding{2, 5 * 16};
  std::vector<int32_t> status(12, 0);
  auto r = run("two_queues", {q, buffer(status), value<int32_t>(12)}, 1, 1, o);
  REQUIRE_FALSE(r.fault);
  for (int i = 0; i < 12; ++i) CHECK(status[i] == (i < 10 ? 1000 : -161));  // CLK_DEVICE_QUEUE_FULL
  o.maxPending = 6;
  status.assign(12, 0);
  r = run("two_queues", {q, buffer(status), value<int32_t>(12)}, 1, 1, o);
  REQUIRE_FALSE(r.fault);
  for (int i = 0; i < 12; ++i) CHECK(status[i] == (i < 6 ? 1000 : -5));  // CLK_OUT_OF_RESOURCES
  CHECK_THAT(r.warnings.at(0).message, Contains("CLK_OUT_OF_RESOURCES") && Contains("6 commands"));
}
