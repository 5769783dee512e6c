// Image kernels through the interpreter (interpreter::execute with ArgBinding::image over an images::ImageView of a
// std::vector): every OpenCL C image built-in clang-15 + llvm-spirv-15 compile (-O0 and -O2, CL1.2 with SPIR-V 1.0
// and CL3.0 with SPIR-V 1.4, whose SignExtend/ZeroExtend operands tell read_imagei from read_imageui), image and
// sampler parameters, handles, and the undefined conditions (warning by default, fault under the choice). Expected
// values come from the spec's formulas evaluated here on small images with simple values (a texel of 51 in a
// CL_UNORM_INT8 channel reads as 51/255 = 0.2 rounded to float), never from clref.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "compile_cl.hpp"
#include "images/image.hpp"
#include "images/sampler.hpp"
#include "interpreter/executor.hpp"
#include "interpreter/module.hpp"
#include "interpreter/program.hpp"
#include "numerics/choices.hpp"
#include "spvasm.hpp"

using namespace clref;
using Catch::Matchers::Contains;
using images::ChannelOrder;
using images::ChannelType;
using images::ImageType;

namespace {

struct Variant {
  const char* std;
  const char* opt;
  const char* spirv;
};
const Variant kVariants[] = {
    {"CL1.2", "-O0", "1.0"}, {"CL1.2", "-O2", "1.0"}, {"CL3.0", "-O0", "1.4"}, {"CL3.0", "-O2", "1.4"}};
// Read-write images and the cl_khr_mipmap_image built-ins need OpenCL C 2.0 or later (clang-15's opencl-c.h).
const Variant kCL3Variants[] = {{"CL3.0", "-O0", "1.4"}, {"CL3.0", "-O2", "1.4"}, {"CL3.0", "-O2", "1.0"}};

std::vector<uint32_t> compile(const std::string& src, const Variant& v) {
  return test::compileCL(src, std::string("-cl-std=") + v.std + " " + v.opt, v.spirv);
}

// An image over a std::vector. Level 0 is tightly packed; the test addresses its elements itself.
struct TestImage {
  TestImage(ImageType type, ChannelOrder order, ChannelType ctype, unsigned elem, uint64_t w, uint64_t h = 1,
            uint64_t d = 1, uint64_t layers = 1, uint32_t levels = 1)
      : elemSize(elem) {
    images::ImageDesc desc;
    desc.type = type;
    desc.format = {order, ctype};
    desc.width = w;
    desc.height = h;
    desc.depth = d;
    desc.arraySize = layers;
    desc.numMipLevels = levels;
    view.desc = images::makeDesc(desc);
    bytes.assign(images::storageBytes(view.desc), 0);
    view.data = bytes.data();
    view.bytes = bytes.size();
    rowPitch = elem * w;
    // Rows per slice: 1 for 1D arrays (a layer is one row), the height otherwise.
    slicePitch = rowPitch * (type == ImageType::Image1DArray ? 1 : h);
  }
  TestImage(const TestImage&) = delete;
  TestImage& operator=(const TestImage&) = delete;
  // (x, y, z) of level 0; for 1D arrays y is the layer, for 2D arrays z.
  uint8_t* at(uint64_t x, uint64_t y = 0, uint64_t z = 0) {
    const bool oneDArray = view.desc.type == ImageType::Image1DArray;
    return bytes.data() + x * elemSize + (oneDArray ? y * slicePitch : y * rowPitch + z * slicePitch);
  }
  interpreter::ArgBinding arg() const {
    interpreter::ArgBinding a;
    a.image = &view;
    return a;
  }
  unsigned elemSize;
  uint64_t rowPitch = 0, slicePitch = 0;
  std::vector<uint8_t> bytes;
  images::ImageView view;
};

template <class T> struct Buffer {
  explicit Buffer(size_t n) : data(n) {}
  interpreter::ArgBinding arg() {
    interpreter::ArgBinding a;
    a.base = reinterpret_cast<uint8_t*>(data.data());
    a.size = data.size() * sizeof(T);
    return a;
  }
  std::vector<T> data;
};

template <class T> interpreter::ArgBinding value(const T& v) {
  interpreter::ArgBinding a;
  a.value.resize(sizeof v);
  std::memcpy(a.value.data(), &v, sizeof v);
  return a;
}

interpreter::ArgBinding samplerArg(bool normalized, images::AddressingMode am, images::FilterMode fm) {
  interpreter::ArgBinding a;
  a.sampler.normalizedCoords = normalized;
  a.sampler.addressing = am;
  a.sampler.filter = fm;
  return a;
}

// Loads, lowers and runs `kernel` over global size `global` (work-groups of `local`, on `threads` threads).
interpreter::ExecResult run(const std::vector<uint32_t>& words, const std::string& kernel,
                            const std::vector<interpreter::ArgBinding>& args,
                            std::array<uint64_t, 3> global = {1, 1, 1},
                            const numerics::Choices& choices = numerics::Choices(),
                            std::array<uint64_t, 3> local = {1, 1, 1}, unsigned addressBits = 64,
                            unsigned threads = 1) {
  const auto module = interpreter::Module::load(words);
  interpreter::LowerOptions opt;
  opt.choices = choices;
  opt.addressBits = addressBits;
  const auto k = interpreter::lowerKernel(module, kernel, opt);
  interpreter::NDRangeSpec range;
  range.dims = 3;
  range.global = global;
  range.local = local;
  interpreter::ExecConfig config;
  config.threads = threads;
  return interpreter::execute(*k, args, range, config);
}

std::string faultText(const interpreter::ExecResult& r) { return r.fault ? r.fault->format() : "no fault"; }

// The binary16 nearest to v (ties to even), for |v| < 65504: the straightforward formula.
uint16_t halfBits(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  v = std::fabs(v);
  if (v == 0) return sign;
  int e = 0;
  std::frexp(v, &e);
  int exp = std::max(e - 1, -14);
  const uint32_t q = uint32_t(std::nearbyint(v / std::ldexp(1.0, exp - 10)));
  if (q < 1024) return uint16_t(sign | q);  // subnormal
  if (q == 2048) return uint16_t(sign | ((exp + 16) << 10));
  return uint16_t(sign | ((exp + 15) << 10) | (q - 1024));
}

// The option index of `name` of a choice (the registry's names).
uint8_t optionNamed(numerics::Choice c, std::string_view name) {
  const auto& info = numerics::infoOf(c);
  for (uint8_t i = 0; i < info.options.size(); ++i)
    if (info.options[i] == name) return i;
  FAIL("choice " << info.name << " has no option " << name);
  return 0;
}

numerics::Choices faultOn(numerics::Choice choice) {
  numerics::Choices c;
  c.set(choice, optionNamed(choice, "fault"));
  return c;
}
numerics::Choices faultOn(images::Undefined u) { return faultOn(images::choiceOf(u)); }

}  // namespace

