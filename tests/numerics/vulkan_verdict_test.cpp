// Verdicts and allowed sets under Vulkan's precision rows (Profile::Vulkan; numerics/accuracy.hpp, verdict.hpp).
// For every row with a bound (ulp, absolute, correctly rounded, correctly rounded with implementation-defined
// rounding mode), in float and half, and for one double case per shape: the last value of the format within the
// bound is allowed and the next one beyond it is not, so that a bound moved by one ulp fails. The bounds are worked
// here with MPFR at 400 bits from the spec's wording (Vulkan §A [external] [[spirvenv-op-prec]]): the exact result,
// ulp(x) as [[spirvenv-ulp]] defines it, and the values of the format around x ± bound, independently of the verdict
// code.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "numerics/enclosure.hpp"
#include "numerics/verdict.hpp"

using namespace clref::numerics;

namespace {

constexpr mpfr_prec_t kPrec = 400;

// The formats' precision and smallest normal exponent (IEEE 754 binary16/32/64).
struct Params {
  int p, emin;
};
Params paramsOf(Format f) {
  switch (f) {
    case Format::Half: return {11, -14};
    case Format::Float: return {24, -126};
    default: return {53, -1022};
  }
}

struct Real {
  mpfr_t v;
  Real() { mpfr_init2(v, kPrec); }
  explicit Real(double d) : Real() { mpfr_set_d(v, d, MPFR_RNDN); }
  Real(const Real&) = delete;
  ~Real() { mpfr_clear(v); }
};

// ulp(x) (Vulkan [[spirvenv-ulp]]): the least distance between non-equal finite values a <= x <= b of the format,
// for x in the normal range: at 2^e the gap below (2^(e-p)), elsewhere in the binade 2^(e-p+1).
void specUlp(mpfr_t out, const mpfr_t x, Format f) {
  const auto [p, emin] = paramsOf(f);
  const long e = mpfr_get_exp(x) - 1;  // |x| in [2^e, 2^(e+1))
  REQUIRE(e >= emin);
  const bool pow2 = mpfr_min_prec(x) == 1;  // |x| = 2^e
  mpfr_set_ui_2exp(out, 1, pow2 && e > emin ? e - p : e - p + 1, MPFR_RNDN);
}

// t rounded to the format in direction rnd, with the format's subnormals (no overflow here), as a double.
double toFormat(const mpfr_t t, Format f, mpfr_rnd_t rnd) {
  if (mpfr_zero_p(t)) return 0.0;
  const auto [p, emin] = paramsOf(f);
  const long e = mpfr_get_exp(t) - 1;
  const long q = std::max<long>(e, emin) - p + 1;  // the quantum of t's binade (of the subnormals below 2^emin)
  Real s;
  mpfr_mul_2si(s.v, t, -q, MPFR_RNDN);
  mpfr_rint(s.v, s.v, rnd);
  mpfr_mul_2si(s.v, s.v, q, MPFR_RNDN);
  return mpfr_get_d(s.v, MPFR_RNDN);
}

// The value k steps of the format away from v (a value of the format).
double step(double v, Format f, int k) {
  const auto [p, emin] = paramsOf(f);
  for (; k != 0; k += k > 0 ? -1 : 1) {
    const bool up = k > 0;
    if (v == 0) {
      v = std::ldexp(up ? 1.0 : -1.0, emin - p + 1);
      continue;
    }
    const double a = std::fabs(v);
    const bool away = (v > 0) == up;
    const int e = std::ilogb(a);
    int q = std::max(e, emin) - p + 1;
    if (!away && a == std::ldexp(1.0, e) && e > emin) --q;  // below a power of two: the gap below
    const double r = away ? a + std::ldexp(1.0, q) : a - std::ldexp(1.0, q);
    v = v > 0 ? r : -r;
  }
  return v;
}

// The values of the format within `distance` of x (strict: closer than it): [lo, hi].
struct Edges {
  double lo, hi;
};
Edges edgesAround(const mpfr_t x, const mpfr_t distance, Format f, bool strict) {
  Real t;
  mpfr_add(t.v, x, distance, MPFR_RNDN);  // exact at 400 bits for these inputs
  Edges e;
  e.hi = toFormat(t.v, f, MPFR_RNDD);
  if (strict && mpfr_cmp_d(t.v, e.hi) == 0) e.hi = step(e.hi, f, -1);
  mpfr_sub(t.v, x, distance, MPFR_RNDN);
  e.lo = toFormat(t.v, f, MPFR_RNDU);
  if (strict && mpfr_cmp_d(t.v, e.lo) == 0) e.lo = step(e.lo, f, 1);
  return e;
}

using Judge = std::function<Verdict(double observed)>;

// lo and hi allowed, the values next beyond them not.
void checkEdges(const Judge& j, Edges e, Format f) {
  INFO("allowed [" << e.lo << ", " << e.hi << "] (" << std::hexfloat << e.lo << ", " << e.hi << std::defaultfloat
                   << ")");
  CHECK(j(e.hi).allowed);
  CHECK(j(e.lo).allowed);
  CHECK_FALSE(j(step(e.hi, f, 1)).allowed);
  CHECK_FALSE(j(step(e.lo, f, -1)).allowed);
}

// An ulp bound: n·ulp(x) around the exact x.
void checkUlps(const Judge& j, const mpfr_t x, double n, Format f) {
  Real d;
  specUlp(d.v, x, f);
  mpfr_mul_d(d.v, d.v, n, MPFR_RNDN);  // exact: n is a short binary fraction
  checkEdges(j, edgesAround(x, d.v, f, false), f);
}

void checkAbsolute(const Judge& j, const mpfr_t x, double bound, Format f, bool strict) {
  Real d(bound);
  checkEdges(j, edgesAround(x, d.v, f, strict), f);
}

// Correctly rounded with the implementation-defined rounding mode: x, or either value around it.
void checkEitherNeighbour(const Judge& j, const mpfr_t x, Format f) {
  checkEdges(j, Edges{toFormat(x, f, MPFR_RNDD), toFormat(x, f, MPFR_RNDU)}, f);
}

using Exact = std::function<void(mpfr_t out)>;

// A correctly rounded row: by default (no rounding execution mode) either neighbour of x; under RoundingModeRTE only
// the nearest, under RoundingModeRTZ only the one toward zero.
void checkCorrectlyRounded(const std::function<Verdict(double, const VerdictOptions&)>& j, const Exact& exact,
                           Format f) {
  Real x;
  exact(x.v);
  checkEitherNeighbour([&](double o) { return j(o, {}); }, x.v, f);
  VerdictOptions rte, rtz;
  rte.accuracy.vulkanRounding = VulkanRounding::RTE;
  rtz.accuracy.vulkanRounding = VulkanRounding::RTZ;
  const double rn = toFormat(x.v, f, MPFR_RNDN), rz = toFormat(x.v, f, MPFR_RNDZ);
  checkEdges([&](double o) { return j(o, rte); }, Edges{rn, rn}, f);
  checkEdges([&](double o) { return j(o, rtz); }, Edges{rz, rz}, f);
}

Judge byFn(MathFn fn, std::vector<double> args, Format f, VerdictOptions o = {}) {
  return [=](double observed) { return judge(fn, args, observed, f, Profile::Vulkan, o); };
}
Judge byName(std::string name, std::vector<double> args, Format f, VerdictOptions o = {}) {
  return [=](double observed) { return judgeInstruction(name, args, observed, f, o); };
}

constexpr Format kFloatAndHalf[] = {Format::Float, Format::Half};

}  // namespace

