// `clref check --html` in a real browser: reports of a clean case, a case with planted violations and an image case
// are opened in headless Chromium, which prints the page's DOM after its script ran and takes a screenshot (kept in
// the build folder, html_report_artefacts/). The test checks that the script ran without an error (the page writes
// its errors into #script-errors) and that the numbers on the page are those of the JSON report of the same run.
// Without chromium the test is skipped (exit 77), saying why.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "clref_run.hpp"

using namespace clref::cli::test;

namespace {

const std::filesystem::path kGolden = std::filesystem::path(CLREF_GOLDEN_DIR) / "cases";

std::string chromium() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    const std::string probe = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return name;
  }
  std::fprintf(stderr, "skipped: no chromium (scripts/install-deps.sh installs it)\n");
  std::fflush(stderr);
  std::_Exit(77);
}

// The DOM of `page` after its scripts ran, with a screenshot of it kept as html_report_artefacts/<name>.png.
std::string renderedDom(const TempDir& dir, const std::filesystem::path& page, const std::string& name) {
  const auto artefacts = std::filesystem::path(CLREF_TEST_ARTEFACTS);
  std::filesystem::create_directories(artefacts);
  const auto dom = dir.path() / (name + ".dom.html");
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start. A fresh profile folder per run keeps
  // parallel tests apart.
  const std::string command = chromium() + " --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir='" +
                              (dir.path() / "profile").string() + "' --window-size=1200,1600 --screenshot='" +
                              (artefacts / (name + ".png")).string() + "' --dump-dom 'file://" + page.string() +
                              "' >'" + dom.string() + "' 2>'" + (dir.path() / "chromium.err").string() + "'";
  const int status = std::system(command.c_str());
  INFO(slurp(dir.path() / "chromium.err"));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return slurp(dom);
}

// The text of the element with this id (up to its first '<'), or "" when the DOM has none.
std::string textOf(const std::string& dom, const std::string& id) {
  const std::string key = "id=\"" + id + "\"";
  const size_t at = dom.find(key);
  if (at == std::string::npos) return "";
  const size_t start = dom.find('>', at) + 1;
  return dom.substr(start, dom.find('<', start) - start);
}

// The sum of data-count of the histogram bars of one class in the SVG with this id.
uint64_t histogramCount(const std::string& dom, const std::string& id, const std::string& cls) {
  const size_t begin = dom.find("id=\"" + id + "\"");
  if (begin == std::string::npos) return 0;
  const size_t end = dom.find("</svg>", begin);
  const std::string svg = dom.substr(begin, end - begin);
  const std::regex bar("data-class=\"" + cls + "\" data-bin=\"[0-9]+\" data-count=\"([0-9]+)\"");
  uint64_t sum = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator(); ++it)
    sum += std::stoull((*it)[1].str());
  return sum;
}

// Checks the page against the JSON report: no script error, the totals, every output's counts, its histogram and
// its table's rows; returns the DOM.
std::string checkPage(const TempDir& dir, const std::filesystem::path& html, const std::filesystem::path& report,
                      const std::string& name, int expectedPictures) {
  const std::string dom = renderedDom(dir, html, name);
  std::ifstream in(report);
  const auto j = nlohmann::json::parse(in);
  // The script ran to its end and met no error.
  CHECK(dom.find("<pre id=\"script-errors\" hidden=\"\"></pre>") != std::string::npos);
  CHECK(textOf(dom, "script-errors").empty());
  std::smatch rendered;
  REQUIRE(std::regex_search(dom, rendered, std::regex("data-rendered=\"([0-9]+)\"")));
  uint64_t tables = 0;
  CHECK(textOf(dom, "total-violations") == std::to_string(j["violations"].get<uint64_t>()));
  CHECK(textOf(dom, "total-undetermined") == std::to_string(j["undetermined"].get<uint64_t>()));
  for (size_t k = 0; k < j["buffers"].size(); ++k) {
    const auto& b = j["buffers"][k];
    const std::string id = "s0-o" + std::to_string(k);
    INFO(id);
    CHECK(textOf(dom, id + "-elements") == std::to_string(b["elements"].get<uint64_t>()));
    CHECK(textOf(dom, id + "-identical") == std::to_string(b["identical"].get<uint64_t>()));
    CHECK(textOf(dom, id + "-allowed") == std::to_string(b["allowed"].get<uint64_t>()));
    CHECK(textOf(dom, id + "-violation") == std::to_string(b["violations"].get<uint64_t>()));
    CHECK(textOf(dom, id + "-undetermined") == std::to_string(b["undetermined"].get<uint64_t>()));
    CHECK(textOf(dom, id + "-any-value") == std::to_string(b["any_value"].get<uint64_t>()));
    if (!b.contains("image")) {
      CHECK(histogramCount(dom, id + "-histogram", "allowed") == b["allowed"].get<uint64_t>());
      CHECK(histogramCount(dom, id + "-histogram", "violation") == b["violations"].get<uint64_t>());
    }
    const uint64_t listed = b["violations"].get<uint64_t>() + b["undetermined"].get<uint64_t>();
    if (listed == 0) continue;
    ++tables;
    // The table the script built from the embedded rows: as many as the report's, each violation's values.
    const size_t table = dom.find("id=\"" + id + "-table\"");
    REQUIRE(table != std::string::npos);
    std::smatch rows;
    const std::string rest = dom.substr(table, dom.find("</table>", table) - table);
    REQUIRE(std::regex_search(rest, rows, std::regex("data-rows=\"([0-9]+)\"")));
    CHECK(std::stoull(rows[1].str()) == listed);
    for (const auto& d : b["details"]) {
      if (d["class"] != "violation") continue;
      const std::string row = "<tr class=\"violation\"><td>" + std::to_string(d["index"].get<uint64_t>()) + "</td>";
      const size_t at = rest.find(row);
      CHECK(at != std::string::npos);
      if (at != std::string::npos) {
        const std::string line = rest.substr(at, rest.find("</tr>", at) - at);
        CHECK(line.find("<td>" + d["observed"].get<std::string>() + "</td>") != std::string::npos);
        CHECK(line.find("<td>" + d["reference"].get<std::string>() + "</td>") != std::string::npos);
      }
    }
  }
  // Every table and every picture (class maps, images) was drawn.
  CHECK(std::stoull(rendered[1].str()) == tables + uint64_t(expectedPictures));
  return dom;
}

