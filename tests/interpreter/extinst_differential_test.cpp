// Differential tests of the interpreter's OpenCL.std fast handlers (interpreter/ops_extinst.cpp:
// fabs, copysign, fmin, fmax, ceil, floor, trunc, rint, round, sqrt, fma, mad), which compute
// their results without numerics::evaluate: every result must equal numerics::evaluate's (MPFR
// based, tested on its own in tests/numerics) for the same operands. Each function runs over
// special values, subnormals, ties and random encodings, in half, float and double, as scalars
// and as 4-vectors, with denormals preserved and flushed (-cl-denorms-are-zero).
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <spirv-tools/libspirv.hpp>

#include "host/host.hpp"
#include "interpreter/fp_rounding_mode.hpp"
#include "numerics/convert.hpp"
#include "numerics/math.hpp"
#include "spvasm.hpp"

using namespace clref;
using numerics::Format;
using numerics::MathFn;

namespace {

int bytesOf(Format f) { return numerics::storageBits(f) / 8; }

// A value of the format from its encoding, and back (exact).
double decode(uint64_t bits, Format f) {
  switch (f) {
    case Format::Half: return numerics::toDouble(numerics::Half{uint16_t(bits)});
    case Format::Float: return std::bit_cast<float>(uint32_t(bits));
    case Format::Double: return std::bit_cast<double>(bits);
  }
  return 0;
}
uint64_t encode(double v, Format f) {
  switch (f) {
    case Format::Half: return numerics::toHalf(v).bits;
    case Format::Float: return std::bit_cast<uint32_t>(float(v));
    case Format::Double: return std::bit_cast<uint64_t>(v);
  }
  return 0;
}
bool isNaNBits(uint64_t bits, Format f) { return std::isnan(decode(bits, f)); }

// OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]] flush to zero: a subnormal becomes a zero of the
// same sign.
double flush(double v, Format f) {
  const double minNormal = f == Format::Half ? 0x1p-14 : f == Format::Float ? 0x1p-126 : 0x1p-1022;
  return v != 0 && std::fabs(v) < minNormal ? std::copysign(0.0, v) : v;
}

// The number of special values operandBits puts first.
constexpr size_t kSpecialCount = 37;

// Operand encodings: the special values of the format, subnormals, halfway cases of the
// rounding functions, values around the integral threshold 2^(p-1), then random encodings
// (all exponents, so NaNs, infinities and subnormals come up too) and random small values.
std::vector<uint64_t> operandBits(Format f, size_t count, uint64_t seed) {
  const int p = numerics::precisionOf(f);
  std::vector<double> special = {0.0,
                                 -0.0,
                                 INFINITY,
                                 -INFINITY,
                                 NAN,
                                 1.0,
                                 -1.0,
                                 0.5,
                                 -0.5,
                                 1.5,
                                 -1.5,
                                 2.5,
                                 -2.5,
                                 0.25,
                                 -0.75,
                                 3.0,
                                 -7.5,
                                 std::ldexp(1.0, p - 1) + 0.5,
                                 -std::ldexp(1.0, p - 1) - 0.5,
                                 std::ldexp(1.0, p),
                                 std::ldexp(1.0, p - 2) + 0.5,
                                 0.49999999999999994,
                                 -0.49999999999999994};
  std::vector<uint64_t> out;
  for (double v : special) out.push_back(encode(v, f));
  const uint64_t signBit = uint64_t(1) << (numerics::storageBits(f) - 1);
  const uint64_t maxFinite = f == Format::Half ? 0x7bff : f == Format::Float ? 0x7f7fffff : 0x7fefffffffffffff;
  const uint64_t minNormal = uint64_t(1) << (p - 1);
  for (uint64_t b : {uint64_t(1), uint64_t(2), minNormal - 1, minNormal, minNormal + 1, maxFinite, maxFinite - 1}) {
    out.push_back(b);
    out.push_back(b | signBit);
  }
  REQUIRE(out.size() == kSpecialCount);
  std::mt19937_64 rng(seed);
  const uint64_t mask = numerics::storageBits(f) == 64 ? ~uint64_t(0) : (uint64_t(1) << numerics::storageBits(f)) - 1;
  while (out.size() < count) {
    switch (rng() % 4) {
      case 0: out.push_back(rng() & mask); break;                                           // any encoding
      case 1: out.push_back(encode(double(int(rng() % 64) - 32) / 4, f)); break;            // quarters: ties
      case 2: out.push_back((rng() & (minNormal - 1)) | (rng() % 2 ? signBit : 0)); break;  // subnormals
      default: {  // moderate magnitudes with full significands
        const double v = std::ldexp(double(rng() >> 11) * 0x1p-53, int(rng() % 40) - 20) * (rng() % 2 ? -1 : 1);
        out.push_back(encode(f == Format::Half    ? numerics::toDouble(numerics::toHalf(v))
                             : f == Format::Float ? double(float(v))
                                                  : v,
                             f));
      }
    }
  }
  REQUIRE(count >= kSpecialCount);
  out.resize(count);
  return out;
}

// The SPIR-V words of assembly `text` (OpenCL 2.2 environment).
std::vector<uint32_t> assemble(const std::string& text) { return test::assembleText(text, SPV_ENV_OPENCL_2_2, false); }

// A kernel `k(out, a, b, c)` whose work-item i stores OpExtInst <fn>(a[i], b[i], c[i]) (the
// first `arity` operands) into out[i]; elements are `lanes`-vectors of the format.
std::vector<uint32_t> kernelWords(std::string_view fn, int arity, Format f, int lanes) {
  const int width = numerics::storageBits(f);
  std::string caps = "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n";
  if (f == Format::Half) caps += "OpCapability Float16\n";
  if (f == Format::Double) caps += "OpCapability Float64\n";
  std::string text = caps +
                     "%std = OpExtInstImport \"OpenCL.std\"\n"
                     "OpMemoryModel Physical64 OpenCL\n"
                     "OpEntryPoint Kernel %k \"k\" %gid\n"
                     "OpDecorate %gid BuiltIn GlobalInvocationId\n"
                     "OpDecorate %gid Constant\n"
                     "%void = OpTypeVoid\n"
                     "%ulong = OpTypeInt 64 0\n"
                     "%v3ulong = OpTypeVector %ulong 3\n"
                     "%ptr_gid = OpTypePointer Input %v3ulong\n"
                     "%gid = OpVariable %ptr_gid Input\n" +
                     (lanes == 1 ? "%E = OpTypeFloat " + std::to_string(width) + "\n"
                                 : "%S = OpTypeFloat " + std::to_string(width) + "\n%E = OpTypeVector %S " +
                                       std::to_string(lanes) + "\n") +
                     "%ptr = OpTypePointer CrossWorkgroup %E\n"
                     "%fn = OpTypeFunction %void %ptr %ptr %ptr %ptr\n"
                     "%k = OpFunction %void None %fn\n"
                     "%out = OpFunctionParameter %ptr\n"
                     "%a = OpFunctionParameter %ptr\n"
                     "%b = OpFunctionParameter %ptr\n"
                     "%c = OpFunctionParameter %ptr\n"
                     "%entry = OpLabel\n"
                     "%g = OpLoad %v3ulong %gid\n"
                     "%i = OpCompositeExtract %ulong %g 0\n"
                     "%pa = OpInBoundsPtrAccessChain %ptr %a %i\n"
                     "%pb = OpInBoundsPtrAccessChain %ptr %b %i\n"
                     "%pc = OpInBoundsPtrAccessChain %ptr %c %i\n"
                     "%va = OpLoad %E %pa\n"
                     "%vb = OpLoad %E %pb\n"
                     "%vc = OpLoad %E %pc\n"
                     "%r = OpExtInst %E %std " +
                     std::string(fn) + " %va" + (arity > 1 ? " %vb" : "") + (arity > 2 ? " %vc" : "") +
                     "\n"
                     "%po = OpInBoundsPtrAccessChain %ptr %out %i\n"
                     "OpStore %po %r\n"
                     "OpReturn\n"
                     "OpFunctionEnd\n";
  return assemble(text);
}

struct Expectation {
  bool flushDenormals = false;
  bool unfusedMad = false;
};

// Runs fn over `count` elements (count/lanes work-items) and compares every lane with
// numerics::evaluate. Returns the number of lanes compared.
size_t compareWithEvaluate(MathFn fn, Format f, int lanes, Expectation how, size_t count = 4096) {
  const int arity = numerics::arity(fn);
  host::DeviceConfig config;
  const numerics::Denorm d = how.flushDenormals ? numerics::Denorm::Flush : numerics::Denorm::Preserve;
  config.denormHalf = config.denormFloat = config.denormDouble = d;
  if (how.unfusedMad) config.choices.set("mad=unfused");
  host::Device device(config);
  auto program = host::Program::fromSpirv(device, kernelWords(numerics::nameOf(fn), arity, f, lanes));
  host::Kernel kernel(program, "k");

  const size_t bytes = size_t(bytesOf(f));
  std::vector<std::vector<uint64_t>> operands;
  for (int k = 0; k < 3; ++k) {
    // Operand k of element i: the lists are rotated against each other so that special values
    // meet random ones.
    std::vector<uint64_t> bits = operandBits(f, count, 1234 + uint64_t(k) * 7 + uint64_t(fn));
    if (k > 0) std::rotate(bits.begin(), bits.begin() + long(size_t(k) * 37 % count), bits.end());
    operands.push_back(std::move(bits));
  }
  // The first n·n elements take every pair of the first n (special) values as (a, b), and c
  // the special values in turn.
  const std::vector<uint64_t> special(operands[0].begin(), operands[0].begin() + kSpecialCount);
  for (size_t i = 0; i < kSpecialCount * kSpecialCount && i < count; ++i) {
    operands[0][i] = special[i / kSpecialCount];
    operands[1][i] = special[i % kSpecialCount];
    operands[2][i] = special[(i / 7) % kSpecialCount];
  }
  for (int k = 0; k < 3; ++k) {
    auto buffer = std::make_shared<host::Buffer>(count * bytes);
    for (size_t i = 0; i < count; ++i) std::memcpy(buffer->data() + i * bytes, &operands[size_t(k)][i], bytes);
    kernel.setArg(size_t(k) + 1, buffer);
  }
  auto out = std::make_shared<host::Buffer>(count * bytes);
  kernel.setArg(0, out);
  host::NDRange range;
  range.global = {count / size_t(lanes), 1, 1};
  range.local = std::array<size_t, 3>{64, 1, 1};
  const host::RunResult r = kernel.run(range);
  INFO((r.fault ? r.fault->format() : std::string()));
  REQUIRE(r.ok);

  size_t mismatches = 0;
  for (size_t i = 0; i < count; ++i) {
    double args[3];
    for (int k = 0; k < arity; ++k) {
      args[k] = decode(operands[size_t(k)][i], f);
      if (how.flushDenormals) args[k] = flush(args[k], f);
    }
    const std::span<const double> span(args, size_t(arity));
    double expected = fn == MathFn::mad ? numerics::evaluateMad(span, f, numerics::Rounding::RTE, !how.unfusedMad).value
                                        : numerics::evaluate(fn, span, f).value;
    if (how.flushDenormals) expected = flush(expected, f);
    uint64_t got = 0;
    std::memcpy(&got, out->data() + i * bytes, bytes);
    const bool ok = std::isnan(expected) ? isNaNBits(got, f) : got == encode(expected, f);
    if (!ok && ++mismatches <= 5) {
      char line[256];
      std::snprintf(line, sizeof line, "%s(%a, %a, %a) in %s: interpreter %a (bits %llx), evaluate %a",
                    std::string(numerics::nameOf(fn)).c_str(), args[0], arity > 1 ? args[1] : 0.0,
                    arity > 2 ? args[2] : 0.0, std::string(numerics::toString(f)).c_str(), decode(got, f),
                    (unsigned long long)got, expected);
      UNSCOPED_INFO(line);
    }
  }
  CHECK(mismatches == 0);
  return count;
}

// The fast handlers of interpreter/ops_extinst.cpp that do not call numerics::evaluate.
const MathFn kFastHandlers[] = {MathFn::fabs,  MathFn::copysign, MathFn::fmin,  MathFn::fmax,
                                MathFn::ceil,  MathFn::floor,    MathFn::trunc, MathFn::rint,
                                MathFn::round, MathFn::sqrt,     MathFn::fma,   MathFn::mad};

}  // namespace