TEST_CASE("Vulkan exp, exp2: 3 + 2|x| ulp (half: 1 + 2|x|), not floored", "[verdict][vulkan]") {
  for (Format f : kFloatAndHalf) {
    INFO(toString(f));
    const double base = f == Format::Half ? 1 : 3;
    {
      // exp2(3.5) = 8·sqrt(2): 3 + 7 = 10 ulp (half: 8).
      Real x, a(3.5);
      mpfr_exp2(x.v, a.v, MPFR_RNDN);
      checkUlps(byFn(MathFn::exp2, {3.5}, f), x.v, base + 7, f);
      checkUlps(byName("Exp2", {3.5}, f), x.v, base + 7, f);
    }
    {
      // exp(-1.25): 3 + 2.5 = 5.5 ulp (half: 3.5); the half ulp would vanish under floor(|2x|).
      Real x, a(-1.25);
      mpfr_exp(x.v, a.v, MPFR_RNDN);
      checkUlps(byFn(MathFn::exp, {-1.25}, f), x.v, base + 2.5, f);
      checkUlps(byName("Exp", {-1.25}, f), x.v, base + 2.5, f);
    }
  }
  // Double: the single-precision bound in double's ulps.
  Real x, a(3.5);
  mpfr_exp2(x.v, a.v, MPFR_RNDN);
  checkUlps(byFn(MathFn::exp2, {3.5}, Format::Double), x.v, 10, Format::Double);
  // No prescribed edge case: exp(0) = 1 within 3 ulp (OpenCL would allow exactly 1).
  Real one(1.0);
  checkUlps(byFn(MathFn::exp, {0.0}, Format::Float), one.v, 3, Format::Float);
}

