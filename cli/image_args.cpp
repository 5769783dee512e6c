// Image and sampler arguments of a case file (golden/README.md "Image arguments", "Sampler arguments"). Every error
// names the field ("args[1].image.row_pitch"); the sizes are checked so no later product wraps.
#include "cli/image_args.hpp"

#include <bit>
#include <limits>
#include <string_view>

#include "cli/buffer_init.hpp"
#include "cli/value_syntax.hpp"

namespace clref::cli {

namespace {

using nlohmann::json;
using images::ImageType;

struct TypeInfo {
  std::string_view name;
  ImageType type;
  bool depth;  // image2d_depth_t / image2d_array_depth_t: the format's order is CL_DEPTH
};
constexpr TypeInfo kTypes[] = {
    {"image1d", ImageType::Image1D, false},
    {"image1d_buffer", ImageType::Image1DBuffer, false},
    {"image1d_array", ImageType::Image1DArray, false},
    {"image2d", ImageType::Image2D, false},
    {"image2d_array", ImageType::Image2DArray, false},
    {"image3d", ImageType::Image3D, false},
    {"image2d_depth", ImageType::Image2D, true},
    {"image2d_array_depth", ImageType::Image2DArray, true},
};

bool hasHeight(ImageType t) {
  return t == ImageType::Image2D || t == ImageType::Image2DArray || t == ImageType::Image3D;
}
bool hasLayers(ImageType t) { return t == ImageType::Image1DArray || t == ImageType::Image2DArray; }

}  // namespace

std::string_view imageTypeName(ImageType type) {
  for (const auto& t : kTypes)
    if (t.type == type && !t.depth) return t.name;
  return "image";
}

std::array<size_t, 3> imageLevelRegion(const images::ImageDesc& d, uint32_t level) {
  // The level's sizes by images::levelSize (cl_khr_mipmap_image: each level half the previous one, rounded down, never
  // below 1; the layers of an array are not halved), in a region's (x, y, z) order with the layer last.
  const images::LevelSize s = images::levelSize(d, level);
  return {size_t(s.width), size_t(s.height), size_t(s.depth)};
}

size_t imageElementCount(const images::ImageDesc& d) {
  size_t count = 0;
  for (uint32_t level = 0; level < d.numMipLevels; ++level) {
    const auto r = imageLevelRegion(d, level);
    count += r[0] * r[1] * r[2];  // imageField bounds the sizes so this cannot wrap
  }
  return count;
}

size_t imageContentBytes(const images::ImageDesc& d) { return imageElementCount(d) * images::elementSize(d.format); }

namespace detail {

ChannelLayout channelLayout(images::ImageFormat f) {
  using images::ChannelType;
  ChannelLayout l;
  // OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: the packed formats hold R, G, B (and A) in one unsigned short
  // or unsigned int, the first channel in the most significant bits.
  const auto packed = [&l](ScalarType word, std::array<unsigned, 4> bits, std::array<unsigned, 4> shift, unsigned n) {
    l.type = word;
    l.packed = true;
    l.count = n;
    l.bits = bits;
    l.shift = shift;
  };
  switch (f.type) {
    case ChannelType::UnormShort565: packed(ScalarType::UShort, {5, 6, 5, 0}, {11, 5, 0, 0}, 3); return l;
    case ChannelType::UnormShort555: packed(ScalarType::UShort, {5, 5, 5, 0}, {10, 5, 0, 0}, 3); return l;
    case ChannelType::UnormInt101010: packed(ScalarType::UInt, {10, 10, 10, 0}, {20, 10, 0, 0}, 3); return l;
    case ChannelType::UnormInt101010_2: packed(ScalarType::UInt, {10, 10, 10, 2}, {22, 12, 2, 0}, 4); return l;
    case ChannelType::SnormInt8:
    case ChannelType::SignedInt8: l.type = ScalarType::Char; break;
    case ChannelType::UnormInt8:
    case ChannelType::UnsignedInt8: l.type = ScalarType::UChar; break;
    case ChannelType::SnormInt16:
    case ChannelType::SignedInt16: l.type = ScalarType::Short; break;
    case ChannelType::UnormInt16:
    case ChannelType::UnsignedInt16: l.type = ScalarType::UShort; break;
    case ChannelType::SignedInt32: l.type = ScalarType::Int; break;
    case ChannelType::UnsignedInt32:
    case ChannelType::UnormInt24: l.type = ScalarType::UInt; break;
    case ChannelType::HalfFloat: l.type = ScalarType::Half; break;
    case ChannelType::Float: l.type = ScalarType::Float; break;
  }
  // The channels an element stores (the padding channel of CL_Rx, CL_RGx, CL_RGBx included when the format stores
  // it): the element's size over the channel's.
  l.count = unsigned(images::elementSize(f) / sizeOf(l.type));
  const unsigned width = f.type == ChannelType::UnormInt24 ? 24 : unsigned(8 * sizeOf(l.type));
  l.bits = {width, width, width, width};
  return l;
}

namespace {

uint64_t sizeField(const json& spec, std::string_view key, const std::string& path) {
  const auto p = member(path, key);
  const json& v = required(spec, key, path);
  if (!v.is_number_unsigned() || v.get<uint64_t>() == 0) fail(p, "expected a positive integer");
  return v.get<uint64_t>();
}

images::ImageFormat formatField(const json& spec, const std::string& path) {
  const bool combined = spec.contains("format");
  const bool separate = spec.contains("order") || spec.contains("channel_type");
  if (combined && separate) fail(member(path, "format"), "give either format or order and channel_type, not both");
  if (!combined && !separate) fail(member(path, "format"), "missing (e.g. \"CL_RGBA/CL_UNORM_INT8\")");
  std::string orderName, typeName, orderPath, typePath;
  if (combined) {
    orderPath = typePath = member(path, "format");
    const json& v = spec["format"];
    if (!v.is_string()) fail(orderPath, "expected a string \"ORDER/TYPE\" such as \"CL_RGBA/CL_UNORM_INT8\"");
    const auto text = v.get<std::string>();
    const auto slash = text.find('/');
    if (slash == std::string::npos)
      fail(orderPath, shortText(text) + " is not \"ORDER/TYPE\" (e.g. \"CL_RGBA/CL_UNORM_INT8\")");
    orderName = text.substr(0, slash);
    typeName = text.substr(slash + 1);
  } else {
    orderPath = member(path, "order");
    typePath = member(path, "channel_type");
    const json& o = required(spec, "order", path);
    const json& t = required(spec, "channel_type", path);
    if (!o.is_string()) fail(orderPath, "expected a channel order name such as \"CL_RGBA\"");
    if (!t.is_string()) fail(typePath, "expected a channel data type name such as \"CL_UNORM_INT8\"");
    orderName = o.get<std::string>();
    typeName = t.get<std::string>();
  }
  const auto order = images::channelOrderNamed(orderName);
  if (!order) fail(orderPath, "unknown channel order " + shortText(orderName) + " (the spec's names: CL_RGBA, CL_R, ...)");
  const auto type = images::channelTypeNamed(typeName);
  if (!type)
    fail(typePath, "unknown channel data type " + shortText(typeName) + " (the spec's names: CL_UNORM_INT8, ...)");
  const images::ImageFormat f{*order, *type};
  // OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: the pairs the spec allows.
  if (!images::isValidFormat(f))
    fail(combined ? orderPath : typePath, std::string(images::nameOf(*order)) + " with " +
                                              std::string(images::nameOf(*type)) +
                                              " is not an image format the spec allows");
  return f;
}

// A pitch the case gives: at least `least` bytes and a multiple of the element size (OpenCL 3.0 API §5.3.1.2
// [[image-descriptor]]).
uint64_t pitchField(const json& spec, std::string_view key, const std::string& path, uint64_t least, uint64_t multiple,
                    const std::string& what) {
  const auto p = member(path, key);
  const json& v = spec[std::string(key)];
  if (!v.is_number_unsigned()) fail(p, "expected a non-negative integer (0: tightly packed)");
  const uint64_t pitch = v.get<uint64_t>();
  if (pitch == 0) return 0;
  if (pitch > (uint64_t(1) << 40)) fail(p, "beyond 2^40 bytes");
  if (pitch < least) fail(p, std::to_string(pitch) + " is less than " + what + ", " + std::to_string(least) + " bytes");
  if (pitch % multiple != 0)
    fail(p, std::to_string(pitch) + " is not a multiple of " + std::to_string(multiple) + " bytes (" +
                (key == "row_pitch" ? "the element size" : "the row pitch") + ")");
  return pitch;
}

}  // namespace

ImageSpec imageField(const json& spec, const std::string& path) {
  onlyKeys(spec, path,
           {"type", "format", "order", "channel_type", "width", "height", "depth", "array_size", "row_pitch",
            "slice_pitch", "mip_levels", "init", "output"});
  ImageSpec image;
  auto& d = image.desc;

  const auto typePath = member(path, "type");
  const json& typeJson = required(spec, "type", path);
  if (!typeJson.is_string()) fail(typePath, "expected an image type name such as \"image2d\"");
  const TypeInfo* info = nullptr;
  for (const auto& t : kTypes)
    if (t.name == typeJson.get_ref<const std::string&>()) info = &t;
  if (!info)
    fail(typePath, "unknown image type " + shortText(typeJson.get<std::string>()) +
                       " (expected image1d, image1d_buffer, image1d_array, image2d, image2d_array, image3d, "
                       "image2d_depth or image2d_array_depth)");
  d.type = info->type;
  d.format = formatField(spec, path);
  if (info->depth && d.format.order != images::ChannelOrder::Depth)
    fail(member(path, spec.contains("format") ? "format" : "order"),
         std::string(info->name) + " takes a CL_DEPTH image (cl_khr_depth_images)");
  if (!info->depth && d.format.order == images::ChannelOrder::Depth &&
      d.type != ImageType::Image2D && d.type != ImageType::Image2DArray)
    fail(member(path, spec.contains("format") ? "format" : "order"),
         "CL_DEPTH images are 2D images or 2D image arrays (cl_khr_depth_images)");

  // Sizes the type does not use are refused rather than ignored: "height" on an image1d is a mistake.
  const auto unused = [&](std::string_view key, bool used) {
    if (!used && spec.contains(key)) fail(member(path, key), std::string(info->name) + " has no " + std::string(key));
  };
  unused("height", hasHeight(d.type));
  unused("depth", d.type == ImageType::Image3D);
  unused("array_size", hasLayers(d.type));
  unused("row_pitch", hasHeight(d.type));
  unused("slice_pitch", d.type == ImageType::Image3D || hasLayers(d.type));
  unused("mip_levels", d.type != ImageType::Image1DBuffer);

  d.width = sizeField(spec, "width", path);
  if (hasHeight(d.type)) d.height = sizeField(spec, "height", path);
  if (d.type == ImageType::Image3D) d.depth = sizeField(spec, "depth", path);
  if (hasLayers(d.type)) d.arraySize = sizeField(spec, "array_size", path);
  // No product of the sizes (elements, bytes) may wrap: the device's allocation limit is checked by runCase, here
  // only that the numbers are sizes at all. 2^40 bytes is far beyond any device's CL_DEVICE_MAX_MEM_ALLOC_SIZE, and
  // products of numbers below 2^40 are exact in 128 bits.
  const uint64_t elementBytes = images::elementSize(d.format);
  constexpr uint64_t kLimit = uint64_t(1) << 40;
  using Wide = unsigned __int128;
  const auto tooBig = [&](uint64_t row, uint64_t slice, const std::string& field) {
    for (uint64_t n : {d.width, d.height, d.depth, d.arraySize, row, slice})
      if (n > kLimit) fail(field, "the image's size is beyond 2^40 bytes");
    const Wide rows = Wide(d.depth) * d.arraySize * d.height;
    const Wide bytes = std::max({Wide(d.width) * elementBytes * rows, Wide(row) * rows,
                                 Wide(slice) * d.depth * d.arraySize});
    if (bytes > kLimit) fail(field, "the image's size is beyond 2^40 bytes");
  };
  tooBig(0, 0, path);

  if (spec.contains("mip_levels")) {
    const auto p = member(path, "mip_levels");
    const json& v = spec["mip_levels"];
    if (!v.is_number_unsigned() || v.get<uint64_t>() == 0) fail(p, "expected a positive integer");
    // cl_khr_mipmap_image: levels halve down to 1 x 1 x 1, so there are at most log2(largest size) + 1.
    uint64_t largest = d.width;
    if (hasHeight(d.type)) largest = std::max(largest, d.height);
    if (d.type == ImageType::Image3D) largest = std::max(largest, d.depth);
    const uint64_t most = uint64_t(std::bit_width(largest));
    if (v.get<uint64_t>() > most)
      fail(p, std::to_string(v.get<uint64_t>()) + " levels, but a " + std::to_string(largest) + "-wide image has at most " +
                  std::to_string(most) + " (cl_khr_mipmap_image)");
    d.numMipLevels = uint32_t(v.get<uint64_t>());
  }
  const bool pitched = spec.contains("row_pitch") || spec.contains("slice_pitch");
  if (pitched && d.numMipLevels > 1)
    fail(member(path, spec.contains("row_pitch") ? "row_pitch" : "slice_pitch"),
         "a mipmapped image takes no pitches (cl_khr_mipmap_image: it has no host_ptr)");
  if (spec.contains("row_pitch"))
    d.rowPitch = pitchField(spec, "row_pitch", path, d.width * elementBytes, elementBytes, "width x element size");
  if (spec.contains("slice_pitch")) {
    const uint64_t row = d.rowPitch ? d.rowPitch : d.width * elementBytes;
    // OpenCL 3.0 API §5.3.1.2 [[image-descriptor]]: a 1D array's slice pitch is at least the row pitch (one row per
    // layer); a 3D image's or 2D array's at least row pitch x height.
    const Wide least = d.type == ImageType::Image1DArray ? Wide(row) : Wide(row) * d.height;
    if (least > kLimit) fail(member(path, "row_pitch"), "the image's size is beyond 2^40 bytes");
    d.slicePitch = pitchField(spec, "slice_pitch", path, uint64_t(least), row,
                              d.type == ImageType::Image1DArray ? "the row pitch" : "row pitch x height");
  }
  tooBig(d.rowPitch, d.slicePitch, member(path, spec.contains("slice_pitch") ? "slice_pitch" : "row_pitch"));

  if (spec.contains("output")) {
    if (!spec["output"].is_boolean()) fail(member(path, "output"), "expected true or false");
    image.output = spec["output"].get<bool>();
  }
  if (spec.contains("init")) {
    const json& init = spec["init"];
    const auto p = member(path, "init");
    const ChannelLayout layout = channelLayout(d.format);
    // A file holds raw elements; every other init describes channel values.
    const bool file = init.is_object() && init.size() == 1 && init.contains("file");
    if (!file) applyInit(layout.type, imageElementCount(d) * layout.count, init, p, {}, nullptr);  // check only
    image.initJson = init.dump();
  }
  return image;
}

host::Sampler samplerField(const json& spec, const std::string& path) {
  onlyKeys(spec, path, {"normalized", "addressing", "filter", "mip_filter", "lod_min", "lod_max"});
  host::Sampler s;
  // OpenCL C 3.0 §6.15.15.1 [[samplers]]: the three fields of a sampler, each named as OpenCL C names its values.
  const json& normalized = required(spec, "normalized", path);
  if (!normalized.is_boolean()) fail(member(path, "normalized"), "expected true or false");
  s.normalizedCoords = normalized.get<bool>();

  const auto named = [&](std::string_view key, const auto& table, std::string_view expected) {
    const auto p = member(path, key);
    const json& v = required(spec, key, path);
    if (!v.is_string()) fail(p, "expected one of " + std::string(expected));
    for (const auto& [name, value] : table)
      if (v.get_ref<const std::string&>() == name) return value;
    fail(p, "unknown value " + shortText(v.get<std::string>()) + " (expected one of " + std::string(expected) + ")");
  };
  using images::AddressingMode;
  using images::FilterMode;
  const std::pair<std::string_view, AddressingMode> addressing[] = {
      {"CLK_ADDRESS_NONE", AddressingMode::None},
      {"CLK_ADDRESS_CLAMP_TO_EDGE", AddressingMode::ClampToEdge},
      {"CLK_ADDRESS_CLAMP", AddressingMode::Clamp},
      {"CLK_ADDRESS_REPEAT", AddressingMode::Repeat},
      {"CLK_ADDRESS_MIRRORED_REPEAT", AddressingMode::MirroredRepeat}};
  const std::pair<std::string_view, FilterMode> filters[] = {{"CLK_FILTER_NEAREST", FilterMode::Nearest},
                                                             {"CLK_FILTER_LINEAR", FilterMode::Linear}};
  constexpr std::string_view filterNames = "CLK_FILTER_NEAREST, CLK_FILTER_LINEAR";
  s.addressing = named("addressing", addressing,
                       "CLK_ADDRESS_NONE, CLK_ADDRESS_CLAMP_TO_EDGE, CLK_ADDRESS_CLAMP, CLK_ADDRESS_REPEAT, "
                       "CLK_ADDRESS_MIRRORED_REPEAT");
  s.filter = named("filter", filters, filterNames);
  // cl_khr_mipmap_image: CL_SAMPLER_MIP_FILTER_MODE, CL_SAMPLER_LOD_MIN and CL_SAMPLER_LOD_MAX of
  // clCreateSamplerWithProperties.
  if (spec.contains("mip_filter")) s.mipFilter = named("mip_filter", filters, filterNames);
  const auto lod = [&](std::string_view key, float& out) {
    if (!spec.contains(key)) return;
    const auto p = member(path, key);
    const json& v = spec[std::string(key)];
    if (!v.is_number()) fail(p, "expected a number");
    const double x = v.get<double>();
    if (!(x >= 0) || x > double(std::numeric_limits<float>::max()))
      fail(p, "expected a non-negative finite float (cl_khr_mipmap_image)");
    out = float(x);
    if (double(out) != x) fail(p, v.dump() + " is not a float value");
  };
  lod("lod_min", s.lodMin);
  lod("lod_max", s.lodMax);
  if (s.lodMin > s.lodMax) fail(member(path, "lod_min"), "above lod_max");
  return s;
}

}  // namespace detail

}  // namespace clref::cli