TEST_CASE("image and sampler parameters are lowered with their type, depth and access", "[image]") {
  const char* src = R"CL(
#pragma OPENCL EXTENSION cl_khr_depth_images : enable
kernel void params(read_only image2d_t a, write_only image3d_t b, read_only image1d_buffer_t c, sampler_t s,
                   read_only image2d_array_depth_t d, write_only image1d_array_t e, global int* out) {
  out[0] = get_image_width(a) + get_image_width(c) + get_image_width(d);
}
kernel void rw(read_write image2d_array_t a, read_write image1d_t b) {}
)CL";
  for (const auto& v : kCL3Variants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    const auto module = interpreter::Module::load(compile(src, v));
    const auto k = interpreter::lowerKernel(module, "params", {});
    REQUIRE(k->params.size() == 7);
    using interpreter::ImageAccess;
    using interpreter::ParamKind;
    const auto& p = k->params;
    CHECK(p[0].kind == ParamKind::Image);
    CHECK(p[0].imageType == ImageType::Image2D);
    CHECK(p[0].access == ImageAccess::ReadOnly);
    CHECK(!p[0].depth);
    CHECK(p[0].typeName == "read_only image2d_t");
    CHECK(p[1].imageType == ImageType::Image3D);
    CHECK(p[1].access == ImageAccess::WriteOnly);
    CHECK(p[1].typeName == "write_only image3d_t");
    CHECK(p[2].imageType == ImageType::Image1DBuffer);
    CHECK(p[2].typeName == "read_only image1d_buffer_t");
    CHECK(p[3].kind == ParamKind::Sampler);
    CHECK(p[3].typeName == "sampler_t");
    CHECK(p[4].imageType == ImageType::Image2DArray);
    CHECK(p[4].depth);
    CHECK(p[4].typeName == "read_only image2d_array_depth_t");
    CHECK(p[5].imageType == ImageType::Image1DArray);
    CHECK(p[5].typeName == "write_only image1d_array_t");
    CHECK(p[6].kind == ParamKind::Buffer);
    const auto rw = interpreter::lowerKernel(module, "rw", {});
    REQUIRE(rw->params.size() == 2);
    CHECK(rw->params[0].access == ImageAccess::ReadWrite);
    CHECK(rw->params[0].typeName == "read_write image2d_array_t");
    CHECK(rw->params[1].typeName == "read_write image1d_t");
  }
}

TEST_CASE("read_imagef: sampler argument, constant sampler and sampler-less, int and float coordinates", "[image]") {
  const char* src = R"CL(
kernel void rd(read_only image2d_t img, sampler_t s, global float4* out) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * 4 + x;
  const sampler_t cs = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
  out[5 * i + 0] = read_imagef(img, s, (int2)(x, y));
  out[5 * i + 1] = read_imagef(img, s, (float2)(x + 0.5f, y + 0.5f));
  out[5 * i + 2] = read_imagef(img, (int2)(x, y));
  out[5 * i + 3] = read_imagef(img, cs, (float2)((x + 0.5f) / 4.0f, (y + 0.5f) / 2.0f));
  out[5 * i + 4] = read_imagef(img, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST, (int2)(x, y));
}
)CL";
  TestImage img(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::UnormInt8, 4, 4, 2);
  // Texel (x, y) = (51x, 51(y+1), 255-51x, 255): the channels read as x/5, (y+1)/5, 1-x/5, 1.
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) {
      uint8_t* t = img.at(x, y);
      t[0] = uint8_t(51 * x);
      t[1] = uint8_t(51 * (y + 1));
      t[2] = uint8_t(255 - 51 * x);
      t[3] = 255;
    }
  auto check = [](const std::vector<float>& out) {
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 4; ++x)
        for (int k = 0; k < 5; ++k) {
          INFO("texel (" << x << ", " << y << "), read " << k);
          const float* got = &out[4 * (5 * (y * 4 + x) + k)];
          CHECK(got[0] == float(x / 5.0));
          CHECK(got[1] == float((y + 1) / 5.0));
          CHECK(got[2] == float((5 - x) / 5.0));
          CHECK(got[3] == 1.0f);
        }
  };
  const auto smp = samplerArg(false, images::AddressingMode::ClampToEdge, images::FilterMode::Nearest);
  for (const auto& v : kVariants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    Buffer<float> out(8 * 5 * 4);
    const auto r = run(compile(src, v), "rd", {img.arg(), smp, out.arg()}, {4, 2, 1});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    CHECK(r.warnings.empty());
    check(out.data);
  }
  // spir (32-bit addresses): image and sampler handles are 4 bytes.
  for (const char* opt : {"-O0", "-O2"}) {
    INFO("spir " << opt);
    Buffer<float> out(8 * 5 * 4);
    const auto r = run(test::compileCL(src, std::string("-cl-std=CL1.2 ") + opt, "1.0", 32), "rd",
                       {img.arg(), smp, out.arg()}, {4, 2, 1}, numerics::Choices(), {1, 1, 1}, 32);
    INFO(faultText(r));
    REQUIRE(!r.fault);
    check(out.data);
  }
}

TEST_CASE("read_imagef with CLK_FILTER_LINEAR weighs two texels", "[image]") {
  const char* src = R"CL(
kernel void lin(read_only image1d_t img, sampler_t s, global float* out) {
  out[0] = read_imagef(img, s, 1.0f).x;   // halfway between texels 0 and 1
  out[1] = read_imagef(img, s, 1.25f).x;  // a = 0.75 towards texel 1
}
)CL";
  TestImage img(ImageType::Image1D, ChannelOrder::R, ChannelType::UnormInt8, 1, 2);
  img.at(0)[0] = 0;
  img.at(1)[0] = 255;
  for (const auto& v : kVariants) {
    INFO(v.std << " " << v.opt);
    Buffer<float> out(2);
    const auto r =
        run(compile(src, v), "lin",
            {img.arg(), samplerArg(false, images::AddressingMode::ClampToEdge, images::FilterMode::Linear), out.arg()});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: i0 = floor(u - 0.5), a = frac(u - 0.5); the result is
    // (1 - a) T0 + a T1 with T0 = 0, T1 = 1.
    CHECK(out.data[0] == 0.5f);
    CHECK(out.data[1] == 0.75f);
  }
}