TEST_CASE("Vulkan inversesqrt: 2 ulp, and atan, atan2: 4096 ulp (half: 5)", "[verdict][vulkan]") {
  for (Format f : kFloatAndHalf) {
    INFO(toString(f));
    Real x, a(3.0), b(1.0);
    mpfr_rec_sqrt(x.v, a.v, MPFR_RNDN);
    checkUlps(byFn(MathFn::rsqrt, {3.0}, f), x.v, 2, f);
    checkUlps(byName("InverseSqrt", {3.0}, f), x.v, 2, f);
    const double n = f == Format::Half ? 5 : 4096;
    mpfr_set_d(a.v, 0.75, MPFR_RNDN);
    mpfr_atan(x.v, a.v, MPFR_RNDN);
    checkUlps(byFn(MathFn::atan, {0.75}, f), x.v, n, f);
    checkUlps(byName("Atan", {0.75}, f), x.v, n, f);
    mpfr_set_d(b.v, 3.0, MPFR_RNDN);
    mpfr_set_d(a.v, 1.0, MPFR_RNDN);
    mpfr_atan2(x.v, a.v, b.v, MPFR_RNDN);
    checkUlps(byFn(MathFn::atan2, {1.0, 3.0}, f), x.v, n, f);
    checkUlps(byName("Atan2", {1.0, 3.0}, f), x.v, n, f);
  }
}

TEST_CASE("Vulkan OpFDiv: 2.5 ulp for |y| = 0 or |y| in [2^-126, 2^126] (half [2^-14, 2^14]), else any value",
          "[verdict][vulkan]") {
  for (Format f : {Format::Float, Format::Half, Format::Double}) {
    INFO(toString(f));
    Real x, a(1.0), b(3.0);
    mpfr_div(x.v, a.v, b.v, MPFR_RNDN);
    checkUlps(
        [&](double o) {
          return judgeCore(CoreOp::Div, std::vector<double>{1.0, 3.0}, o, f, Profile::Vulkan);
        },
        x.v, 2.5, f);
    checkUlps(byName("OpFDiv", {1.0, 3.0}, f), x.v, 2.5, f);
    // 1.0 / x is a division.
    checkUlps([&](double o) { return judgeCore(CoreOp::Recip, std::vector<double>{3.0}, o, f, Profile::Vulkan); }, x.v,
              2.5, f);
    // At the ends of the divisor's range the bound holds; just outside it any value is allowed.
    const double top = f == Format::Half ? 0x1p14 : 0x1p126;
    const double above = step(top, f, 1), below = step(1 / top, f, -1);
    CHECK_FALSE(judgeCore(CoreOp::Div, std::vector<double>{1.0, top}, 1.0, f, Profile::Vulkan).allowed);
    CHECK_FALSE(judgeCore(CoreOp::Div, std::vector<double>{1.0, 1 / top}, 1.0, f, Profile::Vulkan).allowed);
    const Verdict outside = judgeCore(CoreOp::Div, std::vector<double>{1.0, above}, 1.0, f, Profile::Vulkan);
    CHECK(outside.allowed);
    CHECK(outside.anyValue);
    CHECK(judgeCore(CoreOp::Div, std::vector<double>{1.0, -above}, 1.0, f, Profile::Vulkan).anyValue);
    VerdictOptions keep;  // DenormPreserve: a subnormal divisor is not read as 0
    keep.flushToZero = false;
    CHECK(judgeCore(CoreOp::Div, std::vector<double>{1.0, below}, 1.0, f, Profile::Vulkan, keep).anyValue);
    // |y| = 0 is in the bound's domain: 1 / 0 is +inf (its exact value), nothing else.
    CHECK(judgeCore(CoreOp::Div, std::vector<double>{1.0, 0.0}, INFINITY, f, Profile::Vulkan).allowed);
    CHECK_FALSE(judgeCore(CoreOp::Div, std::vector<double>{1.0, 0.0}, 1.0, f, Profile::Vulkan).allowed);
  }
}

