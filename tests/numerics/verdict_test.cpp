// Verdicts (numerics/verdict.hpp). Expected values come from the spec's rules worked by hand:
// observed values are placed a known number of steps of the format from the correctly rounded
// result, and the error is checked against long double arithmetic or exact dyadic reasoning.
#include <catch2/catch.hpp>

#include <bit>
#include <cfloat>
#include <climits>
#include <cmath>
#include <optional>
#include <random>
#include <vector>

#include "numerics/convert.hpp"
#include "numerics/math.hpp"

#include "numerics/verdict.hpp"

using namespace clref::numerics;

namespace {

float stepF(float x, int k) {
  for (; k > 0; --k) x = std::nextafter(x, INFINITY);
  for (; k < 0; ++k) x = std::nextafter(x, -INFINITY);
  return x;
}

Verdict judgeF(MathFn f, std::vector<double> args, double observed, Profile p = Profile::Full, VerdictOptions o = {}) {
  return judge(f, args, observed, Format::Float, p, o);
}

}  // namespace

TEST_CASE("ulp follows the spec's definition", "[verdict]") {
  // Between two consecutive values: their gap; at a value: the distance to the nearest other
  // value (at a power of two the gap below); at 0 the smallest subnormal; beyond the largest
  // finite value the top binade's gap.
  CHECK(ulpOf(1.5, Format::Float) == std::ldexp(1.0, -23));
  CHECK(ulpOf(1.0, Format::Float) == std::ldexp(1.0, -24));
  CHECK(ulpOf(1.0 + 0x1p-30, Format::Float) == std::ldexp(1.0, -23));
  CHECK(ulpOf(1.0 - 0x1p-30, Format::Float) == std::ldexp(1.0, -24));
  CHECK(ulpOf(0.0, Format::Float) == std::ldexp(1.0, -149));
  CHECK(ulpOf(0x1p-126, Format::Float) == std::ldexp(1.0, -149));
  CHECK(ulpOf(0x1p-125, Format::Float) == std::ldexp(1.0, -149));
  CHECK(ulpOf(0x1p-124, Format::Float) == std::ldexp(1.0, -148));
  CHECK(ulpOf(FLT_MAX, Format::Float) == std::ldexp(1.0, 104));
  CHECK(ulpOf(1e300, Format::Float) == std::ldexp(1.0, 104));
  CHECK(ulpOf(1.0, Format::Double) == std::ldexp(1.0, -53));
  CHECK(ulpOf(1.0, Format::Half) == std::ldexp(1.0, -11));
  CHECK(ulpOf(65504.0, Format::Half) == 32.0);
  CHECK(ulpOf(1e-310, Format::Double) == std::ldexp(1.0, -1074));
  CHECK(ulpOf(1e-300, Format::Double) == std::ldexp(1.0, -997 - 52));
}

TEST_CASE("sin: allowed up to 4 ulp from the exact value, not from the rounded one", "[verdict]") {
  const float c = 0x1.aed548p-1f;  // sin(1) correctly rounded
  const long double exact = sinl(1.0L);
  const long double u = 0x1p-24L;  // ulp in [0.5, 1)
  for (int k = -6; k <= 6; ++k) {
    const float v = stepF(c, k);
    const Verdict r = judgeF(MathFn::sin, {1.0}, v);
    const double expected = double(fabsl((long double)v - exact) / u);
    INFO("k = " << k);
    CHECK(r.errorUlps == Approx(expected).epsilon(1e-9));
    CHECK(r.allowed == (expected <= 4));
    CHECK(r.allowedUlps == 4);
  }
  // sin(1) lies 0.47 ulp above c: +4 steps is 3.53 ulp (allowed), -4 steps 4.47 (not).
  CHECK(judgeF(MathFn::sin, {1.0}, stepF(c, 4)).allowed);
  CHECK_FALSE(judgeF(MathFn::sin, {1.0}, stepF(c, -4)).allowed);
  const Verdict r = judgeF(MathFn::sin, {1.0}, c);
  CHECK(r.lo == stepF(c, -3));
  CHECK(r.hi == stepF(c, 4));
  CHECK(r.exact.rfind("8.41470984807896506652502321630298999622", 0) == 0);
  CHECK(r.clause.find("numerical_compliance.asciidoc") != std::string::npos);
  CHECK(r.rule == "<= 4 ulp");
}

