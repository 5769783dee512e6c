// printf (OpenCL C 3.0 §6.15.14 [[printf]]): conversions, vectors, strings, and the output order (by
// work-group, then by work-item within the group) that does not depend on the thread count.
#include <catch2/catch.hpp>

#include "host/host.hpp"

using namespace clref;

TEST_CASE("printf formats scalars, vectors and strings, in work-group order for any thread count", "[printf]") {
  const char* src = R"CL(
kernel void k(global const int* in) {
  const size_t g = get_global_id(0);
  const int x = in[g];
  const float4 v = (float4)((float)x, 0.5f, -2.0f, 1024.0f);
  printf("%zu:%d|%5.2f|%x|%#o|%c|%s|%v4hlf|%e\n", g, x, (float)x / 4.0f, (uint)x, (uint)x, 'A' + (int)g, "ok", v, 1.0e-3);
}
)CL";
  const int in[4] = {-5, 12, 255, 8};
  std::string expected;
  for (int g = 0; g < 4; ++g) {
    char line[256];
    // Written out per work-item with the C library's own printf, the reference for the
    // conversions (OpenCL printf follows C99's).
    std::snprintf(line, sizeof line, "%d:%d|%5.2f|%x|%#o|%c|%s|%f,%f,%f,%f|%e\n", g, in[g], double(float(in[g]) / 4.0f),
                  unsigned(in[g]), unsigned(in[g]), 'A' + g, "ok", double(in[g]), 0.5, -2.0, 1024.0, 1.0e-3);
    expected += line;
  }
  for (unsigned threads : {1u, 2u, 4u}) {
    host::DeviceConfig cfg;
    cfg.threads = threads;
    host::Device device(cfg);
    auto program = host::Program::fromOpenCLC(device, src, "-cl-std=CL1.2");
    host::Kernel k(program, "k");
    k.setArg(0, std::make_shared<host::Buffer>(in, sizeof in));
    host::NDRange r;
    r.global = {4, 1, 1};
    r.local = std::array<size_t, 3>{1, 1, 1};  // four work-groups, on several threads
    const auto res = k.run(r);
    REQUIRE(res.ok);
    INFO("threads " << threads);
    CHECK(res.printfOutput == expected);
  }
}
