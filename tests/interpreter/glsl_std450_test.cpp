// GLSL.std.450 (interpreter/ops_glsl_std450.cpp and its geometric and pack files) through real GLSL compute shaders
// run by the host API: every instruction applied to arrays of hard operands (±0, ±inf, NaN, subnormals, halfway
// cases, huge arguments), compared bit for bit with values computed here independently: MPFR at 256 bits rounded to
// the format by the math tests' own rounding (tests/numerics/math_reference.hpp) for the correctly rounded functions,
// each operation of GLSL's formula rounded the same way for the formula-defined ones, plain host computation written
// from the GLSL specification's text for the exact ones and the packing functions.
#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <functional>

#include "host/host.hpp"
#include "interpreter/shadow.hpp"
#include "tests/numerics/math_reference.hpp"

using namespace clref;
using numerics::Format;
using numerics::MathFn;

namespace {

using Bytes = std::vector<uint8_t>;

template <class T> Bytes bytesOf(const std::vector<T>& v) {
  Bytes b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <class T> std::vector<T> valuesOf(const Bytes& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

struct Run {
  Bytes out;
  host::RunResult result;
};

// A read-only input buffer: its GLSL element type and bytes.
struct In {
  std::string type;
  Bytes bytes;
};

// Runs `body` (GLSL statements with `uint i = gl_GlobalInvocationID.x` in scope) over `count` invocations; the inputs
// are the read-only buffers `in0`, `in1`, … at bindings 0, 1, …; the output `r` of `outType` at the next binding,
// `outBytes` long.
Run runShader(const std::string& header, const std::vector<In>& inputs, const std::string& outType, size_t outBytes,
              const std::string& body, uint32_t count, const std::string& choice = "") {
  host::DeviceConfig config;
  if (!choice.empty()) config.choices.set(choice);
  host::Device device(config);
  std::string src = "#version 450\n" + header + "layout(local_size_x = 1) in;\n";
  for (size_t k = 0; k < inputs.size(); ++k)
    src += "layout(std430, set = 0, binding = " + std::to_string(k) + ") readonly buffer In" + std::to_string(k) +
           " { " + inputs[k].type + " in" + std::to_string(k) + "[]; };\n";
  src += "layout(std430, set = 0, binding = " + std::to_string(inputs.size()) + ") buffer Out { " + outType +
         " r[]; };\nvoid main() {\n  uint i = gl_GlobalInvocationID.x;\n" + body + "\n}\n";
  INFO(src);
  auto program = host::Program::fromGlsl(device, src);
  host::Kernel k(program, "main");
  std::vector<std::shared_ptr<host::Buffer>> keep;
  for (size_t b = 0; b < inputs.size(); ++b) {
    keep.push_back(std::make_shared<host::Buffer>(inputs[b].bytes.data(), inputs[b].bytes.size()));
    k.setArg(*k.resourceArg(0, uint32_t(b)), keep.back());
  }
  auto out = std::make_shared<host::Buffer>(outBytes);
  k.setArg(*k.resourceArg(0, uint32_t(inputs.size())), out);
  Run run;
  run.result = k.run(k.dispatch({count, 1, 1}));
  INFO((run.result.fault ? run.result.fault->message : ""));
  REQUIRE(run.result.ok);
  run.out.resize(outBytes);
  std::memcpy(run.out.data(), out->data(), outBytes);
  return run;
}
// How many times the choice `name` decided a value in the run.
uint64_t choiceCount(const Run& run, numerics::Choice c) {
  for (const auto& u : run.result.choicesUsed)
    if (u.choice == c) return u.count;
  return 0;
}

bool sameValue(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}
std::string hex(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

// The formats under test: how the shader names them, their bytes, and conversions of the test's doubles.
struct Fmt {
  Format format;
  std::string glsl, header;
  size_t bytes;
};
const Fmt kFloat{Format::Float, "float", "", 4};
const Fmt kDouble{Format::Double, "double", "", 8};
const Fmt kHalf{Format::Half, "float16_t",
                "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"
                "#extension GL_EXT_shader_16bit_storage : require\n",
                2};

// x rounded to the format by the reference's own rounding (exact when x is a value of the format).
double roundTo(double x, Format f) {
  numerics::Mpfr y(256);
  mpfr_set_d(y, x, MPFR_RNDN);
  return numerics::test::refRound(y, 0, f, numerics::Rounding::RTE);
}
Bytes encode(const std::vector<double>& v, const Fmt& f) {
  Bytes b(v.size() * f.bytes);
  for (size_t i = 0; i < v.size(); ++i) {
    if (f.format == Format::Float) {
      const float x = float(v[i]);
      std::memcpy(&b[i * 4], &x, 4);
    } else if (f.format == Format::Double) {
      std::memcpy(&b[i * 8], &v[i], 8);
    } else {
      const uint16_t h = numerics::toHalf(v[i]).bits;  // v[i] is a binary16 value: exact
      std::memcpy(&b[i * 2], &h, 2);
    }
  }
  return b;
}
std::vector<double> decode(const Bytes& b, const Fmt& f) {
  std::vector<double> v(b.size() / f.bytes);
  for (size_t i = 0; i < v.size(); ++i) {
    if (f.format == Format::Float) {
      float x;
      std::memcpy(&x, &b[i * 4], 4);
      v[i] = x;
    } else if (f.format == Format::Double) {
      std::memcpy(&v[i], &b[i * 8], 8);
    } else {
      uint16_t h;
      std::memcpy(&h, &b[i * 2], 2);
      v[i] = numerics::toDouble(numerics::Half{h});
    }
  }
  return v;
}

// Hard operands of a format: zeros, infinities, NaN, the smallest subnormal and normal, halfway cases, large values.
std::vector<double> hardValues(Format f) {
  const double minSub = f == Format::Half ? 0x1p-24 : f == Format::Float ? 0x1p-149 : 0x1p-1074;
  const double minNorm = f == Format::Half ? 0x1p-14 : f == Format::Float ? 0x1p-126 : 0x1p-1022;
  const double big = f == Format::Half ? 60000.0 : f == Format::Float ? 0x1.8p100 : 0x1.8p1000;
  std::vector<double> v = {0.0, -0.0, INFINITY, -INFINITY, NAN,  minSub, -minSub * 3, minNorm, 0.5,  -0.5,
                           1.0, -1.0, 2.5,      -3.5,      0.75, 1e-3,   -0.1,        3.0,     10.0, -7.25,
                           big, -big, 100.0,    1.5,       0.25, 0.999,  -0.999,      1.001,   42.0, 6.28125};
  for (double& x : v) x = roundTo(x, f);
  return v;
}

// The correctly rounded f(args) by MPFR (math_reference.hpp), or NaN-free special handling by the reference itself.
// Operands the reference leaves to the special-value tables (math_reference.hpp) get their C99 Annex F / IEEE 754
// value here: rsqrt(±0) = ±inf (IEEE 754-2008 §9.2 [external] rSqrt).
double reference(MathFn fn, const std::vector<double>& args, Format f) {
  if (fn == MathFn::rsqrt && args[0] == 0) return std::copysign(INFINITY, args[0]);
  numerics::test::Ref ref;
  const bool covered = numerics::test::reference(fn, args, f, ref);
  // fma with an infinite or NaN operand, or an exact zero (whose sign the rational reference leaves open): the host's
  // fma, exact in binary64 (IEEE 754-2008 §5.4.1 [external] fusedMultiplyAdd), on values of the format.
  if (fn == MathFn::fma && (!covered || ref.zeroSignFree)) return roundTo(std::fma(args[0], args[1], args[2]), f);
  REQUIRE(covered);
  return numerics::test::refRound(ref.y, ref.t, f, numerics::Rounding::RTE);
}

// One operation of a formula, rounded once to the format (MPFR at 256 bits holds these exactly or with a ternary).
enum class Arith { Add, Sub, Mul, Div, Sqrt };
double rounded(Arith a, double x, double y, Format f) {
  numerics::Mpfr mx(64), my(64), z(256);
  mpfr_set_d(mx, x, MPFR_RNDN);
  mpfr_set_d(my, y, MPFR_RNDN);
  int t = 0;
  switch (a) {
    case Arith::Add: t = mpfr_add(z, mx, my, MPFR_RNDN); break;
    case Arith::Sub: t = mpfr_sub(z, mx, my, MPFR_RNDN); break;
    case Arith::Mul: t = mpfr_mul(z, mx, my, MPFR_RNDN); break;
    case Arith::Div: t = mpfr_div(z, mx, my, MPFR_RNDN); break;
    case Arith::Sqrt: t = mpfr_sqrt(z, mx, MPFR_RNDN); break;
  }
  return numerics::test::refRound(z, t, f, numerics::Rounding::RTE);
}

// Applies `glslName` lane-wise to every operand (unary) or every pair (binary) of `values` and compares with `expect`.
void checkFunction(const Fmt& f, const std::string& call, int arity, const std::vector<double>& values,
                   const std::function<double(const std::vector<double>&)>& expect, const std::string& choice = "") {
  std::vector<std::vector<double>> in(static_cast<size_t>(arity));
  const size_t n = values.size();
  if (arity == 1) {
    in[0] = values;
  } else {
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b) {
        in[0].push_back(values[a]);
        in[1].push_back(values[b]);
        if (arity == 3) in[2].push_back(values[(a + b) % n]);
      }
  }
  const size_t count = in[0].size();
  std::vector<In> bytes;
  for (const auto& v : in) bytes.push_back({f.glsl, encode(v, f)});
  // glslang declares the Float16 capability only for float16_t arithmetic, which the validator asks of a GLSL.std.450
  // instruction on float16_t: each operand is multiplied by 1 (exact, and keeps a NaN a NaN).
  auto arg = [&](int k) {
    const std::string a = "in" + std::to_string(k) + "[i]";
    return f.format == Format::Half ? "(" + a + " * float16_t(1))" : a;
  };
  const std::string args = arity == 1   ? arg(0)
                           : arity == 2 ? arg(0) + ", " + arg(1)
                                        : arg(0) + ", " + arg(1) + ", " + arg(2);
  const Run run = runShader(f.header, bytes, f.glsl, count * f.bytes, "  r[i] = " + call + "(" + args + ");",
                            uint32_t(count), choice);
  const std::vector<double> got = decode(run.out, f);
  int bad = 0;
  for (size_t i = 0; i < count && bad < 5; ++i) {
    std::vector<double> a;
    for (const auto& v : in) a.push_back(v[i]);
    const double e = expect(a);
    if (!sameValue(got[i], e)) {
      ++bad;
      std::string operands;
      for (double x : a) operands += hex(x) + " ";
      FAIL_CHECK(f.glsl << " " << call << "(" << operands << ") = " << hex(got[i]) << ", expected " << hex(e));
    }
  }
}

void checkCorrectlyRounded(const Fmt& f, const std::string& call, MathFn fn, int arity) {
  checkFunction(f, call, arity, hardValues(f.format),
                [&](const std::vector<double>& a) { return reference(fn, a, f.format); });
}

}  // namespace

TEST_CASE("GLSL.std.450 correctly rounded functions of float match MPFR", "[glsl][shader]") {
  const std::vector<std::pair<std::string, MathFn>> unary = {
      {"sin", MathFn::sin},   {"cos", MathFn::cos},          {"tan", MathFn::tan},     {"asin", MathFn::asin},
      {"acos", MathFn::acos}, {"atan", MathFn::atan},        {"sinh", MathFn::sinh},   {"cosh", MathFn::cosh},
      {"tanh", MathFn::tanh}, {"asinh", MathFn::asinh},      {"acosh", MathFn::acosh}, {"atanh", MathFn::atanh},
      {"exp", MathFn::exp},   {"log", MathFn::log},          {"exp2", MathFn::exp2},   {"log2", MathFn::log2},
      {"sqrt", MathFn::sqrt}, {"inversesqrt", MathFn::rsqrt}};
  for (const auto& [name, fn] : unary) {
    INFO(name);
    checkCorrectlyRounded(kFloat, name, fn, 1);
  }
  // atan(y, x) is GLSL.std.450 Atan2 (operands y, x).
  checkCorrectlyRounded(kFloat, "atan", MathFn::atan2, 2);
  checkCorrectlyRounded(kFloat, "pow", MathFn::pow, 2);
  // Huge arguments of sin and cos: the argument reduction is exact.
  const std::vector<double> huge = {0x1.fffffep127, double(1e22f), 0x1p100, -0x1.921fb6p1, 0x1.921fb6p0, 0x1.7p90};
  checkFunction(kFloat, "sin", 1, huge,
                [](const std::vector<double>& a) { return reference(MathFn::sin, a, Format::Float); });
  checkFunction(kFloat, "cos", 1, huge,
                [](const std::vector<double>& a) { return reference(MathFn::cos, a, Format::Float); });
}

TEST_CASE("GLSL.std.450 functions of double and float16_t match MPFR", "[glsl][shader]") {
  for (const Fmt* f : {&kDouble, &kHalf}) {
    INFO(f->glsl);
    if (f->format == Format::Half) {  // no binary64 sin, exp, pow (below)
      checkCorrectlyRounded(*f, "sin", MathFn::sin, 1);
      checkCorrectlyRounded(*f, "exp", MathFn::exp, 1);
    }
    checkCorrectlyRounded(*f, "sqrt", MathFn::sqrt, 1);
    checkCorrectlyRounded(*f, "inversesqrt", MathFn::rsqrt, 1);
    if (f->format == Format::Half) checkCorrectlyRounded(*f, "pow", MathFn::pow, 2);
    checkCorrectlyRounded(*f, "fma", MathFn::fma, 3);
  }
  checkCorrectlyRounded(kFloat, "fma", MathFn::fma, 3);
  // GLSL.std.450 §2 [external] restricts Sin … Atanh, Atan2, Pow, Exp, Log, Exp2 and Log2 to 16- and 32-bit floats
  // (the validator refuses binary64 ones): binary64 is tested with the functions that take it.
}

TEST_CASE("GLSL.std.450 formula functions round each operation of GLSL's formula", "[glsl][shader]") {
  for (const Fmt* f : {&kFloat, &kDouble, &kHalf}) {
    INFO(f->glsl);
    const Format F = f->format;
    auto op = [=](Arith a, double x, double y = 0) { return rounded(a, x, y, F); };
    // mix(x, y, a) = x · (1 − a) + y · a
    checkFunction(*f, "mix", 3, hardValues(F), [&](const std::vector<double>& a) {
      return op(Arith::Add, op(Arith::Mul, a[0], op(Arith::Sub, 1.0, a[2])), op(Arith::Mul, a[1], a[2]));
    });
  }
  const Format F = Format::Float;
  auto op = [=](Arith a, double x, double y = 0) { return rounded(a, x, y, F); };
  // radians: (π/180 rounded to float) · x; degrees: (180/π rounded) · x.
  const double piOver180 = reference(MathFn::radians, {1.0}, F), c180OverPi = reference(MathFn::degrees, {1.0}, F);
  CHECK(piOver180 == double(float(M_PI / 180)));
  checkFunction(kFloat, "radians", 1, hardValues(F),
                [&](const std::vector<double>& a) { return op(Arith::Mul, piOver180, a[0]); });
  checkFunction(kFloat, "degrees", 1, hardValues(F),
                [&](const std::vector<double>& a) { return op(Arith::Mul, c180OverPi, a[0]); });
  // fract(x) = x − floor(x): fract(-1e-3) rounds to 1 - 1e-3, fract(-minSub) to 1.0.
  checkFunction(kFloat, "fract", 1, hardValues(F),
                [&](const std::vector<double>& a) { return op(Arith::Sub, a[0], std::floor(a[0])); });
  // step(edge, x) = x < edge ? 0 : 1
  checkFunction(kFloat, "step", 2, hardValues(F),
                [&](const std::vector<double>& a) { return a[1] < a[0] ? 0.0 : 1.0; });
  // smoothstep over edges in order (inverted edges are the choice smoothstep_inverted_edges, below).
  std::vector<double> e0, e1, x;
  for (double lo : {-1.0, 0.0, 0.25, 3.0})
    for (double hi : {0.5, 1.0, 7.0})
      for (double v : {-2.0, 0.0, 0.1, 0.3, 0.5, 0.7, 1.0, 5.0, double(NAN), double(INFINITY)})
        if (lo < hi) {
          e0.push_back(lo);
          e1.push_back(hi);
          x.push_back(roundTo(v, F));
        }
  const Run run =
      runShader("", {{"float", encode(e0, kFloat)}, {"float", encode(e1, kFloat)}, {"float", encode(x, kFloat)}},
                "float", x.size() * 4, "  r[i] = smoothstep(in0[i], in1[i], in2[i]);", uint32_t(x.size()));
  const std::vector<double> got = decode(run.out, kFloat);
  for (size_t i = 0; i < x.size(); ++i) {
    // t = clamp((x − e0) / (e1 − e0), 0, 1) with GLSL clamp = min(max(t, 0), 1); a NaN t gives 0 (glsl_min_max_nan)
    double t = op(Arith::Div, op(Arith::Sub, x[i], e0[i]), op(Arith::Sub, e1[i], e0[i]));
    t = std::isnan(t) ? 0.0 : std::min(std::max(t, 0.0), 1.0);
    const double e = op(Arith::Mul, op(Arith::Mul, t, t), op(Arith::Sub, 3.0, op(Arith::Mul, 2.0, t)));
    INFO(e0[i] << " " << e1[i] << " " << x[i]);
    CHECK(sameValue(got[i], e));
  }
}

namespace {
void checkGeometric(const Fmt& fmt) {
  INFO(fmt.glsl);
  const Format F = fmt.format;
  auto op = [=](Arith a, double x, double y = 0) { return rounded(a, x, y, F); };
  std::vector<double> p = {3.0,    4.0,   12.0,  0.1,  -0.2,     0.3, 1e20, 1e20, 1e20, 1e-25,
                           1e-25,  1e-25, 0.0,   -0.0, 0.0,      1.0, 2.0,  3.0,  -5.5, 0.75,
                           0.3333, 1e-40, 1e-40, 1.0,  INFINITY, 0.0, 1.0,  0.6,  -0.8, 0.0};
  std::vector<double> q = {0.5,  -0.25, 2.0, 0.7, 0.1,  -0.9, 1.0, -1.0, 0.5,  3.0,  -4.0, 0.0,  1.0, 2.0, 3.0,
                           -1.0, 0.5,   0.5, 0.0, -0.6, 0.8,  0.0, 1.0,  0.25, -2.0, 1.0,  -1.0, 0.0, 1.0, 0.0};
  for (auto* v : {&p, &q})
    for (double& e : *v) e = roundTo(e, F);
  const size_t vecs = p.size() / 3;
  const Bytes P = encode(p, fmt), Q = encode(q, fmt);
  const std::string& S = fmt.glsl;
  const std::string V = fmt.format == Format::Float ? "vec3" : fmt.format == Format::Double ? "dvec3" : "f16vec3";
  // Each component · 1 (exact): float16_t arithmetic makes glslang declare Float16 (see checkFunction).
  auto in = [&](int b, int k) { return "in" + std::to_string(b) + "[3*i+" + std::to_string(k) + "] * " + S + "(1)"; };
  auto vec = [](const std::vector<double>& v, size_t k) {
    return std::array<double, 3>{v[3 * k], v[3 * k + 1], v[3 * k + 2]};
  };
  auto dot = [&](std::array<double, 3> a, std::array<double, 3> b) {
    double s = op(Arith::Mul, a[0], b[0]);
    for (int i = 1; i < 3; ++i) s = op(Arith::Add, s, op(Arith::Mul, a[i], b[i]));
    return s;
  };
  const std::string load = "  " + V + " a = " + V + "(" + in(0, 0) + ", " + in(0, 1) + ", " + in(0, 2) + ");\n  " + V +
                           " b = " + V + "(" + in(1, 0) + ", " + in(1, 1) + ", " + in(1, 2) + ");\n";
  auto run3 = [&](const std::string& expr) {
    return decode(runShader(fmt.header, {{S, P}, {S, Q}}, S, vecs * 3 * fmt.bytes,
                            load + "  " + V + " v = " + expr + ";\n  r[3*i] = v.x; r[3*i+1] = v.y; r[3*i+2] = v.z;",
                            uint32_t(vecs))
                      .out,
                  fmt);
  };
  auto run1 = [&](const std::string& expr) {
    return decode(
        runShader(fmt.header, {{S, P}, {S, Q}}, S, vecs * fmt.bytes, load + "  r[i] = " + expr + ";", uint32_t(vecs))
            .out,
        fmt);
  };
  auto checkVec = [&](const std::vector<double>& got, size_t k, std::array<double, 3> e) {
    for (int i = 0; i < 3; ++i) {
      INFO("vector " << k << " component " << i << ": " << hex(got[3 * k + i]) << " vs " << hex(e[i]));
      CHECK(sameValue(got[3 * k + i], e[i]));
    }
  };
  const auto length = run1("length(a)"), distance = run1("distance(a, b)");
  const auto normalize = run3("normalize(a)"), cross = run3("cross(a, b)"), reflect = run3("reflect(a, b)");
  const auto faceforward = run3("faceforward(a, b, " + V + "(b.y, a.x, " + S + "(1)))"),
             refract = run3("refract(a, b, " + S + "(0.75))");
  for (size_t k = 0; k < vecs; ++k) {
    const auto a = vec(p, k), b = vec(q, k);
    const double len = op(Arith::Sqrt, dot(a, a));
    CHECK(sameValue(length[k], len));
    std::array<double, 3> d;
    for (int i = 0; i < 3; ++i) d[i] = op(Arith::Sub, a[i], b[i]);
    CHECK(sameValue(distance[k], op(Arith::Sqrt, dot(d, d))));
    checkVec(normalize, k, {op(Arith::Div, a[0], len), op(Arith::Div, a[1], len), op(Arith::Div, a[2], len)});
    std::array<double, 3> c;
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, l = (i + 2) % 3;
      c[i] = op(Arith::Sub, op(Arith::Mul, a[j], b[l]), op(Arith::Mul, b[j], a[l]));
    }
    checkVec(cross, k, c);
    // reflect(I, N) = I − 2 · dot(N, I) · N
    const double twoDot = op(Arith::Mul, 2.0, dot(b, a));
    checkVec(reflect, k,
             {op(Arith::Sub, a[0], op(Arith::Mul, twoDot, b[0])), op(Arith::Sub, a[1], op(Arith::Mul, twoDot, b[1])),
              op(Arith::Sub, a[2], op(Arith::Mul, twoDot, b[2]))});
    // faceforward(N, I, Nref) = dot(Nref, I) < 0 ? N : −N
    const std::array<double, 3> nref = {b[1], a[0], 1.0};
    const bool keep = dot(nref, b) < 0;
    checkVec(faceforward, k, {keep ? a[0] : -a[0], keep ? a[1] : -a[1], keep ? a[2] : -a[2]});
    // refract(I, N, eta)
    const double eta = 0.75, dn = dot(b, a);
    const double kk =
        op(Arith::Sub, 1.0, op(Arith::Mul, op(Arith::Mul, eta, eta), op(Arith::Sub, 1.0, op(Arith::Mul, dn, dn))));
    std::array<double, 3> rr = {0.0, 0.0, 0.0};
    if (!(kk < 0)) {
      const double s = op(Arith::Add, op(Arith::Mul, eta, dn), op(Arith::Sqrt, kk));
      for (int i = 0; i < 3; ++i) rr[i] = op(Arith::Sub, op(Arith::Mul, eta, a[i]), op(Arith::Mul, s, b[i]));
    }
    checkVec(refract, k, rr);
  }
}
}  // namespace

TEST_CASE("GLSL.std.450 geometric functions follow GLSL's formulas", "[glsl][shader]") {
  for (const Fmt* f : {&kFloat, &kDouble, &kHalf}) checkGeometric(*f);
}

TEST_CASE("GLSL.std.450 exact functions: rounding to integers, abs, sign, min, max, clamp", "[glsl][shader]") {
  const auto v = hardValues(Format::Float);
  auto same = [](double x) { return x; };
  (void)same;
  checkFunction(kFloat, "floor", 1, v, [](const std::vector<double>& a) { return std::floor(a[0]); });
  checkFunction(kFloat, "ceil", 1, v, [](const std::vector<double>& a) { return std::ceil(a[0]); });
  checkFunction(kFloat, "trunc", 1, v, [](const std::vector<double>& a) { return std::trunc(a[0]); });
  checkFunction(kFloat, "roundEven", 1, v, [](const std::vector<double>& a) { return std::nearbyint(a[0]); });
  checkFunction(kFloat, "round", 1, v, [](const std::vector<double>& a) { return std::round(a[0]); });
  checkFunction(kFloat, "abs", 1, v, [](const std::vector<double>& a) { return std::fabs(a[0]); });
  // sign: 1, −1, the zero itself, and 0 for a NaN (OpenCL.std's sign, GLSL gives no value).
  checkFunction(kFloat, "sign", 1, v, [](const std::vector<double>& a) {
    return std::isnan(a[0]) ? 0.0 : a[0] > 0 ? 1.0 : a[0] < 0 ? -1.0 : a[0];
  });
  // min(x, y) = y < x ? y : x, max(x, y) = x < y ? y : x; a NaN with a number gives the number (glsl_min_max_nan).
  auto mn = [](double x, double y) { return std::isnan(x) ? y : std::isnan(y) ? x : y < x ? y : x; };
  auto mx = [](double x, double y) { return std::isnan(x) ? y : std::isnan(y) ? x : x < y ? y : x; };
  checkFunction(kFloat, "min", 2, v, [&](const std::vector<double>& a) { return mn(a[0], a[1]); });
  checkFunction(kFloat, "max", 2, v, [&](const std::vector<double>& a) { return mx(a[0], a[1]); });
  // clamp(x, lo, hi) = min(max(x, lo), hi); with lo > hi the same formula (clamp_inverted_bounds' default).
  checkFunction(kFloat, "clamp", 3, v, [&](const std::vector<double>& a) { return mn(mx(a[0], a[1]), a[2]); });
  // NMin/NMax/NClamp have no GLSL spelling; FMin's NaN rule with the default choice is theirs.
  checkFunction(kDouble, "min", 2, hardValues(Format::Double),
                [&](const std::vector<double>& a) { return mn(a[0], a[1]); });
  checkFunction(kHalf, "max", 2, hardValues(Format::Half),
                [&](const std::vector<double>& a) { return mx(a[0], a[1]); });
}

TEST_CASE("GLSL.std.450 modf, frexp and ldexp", "[glsl][shader]") {
  for (const Fmt* f : {&kFloat, &kDouble, &kHalf}) {
    INFO(f->glsl);
    const auto v = hardValues(f->format);
    const std::string t = f->glsl;
    const std::string x0 = f->format == Format::Half ? "(in0[i] * float16_t(1))" : "in0[i]";  // see checkFunction
    // modf: the fraction and the whole part, both with x's sign; frexp: significand in [0.5, 1), exponent.
    const Run m = runShader(f->header, {{t, encode(v, *f)}}, t, 2 * v.size() * f->bytes,
                            "  " + t + " w;\n  r[2*i] = modf(" + x0 + ", w);\n  r[2*i+1] = w;", uint32_t(v.size()));
    const Run fr =
        runShader(f->header, {{t, encode(v, *f)}}, t, 2 * v.size() * f->bytes,
                  "  int e;\n  r[2*i] = frexp(" + x0 + ", e);\n  r[2*i+1] = " + t + "(e);", uint32_t(v.size()));
    const auto mv = decode(m.out, *f), fv = decode(fr.out, *f);
    for (size_t i = 0; i < v.size(); ++i) {
      const double x = v[i];
      INFO(hex(x));
      const double whole = std::trunc(x);
      const double fraction = std::isinf(x) ? std::copysign(0.0, x) : std::copysign(x - whole, x);
      CHECK(sameValue(mv[2 * i], fraction));
      CHECK(sameValue(mv[2 * i + 1], whole));
      int e = 0;
      const double s = std::isfinite(x) ? std::frexp(x, &e) : x;
      CHECK(sameValue(fv[2 * i], s));
      // The exponent converted to the format (exact: |e| < 1075 and < 2048 for float16_t).
      CHECK(sameValue(fv[2 * i + 1], roundTo(double(e), f->format)));
    }
    // ldexp: x · 2^e, rounded (subnormal results lose bits; huge results overflow to inf).
    std::vector<double> xs;
    std::vector<int32_t> es;
    for (double x : {1.0, 1.5, -0x1.fffp0, 0.75, 0.0, -0.0, double(INFINITY), double(NAN)})
      for (int e : {0, 1, -1, 10, -14, -20, -24, -25, -126, -140, -149, -150, 127, 128, 1023, 1024, -1074, -1080}) {
        xs.push_back(roundTo(x, f->format));
        es.push_back(e);
      }
    const Run l = runShader(f->header, {{t, encode(xs, *f)}, {"int", bytesOf(es)}}, t, xs.size() * f->bytes,
                            "  r[i] = ldexp(" + x0 + ", in1[i]);", uint32_t(xs.size()));
    const auto lv = decode(l.out, *f);
    for (size_t i = 0; i < xs.size(); ++i) {
      INFO(hex(xs[i]) << " " << es[i]);
      CHECK(sameValue(lv[i], reference(MathFn::ldexp, {xs[i], double(es[i])}, f->format)));
    }
  }
}

TEST_CASE("GLSL.std.450 integer functions: abs, sign, min, max, clamp, findLSB, findMSB", "[glsl][shader]") {
  const std::vector<int32_t> v = {0, 1, -1, 2, -2, 7, -8, 0x40000000, INT32_MIN, INT32_MAX, 12345, -98765};
  std::vector<int32_t> a, b, c;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = 0; j < v.size(); ++j) {
      a.push_back(v[i]);
      b.push_back(std::min(v[j], v[(i + j) % v.size()]));
      c.push_back(std::max(v[j], v[(i + j) % v.size()]));
    }
  const uint32_t n = uint32_t(a.size());
  const std::vector<In> in = {{"int", bytesOf(a)}, {"int", bytesOf(b)}, {"int", bytesOf(c)}};
  const Run s = runShader("", in, "int", n * 4 * 7,
                          "  int x = in0[i], y = in1[i], z = in2[i];\n"
                          "  r[7*i] = abs(x); r[7*i+1] = sign(x); r[7*i+2] = min(x, y); r[7*i+3] = max(x, y);\n"
                          "  r[7*i+4] = clamp(x, y, z); r[7*i+5] = findLSB(x); r[7*i+6] = findMSB(x);",
                          n);
  const Run u = runShader("", in, "uint", n * 4 * 5,
                          "  uint x = uint(in0[i]), y = uint(in1[i]), z = uint(in2[i]);\n"
                          "  r[5*i] = min(x, y); r[5*i+1] = max(x, y); r[5*i+2] = clamp(x, min(y, z), max(y, z));\n"
                          "  r[5*i+3] = uint(findMSB(x)); r[5*i+4] = uint(findLSB(x));",
                          n);
  const auto sv = valuesOf<int32_t>(s.out);
  const auto uv = valuesOf<uint32_t>(u.out);
  // The bit numbers by a loop over the bits (GLSL 4.60 §8.8 [external]: -1 when there is none; findMSB of a negative
  // int: the most significant 0 bit).
  auto msb = [](uint32_t x) {
    for (int k = 31; k >= 0; --k)
      if (x >> k & 1) return k;
    return -1;
  };
  auto lsb = [](uint32_t x) {
    for (int k = 0; k < 32; ++k)
      if (x >> k & 1) return k;
    return -1;
  };
  for (uint32_t i = 0; i < n; ++i) {
    const int32_t x = a[i], y = b[i], z = c[i];
    INFO(x << " " << y << " " << z);
    CHECK(sv[7 * i] == (x == INT32_MIN ? INT32_MIN : std::abs(x)));
    CHECK(sv[7 * i + 1] == (x > 0 ? 1 : x < 0 ? -1 : 0));
    CHECK(sv[7 * i + 2] == std::min(x, y));
    CHECK(sv[7 * i + 3] == std::max(x, y));
    CHECK(sv[7 * i + 4] == std::min(std::max(x, y), z));
    CHECK(sv[7 * i + 5] == lsb(uint32_t(x)));
    CHECK(sv[7 * i + 6] == (x < 0 ? msb(~uint32_t(x)) : msb(uint32_t(x))));
    const uint32_t ux = uint32_t(x), uy = uint32_t(y), uz = uint32_t(z);
    CHECK(uv[5 * i] == std::min(ux, uy));
    CHECK(uv[5 * i + 1] == std::max(ux, uy));
    CHECK(uv[5 * i + 2] == std::min(std::max(ux, std::min(uy, uz)), std::max(uy, uz)));
    CHECK(int32_t(uv[5 * i + 3]) == msb(ux));
    CHECK(int32_t(uv[5 * i + 4]) == lsb(ux));
  }
}

