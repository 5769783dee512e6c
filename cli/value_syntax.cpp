#include "cli/value_syntax.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>

#include "numerics/format.hpp"

namespace clref::cli::detail {

namespace {
constexpr size_t kShownChars = 40;   // of a value or key quoted in a message
constexpr size_t kMaxMessage = 400;  // a message built from several parts stays readable
}  // namespace

void fail(const std::string& path, std::string message) {
  if (message.size() > kMaxMessage) message = message.substr(0, kMaxMessage) + "...";
  throw FieldError{path, std::move(message)};
}

std::string member(const std::string& path, std::string_view key) {
  const std::string k = key.size() <= kShownChars ? std::string(key) : std::string(key.substr(0, kShownChars)) + "...";
  return path.empty() ? k : path + "." + k;
}
std::string element(const std::string& path, size_t index) { return path + "[" + std::to_string(index) + "]"; }

std::string shortText(std::string_view text) {
  if (text.size() <= kShownChars) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kShownChars)) + "...' (" + std::to_string(text.size()) + " characters)";
}

std::string describe(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::array: return "an array of " + std::to_string(v.size()) + " elements";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::string: return "the string " + shortText(v.get_ref<const std::string&>());
    case nlohmann::json::value_t::number_float:
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: return v.dump();  // a scalar: at most a few dozen characters
    case nlohmann::json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::null: return "null";
    default: return "a binary value";
  }
}

const nlohmann::json& required(const nlohmann::json& obj, std::string_view key, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(member(path, key), "missing");
  return *it;
}

void onlyKeys(const nlohmann::json& obj, const std::string& path, std::initializer_list<std::string_view> known) {
  if (!obj.is_object()) fail(path.empty() ? "(top level)" : path, "expected an object");
  for (const auto& item : obj.items()) {
    bool ok = false;
    for (auto k : known) ok = ok || k == item.key();
    if (!ok) fail(member(path, item.key()), "unknown key");
  }
}

std::string readFile(const std::filesystem::path& file, const std::string& path) {
  // A directory opens as a stream on Linux and fails only while reading (std::ios_base::failure).
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) fail(path, file.string() + " is a directory, not a file");
  if (!std::filesystem::exists(file, ec)) fail(path, "cannot read " + file.string() + ": no such file");
  // A device or a pipe (/dev/zero, a FIFO) may never end: only regular files are read, and only up to a bound far
  // above any buffer or image the device takes (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
  if (!std::filesystem::is_regular_file(file, ec)) fail(path, file.string() + " is not a regular file");
  constexpr uintmax_t kMaxFileBytes = uintmax_t(1) << 30;
  if (const uintmax_t bytes = std::filesystem::file_size(file, ec); !ec && bytes > kMaxFileBytes)
    fail(path, file.string() + " is " + std::to_string(bytes) + " bytes, more than the " +
                   std::to_string(kMaxFileBytes) + " bytes clref reads");
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(path, "cannot read " + file.string());
  try {
    return std::string(std::istreambuf_iterator<char>(in), {});
  } catch (const std::ios_base::failure& e) { fail(path, "cannot read " + file.string() + ": " + e.code().message()); }
}

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

std::string quoted(std::string_view s) { return shortText(s); }

// Splits an optional leading sign off `s`; returns true for '-'.
bool takeSign(std::string_view& s) {
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    const bool negative = s.front() == '-';
    s.remove_prefix(1);
    return negative;
  }
  return false;
}

bool takeHexPrefix(std::string_view& s) {
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    return true;
  }
  return false;
}

// "0x3f800000:bits": the element's raw bits, which must fit its width.
bool parseBits(ScalarType type, std::string_view s, const std::string& path, uint64_t& bits) {
  constexpr std::string_view suffix = ":bits";
  if (s.size() < suffix.size() || s.substr(s.size() - suffix.size()) != suffix) return false;
  std::string_view digits = s.substr(0, s.size() - suffix.size());
  takeHexPrefix(digits);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bits, 16);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    fail(path, "bad raw bits " + quoted(s) + " (expected hexadecimal digits before ':bits')");
  const size_t width = 8 * sizeOf(type);
  if (width < 64 && (bits >> width) != 0)
    fail(path, "raw bits " + quoted(s) + " do not fit in " + std::to_string(width) + " bits (" +
                   std::string(toString(type)) + ")");
  return true;
}

// A floating-point string: inf, nan, hexfloat or decimal, with an optional sign.
double parseRealString(std::string_view text, const std::string& path) {
  std::string_view s = text;
  const bool negative = takeSign(s);
  const std::string word = lower(s);
  double magnitude;
  if (word == "inf" || word == "infinity") {
    magnitude = std::numeric_limits<double>::infinity();
  } else if (word == "nan") {
    magnitude = std::numeric_limits<double>::quiet_NaN();
  } else {
    const bool hex = takeHexPrefix(s);
    // Signs were taken above: "--1" or "0x-1" are not numbers.
    if (s.empty() || s.front() == '+' || s.front() == '-') fail(path, "not a number: " + quoted(text));
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), magnitude,
                                           hex ? std::chars_format::hex : std::chars_format::general);
    if (ec == std::errc::result_out_of_range)
      fail(path, quoted(text) + " is out of the range of double (write \"inf\" for infinity)");
    if (ec != std::errc() || end != s.data() + s.size()) fail(path, "not a number: " + quoted(text));
  }
  return negative ? -magnitude : magnitude;
}

