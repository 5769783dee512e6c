// `clref image` (cli/image_command.hpp).
#include "cli/image_command.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "images/image.hpp"
#include "images/sampler.hpp"
#include "images/texel.hpp"
#include "images/verdict.hpp"
#include "cli/value_syntax.hpp"

namespace clref::cli {

namespace {

using namespace clref::images;

constexpr int kImageNotAllowed = 1, kImageRejected = 2;
// Images the command builds stay small: it judges one access, it does not run kernels.
constexpr uint64_t kMaxImageBytes = uint64_t(64) << 20;

struct Rejection : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

ImageFormat parseImageFormat(const std::string& s) {
  const auto parts = split(s, ',');
  if (parts.size() != 2) throw Rejection("--format: expected ORDER,TYPE (e.g. CL_RGBA,CL_UNORM_INT8), got '" + s + "'");
  const auto order = channelOrderNamed(parts[0]);
  if (!order) throw Rejection("--format: unknown channel order '" + parts[0] + "'");
  const auto type = channelTypeNamed(parts[1]);
  if (!type) throw Rejection("--format: unknown channel data type '" + parts[1] + "'");
  const ImageFormat f{*order, *type};
  if (!isValidFormat(f))
    throw Rejection("--format: " + std::string(nameOf(f.order)) + " with " + std::string(nameOf(f.type)) +
                   " is not an image format (OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]])");
  return f;
}

ColorKind parseKind(const std::string& s) {
  if (s == "f") return ColorKind::Float;
  if (s == "h") return ColorKind::Half;
  if (s == "i") return ColorKind::Int;
  if (s == "ui") return ColorKind::Uint;
  throw Rejection("--kind: expected f, h, i or ui (read_imagef / h / i / ui), got '" + s + "'");
}

const char* kindSuffix(ColorKind k) {
  switch (k) {
    case ColorKind::Float: return "f";
    case ColorKind::Half: return "h";
    case ColorKind::Int: return "i";
    case ColorKind::Uint: return "ui";
  }
  return "";
}

uint64_t parseCount(const std::string& token, const std::string& what) {
  uint64_t v = 0;
  const auto r = std::from_chars(token.data(), token.data() + token.size(), v);
  if (r.ec != std::errc() || r.ptr != token.data() + token.size() || v == 0 || v > (uint64_t(1) << 24))
    throw Rejection(what + ": expected a size from 1 to 16777216, got '" + token + "'");
  return v;
}

ImageDesc parseDesc(const ImageCommandOptions& o, ImageFormat f) {
  const auto sizes = split(lower(o.size), 'x');
  if (sizes.empty() || sizes.size() > 3) throw Rejection("--size: expected W, WxH or WxHxD, got '" + o.size + "'");
  std::vector<uint64_t> n;
  for (const auto& s : sizes) n.push_back(parseCount(s, "--size"));
  std::string type = lower(o.type);
  if (type.empty()) type = n.size() == 1 ? "1d" : n.size() == 2 ? "2d" : "3d";
  ImageDesc d;
  d.format = f;
  struct Known {
    const char* name;
    ImageType type;
    size_t sizes;
  };
  static const Known known[] = {{"1d", ImageType::Image1D, 1},           {"1dbuffer", ImageType::Image1DBuffer, 1},
                                {"1darray", ImageType::Image1DArray, 2}, {"2d", ImageType::Image2D, 2},
                                {"2darray", ImageType::Image2DArray, 3}, {"3d", ImageType::Image3D, 3}};
  const Known* k = nullptr;
  for (const auto& e : known)
    if (type == e.name) k = &e;
  if (!k) throw Rejection("--type: expected 1d, 1dbuffer, 1darray, 2d, 2darray or 3d, got '" + o.type + "'");
  if (n.size() != k->sizes)
    throw Rejection("--size: a " + type + " image takes " + std::to_string(k->sizes) + " size" +
                   (k->sizes == 1 ? "" : "s") + " (the last is the layer count for arrays), got '" + o.size + "'");
  d.type = k->type;
  d.width = n[0];
  if (d.type == ImageType::Image1DArray) d.arraySize = n[1];
  if (d.type == ImageType::Image2D || d.type == ImageType::Image2DArray || d.type == ImageType::Image3D)
    d.height = n[1];
  if (d.type == ImageType::Image2DArray) d.arraySize = n[2];
  if (d.type == ImageType::Image3D) d.depth = n[2];
  d.numMipLevels = o.levels;
  try {
    d = makeDesc(d);
  } catch (const std::invalid_argument& e) { throw Rejection(std::string("--size: ") + e.what()); }
  if (storageBytes(d) > kMaxImageBytes) throw Rejection("--size: the image would be larger than 64 MiB");
  return d;
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = char(std::tolower(static_cast<unsigned char>(c)));
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Hex bytes in memory order; spaces, commas, colons and a leading 0x are ignored.
std::vector<uint8_t> parseHex(std::string s, const std::string& what) {
  if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) s = s.substr(2);
  std::string digits;
  for (char c : s) {
    if (c == ' ' || c == ',' || c == ':' || c == '_') continue;
    if (hexDigit(c) < 0) throw Rejection(what + ": '" + std::string(1, c) + "' is not a hex digit");
    digits += c;
  }
  if (digits.empty() || digits.size() % 2) throw Rejection(what + ": expected whole bytes in hex, got '" + s + "'");
  std::vector<uint8_t> out;
  for (size_t i = 0; i < digits.size(); i += 2)
    out.push_back(uint8_t(hexDigit(digits[i]) * 16 + hexDigit(digits[i + 1])));
  return out;
}

// --texels: hex bytes (repeated to fill the image), "ramp" (byte i = i mod 256), "random[:SEED]".
std::vector<uint8_t> parseTexels(const std::string& s, uint64_t bytes) {
  std::vector<uint8_t> out(bytes);
  if (s == "ramp") {
    for (uint64_t i = 0; i < bytes; ++i) out[i] = uint8_t(i);
  } else if (s.rfind("random", 0) == 0) {
    uint64_t seed = 1;
    if (s.size() > 6) {
      if (s[6] != ':') throw Rejection("--texels: expected random or random:SEED, got '" + s + "'");
      const auto r = std::from_chars(s.data() + 7, s.data() + s.size(), seed);
      if (r.ec != std::errc() || r.ptr != s.data() + s.size()) throw Rejection("--texels: bad seed in '" + s + "'");
    }
    std::mt19937_64 rng(seed);
    for (auto& b : out) b = uint8_t(rng());
  } else {
    const auto pattern = parseHex(s, "--texels");
    for (uint64_t i = 0; i < bytes; ++i) out[i] = pattern[i % pattern.size()];
  }
  return out;
}

Sampler parseSampler(const std::string& s) {
  Sampler r;
  r.normalizedCoords = false;
  r.addressing = AddressingMode::None;
  r.filter = FilterMode::Nearest;
  for (const auto& t : split(lower(s), ',')) {
    if (t == "normalized")
      r.normalizedCoords = true;
    else if (t == "unnormalized")
      r.normalizedCoords = false;
    else if (t == "none")
      r.addressing = AddressingMode::None;
    else if (t == "clamp")
      r.addressing = AddressingMode::Clamp;
    else if (t == "clamp_to_edge")
      r.addressing = AddressingMode::ClampToEdge;
    else if (t == "repeat")
      r.addressing = AddressingMode::Repeat;
    else if (t == "mirrored_repeat")
      r.addressing = AddressingMode::MirroredRepeat;
    else if (t == "nearest")
      r.filter = FilterMode::Nearest;
    else if (t == "linear")
      r.filter = FilterMode::Linear;
    else
      throw Rejection("--sampler: unknown word '" + t +
                     "' (expected normalized|unnormalized, none|clamp|clamp_to_edge|repeat|mirrored_repeat, "
                     "nearest|linear)");
  }
  return r;
}

ScalarType laneType(ColorKind k) {
  switch (k) {
    case ColorKind::Float: return ScalarType::Float;
    case ColorKind::Half: return ScalarType::Half;
    case ColorKind::Int: return ScalarType::Int;
    case ColorKind::Uint: return ScalarType::UInt;
  }
  return ScalarType::Float;
}

uint32_t parseLane(const std::string& token, ColorKind k, const std::string& what) {
  try {
    return uint32_t(detail::elementBitsFromText(laneType(k), token, what));
  } catch (const detail::FieldError& e) { throw Rejection(e.path + ": " + e.message); }
}

// Up to four lanes; missing ones are 0, alpha 1 (the colour a one-channel read returns).
Color parseColor(const std::string& s, ColorKind k, const std::string& what) {
  const auto parts = split(s, ',');
  if (parts.empty() || parts.size() > 4 || parts[0].empty())
    throw Rejection(what + ": expected 1 to 4 comma-separated values, got '" + s + "'");
  Color c;
  c.lanes = {0, 0, 0, parseLane("1", k, what)};
  if (k == ColorKind::Half) c.lanes[3] = 0x3c00;
  for (size_t i = 0; i < parts.size(); ++i)
    c.lanes[i] = parseLane(parts[i], k, what + " value " + std::to_string(i + 1));
  return c;
}

std::string showNumber(double v, ColorKind k) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[96];
  if (k == ColorKind::Int || k == ColorKind::Uint) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  char dec[48];
  if (k == ColorKind::Float)
    *std::to_chars(dec, dec + sizeof dec - 1, float(v)).ptr = '\0';
  else
    std::snprintf(dec, sizeof dec, "%.5g", v);
  std::snprintf(buf, sizeof buf, "%a (%s)", v, dec);
  return buf;
}

std::string showColor(const Color& c, ColorKind k, unsigned lanes) {
  std::string s = "(";
  for (unsigned l = 0; l < lanes; ++l) s += (l ? ", " : "") + showNumber(images::laneValue(c.lanes[l], k), k);
  return s + ")";
}

std::string hexBytes(const uint8_t* p, size_t n) {
  std::string s;
  char b[4];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(b, sizeof b, "%02x", p[i]);
    s += b;
  }
  return s;
}