namespace {
// GLSL 4.60 §8.4 [external] packing, written from the specification's formulas: round(clamp(c, lo, 1) · scale) (round
// half away from zero, glsl_round_half's default; a NaN component clamps to lo, glsl_min_max_nan's default), the first
// component in the low bits.
uint32_t packReference(const std::vector<float>& c, bool isSigned, int bits) {
  const float scale = float((1u << (isSigned ? bits - 1 : bits)) - 1), lo = isSigned ? -1.0f : 0.0f;
  uint32_t word = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    const float clamped = std::isnan(c[i]) ? lo : std::min(std::max(c[i], lo), 1.0f);
    const float product = clamped * scale;  // one binary32 multiplication
    const int32_t code = int32_t(std::round(product));
    word |= (uint32_t(code) & ((1u << bits) - 1)) << (i * bits);
  }
  return word;
}
}  // namespace

TEST_CASE("GLSL.std.450 pack and unpack functions", "[glsl][shader]") {
  const std::vector<float> comps = {0.0f,       -0.0f,        1.0f,         -1.0f,      0.5f,        -0.5f,
                                    2.0f,       -3.0f,        NAN,          INFINITY,   -INFINITY,   1e-40f,
                                    0.3f,       -0.7f,        0.999f,       2.5f / 127, -2.5f / 127, 0.5f / 255,
                                    1.5f / 255, 0.5f / 32767, 0.5f / 65535, 1.0f / 3};
  std::vector<float> in4;
  for (size_t i = 0; i < comps.size(); ++i)
    for (size_t k = 0; k < 4; ++k) in4.push_back(comps[(i + 5 * k) % comps.size()]);
  const uint32_t n = uint32_t(comps.size());
  const Run p = runShader("", {{"vec4", bytesOf(in4)}}, "uint", n * 4 * 5,
                          "  vec4 v = in0[i];\n"
                          "  r[5*i] = packSnorm4x8(v); r[5*i+1] = packUnorm4x8(v); r[5*i+2] = packSnorm2x16(v.xy);\n"
                          "  r[5*i+3] = packUnorm2x16(v.zw); r[5*i+4] = packHalf2x16(v.yz);",
                          n);
  const auto pv = valuesOf<uint32_t>(p.out);
  for (uint32_t i = 0; i < n; ++i) {
    const std::vector<float> v(in4.begin() + 4 * i, in4.begin() + 4 * i + 4);
    INFO(v[0] << " " << v[1] << " " << v[2] << " " << v[3]);
    CHECK(pv[5 * i] == packReference(v, true, 8));
    CHECK(pv[5 * i + 1] == packReference(v, false, 8));
    CHECK(pv[5 * i + 2] == packReference({v[0], v[1]}, true, 16));
    CHECK(pv[5 * i + 3] == packReference({v[2], v[3]}, false, 16));
    // binary16 conversion rounding to nearest even, by the reference's rounding.
    const uint32_t h = uint32_t(numerics::toHalf(roundTo(v[1], Format::Half)).bits) |
                       uint32_t(numerics::toHalf(roundTo(v[2], Format::Half)).bits) << 16;
    CHECK(pv[5 * i + 4] == h);
  }
  // Some components were halfway after the multiplication: the choice decided them (away from zero, above).
  CHECK(choiceCount(p, numerics::Choice::GlslRoundHalf) > 0);

  const std::vector<uint32_t> words = {0u,          0xffffffffu, 0x80808080u, 0x7f7f7f7fu, 0x01ff7f80u,
                                       0x3c00c000u, 0x7c00fc00u, 0x7e000001u, 0x12345678u, 0x00017fffu};
  const uint32_t m = uint32_t(words.size());
  const Run u = runShader("", {{"uint", bytesOf(words)}}, "float", m * 4 * 14,
                          "  uint w = in0[i];\n"
                          "  vec4 a = unpackSnorm4x8(w), b = unpackUnorm4x8(w);\n"
                          "  vec2 c = unpackSnorm2x16(w), d = unpackUnorm2x16(w), e = unpackHalf2x16(w);\n"
                          "  r[14*i] = a.x; r[14*i+1] = a.y; r[14*i+2] = a.z; r[14*i+3] = a.w;\n"
                          "  r[14*i+4] = b.x; r[14*i+5] = b.y; r[14*i+6] = b.z; r[14*i+7] = b.w;\n"
                          "  r[14*i+8] = c.x; r[14*i+9] = c.y; r[14*i+10] = d.x; r[14*i+11] = d.y;\n"
                          "  r[14*i+12] = e.x; r[14*i+13] = e.y;",
                          m);
  const auto uv = valuesOf<float>(u.out);
  for (uint32_t i = 0; i < m; ++i) {
    const uint32_t w = words[i];
    INFO(std::hex << w);
    for (int k = 0; k < 4; ++k) {
      const uint32_t byte = w >> (8 * k) & 0xff;
      // unpackSnorm: clamp(f / 127.0, −1, +1); unpackUnorm: f / 255.0 (binary32 divisions).
      CHECK(uv[14 * i + k] == std::max(float(int8_t(byte)) / 127.0f, -1.0f));
      CHECK(uv[14 * i + 4 + k] == float(byte) / 255.0f);
    }
    for (int k = 0; k < 2; ++k) {
      const uint32_t half = w >> (16 * k) & 0xffff;
      CHECK(uv[14 * i + 8 + k] == std::max(float(int16_t(half)) / 32767.0f, -1.0f));
      CHECK(uv[14 * i + 10 + k] == float(half) / 65535.0f);
      // binary16 → binary32, exact: sign, exponent and significand by hand.
      const int e = int(half >> 10 & 0x1f), f = int(half & 0x3ff);
      const double mag = e == 0 ? std::ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : std::ldexp(1024 + f, e - 25);
      CHECK(sameValue(uv[14 * i + 12 + k], (half & 0x8000) ? -mag : mag));
    }
  }
  // packDouble2x32 / unpackDouble2x32: the bits, low word first.
  const std::vector<double> ds = {1.0, -0.0, 0x1.23456789abcdep-1000, double(NAN)};
  const Run d = runShader("", {{"double", bytesOf(ds)}}, "uint", ds.size() * 16,
                          "  uvec2 u = unpackDouble2x32(in0[i]);\n  r[4*i] = u.x; r[4*i+1] = u.y;\n"
                          "  uvec2 back = unpackDouble2x32(packDouble2x32(uvec2(u.y, u.x)));\n"
                          "  r[4*i+2] = back.x; r[4*i+3] = back.y;",
                          uint32_t(ds.size()));
  const auto dv = valuesOf<uint32_t>(d.out);
  for (size_t i = 0; i < ds.size(); ++i) {
    const uint64_t bits = std::bit_cast<uint64_t>(ds[i]);
    CHECK(dv[4 * i] == uint32_t(bits));
    CHECK(dv[4 * i + 1] == uint32_t(bits >> 32));
    CHECK(dv[4 * i + 2] == uint32_t(bits >> 32));
    CHECK(dv[4 * i + 3] == uint32_t(bits));
  }
}

