// The value syntax and printing shared by `clref math`'s operations (math_command.cpp, math_operations.cpp):
// formats, roundings and profiles by name, operands in the case-file syntax, values printed as hexfloat and
// shortest decimal (NaNs with their bits).
#pragma once
#include <stdexcept>
#include <string>

#include "numerics/accuracy.hpp"
#include "numerics/format.hpp"
#include "cli/case_file.hpp"

namespace clref::cli {

inline constexpr int kNotAllowed = 1, kRejected = 2;

// Bad input to `clref math`: the message says which option or operand.
struct Rejected : std::runtime_error {
  using std::runtime_error::runtime_error;
};

numerics::Format parseFormat(const std::string& s);
numerics::Rounding parseRounding(const std::string& s);
numerics::Profile parseProfile(const std::string& s);
double bitsToDouble(uint64_t bits, numerics::Format f);
// A value in the case-file syntax (cli/value_syntax.hpp): hexfloat, decimal, inf, nan, "0x3f800000:bits".
double parseValue(const std::string& token, ScalarType type, const std::string& what);
// The value in hexfloat and in the shortest decimal that reads back as the same value; a NaN with its bits.
std::string show(double v, numerics::Format f);

}  // namespace clref::cli