TEST_CASE("an exact result at a power of two: the ulp below applies, the bound edge is included", "[verdict]") {
  // cbrt(8) = 2 exactly, <= 2 ulp (full profile, float). ulp(2) = 2^-23 (the gap below 2).
  CHECK(judgeF(MathFn::cbrt, {8.0}, stepF(2.0f, -2)).allowed);  // exactly 2 ulp
  CHECK(judgeF(MathFn::cbrt, {8.0}, stepF(2.0f, -2)).errorUlps == 2);
  CHECK_FALSE(judgeF(MathFn::cbrt, {8.0}, stepF(2.0f, -3)).allowed);
  // One step up is 2^-22 = 2 ulp(2): allowed at the edge; two steps are 4 ulp.
  CHECK(judgeF(MathFn::cbrt, {8.0}, stepF(2.0f, 1)).errorUlps == 2);
  CHECK(judgeF(MathFn::cbrt, {8.0}, stepF(2.0f, 1)).allowed);
  CHECK_FALSE(judgeF(MathFn::cbrt, {8.0}, stepF(2.0f, 2)).allowed);
}

TEST_CASE("divide: 2.5 ulp in float, correctly rounded in double, judgeCore", "[verdict]") {
  // 1/3 = 0x1.555555...p-2; the float 0x1.555556p-2 is 1/3 ulp above it.
  const float c = 0x1.555556p-2f;
  CHECK(judgeCore(CoreOp::Div, std::vector<double>{1.0, 3.0}, stepF(c, 2), Format::Float, Profile::Full).allowed);
  CHECK_FALSE(judgeCore(CoreOp::Div, std::vector<double>{1.0, 3.0}, stepF(c, 3), Format::Float, Profile::Full).allowed);
  CHECK(judgeCore(CoreOp::Div, std::vector<double>{1.0, 3.0}, stepF(c, -2), Format::Float, Profile::Full).allowed);
  CHECK_FALSE(
      judgeCore(CoreOp::Div, std::vector<double>{1.0, 3.0}, stepF(c, -3), Format::Float, Profile::Full).allowed);
  CHECK(judgeCore(CoreOp::Div, std::vector<double>{1.0, 3.0}, stepF(c, -3), Format::Float, Profile::Full).errorUlps ==
        Approx(3 - 1.0 / 3));
  // Double: correctly rounded.
  CHECK(judgeCore(CoreOp::Div, std::vector<double>{1.0, 3.0}, 1.0 / 3, Format::Double, Profile::Full).allowed);
  CHECK_FALSE(
      judgeCore(CoreOp::Div, std::vector<double>{1.0, 3.0}, std::nextafter(1.0 / 3, 1.0), Format::Double, Profile::Full)
          .allowed);
}

TEST_CASE("correctly rounded rows: rte, and rtz where the device may default to it", "[verdict]") {
  // 1 + 1.5·2^-24: rte gives 1 + 2^-23, rtz gives 1.
  const std::vector<double> a{1.0, 1.5 * 0x1p-24};
  CHECK(judgeCore(CoreOp::Add, a, 1.0 + 0x1p-23, Format::Float, Profile::Full).allowed);
  CHECK_FALSE(judgeCore(CoreOp::Add, a, 1.0, Format::Float, Profile::Full).allowed);
  CHECK(judgeCore(CoreOp::Add, a, 1.0, Format::Float, Profile::Embedded).allowed);
  VerdictOptions rte;
  rte.rounding = Rounding::RTE;
  CHECK_FALSE(judgeCore(CoreOp::Add, a, 1.0, Format::Float, Profile::Embedded, rte).allowed);
}

TEST_CASE("signed zeros", "[verdict]") {
  // sin(±0) = ±0 is an edge case: exactly the prescribed zero.
  CHECK(judgeF(MathFn::sin, {-0.0}, -0.0).allowed);
  CHECK_FALSE(judgeF(MathFn::sin, {-0.0}, 0.0).allowed);
  CHECK_FALSE(judgeF(MathFn::sin, {0.0}, 0x1p-149).allowed);
  // exp(-200) is nonzero; both zeros are within the bound (ulp(x) = 2^-149, x ~ 2^-288).
  CHECK(judgeF(MathFn::exp, {-200.0}, 0.0).allowed);
  CHECK(judgeF(MathFn::exp, {-200.0}, -0.0).allowed);
  // fmax(-0, +0): the spec's comparison does not order the zeros; either is accepted.
  CHECK(judgeF(MathFn::fmax, {-0.0, 0.0}, 0.0).allowed);
  CHECK(judgeF(MathFn::fmax, {-0.0, 0.0}, -0.0).allowed);
}