TEST_CASE("glsl_round_half: round() of a halfway value away from zero, or to even", "[glsl][shader][choices]") {
  const std::vector<float> x = {2.5f, -0.5f, 0.5f, -3.5f, 1.25f, 4.5f};
  for (const char* choice : {"", "glsl_round_half=to_even"}) {
    INFO(choice);
    const Run r = runShader("", {{"float", bytesOf(x)}}, "float", x.size() * 4, "  r[i] = round(in0[i]);",
                            uint32_t(x.size()), choice);
    const auto v = valuesOf<float>(r.out);
    const bool even = *choice != 0;
    for (size_t i = 0; i < x.size(); ++i) {
      INFO(x[i]);
      CHECK(sameValue(v[i], even ? std::nearbyint(x[i]) : std::round(x[i])));
    }
    CHECK(sameValue(v[1], even ? -0.0 : -1.0));
    CHECK(v[0] == (even ? 2.0f : 3.0f));
    // packUnorm2x16 rounds with round() too: 2.5 / 65535 · 65535 is 2.5 in binary32, a code of 3 or 2.
    const float c = 2.5f / 65535.0f;
    REQUIRE(c * 65535.0f == 2.5f);
    const Run p = runShader("", {{"float", bytesOf(std::vector<float>{c})}}, "uint", 4,
                            "  r[i] = packUnorm2x16(vec2(in0[i], 1.0));", 1, choice);
    CHECK(valuesOf<uint32_t>(p.out)[0] == (even ? 0xffff0002u : 0xffff0003u));
    // The halfway values where the directions differ: 2.5, -0.5, 0.5, 4.5 (-3.5 gives -4 either way).
    CHECK(choiceCount(r, numerics::Choice::GlslRoundHalf) == 4);
  }
}

