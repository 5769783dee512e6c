// `clref math` end to end: the correctly rounded result and exact value, verdicts with their
// exit status (0 allowed, 1 not allowed, 2 rejected input), --list and unknown functions.
#include <catch2/catch.hpp>

#include "clref_run.hpp"

using clref::cli::test::has;
using Run = clref::cli::test::CliResult;

namespace {

Run clrefMath(const std::string& args) { return clref::cli::test::runClref("math " + args); }

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

TEST_CASE("clref math judges undefined results and open zero signs, -0 operands, the mad choice", "[reference][cli][math]") {
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

TEST_CASE("clref math: the core instructions, correctly rounded or within their ulp rows", "[reference][cli][math]") {
  // 1 + 2^-24 lies halfway between 1 and 1 + 2^-23: round to nearest even gives 1, and nothing else is allowed.
  const Run add = clrefMath("add 1 0x1p-24");
  CHECK(has(add.out, "result:   0x1p+0 (1)"));
  CHECK(has(add.out, "exact:    1.000000059604644775390625"));
  CHECK(clrefMath("add 1 0x1p-24 --check 1").status == 0);
  CHECK(clrefMath("add 1 0x1p-24 --check 0x1.000002p+0").status == 1);
  CHECK(has(clrefMath("add 1 0x1p-24 --rounding rtp").out, "result:   0x1.000002p+0"));
  // 1/3: 0x1.555556p-2 is 1/3 ulp above the exact value (0x1.5555555...p-2); the row allows 2.5 ulp, so 2 ulp above
  // (2.33 from the exact value) is allowed and 3 ulp above (3.33) is not.
  CHECK(clrefMath("div 1 3 --check 0x1.55555ap-2").status == 0);
  CHECK(clrefMath("div 1 3 --check 0x1.55555cp-2").status == 1);
  // -cl-fp32-correctly-rounded-divide-sqrt makes the division correctly rounded.
  CHECK(clrefMath("div 1 3 --check 0x1.55555ap-2 --options -cl-fp32-correctly-rounded-divide-sqrt").status == 1);
  // OpFRem has the dividend's sign, OpFMod the divisor's: -5 rem 3 = -2, mod = 1.
  CHECK(has(clrefMath("frem -5 3").out, "result:   -0x1p+1 (-2)"));
  CHECK(has(clrefMath("fmod_spirv -5 3").out, "result:   0x1p+0 (1)"));
  CHECK(clrefMath("fmod_spirv -5 3 --check -2").status == 1);
}

TEST_CASE("clref math convert: every type pair, rounding mode and saturation", "[reference][cli][math]") {
  // Float to int rounds toward zero by default (OpenCL C 3.0 §6.4.3.2 [[rounding-modes]]), ties to even with _rte.
  CHECK(has(clrefMath("convert 2.7 --type float --to int").out, "result:   2\n"));
  CHECK(has(clrefMath("convert 2.5 --type float --to int --rounding rte").out, "result:   2\n"));
  CHECK(has(clrefMath("convert 3.5 --type float --to int --rounding rte").out, "result:   4\n"));
  CHECK(clrefMath("convert 2.7 --type float --to int --check 3").status == 1);
  // Out of range: with _sat the nearest value, without it any value is allowed.
  CHECK(has(clrefMath("convert 3e10 --type float --to int --sat").out, "result:   2147483647\n"));
  const Run free = clrefMath("convert 3e10 --type float --to int --check 5");
  CHECK(free.status == 0);
  CHECK(has(free.out, "implementation-defined"));
  // Integers: 300 to uchar keeps the low bits (44), saturates to 255.
  CHECK(has(clrefMath("convert 300 --type int --to uchar").out, "result:   44\n"));
  CHECK(has(clrefMath("convert 300 --type int --to uchar --sat").out, "result:   255\n"));
  CHECK(has(clrefMath("convert -1 --type int --to uint").out, "result:   4294967295\n"));
  // 2^24 + 1 is not a float: to nearest even 2^24, toward +inf 2^24 + 2.
  CHECK(has(clrefMath("convert 16777217 --type int --to float").out, "result:   0x1p+24"));
  CHECK(has(clrefMath("convert 16777217 --type int --to float --rounding rtp").out, "result:   0x1.000002p+24"));
  CHECK(clrefMath("convert 16777217 --type int --to float --check 0x1.000002p+24").status == 1);
  // double to float: 1 + 0.75·2^-23 rounds to 1 + 2^-23 to nearest, 1 toward zero.
  CHECK(clrefMath("convert 0x1.0000018p+0 --type double --to float --check 0x1.000002p+0").status == 0);
  CHECK(clrefMath("convert 0x1.0000018p+0 --type double --to float --check 1").status == 1);
  CHECK(clrefMath("convert 0x1.0000018p+0 --type double --to float --rounding rtz --check 1").status == 0);
  CHECK(clrefMath("convert 1 --type float --to bool").status == 2);
}

TEST_CASE("clref math: geometric functions, second results and build options", "[reference][cli][math]") {
  // length(3, 4) = 5 exactly; the float row is 2.75 + 0.5·n ulp = 3.75 ulp for n = 2, and ulp(5) = 2^-21: 3 steps of
  // 2^-21 either side are allowed, 4 are not.
  CHECK(clrefMath("length 3,4 --check 0x1.400006p+2").status == 0);
  CHECK(clrefMath("length 3,4 --check 0x1.400008p+2").status == 1);
  const Run cross = clrefMath("cross 1,0,0 0,1,0 --check 0,0,1");
  CHECK(cross.status == 0);
  CHECK(has(cross.out, "result:   0x0p+0 (0), 0x0p+0 (0), 0x1p+0 (1)"));
  CHECK(clrefMath("dot 1,2 3,4 --check 11").status == 0);
  CHECK(clrefMath("dot 1,2 3,4 --check 12").status == 1);
  // Second results: sincos's cosine within cos's 4 ulp (cos(1) = 0x1.14a280fb...p-1 rounds to 0x1.14a28p-1; 5 ulp
  // above is 4.5 or more from the exact value); frexp's exponent exactly; remquo's sign and seven low bits.
  CHECK(clrefMath("sincos 1 --check-second 0x1.14a284p-1").status == 0);
  CHECK(clrefMath("sincos 1 --check-second 0x1.14a28ap-1").status == 1);
  CHECK(clrefMath("frexp 8 --check-second 4").status == 0);
  CHECK(clrefMath("frexp 8 --check-second 3").status == 1);
  CHECK(clrefMath("remquo 1000 1 --check-second 232").status == 0);  // 232 = 104 + 128: the same seven low bits
  CHECK(clrefMath("remquo 1000 1 --check-second 105").status == 1);
  CHECK(clrefMath("sin 1 --check-second 1").status == 2);
  // -cl-fast-relaxed-math: sin within 2^-11 absolute (the relaxed table), so 2^-12 off is allowed there only.
  CHECK(clrefMath("sin 1 --check 0x1.aeb548p-1").status == 1);
  CHECK(clrefMath("sin 1 --check 0x1.aeb548p-1 --options -cl-fast-relaxed-math").status == 0);
  CHECK(clrefMath("sin 1 --options -cl-bogus --check 0").status == 2);
}

TEST_CASE("clref math: -cl-finite-math-only and -cl-no-signed-zeros free what they say", "[reference][cli][math]") {
  // OpenCL 3.0 API §5.8.6.3 [[optimization-options]].
  CHECK(clrefMath("exp inf --check 5").status == 1);
  CHECK(clrefMath("exp inf --check 5 --options -cl-finite-math-only").status == 0);
  CHECK(clrefMath("exp 1 --check 5 --options -cl-finite-math-only").status == 1);  // finite: the table still holds
  CHECK(clrefMath("sub 1 1 --check -0").status == 1);
  CHECK(clrefMath("sub 1 1 --check -0 --options -cl-no-signed-zeros").status == 0);
  CHECK(clrefMath("sub 1 1 --check -0 --options -cl-fast-relaxed-math").status == 0);
}

TEST_CASE("clref math: integer built-ins and relational functions, exact (mul24 beyond 24 bits free)",
          "[reference][cli][math]") {
  // Values by hand from OpenCL C 3.0 §6.15.3 [[integer-functions]] and §6.15.6 [[relational-functions]].
  CHECK(has(clrefMath("add_sat 2147483647 1 --type int").out, "result:   2147483647\n"));
  CHECK(has(clrefMath("add_sat 250 10 --type uchar").out, "result:   255\n"));
  CHECK(has(clrefMath("hadd 7 8 --type int").out, "result:   7\n"));    // (7 + 8) >> 1
  CHECK(has(clrefMath("rhadd 7 8 --type int").out, "result:   8\n"));   // (7 + 8 + 1) >> 1
  CHECK(has(clrefMath("clz 1 --type uint").out, "result:   31\n"));
  CHECK(has(clrefMath("popcount 255 --type ushort").out, "result:   8\n"));
  CHECK(has(clrefMath("abs -128 --type char").out, "result:   128\n"));  // uchar result
  CHECK(has(clrefMath("mul_hi 0x40000000 8 --type uint").out, "result:   2\n"));
  CHECK(has(clrefMath("upsample 1 2 --type short").out, "result:   65538\n"));
  CHECK(has(clrefMath("rotate 0x80000001 1 --type uint").out, "result:   3\n"));
  CHECK(clrefMath("sub_sat -128 1 --type char --check -128").status == 0);
  CHECK(clrefMath("sub_sat -128 1 --type char --check 127").status == 1);
  // Relational: int results; comparisons with NaN are false, isunordered true.
  CHECK(has(clrefMath("isless 1 nan --type float").out, "result:   0\n"));
  CHECK(has(clrefMath("isunordered 1 nan --type float").out, "result:   1\n"));
  CHECK(has(clrefMath("signbit -0 --type double").out, "result:   1\n"));
  CHECK(clrefMath("isequal -0 0 --type float --check 1").status == 0);
  CHECK(has(clrefMath("select 1 2 -1 --type int").out, "result:   2\n"));
  CHECK(has(clrefMath("bitselect 0xf0 0x0f 0x3c --type uint").out, "result:   204\n"));  // 0xcc
  // mul24 with an operand beyond 24 bits: implementation-defined.
  const Run m = clrefMath("mul24 0x1000000 3 --type int --check 7");
  CHECK(m.status == 0);
  CHECK(has(m.out, "implementation-defined"));
  CHECK(clrefMath("mul24 5 3 --type int --check 16").status == 1);
  CHECK(clrefMath("clz 1 --type float").status == 2);
}
