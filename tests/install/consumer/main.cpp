// A program outside clref's build using the installed host API (tests/install/check_install.sh
// builds it with find_package(clref) and with pkg-config): runs vadd from SPIR-V and, when
// clang-15 and llvm-spirv-15 are on PATH, a kernel compiled from OpenCL C.
#include <clref/host/host.hpp>

#include <cstdio>
#include <memory>
#include <vector>

using namespace clref;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer vadd.spv\n");
    return 2;
  }
  host::Device device;
  const size_t n = 256;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 0.5f * float(i);
  auto bufA = std::make_shared<host::Buffer>(a.data(), n * sizeof(float));
  auto bufB = std::make_shared<host::Buffer>(b.data(), n * sizeof(float));
  auto bufC = std::make_shared<host::Buffer>(n * sizeof(float));
  host::Kernel vadd(host::Program::fromSpirvFile(device, argv[1]), "vadd");
  vadd.setArg(0, bufA);
  vadd.setArg(1, bufB);
  vadd.setArg(2, bufC);
  host::NDRange range;
  range.global = {n, 1, 1};
  host::RunResult result = host::run(vadd, range);
  if (!result.ok) {
    std::printf("fault: %s\n", result.fault->format().c_str());
    return 1;
  }
  double sum = 0;
  for (float c : bufC->as<float>()) sum += c;
  std::printf("vadd: c[10] = %g, sum = %g\n", bufC->as<float>()[10], sum);

  // An image (the images module's layouts through the installed headers and library): a 3×2 RGBA8 region written
  // into a 4×4 image and read back with a padded host row pitch.
  images::ImageDesc desc;
  desc.type = images::ImageType::Image2D;
  desc.format = {images::ChannelOrder::RGBA, images::ChannelType::UnormInt8};
  desc.width = desc.height = 4;
  host::Image image(desc);
  std::vector<unsigned char> in(3 * 2 * 4), out(2 * 16, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(i + 1);
  image.write({1, 2, 0}, {3, 2, 1}, in.data());
  image.read({1, 2, 0}, {3, 2, 1}, out.data(), 16);
  std::printf("image: %zu bytes, row 1 starts %d %d\n", image.size(), out[16], out[17]);

  if (host::Program::openCLCCompilerAvailable()) {
    auto program = host::Program::fromOpenCLC(
        device, "kernel void square(global int* x) { size_t i = get_global_id(0); x[i] *= x[i]; }");
    std::vector<int> x{1, 2, 3, 4};
    auto bufX = std::make_shared<host::Buffer>(x.data(), x.size() * sizeof(int));
    host::Kernel square(program, "square");
    square.setArg(0, bufX);
    range.global = {x.size(), 1, 1};
    if (!host::run(square, range).ok) return 1;
    auto out = bufX->as<int>();
    std::printf("square: %d %d %d %d\n", out[0], out[1], out[2], out[3]);
  } else {
    std::printf("square: skipped (no clang-15 and llvm-spirv-15)\n");
  }
  return 0;
}
