// requirementsFor: the rows that apply to a function in a format and profile.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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

// ---- Vulkan ----------------------------------------------------------------------------------------

namespace {

// The opnames of a SPIR-V grammar file (the system's SPIRV-Headers), or empty when it is absent.
std::vector<std::string> grammarOpnames(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::vector<std::string> out;
  const std::regex opname(R"re("opname"\s*:\s*"(\w+)")re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), opname); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

const AccuracyRequirement* only(const std::vector<const AccuracyRequirement*>& rows) {
  REQUIRE(rows.size() == 1);
  return rows.front();
}

}  // namespace

TEST_CASE("Vulkan: requirementsFor returns only the Vulkan rows", "[accuracy][vulkan]") {
  for (Format f : {Format::Float, Format::Half, Format::Double}) {
    INFO(toString(f));
    const auto* exp2 = only(requirementsFor(MathFn::exp2, f, Profile::Vulkan));
    CHECK(exp2->document == Document::VulkanEnv);
    CHECK(exp2->name == "exp2(x)");
    CHECK(exp2->ulps == (f == Format::Half ? 1 : 3));
    CHECK(exp2->ulpsPerAbsX == 2);
    CHECK_FALSE(exp2->plusFloorAbs2x);
    // inversesqrt is OpenCL.std rsqrt; roundEven is rint; "1.0 / x" is a division.
    CHECK(only(requirementsFor(MathFn::rsqrt, f, Profile::Vulkan))->ulps == 2);
    CHECK(only(requirementsFor(MathFn::rint, f, Profile::Vulkan))->name == "roundEven");
    const auto* div = only(requirementsFor(CoreOp::Recip, f, Profile::Vulkan));
    CHECK(div->name == "OpFDiv(x,y)");
    CHECK(div->domain.y->lo == (f == Format::Half ? 0x1p-14 : 0x1p-126));  // double: the single-precision column
    CHECK(only(requirementsFor(CoreOp::Dot, f, Profile::Vulkan))->kind == BoundKind::Inherited);
    CHECK(only(requirementsFor(MathFn::pow, f, Profile::Vulkan))->formula == "exp2(y * log2(x))");
    // The OpenCL-only functions have no Vulkan row.
    CHECK(requirementsFor(MathFn::erf, f, Profile::Vulkan).empty());
    CHECK(requirementsFor(MathFn::half_sin, f, Profile::Vulkan).empty());
  }
  const auto* log = only(requirementsFor(MathFn::log, Format::Float, Profile::Vulkan));
  CHECK(log->kind == BoundKind::Absolute);
  CHECK(log->absoluteStrict);
  CHECK(log->absolute == 0x1p-21);
  CHECK(log->otherwiseUlps == 3);
  const auto* sin = only(requirementsFor(MathFn::sin, Format::Half, Profile::Vulkan));
  CHECK(sin->absolute == 0x1p-7);
  CHECK(sin->domain.x->contains(-0x1.921fb54442d18p+1));  // the largest double <= pi
  CHECK_FALSE(sin->domain.x->contains(0x1.921fb6p+1));    // the float nearest pi is above it
  CHECK(sin->otherwiseUlps < 0);
  // The OpenCL profiles do not see the Vulkan rows.
  for (const auto* r : requirementsFor(MathFn::exp2, Format::Float, Profile::Full))
    CHECK(r->document != Document::VulkanEnv);
}

TEST_CASE("Vulkan: every row is found by its instruction name", "[accuracy][vulkan]") {
  std::set<const AccuracyRequirement*> vulkanRows, found;
  for (const auto& r : accuracyTable())
    if (r.document == Document::VulkanEnv && r.format == Format::Float) vulkanRows.insert(&r);
  REQUIRE(vulkanRows.size() == 100);
  const auto glsl = grammarOpnames("/usr/include/spirv/unified1/extinst.glsl.std.450.grammar.json");
  const auto core = grammarOpnames("/usr/include/spirv/unified1/spirv.core.grammar.json");
  if (glsl.empty() || core.empty()) {
    WARN("the SPIR-V grammar files are absent: the names are checked against the rows only");
  }
  for (const auto& name : glsl)
    for (const auto* r : requirementsForInstruction(name, Format::Float)) {
      CHECK(r->table == "precision-of-glsl-std-450-instructions");
      found.insert(r);
    }
  for (const auto& name : core)
    for (const auto* r : requirementsForInstruction(name, Format::Float)) {
      CHECK(r->table == "spirvenv-precision-core-table");
      found.insert(r);
    }
  // SPV_KHR_fma's OpFmaKHR may be newer than the installed grammar.
  for (const auto* r : requirementsForInstruction("OpFmaKHR", Format::Float)) found.insert(r);
  if (!glsl.empty() && !core.empty()) {
    for (const auto* r : vulkanRows) {
      INFO(r->name);
      CHECK(found.count(r) == 1);
    }
  }
  // By name, independently of the grammar files.
  CHECK(only(requirementsForInstruction("Exp2", Format::Half))->ulps == 1);
  CHECK(only(requirementsForInstruction("InverseSqrt", Format::Float))->fn == MathFn::rsqrt);
  CHECK(only(requirementsForInstruction("FMix", Format::Float))->formula == "x * (1.0 - a) + y * a");
  CHECK(only(requirementsForInstruction("SmoothStep", Format::Float))->kind == BoundKind::Inherited);
  CHECK(only(requirementsForInstruction("FaceForward", Format::Float))->kind == BoundKind::Inherited);
  CHECK(only(requirementsForInstruction("PackHalf2x16", Format::Float))->kind ==
        BoundKind::CorrectlyRoundedImplDefined);
  CHECK(only(requirementsForInstruction("OpQuantizeToF16", Format::Half))->kind ==
        BoundKind::CorrectlyRoundedImplDefined);
  CHECK(only(requirementsForInstruction("ModfStruct", Format::Float))->fn == MathFn::modf);
  CHECK(only(requirementsForInstruction("OpFConvert", Format::Float))->name == "conversions between types");
  CHECK(only(requirementsForInstruction("OpFDiv", Format::Double))->ulps == 2.5);
  CHECK(only(requirementsForInstruction("OpMatrixTimesVector", Format::Float))->formula ==
        "sum_(j = 0)^(n - 1) M_ij * v_j");
  CHECK(only(requirementsForInstruction("OpFRem", Format::Float))->fn == MathFn::fmod);
  CHECK(only(requirementsForInstruction("OpFMod", Format::Float))->fn == std::nullopt);
  CHECK(only(requirementsForInstruction("NMin", Format::Float))->kind == BoundKind::CorrectlyRounded);
  CHECK(requirementsForInstruction("Determinant", Format::Float).empty());  // not in the tables
  CHECK(requirementsForInstruction("OpFOrd", Format::Float).empty());
}