TEST_CASE("Vulkan's overflow rule: a range reaching past the largest finite value allows inf and that value",
          "[verdict][vulkan]") {
  // x = pred(pred(MAX)) exactly (x / 1): x + 2.5 ulp = MAX + 0.5 ulp is beyond MAX but below 2^(emax+1), where the
  // OpenCL rule would allow inf.
  for (Format f : {Format::Float, Format::Half}) {
    INFO(toString(f));
    const double max = f == Format::Half ? 65504.0 : double(std::numeric_limits<float>::max());
    const double x = step(max, f, -2);
    const std::vector<double> args{x, 1.0};
    CHECK(judgeCore(CoreOp::Div, args, INFINITY, f, Profile::Vulkan).allowed);
    CHECK(judgeCore(CoreOp::Div, args, max, f, Profile::Vulkan).allowed);
    CHECK_FALSE(judgeCore(CoreOp::Div, args, -INFINITY, f, Profile::Vulkan).allowed);
    CHECK_FALSE(judgeCore(CoreOp::Div, args, step(x, f, -3), f, Profile::Vulkan).allowed);
    if (f == Format::Float) { CHECK_FALSE(judgeCore(CoreOp::Div, args, INFINITY, f, Profile::Full).allowed); }
    // An exact result beyond every finite value (4·MAX): inf, or the largest finite value, but nothing below it.
    const std::vector<double> big{max, 0.25};
    CHECK(judgeCore(CoreOp::Div, big, INFINITY, f, Profile::Vulkan).allowed);
    CHECK(judgeCore(CoreOp::Div, big, max, f, Profile::Vulkan).allowed);
    CHECK_FALSE(judgeCore(CoreOp::Div, big, step(max, f, -1), f, Profile::Vulkan).allowed);
    const ValueSet s = allowedSetCore(CoreOp::Div, std::vector<ValueSet>{ValueSet::point(x), ValueSet::point(1.0)}, f,
                                      Profile::Vulkan);
    CHECK(s.contains(INFINITY));
    CHECK(s.contains(max));
  }
}

TEST_CASE("Vulkan log, log2: absolute error < 2^-21 (half 2^-7) inside [0.5, 2], 3 ulp outside", "[verdict][vulkan]") {
  for (Format f : {Format::Float, Format::Half, Format::Double}) {
    INFO(toString(f));
    const double abs = f == Format::Half ? 0x1p-7 : 0x1p-21;
    for (MathFn fn : {MathFn::log, MathFn::log2}) {
      INFO(nameOf(fn));
      const std::string name = fn == MathFn::log ? "Log" : "Log2";
      // log(1) = 0 exactly: the strict "<" leaves out ±2^-21 itself.
      Real zero(0.0);
      checkAbsolute(byFn(fn, {1.0}, f), zero.v, abs, f, true);
      checkAbsolute(byName(name, {1.0}, f), zero.v, abs, f, true);
      CHECK_FALSE(judge(fn, std::vector<double>{1.0}, abs, f, Profile::Vulkan).allowed);
      // log(1.5): inside.
      Real x, a(1.5);
      (fn == MathFn::log ? mpfr_log : mpfr_log2)(x.v, a.v, MPFR_RNDN);
      checkAbsolute(byFn(fn, {1.5}, f), x.v, abs, f, true);
      // Outside: 3 ulp. log2(4) = 2 exactly (ulp(2) is the gap below); log(5) is not representable.
      if (fn == MathFn::log2) {
        Real two(2.0);
        checkUlps(byFn(fn, {4.0}, f), two.v, 3, f);
      } else {
        mpfr_set_d(a.v, 5.0, MPFR_RNDN);
        mpfr_log(x.v, a.v, MPFR_RNDN);
        checkUlps(byFn(fn, {5.0}, f), x.v, 3, f);
        checkUlps(byName(name, {5.0}, f), x.v, 3, f);
      }
    }
  }
}