TEST_CASE("read_imagei and read_imageui, sampled and sampler-less", "[image]") {
  const char* src = R"CL(
// An image passed on to a function (kept apart at -O0; llvm-spirv-15 aborts on a sampler parameter of a function
// at -O0, so the sampler stays in the kernel).
__attribute__((noinline)) uint4 readU(read_only image1d_t img, int x) { return read_imageui(img, x); }
kernel void ri(read_only image2d_t si, read_only image1d_t ui, sampler_t s, global int4* oi, global uint4* ou) {
  int x = get_global_id(0);
  oi[2 * x] = read_imagei(si, s, (int2)(x, 0));
  oi[2 * x + 1] = read_imagei(si, (int2)(x, 0));
  ou[2 * x] = read_imageui(ui, s, x);
  ou[2 * x + 1] = readU(ui, x);
}
)CL";
  TestImage si(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::SignedInt8, 4, 3);
  TestImage ui(ImageType::Image1D, ChannelOrder::R, ChannelType::UnsignedInt16, 2, 3);
  for (int x = 0; x < 3; ++x) {
    const int8_t t[4] = {int8_t(-5 * x), int8_t(3 * x), -128, 127};
    std::memcpy(si.at(x), t, 4);
    const uint16_t u = uint16_t(30000 * x + 7);
    std::memcpy(ui.at(x), &u, 2);
  }
  for (const auto& v : kVariants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    Buffer<int32_t> oi(6 * 4);
    Buffer<uint32_t> ou(6 * 4);
    const auto r =
        run(compile(src, v), "ri",
            {si.arg(), ui.arg(), samplerArg(false, images::AddressingMode::ClampToEdge, images::FilterMode::Nearest),
             oi.arg(), ou.arg()},
            {3, 1, 1});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    CHECK(r.warnings.empty());
    for (int x = 0; x < 3; ++x)
      for (int k = 0; k < 2; ++k) {
        INFO("x " << x << " read " << k);
        const int32_t* gi = &oi.data[4 * (2 * x + k)];
        CHECK(gi[0] == -5 * x);
        CHECK(gi[1] == 3 * x);
        CHECK(gi[2] == -128);
        CHECK(gi[3] == 127);
        // CL_R reads as (R, 0, 0, 1): the missing-channel defaults of OpenCL C 3.0 §6.15.15.7
        // [[mapping-image-channels-to-color-values-returned-by-read_image-and-color-values-passed-to-write_image-to-image-channels]].
        const uint32_t* gu = &ou.data[4 * (2 * x + k)];
        CHECK(gu[0] == uint32_t(30000 * x + 7));
        CHECK(gu[1] == 0u);
        CHECK(gu[2] == 0u);
        CHECK(gu[3] == 1u);
      }
  }
}

TEST_CASE("read_imageh and write_imageh", "[image]") {
  const char* src = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void rh(read_only image2d_t img, sampler_t s, global half4* out, write_only image2d_t w, float4 c) {
  out[0] = read_imageh(img, s, (int2)(1, 0));
  out[1] = read_imageh(img, (int2)(1, 0));
  write_imageh(w, (int2)(0, 0), convert_half4(c));
}
)CL";
  TestImage img(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::UnormInt8, 4, 2);
  const uint8_t t[4] = {51, 102, 153, 0};
  std::memcpy(img.at(1), t, 4);
  TestImage w(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::HalfFloat, 8, 1);
  const float c[4] = {0.1f, -2.5f, 65504.0f, 1.0f / 3};
  for (const auto& v : kVariants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    Buffer<uint16_t> out(8);
    const auto r = run(compile(src, v), "rh",
                       {img.arg(), samplerArg(false, images::AddressingMode::ClampToEdge, images::FilterMode::Nearest),
                        out.arg(), w.arg(), value(c)});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    for (int k = 0; k < 2; ++k) {
      CHECK(out.data[4 * k + 0] == halfBits(0.2));
      CHECK(out.data[4 * k + 1] == halfBits(0.4));
      CHECK(out.data[4 * k + 2] == halfBits(0.6));
      CHECK(out.data[4 * k + 3] == 0);
    }
    // CL_HALF_FLOAT stores the half as given.
    for (int k = 0; k < 4; ++k) {
      uint16_t stored;
      std::memcpy(&stored, w.at(0) + 2 * k, 2);
      CHECK(stored == halfBits(double(c[k])));
    }
  }
}

TEST_CASE("write_imagef, write_imagei and write_imageui convert and saturate", "[image]") {
  const char* src = R"CL(
kernel void wr(write_only image2d_t f, write_only image2d_t i16, write_only image1d_t u8, float4 c, int4 ci,
               uint4 cu) {
  int x = get_global_id(0);
  write_imagef(f, (int2)(x, 0), c * (float)x);
  write_imagei(i16, (int2)(x, 0), ci * x);
  write_imageui(u8, x, cu * (uint)x);
}
)CL";
  const float c[4] = {0.2f, 0.4f, 0.6f, 1.0f};
  const int32_t ci[4] = {1, -1, 20000, -20000};
  const uint32_t cu[4] = {1, 100, 200, 7};
  for (const auto& v : kVariants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    TestImage f(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::UnormInt8, 4, 3);
    TestImage i16(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::SignedInt16, 8, 3);
    TestImage u8(ImageType::Image1D, ChannelOrder::RGBA, ChannelType::UnsignedInt8, 4, 3);
    const auto r =
        run(compile(src, v), "wr", {f.arg(), i16.arg(), u8.arg(), value(c), value(ci), value(cu)}, {3, 1, 1});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    CHECK(r.warnings.empty());
    for (int x = 0; x < 3; ++x)
      for (int k = 0; k < 4; ++k) {
        INFO("x " << x << " channel " << k);
        // OpenCL C 3.0 §8.3.1.3 [[converting-floating-point-values-to-normalized-integer-channel-data-types]]: round to
        // nearest even of 255 × value, saturated to [0, 255].
        const double scaled = double(c[k] * float(x)) * 255.0;
        CHECK(f.at(x)[k] == uint8_t(std::clamp(std::nearbyint(scaled), 0.0, 255.0)));
        // Integer channels saturate: convert_short_sat, convert_uchar_sat.
        int16_t s;
        std::memcpy(&s, i16.at(x) + 2 * k, 2);
        CHECK(s == int16_t(std::clamp<int64_t>(int64_t(ci[k]) * x, -32768, 32767)));
        CHECK(u8.at(x)[k] == uint8_t(std::min<uint64_t>(uint64_t(cu[k]) * x, 255)));
      }
  }
}

