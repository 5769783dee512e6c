// Allowed sets over operand sets (numerics/enclosure.hpp). The independent source is judge() (numerics/verdict.hpp),
// itself tested against MPFR: for every operand tuple inside the ranges, every value judge() allows must lie in
// the enclosure; for single operands the enclosure is exactly judge()'s allowed set.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "numerics/enclosure.hpp"

using namespace clref::numerics;

namespace {

float stepF(float x, int k) {
  for (; k > 0; --k) x = std::nextafter(x, INFINITY);
  for (; k < 0; ++k) x = std::nextafter(x, -INFINITY);
  return x;
}

// Every float of [lo, hi] (at most `limit` of them, evenly spread).
std::vector<double> floatsIn(float lo, float hi, int limit = 40) {
  std::vector<double> out;
  for (float x = lo; x <= hi && int(out.size()) < 4096; x = stepF(x, 1)) out.push_back(x);
  if (int(out.size()) <= limit) return out;
  std::vector<double> some;
  for (int i = 0; i < limit; ++i) some.push_back(out[size_t(i) * (out.size() - 1) / size_t(limit - 1)]);
  return some;
}

// Checks that every value judge() allows at every operand tuple of the grid lies in `set`.
template <class JudgeAt>
void checkEncloses(const ValueSet& set, const std::vector<std::vector<double>>& grid, JudgeAt&& judgeAt) {
  std::vector<double> args(grid.size());
  std::vector<size_t> idx(grid.size(), 0);
  for (;;) {
    for (size_t i = 0; i < grid.size(); ++i) args[i] = grid[i][idx[i]];
    const Verdict v = judgeAt(args);
    INFO("operands " << args[0] << (args.size() > 1 ? " " + std::to_string(args[1]) : std::string()) << " allowed ["
                     << v.lo << ", " << v.hi << "] set " << toString(set));
    if (v.anyValue) {
      CHECK(set.isAll());
    } else if (std::isnan(v.lo)) {
      CHECK(set.nan);
    } else {
      CHECK(set.contains(v.lo));
      CHECK(set.contains(v.hi));
    }
    size_t k = 0;
    while (k < idx.size() && ++idx[k] == grid[k].size()) idx[k++] = 0;
    if (k == idx.size()) break;
  }
}

ValueSet range(double lo, double hi) { return ValueSet{lo, hi, false}; }

// One tuple of a batch form's answer against the one-tuple form's `want`: the same decision, the same set bit for bit.
void checkBatchTuple(bool got, double setLo, double setHi, const std::optional<ValueSet>& want, int& decided,
                     int& deferred) {
  REQUIRE(got == want.has_value());
  if (!want) {
    ++deferred;
    return;
  }
  ++decided;
  CHECK(std::memcmp(&setLo, &want->lo, 8) == 0);
  CHECK(std::memcmp(&setHi, &want->hi, 8) == 0);
}

}  // namespace

TEST_CASE("a set of single operands is exactly judge()'s allowed set", "[numerics][enclosure]") {
  const std::vector<double> x{1.0};
  const Verdict v = judge(MathFn::sin, x, 0.0, Format::Float, Profile::Full);
  const ValueSet s = allowedSet(MathFn::sin, std::vector<ValueSet>{ValueSet::point(1.0)}, Format::Float, Profile::Full);
  CHECK(s.lo == v.lo);
  CHECK(s.hi == v.hi);
  CHECK_FALSE(s.nan);
  CHECK_FALSE(s.contains(stepF(float(v.lo), -1)));
  CHECK_FALSE(s.contains(stepF(float(v.hi), 1)));
  // A correctly rounded core operation: one value (round to nearest even; float in the full profile has no other
  // default rounding).
  const ValueSet sum =
      allowedSetCore(CoreOp::Add, std::vector<ValueSet>{ValueSet::point(1.0), ValueSet::point(0x1p-24)},
                     Format::Float, Profile::Full);
  CHECK(sum.isPoint());
  CHECK(sum.lo == 1.0);
  // NaN operands give NaN only; log(-1) too.
  CHECK(allowedSet(MathFn::exp, std::vector<ValueSet>{ValueSet::nanOnly()}, Format::Float, Profile::Full) ==
        ValueSet::nanOnly());
  CHECK(allowedSet(MathFn::log, std::vector<ValueSet>{ValueSet::point(-1.0)}, Format::Float, Profile::Full) ==
        ValueSet::nanOnly());
}

