// Every specification citation in the repository names a section that exists (docs/CITATIONS.md):
//   OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]   the anchor exists in the
//       document, and the section numbered 7.5.1 (computed from the sources as Asciidoctor numbers
//       them) contains it;
//   OpenCL C 1.2 §6.12.2 "Math Functions"   the document has that numbered heading;
//   IEEE 754-2008 §4.3.1 [external]          recognised, not checked;
//   opencl-c-spec.adoc § "Conversion Rules"  (numerics/accuracy_table.cpp's form) the file exists.
// A § in any other form (an old "§6.15.2" without anchor) is an error, so is a § that names no
// document. The same section rules as scripts/SpecIndex.pm, written again in C++.
//
// The specification folder is clref_test::specDir() (tests/spec_dir.hpp): without it the test is
// reported as skipped (exit 77, ctest SKIP_RETURN_CODE). Exit 1 on any error.
#include "spec_dir.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> readLines(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::vector<std::string> lines;
  std::string l;
  while (std::getline(in, l)) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  return lines;
}

std::string trim(std::string s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

bool isWord(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// ---- the AsciiDoc documents: rendered section numbers and anchors --------------------------------

struct Section {
  std::string num, title, id;
  int level = 0;
  int parent = -1;
  int children = 0;
};

struct AdocIndex {
  std::vector<Section> sections;
  std::map<std::string, int> anchors;  // id → index of the section containing it (-1: before any)
  bool within(int k, const std::string& num) const {
    for (; k >= 0; k = sections[k].parent)
      if (sections[k].num == num) return true;
    return false;
  }
};

// Asciidoctor's generated id (idprefix "_", idseparator "_"), as SpecIndex::auto_id.
std::string autoId(std::string t) {
  t = std::regex_replace(t, std::regex(R"(\{[A-Za-z0-9_-]+\})"), "");
  t = std::regex_replace(t, std::regex(R"(<<[^,>]*,([^>]*)>>)"), "$1");
  std::string u;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '_') {
      bool prevWord = i > 0 && isWord(t[i - 1]), prevSpace = i == 0 || t[i - 1] == ' ' || t[i - 1] == '\t';
      bool nextWord = i + 1 < t.size() && isWord(t[i + 1]);
      bool nextSpace = i + 1 >= t.size() || t[i + 1] == ' ' || t[i + 1] == '\t';
      if ((!prevWord && !nextSpace) || (!prevSpace && !nextWord)) continue;
    }
    if (t[i] == '*' || t[i] == '`' || t[i] == '#' || t[i] == '+') continue;
    u += t[i];
  }
  std::string v;
  for (unsigned char c : u) {
    c = std::tolower(c);
    if (std::isalnum(c) || c == '_' || c == ' ' || c == '-' || c == '.') v += char(c);
  }
  std::string w = "_";
  for (size_t i = 0; i < v.size();) {
    if (v[i] == ' ' || v[i] == '.' || v[i] == '-') {
      while (i < v.size() && (v[i] == ' ' || v[i] == '.' || v[i] == '-')) ++i;
      w += '_';
    } else {
      w += v[i++];
    }
  }
  if (w.size() > 1 && w.back() == '_') w.pop_back();
  return w;
}

struct DocFile {
  std::string name;
  int leveloffset;
  bool numbered;
};

// The include order of OpenCL_C.txt, OpenCL_API.txt and OpenCL_Env.txt (KhronosGroup/OpenCL-Docs),
// as in scripts/SpecIndex.pm.
struct AdocDoc {
  std::string dir;
  int sectnumoffset;
  std::vector<DocFile> files;
};

const std::map<std::string, AdocDoc>& adocDocs() {
  static const std::map<std::string, AdocDoc> docs = [] {
    std::map<std::string, AdocDoc> d;
    d["OpenCL C 3.0"] = {".", 5, {{"opencl-c-spec.adoc", 0, true}}};
    AdocDoc api{"opencl-3.0-api-latest", 0, {}};
    for (auto f : {"introduction", "glossary", "opencl_architecture", "opencl_platform_layer", "opencl_runtime_layer",
                   "opencl_assoc_spec", "embedded_profile"})
      api.files.push_back({std::string(f) + ".asciidoc", 1, true});
    for (auto f : {"appendix_a", "appendix_b", "appendix_c", "appendix_d", "appendix_e", "appendix_f", "appendix_g",
                   "appendix_h", "appendix_extensions", "acknowledgements"})
      api.files.push_back({std::string(f) + ".asciidoc", 1, false});
    d["OpenCL 3.0 API"] = api;
    AdocDoc env{"opencl-spirv-env-latest", 0, {}};
    for (auto f : {"introduction", "common_properties", "required_capabilities", "validation_rules", "extensions",
                   "numerical_compliance", "image_addressing_and_filtering", "references"})
      env.files.push_back({std::string(f) + ".asciidoc", 0, true});
    env.files.push_back({"appendix_a.asciidoc", 1, false});
    d["OpenCL SPIR-V Environment"] = env;
    return d;
  }();
  return docs;
}