TEST_CASE("writes address the right element of every image type", "[image]") {
  const char* src = R"CL(
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
kernel void wt(write_only image1d_buffer_t b, write_only image1d_array_t a1, write_only image2d_array_t a2,
               write_only image3d_t i3) {
  write_imageui(b, 3, (uint4)(7));
  write_imageui(a1, (int2)(1, 2), (uint4)(8));
  write_imageui(a2, (int4)(1, 2, 1, 0), (uint4)(9));
  write_imageui(i3, (int4)(1, 0, 2, 0), (uint4)(10));
}
)CL";
  for (const auto& v : kVariants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    TestImage b(ImageType::Image1DBuffer, ChannelOrder::R, ChannelType::UnsignedInt8, 1, 5);
    TestImage a1(ImageType::Image1DArray, ChannelOrder::R, ChannelType::UnsignedInt8, 1, 3, 1, 1, 3);
    TestImage a2(ImageType::Image2DArray, ChannelOrder::R, ChannelType::UnsignedInt8, 1, 3, 3, 1, 2);
    TestImage i3(ImageType::Image3D, ChannelOrder::R, ChannelType::UnsignedInt8, 1, 3, 2, 3);
    const auto r = run(compile(src, v), "wt", {b.arg(), a1.arg(), a2.arg(), i3.arg()});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    CHECK(r.warnings.empty());
    auto only = [](TestImage& t, const uint8_t* at, uint8_t value) {
      for (const uint8_t& e : t.bytes) CHECK(int(e) == (&e == at ? value : 0));
    };
    only(b, b.at(3), 7);
    only(a1, a1.at(1, 2), 8);
    only(a2, a2.at(1, 2, 1), 9);
    only(i3, i3.at(1, 0, 2), 10);
  }
}

TEST_CASE("image queries return the sizes and the CLK_ channel order and data type", "[image]") {
  const char* src = R"CL(
kernel void q(read_only image2d_t a, read_only image3d_t b, read_only image2d_array_t c, read_only image1d_array_t d,
              read_only image1d_buffer_t e, read_only image1d_t f, global int* o) {
  o[0] = get_image_width(a); o[1] = get_image_height(a);
  int2 da = get_image_dim(a); o[2] = da.x; o[3] = da.y;
  o[4] = get_image_channel_data_type(a); o[5] = get_image_channel_order(a);
  o[6] = get_image_width(b); o[7] = get_image_height(b); o[8] = get_image_depth(b);
  int4 db = get_image_dim(b); o[9] = db.x; o[10] = db.y; o[11] = db.z; o[12] = db.w;
  o[13] = get_image_width(c); o[14] = get_image_height(c); o[15] = (int)get_image_array_size(c);
  int2 dc = get_image_dim(c); o[16] = dc.x; o[17] = dc.y;
  o[18] = get_image_width(d); o[19] = (int)get_image_array_size(d);
  o[20] = get_image_width(e); o[21] = get_image_channel_order(e); o[22] = get_image_channel_data_type(e);
  o[23] = get_image_width(f); o[24] = get_image_channel_order(f); o[25] = get_image_channel_data_type(f);
  o[26] = get_image_channel_order(b); o[27] = get_image_channel_data_type(b);
}
)CL";
  TestImage a(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::UnormInt8, 4, 5, 3);
  TestImage b(ImageType::Image3D, ChannelOrder::sRGBA, ChannelType::UnormInt8, 4, 2, 3, 4);
  TestImage c(ImageType::Image2DArray, ChannelOrder::R, ChannelType::Float, 4, 6, 2, 1, 7);
  TestImage d(ImageType::Image1DArray, ChannelOrder::RG, ChannelType::HalfFloat, 4, 9, 1, 1, 5);
  TestImage e(ImageType::Image1DBuffer, ChannelOrder::BGRA, ChannelType::UnormInt8, 4, 11);
  TestImage f(ImageType::Image1D, ChannelOrder::Luminance, ChannelType::SnormInt16, 2, 13);
  // OpenCL C 3.0 §6.15.15.5 [[built-in-image-query-functions]]: the CLK_ values, which equal cl.h's CL_ values.
  const int expected[28] = {5, 3, 5, 3, 0x10D2, 0x10B5, 2,  3,      4,      2,  3,      4,      0,      6,
                            2, 7, 6, 2, 9,      5,      11, 0x10B6, 0x10D2, 13, 0x10B9, 0x10D1, 0x10C1, 0x10D2};
  for (const auto& v : kVariants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    Buffer<int32_t> o(28);
    const auto r = run(compile(src, v), "q", {a.arg(), b.arg(), c.arg(), d.arg(), e.arg(), f.arg(), o.arg()});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    for (int k = 0; k < 28; ++k) {
      INFO("o[" << k << "]");
      CHECK(o.data[k] == expected[k]);
    }
  }
}