TEST_CASE("Vulkan sin, cos: absolute error <= 2^-11 (half 2^-7) inside [-pi, pi], any value outside",
          "[verdict][vulkan]") {
  for (Format f : {Format::Float, Format::Half, Format::Double}) {
    INFO(toString(f));
    const double abs = f == Format::Half ? 0x1p-7 : 0x1p-11;
    // sin(0) = 0, cos(0) = 1 exactly: the bound itself is allowed ("<=").
    Real zero(0.0), one(1.0);
    checkAbsolute(byFn(MathFn::sin, {0.0}, f), zero.v, abs, f, false);
    checkAbsolute(byName("Sin", {0.0}, f), zero.v, abs, f, false);
    checkAbsolute(byFn(MathFn::cos, {0.0}, f), one.v, abs, f, false);
    checkAbsolute(byName("Cos", {0.0}, f), one.v, abs, f, false);
    Real x, a(2.5);
    mpfr_sin(x.v, a.v, MPFR_RNDN);
    checkAbsolute(byFn(MathFn::sin, {2.5}, f), x.v, abs, f, false);
    mpfr_cos(x.v, a.v, MPFR_RNDN);
    checkAbsolute(byFn(MathFn::cos, {2.5}, f), x.v, abs, f, false);
    // The largest value of the format below pi is inside; the next one (above pi) is outside: any value.
    const double belowPi = toFormat(Real(M_PI).v, f, MPFR_RNDD);  // M_PI < pi, and no value of these formats between
    mpfr_sin(x.v, Real(belowPi).v, MPFR_RNDN);
    checkAbsolute(byFn(MathFn::sin, {belowPi}, f), x.v, abs, f, false);
    const Verdict outside = judge(MathFn::sin, std::vector<double>{step(belowPi, f, 1)}, 5.0, f, Profile::Vulkan);
    CHECK(outside.allowed);
    CHECK(outside.anyValue);
    CHECK(judge(MathFn::cos, std::vector<double>{-4.0}, -7.0, f, Profile::Vulkan).anyValue);
  }
}