TEST_CASE("the set over operand ranges holds every value allowed for every operand inside them",
          "[numerics][enclosure]") {
  struct Case {
    MathFn f;
    std::vector<std::pair<float, float>> ranges;
  };
  const std::vector<Case> cases = {
      {MathFn::sin, {{1.5f, 1.7f}}},  // holds the maximum at pi/2
      {MathFn::sin, {{1.0f, stepF(1.0f, 6)}}},
      {MathFn::cos, {{3.0f, 3.3f}}},  // the minimum at pi
      {MathFn::exp, {{-2.0f, stepF(-2.0f, 9)}}},
      {MathFn::log, {{0.5f, 0.75f}}},
      {MathFn::sqrt, {{2.0f, stepF(2.0f, 5)}}},
      {MathFn::acos, {{0.25f, 0.3f}}},
      {MathFn::pow, {{1.5f, stepF(1.5f, 4)}, {2.5f, stepF(2.5f, 3)}}},
      {MathFn::atan2, {{-1.0f, stepF(-1.0f, 5)}, {0.5f, stepF(0.5f, 5)}}},
      {MathFn::hypot, {{3.0f, stepF(3.0f, 4)}, {4.0f, stepF(4.0f, 4)}}},
      {MathFn::cospi, {{0.9f, 1.1f}}},
      {MathFn::fabs, {{-0.5f, 0.25f}}},
      {MathFn::fmax, {{-1.0f, 2.0f}, {0.5f, 0.75f}}},
      {MathFn::fma, {{1.0f, stepF(1.0f, 3)}, {3.0f, stepF(3.0f, 3)}, {-3.0f, stepF(-3.0f, 2)}}},
      {MathFn::mad, {{1.0f, stepF(1.0f, 3)}, {3.0f, stepF(3.0f, 3)}, {-3.0f, stepF(-3.0f, 2)}}},
      {MathFn::half_exp, {{0.5f, stepF(0.5f, 3)}}},
      {MathFn::tanh, {{-0.1f, 0.1f}}},
  };
  for (const auto& c : cases) {
    INFO(nameOf(c.f));
    std::vector<ValueSet> sets;
    std::vector<std::vector<double>> grid;
    for (auto [lo, hi] : c.ranges) {
      sets.push_back(range(lo, hi));
      grid.push_back(floatsIn(lo, hi, c.ranges.size() == 1 ? 200 : 12));
    }
    const ValueSet s = allowedSet(c.f, sets, Format::Float, Profile::Full);
    CHECK_FALSE(s.isAll());
    checkEncloses(s, grid, [&](std::span<const double> a) {
      return judge(c.f, a, evaluate(c.f, a, Format::Float).value, Format::Float, Profile::Full);
    });
  }
  // Core operations, also in double.
  for (CoreOp op : {CoreOp::Add, CoreOp::Sub, CoreOp::Mul, CoreOp::Div}) {
    INFO(toString(op));
    const std::vector<ValueSet> sets = {range(1.25, double(stepF(1.25f, 5))), range(-3.0, double(stepF(-3.0f, 4)))};
    const ValueSet s = allowedSetCore(op, sets, Format::Float, Profile::Full);
    checkEncloses(s, {floatsIn(1.25f, stepF(1.25f, 5)), floatsIn(-3.0f, stepF(-3.0f, 4))},
                  [&](std::span<const double> a) { return judgeCore(op, a, 0.0, Format::Float, Profile::Full); });
  }
}

TEST_CASE("an enclosure over a narrow range is narrow: a few ulps beyond the rule", "[numerics][enclosure]") {
  // exp over 4 consecutive floats near 1: the exact range is about 4·e ulps wide, plus 3 ulp (the rule) each side.
  const ValueSet s =
      allowedSet(MathFn::exp, std::vector<ValueSet>{range(1.0, stepF(1.0f, 3))}, Format::Float, Profile::Full);
  const double ulp = 0x1p-22;  // e is in [2, 4)
  CHECK((s.hi - s.lo) / ulp <= 3 * 2.72 + 2 * 3 + 2);
  // The sum of two ranges of 3 ulps (at 1, ulp 2^-23) is 6 of those ulps wide, correctly rounded at the ends.
  const ValueSet sum = allowedSetCore(CoreOp::Add, std::vector<ValueSet>{range(1.0, stepF(1.0f, 3)), range(1.0, stepF(1.0f, 3))},
                                      Format::Float, Profile::Full);
  CHECK(sum.lo == 2.0);
  CHECK(sum.hi == 2.0 + 6 * 0x1p-23);
}

TEST_CASE("ranges that reach a domain edge, an undefined condition or a pole give every value",
          "[numerics][enclosure]") {
  CHECK(allowedSet(MathFn::log, std::vector<ValueSet>{range(-1.0, 1.0)}, Format::Float, Profile::Full).isAll());
  CHECK(allowedSetCore(CoreOp::Div, std::vector<ValueSet>{range(1.0, 2.0), range(-1.0, 1.0)}, Format::Float,
                       Profile::Full)
            .isAll());
  // clamp whose bounds may cross: undefined.
  CHECK(allowedSet(MathFn::fclamp, std::vector<ValueSet>{range(0.0, 1.0), range(0.0, 0.6), range(0.5, 1.0)},
                   Format::Float, Profile::Full)
            .isAll());
  // mix's weight outside [0, 1]: undefined.
  CHECK(allowedSet(MathFn::mix, std::vector<ValueSet>{range(0.0, 1.0), range(2.0, 3.0), range(0.5, 1.5)},
                   Format::Float, Profile::Full)
            .isAll());
}

