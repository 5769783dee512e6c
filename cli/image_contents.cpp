// The contents of image arguments (golden/README.md "Image arguments"): the initial elements from a case's init, the
// final elements read back from a host::Image, and their text rendering (one element per line).
#include <cstring>

#include "cli/buffer_init.hpp"
#include "cli/image_args.hpp"
#include "cli/value_syntax.hpp"

namespace clref::cli {

namespace {

using nlohmann::json;

// Packs channel values (layout.count per element, each in the low bits of a layout.type value) into elements.
void packChannels(const detail::ChannelLayout& layout, const std::vector<std::byte>& channels, size_t elements,
                  const std::string& path, std::byte* out) {
  const size_t size = sizeOf(layout.type);
  for (size_t e = 0; e < elements; ++e) {
    uint64_t word = 0;
    for (unsigned ch = 0; ch < layout.count; ++ch) {
      const uint64_t v = detail::loadBits(layout.type, channels.data() + (e * layout.count + ch) * size);
      // Signed channel types keep their two's-complement bits; only unsigned fields narrower than the type can hold a
      // value that does not fit.
      if (layout.bits[ch] < 8 * size && v >> layout.bits[ch] != 0)
        detail::fail(path, "channel " + std::to_string(ch) + " of element " + std::to_string(e) + " is " +
                               std::to_string(v) + ", which does not fit in " + std::to_string(layout.bits[ch]) +
                               " bits");
      if (layout.packed)
        word |= v << layout.shift[ch];
      else
        detail::storeBits(layout.type, v, out + (e * layout.count + ch) * size);
    }
    if (layout.packed) detail::storeBits(layout.type, word, out + e * size);
  }
}

}  // namespace

std::vector<std::byte> materializeImage(const Case& c, size_t argIndex) {
  const auto at = "args[" + std::to_string(argIndex) + "]";
  if (argIndex >= c.args.size() || c.args[argIndex].kind != ArgSpec::Kind::Image)
    throw CaseError(c.file.string() + ": " + at + ": not an image argument");
  const ImageSpec& image = c.args[argIndex].image;
  std::vector<std::byte> bytes(imageContentBytes(image.desc));  // no init: all bytes zero
  if (image.initJson.empty()) return bytes;
  const auto path = at + ".image.init";
  try {
    const json init = json::parse(image.initJson);
    if (init.contains("file")) {
      // Raw elements, packed as the contents are (no pitch padding, level after level).
      const auto p = detail::member(path, "file");
      const auto file = c.file.parent_path() / init["file"].get<std::string>();
      const std::string raw = detail::readFile(file, p);
      if (raw.size() != bytes.size())
        detail::fail(p, file.string() + " has " + std::to_string(raw.size()) + " bytes, the image's elements are " +
                            std::to_string(bytes.size()));
      std::memcpy(bytes.data(), raw.data(), bytes.size());
      return bytes;
    }
    const auto layout = detail::channelLayout(image.desc.format);
    const size_t elements = imageElementCount(image.desc);
    std::vector<std::byte> channels(elements * layout.count * sizeOf(layout.type));
    detail::applyInit(layout.type, elements * layout.count, init, path, c.file.parent_path(), channels.data());
    packChannels(layout, channels, elements, path, bytes.data());
  } catch (const detail::FieldError& e) { throw CaseError(c.file.string() + ": " + e.path + ": " + e.message); }
  return bytes;
}

std::string formatImage(const images::ImageDesc& desc, const std::byte* data) {
  const auto layout = detail::channelLayout(desc.format);
  const size_t elementBytes = images::elementSize(desc.format), elements = imageElementCount(desc);
  const size_t size = sizeOf(layout.type);
  std::string out;
  for (size_t e = 0; e < elements; ++e) {
    const std::byte* element = data + e * elementBytes;
    for (unsigned ch = 0; ch < layout.count; ++ch) {
      if (ch) out += ", ";
      std::string text;
      if (layout.packed) {
        const uint64_t word = detail::loadBits(layout.type, element);
        text = std::to_string((word >> layout.shift[ch]) & ((uint64_t(1) << layout.bits[ch]) - 1));
      } else {
        text = formatElements(layout.type, element + ch * size, 1);
        text.pop_back();  // its newline
      }
      out += text;
    }
    out += '\n';
  }
  return out;
}

std::vector<std::byte> parseImage(const images::ImageDesc& desc, std::string_view text, const std::string& where) {
  const auto layout = detail::channelLayout(desc.format);
  const size_t elements = imageElementCount(desc);
  const size_t size = sizeOf(layout.type);
  std::vector<std::byte> channels(elements * layout.count * size);
  size_t e = 0, number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string at = where + " line " + std::to_string(number);
    if (e == elements) throw CaseError(at + ": more than the image's " + std::to_string(elements) + " elements");
    unsigned ch = 0;
    for (size_t from = 0; from <= line.size(); ++ch) {
      const size_t comma = line.find(',', from);
      std::string token(line.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from));
      from = comma == std::string_view::npos ? line.size() + 1 : comma + 1;
      token.erase(0, token.find_first_not_of(" \t\r"));
      token.erase(token.find_last_not_of(" \t\r") + 1);
      if (ch == layout.count)
        throw CaseError(at + ": more than the format's " + std::to_string(layout.count) + " channels");
      uint64_t bits = 0;
      // "nan 0x<bits>" keeps a NaN's payload (formatElements), anything else is one value.
      if (token.rfind("nan 0x", 0) == 0) {
        try {
          bits = std::stoull(token.substr(4), nullptr, 16);
        } catch (const std::exception&) { throw CaseError(at + ": bad NaN bits '" + token + "'"); }
      } else {
        bits = detail::elementBitsFromText(layout.type, token, at);
      }
      detail::storeBits(layout.type, bits, channels.data() + (e * layout.count + ch) * size);
    }
    if (ch != layout.count)
      throw CaseError(at + ": " + std::to_string(ch) + " channels; the format has " + std::to_string(layout.count));
    ++e;
  }
  if (e != elements)
    throw CaseError(where + ": " + std::to_string(e) + " elements; the image has " + std::to_string(elements));
  std::vector<std::byte> bytes(imageContentBytes(desc));
  try {
    packChannels(layout, channels, elements, where, bytes.data());
  } catch (const detail::FieldError& err) { throw CaseError(err.path + ": " + err.message); }
  return bytes;
}

std::vector<std::byte> imageContents(const host::Image& image) {
  const auto& desc = image.desc();
  std::vector<std::byte> bytes(imageContentBytes(desc));
  const size_t elementBytes = images::elementSize(desc.format);
  size_t offset = 0;
  for (uint32_t level = 0; level < desc.numMipLevels; ++level) {
    const auto region = imageLevelRegion(desc, level);
    image.read({0, 0, 0}, region, bytes.data() + offset, 0, 0, level);
    offset += region[0] * region[1] * region[2] * elementBytes;
  }
  return bytes;
}

}  // namespace clref::cli