TEST_CASE("glsl_min_max_nan: min/max/clamp of a NaN give the number, or the formula's operand",
          "[glsl][shader][choices]") {
  const std::vector<float> x = {NAN, 1.0f, NAN, 2.0f};
  const std::vector<float> y = {1.0f, NAN, NAN, 3.0f};
  for (const char* choice : {"", "glsl_min_max_nan=formula"}) {
    INFO(choice);
    const bool formula = *choice != 0;
    const Run r = runShader("", {{"float", bytesOf(x)}, {"float", bytesOf(y)}}, "float", x.size() * 12,
                            "  r[3*i] = min(in0[i], in1[i]); r[3*i+1] = max(in0[i], in1[i]);\n"
                            "  r[3*i+2] = clamp(in0[i], 0.0, in1[i]);",
                            uint32_t(x.size()), choice);
    const auto v = valuesOf<float>(r.out);
    // min(NaN, 1): 1, or (y < x false) x = NaN; min(1, NaN): 1 either way.
    CHECK(sameValue(v[0], formula ? NAN : 1.0));
    CHECK(sameValue(v[1], formula ? NAN : 1.0));
    CHECK(v[3] == 1.0f);
    CHECK(v[4] == 1.0f);
    // clamp(NaN, 0, 1) = min(max(NaN, 0), 1): 0, or NaN; clamp(1, 0, NaN) = min(1, NaN) = 1 either way.
    CHECK(sameValue(v[2], formula ? NAN : 0.0));
    CHECK(v[5] == 1.0f);
    // two NaNs: a NaN; no NaN: the ordinary values.
    CHECK(std::isnan(v[6]));
    CHECK(v[9] == 2.0f);
    CHECK(v[10] == 3.0f);
    CHECK(v[11] == 2.0f);
    CHECK(choiceCount(r, numerics::Choice::GlslMinMaxNan) > 0);
    // With y the NaN both options give x: the choice decides nothing and is not recorded.
    const std::vector<float> one = {1.0f}, nan = {NAN};
    const Run q = runShader("", {{"float", bytesOf(one)}, {"float", bytesOf(nan)}}, "float", 8,
                            "  r[0] = min(in0[i], in1[i]); r[1] = max(in0[i], in1[i]);", 1, choice);
    CHECK(valuesOf<float>(q.out) == std::vector<float>{1.0f, 1.0f});
    CHECK(choiceCount(q, numerics::Choice::GlslMinMaxNan) == 0);
  }
}

