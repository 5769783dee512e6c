// The C++ host API (host/host.hpp) under misuse found by fuzzing: every failure is the documented host::Error (an
// NDRangeError for the NDRange), never a wrapped-around NDRange or another exception type; the one build-options
// parser the OpenCL API and the case files share.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "host/host.hpp"
#include "interpreter/executor.hpp"
#include "interpreter/module.hpp"

using namespace clref;

namespace {

std::shared_ptr<host::Program> vadd(const host::Device& device) {
  return host::Program::fromSpirvFile(device, CLREF_GOLDEN_DIR "/spv/vadd.O2.spv");
}

host::NDRange range(std::initializer_list<size_t> global) {
  host::NDRange r;
  r.dims = unsigned(global.size());
  std::copy(global.begin(), global.end(), r.global.begin());
  return r;
}

host::NDRangeError::Field fieldOf(const host::NDRange& r, const host::DeviceConfig& cfg = {}) {
  try {
    host::checkNDRange(r, cfg);
  } catch (const host::NDRangeError& e) { return e.field; }
  FAIL("no NDRangeError");
  return host::NDRangeError::Field::Dims;
}

}  // namespace

TEST_CASE("checkNDRange: products and sums that overflow the device's size_t", "[host][ndrange]") {
  using Field = host::NDRangeError::Field;
  constexpr size_t k32 = size_t(1) << 32, sizeMax = std::numeric_limits<size_t>::max();
  CHECK_NOTHROW(host::checkNDRange(range({k32, k32 - 1}), {}));
  CHECK(fieldOf(range({k32, k32})) == Field::Global);           // 2^64 wraps to 0
  CHECK(fieldOf(range({65536, 65536, k32})) == Field::Global);  // 2^64 in three factors
  CHECK(fieldOf(range({3, sizeMax / 2})) == Field::Global);     // wraps to a small number
  CHECK_NOTHROW(host::checkNDRange(range({k32, k32, 0}), {}));  // a zero size: no work-items
  host::NDRange noDims;
  noDims.dims = 0;
  CHECK(fieldOf(noDims) == Field::Dims);

  auto offset = range({16});
  offset.offset[0] = sizeMax - 16;  // the last work-item is SIZE_MAX - 1
  CHECK_NOTHROW(host::checkNDRange(offset, {}));
  offset.offset[0] = sizeMax - 15;
  CHECK(fieldOf(offset) == Field::Offset);

  // A 32-bit device's size_t is 32 bits (CL_DEVICE_ADDRESS_BITS).
  host::DeviceConfig cfg32;
  cfg32.addressBits = 32;
  CHECK(fieldOf(range({k32}), cfg32) == Field::Global);
  CHECK(fieldOf(range({65536, 65536}), cfg32) == Field::Global);
  CHECK_NOTHROW(host::checkNDRange(range({65536, 65535}), cfg32));

  // Local sizes: 2^32 · 2^32 wrapped to 0 and passed the work-group size limit.
  auto local = range({k32, 1});
  local.local = std::array<size_t, 3>{k32, k32, 1};
  CHECK(fieldOf(local) == Field::Local);
  local.local = std::array<size_t, 3>{32, 32, 1};
  CHECK_NOTHROW(host::checkNDRange(local, {}));
  local.local = std::array<size_t, 3>{64, 32, 1};
  CHECK(fieldOf(local) == Field::Local);

  host::NDRangeError e(Field::Global, "x");
  CHECK(dynamic_cast<host::Error*>(&e) != nullptr);
}

TEST_CASE("Kernel::run refuses a wrapped-around NDRange instead of running nothing", "[host][ndrange]") {
  const host::Device device;
  host::Kernel k(vadd(device), "vadd");
  for (size_t i = 0; i < 3; ++i) k.setArg(i, std::make_shared<host::Buffer>(64));
  CHECK_THROWS_AS(k.run(range({size_t(1) << 32, size_t(1) << 32})), host::NDRangeError);
  auto r = range({16, 1});
  r.local = std::array<size_t, 3>{size_t(1) << 32, size_t(1) << 32, 1};
  CHECK_THROWS_AS(k.run(r), host::NDRangeError);
  CHECK(k.run(range({16})).ok);
}