TEST_CASE("OpenCL.std fast handlers agree with numerics::evaluate", "[extinst][differential]") {
  for (MathFn fn : kFastHandlers) {
    for (Format f : {Format::Half, Format::Float, Format::Double}) {
      for (int lanes : {1, 4}) {
        INFO(std::string(numerics::nameOf(fn)) << " " << numerics::toString(f) << " lanes " << lanes);
        CHECK(compareWithEvaluate(fn, f, lanes, {}) == 4096);
      }
    }
  }
}

TEST_CASE("OpenCL.std fast handlers agree with numerics::evaluate with denormals flushed", "[extinst][differential]") {
  for (MathFn fn : kFastHandlers) {
    // fabs and copysign are sign-bit operations: the interpreter flushes neither operands nor
    // results (compared above without flushing).
    if (fn == MathFn::fabs || fn == MathFn::copysign) continue;
    for (Format f : {Format::Half, Format::Float, Format::Double}) {
      INFO(std::string(numerics::nameOf(fn)) << " " << numerics::toString(f));
      compareWithEvaluate(fn, f, 1, {.flushDenormals = true}, 2048);
    }
  }
}

TEST_CASE("OpenCL.std mad agrees with numerics::evaluateMad when unfused", "[extinst][differential]") {
  for (Format f : {Format::Half, Format::Float, Format::Double}) {
    INFO(numerics::toString(f));
    compareWithEvaluate(MathFn::mad, f, 1, {.unfusedMad = true});
    compareWithEvaluate(MathFn::mad, f, 4, {.unfusedMad = true});
  }
}