TEST_CASE("GLSL clamp with minVal > maxVal and smoothstep with edge0 >= edge1 follow their choices",
          "[glsl][shader][choices]") {
  const std::vector<float> x = {0.5f, 5.0f};
  for (const char* choice : {"", "clamp_inverted_bounds=max_of_min", "smoothstep_inverted_edges=nan"}) {
    INFO(choice);
    const Run r = runShader("", {{"float", bytesOf(x)}}, "float", x.size() * 12,
                            "  r[3*i] = clamp(in0[i], 3.0, 1.0); r[3*i+1] = float(clamp(int(in0[i]), 3, 1));\n"
                            "  r[3*i+2] = smoothstep(2.0, 1.0, in0[i]);",
                            uint32_t(x.size()), choice);
    const auto v = valuesOf<float>(r.out);
    const bool maxOfMin = std::string(choice).find("max_of_min") != std::string::npos;
    const bool nan = std::string(choice).find("=nan") != std::string::npos;
    for (size_t i = 0; i < x.size(); ++i) {
      // min(max(x, 3), 1) = 1, or max(min(x, 1), 3) = 3.
      CHECK(v[3 * i] == (maxOfMin ? 3.0f : 1.0f));
      CHECK(v[3 * i + 1] == (maxOfMin ? 3.0f : 1.0f));
    }
    CHECK(choiceCount(r, numerics::Choice::ClampInvertedBounds) > 0);
    CHECK(choiceCount(r, numerics::Choice::SmoothstepInvertedEdges) == 2);
    // The formula: t = clamp((0.5 − 2) / (1 − 2), 0, 1) = 1 → 1; t = clamp(−3, 0, 1) = 0 → 0.
    CHECK(sameValue(v[2], nan ? NAN : 1.0));
    CHECK(sameValue(v[5], nan ? NAN : 0.0));
  }
}