TEST_CASE("NaN results", "[verdict]") {
  const double otherNaN = std::bit_cast<double>(0xfff8000000000123ull);
  CHECK(judgeF(MathFn::sqrt, {-1.0}, std::nan("")).allowed);
  CHECK(judgeF(MathFn::sqrt, {-1.0}, otherNaN).allowed);
  CHECK(judgeF(MathFn::sqrt, {-1.0}, std::nan("")).errorUlps == 0);
  CHECK_FALSE(judgeF(MathFn::sqrt, {-1.0}, 0.0).allowed);
  CHECK(std::isnan(judgeF(MathFn::sqrt, {-1.0}, 0.0).errorUlps));
  CHECK_FALSE(judgeF(MathFn::sin, {1.0}, std::nan("")).allowed);
  CHECK(judgeF(MathFn::log, {std::nan("")}, std::nan("")).allowed);
}

TEST_CASE("infinities and the overflow rule", "[verdict]") {
  // exp(0x1.62e43p+6) = 2^128·(1 + 2.5e-7): the correctly rounded result is +inf; FLT_MAX is
  // about 5 ulp away (ulp 2^104), over the 3 ulp bound.
  const double x = 0x1.62e43p+6;
  const Verdict inf = judgeF(MathFn::exp, {x}, INFINITY);
  CHECK(inf.allowed);
  CHECK(inf.errorUlps == 0);
  CHECK(inf.hi == INFINITY);
  CHECK_FALSE(judgeF(MathFn::exp, {x}, FLT_MAX).allowed);
  CHECK(judgeF(MathFn::exp, {x}, FLT_MAX).errorUlps == Approx(double((expl(x) - FLT_MAX) / 0x1p104L)).epsilon(1e-9));
  CHECK_FALSE(judgeF(MathFn::exp, {x}, -INFINITY).allowed);
  // exp(0x1.62e42ep+6) = 2^128·(1 - 7.4e-6): 124 ulp below 2^128, so inf is not allowed.
  CHECK_FALSE(judgeF(MathFn::exp, {0x1.62e42ep+6}, INFINITY).allowed);
  CHECK(judgeF(MathFn::exp, {0x1.62e42ep+6}, INFINITY).errorUlps ==
        Approx(double((0x1p128L - expl(0x1.62e42ep+6L)) / 0x1p104L)).epsilon(1e-9));
  // Far beyond the range (also beyond MPFR's): inf.
  CHECK(judge(MathFn::exp, std::vector<double>{1e308}, INFINITY, Format::Double, Profile::Full).allowed);
  CHECK_FALSE(judge(MathFn::exp, std::vector<double>{1e308}, DBL_MAX, Format::Double, Profile::Full).allowed);
  // Infinite exact results are prescribed: log(0) = -inf.
  CHECK(judgeF(MathFn::log, {0.0}, -INFINITY).allowed);
  CHECK_FALSE(judgeF(MathFn::log, {0.0}, -FLT_MAX).allowed);
}

