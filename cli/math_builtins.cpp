// `clref math` for the integer built-ins (OpenCL C 3.0 §6.15.3 [[integer-functions]]) and the relational functions
// (§6.15.6 [[relational-functions]]): their results are exact, so clref computes them by running the built-in itself
// in a one-work-item kernel on the reference device (the same instructions a program's kernel executes), and a
// checked value is allowed when it is that result, or any value where a named choice or the spec leaves it open
// (mul24 and mad24 beyond 24 bits).
#include <iostream>
#include <map>
#include <optional>

#include "host/host.hpp"
#include "cli/math_operations.hpp"
#include "cli/math_values.hpp"
#include "cli/value_syntax.hpp"

namespace clref::cli {
namespace {

// How a built-in's operands and result are typed, from the type T the command names.
enum class Shape : uint8_t {
  Same,        // T f(T, ...)
  Unsigned,    // uT f(T, ...): abs, abs_diff
  Upsample,    // 2T upsample(T hi, uT lo)
  ShiftCount,  // rotate(T, T)
  Relational,  // int f(F, ...): isequal, isnan, signbit, ...
  Select,      // T select(T, T, iT)
};

struct Builtin {
  int arity;
  Shape shape;
};

const std::map<std::string, Builtin>& builtins() {
  static const std::map<std::string, Builtin> table = {
      {"abs", {1, Shape::Unsigned}},       {"abs_diff", {2, Shape::Unsigned}}, {"add_sat", {2, Shape::Same}},
      {"hadd", {2, Shape::Same}},          {"rhadd", {2, Shape::Same}},        {"clamp", {3, Shape::Same}},
      {"clz", {1, Shape::Same}},           {"ctz", {1, Shape::Same}},          {"mad_hi", {3, Shape::Same}},
      {"mad_sat", {3, Shape::Same}},       {"max", {2, Shape::Same}},          {"min", {2, Shape::Same}},
      {"mul_hi", {2, Shape::Same}},        {"rotate", {2, Shape::ShiftCount}}, {"sub_sat", {2, Shape::Same}},
      {"upsample", {2, Shape::Upsample}},  {"popcount", {1, Shape::Same}},     {"mad24", {3, Shape::Same}},
      {"mul24", {2, Shape::Same}},         {"isequal", {2, Shape::Relational}}, {"isnotequal", {2, Shape::Relational}},
      {"isgreater", {2, Shape::Relational}}, {"isgreaterequal", {2, Shape::Relational}},
      {"isless", {2, Shape::Relational}},  {"islessequal", {2, Shape::Relational}},
      {"islessgreater", {2, Shape::Relational}}, {"isfinite", {1, Shape::Relational}},
      {"isinf", {1, Shape::Relational}},   {"isnan", {1, Shape::Relational}},  {"isnormal", {1, Shape::Relational}},
      {"isordered", {2, Shape::Relational}}, {"isunordered", {2, Shape::Relational}},
      {"signbit", {1, Shape::Relational}}, {"bitselect", {3, Shape::Same}},    {"select", {3, Shape::Select}},
  };
  return table;
}

std::string unsignedOf(const std::string& t) { return t[0] == 'u' ? t : "u" + t; }
std::string signedOf(const std::string& t) { return t[0] == 'u' ? t.substr(1) : t; }
std::string widerOf(const std::string& t) {
  const std::string s = signedOf(t), w = s == "char" ? "short" : s == "short" ? "int" : "long";
  return t[0] == 'u' ? "u" + w : w;
}

}  // namespace

std::optional<int> runBuiltin(const MathCommandOptions& o) {
  const auto it = builtins().find(o.function);
  if (it == builtins().end()) return std::nullopt;
  const Builtin b = it->second;
  const auto elem = parseElementType(o.type);
  if (!elem) throw Rejected("--type: not an OpenCL scalar type: '" + o.type + "'");
  const std::string t(toString(*elem));  // the one-word name ("uint" for "unsigned int") the names below derive from
  const bool floatType = isFloat(*elem);
  if (b.shape == Shape::Relational ? !floatType : (floatType && b.shape != Shape::Same && b.shape != Shape::Select))
    throw Rejected("math: " + o.function + " does not take " + t);
  if (!floatType && b.shape == Shape::Relational) throw Rejected("math: " + o.function + " takes half, float or double");
  if (floatType && b.shape == Shape::Same && o.function != "bitselect" && o.function != "clamp" &&
      o.function != "max" && o.function != "min")
    throw Rejected("math: " + o.function + " takes integer types");
  if (int(o.args.size()) != b.arity)
    throw Rejected("math: " + o.function + " takes " + std::to_string(b.arity) + " operand" + (b.arity == 1 ? "" : "s"));
  // The operand and result types.
  std::vector<std::string> types(size_t(b.arity), t);
  std::string result = t;
  switch (b.shape) {
    case Shape::Unsigned: result = unsignedOf(t); break;
    case Shape::Upsample:
      types[1] = unsignedOf(t);
      result = widerOf(t);
      break;
    case Shape::Relational: result = "int"; break;
    case Shape::Select: types[2] = floatType ? (t == "half" ? "short" : t == "float" ? "int" : "long") : signedOf(t); break;
    default: break;
  }
  const auto resultType = parseElementType(result);
  std::vector<std::vector<std::byte>> values;
  for (size_t i = 0; i < o.args.size(); ++i) {
    const auto ty = *parseElementType(types[i]);
    uint64_t bits = 0;
    try {
      bits = detail::elementBitsFromText(ty, o.args[i], "operand " + std::to_string(i + 1));
    } catch (const detail::FieldError& e) { throw Rejected(e.path + ": " + e.message); }
    std::vector<std::byte> v(sizeOf(ty));
    detail::storeBits(ty, bits, v.data());
    values.push_back(std::move(v));
  }
  // One work-item computes the built-in on the reference device.
  std::string params, call;
  for (size_t i = 0; i < types.size(); ++i) {
    params += ", " + types[i] + " a" + std::to_string(i);
    call += (i ? ", a" : "a") + std::to_string(i);
  }
  const std::string pragma = t == "half" ? "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                             : t == "double" ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                                             : "";
  const std::string source = pragma + "kernel void k(global " + result + "* out" + params + ") { *out = " + o.function +
                             "(" + call + "); }\n";
  host::Device device;
  std::shared_ptr<host::Program> program;
  try {
    program = host::Program::fromOpenCLC(device, source);
  } catch (const host::Error& e) { throw Rejected(std::string("math: ") + o.function + ": " + e.what()); }
  host::Kernel kernel(program, "k");
  auto out = std::make_shared<host::Buffer>(sizeOf(*resultType));
  kernel.setArg(0, out);
  for (size_t i = 0; i < values.size(); ++i) kernel.setArgValue(i + 1, values[i].data(), values[i].size());
  host::NDRange r;
  const auto run = kernel.run(r);
  if (!run.ok) throw Rejected("math: " + o.function + ": " + (run.fault ? run.fault->format() : "the run failed"));
  const std::string text = formatElements(*resultType, out->data(), 1);
  const std::string shown = text.substr(0, text.find('\n'));
  std::cout << o.function << "(";
  for (size_t i = 0; i < o.args.size(); ++i) std::cout << (i ? ", " : "") << types[i] << " " << o.args[i];
  std::cout << ") -> " << result << "\nresult:   " << shown << "\n";
  // mul24 / mad24 with an operand beyond 24 bits: "the result is implementation-defined" (choice mul24_out_of_range).
  bool free = false;
  for (const auto& u : run.choicesUsed)
    if (u.choice == numerics::Choice::Mul24OutOfRange && u.count) free = true;
  if (free) std::cout << "note:     an operand is beyond 24 bits: the result is implementation-defined (choice mul24_out_of_range)\n";
  if (o.check.empty()) return 0;
  uint64_t observed = 0;
  try {
    observed = detail::elementBitsFromText(*resultType, o.check, "--check");
  } catch (const detail::FieldError& e) { throw Rejected(e.path + ": " + e.message); }
  const uint64_t expected = detail::loadBits(*resultType, out->data());
  const size_t bytes = sizeOf(*resultType);
  const uint64_t mask = bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1;
  const bool allowed = free || (observed & mask) == (expected & mask);
  std::cout << "check:    " << o.check << "\nverdict:  " << (allowed ? "allowed" : "NOT allowed") << "\nallowed:  "
            << (free ? "any value of " + result : shown) << "\nrule:     "
            << (free ? "implementation-defined (OpenCL C 3.0 §6.15.3 [[integer-functions]] mul24, mad24)" : "exact")
            << "\n";
  return allowed ? 0 : kNotAllowed;
}

}  // namespace clref::cli
