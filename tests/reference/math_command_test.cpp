// `clref math` end to end: the correctly rounded result and exact value, verdicts with their
// exit status (0 allowed, 1 not allowed, 2 rejected input), --list and unknown functions.
#include <catch2/catch.hpp>

#include "clref_run.hpp"

using clref::reference::test::has;
using Run = clref::reference::test::CliResult;

namespace {

Run clrefMath(const std::string& args) { return clref::reference::test::runClref("math " + args); }

}  // namespace

TEST_CASE("clref math prints the correctly rounded result and the exact value", "[reference][cli][math]") {
  const Run r = clrefMath("sin 1 --type float");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(has(r.out, "result:   0x1.aed548p-1"));
  CHECK(has(r.out, "exact:    8.414709848078965066525023216302989996226e-01"));
  // Rounding toward +inf moves sin(1) up one step; raw bits name the operand.
  const Run up = clrefMath("sin 0x3f800000:bits --type float --rounding rtp");
  CHECK(has(up.out, "result:   0x1.aed54ap-1"));
  const Run d = clrefMath("exp 1 --type double");
  CHECK(has(d.out, "result:   0x1.5bf0a8b145769p+1"));
}

TEST_CASE("clref math prints the second outputs of frexp, modf, sincos", "[reference][cli][math]") {
  CHECK(has(clrefMath("frexp 12 --type float").out, "exponent: 4"));
  CHECK(has(clrefMath("modf -2.5 --type half").out, "integral: -0x1p+1"));
  CHECK(has(clrefMath("sincos 0 --type float").out, "cosine:   0x1p+0"));
}

TEST_CASE("clref math --check gives the verdict and its exit status", "[reference][cli][math]") {
  const Run ok = clrefMath("sin 1 --type float --check 0x1.aed54cp-1");  // 2 steps: 1.53 ulp
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  CHECK(has(ok.out, "verdict:  allowed"));
  CHECK(has(ok.out, "rule:     <= 4 ulp"));
  CHECK(has(ok.out, "numerical_compliance.asciidoc"));
  const Run bad = clrefMath("sin 1 --type float --check 0x1.aed558p-1");  // 8 steps: 7.53 ulp
  CHECK(bad.status == 1);
  CHECK(has(bad.out, "verdict:  NOT allowed"));
  CHECK(has(bad.out, "error:    7.53015 ulp"));
  // The relaxed profile's absolute error bound accepts it.
  CHECK(clrefMath("sin 1 --type float --check 0x1.aed558p-1 --profile relaxed").status == 0);
  // Any NaN for sqrt(-1).
  CHECK(clrefMath("sqrt --type float --check 0x7fc00001:bits -- -1").status == 0);
  CHECK(clrefMath("sqrt --type float --check 0 -- -1").status == 1);
}

TEST_CASE("clref math rejects unknown functions and wrong operands", "[reference][cli][math]") {
  const Run r = clrefMath("sine 1");
  CHECK(r.status == 2);
  CHECK(has(r.err, "unknown function 'sine'"));
  CHECK(has(r.err, "sincos"));
  CHECK(clrefMath("pow 1").status == 2);
  CHECK(clrefMath("sin abc").status == 2);
  const Run l = clrefMath("--list");
  CHECK(l.status == 0);
  CHECK(has(l.out, "\nsincos 1\n"));
  CHECK(has(l.out, "\nfma 3\n"));
}

TEST_CASE("clref math --choice decides the results the spec leaves open", "[reference][cli][math]") {
  // remquo(1000, 1): the quotient 1000; the spec asks for its low 7 bits (1000 mod 128 = 104).
  CHECK(has(clrefMath("remquo 1000 1").out, "quotient: 104"));
  CHECK(has(clrefMath("remquo 1000 1 --choice remquo_quotient_bits=31").out, "quotient: 1000"));
  // clamp(5, 3, 1) with minval > maxval: fmin(fmax(5, 3), 1) = 1 or fmax(fmin(5, 1), 3) = 3.
  CHECK(has(clrefMath("fclamp 5 3 1").out, "result:   0x1p+0"));
  CHECK(has(clrefMath("fclamp 5 3 1 --choice clamp_inverted_bounds=max_of_min").out, "result:   0x1.8p+1"));
  const Run bad = clrefMath("remquo 1 1 --choice remquo_quotient_bits=8");
  CHECK(bad.status == 2);
  CHECK(has(bad.err, "options: 7, 31"));
}

TEST_CASE("clref math judges undefined results and open zero signs; -0 operands; the mad choice", "[reference][cli][math]") {
  // OpenCL C 3.0 §6.15.4 [[common-functions]] clamp: "Results are undefined if minval > maxval" — any value is allowed.
  const Run clamp = clrefMath("fclamp 5 3 1 --check 3");
  INFO(clamp.out << clamp.err);
  CHECK(clamp.status == 0);
  CHECK(has(clamp.out, "allowed:  any value of the type, NaN included"));
  CHECK(has(clamp.out, "minval > maxval"));
  // "-0" is the negative zero, and fmin's zero sign is open: the allowed set shows both zeros.
  const Run zero = clrefMath("fmin -0 0 --check 0");
  CHECK(zero.status == 0);
  CHECK(has(zero.out, "fmin(-0x0p+0 (-0), 0x0p+0 (0))"));
  CHECK(has(zero.out, "allowed:  -0 or +0"));
  // --choice mad changes the reference value (a·b = 1 + 2^-11 + 2^-24 exactly: fused 0x1.0008p-11, unfused the
  // product rounds to 1 + 2^-11, then 2^-11); the verdict still allows both.
  CHECK(has(clrefMath("mad 0x1.001p0 0x1.001p0 -1").out, "result:   0x1.0008p-11"));
  const Run unfused = clrefMath("mad 0x1.001p0 0x1.001p0 -1 --choice mad=unfused --check 0x1.0008p-11");
  CHECK(unfused.status == 0);
  CHECK(has(unfused.out, "result:   0x1p-11"));
  // A NaN prints its bits: nan(5) puts the code in the significand of a quiet NaN (choice nan_payload).
  CHECK(has(clrefMath("nan 5 --type float").out, "result:   nan (bits 0x7fc00005)"));
  CHECK(has(clrefMath("nan 5 --type half").out, "result:   nan (bits 0x7e05)"));
  CHECK(has(clrefMath("nan 5 --type double").out, "result:   nan (bits 0x7ff8000000000005)"));
  CHECK(has(clrefMath("nan 5 --type float --choice nan_payload=default_nan").out, "result:   nan (bits 0x7fc00000)"));
  CHECK(has(clrefMath("sqrt -1 --type float --check 0x7fc00001:bits").out, "check:    nan (bits 0x7fc00001)"));
}