TEST_CASE("flush to zero: a range reaching the subnormals holds both zeros in float, not in double",
          "[numerics][enclosure]") {
  const ValueSet f = allowedSetCore(CoreOp::Mul, std::vector<ValueSet>{range(0x1p-70, 0x1p-69), range(0x1p-70, 0x1p-69)},
                                    Format::Float, Profile::Full);
  CHECK(f.contains(0.0));
  CHECK(f.contains(-0.0));
  CHECK(f.contains(0x1p-140));
  const ValueSet d = allowedSetCore(CoreOp::Mul, std::vector<ValueSet>{range(0x1p-530, 0x1p-529), range(0x1p-530, 0x1p-529)},
                                    Format::Double, Profile::Full);
  CHECK_FALSE(d.contains(0.0));
  CHECK(d.contains(0x1p-1060));
  CHECK(d.contains(0x1p-1058));
}

TEST_CASE("roundSet and hull", "[numerics][enclosure]") {
  const ValueSet r = roundSet(range(1.0 + 0x1p-30, 1.0 + 0x1p-20), Format::Float, Rounding::RTE, false);
  CHECK(r.lo == 1.0);
  CHECK(r.hi == 1.0 + 0x1p-20);
  const ValueSet z = hull(ValueSet::point(-0.0), ValueSet::point(0.0));
  CHECK(z.contains(-0.0));
  CHECK(z.contains(0.0));
  CHECK_FALSE(ValueSet::point(0.0).contains(-0.0));
  CHECK_FALSE(ValueSet::point(-0.0).contains(0.0));
  CHECK(hull(ValueSet::nanOnly(), ValueSet::point(2.0)).contains(NAN));
  CHECK(toString(range(1.0, 2.0)) == "[0x1p+0, 0x1p+1]");
  CHECK(toString(ValueSet::all()) == "any value");
}

TEST_CASE("the binary64 fast path of single operands gives exactly judge()'s set, or defers to it",
          "[numerics][enclosure]") {
  std::mt19937_64 rng(2026);
  auto randomFloat = [&](double lo, double hi) { return double(float(std::uniform_real_distribution<double>(lo, hi)(rng))); };
  struct Op {
    std::optional<MathFn> fn;
    CoreOp core;
    int arity;
    double lo, hi;
    Profile profile;
  };
  const std::vector<Op> ops = {
      {std::nullopt, CoreOp::Div, 2, -100, 100, Profile::Full}, {std::nullopt, CoreOp::Recip, 1, -100, 100, Profile::Full},
      {MathFn::sqrt, CoreOp::None, 1, 0, 1e6, Profile::Full},    {MathFn::sin, CoreOp::None, 1, -10, 10, Profile::Full},
      {MathFn::cos, CoreOp::None, 1, -1e4, 1e4, Profile::Full},  {MathFn::tan, CoreOp::None, 1, -3, 3, Profile::Full},
      {MathFn::exp, CoreOp::None, 1, -80, 80, Profile::Full},    {MathFn::exp2, CoreOp::None, 1, -100, 100, Profile::Full},
      {MathFn::expm1, CoreOp::None, 1, -5, 5, Profile::Full},    {MathFn::log, CoreOp::None, 1, 0, 1e9, Profile::Full},
      {MathFn::log2, CoreOp::None, 1, 0, 100, Profile::Full},    {MathFn::log10, CoreOp::None, 1, 0, 1e5, Profile::Full},
      {MathFn::log1p, CoreOp::None, 1, -0.9, 10, Profile::Full}, {MathFn::asin, CoreOp::None, 1, -1, 1, Profile::Full},
      {MathFn::acos, CoreOp::None, 1, -1, 1, Profile::Full},     {MathFn::atan, CoreOp::None, 1, -50, 50, Profile::Full},
      {MathFn::sinh, CoreOp::None, 1, -20, 20, Profile::Full},   {MathFn::cosh, CoreOp::None, 1, -20, 20, Profile::Full},
      {MathFn::tanh, CoreOp::None, 1, -5, 5, Profile::Full},     {MathFn::cbrt, CoreOp::None, 1, -1e6, 1e6, Profile::Full},
      {MathFn::mad, CoreOp::None, 3, -1e3, 1e3, Profile::Full},  {MathFn::fma, CoreOp::None, 3, -1e3, 1e3, Profile::Full},
      {MathFn::half_exp, CoreOp::None, 1, -10, 10, Profile::Full}, {MathFn::sin, CoreOp::None, 1, -10, 10, Profile::Embedded},
      {std::nullopt, CoreOp::Div, 2, -100, 100, Profile::Embedded},
      {MathFn::mad, CoreOp::None, 3, -1e3, 1e3, Profile::Embedded}, {MathFn::fma, CoreOp::None, 3, -1e3, 1e3, Profile::Embedded},
  };
  for (const auto& op : ops) {
    INFO((op.fn ? std::string(nameOf(*op.fn)) : std::string(toString(op.core))) << " " << toString(op.profile));
    int decided = 0;
    const int n = 400;
    const bool sum = op.fn == MathFn::mad || op.fn == MathFn::fma;
    for (int i = 0; i < n; ++i) {
      std::vector<double> a;
      for (int k = 0; k < op.arity; ++k) a.push_back(randomFloat(op.lo, op.hi));
      // mad and fma: an exact zero of either sign in one operand every fourth time (an accumulator's first step).
      if (sum && i % 4 == 3) a[size_t(i / 4) % 3] = i % 8 == 3 ? 0.0 : -0.0;
      const auto fast = detail::fastPointSet(op.fn, op.core, a, Format::Float, op.profile, {});
      if (!fast) continue;
      ++decided;
      const Verdict v = op.fn ? judge(*op.fn, a, 0.0, Format::Float, op.profile)
                              : judgeCore(op.core, a, 0.0, Format::Float, op.profile);
      INFO("operands " << a[0]);
      REQUIRE_FALSE(v.anyValue);
      CHECK(fast->lo == v.lo);
      CHECK(fast->hi == v.hi);
      CHECK_FALSE(v.zeroAllowed);
      CHECK(fast->nan == v.nanAllowed);
    }
    // The fast path must be the common case where it applies.
    if (op.profile == Profile::Full) CHECK(decided > (sum ? n * 7 / 10 : n * 8 / 10));
  }
}