TEST_CASE("Kernel::run: a buffer beyond the address space is a host::Error, not std::invalid_argument",
          "[host][errors]") {
  const host::Device device;
  host::Kernel k(vadd(device), "vadd");
  // A view claims a size without allocating it: 2^40 bytes is past the interpreter's pointer offset bits.
  std::byte byte{};
  k.setArg(0, host::Buffer::view(&byte, size_t(1) << 40));
  for (size_t i = 1; i < 3; ++i) k.setArg(i, std::make_shared<host::Buffer>(64));
  try {
    k.run(range({16}));
    FAIL("no exception");
  } catch (const host::Error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("argument 0 of vadd: a buffer of 1099511627776 bytes"));
  } catch (const std::exception& e) { FAIL("not a host::Error: " << e.what()); }
}

TEST_CASE("Kernel::run: local memory beyond localMemSize is a host::Error, not std::bad_alloc", "[host][errors]") {
  const host::Device device;
  host::Kernel k(host::Program::fromSpirvFile(device, CLREF_GOLDEN_DIR "/spv/async_copy.O2.spv"), "async_copy");
  for (size_t i = 0; i < 2; ++i) k.setArg(i, std::make_shared<host::Buffer>(256 * sizeof(float)));
  auto r = range({256});
  r.local = std::array<size_t, 3>{32, 1, 1};
  k.setArgLocal(2, size_t(1) << 60);
  CHECK_THROWS_WITH(k.run(r), Catch::Matchers::Contains("needs more local memory than the device's 65536 bytes"));
  k.setArgLocal(2, device.config().localMemSize + 1);
  CHECK_THROWS_AS(k.run(r), host::Error);
  k.setArgLocal(2, 32 * sizeof(float));
  CHECK(k.run(r).ok);
}

TEST_CASE("launch limits: the executor and the host API refuse by one rule, with one message", "[host][errors]") {
  // interpreter::checkLaunchLimits is the rule: interpreter::execute enforces it (LaunchLimitError), Kernel::run
  // reports it as a host::Error. The messages below are spelled out from the arguments: async_copy has no static
  // __local variables, its argument 2 is the local one; a 64-bit kernel's pointers keep 40 bits of offset.
  const host::Device device;
  auto program = host::Program::fromSpirvFile(device, CLREF_GOLDEN_DIR "/spv/async_copy.O2.spv");
  host::Kernel k(program, "async_copy");
  for (size_t i = 0; i < 2; ++i) k.setArg(i, std::make_shared<host::Buffer>(256 * sizeof(float)));
  k.setArgLocal(2, 65537);
  auto r = range({256});
  r.local = std::array<size_t, 3>{32, 1, 1};
  const std::string local =
      "kernel async_copy needs more local memory than the device's 65536 bytes (0 bytes of __local variables, "
      "argument 2 65537 bytes)";
  const std::string buffer = "argument 0 of async_copy: a buffer of 1099511627776 bytes is larger than the device can "
                             "address (1099511627775 bytes)";
  const auto hostMessage = [&] {
    try {
      (void)k.run(r);
    } catch (const host::Error& e) { return std::string(e.what()); }
    return std::string("no host::Error");
  };
  CHECK(hostMessage() == local);

  interpreter::LowerOptions o;
  o.globals = std::make_shared<interpreter::GlobalStorage>();
  const auto lowered = interpreter::lowerKernel(program->module(), "async_copy", o);
  std::vector<uint8_t> in(256 * sizeof(float)), out(256 * sizeof(float));
  std::vector<interpreter::ArgBinding> args(3);
  args[0].base = in.data();
  args[0].size = in.size();
  args[1].base = out.data();
  args[1].size = out.size();
  args[2].size = 65537;
  interpreter::NDRangeSpec spec;
  spec.global = {256, 1, 1};
  spec.local = {32, 1, 1};
  interpreter::ExecConfig ec;
  ec.threads = 1;
  ec.localMemSize = 65536;
  const auto executorMessage = [&] {
    try {
      (void)interpreter::execute(*lowered, args, spec, ec);
    } catch (const interpreter::LaunchLimitError& e) { return std::string(e.what()); }
    return std::string("no LaunchLimitError");
  };
  CHECK(executorMessage() == local);
  // Within the bound the same launch runs.
  args[2].size = 32 * sizeof(float);
  CHECK_FALSE(interpreter::execute(*lowered, args, spec, ec).fault);

  // A buffer past the pointer's offset bits: a view claims the size without allocating it.
  std::byte byte{};
  k.setArgLocal(2, 32 * sizeof(float));
  k.setArg(0, host::Buffer::view(&byte, size_t(1) << 40));
  CHECK(hostMessage() == buffer);
  args[0].base = reinterpret_cast<uint8_t*>(&byte);
  args[0].size = uint64_t(1) << 40;
  CHECK(executorMessage() == buffer);
}

