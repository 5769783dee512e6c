#include <mpfr.h>

#include "numerics/half_arith.hpp"
#include "numerics/mpfr_round.hpp"

namespace clref::numerics {

// OpenCL C 3.0 §6.15.2 [[math-functions]] fma: "the infinitely precise product and sum ... rounded once".
Half fmaHalf(Half a, Half b, Half c) {
  // a·b + c is a multiple of 2^-48 below 2^33: 81 bits, so 128 bits hold it exactly and the
  // only rounding is the one to binary16. That rounding is done by roundToHalf, which rounds
  // in the wide exponent range first and only then narrows it to binary16's: the MPFR manual
  // makes a variable outside the current exponent range undefined behaviour, and the exact
  // sum can be as large as 2^33 or as small as 2^-48.
  // The exact steps must not depend on a range a caller may have narrowed: use MPFR's widest.
  ExponentRangeGuard wide(mpfr_get_emin_min(), mpfr_get_emax_max());
  Mpfr x(128), y(11), z(11);
  setExact(x.get(), a);
  setExact(y.get(), b);
  setExact(z.get(), c);
  mpfr_mul(x, x, y, MPFR_RNDN);  // exact at 128 bits
  mpfr_add(x, x, z, MPFR_RNDN);  // exact at 128 bits
  return roundToHalf(x, Rounding::RTE);
}

}  // namespace clref::numerics