TEST_CASE("every image type: sampler-less int reads and sampled float reads address the right element", "[image]") {
  const char* src = R"CL(
__constant sampler_t programScope = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
kernel void types(read_only image1d_t i1, read_only image1d_buffer_t ib, read_only image1d_array_t i1a,
                  read_only image2d_array_t i2a, read_only image3d_t i3, sampler_t s, global uint4* o) {
  o[10] = read_imageui(i3, programScope, (float4)(1.5f / 3, 1.5f / 2, 2.5f / 3 + 1, 0.0f));
  o[0] = read_imageui(i1, 2);
  o[1] = read_imageui(ib, 3);
  o[2] = read_imageui(i1a, (int2)(1, 2));
  o[3] = read_imageui(i2a, (int4)(1, 2, 1, 0));
  o[4] = read_imageui(i3, (int4)(1, 0, 2, 0));
  o[5] = read_imageui(i1, s, 2.5f);
  o[6] = read_imageui(i1a, s, (float2)(1.5f, 2.0f));
  o[7] = read_imageui(i2a, s, (float4)(1.5f, 2.5f, 1.0f, 0.0f));
  o[8] = read_imageui(i3, s, (float4)(1.5f, 0.5f, 2.5f, 0.0f));
  o[9] = read_imageui(i2a, s, (int4)(2, 0, 0, 0));
}
)CL";
  // R CL_UNSIGNED_INT32, element (x, y, z) = x + 10y + 100z (y: the layer of a 1D array, z of a 2D array).
  TestImage i1(ImageType::Image1D, ChannelOrder::R, ChannelType::UnsignedInt32, 4, 4);
  TestImage ib(ImageType::Image1DBuffer, ChannelOrder::R, ChannelType::UnsignedInt32, 4, 5);
  TestImage i1a(ImageType::Image1DArray, ChannelOrder::R, ChannelType::UnsignedInt32, 4, 3, 1, 1, 3);
  TestImage i2a(ImageType::Image2DArray, ChannelOrder::R, ChannelType::UnsignedInt32, 4, 3, 3, 1, 2);
  TestImage i3(ImageType::Image3D, ChannelOrder::R, ChannelType::UnsignedInt32, 4, 3, 2, 3);
  auto fill = [](TestImage& t, uint64_t w, uint64_t h, uint64_t d) {
    for (uint64_t z = 0; z < d; ++z)
      for (uint64_t y = 0; y < h; ++y)
        for (uint64_t x = 0; x < w; ++x) {
          const uint32_t val = uint32_t(x + 10 * y + 100 * z);
          std::memcpy(t.at(x, y, z), &val, 4);
        }
  };
  fill(i1, 4, 1, 1);
  fill(ib, 5, 1, 1);
  fill(i1a, 3, 3, 1);
  fill(i2a, 3, 3, 2);
  fill(i3, 3, 2, 3);
  // o[10]: normalized (0.5, 0.75, 1.83) with CLK_ADDRESS_REPEAT: z wraps to 0.83 × 3 → element (1, 1, 2).
  const uint32_t expected[11] = {2, 3, 21, 121, 201, 2, 21, 121, 201, 2, 211};
  for (const auto& v : kVariants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    Buffer<uint32_t> o(44);
    const auto r = run(compile(src, v), "types",
                       {i1.arg(), ib.arg(), i1a.arg(), i2a.arg(), i3.arg(),
                        samplerArg(false, images::AddressingMode::ClampToEdge, images::FilterMode::Nearest), o.arg()});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    CHECK(r.warnings.empty());
    for (int k = 0; k < 11; ++k) {
      INFO("read " << k);
      CHECK(o.data[4 * k] == expected[k]);
      CHECK(o.data[4 * k + 1] == 0u);
      CHECK(o.data[4 * k + 3] == 1u);
    }
  }
}

TEST_CASE("mipmapped images: explicit lod and gradients select the level, writes with a lod", "[image]") {
  const char* src = R"CL(
#pragma OPENCL EXTENSION cl_khr_mipmap_image : enable
#pragma OPENCL EXTENSION cl_khr_mipmap_image_writes : enable
kernel void mip(read_only image2d_t img, sampler_t s, global float* o, global int* n) {
  o[0] = read_imagef(img, s, (float2)(0.5f, 0.5f), 0.0f).x;
  o[1] = read_imagef(img, s, (float2)(0.5f, 0.5f), 1.0f).x;
  o[2] = read_imagef(img, s, (float2)(0.5f, 0.5f), 2.0f).x;
  o[3] = read_imagef(img, s, (float2)(0.5f, 0.5f), (float2)(0.5f, 0.0f), (float2)(0.0f, 0.5f)).x;
  n[0] = get_image_num_mip_levels(img);
}
kernel void mipw(write_only image2d_t img, float4 c) {
  write_imagef(img, (int2)(1, 0), 1, c);
}
)CL";
  TestImage img(ImageType::Image2D, ChannelOrder::R, ChannelType::UnormInt8, 1, 4, 4, 1, 1, 3);
  // Level l holds 51(l+1) everywhere: it reads as (l+1)/5 wherever the coordinate falls.
  for (uint32_t l = 0; l < 3; ++l) {
    const auto lay = images::levelLayout(img.view.desc, l);
    std::memset(img.bytes.data() + lay.offset, 51 * (l + 1), lay.bytes);
  }
  interpreter::ArgBinding s = samplerArg(true, images::AddressingMode::ClampToEdge, images::FilterMode::Nearest);
  s.sampler.mipFilter = images::FilterMode::Nearest;
  const float c[4] = {0.6f, 0, 0, 1};
  for (const auto& v : kCL3Variants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    const auto words = compile(src, v);
    Buffer<float> o(4);
    Buffer<int32_t> n(1);
    const auto r = run(words, "mip", {img.arg(), s, o.arg(), n.arg()});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    CHECK(o.data[0] == 0.2f);
    CHECK(o.data[1] == 0.4f);
    CHECK(o.data[2] == 0.6f);
    // cl_khr_mipmap_image: lod = log2(max(|dP/dx|, |dP/dy|) in texels) = log2(0.5 × 4) = 1.
    CHECK(o.data[3] == 0.4f);
    CHECK(n.data[0] == 3);
    TestImage w(ImageType::Image2D, ChannelOrder::R, ChannelType::UnormInt8, 1, 4, 4, 1, 1, 3);
    const auto rw = run(words, "mipw", {w.arg(), value(c)});
    INFO(faultText(rw));
    REQUIRE(!rw.fault);
    const auto lay1 = images::levelLayout(w.view.desc, 1);
    for (size_t b = 0; b < w.bytes.size(); ++b) CHECK(int(w.bytes[b]) == (b == lay1.offset + 1 ? 153 : 0));
  }
}

