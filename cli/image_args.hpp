// Image and sampler arguments of a case file (golden/README.md "Image arguments", "Sampler arguments"): reading them,
// and the layout of an image's channels in the case file's values. Internal to cli/.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/case_file.hpp"

namespace clref::cli::detail {

// The "image" object at `path` (its init checked, not read). Throws FieldError.
ImageSpec imageField(const nlohmann::json& spec, const std::string& path);
// The "sampler" object at `path`. Throws FieldError.
host::Sampler samplerField(const nlohmann::json& spec, const std::string& path);

// How an element of a format holds its channels, in memory order. Unpacked formats: `count` channels of `type`, one
// after the other, each `bits` wide (24 for CL_UNORM_INT24, else the type's width). Packed formats (CL_UNORM_SHORT_565,
// CL_UNORM_SHORT_555, CL_UNORM_INT_101010, CL_UNORM_INT_101010_2): one little-endian word of `type` (ushort or uint)
// with channel i in bits shift[i] .. shift[i] + bits[i] - 1, the first channel in the most significant bits.
struct ChannelLayout {
  ScalarType type = ScalarType::UChar;
  unsigned count = 0;
  bool packed = false;
  std::array<unsigned, 4> bits{}, shift{};
};
ChannelLayout channelLayout(images::ImageFormat format);

}  // namespace clref::cli::detail