TEST_CASE("GLSL.std.450 Determinant and MatrixInverse run through the GLSL dispatch", "[glsl][shader]") {
  // Exact inputs: every product and sum below is exact in binary32, so the values are the mathematical ones.
  host::Device device;
  auto program = host::Program::fromGlsl(device, R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { float r[]; };
void main() {
  mat2 m = mat2(r[0], r[1], r[2], r[3]);
  r[4] = determinant(m);
  mat2 inv = inverse(m);
  r[5] = inv[0][0]; r[6] = inv[0][1]; r[7] = inv[1][0]; r[8] = inv[1][1];
  r[9] = determinant(mat3(2.0, 0.0, 0.0, 0.0, 3.0, 0.0, 1.0, 0.0, 4.0));
}
)");
  host::Kernel k(program, "main");
  // m has columns (4, 1) and (2, 1), rows (4, 2) and (1, 1): det = 4·1 − 2·1 = 2.
  std::vector<float> init{4, 1, 2, 1, 0, 0, 0, 0, 0, 0};
  auto out = std::make_shared<host::Buffer>(init.data(), init.size() * 4);
  k.setArg(*k.resourceArg(0, 0), out);
  const auto result = k.run(k.dispatch({1, 1, 1}));
  REQUIRE(result.ok);
  const auto r = out->as<float>();
  CHECK(r[4] == 2.0f);
  // inverse of columns c0 = (4, 1), c1 = (2, 1): (1/det)·[[d, −b], [−c, a]] with a = 4, b = 2 (row 0), c = 1, d = 1:
  // columns (0.5, −0.5) and (−1, 2).
  CHECK(r[5] == 0.5f);
  CHECK(r[6] == -0.5f);
  CHECK(r[7] == -1.0f);
  CHECK(r[8] == 2.0f);
  CHECK(r[9] == 24.0f);  // upper-triangular after transposition: 2 · 3 · 4
}