// ---- Float → integer conversions (interpreter/ops_conversion.cpp, default and decorated)
// against numerics::floatToInt, under every float_to_int_out_of_range option --------------------------------

namespace {

// A kernel `k(out, in)` whose work-item i stores OpConvertFTo<S|U>(in[i]) into out[i], with an
// optional SaturatedConversion and FPRoundingMode decoration.
std::vector<uint32_t> conversionWords(Format f, int intBits, bool isSigned, bool saturated, int roundingMode) {
  const int width = numerics::storageBits(f);
  std::string text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability Int16\n"
      "OpCapability Int8\n";
  if (f == Format::Half) text += "OpCapability Float16\n";
  if (f == Format::Double) text += "OpCapability Float64\n";
  text +=
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\" %gid\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n";
  if (saturated) text += "OpDecorate %r SaturatedConversion\n";
  const char* modeNames[] = {"RTE", "RTZ", "RTP", "RTN"};
  if (roundingMode >= 0) text += "OpDecorate %r FPRoundingMode " + std::string(modeNames[roundingMode]) + "\n";
  text +=
      "%void = OpTypeVoid\n%ulong = OpTypeInt 64 0\n%v3ulong = OpTypeVector %ulong 3\n"
      "%ptr_gid = OpTypePointer Input %v3ulong\n%gid = OpVariable %ptr_gid Input\n";
  text += "%F = OpTypeFloat " + std::to_string(width) + "\n";
  if (intBits != 64) text += "%I = OpTypeInt " + std::to_string(intBits) + " 0\n";
  const std::string I = intBits == 64 ? "%ulong" : "%I";
  text += "%pF = OpTypePointer CrossWorkgroup %F\n%pI = OpTypePointer CrossWorkgroup " + I +
          "\n%fn = OpTypeFunction %void %pI %pF\n"
          "%k = OpFunction %void None %fn\n%out = OpFunctionParameter %pI\n%in = OpFunctionParameter %pF\n"
          "%entry = OpLabel\n%g = OpLoad %v3ulong %gid\n%i = OpCompositeExtract %ulong %g 0\n"
          "%pin = OpInBoundsPtrAccessChain %pF %in %i\n%x = OpLoad %F %pin\n"
          "%r = " +
          std::string(isSigned ? "OpConvertFToS " : "OpConvertFToU ") + I +
          " %x\n"
          "%pout = OpInBoundsPtrAccessChain %pI %out %i\nOpStore %pout %r\nOpReturn\nOpFunctionEnd\n";
  return assemble(text);
}

}  // namespace