TEST_CASE("Vulkan correctly rounded rows: either neighbour, or the entry point's RTE or RTZ", "[verdict][vulkan]") {
  using Fn = std::function<Verdict(double, const VerdictOptions&)>;
  auto core = [](CoreOp op, std::vector<double> args, Format f) -> Fn {
    return [=](double o, const VerdictOptions& opt) { return judgeCore(op, args, o, f, Profile::Vulkan, opt); };
  };
  auto fn = [](MathFn m, std::vector<double> args, Format f) -> Fn {
    return [=](double o, const VerdictOptions& opt) { return judge(m, args, o, f, Profile::Vulkan, opt); };
  };
  auto named = [](std::string name, std::vector<double> args, Format f) -> Fn {
    return [=](double o, const VerdictOptions& opt) { return judgeInstruction(name, args, o, f, opt); };
  };
  for (Format f : {Format::Float, Format::Half, Format::Double}) {
    INFO(toString(f));
    const int p = paramsOf(f).p;
    const double tiny = 3 * std::ldexp(1.0, -1 - p);  // normal (not flushed), and 1 ± tiny is not representable
    const double a = 1 + std::ldexp(1.0, 1 - p) * 3, b = 1 + std::ldexp(1.0, 1 - p) * 5;  // a·b is not either
    auto sum = [&](mpfr_t out) { mpfr_set_d(out, 1.0, MPFR_RNDN), mpfr_add_d(out, out, tiny, MPFR_RNDN); };
    auto dif = [&](mpfr_t out) { mpfr_set_d(out, 1.0, MPFR_RNDN), mpfr_sub_d(out, out, tiny, MPFR_RNDN); };
    auto prod = [&](mpfr_t out) { mpfr_set_d(out, a, MPFR_RNDN), mpfr_mul_d(out, out, b, MPFR_RNDN); };
    auto fused = [&](mpfr_t out) { prod(out), mpfr_add_d(out, out, tiny, MPFR_RNDN); };
    checkCorrectlyRounded(core(CoreOp::Add, {1.0, tiny}, f), sum, f);
    checkCorrectlyRounded(named("OpFAdd", {1.0, tiny}, f), sum, f);
    checkCorrectlyRounded(core(CoreOp::Sub, {1.0, tiny}, f), dif, f);
    checkCorrectlyRounded(named("OpFSub", {1.0, tiny}, f), dif, f);
    checkCorrectlyRounded(core(CoreOp::Mul, {a, b}, f), prod, f);
    for (const char* name : {"OpFMul", "OpVectorTimesScalar", "OpMatrixTimesScalar", "OpOuterProduct"}) {
      INFO(name);
      checkCorrectlyRounded(named(name, {a, b}, f), prod, f);
    }
    checkCorrectlyRounded(named("OpFmaKHR", {a, b, tiny}, f), fused, f);
    // Conversions: the operand (a double here) rounded to the format.
    auto third = [&](mpfr_t out) { mpfr_set_d(out, 1.0 / 3.0, MPFR_RNDN); };
    if (f != Format::Double) checkCorrectlyRounded(named("OpFConvert", {1.0 / 3.0}, f), third, f);
    // ldexp: exact in the normal range; a subnormal result rounds (DenormPreserve: not flushed).
    auto twelve = [&](mpfr_t out) { mpfr_set_d(out, 12.0, MPFR_RNDN); };
    checkCorrectlyRounded(fn(MathFn::ldexp, {1.5, 3.0}, f), twelve, f);
    checkCorrectlyRounded(named("Ldexp", {1.5, 3.0}, f), twelve, f);
    const double minSub = std::ldexp(1.0, paramsOf(f).emin - p + 1);
    auto subnormal = [&](mpfr_t out) { mpfr_set_d(out, 1.5, MPFR_RNDN), mpfr_mul_d(out, out, minSub, MPFR_RNDN); };
    auto ldexpKeep = [&](double o, const VerdictOptions& opt) {
      VerdictOptions k = opt;
      k.flushToZero = false;
      return judge(MathFn::ldexp, std::vector<double>{1.5, double(paramsOf(f).emin - p + 1)}, o, f, Profile::Vulkan, k);
    };
    checkCorrectlyRounded(ldexpKeep, subnormal, f);
    // The rows whose exact result is a value of the format: that value only.
    struct Exactly {
      const char* name;
      std::optional<MathFn> fn;
      std::vector<double> args;
      double result;
    };
    const std::vector<Exactly> exactly = {
        {"Round", MathFn::round, {2.75}, 3.0},
        {"RoundEven", MathFn::rint, {2.5}, 2.0},
        {"Trunc", MathFn::trunc, {-2.75}, -2.0},
        {"Floor", MathFn::floor, {-2.75}, -3.0},
        {"Ceil", MathFn::ceil, {-2.75}, -2.0},
        {"Fract", MathFn::fract, {-2.75}, 0.25},
        {"Modf", MathFn::modf, {-2.75}, -0.75},
        {"Step", MathFn::step, {1.5, 1.25}, 0.0},
        {"FAbs", MathFn::fabs, {-2.75}, 2.75},
        {"FSign", MathFn::sign, {-2.75}, -1.0},
        {"FMin", MathFn::fmin, {1.5, -2.75}, -2.75},
        {"FMax", MathFn::fmax, {1.5, -2.75}, 1.5},
        {"FClamp", MathFn::fclamp, {3.5, -1.0, 2.0}, 2.0},
        {"Frexp", MathFn::frexp, {12.0}, 0.75},
        {"NMin", std::nullopt, {1.5, -2.75}, -2.75},
        {"NMax", std::nullopt, {1.5, -2.75}, 1.5},
        {"NClamp", std::nullopt, {3.5, -1.0, 2.0}, 2.0},
        {"OpFNegate", std::nullopt, {2.75}, -2.75},
    };
    for (const auto& e : exactly) {
      INFO(e.name);
      auto value = [&](mpfr_t out) { mpfr_set_d(out, e.result, MPFR_RNDN); };
      checkCorrectlyRounded(named(e.name, e.args, f), value, f);
      if (e.fn) checkCorrectlyRounded(fn(*e.fn, e.args, f), value, f);
    }
  }
}