TEST_CASE("the binary64 fast path's ulp sets at binade edges, near overflow and near the subnormals equal judge()'s",
          "[numerics][enclosure]") {
  // Quotients a / 3 with a a few floats either side of 3·2^k: exact values just below, at and just above a power of
  // two, of both signs, from the subnormal edge to past the float range, where the ulp set changes its gap or its rule.
  int decided = 0, deferred = 0;
  for (int k : {-127, -126, -125, -124, -100, -1, 0, 1, 23, 24, 100, 126, 127}) {
    const float centre = float(3.0 * std::ldexp(1.0, k));
    for (int j = -6; j <= 6; ++j)
      for (double sign : {1.0, -1.0}) {
        const std::vector<double> a = {sign * double(stepF(centre, j)), 3.0};
        INFO("k " << k << " step " << j << " operands " << a[0] << " / 3");
        const auto fast = detail::fastPointSet(std::nullopt, CoreOp::Div, a, Format::Float, Profile::Full, {});
        if (!fast) {
          ++deferred;
          continue;
        }
        ++decided;
        const Verdict v = judgeCore(CoreOp::Div, a, 0.0, Format::Float, Profile::Full);
        REQUIRE_FALSE(v.anyValue);
        CHECK(fast->lo == v.lo);
        CHECK(fast->hi == v.hi);
        CHECK_FALSE(fast->nan);
      }
  }
  // Both kinds occur: sets inside a binade decided, those touching a power of two, the subnormals or overflow deferred.
  CHECK(decided > 100);
  CHECK(deferred > 50);
}

TEST_CASE("the binary64 fast path on single values leaves a device's rounding mode to MPFR", "[numerics][enclosure]") {
  // A device whose correctly rounded float results round toward zero (VerdictOptions::rounding): fma's set is that
  // mode's result (MPFR's, through judge()), never round-to-nearest's alone.
  std::mt19937_64 rng(11);
  VerdictOptions rtz;
  rtz.rounding = Rounding::RTZ;
  int differ = 0;
  for (int i = 0; i < 200; ++i) {
    const double a = double(float(std::uniform_real_distribution<double>(-1e3, 1e3)(rng)));
    const double b = double(float(std::uniform_real_distribution<double>(-1e3, 1e3)(rng)));
    const double c = double(float(std::uniform_real_distribution<double>(-1e3, 1e3)(rng)));
    const std::vector<double> fmaArgs = {a, b, c};
    const Verdict v = judge(MathFn::fma, fmaArgs, 0.0, Format::Float, Profile::Full, rtz);
    if (const auto fast = detail::fastPointSet(MathFn::fma, CoreOp::None, fmaArgs, Format::Float, Profile::Full, rtz)) {
      CHECK(fast->lo == v.lo);
      CHECK(fast->hi == v.hi);
    }
    differ += v.lo != double(std::fma(float(a), float(b), float(c)));
  }
  CHECK(differ > 50);  // the mode matters for these operands
}

