// Values of a running kernel as text (value_format.hpp).
#include "cli/value_format.hpp"

#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "interpreter/handles.hpp"
#include "interpreter/module.hpp"
#include "numerics/format.hpp"

namespace clref::cli {

namespace {

using interpreter::Type;
using interpreter::TypeKind;

// Aggregates print at most this many elements: a trace line stays a line.
constexpr uint64_t kMaxElementsShown = 16;

uint64_t loadLittleEndian(const uint8_t* bytes, uint64_t size) {
  uint64_t v = 0;
  std::memcpy(&v, bytes, std::min<uint64_t>(size, sizeof v));  // the host is little-endian, as the device
  return v;
}

// The exact value in hex: every half, float and double is a binary64 value, and glibc's %a prints it with only
// the digits it needs.
std::string hexOf(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

// Infinities and NaNs, or "" for a finite value.
std::string special(double v, uint64_t bits, int hexDigits) {
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (!std::isnan(v)) return "";
  char buf[48];
  std::snprintf(buf, sizeof buf, "nan (0x%0*" PRIx64 ")", hexDigits, bits);
  return buf;
}

template <class F> std::string shortest(F v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);  // the shortest decimal that reads back as v
  return std::string(buf, r.ptr);
}

std::string integer(uint64_t bits, uint32_t width) {
  // OpenCL modules leave integer types unsigned (signedness 0) and the instruction decides: a value with its top bit
  // set is shown both as a signed decimal and in hex, which says what the unsigned reading is.
  const uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  bits &= mask;
  const bool top = (bits >> (width - 1)) & 1;
  if (!top) return std::to_string(bits);
  const int64_t negative = int64_t(bits | ~mask);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%" PRId64 " (0x%0*" PRIx64 ")", negative, int(width / 4), bits);
  return buf;
}

// Image and sampler values are handles (exec.hpp kImageHandleTag): the argument table's index.
std::string handle(uint64_t v, uint32_t tag, const char* what) {
  if ((v & ~uint64_t(interpreter::kHandleIndexMask)) == tag)
    return std::string(what) + " #" + std::to_string(v & interpreter::kHandleIndexMask);
  char buf[48];
  std::snprintf(buf, sizeof buf, "not a %s (0x%" PRIx64 ")", what, v);
  return buf;
}

std::string value(const ValueContext& c, uint32_t typeId, const uint8_t* bytes, uint64_t size, int depth);

// Elements of a vector, array or struct, each at its offset.
template <class OffsetOf, class TypeOf>
std::string elements(const ValueContext& c, uint64_t count, OffsetOf offsetOf, TypeOf typeOf, const uint8_t* bytes,
                     uint64_t size, int depth, const char* open, const char* close) {
  std::string s = open;
  const uint64_t shown = std::min(count, kMaxElementsShown);
  for (uint64_t i = 0; i < shown; ++i) {
    if (i) s += ", ";
    const uint64_t off = offsetOf(i);
    s += off <= size ? value(c, typeOf(i), bytes + off, size - off, depth + 1) : "?";
  }
  if (shown < count) s += ", ... (" + std::to_string(count) + " elements)";
  return s + close;
}

std::string value(const ValueContext& c, uint32_t typeId, const uint8_t* bytes, uint64_t size, int depth) {
  const auto found = c.module.types.find(typeId);
  if (found == c.module.types.end()) return "?";
  const Type& t = found->second;
  // Nesting of types is bounded by the module; this bound only keeps a malformed one from recursing deeply.
  if (depth > 8) return "...";
  const bool complete = t.size <= size && t.size > 0;
  switch (t.kind) {
    case TypeKind::Bool: return size >= 1 ? (bytes[0] ? "true" : "false") : "?";
    case TypeKind::Int: return complete ? integer(loadLittleEndian(bytes, t.size), t.width) : "?";
    case TypeKind::Float: {
      if (!complete) return "?";
      const uint64_t bits = loadLittleEndian(bytes, t.size);
      return t.width == 16   ? formatHalf(uint16_t(bits))
             : t.width == 32 ? formatFloat(uint32_t(bits))
                             : formatDouble(bits);
    }
    case TypeKind::Vector: {
      const uint64_t stride = c.module.type(t.element).size;
      return elements(
          c, t.count, [&](uint64_t i) { return i * stride; }, [&](uint64_t) { return t.element; }, bytes, size, depth,
          "(", ")");
    }
    case TypeKind::Array:
      return elements(
          c, t.count, [&](uint64_t i) { return i * t.stride; }, [&](uint64_t) { return t.element; }, bytes, size,
          depth, "[", "]");
    case TypeKind::Struct:
      return elements(
          c, t.members.size(), [&](uint64_t i) { return t.memberOffsets.at(i); },
          [&](uint64_t i) { return t.members[i]; }, bytes, size, depth, "{", "}");
    case TypeKind::Pointer: return complete ? formatPointer(c, loadLittleEndian(bytes, t.size)) : "?";
    case TypeKind::Image:
      return complete ? handle(loadLittleEndian(bytes, t.size), interpreter::kImageHandleTag, "image") : "?";
    case TypeKind::Sampler:
      return complete ? handle(loadLittleEndian(bytes, t.size), interpreter::kSamplerHandleTag, "sampler") : "?";
    case TypeKind::SampledImage: {
      if (!complete) return "?";
      const uint64_t half = t.size / 2;
      return "(" + handle(loadLittleEndian(bytes, half), interpreter::kImageHandleTag, "image") + ", " +
             handle(loadLittleEndian(bytes + half, half), interpreter::kSamplerHandleTag, "sampler") + ")";
    }
    default: {
      // Events, reserve ids and the other opaque values: their bits.
      if (!complete) return "?";
      char buf[48];
      std::snprintf(buf, sizeof buf, "0x%" PRIx64, loadLittleEndian(bytes, t.size));
      return buf;
    }
  }
}

}  // namespace

std::string formatHalf(uint16_t bits) {
  const double v = numerics::toDouble(numerics::Half{bits});
  if (auto s = special(v, bits, 4); !s.empty()) return s;
  // No std::to_chars for binary16: the fewest significant digits that round back to the same half (5 always do),
  // then that decimal written as to_chars writes it, fixed or scientific, whichever is shorter.
  double decimal = v;
  for (int digits = 1; digits <= 5; ++digits) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
    decimal = std::strtod(buf, nullptr);
    if (numerics::toHalf(decimal).bits == bits) break;
  }
  return shortest(decimal) + " (" + hexOf(v) + ")";
}

std::string formatFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  if (auto s = special(f, bits, 8); !s.empty()) return s;
  return shortest(f) + " (" + hexOf(f) + ")";
}

std::string formatDouble(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  if (auto s = special(d, bits, 16); !s.empty()) return s;
  return shortest(d) + " (" + hexOf(d) + ")";
}

std::string formatPointer(const ValueContext& c, uint64_t pointer) {
  const uint64_t tag = c.tagShift >= 64 ? 0 : pointer >> c.tagShift;
  const uint64_t offset = c.tagShift >= 64 ? pointer : pointer & ((uint64_t(1) << c.tagShift) - 1);
  if (pointer == 0) return "null";
  if (tag == 0 || tag >= c.kernel.allocationCount()) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "0x%" PRIx64 " (no allocation)", pointer);
    return buf;
  }
  return c.kernel.allocation(uint32_t(tag)).name + " + " + std::to_string(offset);
}

std::string formatValue(const ValueContext& context, uint32_t typeId, const uint8_t* bytes, uint64_t size) {
  return value(context, typeId, bytes, size, 0);
}

}  // namespace clref::cli
