// The registry of implementation-defined choices (numerics/choices.hpp): names, clauses, options and defaults,
// setting by name, each choice's option enum, the kinds, and the math choices in evaluate and judge.
#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cmath>
#include <vector>

#include "numerics/choices.hpp"
#include "numerics/math.hpp"
#include "numerics/verdict.hpp"

using namespace clref::numerics;

TEST_CASE("every choice has a name, a clause, options and a valid default", "[numerics][choices]") {
  const auto all = allChoices();
  REQUIRE(all.size() == size_t(Choice::Count));
  std::set<std::string_view> names;
  for (size_t i = 0; i < all.size(); ++i) {
    const auto& info = all[i];
    INFO("choice " << info.name);
    CHECK(size_t(info.choice) == i);  // registry order = enum order
    CHECK(&infoOf(info.choice) == &info);
    CHECK(!info.name.empty());
    CHECK(names.insert(info.name).second);
    CHECK(!info.clause.empty());
    CHECK(!info.description.empty());
    REQUIRE(!info.options[0].empty());
    REQUIRE(info.defaultOption < info.options.size());
    CHECK(!info.options[info.defaultOption].empty());
  }
}

TEST_CASE("a fresh Choices holds the documented defaults", "[numerics][choices]") {
  const Choices c;
  for (const auto& info : allChoices()) CHECK(c.get(info.choice) == info.defaultOption);
  CHECK(c.get<Choice::Mad>() == MadOption::Fused);
  CHECK(c.get<Choice::IntDivByZero>() == IntDivByZeroOption::Zero);
  CHECK(c.get<Choice::FloatToIntOutOfRange>() == FloatToIntOption::Saturate);
  CHECK(c.get<Choice::DefaultLocalSize>() == LocalSizeOption::LargestDivisor);
  const std::string d = c.describe();
  CHECK(d.find("mad=fused (default)") != std::string::npos);
}

TEST_CASE("Choices::set by name", "[numerics][choices]") {
  Choices c;
  c.set("mad=unfused");
  CHECK(c.get<Choice::Mad>() == MadOption::Unfused);
  CHECK(c.describe().find("mad=unfused\n") != std::string::npos);  // no "(default)" mark
  c.set("int_div_by_zero=dividend");
  CHECK(c.get<Choice::IntDivByZero>() == IntDivByZeroOption::Dividend);
  c.set("mad=fused");
  CHECK(c.get<Choice::Mad>() == MadOption::Fused);
  // Every option of every choice can be set by its name.
  for (const auto& info : allChoices())
    for (uint8_t i = 0; i < info.options.size() && !info.options[i].empty(); ++i) {
      c.set(std::string(info.name) + "=" + std::string(info.options[i]));
      CHECK(c.get(info.choice) == i);
    }
}

TEST_CASE("Choices::get returns each choice's own option enum", "[numerics][rules][choices]") {
  Choices c;
  static_assert(std::is_same_v<decltype(c.get<Choice::Mad>()), MadOption>);
  static_assert(std::is_same_v<decltype(c.get<Choice::FloatToIntOutOfRange>()), FloatToIntOption>);
  static_assert(std::is_same_v<decltype(c.get<Choice::DenormsAreZero>()), DenormsAreZeroOption>);
  c.set("mul24_out_of_range=full_product");
  CHECK(c.get<Choice::Mul24OutOfRange>() == Mul24Option::FullProduct);
  CHECK(uint8_t(c.get<Choice::Mul24OutOfRange>()) == c.get(Choice::Mul24OutOfRange));
}