TEST_CASE("Vulkan OpQuantizeToF16, packHalf2x16: either neighbour whatever the rounding mode", "[verdict][vulkan]") {
  for (const char* name : {"OpQuantizeToF16", "PackHalf2x16"}) {
    INFO(name);
    const double third = double(1.0f / 3.0f);
    Real x(third);
    for (VulkanRounding r : {VulkanRounding::ImplementationDefined, VulkanRounding::RTE, VulkanRounding::RTZ}) {
      VerdictOptions o;
      o.accuracy.vulkanRounding = r;
      checkEitherNeighbour(byName(name, {third}, Format::Half, o), x.v, Format::Half);
    }
    // A representable value: itself only.
    checkEdges(byName(name, {0.375}, Format::Half), Edges{0.375, 0.375}, Format::Half);
    // Float rows exist too (the table's single-precision column): a float operand is its own rounding.
    checkEdges(byName(name, {third}, Format::Float), Edges{third, third}, Format::Float);
  }
}

TEST_CASE("Vulkan Inherited rows: judge refuses them, allowedSet gives every value", "[verdict][vulkan]") {
  CHECK_THROWS_AS(judge(MathFn::pow, std::vector<double>{2.0, 0.5}, 1.4, Format::Float, Profile::Vulkan),
                  std::invalid_argument);
  CHECK_THROWS_AS(judgeInstruction("FMix", std::vector<double>{1.0, 2.0, 0.5}, 1.5, Format::Float),
                  std::invalid_argument);
  CHECK_THROWS_AS(judgeInstruction("OpFOrdEqual", std::vector<double>{1.0, 2.0}, 0.0, Format::Float),
                  std::invalid_argument);
  CHECK_THROWS_AS(judgeInstruction("NoSuchInstruction", std::vector<double>{1.0}, 0.0, Format::Float),
                  std::invalid_argument);
  const ValueSet two[] = {ValueSet::point(2.0), ValueSet::point(0.5)};
  CHECK(allowedSet(MathFn::pow, two, Format::Float, Profile::Vulkan).isAll());
  CHECK(allowedSet(MathFn::fma, std::vector<ValueSet>{ValueSet::point(2.0), ValueSet::point(0.5), ValueSet::point(1.0)},
                   Format::Float, Profile::Vulkan)
            .isAll());
  const ValueSet range[] = {ValueSet{1.0, 2.0, false}};
  CHECK(allowedSet(MathFn::sqrt, range, Format::Half, Profile::Vulkan).isAll());
}