TEST_CASE("fromSpirvFile: a directory is a host::Error naming it", "[host][errors]") {
  const host::Device device;
  CHECK_THROWS_AS(host::Program::fromSpirvFile(device, CLREF_GOLDEN_DIR "/spv"), host::Error);
  CHECK_THROWS_WITH(host::Program::fromSpirvFile(device, CLREF_GOLDEN_DIR "/spv"),
                    Catch::Matchers::Contains("is a directory"));
}

TEST_CASE("parseBuildOptions: the OpenCL options only, the rejected one named", "[host][options]") {
  host::BuildOptions o;
  CHECK(host::parseBuildOptions("-cl-std=CL1.2 -DN=4 -D M=5 -I inc -g -cl-mad-enable", host::BuildStep::Build, o));
  CHECK(o.compiler ==
        std::vector<std::string>{"-cl-std=CL1.2", "-DN=4", "-D", "M=5", "-I", "inc", "-g", "-cl-mad-enable"});
  CHECK(o.rejected.empty());
  for (const char* bad : {"-Xclang -load -Xclang x.so", "-O0", "-o /tmp/x", "-fplugin=x.so", "-cl-std=CL2.2", "-D"}) {
    host::BuildOptions r;
    INFO(bad);
    CHECK_FALSE(host::parseBuildOptions(bad, host::BuildStep::Build, r));
    CHECK(r.rejected == std::string(bad).substr(0, std::string(bad).find(' ')));
  }
  host::BuildOptions withO0;
  CHECK(host::parseBuildOptions("-O0 -cl-std=CL3.0", host::BuildStep::Build, withO0, {"-O0"}));
  CHECK(withO0.compiler == std::vector<std::string>{"-O0", "-cl-std=CL3.0"});
  CHECK(withO0.clStd20);
  host::BuildOptions link;
  CHECK(host::parseBuildOptions("-create-library", host::BuildStep::Link, link));
  CHECK(link.createLibrary);
  CHECK_FALSE(host::parseBuildOptions("-create-library", host::BuildStep::Build, link));
}

TEST_CASE("setArgValue and setSpecConstant: wrong sizes and null values are host::Errors at the call",
          "[host][errors]") {
  const host::Device device;
  auto program = vadd(device);
  host::Kernel k(program, "vadd");
  CHECK_THROWS_AS(k.setArgValue(0, nullptr, 8), host::Error);                 // a buffer parameter
  CHECK_THROWS_AS(program->setSpecConstant(12345, nullptr, 4), host::Error);  // vadd has none
}

namespace {

images::ImageDesc rgba8(images::ImageType type, uint64_t w, uint64_t h = 1, uint64_t d = 1, uint64_t layers = 1) {
  images::ImageDesc desc;
  desc.type = type;
  desc.format = {images::ChannelOrder::RGBA, images::ChannelType::UnormInt8};
  desc.width = w;
  desc.height = h;
  desc.depth = d;
  desc.arraySize = layers;
  return desc;
}

// The message of the host::Error `f` throws ("" when it throws none).
template <class F> std::string errorOf(F f) {
  try {
    f();
  } catch (const host::Error& e) { return e.what(); }
  return "";
}

}  // namespace