TEST_CASE("Choices::set rejects bad names and options with the valid ones listed", "[numerics][choices]") {
  Choices c;
  auto message = [&](std::string_view s) -> std::string {
    try {
      c.set(s);
    } catch (const std::invalid_argument& e) { return e.what(); }
    return "(no exception)";
  };
  const std::string badName = message("madd=fused");
  CHECK(badName.find("madd") != std::string::npos);
  for (const auto& info : allChoices()) CHECK(badName.find(std::string(info.name)) != std::string::npos);

  const std::string badOption = message("mad=sometimes");
  CHECK(badOption.find("sometimes") != std::string::npos);
  CHECK(badOption.find("fused") != std::string::npos);
  CHECK(badOption.find("unfused") != std::string::npos);

  CHECK(message("mad") != "(no exception)");  // no '='
  CHECK(message("=fused") != "(no exception)");
  CHECK(message("mad=") != "(no exception)");
  CHECK_THROWS_AS(c.set(Choice::Mad, 2), std::invalid_argument);  // only 2 options
  CHECK_THROWS_AS(c.set(Choice::Mad, 200), std::invalid_argument);
  // A failed set leaves the value unchanged.
  CHECK(c.get<Choice::Mad>() == MadOption::Fused);
}

TEST_CASE("evaluate applies the choices for results the spec leaves open", "[numerics][choices]") {
  auto with = [](const char* assignment) {
    Choices c;
    c.set(assignment);
    return c;
  };
  const Choices defaults;
  auto eval = [](MathFn f, std::vector<double> args, const Choices& c) {
    return evaluate(f, args, Format::Float, Rounding::RTE, c);
  };

  // OpenCL C 3.0 §6.15.4 [[common-functions]] clamp(5, 3, 1): fmin(fmax(5, 3), 1) = 1, or fmax(fmin(5, 1), 3) = 3.
  CHECK(eval(MathFn::fclamp, {5, 3, 1}, defaults).value == 1.0);
  CHECK(eval(MathFn::fclamp, {5, 3, 1}, with("clamp_inverted_bounds=max_of_min")).value == 3.0);
  CHECK(eval(MathFn::fclamp, {5, 1, 3}, with("clamp_inverted_bounds=max_of_min")).value == 3.0);  // ordered: defined

  // smoothstep(2, 1, 1.5): t = clamp((1.5 - 2)/(1 - 2), 0, 1) = 0.5, t²(3 - 2t) = 0.5; or NaN.
  CHECK(eval(MathFn::smoothstep, {2, 1, 1.5}, defaults).value == 0.5);
  CHECK(std::isnan(eval(MathFn::smoothstep, {2, 1, 1.5}, with("smoothstep_inverted_edges=nan")).value));
  CHECK(eval(MathFn::smoothstep, {1, 2, 1.5}, with("smoothstep_inverted_edges=nan")).value == 0.5);  // ordered: defined

  // remquo(1000, 1): the integral quotient is 1000; its low 7 bits are 1000 mod 128 = 104.
  CHECK(eval(MathFn::remquo, {1000, 1}, defaults).integer == 104);
  CHECK(eval(MathFn::remquo, {-1000, 1}, defaults).integer == -104);
  CHECK(eval(MathFn::remquo, {1000, 1}, with("remquo_quotient_bits=31")).integer == 1000);
  CHECK(eval(MathFn::remquo, {-1000, 1}, with("remquo_quotient_bits=31")).integer == -1000);

  // lgamma_r's sign at NaN and -inf; at -2.5 Γ is negative (Γ(-2.5) = -0.945...), fixed.
  CHECK(eval(MathFn::lgamma_r, {std::nan("")}, defaults).integer == 0);
  CHECK(eval(MathFn::lgamma_r, {-INFINITY}, with("lgamma_sign_undefined=one")).integer == 1);
  CHECK(eval(MathFn::lgamma_r, {std::nan("")}, with("lgamma_sign_undefined=one")).integer == 1);
  CHECK(eval(MathFn::lgamma_r, {-2.5}, with("lgamma_sign_undefined=one")).integer == -1);

  // max/min (common functions) with an infinite or NaN operand.
  CHECK(eval(MathFn::fmax_common, {INFINITY, 1}, defaults).value == INFINITY);
  CHECK(std::isnan(eval(MathFn::fmax_common, {INFINITY, 1}, with("common_minmax_special=nan")).value));
  CHECK(std::isnan(eval(MathFn::fmin_common, {std::nan(""), 1}, with("common_minmax_special=nan")).value));
  CHECK(eval(MathFn::fmin_common, {2, 1}, with("common_minmax_special=nan")).value == 1.0);  // finite: defined

  // The exact path agrees (fast path or not).
  CHECK(evaluateExact(MathFn::remquo, std::vector<double>{1000, 1}, Format::Float, Rounding::RTE,
                      with("remquo_quotient_bits=31"))
            .integer == 1000);
}

