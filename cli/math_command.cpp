// `clref math` (cli/math_command.hpp).
#include "cli/math_command.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <span>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "numerics/enclosure.hpp"
#include "numerics/math.hpp"
#include "numerics/verdict.hpp"
#include "cli/math_operations.hpp"
#include "cli/math_values.hpp"
#include "cli/value_syntax.hpp"

namespace clref::cli {

namespace {

using namespace clref::numerics;

// Operands that are integers, not values of the format: ldexp's k, pown's and rootn's n
// (int), nan's code (uint of the format's width).
bool integerOperand(MathFn f, size_t i) {
  return ((f == MathFn::ldexp || f == MathFn::pown || f == MathFn::rootn) && i == 1) || (f == MathFn::nan && i == 0);
}

int list() {
  for (int i = 0; i < kMathFnCount; ++i) {
    const MathFn f = MathFn(i);
    std::cout << nameOf(f) << " " << arity(f) << "\n";
  }
  // The operations of math_operations.hpp.
  std::cout << "add 2\nsub 2\nmul 2\ndiv 2\nrecip 1\nfrem 2\nfmod_spirv 2\nconvert 1\ndot 2\ncross 2\nlength 1\n"
               "distance 2\nnormalize 1\nfast_length 1\nfast_distance 2\nfast_normalize 1\n"
               "abs 1\nabs_diff 2\nadd_sat 2\nhadd 2\nrhadd 2\nclamp 3\nclz 1\nctz 1\nmad_hi 3\nmad_sat 3\nmax 2\n"
               "min 2\nmul_hi 2\nrotate 2\nsub_sat 2\nupsample 2\npopcount 1\nmad24 3\nmul24 2\nisequal 2\n"
               "isnotequal 2\nisgreater 2\nisgreaterequal 2\nisless 2\nislessequal 2\nislessgreater 2\nisfinite 1\n"
               "isinf 1\nisnan 1\nisnormal 1\nisordered 2\nisunordered 2\nsignbit 1\nbitselect 3\nselect 3\n";
  return 0;
}

// --check-second: the second result of frexp, modf, fract, sincos, remquo and lgamma_r, judged by its own rule.
int checkSecond(MathFn f, std::span<const double> args, const MathResult& r, Format format, const std::string& text,
                const Judging& j) {
  auto verdict = [](bool allowed, const std::string& set, const std::string& rule) {
    std::cout << "second:   " << (allowed ? "allowed" : "NOT allowed") << " (allowed: " << set << "; " << rule
              << ")\n";
    return allowed ? 0 : kNotAllowed;
  };
  switch (f) {
    case MathFn::frexp:
    case MathFn::remquo:
    case MathFn::lgamma_r: {
      const int64_t observed = int64_t(parseValue(text, ScalarType::Int, "--check-second"));
      if (f == MathFn::frexp) return verdict(observed == r.integer, std::to_string(r.integer), "exact");
      if (f == MathFn::lgamma_r) {
        // OpenCL C 3.0 §6.15.2 [[math-functions]] lgamma_r: the sign of NaN and -inf is not stated (choice
        // lgamma_sign_undefined).
        if (std::isnan(args[0]) || args[0] == -INFINITY) return verdict(true, "any value", "unspecified");
        return verdict(observed == r.integer, std::to_string(r.integer), "exact");
      }
      // remquo: "the sign of x/y and at least the seven low bits of the magnitude of the integral quotient"
      // (OpenCL C 3.0 §6.15.2 [[math-functions]] remquo; choice remquo_quotient_bits).
      if (std::isnan(r.value)) return verdict(true, "any value", "no quotient for a NaN remainder");
      const bool negative = std::signbit(args[0]) != std::signbit(args[1]);
      const int64_t q = r.integer < 0 ? -r.integer : r.integer, o = observed < 0 ? -observed : observed;
      const bool ok = (q % 128) == (o % 128) && (o == 0 || (observed < 0) == negative);
      return verdict(ok, std::string(negative ? "-" : "") + "(k·128 + " + std::to_string(q % 128) + ")",
                     "the sign of x/y and the seven low bits of the quotient");
    }
    case MathFn::sincos: {
      const double observed = parseValue(text, scalarTypeOf(format), "--check-second");
      const Verdict v = judge(MathFn::cos, args, observed, format, j.profile, j.verdict);
      return verdict(v.allowed, numerics::toString(ValueSet{v.lo, v.hi, std::isnan(v.lo)}), "cos: " + v.rule);
    }
    case MathFn::modf:
    case MathFn::fract: {
      const double observed = parseValue(text, scalarTypeOf(format), "--check-second");
      const bool same = (std::isnan(observed) && std::isnan(r.second)) ||
                        (observed == r.second && std::signbit(observed) == std::signbit(r.second));
      return verdict(same, show(r.second, format), "exact");
    }
    default: throw Rejected("--check-second: " + std::string(nameOf(f)) + " has no second result");
  }
}

int run(const MathCommandOptions& o) {
  if (o.list) return list();
  if (o.function.empty()) throw Rejected("math: a function name is required (clref math --list shows them)");
  if (const auto status = runOperation(o)) return *status;
  if (const auto status = runBuiltin(o)) return *status;
  const auto fn = mathFnByName(o.function);
  if (!fn) {
    std::string names;
    for (int i = 0; i < kMathFnCount; ++i) names += (i ? " " : "") + std::string(nameOf(MathFn(i)));
    throw Rejected("math: unknown function '" + o.function + "'; the functions are: " + names);
  }
  const MathFn f = *fn;
  const Format format = parseFormat(o.type);
  const Rounding rounding = parseRounding(o.rounding.empty() ? "rte" : o.rounding);
  if (int(o.args.size()) != arity(f))
    throw Rejected("math: " + o.function + " takes " + std::to_string(arity(f)) + " operand" +
                   (arity(f) == 1 ? "" : "s") + ", got " + std::to_string(o.args.size()));
  std::vector<double> args;
  for (size_t i = 0; i < o.args.size(); ++i) {
    const ScalarType t =
        integerOperand(f, i)
            ? (f == MathFn::nan ? (format == Format::Double ? ScalarType::ULong : ScalarType::UInt) : ScalarType::Int)
            : scalarTypeOf(format);
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
  if (o.check.empty() && o.checkSecond.empty()) return 0;
  const Judging j = judgingOf(o);
  const int second = o.checkSecond.empty() ? 0 : checkSecond(f, args, r, format, o.checkSecond, j);
  if (o.check.empty()) return second;

  const VerdictOptions& options = j.verdict;
  const double observed = f == MathFn::ilogb ? parseValue(o.check, ScalarType::Int, "--check")
                                             : parseValue(o.check, scalarTypeOf(format), "--check");
  const Profile profile = j.profile;
  Verdict v;
  try {
    v = judge(f, args, observed, format, profile, options);
  } catch (const std::invalid_argument& e) { throw Rejected(e.what()); }
  applyOptimizationOptions(j, args, f == MathFn::ilogb ? double(r.integer) : r.value, observed, v);
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
  return v.allowed && second == 0 ? 0 : kNotAllowed;
}

}  // namespace

CLI::App* addMathCommand(CLI::App& app, MathCommandOptions& o) {
  auto* cmd = app.add_subcommand("math", "evaluate an OpenCL.std math function exactly and judge a result");
  cmd->add_option("function", o.function, "function name (clref math --list)");
  cmd->add_option("args", o.args, "operands: hexfloat, decimal, inf, nan, or raw bits 0x3f800000:bits");
  cmd->add_option("--type", o.type, "half, float or double")->capture_default_str();
  cmd->add_option("--rounding", o.rounding,
                  "rte, rtz, rtp or rtn (default rte; convert: rtz to integers, rte to floating point)");
  cmd->add_option("--check", o.check, "an implementation's result: print the verdict (exit 1 if not allowed)");
  cmd->add_option("--check-second", o.checkSecond,
                  "the second result (frexp's exponent, modf's integral part, fract's floor, sincos's cosine, "
                  "remquo's quotient, lgamma_r's sign)");
  cmd->add_option("--profile", o.profile, "full, embedded, relaxed or relaxed-embedded")->capture_default_str();
  cmd->add_option("--options", o.options,
                  "the build options of the device whose result is checked (-cl-fast-relaxed-math, "
                  "-cl-unsafe-math-optimizations, -cl-denorms-are-zero, -cl-fp32-correctly-rounded-divide-sqrt, ...)");
  cmd->add_option("--to", o.to, "convert: the destination type (char ... ulong, half, float, double)");
  cmd->add_flag("--sat", o.saturate, "convert: saturate (convert_<type>_sat)");
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

}  // namespace clref::cli
