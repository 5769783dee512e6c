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
  Integer f, r;
  divide_qr(numerator(q), denominator(q), f, r);  // truncated toward zero; r has the numerator's sign
  if (r < 0) f -= 1;
  return f;
}

}  // namespace clref::images