// ---- Kinds: what the spec allows where each choice decides (ChoiceKind), checked against the verdict ----------------

namespace {

Choices with(Choice c, uint8_t option) {
  Choices ch;
  ch.set(c, option);
  return ch;
}
uint8_t optionCount(Choice c) {
  uint8_t n = 0;
  while (n < infoOf(c).options.size() && !infoOf(c).options[n].empty()) ++n;
  return n;
}
// The float `steps` representable values above x (ulp steps, x finite and positive).
double floatSteps(double x, int steps) {
  float f = float(x);
  for (int i = 0; i < steps; ++i) f = std::nextafter(f, INFINITY);
  return f;
}

}  // namespace

TEST_CASE("every choice has a kind: bound, set (limited to its options or not) or free", "[numerics][choices]") {
  for (const auto& info : allChoices()) {
    INFO(info.name);
    const ChoiceFreedom f = freedomOf(info.choice);
    CHECK((toString(f.kind) == "bound" || toString(f.kind) == "set" || toString(f.kind) == "free"));
    if (f.kind != ChoiceKind::Set) CHECK_FALSE(f.limitedToOptions);
    // The clause of a free choice says what frees the result.
    if (f.kind == ChoiceKind::Free) {
      const std::string clause(info.clause);
      const bool frees = clause.find("undefined") != std::string::npos || clause.find("unspecified") != std::string::npos ||
                         clause.find("no initial value") != std::string::npos ||
                         clause.find("different value") != std::string::npos ||
                         clause.find("gives none") != std::string::npos ||
                         clause.find("defined only") != std::string::npos ||
                         clause.find("programmer guarantees") != std::string::npos ||
                         clause.find("must") != std::string::npos ||
                         clause.find("can only be used") != std::string::npos ||
                         clause.find("can be used to make sure") != std::string::npos ||
                         clause.find("implementation-defined") != std::string::npos ||
                         clause.find("poison") != std::string::npos;
      CHECK(frees);
    }
  }
  CHECK(freedomOf(Choice::Mad).kind == ChoiceKind::Set);
  CHECK(freedomOf(Choice::Mad).limitedToOptions);
  CHECK(freedomOf(Choice::ClampInvertedBounds).kind == ChoiceKind::Free);
  CHECK(freedomOf(Choice::ReducedPrecisionFunctions).kind == ChoiceKind::Bound);
  // Linear filtering's precision: one option (the exact filter), the verdict's bound around it.
  CHECK(freedomOf(Choice::ImageFilterPrecision).kind == ChoiceKind::Bound);
  CHECK(infoOf(Choice::ImageFilterPrecision).name == "image_filter_precision");
  CHECK(infoOf(Choice::ImageFilterPrecision).options[0] == "exact");
  CHECK(infoOf(Choice::ImageFilterPrecision).options[1].empty());
  CHECK(infoOf(Choice::ImageFilterPrecision).clause.find("[[addressing-and-filter-modes]] NOTE") != std::string::npos);
}

