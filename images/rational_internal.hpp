// Exact rationals and integers of the images module (internal): Boost.Multiprecision's numbers over GMP, so that the
// exact paths read like the spec's formulas (frac(u − 0.5), the weights a and 1 − a, the weighted sums).
#pragma once
#include <boost/multiprecision/gmp.hpp>

#include <cstdint>

namespace clref::images {

// Boost.Multiprecision's GMP-backed rational and integer, spelled by their backends.
using Rational = boost::multiprecision::number<boost::multiprecision::gmp_rational>;
using Integer = boost::multiprecision::number<boost::multiprecision::gmp_int>;

// floor(q): the quotient of numerator by denominator (positive) rounded toward −∞.
inline Integer floorOf(const Rational& q) {
  const Integer n = numerator(q), d = denominator(q);
  Integer f = n / d;  // truncated toward zero
  if (f * d > n) f -= 1;
  return f;
}

// q · 2^e, exactly.
inline Rational timesPow2(const Rational& q, int e) {
  if (e >= 0) return q * Rational(Integer(1) << unsigned(e));
  return q / Rational(Integer(1) << unsigned(-e));
}

}  // namespace clref::images