TEST_CASE(
    "flush to zero: subnormal results and operands (OpenCL C 3.0 §7.5.3 [[edge-case-behavior-in-flush-to-zero-mode]])",
    "[verdict]") {
  // exp(-100) ~ 3.7e-44, 26 subnormal steps: 0 is 26 ulp away but may be a flushed result.
  CHECK(judgeF(MathFn::exp, {-100.0}, 0.0).allowed);
  CHECK(judgeF(MathFn::exp, {-100.0}, -0.0).allowed);
  CHECK(judgeF(MathFn::exp, {-100.0}, 0.0).zeroAllowed);
  VerdictOptions keep;
  keep.flushToZero = false;
  CHECK_FALSE(judgeF(MathFn::exp, {-100.0}, 0.0, Profile::Full, keep).allowed);
  // Double keeps subnormals (SPIR-V Env: "Support for denormalized numbers is required").
  CHECK_FALSE(judge(MathFn::exp, std::vector<double>{-710.0}, 0.0, Format::Double, Profile::Full).allowed);
  VerdictOptions dz;
  dz.flushToZero = true;
  CHECK(judge(MathFn::exp, std::vector<double>{-710.0}, 0.0, Format::Double, Profile::Full, dz).allowed);
  // A subnormal operand read as -0: atan2(-0, -1) = -pi.
  const double tiny = 0x1p-140;
  const double minusPi = -3.1415927410125732;  // float nearest -pi
  CHECK(judgeF(MathFn::atan2, {tiny, -1.0}, minusPi).allowed);
  CHECK_FALSE(judgeF(MathFn::atan2, {tiny, -1.0}, minusPi, Profile::Full, keep).allowed);
  CHECK(judgeF(MathFn::atan2, {tiny, -1.0}, minusPi).note.find("flushed") != std::string::npos);
  // log(subnormal) as log(0) = -inf.
  CHECK(judgeF(MathFn::log, {tiny}, -INFINITY).allowed);
  CHECK_FALSE(judgeF(MathFn::log, {tiny}, -INFINITY, Profile::Full, keep).allowed);
}

TEST_CASE("mad: fused and unfused both allowed", "[verdict]") {
  // a = 1 + 2^-12: a·a - 1 = 2^-11 + 2^-24 exactly (fused); a·a rounds (a tie, to even) to
  // 1 + 2^-11, so unfused gives 2^-11.
  const std::vector<double> args{1 + 0x1p-12, 1 + 0x1p-12, -1.0};
  CHECK(judgeF(MathFn::mad, args, 0x1p-11 + 0x1p-24).allowed);
  CHECK(judgeF(MathFn::mad, args, 0x1p-11).allowed);
  CHECK_FALSE(judgeF(MathFn::mad, args, 0x1p-11 + 0x1p-23).allowed);
  // Embedded profile: implementation-defined (any value).
  CHECK(judgeF(MathFn::mad, args, 0x1p-11 + 0x1p-23, Profile::Embedded).allowed);
}

TEST_CASE("relaxed math: absolute error rule of sin in [-pi, pi]", "[verdict]") {
  const float c = 0x1.aed548p-1f;
  CHECK(judgeF(MathFn::sin, {1.0}, c + 0x1p-12, Profile::Relaxed).allowed);
  CHECK_FALSE(judgeF(MathFn::sin, {1.0}, c + 0x1p-12, Profile::Full).allowed);
  CHECK_FALSE(judgeF(MathFn::sin, {1.0}, c + 0x1p-10, Profile::Relaxed).allowed);
  const Verdict r = judgeF(MathFn::sin, {1.0}, c, Profile::Relaxed);
  CHECK(std::isnan(r.allowedUlps));
  CHECK(r.rule.find("0x1p-11") != std::string::npos);
  // Outside [-pi, pi] the table states no bound ("and larger otherwise").
  CHECK(judgeF(MathFn::sin, {4.0}, 0.5, Profile::Relaxed).allowed);
  // Relaxed exp: <= 3 + floor(|2x|) ulp: at x = 2, 7 ulp.
  const float e2 = 0x1.d8e64cp+2f;  // exp(2) rounded; exp(2) = 7.389056098930650
  const long double ex = expl(2.0L);
  for (int k = -9; k <= 9; ++k) {
    const float v = stepF(e2, k);
    const double err = double(fabsl((long double)v - ex) / 0x1p-21L);
    CHECK(judgeF(MathFn::exp, {2.0}, v, Profile::Relaxed).allowed == (err <= 7));
  }
}

TEST_CASE("multi-output functions judge the returned value, ilogb its integer", "[verdict]") {
  CHECK(judgeF(MathFn::frexp, {12.0}, 0.75).allowed);
  CHECK_FALSE(judgeF(MathFn::frexp, {12.0}, 1.5).allowed);
  CHECK(judgeF(MathFn::modf, {-2.5}, -0.5).allowed);
  CHECK(judgeF(MathFn::sincos, {1.0}, 0x1.aed548p-1).allowed);
  CHECK(judgeF(MathFn::ilogb, {12.0}, 3).allowed);
  CHECK_FALSE(judgeF(MathFn::ilogb, {12.0}, 4).allowed);
  // FP_ILOGB0 is INT_MIN or -INT_MAX.
  CHECK(judgeF(MathFn::ilogb, {0.0}, double(INT_MIN)).allowed);
  CHECK(judgeF(MathFn::ilogb, {0.0}, double(-INT_MAX)).allowed);
  CHECK_FALSE(judgeF(MathFn::ilogb, {0.0}, 0).allowed);
}