TEST_CASE("GLSL.std.450 ModfStruct and Frexp with a pointer operand (SPIR-V assembly)", "[glsl][shader]") {
  // glslang writes modf as Modf (pointer) and frexp as FrexpStruct, which the GLSL tests above run; the other forms:
  const std::string module = R"(
               OpCapability Shader
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %in %out
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %rt ArrayStride 4
               OpMemberDecorate %blk 0 Offset 0
               OpDecorate %blk Block
               OpDecorate %in DescriptorSet 0
               OpDecorate %in Binding 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
     %v3uint = OpTypeVector %uint 3
     %ptr_in = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_in Input
      %float = OpTypeFloat 32
         %rt = OpTypeRuntimeArray %float
        %blk = OpTypeStruct %rt
    %ptr_blk = OpTypePointer StorageBuffer %blk
      %ptr_f = OpTypePointer StorageBuffer %float
    %ptr_int = OpTypePointer Function %int
         %in = OpVariable %ptr_blk StorageBuffer
        %out = OpVariable %ptr_blk StorageBuffer
         %MS = OpTypeStruct %float %float
      %int_0 = OpConstant %int 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %ev = OpVariable %ptr_int Function
          %g = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %g 0
         %px = OpAccessChain %ptr_f %in %int_0 %i
          %x = OpLoad %float %px
         %ms = OpExtInst %MS %1 ModfStruct %x
      %fract = OpCompositeExtract %float %ms 0
      %whole = OpCompositeExtract %float %ms 1
        %sig = OpExtInst %float %1 Frexp %x %ev
          %e = OpLoad %int %ev
         %ef = OpConvertSToF %float %e
         %o0 = OpIMul %uint %i %uint_4
         %o1 = OpIAdd %uint %o0 %uint_1
         %o2 = OpIAdd %uint %o0 %uint_2
         %o3 = OpIAdd %uint %o0 %uint_3
         %q0 = OpAccessChain %ptr_f %out %int_0 %o0
               OpStore %q0 %fract
         %q1 = OpAccessChain %ptr_f %out %int_0 %o1
               OpStore %q1 %whole
         %q2 = OpAccessChain %ptr_f %out %int_0 %o2
               OpStore %q2 %sig
         %q3 = OpAccessChain %ptr_f %out %int_0 %o3
               OpStore %q3 %ef
               OpReturn
               OpFunctionEnd
)";
  const auto v = hardValues(Format::Float);
  host::Device device;
  auto program = host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, module);
  host::Kernel k(program, "main");
  auto out = std::make_shared<host::Buffer>(v.size() * 16);
  k.setArg(*k.resourceArg(0, 0), std::make_shared<host::Buffer>(encode(v, kFloat).data(), v.size() * 4));
  k.setArg(*k.resourceArg(0, 1), out);
  const auto result = k.run(k.dispatch({uint32_t(v.size()), 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);
  const auto r = out->as<float>();
  for (size_t i = 0; i < v.size(); ++i) {
    const double x = v[i];
    INFO(hex(x));
    const double whole = std::trunc(x);
    CHECK(sameValue(r[4 * i], std::isinf(x) ? std::copysign(0.0, x) : std::copysign(x - whole, x)));
    CHECK(sameValue(r[4 * i + 1], whole));
    int e = 0;
    CHECK(sameValue(r[4 * i + 2], std::isfinite(x) ? std::frexp(x, &e) : x));
    CHECK(r[4 * i + 3] == float(e));
  }
}

TEST_CASE("GLSL.std.450 on vectors, and with denormals flushed", "[glsl][shader]") {
  // vec3 (padded lanes) and vec4 operands, a scalar edge splatted by glslang.
  const std::vector<float> x = {0.5f, -1.5f, 2.0f, 1e-40f, 3.0f, -0.0f, 0.25f, 100.0f};
  const Run r = runShader("", {{"vec4", bytesOf(x)}}, "vec4", 2 * 4 * 16,
                          "  vec4 a = in0[i];\n"
                          "  r[4*i] = sin(a); r[4*i+1] = clamp(a, -1.0, 1.0);\n"
                          "  r[4*i+2] = vec4(exp2(a.xyz), 0.0); r[4*i+3] = vec4(step(0.5, a.wzy), 1.0);",
                          2);
  const auto v = valuesOf<float>(r.out);
  for (size_t l = 0; l < 2; ++l)
    for (size_t k = 0; k < 4; ++k) {
      const double a = x[4 * l + k];
      INFO(a);
      CHECK(sameValue(v[16 * l + k], reference(MathFn::sin, {a}, Format::Float)));
      CHECK(sameValue(v[16 * l + 4 + k], std::min(std::max(a, -1.0), 1.0)));
      if (k < 3) CHECK(sameValue(v[16 * l + 8 + k], reference(MathFn::exp2, {a}, Format::Float)));
      const double w = x[4 * l + (k == 0 ? 3 : k == 1 ? 2 : 1)];
      if (k < 3) CHECK(v[16 * l + 12 + k] == (w < 0.5 ? 0.0f : 1.0f));
    }
  // A device that flushes binary32 denormals flushes the operands and results of these instructions too.
  host::DeviceConfig config;
  config.denormFloat = numerics::Denorm::Flush;
  host::Device device(config);
  auto program = host::Program::fromGlsl(device, R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { float r[]; };
void main() { r[0] = sin(r[0]); r[1] = mix(r[1], 0.0, 0.5); r[2] = ldexp(r[2], -10); r[3] = abs(r[3]); }
)");
  host::Kernel k(program, "main");
  const std::vector<float> in = {1e-40f, 2e-38f, 1e-36f, -1.0f};
  auto out = std::make_shared<host::Buffer>(in.data(), 16);
  k.setArg(*k.resourceArg(0, 0), out);
  const auto result = k.run(k.dispatch({1, 1, 1}));
  REQUIRE(result.ok);
  const auto f = out->as<float>();
  CHECK(f[0] == 0.0f);  // sin of a flushed subnormal: sin(±0)
  // mix(2e-38, 0, 0.5) = 2e-38 · 0.5 + 0 · 0.5: the product 1e-38 is subnormal and flushed (else 1e-38).
  CHECK(f[1] == 0.0f);
  CHECK(f[2] == 0.0f);  // 1e-36 · 2^-10 is subnormal: flushed
  CHECK(f[3] == 1.0f);
}

TEST_CASE("a shadow run takes GLSL.std.450 floating-point and integer instructions (Vulkan's rows)",
          "[glsl][shader]") {
  auto shadowRun = [](const std::string& body) {
    host::Device device;
    auto program = host::Program::fromGlsl(device,
                                           "#version 450\nlayout(local_size_x = 1) in;\n"
                                           "layout(set = 0, binding = 0) buffer Out { int n[4]; float f; };\n"
                                           "void main() {\n" +
                                               body + "\n}\n");
    host::Kernel k(program, "main");
    auto out = std::make_shared<host::Buffer>(32);
    out->as<int32_t>()[0] = -12;
    k.setArg(*k.resourceArg(0, 0), out);
    std::string message;
    bool ok = false;
    try {
      interpreter::ShadowRun shadow;
      const auto result = k.runShadow(k.dispatch({1, 1, 1}), shadow);
      ok = result.ok;
      if (result.fault) message = result.fault->message;
    } catch (const std::exception& e) { message = e.what(); }
    return std::pair{ok, message};
  };
  const auto [floatOk, floatMessage] = shadowRun("  f = sin(f) + pow(f, 2.5) + length(vec3(f, 1.0, 2.0));");
  INFO(floatMessage);
  CHECK(floatOk);
  const auto [intOk, intMessage] = shadowRun("  n[1] = abs(n[0]); n[2] = findMSB(n[0]); n[3] = clamp(n[0], -3, 3);");
  INFO(intMessage);
  CHECK(intOk);
}

TEST_CASE("GLSL.std.450 NMin, NMax and NClamp give the number whatever glsl_min_max_nan says (SPIR-V assembly)",
          "[glsl][shader][choices]") {
  // No GLSL built-in is NMin/NMax/NClamp: out[3i] = NMin(x, y), out[3i+1] = NMax(x, y), out[3i+2] = NClamp(x, 0, y).
  const std::string module = R"(
               OpCapability Shader
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %in0 %in1 %out
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %rt ArrayStride 4
               OpMemberDecorate %blk 0 Offset 0
               OpDecorate %blk Block
               OpDecorate %in0 DescriptorSet 0
               OpDecorate %in0 Binding 0
               OpDecorate %in1 DescriptorSet 0
               OpDecorate %in1 Binding 1
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 2
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
     %v3uint = OpTypeVector %uint 3
     %ptr_in = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_in Input
      %float = OpTypeFloat 32
         %rt = OpTypeRuntimeArray %float
        %blk = OpTypeStruct %rt
    %ptr_blk = OpTypePointer StorageBuffer %blk
      %ptr_f = OpTypePointer StorageBuffer %float
        %in0 = OpVariable %ptr_blk StorageBuffer
        %in1 = OpVariable %ptr_blk StorageBuffer
        %out = OpVariable %ptr_blk StorageBuffer
      %int_0 = OpConstant %int 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
    %float_0 = OpConstant %float 0
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %g = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %g 0
         %px = OpAccessChain %ptr_f %in0 %int_0 %i
          %x = OpLoad %float %px
         %py = OpAccessChain %ptr_f %in1 %int_0 %i
          %y = OpLoad %float %py
         %mn = OpExtInst %float %1 NMin %x %y
         %mx = OpExtInst %float %1 NMax %x %y
         %cl = OpExtInst %float %1 NClamp %x %float_0 %y
         %o0 = OpIMul %uint %i %uint_3
         %o1 = OpIAdd %uint %o0 %uint_1
         %o2 = OpIAdd %uint %o0 %uint_2
         %q0 = OpAccessChain %ptr_f %out %int_0 %o0
               OpStore %q0 %mn
         %q1 = OpAccessChain %ptr_f %out %int_0 %o1
               OpStore %q1 %mx
         %q2 = OpAccessChain %ptr_f %out %int_0 %o2
               OpStore %q2 %cl
               OpReturn
               OpFunctionEnd
)";
  const std::vector<float> x = {NAN, 1.0f, NAN, 2.0f, -0.0f, 0.5f};
  const std::vector<float> y = {1.0f, NAN, NAN, 3.0f, 0.0f, 0.25f};
  for (const char* choice : {"", "glsl_min_max_nan=formula"}) {
    INFO(choice);
    host::DeviceConfig config;
    if (*choice) config.choices.set(choice);
    host::Device device(config);
    auto program = host::Program::fromShader(device, compiler::ShaderLanguage::SpirvAssembly, module);
    host::Kernel k(program, "main");
    auto out = std::make_shared<host::Buffer>(x.size() * 12);
    k.setArg(*k.resourceArg(0, 0), std::make_shared<host::Buffer>(x.data(), x.size() * 4));
    k.setArg(*k.resourceArg(0, 1), std::make_shared<host::Buffer>(y.data(), y.size() * 4));
    k.setArg(*k.resourceArg(0, 2), out);
    const auto result = k.run(k.dispatch({uint32_t(x.size()), 1, 1}));
    INFO((result.fault ? result.fault->message : ""));
    REQUIRE(result.ok);
    const auto r = out->as<float>();
    // GLSL.std.450 NMin: "y if y < x, otherwise x. If one operand is a NaN, the other operand is the result."
    auto nmin = [](double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : b < a ? b : a; };
    auto nmax = [](double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : a < b ? b : a; };
    for (size_t i = 0; i < x.size(); ++i) {
      INFO(x[i] << " " << y[i]);
      CHECK(sameValue(r[3 * i], nmin(x[i], y[i])));
      CHECK(sameValue(r[3 * i + 1], nmax(x[i], y[i])));
      CHECK(sameValue(r[3 * i + 2], nmin(nmax(x[i], 0.0), y[i])));
    }
    // min(-0, +0) is y if y < x, else x: -0; max(-0, +0) is y if x < y, else x: -0.
    CHECK(std::signbit(r[12]));
    CHECK(std::signbit(r[13]));
    for (const auto& u : result.choicesUsed) CHECK(u.choice != numerics::Choice::GlslMinMaxNan);
  }
}

