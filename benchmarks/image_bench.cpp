// Sampled reads per second per core: a CL_RGBA / CL_UNORM_INT8 1024x1024 image read with bilinear filtering along a
// rotation (normalized coordinates, CLK_ADDRESS_CLAMP), through readSampled (binary64 fast path with the exact
// fallback) and with AccessOptions::exactOnly (GMP rationals only); plus nearest reads.
//
//   clref_image_bench [--size N] [--exact-count N]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "images/image.hpp"
#include "images/sampler.hpp"

using namespace clref::images;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  uint64_t size = 1024, exactCount = 20000;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--size")) size = uint64_t(std::atoll(argv[++i]));
    if (!std::strcmp(argv[i], "--exact-count")) exactCount = uint64_t(std::atoll(argv[++i]));
  }
  ImageDesc d;
  d.type = ImageType::Image2D;
  d.format = {ChannelOrder::RGBA, ChannelType::UnormInt8};
  d.width = d.height = size;
  d = makeDesc(d);
  std::vector<uint8_t> mem(storageBytes(d));
  std::mt19937 rng(1);
  for (auto& b : mem) b = uint8_t(rng());
  const ImageView view{d, mem.data(), mem.size()};

  // The rotation by 30 degrees about the centre, as a kernel computes it in float.
  const float c = std::cos(0.5235988f), s = std::sin(0.5235988f);
  auto coordOf = [&](uint64_t i) {
    const float x = float(i % size) + 0.5f, y = float(i / size % size) + 0.5f, h = float(size) / 2;
    Coord k;
    k.f = {((x - h) * c - (y - h) * s + h) / float(size), ((x - h) * s + (y - h) * c + h) / float(size), 0};
    return k;
  };
  auto rate = [&](const Sampler& smp, const AccessOptions& o, uint64_t n) {
    uint32_t sink = 0;
    const auto t0 = Clock::now();
    for (uint64_t i = 0; i < n; ++i) sink += readSampled(view, smp, coordOf(i), ColorKind::Float, {}, o).value.lanes[0];
    const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    if (sink == 1) std::printf(" ");
    return double(n) / secs;
  };
  Sampler linear;
  linear.normalizedCoords = true;
  linear.addressing = AddressingMode::Clamp;
  linear.filter = FilterMode::Linear;
  Sampler nearest = linear;
  nearest.filter = FilterMode::Nearest;
  AccessOptions fast, exact;
  exact.exactOnly = true;
  const uint64_t all = size * size;
  const double fastRate = rate(linear, fast, all), exactRate = rate(linear, exact, exactCount);
  const double nearestRate = rate(nearest, fast, all);
  std::printf("RGBA UNORM_INT8 %llux%llu, rotation by 30 degrees, CLK_ADDRESS_CLAMP\n", (unsigned long long)size,
              (unsigned long long)size);
  std::printf("  bilinear, fast path + exact fallback: %12.0f reads/s (%.3f s per image)\n", fastRate,
              double(all) / fastRate);
  std::printf("  bilinear, exact path only:            %12.0f reads/s (speed-up %.1fx)\n", exactRate,
              fastRate / exactRate);
  std::printf("  nearest:                              %12.0f reads/s\n", nearestRate);
  return 0;
}