void printVerdictTail(const ImageVerdict& v) {
  std::cout << "rule:       " << v.rule << "\n";
  if (!v.clause.empty()) std::cout << "clause:     " << v.clause << "\n";
  if (!v.note.empty()) std::cout << "note:       " << v.note << "\n";
}

float parseFloat(const std::string& token, const std::string& what) {
  return std::bit_cast<float>(parseLane(token, ColorKind::Float, what));
}

// The sampled axes of a type (the array layer is not one): the number of gradient components.
unsigned sampledAxes(ImageType t) {
  switch (t) {
    case ImageType::Image2D:
    case ImageType::Image2DArray: return 2;
    case ImageType::Image3D: return 3;
    default: return 1;
  }
}

// --lod / --gradients of a read, and the sampler's mip properties (cl_khr_mipmap_image).
LevelOfDetail parseLevelOfDetail(const ImageCommandOptions& o, const ImageDesc& d, bool sampled) {
  LevelOfDetail lod;
  if (!o.lod.empty() && !o.gradients.empty()) throw Rejection("--lod and --gradients: give one or the other");
  if (!o.lod.empty()) {
    lod.kind = LevelOfDetail::Kind::Lod;
    if (sampled) {
      lod.lod = parseFloat(o.lod, "--lod");
    } else {
      // A sampler-less read's lod is an integer level (OpenCL C 3.0 §6.15.15.3
      // [[built-in-image-sampler-less-read-functions]]).
      uint64_t level = 0;
      const auto r = std::from_chars(o.lod.data(), o.lod.data() + o.lod.size(), level);
      if (r.ec != std::errc() || r.ptr != o.lod.data() + o.lod.size() || level > 31)
        throw Rejection("--lod: a sampler-less read takes a level from 0 to 31, got '" + o.lod + "'");
      lod.lod = float(level);
    }
  }
  if (!o.gradients.empty()) {
    if (!sampled) throw Rejection("--gradients: only a read with a sampler takes gradients");
    const auto halves = split(o.gradients, ';');
    const unsigned n = sampledAxes(d.type);
    if (halves.size() != 2)
      throw Rejection("--gradients: expected DX;DY (each " + std::to_string(n) + " comma-separated values), got '" +
                     o.gradients + "'");
    lod.kind = LevelOfDetail::Kind::Gradients;
    for (int h = 0; h < 2; ++h) {
      const auto parts = split(halves[size_t(h)], ',');
      if (parts.size() != n)
        throw Rejection("--gradients: a " + std::string(nameOf(d.type)) + " read takes " + std::to_string(n) +
                       " gradient component" + (n == 1 ? "" : "s") + " per direction, got '" + halves[size_t(h)] +
                       "'");
      for (unsigned k = 0; k < n; ++k) (h ? lod.dy : lod.dx)[k] = parseFloat(parts[k], "--gradients");
    }
  }
  return lod;
}

