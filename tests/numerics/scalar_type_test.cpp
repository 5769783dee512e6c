// The scalar-type vocabulary (numerics/scalar_type.hpp): sizes, names, parsing and signedness against the OpenCL
// API's own host types (CL/cl_platform.h, whose cl_<type> is the host's view of each OpenCL C type) and the names
// of OpenCL C 3.0 §6.3.1 [[built-in-scalar-data-types]] written out here.
#include <catch2/catch.hpp>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_platform.h>

#include <cfloat>
#include <limits>
#include <string>
#include <string_view>

#include "numerics/scalar_type.hpp"

using namespace clref::numerics;

namespace {

struct Expected {
  ScalarType type;
  std::string_view name;
  uint32_t size;
  bool isFloat, isSigned;
};

template <class T> constexpr Expected integer(ScalarType t, std::string_view name) {
  return {t, name, uint32_t(sizeof(T)), false, std::numeric_limits<T>::is_signed};
}

// Every member but bool, from the API's host types. cl_half is the 16 bits of a half (the API has no arithmetic
// type for it); cl_float and cl_double are the host's binary32 and binary64.
const Expected kTypes[] = {
    integer<cl_char>(ScalarType::Char, "char"),
    integer<cl_uchar>(ScalarType::UChar, "uchar"),
    integer<cl_short>(ScalarType::Short, "short"),
    integer<cl_ushort>(ScalarType::UShort, "ushort"),
    integer<cl_int>(ScalarType::Int, "int"),
    integer<cl_uint>(ScalarType::UInt, "uint"),
    integer<cl_long>(ScalarType::Long, "long"),
    integer<cl_ulong>(ScalarType::ULong, "ulong"),
    {ScalarType::Half, "half", uint32_t(sizeof(cl_half)), true, false},
    {ScalarType::Float, "float", uint32_t(sizeof(cl_float)), true, false},
    {ScalarType::Double, "double", uint32_t(sizeof(cl_double)), true, false},
};

}  // namespace

TEST_CASE("scalar types: sizes, names and kinds match the OpenCL host types", "[numerics][scalar_type]") {
  for (const auto& e : kTypes) {
    INFO(e.name);
    CHECK(sizeOf(e.type) == e.size);
    CHECK(toString(e.type) == e.name);
    CHECK(isFloat(e.type) == e.isFloat);
    CHECK(isInteger(e.type) == !e.isFloat);
    CHECK(isSigned(e.type) == e.isSigned);
  }
  // The sizes the OpenCL C table gives, written out: a wrong host header would not hide a wrong table.
  CHECK(sizeOf(ScalarType::Char) == 1);
  CHECK(sizeOf(ScalarType::UShort) == 2);
  CHECK(sizeOf(ScalarType::Half) == 2);
  CHECK(sizeOf(ScalarType::UInt) == 4);
  CHECK(sizeOf(ScalarType::Float) == 4);
  CHECK(sizeOf(ScalarType::Long) == 8);
  CHECK(sizeOf(ScalarType::Double) == 8);
  // bool: one byte in clref, no arithmetic, no sign.
  CHECK(sizeOf(ScalarType::Bool) == 1);
  CHECK(toString(ScalarType::Bool) == "bool");
  CHECK_FALSE(isFloat(ScalarType::Bool));
  CHECK_FALSE(isInteger(ScalarType::Bool));
  CHECK_FALSE(isSigned(ScalarType::Bool));
  // The sizes are usable where the interpreter needs constants.
  static_assert(sizeOf(ScalarType::ULong) == 8 && sizeOf(ScalarType::UChar) == 1);
}

TEST_CASE("scalar types: every spelling parses, and only those", "[numerics][scalar_type]") {
  const std::pair<std::string_view, ScalarType> spellings[] = {
      {"bool", ScalarType::Bool},
      {"char", ScalarType::Char},
      {"uchar", ScalarType::UChar},
      {"unsigned char", ScalarType::UChar},
      {"short", ScalarType::Short},
      {"ushort", ScalarType::UShort},
      {"unsigned short", ScalarType::UShort},
      {"int", ScalarType::Int},
      {"uint", ScalarType::UInt},
      {"unsigned int", ScalarType::UInt},
      {"long", ScalarType::Long},
      {"ulong", ScalarType::ULong},
      {"unsigned long", ScalarType::ULong},
      {"half", ScalarType::Half},
      {"float", ScalarType::Float},
      {"double", ScalarType::Double},
  };
  for (const auto& [name, type] : spellings) {
    INFO(name);
    const auto parsed = parseScalarType(name);
    REQUIRE(parsed);
    CHECK(*parsed == type);
  }
  for (const char* name : {"", "float4", "uchar2", "unsigned", "signed char", "unsigned bool", "unsigned half", "Int",
                           "FLOAT", " int", "int ", "unsignedint", "size_t", "quad", "i32", "f32"}) {
    INFO(name);
    CHECK_FALSE(parseScalarType(name));
  }
}

TEST_CASE("scalar types: names and formats round trip", "[numerics][scalar_type]") {
  for (int i = 0; i <= int(ScalarType::Double); ++i) {
    const auto t = ScalarType(i);
    INFO(toString(t));
    REQUIRE(parseScalarType(toString(t)) == t);
    if (isInteger(t)) CHECK(integerType(sizeOf(t), isSigned(t)) == t);
    if (isFloat(t)) {
      CHECK(scalarTypeOf(floatFormat(t)) == t);
      CHECK(uint32_t(storageBits(floatFormat(t))) == 8 * sizeOf(t));
    }
  }
  // OpenCL C 3.0 §6.3.1 [[built-in-scalar-data-types]]: float and double are binary32 and binary64, as the host's.
  CHECK(floatFormat(ScalarType::Half) == Format::Half);
  CHECK(floatFormat(ScalarType::Float) == Format::Float);
  CHECK(floatFormat(ScalarType::Double) == Format::Double);
  CHECK(precisionOf(floatFormat(ScalarType::Float)) == FLT_MANT_DIG);
  CHECK(precisionOf(floatFormat(ScalarType::Double)) == DBL_MANT_DIG);
  CHECK(precisionOf(floatFormat(ScalarType::Half)) == 11);  // IEEE 754 binary16: 10 stored bits + the implicit one
  // The integer of N bytes, as SPIR-V's signless OpTypeInt of 8N bits maps (signed = false) and as signed C types do.
  CHECK(integerType(1, false) == ScalarType::UChar);
  CHECK(integerType(2, true) == ScalarType::Short);
  CHECK(integerType(4, false) == ScalarType::UInt);
  CHECK(integerType(8, true) == ScalarType::Long);
}