TEST_CASE("Vulkan allowed sets agree with the verdicts", "[verdict][vulkan][enclosure]") {
  for (Format f : {Format::Float, Format::Half}) {
    INFO(toString(f));
    // Points: the verdict's set.
    Real x, a(3.5);
    mpfr_exp2(x.v, a.v, MPFR_RNDN);
    Real d;
    specUlp(d.v, x.v, f);
    mpfr_mul_d(d.v, d.v, f == Format::Half ? 8 : 10, MPFR_RNDN);
    const Edges e = edgesAround(x.v, d.v, f, false);
    const ValueSet p = allowedSet(MathFn::exp2, std::vector<ValueSet>{ValueSet::point(3.5)}, f, Profile::Vulkan);
    CHECK(p.lo == e.lo);
    CHECK(p.hi == e.hi);
    // Ranges: enclosures of every point's set, with the bound at the largest |x| (3 + 2|x|).
    const ValueSet r = allowedSet(MathFn::exp2, std::vector<ValueSet>{ValueSet{3.0, 3.5, false}}, f, Profile::Vulkan);
    CHECK(r.contains(e.hi));
    CHECK(r.contains(e.lo));
    Real y, b(3.0);
    mpfr_exp2(y.v, b.v, MPFR_RNDN);
    specUlp(d.v, y.v, f);
    mpfr_mul_d(d.v, d.v, f == Format::Half ? 7 : 9, MPFR_RNDN);
    const Edges e3 = edgesAround(y.v, d.v, f, false);
    CHECK(r.contains(e3.lo));
    // sin over a range inside [-pi, pi]: bounded; reaching past pi: every value.
    const ValueSet in = allowedSet(MathFn::sin, std::vector<ValueSet>{ValueSet{0.5, 1.0, false}}, f, Profile::Vulkan);
    CHECK_FALSE(in.isAll());
    CHECK(in.contains(std::sin(1.0) + (f == Format::Half ? 0x1p-8 : 0x1p-12)));
    CHECK(allowedSet(MathFn::sin, std::vector<ValueSet>{ValueSet{3.0, 3.5, false}}, f, Profile::Vulkan).isAll());
    // Division by a range holding 0 and more: any value (the bound holds at 0 but not for the small divisors).
    CHECK(allowedSetCore(CoreOp::Div, std::vector<ValueSet>{ValueSet::point(1.0), ValueSet{0.0, 1.0, false}}, f,
                         Profile::Vulkan)
              .isAll());
    // Correctly rounded over ranges and points: both neighbours by default.
    const double tiny = f == Format::Half ? 3 * 0x1p-12 : 3 * 0x1p-25;  // normal
    const ValueSet sum = allowedSetCore(CoreOp::Add, std::vector<ValueSet>{ValueSet::point(1.0), ValueSet::point(tiny)},
                                        f, Profile::Vulkan);
    CHECK(sum.contains(1.0));
    CHECK(sum.contains(step(1.0, f, 1)));
    CHECK_FALSE(sum.contains(step(1.0, f, 2)));
  }
}

TEST_CASE("Vulkan's ulp(x) is clref's ulpOf", "[verdict][vulkan]") {
  // [[spirvenv-ulp]]: the least distance between non-equal finite a <= x <= b, worked here for normal x (at a power
  // of two the gap below, elsewhere the binade's gap) and compared with the verdict engine's ulpOf.
  for (Format f : {Format::Float, Format::Half, Format::Double}) {
    INFO(toString(f));
    const auto [p, emin] = paramsOf(f);
    for (double v :
         {1.0, 1.5, 2.0, 3.0, 0.75, 1000.0, 1024.0, -8.0, -7.5, std::ldexp(1.0, emin), std::ldexp(3.0, emin)}) {
      INFO(v);
      Real x(v), u;
      specUlp(u.v, x.v, f);
      CHECK(ulpOf(v, f) == mpfr_get_d(u.v, MPFR_RNDN));
    }
    // Between two values of the format (held in a double: not for double itself): their gap; 0 and the
    // subnormals: the smallest subnormal.
    if (f != Format::Double) {
      CHECK(ulpOf(1.0 + std::ldexp(1.0, -p - 3), f) == std::ldexp(1.0, 1 - p));
      CHECK(ulpOf(1.0 - std::ldexp(1.0, -p - 3), f) == std::ldexp(1.0, -p));
    }
    CHECK(ulpOf(0.0, f) == std::ldexp(1.0, emin - p + 1));
    CHECK(ulpOf(std::ldexp(1.0, emin - 3), f) == std::ldexp(1.0, emin - p + 1));
  }
}

TEST_CASE("Vulkan FMix: inherited for every weight (OpenCL's undefined weights do not apply)", "[verdict][vulkan]") {
  // OpenCL C's mix is undefined for a outside [0, 1] (any value); GLSL's FMix is x * (1 - a) + y * a everywhere.
  CHECK(judge(MathFn::mix, std::vector<double>{1.0, 2.0, 3.0}, 99.0, Format::Float, Profile::Full).allowed);
  CHECK_THROWS_AS(judge(MathFn::mix, std::vector<double>{1.0, 2.0, 3.0}, 99.0, Format::Float, Profile::Vulkan),
                  std::invalid_argument);
  CHECK_THROWS_AS(judgeInstruction("FMix", std::vector<double>{1.0, 2.0, 3.0}, 99.0, Format::Float),
                  std::invalid_argument);
}