TEST_CASE("host::Image: bad descs, regions and levels are host::Errors naming what is wrong", "[host][images]") {
  using images::ImageType;
  CHECK_THAT(errorOf([] { host::Image(rgba8(ImageType::Image2D, 0, 4)); }), Catch::Contains("width"));
  CHECK_THAT(errorOf([] { host::Image(rgba8(ImageType::Image2D, 4, 0)); }), Catch::Contains("height"));
  auto bad = rgba8(ImageType::Image2D, 4, 4);
  bad.format = {images::ChannelOrder::RGB, images::ChannelType::Float};
  CHECK_THAT(errorOf([&] { host::Image{bad}; }), Catch::Contains("format"));
  auto pitched = rgba8(ImageType::Image2D, 4, 4);
  pitched.rowPitch = 15;  // below 4 × 4 bytes
  CHECK_THAT(errorOf([&] { host::Image{pitched}; }), Catch::Contains("itch"));

  host::Image image(rgba8(ImageType::Image2DArray, 4, 3, 1, 2));
  CHECK(image.size() == 4 * 3 * 2 * 4);
  std::vector<uint8_t> bytes(4 * 3 * 2 * 4, 7);
  CHECK_THAT(errorOf([&] { image.write({1, 0, 0}, {4, 3, 1}, bytes.data()); }), Catch::Contains("outside"));
  CHECK_THAT(errorOf([&] { image.read({0, 0, 2}, {1, 1, 1}, bytes.data()); }), Catch::Contains("outside"));
  CHECK_THAT(errorOf([&] { image.read({0, 0, 0}, {1, 1, 1}, bytes.data(), 0, 0, 1); }), Catch::Contains("mip level"));
  CHECK_THAT(errorOf([&] { image.read({0, 0, 0}, {4, 1, 1}, bytes.data(), 8); }), Catch::Contains("row pitch"));
  CHECK_THAT(errorOf([&] { image.read({0, 0, 0}, {4, 3, 2}, bytes.data(), 16, 20); }),
             Catch::Contains("slice pitch"));
  CHECK_THAT(errorOf([&] { image.write({0, 0, 0}, {1, 1, 1}, nullptr); }), Catch::Contains("no host memory"));
  // Huge regions whose end wraps around are outside too.
  CHECK_THAT(errorOf([&] { image.read({2, 0, 0}, {~size_t(0), 1, 1}, bytes.data()); }), Catch::Contains("outside"));
  // An empty region copies nothing.
  CHECK_NOTHROW(image.read({4, 0, 0}, {0, 1, 1}, nullptr));
}

TEST_CASE("host::Image: region copies with pitches, every layer in its place", "[host][images]") {
  using images::ImageType;
  // A 1D image array of 3 layers of 5 elements: the layer is the region's y.
  host::Image image(rgba8(ImageType::Image1DArray, 5, 1, 1, 3));
  std::vector<uint8_t> in(2 * 24, 0);  // 2 layers of 3 elements, host slice pitch 24 (12 bytes used)
  for (size_t layer = 0; layer < 2; ++layer)
    for (size_t b = 0; b < 12; ++b) in[layer * 24 + b] = uint8_t(1 + layer * 100 + b);
  image.write({1, 1, 0}, {3, 2, 1}, in.data(), 0, 24);
  std::vector<uint8_t> all(5 * 3 * 4, 0xFF);
  image.read({0, 0, 0}, {5, 3, 1}, all.data());
  for (size_t layer = 0; layer < 3; ++layer)
    for (size_t x = 0; x < 5; ++x)
      for (size_t b = 0; b < 4; ++b) {
        const bool written = layer >= 1 && x >= 1 && x < 4;
        const uint8_t want = written ? uint8_t(1 + (layer - 1) * 100 + (x - 1) * 4 + b) : 0;
        CHECK(all[(layer * 5 + x) * 4 + b] == want);
      }
  CHECK(image.elementOffset({2, 1, 0}) == 1 * 20 + 2 * 4);
  CHECK(image.extent() == std::array<uint64_t, 3>{5, 3, 1});
}