AdocIndex buildAdoc(const fs::path& specDir, const AdocDoc& doc) {
  AdocIndex x;
  bool numbered = true;
  int chapter = 0;
  char appendix = 'A';
  static const std::regex anchorLine(R"(^\[\[([^\],]+)(?:,[^\]]*)?\]\]\s*$)"),
      hashAnchor(R"(^\[#([\w:.-]+)[^\]]*\]\s*$)");
  static const std::regex attrLine(R"(^\[[^\]]*\]\s*$)"), heading(R"(^(=+)\s+(\S.*?)\s*$)");
  static const std::regex inlineAnchor(R"(\[\[([A-Za-z_][\w:.-]*)(?:,[^\]]*)?\]\])"),
      macroAnchor(R"(anchor:([A-Za-z_][\w:.-]*)\[)");
  static const std::regex boundaryRx(R"(^\s*$|^\[.*\]\s*$|^:[\w!-]+:|^//|^include::|^ifn?def::|^endif::)");
  for (const DocFile& f : doc.files) {
    auto lines = readLines(specDir / doc.dir / f.name);
    if (lines.empty()) throw std::runtime_error("cannot read " + (specDir / doc.dir / f.name).string());
    int leveloffset = f.leveloffset;
    if (doc.files.size() > 1) numbered = f.numbered;
    std::string delim;
    std::vector<std::string> pending;
    bool isAppendix = false;
    int cur = int(x.sections.size()) - 1;
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string& l = lines[i];
      if (!delim.empty()) {
        if (l == delim) delim.clear();
        continue;
      }
      if (l.size() >= 4 &&
          (l.find_first_not_of('-') == std::string::npos || l.find_first_not_of('.') == std::string::npos ||
           l.find_first_not_of('/') == std::string::npos || l.find_first_not_of('+') == std::string::npos)) {
        delim = l;
        continue;
      }
      if (l.rfind("//", 0) == 0) continue;
      if (l.rfind(":leveloffset:", 0) == 0) {
        leveloffset = std::stoi(trim(l.substr(13)));
        continue;
      }
      if (l.rfind(":numbered!:", 0) == 0 || l.rfind(":sectnums!:", 0) == 0) {
        numbered = false;
        continue;
      }
      if (l.rfind(":numbered:", 0) == 0 || l.rfind(":sectnums:", 0) == 0) {
        numbered = true;
        continue;
      }
      std::smatch m;
      if (std::regex_match(l, m, anchorLine) || std::regex_match(l, m, hashAnchor)) {
        pending.push_back(m[1]);
        continue;
      }
      if (trim(l) == "[appendix]") {
        isAppendix = true;
        continue;
      }
      if (std::regex_match(l, attrLine)) continue;
      bool boundary = i == 0 || std::regex_search(lines[i - 1], boundaryRx);
      if (boundary && l.find_first_not_of('=') != std::string::npos && std::regex_match(l, m, heading)) {
        int level = int(m[1].length()) - 1 + leveloffset;
        std::string title = m[2];
        if (level <= 0) {
          pending.clear();
          isAppendix = false;
          continue;
        }
        Section s;
        s.level = level;
        s.title = title;
        for (int j = int(x.sections.size()) - 1; j >= 0; --j)
          if (x.sections[j].level < level) {
            s.parent = j;
            break;
          }
        if (level == 1 && isAppendix) {
          s.num = std::string(1, appendix++);
        } else if (level == 1 && numbered) {
          s.num = std::to_string(++chapter + doc.sectnumoffset);
        } else if (level > 1 && s.parent >= 0 && !x.sections[s.parent].num.empty()) {
          Section& p = x.sections[s.parent];
          s.num = p.num + "." + std::to_string(++p.children);
        }
        if (!pending.empty()) {
          s.id = pending[0];
        } else {
          std::string id = autoId(title);
          if (x.anchors.count(id)) {
            int n = 2;
            while (x.anchors.count(id + "_" + std::to_string(n))) ++n;
            id += "_" + std::to_string(n);
          }
          s.id = id;
        }
        x.sections.push_back(s);
        cur = int(x.sections.size()) - 1;
        for (auto& a : pending) x.anchors.emplace(a, cur);
        x.anchors.emplace(s.id, cur);
        pending.clear();
        isAppendix = false;
        continue;
      }
      for (auto& a : pending) x.anchors.emplace(a, cur);
      pending.clear();
      for (std::sregex_iterator it(l.begin(), l.end(), inlineAnchor), end; it != end; ++it)
        x.anchors.emplace((*it)[1], cur);
      for (std::sregex_iterator it(l.begin(), l.end(), macroAnchor), end; it != end; ++it)
        x.anchors.emplace((*it)[1], cur);
    }
  }
  return x;
}