TEST_CASE("implementation-defined rows allow any value, half_ functions outside their range", "[verdict]") {
  CHECK(judgeF(MathFn::lgamma, {2.5}, 123.0).allowed);
  CHECK(judgeF(MathFn::native_sin, {1.0}, 5.0).allowed);
  // half_sin: <= 8192 ulp inside [-2^16, 2^16].
  const float c = 0x1.aed548p-1f;
  CHECK(judgeF(MathFn::half_sin, {1.0}, stepF(c, 8000)).allowed);
  CHECK_FALSE(judgeF(MathFn::half_sin, {1.0}, stepF(c, 9000)).allowed);
  CHECK(judgeF(MathFn::half_sin, {0x1p17}, 3.0).allowed);
}

TEST_CASE("judgeAllFloat: the fast path agrees with judge()", "[verdict]") {
  // Observed values 0..5 steps from the correctly rounded result, by a hash of the input; the
  // pass's counts must equal those of judge() on every input.
  for (MathFn f : {MathFn::sin, MathFn::exp, MathFn::log}) {
    const uint64_t begin = 0x3f000000, end = begin + 3000;  // [0.5, 0.5 + 3000 ulp)
    auto offset = [](uint32_t bits) { return int((bits * 2654435761u) >> 29) % 6 - (bits & 1 ? 0 : 5); };
    auto observedOf = [&](uint32_t bits) {
      const double x = std::bit_cast<float>(bits);
      const float c = float(evaluate(f, std::vector<double>{x}, Format::Float).value);
      return stepF(c, offset(bits));
    };
    const ObservedFloats observed = [&](uint32_t first, std::span<float> out) {
      for (size_t i = 0; i < out.size(); ++i) out[i] = observedOf(uint32_t(first + i));
    };
    const VerdictPass p = judgeAllFloat(f, Profile::Full, {}, observed, 2, begin, end);
    uint64_t disallowed = 0;
    for (uint64_t b = begin; b < end; ++b) {
      const double x = std::bit_cast<float>(uint32_t(b));
      if (!judge(f, std::vector<double>{x}, observedOf(uint32_t(b)), Format::Float, Profile::Full).allowed)
        ++disallowed;
    }
    INFO(nameOf(f));
    CHECK(p.inputs == end - begin);
    CHECK(p.disallowed == disallowed);
    CHECK(p.allowed + p.disallowed == p.inputs);
    CHECK(disallowed > 0);
    CHECK(p.exactPath < p.inputs);
  }
}

TEST_CASE("judgeAllFloat: special inputs (NaN, infinities, zeros, subnormals)", "[verdict]") {
  // The host's expf over the top of the positive range: every input overflows to +inf or is NaN.
  const ObservedFloats observed = [](uint32_t first, std::span<float> out) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = std::exp(std::bit_cast<float>(uint32_t(first + i)));
  };
  const VerdictPass hi = judgeAllFloat(MathFn::exp, Profile::Full, {}, observed, 2, 0x7f000000, 0x80000000);
  CHECK(hi.disallowed == 0);
  CHECK(hi.exactPath < 100);
  // Subnormal and zero inputs of sin: the host returns x.
  const ObservedFloats sinf_ = [](uint32_t first, std::span<float> out) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = std::sin(std::bit_cast<float>(uint32_t(first + i)));
  };
  const VerdictPass lo = judgeAllFloat(MathFn::sin, Profile::Full, {}, sinf_, 2, 0, 0x10000);
  CHECK(lo.disallowed == 0);
}

