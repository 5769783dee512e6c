// `clref math` (reference/math_command.hpp).
#include "reference/math_command.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "numerics/math.hpp"
#include "numerics/verdict.hpp"
#include "reference/value_syntax.hpp"

namespace clref::reference {

namespace {

using namespace clref::numerics;

constexpr int kNotAllowed = 1, kRejected = 2;

struct Rejected : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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

ElemType elemTypeOf(Format f) {
  return f == Format::Half ? ElemType::Half : f == Format::Float ? ElemType::Float : ElemType::Double;
}

// Operands that are integers, not values of the format: ldexp's k, pown's and rootn's n
// (int), nan's code (uint of the format's width).
bool integerOperand(MathFn f, size_t i) {
  return ((f == MathFn::ldexp || f == MathFn::pown || f == MathFn::rootn) && i == 1) || (f == MathFn::nan && i == 0);
}

double bitsToDouble(uint64_t bits, Format f) {
  switch (f) {
    case Format::Half: return toDouble(Half{uint16_t(bits)});
    case Format::Float: return std::bit_cast<float>(uint32_t(bits));
    case Format::Double: return std::bit_cast<double>(bits);
  }
  return 0;
}

// A value in the case-file syntax (reference/value_syntax.hpp): hexfloat, decimal, inf, nan,
// "0x3f800000:bits".
double parseValue(const std::string& token, ElemType type, const std::string& what) {
  try {
    const uint64_t bits = detail::elementBitsFromText(type, token, what);
    switch (type) {
      case ElemType::Half: return bitsToDouble(bits, Format::Half);
      case ElemType::Float: return bitsToDouble(bits, Format::Float);
      case ElemType::Double: return bitsToDouble(bits, Format::Double);
      case ElemType::Int: return double(int32_t(uint32_t(bits)));
      case ElemType::UInt: return double(uint32_t(bits));
      case ElemType::ULong: return double(bits);
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

int list() {
  for (int i = 0; i < kMathFnCount; ++i) {
    const MathFn f = MathFn(i);
    std::cout << nameOf(f) << " " << arity(f) << "\n";
  }
  return 0;
}

int run(const MathCommandOptions& o) {
  if (o.list) return list();
  if (o.function.empty()) throw Rejected("math: a function name is required (clref math --list shows them)");
  const auto fn = mathFnByName(o.function);
  if (!fn) {
    std::string names;
    for (int i = 0; i < kMathFnCount; ++i) names += (i ? " " : "") + std::string(nameOf(MathFn(i)));
    throw Rejected("math: unknown function '" + o.function + "'; the functions are: " + names);
  }
  const MathFn f = *fn;
  const Format format = parseFormat(o.type);
  const Rounding rounding = parseRounding(o.rounding);
  if (int(o.args.size()) != arity(f))
    throw Rejected("math: " + o.function + " takes " + std::to_string(arity(f)) + " operand" +
                   (arity(f) == 1 ? "" : "s") + ", got " + std::to_string(o.args.size()));
  std::vector<double> args;
  for (size_t i = 0; i < o.args.size(); ++i) {
    const ElemType t =
        integerOperand(f, i)
            ? (f == MathFn::nan ? (format == Format::Double ? ElemType::ULong : ElemType::UInt) : ElemType::Int)
            : elemTypeOf(format);
    args.push_back(parseValue(o.args[i], t, "operand " + std::to_string(i + 1)));
  }

  Choices choices;
  for (const auto& c : o.choices) {
    try {
      choices.set(c);
    } catch (const std::invalid_argument& e) { throw Rejected("math: --choice " + c + ": " + e.what()); }
  }
  MathResult r = evaluate(f, args, format, rounding, choices);
  if (f == MathFn::nan && choices.get<Choice::NanPayload>() == NanPayloadOption::Significand) {
    // OpenCL C 3.0 §6.15.2 [[math-functions]] nan: the code in the significand of a quiet NaN, as the interpreter
    // places it (choice nan_payload); the double carries the format's payload bits.
    const uint64_t code = uint64_t(args[0]);
    if (format == Format::Half)
      r.value = toDouble(Half{uint16_t(0x7e00 | (code & 0x1ff))});
    else if (format == Format::Float)
      r.value = std::bit_cast<float>(uint32_t(0x7fc00000u | (code & 0x3fffff)));
    else
      r.value = std::bit_cast<double>(0x7ff8000000000000ull | (code & 0x7ffffffffffffull));
  }
  std::cout << o.function << "(";
  for (size_t i = 0; i < args.size(); ++i)
    std::cout << (i ? ", " : "") << (integerOperand(f, i) ? std::to_string(int64_t(args[i])) : show(args[i], format));
  std::cout << ") in " << toString(format) << ", " << toString(rounding) << "\n";
  if (f == MathFn::ilogb) {
    std::cout << "result:   " << r.integer << "\n";
  } else {
    std::cout << "result:   " << show(r.value, format) << "\n";
    switch (f) {
      case MathFn::frexp: std::cout << "exponent: " << r.integer << "\n"; break;
      case MathFn::modf: std::cout << "integral: " << show(r.second, format) << "\n"; break;
      case MathFn::fract: std::cout << "floor:    " << show(r.second, format) << "\n"; break;
      case MathFn::sincos: std::cout << "cosine:   " << show(r.second, format) << "\n"; break;
      case MathFn::remquo: std::cout << "quotient: " << r.integer << "\n"; break;
      case MathFn::lgamma_r: std::cout << "sign:     " << r.integer << "\n"; break;
      default: break;
    }
  }
  std::cout << "exact:    " << exactDecimal(f, args, format, 40) << "\n";
  if (o.check.empty()) return 0;

  VerdictOptions options;
  if (o.ftz) options.flushToZero = true;
  if (o.noFtz) options.flushToZero = false;
  const double observed = f == MathFn::ilogb ? parseValue(o.check, ElemType::Int, "--check")
                                             : parseValue(o.check, elemTypeOf(format), "--check");
  const Profile profile = parseProfile(o.profile);
  Verdict v;
  try {
    v = judge(f, args, observed, format, profile, options);
  } catch (const std::invalid_argument& e) { throw Rejected(e.what()); }
  std::cout << "check:    " << (f == MathFn::ilogb ? std::to_string(int64_t(observed)) : show(observed, format))
            << "\n";
  std::cout << "verdict:  " << (v.allowed ? "allowed" : "NOT allowed") << " (" << toString(profile) << " profile)\n";
  char err[64];
  std::snprintf(err, sizeof err, "%.6g", v.errorUlps);
  std::cout << "error:    " << err << " ulp\n";
  std::cout << "allowed:  ";
  if (v.anyValue)
    std::cout << "any value of the type, NaN included";
  else if (std::isnan(v.lo))
    std::cout << "any NaN";
  else if (v.lo == v.hi && std::signbit(v.lo) == std::signbit(v.hi))
    std::cout << show(v.lo, format);
  else if (v.lo == 0 && v.hi == 0)
    std::cout << "-0 or +0";
  else
    std::cout << "[" << show(v.lo, format) << ", " << show(v.hi, format) << "]";
  if (v.zeroAllowed) std::cout << " or ±0";
  if (v.nanAllowed) std::cout << " or a NaN";
  std::cout << "\n";
  std::cout << "rule:     " << v.rule << "\n";
  if (!v.clause.empty()) std::cout << "clause:   " << v.clause << "\n";
  if (!v.note.empty()) std::cout << "note:     " << v.note << "\n";
  return v.allowed ? 0 : kNotAllowed;
}

}  // namespace

CLI::App* addMathCommand(CLI::App& app, MathCommandOptions& o) {
  auto* cmd = app.add_subcommand("math", "evaluate an OpenCL.std math function exactly and judge a result");
  cmd->add_option("function", o.function, "function name (clref math --list)");
  cmd->add_option("args", o.args, "operands: hexfloat, decimal, inf, nan, or raw bits 0x3f800000:bits");
  cmd->add_option("--type", o.type, "half, float or double")->capture_default_str();
  cmd->add_option("--rounding", o.rounding, "rte, rtz, rtp or rtn")->capture_default_str();
  cmd->add_option("--check", o.check, "an implementation's result: print the verdict (exit 1 if not allowed)");
  cmd->add_option("--profile", o.profile, "full, embedded, relaxed or relaxed-embedded")->capture_default_str();
  cmd->add_flag("--ftz", o.ftz, "the device flushes subnormals (also for double)");
  cmd->add_flag("--no-ftz", o.noFtz, "the device keeps subnormals (default: half and float may flush)");
  cmd->add_flag("--list", o.list, "list the functions and their operand counts");
  cmd->add_option("--choice", o.choices, "name=option for results the spec leaves open (clref choices; repeatable)");
  return cmd;
}

int mathCommand(const MathCommandOptions& o) {
  try {
    return run(o);
  } catch (const Rejected& e) {
    std::cerr << e.what() << "\n";
    return kRejected;
  }
}

}  // namespace clref::reference
