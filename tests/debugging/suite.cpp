// tests/debugging/suite.hpp.
#include "suite.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace clref::debugging {

using nlohmann::json;

const char* toString(Kind k) {
  switch (k) {
    case Kind::Race: return "race";
    case Kind::Uninitialized: return "uninitialized";
    case Kind::OutOfBounds: return "out-of-bounds";
    case Kind::BarrierDivergence: return "barrier-divergence";
    case Kind::Other: return "other";
  }
  return "other";
}

std::optional<Kind> parseKind(const std::string& name) {
  for (Kind k : {Kind::Race, Kind::Uninitialized, Kind::OutOfBounds, Kind::BarrierDivergence})
    if (name == toString(k)) return k;
  return std::nullopt;
}

const char* toString(Verdict v) {
  switch (v) {
    case Verdict::Found: return "found";
    case Verdict::WrongLine: return "wrong line";
    case Verdict::WrongKind: return "wrong kind";
    case Verdict::Missed: return "missed";
    case Verdict::Clean: return "clean";
    case Verdict::FalsePositive: return "false positive";
    case Verdict::Error: return "error";
  }
  return "error";
}

std::string Entry::options() const {
  std::string o = "-cl-std=" + clStd;
  if (!buildOptions.empty()) o += " " + buildOptions;
  return o;
}

namespace {

[[noreturn]] void bad(const std::string& entry, const std::string& what) {
  throw std::runtime_error("suite manifest: entry " + entry + ": " + what);
}

// An outcome field: a kind, or "clean" (none).
std::optional<Kind> outcome(const json& e, const std::string& name, const char* field) {
  const std::string text = e.at(field).get<std::string>();
  if (text == "clean") return std::nullopt;
  auto k = parseKind(text);
  if (!k) bad(name, std::string(field) + " \"" + text + "\" is not clean, race, uninitialized, out-of-bounds or barrier-divergence");
  return k;
}

std::vector<size_t> sizes(const json& e, const std::string& name, const char* field) {
  auto v = e.at(field).get<std::vector<size_t>>();
  if (v.empty() || v.size() > 3) bad(name, std::string(field) + " needs 1 to 3 sizes");
  return v;
}

std::string joinSizes(const std::vector<size_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

// A number as run_suite_host parses it (strtod): integers without a fraction, others round-tripping.
std::string number(const json& v) {
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number_unsigned()) return std::to_string(v.get<unsigned long long>());
  std::ostringstream s;
  s.precision(17);
  s << v.get<double>();
  return s.str();
}

}  // namespace

std::vector<Entry> loadSuite(const std::filesystem::path& manifest) {
  std::ifstream in(manifest);
  if (!in) throw std::runtime_error("suite manifest: cannot read " + manifest.string());
  const json doc = json::parse(in);
  std::vector<Entry> entries;
  std::set<std::string> names;
  for (const json& e : doc.at("entries")) {
    Entry x;
    x.name = e.at("name").get<std::string>();
    if (!names.insert(x.name).second) bad(x.name, "the name is used twice");
    try {
      x.file = std::filesystem::absolute(manifest.parent_path() / e.at("file").get<std::string>());
      x.kernel = e.at("kernel").get<std::string>();
      x.clStd = e.at("cl_std").get<std::string>();
      x.buildOptions = e.value("build_options", "");
      x.global = sizes(e, x.name, "global");
      x.local = sizes(e, x.name, "local");
      if (x.local.size() != x.global.size()) bad(x.name, "global and local differ in dimensions");
      x.argsJson = e.at("args").dump();
      x.expect = outcome(e, x.name, "expect");
      x.expectCaseFile = e.contains("expect_case_file") ? outcome(e, x.name, "expect_case_file") : x.expect;
      for (int line : e.at("lines").get<std::vector<int>>()) x.lines.insert(line);
    } catch (const json::exception& err) {
      bad(x.name, err.what());
    }
    if (x.expect && x.lines.empty()) bad(x.name, "a buggy kernel needs the lines its report must name");
    if (!x.expect && !x.lines.empty()) bad(x.name, "a clean control names no lines");
    entries.push_back(std::move(x));
  }
  return entries;
}