TEST_CASE("depth images: scalar reads and writes", "[image]") {
  const char* src = R"CL(
#pragma OPENCL EXTENSION cl_khr_depth_images : enable
kernel void depth(read_only image2d_depth_t d, sampler_t s, global float* o, write_only image2d_depth_t w) {
  int x = get_global_id(0);
  o[2 * x] = read_imagef(d, (int2)(x, 0));
  o[2 * x + 1] = read_imagef(d, s, (float2)(x + 0.5f, 0.5f));
  write_imagef(w, (int2)(x, 0), o[2 * x] * 2.0f);
}
)CL";
  TestImage d(ImageType::Image2D, ChannelOrder::Depth, ChannelType::Float, 4, 2);
  const float vals[2] = {0.25f, 0.75f};
  std::memcpy(d.at(0), &vals[0], 4);
  std::memcpy(d.at(1), &vals[1], 4);
  for (const auto& v : kVariants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    TestImage w(ImageType::Image2D, ChannelOrder::Depth, ChannelType::Float, 4, 2);
    Buffer<float> o(4);
    const auto r = run(compile(src, v), "depth",
                       {d.arg(), samplerArg(false, images::AddressingMode::ClampToEdge, images::FilterMode::Nearest),
                        o.arg(), w.arg()},
                       {2, 1, 1});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    for (int x = 0; x < 2; ++x) {
      CHECK(o.data[2 * x] == vals[x]);
      CHECK(o.data[2 * x + 1] == vals[x]);
      float stored;
      std::memcpy(&stored, w.at(x), 4);
      CHECK(stored == 2 * vals[x]);
    }
  }
}

TEST_CASE("a read_write image read after a write without an image fence is warned about", "[image]") {
  const char* src = R"CL(
kernel void rw(read_write image2d_t img, global float4* o, int fence) {
  int2 c = (int2)((int)get_global_id(0), 0);
  float4 v = read_imagef(img, c);
  write_imagef(img, c, v + 0.25f);
  if (fence) atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  o[c.x] = read_imagef(img, c);
}
kernel void rwb(read_write image2d_t img, global float4* o) {
  int2 c = (int2)((int)get_global_id(0), 0);
  write_imagef(img, c, (float4)(1.0f));
  work_group_barrier(CLK_IMAGE_MEM_FENCE);
  o[c.x] = read_imagef(img, c);
}
)CL";
  for (const auto& v : kCL3Variants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    const auto words = compile(src, v);
    for (int fence : {0, 1}) {
      INFO("fence " << fence);
      TestImage img(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::Float, 16, 2);
      Buffer<float> o(8);
      const auto r = run(words, "rw", {img.arg(), o.arg(), value(int32_t(fence))}, {2, 1, 1});
      INFO(faultText(r));
      REQUIRE(!r.fault);
      for (float x : o.data) CHECK(x == 0.25f);
      if (fence) {
        CHECK(r.warnings.empty());
      } else {
        REQUIRE(!r.warnings.empty());
        CHECK_THAT(r.warnings[0].message, Contains("fence"));
        CHECK(r.warningCount == 2);
      }
    }
    TestImage img(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::Float, 16, 2);
    Buffer<float> o(8);
    const auto r = run(words, "rwb", {img.arg(), o.arg()}, {2, 1, 1});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    CHECK(r.warnings.empty());
    for (float x : o.data) CHECK(x == 1.0f);
    // Under the choice's fault option the read faults.
    const auto rf = run(words, "rw", {img.arg(), o.arg(), value(int32_t(0))}, {2, 1, 1},
                        faultOn(numerics::Choice::ImageReadAfterWriteWithoutFence));
    REQUIRE(rf.fault);
    CHECK_THAT(rf.fault->message, Contains("fence"));
  }
}

TEST_CASE("out-of-range image writes and sampler-less reads warn by default and fault under the choice", "[image]") {
  const char* src = R"CL(
kernel void oobw(write_only image2d_t img, int x) { write_imagef(img, (int2)(x, 0), (float4)(1.0f)); }
kernel void oobr(read_only image2d_t img, int x, global float4* o) { o[0] = read_imagef(img, (int2)(x, 0)); }
)CL";
  for (const auto& v : kVariants) {
    INFO(v.std << " " << v.opt << " SPIR-V " << v.spirv);
    const auto words = compile(src, v);
    TestImage img(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::UnormInt8, 4, 2);
    const auto r = run(words, "oobw", {img.arg(), value(int32_t(5))});
    INFO(faultText(r));
    REQUIRE(!r.fault);
    REQUIRE(r.warnings.size() == 1);
    CHECK_THAT(r.warnings[0].message, Contains("(5, 0)"));
    CHECK_THAT(r.warnings[0].instruction, Contains("OpImageWrite"));
    for (uint8_t b : img.bytes) CHECK(b == 0);
    // Four work-items of one work-group meet it at the same instruction: one warning, four counted.
    const auto r4 = run(words, "oobw", {img.arg(), value(int32_t(5))}, {4, 1, 1}, numerics::Choices(), {4, 1, 1});
    CHECK(r4.warnings.size() == 1);
    CHECK(r4.warningCount == 4);
    const auto rf =
        run(words, "oobw", {img.arg(), value(int32_t(5))}, {1, 1, 1}, faultOn(images::Undefined::WriteOutOfRange));
    REQUIRE(rf.fault);
    CHECK(rf.fault->kind == interpreter::FaultKind::OutOfBounds);
    CHECK_THAT(rf.fault->message, Contains("(5, 0)"));
    CHECK_THAT(rf.fault->instruction, Contains("OpImageWrite"));
    Buffer<float> o(4);
    const auto rr = run(words, "oobr", {img.arg(), value(int32_t(-1)), o.arg()});
    INFO(faultText(rr));
    REQUIRE(!rr.fault);
    REQUIRE(rr.warnings.size() == 1);
    CHECK_THAT(rr.warnings[0].message, Contains("(-1, 0)"));
    const auto rrf = run(words, "oobr", {img.arg(), value(int32_t(-1)), o.arg()}, {1, 1, 1},
                         faultOn(images::Undefined::SamplerlessOutOfRange));
    REQUIRE(rrf.fault);
    CHECK(rrf.fault->kind == interpreter::FaultKind::OutOfBounds);
    CHECK_THAT(rrf.fault->instruction, Contains("OpImageRead"));
  }
}

TEST_CASE("an image operand that is no image handle faults, never dereferenced", "[image]") {
  const char* text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability ImageBasic
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr
          %u = OpUndef %img
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr
          %l = OpLabel
          %q = OpImageQueryFormat %uint %u
               OpStore %out %q
               OpReturn
               OpFunctionEnd
)";
  const auto words = test::assembleText(text);
  for (auto undef : {numerics::UndefValueOption::Zero, numerics::UndefValueOption::Pattern}) {
    numerics::Choices choices;
    choices.set(numerics::Choice::UndefValue, uint8_t(undef));
    Buffer<uint32_t> out(1);
    const auto r = run(words, "k", {out.arg()}, {1, 1, 1}, choices);
    REQUIRE(r.fault);
    CHECK_THAT(r.fault->message, Contains("not an image"));
  }
}

