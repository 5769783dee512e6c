// Lookups in the accuracy tables (numerics/accuracy.hpp; the data is accuracy_table.cpp).
#include <algorithm>
#include <cctype>
#include <string>
#include <tuple>
#include <mutex>
#include <map>

#include "numerics/accuracy.hpp"
#include "numerics/row_cache.hpp"

namespace clref::numerics {

namespace {

struct Key {
  std::optional<MathFn> fn;
  CoreOp core;
  bool matches(const AccuracyRequirement& r) const { return r.fn == fn && r.core == core; }
};

bool isRelaxed(Profile p) { return p == Profile::Relaxed || p == Profile::RelaxedEmbedded; }

// The profiles whose rows apply, most specific first. The unsafe-math tables fall back to the
// full (embedded) profile's table for what they do not list (both documents say so); a
// document without embedded-profile rows for the format (OpenCL C's double table states no
// profile) falls back to its full-profile rows.
std::vector<Profile> profileChain(Profile p) {
  switch (p) {
    case Profile::Full: return {Profile::Full};
    case Profile::Embedded: return {Profile::Embedded, Profile::Full};
    case Profile::Relaxed: return {Profile::Relaxed, Profile::Full};
    case Profile::RelaxedEmbedded: return {Profile::RelaxedEmbedded, Profile::Embedded, Profile::Full};
    case Profile::Vulkan: return {Profile::Vulkan};
  }
  return {};
}

bool hasRowsFor(std::span<const AccuracyRequirement> all, Document d, Format f, Profile p) {
  return std::any_of(all.begin(), all.end(), [&](const AccuracyRequirement& r) {
    return !r.table.empty() && r.document == d && r.format == f && r.profile == p;
  });
}

std::vector<const AccuracyRequirement*> lookup(Key key, Format format, Profile profile, AccuracyOptions options) {
  auto all = accuracyTable();
  std::vector<const AccuracyRequirement*> out;

  // The build option replaces the tables' divide and sqrt bounds for single precision.
  const bool crDivSqrt = options.fp32CorrectlyRoundedDivideSqrt && format == Format::Float &&
                         (key.core == CoreOp::Div || key.core == CoreOp::Recip || key.fn == MathFn::sqrt);
  if (crDivSqrt) {
    for (const auto& r : all)
      if (r.condition == Condition::Fp32CorrectlyRoundedDivideSqrt && key.matches(r) && r.format == format &&
          r.profile == profile)
        out.push_back(&r);
    return out;
  }

  for (Document doc : {Document::SpirvEnv, Document::OpenCLC, Document::VulkanEnv}) {
    for (Profile p : profileChain(profile)) {
      // Fall back from embedded to full only when the document has no embedded rows at all
      // for this format (relaxed → full/embedded is always a fallback the spec states).
      if (p == Profile::Full && (profile == Profile::Embedded || profile == Profile::RelaxedEmbedded) &&
          hasRowsFor(all, doc, format, Profile::Embedded))
        break;
      if (isRelaxed(p) && format != Format::Float) continue;
      auto collect = [&](Key k) {
        size_t before = out.size();
        for (const auto& r : all)
          if (!r.table.empty() && r.document == doc && r.format == format && r.profile == p && k.matches(r))
            out.push_back(&r);
        return out.size() > before;
      };
      bool found = collect(key);
      // "1.0 / x" is a division: tables without a reciprocal row bound it by the divide row.
      if (!found && key.core == CoreOp::Recip) found = collect(Key{std::nullopt, CoreOp::Div});
      if (found) break;
    }
  }

  // Rules stated outside the tables (half_cos/half_sin/half_tan input range).
  for (const auto& r : all)
    if (r.table.empty() && r.condition == Condition::None && key.matches(r) && r.format == format &&
        r.profile == profile)
      out.push_back(&r);
  return out;
}

// lookup() scans the whole table; the shadow mode asks for the same rows at every instruction, so answers are kept
// (the table is static: the pointers stay valid).
const std::vector<const AccuracyRequirement*>& cachedLookup(Key key, Format format, Profile profile,
                                                            AccuracyOptions options) {
  struct Tag;
  static RowCache<std::vector<const AccuracyRequirement*>, Tag> cache;
  return cache.get(rowKey(key.fn, key.core, format, profile, options.fp32CorrectlyRoundedDivideSqrt),
                   [&] { return lookup(key, format, profile, options); });
}

}  // namespace

std::vector<const AccuracyRequirement*> requirementsFor(MathFn f, Format format, Profile profile,
                                                        AccuracyOptions options) {
  return cachedLookup(Key{f, CoreOp::None}, format, profile, options);
}

std::vector<const AccuracyRequirement*> requirementsFor(CoreOp op, Format format, Profile profile,
                                                        AccuracyOptions options) {
  return cachedLookup(Key{std::nullopt, op}, format, profile, options);
}

namespace {

// The table's name of a row without its operands ("OpFDiv(x,y)" → "OpFDiv", "exp2(x)" → "exp2").
std::string_view bareName(std::string_view name) { return name.substr(0, name.find('(')); }

bool equalNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Instruction names whose row the table names otherwise.
struct Alias {
  std::string_view instruction, row;
};
constexpr Alias kInstructionAliases[] = {
    // Vulkan §A [external] [[spirvenv-precision-core-table]]: the row "conversions between types".
    {"OpFConvert", "conversions between types"},
    {"OpConvertFToU", "conversions between types"},
    {"OpConvertFToS", "conversions between types"},
    {"OpConvertSToF", "conversions between types"},
    {"OpConvertUToF", "conversions between types"},
    // GLSL.std.450's struct-returning forms of the table's modf and frexp.
    {"ModfStruct", "modf"},
    {"FrexpStruct", "frexp"},
};

}  // namespace

std::vector<const AccuracyRequirement*> requirementsForInstruction(std::string_view name, Format format) {
  // The shadow mode asks at every instruction: answers are kept, as cachedLookup does.
  static std::mutex mutex;
  static std::map<std::pair<std::string, int>, std::vector<const AccuracyRequirement*>, std::less<>> cache;
  std::pair<std::string, int> key{std::string(name), int(format)};
  std::lock_guard lock(mutex);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::string_view row = name;
  for (const Alias& a : kInstructionAliases)
    if (a.instruction == name) row = a.row;
  std::vector<const AccuracyRequirement*> out;
  for (const auto& r : accuracyTable())
    if (r.document == Document::VulkanEnv && r.profile == Profile::Vulkan && r.format == format && !r.table.empty() &&
        equalNoCase(bareName(r.name), row))
      out.push_back(&r);
  return cache[std::move(key)] = out;
}

std::string_view toString(Profile p) {
  switch (p) {
    case Profile::Full: return "full";
    case Profile::Embedded: return "embedded";
    case Profile::Relaxed: return "relaxed";
    case Profile::RelaxedEmbedded: return "relaxed-embedded";
    case Profile::Vulkan: return "vulkan";
  }
  return "?";
}

std::string_view toString(Document d) {
  switch (d) {
    case Document::SpirvEnv: return "OpenCL SPIR-V Environment";
    case Document::OpenCLC: return "OpenCL C";
    case Document::OpenCLApi: return "OpenCL API";
    case Document::VulkanEnv: return "Vulkan Environment for SPIR-V";
  }
  return "?";
}

std::string_view toString(CoreOp op) {
  switch (op) {
    case CoreOp::None: return "none";
    case CoreOp::Add: return "x + y";
    case CoreOp::Sub: return "x - y";
    case CoreOp::Mul: return "x * y";
    case CoreOp::Div: return "x / y";
    case CoreOp::Recip: return "1.0 / x";
    case CoreOp::MulAdd: return "x * y + z";
    case CoreOp::Dot: return "dot";
    case CoreOp::Cross: return "cross";
    case CoreOp::Distance: return "distance";
    case CoreOp::Length: return "length";
    case CoreOp::Normalize: return "normalize";
    case CoreOp::FastDistance: return "fast_distance";
    case CoreOp::FastLength: return "fast_length";
    case CoreOp::FastNormalize: return "fast_normalize";
  }
  return "?";
}

std::string_view toString(BoundKind k) {
  switch (k) {
    case BoundKind::CorrectlyRounded: return "correctly rounded";
    case BoundKind::Ulps: return "ulps";
    case BoundKind::Absolute: return "absolute";
    case BoundKind::AbsoluteMaxSquared: return "absolute (max * max scaled)";
    case BoundKind::FmaOrMulAdd: return "fma or multiply-add";
    case BoundKind::Derived: return "derived implementation";
    case BoundKind::ImplementationDefined: return "implementation-defined";
    case BoundKind::Undefined: return "undefined";
    case BoundKind::AnyValue: return "any value";
    case BoundKind::Inherited: return "inherited from a formula";
    case BoundKind::CorrectlyRoundedImplDefined: return "correctly rounded, implementation-defined rounding mode";
  }
  return "?";
}

}  // namespace clref::numerics