std::string caseFileJson(const Entry& entry) {
  json args = json::parse(entry.argsJson);
  for (json& a : args)
    if (a.contains("buffer") && a["buffer"].value("init", json()) == "none") a["buffer"].erase("init");
  // clref offers OpenCL C 3.0 with the 2.0 features as optional features, not OpenCL C 2.0 itself (as
  // run_suite_host's adaptLanguageVersion does for any such device).
  std::string options = entry.options();
  if (const auto at = options.find("-cl-std=CL2.0"); at != std::string::npos) options.replace(at, 13, "-cl-std=CL3.0");
  json c = {{"module", entry.file.string()},
            {"build_options", options + " -g"},
            {"kernel", entry.kernel},
            {"ndrange", {{"global", entry.global}, {"local", entry.local}}},
            {"args", args}};
  return c.dump(2);
}

std::vector<std::string> hostArguments(const Entry& entry) {
  std::vector<std::string> argv = {entry.file.string(), entry.kernel, entry.options(), joinSizes(entry.global),
                                   joinSizes(entry.local)};
  for (const json& a : json::parse(entry.argsJson)) {
    if (a.contains("local")) {
      argv.push_back("local:" + number(a["local"]));
    } else if (a.contains("scalar")) {
      argv.push_back(a["scalar"].at("type").get<std::string>() + "=" + number(a["scalar"].at("value")));
    } else if (a.contains("buffer")) {
      const json& b = a["buffer"];
      std::string s = "buffer:" + b.at("type").get<std::string>() + ":" + number(b.at("count"));
      const json init = b.value("init", json());
      if (init.is_null()) {
        s += ":zero";
      } else if (init == "none") {
        s += ":none";
      } else if (init.contains("iota")) {
        s += ":iota=" + number(init["iota"].at("start")) + "," + number(init["iota"].at("step"));
      } else if (init.contains("fill")) {
        s += ":fill=" + number(init["fill"]);
      } else if (init.contains("values")) {
        s += ":values=";
        bool first = true;
        for (const json& v : init["values"]) {
          s += (first ? "" : ",") + number(v);
          first = false;
        }
      } else {
        bad(entry.name, "a buffer init run_suite_host does not know: " + init.dump());
      }
      argv.push_back(s);
    } else {
      bad(entry.name, "an argument run_suite_host does not know: " + a.dump());
    }
  }
  return argv;
}

std::string shellQuote(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) {
    if (!s.empty()) s += ' ';
    s += '\'';
    for (char c : w) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
    s += '\'';
  }
  return s;
}

namespace {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool indented(const std::string& line) { return !line.empty() && (line[0] == ' ' || line[0] == '\t'); }

void addLines(Report& r, const std::string& line, const std::regex& pattern) {
  for (std::sregex_iterator it(line.begin(), line.end(), pattern), end; it != end; ++it)
    r.lines.insert(std::stoi((*it)[1].str()));
}

}  // namespace

std::vector<Report> parseClrefOutput(const std::string& text) {
  // A report's source lines: "(file:LINE)" or "(program source line LINE)" (a program built from a string through
  // the ICD) at the end of an instruction line, or a line "source: file:LINE".
  static const std::regex sourceLine(R"((?::|program source line )(\d+)\)\s*$|^\s*source: .*:(\d+)\s*$)");
  struct Marker {
    const char* text;
    Kind kind;
  };
  static const Marker markers[] = {{"data race: ", Kind::Race},
                                   {"use of an uninitialised value: ", Kind::Uninitialized},
                                   {"fault: use of an undefined value: ", Kind::Uninitialized},
                                   {"fault: out-of-bounds access: ", Kind::OutOfBounds},
                                   {"fault: barrier divergence: ", Kind::BarrierDivergence},
                                   {"fault: unsupported: ", Kind::Other},
                                   {" could not run: ", Kind::Other},
                                   {"fault: ", Kind::Other}};
  std::vector<Report> reports;
  Report* current = nullptr;
  for (const std::string& line : splitLines(text)) {
    if (!indented(line)) {
      current = nullptr;
      for (const Marker& m : markers) {
        if (line.find(m.text) == std::string::npos) continue;
        // What clref cannot execute is its own limitation, not a problem in the kernel.
        const bool toolError = std::string(m.text) == "fault: unsupported: " || std::string(m.text) == " could not run: ";
        reports.push_back({m.kind, {}, line, toolError});
        current = &reports.back();
        break;
      }
      continue;
    }
    if (!current) continue;
    std::smatch m;
    if (std::regex_search(line, m, sourceLine)) current->lines.insert(std::stoi(m[1].matched ? m[1].str() : m[2].str()));
  }
  return reports;
}

