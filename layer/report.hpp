// What the check layer says about each enqueue: one line on stderr, and with CLREF_CHECK_REPORT one JSON object per
// enqueue appended to that file as one line (a single write, so that several processes can share the file).
#pragma once
#include <string>

#include "check/check.hpp"
#include "check/html_report.hpp"

namespace clref::layer {

struct Enqueue {
  std::string kernel;
  host::NDRange range;
  bool deviceChoseLocal = false;  // the application gave no local size: clref used its own choice
  std::string optionsNote;        // build options clref could not weigh
  host::CheckReport report;
  // For the HTML report (CLREF_CHECK_HTML): the profile and build options judged by, the choices of clref's run, and
  // clref's contents of the image outputs.
  std::string profile, buildOptions;
  numerics::Choices choices;
  std::vector<host::HtmlImage> images;
};

// The line and the JSON object of a checked enqueue: the counts per class, the first violation (index, observed
// value, allowed set, clause), clref's own faults and findings. With CLREF_CHECK_HTML, the enqueue joins the HTML
// report of the whole application, which is written anew after each checked enqueue (html_report.hpp).
void reportChecked(const Enqueue& e);
// An enqueue passed through without a check, and why.
void reportNotChecked(const std::string& kernel, const std::string& reason);

}  // namespace clref::layer
