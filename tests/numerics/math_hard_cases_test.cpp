// Hard-to-round inputs: among many random float inputs, the ones whose exact value of a math
// function lies closest to a rounding boundary (a midpoint between floats for
// round-to-nearest) are found with MPFR at 256 bits, then evaluate() — whose binary64 fast
// path must give up on exactly these — is compared with that 256-bit value rounded here.
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include <mpfr.h>

#include "numerics/math.hpp"

using namespace clref::numerics;

namespace {

struct Candidate {
  double x, y;
  double distance;  // |exact − nearest midpoint| in float ulps
  float expected;
};

// f(x[, y]) at 256 bits.
void exact256(MathFn f, double x, double y, mpfr_t out) {
  mpfr_t a, b;
  mpfr_inits2(256, a, b, (mpfr_ptr) nullptr);
  mpfr_set_d(a, x, MPFR_RNDN);
  mpfr_set_d(b, y, MPFR_RNDN);
  switch (f) {
    case MathFn::sin: mpfr_sin(out, a, MPFR_RNDN); break;
    case MathFn::cos: mpfr_cos(out, a, MPFR_RNDN); break;
    case MathFn::tan: mpfr_tan(out, a, MPFR_RNDN); break;
    case MathFn::exp: mpfr_exp(out, a, MPFR_RNDN); break;
    case MathFn::exp2: mpfr_exp2(out, a, MPFR_RNDN); break;
    case MathFn::exp10: mpfr_exp10(out, a, MPFR_RNDN); break;
    case MathFn::expm1: mpfr_expm1(out, a, MPFR_RNDN); break;
    case MathFn::log: mpfr_log(out, a, MPFR_RNDN); break;
    case MathFn::log2: mpfr_log2(out, a, MPFR_RNDN); break;
    case MathFn::log10: mpfr_log10(out, a, MPFR_RNDN); break;
    case MathFn::log1p: mpfr_log1p(out, a, MPFR_RNDN); break;
    case MathFn::asin: mpfr_asin(out, a, MPFR_RNDN); break;
    case MathFn::acos: mpfr_acos(out, a, MPFR_RNDN); break;
    case MathFn::atan: mpfr_atan(out, a, MPFR_RNDN); break;
    case MathFn::sinh: mpfr_sinh(out, a, MPFR_RNDN); break;
    case MathFn::cosh: mpfr_cosh(out, a, MPFR_RNDN); break;
    case MathFn::tanh: mpfr_tanh(out, a, MPFR_RNDN); break;
    case MathFn::asinh: mpfr_asinh(out, a, MPFR_RNDN); break;
    case MathFn::acosh: mpfr_acosh(out, a, MPFR_RNDN); break;
    case MathFn::atanh: mpfr_atanh(out, a, MPFR_RNDN); break;
    case MathFn::cbrt: mpfr_cbrt(out, a, MPFR_RNDN); break;
    case MathFn::erf: mpfr_erf(out, a, MPFR_RNDN); break;
    case MathFn::erfc: mpfr_erfc(out, a, MPFR_RNDN); break;
    case MathFn::tgamma: mpfr_gamma(out, a, MPFR_RNDN); break;
    case MathFn::sqrt: mpfr_sqrt(out, a, MPFR_RNDN); break;
    case MathFn::rsqrt: mpfr_rec_sqrt(out, a, MPFR_RNDN); break;
    case MathFn::sinpi: mpfr_sinpi(out, a, MPFR_RNDN); break;
    case MathFn::cospi: mpfr_cospi(out, a, MPFR_RNDN); break;
    case MathFn::atan2: mpfr_atan2(out, a, b, MPFR_RNDN); break;
    case MathFn::hypot: mpfr_hypot(out, a, b, MPFR_RNDN); break;
    default: mpfr_pow(out, a, b, MPFR_RNDN); break;
  }
  mpfr_clears(a, b, (mpfr_ptr) nullptr);
}

// For a normal-range float result: the nearest float (ties to even, decided from 256 bits) and
// the distance of the exact value to the nearest midpoint, in float ulps.
Candidate judge(MathFn f, double x, double y) {
  mpfr_t v, scaled;
  mpfr_inits2(256, v, scaled, (mpfr_ptr) nullptr);
  exact256(f, x, y, v);
  Candidate c{x, y, 1e9, 0};
  if (mpfr_number_p(v) && !mpfr_zero_p(v)) {
    const mpfr_exp_t e = mpfr_get_exp(v);  // v = m·2^e, |m| in [0.5, 1)
    if (e > -125 && e < 128) {
      mpfr_mul_2si(scaled, v, 24 - e, MPFR_RNDN);  // exact: |scaled| in [2^23, 2^24)
      mpfr_t fr;
      mpfr_init2(fr, 256);
      mpfr_frac(fr, scaled, MPFR_RNDN);
      const double frac = std::fabs(mpfr_get_d(fr, MPFR_RNDN));  // position between two floats
      c.distance = std::fabs(frac - 0.5);
      mpfr_rint(scaled, scaled, MPFR_RNDN);
      c.expected = float(std::ldexp(mpfr_get_d(scaled, MPFR_RNDN), int(e) - 24));
      mpfr_clear(fr);
    }
  }
  mpfr_clears(v, scaled, (mpfr_ptr) nullptr);
  return c;
}

}  // namespace

