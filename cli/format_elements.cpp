// The output text format (golden/README.md "Output text format"): one scalar per line.
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "numerics/format.hpp"
#include "cli/case_file.hpp"
#include "cli/value_syntax.hpp"

namespace clref::cli {

namespace {

// "hexfloat decimal": %a is exact for every half, float and double value (all are binary64
// values), and %.5g / %.9g / %.17g have enough digits to round-trip the element's format.
// NaNs print "nan 0x<bits>" since their payload and sign would otherwise be lost.
// std::to_chars writes exactly what printf's "%a %.*g" writes in the "C" locale (C++20 [charconv.to.chars]: hex is
// %a without its "0x", a precision is %.*g), three times faster: `clref run --out` of a large launch spends much of
// its serial time here.
void appendFloat(std::string& out, double value, uint64_t bits, int hexDigits, int decimalDigits) {
  char line[96];
  if (std::isnan(value)) {
    std::snprintf(line, sizeof line, "nan 0x%0*" PRIx64, hexDigits, bits);
    out += line;
    return;
  }
  char* p = line;
  char* const end = line + sizeof line;
  if (std::signbit(value)) *p++ = '-';
  if (!std::isinf(value)) {
    *p++ = '0';
    *p++ = 'x';
  }
  p = std::to_chars(p, end, std::fabs(value), std::chars_format::hex).ptr;
  *p++ = ' ';
  p = std::to_chars(p, end, value, std::chars_format::general, decimalDigits).ptr;
  out.append(line, p);
}

}  // namespace

std::string formatElements(ScalarType type, const std::byte* data, size_t count) {
  std::string out;
  const size_t size = sizeOf(type);
  for (size_t i = 0; i < count; ++i) {
    const uint64_t bits = detail::loadBits(type, data + i * size);
    switch (type) {
      case ScalarType::Char: out += std::to_string(int8_t(bits)); break;
      case ScalarType::Short: out += std::to_string(int16_t(bits)); break;
      case ScalarType::Int: out += std::to_string(int32_t(bits)); break;
      case ScalarType::Long: out += std::to_string(int64_t(bits)); break;
      case ScalarType::Bool:  // a byte 0 or 1 (case files have no bool buffers; the debugger may show one)
      case ScalarType::UChar:
      case ScalarType::UShort:
      case ScalarType::UInt:
      case ScalarType::ULong: out += std::to_string(bits); break;
      case ScalarType::Half: appendFloat(out, numerics::toDouble(numerics::Half{uint16_t(bits)}), bits, 4, 5); break;
      case ScalarType::Float: {
        float f;
        const auto b32 = uint32_t(bits);
        std::memcpy(&f, &b32, sizeof f);
        appendFloat(out, f, bits, 8, 9);
        break;
      }
      case ScalarType::Double: {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        appendFloat(out, d, bits, 16, 17);
        break;
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace clref::cli