TEST_CASE("host::Image over a buffer shares its bytes, a view in another format shares the image's",
          "[host][images]") {
  using images::ImageType;
  auto buffer = std::make_shared<host::Buffer>(64);
  auto oneD = host::Image::fromBuffer(buffer, rgba8(ImageType::Image1DBuffer, 16));
  const uint8_t px[4] = {1, 2, 3, 4};
  oneD->write({3, 0, 0}, {1, 1, 1}, px);
  CHECK(std::memcmp(buffer->data() + 12, px, 4) == 0);
  CHECK_THAT(errorOf([&] { host::Image::fromBuffer(buffer, rgba8(ImageType::Image1DBuffer, 17)); }),
             Catch::Contains("the buffer has 64"));
  CHECK_THAT(errorOf([&] { host::Image::fromBuffer(buffer, rgba8(ImageType::Image3D, 2, 2, 2)); }),
             Catch::Contains("CL_MEM_OBJECT_IMAGE3D"));
  auto twoD = rgba8(ImageType::Image2D, 2, 3);
  twoD.rowPitch = 20;  // 3 rows of 20 bytes: 60 of the 64
  auto image2d = host::Image::fromBuffer(buffer, twoD);
  image2d->write({1, 2, 0}, {1, 1, 1}, px);
  CHECK(std::memcmp(buffer->data() + 2 * 20 + 4, px, 4) == 0);
  twoD.height = 4;  // 80 bytes
  CHECK_THAT(errorOf([&] { host::Image::fromBuffer(buffer, twoD); }), Catch::Contains("needs 80 bytes"));

  auto base = std::make_shared<host::Image>(rgba8(ImageType::Image2D, 2, 2));
  auto srgb = host::Image::withFormat(base, {images::ChannelOrder::sRGBA, images::ChannelType::UnormInt8});
  base->write({1, 1, 0}, {1, 1, 1}, px);
  uint8_t back[4] = {};
  srgb->read({1, 1, 0}, {1, 1, 1}, back);
  CHECK(std::memcmp(back, px, 4) == 0);
  CHECK(srgb->desc().format.order == images::ChannelOrder::sRGBA);
  CHECK_THAT(errorOf([&] { host::Image::withFormat(base, {images::ChannelOrder::RGBA, images::ChannelType::Float}); }),
             Catch::Contains("element size"));
}

TEST_CASE("Kernel::run: no local size for a reqd_work_group_size kernel runs work-groups of that size", "[host]") {
  // OpenCL 3.0 API §5.10 [[_executing_kernels]]: the local size, when given, must match reqd_work_group_size; when
  // not given, the required size is the only one the kernel can run with (no choice of clref's is involved).
  const host::Device device;
  host::Kernel k(host::Program::fromOpenCLC(device,
                                            "__attribute__((reqd_work_group_size(8, 1, 1)))\n"
                                            "kernel void sizes(global uint* o) {\n"
                                            "  o[get_global_id(0)] = get_local_size(0) * 100 + get_group_id(0);\n"
                                            "}\n"),
                 "sizes");
  auto out = std::make_shared<host::Buffer>(32 * sizeof(uint32_t));
  k.setArg(0, out);
  const auto result = k.run(range({32}));
  REQUIRE(result.ok);
  CHECK(result.localSize == std::array<size_t, 3>{8, 1, 1});
  const auto* o = reinterpret_cast<const uint32_t*>(out->data());
  for (uint32_t i = 0; i < 32; ++i) CHECK(o[i] == 800 + i / 8);
  for (const auto& u : result.choicesUsed) CHECK(u.choice != numerics::Choice::DefaultLocalSize);
  auto wrong = range({32});
  wrong.local = std::array<size_t, 3>{16, 1, 1};
  CHECK_THROWS_WITH(k.run(wrong), Catch::Matchers::Contains("requires work-group size (8,1,1)"));
}