void parseMipSampler(const ImageCommandOptions& o, Sampler& s) {
  const std::string f = lower(o.mipFilter);
  if (f == "nearest")
    s.mipFilter = FilterMode::Nearest;
  else if (f == "linear")
    s.mipFilter = FilterMode::Linear;
  else
    throw Rejection("--mip-filter: expected nearest or linear, got '" + o.mipFilter + "'");
  if (!o.lodMin.empty()) s.lodMin = parseFloat(o.lodMin, "--lod-min");
  if (!o.lodMax.empty()) s.lodMax = parseFloat(o.lodMax, "--lod-max");
}

std::string levelList(const std::vector<uint32_t>& levels) {
  std::string s;
  for (size_t i = 0; i < levels.size(); ++i) s += (i ? ", " : "") + std::to_string(levels[i]);
  return s;
}

int runRead(const ImageCommandOptions& o) {
  const ImageFormat f = parseImageFormat(o.format);
  const ImageDesc d = parseDesc(o, f);
  const ColorKind kind = parseKind(o.kind);
  std::vector<uint8_t> bytes = parseTexels(o.texels, storageBytes(d));
  ImageView view;
  view.desc = d;
  view.data = bytes.data();
  view.bytes = bytes.size();

  const bool sampled = !o.sampler.empty();
  Sampler s = sampled ? parseSampler(o.sampler) : Sampler{};
  if (sampled) parseMipSampler(o, s);
  const LevelOfDetail lod = parseLevelOfDetail(o, d, sampled);
  const unsigned n = coordinateCount(d.type);
  const auto parts = split(o.coord, ',');
  if (o.coord.empty() || parts.size() != n)
    throw Rejection("--coord: a " + std::string(nameOf(d.type)) + " read takes " + std::to_string(n) + " coordinate" +
                   (n == 1 ? "" : "s") + ", got '" + o.coord + "'");
  Coord c;
  c.isFloat = sampled && !o.intCoord;
  for (unsigned i = 0; i < n; ++i) {
    const uint32_t b = parseLane(parts[i], c.isFloat ? ColorKind::Float : ColorKind::Int, "--coord");
    if (c.isFloat)
      c.f[i] = std::bit_cast<float>(b);
    else
      c.i[i] = int32_t(b);
  }
  const unsigned lanes = f.order == ChannelOrder::Depth ? 1 : 4;
  images::VerdictOptions vo;
  vo.flushToZeroAllowed = !o.noFtz;
  const Color observed = o.check.empty() ? Color{} : parseColor(o.check, kind, "--check");
  const ImageVerdict v = judgeRead(view, sampled ? &s : nullptr, c, kind, lod, observed, vo);

  std::cout << "read_image" << kindSuffix(kind) << "(" << nameOf(f.order) << "," << nameOf(f.type) << " "
            << nameOf(d.type) << " " << o.size;
  if (sampled) std::cout << ", sampler " << lower(o.sampler);
  std::cout << ", coord (";
  for (unsigned i = 0; i < n; ++i)
    std::cout << (i ? ", " : "") << (c.isFloat ? showNumber(c.f[i], ColorKind::Float) : std::to_string(c.i[i]));
  std::cout << ")";
  if (lod.kind == LevelOfDetail::Kind::Lod)
    std::cout << ", lod " << (sampled ? showNumber(lod.lod, ColorKind::Float) : std::to_string(uint32_t(lod.lod)));
  if (lod.kind == LevelOfDetail::Kind::Gradients) std::cout << ", gradients " << o.gradients;
  std::cout << ")\n";
  std::cout << "reference:  " << showColor(v.reference, kind, lanes) << "\n";
  if (d.numMipLevels > 1)
    std::cout << "levels:     " << levelList(v.levels) << (v.blended ? " (blended)" : "") << " of "
              << d.numMipLevels << "\n";
  std::cout << "candidates: " << v.candidates.size() << "\n";
  for (const auto& cand : v.candidates) std::cout << "  " << showColor(cand, kind, lanes) << "\n";
  if (o.check.empty()) {
    printVerdictTail(v);
    return 0;
  }
  std::cout << "check:      " << showColor(observed, kind, lanes) << "\n";
  std::cout << "verdict:    " << (v.allowed ? "allowed" : "NOT allowed") << (v.bounded ? "" : " (no bound)") << "\n";
  std::cout << "allowed:    ";
  for (unsigned l = 0; l < lanes; ++l) {
    std::cout << (l ? ", " : "");
    if (std::isnan(v.lo[l]))
      std::cout << "any NaN";
    else if (v.lo[l] == v.hi[l])
      std::cout << showNumber(v.lo[l], kind);
    else
      std::cout << "[" << showNumber(v.lo[l], kind) << ", " << showNumber(v.hi[l], kind) << "]";
    if (v.orNaN[l] && !std::isnan(v.lo[l])) std::cout << " or any NaN";
  }
  std::cout << "\n";
  printVerdictTail(v);
  return v.allowed ? 0 : kImageNotAllowed;
}