TEST_CASE("the verdict allows the value of every option of the math choices, and of a free choice any value",
          "[numerics][choices][verdict]") {
  struct Case {
    Choice choice;
    MathFn fn;
    std::vector<double> args;  // operands where the choice decides
  };
  const std::vector<Case> cases = {
      {Choice::Mad, MathFn::mad, {1.0 + 0x1p-23, 1.0 + 0x1p-23, -1.0}},
      {Choice::ClampInvertedBounds, MathFn::fclamp, {5, 3, 1}},
      {Choice::SmoothstepInvertedEdges, MathFn::smoothstep, {2, 1, 1.5}},
      {Choice::CommonMinMaxSpecial, MathFn::fmax_common, {INFINITY, 2}},
      {Choice::CommonMinMaxSpecial, MathFn::fmin_common, {NAN, 2}},
      {Choice::ReducedPrecisionFunctions, MathFn::half_sin, {1.0}},
      {Choice::ReducedPrecisionFunctions, MathFn::half_exp, {2.5}},
  };
  for (const auto& c : cases) {
    INFO(infoOf(c.choice).name << " " << nameOf(c.fn));
    std::vector<double> values;
    for (uint8_t o = 0; o < optionCount(c.choice); ++o) {
      INFO("option " << infoOf(c.choice).options[o]);
      const double v = evaluate(c.fn, c.args, Format::Float, Rounding::RTE, with(c.choice, o)).value;
      values.push_back(v);
      CHECK(judge(c.fn, c.args, v, Format::Float, Profile::Full).allowed);
    }
    const ChoiceFreedom f = freedomOf(c.choice);
    if (f.kind == ChoiceKind::Free) {
      for (double any : {3.0, -7.5, double(NAN), double(INFINITY), -0.0})
        CHECK(judge(c.fn, c.args, any, Format::Float, Profile::Full).allowed);
    }
  }
}

TEST_CASE("a set choice limited to its options allows nothing else, a bound choice nothing beyond its bound",
          "[numerics][choices][verdict]") {
  // mad: fused ((1 + 2^-12)^2 - 1 = 2^-11 + 2^-24, exact in float) or unfused ((1 + 2^-11 + 2^-24) rounds to
  // even 1 + 2^-11 in float, minus 1 = 2^-11).
  const std::vector<double> args = {1.0 + 0x1p-12, 1.0 + 0x1p-12, -1.0};
  const double fused = evaluate(MathFn::mad, args, Format::Float, Rounding::RTE, with(Choice::Mad, 0)).value;
  const double unfused = evaluate(MathFn::mad, args, Format::Float, Rounding::RTE, with(Choice::Mad, 1)).value;
  CHECK(fused == 0x1p-11 + 0x1p-24);
  CHECK(unfused == 0x1p-11);
  CHECK_FALSE(judge(MathFn::mad, args, floatSteps(fused, 1), Format::Float, Profile::Full).allowed);
  CHECK_FALSE(judge(MathFn::mad, args, double(std::nextafter(float(unfused), 0.0f)), Format::Float, Profile::Full).allowed);

  // half_ functions: the correctly rounded value (the option) and anything within 8192 ulp; 8192 + a few is not.
  // ulp of sin(1) ~ 0.84 in float is 2^-24.
  const double s = evaluate(MathFn::half_sin, std::vector<double>{1.0}, Format::Float).value;
  CHECK(judge(MathFn::half_sin, std::vector<double>{1.0}, floatSteps(s, 8191), Format::Float, Profile::Full).allowed);
  CHECK_FALSE(judge(MathFn::half_sin, std::vector<double>{1.0}, floatSteps(s, 8194), Format::Float, Profile::Full).allowed);
}

