// requirementsFor: the rows that apply to a function in a format and profile.
#include <catch2/catch.hpp>

#include <cmath>

#include "numerics/accuracy.hpp"

using namespace clref::numerics;

namespace {

using Rows = std::vector<const AccuracyRequirement*>;

const AccuracyRequirement* from(const Rows& rows, Document d, bool inTable = true) {
  for (auto* r : rows)
    if (r->document == d && r->table.empty() != inTable) return r;
  return nullptr;
}

}  // namespace

TEST_CASE("sin, float, full profile: 4 ulp in both documents", "[accuracy]") {
  Rows rows = requirementsFor(MathFn::sin, Format::Float, Profile::Full);
  REQUIRE(rows.size() == 2);
  for (auto* r : rows) {
    CHECK(r->kind == BoundKind::Ulps);
    CHECK(r->ulps == 4);
    CHECK(r->text == "<= 4 ulp");
  }
  CHECK(from(rows, Document::SpirvEnv)->source.find("Full Profile") != std::string_view::npos);
  CHECK(from(rows, Document::OpenCLC)->table == "table-ulp-float-math");
}

TEST_CASE("relaxed float: exp is 3 + floor(fabs(2x)) ulp, sin is absolute 2^-11 on [-pi, pi]", "[accuracy]") {
  Rows exp = requirementsFor(MathFn::exp, Format::Float, Profile::Relaxed);
  REQUIRE(exp.size() == 2);
  for (auto* r : exp) {
    CHECK(r->kind == BoundKind::Ulps);
    CHECK(r->ulps == 3);
    CHECK(r->plusFloorAbs2x);
  }
  // Embedded + unsafe math: the documents disagree (4 + floor(fabs(2x)) vs 4 ulp).
  Rows expE = requirementsFor(MathFn::exp, Format::Float, Profile::RelaxedEmbedded);
  REQUIRE(expE.size() == 2);
  CHECK(from(expE, Document::SpirvEnv)->ulps == 4);
  CHECK(from(expE, Document::SpirvEnv)->plusFloorAbs2x);
  CHECK(from(expE, Document::OpenCLC)->ulps == 4);
  CHECK_FALSE(from(expE, Document::OpenCLC)->plusFloorAbs2x);

  Rows sin = requirementsFor(MathFn::sin, Format::Float, Profile::Relaxed);
  REQUIRE(sin.size() == 2);
  for (auto* r : sin) {
    CHECK(r->kind == BoundKind::Absolute);
    CHECK(r->absolute == 0x1p-11);
    CHECK(r->domain.x->contains(3.0));
    CHECK_FALSE(r->domain.x->contains(3.2));
    CHECK(r->otherwiseUlps < 0);
  }
  // log: absolute 2^-21 on [0.5, 2], otherwise 3 ulp (full) / 4 ulp (embedded).
  Rows log = requirementsFor(MathFn::log, Format::Float, Profile::Relaxed);
  REQUIRE(log.size() == 2);
  CHECK(log[0]->absolute == 0x1p-21);
  CHECK(log[0]->otherwiseUlps == 3);
  CHECK(requirementsFor(MathFn::log, Format::Float, Profile::RelaxedEmbedded)[0]->otherwiseUlps == 4);
}

TEST_CASE("relaxed falls back to the full/embedded tables for what it does not list", "[accuracy]") {
  // erf is not in the unsafe-math tables: the full profile's 16 ulp.
  Rows erf = requirementsFor(MathFn::erf, Format::Float, Profile::Relaxed);
  REQUIRE(erf.size() == 2);
  for (auto* r : erf) {
    CHECK(r->profile == Profile::Full);
    CHECK(r->ulps == 16);
  }
  // The unsafe-math tables are single precision only: double sin stays 4 ulp.
  Rows dsin = requirementsFor(MathFn::sin, Format::Double, Profile::Relaxed);
  REQUIRE(dsin.size() == 2);
  for (auto* r : dsin) CHECK(r->ulps == 4);
  // Embedded + relaxed falls back to the embedded table.
  Rows rsqrt = requirementsFor(MathFn::rsqrt, Format::Float, Profile::RelaxedEmbedded);
  REQUIRE(rsqrt.size() == 2);
  for (auto* r : rsqrt) {
    CHECK(r->profile == Profile::Embedded);
    CHECK(r->ulps == 4);
  }
}