int runWrite(const ImageCommandOptions& o) {
  const ImageFormat f = parseImageFormat(o.format);
  const ColorKind kind = parseKind(o.kind);
  if (o.color.empty()) throw Rejection("write: --color is required");
  const ChannelClass cls = channelClass(f.type);
  const bool matches = cls == ChannelClass::SignedInt     ? kind == ColorKind::Int
                       : cls == ChannelClass::UnsignedInt ? kind == ColorKind::Uint
                                                          : kind == ColorKind::Float || kind == ColorKind::Half;
  if (!matches)
    throw Rejection(std::string("write: write_image") + kindSuffix(kind) + " of a " + std::string(nameOf(f.type)) +
                   " image is undefined (OpenCL C 3.0 §6.15.15.4 [[built-in-image-write-functions]])");
  const Color color = parseColor(o.color, kind, "--color");
  // A located write (--coord, with --size and optionally --levels and --level): judged against that level's size
  // (cl_khr_mipmap_image_writes).
  const bool located = !o.coord.empty() || o.level >= 0;
  ImageDesc d;
  std::array<int32_t, 3> at{};
  const uint32_t level = o.level < 0 ? 0 : uint32_t(std::min<int64_t>(o.level, 1 << 20));
  if (located) {
    if (o.size.empty() || o.coord.empty()) throw Rejection("write: --coord and --level need --size and --coord");
    d = parseDesc(o, f);
    const unsigned n = coordinateCount(d.type);
    const auto parts = split(o.coord, ',');
    if (parts.size() != n)
      throw Rejection("--coord: a " + std::string(nameOf(d.type)) + " write takes " + std::to_string(n) +
                     " integer coordinate" + (n == 1 ? "" : "s") + ", got '" + o.coord + "'");
    for (unsigned i = 0; i < n; ++i) at[i] = int32_t(parseLane(parts[i], ColorKind::Int, "--coord"));
  }
  const unsigned size = elementSize(f);
  std::vector<uint8_t> preferred(size);
  encode(f, color, kind, preferred.data());
  std::cout << "write_image" << kindSuffix(kind) << "(" << nameOf(f.order) << "," << nameOf(f.type) << ", "
            << showColor(color, kind, 4) << ")";
  if (located) {
    std::cout << " at (";
    for (unsigned i = 0; i < coordinateCount(d.type); ++i) std::cout << (i ? ", " : "") << at[i];
    std::cout << ") of level " << level << " (" << nameOf(d.type) << " " << o.size << ", " << d.numMipLevels
              << " level" << (d.numMipLevels == 1 ? "" : "s") << ")";
  }
  std::cout << "\n";
  std::cout << "element:    " << hexBytes(preferred.data(), size) << "\n";
  if (o.check.empty()) return 0;
  const auto observed = parseHex(o.check, "--check");
  if (observed.size() != size)
    throw Rejection("--check: an element of this format is " + std::to_string(size) + " byte" + (size == 1 ? "" : "s") +
                   ", got " + std::to_string(observed.size()));
  images::VerdictOptions vo;
  vo.flushToZeroAllowed = !o.noFtz;
  const ImageVerdict v =
      located ? judgeWrite(d, at, level, color, kind, observed.data(), vo) : judgeWrite(f, color, kind, observed.data(), vo);
  std::cout << "check:      " << hexBytes(observed.data(), size) << "\n";
  std::cout << "verdict:    " << (v.allowed ? "allowed" : "NOT allowed") << (v.bounded ? "" : " (no bound)") << "\n";
  std::cout << "allowed:    codes per lane (r, g, b, a):";
  for (unsigned l = 0; l < 4; ++l) {
    char b[64];
    if (v.lo[l] == v.hi[l])
      std::snprintf(b, sizeof b, " %.0f", v.lo[l]);
    else
      std::snprintf(b, sizeof b, " [%.0f, %.0f]", v.lo[l], v.hi[l]);
    std::cout << b;
  }
  std::cout << "\n";
  printVerdictTail(v);
  return v.allowed ? 0 : kImageNotAllowed;
}