TEST_CASE("float to integer conversions agree with numerics::floatToInt", "[conversion][differential]") {
  const char* options[] = {"saturate", "min_value", "zero"};
  for (Format f : {Format::Half, Format::Float, Format::Double}) {
    // Special values and subnormals first, then values around every integer type's bounds.
    std::vector<uint64_t> bits = operandBits(f, 1024, 99);
    for (int b : {8, 16, 32, 64}) {
      for (double v : {std::ldexp(1.0, b - 1), std::ldexp(1.0, b), -std::ldexp(1.0, b - 1), -1.0, 0.75, -0.75}) {
        for (double d : {-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5}) bits.push_back(encode(v + d, f));
      }
    }
    const size_t count = bits.size();
    const size_t bytes = size_t(bytesOf(f));
    auto in = std::make_shared<host::Buffer>(count * bytes);
    for (size_t i = 0; i < count; ++i) std::memcpy(in->data() + i * bytes, &bits[i], bytes);
    for (const char* option : options) {
      for (int intBits : {8, 16, 32, 64}) {
        for (bool isSigned : {false, true}) {
          for (bool saturated : {false, true}) {
            for (int mode : {-1, 0, 3}) {  // default (toward zero), rte, rtn
              INFO(numerics::toString(f) << " to " << (isSigned ? "int" : "uint") << intBits
                                         << (saturated ? " sat" : "") << " mode " << mode << " " << option);
              host::DeviceConfig config;
              config.choices.set(std::string("float_to_int_out_of_range=") + option);
              host::Device device(config);
              auto program = host::Program::fromSpirv(device, conversionWords(f, intBits, isSigned, saturated, mode));
              host::Kernel kernel(program, "k");
              auto out = std::make_shared<host::Buffer>(count * 8);
              kernel.setArg(0, out);
              kernel.setArg(1, in);
              host::NDRange range;
              range.global = {count, 1, 1};
              const host::RunResult r = kernel.run(range);
              REQUIRE(r.ok);
              const uint64_t mask = intBits == 64 ? ~uint64_t(0) : (uint64_t(1) << intBits) - 1;
              size_t mismatches = 0;
              for (size_t i = 0; i < count; ++i) {
                const double x = decode(bits[i], f);
                const numerics::Rounding rounding =
                    mode < 0 ? numerics::Rounding::RTZ : clref::interpreter::toRounding(spv::FPRoundingMode(mode));
                const uint64_t expected = numerics::floatToInt(numerics::roundToIntegral(x, rounding), intBits,
                                                               isSigned, saturated, config.choices) &
                                          mask;
                uint64_t got = 0;
                std::memcpy(&got, out->data() + i * size_t(intBits / 8), size_t(intBits / 8));
                if (got != expected && ++mismatches <= 5)
                  UNSCOPED_INFO(x << ": interpreter " << got << ", numerics " << expected);
              }
              CHECK(mismatches == 0);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("FPRoundingMode and numerics::Rounding convert both ways", "[interpreter][rules]") {
  for (numerics::Rounding r :
       {numerics::Rounding::RTE, numerics::Rounding::RTZ, numerics::Rounding::RTP, numerics::Rounding::RTN})
    CHECK(clref::interpreter::toRounding(clref::interpreter::toSpirv(r)) == r);
  CHECK(clref::interpreter::toRounding(spv::FPRoundingMode::RTZ) == numerics::Rounding::RTZ);
  CHECK(uint32_t(clref::interpreter::toSpirv(numerics::Rounding::RTN)) == 3);
  CHECK_THROWS_AS(clref::interpreter::toRounding(spv::FPRoundingMode(4)), std::invalid_argument);
}