TEST_CASE("GLSL.std.450 Modf of a vec3 writes exactly the vec3 its pointer names", "[glsl][shader]") {
  // glslang passes modf's second result as a pointer to a Function vec3 (12 bytes in a shader): writing a fourth
  // component would fault as out of bounds.
  host::Device device;
  auto program = host::Program::fromGlsl(device, R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Io { vec4 v; vec4 fracs; vec4 wholes; };
void main() {
  vec3 whole;
  vec3 f = modf(v.xyz, whole);
  fracs = vec4(f, 7.0);
  wholes = vec4(whole, 9.0);
}
)");
  host::Kernel k(program, "main");
  std::vector<float> init{2.5f, -3.25f, 0.75f, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  auto io = std::make_shared<host::Buffer>(init.data(), init.size() * 4);
  k.setArg(*k.resourceArg(0, 0), io);
  const auto result = k.run(k.dispatch({1, 1, 1}));
  INFO((result.fault ? result.fault->message : ""));
  REQUIRE(result.ok);
  const auto r = io->as<float>();
  CHECK(r[4] == 0.5f);
  CHECK(r[5] == -0.25f);
  CHECK(r[6] == 0.75f);
  CHECK(r[7] == 7.0f);
  CHECK(r[8] == 2.0f);
  CHECK(r[9] == -3.0f);
  CHECK(r[10] == 0.0f);
  CHECK(r[11] == 9.0f);
}
