// numerics::allowedSetOfSum (numerics/summation.hpp): the allowed set of a sum whose order is open must hold the sum
// computed in every order. The orders are enumerated here by brute force on the host (binary32 additions rounded to
// nearest even, every permutation and every parenthesisation of small lists), independently of the bound's formula.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <vector>

#include "numerics/summation.hpp"

using namespace clref::numerics;

namespace {

// Every value a binary32 sum of v (in this order of the leaves) takes over all parenthesisations.
std::set<float> treeSums(const std::vector<float>& v, size_t lo, size_t hi) {
  if (hi - lo == 1) return {v[lo]};
  std::set<float> out;
  for (size_t mid = lo + 1; mid < hi; ++mid)
    for (float a : treeSums(v, lo, mid))
      for (float b : treeSums(v, mid, hi)) out.insert(a + b);  // one binary32 addition, round to nearest even
  return out;
}

std::set<float> everyOrder(std::vector<float> v) {
  std::set<float> out;
  std::sort(v.begin(), v.end());
  do {
    for (float s : treeSums(v, 0, v.size())) out.insert(s);
  } while (std::next_permutation(v.begin(), v.end()));
  return out;
}

std::vector<ValueSet> points(const std::vector<float>& v) {
  std::vector<ValueSet> out;
  for (float x : v) out.push_back(ValueSet::point(x));
  return out;
}

}  // namespace

TEST_CASE("the sum of terms in any order lies in allowedSetOfSum", "[numerics][summation]") {
  std::mt19937 gen(20261129);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-30, 30);
  VerdictOptions noFlush;
  noFlush.flushToZero = false;
  for (int trial = 0; trial < 60; ++trial) {
    const size_t n = 3 + size_t(trial % 3);  // 3 to 5 terms: 6 to 1680 orders
    std::vector<float> v(n);
    for (auto& x : v) x = std::ldexp(unit(gen), trial % 2 ? exponent(gen) : 0);  // mixed magnitudes on odd trials
    const ValueSet set = allowedSetOfSum(points(v), Format::Float, Profile::Full, noFlush);
    INFO("trial " << trial);
    for (float s : everyOrder(v)) CHECK(set.contains(s));
    // Not vacuous: within 2 ulps of γ(n−1)·Σ|x| (rounded outward) of the exact sum.
    double exact = 0, magnitude = 0;
    for (float x : v) exact += double(x), magnitude += std::fabs(double(x));  // exact: few terms, wide double
    const double e = double(n - 1) * 0x1p-24 / (1 - double(n - 1) * 0x1p-24) * magnitude;
    CHECK(set.lo >= exact - e - 2 * std::ldexp(1.0, std::ilogb(magnitude) - 23));
    CHECK(set.hi <= exact + e + 2 * std::ldexp(1.0, std::ilogb(magnitude) - 23));
  }
}

TEST_CASE("allowedSetOfSum: special cases", "[numerics][summation]") {
  // No term: the identity +0; one term: itself; two: the addition's own rule (one correctly rounded result).
  CHECK(allowedSetOfSum({}, Format::Float, Profile::Full) == ValueSet::point(0.0));
  const std::vector<ValueSet> one = {ValueSet::point(0.1f)};
  CHECK(allowedSetOfSum(one, Format::Float, Profile::Full) == ValueSet::point(0.1f));
  const std::vector<ValueSet> two = {ValueSet::point(1.0f), ValueSet::point(0x1p-24f)};
  CHECK(allowedSetOfSum(two, Format::Float, Profile::Full).isPoint());
  CHECK(allowedSetOfSum(two, Format::Float, Profile::Full).contains(1.0));
  // An infinity or NaN among the terms: inf − inf is NaN in one order and not another: any value.
  const std::vector<ValueSet> inf = {ValueSet::point(INFINITY), ValueSet::point(-INFINITY), ValueSet::point(1.0)};
  CHECK(allowedSetOfSum(inf, Format::Float, Profile::Full).isAll());
  // Cancellation to zero: either zero's sign.
  const std::vector<ValueSet> cancel = {ValueSet::point(1.0), ValueSet::point(-1.0), ValueSet::point(0x1p-30)};
  const ValueSet c = allowedSetOfSum(cancel, Format::Float, Profile::Full);
  CHECK(c.contains(0x1p-30));
  CHECK(c.contains(0.0));
  // Terms with sets: the ends' sums. [1, 2] + [3, 4] + [0, 0] lies in [4, 6] up to the bound.
  const std::vector<ValueSet> ranges = {ValueSet{1, 2, false}, ValueSet{3, 4, false}, ValueSet::point(0)};
  const ValueSet r = allowedSetOfSum(ranges, Format::Float, Profile::Full);
  CHECK(r.contains(4.0));
  CHECK(r.contains(6.0));
  CHECK_FALSE(r.contains(6.001));
  CHECK_FALSE(r.contains(3.999));
  // Overflow: the sum of three FLT_MAX may be +inf.
  const std::vector<ValueSet> big(3, ValueSet::point(0x1.fffffep127));
  CHECK(allowedSetOfSum(big, Format::Float, Profile::Full).contains(INFINITY));
}