TEST_CASE("image and sampler arguments are checked against the parameters", "[image]") {
  const char* src = R"CL(
kernel void k(read_only image2d_t img, sampler_t s, global float4* o) { o[0] = read_imagef(img, s, (int2)(0, 0)); }
)CL";
  const auto words = compile(src, kVariants[1]);
  Buffer<float> o(4);
  const auto smp = samplerArg(false, images::AddressingMode::ClampToEdge, images::FilterMode::Nearest);
  interpreter::ArgBinding none;
  CHECK_THROWS_AS(run(words, "k", {none, smp, o.arg()}), std::invalid_argument);
  TestImage img3d(ImageType::Image3D, ChannelOrder::RGBA, ChannelType::UnormInt8, 4, 2, 2, 2);
  CHECK_THROWS_WITH(run(words, "k", {img3d.arg(), smp, o.arg()}), Contains("CL_MEM_OBJECT_IMAGE3D"));
  TestImage depth(ImageType::Image2D, ChannelOrder::Depth, ChannelType::Float, 4, 2, 2);
  CHECK_THROWS_AS(run(words, "k", {depth.arg(), smp, o.arg()}), std::invalid_argument);
  TestImage ok(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::UnormInt8, 4, 2, 2);
  images::ImageView shortView = ok.view;
  shortView.bytes = 3;
  interpreter::ArgBinding shortArg;
  shortArg.image = &shortView;
  CHECK_THROWS_AS(run(words, "k", {shortArg, smp, o.arg()}), std::invalid_argument);
  auto badSampler = smp;
  badSampler.sampler.addressing = images::AddressingMode(7);
  CHECK_THROWS_AS(run(words, "k", {ok.arg(), badSampler, o.arg()}), std::invalid_argument);
  CHECK_NOTHROW(run(words, "k", {ok.arg(), smp, o.arg()}));
}

TEST_CASE("OpImage takes the image back out of an OpSampledImage", "[image]") {
  const char* text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability ImageBasic
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
        %smp = OpTypeSampler
         %si = OpTypeSampledImage %img
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %img %smp %ptr
          %k = OpFunction %void None %fn
          %i = OpFunctionParameter %img
          %s = OpFunctionParameter %smp
        %out = OpFunctionParameter %ptr
          %l = OpLabel
         %sv = OpSampledImage %si %i %s
         %iv = OpImage %img %sv
          %q = OpImageQueryOrder %uint %iv
               OpStore %out %q
               OpReturn
               OpFunctionEnd
)";
  TestImage img(ImageType::Image2D, ChannelOrder::BGRA, ChannelType::UnormInt8, 4, 2, 2);
  Buffer<uint32_t> out(1);
  const auto r =
      run(test::assembleText(text), "k",
          {img.arg(), samplerArg(true, images::AddressingMode::Clamp, images::FilterMode::Nearest), out.arg()});
  INFO(faultText(r));
  REQUIRE(!r.fault);
  // OpenCL SPIR-V Environment §2.6 [[_image_channel_order_mapping]]: BGRA is 6.
  CHECK(out.data[0] == 6u);
}

TEST_CASE("a read of a write_only image or a write to a read_only image is refused", "[image]") {
  auto module = [](const char* access, const char* body) {
    return std::string(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability ImageBasic
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
       %uint = OpTypeInt 32 0
     %v2uint = OpTypeVector %uint 2
        %img = OpTypeImage %void 2D 0 0 0 0 Unknown )") +
           access + R"(
        %ptr = OpTypePointer CrossWorkgroup %v4float
         %fn = OpTypeFunction %void %img %ptr
          %c = OpConstantNull %v2uint
          %k = OpFunction %void None %fn
          %i = OpFunctionParameter %img
        %out = OpFunctionParameter %ptr
          %l = OpLabel
)" + body + R"(
               OpReturn
               OpFunctionEnd
)";
  };
  auto lower = [](const std::string& text) {
    const auto m = interpreter::Module::load(test::assembleText(text));
    (void)interpreter::lowerKernel(m, "k", {});
  };
  CHECK_THROWS_AS(lower(module("WriteOnly", "%v = OpImageRead %v4float %i %c\nOpStore %out %v")),
                  interpreter::ModuleError);
  CHECK_THROWS_AS(lower(module("ReadOnly", "%v = OpLoad %v4float %out\nOpImageWrite %i %c %v")),
                  interpreter::ModuleError);
  CHECK_NOTHROW(lower(module("ReadWrite", "%v = OpImageRead %v4float %i %c\nOpImageWrite %i %c %v")));
}

TEST_CASE("OpImageRead with a Lod reads that mip level (cl_khr_mipmap_image)", "[image]") {
  // OpenCL SPIR-V Environment §5 [[opencl_extensions]]: with cl_khr_mipmap_image a non-zero Lod is accepted on
  // OpImageRead; OpenCL C 3.0 has no sampler-less read with a lod, so the module is written by hand.
  const char* text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability ImageBasic
               OpCapability ImageMipmap
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
       %uint = OpTypeInt 32 0
     %v2uint = OpTypeVector %uint 2
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
        %img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
        %ptr = OpTypePointer CrossWorkgroup %v4float
         %fn = OpTypeFunction %void %img %ptr
          %c = OpConstantNull %v2uint
          %k = OpFunction %void None %fn
          %i = OpFunctionParameter %img
        %out = OpFunctionParameter %ptr
          %l = OpLabel
         %v1 = OpImageRead %v4float %i %c Lod %uint_1
               OpStore %out %v1
         %v2 = OpImageRead %v4float %i %c Lod %uint_2
         %o2 = OpInBoundsPtrAccessChain %ptr %out %uint_1
               OpStore %o2 %v2
               OpReturn
               OpFunctionEnd
)";
  TestImage img(ImageType::Image2D, ChannelOrder::R, ChannelType::UnormInt8, 1, 4, 4, 1, 1, 3);
  for (uint32_t l = 0; l < 3; ++l) {
    const auto lay = images::levelLayout(img.view.desc, l);
    std::memset(img.bytes.data() + lay.offset, 51 * (l + 1), lay.bytes);
  }
  Buffer<float> out(8);
  const auto r = run(test::assembleText(text), "k", {img.arg(), out.arg()});
  INFO(faultText(r));
  REQUIRE(!r.fault);
  CHECK(out.data[0] == 0.4f);
  CHECK(out.data[4] == 0.6f);
}