TEST_CASE("undefined results allow any value and name the sentence that frees them", "[verdict]") {
  // OpenCL C 3.0 §6.15.4 [[common-functions]]: clamp with minval > maxval, max/min with an infinite or NaN operand, mix
  // with a outside [0, 1], smoothstep with edge0 >= edge1 or a NaN operand: the results are undefined, so no value
  // of the type may be called NOT allowed (clref's own result follows a choice, which the verdict does not limit).
  struct Case {
    MathFn f;
    std::vector<double> args;
    const char* sentence;
  };
  const Case cases[] = {
      {MathFn::fclamp, {5, 3, 1}, "minval > maxval"},
      {MathFn::fmax_common, {INFINITY, 1}, "infinite or NaN"},
      {MathFn::fmin_common, {2, NAN}, "infinite or NaN"},
      {MathFn::mix, {1, 2, 3}, "not in the range [0.0, 1.0]"},
      {MathFn::smoothstep, {2, 1, 0.5}, "edge0 >= edge1"},
      {MathFn::smoothstep, {0, 1, NAN}, "is a NaN"},
  };
  for (const auto& c : cases) {
    INFO(nameOf(c.f));
    for (double observed : {3.0, -7.5, double(NAN), double(INFINITY), -0.0}) {
      const Verdict v = judgeF(c.f, c.args, observed);
      CHECK(v.allowed);
      CHECK(v.anyValue);
      CHECK_THAT(v.rule, Catch::Contains(c.sentence));
      CHECK_THAT(v.clause, Catch::Contains("[[common-functions]]"));
    }
  }
  // Defined operands keep their bounds.
  CHECK_FALSE(judgeF(MathFn::fclamp, {2, 1, 3}, 3).allowed);
  CHECK_FALSE(judgeF(MathFn::fclamp, {2, 1, 3}, 3).anyValue);
  CHECK_FALSE(judgeF(MathFn::mix, {1, 2, 0.5}, 7).allowed);
}

TEST_CASE("an open zero sign shows in the allowed set", "[verdict]") {
  // fmin/fmax compare without ordering -0 and +0 (OpenCL C 3.0 §6.15.2 [[math-functions]]): the verdict accepts either
  // zero, and the allowed set it reports holds both.
  for (double observed : {0.0, -0.0}) {
    const Verdict v = judgeF(MathFn::fmin, {-0.0, 0.0}, observed);
    CHECK(v.allowed);
    CHECK(v.lo == 0);
    CHECK(std::signbit(v.lo));
    CHECK(v.hi == 0);
    CHECK_FALSE(std::signbit(v.hi));
  }
  // A zero whose sign is prescribed stays one value: sin(-0) is -0.
  const Verdict s = judgeF(MathFn::sin, {-0.0}, -0.0);
  CHECK(s.allowed);
  CHECK(std::signbit(s.lo));
  CHECK(std::signbit(s.hi));
}

TEST_CASE("mad's unfused form may overflow where the fused one does not: inf - inf gives a NaN that is allowed",
          "[numerics][verdict]") {
  // mad(max, -max, inf): fused, the exact product -max^2 plus inf is inf; unfused, the product rounds to -inf and
  // -inf + inf is a NaN. Both are allowed, -inf is not (neither form gives it).
  const double m = 0x1.fffffep+127;
  const std::vector<double> a = {m, -m, INFINITY};
  CHECK(judge(MathFn::mad, a, INFINITY, Format::Float, Profile::Full).allowed);
  const Verdict v = judge(MathFn::mad, a, NAN, Format::Float, Profile::Full);
  CHECK(v.allowed);
  CHECK(v.nanAllowed);
  CHECK_FALSE(judge(MathFn::mad, a, -INFINITY, Format::Float, Profile::Full).allowed);
  // fma has one form: inf only.
  CHECK_FALSE(judge(MathFn::fma, a, NAN, Format::Float, Profile::Full).allowed);
}

TEST_CASE("the option -cl-fp32-correctly-rounded-divide-sqrt makes float division and sqrt correctly rounded in the verdict",
          "[numerics][verdict]") {
  // OpenCL 3.0 API §5.8.6.2 [[math-intrinsics-options]]: the option's row replaces the tables' 2.5 / 3 ulp.
  const std::vector<double> a = {1.0, 3.0};
  VerdictOptions cr;
  cr.accuracy.fp32CorrectlyRoundedDivideSqrt = true;
  const double two = 0x1.55555ap-2;  // 2 ulp above the correctly rounded 0x1.555556p-2
  CHECK(judgeCore(CoreOp::Div, a, two, Format::Float, Profile::Full).allowed);
  const Verdict v = judgeCore(CoreOp::Div, a, two, Format::Float, Profile::Full, cr);
  CHECK_FALSE(v.allowed);
  CHECK(v.lo == 0x1.555556p-2);
  CHECK(v.hi == 0x1.555556p-2);
  const std::vector<double> s = {2.0};
  CHECK(judge(MathFn::sqrt, s, 0x1.6a09e6p+0, Format::Float, Profile::Full, cr).allowed);
  CHECK_FALSE(judge(MathFn::sqrt, s, 0x1.6a09e8p+0, Format::Float, Profile::Full, cr).allowed);
}