// ---- the documents without anchors: number → heading ----------------------------------------------

std::map<std::string, std::string> buildHeadings(const fs::path& file) {
  std::map<std::string, std::string> h;
  static const std::regex tocLine(R"(\t\d+$)"), sup(R"(<sup>.*?</sup>)"), numbered(R"(^(\d+(?:\.\d+)*)\.?\s+(\S.*)$)");
  bool md = file.extension() == ".md";
  auto lines = readLines(file);
  if (lines.empty()) throw std::runtime_error("cannot read " + file.string());
  for (std::string t : lines) {
    if (std::regex_search(t, tocLine)) continue;
    if (md) {
      if (t.empty() || t[0] != '#') continue;
      t = trim(t.substr(t.find_first_not_of('#')));
    } else if (t.rfind("Chapter ", 0) == 0) {
      t = t.substr(8);
    }
    t = std::regex_replace(t, sup, "");
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
    std::smatch m;
    if (std::regex_match(t, m, numbered)) h.emplace(m[1], m[2]);
  }
  return h;
}

const std::map<std::string, std::string> kHeadingDocs = {
    {"OpenCL C 1.2", "opencl-1.2-api-spec.md"},
    {"OpenCL 1.2 API", "opencl-1.2-api-spec.md"},
    {"OpenCL SPIR-V Environment 2.2", "opencl-spirv-env-2.2.md"},
    {"OpenCL Extension Specification 3.0.12", "opencl-3.0.12-extension-spec.txt"},
};

// ---- the checker ------------------------------------------------------------------------------------

class Checker {
 public:
  explicit Checker(fs::path specDir) : spec_(std::move(specDir)) {}