// Flips element `index` of a float .bin far outside any allowed set.
void plantFloat(const std::filesystem::path& bin, size_t index) {
  std::fstream f(bin, std::ios::in | std::ios::out | std::ios::binary);
  float v = 0;
  f.seekg(std::streamoff(4 * index));
  f.read(reinterpret_cast<char*>(&v), 4);
  v = -v * 3 - 1;
  f.seekp(std::streamoff(4 * index));
  f.write(reinterpret_cast<const char*>(&v), 4);
}

}  // namespace

TEST_CASE("clref check --html: a clean report opens in Chromium with the JSON report's numbers", "[check][html]") {
  chromium();
  TempDir dir;
  const auto caseFile = kGolden / "math_functions.json";
  const auto out = dir.path() / "out";
  REQUIRE(runClref(dir, "run '" + caseFile.string() + "' --perturb 7 --out '" + out.string() + "'").status == 0);
  const auto html = dir.path() / "clean.html", report = dir.path() / "clean.json";
  const auto r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "' --html '" +
                                   html.string() + "' --report '" + report.string() + "'");
  REQUIRE(r.status == 0);
  const std::string dom = checkPage(dir, html, report, "clean", 2);  // a class map per output buffer
  CHECK(dom.find("class=\"verdict verdict-ok\" id=\"verdict\"") != std::string::npos);
}

TEST_CASE("clref check --html: planted violations are in the table, the histogram and the map", "[check][html]") {
  chromium();
  TempDir dir;
  const auto caseFile = kGolden / "math_functions.json";
  const auto out = dir.path() / "out";
  REQUIRE(runClref(dir, "run '" + caseFile.string() + "' --perturb 7 --out '" + out.string() + "'").status == 0);
  for (size_t index : {10, 11, 500}) plantFloat(out / "math_functions.arg2.bin", index);
  const auto html = dir.path() / "planted.html", report = dir.path() / "planted.json";
  const auto r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "' --html '" +
                                   html.string() + "' --report '" + report.string() + "'");
  REQUIRE(r.status == 1);
  const std::string dom = checkPage(dir, html, report, "planted", 2);
  CHECK(textOf(dom, "total-violations") == "3");
  // The rule and its clause, apart from the reason, in the violation's row.
  CHECK(dom.find("[[ulp_values_for_math_instructions]]") != std::string::npos);
}

TEST_CASE("clref check --html: an image output with pictures of both images and the class map", "[check][html]") {
  chromium();
  TempDir dir;
  const auto caseFile = kGolden / "image_brighten_O2.json";
  const auto out = dir.path() / "out";
  REQUIRE(runClref(dir, "run '" + caseFile.string() + "' --out '" + out.string() + "'").status == 0);
  // Element 7's red channel (UNORM_INT16, little-endian first two bytes) far from anything the write rules allow.
  {
    std::fstream f(out / "image_brighten_O2.arg0.bin", std::ios::in | std::ios::out | std::ios::binary);
    uint16_t red = 0;
    f.seekg(8 * 7);
    f.read(reinterpret_cast<char*>(&red), 2);
    red = uint16_t(red > 30000 ? red - 20000 : red + 20000);
    f.seekp(8 * 7);
    f.write(reinterpret_cast<const char*>(&red), 2);
  }
  const auto html = dir.path() / "image.html", report = dir.path() / "image.json";
  const auto r = runClref(dir, "check '" + caseFile.string() + "' --observed '" + out.string() + "' --html '" +
                                   html.string() + "' --report '" + report.string() + "'");
  REQUIRE(r.status == 1);
  // The observed image, clref's and the class map.
  const std::string dom = checkPage(dir, html, report, "image", 3);
  CHECK(textOf(dom, "s0-o0-violation") == "1");
  CHECK(dom.find("data-rgb=") != std::string::npos);
}