// allowedAt leaves out judge()'s texts, its judging of the observed value and the other document's verdict; the
// allowed results must be judge()'s, whatever value judge() was asked about (clref's, a zero, a NaN, one far off),
// which the tests above and the accuracy tests check against MPFR and the spec's rules.
TEST_CASE("allowedAt: judge()'s allowed results, without judging a value", "[verdict]") {
  std::mt19937_64 rng(35);
  // Zeros, subnormals (of float and of half), small and large values, infinities and NaN.
  const std::vector<double> special = {0.0,     -0.0,  1.0,   -1.0, 0.5,      2.0,       0x1p-140, -0x1p-20,
                                       0x1p-130, 100.0, -3.25, 1e30, INFINITY, -INFINITY, NAN};
  auto operand = [&](Format f) {
    double x = rng() % 3 == 0 ? special[rng() % special.size()]
                              : std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng), int(rng() % 24) - 12);
    // A value of the format: the double rounded as a conversion does.
    return floatToFloat(x, f, Rounding::RTE);
  };
  auto sameSet = [](const Verdict& a, const Verdict& b) {
    auto same = [](double x, double y) {
      return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
    };
    return same(a.lo, b.lo) && same(a.hi, b.hi) && a.zeroAllowed == b.zeroAllowed && a.nanAllowed == b.nanAllowed &&
           a.anyValue == b.anyValue;
  };
  VerdictOptions flushing;
  flushing.flushToZero = true;
  VerdictOptions preserving;
  preserving.flushToZero = false;
  uint64_t compared = 0, thrown = 0;
  for (const Format format : {Format::Float, Format::Half, Format::Double})
    for (const Profile profile : {Profile::Full, Profile::Embedded, Profile::Relaxed})
      for (const VerdictOptions& options : {VerdictOptions{}, flushing, preserving})
        for (int fn = -5; fn < kMathFnCount; ++fn) {
          // fn < 0: the core operations Add, Sub, Mul, Div, Recip.
          const std::optional<MathFn> f = fn >= 0 ? std::optional<MathFn>(MathFn(fn)) : std::nullopt;
          const CoreOp core = fn >= 0 ? CoreOp::None : CoreOp(int(CoreOp::Add) - fn - 1);
          const int n = f ? arity(*f) : core == CoreOp::Recip ? 1 : 2;
          for (int k = 0; k < 4; ++k) {
            std::vector<double> args;
            // ldexp's k and pown's and rootn's n are ints (OpenCL C 3.0 §6.15.2 [[math-functions]]): small integers.
            const bool intOperand = f && (*f == MathFn::ldexp || *f == MathFn::pown || *f == MathFn::rootn);
            for (int i = 0; i < n; ++i)
              args.push_back(intOperand && i == 1 ? double(int(rng() % 64) - 32) : operand(format));
            std::optional<Verdict> at;
            try {
              at = allowedAt(f, core, args, format, profile, options);
            } catch (const std::exception&) {}
            double clrefs = 0;
            try {
              if (f) clrefs = evaluate(*f, args, format).value;
            } catch (const std::exception&) {}
            for (const double observed : {clrefs, 0.0, double(NAN), 12345.0}) {
              std::optional<Verdict> v;
              try {
                v = f ? judge(*f, args, observed, format, profile, options)
                      : judgeCore(core, args, observed, format, profile, options);
              } catch (const std::exception&) {}
              INFO((f ? std::string(nameOf(*f)) : std::string(toString(core)))
                   << " format " << int(format) << " profile " << int(profile));
              REQUIRE(at.has_value() == v.has_value());
              if (!v) {
                ++thrown;
                continue;
              }
              CHECK(sameSet(*at, *v));
              ++compared;
            }
          }
        }
  CHECK(compared > 10000);
  CHECK(thrown < compared);
}
