// The scalar types of OpenCL C as one vocabulary: the element types case files name, the types the host API and the
// verdicts read buffers as, and the kinds the interpreter specialises its handlers for.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "numerics/format.hpp"

namespace clref::numerics {

// OpenCL C 3.0 §6.3.1 [[built-in-scalar-data-types]]: bool, char, uchar, short, ushort, int, uint, long, ulong,
// half, float, double.
//
// The interpreter uses the unsigned members for every integer: OpenCL SPIR-V Environment §2.5.1
// [[_basic_scalar_and_vector_types]] gives OpTypeInt Signedness 0, "no signedness semantics" (the opcodes carry the
// signedness), so a SPIR-V integer of N bits is the unsigned type of N bits here (UChar, UShort, UInt, ULong), and
// the signed members appear only where a case file, a kernel's parameter type or a verdict names them.
enum class ScalarType : uint8_t { Bool, Char, UChar, Short, UShort, Int, UInt, Long, ULong, Half, Float, Double };

// Bytes of the type: OpenCL C 3.0 §6.3.1 [[built-in-scalar-data-types]] fixes every size but bool's; clref holds a
// bool in one byte (it cannot be a kernel argument, OpenCL C 3.0 §6.11 [[restrictions]], so no buffer depends on it).
constexpr uint32_t sizeOf(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
    case ScalarType::Char:
    case ScalarType::UChar: return 1;
    case ScalarType::Short:
    case ScalarType::UShort:
    case ScalarType::Half: return 2;
    case ScalarType::Int:
    case ScalarType::UInt:
    case ScalarType::Float: return 4;
    case ScalarType::Long:
    case ScalarType::ULong:
    case ScalarType::Double: return 8;
  }
  return 8;
}

constexpr bool isFloat(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::Float || t == ScalarType::Double;
}
// char … ulong (bool is not an integer type here: it has no arithmetic).
constexpr bool isInteger(ScalarType t) { return t != ScalarType::Bool && !isFloat(t); }
// The signed integer types char, short, int, long (the floating-point types are not "signed" in this sense).
constexpr bool isSigned(ScalarType t) {
  return t == ScalarType::Char || t == ScalarType::Short || t == ScalarType::Int || t == ScalarType::Long;
}

// The integer type of `bytes` bytes (1, 2, 4 or 8), signed or unsigned.
constexpr ScalarType integerType(uint32_t bytes, bool isSigned) {
  switch (bytes) {
    case 1: return isSigned ? ScalarType::Char : ScalarType::UChar;
    case 2: return isSigned ? ScalarType::Short : ScalarType::UShort;
    case 4: return isSigned ? ScalarType::Int : ScalarType::UInt;
    default: return isSigned ? ScalarType::Long : ScalarType::ULong;
  }
}

// OpenCL C 3.0 §6.3.1 [[built-in-scalar-data-types]]: half, float and double are IEEE 754 binary16, binary32 and
// binary64. `floatType` must be a floating-point type.
constexpr Format floatFormat(ScalarType floatType) {
  return floatType == ScalarType::Half ? Format::Half : floatType == ScalarType::Float ? Format::Float : Format::Double;
}
constexpr ScalarType scalarTypeOf(Format f) {
  return f == Format::Half ? ScalarType::Half : f == Format::Float ? ScalarType::Float : ScalarType::Double;
}

// The OpenCL C name: "bool", "char", "uchar", …, "double".
std::string_view toString(ScalarType t);
// The type a name gives: the one-word OpenCL C names toString gives, and the spellings "unsigned char",
// "unsigned short", "unsigned int" and "unsigned long" OpenCL C 3.0 §6.3.1 [[built-in-scalar-data-types]] also
// lists; none for anything else (vectors, "float4", unknown names).
std::optional<ScalarType> parseScalarType(std::string_view name);

}  // namespace clref::numerics