TEST_CASE("the binary64 fast path over ranges encloses the general (MPFI) path's set, at most one float wider",
          "[numerics][enclosure]") {
  std::mt19937_64 rng(7);
  auto randomFloat = [&](double lo, double hi) { return double(float(std::uniform_real_distribution<double>(lo, hi)(rng))); };
  auto range = [&](double lo, double hi) {
    const double a = randomFloat(lo, hi);
    return ValueSet{a, double(stepF(float(a), int(rng() % 9))), false};
  };
  struct Op {
    std::optional<MathFn> fn;
    CoreOp core;
    int arity;
  };
  const std::vector<Op> ops = {{std::nullopt, CoreOp::Add, 2}, {std::nullopt, CoreOp::Sub, 2},
                               {std::nullopt, CoreOp::Mul, 2}, {std::nullopt, CoreOp::Div, 2},
                               {MathFn::fma, CoreOp::None, 3}, {MathFn::mad, CoreOp::None, 3}};
  VerdictOptions general;
  for (const auto& op : ops) {
    INFO((op.fn ? std::string(nameOf(*op.fn)) : std::string(toString(op.core))));
    int decided = 0, decidedWithZero = 0, decidedThrough = 0;
    for (int i = 0; i < 500; ++i) {
      std::vector<ValueSet> a;
      for (int k = 0; k < op.arity; ++k) a.push_back(range(i % 2 ? -1e3 : 0.5, 1e3));
      // A range from below zero to above it (its ends sometimes subnormal) in one operand every fourth time, and an
      // exact zero of either sign (or both) every fourth; the divisor's excepted.
      if (i % 4 == 1) {
        const int k = int(rng() % unsigned(op.core == CoreOp::Div ? 1 : op.arity));
        const double scale = i % 16 == 1 ? 0x1p-140 : 1e-3;
        a[size_t(k)] = ValueSet{-randomFloat(1, 2) * scale, randomFloat(1, 2) * scale, false};
      }
      if (i % 4 == 3) {
        const int k = int(rng() % unsigned(op.core == CoreOp::Div ? 1 : op.arity));
        const int sign = int(rng() % 3);
        a[size_t(k)] = sign == 0 ? ValueSet::point(0.0) : sign == 1 ? ValueSet::point(-0.0) : ValueSet{-0.0, 0.0, false};
      }
      const auto fast = detail::fastRangeSet(op.fn, op.core, a, Format::Float, Profile::Full, {});
      if (!fast) continue;
      ++decided;
      decidedWithZero += i % 4 == 3;
      decidedThrough += i % 4 == 1;
      // The general path, without the fast path: an MPFI enclosure of the same rule.
      const ValueSet g = detail::generalRangeSet(op.fn, op.core, a, Format::Float, Profile::Full, general);
      INFO("general " << toString(g) << " fast " << toString(*fast));
      CHECK(fast->lo <= g.lo);
      CHECK(fast->hi >= g.hi);
      CHECK(fast->lo >= double(stepF(float(g.lo), -1)));
      CHECK(fast->hi <= double(stepF(float(g.hi), 1)));
    }
    // A quotient of a numerator through zero or of a zero is the general path's (its row is 2.5 ulp, zero's sign).
    CHECK(decided > (op.core == CoreOp::Div ? 200 : 300));
    // A product or a sum with a zero is decided here (a product's zeros: the test below).
    if (op.core != CoreOp::Div) CHECK(decidedWithZero > 60);
    // Sums and products through zero: decided too (the correctly rounded rows; the quotients' are wide).
    if (op.core != CoreOp::Div) CHECK(decidedThrough > 60);
  }
}

TEST_CASE("a product with an exact zero: the fast path's zeros are exactly those judge() allows over the operands",
          "[numerics][enclosure]") {
  // The zeros of each sign in z, and values of each sign and magnitude in the other operand (its ends, its middle).
  const std::vector<ValueSet> zeros = {ValueSet::point(0.0), ValueSet::point(-0.0), range(-0.0, 0.0)};
  const std::vector<ValueSet> others = {ValueSet::point(3.5),    ValueSet::point(-0.75),  range(1.5, 2.0),
                                        range(-9.0, -0.125),     range(-1.0, 2.0),        range(-0x1p-140, 0x1p-139),
                                        ValueSet::point(0.0),    ValueSet::point(-0.0),   range(-0.0, 0.0),
                                        ValueSet::point(3.0e38), range(-3.0e38, -1.0e38), range(0.125, 5.0)};
  for (const ValueSet& z : zeros)
    for (const ValueSet& o : others)
      for (bool zeroFirst : {true, false}) {
        const std::vector<ValueSet> a = zeroFirst ? std::vector<ValueSet>{z, o} : std::vector<ValueSet>{o, z};
        INFO("operands " << toString(a[0]) << " " << toString(a[1]));
        const auto fast = detail::fastRangeSet(std::nullopt, CoreOp::Mul, a, Format::Float, Profile::Full, {});
        REQUIRE(fast);
        INFO("fast " << toString(*fast));
        CHECK_FALSE(fast->nan);
        CHECK(fast->lo == 0);
        CHECK(fast->hi == 0);
        // judge() (MPFR) at tuples inside the operands: every zero it allows is in the set, and each zero of the set
        // is one it allows somewhere (the set is exact, not only an enclosure).
        std::vector<double> zeroValues, otherValues = {o.lo, o.hi, (o.lo + o.hi) / 2};
        if (z.contains(0.0)) zeroValues.push_back(0.0);
        if (z.contains(-0.0)) zeroValues.push_back(-0.0);
        bool negative = false, positive = false;
        for (double zv : zeroValues)
          for (double ov : otherValues) {
            if (!o.contains(ov)) continue;
            const std::vector<double> v = zeroFirst ? std::vector<double>{zv, ov} : std::vector<double>{ov, zv};
            const Verdict want = judgeCore(CoreOp::Mul, v, 0.0, Format::Float, Profile::Full);
            INFO("tuple " << v[0] << " " << v[1] << " allowed [" << want.lo << ", " << want.hi << "]");
            REQUIRE_FALSE(want.anyValue);
            CHECK(want.lo == 0);
            CHECK(want.hi == 0);
            CHECK(fast->contains(want.lo));
            CHECK(fast->contains(want.hi));
            negative = negative || std::signbit(want.lo);
            positive = positive || !std::signbit(want.hi);
          }
        CHECK(fast->contains(-0.0) == negative);
        CHECK(fast->contains(0.0) == positive);
        // No wider than the general (MPFI) path, which keeps both zeros.
        const ValueSet g = detail::generalRangeSet(std::nullopt, CoreOp::Mul, a, Format::Float, Profile::Full, {});
        CHECK((!fast->contains(-0.0) || g.contains(-0.0)));
        CHECK((!fast->contains(0.0) || g.contains(0.0)));
        // Another profile's rows (an ulp around zero, other roundings): the general path's.
        CHECK_FALSE(detail::fastRangeSet(std::nullopt, CoreOp::Mul, a, Format::Float, Profile::Embedded, {}));
      }
}

