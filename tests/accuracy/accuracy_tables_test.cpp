// The accuracy data (numerics/accuracy_table.cpp) against the specification text: every ULP
// table is re-extracted from the asciidoc sources at test time, every row compared with the
// data in both directions, and every stored number checked against the row's wording.
#include <catch2/catch.hpp>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "numerics/accuracy.hpp"
#include "spec_dir.hpp"

using namespace clref::numerics;

namespace {

std::string readSpec(const std::string& relative) {
  auto path = clref_test::specDir() / relative;
  if (!std::filesystem::exists(path)) FAIL("specification file " << path.string() << " is missing");
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool isAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Asciidoc constrained bold: *text* (the opening * not after a word character or *, followed
// by a non-space; the closing * after a non-space and not before a word character).
std::string stripBold(const std::string& s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '*' && (i == 0 || (!isAlnum(s[i - 1]) && s[i - 1] != '*')) && i + 1 < s.size() && !isSpace(s[i + 1])) {
      size_t j = i + 2;
      for (; j < s.size(); ++j)
        if (s[j] == '*' && !isSpace(s[j - 1]) && (j + 1 == s.size() || !isAlnum(s[j + 1]))) break;
      if (j < s.size()) {
        out += s.substr(i + 1, j - i - 1);
        i = j + 1;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

// Asciidoc constrained italics: _text_ (no underscore inside).
std::string stripItalic(const std::string& s) {
  std::string out;
  size_t i = 0;
  auto word = [](char c) { return isAlnum(c) || c == '_'; };
  while (i < s.size()) {
    if (s[i] == '_' && (i == 0 || !word(s[i - 1])) && i + 1 < s.size() && s[i + 1] != '_' && !isSpace(s[i + 1])) {
      size_t j = s.find('_', i + 1);
      if (j != std::string::npos && (j + 1 == s.size() || !word(s[j + 1]))) {
        out += s.substr(i + 1, j - i - 1);
        i = j + 1;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

// The spec's text without asciidoc markup, whitespace collapsed.
std::string normalise(std::string s) {
  s = std::regex_replace(s, std::regex(R"( \+\n)"), " ");
  for (char& c : s)
    if (c == '\n') c = ' ';
  s = std::regex_replace(s, std::regex(R"(footnote:\[[^\]]*\])"), "");
  s = std::regex_replace(s, std::regex(R"(<<[^,>]*,([^>]*)>>)"), "$1");
  s = std::regex_replace(s, std::regex(R"(<<([^>]*)>>)"), "$1");
  s = replaceAll(s, "{leq}", "<=");
  s = replaceAll(s, "\\<=", "<=");
  s = replaceAll(s, "{pi}", "pi");
  s = replaceAll(s, "{inf}", "inf");
  s = std::regex_replace(s, std::regex(R"(\^([^\^\s]+)\^)"), "^$1");
  s = std::regex_replace(s, std::regex(R"(~([^~\s]+)~)"), "_$1");
  s = stripBold(s);
  std::erase(s, '`');
  std::erase(s, '\\');
  s = stripItalic(s);
  s = std::regex_replace(s, std::regex(R"(<=(\S))"), "<= $1");
  s = std::regex_replace(s, std::regex(R"(\s+)"), " ");
  while (!s.empty() && s.back() == ' ') s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  return s;
}

// The markup of the Vulkan sources (vulkan/spirvenv.adoc) that the OpenCL ones do not use, rewritten to the plain
// text the data stores: normative macros ("may:"), code:Name, [eq]#...#, the {vert}/{times}/{plus}/{leq}
// attributes, and latexmath:[...] with its TeX (\frac{a}{b} → "a / b", or "(a) / (b)" around spaces, \times → *,
// \vert x \vert → |x|, \mathrm{f} → f, _{ij} → _ij, ^{-21} → ^-21, other subscripts and superscripts in
// parentheses, the remaining commands without their backslash).
std::string vulkanMarkup(std::string s) {
  s = std::regex_replace(s, std::regex(R"(\b(may|must|should|can|cannot|required|optional):)"), "$1");
  s = std::regex_replace(s, std::regex(R"(code:)"), "");
  s = std::regex_replace(s, std::regex(R"(\[eq\]#([^#]*)#)"), "$1");
  s = replaceAll(s, "{vert}", "|");
  s = replaceAll(s, "{times}", "*");
  s = replaceAll(s, "{plus}", "+");
  s = replaceAll(s, "{leq}", "<=");
  std::string out;
  const std::string open = "latexmath:[";
  size_t i = 0;
  for (size_t p = s.find(open); p != std::string::npos; p = s.find(open, i)) {
    out += s.substr(i, p - i);
    // The closing ']' is the first one not escaped as "\]".
    size_t e = p + open.size();
    while (e < s.size() && !(s[e] == ']' && s[e - 1] != '\\')) ++e;
    std::string tex = s.substr(p + open.size(), e - p - open.size());
    tex = replaceAll(tex, "\\]", "]");
    tex = replaceAll(tex, "\\_", "_");
    tex = replaceAll(tex, "\\times", "*");
    tex = replaceAll(tex, "\\leq", "<=");
    tex = std::regex_replace(tex, std::regex(R"(\\vert\s*(.*?)\s*\\vert)"), "|$1|");
    tex = std::regex_replace(tex, std::regex(R"(\\mathrm\{([^{}]*)\})"), "$1");
    tex = std::regex_replace(tex, std::regex(R"(\\([a-zA-Z]+))"), "$1");  // \pi, \exp, \log, \frac, \sum
    // frac{a}{b} (the backslash is gone)
    std::smatch m;
    while (std::regex_search(tex, m, std::regex(R"(frac\{([^{}]*)\}\{([^{}]*)\})"))) {
      auto wrap = [](std::string a) { return a.find(' ') == std::string::npos ? a : "(" + a + ")"; };
      tex = m.prefix().str() + wrap(m[1]) + " / " + wrap(m[2]) + m.suffix().str();
    }
    tex = std::regex_replace(tex, std::regex(R"(([_^])\{([-A-Za-z0-9_]+)\})"), "$1$2");
    tex = std::regex_replace(tex, std::regex(R"(([_^])\{([^{}]*)\})"), "$1($2)");
    out += tex;
    i = e + 1;
  }
  out += s.substr(std::min(i, s.size()));
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct SpecTable {
  std::string title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// The table following the line [[anchor]]: its title, header and rows of normalised cells.
SpecTable extractTable(const std::string& doc, const std::string& anchor) {
  SpecTable t;
  std::vector<std::string> lines;
  {
    std::stringstream ss(doc);
    for (std::string l; std::getline(ss, l);) lines.push_back(l);
  }
  size_t i = 0;
  while (i < lines.size() && lines[i] != "[[" + anchor + "]]") ++i;
  REQUIRE(i + 1 < lines.size());
  REQUIRE(lines[i + 1].starts_with("."));
  t.title = normalise(lines[i + 1].substr(1));
  size_t j = i + 2;
  int cols = 0;
  std::smatch m;
  for (; j < lines.size() && !lines[j].starts_with("|===="); ++j) {
    if (std::regex_search(lines[j], m, std::regex(R"re(cols="([^"]*)")re")))
      cols = 1 + static_cast<int>(std::count(m[1].first, m[1].second, ','));
  }
  REQUIRE(cols > 0);
  std::string body;
  for (++j; j < lines.size() && !lines[j].starts_with("|===="); ++j) {
    auto first = lines[j].find_first_not_of(" \t");
    if (first != std::string::npos && lines[j].compare(first, 2, "//") == 0) continue;
    body += lines[j] + "\n";
  }
  // Cells start at a '|' that begins a line (after indentation) or follows whitespace, and is
  // followed by whitespace or the end of the line.
  std::vector<std::string> cells;
  std::string cur;
  bool started = false;
  for (size_t k = 0; k < body.size(); ++k) {
    char c = body[k];
    bool sep = c == '|' && (k == 0 || isSpace(body[k - 1])) && (k + 1 == body.size() || isSpace(body[k + 1]));
    if (sep) {
      if (started) cells.push_back(normalise(cur));
      cur.clear();
      started = true;
    } else {
      cur += c;
    }
  }
  if (started) cells.push_back(normalise(cur));
  REQUIRE(cells.size() % cols == 0);
  for (size_t k = 0; k < cells.size(); k += cols) {
    std::vector<std::string> row(cells.begin() + k, cells.begin() + k + cols);
    if (k == 0) {
      t.header = row;
      continue;
    }
    if (std::all_of(row.begin(), row.end(), [](auto& c) { return c.empty(); })) continue;
    t.rows.push_back(row);
  }
  return t;
}

struct TableSpec {
  std::string file, anchor;
  // per column (after the name): the (format, profile) pairs it states
  std::vector<std::vector<std::pair<Format, Profile>>> columns;
};

const char* kEnv = "opencl-spirv-env-latest/numerical_compliance.asciidoc";
const char* kC = "opencl-c-spec.adoc";

// The column meanings, read from the tables' headers and titles.
std::vector<std::pair<Format, Profile>> columnMeaning(const std::string& anchor, const std::string& title,
                                                      const std::string& header) {
  auto fmt = [&]() -> Format {
    if (header.find("Float64") != std::string::npos) return Format::Double;
    if (header.find("Float16") != std::string::npos) return Format::Half;
    if (header.find("Float32") != std::string::npos) return Format::Float;
    if (title.find("Double-Precision") != std::string::npos) return Format::Double;
    if (title.find("Half-Precision") != std::string::npos) return Format::Half;
    return Format::Float;
  }();
  if (lower(title).find("unsafe-math") != std::string::npos || lower(title).find("unsafe math") != std::string::npos)
    return {{Format::Float, Profile::Relaxed}, {Format::Float, Profile::RelaxedEmbedded}};
  if (header.find("Embedded Profile") != std::string::npos || title.find("Embedded Profile") != std::string::npos)
    return {{fmt, Profile::Embedded}};
  (void)anchor;
  return {{fmt, Profile::Full}};
}

using Key = std::tuple<std::string, std::string, int, int, std::string>;  // anchor, name, fmt, profile, text

std::string describe(const Key& k) {
  return std::get<0>(k) + " | " + std::get<1>(k) + " | " + std::string(toString(Format(std::get<2>(k)))) + " | " +
         std::string(toString(Profile(std::get<3>(k)))) + " | " + std::get<4>(k);
}

const std::vector<std::pair<std::string, std::string>> kTables = {
    {kEnv, "ulp_values_for_math_instructions"},
    {kEnv, "ulp_values_for_math_instructions_for_embedded_profile"},
    {kEnv, "ulp_values_for_math_instructions_with_fast_relaxed_math"},
    {kC, "table-ulp-float-math"},
    {kC, "table-ulp-embedded"},
    {kC, "table-float-ulp-relaxed"},
    {kC, "table-ulp-double"},
    {kC, "table-ulp-half-math"},
};

}  // namespace

TEST_CASE("the spec folder is present", "[accuracy]") {
  INFO("CLREF_SPEC_DIR = " << clref_test::specDir().string());
  CHECK(std::filesystem::is_directory(clref_test::specDir()));
}

TEST_CASE("every table row of both documents is in the data, and nothing else", "[accuracy]") {
  std::multiset<Key> spec, data;
  std::map<std::string, size_t> perTable;
  for (const auto& [file, anchor] : kTables) {
    std::string doc = readSpec(file);
    SpecTable t = extractTable(doc, anchor);
    INFO(anchor);
    REQUIRE(t.rows.size() > 10);
    for (const auto& row : t.rows) {
      std::string name = row[0];
      if (name.starts_with("OpExtInst ")) name = name.substr(10);
      for (size_t c = 1; c < row.size(); ++c) {
        if (row[c].empty()) continue;  // a blank cell: no requirement for that format
        for (auto [f, p] : columnMeaning(anchor, t.title, t.header[c]))
          spec.insert({anchor, name, int(f), int(p), lower(row[c])});
      }
    }
    // Each stored row names its table by title and anchor.
    for (const auto& r : accuracyTable())
      if (r.table == anchor) {
        CHECK(r.source.find(file) == 0);
        CHECK(r.source.find("\"" + t.title + "\"") != std::string_view::npos);
        CHECK(r.source.find("[[" + anchor + "]]") != std::string_view::npos);
      }
  }
  for (const auto& r : accuracyTable()) {
    if (r.table.empty() || r.document == Document::VulkanEnv) continue;  // Vulkan: the tests below
    data.insert({std::string(r.table), std::string(r.name), int(r.format), int(r.profile), lower(std::string(r.text))});
    ++perTable[std::string(r.table)];
  }
  std::vector<Key> missing, extra;
  std::set_difference(spec.begin(), spec.end(), data.begin(), data.end(), std::back_inserter(missing));
  std::set_difference(data.begin(), data.end(), spec.begin(), spec.end(), std::back_inserter(extra));
  for (const auto& k : missing) UNSCOPED_INFO("in the spec, not in the data: " << describe(k));
  for (const auto& k : extra) UNSCOPED_INFO("in the data, not in the spec: " << describe(k));
  CHECK(missing.empty());
  CHECK(extra.empty());
  CHECK(spec.size() == data.size());
  for (const auto& [anchor, n] : perTable) UNSCOPED_INFO(anchor << ": " << n << " requirements");
  CHECK(perTable.size() == kTables.size());
}

namespace {

std::optional<double> number(const std::string& s) {
  try {
    return std::stod(s);
  } catch (...) { return std::nullopt; }
}

// The bound the wording of a full/embedded/double/half table cell states, parsed here
// independently of the data.
void checkPlainCell(const AccuracyRequirement& r) {
  const std::string t = lower(std::string(r.text));
  std::smatch m;
  const double eps = t.find("half_epsilon") != std::string::npos ? 0x1p-10 : 0x1p-23;
  if (t == "correctly rounded") {
    CHECK(r.kind == BoundKind::CorrectlyRounded);
  } else if (t == "implementation-defined") {
    CHECK(r.kind == BoundKind::ImplementationDefined);
  } else if (t == "undefined") {
    CHECK(r.kind == BoundKind::Undefined);
  } else if (t == "any value allowed (infinite ulp)") {
    CHECK(r.kind == BoundKind::AnyValue);
  } else if (t.starts_with("implemented either as a correctly rounded fma")) {
    CHECK(r.kind == BoundKind::FmaOrMulAdd);
  } else if (std::regex_match(t, m,
                              std::regex(R"(<= (?:([0-9.]+) \+ )?([0-9.]*)n ulp, for gentype with vector width n)"))) {
    CHECK(r.kind == BoundKind::Ulps);
    CHECK(r.ulps == (m[1].matched ? *number(m[1]) : 0.0));
    CHECK(r.ulpsPerN == (m[2].length() ? *number(m[2]) : 1.0));
  } else if (std::regex_match(t, m, std::regex(R"((?:<= )?([0-9.]+) ulp(?: for .*)?)"))) {
    CHECK(r.kind == BoundKind::Ulps);
    CHECK(r.ulps == *number(m[1]));
    CHECK(r.ulpsPerN == 0);
    CHECK_FALSE(r.plusFloorAbs2x);
  } else if (std::regex_match(t, m, std::regex(R"(absolute error tolerance of ([0-9e.-]+))"))) {
    CHECK(r.kind == BoundKind::Absolute);
    CHECK(r.absolute == *number(m[1]));
    CHECK_FALSE(r.domain.any());
  } else if (t.find("'max * max * (3 * ") != std::string::npos) {
    CHECK(r.kind == BoundKind::AbsoluteMaxSquared);
    CHECK(r.absolute == 3 * eps);
    CHECK(r.absolutePerN == 0);
  } else if (t.find("'max * max * (2n - 1) * ") != std::string::npos) {
    CHECK(r.kind == BoundKind::AbsoluteMaxSquared);
    CHECK(r.absolute == -eps);
    CHECK(r.absolutePerN == 2 * eps);
  } else {
    FAIL("unrecognised wording: " << t);
  }
  if (r.kind != BoundKind::Absolute) CHECK_FALSE(r.domain.any());
  CHECK_FALSE(r.definedFor.has_value());
  CHECK(r.derived.empty());
}

// The part of a relaxed row's text that states the given profile's bound.
void checkRelaxedCell(const AccuracyRequirement& r) {
  const std::string t = std::string(r.text);
  const bool full = r.profile == Profile::Relaxed;
  std::smatch m;
  if (!r.derived.empty()) CHECK(t.find(r.derived) != std::string::npos);
  if (t.find("erived implementations may") != std::string::npos) CHECK_FALSE(r.derived.empty());

  auto checkInterval = [](const std::optional<Interval>& iv, double lo, double hi, bool loOpen, bool hiOpen,
                          bool magnitude) {
    REQUIRE(iv.has_value());
    CHECK(iv->lo == lo);
    CHECK(iv->hi == hi);
    CHECK(iv->loOpen == loOpen);
    CHECK(iv->hiOpen == hiOpen);
    CHECK(iv->magnitude == magnitude);
  };

  if (std::regex_match(t, m, std::regex(R"(<= (\d+) ulp)"))) {
    CHECK(r.kind == BoundKind::Ulps);
    CHECK(r.ulps == *number(m[1]));
  } else if (
      std::regex_search(
          t, m,
          std::regex(
              R"(^<= ([0-9.]+) ulp for x in the domain of 2\^(-?\d+) to 2\^(\d+)(?: and y in the domain of 2\^(-?\d+) to 2\^(\d+))? for the full profile, and <= ([0-9.]+) ulp( for x in the domain)?)"))) {
    CHECK(r.kind == BoundKind::Ulps);
    CHECK(r.ulps == *number(full ? m[1].str() : m[6].str()));
    if (full || m[7].matched) {
      checkInterval(r.domain.x, std::ldexp(1.0, std::stoi(m[2])), std::ldexp(1.0, std::stoi(m[3])), false, false, true);
      if (m[4].matched)
        checkInterval(r.domain.y, std::ldexp(1.0, std::stoi(m[4])), std::ldexp(1.0, std::stoi(m[5])), false, false,
                      true);
      else
        CHECK_FALSE(r.domain.y.has_value());
    } else {
      CHECK_FALSE(r.domain.any());
    }
  } else if (
      std::regex_search(
          t, m,
          std::regex(
              R"(^<= (\d+) \+ floor\(fabs\(2 \* x\)\) ulp for the full profile, and <= (\d+)( \+ floor\(fabs\(2 \* x\)\))? ulp for the embedded profile\.$)"))) {
    CHECK(r.kind == BoundKind::Ulps);
    CHECK(r.ulps == *number(full ? m[1].str() : m[2].str()));
    CHECK(r.plusFloorAbs2x == (full || m[3].matched));
  } else if (
      std::regex_search(
          t, m,
          std::regex(
              R"(^For x in the domain \[([^,]+), ([^\]]+)\],? the maximum absolute error is <= 2\^(-\d+)(?:; otherwise the maximum error is <= (\d+) ulp for the full profile and <= (\d+) ulp for the embedded profile\.| and larger otherwise\.)$)"))) {
    CHECK(r.kind == BoundKind::Absolute);
    CHECK(r.absolute == std::ldexp(1.0, std::stoi(m[3])));
    auto val = [](const std::string& s) { return s == "-pi" ? -M_PI : s == "pi" ? M_PI : std::stod(s); };
    checkInterval(r.domain.x, val(m[1]), val(m[2]), false, false, false);
    CHECK(r.otherwiseUlps == (m[4].matched ? *number(full ? m[4].str() : m[5].str()) : -1.0));
  } else if (t == "ulp values as defined for sin(x) and cos(x).") {
    const auto& sin = *requirementsFor(MathFn::sin, r.format, r.profile).front();
    CHECK(r.kind == sin.kind);
    CHECK(r.absolute == sin.absolute);
    CHECK(r.domain.x->lo == sin.domain.x->lo);
    CHECK(r.domain.x->hi == sin.domain.x->hi);
  } else if (t.starts_with("Implemented either as a correctly rounded fma")) {
    CHECK(r.kind == BoundKind::FmaOrMulAdd);
  } else if (
      std::regex_search(
          t, m,
          std::regex(
              R"(For non-derived implementations, the error is <= (\d+) (?:ulp|ULP)( for x in the domain \[(-?\d+), (-?\d+)\])?\.)"))) {
    CHECK(r.kind == BoundKind::Ulps);
    CHECK(r.ulps == *number(m[1]));
    if (m[2].matched)
      checkInterval(r.domain.x, std::stod(m[3]), std::stod(m[4]), false, false, false);
    else
      CHECK_FALSE(r.domain.any());
  } else if (t.find("erived implementations may") != std::string::npos) {
    // No bound for non-derived implementations is stated (OpenCL C atan2).
    CHECK(r.kind == BoundKind::Derived);
  } else {
    FAIL("unrecognised wording: " << t);
  }

  // "Defined for x in the domain …" / "Defined only for x >= 0."
  if (std::regex_search(
          t, m, std::regex(R"(^Defined for x in the domain ([\[(])(-?(?:\d+|inf)), ?(-?(?:\d+|inf))([\])])\.)"))) {
    auto val = [](const std::string& s) { return s == "inf" ? INFINITY : s == "-inf" ? -INFINITY : std::stod(s); };
    checkInterval(r.definedFor, val(m[2]), val(m[3]), m[1] == "(", m[4] == ")", false);
  } else if (t.starts_with("Defined only for x >= 0.")) {
    checkInterval(r.definedFor, 0, INFINITY, false, false, false);
  } else {
    CHECK_FALSE(r.definedFor.has_value());
  }
}

}  // namespace

TEST_CASE("every stored bound is the bound its wording states", "[accuracy]") {
  int checked = 0;
  for (const auto& r : accuracyTable()) {
    if (r.table.empty() || r.document == Document::VulkanEnv) continue;  // Vulkan: the tests below
    INFO(r.table << " | " << r.name << " | " << toString(r.format) << " | " << toString(r.profile) << " | " << r.text);
    if (r.profile == Profile::Relaxed || r.profile == Profile::RelaxedEmbedded)
      checkRelaxedCell(r);
    else
      checkPlainCell(r);
    ++checked;
  }
  CHECK(checked > 1000);
}

TEST_CASE("every stored row names its operation as the spec does", "[accuracy]") {
  for (const auto& r : accuracyTable()) {
    if (r.document == Document::VulkanEnv) continue;  // Vulkan: the tests below
    INFO(r.table << " | " << r.name);
    CHECK((r.fn.has_value() != (r.core != CoreOp::None)));
    if (r.fn) {
      // The spec's name is the function's (OpenCL C's clamp/max/min are the common functions
      // fclamp/fmax_common/fmin_common; its double table spells sqrt "fsqrt").
      std::string name(r.name);
      name = name.substr(0, name.find('('));
      static const std::map<std::string, std::string> alias = {
          {"clamp", "fclamp"}, {"max", "fmax_common"}, {"min", "fmin_common"}, {"fsqrt", "sqrt"}};
      if (alias.count(name)) name = alias.at(name);
      CHECK(name == nameOf(*r.fn));
    } else {
      std::string name(r.name), expected(toString(r.core));
      static const std::map<std::string, std::string> spirv = {{"OpFAdd", "x + y"},
                                                               {"OpFSub", "x - y"},
                                                               {"OpFMul", "x * y"},
                                                               {"OpFDiv", "x / y"},
                                                               {"OpDot", "dot"},
                                                               {"OpFDiv for 1.0 / x", "1.0 / x"},
                                                               {"OpFDiv for x / y", "x / y"},
                                                               {"OpFMul and OpFAdd, for x * y + z", "x * y + z"},
                                                               {"1/x", "1.0 / x"}};
      if (spirv.count(name)) name = spirv.at(name);
      CHECK(name == expected);
    }
  }
}

namespace {
std::string fileOf(std::string_view source) { return std::string(source.substr(0, source.find(" §"))); }  // NOCITE

// The file's paragraphs (blank-line separated), each normalised.
const std::string& normalisedDoc(const std::string& file) {
  static std::map<std::string, std::string> cache;
  auto it = cache.find(file);
  if (it != cache.end()) return it->second;
  std::string doc = readSpec(file), out, para;
  if (file.starts_with("vulkan/")) doc = vulkanMarkup(doc);
  std::stringstream ss(doc);
  for (std::string l; std::getline(ss, l);) {
    if (l.find_first_not_of(" \t") == std::string::npos) {
      out += normalise(para) + "\n";
      para.clear();
    } else {
      para += l + "\n";
    }
  }
  out += normalise(para) + "\n";
  return cache[file] = out;
}
}  // namespace

TEST_CASE("the rules stated outside the tables quote the spec", "[accuracy]") {
  int n = 0;
  for (const auto& r : accuracyTable()) {
    if (!r.table.empty()) continue;
    INFO(r.name << " | " << r.source << " | " << r.text);
    CHECK(normalisedDoc(fileOf(r.source)).find(r.text) != std::string::npos);
    ++n;
  }
  CHECK(n == 24);  // half_cos/half_sin/half_tan and divide/recip/sqrt, per profile
  for (const auto& g : generalRules()) {
    INFO(g.id << " | " << g.source << " | " << g.quote);
    CHECK(normalisedDoc(fileOf(g.source)).find(g.quote) != std::string::npos);
  }
  for (const auto& t : imageTolerances()) {
    INFO(t.channelType << " | " << t.source << " | " << t.quote);
    const std::string& doc = normalisedDoc(fileOf(t.source));
    CHECK(doc.find(t.quote) != std::string::npos);
    if (t.conversion == ImageConversion::NormToFloat || t.conversion == ImageConversion::NormToHalf) {
      CHECK(doc.find("The precision of the above conversions is <= 1.5 ulp except for the following cases") !=
            std::string::npos);
      CHECK(t.ulps == 1.5);
      // The end points: "<max> must convert to 1.0f", "-<max+1> and -<max> must convert to -1.0f".
      const char* suffix = t.conversion == ImageConversion::NormToFloat ? "f" : "h";
      for (int i = 0; i < t.exactCount; ++i) {
        auto [from, to] = t.exact[i];
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.0f", from);
        std::string needle = std::string(buf) + (to == -1 && from == -t.scale - 1 ? " and " : "");
        CHECK(doc.find(needle) != std::string::npos);
        CHECK(std::fabs(to) == (from == 0 ? 0 : 1));
      }
      const bool names =
          t.quote.find(std::to_string(int(t.scale)) + " must convert to 1.0" + suffix) != std::string::npos ||
          t.quote.find("-" + std::to_string(int(t.scale)) + " must convert to -1.0" + suffix) != std::string::npos;
      CHECK(names);
    } else if (t.conversion == ImageConversion::FloatToNorm || t.conversion == ImageConversion::HalfToNorm) {
      CHECK(t.absolute == 0.6);
      CHECK(t.quote.find(std::to_string(int(t.scale))) != std::string::npos);
      CHECK(doc.find(t.reference) != std::string::npos);
    }
  }
}

// ---- Vulkan ------------------------------------------------------------------------------------

namespace {

const char* kVulkan = "vulkan/spirvenv.adoc";

// The table following [[anchor]] in the Vulkan source: rows of 3 normalised cells, a cell spanning both value
// columns ("2+|") repeated, the header first. Conditional rows (ifdef::...[]) are all kept: the data holds the
// requirements of every extension the table mentions.
SpecTable extractVulkanTable(const std::string& doc, const std::string& anchor) {
  SpecTable t;
  std::vector<std::string> lines;
  {
    std::stringstream ss(doc);
    for (std::string l; std::getline(ss, l);) lines.push_back(l);
  }
  size_t i = 0;
  while (i < lines.size() && lines[i] != "[[" + anchor + "]]") ++i;
  REQUIRE(i + 1 < lines.size());
  REQUIRE(lines[i + 1].starts_with("."));
  t.title = normalise(vulkanMarkup(lines[i + 1].substr(1)));
  size_t j = i + 2;
  while (j < lines.size() && !lines[j].starts_with("|====")) ++j;
  std::string body;
  for (++j; j < lines.size() && !lines[j].starts_with("|===="); ++j) {
    if (lines[j].starts_with("ifdef::") || lines[j].starts_with("ifndef::") || lines[j].starts_with("endif::"))
      continue;
    body += lines[j] + "\n";
  }
  // A cell starts with [span+][a]| at the start of a line or after whitespace (the cells hold no literal '|').
  std::vector<std::string> cells;
  const std::regex start(R"((^|\s)(?:(\d+)\+)?a?\|)");
  std::vector<int> spans;
  std::string::const_iterator from = body.begin();
  std::smatch m;
  std::string pending;
  int pendingSpan = 0;
  bool started = false;
  while (std::regex_search(from, body.cend(), m, start)) {
    pending += std::string(from, m[0].first) + m[1].str();
    if (started) cells.push_back(pending), spans.push_back(pendingSpan);
    pending.clear();
    pendingSpan = m[2].matched ? std::stoi(m[2]) : 1;
    started = true;
    from = m[0].second;
  }
  pending += std::string(from, body.cend());
  if (started) cells.push_back(pending), spans.push_back(pendingSpan);
  std::vector<std::string> row;
  for (size_t k = 0; k < cells.size(); ++k) {
    const std::string c = normalise(vulkanMarkup(cells[k]));
    for (int s = 0; s < spans[k]; ++s) row.push_back(c);
    if (row.size() == 3) {
      if (t.header.empty())
        t.header = row;
      else
        t.rows.push_back(row);
      row.clear();
    }
  }
  INFO("a row of the table " << anchor << " is incomplete: " << (row.empty() ? "" : row[0]));
  REQUIRE(row.empty());
  return t;
}

// "OpFMul, OpVectorTimesScalar" → both; commas inside parentheses ("OpDot(x, y)") do not separate.
std::vector<std::string> instructionNames(const std::string& cell) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (size_t k = 0; k < cell.size(); ++k) {
    const char c = cell[k];
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      while (k + 1 < cell.size() && cell[k + 1] == ' ') ++k;
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

const std::vector<std::string> kVulkanTables = {"spirvenv-precision-core-table",
                                                "precision-of-glsl-std-450-instructions"};

constexpr std::string_view kDoubleNote =
    " (Double precision: the single-precision bound, measured in double's ulps: \"The precision of double-precision "
    "instructions is at least that of single precision.\")";

}  // namespace

TEST_CASE("every row of both Vulkan tables is in the data, and nothing else", "[accuracy][vulkan]") {
  std::multiset<Key> spec, data;
  const std::string doc = readSpec(kVulkan);
  for (const auto& anchor : kVulkanTables) {
    SpecTable t = extractVulkanTable(doc, anchor);
    INFO(anchor);
    REQUIRE(t.rows.size() > 20);
    CHECK(t.header[1].starts_with("Single precision"));
    CHECK(t.header[2] == "Half precision");
    for (const auto& row : t.rows)
      for (const auto& name : instructionNames(row[0])) {
        spec.insert({anchor, name, int(Format::Float), int(Profile::Vulkan), lower(row[1])});
        spec.insert({anchor, name, int(Format::Half), int(Profile::Vulkan), lower(row[2])});
      }
    for (const auto& r : accuracyTable())
      if (r.table == anchor) {
        CHECK(r.source.find(kVulkan) == 0);
        CHECK(r.source.find("\"" + t.title + "\"") != std::string_view::npos);
        CHECK(r.source.find("[[" + anchor + "]]") != std::string_view::npos);
      }
  }
  for (const auto& r : accuracyTable())
    if (r.document == Document::VulkanEnv && r.format != Format::Double)
      data.insert(
          {std::string(r.table), std::string(r.name), int(r.format), int(r.profile), lower(std::string(r.text))});
  std::vector<Key> missing, extra;
  std::set_difference(spec.begin(), spec.end(), data.begin(), data.end(), std::back_inserter(missing));
  std::set_difference(data.begin(), data.end(), spec.begin(), spec.end(), std::back_inserter(extra));
  for (const auto& k : missing) UNSCOPED_INFO("in the spec, not in the data: " << describe(k));
  for (const auto& k : extra) UNSCOPED_INFO("in the data, not in the spec: " << describe(k));
  CHECK(missing.empty());
  CHECK(extra.empty());
  CHECK(spec.size() == data.size());
  CHECK(spec.size() == 2 * (49 + 51));  // the instructions of both tables, float and half
}

TEST_CASE("every Vulkan row's bound is the bound its wording states", "[accuracy][vulkan]") {
  int checked = 0;
  for (const auto& r : accuracyTable()) {
    if (r.document != Document::VulkanEnv) continue;
    INFO(r.table << " | " << r.name << " | " << toString(r.format) << " | " << r.text);
    CHECK(r.profile == Profile::Vulkan);
    std::string t = std::string(r.text);
    if (r.format == Format::Double) {
      // The single-precision row's bound and wording, with the sentence that carries it over.
      REQUIRE(t.ends_with(kDoubleNote));
      t = t.substr(0, t.size() - kDoubleNote.size());
      const auto single = std::find_if(accuracyTable().begin(), accuracyTable().end(), [&](const auto& s) {
        return s.table == r.table && s.name == r.name && s.format == Format::Float;
      });
      REQUIRE(single != accuracyTable().end());
      CHECK(single->text == t);
    }
    t = lower(t);
    std::smatch m;
    bool domainChecked = false;
    if (t == "correct result." || t == "correctly rounded." ||
        t == "return value correct result, value in memory correctly rounded.") {
      CHECK(r.kind == BoundKind::CorrectlyRounded);
    } else if (t == "correctly rounded with implementation defined rounding mode.") {
      CHECK(r.kind == BoundKind::CorrectlyRoundedImplDefined);
    } else if (std::regex_match(t, m, std::regex(R"(inherited from (.*)\.)"))) {
      CHECK(r.kind == BoundKind::Inherited);
      CHECK(lower(std::string(r.formula)) == m[1].str());
    } else if (std::regex_match(t, m, std::regex(R"(([0-9.]+) ulp\.?)"))) {
      CHECK(r.kind == BoundKind::Ulps);
      CHECK(r.ulps == *number(m[1]));
      CHECK(r.ulpsPerAbsX == 0);
    } else if (std::regex_match(t, m, std::regex(R"(([0-9.]+) \+ ([0-9.]+) \* \|x\| ulp\.)"))) {
      CHECK(r.kind == BoundKind::Ulps);
      CHECK(r.ulps == *number(m[1]));
      CHECK(r.ulpsPerAbsX == *number(m[2]));
    } else if (
        std::regex_match(
            t, m,
            std::regex(
                R"(([0-9.]+) ulp outside the range \[0\.5, 2\.0\]\. absolute error < 2\^(-\d+) inside the range \[0\.5, 2\.0\]\.)"))) {
      CHECK(r.kind == BoundKind::Absolute);
      CHECK(r.absoluteStrict);
      CHECK(r.absolute == std::ldexp(1.0, std::stoi(m[2])));
      CHECK(r.otherwiseUlps == *number(m[1]));
      REQUIRE(r.domain.x.has_value());
      CHECK((r.domain.x->lo == 0.5 && r.domain.x->hi == 2.0 && !r.domain.x->loOpen && !r.domain.x->hiOpen));
      CHECK_FALSE(r.domain.outside);
      domainChecked = true;
    } else if (std::regex_match(t, m, std::regex(R"(absolute error <= 2\^(-\d+) inside the range \[-pi, pi\]\.)"))) {
      CHECK(r.kind == BoundKind::Absolute);
      CHECK_FALSE(r.absoluteStrict);
      CHECK(r.absolute == std::ldexp(1.0, std::stoi(m[1])));
      CHECK(r.otherwiseUlps < 0);  // nothing is stated outside: any value
      REQUIRE(r.domain.x.has_value());
      CHECK((r.domain.x->lo == -M_PI && r.domain.x->hi == M_PI && !r.domain.x->magnitude));
      domainChecked = true;
    } else if (std::regex_match(
                   t, m,
                   std::regex(R"(([0-9.]+) ulp for \|y\| = 0 or \|y\| in the range \[2\^(-?\d+), 2\^(-?\d+)\]\.)"))) {
      CHECK(r.kind == BoundKind::Ulps);
      CHECK(r.ulps == *number(m[1]));
      REQUIRE(r.domain.y.has_value());
      CHECK_FALSE(r.domain.x.has_value());
      CHECK(r.domain.y->lo == std::ldexp(1.0, std::stoi(m[2])));
      CHECK(r.domain.y->hi == std::ldexp(1.0, std::stoi(m[3])));
      CHECK((r.domain.y->magnitude && r.domain.y->orZero && !r.domain.y->loOpen && !r.domain.y->hiOpen));
      CHECK(r.otherwiseUlps < 0);  // any value for other divisors
      domainChecked = true;
    } else {
      FAIL("unrecognised wording: " << t);
    }
    if (!domainChecked) CHECK_FALSE(r.domain.any());
    if (r.kind != BoundKind::Inherited) CHECK(r.formula.empty());
    if (r.kind != BoundKind::Absolute) CHECK_FALSE(r.absoluteStrict);
    CHECK_FALSE(r.plusFloorAbs2x);
    CHECK(r.ulpsPerN == 0);
    ++checked;
  }
  CHECK(checked == 3 * (49 + 51));  // float, half and double
}
