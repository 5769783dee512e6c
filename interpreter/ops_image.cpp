// Image instructions (SPIR-V 1.0 §3.32.10 [external] "Image Instructions"): OpSampledImage, OpImage,
// OpImageSampleExplicitLod, OpImageRead, OpImageWrite and the queries, as clang-15 + llvm-spirv-15 emit them for
// the OpenCL C image built-ins (OpenCL C 3.0 §6.15.15 [[image-read-and-write-functions]]). Every texel rule —
// addressing, filtering, conversion, mip-level selection — is the images module's (images/sampler.hpp); this file
// finds the image and sampler behind the handles (exec.hpp kImageHandleTag), reads the operands, and turns the
// conditions the spec leaves undefined into a warning or a fault as the launch's choices say.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "images/image.hpp"
#include "images/rgba8.hpp"
#include "images/sampler.hpp"
#include "images/verdict.hpp"
#include "interpreter/dispatch.hpp"
#include "interpreter/image_types.hpp"
#include "interpreter/ops_common.hpp"
#include "interpreter/shadow.hpp"
#include "interpreter/shadow_support.hpp"

namespace clref::interpreter {

namespace {

using images::ColorKind;

// SPIR-V 1.0 §3.14 [external] Image Operands, and SignExtend/ZeroExtend (SPIR-V 1.4).
constexpr uint32_t kLod = 0x2, kGrad = 0x4, kSignExtend = 0x1000, kZeroExtend = 0x2000, kNontemporal = 0x4000;

// What an image instruction's Op needs besides its registers (Op::aux).
struct ImageOpInfo {
  uint32_t ptrBytes = 8;
  ImageAccess access = ImageAccess::ReadOnly;
  // Coordinate: 32-bit ints or floats (OpenCL SPIR-V Environment §7.6
  // [[_coordinate_format_for_reading_and_writing_images]]), 1, 2 or 4 components.
  uint32_t coordReg = 0, coordLanes = 1;
  bool coordFloat = false;
  // The read's result or the written texel: float, half or 32-bit int; 4 components, or 1 for depth images
  // (OpenCL SPIR-V Environment §7.7 [[_data_format_for_reading_and_writing_images]]).
  uint32_t valueReg = 0, valueLanes = 4;
  ScalarType valueScalar = ScalarType::Float;
  uint32_t extend = 0;  // kSignExtend, kZeroExtend or 0
  // Level of detail: none, Lod (float for a sampled read, int for OpImageRead/OpImageWrite) or Grad.
  images::LevelOfDetail::Kind lodKind = images::LevelOfDetail::Kind::None;
  uint32_t lodReg = 0, dxReg = 0, dyReg = 0, gradLanes = 0;
  images::ConversionOptions conversion;
  const char* verb = "read";
  // read_imagef / write_imagef of a float4 at level 0 of a read_only or write_only image: the access may take
  // images/rgba8.hpp's functions (set at lowering, fastFloat4).
  bool float4 = false;
};

const ImageOpInfo& infoOf(const Op* op) { return *static_cast<const ImageOpInfo*>(op->aux); }

uint64_t handleIn(const WorkItem& wi, uint32_t reg, uint32_t ptrBytes) {
  // A handle is as wide as a pointer: 8 or 4 bytes (zero-extended).
  return ptrBytes == 8 ? rd<uint64_t>(wi, reg) : rd<uint32_t>(wi, reg);
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// The image a handle names, or nullptr after faulting: a value that is not an image handle of this launch is never
// used as an address. The check is inline (every image instruction makes it); the fault is out of line.
[[gnu::noinline, gnu::cold]] const images::ImageView* notAnImage(WorkItem& wi, const Op* op, uint64_t h) {
  fault(wi, op, FaultKind::InvalidPointer,
        "not an image: the image operand holds " + hex(h) +
            ", which is no image argument of this launch (an undefined, uninitialised or corrupted image value)");
  return nullptr;
}
inline const images::ImageView* imageOf(WorkItem& wi, const Op* op, uint32_t reg, uint32_t ptrBytes, uint32_t& index) {
  const uint64_t h = handleIn(wi, reg, ptrBytes);
  const Launch& launch = *wi.launch;
  if ((h & ~uint64_t(kHandleIndexMask)) == kImageHandleTag && (h & kHandleIndexMask) < launch.imageCount) [[likely]] {
    index = uint32_t(h & kHandleIndexMask);
    return launch.images[index];
  }
  return notAnImage(wi, op, h);
}

[[gnu::noinline, gnu::cold]] const images::Sampler* notASampler(WorkItem& wi, const Op* op, uint64_t h) {
  fault(wi, op, FaultKind::InvalidPointer,
        "not a sampler: the sampler operand holds " + hex(h) +
            ", which is no sampler argument or constant sampler of this launch (an undefined, uninitialised or "
            "corrupted sampler value)");
  return nullptr;
}
inline const images::Sampler* samplerOf(WorkItem& wi, const Op* op, uint32_t reg, uint32_t ptrBytes) {
  const uint64_t h = handleIn(wi, reg, ptrBytes);
  const Launch& launch = *wi.launch;
  if ((h & ~uint64_t(kHandleIndexMask)) == kSamplerHandleTag && (h & kHandleIndexMask) < launch.samplerCount)
      [[likely]]
    return &launch.samplers[h & kHandleIndexMask];
  return notASampler(wi, op, h);
}

// "image argument 1 'dst' (CL_MEM_OBJECT_IMAGE2D 8x4, CL_RGBA/CL_UNORM_INT8)" for messages.
std::string describeImage(const WorkItem& wi, uint32_t index, const images::ImageView& v) {
  const LoweredKernel& k = *wi.launch->kernel;
  std::string s = "image argument " + std::to_string(k.imageParams.at(index));
  if (const auto& name = k.params.at(k.imageParams.at(index)).name; !name.empty()) s += " '" + name + "'";
  s += " (" + std::string(images::nameOf(v.desc.type)) + " " + std::to_string(v.desc.width);
  if (v.desc.type == images::ImageType::Image2D || v.desc.type == images::ImageType::Image2DArray ||
      v.desc.type == images::ImageType::Image3D)
    s += "x" + std::to_string(v.desc.height);
  if (v.desc.type == images::ImageType::Image3D) s += "x" + std::to_string(v.desc.depth);
  if (images::isArray(v.desc.type)) s += ", " + std::to_string(v.desc.arraySize) + " layers";
  if (v.desc.numMipLevels > 1) s += ", " + std::to_string(v.desc.numMipLevels) + " mip levels";
  s += ", " + std::string(images::nameOf(v.desc.format.order)) + "/" + std::string(images::nameOf(v.desc.format.type)) +
       ")";
  return s;
}

std::string describeCoord(const images::Coord& c, unsigned n) {
  std::string s = "(";
  for (unsigned i = 0; i < n; ++i) {
    if (i) s += ", ";
    if (c.isFloat) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.9g", double(c.f[i]));
      s += buf;
    } else {
      s += std::to_string(c.i[i]);
    }
  }
  return s + ")";
}

// The fault kind of an undefined condition: accesses outside the image are out of bounds, like buffer accesses.
FaultKind faultKindOf(images::Undefined u) {
  switch (u) {
    case images::Undefined::AddressNoneOutOfRange:
    case images::Undefined::SamplerlessOutOfRange:
    case images::Undefined::WriteOutOfRange:
    case images::Undefined::MipLevelOutOfRange: return FaultKind::OutOfBounds;
    default: return FaultKind::UndefinedBehaviour;
  }
}

// A condition the spec leaves undefined: the registry's choice decides between a fault and a warning with the
// choice's defined value. Returns false after faulting.
bool meetChoice(WorkItem& wi, const Op* op, numerics::Choice choice, std::string_view what, FaultKind kind,
                uint32_t index, const images::ImageView& v, const images::Coord& c, uint32_t level) {
  const numerics::ChoiceInfo& info = numerics::infoOf(choice);
  const uint8_t option = choicesOf(wi).get(choice);
  const std::string_view optionName = option < info.options.size() ? info.options[option] : std::string_view("?");
  // Queries carry no ImageOpInfo (querySize's Op has no aux) and no coordinate.
  std::string text = op->aux ? std::string(infoOf(op).verb) + " of " + describeImage(wi, index, v) + " at coordinate " +
                                   describeCoord(c, images::coordinateCount(v.desc.type))
                             : "query of " + describeImage(wi, index, v);
  if (level) text += ", mip level " + std::to_string(level);
  text += ": " + std::string(what) + " (" + std::string(info.clause) + "; choice " + std::string(info.name) + "=" +
          std::string(optionName) + ")";
  noteChoice(wi, op, choice, text.c_str());
  if (optionName == "fault") {
    fault(wi, op, kind, text);
    return false;
  }
  warnOnce(wi, op, text);
  return true;
}

// An images::Undefined condition a read or write of the images module reported.
inline bool meet(WorkItem& wi, const Op* op, images::Undefined u, uint32_t index, const images::ImageView& v,
                 const images::Coord& c, uint32_t level) {
  if (u == images::Undefined::None) [[likely]]
    return true;
  return meetChoice(wi, op, images::choiceOf(u), images::describe(u), faultKindOf(u), index, v, c, level);
}

images::Coord coordOf(const WorkItem& wi, const ImageOpInfo& info) {
  images::Coord c;
  c.isFloat = info.coordFloat;
  for (uint32_t i = 0; i < std::min<uint32_t>(info.coordLanes, 3); ++i) {
    if (info.coordFloat)
      c.f[i] = rd<float>(wi, info.coordReg + 4 * i);
    else
      c.i[i] = rd<int32_t>(wi, info.coordReg + 4 * i);
  }
  return c;
}

// OpenCL SPIR-V Environment §7.7 [[_data_format_for_reading_and_writing_images]]: float and half data for the
// normalized, half and float channel types, 32-bit integers for the integer types. SPIR-V integers carry no
// signedness (§4 [[validation-rules]]: Signedness 0), so read_imagei and read_imageui compile to the same
// instruction; the image's channel data type tells them apart (read_imagei is defined for the signed integer types
// only, read_imageui for the unsigned ones, OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]]). The SPIR-V
// 1.4 SignExtend and ZeroExtend operands, when present, say it explicitly.
ColorKind colorKindOf(const ImageOpInfo& info, const images::ImageView& v) {
  switch (info.valueScalar) {
    case ScalarType::Float: return ColorKind::Float;
    case ScalarType::Half: return ColorKind::Half;
    default: break;
  }
  if (info.extend == kSignExtend) return ColorKind::Int;
  if (info.extend == kZeroExtend) return ColorKind::Uint;
  return images::channelClass(v.desc.format.type) == images::ChannelClass::UnsignedInt ? ColorKind::Uint
                                                                                       : ColorKind::Int;
}

void storeColor(WorkItem& wi, const ImageOpInfo& info, const images::Color& c) {
  if (info.valueScalar != ScalarType::Half && info.valueLanes == 4) [[likely]] {
    std::memcpy(wi.regs + info.valueReg, c.lanes.data(), 16);  // float4, int4, uint4: the lanes as they are
    return;
  }
  for (uint32_t i = 0; i < info.valueLanes; ++i) {
    if (info.valueScalar == ScalarType::Half)
      wr<uint16_t>(wi, info.valueReg + 2 * i, uint16_t(c.lanes[i]));
    else
      wr<uint32_t>(wi, info.valueReg + 4 * i, c.lanes[i]);
  }
}

images::Color loadColor(const WorkItem& wi, const ImageOpInfo& info) {
  images::Color c;
  if (info.valueScalar != ScalarType::Half && info.valueLanes == 4) [[likely]] {
    std::memcpy(c.lanes.data(), wi.regs + info.valueReg, 16);
    return c;
  }
  for (uint32_t i = 0; i < info.valueLanes; ++i)
    c.lanes[i] = info.valueScalar == ScalarType::Half ? rd<uint16_t>(wi, info.valueReg + 2 * i)
                                                      : rd<uint32_t>(wi, info.valueReg + 4 * i);
  return c;
}

images::AccessOptions accessOptions(const WorkItem& wi, const ImageOpInfo& info) {
  images::AccessOptions o;
  o.conversion = info.conversion;
  o.choices = wi.launch->choices;  // choicesOf(wi), without the call
  return o;
}

// An integer level of detail (OpImageRead, OpImageWrite); a negative one is no level (the images module reports
// it out of range).
uint32_t levelOf(const WorkItem& wi, const ImageOpInfo& info) {
  if (info.lodKind != images::LevelOfDetail::Kind::Lod) return 0;
  const int32_t lod = rd<int32_t>(wi, info.lodReg);
  return lod < 0 ? UINT32_MAX : uint32_t(lod);
}

// OpenCL C 3.0 §6.15.15.6 [[reading-and-writing-to-the-same-image-in-a-kernel]]: a read_write image's writes are
// visible to the same work-item's later reads only after atomic_work_item_fence(CLK_IMAGE_MEM_FENCE) (or a
// work_group_barrier with CLK_IMAGE_MEM_FENCE). clref's writes are visible at once; a read before such a fence meets
// the choice image_read_after_write_without_fence.
bool checkReadAfterWrite(WorkItem& wi, const Op* op, uint32_t index, const images::ImageView& v, const images::Coord& c,
                         uint32_t level) {
  if (infoOf(op).access != ImageAccess::ReadWrite || !wi.imagesWritten || !wi.imagesWritten[index]) return true;
  return meetChoice(wi, op, numerics::Choice::ImageReadAfterWriteWithoutFence,
                    "read_write image read after this work-item wrote it, with no image memory fence in between",
                    FaultKind::UndefinedBehaviour, index, v, c, level);
}

// OpSampledImage: the pair (image handle, sampler handle).
// N: the handles' width (op->n), 4 or 8 bytes.
template <uint32_t N> const Op* sampledImage(WorkItem& wi, const Op* op) {
  std::memcpy(wi.regs + op->r, wi.regs + op->a, N);
  std::memcpy(wi.regs + op->r + N, wi.regs + op->b, N);
  return op + 1;
}
// Its lane form (lanes.hpp).
template <uint32_t N> const Op* sampledImageOnLanes(LaneBatch& b, const Op* op) {
  const uint8_t *image = b.lane0(op->a), *sampler = b.lane0(op->b);
  uint8_t *first = b.lane0(op->r), *second = b.lane0(op->r + N);
  for (uint32_t l = 0, count = b.count; l < count; ++l) {
    std::memcpy(first + size_t(l) * 8, image + size_t(l) * 8, N);
    std::memcpy(second + size_t(l) * 8, sampler + size_t(l) * 8, N);
  }
  return op + 1;
}

// The element at integer coordinates `i` of mip level `level` (in ImageView::element's order), or nullptr when they
// are outside the level or the image has no such level.
const uint8_t* elementInside(const images::ImageView& v, const std::array<int32_t, 3>& i, uint32_t level) {
  if (level >= std::max<uint32_t>(1, v.desc.numMipLevels)) return nullptr;
  const images::LevelSize size = images::levelSize(v.desc, level);
  if (i[0] < 0 || i[1] < 0 || i[2] < 0 || uint64_t(i[0]) >= size.width || uint64_t(i[1]) >= size.height ||
      uint64_t(i[2]) >= size.depth)
    return nullptr;
  return v.element(uint64_t(i[0]), uint64_t(i[1]), uint64_t(i[2]), level);
}

// Float coordinates with allowed sets (computed with freedom: contraction, a math function): the corners of the box
// the sets span, when each set is narrower than half a texel of its axis (so that between a set's ends the addressing
// selects no texel that neither end's candidates hold: floor and rint change at most once in it, wrapping included),
// else false (the texels are then open). `corners` starts as {c}.
bool coordinateCorners(const ShadowRun& run, const WorkItem& wi, const ImageOpInfo& info, const images::ImageView& v,
                       const images::Sampler& s, std::vector<images::Coord>& corners) {
  const images::LevelSize size = images::levelSize(v.desc, 0);  // the widest level: the largest texel count
  // The filtered axes' texel counts; an array's layer coordinate is unnormalized (one unit per layer).
  std::vector<double> texels;
  switch (v.desc.type) {
    case images::ImageType::Image1D:
    case images::ImageType::Image1DBuffer: texels = {double(size.width)}; break;
    case images::ImageType::Image1DArray: texels = {double(size.width), 0}; break;
    case images::ImageType::Image2D: texels = {double(size.width), double(size.height)}; break;
    case images::ImageType::Image2DArray: texels = {double(size.width), double(size.height), 0}; break;
    case images::ImageType::Image3D: texels = {double(size.width), double(size.height), double(size.depth)}; break;
  }
  const uint32_t lanes = std::min<uint32_t>(info.coordLanes, uint32_t(texels.size()));
  for (uint32_t k = 0; k < lanes; ++k) {
    ShadowEntry scratch;
    const ShadowEntry* e = run.lane(wi.regs + info.coordReg + 4 * k, 4, scratch);
    if (!e) continue;
    const numerics::ValueSet& set = e->set;
    if (e->undetermined || e->format != numerics::Format::Float || set.nan || !set.hasNumbers() ||
        !std::isfinite(set.lo) || !std::isfinite(set.hi))
      return false;
    const double scale = s.normalizedCoords && texels[k] > 0 ? texels[k] : 1.0;
    if ((set.hi - set.lo) * scale >= 0.5) return false;
    std::vector<images::Coord> next;
    for (const auto& corner : corners)
      for (double end : {set.lo, set.hi}) {
        images::Coord at = corner;
        at.f[k] = float(end);  // a value of the set's format: exact
        next.push_back(at);
      }
    corners = std::move(next);
  }
  return true;
}

// The shadow mode (interpreter/shadow.hpp): the read's allowed values are the image verdict's (images/verdict.hpp):
// per component the union of the allowed intervals of every texel set coordinate rounding can select (the 1.5 ulp
// conversions, flushing; for linear filtering the weighted average of every candidate footprint, widened for the
// filter's arithmetic), at every corner of the box of coordinates with sets (coordinateCorners). Coordinates whose
// sets are wider than that or undetermined, a level of detail with a set, or an image written from values with sets
// (for a sampler-less read: the element it reads), leave the texels open: any value for float reads, undetermined for
// integer reads.
[[gnu::cold]] void shadowRead(WorkItem& wi, const Op* op, const ImageOpInfo& info, const images::ImageView& v,
                              const images::Sampler* s, const images::Coord& c, const images::LevelOfDetail& lod,
                              const images::Color& value) {
  ShadowRun& run = *wi.shadow;
  const ColorKind kind = colorKindOf(info, v);
  const bool isFloat = kind == ColorKind::Float || kind == ColorKind::Half;
  const uint32_t laneBytes = info.valueScalar == ScalarType::Half ? 2 : 4;
  const numerics::Format format = laneBytes == 2 ? numerics::Format::Half : numerics::Format::Float;
  uint8_t* out = wi.regs + info.valueReg;
  const uint32_t outBytes = laneBytes * info.valueLanes;
  std::optional<uint32_t> decision = run.decisionIn(wi.regs + info.coordReg, 4 * info.coordLanes);
  std::vector<images::Coord> corners{c};
  bool open = decision.has_value();
  if (!open && run.anyIn(wi.regs + info.coordReg, 4 * info.coordLanes))
    open = !s || !c.isFloat || !coordinateCorners(run, wi, info, v, *s, corners);
  if (info.lodKind == images::LevelOfDetail::Kind::Lod) open = open || run.anyIn(wi.regs + info.lodReg, 4);
  if (info.lodKind == images::LevelOfDetail::Kind::Gradients)
    open = open || run.anyIn(wi.regs + info.dxReg, 4 * info.gradLanes) || run.anyIn(wi.regs + info.dyReg, 4 * info.gradLanes);
  if (!s && !open && !c.isFloat) {
    // A sampler-less read reads one element: open when the kernel wrote it from a colour with freedom.
    const uint32_t level = lod.kind == images::LevelOfDetail::Kind::Lod ? uint32_t(lod.lod) : 0;
    if (const uint8_t* e = elementInside(v, c.i, level)) {
      const auto w = run.imageWrites.find(e);
      open = w != run.imageWrites.end() && w->second.freedom != UINT32_MAX;
    }
  } else {
    for (const void* w : run.imagesWrittenFromSets) open = open || w == v.data;
  }
  if (open && !isFloat) {
    if (!decision) decision = recordShadowDecision(wi, op, "an integer image read whose texels the allowed sets leave open");
    run.markUndetermined(out, outBytes, laneBytes, *decision);
    return;
  }
  std::array<numerics::ValueSet, 4> sets;
  bool bounded = !open;
  if (bounded) {
    images::VerdictOptions vo;
    vo.access = accessOptions(wi, info);
    for (const images::Coord& at : corners) {
      const images::ImageVerdict first = images::judgeRead(v, s, at, kind, lod, value, vo);
      bounded = bounded && first.bounded;
      std::vector<images::Color> candidates = first.candidates;
      if (candidates.empty()) candidates.push_back(value);
      for (const auto& cand : candidates) {
        const images::ImageVerdict iv = images::judgeRead(v, s, at, kind, lod, cand, vo);
        bounded = bounded && iv.bounded;
        for (uint32_t i = 0; i < 4; ++i)
          sets[i] = numerics::hull(sets[i], std::isnan(iv.lo[i])
                                                ? numerics::ValueSet::nanOnly()
                                                : numerics::ValueSet{iv.lo[i], iv.hi[i], iv.orNaN[i]});
      }
    }
  }
  for (uint32_t i = 0; i < info.valueLanes; ++i) {
    uint8_t* p = out + i * laneBytes;
    if (!isFloat) {
      if (sets[i].isPoint() || (sets[i].lo == sets[i].hi && !sets[i].nan)) {
        run.clear(p, laneBytes);
      } else {
        run.markUndetermined(p, laneBytes, laneBytes,
                             recordShadowDecision(wi, op, "an integer image read at a texel boundary: the texels "
                                                          "coordinate rounding selects differ"));
      }
      continue;
    }
    const double ref = laneBytes == 2 ? numerics::toDouble(numerics::Half{uint16_t(value.lanes[i])})
                                      : double(std::bit_cast<float>(value.lanes[i]));
    writeShadowLane(wi, op, p, uint8_t(laneBytes), format, bounded ? sets[i] : numerics::ValueSet::all(), ref);
  }
}

// OpImageSampleExplicitLod: read_image{f,h,i,ui}(image, sampler, coord [, lod | gradients]).
[[gnu::noinline]] const Op* sampleExplicitLodGeneral(WorkItem& wi, const Op* op, const images::ImageView* v,
                                                     uint32_t index, const images::Sampler* s) {
  const ImageOpInfo& info = infoOf(op);
  const images::Coord c = coordOf(wi, info);
  images::LevelOfDetail lod;
  lod.kind = info.lodKind;
  if (info.lodKind == images::LevelOfDetail::Kind::Lod) {
    lod.lod = rd<float>(wi, info.lodReg);
  } else if (info.lodKind == images::LevelOfDetail::Kind::Gradients) {
    for (uint32_t i = 0; i < std::min<uint32_t>(info.gradLanes, 3); ++i) {
      lod.dx[i] = rd<float>(wi, info.dxReg + 4 * i);
      lod.dy[i] = rd<float>(wi, info.dyReg + 4 * i);
    }
  }
  if (!checkReadAfterWrite(wi, op, index, *v, c, 0)) return nullptr;
  const images::ReadResult res = images::readSampled(*v, *s, c, colorKindOf(info, *v), lod, accessOptions(wi, info));
  if (!meet(wi, op, res.undefined, index, *v, c, 0)) return nullptr;
  storeColor(wi, info, res.value);
  if (wi.shadow) [[unlikely]]
    shadowRead(wi, op, info, *v, s, c, lod, res.value);
  return op + 1;
}

// The common case first (images/rgba8.hpp: a 2D RGBA8 image read as float4 with float coordinates, the value proven):
// no undefined condition, no read-after-write rule, the same bits.
const Op* sampleExplicitLod(WorkItem& wi, const Op* op) {
  const ImageOpInfo& info = infoOf(op);
  uint32_t index = 0;
  const images::ImageView* v = imageOf(wi, op, op->a, info.ptrBytes, index);
  if (!v) return nullptr;
  const images::Sampler* s = samplerOf(wi, op, op->a + info.ptrBytes, info.ptrBytes);
  if (!s) return nullptr;
  if (info.float4 && info.coordFloat && !wi.shadow && v->desc.numMipLevels <= 1) [[likely]] {
    const numerics::Choices& choices = wi.launch->choices ? *wi.launch->choices : numerics::defaultChoices();
    const bool binary32 = choices.get<numerics::Choice::ImageCoordinatePrecision>() ==
                          numerics::ImageCoordinatePrecisionOption::Binary32;
    uint32_t lanes[4];
    if (images::readRgba8Sampled(*v, *s, rd<float>(wi, info.coordReg), rd<float>(wi, info.coordReg + 4), binary32,
                                 info.conversion, lanes)) {
      std::memcpy(wi.regs + info.valueReg, lanes, 16);
      return op + 1;
    }
  }
  return sampleExplicitLodGeneral(wi, op, v, index, s);
}

// OpImageRead: the sampler-less read_image{f,h,i,ui}(image, int coord) (OpenCL SPIR-V Environment §7.8
// [[_sampled_and_sampler_less_reads]]), with the Lod operand of cl_khr_mipmap_image.
[[gnu::noinline]] const Op* imageReadGeneral(WorkItem& wi, const Op* op, const images::ImageView* v, uint32_t index) {
  const ImageOpInfo& info = infoOf(op);
  const images::Coord c = coordOf(wi, info);
  const uint32_t level = levelOf(wi, info);
  if (!checkReadAfterWrite(wi, op, index, *v, c, level)) return nullptr;
  const images::ReadResult res =
      images::readSamplerless(*v, c.i, colorKindOf(info, *v), level, accessOptions(wi, info));
  if (!meet(wi, op, res.undefined, index, *v, c, level)) return nullptr;
  storeColor(wi, info, res.value);
  if (wi.shadow) [[unlikely]] {
    images::LevelOfDetail lod;
    lod.kind = info.lodKind;
    lod.lod = float(level);
    shadowRead(wi, op, info, *v, nullptr, c, lod, res.value);
  }
  return op + 1;
}

// The common case first (a 2D RGBA8 image read as float4, inside): no undefined condition, no read-after-write rule,
// the same bits.
const Op* imageRead(WorkItem& wi, const Op* op) {
  const ImageOpInfo& info = infoOf(op);
  uint32_t index = 0;
  const images::ImageView* v = imageOf(wi, op, op->a, info.ptrBytes, index);
  if (!v) return nullptr;
  if (info.float4 && !wi.shadow) [[likely]] {
    uint32_t lanes[4];
    if (images::readRgba8Float(*v, rd<int32_t>(wi, info.coordReg), rd<int32_t>(wi, info.coordReg + 4), lanes)) {
      std::memcpy(wi.regs + info.valueReg, lanes, 16);
      return op + 1;
    }
  }
  return imageReadGeneral(wi, op, v, index);
}

// The shadow mode: the write's record for check() (ShadowRun::imageWrites) with the allowed sets of its colour
// components; an image written at coordinates or a level computed from values with freedom, or outside itself (an
// undefined write, OpenCL C 3.0 §6.15.15.4 [[built-in-image-write-functions]]), is open: another device may have
// written any of its elements. A colour with freedom also makes later reads of the image open (shadowRead).
[[gnu::cold]] void shadowWrite(WorkItem& wi, const Op* op, const ImageOpInfo& info, const images::ImageView& v,
                               const images::Coord& c, uint32_t level, const images::Color& color,
                               images::Undefined u) {
  ShadowRun& run = *wi.shadow;
  const uint32_t laneBytes = info.valueScalar == ScalarType::Half ? 2 : 4;
  const uint8_t* value = wi.regs + info.valueReg;
  const bool free = run.anyIn(value, laneBytes * info.valueLanes);
  if (free) {
    auto& w = run.imagesWrittenFromSets;
    if (std::find(w.begin(), w.end(), static_cast<const void*>(v.data)) == w.end()) w.push_back(v.data);
  }
  const bool openLevel = info.lodKind == images::LevelOfDetail::Kind::Lod && run.anyIn(wi.regs + info.lodReg, 4);
  if (openLevel || run.anyIn(wi.regs + info.coordReg, 4 * info.coordLanes) || u != images::Undefined::None) {
    std::optional<uint32_t> d = run.decisionIn(wi.regs + info.coordReg, 4 * info.coordLanes);
    if (!d && openLevel) d = run.decisionIn(wi.regs + info.lodReg, 4);
    if (!d)
      d = recordShadowDecision(wi, op,
                               u != images::Undefined::None
                                   ? "an image write the spec leaves undefined (" + std::string(images::describe(u)) +
                                         "): another device may write anything"
                                   : std::string("an image write at coordinates computed from values with freedom"));
    run.openAllocations.try_emplace(v.data, *d);
    return;
  }
  ShadowImageWrite record;
  record.color = color;
  record.kind = colorKindOf(info, v);
  record.instruction = op->inst;
  if (free) {
    ShadowImageFreedom f;
    const numerics::Format format = laneBytes == 2 ? numerics::Format::Half : numerics::Format::Float;
    for (uint32_t i = 0; i < info.valueLanes; ++i) {
      ShadowEntry scratch;
      const ShadowEntry* e = run.lane(value + i * laneBytes, laneBytes, scratch);
      if (!e) continue;
      if (e->undetermined)
        f.decision = e->decision;
      else
        f.sets[i] = e->format == format || e->set.isAll() ? images::ComponentSet{e->set.lo, e->set.hi, e->set.nan}
                                                          : images::ComponentSet{-INFINITY, INFINITY, true};
    }
    record.freedom = uint32_t(run.imageWriteFreedom.size());
    run.imageWriteFreedom.push_back(f);
  }
  if (const uint8_t* e = elementInside(v, c.i, level)) run.imageWrites[e] = record;
}

// OpImageWrite: write_image{f,h,i,ui}(image, int coord [, int lod], color).
[[gnu::noinline]] const Op* imageWriteGeneral(WorkItem& wi, const Op* op, const images::ImageView* v, uint32_t index) {
  const ImageOpInfo& info = infoOf(op);
  const images::Coord c = coordOf(wi, info);
  const uint32_t level = levelOf(wi, info);
  const images::Color color = loadColor(wi, info);
  const images::Undefined u = images::write(*v, c.i, color, colorKindOf(info, *v), level, accessOptions(wi, info));
  if (info.access == ImageAccess::ReadWrite && wi.imagesWritten) wi.imagesWritten[index] = 1;
  if (wi.shadow) [[unlikely]]
    shadowWrite(wi, op, info, *v, c, level, color, u);
  if (!meet(wi, op, u, index, *v, c, level)) return nullptr;
  return op + 1;
}

// The common case first (a 2D RGBA8 image written from a float4, inside): nothing undefined, and a write_only image
// needs no imagesWritten mark.
const Op* imageWrite(WorkItem& wi, const Op* op) {
  const ImageOpInfo& info = infoOf(op);
  uint32_t index = 0;
  const images::ImageView* v = imageOf(wi, op, op->a, info.ptrBytes, index);
  if (!v) return nullptr;
  if (info.float4 && !wi.shadow) [[likely]] {
    uint32_t lanes[4];
    std::memcpy(lanes, wi.regs + info.valueReg, 16);
    if (images::writeRgba8Float(*v, rd<int32_t>(wi, info.coordReg), rd<int32_t>(wi, info.coordReg + 4), lanes))
      return op + 1;
  }
  return imageWriteGeneral(wi, op, v, index);
}

// An image memory fence (OpMemoryBarrier or OpControlBarrier whose semantics include ImageMemory): the work-item's
// writes become visible to its reads. op->a: the semantics register when not constant (op->n == 0), else op->n == 1.
const Op* imageFence(WorkItem& wi, const Op* op) {
  const bool image = op->n == 1 || (rd<uint32_t>(wi, op->a) & uint32_t(spv::MemorySemanticsMask::ImageMemory));
  if (image && wi.imagesWritten) std::memset(wi.imagesWritten, 0, wi.launch->imageCount);
  return op + 1;
}

// Queries (OpenCL C 3.0 §6.15.15.5 [[built-in-image-query-functions]]). The result is a 32- or 64-bit integer
// scalar or vector (get_image_dim, size_t get_image_array_size); op->n: its lanes, op->c: bytes per lane.
void storeInts(WorkItem& wi, const Op* op, const uint64_t* values, uint32_t count) {
  for (uint32_t i = 0; i < op->n; ++i) {
    const uint64_t v = i < count ? values[i] : 0;
    if (op->c == 8)
      wr<uint64_t>(wi, op->r + 8 * i, v);
    else
      wr<uint32_t>(wi, op->r + 4 * i, uint32_t(v));
  }
}

// OpImageQuerySizeLod / OpImageQuerySize: width, height, depth of the level, then the number of layers of an array
// (SPIR-V 1.0 §3.32.10 [external] OpImageQuerySizeLod). op->b: the Lod register, op->imm 1 when there is one.
const Op* querySize(WorkItem& wi, const Op* op) {
  uint32_t index = 0;
  const images::ImageView* v = imageOf(wi, op, op->a, uint32_t(op->align), index);
  if (!v) return nullptr;
  uint32_t level = 0;
  if (op->imm) {
    const int32_t lod = rd<int32_t>(wi, op->b);
    level = lod < 0 ? UINT32_MAX : uint32_t(lod);
  }
  if (level >= v->desc.numMipLevels) {
    images::Coord c;
    c.isFloat = false;
    if (!meet(wi, op, images::Undefined::MipLevelOutOfRange, index, *v, c, level)) return nullptr;
    // The defined value: the sizes the halving rule gives, at least 1 (a level past 63 is size 1 everywhere).
    level = std::min<uint32_t>(level, 63);
  }
  // Level 0 is the desc's own sizes (get_image_width and the like, once per work-item in most kernels).
  const images::LevelSize ls =
      level == 0 ? images::LevelSize{v->desc.width, v->desc.height, v->desc.depth} : images::levelSize(v->desc, level);
  uint64_t values[3] = {ls.width, 0, 0};
  uint32_t count = 1;
  switch (v->desc.type) {
    case images::ImageType::Image1D:
    case images::ImageType::Image1DBuffer: break;
    case images::ImageType::Image1DArray:
      values[1] = v->desc.arraySize;
      count = 2;
      break;
    case images::ImageType::Image2D:
      values[1] = ls.height;
      count = 2;
      break;
    case images::ImageType::Image2DArray:
      values[1] = ls.height;
      values[2] = v->desc.arraySize;
      count = 3;
      break;
    case images::ImageType::Image3D:
      values[1] = ls.height;
      values[2] = ls.depth;
      count = 3;
      break;
  }
  storeInts(wi, op, values, count);
  return op + 1;
}

// querySize of level 0 (OpImageQuerySize, or OpImageQuerySizeLod with the constant 0 that get_image_width and the
// like compile to): the descriptor's own sizes, no level check. T: the result's lane type.
template <class T> void level0Sizes(const images::ImageDesc& d, T values[4]) {
  values[0] = T(d.width);
  values[1] = values[2] = values[3] = 0;
  switch (d.type) {
    case images::ImageType::Image1D:
    case images::ImageType::Image1DBuffer: break;
    case images::ImageType::Image1DArray: values[1] = T(d.arraySize); break;
    case images::ImageType::Image2D: values[1] = T(d.height); break;
    case images::ImageType::Image2DArray:
      values[1] = T(d.height);
      values[2] = T(d.arraySize);
      break;
    case images::ImageType::Image3D:
      values[1] = T(d.height);
      values[2] = T(d.depth);
      break;
  }
}
template <class T> const Op* querySizeLevel0(WorkItem& wi, const Op* op) {
  uint32_t index = 0;
  const images::ImageView* v = imageOf(wi, op, op->a, uint32_t(op->align), index);
  if (!v) [[unlikely]]
    return nullptr;
  T values[4];
  level0Sizes(v->desc, values);
  for (uint32_t i = 0; i < op->n; ++i) std::memcpy(wi.regs + op->r + i * sizeof(T), &values[i], sizeof(T));
  return op + 1;
}

// Lane forms (lanes.hpp) of the size query and of the level-0 float4 read and write of a CL_RGBA / CL_UNORM_INT8 2D
// image (images/rgba8.hpp). The first lane whose handle is no image, or whose access the fast path does not take,
// stops the lanes before it: it runs alone, where the general path may fault, warn or decide a choice. Each texel a
// lane reads or writes goes into the batch's LaneLog as a buffer access does (an image may share memory with a buffer
// or another image): where lanes race on it, the span is undone and runs one by one.

// Lane l's image or sampler handle (handleIn on lanes).
inline uint64_t laneHandle(const LaneBatch& b, uint32_t reg, uint32_t ptrBytes, uint32_t l) {
  const uint8_t* handles = b.lane0(reg);
  return ptrBytes == 8 ? rdLane<uint64_t>(handles, l) : rdLane<uint32_t>(handles, l);
}
// Lane l's image, or nullptr where imageOf would fault.
inline const images::ImageView* laneImage(const LaneBatch& b, uint32_t reg, uint32_t ptrBytes, uint32_t l) {
  const uint64_t h = laneHandle(b, reg, ptrBytes, l);
  const Launch& launch = *b.items[0]->launch;
  if ((h & ~uint64_t(kHandleIndexMask)) == kImageHandleTag && (h & kHandleIndexMask) < launch.imageCount) [[likely]]
    return launch.images[h & kHandleIndexMask];
  return nullptr;
}
template <class T> const Op* querySizeLevel0OnLanes(LaneBatch& b, const Op* op) {
  // The lanes usually name one image (a kernel argument): where they all name the first lane's, its sizes are worked
  // out once and each 8-byte chunk of the result is filled across the lanes.
  const uint32_t ptrBytes = uint32_t(op->align), bytes = op->n * uint32_t(sizeof(T));
  const uint64_t first = laneHandle(b, op->a, ptrBytes, 0);
  bool same = true;
  for (uint32_t l = 1; l < b.count; ++l) same &= laneHandle(b, op->a, ptrBytes, l) == first;
  T values[4] = {};
  if (same) {
    const images::ImageView* v = laneImage(b, op->a, ptrBytes, 0);
    if (!v) [[unlikely]]
      return stopBefore(b, op, 0);
    level0Sizes(v->desc, values);
    for (uint32_t at = 0; at < bytes; at += 8) {
      uint64_t chunk = 0;
      std::memcpy(&chunk, reinterpret_cast<const uint8_t*>(values) + at, bytes - at < 8 ? bytes - at : 8);
      uint8_t* lanes = b.lane0(op->r + at);
      for (uint32_t l = 0; l < b.count; ++l) wrLane<uint64_t>(lanes, l, chunk);
    }
    return op + 1;
  }
  for (uint32_t l = 0; l < b.count; ++l) {
    const images::ImageView* v = laneImage(b, op->a, ptrBytes, l);
    if (!v) [[unlikely]]
      return stopBefore(b, op, l);
    level0Sizes(v->desc, values);
    memoryToLane(b, op->r, l, reinterpret_cast<const uint8_t*>(values), bytes);
  }
  return op + 1;
}
// The texels of an image Op's lanes in the log: one entry of 4-byte accesses (an RGBA8 texel), its extent kept as
// the lanes record them.
struct LaneTexels {
  LaneLog* log;
  uintptr_t* touched;
  LaneLog::Extent extent;
  uintptr_t end = 0;
  LaneTexels(const LaneBatch& b, bool store) : log(b.log), touched(log->begin(b.first, b.count, 4, store)) {}
  ~LaneTexels() {
    if (touched) log->extents.back() = extent;
  }
  LaneTexels(const LaneTexels&) = delete;
  LaneTexels& operator=(const LaneTexels&) = delete;
  void record(uint32_t l, const uint8_t* e) {
    touched[l] = uintptr_t(e);
    extent.add(uintptr_t(e), 4, end);
  }
};
// Whether the image a handle names is read_only in this Op and shares its memory with no other argument: then nothing
// writes it in the launch, and reading it needs no record in the LaneLog.
inline bool unwrittenImage(const LaneBatch& b, const ImageOpInfo& info, uint64_t handle) {
  const Launch& launch = *b.items[0]->launch;
  return info.access == ImageAccess::ReadOnly && launch.imageExclusive &&
         launch.imageExclusive[handle & kHandleIndexMask];
}
// The first lane's image of an image Op on lanes, when it is one readRgba8Float and writeRgba8Float take
// (rgba8_detail::element's tests but the coordinates'): the lanes that name the same image access it; one that names
// another, or whose coordinates are outside it, stops them.
struct LaneRgba8 {
  const images::ImageView* image = nullptr;  // nullptr: not such an image
  uint64_t handle = 0, width = 0, height = 0, rowPitch = 0, bytes = 0;
  uint8_t* data = nullptr;
  LaneRgba8(const LaneBatch& b, const ImageOpInfo& info, const Op* op) {
    const images::ImageView* v = laneImage(b, op->a, info.ptrBytes, 0);
    if (!v) return;
    const images::ImageDesc& d = v->desc;
    if (d.type != images::ImageType::Image2D || d.format.order != images::ChannelOrder::RGBA ||
        d.format.type != images::ChannelType::UnormInt8 || v->data == nullptr)
      return;
    image = v;
    handle = laneHandle(b, op->a, info.ptrBytes, 0), width = d.width, height = d.height, rowPitch = d.rowPitch;
    bytes = v->bytes, data = v->data;
  }
  // Lane l's element at (x, y), or nullptr.
  uint8_t* element(const LaneBatch& b, const ImageOpInfo& info, const Op* op, uint32_t l, int32_t x, int32_t y) const {
    const uint64_t off = uint64_t(uint32_t(y)) * rowPitch + uint64_t(uint32_t(x)) * 4;
    if (x < 0 || y < 0 || uint64_t(x) >= width || uint64_t(y) >= height || off + 4 > bytes ||
        (l > 0 && laneHandle(b, op->a, info.ptrBytes, l) != handle)) [[unlikely]]
      return nullptr;
    return data + off;
  }
};
const Op* imageReadOnLanes(LaneBatch& b, const Op* op) {
  const ImageOpInfo& info = infoOf(op);
  if (!info.float4 || !b.log) return leaveLanes(b, op);
  const LaneRgba8 rgba8(b, info, op);
  if (!rgba8.image) return leaveLanes(b, op);
  std::optional<LaneTexels> texels;
  if (!unwrittenImage(b, info, rgba8.handle)) {
    texels.emplace(b, false);
    if (!texels->touched) return leaveLanes(b, op);
  }
  const uint8_t *xs = b.lane0(info.coordReg), *ys = b.lane0(info.coordReg + 4);
  uint8_t *rg = b.lane0(info.valueReg), *ba = b.lane0(info.valueReg + 8);
  const auto& unorm = images::rgba8_detail::kUnorm8Float;
  for (uint32_t l = 0; l < b.count; ++l) {
    const uint8_t* e = rgba8.element(b, info, op, l, rdLane<int32_t>(xs, l), rdLane<int32_t>(ys, l));
    if (!e) [[unlikely]]
      return stopBefore(b, op, l);
    if (texels) texels->record(l, e);
    // readRgba8Float's decoding: each byte's correctly rounded c / 255.
    const float c[4] = {unorm[e[0]], unorm[e[1]], unorm[e[2]], unorm[e[3]]};
    std::memcpy(rg + size_t(l) * 8, c, 8);
    std::memcpy(ba + size_t(l) * 8, c + 2, 8);
  }
  return op + 1;
}
// Lane l's sampler, or nullptr where samplerOf would fault.
inline const images::Sampler* laneSampler(const LaneBatch& b, uint32_t reg, uint32_t ptrBytes, uint32_t l) {
  const uint64_t h = laneHandle(b, reg, ptrBytes, l);
  const Launch& launch = *b.items[0]->launch;
  if ((h & ~uint64_t(kHandleIndexMask)) == kSamplerHandleTag && (h & kHandleIndexMask) < launch.samplerCount)
      [[likely]]
    return &launch.samplers[h & kHandleIndexMask];
  return nullptr;
}
// sampleExplicitLod's fast path on lanes (read_imagef with a sampler at float coordinates, level 0). A filtered read's
// texels stay inside images/, so the whole image goes into the log as read (LaneLog::readRanges); lanes reading
// another image than the first lane's stop there.
const Op* sampleOnLanes(LaneBatch& b, const Op* op) {
  const ImageOpInfo& info = infoOf(op);
  if (!info.float4 || !info.coordFloat || !b.log) return leaveLanes(b, op);
  const images::ImageView* image = laneImage(b, op->a, info.ptrBytes, 0);
  if (!image || image->desc.numMipLevels > 1) return leaveLanes(b, op);
  const Launch& launch = *b.items[0]->launch;
  const numerics::Choices& choices = launch.choices ? *launch.choices : numerics::defaultChoices();
  const bool binary32 = choices.get<numerics::Choice::ImageCoordinatePrecision>() ==
                        numerics::ImageCoordinatePrecisionOption::Binary32;
  if (!unwrittenImage(b, info, laneHandle(b, op->a, info.ptrBytes, 0)))
    b.log->readRanges.push_back({uintptr_t(image->data), uintptr_t(image->data + image->bytes), false});
  // The lanes that name the first lane's image and sampler (a sampled image's two handles), which usually all do.
  const images::Sampler* sampler = laneSampler(b, op->a + info.ptrBytes, info.ptrBytes, 0);
  if (!sampler) return leaveLanes(b, op);
  const uint64_t imageHandle = laneHandle(b, op->a, info.ptrBytes, 0),
                 samplerHandle = laneHandle(b, op->a + info.ptrBytes, info.ptrBytes, 0);
  uint32_t same = 1;
  while (same < b.count && laneHandle(b, op->a, info.ptrBytes, same) == imageHandle &&
         laneHandle(b, op->a + info.ptrBytes, info.ptrBytes, same) == samplerHandle)
    ++same;
  const images::Rgba8SampledReader reader(*image, *sampler, binary32, info.conversion);
  if (!reader.valid()) return leaveLanes(b, op);
  const uint8_t *us = b.lane0(info.coordReg), *vs = b.lane0(info.coordReg + 4);
  uint8_t *rg = b.lane0(info.valueReg), *ba = b.lane0(info.valueReg + 8);
  for (uint32_t l = 0; l < same; ++l) {
    uint32_t lanes[4];
    if (!reader.read(rdLane<float>(us, l), rdLane<float>(vs, l), lanes)) [[unlikely]]
      return stopBefore(b, op, l);
    std::memcpy(rg + size_t(l) * 8, lanes, 8);
    std::memcpy(ba + size_t(l) * 8, lanes + 2, 8);
  }
  return same < b.count ? stopBefore(b, op, same) : op + 1;
}
const Op* imageWriteOnLanes(LaneBatch& b, const Op* op) {
  const ImageOpInfo& info = infoOf(op);
  if (!info.float4 || !b.log) return leaveLanes(b, op);
  const LaneRgba8 rgba8(b, info, op);
  if (!rgba8.image) return leaveLanes(b, op);
  LaneTexels texels(b, true);
  if (!texels.touched) return leaveLanes(b, op);
  const uint8_t *xs = b.lane0(info.coordReg), *ys = b.lane0(info.coordReg + 4);
  const uint8_t *rg = b.lane0(info.valueReg), *ba = b.lane0(info.valueReg + 8);
  for (uint32_t l = 0; l < b.count; ++l) {
    uint8_t* e = rgba8.element(b, info, op, l, rdLane<int32_t>(xs, l), rdLane<int32_t>(ys, l));
    if (!e) [[unlikely]]
      return stopBefore(b, op, l);
    texels.record(l, e);
    b.log->save(l, e, 4);
    uint32_t lanes[4];
    std::memcpy(lanes, rg + size_t(l) * 8, 8);
    std::memcpy(lanes + 2, ba + size_t(l) * 8, 8);
    images::rgba8_detail::encodeFloat(e, lanes);
  }
  return op + 1;
}

// OpImageQueryLevels: get_image_num_mip_levels (cl_khr_mipmap_image).
const Op* queryLevels(WorkItem& wi, const Op* op) {
  uint32_t index = 0;
  const images::ImageView* v = imageOf(wi, op, op->a, uint32_t(op->align), index);
  if (!v) return nullptr;
  const uint64_t n = v->desc.numMipLevels;
  storeInts(wi, op, &n, 1);
  return op + 1;
}

// OpImageQueryFormat / OpImageQueryOrder: the SPIR-V enumerants, which map to the CL_ values in the same order
// (OpenCL SPIR-V Environment §2.7 [[_image_channel_data_type_mapping]]: SnormInt8 0 is CL_SNORM_INT8 0x10D0, …;
// §2.6 [[_image_channel_order_mapping]]: R 0 is CL_R 0x10B0, …); get_image_channel_data_type and
// get_image_channel_order add the CLK_ base back.
const Op* queryFormat(WorkItem& wi, const Op* op) {
  uint32_t index = 0;
  const images::ImageView* v = imageOf(wi, op, op->a, uint32_t(op->align), index);
  if (!v) return nullptr;
  const uint64_t value = uint32_t(v->desc.format.type) - uint32_t(images::ChannelType::SnormInt8);
  storeInts(wi, op, &value, 1);
  return op + 1;
}
const Op* queryOrder(WorkItem& wi, const Op* op) {
  uint32_t index = 0;
  const images::ImageView* v = imageOf(wi, op, op->a, uint32_t(op->align), index);
  if (!v) return nullptr;
  const uint64_t value = uint32_t(v->desc.format.order) - uint32_t(images::ChannelOrder::R);
  storeInts(wi, op, &value, 1);
  return op + 1;
}

// ---- Lowering ----

// The OpTypeImage behind an image or sampled image operand.
ImageTypeInfo imageInfoOfOperand(const Lowerer& L, const Instruction& inst, uint32_t id) {
  uint32_t typeId = L.typeIdOfValue(id);
  if (L.type(typeId).kind == TypeKind::SampledImage) typeId = L.m.def(typeId).words[2];
  const ImageTypeInfo info = imageTypeInfo(L.m, typeId);
  if (!info.valid) L.reject(inst, "image operand of a type OpenCL does not have: " + info.why);
  return info;
}

constexpr const char* kCoordinateRule =
    "(OpenCL SPIR-V Environment §7.6 [[_coordinate_format_for_reading_and_writing_images]])";

void setCoordinate(Lowerer& L, const Instruction& inst, uint32_t id, ImageOpInfo& info, bool intOnly) {
  const ScalarType s = L.scalarOf(L.typeIdOfValue(id));
  if (s != ScalarType::UInt && s != ScalarType::Float)
    L.reject(inst, std::string("the coordinate must be 32-bit integers or floats ") + kCoordinateRule);
  if (intOnly && s == ScalarType::Float)
    L.reject(inst, std::string("float coordinates need a sampler ") + kCoordinateRule);
  info.coordFloat = s == ScalarType::Float;
  info.coordReg = L.reg(id);
  info.coordLanes = L.lanes(L.typeIdOfValue(id));
}

void setValue(Lowerer& L, const Instruction& inst, uint32_t typeId, uint32_t reg, ImageOpInfo& info) {
  const ScalarType s = L.scalarOf(typeId);
  const uint32_t lanes = L.lanes(typeId);
  if ((s != ScalarType::Float && s != ScalarType::Half && s != ScalarType::UInt) || (lanes != 4 && lanes != 1))
    L.reject(inst,
             "image data must be a float, half or 32-bit integer 4-component vector, or a scalar for depth "
             "images (OpenCL SPIR-V Environment §7.7 [[_data_format_for_reading_and_writing_images]])");
  info.valueScalar = s;
  info.valueLanes = lanes;
  info.valueReg = reg;
}

// The optional Image Operands starting at operand `at`: Lod, Grad, SignExtend, ZeroExtend, and SPIR-V 1.6's
// Nontemporal, a hint that the texels will not be accessed again soon (SPIR-V 1.6 §3.14 [external] Image Operands):
// it takes no operand and changes no value, so clref, which has no cache, accepts and ignores it. Any other operand
// is rejected (OpenCL SPIR-V Environment §4 [[validation-rules]] forbids ConstOffset; the rest need Shader).
void setImageOperands(Lowerer& L, const Instruction& inst, size_t at, ImageOpInfo& info, bool floatLod) {
  if (at >= inst.operandCount()) return;
  const uint32_t mask = inst.operand(at);
  if (mask & ~(kLod | kGrad | kSignExtend | kZeroExtend | kNontemporal))
    L.reject(inst, "image operands other than Lod, Grad, SignExtend, ZeroExtend and Nontemporal (mask " + hex(mask) +
                       ") are not valid in an OpenCL kernel");
  size_t next = at + 1;
  auto operand = [&]() {
    if (next >= inst.operandCount()) L.reject(inst, "an image operand is missing its value");
    return inst.operand(next++);
  };
  if (mask & kLod) {
    const uint32_t id = operand();
    const ScalarType s = L.scalarOf(L.typeIdOfValue(id));
    if (L.lanes(L.typeIdOfValue(id)) != 1 || s != (floatLod ? ScalarType::Float : ScalarType::UInt))
      L.reject(inst, std::string("the Lod operand must be a 32-bit ") + (floatLod ? "float" : "integer"));
    info.lodKind = images::LevelOfDetail::Kind::Lod;
    info.lodReg = L.reg(id);
  }
  if (mask & kGrad) {
    if (!floatLod) L.reject(inst, "the Grad operand needs a sampler");
    const uint32_t dx = operand(), dy = operand();
    for (uint32_t id : {dx, dy})
      if (L.scalarOf(L.typeIdOfValue(id)) != ScalarType::Float) L.reject(inst, "the Grad operands must be floats");
    if (info.lodKind != images::LevelOfDetail::Kind::None) L.reject(inst, "Lod and Grad together");
    info.lodKind = images::LevelOfDetail::Kind::Gradients;
    info.dxReg = L.reg(dx);
    info.dyReg = L.reg(dy);
    info.gradLanes = std::min(L.lanes(L.typeIdOfValue(dx)), L.lanes(L.typeIdOfValue(dy)));
  }
  if ((mask & kSignExtend) && (mask & kZeroExtend)) L.reject(inst, "SignExtend and ZeroExtend together");
  info.extend = mask & (kSignExtend | kZeroExtend);
}

// ImageOpInfo::float4: float4 data, at least two coordinates, not read_write (whose reads check the read-after-write
// rule and whose writes mark the image written), and level 0: no Lod or Grad, or for a sampled read a Lod (which
// OpImageSampleExplicitLod always has) that the handler ignores only for an image with one level, as readSampled does.
bool fastFloat4(const ImageOpInfo& info, bool sampled) {
  const bool level0 = info.lodKind == images::LevelOfDetail::Kind::None ||
                      (sampled && info.lodKind == images::LevelOfDetail::Kind::Lod);
  return info.valueScalar == ScalarType::Float && info.valueLanes == 4 && info.coordLanes >= 2 && level0 &&
         info.extend == 0 && info.access != ImageAccess::ReadWrite;
}

Op& emitImageOp(Lowerer& L, const Instruction& inst, Handler fn, std::shared_ptr<ImageOpInfo> info) {
  info->ptrBytes = L.ptrBytes();
  info->conversion.denormHalf = L.opt.denormHalf;
  info->conversion.denormFloat = L.opt.denormFloat;
  Op& op = L.emit(fn, inst);
  op.aux = info.get();
  L.k.auxObjects.push_back(std::move(info));
  return op;
}

void lowerSampledImage(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(L.ptrBytes() == 8 ? laneForm<&sampledImage<8>, &sampledImageOnLanes<8>>()
                                    : laneForm<&sampledImage<4>, &sampledImageOnLanes<4>>(),
                  inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.b = L.reg(inst.operand(1));
  op.n = L.ptrBytes();
}

// OpImage: the image of a sampled image (its first handle).
const Op* imageOfSampledImage(WorkItem& wi, const Op* op) {
  std::memcpy(wi.regs + op->r, wi.regs + op->a, op->n);
  return op + 1;
}
void lowerImage(Lowerer& L, const Instruction& inst) {
  Op& op = L.emit(&imageOfSampledImage, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.n = L.ptrBytes();
}

// OpImageSampleExplicitLod (sampled: Sampled Image, Coordinate, Image Operands with Lod or Grad required) and
// OpImageRead (Image, Coordinate [, Image Operands]) lower alike but for the handler and what the operands allow.
void lowerRead(Lowerer& L, const Instruction& inst, bool sampled, Handler handler) {
  const ImageTypeInfo type = imageInfoOfOperand(L, inst, inst.operand(0));
  if (type.access == ImageAccess::WriteOnly)
    L.reject(inst, "a read of a write_only image (OpenCL C 3.0 §6.15.15 [[image-read-and-write-functions]])");
  auto info = std::make_shared<ImageOpInfo>();
  info->access = type.access;
  info->verb = sampled ? "sampled read" : "read";
  setCoordinate(L, inst, inst.operand(1), *info, !sampled);
  setValue(L, inst, inst.resultType, L.reg(inst.resultId), *info);
  setImageOperands(L, inst, 2, *info, sampled);
  info->float4 = fastFloat4(*info, sampled);
  Op& op = emitImageOp(L, inst, handler, std::move(info));
  op.a = L.reg(inst.operand(0));
}

void lowerSampleExplicitLod(Lowerer& L, const Instruction& inst) {
  lowerRead(L, inst, true, laneForm<&sampleExplicitLod, &sampleOnLanes, LaneShadow::NotInShadow>());
}
void lowerImageRead(Lowerer& L, const Instruction& inst) {
  lowerRead(L, inst, false, laneForm<&imageRead, &imageReadOnLanes, LaneShadow::NotInShadow>());
}

void lowerImageWrite(Lowerer& L, const Instruction& inst) {
  // Operands: Image, Coordinate, Texel [, Image Operands].
  const ImageTypeInfo type = imageInfoOfOperand(L, inst, inst.operand(0));
  if (type.access == ImageAccess::ReadOnly)
    L.reject(inst, "a write to a read_only image (OpenCL C 3.0 §6.15.15 [[image-read-and-write-functions]])");
  auto info = std::make_shared<ImageOpInfo>();
  info->access = type.access;
  info->verb = "write";
  setCoordinate(L, inst, inst.operand(1), *info, true);
  setValue(L, inst, L.typeIdOfValue(inst.operand(2)), L.reg(inst.operand(2)), *info);
  setImageOperands(L, inst, 3, *info, false);
  if (info->lodKind == images::LevelOfDetail::Kind::Gradients) L.reject(inst, "OpImageWrite with Grad");
  info->float4 = fastFloat4(*info, false);
  Op& op = emitImageOp(L, inst, laneForm<&imageWrite, &imageWriteOnLanes, LaneShadow::NotInShadow>(), std::move(info));
  op.a = L.reg(inst.operand(0));
}

Op& emitQuery(Lowerer& L, const Instruction& inst, Handler fn) {
  (void)imageInfoOfOperand(L, inst, inst.operand(0));
  const ScalarType s = L.scalarOf(inst.resultType);
  if (s != ScalarType::UInt && s != ScalarType::ULong)
    L.reject(inst, "an image query's result must be 32- or 64-bit integers");
  Op& op = L.emit(fn, inst);
  op.r = L.reg(inst.resultId);
  op.a = L.reg(inst.operand(0));
  op.n = L.lanes(inst.resultType);
  op.c = sizeOf(s);
  op.align = L.ptrBytes();  // the handle's width
  return op;
}

Handler querySizeLevel0Handler(const Lowerer& L, const Instruction& inst) {
  return L.scalarOf(inst.resultType) == ScalarType::ULong
             ? laneForm<&querySizeLevel0<uint64_t>, &querySizeLevel0OnLanes<uint64_t>>()
             : laneForm<&querySizeLevel0<uint32_t>, &querySizeLevel0OnLanes<uint32_t>>();
}

void lowerQuerySizeLod(Lowerer& L, const Instruction& inst) {
  if (L.scalarOf(L.typeIdOfValue(inst.operand(1))) != ScalarType::UInt ||
      L.lanes(L.typeIdOfValue(inst.operand(1))) != 1)
    L.reject(inst, "the Level of Detail must be a 32-bit integer");
  if (L.isConstant(inst.operand(1)) && L.constantInt(inst.operand(1)) == 0) {
    Op& op = emitQuery(L, inst, querySizeLevel0Handler(L, inst));
    if (op.n > 4) L.reject(inst, "an image size query has at most 4 components");
    return;
  }
  Op& op = emitQuery(L, inst, &querySize);
  op.b = L.reg(inst.operand(1));
  op.imm = 1;
}
void lowerQuerySize(Lowerer& L, const Instruction& inst) {
  Op& op = emitQuery(L, inst, querySizeLevel0Handler(L, inst));
  if (op.n > 4) L.reject(inst, "an image size query has at most 4 components");
}
void lowerQueryLevels(Lowerer& L, const Instruction& inst) { emitQuery(L, inst, &queryLevels); }
void lowerQueryFormat(Lowerer& L, const Instruction& inst) { emitQuery(L, inst, &queryFormat); }
void lowerQueryOrder(Lowerer& L, const Instruction& inst) { emitQuery(L, inst, &queryOrder); }

}  // namespace

void emitImageFence(Lowerer& L, const Instruction& inst, uint32_t semanticsId) {
  // Only kernels with read_write image parameters track writes (the other images cannot be read back).
  if (std::none_of(L.k.params.begin(), L.k.params.end(), [](const KernelParam& p) {
        return p.kind == ParamKind::Image && p.access == ImageAccess::ReadWrite;
      }))
    return;
  const uint32_t imageMemory = uint32_t(spv::MemorySemanticsMask::ImageMemory);
  if (L.isConstant(semanticsId) && !(uint32_t(L.constantInt(semanticsId)) & imageMemory)) return;
  Op& op = L.emit(&imageFence, inst);
  op.a = L.reg(semanticsId);
  op.n = L.isConstant(semanticsId) ? 1 : 0;
}

void registerImage(DispatchTable& t) {
  using spv::Op;
  t.lower(Op::OpSampledImage, lowerSampledImage);
  t.lower(Op::OpImage, lowerImage);
  // The reads apply the image verdict in their own Op (shadowRead): no rule after them.
  t.lower(Op::OpImageSampleExplicitLod, lowerSampleExplicitLod, {shadowNone});
  t.lower(Op::OpImageRead, lowerImageRead, {shadowNone});
  t.lower(Op::OpImageWrite, lowerImageWrite);
  t.lower(Op::OpImageQuerySizeLod, lowerQuerySizeLod);
  t.lower(Op::OpImageQuerySize, lowerQuerySize);
  t.lower(Op::OpImageQueryLevels, lowerQueryLevels);
  t.lower(Op::OpImageQueryFormat, lowerQueryFormat);
  t.lower(Op::OpImageQueryOrder, lowerQueryOrder);
  t.declaration({Op::OpTypeImage, Op::OpTypeSampler, Op::OpTypeSampledImage},
                "type declaration, laid out when the module is parsed (image and sampler handles, exec.hpp)");
  t.declaration({Op::OpConstantSampler}, "constant, a sampler of the kernel's table placed by lower_constants.cpp");
  t.unsupported({Op::OpImageQuerySamples},
                "multi-sampled images need cl_khr_gl_msaa_sharing, which clref does not support");
  t.unsupported({Op::OpImageFetch},
                "OpImageFetch needs an image type with Sampled 1, which the OpenCL SPIR-V Environment does not "
                "allow (OpenCL SPIR-V Environment §4 [[validation-rules]])");
  t.unsupported({Op::OpImageTexelPointer}, "image atomics are not part of OpenCL");
}

}  // namespace clref::interpreter
