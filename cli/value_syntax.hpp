// One element value in the syntax of a case file (golden/README.md "values"), and the field
// errors the case-file readers raise. Internal to cli/.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cli/case_file.hpp"

namespace clref::cli::detail {

// A wrong field: its JSON path ("args[2].buffer.count") and what is wrong with it. The public
// entry points turn it into a CaseError that also names the file.
struct FieldError {
  std::string path;
  std::string message;
};
[[noreturn]] void fail(const std::string& path, std::string message);

// JSON paths: member("args[2]", "buffer") == "args[2].buffer"; element("args", 2) == "args[2]". A key longer than
// a message should quote is shortened as shortText shortens it.
std::string member(const std::string& path, std::string_view key);
std::string element(const std::string& path, size_t index);

// Messages never hold a whole value of the case file (it may be megabytes long, or nested so deep that printing it
// would overflow the stack): `text` quoted, cut to its first few dozen characters ("...'" marks the cut).
std::string shortText(std::string_view text);
// What a JSON value is, for "expected X, got Y": a number as written (shortened), "a string", "an array of N
// elements", "an object", "true", "false", "null". Never recursive.
std::string describe(const nlohmann::json& value);

// The member `key` of the object `obj` at `path`; a FieldError "missing" naming it when absent.
const nlohmann::json& required(const nlohmann::json& obj, std::string_view key, const std::string& path);
// Unknown keys are rejected: a misspelt "output" would otherwise silently drop an output. Also refuses a value that is
// no object.
void onlyKeys(const nlohmann::json& obj, const std::string& path, std::initializer_list<std::string_view> known);

// The bytes of `file`; a FieldError at `path` naming the file when it does not exist, is a directory or cannot be
// read.
std::string readFile(const std::filesystem::path& file, const std::string& path);

// The bits of one element (in the low sizeOf(type) bytes) written as a JSON value:
// - numbers; for integer types they must be integers within the type's range;
// - strings: "0x3f800000:bits" (raw bits, any type); for floating-point types "inf", "-inf",
//   "nan", "-nan", hexfloats ("0x1.8p+1") and decimals; for integer types decimal or 0x-hex.
// Every floating-point number is first read as the nearest binary64 value, then rounded to
// nearest even to the element type (no other rounding is involved for half, float or double
// inputs that binary64 holds exactly). JSON reads -0 as the integer 0: write -0.0 or "-0x0p+0".
uint64_t elementBits(ScalarType type, const nlohmann::json& value, const std::string& path);
// The same syntax for one line of a "text" init; strings need no quotes there.
uint64_t elementBitsFromText(ScalarType type, std::string_view token, const std::string& path);
// A number or a floating-point string ("inf", hexfloat, decimal) as binary64.
double realValue(const nlohmann::json& value, const std::string& path);

// Round a binary64 value to nearest even in a floating-point element type; returns its bits.
uint64_t roundToType(ScalarType floatType, double x);
// The default quiet NaN of a floating-point element type (sign clear, top mantissa bit set).
uint64_t quietNaNBits(ScalarType floatType);

// Little-endian element access (buffers hold the device's little-endian bytes).
void storeBits(ScalarType type, uint64_t bits, std::byte* dst);
uint64_t loadBits(ScalarType type, const std::byte* src);

// Integers of any OpenCL C type fit in 128 bits with room for sums and products of two.
using Int128 = __int128;
Int128 minValue(ScalarType intType);
Int128 maxValue(ScalarType intType);
// An integer JSON value exactly (number or integer string), without a range check.
Int128 integerValue(const nlohmann::json& value, const std::string& path);

}  // namespace clref::cli::detail
