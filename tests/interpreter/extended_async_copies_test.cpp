// cl_khr_extended_async_copies (OpenCL Extension Specification 3.0.12 §34 "Extended Async Copies"):
// async_work_group_copy_2D2D from global to local and _3D3D from local to global, with offsets, line lengths and plane
// areas that differ on both sides, element sizes 4 and 2, in two work-groups. The expected output is the spec's
// formula evaluated here: element (p, l, e) moves from src + (src_offset + p * src_area + l * src_line + e) * size to
// dst + (dst_offset + p * dst_area + l * dst_line + e) * size; every other byte keeps its value.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "host/host.hpp"

using namespace clref;

namespace {

const char* kSource = R"CL(
kernel void copies(global const uchar* src, global uchar* out, uint size) {
  local uchar t[1024];
  for (size_t i = get_local_id(0); i < 1024; i += get_local_size(0)) t[i] = 0xEE;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t g = get_group_id(0);
  // 2D: 5 lines of 3 elements, source lines 7 apart from element 2 + g, local lines 4 apart from element 1.
  event_t e = async_work_group_copy_2D2D(t, 1, src, 2 + g, size, 3, 5, 7, 4, 0);
  wait_group_events(1, &e);
  // 3D: 2 planes of 5 lines of 3 elements, local lines 4 apart and planes 20 apart (the second plane is the fill),
  // into the group's half of out from element 3, lines 6 apart, planes 40 apart.
  e = async_work_group_copy_3D3D(out + g * 512, 3, t, 1, size, 3, 5, 2, 4, 20, 6, 40, 0);
  wait_group_events(1, &e);
}
)CL";

void copy(std::vector<uint8_t>& dst, size_t dstBase, size_t dstOffset, const std::vector<uint8_t>& src, size_t srcBase,
          size_t srcOffset, size_t size, size_t perLine, size_t lines, size_t planes, size_t srcLine, size_t srcArea,
          size_t dstLine, size_t dstArea) {
  for (size_t p = 0; p < planes; ++p)
    for (size_t l = 0; l < lines; ++l)
      for (size_t e = 0; e < perLine; ++e)
        std::memcpy(&dst[dstBase + (dstOffset + p * dstArea + l * dstLine + e) * size],
                    &src[srcBase + (srcOffset + p * srcArea + l * srcLine + e) * size], size);
}

}  // namespace

TEST_CASE("async_work_group_copy_2D2D and _3D3D move the elements the extension's formulas name",
          "[execution][work-group][async-copy]") {
  if (!host::Program::openCLCCompilerAvailable()) {
    WARN("skipped: no OpenCL C compiler (clang-15 and llvm-spirv-15)");
    return;
  }
  const host::Device device;
  auto program = host::Program::fromOpenCLC(device, kSource, "-cl-std=CL3.0");
  for (uint32_t size : {4u, 2u}) {
    INFO("element size " << size);
    host::Kernel k(program, "copies");
    std::vector<uint8_t> src(512);
    for (size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 7 + 3);
    std::vector<uint8_t> out(1024, 0x11);
    auto ob = std::make_shared<host::Buffer>(out.data(), out.size());
    k.setArg(0, std::make_shared<host::Buffer>(src.data(), src.size()));
    k.setArg(1, ob);
    k.setArg(2, size);
    host::NDRange r;
    r.global = {16, 1, 1};
    r.local = std::array<size_t, 3>{8, 1, 1};
    const auto res = k.run(r);
    INFO((res.fault ? res.fault->format() : std::string()));
    REQUIRE(res.ok);
    std::vector<uint8_t> expected = out;
    for (size_t g = 0; g < 2; ++g) {
      std::vector<uint8_t> t(1024, 0xEE);
      copy(t, 0, 1, src, 0, 2 + g, size, 3, 5, 1, 7, 0, 4, 0);
      copy(expected, g * 512, 3, t, 0, 1, size, 3, 5, 2, 4, 20, 6, 40);
    }
    const auto got = ob->as<uint8_t>();
    CHECK(std::vector<uint8_t>(got.begin(), got.end()) == expected);
  }
}

TEST_CASE("the device reports cl_khr_extended_async_copies", "[execution][async-copy]") {
  const auto ext = host::openCLCExtensions(host::DeviceConfig());
  CHECK(std::count(ext.begin(), ext.end(), "cl_khr_extended_async_copies") == 1);
}
