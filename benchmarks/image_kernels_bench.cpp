// Image benchmark: a 1024x1024 CL_RGBA / CL_UNORM_INT8 rotation with bilinear filtering (normalized coordinates,
// CLK_ADDRESS_CLAMP) and a 5x5 box blur with sampler-less reads, through the host API (kernels/image_rotate.cl,
// kernels/image_blur.cl). Prints the best and median wall time of Kernel::run over --runs runs, after one warm-up
// run, and checks the result against a plain host computation so a fast wrong answer cannot pass unnoticed: every
// channel within 1 of the host's value (the spec leaves linear filtering of 8-bit formats unbounded, and the host
// computes in double, so an exact comparison would test the host, not clref).
//
//   clref_image_kernels_bench [--threads N] [--runs N] [--size N] [--only rotate|blur] [KERNELS_DIR]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "benchmarks/bench_support.hpp"

using namespace clref;
using bench::readFile;
using bench::Timing;

namespace {

void report(const char* name, const Timing& t, double items, bool ok) {
  std::printf("%-34s best %9.1f ms  median %9.1f ms  %12.3g pixels/s  %s\n", name, t.bestMs, t.medianMs,
              items / (t.bestMs / 1e3), ok ? "verified" : "WRONG RESULT");
}

// A deterministic RGBA8 test picture: smooth gradients plus a checkerboard, so both filters see edges.
std::vector<uint8_t> picture(size_t n) {
  std::vector<uint8_t> p(n * n * 4);
  for (size_t y = 0; y < n; ++y)
    for (size_t x = 0; x < n; ++x) {
      uint8_t* e = &p[(y * n + x) * 4];
      e[0] = uint8_t(x * 255 / (n - 1));
      e[1] = uint8_t(y * 255 / (n - 1));
      e[2] = ((x / 32) + (y / 32)) % 2 ? 230 : 20;
      e[3] = uint8_t(255 - (x + y) % 256);
    }
  return p;
}

std::shared_ptr<host::Image> rgba8Image(size_t n, const uint8_t* data) {
  images::ImageDesc d;
  d.type = images::ImageType::Image2D;
  d.format = {images::ChannelOrder::RGBA, images::ChannelType::UnormInt8};
  d.width = d.height = n;
  auto image = std::make_shared<host::Image>(d);
  if (data) image->write({0, 0, 0}, {n, n, 1}, data);
  return image;
}

// The stored value of write_imagef to CL_UNORM_INT8 (round to nearest, saturating).
double toUnorm8(double f) { return std::nearbyint(std::clamp(f, 0.0, 1.0) * 255.0); }

}  // namespace

int main(int argc, char** argv) {
  std::string dir = CLREF_BENCH_KERNELS;
  host::DeviceConfig cfg;
  int runs = 3;
  size_t n = 1024;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      cfg.threads = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--size") && i + 1 < argc)
      n = size_t(std::max(8, std::atoi(argv[++i])));
    else
      dir = argv[i];
  }
  host::Device device(cfg);
  const auto pixels = picture(n);
  host::NDRange r;
  r.dims = 2;
  r.global = {n, n, 1};
  r.local = std::array<size_t, 3>{16, 16, 1};
  bool allOk = true;
  char name[64];

  if (only.empty() || only == "rotate") {
    auto prog = host::Program::fromOpenCLC(device, readFile(dir + "/image_rotate.cl"));
    host::Kernel k(prog, "rotate_bilinear");
    auto src = rgba8Image(n, pixels.data()), dst = rgba8Image(n, nullptr);
    const float cs = 0.8660254f, sn = 0.5f;  // 30 degrees
    k.setArg(0, src);
    k.setArg(1, dst);
    k.setArg(2, cs);
    k.setArg(3, sn);
    bool ok = true;
    const auto t = bench::timeRuns(runs, [&] { ok = k.run(r).ok && ok; }, true);
    std::vector<uint8_t> out(n * n * 4);
    dst->read({0, 0, 0}, {n, n, 1}, out.data());
    // Bilinear sampling as OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] describes it, in double: CLAMP gives
    // the border colour (0, 0, 0, 0) outside the image.
    const auto texel = [&](long x, long y, int c) -> double {
      if (x < 0 || y < 0 || x >= long(n) || y >= long(n)) return 0.0;
      return pixels[(size_t(y) * n + size_t(x)) * 4 + size_t(c)] / 255.0;
    };
    const double half = double(n) / 2;
    for (size_t y = 0; y < n && ok; ++y)
      for (size_t x = 0; x < n && ok; ++x) {
        const double dx = double(x) + 0.5 - half, dy = double(y) + 0.5 - half;
        const double u = double(cs) * dx - double(sn) * dy + half - 0.5;
        const double v = double(sn) * dx + double(cs) * dy + half - 0.5;
        const long i0 = long(std::floor(u)), j0 = long(std::floor(v));
        const double a = u - std::floor(u), b = v - std::floor(v);
        for (int c = 0; c < 4; ++c) {
          const double s = (1 - a) * (1 - b) * texel(i0, j0, c) + a * (1 - b) * texel(i0 + 1, j0, c) +
                           (1 - a) * b * texel(i0, j0 + 1, c) + a * b * texel(i0 + 1, j0 + 1, c);
          ok = ok && std::abs(double(out[(y * n + x) * 4 + size_t(c)]) - toUnorm8(s)) <= 1;
        }
      }
    std::snprintf(name, sizeof name, "rotate bilinear %zux%zu rgba8", n, n);
    report(name, t, double(n * n), ok);
    allOk = allOk && ok;
  }
  if (only.empty() || only == "blur") {
    auto prog = host::Program::fromOpenCLC(device, readFile(dir + "/image_blur.cl"));
    host::Kernel k(prog, "box_blur5");
    auto src = rgba8Image(n, pixels.data()), dst = rgba8Image(n, nullptr);
    k.setArg(0, src);
    k.setArg(1, dst);
    bool ok = true;
    const auto t = bench::timeRuns(runs, [&] { ok = k.run(r).ok && ok; }, true);
    std::vector<uint8_t> out(n * n * 4);
    dst->read({0, 0, 0}, {n, n, 1}, out.data());
    for (size_t y = 0; y < n && ok; ++y)
      for (size_t x = 0; x < n && ok; ++x)
        for (int c = 0; c < 4; ++c) {
          double s = 0;
          for (long dy = -2; dy <= 2; ++dy)
            for (long dx = -2; dx <= 2; ++dx) {
              const size_t xx = size_t(std::clamp(long(x) + dx, 0L, long(n) - 1));
              const size_t yy = size_t(std::clamp(long(y) + dy, 0L, long(n) - 1));
              s += pixels[(yy * n + xx) * 4 + size_t(c)] / 255.0;
            }
          ok = ok && std::abs(double(out[(y * n + x) * 4 + size_t(c)]) - toUnorm8(s / 25)) <= 1;
        }
    std::snprintf(name, sizeof name, "box blur 5x5 %zux%zu rgba8", n, n);
    report(name, t, double(n * n), ok);
    allOk = allOk && ok;
  }
  return allOk ? 0 : 1;
}