Int128 parseIntegerString(std::string_view text, const std::string& path) {
  std::string_view s = text;
  const bool negative = takeSign(s);
  const bool hex = takeHexPrefix(s);
  uint64_t magnitude = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), magnitude, hex ? 16 : 10);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) fail(path, "not an integer: " + quoted(text));
  return negative ? -Int128(magnitude) : Int128(magnitude);
}

std::string toDecimal(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 m = negative ? -(unsigned __int128)v : (unsigned __int128)v;
  std::string s;
  for (; m != 0; m /= 10) s.insert(s.begin(), char('0' + int(m % 10)));
  return negative ? "-" + s : s;
}

uint64_t integerBits(ScalarType type, Int128 v, const std::string& path) {
  if (v < minValue(type) || v > maxValue(type))
    fail(path, toDecimal(v) + " is out of the range of " + std::string(toString(type)));
  return uint64_t(v);  // two's complement; storeBits keeps the low sizeOf(type) bytes
}

}  // namespace

Int128 minValue(ScalarType t) {
  switch (t) {
    case ScalarType::Char: return INT8_MIN;
    case ScalarType::Short: return INT16_MIN;
    case ScalarType::Int: return INT32_MIN;
    case ScalarType::Long: return INT64_MIN;
    default: return 0;
  }
}

Int128 maxValue(ScalarType t) {
  switch (t) {
    case ScalarType::Char: return INT8_MAX;
    case ScalarType::UChar: return UINT8_MAX;
    case ScalarType::Short: return INT16_MAX;
    case ScalarType::UShort: return UINT16_MAX;
    case ScalarType::Int: return INT32_MAX;
    case ScalarType::UInt: return UINT32_MAX;
    case ScalarType::Long: return INT64_MAX;
    case ScalarType::ULong: return UINT64_MAX;
    default: return 0;
  }
}

Int128 integerValue(const nlohmann::json& v, const std::string& path) {
  if (v.is_number_unsigned()) return Int128(v.get<uint64_t>());
  if (v.is_number_integer()) return Int128(v.get<int64_t>());
  if (v.is_string()) return parseIntegerString(v.get_ref<const std::string&>(), path);
  if (v.is_number_float()) fail(path, "expected an integer, got " + describe(v));
  fail(path, "expected an integer");
}

double realValue(const nlohmann::json& v, const std::string& path) {
  if (v.is_number_unsigned()) return double(v.get<uint64_t>());
  if (v.is_number_integer()) return double(v.get<int64_t>());
  if (v.is_number_float()) return v.get<double>();
  if (v.is_string()) return parseRealString(v.get_ref<const std::string&>(), path);
  fail(path, "expected a number");
}

uint64_t quietNaNBits(ScalarType t) {
  switch (t) {
    case ScalarType::Half: return 0x7e00;
    case ScalarType::Float: return 0x7fc00000;
    default: return 0x7ff8000000000000;
  }
}

uint64_t roundToType(ScalarType t, double x) {
  switch (t) {
    case ScalarType::Half: return numerics::toHalf(x, numerics::Rounding::RTE).bits;
    // binary64 → binary32 in the default rounding mode, which is round to nearest even.
    case ScalarType::Float: return std::bit_cast<uint32_t>(float(x));
    default: return std::bit_cast<uint64_t>(x);
  }
}

uint64_t elementBits(ScalarType type, const nlohmann::json& v, const std::string& path) {
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (uint64_t bits; parseBits(type, s, path, bits)) return bits;
    if (!isFloat(type)) return integerBits(type, parseIntegerString(s, path), path);
    const double x = parseRealString(s, path);
    // A NaN string gives the type's default quiet NaN (with the sign written), never the
    // payload some conversion would carry over.
    if (std::isnan(x)) return quietNaNBits(type) | (std::signbit(x) ? uint64_t(1) << (8 * sizeOf(type) - 1) : 0);
    return roundToType(type, x);
  }
  if (!v.is_number()) fail(path, "expected a number or a string, got " + describe(v));
  if (!isFloat(type)) return integerBits(type, integerValue(v, path), path);
  return roundToType(type, realValue(v, path));
}

uint64_t elementBitsFromText(ScalarType type, std::string_view token, const std::string& path) {
  // A token that is a JSON number or a quoted string reads as that value; anything else
  // ("inf", "0x1p-3", "0x7e00:bits") as if it had been written as a JSON string.
  auto parsed = nlohmann::json::parse(token, nullptr, /*allow_exceptions=*/false);
  // A floating-point element reads a number token as its text: JSON keeps no sign on the integer "-0", and -0 is not
  // +0 for these types.
  if (isFloat(type) && parsed.is_number()) return elementBits(type, nlohmann::json(std::string(token)), path);
  if (parsed.is_number() || parsed.is_string()) return elementBits(type, parsed, path);
  return elementBits(type, nlohmann::json(std::string(token)), path);
}

void storeBits(ScalarType type, uint64_t bits, std::byte* dst) {
  for (size_t i = 0; i < sizeOf(type); ++i) dst[i] = std::byte((bits >> (8 * i)) & 0xff);
}

uint64_t loadBits(ScalarType type, const std::byte* src) {
  uint64_t bits = 0;
  for (size_t i = 0; i < sizeOf(type); ++i) bits |= uint64_t(src[i]) << (8 * i);
  return bits;
}

}  // namespace clref::cli::detail