TEST_CASE("a contracted sum's fast set is the hull of the sum's and the fma's fast range sets, or defers with them",
          "[numerics][enclosure]") {
  // The shadow mode's sums on lanes ask fastContractedSum once where the one-by-one rule asks fastRangeSet of the sum
  // and of the fma (FP_CONTRACT): both must give the same set, bit for bit, and defer together.
  std::mt19937_64 rng(11);
  auto randomFloat = [&](double lo, double hi) {
    return double(float(std::uniform_real_distribution<double>(lo, hi)(rng)));
  };
  auto operand = [&](int kind) {
    const double a = randomFloat(rng() % 2 ? -1e3 : 1e-3, 1e3);
    switch (kind) {
      case 0: return ValueSet::point(a);                                                   // a single value
      case 1: return ValueSet{a, double(stepF(float(a), int(rng() % 9))), false};          // a narrow range
      case 2: return ValueSet{-randomFloat(1, 2) * 1e-3, randomFloat(1, 2) * 1e-3, false};  // through zero
      case 3: return ValueSet::point(rng() % 2 ? 0.0 : -0.0);                              // a zero
      default: return ValueSet{a, a * 0x1p-130 + a, false};                                // subnormal-scale width
    }
  };
  int decided = 0, deferred = 0;
  for (const CoreOp core : {CoreOp::Add, CoreOp::Sub})
    for (const Profile profile : {Profile::Full, Profile::Embedded}) {
      const detail::ContractedSumRules rules = detail::contractedSumRules(core, Format::Float, profile, {});
      if (profile == Profile::Full) REQUIRE(rules.usable);
      if (!rules.usable) continue;
      for (int i = 0; i < 4000; ++i) {
        // The product's operands mostly single values (a loaded element times a coefficient), the addend a range.
        const ValueSet a = operand(i % 7 == 0 ? 1 : 0), b = operand(i % 11 == 0 ? 3 : 0);
        const ValueSet c = operand(1 + int(rng() % 4));
        // The unfused sum's operands: the rounded product (a single value, or a range) and the addend.
        const ValueSet p = operand(i % 5 == 0 ? 1 : 0);
        const bool addendFirst = i % 2 == 0;
        const ValueSet x = addendFirst ? c : p, y = addendFirst ? p : c;
        const ValueSet addend = core == CoreOp::Sub && !addendFirst ? ValueSet{-c.hi, -c.lo, c.nan} : c;
        const std::vector<ValueSet> sum = {x, y}, fused = {a, b, addend};
        const auto s1 = detail::fastRangeSet(std::nullopt, core, sum, Format::Float, profile, {});
        const auto s2 = detail::fastRangeSet(MathFn::fma, CoreOp::None, fused, Format::Float, profile, {});
        ValueSet got;
        const bool ok = detail::fastContractedSum(rules, x, y, fused[0], fused[1], fused[2], got);
        INFO(toString(x) << " , " << toString(y) << " ; fma " << toString(fused[0]) << " " << toString(fused[1]) << " "
                         << toString(fused[2]));
        REQUIRE(ok == (s1.has_value() && s2.has_value()));
        if (!ok) {
          ++deferred;
          continue;
        }
        ++decided;
        const ValueSet want = hull(*s1, *s2);
        CHECK(std::memcmp(&got.lo, &want.lo, 8) == 0);
        CHECK(std::memcmp(&got.hi, &want.hi, 8) == 0);
        CHECK(got.nan == want.nan);
      }
    }
  CHECK(decided > 4000);
  CHECK(deferred > 200);  // zeros, subnormal ends and the embedded profile's roundings defer
  // Formats, flushes and profiles the range path does not take: no rules.
  CHECK_FALSE(detail::contractedSumRules(CoreOp::Add, Format::Double, Profile::Full, {}).usable);
  VerdictOptions ftz;
  ftz.flushToZero = true;
  CHECK_FALSE(detail::contractedSumRules(CoreOp::Add, Format::Float, Profile::Full, ftz).usable);
  CHECK_FALSE(detail::contractedSumRules(CoreOp::Mul, Format::Float, Profile::Full, {}).usable);
}