  // Checks the citations of one file's text; returns the errors as "file:line: message".
  std::vector<std::string> check(const std::string& file, const std::string& text) {
    std::vector<std::string> errors;
    std::vector<std::string> lines;
    {
      std::istringstream in(text);
      std::string l;
      while (std::getline(in, l)) lines.push_back(l);
    }
    static const std::regex commentPrefix(R"(^\s*(?://+|;+|#+|\*+|/\*+)\s*)");
    static const std::regex commentStart(R"(^\s*(//|;|#|\*|/\*))");
    static const std::regex target(
        R"re(^\s?((?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*))?\s*(?:\[\[([^\]\s]+)\]\]|"([^"\n]+)"|(\[external\])))re");
    static const std::regex filePath(R"([\w/.-]+\.(?:adoc|asciidoc|md|txt)\s*$)");
    std::string docNames;
    for (auto& [name, _] : adocDocs()) docNames += (docNames.empty() ? "" : "|") + quote(name);
    for (auto& [name, _] : kHeadingDocs) docNames += "|" + quote(name);
    const std::regex docAtEnd("(" + docNames + R"()\s*$)");
    const std::regex externalAtEnd(
        R"((SPIR-V(?: 1\.\d)?|IEEE 754(?:-2008)?|C99|C11|OpenCL\.std|OpenCL Extended Instruction Set|OpenCL\.DebugInfo\.100)\s*$)");
    std::optional<std::string> prevDoc;  // the document of the file's previous citation
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string& line = lines[i];
      if (line.find("§") == std::string::npos || line.find("NOCITE") != std::string::npos) continue;
      bool isComment = std::regex_search(line, commentStart);
      std::string prevText;
      if (isComment && i > 0) prevText = trim(std::regex_replace(lines[i - 1], commentPrefix, ""));
      size_t pos = 0;
      while ((pos = line.find("§", pos)) != std::string::npos) {
        std::string before = line.substr(0, pos);
        std::string here = std::regex_replace(before, commentPrefix, "");
        bool firstOnLine = before.find("§") == std::string::npos;
        std::string context = (isComment && firstOnLine) ? prevText + " " + here : before;
        std::string after = line.substr(pos + std::string("§").size());
        pos += std::string("§").size();
        // the target may be wrapped onto the next comment line
        if (isComment && std::regex_match(after, std::regex(R"(\s*(\d+(\.\d+)*|[A-Z](\.\d+)*)\s*)")) &&
            i + 1 < lines.size())
          after += " " + std::regex_replace(lines[i + 1], commentPrefix, "");
        std::string where = file + ":" + std::to_string(i + 1) + ": ";
        std::smatch m;
        if (std::regex_search(context, filePath) && std::regex_search(after, std::regex(R"(^\s*\\?")"))) {
          std::smatch fm;
          std::regex_search(context, fm, std::regex(R"(([\w/.-]+\.(?:adoc|asciidoc|md|txt))\s*$)"));
          if (!fs::exists(spec_ / fm[1].str()))
            errors.push_back(where + "no file " + fm[1].str() + " in the spec folder");
          ++count_["file-heading"];
          continue;
        }
        if (!std::regex_search(after, m, target)) {
          errors.push_back(where + "citation without anchor, heading or [external]: " + trim(line));
          continue;
        }
        std::string num = m[1], anchor = m[2], title = m[3];
        bool external = m[4].matched;
        std::smatch dm;
        std::optional<std::string> doc;
        if (std::regex_search(context, dm, docAtEnd))
          doc = dm[1];
        else if (std::regex_search(context, dm, externalAtEnd))
          doc = "external";
        if (external) {
          ++count_["external"];
          prevDoc = "external";
          continue;
        }
        if (!doc) doc = prevDoc;
        if (!doc || *doc == "external") {
          errors.push_back(where + "§" + num + " names no document (and continues no citation): " + trim(line));
          continue;
        }
        prevDoc = doc;
        if (std::string e = checkOne(*doc, num, anchor, title); !e.empty()) errors.push_back(where + e);
      }
    }
    return errors;
  }

  std::string checkOne(const std::string& doc, const std::string& num, const std::string& anchor,
                       const std::string& title) {
    if (auto a = adocDocs().find(doc); a != adocDocs().end()) {
      if (anchor.empty()) return doc + " is cited by anchor: §" + num + " \"" + title + "\"";
      const AdocIndex& x = adoc(doc, a->second);
      auto it = x.anchors.find(anchor);
      if (it == x.anchors.end()) return "no anchor [[" + anchor + "]] in " + doc;
      if (!num.empty() && !x.within(it->second, num))
        return "[[" + anchor + "]] is not in " + doc + " §" + num + " (it is in §" +
               (it->second >= 0 ? x.sections[it->second].num : std::string("?")) + ")";
      ++count_["anchor"];
      return "";
    }
    auto h = kHeadingDocs.find(doc);
    if (title.empty()) return doc + " is cited by heading: §" + num + " \"Title\"";
    auto& heads = headings(h->second);
    auto it = heads.find(num);
    if (it == heads.end() || it->second != title) return "no heading \"" + num + " " + title + "\" in " + h->second;
    ++count_["heading"];
    return "";
  }

  std::map<std::string, int>& counts() { return count_; }

 private:
  static std::string quote(const std::string& s) {
    std::string r;
    for (char c : s) {
      if (std::string(".^$|()[]{}*+?\\").find(c) != std::string::npos) r += '\\';
      r += c;
    }
    return r;
  }
  const AdocIndex& adoc(const std::string& name, const AdocDoc& d) {
    auto it = adoc_.find(name);
    if (it == adoc_.end()) it = adoc_.emplace(name, buildAdoc(spec_, d)).first;
    return it->second;
  }
  const std::map<std::string, std::string>& headings(const std::string& file) {
    auto it = heads_.find(file);
    if (it == heads_.end()) it = heads_.emplace(file, buildHeadings(spec_ / file)).first;
    return it->second;
  }

  fs::path spec_;
  std::map<std::string, AdocIndex> adoc_;
  std::map<std::string, std::map<std::string, std::string>> heads_;
  std::map<std::string, int> count_;
};

// The repository's files: `git ls-files`, else a walk of the source tree.
std::vector<std::string> sourceFiles(const fs::path& root) {
  std::vector<std::string> files;
  std::string cmd = "git -C \"" + root.string() + "\" ls-files 2>/dev/null";
  if (FILE* p = popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf;
    while (fgets(buf.data(), buf.size(), p)) {
      std::string s(buf.data());
      while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
      files.push_back(s);
    }
    pclose(p);
  }
  if (files.empty()) {
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
      std::string name = it->path().filename().string();
      if (it->is_directory() && (name == ".git" || name.rfind("build", 0) == 0)) {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file()) files.push_back(fs::relative(it->path(), root).generic_string());
    }
  }
  static const std::regex wanted(R"(\.(cpp|hpp|h|c|cl|spvasm|md|txt|cmake|sh|pl|pm|py|json)$)");
  static const std::regex excluded(
      R"(^(docs/CITATIONS\.md|tests/spec/|scripts/(convert-citations\.pl|SpecIndex\.pm)))");
  std::vector<std::string> out;
  for (auto& f : files)
    if (std::regex_search(f, wanted) && !std::regex_search(f, excluded)) out.push_back(f);
  return out;
}