TEST_CASE("sqrt and divide: 3 / 2.5 ulp, or correctly rounded with -cl-fp32-correctly-rounded-divide-sqrt",
          "[accuracy]") {
  Rows sqrt = requirementsFor(MathFn::sqrt, Format::Float, Profile::Full);
  REQUIRE(sqrt.size() == 2);
  for (auto* r : sqrt) CHECK(r->ulps == 3);
  Rows cr = requirementsFor(MathFn::sqrt, Format::Float, Profile::Full, {.fp32CorrectlyRoundedDivideSqrt = true});
  REQUIRE(cr.size() == 1);
  CHECK(cr[0]->kind == BoundKind::CorrectlyRounded);
  CHECK(cr[0]->document == Document::OpenCLApi);
  CHECK(cr[0]->condition == Condition::Fp32CorrectlyRoundedDivideSqrt);
  Rows crDiv = requirementsFor(CoreOp::Div, Format::Float, Profile::Relaxed, {.fp32CorrectlyRoundedDivideSqrt = true});
  REQUIRE(crDiv.size() == 1);
  CHECK(crDiv[0]->kind == BoundKind::CorrectlyRounded);
  // The option is single precision only; double sqrt is correctly rounded anyway.
  Rows dsqrt = requirementsFor(MathFn::sqrt, Format::Double, Profile::Full, {.fp32CorrectlyRoundedDivideSqrt = true});
  REQUIRE(dsqrt.size() == 2);
  for (auto* r : dsqrt) CHECK(r->kind == BoundKind::CorrectlyRounded);
  CHECK(from(dsqrt, Document::OpenCLC)->name == "fsqrt");

  Rows div = requirementsFor(CoreOp::Div, Format::Float, Profile::Full);
  REQUIRE(div.size() == 2);
  for (auto* r : div) CHECK(r->ulps == 2.5);
  // 1.0 / x: the SPIR-V full table has only OpFDiv; OpenCL C has its own row.
  Rows recip = requirementsFor(CoreOp::Recip, Format::Float, Profile::Full);
  REQUIRE(recip.size() == 2);
  CHECK(from(recip, Document::SpirvEnv)->name == "OpFDiv");
  CHECK(from(recip, Document::OpenCLC)->name == "1.0 / x");
  // Relaxed 1.0 / x: 2.5 ulp for |x| in [2^-126, 2^126].
  Rows rrecip = requirementsFor(CoreOp::Recip, Format::Float, Profile::Relaxed);
  REQUIRE(rrecip.size() == 2);
  for (auto* r : rrecip) {
    CHECK(r->ulps == 2.5);
    CHECK(r->domain.x->contains(-1.0));
    CHECK_FALSE(r->domain.x->contains(0x1p-127));
  }
}

TEST_CASE("half_sin: 8192 ulp, x in [-2^16, 2^16]", "[accuracy]") {
  Rows rows = requirementsFor(MathFn::half_sin, Format::Float, Profile::Full);
  REQUIRE(rows.size() == 3);
  for (auto* r : rows) CHECK(r->ulps == 8192);
  auto* range = from(rows, Document::OpenCLC, false);
  REQUIRE(range != nullptr);
  REQUIRE(range->definedFor.has_value());
  CHECK(range->definedFor->contains(65536));
  CHECK_FALSE(range->definedFor->contains(65537));
  // half_* have no double or half rows.
  CHECK(requirementsFor(MathFn::half_sin, Format::Double, Profile::Full).empty());
  CHECK(requirementsFor(MathFn::half_exp, Format::Half, Profile::Full).empty());
}