TEST_CASE("the range path's batch form decides, bit for bit, what fastRangeSet decides for each tuple",
          "[numerics][enclosure]") {
  // The shadow mode's float rules on lanes ask fastRangeSets once for a chunk of lanes where the one-by-one rule asks
  // fastRangeSet for each: same sets, deferring together, for every operation and rule the range path takes.
  std::mt19937_64 rng(23);
  auto randomFloat = [&](double lo, double hi) {
    return double(float(std::uniform_real_distribution<double>(lo, hi)(rng)));
  };
  auto operand = [&]() {
    const double a = randomFloat(rng() % 2 ? -1e3 : 1e-3, 1e3);
    switch (rng() % 6) {
      case 0: return ValueSet::point(a);
      case 1: return ValueSet{a, double(stepF(float(a), int(rng() % 9))), false};
      case 2: return ValueSet{-randomFloat(1, 2) * 1e-3, randomFloat(1, 2) * 1e-3, false};
      case 3: return ValueSet::point(rng() % 2 ? 0.0 : -0.0);
      case 4: return ValueSet{a * 0x1p-140, a * 0x1p-139, false};  // subnormal ends
      default: return ValueSet{a, a * 0x1p+100, false};              // past the float range
    }
  };
  struct Op {
    std::optional<MathFn> fn;
    CoreOp core;
  };
  const Op ops[] = {{std::nullopt, CoreOp::Add}, {std::nullopt, CoreOp::Sub}, {std::nullopt, CoreOp::Mul},
                    {std::nullopt, CoreOp::Div}, {MathFn::fma, CoreOp::None},  {MathFn::mad, CoreOp::None}};
  int decided = 0, deferred = 0;
  for (const Op& op : ops)
    for (const Profile profile : {Profile::Full, Profile::Embedded}) {
      const detail::RangeRule rule = detail::rangeRuleOf(op.fn, op.core, Format::Float, profile, {});
      if (profile == Profile::Full) REQUIRE(rule.usable());
      if (!rule.usable()) {  // a row with terms the range path leaves to the general one: fastRangeSet defers too
        CHECK_FALSE(detail::fastRangeSet(op.fn, op.core, std::vector<ValueSet>(3, ValueSet{1, 2, false}), Format::Float,
                                         profile, {}));
        continue;
      }
      constexpr size_t kTuples = 3000;
      std::vector<std::vector<double>> lo(rule.arity, std::vector<double>(kTuples)), hi = lo;
      std::vector<std::vector<ValueSet>> tuples(kTuples);
      for (size_t i = 0; i < kTuples; ++i)
        for (uint32_t k = 0; k < rule.arity; ++k) {
          tuples[i].push_back(operand());
          lo[k][i] = tuples[i][k].lo;
          hi[k][i] = tuples[i][k].hi;
        }
      const double* los[4] = {};
      const double* his[4] = {};
      for (uint32_t k = 0; k < rule.arity; ++k) {
        los[k] = lo[k].data();
        his[k] = hi[k].data();
      }
      std::vector<double> setLo(kTuples), setHi(kTuples);
      std::vector<uint8_t> got(kTuples);
      detail::fastRangeSets(rule, kTuples, los, his, setLo.data(), setHi.data(), got.data());
      for (size_t i = 0; i < kTuples; ++i) {
        const auto want = detail::fastRangeSet(op.fn, op.core, tuples[i], Format::Float, profile, {});
        checkBatchTuple(got[i], setLo[i], setHi[i], want, decided, deferred);
      }
    }
  CHECK(decided > 5000);
  CHECK(deferred > 5000);
  // Formats, flushes and operations the range path does not take: no rule.
  CHECK_FALSE(detail::rangeRuleOf(std::nullopt, CoreOp::Add, Format::Double, Profile::Full, {}).usable());
  VerdictOptions ftz;
  ftz.flushToZero = true;
  CHECK_FALSE(detail::rangeRuleOf(std::nullopt, CoreOp::Add, Format::Float, Profile::Full, ftz).usable());
  CHECK_FALSE(detail::rangeRuleOf(MathFn::sin, CoreOp::None, Format::Float, Profile::Full, {}).usable());
}