// The checker must be able to fail: made-up anchors, old citations and wrong numbers are reported.
int selfTest(Checker& c) {
  struct Case {
    const char* text;
    bool ok;
  };
  const Case cases[] = {
      {"// OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]]: fine", true},
      {"// OpenCL C 3.0 §7.5.1 [[a-made-up-anchor-that-is-not-there]]", false},
      {"// OpenCL C 3.0 §6.15.2 [[additional-requirements-beyond-c99-tc2]] (anchor outside §6.15.2)", false},
      {"// OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_objects]], §5.2.3 [[_filling_buffer_objects]]",
       true},
      {"// OpenCL 3.0 API §5.2.2 [[_reading_writing_and_copying_buffer_object]]", false},
      {"// OpenCL SPIR-V Environment §6.6 [[relative-error-as-ulps]]", true},
      {"// OpenCL C 1.2 §6.12.2 \"Math Functions\"", true},
      {"// OpenCL C 1.2 §6.12.2 \"Integer Functions\"", false},
      {"// OpenCL Extension Specification 3.0.12 §2 \"Installable Client Drivers\"", true},
      {"// §6.15.2 fma: an old citation", false},
      {"// OpenCL C 3.0 §6.15.2 fma: an old citation with a document", false},
      {"// §7.5.1 [[additional-requirements-beyond-c99-tc2]]: no document", false},
      {"// IEEE 754-2008 §4.3.1 [external] roundTiesToEven, §4.3.2 [external]", true},
      {"\"opencl-c-spec.adoc § \\\"Relative Error as ULPs\\\"\"", true},
      {"\"opencl-no-such-file.adoc § \\\"Relative Error as ULPs\\\"\"", false},
      {"// OpenCL C 3.0\n// §6.15.2 [[math-functions]] (wrapped)", true},
      {"// OpenCL C 3.0 §6.15.2\n// [[math-functions]] (wrapped target)", true},
  };
  int failures = 0;
  for (const Case& k : cases) {
    auto errors = c.check("selftest", k.text);
    if (errors.empty() != k.ok) {
      std::cout << "self-test FAILED: " << (k.ok ? "reported" : "not reported") << ": " << k.text << "\n";
      for (auto& e : errors) std::cout << "  " << e << "\n";
      ++failures;
    }
  }
  c.counts().clear();
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path sourceDir = CLREF_SOURCE_DIR;
  const std::string specDir = clref_test::specDir().string();  // exits 77 (skipped) without one
  if (argc > 1) sourceDir = argv[1];
  Checker checker(specDir);
  try {
    if (int f = selfTest(checker)) {
      std::cout << f << " self-test case(s) failed\n";
      return 1;
    }
    std::vector<std::string> errors;
    auto files = sourceFiles(sourceDir);
    for (auto& f : files) {
      std::ifstream in(sourceDir / f, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      for (auto& e : checker.check(f, ss.str())) errors.push_back(e);
    }
    for (auto& e : errors) std::cout << e << "\n";
    auto& n = checker.counts();
    std::cout << files.size() << " files; citations checked: " << n["anchor"] << " by anchor, " << n["heading"]
              << " by heading, " << n["file-heading"] << " file § \"heading\"; " << n["external"]
              << " external (not checked); " << errors.size() << " error(s)\n";
    return errors.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n";
    return 1;
  }
}