std::vector<Report> parseOclgrindOutput(const std::string& text) {
  static const std::regex atLine(R"(At line (\d+))");
  struct Marker {
    const char* text;
    Kind kind;
  };
  static const Marker markers[] = {{"data race", Kind::Race},
                                   {"Uninitialized", Kind::Uninitialized},
                                   {"Invalid read", Kind::OutOfBounds},
                                   {"Invalid write", Kind::OutOfBounds},
                                   {"exceeds static array size", Kind::OutOfBounds},
                                   {"divergence", Kind::BarrierDivergence}};
  // Oclgrind's kernel messages are a headline followed by tab-indented lines, one of them "Kernel: NAME"; messages
  // without that line (runtime API errors: "Function: ...", the compiler's own output) are not about the kernel.
  std::vector<Report> reports;
  const auto lines = splitLines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty() || indented(lines[i])) continue;
    Report r{Kind::Other, {}, lines[i], false};
    bool aboutKernel = false;
    size_t j = i + 1;
    for (; j < lines.size() && indented(lines[j]); ++j) {
      if (lines[j].find("Kernel:") != std::string::npos) aboutKernel = true;
      addLines(r, lines[j], atLine);
    }
    // A fatal error names its reason on the line after the headline ("Unsupported instruction: addrspacecast").
    const bool fatal = lines[i].find("OCLGRIND FATAL ERROR") != std::string::npos;
    if (fatal && j < lines.size() && i + 1 < lines.size() && !indented(lines[i + 1])) {
      r.headline += ": " + lines[i + 1];
      for (j = i + 2; j < lines.size() && indented(lines[j]); ++j) {
        if (lines[j].find("Kernel:") != std::string::npos) aboutKernel = true;
        addLines(r, lines[j], atLine);
      }
    }
    if (fatal) {
      r.toolError = true;
      aboutKernel = true;
    }
    if (!aboutKernel) continue;
    if (!fatal)
      for (const Marker& m : markers)
        if (lines[i].find(m.text) != std::string::npos) {
          r.kind = m.kind;
          break;
        }
    reports.push_back(r);
    i = j - 1;
  }
  return reports;
}

Verdict judge(const std::optional<Kind>& expect, const std::set<int>& lines, const std::vector<Report>& reports,
              bool ran) {
  std::vector<const Report*> kernel;
  for (const Report& r : reports)
    if (!r.toolError) kernel.push_back(&r);
  if (kernel.empty()) {
    if (!ran || reports.size() > 0) return Verdict::Error;
    return expect ? Verdict::Missed : Verdict::Clean;
  }
  if (!expect) return Verdict::FalsePositive;
  bool kindSeen = false;
  for (const Report* r : kernel) {
    if (r->kind != *expect) continue;
    kindSeen = true;
    for (int l : r->lines)
      if (lines.count(l)) return Verdict::Found;
  }
  return kindSeen ? Verdict::WrongLine : Verdict::WrongKind;
}

std::string summary(const std::vector<Report>& reports) {
  // Per kind the union of the lines, in the order the kinds first appear.
  std::vector<std::pair<std::string, std::set<int>>> kinds;
  for (const Report& r : reports) {
    const std::string name = r.toolError ? "tool-error" : toString(r.kind);
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == name; });
    if (it == kinds.end()) {
      kinds.push_back({name, {}});
      it = std::prev(kinds.end());
    }
    it->second.insert(r.lines.begin(), r.lines.end());
  }
  std::string s;
  for (const auto& [name, ls] : kinds) {
    if (!s.empty()) s += ' ';
    s += name;
    if (ls.empty()) continue;
    s += '@';
    bool first = true;
    for (int l : ls) {
      s += (first ? "" : ",") + std::to_string(l);
      first = false;
    }
  }
  return s.empty() ? "-" : s;
}

}  // namespace clref::debugging