TEST_CASE("the point path's batch form decides, bit for bit, what fastPointSet decides for each tuple",
          "[numerics][enclosure]") {
  // The shadow mode's float rules on lanes ask fastPointSets once for a chunk of lanes of single values where the
  // one-by-one rule asks fastPointSet for each.
  std::mt19937_64 rng(29);
  auto value = [&]() {
    const double a = double(float(std::uniform_real_distribution<double>(rng() % 2 ? -1e3 : 1e-3, 1e3)(rng)));
    switch (rng() % 8) {
      case 0: return rng() % 2 ? 0.0 : -0.0;
      case 1: return a * 0x1p-140;  // subnormal
      case 2: return double(INFINITY);
      case 3: return double(NAN);
      case 4: return a * 0x1p+90;  // large: quotients and products leave the float range
      default: return a;
    }
  };
  struct Op {
    std::optional<MathFn> fn;
    CoreOp core;
  };
  const Op ops[] = {{std::nullopt, CoreOp::Div}, {std::nullopt, CoreOp::Recip}, {MathFn::sqrt, CoreOp::None},
                    {MathFn::sin, CoreOp::None},  {MathFn::exp, CoreOp::None},   {MathFn::log, CoreOp::None},
                    {MathFn::fma, CoreOp::None},  {MathFn::mad, CoreOp::None},   {MathFn::native_sin, CoreOp::None}};
  int decided = 0, deferred = 0;
  for (const Op& op : ops)
    for (const Profile profile : {Profile::Full, Profile::Embedded}) {
      INFO((op.fn ? std::string(nameOf(*op.fn)) : std::string(toString(op.core))) << " " << int(profile));
      const detail::PointRule rule = detail::pointRuleOf(op.fn, op.core, Format::Float, profile, {});
      if (!rule.usable()) {  // a row the point path leaves to judge(): fastPointSet defers too
        CHECK_FALSE(detail::fastPointSet(op.fn, op.core, std::vector<double>(3, 1.5), Format::Float, profile, {}));
        continue;
      }
      constexpr size_t kTuples = 2000;
      std::vector<std::vector<double>> args(rule.arity, std::vector<double>(kTuples));
      for (size_t i = 0; i < kTuples; ++i)
        for (uint32_t k = 0; k < rule.arity; ++k) args[k][i] = value();
      const double* columns[3] = {};
      for (uint32_t k = 0; k < rule.arity; ++k) columns[k] = args[k].data();
      std::vector<double> setLo(kTuples), setHi(kTuples);
      std::vector<uint8_t> got(kTuples);
      detail::fastPointSets(rule, kTuples, columns, setLo.data(), setHi.data(), got.data());
      for (size_t i = 0; i < kTuples; ++i) {
        std::vector<double> tuple;
        for (uint32_t k = 0; k < rule.arity; ++k) tuple.push_back(args[k][i]);
        const auto want = detail::fastPointSet(op.fn, op.core, tuple, Format::Float, profile, {});
        checkBatchTuple(got[i], setLo[i], setHi[i], want, decided, deferred);
      }
    }
  CHECK(decided > 8000);
  CHECK(deferred > 8000);
  // The full profile's rows the point path takes; formats and flushes it does not.
  CHECK(detail::pointRuleOf(MathFn::sin, CoreOp::None, Format::Float, Profile::Full, {}).usable());
  CHECK(detail::pointRuleOf(MathFn::mad, CoreOp::None, Format::Float, Profile::Full, {}).usable());
  CHECK_FALSE(detail::pointRuleOf(MathFn::mad, CoreOp::None, Format::Float, Profile::Embedded, {}).usable());
  CHECK_FALSE(detail::pointRuleOf(MathFn::sin, CoreOp::None, Format::Double, Profile::Full, {}).usable());
  CHECK_FALSE(detail::pointRuleOf(std::nullopt, CoreOp::Add, Format::Float, Profile::Full, {}).usable());
  VerdictOptions ftz;
  ftz.flushToZero = true;
  CHECK_FALSE(detail::pointRuleOf(MathFn::sin, CoreOp::None, Format::Float, Profile::Full, ftz).usable());
}

TEST_CASE("enclosure: cross of float4 has w = 0.0 exactly, whatever the operands' sets", "[enclosure]") {
  // OpenCL C 3.0 §6.15.5 [[geometric-functions]] cross: "The w component of float4 result returned will be 0.0".
  const std::vector<ValueSet> p = {ValueSet{1, 2, false}, ValueSet::point(3), ValueSet::point(4), ValueSet{5, 9, false}};
  const std::vector<ValueSet> q = {ValueSet::point(-1), ValueSet{2, 3, false}, ValueSet::point(0.5), ValueSet::point(7)};
  const ValueSet w = allowedSetGeometric(CoreOp::Cross, p, q, 3, Format::Float, Profile::Full);
  CHECK(w.contains(0.0));
  CHECK(w.contains(-0.0));
  CHECK_FALSE(w.contains(0x1p-149));
  CHECK_FALSE(w.nan);
  // x = p.y·q.z − p.z·q.y = 1.5 − 4·[2, 3] = [−10.5, −6.5], within the row's bound: not any value.
  const ValueSet x = allowedSetGeometric(CoreOp::Cross, p, q, 0, Format::Float, Profile::Full);
  CHECK(x.contains(-10.5));
  CHECK(x.contains(-6.5));
  CHECK_FALSE(x.contains(0.0));
}