TEST_CASE("OpImageQuerySizeLod past the image's levels warns (found by fuzzing: the query had no verb)", "[image]") {
  // cl_khr_mipmap_image: a level past the image's mip levels is undefined (choice image_mip_level_out_of_range). The
  // query's warning used to read the verb of an image read from an Op that has none (a null dereference).
  const char* text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability ImageBasic
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %v2uint = OpTypeVector %uint 2
     %uint_5 = OpConstant %uint 5
        %img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
        %ptr = OpTypePointer CrossWorkgroup %v2uint
         %fn = OpTypeFunction %void %img %ptr
          %k = OpFunction %void None %fn
          %i = OpFunctionParameter %img
        %out = OpFunctionParameter %ptr
          %l = OpLabel
          %s = OpImageQuerySizeLod %v2uint %i %uint_5
               OpStore %out %s
               OpReturn
               OpFunctionEnd
)";
  TestImage img(ImageType::Image2D, ChannelOrder::R, ChannelType::UnormInt8, 1, 8, 4, 1, 1, 1);
  Buffer<uint32_t> out(2);
  const auto r = run(test::assembleText(text), "k", {img.arg(), out.arg()});
  INFO(faultText(r));
  REQUIRE(!r.fault);
  REQUIRE(r.warnings.size() == 1);
  CHECK_THAT(r.warnings[0].message, Catch::Matchers::Contains("query of image argument"));
  CHECK_THAT(r.warnings[0].message, Catch::Matchers::Contains("mip level 5"));
  // The defined value: the halving rule's sizes, at least 1 (8 × 4 at level 5 is 1 × 1).
  CHECK(out.data[0] == 1);
  CHECK(out.data[1] == 1);
}

TEST_CASE("an image fault names the work-item, the instruction and the source line", "[image]") {
  const std::string src = R"CL(
kernel void oob(write_only image2d_t img) {
  int x = get_global_id(0);
  write_imagef(img, (int2)(x, 0), (float4)(1.0f));  // the faulting line
}
)CL";
  unsigned line = 0;
  {
    std::istringstream in(src);
    std::string l;
    for (unsigned n = 1; std::getline(in, l); ++n)
      if (l.find("the faulting line") != std::string::npos) line = n;
  }
  for (const char* opt : {"-O0", "-O2"}) {
    INFO(opt);
    const auto words = test::compileCL(src, std::string("-cl-std=CL1.2 -g ") + opt, "1.1", 64, "images.cl");
    TestImage img(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::UnormInt8, 4, 2, 1);
    const auto r = run(words, "oob", {img.arg()}, {4, 1, 1}, faultOn(images::Undefined::WriteOutOfRange));
    REQUIRE(r.fault);
    CHECK(r.fault->globalId == std::array<uint64_t, 3>{2, 0, 0});
    CHECK_THAT(r.fault->instruction, Contains("OpImageWrite"));
    CHECK_THAT(r.fault->source, Contains("images.cl:" + std::to_string(line)));
    CHECK_THAT(r.fault->message, Contains("(2, 0)"));
  }
}

TEST_CASE("image warnings do not depend on the thread count", "[image]") {
  const char* src = R"CL(
kernel void oob(write_only image2d_t img) {
  int x = get_global_id(0);
  write_imagef(img, (int2)(x, (int)get_global_id(1)), (float4)(0.5f));
}
)CL";
  const auto words = compile(src, kVariants[1]);
  auto warningsWith = [&](unsigned threads) {
    TestImage img(ImageType::Image2D, ChannelOrder::RGBA, ChannelType::UnormInt8, 4, 3, 3);
    const auto r = run(words, "oob", {img.arg()}, {6, 6, 1}, numerics::Choices(), {2, 2, 1}, 64, threads);
    REQUIRE(!r.fault);
    std::vector<std::string> text;
    for (const auto& w : r.warnings) text.push_back(w.format());
    return std::make_pair(text, r.warningCount);
  };
  const auto one = warningsWith(1);
  // 36 work-items, 27 of them outside the 3x3 image; one warning per work-group that meets it (8 of 9 groups).
  CHECK(one.second == 27);
  CHECK(one.first.size() == 8);
  for (unsigned threads : {2u, 3u}) CHECK(warningsWith(threads) == one);
}

TEST_CASE("image_coordinate_precision switches a kernel's normalized read between exact and binary32", "[image]") {
  // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: u = s · w_t; for s = 0x1.aaaaaap-1 on a width-6 image the exact
  // product is below 5 (texel 4), the binary32 one rounds to 5.0 (texel 5).
  const char* src = R"CL(
kernel void rd(read_only image1d_t img, sampler_t s, global uint* out) {
  out[0] = read_imageui(img, s, 0x1.aaaaaap-1f).x;
}
)CL";
  TestImage img(ImageType::Image1D, ChannelOrder::R, ChannelType::UnsignedInt8, 1, 6);
  for (int x = 0; x < 6; ++x) img.at(x)[0] = uint8_t(10 + x);
  const float s = 0x1.aaaaaap-1f;
  const uint32_t exactTexel = uint32_t((int64_t(0xD55555) * 6) >> 24);  // floor(6 · 0xD55555 / 2^24)
  const uint32_t binary32Texel = uint32_t(std::floor(s * 6.0f));
  REQUIRE(exactTexel == 4);
  REQUIRE(binary32Texel == 5);
  const auto smp = samplerArg(true, images::AddressingMode::ClampToEdge, images::FilterMode::Nearest);
  const auto words = compile(src, kVariants[0]);
  for (const char* option : {"exact", "binary32"}) {
    INFO(option);
    numerics::Choices choices;
    choices.set(std::string("image_coordinate_precision=") + option);
    Buffer<uint32_t> out(1);
    const auto r = run(words, "rd", {img.arg(), smp, out.arg()}, {1, 1, 1}, choices);
    INFO(faultText(r));
    REQUIRE(!r.fault);
    CHECK(r.warnings.empty());
    CHECK(out.data[0] == 10 + (option == std::string("exact") ? exactTexel : binary32Texel));
  }
}
