#include "cli/buffer_init.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "cli/special_values.hpp"
#include "cli/split_mix64.hpp"
#include "cli/value_syntax.hpp"

namespace clref::cli::detail {

namespace {

using nlohmann::json;

uint64_t seedOf(const json& obj, const std::string& path) {
  const auto p = member(path, "seed");
  const json& s = required(obj, "seed", path);
  if (!s.is_number_unsigned()) fail(p, "expected a non-negative integer");
  return s.get<uint64_t>();
}

// Repeats `values` cyclically over the buffer ("values" and "text").
void cycle(ScalarType type, size_t count, const std::vector<uint64_t>& values, std::byte* out) {
  const size_t size = sizeOf(type);
  for (size_t i = 0; i < count; ++i) storeBits(type, values[i % values.size()], out + i * size);
}

// "iota": element i is S + i·D. Floating-point types evaluate it in binary64 (one product,
// one sum, each rounded) and round that to the element type; integer types evaluate it
// exactly and keep the low bits, the two's-complement wrap of an OpenCL C integer conversion.
void iota(ScalarType type, size_t count, const json& spec, const std::string& path, std::byte* out) {
  onlyKeys(spec, path, {"start", "step"});
  const json zero = 0, one = 1;
  const json& start = spec.contains("start") ? spec["start"] : zero;
  const json& step = spec.contains("step") ? spec["step"] : one;
  const size_t size = sizeOf(type);
  if (isFloat(type)) {
    const double s = realValue(start, member(path, "start")), d = realValue(step, member(path, "step"));
    if (!out) return;
    for (size_t i = 0; i < count; ++i) storeBits(type, roundToType(type, s + double(i) * d), out + i * size);
  } else {
    const Int128 s = integerValue(start, member(path, "start")), d = integerValue(step, member(path, "step"));
    if (!out) return;
    for (size_t i = 0; i < count; ++i) storeBits(type, uint64_t(s + Int128(i) * d), out + i * size);
  }
}

// "random": SplitMix64(seed), one draw per element (golden/README.md "Random streams").
void random(ScalarType type, size_t count, const json& spec, const std::string& path, std::byte* out) {
  onlyKeys(spec, path, {"seed", "min", "max"});
  SplitMix64 rng(seedOf(spec, path));
  const auto minPath = member(path, "min"), maxPath = member(path, "max");
  const size_t size = sizeOf(type);
  if (isFloat(type)) {
    const double a = realValue(required(spec, "min", path), minPath);
    const double b = realValue(required(spec, "max", path), maxPath);
    if (!std::isfinite(a)) fail(minPath, "expected a finite number");
    if (!std::isfinite(b)) fail(maxPath, "expected a finite number");
    if (!(a <= b)) fail(path, "min is above max");
    if (!out) return;
    // A + (B − A)·u in binary64, then rounded to the element type.
    for (size_t i = 0; i < count; ++i)
      storeBits(type, roundToType(type, a + (b - a) * SplitMix64::unit(rng.next())), out + i * size);
  } else {
    const Int128 a = integerValue(required(spec, "min", path), minPath);
    const Int128 b = integerValue(required(spec, "max", path), maxPath);
    const auto inRange = [&](Int128 v) { return v >= minValue(type) && v <= maxValue(type); };
    if (!inRange(a)) fail(minPath, "out of the range of " + std::string(toString(type)));
    if (!inRange(b)) fail(maxPath, "out of the range of " + std::string(toString(type)));
    if (a > b) fail(path, "min is above max");
    if (!out) return;
    // A + (z mod (B − A + 1)) in 128-bit unsigned arithmetic: B − A + 1 reaches 2^64 for a
    // full 64-bit range, which 64-bit arithmetic cannot hold.
    const unsigned __int128 span = (unsigned __int128)(b - a) + 1;
    for (size_t i = 0; i < count; ++i) {
      const unsigned __int128 v = (unsigned __int128)a + (unsigned __int128)rng.next() % span;
      storeBits(type, uint64_t(v), out + i * size);
    }
  }
}

// "special": per element one draw z; z >> 63 == 0 picks table[z mod 24], otherwise a second
// draw z' gives a random value in [−100, 100) exactly as "random" would (the first draw alone
// could only give [0, 100) since its top bit is set).
void special(ScalarType type, size_t count, const json& spec, const std::string& path, std::byte* out) {
  onlyKeys(spec, path, {"seed"});
  if (!isFloat(type)) fail(path, "special values exist for half, float and double only");
  SplitMix64 rng(seedOf(spec, path));
  if (!out) return;
  const auto& table = specialTable(type);
  const size_t size = sizeOf(type);
  for (size_t i = 0; i < count; ++i) {
    const uint64_t z = rng.next();
    const uint64_t bits =
        (z >> 63) == 0 ? table[z % kSpecialCount] : roundToType(type, -100.0 + 200.0 * SplitMix64::unit(rng.next()));
    storeBits(type, bits, out + i * size);
  }
}

// "text": one value per line; blank lines and lines starting with '#' or "//" are skipped.
std::vector<uint64_t> textValues(ScalarType type, const std::filesystem::path& file, const std::string& path) {
  std::istringstream lines(readFile(file, path));
  std::vector<uint64_t> values;
  std::string line;
  for (size_t number = 1; std::getline(lines, line); ++number) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#' || line.compare(first, 2, "//") == 0) continue;
    const auto last = line.find_last_not_of(" \t\r");
    values.push_back(
        elementBitsFromText(type, std::string_view(line).substr(first, last - first + 1),
                            path + " (" + file.filename().string() + " line " + std::to_string(number) + ")"));
  }
  if (values.empty()) fail(path, file.string() + " holds no values");
  return values;
}

}  // namespace