TEST_CASE("every choice belongs to OpenCL, Vulkan or both", "[numerics][choices]") {
  size_t perApi[3] = {};
  for (const auto& info : allChoices()) {
    INFO(info.name);
    const auto api = apiOf(info.choice);
    CHECK(api == info.api);
    REQUIRE(size_t(api) < 3);
    ++perApi[size_t(api)];
    const std::string name(info.name);
    // The image, pipe and SVM choices concern OpenCL's objects; the GLSL.std.450 and vulkan_ ones shaders.
    if (name.rfind("image_", 0) == 0 || name.rfind("pipe_", 0) == 0 || name.rfind("svm_", 0) == 0)
      CHECK(api == ChoiceApi::OpenCL);
    if (name.rfind("glsl_", 0) == 0 || name.rfind("vulkan_", 0) == 0 || name.rfind("shader_", 0) == 0)
      CHECK(api == ChoiceApi::Vulkan);
  }
  CHECK(perApi[size_t(ChoiceApi::OpenCL)] > 0);
  CHECK(perApi[size_t(ChoiceApi::Vulkan)] >= 8);
  CHECK(perApi[size_t(ChoiceApi::Both)] > 0);
  CHECK(apiOf(Choice::Mad) == ChoiceApi::OpenCL);
  CHECK(apiOf(Choice::DenormsAreZero) == ChoiceApi::OpenCL);
  CHECK(apiOf(Choice::IntDivByZero) == ChoiceApi::Both);
  CHECK(apiOf(Choice::UndefValue) == ChoiceApi::Both);
  CHECK(apiOf(Choice::UninitialisedMemory) == ChoiceApi::Both);
  CHECK(apiOf(Choice::GlslRoundHalf) == ChoiceApi::Vulkan);
  CHECK(apiOf(Choice::GlslMinMaxNan) == ChoiceApi::Vulkan);
  CHECK(toString(ChoiceApi::OpenCL) == "OpenCL");
  CHECK(toString(ChoiceApi::Vulkan) == "Vulkan");
  CHECK(toString(ChoiceApi::Both) == "both");
  CHECK(appliesTo(ChoiceApi::Both, ChoiceApi::Vulkan));
  CHECK(appliesTo(ChoiceApi::OpenCL, ChoiceApi::OpenCL));
  CHECK_FALSE(appliesTo(ChoiceApi::OpenCL, ChoiceApi::Vulkan));
  CHECK_FALSE(appliesTo(ChoiceApi::Vulkan, ChoiceApi::OpenCL));
}

TEST_CASE("Vulkan's freedoms: names, options, defaults and kinds", "[numerics][choices]") {
  const Choices c;
  const auto check = [&](Choice ch, std::string_view name, std::vector<std::string_view> options, ChoiceKind kind) {
    const auto& info = infoOf(ch);
    INFO(name);
    CHECK(info.name == name);
    CHECK(optionCount(ch) == options.size());
    for (size_t i = 0; i < options.size(); ++i) CHECK(info.options[i] == options[i]);
    CHECK(c.get(ch) == 0);  // the first option is the default
    CHECK(freedomOf(ch).kind == kind);
    CHECK(info.clause.rfind("Vulkan ", 0) == 0);  // cites the Vulkan specification first
  };
  check(Choice::ShaderDenormals, "shader_denormals", {"preserve", "flush"}, ChoiceKind::Set);
  check(Choice::VulkanContraction, "vulkan_contraction", {"separate", "fuse"}, ChoiceKind::Set);
  check(Choice::VulkanNanInfSignedZero, "vulkan_nan_inf_signed_zero", {"ieee"}, ChoiceKind::Free);
  check(Choice::ShaderOutOfBounds, "shader_out_of_bounds", {"fault", "robust"}, ChoiceKind::Free);
  check(Choice::VulkanSRemSModNegative, "vulkan_srem_smod_negative", {"spirv", "fault"}, ChoiceKind::Free);
  check(Choice::VulkanFRemFMod, "vulkan_frem_fmod", {"exact", "formula"}, ChoiceKind::Bound);
  CHECK(freedomOf(Choice::ShaderDenormals).limitedToOptions);  // flushed or kept
  // The clause of vulkan_contraction says reassociation is allowed too, and that clref keeps the program's order.
  CHECK(infoOf(Choice::VulkanContraction).clause.find("associativity") != std::string_view::npos);
  CHECK(infoOf(Choice::VulkanContraction).description.find("keeps the program's order") != std::string_view::npos);
}
