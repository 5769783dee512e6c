// The C++ host API (api/host.hpp) under misuse found by fuzzing: every failure is the documented host::Error (an
// NDRangeError for the NDRange), never a wrapped-around NDRange or another exception type; the one build-options
// parser the OpenCL API and the case files share.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "api/host.hpp"

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
  for (const char* bad : {"-Xclang -load -Xclang x.so", "-O0", "-o /tmp/x", "-fplugin=x.so", "-cl-std=CL2.0", "-D"}) {
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