std::optional<AddressOf> addressOf(ScalarType type, const json& value, const std::string& path) {
  if (!value.is_object() || !value.contains("address_of")) return std::nullopt;
  onlyKeys(value, path, {"address_of", "offset"});
  // SPIR-V 1.5 §2.18.2 [external] PhysicalStorageBuffer64: addresses are 64 bits.
  if (type != ScalarType::ULong && type != ScalarType::Long)
    fail(member(path, "address_of"), "a device address is 64 bits: the buffer's type must be ulong or long");
  const json& of = value["address_of"];
  const auto at = member(path, "address_of");
  if (!of.is_object() || !of.contains("binding")) fail(at, "expected {\"set\": S, \"binding\": B, \"element\": E}");
  onlyKeys(of, at, {"set", "binding", "element"});
  AddressOf a;
  const auto field = [&](const char* name) -> uint32_t {
    if (!of.contains(name)) return 0;
    const json& v = of[name];
    if (!v.is_number_unsigned() || v.get<uint64_t>() > UINT32_MAX)
      fail(member(at, name), "expected a non-negative 32-bit integer");
    return uint32_t(v.get<uint64_t>());
  };
  a.set = field("set");
  a.binding = field("binding");
  a.element = field("element");
  if (value.contains("offset")) {
    if (!value["offset"].is_number_unsigned()) fail(member(path, "offset"), "expected a non-negative integer");
    a.offset = value["offset"].get<uint64_t>();
  }
  return a;
}

void applyInit(ScalarType type, size_t count, const json& init, const std::string& path,
               const std::filesystem::path& baseDir, std::byte* out) {
  constexpr std::string_view kinds = "values, iota, fill, random, special, file, text";
  if (!init.is_object() || init.size() != 1) fail(path, "expected an object with exactly one of " + std::string(kinds));
  const std::string kind = init.begin().key();
  const json& spec = init.begin().value();
  const auto p = member(path, kind);
  if (kind == "values") {
    if (!spec.is_array() || spec.empty()) fail(p, "expected a non-empty array");
    std::vector<uint64_t> values;
    for (size_t i = 0; i < spec.size(); ++i)
      values.push_back(addressOf(type, spec[i], element(p, i)) ? 0 : elementBits(type, spec[i], element(p, i)));
    if (out) cycle(type, count, values, out);
  } else if (kind == "fill") {
    const uint64_t bits = elementBits(type, spec, p);
    if (out) cycle(type, count, {bits}, out);
  } else if (kind == "iota") {
    iota(type, count, spec, p, out);
  } else if (kind == "random") {
    random(type, count, spec, p, out);
  } else if (kind == "special") {
    special(type, count, spec, p, out);
  } else if (kind == "file" || kind == "text") {
    if (!spec.is_string() || spec.get_ref<const std::string&>().empty()) fail(p, "expected a file name");
    if (!out) return;
    const auto file = baseDir / spec.get<std::string>();
    if (kind == "text") return cycle(type, count, textValues(type, file, p), out);
    const std::string bytes = readFile(file, p);
    const size_t need = count * sizeOf(type);
    if (bytes.size() != need)
      fail(p,
           file.string() + " has " + std::to_string(bytes.size()) + " bytes, the buffer needs " + std::to_string(need));
    std::memcpy(out, bytes.data(), need);
  } else {
    fail(p, "unknown init kind (expected one of " + std::string(kinds) + ")");
  }
}

}  // namespace clref::cli::detail