TEST_CASE("hardest-to-round float inputs of 31 math functions among random ones", "[math][hard]") {
  std::mt19937_64 rng(2026);
  const MathFn functions[] = {MathFn::sin,   MathFn::cos,   MathFn::tan,   MathFn::exp,   MathFn::exp2,  MathFn::exp10,
                              MathFn::expm1, MathFn::log,   MathFn::log2,  MathFn::log10, MathFn::log1p, MathFn::asin,
                              MathFn::acos,  MathFn::atan,  MathFn::sinh,  MathFn::cosh,  MathFn::tanh,  MathFn::asinh,
                              MathFn::acosh, MathFn::atanh, MathFn::cbrt,  MathFn::erf,   MathFn::erfc,  MathFn::tgamma,
                              MathFn::sqrt,  MathFn::rsqrt, MathFn::sinpi, MathFn::cospi, MathFn::atan2, MathFn::hypot,
                              MathFn::pow};
  for (MathFn f : functions) {
    std::vector<Candidate> all;
    const int samples =
        (f == MathFn::sin || f == MathFn::cos || f == MathFn::exp || f == MathFn::log || f == MathFn::pow) ? (1 << 14)
                                                                                                           : (1 << 11);
    for (int i = 0; i < samples; ++i) {
      double x, y = 0;
      // Operands where the function is finite and its float result normal.
      const double u = double(rng() >> 11) * 0x1p-53;  // [0, 1)
      switch (f) {
        case MathFn::exp:
        case MathFn::exp2:
        case MathFn::exp10:
        case MathFn::expm1:
        case MathFn::sinh:
        case MathFn::cosh: x = std::ldexp(double(int32_t(rng() % 2000000) - 1000000), -15); break;
        case MathFn::log:
        case MathFn::log2:
        case MathFn::log10:
        case MathFn::sqrt:
        case MathFn::rsqrt:
        case MathFn::cbrt: x = std::bit_cast<float>(uint32_t(0x00800000u + rng() % 0x7e800000u)); break;
        case MathFn::log1p:
        case MathFn::acosh: x = 1.0 + 1000 * u; break;
        case MathFn::asin:
        case MathFn::acos:
        case MathFn::atanh:
        case MathFn::erf: x = 2 * u - 1; break;
        case MathFn::erfc: x = 8 * u - 2; break;
        case MathFn::tgamma: x = 0.5 + 30 * u; break;
        case MathFn::sinpi:
        case MathFn::cospi: x = 8 * u - 4; break;
        case MathFn::atan2:
        case MathFn::hypot:
          x = 200 * u - 100;
          y = double(rng() >> 11) * 0x1p-53 * 100 + 0.25;
          break;
        case MathFn::pow:
          x = std::ldexp(double(rng() % 1000000 + 1), -16);
          y = std::ldexp(double(int32_t(rng() % 400000) - 200000), -14);
          break;
        default: x = std::bit_cast<float>(uint32_t(rng() % 0x4b000000u)) * ((rng() & 1) ? 1 : -1); break;
      }
      x = double(float(x));
      y = double(float(y));
      all.push_back(judge(f, x, y));
    }
    std::partial_sort(all.begin(), all.begin() + 32, all.end(),
                      [](auto& a, auto& b) { return a.distance < b.distance; });
    for (int i = 0; i < 32; ++i) {
      const Candidate& c = all[size_t(i)];
      if (c.distance > 1) continue;  // outside the normal float range
      double args[2] = {c.x, c.y};
      const double got = evaluate(f, {args, size_t(arity(f))}, Format::Float).value;
      INFO(nameOf(f) << "(" << c.x << ", " << c.y << ") is " << c.distance << " float ulp from a midpoint");
      CHECK(std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(double(c.expected)));
    }
    INFO(nameOf(f) << ": hardest case " << all[0].distance << " ulp from a midpoint");
    CHECK(all[0].distance < 1e-2);  // the search did find close cases
  }
}
