// A CheckReport (check.hpp) as one self-contained HTML page, for `clref check --html`, `clref amber --device --html`
// and the check layer's CLREF_CHECK_HTML: everything inline (CSS, script, SVG, pictures as embedded data), nothing
// fetched, readable from a file without a server. Per judged launch (a section) and per output:
//  - the counts per class, with the build options, profile and the choices in force;
//  - an SVG histogram of the distance from clref's value, in ulps, of the allowed and the violating elements;
//  - the violations and undetermined elements as a sortable table (index, observed, clref, allowed set, rule and
//    clause, instruction and source line), at most kHtmlTableRows rows per output, saying how many were left out;
//  - a map of the elements by class: an image's laid out as the image (with the observed and clref's image beside
//    it), a buffer of a 2-D or 3-D launch laid out like the NDRange;
//  - the decisions the named choices made (what CLREF_LOG=choices prints), with links to their clauses.
// Every string from the report is escaped; a script error on the page is written into the page (#script-errors), so
// that a headless browser's DOM shows it.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "images/image_format.hpp"
#include "numerics/choices.hpp"

namespace clref::host {

// The rows of one output's table of violations and undetermined elements, at most.
constexpr size_t kHtmlTableRows = 10000;
// Outputs (and images) of more elements than this get no map or picture: the page stays a sane size.
constexpr uint64_t kHtmlMapElements = uint64_t(1) << 22;

// An image output's contents for the pictures: mip level 0 (for 3D images and arrays the slices or layers one below
// the other), both packed as ObservedImage is.
struct HtmlImage {
  size_t arg = 0;
  images::ImageFormat format;
  uint64_t width = 0, rows = 0;  // rows: height × depth (or layers)
  std::vector<uint8_t> observed, reference;
};
// The pictures of an observed image: clref's contents from the kernel's image argument after check() ran.
HtmlImage htmlImageOf(const Kernel& kernel, const ObservedImage& observed);

// One judged launch.
struct HtmlSection {
  std::string title;  // what was judged: "vadd (golden/cases/vadd.json)", "enqueue 3: vadd"
  std::string kernel;
  std::string profile;       // "full", "embedded"
  std::string buildOptions;  // the other implementation's build options
  NDRange range;
  numerics::Choices choices;        // the options in force for clref's run
  std::vector<std::string> labels;  // per report.buffers entry: how the output is named ("arg 2 (out)"); may be empty
  std::vector<HtmlImage> images;
  CheckReport report;
};

// The whole page: a heading with `title`, clref's version, then every section.
void writeHtmlReport(std::ostream& out, const std::string& title, const std::vector<HtmlSection>& sections);

// Text with &, <, >, " and ' replaced by their character references: safe in element content and quoted attributes.
std::string htmlEscape(const std::string& text);

}  // namespace clref::host
