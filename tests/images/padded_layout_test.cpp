// The two layouts of the padded orders (images::PaddedLayout, the choice image_padded_channel_layout): validity,
// element size, decode, encode and a write into an image, with the expected bytes and values worked out here from
// OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]] (Api30: CL_Rx two stored channels, CL_RGBx four) and OpenCL 1.2
// API §5.3.1.1 "Image Format Descriptor" (Api12: CL_Rx as CL_R, CL_RGx as CL_RG, CL_RGBx only packed), and the
// missing-channel defaults of OpenCL C 3.0 §6.15.15.7
// [[mapping-image-channels-to-color-values-returned-by-read_image-and-color-values-passed-to-write_image-to-image-channels]].
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <vector>

#include "images/image.hpp"
#include "images/sampler.hpp"
#include "images/texel.hpp"

using namespace clref::images;

namespace {
using O = ChannelOrder;
using T = ChannelType;
constexpr PaddedLayout k12 = PaddedLayout::Api12;
ImageFormat f12(O o, T t) { return withLayout({o, t}, k12); }
}  // namespace

TEST_CASE("padded layouts: which formats are valid and their element sizes", "[images][padded]") {
  // 3.0: CL_Rx two channels, CL_RGx three (no type gives a power of two), CL_RGBx four of any type.
  CHECK(elementSize({O::Rx, T::UnsignedInt16}) == 4);
  CHECK_FALSE(isValidFormat({O::RGx, T::UnsignedInt8}));
  CHECK(elementSize({O::RGBx, T::UnsignedInt8}) == 4);
  // 1.2: CL_Rx as CL_R, CL_RGx as CL_RG, CL_RGBx packed only.
  CHECK(elementSize(f12(O::Rx, T::UnsignedInt16)) == 2);
  CHECK(elementSize(f12(O::Rx, T::Float)) == 4);
  CHECK(elementSize(f12(O::RGx, T::UnsignedInt8)) == 2);
  CHECK(elementSize(f12(O::RGx, T::Float)) == 8);
  CHECK_FALSE(isValidFormat(f12(O::RGBx, T::UnsignedInt8)));
  CHECK_FALSE(isValidFormat(f12(O::RGx, T::UnormShort565)));
  CHECK(elementSize(f12(O::RGBx, T::UnormShort565)) == 2);
  // The layout touches only the padded orders.
  CHECK(withLayout({O::RGBA, T::UnormInt8}, k12) == ImageFormat{O::RGBA, T::UnormInt8});
  // Every format the 1.2 list holds: the padded ones in the 1.2 layout; CL_RGx with each of CL_RG's 12 types.
  const auto list = allFormats(k12);
  CHECK(std::count_if(list.begin(), list.end(), [](ImageFormat f) { return f.order == O::RGx; }) == 12);
  CHECK(std::count_if(list.begin(), list.end(), [](ImageFormat f) { return f.order == O::RGBx; }) == 3);
  for (const ImageFormat f : list) CHECK(f.padded == (isPadded(f.order) ? k12 : PaddedLayout::Api30));
}

TEST_CASE("padded layouts: decode and encode of CL_Rx and CL_RGx in the 1.2 layout", "[images][padded]") {
  const uint8_t rx[2] = {0x34, 0x12};
  CHECK(decode(f12(O::Rx, T::UnsignedInt16), rx, ColorKind::Uint).lanes == std::array<uint32_t, 4>{0x1234, 0, 0, 1});
  // 3.0: the same two bytes are the red channel; two more follow (ignored).
  const uint8_t rx30[4] = {0x34, 0x12, 0xee, 0xee};
  CHECK(decode({O::Rx, T::UnsignedInt16}, rx30, ColorKind::Uint).lanes == std::array<uint32_t, 4>{0x1234, 0, 0, 1});
  const uint8_t rgx[2] = {51, 255};
  // 51 / 255 = 0.2 exactly, rounded once to float: 0.2f; 255 / 255 = 1.
  CHECK(decode(f12(O::RGx, T::UnormInt8), rgx, ColorKind::Float) == floatColor(0.2f, 1.0f, 0.0f, 1.0f));
  uint8_t out[2] = {0xaa, 0xaa};
  encode(f12(O::Rx, T::UnormInt8), floatColor(0.5f, 1, 1, 1), ColorKind::Float, out);
  CHECK(out[0] == 128);   // 127.5 rounds to even
  CHECK(out[1] == 0xaa);  // one byte: the next is not touched
  encode(f12(O::RGx, T::SignedInt8), Color{{uint32_t(-5), 300, 7, 9}}, ColorKind::Int, out);
  CHECK(out[0] == uint8_t(-5));
  CHECK(out[1] == 127);  // convert_char_sat(300)
}

TEST_CASE("padded layouts: a write into a CL_Rx image of the 1.2 layout stores one channel per element",
          "[images][padded]") {
  ImageDesc d;
  d.type = ImageType::Image1D;
  d.format = f12(O::Rx, T::UnsignedInt8);
  d.width = 4;
  d = makeDesc(d);
  CHECK(d.rowPitch == 4);
  std::vector<uint8_t> bytes(storageBytes(d), 0);
  CHECK(bytes.size() == 4);
  ImageView v;
  v.desc = d;
  v.data = bytes.data();
  v.bytes = bytes.size();
  for (int32_t x = 0; x < 4; ++x)
    CHECK(write(v, {x, 0, 0}, Color{{uint32_t(10 * x + 1), 99, 99, 99}}, ColorKind::Uint) == Undefined::None);
  CHECK(bytes == std::vector<uint8_t>{1, 11, 21, 31});
  CHECK(readSamplerless(v, {2, 0, 0}, ColorKind::Uint).value.lanes == std::array<uint32_t, 4>{21, 0, 0, 1});
}
