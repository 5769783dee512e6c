// Value syntax and printing of `clref math` (cli/math_values.hpp).
#include "cli/math_values.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "cli/value_syntax.hpp"

namespace clref::cli {

using namespace clref::numerics;

Format parseFormat(const std::string& s) {
  if (s == "half") return Format::Half;
  if (s == "float") return Format::Float;
  if (s == "double") return Format::Double;
  throw Rejected("--type: expected half, float or double, got '" + s + "'");
}

Rounding parseRounding(const std::string& s) {
  if (s == "rte") return Rounding::RTE;
  if (s == "rtz") return Rounding::RTZ;
  if (s == "rtp") return Rounding::RTP;
  if (s == "rtn") return Rounding::RTN;
  throw Rejected("--rounding: expected rte, rtz, rtp or rtn, got '" + s + "'");
}

Profile parseProfile(const std::string& s) {
  if (s == "full") return Profile::Full;
  if (s == "embedded") return Profile::Embedded;
  if (s == "relaxed") return Profile::Relaxed;
  if (s == "relaxed-embedded") return Profile::RelaxedEmbedded;
  throw Rejected("--profile: expected full, embedded, relaxed or relaxed-embedded, got '" + s + "'");
}

double bitsToDouble(uint64_t bits, Format f) {
  switch (f) {
    case Format::Half: return toDouble(Half{uint16_t(bits)});
    case Format::Float: return std::bit_cast<float>(uint32_t(bits));
    case Format::Double: return std::bit_cast<double>(bits);
  }
  return 0;
}

// A value in the case-file syntax (cli/value_syntax.hpp): hexfloat, decimal, inf, nan,
// "0x3f800000:bits".
double parseValue(const std::string& token, ScalarType type, const std::string& what) {
  try {
    const uint64_t bits = detail::elementBitsFromText(type, token, what);
    switch (type) {
      case ScalarType::Half: return bitsToDouble(bits, Format::Half);
      case ScalarType::Float: return bitsToDouble(bits, Format::Float);
      case ScalarType::Double: return bitsToDouble(bits, Format::Double);
      case ScalarType::Int: return double(int32_t(uint32_t(bits)));
      case ScalarType::UInt: return double(uint32_t(bits));
      case ScalarType::ULong: return double(bits);
      default: return double(int64_t(bits));
    }
  } catch (const detail::FieldError& e) { throw Rejected(e.path + ": " + e.message); }
}

// The value in hexfloat and in the shortest decimal that reads back as the same value.
std::string show(double v, Format f) {
  if (std::isnan(v)) {
    // A NaN with its bits in the format: the payload and sign (the value a double carries keeps the format's high
    // payload bits, which are all a NaN of the format has).
    char bits[32];
    if (f == Format::Half)
      std::snprintf(bits, sizeof bits, "0x%04x", unsigned(toHalf(v).bits));
    else if (f == Format::Float)
      std::snprintf(bits, sizeof bits, "0x%08x", unsigned(std::bit_cast<uint32_t>(float(v))));
    else
      std::snprintf(bits, sizeof bits, "0x%016llx", static_cast<unsigned long long>(std::bit_cast<uint64_t>(v)));
    return std::string(std::signbit(v) ? "-nan" : "nan") + " (bits " + bits + ")";
  }
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char hex[64], dec[64];
  if (f == Format::Half) {
    std::snprintf(hex, sizeof hex, "%a", v);
    std::snprintf(dec, sizeof dec, "%.5g", v);  // 5 significant digits identify a binary16 value
  } else if (f == Format::Float) {
    std::snprintf(hex, sizeof hex, "%a", v);
    *std::to_chars(dec, dec + sizeof dec - 1, float(v)).ptr = '\0';
  } else {
    std::snprintf(hex, sizeof hex, "%a", v);
    *std::to_chars(dec, dec + sizeof dec - 1, v).ptr = '\0';
  }
  return std::string(hex) + " (" + dec + ")";
}

}  // namespace clref::cli