TEST_CASE("double: every function has a bound in both documents", "[accuracy]") {
  for (int i = 0; i < kMathFnCount; ++i) {
    auto f = MathFn(i);
    std::string_view name = nameOf(f);
    if (name.starts_with("half_") || name.starts_with("native_")) continue;
    INFO(name);
    Rows rows = requirementsFor(f, Format::Double, Profile::Full);
    CHECK(from(rows, Document::SpirvEnv) != nullptr);
    // OpenCL C's double table omits lgamma and lgamma_r.
    if (f != MathFn::lgamma && f != MathFn::lgamma_r) CHECK(from(rows, Document::OpenCLC) != nullptr);
    // OpenCL C's double table states no profile; it applies to the embedded profile too.
    if (f != MathFn::lgamma && f != MathFn::lgamma_r)
      CHECK(from(requirementsFor(f, Format::Double, Profile::Embedded), Document::OpenCLC) != nullptr);
  }
  Rows mad = requirementsFor(MathFn::mad, Format::Double, Profile::Full);
  CHECK(from(mad, Document::SpirvEnv)->kind == BoundKind::FmaOrMulAdd);
  CHECK(from(mad, Document::OpenCLC)->kind == BoundKind::AnyValue);  // the documents disagree
  Rows dist = requirementsFor(CoreOp::Distance, Format::Double, Profile::Full);
  REQUIRE(dist.size() == 2);
  for (auto* r : dist) {
    CHECK(r->ulps == 5.5);
    CHECK(r->ulpsPerN == 2);
  }
}

TEST_CASE("half precision tables", "[accuracy]") {
  for (int i = 0; i < kMathFnCount; ++i) {
    auto f = MathFn(i);
    std::string_view name = nameOf(f);
    if (name.starts_with("half_") || name.starts_with("native_")) continue;
    INFO(name);
    CHECK(from(requirementsFor(f, Format::Half, Profile::Full), Document::SpirvEnv) != nullptr);
    CHECK(from(requirementsFor(f, Format::Half, Profile::Embedded), Document::SpirvEnv) != nullptr);
  }
  Rows sin = requirementsFor(MathFn::sin, Format::Half, Profile::Full);
  REQUIRE(sin.size() == 2);
  for (auto* r : sin) CHECK(r->ulps == 2);
  // tan: 2.5 ulp (SPIR-V env) vs 2 ulp (OpenCL C).
  Rows tan = requirementsFor(MathFn::tan, Format::Half, Profile::Full);
  CHECK(from(tan, Document::SpirvEnv)->ulps == 2.5);
  CHECK(from(tan, Document::OpenCLC)->ulps == 2);
  // sqrt: 1.5 ulp (SPIR-V env) vs correctly rounded (OpenCL C).
  Rows sqrt = requirementsFor(MathFn::sqrt, Format::Half, Profile::Full);
  CHECK(from(sqrt, Document::SpirvEnv)->ulps == 1.5);
  CHECK(from(sqrt, Document::OpenCLC)->kind == BoundKind::CorrectlyRounded);
  Rows emb = requirementsFor(MathFn::exp, Format::Half, Profile::Embedded);
  for (auto* r : emb) CHECK(r->ulps == 3);
  Rows cross = requirementsFor(CoreOp::Cross, Format::Half, Profile::Full);
  for (auto* r : cross) {
    CHECK(r->kind == BoundKind::AbsoluteMaxSquared);
    CHECK(r->absolute == 3 * 0x1p-10);
  }
}

TEST_CASE("general rules and image tolerances are present", "[accuracy]") {
  bool ftz = false;
  for (const auto& g : generalRules()) ftz = ftz || g.id == "ftz";
  CHECK(ftz);
  int unorm8 = 0;
  for (const auto& t : imageTolerances())
    if (t.channelType == "CL_UNORM_INT8" && t.conversion == ImageConversion::NormToFloat) {
      ++unorm8;
      CHECK(t.ulps == 1.5);
      CHECK(t.exactCount == 2);
      CHECK(t.exact[1].from == 255);
      CHECK(t.exact[1].to == 1);
    }
  CHECK(unorm8 == 2);
}