template <class F> int guarded(F&& f) {
  try {
    return f();
  } catch (const Rejection& e) {
    std::cerr << e.what() << "\n";
    return kImageRejected;
  }
}

}  // namespace

ImageCommands addImageCommand(CLI::App& app, ImageCommandOptions& o) {
  auto* cmd = app.add_subcommand("image", "evaluate one image read or write exactly and judge a device's result");
  cmd->require_subcommand(1);
  auto* read = cmd->add_subcommand("read", "read_image{f,h,i,ui}: the reference value, and the verdict on --check");
  read->add_option("--format", o.format, "channel order and data type, e.g. CL_RGBA,CL_UNORM_INT8")->required();
  read->add_option("--size", o.size, "W, WxH or WxHxD (arrays: the last is the layer count)")->required();
  read->add_option("--type", o.type, "1d, 1dbuffer, 1darray, 2d, 2darray or 3d (default: by the number of sizes)");
  read->add_option("--texels", o.texels,
                   "the image's bytes: hex in memory order (repeated to fill), ramp (byte i = i mod 256) or "
                   "random[:SEED]")
      ->capture_default_str();
  read->add_option("--sampler", o.sampler,
                   "normalized|unnormalized,none|clamp|clamp_to_edge|repeat|mirrored_repeat,nearest|linear "
                   "(default: a sampler-less read)");
  read->add_option(
          "--coord", o.coord,
          "coordinates, comma-separated (floats with a sampler, else integers; a leading minus needs --coord=-1,...)")
      ->required();
  read->add_flag("--int", o.intCoord, "integer coordinates with a sampler");
  read->add_option("--kind", o.kind, "f, h, i or ui (read_imagef, read_imageh, read_imagei, read_imageui)")
      ->capture_default_str();
  read->add_option("--check", o.check,
                   "a device's result, up to 4 comma-separated values (hexfloat, decimal, 0x3f800000:bits): print "
                   "the verdict (exit 1 if not allowed); a leading minus needs --check=-1,...");
  read->add_flag("--no-ftz", o.noFtz, "the device keeps subnormals (default: half and float channels may flush)");
  read->add_option("--levels", o.levels, "mip levels of the image (cl_khr_mipmap_image; --texels fills them all)")
      ->capture_default_str();
  read->add_option("--lod", o.lod,
                   "the read's lod: a float with a sampler, an integer level without one (a leading minus needs "
                   "--lod=-1)");
  read->add_option("--gradients", o.gradients,
                   "the read's gradients DX;DY, each one value per sampled axis, e.g. 0.25,0;0,0.25");
  read->add_option("--mip-filter", o.mipFilter, "the sampler's mip filter: nearest or linear")->capture_default_str();
  read->add_option("--lod-min", o.lodMin, "the sampler's CL_SAMPLER_LOD_MIN (default 0)");
  read->add_option("--lod-max", o.lodMax, "the sampler's CL_SAMPLER_LOD_MAX (default MAXFLOAT)");
  auto* write = cmd->add_subcommand("write", "write_image{f,h,i,ui}: the element stored, and the verdict on --check");
  write->add_option("--format", o.format, "channel order and data type, e.g. CL_RGBA,CL_UNORM_INT8")->required();
  write->add_option("--kind", o.kind, "f, h, i or ui (write_imagef, write_imageh, write_imagei, write_imageui)")
      ->capture_default_str();
  write->add_option("--color", o.color, "the colour written, up to 4 comma-separated values")->required();
  write->add_option("--check", o.check,
                    "the element a device stored, hex bytes in memory order: print the verdict (exit 1 if not "
                    "allowed)");
  write->add_flag("--no-ftz", o.noFtz, "the device keeps subnormals (default: half and float channels may flush)");
  write->add_option("--size", o.size, "with --coord: W, WxH or WxHxD of the image written (arrays: the last is the "
                                      "layer count)");
  write->add_option("--type", o.type, "1d, 1dbuffer, 1darray, 2d, 2darray or 3d (default: by the number of sizes)");
  write->add_option("--levels", o.levels, "mip levels of the image")->capture_default_str();
  write->add_option("--coord", o.coord, "the write's integer coordinates: judged against the level's size");
  write->add_option("--level", o.level, "the write's lod (cl_khr_mipmap_image_writes), default 0");
  return {read, write};
}

int imageReadCommand(const ImageCommandOptions& o) {
  return guarded([&] { return runRead(o); });
}
int imageWriteCommand(const ImageCommandOptions& o) {
  return guarded([&] { return runWrite(o); });
}

}  // namespace clref::cli
